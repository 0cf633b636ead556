// The moc3 container layer: a well-formed file opens, and every damaged or hostile header,
// count or offset is refused with a message naming it. Haru (from the npm package that
// scripts/fetch_cubism_core.sh caches; never committed) is used when present.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "import/moc3_file.hpp"

namespace {

using p2l::moc3::File;

void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

// An empty version-1 file as the Editor lays it out: header, 160 slots, the runtime area,
// the count table at 1984, the canvas at 2112; every array empty, pointing at the end.
std::vector<std::uint8_t> empty_moc3(std::uint8_t version = 1) {
  const std::size_t counts = 1984, canvas = counts + (version >= 5 ? 256 : 128), end = canvas + 64;
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
  for (std::uint8_t version : {1, 2, 3, 4, 5}) {
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
  b[4] = 6;
  refused(b, "version 6");
  b[4] = 9;
  refused(b, "unknown moc3 version 9");
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
  // Every single-byte corruption of the header and tables opens or is refused; none crashes.
  for (std::size_t at = 0; at < 2300; ++at) {
    auto bad = b;
    bad[at] ^= 0xA5;
    File g;
    p2l::Error ge;
    (void)File::open(bad, g, ge);
  }
}

}  // namespace
