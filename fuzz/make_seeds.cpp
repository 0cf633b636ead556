// Writes the seed corpus for p2l_load_fuzzer:
//   p2l_make_seeds OUT_DIR [VECTOR_DIR...]
// - an empty rig written as version 2 and version 1 (the smallest valid files);
// - every *.p2lrt of each VECTOR_DIR as it is;
// - each one that loads, re-written the ways the tests write: v1, deflate, zstd,
//   stripped names, publish (f16/unorm16), no CRCs;
// - for the small ones, truncated and bit-flipped copies;
// - random rigs with every kind of content, extension chunks included (advanced mode);
// - the findings of earlier runs, rebuilt (tests/hostile_files.hpp).
// Files past the fuzzer's 1 MiB input cap are left out. The output is deterministic.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "p2l/format.hpp"
#include "hostile_files.hpp"
#include "random_rig.hpp"

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxSeed = std::size_t{1} << 20;    // the fuzzer's -max_len
constexpr std::size_t kMaxDamaged = std::size_t{64} << 10;  // damage only the small files

using Bytes = std::vector<std::uint8_t>;

struct Corpus {
  fs::path dir;
  int written = 0, skipped = 0;

  void put(const std::string& name, const Bytes& bytes) {
    if (bytes.size() > kMaxSeed) {
      ++skipped;
      return;
    }
    std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::fprintf(stderr, "p2l_make_seeds: cannot write %s\n", (dir / name).c_str());
      std::exit(1);
    }
    ++written;
  }
};

bool read_file(const fs::path& path, Bytes& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

void rewrites(Corpus& corpus, const std::string& stem, const p2l::Rig& rig) {
  struct Variant {
    const char* suffix;
    p2l::WriteOptions options;
  };
  std::vector<Variant> variants(6);
  variants[0].suffix = "v1";
  variants[0].options.version = 1;
  variants[1].suffix = "deflate";
  variants[1].options.compression = p2l::Compression::Deflate;
  variants[2].suffix = "zstd";
  variants[2].options.compression = p2l::Compression::Zstd;
  variants[3].suffix = "strip";
  variants[3].options.strip_names = true;
  variants[4].suffix = "publish";
  variants[4].options.publish = true;
  variants[5].suffix = "nocrc";
  variants[5].options.crc = false;
  for (const Variant& v : variants) {
    p2l::WriteResult w = p2l::write(rig, v.options);
    if (!w) {
      std::fprintf(stderr, "p2l_make_seeds: %s does not write as %s: %s\n", stem.c_str(), v.suffix,
                   w.error.to_string().c_str());
      continue;
    }
    corpus.put(stem + ".re-" + v.suffix + ".p2lrt", w.bytes);
  }
}

void damaged(Corpus& corpus, const std::string& stem, const Bytes& bytes) {
  if (bytes.size() > kMaxDamaged || bytes.size() < 8) return;
  // Cut at the header, after the first table entry, in the middle and one byte short.
  for (std::size_t cut : {std::size_t{32}, std::size_t{72}, bytes.size() / 2, bytes.size() - 1})
    if (cut < bytes.size()) corpus.put(stem + ".cut" + std::to_string(cut) + ".p2lrt", Bytes(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut)));
  // Single bit flips at positions from a fixed linear congruential sequence.
  std::uint32_t state = 0x2545F491u;
  for (int i = 0; i < 4; ++i) {
    state = state * 1664525u + 1013904223u;
    std::size_t at = (state >> 8) % bytes.size();
    Bytes flipped = bytes;
    flipped[at] = static_cast<std::uint8_t>(flipped[at] ^ (1u << (state & 7)));
    corpus.put(stem + ".flip" + std::to_string(at) + ".p2lrt", flipped);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: p2l_make_seeds OUT_DIR [VECTOR_DIR...]\n");
    return 2;
  }
  Corpus corpus{argv[1]};
  std::error_code ec;
  fs::create_directories(corpus.dir, ec);
  if (ec) {
    std::fprintf(stderr, "p2l_make_seeds: cannot create %s: %s\n", argv[1], ec.message().c_str());
    return 1;
  }

  p2l::Rig empty;
  rewrites(corpus, "empty", empty);
  corpus.put("empty.p2lrt", p2l::write(empty).bytes);

  // The load fuzzer's findings, rebuilt (tests/hostile_files.hpp).
  corpus.put("regress-descending-snap.p2lrt", p2l_test::descending_snap_file(-3.99e37f));

  // Random rigs carrying BONE, SKIN, COLL and SIMS, so the fuzzer starts inside advanced mode.
  p2l_test::RandomRigOptions everything;
  everything.non_core = true;
  everything.extensions = true;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    const p2l::WriteResult w = p2l::write(p2l_test::make_random_rig(seed, everything));
    if (w) corpus.put("random-ext-" + std::to_string(seed) + ".p2lrt", w.bytes);
  }

  int vectors = 0;
  for (int a = 2; a < argc; ++a) {
    fs::path dir = argv[a];
    if (!fs::is_directory(dir)) {
      std::fprintf(stderr, "p2l_make_seeds: %s is not a directory, skipped\n", argv[a]);
      continue;
    }
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".p2lrt") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& path : files) {
      Bytes bytes;
      if (!read_file(path, bytes)) {
        std::fprintf(stderr, "p2l_make_seeds: cannot read %s\n", path.c_str());
        continue;
      }
      ++vectors;
      std::string stem = path.stem().string();
      corpus.put(stem + ".p2lrt", bytes);
      p2l::LoadResult loaded = p2l::load(bytes);
      if (loaded) rewrites(corpus, stem, *loaded.rig);
      damaged(corpus, stem, bytes);
    }
  }
  std::printf("p2l_make_seeds: %d vectors -> %d seeds in %s (%d over 1 MiB left out)\n", vectors, corpus.written,
              corpus.dir.c_str(), corpus.skipped);
  return 0;
}
