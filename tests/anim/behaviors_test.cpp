// Expressions, part poses and behaviors (src/anim/expressions, pose, behaviors): the rules of
// docs/RUNTIME.md, checked against values worked out by hand from those rules, against
// Cubism's formulas where p2lrt matches them, and against the original runtime's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "anim/behaviors.hpp"
#include "anim/expressions.hpp"
#include "anim/pose.hpp"
#include "p2l/format.hpp"
#include "p2l/rig.hpp"
#include "rig_builder.hpp"
#include "test_util.hpp"

namespace {

using p2l::ExpressionBlend;
using p2l::Rig;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

using p2l_test::param;

// Cubism's sine easing, written out independently of the implementation.
double ease(double x) {
  x = x < 0 ? 0 : (x > 1 ? 1 : x);
  return 0.5 - 0.5 * std::cos(std::numbers::pi * x);
}

// ---------------------------------------------------------------------------------------
// Expressions

p2l::Expression expression(const std::string& id, float fade_in, float fade_out,
                           std::vector<p2l::ExpressionValue> values) {
  p2l::Expression e;
  e.id = id;
  e.fade_in = fade_in;
  e.fade_out = fade_out;
  e.values = std::move(values);
  return e;
}

// Parameters 0..3 range -100..100; expressions:
//  0 "mix": Add p0 +3, Multiply p1 x2, Overwrite p2 = 5 (fade 1 / 1)
//  1 "add4": Add p0 +4 (fade 1 / 1)
//  2 "add2": Add p0 +2 (fade in 0.5, out 0.25)
//  3 "over10": Overwrite p3 = 10 (fade 1 / 1)
//  4 "over0": Overwrite p3 = 0 (fade 0.5 / 1)
//  5 "mul3": Multiply p1 x3 (fade 1 / 1)
//  6 "instant": Add p0 +1, a record on parameter 99 (ignored) (fade 0 / 0)
Rig expression_rig() {
  Rig rig;
  for (int i = 0; i < 4; ++i) rig.parameters.push_back(param("P" + std::to_string(i), -100, 100, 0));
  rig.expressions.push_back(expression("mix", 1, 1,
                                       {{0, ExpressionBlend::Add, 3.0f},
                                        {1, ExpressionBlend::Multiply, 2.0f},
                                        {2, ExpressionBlend::Overwrite, 5.0f}}));
  rig.expressions.push_back(expression("add4", 1, 1, {{0, ExpressionBlend::Add, 4.0f}}));
  rig.expressions.push_back(expression("add2", 0.5f, 0.25f, {{0, ExpressionBlend::Add, 2.0f}}));
  rig.expressions.push_back(expression("over10", 1, 1, {{3, ExpressionBlend::Overwrite, 10.0f}}));
  rig.expressions.push_back(expression("over0", 0.5f, 1, {{3, ExpressionBlend::Overwrite, 0.0f}}));
  rig.expressions.push_back(expression("mul3", 1, 1, {{1, ExpressionBlend::Multiply, 3.0f}}));
  rig.expressions.push_back(
      expression("instant", 0, 0, {{0, ExpressionBlend::Add, 1.0f}, {99, ExpressionBlend::Add, 50.0f}}));
  return rig;
}

const std::vector<float> kBase = {1.0f, 2.0f, 3.0f, 4.0f};

std::vector<float> run(p2l::anim::Expressions& ex, float dt) {
  std::vector<float> v = kBase;
  ex.update(dt, v);
  return v;
}

std::vector<std::uint32_t> playing(const p2l::anim::Expressions& ex) {
  std::vector<std::uint32_t> out(8);
  out.resize(ex.playing(out));
  return out;
}

// Cubism's expression manager for one expression of fade weight E: the accumulators take
// the expression's contribution as is, then Set(p, (over + add) * mul, E).
double cubism_one(double c, ExpressionBlend blend, double x, double e) {
  double add = 0, mul = 1, over = c;
  if (blend == ExpressionBlend::Add) add = x;
  if (blend == ExpressionBlend::Multiply) mul = x;
  if (blend == ExpressionBlend::Overwrite) over = x;
  return c + ((over + add) * mul - c) * e;
}

TEST(Expressions, SingleExpressionFadingInEqualsCubism) {
  const Rig rig = expression_rig();
  for (const float t : {0.5f, 0.3f, 0.8f}) {
    p2l::anim::Expressions ex(rig);
    ex.play(0);
    const std::vector<float> v = run(ex, t);
    const double e = ease(t / 1.0);
    EXPECT_NEAR(v[0], cubism_one(1, ExpressionBlend::Add, 3, e), 1e-5) << t;
    EXPECT_NEAR(v[1], cubism_one(2, ExpressionBlend::Multiply, 2, e), 1e-5) << t;
    EXPECT_NEAR(v[2], cubism_one(3, ExpressionBlend::Overwrite, 5, e), 1e-5) << t;
    EXPECT_EQ(v[3], 4.0f);  // named by no expression playing
  }
  // At half the fade-in the weight is exactly 0.5.
  p2l::anim::Expressions ex(rig);
  ex.play(0);
  const std::vector<float> v = run(ex, 0.5f);
  EXPECT_NEAR(v[0], 1 + 3 * 0.5, 1e-6);
  EXPECT_NEAR(v[1], 2 * (1 + (2 - 1) * 0.5), 1e-6);
  EXPECT_NEAR(v[2], 3 + (5 - 3) * 0.5, 1e-6);
}

// A host value near float's largest times a Multiply leaves float's range: the result is
// saturated, finite, with its sign (found by the C API fuzzer: -3.39e38 x 2 became -inf).
TEST(Expressions, AMultiplyPastFloatsRangeSaturates) {
  const Rig rig = expression_rig();
  p2l::anim::Expressions ex(rig);
  ex.play(5);  // "mul3": p1 x3
  std::vector<float> v = kBase;
  v[1] = -3.3895e38f;
  ex.update(2.0f, v);
  EXPECT_EQ(v[1], -std::numeric_limits<float>::max());
  v = kBase;
  v[1] = 2e38f;
  ex.update(0.0f, v);
  EXPECT_EQ(v[1], std::numeric_limits<float>::max());
}

TEST(Expressions, SingleExpressionFadingOutEqualsCubism) {
  const Rig rig = expression_rig();
  p2l::anim::Expressions ex(rig);
  ex.play(0);
  run(ex, 2.0f);
  EXPECT_TRUE(ex.remove(0));
  const std::vector<float> v = run(ex, 0.25f);
  const double e = 1.0 - ease(0.25 / 1.0);  // fade-in complete, fade-out term
  EXPECT_NEAR(v[0], cubism_one(1, ExpressionBlend::Add, 3, e), 1e-5);
  EXPECT_NEAR(v[1], cubism_one(2, ExpressionBlend::Multiply, 2, e), 1e-5);
  EXPECT_NEAR(v[2], cubism_one(3, ExpressionBlend::Overwrite, 5, e), 1e-5);
}

TEST(Expressions, FullWeightValues) {
  const Rig rig = expression_rig();
  p2l::anim::Expressions ex(rig);
  ex.play(0);
  run(ex, 0.6f);
  const std::vector<float> v = run(ex, 0.6f);  // age 1.2 > fade-in
  EXPECT_EQ(v[0], 4.0f);
  EXPECT_EQ(v[1], 4.0f);
  EXPECT_EQ(v[2], 5.0f);
  EXPECT_EQ(v[3], 4.0f);
  // A fade-in of 0 is full at once; a record on a parameter past the end is ignored.
  p2l::anim::Expressions instant(rig);
  instant.play(6);
  EXPECT_EQ(run(instant, 0.0f)[0], 2.0f);
}

TEST(Expressions, PlayReplacesFadingOutAsTheNewOneFadesIn) {
  const Rig rig = expression_rig();
  p2l::anim::Expressions ex(rig);
  ex.play(1);  // add4
  run(ex, 2.0f);
  ex.play(2);  // add2, fade-in 0.5: add4 fades out as add2 fades in
  EXPECT_EQ(playing(ex), std::vector<std::uint32_t>{2});
  // After 0.125 s: add2's fade-in term ease(0.25), add4's weight 1 - that.
  double fin = ease(0.125 / 0.5);
  EXPECT_NEAR(run(ex, 0.125f)[0], 1 + 4 * (1 - fin) + 2 * fin, 1e-5);
  fin = ease(0.25 / 0.5);  // 0.5
  EXPECT_NEAR(run(ex, 0.125f)[0], 1 + 4 * 0.5 + 2 * 0.5, 1e-5);
  // Once add2 is fully in, add4 is gone.
  EXPECT_NEAR(run(ex, 0.25f)[0], 3.0f, 1e-6);
  EXPECT_NEAR(run(ex, 1.0f)[0], 3.0f, 1e-6);
}

TEST(Expressions, ReplacedOverwriteFadesOutInsteadOfBeingDropped) {
  const Rig rig = expression_rig();
  p2l::anim::Expressions ex(rig);
  ex.play(3);  // over10
  EXPECT_EQ(run(ex, 2.0f)[3], 10.0f);
  ex.play(4);  // over0, fade-in 0.5
  // At 0.25 s: over10 weight 0.5, over0 weight 0.5, in start order from c = 4:
  // over = 4 + (10 - 4) * 0.5 = 7, then 7 + (0 - 7) * 0.5 = 3.5.
  EXPECT_NEAR(run(ex, 0.25f)[3], 3.5f, 1e-5);
  EXPECT_NEAR(run(ex, 0.25f)[3], 0.0f, 1e-6);
}

TEST(Expressions, PlayingTheSameExpressionAgainRestarts) {
  const Rig rig = expression_rig();
  p2l::anim::Expressions ex(rig);
  ex.play(1);
  run(ex, 2.0f);
  ex.play(1);  // a fresh entry fading in while the old one fades out: the sum stays 4
  EXPECT_EQ(playing(ex), std::vector<std::uint32_t>{1});
  EXPECT_NEAR(run(ex, 0.3f)[0], 5.0f, 1e-5);
  EXPECT_NEAR(run(ex, 0.3f)[0], 5.0f, 1e-5);
  EXPECT_NEAR(run(ex, 0.5f)[0], 5.0f, 1e-5);
  EXPECT_EQ(playing(ex), std::vector<std::uint32_t>{1});
}

TEST(Expressions, AddAndRemoveStack) {
  const Rig rig = expression_rig();
  p2l::anim::Expressions ex(rig);
  EXPECT_TRUE(ex.add(1));
  EXPECT_FALSE(ex.add(1));  // already playing
  EXPECT_TRUE(ex.add(2));
  EXPECT_TRUE(ex.add(0));
  EXPECT_TRUE(ex.add(5));
  EXPECT_FALSE(ex.add(7));  // no such expression
  // Half way in (add4 and mix and mul3: 0.5 s of 1; add2: 0.5 s of 0.5).
  std::vector<float> v = run(ex, 0.5f);
  EXPECT_NEAR(v[0], 1 + 4 * 0.5 + 2 * 1.0 + 3 * 0.5, 1e-5);
  EXPECT_NEAR(v[1], 2 * (1 + (2 - 1) * 0.5) * (1 + (3 - 1) * 0.5), 1e-5);  // Multiply values multiply
  v = run(ex, 1.0f);
  EXPECT_NEAR(v[0], 1 + 4 + 2 + 3, 1e-5);
  EXPECT_NEAR(v[1], 2 * 2 * 3, 1e-5);
  // Removing one fades it out over its own fade-out time, leaving the others.
  EXPECT_TRUE(ex.remove(1));
  EXPECT_FALSE(ex.remove(1));  // fading out: not playing
  EXPECT_FALSE(ex.remove(3));  // never played
  EXPECT_TRUE(ex.add(1));      // may start again over the one fading out
  EXPECT_TRUE(ex.remove(1));
  EXPECT_EQ(playing(ex), (std::vector<std::uint32_t>{2, 0, 5}));
}

TEST(Expressions, PlayingListsOldestFirst) {
  const Rig rig = expression_rig();
  p2l::anim::Expressions ex(rig);
  EXPECT_EQ(ex.playing({}), 0u);
  ex.add(5);
  ex.add(1);
  ex.add(3);
  EXPECT_EQ(playing(ex), (std::vector<std::uint32_t>{5, 1, 3}));
  std::uint32_t two[2] = {99, 99};
  EXPECT_EQ(ex.playing(two), 3u);  // counts all, writes what fits
  EXPECT_EQ(two[0], 5u);
  EXPECT_EQ(two[1], 1u);
  ex.remove(1);
  EXPECT_EQ(playing(ex), (std::vector<std::uint32_t>{5, 3}));
  ex.play(0);
  EXPECT_EQ(playing(ex), std::vector<std::uint32_t>{0});
  ex.play(-1);
  EXPECT_TRUE(playing(ex).empty());
  ex.play(1);
  ex.play(100);  // past the end: fades all out as -1
  EXPECT_TRUE(playing(ex).empty());
}

TEST(Expressions, FadeOutRemovesTheEntry) {
  const Rig rig = expression_rig();
  p2l::anim::Expressions ex(rig);
  ex.play(1);
  run(ex, 2.0f);
  ex.play(-1);  // fades out over add4's own fade-out (1 s)
  EXPECT_NEAR(run(ex, 0.5f)[0], 1 + 4 * 0.5, 1e-5);
  EXPECT_NEAR(run(ex, 0.25f)[0], 1 + 4 * (1 - ease(0.75)), 1e-5);
  EXPECT_EQ(run(ex, 0.25f)[0], 1.0f);  // weight 0: dropped, the value untouched
  // Dropped for good: the parameter is no longer touched at all.
  std::vector<float> v = {kNaN, 2, 3, 4};
  ex.update(0.1f, v);
  EXPECT_TRUE(std::isnan(v[0]));
  // A fade-out time of 0 goes at once; negative and NaN dt count as 0.
  ex.play(6);
  EXPECT_EQ(run(ex, -1.0f)[0], 2.0f);
  EXPECT_EQ(run(ex, kNaN)[0], 2.0f);
  ex.remove(6);
  EXPECT_EQ(run(ex, 0.0f)[0], 1.0f);
  // Removed while fading in: both terms apply.
  ex.add(1);
  run(ex, 0.5f);  // fade-in term 0.5
  ex.remove(1);
  EXPECT_NEAR(run(ex, 0.25f)[0], 1 + 4 * ease(0.75) * (1 - ease(0.25)), 1e-5);
}

TEST(Expressions, ManyStartsGrowTheListAndStillEvaluate) {
  const Rig rig = expression_rig();
  p2l::anim::Expressions ex(rig);
  for (int i = 0; i < 100; ++i) {
    ex.play(1);
    run(ex, 0.001f);
  }
  EXPECT_EQ(playing(ex), std::vector<std::uint32_t>{1});
  // The chain of replacements sums to one full add4 once the last one is fully in.
  EXPECT_NEAR(run(ex, 2.0f)[0], 5.0f, 1e-5);
}

// ---------------------------------------------------------------------------------------
// Poses

// Parts 0..6. Group 0: entries {part 0, linked 3}, {part 1}, {part 2, linked 4}. Group 1:
// {part 5}, {part 6}. Fade 0.5.
Rig pose_rig() {
  Rig rig;
  for (int i = 0; i < 8; ++i) {
    p2l::Part p;
    p.id = "Part" + std::to_string(i);
    rig.parts.push_back(p);
  }
  p2l::Pose pose;
  pose.fade_in = 0.5f;
  pose.groups.push_back({{{0, {3}}, {1, {}}, {2, {4}}}});
  pose.groups.push_back({{{5, {}}, {6, {}}}});
  rig.pose = pose;
  return rig;
}

std::vector<float> opacities(const p2l::anim::PosePlayer& p) {
  const auto s = p.part_opacity();
  return {s.begin(), s.end()};
}

TEST(Poses, InitialStateShowsEachGroupsFirstEntry) {
  const Rig rig = pose_rig();
  p2l::anim::PosePlayer p(rig);
  EXPECT_EQ(p.group_count(), 2u);
  EXPECT_EQ(p.group_size(0), 3u);
  EXPECT_EQ(p.group_size(1), 2u);
  EXPECT_EQ(p.group_size(2), 0u);
  EXPECT_EQ(p.shown(0), 0);
  EXPECT_EQ(p.shown(1), 0);
  EXPECT_EQ(p.shown(2), -1);
  EXPECT_EQ(opacities(p), (std::vector<float>{1, 0, 0, 1, 0, 1, 0, 1}));
  p.update(1.0f);  // nothing changes while the first entries show
  EXPECT_EQ(opacities(p), (std::vector<float>{1, 0, 0, 1, 0, 1, 0, 1}));

  Rig none;
  none.parts.resize(2);
  p2l::anim::PosePlayer q(none);
  EXPECT_EQ(q.group_count(), 0u);
  q.update(0.1f);
  EXPECT_EQ(opacities(q), (std::vector<float>{1, 1}));
}

TEST(Poses, ShowFadesByThePhiRule) {
  const Rig rig = pose_rig();
  p2l::anim::PosePlayer p(rig);
  EXPECT_FALSE(p.show(0, 3));
  EXPECT_FALSE(p.show(2, 0));
  ASSERT_TRUE(p.show(0, 1));
  EXPECT_EQ(p.shown(0), 1);
  // By hand, fade 0.5, phi 0.5, threshold 0.15:
  // dt 0.1: n = 0.2; a = 0.2 * (-0.5) / 0.5 + 1 = 0.8; (1 - 0.8)(1 - 0.2) = 0.16 > 0.15, so
  //   a = 1 - 0.15 / 0.8 = 0.8125.
  p.update(0.1f);
  std::vector<float> o = opacities(p);
  EXPECT_NEAR(o[1], 0.2f, 1e-6);
  EXPECT_NEAR(o[0], 0.8125f, 1e-6);
  EXPECT_NEAR(o[3], 0.8125f, 1e-6);  // linked to part 0
  EXPECT_EQ(o[2], 0.0f);
  EXPECT_EQ(o[4], 0.0f);
  EXPECT_EQ(o[5], 1.0f);  // the other group
  EXPECT_EQ(o[7], 1.0f);  // in no group
  // dt 0.1: n = 0.4; a = 0.6; 0.6 * 0.4 = 0.24 > 0.15, a = 1 - 0.15 / 0.6 = 0.75.
  p.update(0.1f);
  o = opacities(p);
  EXPECT_NEAR(o[1], 0.4f, 1e-6);
  EXPECT_NEAR(o[0], 0.75f, 1e-6);
  // dt 0 and negative and NaN leave the shown opacity (and here the rest).
  p.update(0.0f);
  p.update(-1.0f);
  p.update(kNaN);
  EXPECT_NEAR(opacities(p)[1], 0.4f, 1e-6);
  EXPECT_NEAR(opacities(p)[0], 0.75f, 1e-6);
  // dt 0.15: n = 0.7; a = 0.3 * 0.5 / 0.5 = 0.3; 0.7 * 0.3 = 0.21 > 0.15, a = 1 - 0.15 / 0.3 = 0.5.
  p.update(0.15f);
  o = opacities(p);
  EXPECT_NEAR(o[1], 0.7f, 1e-6);
  EXPECT_NEAR(o[0], 0.5f, 1e-6);
  EXPECT_NEAR(o[3], 0.5f, 1e-6);
  // dt 0.05: n = 0.8; a = 0.2; 0.8 * 0.2 = 0.16 > 0.15, a = 1 - 0.15 / 0.2 = 0.25.
  p.update(0.05f);
  o = opacities(p);
  EXPECT_NEAR(o[1], 0.8f, 1e-6);
  EXPECT_NEAR(o[0], 0.25f, 1e-6);
  // dt 0.2: n = 1, a = 0.
  p.update(0.2f);
  EXPECT_EQ(opacities(p), (std::vector<float>{0, 1, 0, 0, 0, 1, 0, 1}));
}

TEST(Poses, BackPartOnlyGoesDownAndLinkedPartsFollow) {
  const Rig rig = pose_rig();
  p2l::anim::PosePlayer p(rig);
  p.show(0, 2);
  // dt 0.3: n = 0.6; a = 0.4 * 0.5 / 0.5 = 0.4; 0.6 * 0.4 = 0.24 > 0.15, a = 1 - 0.15 / 0.4 = 0.625.
  p.update(0.3f);
  std::vector<float> o = opacities(p);
  EXPECT_NEAR(o[2], 0.6f, 1e-6);
  EXPECT_NEAR(o[4], 0.6f, 1e-6);
  EXPECT_NEAR(o[0], 0.625f, 1e-6);
  EXPECT_NEAR(o[3], 0.625f, 1e-6);
  EXPECT_EQ(o[1], 0.0f);
  // Back to entry 0 (at 0.625): n = 0.625 + 0.2 = 0.825; a = 0.175; 0.825 * 0.175 = 0.144 <= 0.15.
  p.show(0, 0);
  p.update(0.1f);
  o = opacities(p);
  EXPECT_NEAR(o[0], 0.825f, 1e-6);
  EXPECT_NEAR(o[2], 0.175f, 1e-6);
  EXPECT_NEAR(o[4], 0.175f, 1e-6);
}

TEST(Poses, ZeroFadeSwitchesAtOnce) {
  Rig rig = pose_rig();
  rig.pose->fade_in = 0;
  p2l::anim::PosePlayer p(rig);
  p.show(1, 1);
  p.update(0.0f);  // dt 0 leaves it
  EXPECT_EQ(opacities(p)[6], 0.0f);
  p.update(0.01f);
  EXPECT_EQ(opacities(p)[5], 0.0f);
  EXPECT_EQ(opacities(p)[6], 1.0f);
}

TEST(Poses, SteerShowsTheFirstEntryAbove0001) {
  const Rig rig = pose_rig();
  p2l::anim::PosePlayer p(rig);
  std::vector<float> v(8, kNaN);
  p.steer(v);  // no value: nothing changes
  EXPECT_EQ(p.shown(0), 0);
  v[2] = 1.0f;
  p.steer(v);
  EXPECT_EQ(p.shown(0), 2);
  EXPECT_EQ(p.shown(1), 0);
  v[0] = 0.0f;
  v[1] = 0.0005f;
  v[2] = 0.002f;
  v[1] = 0.0015f;
  p.steer(v);
  EXPECT_EQ(p.shown(0), 1);  // the first above 0.001
  // All set but none above 0.001: the entry shown stays (Cubism's index-0 fallback is not kept).
  v[0] = 0.0f;
  v[1] = 0.001f;
  v[2] = 0.0f;
  p.steer(v);
  EXPECT_EQ(p.shown(0), 1);
  // A linked part's value does not steer; a short span is safe.
  std::vector<float> w(8, kNaN);
  w[3] = 1.0f;
  w[4] = 1.0f;
  p.steer(w);
  EXPECT_EQ(p.shown(0), 1);
  p.steer(std::span<const float>(w.data(), 1));
  p.steer({});
  EXPECT_EQ(p.shown(0), 1);
  // Group 1 from its second entry.
  w[6] = 0.5f;
  p.steer(w);
  EXPECT_EQ(p.shown(1), 1);
  p.update(0.5f);
  EXPECT_EQ(opacities(p)[6], 1.0f);
  EXPECT_EQ(opacities(p)[5], 0.0f);
}

TEST(Poses, BadIndicesAreSkipped) {
  Rig rig = pose_rig();
  rig.pose->groups.push_back({{{99, {98}}, {7, {97}}}});  // part 99 and the links past the end
  rig.pose->groups.push_back({{{1, {}}, {7, {}}}});       // part 1 in two groups
  rig.pose->groups.push_back({});                        // an empty group
  p2l::anim::PosePlayer p(rig);
  EXPECT_EQ(p.group_size(4), 0u);
  EXPECT_FALSE(p.show(4, 0));
  p.show(2, 1);
  p.update(0.1f);
  p.steer(std::vector<float>(200, 1.0f));
  p.update(1.0f);
  EXPECT_EQ(opacities(p).size(), 8u);
  for (const float o : opacities(p)) EXPECT_TRUE(o >= 0.0f && o <= 1.0f);
}

// ---------------------------------------------------------------------------------------
// Behaviors

enum : std::uint32_t {
  kEyeL, kEyeR, kAngleX, kAngleY, kAngleZ, kBodyX, kBreath, kBallX, kBallY, kMouth, kOther, kParamCount
};

// Role parameters; EyeBlink comes as two records (both count); AngleY is asymmetric.
Rig behavior_rig() {
  Rig rig;
  rig.parameters = {param("EyeL", 0, 1, 1),       param("EyeR", 0, 1, 1),     param("AngleX", -30, 30, 0),
                    param("AngleY", -10, 30, 0),  param("AngleZ", -30, 30, 0), param("BodyX", -10, 10, 0),
                    param("Breath", 0, 1, 0),     param("BallX", -1, 1, 0),   param("BallY", -1, 1, 0),
                    param("Mouth", 0, 1, 0),      param("Other", 0, 1, 0)};
  rig.roles = {{"EyeBlink", {kEyeL}}, {"EyeBlink", {kEyeR, 500}},  // 500: a bad index, ignored
               {"AngleX", {kAngleX}}, {"AngleY", {kAngleY}},      {"AngleZ", {kAngleZ}},
               {"BodyAngleX", {kBodyX}}, {"Breath", {kBreath}},   {"EyeBallX", {kBallX}},
               {"EyeBallY", {kBallY}},   {"LipSync", {kMouth}}};
  return rig;
}

std::vector<float> defaults(const Rig& rig) {
  std::vector<float> v;
  for (const auto& p : rig.parameters) v.push_back(p.default_value);
  return v;
}

// The documented generator, written out: xorshift32, 24 bits.
struct Xorshift {
  std::uint32_t s;
  float next() {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return static_cast<float>(s >> 8) / 16777216.0f;
  }
};

// One update of [b] from the defaults; returns the values.
std::vector<float> step(p2l::anim::Behaviors& b, const Rig& rig, float dt) {
  std::vector<float> v = defaults(rig);
  b.update(dt, v);
  return v;
}

// Advances [b] by [seconds] in updates of at most 1 s (longer ones are clamped); returns the
// values of the last.
std::vector<float> advance(p2l::anim::Behaviors& b, const Rig& rig, double seconds) {
  std::vector<float> v;
  while (seconds > 0) {
    const double dt = std::min(seconds, 0.5);
    v = step(b, rig, static_cast<float>(dt));
    seconds -= static_cast<double>(static_cast<float>(dt));
  }
  return v;
}

TEST(Behaviors, Defaults) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  EXPECT_EQ(b.enabled(), p2l::anim::kBlink | p2l::anim::kBreath);
  b.set_enabled(0xFFu);
  EXPECT_EQ(b.enabled(), 15u);
  b.set_enabled(0);
  const std::vector<float> v = step(b, rig, 0.5f);
  EXPECT_EQ(v, defaults(rig));  // nothing enabled: nothing changes
}

TEST(Behaviors, FirstBlinkOfAnUnseededRigIsAtTwoSeconds) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  b.set_enabled(p2l::anim::kBlink);
  EXPECT_EQ(advance(b, rig, 1.99)[kEyeL], 1.0f);
  EXPECT_EQ(step(b, rig, 0.0200005f)[kEyeL], 1.0f);  // T >= 2: the blink starts here (t = 0)
  const std::vector<float> v = step(b, rig, 0.05f);
  EXPECT_NEAR(v[kEyeL], 0.5f, 1e-5);
  EXPECT_NEAR(v[kEyeR], 0.5f, 1e-5);  // the second EyeBlink record counts too
}

TEST(Behaviors, BlinkTimeline) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  b.set_enabled(p2l::anim::kBlink);
  b.seed(12345);
  Xorshift x{12345};
  const double first = 2.0 + x.next() * 4.0;  // drawn at T = 0
  ASSERT_GT(first, 2.0);
  EXPECT_EQ(advance(b, rig, first - 0.01)[kEyeL], 1.0f);
  EXPECT_EQ(step(b, rig, 0.0100005f)[kEyeL], 1.0f);  // starts (t = 0)
  // Closing over 0.1 s: 1 - t / 0.1; the EyeBlink value is multiplied.
  std::vector<float> v = defaults(rig);
  v[kEyeL] = 0.8f;
  b.update(0.03f, v);
  EXPECT_NEAR(v[kEyeL], 0.8f * 0.7f, 1e-5);
  EXPECT_NEAR(v[kEyeR], 0.7f, 1e-5);
  EXPECT_NEAR(step(b, rig, 0.05f)[kEyeL], 0.2f, 1e-5);     // t = 0.08
  EXPECT_EQ(step(b, rig, 0.04f)[kEyeL], 0.0f);             // t = 0.12: closed (0.1 .. 0.15)
  EXPECT_NEAR(step(b, rig, 0.09f)[kEyeL], 0.4f, 1e-5);     // t = 0.21: opening (t - 0.15) / 0.15
  EXPECT_NEAR(step(b, rig, 0.06f)[kEyeL], 0.8f, 1e-5);     // t = 0.27
  EXPECT_EQ(step(b, rig, 0.05f)[kEyeL], 1.0f);             // t = 0.32: open, next drawn from now
  const double end = first + 0.0100005 + 0.03 + 0.05 + 0.04 + 0.09 + 0.06 + 0.05;
  const double second = end + 2.0 + x.next() * 4.0;
  EXPECT_EQ(advance(b, rig, second - end - 0.01)[kEyeL], 1.0f);
  EXPECT_EQ(step(b, rig, 0.0100005f)[kEyeL], 1.0f);
  EXPECT_NEAR(step(b, rig, 0.05f)[kEyeL], 0.5f, 1e-4);
}

std::vector<float> eye_sequence(p2l::anim::Behaviors& b, const Rig& rig, int steps) {
  std::vector<float> out;
  for (int i = 0; i < steps; ++i) out.push_back(step(b, rig, 1.0f / 60.0f)[kEyeL]);
  return out;
}

TEST(Behaviors, SeedingRepeatsTheSequence) {
  const Rig rig = behavior_rig();
  const int steps = 60 * 40;
  p2l::anim::Behaviors a(rig), b(rig), c(rig), d(rig), e(rig);
  a.seed(42);
  b.seed(42);
  c.seed(43);
  d.seed(0);
  e.seed(0x2545F491u);
  const std::vector<float> sa = eye_sequence(a, rig, steps);
  EXPECT_EQ(sa, eye_sequence(b, rig, steps));
  EXPECT_NE(sa, eye_sequence(c, rig, steps));
  const std::vector<float> sd = eye_sequence(d, rig, steps);
  EXPECT_EQ(sd, eye_sequence(e, rig, steps));  // 0 takes the default seed
  // Blinks keep coming (the generator never sticks): 40 s hold at least 6 blinks of 2..6 s.
  int closed = 0;
  for (std::size_t i = 1; i < sd.size(); ++i)
    if (sd[i] == 0.0f && sd[i - 1] != 0.0f) ++closed;
  EXPECT_GE(closed, 6);
  // Re-seeding later draws the next blink from the current time, the same way.
  p2l::anim::Behaviors f(rig);
  eye_sequence(f, rig, 30);  // T = 0.5, no blink yet
  f.seed(42);
  const std::vector<float> sf = eye_sequence(f, rig, steps);
  EXPECT_EQ(std::vector<float>(sf.begin(), sf.begin() + 600), std::vector<float>(sa.begin(), sa.begin() + 600));
}

TEST(Behaviors, BlinkSettings) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  using S = p2l::anim::BlinkSettings;
  EXPECT_FALSE(b.set_blink(S{-1, 6, 0.1f, 0.05f, 0.15f}));
  EXPECT_FALSE(b.set_blink(S{2, 1, 0.1f, 0.05f, 0.15f}));  // reversed
  EXPECT_FALSE(b.set_blink(S{2, 6, 0, 0.05f, 0.15f}));     // zero closing
  EXPECT_FALSE(b.set_blink(S{2, 6, 0.1f, 0.05f, 0}));      // zero opening
  EXPECT_FALSE(b.set_blink(S{2, 6, 0.1f, -0.05f, 0.15f}));
  EXPECT_FALSE(b.set_blink(S{2, kInf, 0.1f, 0.05f, 0.15f}));
  EXPECT_FALSE(b.set_blink(S{kNaN, 6, 0.1f, 0.05f, 0.15f}));
  EXPECT_FALSE(b.set_blink(S{2, 6, 0.1f, kNaN, 0.15f}));
  // Rejected settings changed nothing: the default timeline (first blink at 2 s).
  b.set_enabled(p2l::anim::kBlink);
  {
    p2l::anim::Behaviors fresh(rig);
    fresh.set_enabled(p2l::anim::kBlink);
    advance(b, rig, 2.0);
    advance(fresh, rig, 2.0);
    EXPECT_EQ(step(b, rig, 0.05f)[kEyeL], step(fresh, rig, 0.05f)[kEyeL]);
  }
  // Accepted: a fixed interval of 1 s (no randomness left), closing 0.2, closed 0, opening 0.4.
  p2l::anim::Behaviors c(rig);
  c.set_enabled(p2l::anim::kBlink);
  EXPECT_TRUE(c.set_blink(S{1, 1, 0.2f, 0, 0.4f}));
  c.seed(7);  // the next blink at T + 1
  EXPECT_EQ(step(c, rig, 0.999f)[kEyeL], 1.0f);
  EXPECT_EQ(step(c, rig, 0.0010005f)[kEyeL], 1.0f);
  EXPECT_NEAR(step(c, rig, 0.1f)[kEyeL], 0.5f, 1e-5);   // closing 0.2
  EXPECT_NEAR(step(c, rig, 0.2f)[kEyeL], 0.25f, 1e-5);  // t = 0.3: opening (0.3 - 0.2) / 0.4
  EXPECT_EQ(step(c, rig, 0.35f)[kEyeL], 1.0f);           // t = 0.65: open; next 1 s from now
  EXPECT_EQ(step(c, rig, 0.999f)[kEyeL], 1.0f);
  EXPECT_EQ(step(c, rig, 0.0010005f)[kEyeL], 1.0f);
  EXPECT_NEAR(step(c, rig, 0.1f)[kEyeL], 0.5f, 1e-5);
}

TEST(Behaviors, BreathValues) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  b.set_enabled(p2l::anim::kBreath);
  const double t = 0.75;
  const auto wave = [&](double cycle) { return std::sin(2 * std::numbers::pi * t / cycle); };
  std::vector<float> v = defaults(rig);
  v[kAngleX] = 10.0f;  // the sways add to what is there
  b.update(0.75f, v);
  EXPECT_NEAR(v[kAngleX], 10 + 0.15 * wave(6.5345) * 60 * 0.5, 1e-4);
  EXPECT_NEAR(v[kAngleY], 0.08 * wave(3.5345) * 40 * 0.5, 1e-4);
  EXPECT_NEAR(v[kAngleZ], 0.10 * wave(5.5345) * 60 * 0.5, 1e-4);
  EXPECT_NEAR(v[kBodyX], 0.04 * wave(15.5345) * 20 * 0.5, 1e-4);
  EXPECT_NEAR(v[kBreath], 0 + (0.5 + 0.5 * wave(3.2345)) * 1, 1e-6);  // set, not added
  EXPECT_EQ(v[kEyeL], 1.0f);
  EXPECT_EQ(v[kOther], 0.0f);

  // Sway strength scales the angle sways, not the Breath parameter.
  p2l::anim::Behaviors s(rig);
  s.set_enabled(p2l::anim::kBreath);
  EXPECT_TRUE(s.set_strength(2, 1, 1));
  const std::vector<float> w = step(s, rig, 0.75f);
  EXPECT_NEAR(w[kAngleX], 2 * 0.15 * wave(6.5345) * 30, 1e-4);
  EXPECT_NEAR(w[kBreath], 0.5 + 0.5 * wave(3.2345), 1e-6);
  EXPECT_TRUE(s.set_strength(0, 1, 1));
  EXPECT_EQ(step(s, rig, 0.1f)[kAngleX], 0.0f);

  // dt is clamped to 0..1 (NaN: 0): 5 s advance 1 s.
  p2l::anim::Behaviors c(rig), d(rig);
  c.set_enabled(p2l::anim::kBreath);
  d.set_enabled(p2l::anim::kBreath);
  step(c, rig, kNaN);
  step(c, rig, -3.0f);
  EXPECT_EQ(step(c, rig, 5.0f), step(d, rig, 1.0f));
}

TEST(Behaviors, BreathPhaseStaysExactInLongRuns) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  b.set_enabled(p2l::anim::kBreath);
  // 30 hours in 1 s steps, then 0.25 s more.
  for (int i = 0; i < 30 * 3600; ++i) step(b, rig, 1.0f);
  const std::vector<float> v = step(b, rig, 0.25f);
  const double t = 30.0 * 3600.0 + 0.25;
  const double cycle = static_cast<double>(3.2345f);
  EXPECT_NEAR(v[kBreath], 0.5 + 0.5 * std::sin(2 * std::numbers::pi * std::fmod(t, cycle) / cycle), 1e-5);
}

TEST(Behaviors, StrengthValidation) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  EXPECT_FALSE(b.set_strength(-1, 1, 1));
  EXPECT_FALSE(b.set_strength(1, -0.1f, 1));
  EXPECT_FALSE(b.set_strength(1, 1, -1));
  EXPECT_FALSE(b.set_strength(kNaN, 1, 1));
  EXPECT_FALSE(b.set_strength(1, kInf, 1));
  EXPECT_TRUE(b.set_strength(0, 0, 0));
  EXPECT_TRUE(b.set_strength(1, 1, 1));
}

// Gaze x, y from the values of the EyeBall roles (range -1..1, default 0: the gaze itself).
struct Gaze {
  std::vector<float> x, y;
};
Gaze follow(p2l::anim::Behaviors& b, const Rig& rig, int steps, float dt) {
  Gaze g;
  for (int i = 0; i < steps; ++i) {
    const std::vector<float> v = step(b, rig, dt);
    g.x.push_back(v[kBallX]);
    g.y.push_back(v[kBallY]);
  }
  return g;
}

TEST(Behaviors, LookConvergesCriticallyDamped) {
  const Rig rig = behavior_rig();
  for (const float speed : {1.0f, 0.5f, 4.0f, 20.0f, 1000.0f}) {
    p2l::anim::Behaviors b(rig);
    b.set_enabled(p2l::anim::kLook);
    ASSERT_TRUE(b.set_strength(1, 1, speed));
    b.look_at(1.0f, -0.5f);
    const Gaze g = follow(b, rig, 600, 1.0f / 60.0f);
    float last = 0;
    for (std::size_t i = 0; i < g.x.size(); ++i) {
      EXPECT_LE(g.x[i], 1.0f + 1e-5f) << speed << " step " << i;    // no overshoot
      EXPECT_GE(g.y[i], -0.5f - 1e-5f) << speed << " step " << i;
      EXPECT_GE(g.x[i], last - 1e-6f) << speed << " step " << i;    // monotonic approach
      last = g.x[i];
    }
    EXPECT_NEAR(g.x.back(), 1.0f, 1e-3) << speed;
    EXPECT_NEAR(g.y.back(), -0.5f, 1e-3) << speed;
  }
  // Speed 1: about a third of a second. Critically damped from rest, omega = sqrt(120):
  // x(t) = 1 - (1 + omega t) exp(-omega t) = 0.879 at t = 1/3.
  p2l::anim::Behaviors b(rig);
  b.set_enabled(p2l::anim::kLook);
  b.look_at(1.0f, 0.0f);
  const Gaze g = follow(b, rig, 20, 1.0f / 60.0f);
  const double w = std::sqrt(120.0), t = 20.0 / 60.0;
  EXPECT_NEAR(g.x.back(), 1 - (1 + w * t) * std::exp(-w * t), 0.02);
  // One explicit sub-step of 1/120 s from rest: v = 120 * 1/120 = 1, x = v/120.
  p2l::anim::Behaviors one(rig);
  one.set_enabled(p2l::anim::kLook);
  one.look_at(1.0f, 0.0f);
  EXPECT_NEAR(step(one, rig, 1.0f / 120.0f)[kBallX], 1.0 / 120.0, 1e-6);
}

TEST(Behaviors, LookReachesTheRolesByRange) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  b.set_enabled(p2l::anim::kLook);
  b.look_at(5.0f, 0.5f);  // x clamped to 1
  follow(b, rig, 300, 1.0f / 60.0f);
  std::vector<float> v = step(b, rig, 1.0f / 60.0f);
  EXPECT_NEAR(v[kAngleX], 30 * 1.0, 1e-3);
  EXPECT_NEAR(v[kAngleY], (30 - 0) * 0.5, 1e-3);  // up: toward max
  EXPECT_NEAR(v[kBodyX], 10 * 0.33, 1e-3);
  EXPECT_NEAR(v[kBallX], 1.0, 1e-4);
  EXPECT_NEAR(v[kBallY], 0.5, 1e-4);
  EXPECT_NEAR(v[kAngleZ], (0 - -30) * -0.5, 1e-3);  // -x*y = -0.5: toward min
  b.look_at(-1.0f, -1.0f);
  follow(b, rig, 300, 1.0f / 60.0f);
  v = step(b, rig, 1.0f / 60.0f);
  EXPECT_NEAR(v[kAngleX], -30, 1e-3);
  EXPECT_NEAR(v[kAngleY], (0 - -10) * -1.0, 1e-3);  // down: toward min, a range of 10
  EXPECT_NEAR(v[kAngleZ], 30 * -1.0, 1e-3);         // -x*y = -1
  // Look strength scales the turn; NaN looks ahead.
  ASSERT_TRUE(b.set_strength(1, 0.5f, 1));
  v = step(b, rig, 1.0f / 60.0f);
  EXPECT_NEAR(v[kAngleX], -15, 1e-3);
  b.look_at(kNaN, kNaN);
  follow(b, rig, 300, 1.0f / 60.0f);
  v = step(b, rig, 1.0f / 60.0f);
  EXPECT_NEAR(v[kAngleX], 0, 1e-3);
  EXPECT_NEAR(v[kAngleY], 0, 1e-3);
}

TEST(Behaviors, LookSpeedZeroFreezesTheGaze) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  b.set_enabled(p2l::anim::kLook);
  b.look_at(1.0f, 0.0f);
  const float moving = follow(b, rig, 5, 1.0f / 60.0f).x.back();
  ASSERT_GT(moving, 0.0f);
  ASSERT_TRUE(b.set_strength(1, 1, 0));
  const Gaze g = follow(b, rig, 60, 1.0f / 60.0f);
  for (const float x : g.x) EXPECT_EQ(x, moving);
  ASSERT_TRUE(b.set_strength(1, 1, 1));
  EXPECT_GT(follow(b, rig, 60, 1.0f / 60.0f).x.back(), moving);
}

TEST(Behaviors, LipSync) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  b.set_enabled(p2l::anim::kLipSync);
  b.lip_sync(0.5f);
  EXPECT_EQ(step(b, rig, 0.01f)[kMouth], 0.5f);
  std::vector<float> v = defaults(rig);
  v[kMouth] = 0.8f;  // already wider: kept
  b.update(0.01f, v);
  EXPECT_EQ(v[kMouth], 0.8f);
  b.lip_sync(2.0f);
  EXPECT_EQ(step(b, rig, 0.01f)[kMouth], 1.0f);
  b.lip_sync(kNaN);
  EXPECT_EQ(step(b, rig, 0.01f)[kMouth], 0.0f);
  b.lip_sync(-1.0f);
  EXPECT_EQ(step(b, rig, 0.01f)[kMouth], 0.0f);
  // Switched off, the level is kept but not applied.
  b.lip_sync(0.7f);
  b.set_enabled(0);
  EXPECT_EQ(step(b, rig, 0.01f)[kMouth], 0.0f);
}

TEST(Behaviors, LipSyncSamplesRms) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  b.set_enabled(p2l::anim::kLipSync);
  const std::vector<float> square = {0.5f, -0.5f, 0.5f, -0.5f};
  EXPECT_FLOAT_EQ(b.lip_sync_samples(square, 1.0f), 0.5f);
  EXPECT_FLOAT_EQ(step(b, rig, 0.01f)[kMouth], 0.5f);
  const std::vector<float> ramp = {0.1f, 0.2f, 0.3f};
  EXPECT_NEAR(b.lip_sync_samples(ramp, 2.0f), 2 * std::sqrt((0.01 + 0.04 + 0.09) / 3), 1e-6);
  EXPECT_EQ(b.lip_sync_samples(square, 4.0f), 1.0f);  // clamped
  EXPECT_EQ(b.lip_sync_samples(square, -1.0f), 0.0f);
  EXPECT_EQ(b.lip_sync_samples(square, kNaN), 0.0f);
  EXPECT_EQ(b.lip_sync_samples({}, 1.0f), 0.0f);
  EXPECT_EQ(b.lip_sync_samples(std::span<const float>(static_cast<const float*>(nullptr), 0), 1.0f), 0.0f);
  EXPECT_EQ(step(b, rig, 0.01f)[kMouth], 0.0f);
  const std::vector<float> bad = {0.6f, kNaN, kInf, -kInf};  // counted as 0
  EXPECT_NEAR(b.lip_sync_samples(bad, 1.0f), std::sqrt(0.36 / 4), 1e-6);
  EXPECT_EQ(b.lip_sync_samples(std::vector<float>(4, 0.0f), kInf), 0.0f);  // 0 * inf
  EXPECT_EQ(b.lip_sync_samples(square, kInf), 1.0f);
}

TEST(Behaviors, ShortValueSpansAreSafe) {
  const Rig rig = behavior_rig();
  p2l::anim::Behaviors b(rig);
  b.set_enabled(15);
  std::vector<float> v(3, 0.0f);
  for (int i = 0; i < 300; ++i) b.update(1.0f / 30.0f, v);
  b.update(0.1f, {});
  SUCCEED();
}

// A rig may give its parameters any finite range, up to the whole of float's, and leave any value
// in it: every behavior writes a finite value (a width of max - min past float's made inf, and
// times a strength or a gaze of 0, NaN).
TEST(Behaviors, EveryRangeGivesFiniteValues) {
  constexpr float kMax = std::numeric_limits<float>::max();
  for (const float def : {0.0f, kMax, -kMax}) {
    Rig rig = behavior_rig();
    for (auto& p : rig.parameters) p = param(p.id, -kMax, kMax, def);
    for (const float strength : {0.0f, 1.0f})
      for (const float gaze : {0.0f, 1.0f, -1.0f})
        for (const float start : {def, kMax, -kMax, 0.0f}) {
          p2l::anim::Behaviors b(rig);
          b.set_enabled(15);
          ASSERT_TRUE(b.set_strength(strength, strength, 1.0f));
          b.look_at(gaze, -gaze);
          b.lip_sync(strength);
          for (int i = 0; i < 40; ++i) {
            std::vector<float> v(rig.parameters.size(), start);
            b.update(0.1f, v);
            for (std::size_t p = 0; p < v.size(); ++p)
              ASSERT_TRUE(std::isfinite(v[p])) << "parameter " << p << " from " << start << ", default " << def
                                               << ", strength " << strength << ", gaze " << gaze << ", update " << i
                                               << ": " << v[p];
          }
        }
  }
}

// The original runtime's output: rig extras, blink and breath on, seed 1, ParamAngleX = 20
// set by the host, 120 updates of 0.0166667 s (the rig's physics runs too, but these three
// parameters come from the behaviors alone).
TEST(Behaviors, OriginalVectorExtras120) {
  P2L_REQUIRE_VECTORS();
  const std::vector<std::uint8_t> bytes = p2l_test::vector_file("extras.p2lrt");
  ASSERT_FALSE(bytes.empty());
  const p2l::LoadResult loaded = p2l::load(bytes);
  ASSERT_TRUE(loaded) << loaded.error.message;
  const Rig& rig = *loaded.rig;
  const std::int32_t angle = rig.find_parameter("ParamAngleX");
  const std::int32_t breath = rig.find_parameter("ParamBreath");
  const std::int32_t eye = rig.find_parameter("ParamEyeLOpen");
  ASSERT_GE(angle, 0);
  ASSERT_GE(breath, 0);
  ASSERT_GE(eye, 0);
  p2l::anim::Behaviors b(rig);
  b.seed(1);
  std::vector<float> v;
  for (int i = 0; i < 120; ++i) {
    v.clear();
    for (const auto& p : rig.parameters) v.push_back(p.default_value);
    v[static_cast<std::size_t>(angle)] = 20.0f;
    b.update(0.0166667f, v);
  }
  EXPECT_NEAR(v[static_cast<std::size_t>(angle)], 24.22364f, 1e-5);
  EXPECT_NEAR(v[static_cast<std::size_t>(breath)], 0.16156042f, 1e-5);
  EXPECT_NEAR(v[static_cast<std::size_t>(eye)], 1.0f, 1e-5);
}

}  // namespace
