// Cubism playback (CEXT, EXPR and POSE version 2 flags): each rule by which Cubism's Web
// Framework plays a motion, an expression or a pose differently from p2lrt's own rules,
// pinned on synthetic clips. Where a value comes from the Framework itself it says so; the
// rest follows from the rule as docs/RUNTIME.md "Cubism playback" states it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "anim/clip_layers.hpp"
#include "anim/curve.hpp"
#include "anim/segment.hpp"
#include "anim/expressions.hpp"
#include "anim/frame_time.hpp"
#include "anim/pose.hpp"
#include "import/cubism/document.hpp"
#include "import/cubism/side_files.hpp"
#include "side_file_rig.hpp"

namespace {

using namespace p2l;
using anim::BezierRule;
using anim::ClipEffects;
using anim::ClipLayers;
using anim::ease_sine;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kDt = 1.0f / 60.0f;  // what a host passes through the float API

using p2l_test::seg;

// One parameter (range -100..100, default 0), [parts] parts, one clip with [curves], its
// CEXT record flagged for Cubism playback.
Rig cubism_rig(std::vector<Curve> curves, float duration, float fade_in, float fade_out, std::size_t parts = 0) {
  Rig r;
  p2l::Parameter p;
  p.id = "P";
  p.min = -100;
  p.max = 100;
  r.parameters.push_back(p);
  for (std::size_t i = 0; i < parts; ++i) {
    p2l::Part part;
    part.id = "Part" + std::to_string(i);
    r.parts.push_back(part);
  }
  Clip c;
  c.id = "c";
  c.duration = duration;
  c.looping = true;  // motion3 files say Loop: true; Cubism ignores it
  c.fade_in = fade_in;
  c.fade_out = fade_out;
  c.curves = std::move(curves);
  r.clips.push_back(c);
  ClipExtension x;
  x.clip = 0;
  x.cubism_playback = true;
  r.clip_extensions.push_back(x);
  return r;
}

Curve curve(float start_value, std::vector<CurveSegment> segments) {
  Curve c;
  c.start_value = start_value;
  c.segments = std::move(segments);
  return c;
}

// The layers over the host's pose (all 0), updated at 60 Hz as the animator does.
struct Player {
  ClipLayers layers;
  std::vector<float> values;
  ClipEffects fx;
  Player(const Rig& r, bool cubism = true) : layers(r, cubism), values(r.parameters.size()) {
    fx.part_values.assign(r.parts.size(), kNaN);
    fx.part_cubism.assign(r.parts.size(), 0);
  }
  float step(float dt = kDt) {
    std::fill(values.begin(), values.end(), 0.0f);
    layers.update(dt, p2l::anim::frame_seconds(dt), values, fx);
    return values[0];
  }
};

TEST(CubismPlayback, FirstUpdateSamplesTimeZeroAtWeightZero) {
  // A ramp 10 -> 20 over one second, fade-in 0.5 s: Cubism's first update starts the entry's
  // clock (time 0) and its fade-in (ease(0) = 0), so the host's value stays.
  const Rig rig = cubism_rig({curve(10, {seg(SegmentKind::Linear, 1, 20)})}, 1, 0.5f, 0);
  Player run(rig);
  run.layers.play_base(0);
  EXPECT_EQ(run.step(), 0.0f);
  EXPECT_EQ(run.layers.state(0).time, 0.0f);
  // The second update is at time 1/60 with weight ease(1/30).
  const float w = ease_sine(static_cast<float>((1.0 / 60) / 0.5));
  EXPECT_NEAR(run.step(), (10.0f + 10.0f / 60) * w, 1e-5);
  // p2lrt's own rules sample dt on the first update, at weight ease(dt / fade).
  Player own(rig, false);
  own.layers.play_base(0);
  EXPECT_NEAR(own.step(), (10.0f + 10.0f / 60) * w, 1e-5);
}

TEST(CubismPlayback, BlendsFromWhatTheClipsLeftLastUpdate) {
  // A constant 10 with a fade-in: Cubism's model keeps the motion's result, so each update
  // lerps from the last one's value (p <- p + (v - p) w), not from the host's pose.
  const Rig rig = cubism_rig({curve(10, {})}, 2, 1, 0);
  Player run(rig);
  run.layers.play_base(0);
  double p = 0;
  for (int k = 0; k < 30; ++k) {
    const double w = ease_sine(static_cast<float>(k / 60.0));
    p += (10.0 - p) * w;
    EXPECT_NEAR(run.step(), p, 1e-4) << "update " << k + 1;
  }
  EXPECT_GT(p, 9.9) << "the recurrence is nearly there when the fade-in is half way";
}

TEST(CubismPlayback, FadesOutBeforeItsEndAndIsDropped) {
  // 0 until 0.74 s, then 10; one second long, fade-out 0.5 s: the end time is start + 1 s,
  // so at 0.75 s the weight is ease(0.25 / 0.5) = 0.5 and the value 10 * 0.5 (from 0).
  const Rig rig = cubism_rig(
      {curve(0, {seg(SegmentKind::Stepped, 0.74f, 0), seg(SegmentKind::InverseStepped, 2, 10)})}, 1, 0, 0.5f);
  Player run(rig);
  run.layers.play_base(0);
  float v = 0;
  for (int k = 0; k <= 45; ++k) v = run.step();  // update 46: time 45/60 = 0.75 s
  EXPECT_NEAR(v, 10.0f * 0.5f, 1e-3);
  for (int k = 46; k < 60; ++k) run.step();
  EXPECT_EQ(run.layers.state(0).clip, 0) << "still playing before its time reaches the duration";
  const float left = run.step();  // update 61: time 1 s, the last one
  EXPECT_EQ(run.layers.state(0).clip, -1) << "dropped after the update its time reached the duration";
  EXPECT_TRUE(run.layers.state(0).finished);
  // Nothing plays any more: what it left stays (KeepsWhatAFinishedMotionLeft).
  EXPECT_EQ(run.step(), left);
}

// Two clips on parameter P: 0 "A", constant 10 for 0.5 s, and 1 "B", constant 20 for 1 s
// with a 0.5 s fade-in; no other fades.
Rig two_clip_rig() {
  Rig rig = cubism_rig({curve(10, {})}, 0.5f, 0, 0);
  rig.clips.push_back(rig.clips[0]);
  rig.clips[1].duration = 1;
  rig.clips[1].fade_in = 0.5f;
  rig.clips[1].curves[0].start_value = 20;
  ClipExtension x;
  x.clip = 1;
  x.cubism_playback = true;
  rig.clip_extensions.push_back(x);
  return rig;
}

TEST(CubismPlayback, KeepsWhatAFinishedMotionLeft) {
  // Cubism's sample loads the saved parameters, updates the motions and saves them, at every
  // frame: once A is dropped, nothing writes P and it keeps A's 10, and B then fades in from
  // 10. Asked for the host's pose back, P returns to 0 and B fades in from 0.
  const Rig rig = two_clip_rig();
  for (const bool keep : {true, false}) {
    Player run(rig);
    EXPECT_TRUE(run.layers.keep_values()) << "the default is Cubism's";
    run.layers.set_keep_values(keep);
    run.layers.play_base(0);
    for (int k = 0; k < 32; ++k) EXPECT_EQ(run.step(), 10.0f) << "update " << k + 1;
    // Update 31 is at 0.49999999999999994 s in double sums, update 32 past 0.5 s.
    ASSERT_EQ(run.layers.state(0).clip, -1) << "A is dropped after update 32";
    const float rest = keep ? 10.0f : 0.0f;
    for (int k = 0; k < 30; ++k) EXPECT_EQ(run.step(), rest) << (keep ? "kept" : "the host's pose");
    run.layers.play_base(1);
    EXPECT_EQ(run.step(), rest) << "B's first update weighs it at 0";
    const float w = ease_sine(static_cast<float>((1.0 / 60) / 0.5));
    EXPECT_NEAR(run.step(), rest + (20.0f - rest) * w, 1e-5);
  }
}

TEST(CubismPlayback, ClockStandsStillWhileNothingPlays) {
  // Cubism's clock is its motion manager's, which the sample updates only while a motion is
  // queued. After A (32 updates) and 166 updates with nothing queued, B's update 301 is at
  // 4.999999999999986 s on that clock, before a step at 5 s; a clock that ran on through the
  // 166 updates would put it at 5.0, past the step. B: 1 until 5 s, then 0.
  Rig rig = two_clip_rig();
  rig.clips[1].duration = 10;
  rig.clips[1].fade_in = 0;
  rig.clips[1].curves[0] =
      curve(1, {seg(SegmentKind::Stepped, 5, 1), seg(SegmentKind::InverseStepped, 6, 0)});
  const auto time_of_update_301 = [](int before) {
    double clock = 0, start = 0;
    for (int k = 0; k < before + 301; ++k) {
      clock += 1.0 / 60;
      if (k == before) start = clock;
    }
    return clock - start;
  };
  ASSERT_LT(time_of_update_301(32), 5.0);
  ASSERT_GE(time_of_update_301(32 + 166), 5.0);
  Player run(rig);
  run.layers.play_base(0);
  for (int k = 0; k < 32 + 166; ++k) run.step();
  ASSERT_EQ(run.layers.state(0).clip, -1);
  run.layers.play_base(1);
  for (int k = 0; k < 300; ++k) run.step();
  EXPECT_EQ(run.step(), 1.0f) << "update 301 is still before 5 s";
  EXPECT_EQ(run.step(), 0.0f);
}

TEST(CubismPlayback, IgnoresTheFilesLoopFlagAndLoopsOnlyWhenAsked) {
  const Rig rig = cubism_rig({curve(5, {})}, 0.5f, 0, 0);
  Player run(rig);
  EXPECT_FALSE(run.layers.looping(0)) << "Cubism never applies motion3 Meta.Loop";
  run.layers.play_base(0);
  for (int k = 0; k < 40; ++k) run.step();
  EXPECT_EQ(run.layers.state(0).clip, -1);
  ASSERT_TRUE(run.layers.set_looping(0, true));
  run.layers.play_base(0);
  for (int k = 0; k < 200; ++k) run.step();
  EXPECT_EQ(run.layers.state(0).clip, 0) << "looping by the API: it goes on";
  // p2lrt's own rules apply the file's flag.
  Player own(rig, false);
  EXPECT_TRUE(own.layers.looping(0));
}

TEST(CubismPlayback, ReplacedMotionFadesOutFromTheUpdateAfterTheSwitch) {
  Rig rig = cubism_rig({curve(10, {})}, 10, 0, 0.5f);
  rig.clips.push_back(rig.clips[0]);
  rig.clips[1].curves[0].start_value = 20;
  rig.clips[1].fade_in = 0.5f;
  ClipExtension x;
  x.clip = 1;
  x.cubism_playback = true;
  rig.clip_extensions.push_back(x);
  Player run(rig);
  run.layers.play_base(0);
  run.step();
  run.step();
  run.layers.play_base(1);
  // The old one still applies at full weight on this update (its end moves to now + 0.5 s
  // after it), the new one at weight 0: 10.
  EXPECT_NEAR(run.step(), 10.0f, 1e-5);
  // Next: old at ease((0.5 - 1/60) / 0.5), new at ease((1/60) / 0.5) over it.
  const double old_w = ease_sine(static_cast<float>((0.5 - 1.0 / 60) / 0.5));
  const double new_w = ease_sine(static_cast<float>((1.0 / 60) / 0.5));
  double p = 10;
  p += (10 - p) * old_w;
  p += (20 - p) * new_w;
  EXPECT_NEAR(run.step(), p, 1e-4);
}

TEST(CubismPlayback, UnrestrictedBeziersSolveForTheCurveParameter) {
  // Values of Cubism's Web Framework (its Cardano solution and de Casteljau, run in node on
  // these segments): a monotone segment and one whose control times leave the segment (x(s)
  // is not monotone, so the root Cubism chooses matters).
  struct Case {
    std::array<float, 4> control;
    double time, parameter, value;
  };
  const Case cases[] = {
      {{0.6f, 0.9f, 0.95f, 0.2f}, 0.3, 0.18038797550443597, 0.3490527466092233},
      {{0.6f, 0.9f, 0.95f, 0.2f}, 0.7, 0.4938578883761151, 0.5361116477395562},
      {{1.2f, 1.0f, -0.3f, 0.0f}, 0.1, 0.029725800820351922, 0.08398072868765373},
      {{1.2f, 1.0f, -0.3f, 0.0f}, 0.5, 0.7895402696424123, 0.5970927752394286},
      {{1.2f, 1.0f, -0.3f, 0.0f}, 0.9, 0.9727930608965556, 0.9227399316883046},
  };
  for (const Case& c : cases) {
    const std::vector<CurveSegment> segments{seg(SegmentKind::Bezier, 1, 1, c.control)};
    EXPECT_NEAR(p2l::anim::bezier_parameter(0, c.control[0], c.control[2], 1, c.time), c.parameter, 1e-6) << c.time;
    EXPECT_NEAR(p2l::anim::curve_value(0, 0, segments, c.time, BezierRule::Unrestricted), c.value, 1e-6) << c.time;
    // The restricted rule takes the time fraction as the parameter: another value.
    EXPECT_GT(std::abs(p2l::anim::curve_value(0, 0, segments, c.time, BezierRule::Restricted) - c.value), 1e-3);
  }
}

TEST(CubismPlayback, UnrestrictedBeziersThatNeverReachTheTimeStayFinite) {
  // The json fuzzer's finding: from (1, 0) to (1, -10) with both control times at 0.6, x(s) =
  // 1 - 1.2 s + 1.2 s^2 comes down to 0.7 and back, so a time below 0.7 has no real root and
  // Cubism's Cardano solution takes the square root of a negative number (NaN). p2lrt takes
  // the turning point s = 0.5 there; where a root exists it is Cubism's.
  const std::vector<CurveSegment> folded{seg(SegmentKind::Bezier, 1, -10, {0.6f, 10, 0.6f, 20})};
  const auto value = [&](double time) { return p2l::anim::curve_value(1, 0, folded, time, BezierRule::Unrestricted); };
  const auto de_casteljau = [](double s) {
    const double m = 1 - s;
    return 3 * m * m * s * 10 + 3 * m * s * s * 20 + s * s * s * -10;
  };
  for (const double time : {0.0, 0.25, 0.5, 0.69}) EXPECT_NEAR(value(time), de_casteljau(0.5), 1e-5) << time;
  // At 0.85: 1.2 s^2 - 1.2 s + 0.15 = 0, Cubism's root (1.2 - sqrt(0.72)) / 2.4.
  const double float_control = static_cast<double>(0.6f);  // the times are floats
  const double b = 3 * float_control - 6 * float_control + 3, c = 3 * float_control - 3;
  const double root = -(c + std::sqrt(c * c - 4 * b * (1 - 0.85))) / (2 * b);
  EXPECT_NEAR(value(0.85), de_casteljau(root), 1e-5);
  for (double time = 0; time <= 1.2; time += 1.0 / 64) EXPECT_TRUE(std::isfinite(value(time))) << time;
  // A tiny negative cubic term against control times near the float maximum: the depressed
  // cubic overflows (inf - inf); the time fraction stands in, clamped to [0, 1].
  const double s = p2l::anim::bezier_parameter(1.4e-45, 3e38, 3e38, 0, 0.5);
  EXPECT_TRUE(std::isfinite(s));
  EXPECT_EQ(s, 0.0);
}

TEST(CubismPlayback, AClipFlaggedUnrestrictedPlaysItsBeziersSo) {
  Rig rig = cubism_rig({curve(0, {seg(SegmentKind::Bezier, 1, 1, {1.2f, 1.0f, -0.3f, 0.0f})})}, 2, 0, 0);
  rig.clip_extensions[0].unrestricted_beziers = true;
  Player run(rig);
  run.layers.play_base(0);
  for (int k = 0; k <= 30; ++k) run.step();  // time 0.5 s, weight 1 (no fades)
  EXPECT_NEAR(run.values[0], 0.5970927752394286, 1e-5);
}

TEST(CubismPlayback, ClockKeepsWholeFrameRatesInDouble) {
  // 1/60 as a float is 0.016666668: 300 of them are past 5 s, where 300 steps of 1/60 in
  // double (Cubism's clock) are just before it.
  EXPECT_EQ(p2l::anim::frame_seconds(kDt), 1.0 / 60);
  EXPECT_EQ(p2l::anim::frame_seconds(1.0f / 144), 1.0 / 144);
  EXPECT_EQ(p2l::anim::frame_seconds(0.0173f), static_cast<double>(0.0173f)) << "not a whole rate: as it is";
  EXPECT_EQ(p2l::anim::frame_seconds(-1.0f), 0.0);
  double sum = 0;
  for (int k = 0; k < 300; ++k) sum += static_cast<double>(kDt);
  ASSERT_GT(sum, 5.0);
  // A stepped segment ending exactly at 5 s: on update 301 (time 300/60) Cubism still
  // samples it, 1 s later the next one.
  const Rig rig = cubism_rig({curve(1, {seg(SegmentKind::Stepped, 5, 1), seg(SegmentKind::Linear, 6, 0)})}, 10, 0, 0);
  Player run(rig);
  run.layers.play_base(0);
  double clock = 0, start = 0;
  for (int k = 1; k <= 302; ++k) {
    clock += 1.0 / 60;
    if (k == 1) start = clock;
    const float v = run.step();
    const double time = clock - start;
    if (k < 300) continue;
    // Update 301 (time 4.999999999999988 in double) is still on the stepped segment.
    if (k == 301) ASSERT_LT(time, 5.0);
    EXPECT_NEAR(v, time < 5.0 ? 1.0 : 1.0 - (time - 5.0), 1e-6) << "update " << k;
  }
}

// A pose group of parts 0 and 1, flagged for Cubism's rules; a clip whose PartOpacity curves
// show part 1 from time 0.
Rig pose_rig(bool cubism_pose) {
  Rig rig = cubism_rig({curve(0, {})}, 5, 0, 0, 2);
  p2l::Pose pose;
  pose.fade_in = 0.5f;
  pose.groups.push_back({{{0, {}}, {1, {}}}});
  pose.cubism_playback = cubism_pose;
  rig.pose = pose;
  auto show = [](std::int32_t part, float value) {
    ClipExtraCurve x;
    x.target = ClipCurveTarget::PartOpacity;
    x.part = part;
    x.start_value = value;
    return x;
  };
  rig.clip_extensions[0].curves = {show(0, 0), show(1, 1)};
  return rig;
}

TEST(CubismPlayback, PoseFirstUpdateResetsWhatTheMotionWrote) {
  const Rig rig = pose_rig(true);
  Player run(rig);
  p2l::anim::PosePlayer pose(rig);
  run.layers.play_base(0);
  auto frame = [&] {
    run.step();
    pose.steer(run.fx.part_values);
    pose.update(kDt);
  };
  // The first pose update resets the pose: part 0 stays shown although the clip chose 1.
  frame();
  EXPECT_EQ(pose.shown(0), 0);
  EXPECT_EQ(pose.part_opacity()[1], 0.0f);
  // From the second update on, the clip's values steer it: part 1 fades in.
  frame();
  EXPECT_EQ(pose.shown(0), 1);
  EXPECT_NEAR(pose.part_opacity()[1], kDt / 0.5f, 1e-6);
  // p2lrt's own pose switches on the first update.
  const Rig own_rig = pose_rig(false);
  Player own(own_rig);
  p2l::anim::PosePlayer own_pose(own_rig);
  own.layers.play_base(0);
  own.step();
  own_pose.steer(own.fx.part_values);
  own_pose.update(kDt);
  EXPECT_EQ(own_pose.shown(0), 1);
}

TEST(CubismPlayback, PoseValuesPersistAndNoneAboveFallsBack) {
  const Rig rig = pose_rig(true);
  p2l::anim::PosePlayer pose(rig);
  std::vector<float> values(2, kNaN);
  pose.update(kDt);  // the reset
  values = {0.0f, 1.0f};
  pose.steer(values);
  pose.update(kDt);
  EXPECT_EQ(pose.shown(0), 1);
  // Nothing written: the values stay (Cubism's pose parameters are model state).
  values = {kNaN, kNaN};
  pose.steer(values);
  pose.update(kDt);
  EXPECT_EQ(pose.shown(0), 1);
  // Both at 0: Cubism falls back to the pose's first entry (in its first group).
  values = {0.0f, 0.0f};
  pose.steer(values);
  pose.update(kDt);
  EXPECT_EQ(pose.shown(0), 0);
  EXPECT_EQ(pose.part_opacity()[0], 1.0f);
}

TEST(CubismPlayback, ExpressionStartsAtWeightZero) {
  Rig rig = cubism_rig({}, 1, 0, 0);
  p2l::Expression e;
  e.fade_in = 1;
  e.values = {{0, p2l::ExpressionBlend::Add, 10}};
  e.cubism_playback = true;
  rig.expressions.push_back(e);
  for (const bool cubism : {true, false}) {
    p2l::anim::Expressions expressions(rig, cubism);
    expressions.play(0);
    std::vector<float> values(1, 0.0f);
    expressions.update(kDt, values);
    EXPECT_NEAR(values[0], cubism ? 0.0f : 10.0f * ease_sine(kDt), 1e-6);
    values[0] = 0;
    expressions.update(kDt, values);
    EXPECT_NEAR(values[0], 10.0f * ease_sine(cubism ? kDt : 2 * kDt), 1e-6);
  }
}

}  // namespace

namespace {

TEST(CubismPlayback, PointTimesAreTheFilesDecimals) {
  // Cubism compares its clock with the double of the file's text (3.1); p2lrt holds the float
  // 3.0999999. 186 steps of 1/60 in double are 3.0999999999999996: still before 3.1, so the
  // stepped segment ending there still holds (Rice's mtn_01 switches a value on that frame).
  const std::vector<CurveSegment> segments{seg(SegmentKind::Stepped, 3.1f, 60), seg(SegmentKind::Linear, 6, 0)};
  double clock = 0;
  for (int k = 0; k < 186; ++k) clock += 1.0 / 60;
  ASSERT_LT(clock, 3.1);
  ASSERT_GT(clock, static_cast<double>(3.1f));
  EXPECT_EQ(anim::curve_value(0, 60, segments, clock), 60.0f);
  EXPECT_NEAR(anim::curve_value(0, 60, segments, 3.1 + 1e-9), 60.0f * (1.0f - 1e-9f / 2.9f), 1e-3);
  EXPECT_LT(anim::curve_value(0, 60, segments, 3.2), 59.0f);
}

}  // namespace

TEST(CubismPlayback, ExpressionsStoreTheirValuesInTheRange) {
  // Cubism's model clamps every write: an expression adding 150 to P (-100..100) leaves 100,
  // and a repeat parameter wraps (Web Framework 5-r.4). p2lrt's own rules leave the sum raw
  // (the evaluation clamps it).
  Rig rig = cubism_rig({}, 1, 0, 0);
  p2l::Parameter turn;
  turn.id = "Turn";
  turn.min = -180;
  turn.max = 180;
  turn.repeat = true;
  rig.parameters.push_back(turn);
  p2l::Expression e;
  e.fade_in = 0;
  e.values = {{0, p2l::ExpressionBlend::Add, 150}, {1, p2l::ExpressionBlend::Add, 200}};
  e.cubism_playback = true;
  rig.expressions.push_back(e);
  for (const bool cubism : {true, false}) {
    p2l::anim::Expressions expressions(rig, cubism);
    expressions.play(0);
    std::vector<float> values{20.0f, 10.0f};
    expressions.update(kDt, values);  // no fade-in: weight 1 at once
    EXPECT_EQ(values[0], cubism ? 100.0f : 170.0f);
    EXPECT_EQ(values[1], cubism ? -150.0f : 210.0f);
  }
}

TEST(CubismPlayback, KeyTimesPlayAsTheFileStatesThem) {
  // A motion3 key at 4.3 s, as Ren's mtn_03 has: the rig holds the float 4.3000002, Cubism the
  // double of the text, 4.3. Update 259 is at 4.29999999999999 s, in the segment from
  // (4.283, 0.99) to (4.3, 0), whose fraction Cubism takes over 4.3 - 4.283: the value is
  // 5.7e-13 there, where the floats' 4.3000002 - 4.283000088 would give 6.0e-6.
  const std::string text = R"({"Version": 3, "Meta": {"Duration": 5, "Fps": 60, "FadeInTime": 0, "FadeOutTime": 0},
    "Curves": [{"Target": "Parameter", "Id": "ParamC", "Segments": [0, 0, 0, 4.283, 0.99, 0, 4.3, 0]}]})";
  Rig rig = p2l_test::make_side_file_rig();  // ParamC: parameter 2, -1..1
  ImportReport report;
  const p2l::Error read = cubism::guarded([&] {
    const auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    const cubism::Document d = cubism::parse_document("m.motion3.json", bytes);
    cubism::read_motion3(cubism::Node(d), {"Idle", "m.motion3.json", -1, -1, "test"}, "m", true, rig, report);
  });
  ASSERT_TRUE(read.ok()) << read.to_string();
  ASSERT_EQ(rig.clips.size(), 1u);
  ASSERT_NE(static_cast<double>(rig.clips[0].curves[0].segments[1].time), 4.3) << "the rig holds a float";
  // Cubism's value, in double on the file's decimals.
  const auto cubism_value = [](double t) {
    if (t < 4.283) return 0.99 * (t / 4.283);
    if (t < 4.3) return 0.99 + (0.0 - 0.99) * ((t - 4.283) / (4.3 - 4.283));
    return 0.0;
  };
  Player run(rig);
  run.layers.play_base(0);
  double clock = 0, start = 0;
  for (int k = 1; k <= 300; ++k) {
    clock += 1.0 / 60;
    if (k == 1) start = clock;
    run.step();
    EXPECT_NEAR(run.values[2], cubism_value(clock - start), 1e-7) << "update " << k;
  }
}
