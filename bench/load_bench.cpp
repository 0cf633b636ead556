// Load and write throughput on a large generated rig (bench/big_rig.hpp).
//
// Every benchmark reports bytes processed as the size of the rig's uncompressed
// version-2 file, so the MB/s columns compare: "how much rig per second", whatever
// the codec. The `file` counter is the size of the file actually read or written.
// The rig's counts and the file sizes are printed once, in the context header.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "big_rig.hpp"
#include "p2l/format.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes write_or_die(const p2l::Rig& rig, const p2l::WriteOptions& options, const char* what) {
  p2l::WriteResult w = p2l::write(rig, options);
  if (!w) {
    std::fprintf(stderr, "p2l_bench: the big rig does not write as %s: %s\n", what, w.error.to_string().c_str());
    std::exit(1);
  }
  return std::move(w.bytes);
}

p2l::WriteOptions with(p2l::Compression compression, int level = 0) {
  p2l::WriteOptions o;
  o.compression = compression;
  o.level = level;
  return o;
}

struct Fixture {
  p2l::Rig rig;
  Bytes plain, deflate, zstd;
  std::size_t vertices = 0;

  Fixture() : rig(p2l_bench::make_big_rig()) {
    p2l::Error e = p2l::validate(rig);
    if (!e.ok()) {
      std::fprintf(stderr, "p2l_bench: the big rig is invalid: %s\n", e.to_string().c_str());
      std::exit(1);
    }
    for (const p2l::Mesh& m : rig.meshes) vertices += m.vertex_count();
    plain = write_or_die(rig, {}, "v2");
    deflate = write_or_die(rig, with(p2l::Compression::Deflate), "v2 deflate");
    zstd = write_or_die(rig, with(p2l::Compression::Zstd), "v2 zstd");
    // The files must load back to the same rig, or the timings mean nothing.
    for (const Bytes* file : {&plain, &deflate, &zstd}) {
      p2l::LoadResult r = p2l::load(*file);
      if (!r || !(*r.rig == rig)) {
        std::fprintf(stderr, "p2l_bench: the big rig does not load back unchanged: %s\n", r.error.to_string().c_str());
        std::exit(1);
      }
    }
    auto mb = [](std::size_t n) {
      char text[32];
      std::snprintf(text, sizeof text, "%.2f MB", static_cast<double>(n) / 1e6);
      return std::string(text) + " (" + std::to_string(n) + " bytes)";
    };
    benchmark::AddCustomContext("p2l rig", std::to_string(rig.meshes.size()) + " meshes, " + std::to_string(vertices) +
                                               " vertices, " + std::to_string(rig.parameters.size()) +
                                               " parameters, " + std::to_string(rig.deformers.size()) + " deformers");
    benchmark::AddCustomContext("p2l v2 plain", mb(plain.size()));
    benchmark::AddCustomContext("p2l v2 deflate (zlib 9)", mb(deflate.size()));
    benchmark::AddCustomContext("p2l v2 zstd (level 19)", mb(zstd.size()));
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}
// Build the rig (and its context lines) before the benchmark library prints its header.
[[maybe_unused]] const bool kFixtureReady = (fixture(), true);

void finish(benchmark::State& state, std::size_t file_bytes) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(fixture().plain.size()));
  state.counters["file"] = static_cast<double>(file_bytes);
}

void load(benchmark::State& state, const Bytes& file, bool borrow) {
  p2l::LoadOptions options;
  options.borrow = borrow;
  for (auto _ : state) {
    p2l::LoadResult r = p2l::load(file, options);
    if (!r) {
      state.SkipWithError(r.error.to_string().c_str());
      break;
    }
    benchmark::DoNotOptimize(r.rig.get());
  }
  finish(state, file.size());
}

void write(benchmark::State& state, p2l::Compression compression) {
  const int level = compression == p2l::Compression::None ? 0 : static_cast<int>(state.range(0));
  const p2l::WriteOptions options = with(compression, level);
  std::size_t size = 0;
  for (auto _ : state) {
    p2l::WriteResult w = p2l::write(fixture().rig, options);
    if (!w) {
      state.SkipWithError(w.error.to_string().c_str());
      break;
    }
    size = w.bytes.size();
    benchmark::DoNotOptimize(w.bytes.data());
  }
  finish(state, size);
}

void BM_LoadPlainCopy(benchmark::State& state) { load(state, fixture().plain, false); }
void BM_LoadPlainBorrow(benchmark::State& state) { load(state, fixture().plain, true); }
void BM_LoadDeflate(benchmark::State& state) { load(state, fixture().deflate, false); }
void BM_LoadZstd(benchmark::State& state) { load(state, fixture().zstd, false); }
void BM_WritePlain(benchmark::State& state) { write(state, p2l::Compression::None); }
void BM_WriteDeflate(benchmark::State& state) { write(state, p2l::Compression::Deflate); }
void BM_WriteZstd(benchmark::State& state) { write(state, p2l::Compression::Zstd); }

}  // namespace

BENCHMARK(BM_LoadPlainCopy)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadPlainBorrow)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadDeflate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadZstd)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WritePlain)->Unit(benchmark::kMillisecond);
// level 0 is each codec's default (zlib 9, zstd 19), 1 the fastest.
BENCHMARK(BM_WriteDeflate)->Arg(0)->Arg(1)->ArgName("level")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WriteZstd)->Arg(0)->Arg(1)->ArgName("level")->Unit(benchmark::kMillisecond);
