// The Cubism Core C API (include/Live2DCubismCore.h) on synthetic moc3 files made in the test:
// the dynamic-flag protocol measured on the official Cores 4.2.2 and 6.0.1 (docs/CUBISM_CORE.md
// "Dynamic flags"), write-back, the lifetime rules, and hostile files refused with a reason.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Live2DCubismCore.h"
#include "p2l/csm_release.h"
#include "p2l/import.hpp"
#include "../cubism/synth_model.hpp"

namespace {

std::vector<std::string> g_log;
void collect(const char* message) { g_log.emplace_back(message); }

std::vector<std::uint8_t> make_moc3(std::uint64_t seed, int version) {
  p2l_test::synth::Features features;
  auto made = p2l_test::synth::generate_moc3(seed, version, features);
  EXPECT_TRUE(made.error.empty()) << made.error;
  return made.bytes;
}

// A buffer aligned as the Core asks, holding [bytes].
struct Aligned {
  explicit Aligned(const std::vector<std::uint8_t>& bytes, std::size_t alignment = csmAlignofMoc)
      : size(bytes.size()), block(static_cast<std::uint8_t*>(std::aligned_alloc(alignment, (bytes.size() / alignment + 1) * alignment))) {
    if (!bytes.empty()) std::memcpy(block, bytes.data(), bytes.size());
  }
  ~Aligned() { std::free(block); }
  Aligned(const Aligned&) = delete;
  Aligned& operator=(const Aligned&) = delete;
  std::size_t size;
  std::uint8_t* block;
};

struct Loaded {
  explicit Loaded(const std::vector<std::uint8_t>& bytes) : moc_bytes(bytes) {
    moc = csmReviveMocInPlace(moc_bytes.block, static_cast<unsigned>(moc_bytes.size));
    if (!moc) return;
    const unsigned size = csmGetSizeofModel(moc);
    memory = std::aligned_alloc(csmAlignofModel, (size / csmAlignofModel + 1) * csmAlignofModel);
    model = csmInitializeModelInPlace(moc, memory, size);
  }
  ~Loaded() {
    if (model) p2lcsm_release_model(model);
    std::free(memory);
    if (moc) p2lcsm_release_moc(moc);
  }
  // Every parameter at min + t * range, as the probes against the official Cores did.
  void pose(float t) {
    float* values = csmGetParameterValues(model);
    const float* lo = csmGetParameterMinimumValues(model);
    const float* hi = csmGetParameterMaximumValues(model);
    for (int i = 0; i < csmGetParameterCount(model); ++i) values[i] = lo[i] + (hi[i] - lo[i]) * t;
  }
  std::vector<csmFlags> flags() const {
    const int n = csmGetDrawableCount(model);
    return {csmGetDrawableDynamicFlags(model), csmGetDrawableDynamicFlags(model) + n};
  }
  std::vector<float> opacities() const {
    const int n = csmGetDrawableCount(model);
    return {csmGetDrawableOpacities(model), csmGetDrawableOpacities(model) + n};
  }
  Aligned moc_bytes;
  csmMoc* moc = nullptr;
  void* memory = nullptr;
  csmModel* model = nullptr;
};

constexpr int kChangeBits = csmVisibilityDidChange | csmOpacityDidChange | csmDrawOrderDidChange |
                            csmRenderOrderDidChange | csmVertexPositionsDidChange | csmBlendColorDidChange;

// Cubism 4.2's v4-colors fixture (tests/cubism/fixtures/LIST.txt): at t = 0.5 every drawable
// shows; at t = 0.9 two change opacity and colour and the third leaves its key range.
class Flags : public ::testing::Test {
 protected:
  Flags() : m(make_moc3(148, 4)) {}
  Loaded m;
};

TEST_F(Flags, ANewModelReportsEveryChange) {
  ASSERT_NE(m.model, nullptr);
  for (csmFlags f : m.flags()) EXPECT_EQ(f & kChangeBits, kChangeBits);
}

TEST_F(Flags, ResetChangesNothingVisibleUntilTheNextUpdate) {
  // The Frameworks reset right after updating and then draw by the visible and vertex bits.
  m.pose(0.5f);
  csmUpdateModel(m.model);
  const auto before = m.flags();
  csmResetDrawableDynamicFlags(m.model);
  EXPECT_EQ(m.flags(), before);
  csmResetDrawableDynamicFlags(m.model);
  EXPECT_EQ(m.flags(), before);
}

TEST_F(Flags, AnUpdateAfterAResetReportsChangesAgainstTheUpdateBefore) {
  m.pose(0.5f);
  csmUpdateModel(m.model);
  csmResetDrawableDynamicFlags(m.model);
  csmUpdateModel(m.model);  // nothing changed: the visible and vertex bits alone
  for (csmFlags f : m.flags()) EXPECT_EQ(f & ~(csmIsVisible | csmVertexPositionsDidChange), 0);
  const auto opacity_before = m.opacities();
  csmResetDrawableDynamicFlags(m.model);
  m.pose(0.9f);
  csmUpdateModel(m.model);
  const auto flags = m.flags();
  const auto opacity = m.opacities();
  int changed = 0;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    EXPECT_EQ((flags[i] & csmOpacityDidChange) != 0, opacity[i] != opacity_before[i]) << "drawable " << i;
    changed += opacity[i] != opacity_before[i];
  }
  EXPECT_GT(changed, 0);  // the pose is one that changes opacities
}

TEST_F(Flags, AnUpdateWithoutAResetRefreshesTheVisibleBitAlone) {
  m.pose(0.5f);
  csmUpdateModel(m.model);
  csmResetDrawableDynamicFlags(m.model);
  csmUpdateModel(m.model);
  const auto quiet = m.flags();
  m.pose(0.9f);  // changes opacities, colours and hides a drawable, without a reset
  csmUpdateModel(m.model);
  const auto flags = m.flags();
  int hidden = 0;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    EXPECT_EQ(flags[i] & kChangeBits, quiet[i] & kChangeBits) << "drawable " << i;
    hidden += (quiet[i] & csmIsVisible) && !(flags[i] & csmIsVisible);
  }
  EXPECT_GT(hidden, 0);  // the visible bit did follow
}

TEST_F(Flags, TheVertexBitMarksEveryDrawableEvaluatedNotOnlyMovedOnes) {
  m.pose(0.9f);
  csmUpdateModel(m.model);
  csmResetDrawableDynamicFlags(m.model);
  csmUpdateModel(m.model);  // the same pose again
  const auto flags = m.flags();
  int evaluated = 0, disabled = 0;
  for (csmFlags f : flags) {
    evaluated += (f & csmVertexPositionsDidChange) != 0;
    // A drawable out of its keys is not evaluated: no vertex bit, not visible.
    disabled += (f & (csmVertexPositionsDidChange | csmIsVisible)) == 0;
  }
  EXPECT_GT(evaluated, 0);
  EXPECT_GT(disabled, 0);
}

TEST(Values, OutOfRangeParametersAreClampedBackRepeatingOnesKept) {
  Loaded m(make_moc3(148, 4));
  ASSERT_NE(m.model, nullptr);
  float* values = csmGetParameterValues(m.model);
  float* parts = csmGetPartOpacities(m.model);
  const float* lo = csmGetParameterMinimumValues(m.model);
  const float* hi = csmGetParameterMaximumValues(m.model);
  const int* repeats = csmGetParameterRepeats(m.model);
  const int n = csmGetParameterCount(m.model);
  std::vector<float> set(n);
  for (int i = 0; i < n; ++i) values[i] = set[i] = hi[i] + (hi[i] - lo[i]);
  for (int i = 0; i < csmGetPartCount(m.model); ++i) parts[i] = 1.5f;
  csmUpdateModel(m.model);
  for (int i = 0; i < n; ++i) EXPECT_EQ(values[i], repeats[i] ? set[i] : hi[i]) << csmGetParameterIds(m.model)[i];
  for (int i = 0; i < csmGetPartCount(m.model); ++i) EXPECT_EQ(parts[i], 1.0f);
}

TEST(Lifetime, AModelOutlivesItsMocAndABufferUsedAgainReleasesWhatWasInIt) {
  const auto bytes = make_moc3(148, 4);
  Aligned moc_bytes(bytes);
  csmMoc* moc = csmReviveMocInPlace(moc_bytes.block, static_cast<unsigned>(moc_bytes.size));
  ASSERT_NE(moc, nullptr);
  const unsigned size = csmGetSizeofModel(moc);
  ASSERT_GT(size, 0u);
  void* memory = std::aligned_alloc(csmAlignofModel, (size / csmAlignofModel + 1) * csmAlignofModel);
  csmModel* model = csmInitializeModelInPlace(moc, memory, size);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(p2lcsm_release_moc(moc), 1);
  csmUpdateModel(model);
  EXPECT_GT(csmGetDrawableCount(model), 0);
  // The same memory made into a model again: the old one is released, the new one works.
  csmMoc* again = csmReviveMocInPlace(moc_bytes.block, static_cast<unsigned>(moc_bytes.size));
  ASSERT_NE(again, nullptr);
  csmModel* second = csmInitializeModelInPlace(again, memory, size);
  ASSERT_EQ(second, model);
  csmUpdateModel(second);
  EXPECT_EQ(p2lcsm_release_model(second), 1);
  EXPECT_EQ(p2lcsm_release_model(second), 0);  // gone: a second release finds nothing
  EXPECT_EQ(csmGetDrawableCount(second), 0);   // and the handle reads as no model
  EXPECT_EQ(p2lcsm_release_moc(again), 1);
  std::free(memory);
}

// ---- Hostile files ----

struct Verdict {
  int consistent = 0;
  bool revived = false;
  std::string log;
};

Verdict judge(const std::vector<std::uint8_t>& bytes) {
  g_log.clear();
  csmSetLogFunction(collect);
  Verdict v;
  Aligned a(bytes);
  v.consistent = csmHasMocConsistency(a.block, static_cast<unsigned>(a.size));
  csmMoc* moc = csmReviveMocInPlace(a.block, static_cast<unsigned>(a.size));
  v.revived = moc != nullptr;
  if (moc) p2lcsm_release_moc(moc);
  for (const auto& line : g_log) v.log += line + "\n";
  csmSetLogFunction(nullptr);
  return v;
}

std::uint32_t read_u32(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
void write_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

class Hostile : public ::testing::TestWithParam<int> {};

TEST_P(Hostile, IntactFilesReviveAndConsistencyAgrees) {
  const auto v = judge(make_moc3(7, GetParam()));
  EXPECT_EQ(v.consistent, 1) << v.log;
  EXPECT_TRUE(v.revived) << v.log;
}

TEST_P(Hostile, EveryTruncationIsRefusedWithAReason) {
  const auto bytes = make_moc3(7, GetParam());
  for (std::size_t length = 0; length < bytes.size(); length += 1 + length / 16) {
    const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length));
    const auto v = judge(cut);
    ASSERT_EQ(v.consistent, 0) << "length " << length;
    ASSERT_FALSE(v.revived) << "length " << length;
    ASSERT_NE(v.log.find("[CSM] [E]csmReviveMocInPlace: "), std::string::npos) << "length " << length << ": " << v.log;
  }
}

// The published CVE-2023-27566 class: section offsets pointing outside the file (the official
// Core once followed them while reviving in place). Every used slot of the offset table of
// [bytes] in turn, set past the end, near 2^32 and to 2^31 - 1: each is refused with a message,
// or (an empty array's offset, through which nothing is read) gives the intact file's model.
void expect_offsets_outside_refused(const std::vector<std::uint8_t>& bytes) {
  const int version = bytes.size() > 4 ? bytes[4] : 0;
  const std::size_t slots = version >= 6 ? 480 : version >= 5 ? 160 : 128;
  int refused = 0, checked = 0, harmless = 0;
  for (std::size_t slot = 0; slot < slots; ++slot) {
    const std::size_t at = 64 + 4 * slot;
    if (read_u32(bytes, at) == 0) continue;  // a slot the version does not use
    for (const std::uint32_t bad : {static_cast<std::uint32_t>(bytes.size()), 0xFFFFFFF0u, 0x7FFFFFFFu}) {
      auto damaged = bytes;
      write_u32(damaged, at, bad);
      const auto v = judge(damaged);
      ++checked;
      ASSERT_EQ(v.consistent != 0, v.revived) << "slot " << slot;
      if (!v.revived) {
        ++refused;
        ASSERT_FALSE(v.log.empty()) << "slot " << slot;
      } else {
        // Only an empty array's offset may point anywhere (nothing is read through it): then
        // the model is the intact file's, to the bit.
        Loaded intact(bytes), other(damaged);
        ASSERT_NE(other.model, nullptr) << "slot " << slot;
        intact.pose(0.3f);
        other.pose(0.3f);
        csmUpdateModel(intact.model);
        csmUpdateModel(other.model);
        ASSERT_EQ(intact.opacities(), other.opacities()) << "slot " << slot;
        const int n = csmGetDrawableCount(intact.model);
        for (int i = 0; i < n; ++i)
          ASSERT_EQ(std::memcmp(csmGetDrawableVertexPositions(intact.model)[i], csmGetDrawableVertexPositions(other.model)[i],
                                sizeof(csmVector2) * static_cast<std::size_t>(csmGetDrawableVertexCounts(intact.model)[i])),
                    0)
              << "slot " << slot;
        ++harmless;
      }
    }
  }
  EXPECT_GT(checked, 60);
  EXPECT_EQ(refused + harmless, checked);
  EXPECT_GT(refused, checked / 2);
}

TEST_P(Hostile, OffsetsOutsideTheFileAreRefused) { expect_offsets_outside_refused(make_moc3(7, GetParam())); }

// The same on a real export: Haru (moc3 version 1) from the npm package, cached outside the
// repository by scripts/fetch_cubism_core.sh. Official Cores 4.2.2 and 5.1.0 revive 266 and 267
// of these 326 files, trap on 48 and 43 and never return on 12 and 16 (docs/RELIABILITY.md).
TEST(HostileHaru, OffsetsOutsideTheFileAreRefused) {
  const char* cache = std::getenv("P2L_CACHE");
  const char* home = std::getenv("HOME");
  const std::string path = (cache ? std::string(cache) : std::string(home ? home : "") + "/.cache/p2lrt") +
                           "/live2dcubismcore-1.0.2/package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.moc3";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) GTEST_SKIP() << "Haru is not cached (scripts/fetch_cubism_core.sh fetches it): " << path;
  std::vector<std::uint8_t> bytes;
  for (int c; (c = std::fgetc(f)) != EOF;) bytes.push_back(static_cast<std::uint8_t>(c));
  std::fclose(f);
  ASSERT_EQ(judge(bytes).revived, true) << "the intact file";
  expect_offsets_outside_refused(bytes);
}

TEST_P(Hostile, HugeCountsAreRefused) {
  const auto bytes = make_moc3(7, GetParam());
  const std::uint32_t counts_at = read_u32(bytes, 64);  // slot 0: the count table
  for (std::size_t entry = 0; entry < 23; ++entry) {
    auto damaged = bytes;
    write_u32(damaged, counts_at + 4 * entry, 0x7FFFFFFFu);
    const auto v = judge(damaged);
    ASSERT_FALSE(v.revived) << "count " << entry;
    ASSERT_EQ(v.consistent, 0) << "count " << entry;
  }
}

TEST_P(Hostile, NewerVersionsAndOtherBytesAreNamed) {
  auto bytes = make_moc3(7, GetParam());
  auto newer = bytes;
  newer[4] = 7;
  Verdict v = judge(newer);
  EXPECT_FALSE(v.revived);
  EXPECT_NE(v.log.find("moc3 version 7 is newer than this Core reads"), std::string::npos) << v.log;
  Aligned a(newer);
  EXPECT_EQ(csmGetMocVersion(a.block, static_cast<unsigned>(a.size)), 7u);
  auto other = bytes;
  other[0] = 'X';
  v = judge(other);
  EXPECT_FALSE(v.revived);
  EXPECT_NE(v.log.find("does not start with a moc3 header"), std::string::npos) << v.log;
}


// A moc3 whose draw-order groups list one art mesh twice and another not at all (the csm
// fuzzer's finding: the unlisted mesh had render order -1, and with offscreens that indexed
// before an array). Both official Cores (4.2.2, 5.1.0) revive such a file, and 5.1.0 calls it
// consistent; on seed 1, version 4 they give render orders [0, 3, 1, 0]: the unlisted mesh
// keeps 0, the repeated one takes its later place. p2lrt draws a repeated mesh at its first
// place (the import reports it), so it gives 2 there.
std::vector<std::uint8_t> repeat_first_mesh(std::vector<std::uint8_t> bytes, int& unlisted, int& repeated) {
  const std::uint32_t counts = read_u32(bytes, 64);
  const std::uint32_t objects = read_u32(bytes, counts + 4 * 19);
  const std::uint32_t types = read_u32(bytes, 64 + 4 * 86), indices = read_u32(bytes, 64 + 4 * 87);
  std::vector<std::uint32_t> meshes;
  for (std::uint32_t i = 0; i < objects; ++i)
    if (read_u32(bytes, types + 4 * i) == 0) meshes.push_back(i);
  EXPECT_GE(meshes.size(), 2u);
  repeated = static_cast<int>(read_u32(bytes, indices + 4 * meshes[0]));
  unlisted = static_cast<int>(read_u32(bytes, indices + 4 * meshes[1]));
  write_u32(bytes, indices + 4 * meshes[1], static_cast<std::uint32_t>(repeated));
  return bytes;
}

TEST_P(Hostile, AMeshNoDrawOrderGroupListsHasRenderOrderZero) {
  p2l_test::synth::Features features;
  features.offscreens = GetParam() == 6;
  auto made = p2l_test::synth::generate_moc3(1, GetParam(), features);
  ASSERT_TRUE(made.error.empty()) << made.error;
  int unlisted = -1, repeated = -1;
  Loaded m(repeat_first_mesh(made.bytes, unlisted, repeated));
  ASSERT_NE(m.model, nullptr);
  const int nd = csmGetDrawableCount(m.model), no = csmGetOffscreenCount(m.model);
  for (const float t : {0.0f, 0.5f, 1.0f, 2.0f}) {
    m.pose(t);
    csmUpdateModel(m.model);
    const int* places = csmGetRenderOrders(m.model);
    const int* drawable_places = csmGetDrawableRenderOrders(m.model);
    EXPECT_EQ(places[unlisted], 0) << "t " << t;
    for (int i = 0; i < nd + no; ++i) {
      EXPECT_GE(places[i], 0) << "render order " << i << " at t " << t;
      EXPECT_LT(places[i], nd + no) << "render order " << i << " at t " << t;
    }
    for (int i = 0; i < nd; ++i) {
      EXPECT_GE(drawable_places[i], 0) << "drawable render order " << i << " at t " << t;
      EXPECT_LT(drawable_places[i], nd) << "drawable render order " << i << " at t " << t;
    }
  }
  // The import says what it did, under either rules.
  for (const p2l::CoreRules rules : {p2l::CoreRules::Cubism, p2l::CoreRules::Original}) {
    const auto bytes = repeat_first_mesh(made.bytes, unlisted, repeated);
    const p2l::ImportResult imported = p2l::import_moc3(bytes, {rules});
    ASSERT_TRUE(imported) << imported.error.to_string();
    std::string dropped;
    for (const auto& line : imported.report.dropped) dropped += line + "\n";
    EXPECT_NE(dropped.find("the draw-order groups list 1 art mesh a second time"), std::string::npos) << dropped;
    EXPECT_NE(dropped.find("1 art mesh in no draw-order group, not drawn"), std::string::npos) << dropped;
  }
  if (GetParam() == 4) {  // the official Cores' answer at defaults (above), but for the repeated mesh
    m.pose(0.0f);
    const float* lo = csmGetParameterDefaultValues(m.model);
    for (int i = 0; i < csmGetParameterCount(m.model); ++i) csmGetParameterValues(m.model)[i] = lo[i];
    csmUpdateModel(m.model);
    const int* places = csmGetRenderOrders(m.model);
    ASSERT_EQ(nd, 4);
    EXPECT_EQ((std::vector<int>(places, places + 4)), (std::vector<int>{0, 2, 1, 0}));
  }
}

INSTANTIATE_TEST_SUITE_P(Versions, Hostile, ::testing::Values(3, 4, 5, 6));

TEST(Misuse, NullAndForeignHandlesAndMisalignedBuffersAreRefused) {
  g_log.clear();
  csmSetLogFunction(collect);
  EXPECT_EQ(csmReviveMocInPlace(nullptr, 100), nullptr);
  const auto bytes = make_moc3(7, 4);
  std::vector<std::uint8_t> shifted(bytes.size() + 64 + 1);
  std::uint8_t* misaligned = shifted.data() + (64 - reinterpret_cast<std::uintptr_t>(shifted.data()) % 64) % 64 + 1;
  std::memcpy(misaligned, bytes.data(), bytes.size());
  EXPECT_EQ(csmReviveMocInPlace(misaligned, static_cast<unsigned>(bytes.size())), nullptr);
  alignas(64) static std::uint8_t junk[256] = {};
  EXPECT_EQ(csmGetSizeofModel(reinterpret_cast<csmMoc*>(junk)), 0u);
  EXPECT_EQ(csmInitializeModelInPlace(reinterpret_cast<csmMoc*>(junk), junk + 64, 64), nullptr);
  csmUpdateModel(reinterpret_cast<csmModel*>(junk));  // logs, does nothing
  EXPECT_EQ(csmGetDrawableCount(reinterpret_cast<csmModel*>(junk)), 0);
  EXPECT_EQ(csmGetParameterValues(reinterpret_cast<csmModel*>(junk)), nullptr);
  EXPECT_EQ(csmGetDrawableCount(nullptr), 0);
  EXPECT_GE(g_log.size(), 4u);
  EXPECT_NE(g_log[1].find("not aligned"), std::string::npos) << g_log[1];
  csmSetLogFunction(nullptr);
}

TEST(Versions, WhatTheLibraryReports) {
  EXPECT_EQ(csmGetVersion(), 0x06000001u);
  EXPECT_EQ(csmGetLatestMocVersion(), static_cast<csmMocVersion>(csmMocVersion_53));
  EXPECT_EQ(csmGetMocVersion(nullptr, 0), static_cast<csmMocVersion>(csmMocVersion_Unknown));
}

}  // namespace
