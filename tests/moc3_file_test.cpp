// The moc3 container layer: a well-formed file opens, and every damaged or hostile header,
// count or offset is refused with a message naming it. Haru (from the npm package that
// scripts/fetch_cubism_core.sh caches; never committed) is used when present.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "import/moc3_bindings.hpp"
#include "p2l/import.hpp"
#include "import/moc3_objects.hpp"
#include "import/moc3_file.hpp"
#include <map>

namespace {

using p2l::moc3::File;

void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

// An empty file as the Editor lays it out: header, 160 slots (480 from version 6), the
// runtime area, the count table at 1984 (5824), the canvas after it; every array empty,
// pointing at the end.
std::vector<std::uint8_t> empty_moc3(std::uint8_t version = 1) {
  const std::size_t counts = version >= 6 ? 5824 : 1984, canvas = counts + (version >= 5 ? 256 : 128), end = canvas + 64;
  std::vector<std::uint8_t> b(end, 0);
  std::memcpy(b.data(), "MOC3", 4);
  b[4] = version;
  put32(b, 64, static_cast<std::uint32_t>(counts));
  put32(b, 68, static_cast<std::uint32_t>(canvas));
  for (std::size_t s = 2; s < p2l::moc3::kSlotCount; ++s) put32(b, 64 + s * 4, static_cast<std::uint32_t>(end));
  const float info[5] = {1000, 500, 500, 1000, 1000};
  std::memcpy(b.data() + canvas, info, sizeof info);
  return b;
}

TEST(Moc3File, AnEmptyFileOpens) {
  for (std::uint8_t version : {1, 2, 3, 4, 5, 6}) {
    auto b = empty_moc3(version);
    File f;
    p2l::Error e;
    ASSERT_TRUE(File::open(b, f, e)) << int(version) << ": " << e.to_string();
    EXPECT_EQ(f.version(), version);
    EXPECT_EQ(f.canvas().pixels_per_unit, 1000);
    EXPECT_EQ(f.count(p2l::moc3::kArtMeshes), 0u);
  }
}

TEST(Moc3File, HostileHeadersAndCountsAreRefusedByName) {
  auto refused = [](std::vector<std::uint8_t> b, const char* words) {
    File f;
    p2l::Error e;
    EXPECT_FALSE(File::open(b, f, e));
    EXPECT_NE(e.to_string().find(words), std::string::npos) << e.to_string();
  };
  auto b = empty_moc3();
  b[0] = 'X';
  refused(b, "MOC3");
  b = empty_moc3();
  b[4] = 7;
  refused(b, "moc3 version 7 is not supported: p2lrt reads versions 1-6 (Cubism 3.0-5.3); this file comes from a newer");
  b[4] = 0;
  refused(b, "moc3 version 0 is not supported");
  // A version 6 header on a file that ends inside its 480-slot table.
  b = empty_moc3();
  b[4] = 6;
  b.resize(64 + 480 * 4 - 4);
  refused(b, "inside the version 6 section table (1984 bytes)");
  b = empty_moc3();
  b[5] = 1;
  refused(b, "big-endian");
  b = empty_moc3();
  put32(b, 1984 + 4 * p2l::moc3::kArtMeshes, 0x80000000u);
  refused(b, "count of art meshes");
  b = empty_moc3();
  put32(b, 1984 + 4 * p2l::moc3::kDeformers, 3);
  refused(b, "3 deformers, but 0 warps and 0 rotations");
  // One part whose arrays all point at the end of the file: slot 2 is the first to overflow.
  b = empty_moc3();
  put32(b, 1984 + 4 * p2l::moc3::kParts, 1);
  refused(b, "section slot 2 (parts, 1 elements)");
  // Offsets far past the end, and counts that would overflow 32-bit products.
  b = empty_moc3();
  put32(b, 64, 0xFFFFFFF0u);
  refused(b, "count table");
  b = empty_moc3();
  put32(b, 1984 + 4 * p2l::moc3::kKeyformPositions, 0x7FFFFFFFu);
  refused(b, "keyform positions");
}

TEST(Moc3File, EveryTruncationIsRefusedWithoutReadingPastTheEnd) {
  const auto full = empty_moc3(4);
  for (std::size_t n = 0; n < full.size(); ++n) {
    std::vector<std::uint8_t> b(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    File f;
    p2l::Error e;
    EXPECT_FALSE(File::open(b, f, e)) << n;
  }
}


// A version-1 file with the given counts and arrays (slot -> bytes); arrays go after the
// canvas, 64-byte aligned, and every other slot points at the end.
std::vector<std::uint8_t> moc3_with(const std::map<int, std::uint32_t>& counts, const std::map<int, std::vector<std::uint8_t>>& arrays) {
  auto b = empty_moc3();
  for (auto [c, n] : counts) put32(b, 1984 + 4 * static_cast<std::size_t>(c), n);
  std::map<int, std::size_t> at;
  for (const auto& [slot, data] : arrays) {
    b.resize((b.size() + 63) / 64 * 64, 0);
    at[slot] = b.size();
    b.insert(b.end(), data.begin(), data.end());
  }
  b.resize((b.size() + 63) / 64 * 64, 0);
  for (std::size_t s = 2; s < p2l::moc3::kSlotCount; ++s) put32(b, 64 + s * 4, static_cast<std::uint32_t>(b.size()));
  for (auto [slot, offset] : at) put32(b, 64 + static_cast<std::size_t>(slot) * 4, static_cast<std::uint32_t>(offset));
  return b;
}

template <class T>
std::vector<std::uint8_t> bytes_of(std::vector<T> v) {
  std::vector<std::uint8_t> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

// Two parameters (A: bindings 0-1, B: binding 2); keys; three keyform bindings:
// 0 = no axes, 1 = (A over 3 keys), 2 = (A over 2 keys, B over 2 keys).
struct ChainParts {
  std::map<int, std::uint32_t> counts{{p2l::moc3::kParameters, 2}, {p2l::moc3::kParameterBindings, 3},
                                      {p2l::moc3::kKeys, 7}, {p2l::moc3::kKeyformBindings, 3},
                                      {p2l::moc3::kParameterBindingIndices, 3}};
  std::map<int, std::vector<std::uint8_t>> arrays{
      {50, std::vector<std::uint8_t>(128, 'P')},                  // IDs, fixed below
      {56, bytes_of<std::int32_t>({0, 2})}, {57, bytes_of<std::int32_t>({2, 1})},
      {72, bytes_of<std::int32_t>({0, 1, 2})},
      {73, bytes_of<std::int32_t>({0, 0, 1})}, {74, bytes_of<std::int32_t>({0, 1, 2})},
      {75, bytes_of<std::int32_t>({0, 3, 5})}, {76, bytes_of<std::int32_t>({3, 2, 2})},
      {77, bytes_of<float>({-30, 0, 30, -1, 1, 0, 1})}};
  ChainParts() {
    arrays[50][63] = 0;
    arrays[50][127] = 0;
    // The other parameter slots of version 1 need their arrays too.
    for (int s : {49, 51, 52, 53, 54, 55}) arrays[s] = std::vector<std::uint8_t>(s == 49 ? 16 : 8, 0);
  }
  std::vector<std::uint8_t> build() const { return moc3_with(counts, arrays); }
};

// A chain's file opened and its bindings read (ok), or the error that stopped it.
struct ReadChain {
  std::vector<std::uint8_t> bytes;
  File f;
  p2l::moc3::Bindings bindings;
  p2l::Error e;
  bool ok;
  explicit ReadChain(const ChainParts& parts)
      : bytes(parts.build()), ok(File::open(bytes, f, e) && p2l::moc3::Bindings::read(f, bindings, e)) {}
};

TEST(Moc3Bindings, ResolveAxesKeysAndKeyformCounts) {
  const ReadChain chain{ChainParts{}};
  ASSERT_TRUE(chain.ok) << chain.e.to_string();
  const p2l::moc3::Bindings& bindings = chain.bindings;
  ASSERT_EQ(bindings.size(), 3u);
  EXPECT_EQ(bindings.axes(0).size(), 0u);
  EXPECT_EQ(bindings.keyform_count(0), 1u) << "no axes: one keyform";
  ASSERT_EQ(bindings.axes(1).size(), 1u);
  EXPECT_EQ(bindings.axes(1)[0].parameter, 0u);
  EXPECT_EQ(bindings.axes(1)[0].keys[2], 30.0f);
  EXPECT_EQ(bindings.keyform_count(1), 3u);
  ASSERT_EQ(bindings.axes(2).size(), 2u);
  EXPECT_EQ(bindings.axes(2)[1].parameter, 1u) << "binding 2 belongs to the second parameter";
  EXPECT_EQ(bindings.keyform_count(2), 4u);
}

// Game exports the official Core loads have keys that repeat or go down: kept in file order
// (the Core's lookup scans them so, tests/cubism/fixtures v4-unsorted-keys) and listed.
TEST(Moc3Bindings, KeysThatRepeatOrGoDownAreKeptAndListed) {
  ChainParts parts;
  parts.arrays[77] = bytes_of<float>({-30, 30, 30, -1, 1, 0, -1});
  const ReadChain chain{parts};
  ASSERT_TRUE(chain.ok) << chain.e.to_string();
  const p2l::moc3::Bindings& bindings = chain.bindings;
  ASSERT_EQ(bindings.axes(1).size(), 1u);
  EXPECT_EQ(bindings.axes(1)[0].keys[1], 30.0f);
  EXPECT_EQ(bindings.axes(1)[0].keys[2], 30.0f) << "a repeated key is kept";
  ASSERT_EQ(bindings.unordered().size(), 2u);
  EXPECT_EQ(bindings.unordered()[0].binding, 0u);
  EXPECT_EQ(bindings.unordered()[0].key, 2u);
  EXPECT_EQ(bindings.unordered()[1].binding, 2u) << "the second parameter's binding goes down at its last key";
  EXPECT_EQ(bindings.unordered()[1].parameter, 1u);
}

TEST(Moc3Bindings, BrokenChainsAreRefusedByName) {
  auto refused = [](ChainParts parts, const char* words) {
    auto b = parts.build();
    File f;
    p2l::Error e;
    ASSERT_TRUE(File::open(b, f, e)) << e.to_string();
    p2l::moc3::Bindings bindings;
    EXPECT_FALSE(p2l::moc3::Bindings::read(f, bindings, e));
    EXPECT_NE(e.to_string().find(words), std::string::npos) << e.to_string();
  };
  ChainParts p;
  p.arrays[50][64] = 0xFF;  // not UTF-8: refused when the file opens
  {
    auto b = p.build();
    File f;
    p2l::Error e;
    EXPECT_FALSE(File::open(b, f, e));
    EXPECT_NE(e.to_string().find("ID 1 of the parameters is not UTF-8"), std::string::npos) << e.to_string();
  }
  p = ChainParts();
  p.arrays[72] = bytes_of<std::int32_t>({0, 7, 2});
  refused(p, "parameter binding 7 is out of range");
  p = ChainParts();
  p.arrays[57] = bytes_of<std::int32_t>({3, 1});
  refused(p, "belongs to parameters 0 and 1");
  p = ChainParts();
  p.arrays[56] = bytes_of<std::int32_t>({0, -5});
  refused(p, "parameter 1 owns parameter bindings -5");
  p = ChainParts();
  p.arrays[76] = bytes_of<std::int32_t>({3, 2, 9});
  refused(p, "has keys 5 + 9");
  p = ChainParts();
  p.arrays[72] = bytes_of<std::int32_t>({0, 1, 0});
  refused(p, "keys parameter 0 twice");
  p = ChainParts();
  p.arrays[74] = bytes_of<std::int32_t>({0, 1, 5});
  refused(p, "lists axes 1 + 5");
}

// Haru, when the npm package is in the cache: the counts the Core reports for it.
TEST(Moc3File, HaruFromTheCubismCorePackage) {
  const char* cache = std::getenv("P2L_CUBISM_CORE");
  std::string dir = cache ? cache : "";
  if (dir.empty()) {
    const char* home = std::getenv("HOME");
    dir = std::string(home ? home : "") + "/.cache/p2lrt/live2dcubismcore-1.0.2";
  }
  const std::string path = dir + "/package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.moc3";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "Haru not fetched (scripts/fetch_cubism_core.sh): " << path;
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> b{std::istreambuf_iterator<char>(in), {}};
  File f;
  p2l::Error e;
  ASSERT_TRUE(File::open(b, f, e)) << e.to_string();
  EXPECT_EQ(f.version(), 1);
  EXPECT_EQ(f.count(p2l::moc3::kArtMeshes), 84u);
  EXPECT_EQ(f.count(p2l::moc3::kParameters), 42u);
  EXPECT_EQ(f.canvas().pixels_per_unit, 2400.0f);
  EXPECT_EQ(f.id(50, 0).substr(0, 5), "Param");
  // Every object's keyform range is as long as its binding's key product (moc3.md 4.7).
  p2l::moc3::Bindings bindings;
  ASSERT_TRUE(p2l::moc3::Bindings::read(f, bindings, e)) << e.to_string();
  const struct { std::size_t binding_slot, count_slot; p2l::moc3::Count count; } kinds[] = {
      {4, 6, p2l::moc3::kParts}, {19, 21, p2l::moc3::kWarps}, {25, 27, p2l::moc3::kRotations}, {34, 36, p2l::moc3::kArtMeshes}};
  for (const auto& k : kinds)
    for (std::uint32_t i = 0; i < f.count(k.count); ++i)
      EXPECT_EQ(static_cast<std::uint32_t>(f.i32(k.count_slot, i)), bindings.keyform_count(static_cast<std::uint32_t>(f.i32(k.binding_slot, i))))
          << "slot " << k.binding_slot << " object " << i;
  // The objects, every reference checked: Haru's shape as the Core reports it.
  p2l::moc3::Objects objects;
  ASSERT_TRUE(p2l::moc3::Objects::read(f, bindings, objects, e)) << e.to_string();
  EXPECT_EQ(objects.meshes.size(), 84u);
  EXPECT_EQ(objects.parts.size(), 19u);
  EXPECT_EQ(objects.deformers.size(), 97u);
  std::uint64_t uv_floats = 0;
  for (const auto& m : objects.meshes) uv_floats += 2 * m.vertex_count;
  EXPECT_EQ(uv_floats, f.count(p2l::moc3::kUvs)) << "the meshes' UV runs tile the UV array";
  std::vector<int> listed(objects.meshes.size(), 0);
  for (const auto& g : objects.draw_groups)
    for (const auto& o : g.objects)
      if (!o.part) ++listed[o.index];
  for (std::size_t m = 0; m < listed.size(); ++m) EXPECT_EQ(listed[m], 1) << "mesh " << m << " in one draw-order group";
  // The import gives a rig the validator accepts.
  auto imported = p2l::import_moc3(b);
  ASSERT_TRUE(imported) << imported.error.to_string();
  EXPECT_EQ(imported.rig.meshes.size(), 84u);
  // Damaged references are refused by name.
  auto refused = [&](std::size_t slot, std::size_t element, std::uint32_t value, const char* words) {
    auto bad = b;
    std::uint32_t at;
    std::memcpy(&at, bad.data() + 64 + slot * 4, 4);
    std::memcpy(bad.data() + at + element * 4, &value, 4);
    File g;
    p2l::Error ge;
    p2l::moc3::Bindings gb;
    p2l::moc3::Objects go;
    ASSERT_TRUE(File::open(bad, g, ge)) << ge.to_string();
    ASSERT_TRUE(p2l::moc3::Bindings::read(g, gb, ge)) << ge.to_string();
    EXPECT_FALSE(p2l::moc3::Objects::read(g, gb, go, ge)) << words;
    EXPECT_NE(ge.to_string().find(words), std::string::npos) << ge.to_string();
  };
  refused(40, 0, 9999, "parent deformer 9999 is out of range");
  refused(16, 0, 5, "parent deformer (parents come first) 5");
  refused(43, 0, 1, "triangle index");
  refused(36, 0, 7, "keyforms, but its binding's keys combine to");
  refused(17, 3, 2, "is neither warp (0) nor rotation (1)");
  // Every single-byte corruption of the header and tables opens or is refused; none crashes.
  for (std::size_t at = 0; at < 2300; ++at) {
    auto bad = b;
    bad[at] ^= 0xA5;
    File g;
    p2l::Error ge;
    p2l::moc3::Bindings gb;
    p2l::moc3::Objects go;
    if (File::open(bad, g, ge) && p2l::moc3::Bindings::read(g, gb, ge)) (void)p2l::moc3::Objects::read(g, gb, go, ge);
    if (at % 7 == 0) (void)p2l::import_moc3(bad);  // the whole import too, on a sample of them
  }
}

}  // namespace
