// The mouth lip sync drives (src/anim/mouth): the three mixes, vowel shapes, the roles and the
// host's bindings, worked out by hand from docs/RUNTIME.md "Lip sync and vowels".
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "anim/mouth.hpp"
#include "p2l/rig.hpp"
#include "rig_builder.hpp"

namespace {

using p2l::LipMix;
using p2l::MouthSlot;
using p2l::anim::Mouth;
using p2l_test::param;

// 0 MouthOpen 0..1 (LipSync), 1 MouthForm -1..1 (MouthForm), 2 ParamA 0..1 (VowelA),
// 3 ParamI 0..1 (VowelI), 4 Other 0..10 (no role).
enum { kOpen, kForm, kA, kI, kOther };
p2l::Rig mouth_rig() {
  p2l::Rig rig;
  rig.parameters = {param("MouthOpen", 0, 1, 0), param("MouthForm", -1, 1, 0), param("ParamA", 0, 1, 0),
                    param("ParamI", 0, 1, 0), param("Other", 0, 10, 0)};
  rig.roles = {{"LipSync", {kOpen}}, {"MouthForm", {kForm}}, {"VowelA", {kA}}, {"VowelI", {kI}}};
  return rig;
}

std::vector<float> applied(const Mouth& m, std::vector<float> v) {
  m.apply(v);
  return v;
}

TEST(Mouth, TheThreeMixes) {
  const p2l::Rig rig = mouth_rig();
  Mouth m(rig);
  m.set_level(0.5f);
  const std::vector<float> clip = {0.3f, 0, 0, 0, 0};  // a clip left the mouth a little open
  m.set_mix(LipMix::Floor);
  EXPECT_FLOAT_EQ(applied(m, clip)[kOpen], 0.5f);
  EXPECT_FLOAT_EQ(applied(m, {0.9f, 0, 0, 0, 0})[kOpen], 0.9f);  // wider already: kept
  m.set_mix(LipMix::Add);
  EXPECT_FLOAT_EQ(applied(m, clip)[kOpen], 0.3f + 0.8f * 0.5f);  // Cubism: Add(level, 0.8)
  m.set_mix(LipMix::Set);
  EXPECT_FLOAT_EQ(applied(m, {0.9f, 0, 0, 0, 0})[kOpen], 0.5f);
  // Level only: nothing else moves.
  const std::vector<float> v = applied(m, clip);
  EXPECT_EQ(v[kForm], 0.0f);
  EXPECT_EQ(v[kA], 0.0f);
}

TEST(Mouth, VowelsShapeTheMouth) {
  const p2l::Rig rig = mouth_rig();
  Mouth m(rig);
  m.set_mix(LipMix::Set);
  m.set_level(0.8f);
  const std::array<float, p2l::kVowelCount> a{1, 0, 0, 0, 0, 0}, i{0, 1, 0, 0, 0, 0}, u{0, 0, 1, 0, 0, 0};
  m.set_vowels(&a);
  std::vector<float> v = applied(m, {0, 0.5f, 0, 0, 0});
  EXPECT_FLOAT_EQ(v[kOpen], 0.8f);   // A opens fully
  EXPECT_FLOAT_EQ(v[kForm], 0.0f);   // a neutral form, reached at a level of 1/4 and above
  EXPECT_FLOAT_EQ(v[kA], 0.8f);
  EXPECT_FLOAT_EQ(v[kI], 0.0f);
  m.set_vowels(&i);
  v = applied(m, {0, 0, 0, 0, 0});
  EXPECT_FLOAT_EQ(v[kOpen], 0.8f * 0.35f);  // I: nearly closed and wide
  EXPECT_FLOAT_EQ(v[kForm], 1.0f);
  EXPECT_FLOAT_EQ(v[kI], 0.8f);
  m.set_vowels(&u);
  EXPECT_FLOAT_EQ(applied(m, {0, 0, 0, 0, 0})[kForm], -1.0f);  // U: rounded
  // Quiet: the form moves only part of the way (level x 4).
  m.set_level(0.1f);
  EXPECT_FLOAT_EQ(applied(m, {0, 0.5f, 0, 0, 0})[kForm], 0.5f + (-1.0f - 0.5f) * 0.4f);
  // Silence leaves the form alone and opens by the level.
  const std::array<float, p2l::kVowelCount> silence{0, 0, 0, 0, 0, 1};
  m.set_vowels(&silence);
  v = applied(m, {0, 0.5f, 0, 0, 0});
  EXPECT_FLOAT_EQ(v[kForm], 0.5f);
  EXPECT_FLOAT_EQ(v[kOpen], 0.1f);
  // Weights that are not weights are silence; NaN levels are 0.
  const std::array<float, p2l::kVowelCount> bad{std::numeric_limits<float>::quiet_NaN(), -1, 0, 0, 0, 0};
  m.set_vowels(&bad);
  m.set_level(std::numeric_limits<float>::quiet_NaN());
  v = applied(m, {0, 0.5f, 0, 0, 0});
  EXPECT_EQ(v[kOpen], 0.0f);
  EXPECT_EQ(v[kForm], 0.5f);
}

TEST(Mouth, HostBindingsReplaceRoles) {
  const p2l::Rig rig = mouth_rig();
  Mouth m(rig);
  m.set_mix(LipMix::Set);
  m.set_level(1.0f);
  ASSERT_TRUE(m.bind(MouthSlot::Open, kOther));
  ASSERT_EQ(m.parameters(MouthSlot::Open).size(), 1u);
  EXPECT_EQ(m.parameters(MouthSlot::Open)[0], static_cast<std::uint32_t>(kOther));
  std::vector<float> v = applied(m, {0, 0, 0, 0, 0});
  EXPECT_FLOAT_EQ(v[kOther], 10.0f);  // the whole range
  EXPECT_FLOAT_EQ(v[kOpen], 0.0f);
  EXPECT_FALSE(m.bind(MouthSlot::Open, 5));
  EXPECT_FALSE(m.bind(MouthSlot::Open, -2));
  EXPECT_FALSE(m.bind(static_cast<MouthSlot>(7), 0));
  ASSERT_TRUE(m.bind(MouthSlot::Open, -1));  // the role's again
  EXPECT_FLOAT_EQ(applied(m, {0, 0, 0, 0, 0})[kOpen], 1.0f);
}

// A parameter both opened and shaped (Haru's LipSync group holds ParamMouthForm) is opened by the
// level alone, as Cubism's sample opens it, and shaped only with vowels.
TEST(Mouth, VowelsTakeTheFormFromTheOpening) {
  p2l::Rig rig = mouth_rig();
  rig.roles = {{"LipSync", {kForm, kOpen}}, {"MouthForm", {kForm}}};
  Mouth m(rig);
  m.set_mix(LipMix::Set);
  m.set_level(0.5f);
  std::vector<float> v = applied(m, {0, 0, 0, 0, 0});
  EXPECT_FLOAT_EQ(v[kForm], -1.0f + 2.0f * 0.5f);
  EXPECT_FLOAT_EQ(v[kOpen], 0.5f);
  const std::array<float, p2l::kVowelCount> i{0, 1, 0, 0, 0, 0};
  m.set_vowels(&i);
  v = applied(m, {0, 0, 0, 0, 0});
  EXPECT_FLOAT_EQ(v[kForm], 1.0f);  // wide: shaped, not opened
  EXPECT_FLOAT_EQ(v[kOpen], 0.5f * 0.35f);
}

// A rig may give a parameter any finite range, up to the whole of float's: the mouth writes a
// value in it, never inf or NaN (an opening of 0 times an infinite width made NaN in add, a
// capi fuzzer finding), and add keeps the sum in the range as Cubism's SetParameterValue does.
TEST(Mouth, EveryRangeGivesAValueInIt) {
  constexpr float kMax = std::numeric_limits<float>::max();
  p2l::Rig rig = mouth_rig();
  rig.parameters[kOpen] = param("MouthOpen", -kMax, kMax, 0);
  rig.parameters[kForm] = param("MouthForm", -kMax, kMax, 0);
  rig.parameters[kA] = param("ParamA", -kMax, kMax, kMax);
  rig.parameters[kI] = param("ParamI", -kMax, kMax, -kMax);
  Mouth m(rig);
  const std::array<float, p2l::kVowelCount> a{1, 0, 0, 0, 0, 0}, u{0, 0, 1, 0, 0, 0}, mix{0.3f, 0, 0.5f, 0, 0, 0.2f};
  const std::array<float, p2l::kVowelCount>* vowels[] = {nullptr, &a, &u, &mix};
  for (const LipMix lip : {LipMix::Floor, LipMix::Add, LipMix::Set})
    for (const float level : {0.0f, 0.1f, 0.5f, 1.0f})
      for (const auto* w : vowels)
        for (const float start : {0.0f, -kMax, kMax, 0.9f * kMax}) {
          m.set_mix(lip);
          m.set_level(level);
          m.set_vowels(w);
          const std::vector<float> v = applied(m, {start, start, start, start, 0});
          for (std::size_t p = 0; p < v.size(); ++p) {
            SCOPED_TRACE(testing::Message() << "mix " << static_cast<int>(lip) << ", level " << level << ", vowels "
                                            << (w != nullptr) << ", from " << start << ", parameter " << p);
            EXPECT_TRUE(std::isfinite(v[p])) << v[p];
            EXPECT_GE(v[p], rig.parameters[p].min);
            EXPECT_LE(v[p], rig.parameters[p].max);
          }
        }
  // Add at level 0 leaves the value as it was; the whole level opens to the top.
  m.set_vowels(nullptr);
  m.set_mix(LipMix::Add);
  m.set_level(0.0f);
  EXPECT_EQ(applied(m, {0.25f, 0, 0, 0, 0})[kOpen], 0.25f);
  m.set_level(1.0f);
  EXPECT_EQ(applied(m, {0.25f, 0, 0, 0, 0})[kOpen], kMax);
}

// Add clamps to the range, as Cubism's AddParameterValue (SetParameterValue) does.
TEST(Mouth, AddStaysInTheRange) {
  const p2l::Rig rig = mouth_rig();
  Mouth m(rig);
  m.set_mix(LipMix::Add);
  m.set_level(1.0f);
  EXPECT_FLOAT_EQ(applied(m, {0.9f, 0, 0, 0, 0})[kOpen], 1.0f);
  m.set_level(0.25f);
  EXPECT_FLOAT_EQ(applied(m, {0.5f, 0, 0, 0, 0})[kOpen], 0.7f);
}

}  // namespace
