// Clips: curve values by Cubism's segment rules, clip layers (fades, cross-fades, effects,
// events, priorities, weights) and the original runtime's results on extras.p2lrt.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "anim/clip_layers.hpp"
#include "anim/curve.hpp"
#include "anim/segment.hpp"
#include "p2l/format.hpp"
#include "test_util.hpp"
#include "counting_allocator.hpp"

namespace {

using p2l::Clip;
using p2l::ClipCurveTarget;
using p2l::ClipExtension;
using p2l::ClipExtraCurve;
using p2l::Curve;
using p2l::CurveSegment;
using p2l::Rig;
using p2l::SegmentKind;
using p2l::anim::ClipEffects;
using p2l::anim::ClipLayers;
using p2l::anim::curve_value;
using p2l::anim::ease_sine;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

using p2l_test::seg;

Curve constant(std::uint32_t parameter, float value) {
  Curve c;
  c.parameter = parameter;
  c.start_value = value;
  return c;
}

Curve linear(std::uint32_t parameter, float t0, float v0, float t1, float v1) {
  Curve c;
  c.parameter = parameter;
  c.start_time = t0;
  c.start_value = v0;
  c.segments = {seg(SegmentKind::Linear, t1, v1)};
  return c;
}

Clip make_clip(std::vector<Curve> curves, float duration, bool looping, float fade_in, float fade_out) {
  Clip c;
  c.id = "c";
  c.duration = duration;
  c.looping = looping;
  c.fade_in = fade_in;
  c.fade_out = fade_out;
  c.curves = std::move(curves);
  return c;
}

Rig make_rig(std::size_t parameters, std::size_t parts = 0) {
  Rig r;
  for (std::size_t i = 0; i < parameters; ++i) {
    p2l::Parameter p;
    p.id = "P" + std::to_string(i);
    p.min = -1000;
    p.max = 1000;
    r.parameters.push_back(p);
  }
  for (std::size_t i = 0; i < parts; ++i) {
    p2l::Part p;
    p.id = "Part" + std::to_string(i);
    r.parts.push_back(p);
  }
  return r;
}

ClipExtraCurve extra(ClipCurveTarget target, Curve shape, std::int32_t part = -1, float fade_in = -1, float fade_out = -1) {
  ClipExtraCurve x;
  x.target = target;
  x.part = part;
  x.fade_in = fade_in;
  x.fade_out = fade_out;
  x.start_time = shape.start_time;
  x.start_value = shape.start_value;
  x.segments = shape.segments;
  return x;
}

// A rig's clip layers over fresh copies of the parameter defaults each update, as the
// animator runs them.
struct Player {
  const Rig& rig;
  ClipLayers layers;
  std::vector<float> base, values;
  ClipEffects fx;
  explicit Player(const Rig& r) : rig(r), layers(r) {
    for (const auto& p : r.parameters) base.push_back(p.default_value);
    fx.part_values.assign(r.parts.size(), kNaN);
  }
  const std::vector<float>& step(float dt) {
    values = base;
    layers.update(dt, values, fx);
    return values;
  }
  // The texts of the events the last update fired, in order.
  std::vector<std::string> fired() const {
    std::vector<std::string> out;
    for (const auto& e : layers.events()) {
      for (const ClipExtension& x : rig.clip_extensions)
        if (x.clip == e.clip) out.push_back(x.events.at(e.event).value);
    }
    return out;
  }
};

using Names = std::vector<std::string>;

// ---------------------------------------------------------------------------------------
// Curves

TEST(Curve, EaseSine) {
  EXPECT_FLOAT_EQ(ease_sine(0.5f), 0.5f);
  EXPECT_NEAR(ease_sine(0.25f), 0.1464466f, 1e-6);
  EXPECT_EQ(ease_sine(-1.0f), 0.0f);
  EXPECT_EQ(ease_sine(0.0f), 0.0f);
  EXPECT_EQ(ease_sine(1.0f), 1.0f);
  EXPECT_EQ(ease_sine(7.0f), 1.0f);
  EXPECT_EQ(ease_sine(kNaN), 0.0f);
}

// (0,0) linear (1,10) stepped (2,20) inverse-stepped (3,30) Bezier (5,2).
Curve every_kind() {
  Curve c;
  c.start_time = 0;
  c.start_value = 0;
  c.segments = {seg(SegmentKind::Linear, 1, 10), seg(SegmentKind::Stepped, 2, 20),
                seg(SegmentKind::InverseStepped, 3, 30),
                // Time controls far outside the natural thirds: a restricted Bezier ignores them.
                seg(SegmentKind::Bezier, 5, 2, {4.9f, 8.0f, 3.1f, 4.0f})};
  return c;
}

TEST(Curve, EverySegmentKind) {
  const Curve c = every_kind();
  EXPECT_FLOAT_EQ(curve_value(c, 0.5f), 5.0f);    // linear
  EXPECT_FLOAT_EQ(curve_value(c, 1.5f), 10.0f);   // stepped: the start value
  EXPECT_FLOAT_EQ(curve_value(c, 1.999f), 10.0f);
  EXPECT_FLOAT_EQ(curve_value(c, 2.5f), 30.0f);   // inverse stepped: the end value
  EXPECT_FLOAT_EQ(curve_value(c, 2.001f), 30.0f);
}

TEST(Curve, RestrictedBezierByHand) {
  // Segment (3,30) -> (5,2), controls 8 and 4: at t = 3.5 the parameter is s = 0.25, and
  // 30 (0.75^3) + 8 (3 0.75^2 0.25) + 4 (3 0.75 0.25^2) + 2 (0.25^3)
  //   = 12.65625 + 3.375 + 0.5625 + 0.03125 = 16.625.
  const Curve c = every_kind();
  EXPECT_NEAR(curve_value(c, 3.5f), 16.625f, 1e-4);
  // s = 0.5: 30/8 + 8 3/8 + 4 3/8 + 2/8 = 3.75 + 3 + 1.5 + 0.25 = 8.5.
  EXPECT_NEAR(curve_value(c, 4.0f), 8.5f, 1e-4);
  // A start at 0: 8 (0.421875) + 4 (0.140625) + 2 (0.015625) = 3.96875.
  Curve b;
  b.start_time = 1;
  b.start_value = 0;
  b.segments = {seg(SegmentKind::Bezier, 3, 2, {2.9f, 8.0f, 1.1f, 4.0f})};
  EXPECT_NEAR(curve_value(b, 1.5f), 3.96875f, 1e-5);
}

TEST(Curve, Boundaries) {
  const Curve c = every_kind();
  // Before the start: the first segment at s = 0.
  EXPECT_EQ(curve_value(c, -1.0f), 0.0f);
  EXPECT_EQ(curve_value(c, 0.0f), 0.0f);
  // An exact end time belongs to the next segment.
  EXPECT_EQ(curve_value(c, 1.0f), 10.0f);  // stepped from (1,10)
  EXPECT_EQ(curve_value(c, 2.0f), 30.0f);  // inverse stepped from (2,20): already its end
  EXPECT_EQ(curve_value(c, 3.0f), 30.0f);  // Bezier at s = 0
  // At and after the last point: the last value.
  EXPECT_EQ(curve_value(c, 5.0f), 2.0f);
  EXPECT_EQ(curve_value(c, 100.0f), 2.0f);
  // An inverse-stepped first segment before the start gives its end (Cubism's rule).
  Curve inv;
  inv.start_time = 1;
  inv.start_value = 4;
  inv.segments = {seg(SegmentKind::InverseStepped, 2, 6)};
  EXPECT_EQ(curve_value(inv, 0.0f), 6.0f);
  // A Bezier before its start: s clamps at 0.
  Curve b;
  b.start_time = 1;
  b.start_value = 3;
  b.segments = {seg(SegmentKind::Bezier, 2, 9, {1.3f, 50.0f, 1.6f, -50.0f})};
  EXPECT_EQ(curve_value(b, 0.0f), 3.0f);
}

TEST(Curve, NoSegmentsAndZeroLength) {
  Curve none;
  none.start_time = 1;
  none.start_value = 7;
  EXPECT_EQ(curve_value(none, 0.0f), 7.0f);
  EXPECT_EQ(curve_value(none, 9.0f), 7.0f);
  // Zero-length segments: (1,5) -> (1,7) -> (2,9) -> (2,11).
  Curve z;
  z.start_time = 1;
  z.start_value = 5;
  z.segments = {seg(SegmentKind::Linear, 1, 7), seg(SegmentKind::Bezier, 2, 9, {1, 1, 1, 1}),
                seg(SegmentKind::Linear, 2, 11)};
  EXPECT_EQ(curve_value(z, 0.5f), 5.0f);
  EXPECT_EQ(curve_value(z, 1.0f), 7.0f);
  EXPECT_EQ(curve_value(z, 2.0f), 11.0f);
  for (float t : {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f}) EXPECT_TRUE(std::isfinite(curve_value(z, t))) << t;
  Curve only;
  only.start_time = 1;
  only.start_value = 5;
  only.segments = {seg(SegmentKind::Linear, 1, 7)};
  EXPECT_EQ(curve_value(only, 0.5f), 5.0f);
  EXPECT_EQ(curve_value(only, 1.0f), 7.0f);
}

// ---------------------------------------------------------------------------------------
// Clip time and weights

TEST(Clips, LoopWrapsAndOneShotHolds) {
  Rig r = make_rig(2);
  r.clips.push_back(make_clip({linear(0, 0, 0, 1, 10)}, 1, true, 0, 0));
  r.clips.push_back(make_clip({linear(1, 0, 0, 1, 10)}, 1, false, 0, 0));
  Player run(r);
  ASSERT_TRUE(run.layers.play(0, 0, 0));
  ASSERT_TRUE(run.layers.play(1, 1, 0));
  run.step(0.5f);
  run.step(0.75f);  // 1.25 s
  EXPECT_NEAR(run.values[0], 2.5f, 1e-5);
  EXPECT_NEAR(run.layers.state(0).time, 0.25f, 1e-6);
  EXPECT_FALSE(run.layers.state(0).finished);
  EXPECT_EQ(run.values[1], 10.0f);
  EXPECT_EQ(run.layers.state(1).time, 1.0f);
  EXPECT_TRUE(run.layers.state(1).finished);
  run.step(2.0f);  // 3.25 s: the one-shot still holds its end at full weight
  EXPECT_NEAR(run.values[0], 2.5f, 1e-5);
  EXPECT_EQ(run.values[1], 10.0f);
  EXPECT_EQ(run.layers.state(1).clip, 1);
}

TEST(Clips, ZeroDurationStaysAtTimeZero) {
  Rig r = make_rig(1);
  r.clips.push_back(make_clip({linear(0, 0, 3, 1, 10)}, 0, true, 0, 0));
  Player run(r);
  run.layers.play_base(0);
  run.step(0.7f);
  EXPECT_EQ(run.values[0], 3.0f);
  EXPECT_EQ(run.layers.state(0).time, 0.0f);
}

TEST(Clips, FadeInEasesToHalfAtHalfTheFade) {
  Rig r = make_rig(1);
  r.clips.push_back(make_clip({constant(0, 10)}, 4, true, 1, 1));
  r.clips.push_back(make_clip({constant(0, 10)}, 4, true, -1, -1));  // the 1 s default
  Player run(r);
  run.layers.play_base(0);
  EXPECT_FLOAT_EQ(run.step(0.5f)[0], 5.0f);
  EXPECT_NEAR(run.step(0.25f)[0], 10.0f * 0.8535534f, 1e-5);
  EXPECT_FLOAT_EQ(run.step(0.25f)[0], 10.0f);

  Player other(r);
  other.layers.play_base(1);
  EXPECT_FLOAT_EQ(other.step(0.5f)[0], 5.0f);
}

TEST(Clips, CrossFadeWeighsFadeInTimesFadeOut) {
  Rig r = make_rig(1);
  r.clips.push_back(make_clip({constant(0, 10)}, 4, true, 1, 1));
  r.clips.push_back(make_clip({constant(0, 20)}, 4, true, 1, 1));
  Player run(r);
  run.layers.play_base(0);
  run.step(0.25f);
  run.layers.play_base(1);
  run.step(0.25f);
  // A: fade-in ease(0.5) = 0.5 times fade-out 1 - ease(0.25) = 0.853553: 4.267767.
  // B over it: ease(0.25) = 0.146447 of the way to 20.
  EXPECT_NEAR(run.values[0], 6.5716991f, 1e-5);
  run.step(0.75f);  // A's fade-out is over: B alone at ease(1) = 1
  EXPECT_FLOAT_EQ(run.values[0], 20.0f);
}

TEST(Clips, FadeOutZeroCutsAtOnce) {
  Rig r = make_rig(1);
  r.clips.push_back(make_clip({constant(0, 10)}, 4, true, 0, 0));
  r.clips.push_back(make_clip({constant(0, 20)}, 4, true, 1, 1));
  Player run(r);
  run.layers.play_base(0);
  EXPECT_EQ(run.step(0.1f)[0], 10.0f);
  run.layers.play_base(1);
  EXPECT_NEAR(run.step(0.5f)[0], 10.0f, 1e-5);  // B at 0.5 over the default 0, A gone
}

TEST(Clips, RapidSwitchesKeepEveryReplacedClipFading) {
  // Ten clips, each on its own parameter, switched every frame (more than the 8 reserved).
  Rig r = make_rig(10);
  for (std::uint32_t i = 0; i < 10; ++i) r.clips.push_back(make_clip({constant(i, 1)}, 4, true, 0, 1));
  Player run(r);
  const float dt = 0.05f;
  for (std::int32_t f = 0; f < 10; ++f) {
    run.layers.play_base(f);
    run.step(dt);
  }
  // Clip j started fading when j + 1 started: (9 - j) frames ago.
  for (int j = 0; j < 10; ++j) {
    const float expected = 1.0f - ease_sine(static_cast<float>(9 - j) * dt);
    EXPECT_GT(run.values[j], 0.0f) << j;
    EXPECT_NEAR(run.values[j], expected, 1e-5) << j;
  }
  EXPECT_NEAR(run.values[0], 0.5782172f, 1e-5);
  run.step(1.0f);  // every fade-out is over
  for (int j = 0; j < 9; ++j) EXPECT_EQ(run.values[j], 0.0f) << j;
  EXPECT_EQ(run.values[9], 1.0f);
}

TEST(Clips, PerCurveFades) {
  Rig r = make_rig(3);
  r.clips.push_back(make_clip({constant(0, 10), constant(1, 10), constant(2, 10)}, 10, true, 1, 1));
  ClipExtension x;
  x.clip = 0;
  x.fades = {{1, 0.5f, 0.5f}, {2, 0.0f, -1.0f}};
  r.clip_extensions.push_back(x);
  Player run(r);
  run.layers.play_base(0);
  run.step(0.25f);
  EXPECT_NEAR(run.values[0], 1.464466f, 1e-5);  // the clip's fade-in, ease(0.25)
  EXPECT_NEAR(run.values[1], 5.0f, 1e-5);       // its own, ease(0.5)
  EXPECT_EQ(run.values[2], 10.0f);              // 0: no fade-in
  run.step(1.75f);
  run.layers.play_base(-1);
  run.step(0.25f);
  EXPECT_NEAR(run.values[0], 8.535534f, 1e-5);  // 1 - ease(0.25)
  // Its own fade-out is the last 0.5 s before the clip's end (1 s after the stop):
  // ease((1 - 0.25) / 0.5) = 1.
  EXPECT_EQ(run.values[1], 10.0f);
  EXPECT_NEAR(run.values[2], 8.535534f, 1e-5);  // -1: the clip's fade-out
  run.step(0.5f);  // 0.75 s into the fade-out
  EXPECT_NEAR(run.values[0], 1.464466f, 1e-5);
  EXPECT_NEAR(run.values[1], 5.0f, 1e-5);  // ease(0.25 / 0.5)
  run.step(0.25f);
  EXPECT_EQ(run.values[0], 0.0f);
  EXPECT_EQ(run.values[1], 0.0f);
}

Rig effect_rig() {
  // 0 EyeL, 1 EyeR (EyeBlink, in two records), 2 Mouth, 3 Mouth2 (LipSync), 4 other.
  Rig r = make_rig(5);
  r.parameters[1].default_value = 0.6f;
  r.parameters[3].default_value = 0.1f;
  r.roles = {{"EyeBlink", {0}}, {"LipSync", {2, 3}}, {"EyeBlink", {1}}, {"Breath", {4}}};
  r.clips.push_back(make_clip({constant(0, 0.8f), constant(2, 0.3f), constant(4, 2.0f)}, 4, true, 0, 0));
  ClipExtension x;
  x.clip = 0;
  x.curves = {extra(ClipCurveTarget::EyeBlink, constant(0, 0.5f)), extra(ClipCurveTarget::LipSync, constant(0, 0.2f))};
  r.clip_extensions.push_back(x);
  return r;
}

TEST(Clips, EyeBlinkAndLipSyncEffects) {
  const Rig r = effect_rig();
  Player run(r);
  run.layers.play_base(0);
  run.step(0.1f);
  EXPECT_FLOAT_EQ(run.values[0], 0.4f);  // the curve's 0.8 times the blink's 0.5
  EXPECT_FLOAT_EQ(run.values[1], 0.5f);  // no curve: moves to the blink value
  EXPECT_FLOAT_EQ(run.values[2], 0.5f);  // the curve's 0.3 plus the lip sync's 0.2
  EXPECT_FLOAT_EQ(run.values[3], 0.2f);  // no curve: moves to the lip sync value
  EXPECT_FLOAT_EQ(run.values[4], 2.0f);  // no role: untouched by the effects

  ASSERT_TRUE(run.layers.set_weight(0, 0.5f));
  run.step(0.1f);
  EXPECT_FLOAT_EQ(run.values[0], 0.2f);
  EXPECT_FLOAT_EQ(run.values[1], 0.55f);  // 0.6 + (0.5 - 0.6) 0.5 (not 0.6 (1 - 0.5 0.5))
  EXPECT_FLOAT_EQ(run.values[2], 0.25f);
  EXPECT_FLOAT_EQ(run.values[3], 0.15f);  // 0.1 + (0.2 - 0.1) 0.5 (not 0.1 + 0.2 0.5)
}

TEST(Clips, EffectCurvesOwnFades) {
  Rig r = effect_rig();
  r.clip_extensions[0].curves[0].fade_in = 0.5f;  // EyeBlink: its own fade-in
  Player run(r);
  run.layers.play_base(0);
  run.step(0.25f);
  EXPECT_NEAR(run.values[1], 0.6f + (0.5f - 0.6f) * 0.5f, 1e-6);
  EXPECT_FLOAT_EQ(run.values[0], 0.4f);  // a curve's value: the curve's own weight (1)
  EXPECT_FLOAT_EQ(run.values[3], 0.2f);  // LipSync uses the clip's (fade-in 0)
}

TEST(Clips, ModelOpacityIsWrittenDirectlyAndTheLastWins) {
  Rig r = make_rig(1);
  r.clips.push_back(make_clip({}, 4, true, 1, 1));
  r.clips.push_back(make_clip({}, 4, true, 1, 1));
  r.clips.push_back(make_clip({}, 4, true, 1, 1));
  r.clips.push_back(make_clip({constant(0, 1)}, 4, true, 1, 1));
  ClipExtension a, b, c;
  a.clip = 0;
  a.curves = {extra(ClipCurveTarget::ModelOpacity, linear(0, 0, 1, 2, 0), -1, 0.5f, 0.5f)};
  b.clip = 1;
  b.curves = {extra(ClipCurveTarget::ModelOpacity, constant(0, 0.7f))};
  c.clip = 2;
  c.curves = {extra(ClipCurveTarget::ModelOpacity, constant(0, -0.5f))};
  r.clip_extensions = {a, b, c};
  Player run(r);
  run.step(0.1f);
  EXPECT_EQ(run.fx.model_opacity, 1.0f);  // nothing plays
  run.layers.play_base(0);
  run.step(0.25f);
  EXPECT_FLOAT_EQ(run.fx.model_opacity, 0.875f);  // no fade, though the clip and curve fade in
  run.layers.play(1, 1, 0);
  run.layers.set_weight(1, 0.1f);
  run.step(0.25f);
  EXPECT_FLOAT_EQ(run.fx.model_opacity, 0.7f);  // layer 1 applies last
  run.layers.play(1, 2, 0);
  run.step(0.25f);
  EXPECT_EQ(run.fx.model_opacity, 0.0f);  // clamped to 0..1
  run.layers.play(1, 3, 0);                // no opacity curve: the fading ones still write
  run.step(0.25f);
  EXPECT_EQ(run.fx.model_opacity, 0.0f);
  run.layers.play(1, -1, 0);
  run.layers.play_base(3);
  run.step(2.0f);  // every clip with an opacity curve faded out
  EXPECT_EQ(run.fx.model_opacity, 1.0f);
}

TEST(Clips, PartOpacityValues) {
  Rig r = make_rig(1, 3);
  r.clips.push_back(make_clip({}, 4, false, 1, 1));
  ClipExtension x;
  x.clip = 0;
  x.curves = {extra(ClipCurveTarget::PartOpacity, linear(0, 0, 0, 1, 1), 1),
              extra(ClipCurveTarget::PartOpacity, constant(0, 0.25f), 2, 0.0f, 0.0f)};
  r.clip_extensions.push_back(x);
  Player run(r);
  run.layers.play_base(0);
  run.step(0.5f);
  EXPECT_TRUE(std::isnan(run.fx.part_values[0]));
  EXPECT_FLOAT_EQ(run.fx.part_values[1], 0.5f);  // no fade though the clip is at ease(0.5)
  EXPECT_FLOAT_EQ(run.fx.part_values[2], 0.25f);
  run.layers.play_base(-1);
  run.step(1.0f);  // faded out and gone
  for (float v : run.fx.part_values) EXPECT_TRUE(std::isnan(v));
}

TEST(Clips, OutOfRangeCurveParametersAreIgnored) {
  Rig r = make_rig(2);
  r.clips.push_back(make_clip({constant(7, 5), constant(1, 3)}, 1, true, 0, 0));
  Player run(r);
  run.layers.play_base(0);
  run.step(0.1f);
  EXPECT_EQ(run.values[0], 0.0f);
  EXPECT_EQ(run.values[1], 3.0f);
  std::vector<float> shorter(1, 0.0f);
  run.layers.update(0.1f, shorter, run.fx);  // a host span shorter than the rig
  EXPECT_EQ(shorter[0], 0.0f);
}

// ---------------------------------------------------------------------------------------
// Events

Rig event_rig(bool looping) {
  Rig r = make_rig(1);
  r.clips.push_back(make_clip({constant(0, 1)}, 1, looping, 0, 1));
  r.clips.push_back(make_clip({constant(0, 2)}, 1, true, 0, 1));
  ClipExtension x;
  x.clip = 0;
  // "late" lies past the 1 s duration: neither a loop nor a one-shot ever reaches it.
  x.events = {{0.0f, "a"}, {0.5f, "b"}, {1.0f, "end"}, {1.5f, "late"}};
  r.clip_extensions.push_back(x);
  ClipExtension y;
  y.clip = 1;
  y.events = {{0.0f, "other"}};
  r.clip_extensions.push_back(y);
  return r;
}

TEST(ClipEvents, OncePerPassOfALoop) {
  const Rig r = event_rig(true);
  Player run(r);
  run.layers.play_base(0);
  run.step(0.0f);
  EXPECT_EQ(run.fired(), (Names{"a"}));  // the first update includes time 0
  run.step(0.25f);
  EXPECT_EQ(run.fired(), Names{});
  run.step(0.25f);  // (0.25, 0.5]
  EXPECT_EQ(run.fired(), (Names{"b"}));
  run.step(0.25f);
  EXPECT_EQ(run.fired(), Names{});
  run.step(0.5f);  // (0.75, 1.25]: the tail, then the next pass's head
  EXPECT_EQ(run.fired(), (Names{"end", "a"}));
  run.step(2.5f);  // (1.25, 3.75]: several passes, in time order
  EXPECT_EQ(run.fired(), (Names{"b", "end", "a", "b", "end", "a", "b"}));
  ASSERT_EQ(run.layers.events().size(), 7u);
  EXPECT_EQ(run.layers.events()[0].layer, 0u);
  EXPECT_EQ(run.layers.events()[0].clip, 0u);
  EXPECT_EQ(run.layers.events()[0].event, 1u);
}

TEST(ClipEvents, FirstUpdateFiresTimeZeroOnce) {
  const Rig r = event_rig(true);
  Player run(r);
  run.layers.play_base(0);
  run.step(0.1f);
  EXPECT_EQ(run.fired(), (Names{"a"}));
  run.step(0.1f);
  EXPECT_EQ(run.fired(), Names{});
  run.layers.play_base(0);  // a restart fires it again
  run.step(0.1f);
  EXPECT_EQ(run.fired(), (Names{"a"}));
}

TEST(ClipEvents, SeekSkipsWhatItJumpsOver) {
  const Rig r = event_rig(true);
  Player run(r);
  run.layers.play_base(0);
  run.step(0.25f);
  EXPECT_EQ(run.fired(), (Names{"a"}));
  run.layers.seek(0, 0.75f);  // over "b" at 0.5
  run.step(0.125f);           // (0.75, 0.875]
  EXPECT_EQ(run.fired(), Names{});
  run.layers.seek(0, 0.25f);  // backwards
  run.step(0.25f);            // (0.25, 0.5]
  EXPECT_EQ(run.fired(), (Names{"b"}));
  run.layers.seek(0, 2.5f);  // forward over whole passes
  EXPECT_NEAR(run.layers.state(0).time, 0.5f, 1e-6);
  run.step(0.25f);  // (2.5, 2.75]
  EXPECT_EQ(run.fired(), Names{});
  run.step(0.25f);  // (2.75, 3.0]
  EXPECT_EQ(run.fired(), (Names{"end", "a"}));

  // A seek before the first update: only (seek time, new time].
  Player other(r);
  other.layers.play_base(0);
  other.layers.seek(0, 0.0f);
  other.step(0.25f);
  EXPECT_EQ(other.fired(), Names{});
}

TEST(ClipEvents, OneShotFiresOnceAndNothingPastItsEnd) {
  const Rig r = event_rig(false);
  Player run(r);
  run.layers.play_base(0);
  std::vector<std::string> all;
  for (int i = 0; i < 12; ++i) {
    run.step(0.125f);
    for (auto& e : run.fired()) all.push_back(e);
  }
  EXPECT_EQ(all, (Names{"a", "b", "end"}));
  run.step(5.0f);
  EXPECT_EQ(run.fired(), Names{});
}

TEST(ClipEvents, OnlyTheCurrentClipFires) {
  const Rig r = event_rig(true);
  Player run(r);
  run.layers.play_base(0);
  run.step(0.25f);
  run.layers.play_base(1);  // clip 0 fades out without firing "b"
  run.step(0.5f);
  EXPECT_EQ(run.fired(), (Names{"other"}));
  // Layers list their events in layer order.
  run.layers.play(3, 0, 0);
  run.layers.play(1, 1, 0);
  run.step(0.0f);
  ASSERT_EQ(run.layers.events().size(), 2u);
  EXPECT_EQ(run.layers.events()[0].layer, 1u);
  EXPECT_EQ(run.layers.events()[1].layer, 3u);
}

// ---------------------------------------------------------------------------------------
// Layers

TEST(ClipLayersTest, PriorityRules) {
  Rig r = make_rig(1);
  r.clips.push_back(make_clip({constant(0, 1)}, 1, true, 0, 0));   // loop
  r.clips.push_back(make_clip({constant(0, 2)}, 1, false, 0, 0));  // one-shot
  Player run(r);
  EXPECT_TRUE(run.layers.play(1, 0, 2));
  EXPECT_FALSE(run.layers.play(1, 1, 1));  // lower
  EXPECT_EQ(run.layers.state(1).clip, 0);
  EXPECT_TRUE(run.layers.play(1, 1, 2));  // equal starts
  EXPECT_EQ(run.layers.state(1).clip, 1);
  EXPECT_EQ(run.layers.state(1).priority, 2u);
  EXPECT_FALSE(run.layers.play(1, 0, 1));
  run.step(1.0f);  // the one-shot finishes: priority 0
  EXPECT_TRUE(run.layers.state(1).finished);
  EXPECT_EQ(run.layers.state(1).priority, 0u);
  EXPECT_TRUE(run.layers.play(1, 0, 1));
  EXPECT_EQ(run.layers.state(1).priority, 1u);
  // Stopping resets the priority.
  EXPECT_TRUE(run.layers.play(1, -1, 0));
  EXPECT_EQ(run.layers.state(1).clip, -1);
  EXPECT_EQ(run.layers.state(1).priority, 0u);
  EXPECT_TRUE(run.layers.state(1).finished);
  EXPECT_TRUE(run.layers.play(1, 1, 0));
  // Bad layers and clips.
  EXPECT_FALSE(run.layers.play(p2l::anim::kMaxLayers, 0, 9));
  EXPECT_FALSE(run.layers.play(2, 2, 9));
  EXPECT_EQ(run.layers.state(2).clip, -1);
  // play_base always starts on layer 0, at priority 0.
  EXPECT_TRUE(run.layers.play(0, 0, 7));
  run.layers.play_base(1);
  EXPECT_EQ(run.layers.state(0).clip, 1);
  EXPECT_EQ(run.layers.state(0).priority, 0u);
  run.layers.play_base(5);  // no such clip: nothing changes
  EXPECT_EQ(run.layers.state(0).clip, 1);
  run.layers.play_base(-1);
  EXPECT_EQ(run.layers.state(0).clip, -1);
}

TEST(ClipLayersTest, UpperLayerWeightBlendsOverLower) {
  Rig r = make_rig(2);
  r.clips.push_back(make_clip({constant(0, 10), constant(1, 4)}, 1, true, 0, 0));
  r.clips.push_back(make_clip({constant(0, 20)}, 1, true, 0, 0));
  Player run(r);
  run.layers.play_base(0);
  run.layers.play(1, 1, 0);
  EXPECT_TRUE(run.layers.set_weight(1, 0.5f));
  run.step(0.1f);
  EXPECT_FLOAT_EQ(run.values[0], 15.0f);
  EXPECT_FLOAT_EQ(run.values[1], 4.0f);
  EXPECT_TRUE(run.layers.set_weight(1, 3.0f));  // clamps to 1
  run.step(0.1f);
  EXPECT_FLOAT_EQ(run.values[0], 20.0f);
  EXPECT_TRUE(run.layers.set_weight(1, -2.0f));  // clamps to 0
  run.step(0.1f);
  EXPECT_FLOAT_EQ(run.values[0], 10.0f);
  EXPECT_FALSE(run.layers.set_weight(1, kNaN));
  EXPECT_FALSE(run.layers.set_weight(p2l::anim::kMaxLayers, 0.5f));
  run.step(0.1f);
  EXPECT_FLOAT_EQ(run.values[0], 10.0f);
}

TEST(ClipLayersTest, StateAndSeek) {
  Rig r = make_rig(1);
  r.clips.push_back(make_clip({linear(0, 0, 0, 2, 20)}, 2, true, 1, 1));
  Player run(r);
  EXPECT_EQ(run.layers.state(0).clip, -1);
  EXPECT_TRUE(run.layers.state(0).finished);
  EXPECT_EQ(run.layers.state(99).clip, -1);
  run.layers.play(0, 0, 4);
  EXPECT_FALSE(run.layers.state(0).finished);
  EXPECT_EQ(run.layers.state(0).priority, 4u);
  run.step(0.25f);
  run.layers.seek(0, 1.5f);
  EXPECT_FLOAT_EQ(run.layers.state(0).time, 1.5f);
  run.step(0.25f);  // time 1.75, but the fade-in follows the age (0.5)
  EXPECT_FLOAT_EQ(run.layers.state(0).time, 1.75f);
  EXPECT_NEAR(run.values[0], 17.5f * 0.5f, 1e-5);
  run.layers.seek(0, -3.0f);  // clamps to 0
  EXPECT_EQ(run.layers.state(0).time, 0.0f);
  run.layers.seek(0, kNaN);  // ignored
  EXPECT_EQ(run.layers.state(0).time, 0.0f);
  run.step(2.25f);
  EXPECT_FLOAT_EQ(run.layers.state(0).time, 0.25f);  // wrapped
}

TEST(ClipLayersTest, BadTimeStepsAreZero) {
  Rig r = make_rig(1);
  r.clips.push_back(make_clip({linear(0, 0, 0, 2, 20)}, 2, true, 0, 0));
  Player run(r);
  run.layers.play_base(0);
  run.step(0.5f);
  run.step(-1.0f);
  run.step(kNaN);
  run.step(std::numeric_limits<float>::infinity());
  EXPECT_FLOAT_EQ(run.layers.state(0).time, 0.5f);
  EXPECT_FLOAT_EQ(run.values[0], 5.0f);
}

TEST(ClipLayersTest, UpdateAllocatesNothing) {
  Rig r = effect_rig();
  r.parts.resize(2);
  r.clips.push_back(make_clip({constant(4, 1)}, 0.5f, true, 0.5f, 2));
  ClipExtension x;
  x.clip = 1;
  x.events = {{0.0f, "a"}, {0.25f, "b"}};
  x.curves = {extra(ClipCurveTarget::PartOpacity, constant(0, 0.5f), 1), extra(ClipCurveTarget::ModelOpacity, constant(0, 0.5f))};
  x.fades = {{0, 0.1f, 0.2f}};
  r.clip_extensions.push_back(x);
  Player run(r);
  for (std::uint32_t l = 0; l < 4; ++l) run.layers.play(l, static_cast<std::int32_t>(l % 2), 0);
  run.layers.set_weight(2, 0.5f);
  for (int i = 0; i < 7; ++i) run.layers.play(3, i % 2, 0);  // 6 replaced clips fading on layer 3
  std::vector<float> values(r.parameters.size());
  const std::size_t before = p2l_test::allocation_count();
  for (int i = 0; i < 300; ++i) {
    std::fill(values.begin(), values.end(), 0.0f);
    run.layers.update(0.0166667f, values, run.fx);
  }
  run.layers.update(1.3f, values, run.fx);  // several passes of a loop at once
  EXPECT_EQ(p2l_test::allocation_count() - before, 0u);
  EXPECT_FALSE(run.layers.events().empty());
}

// ---------------------------------------------------------------------------------------
// The original runtime's results (extras.p2lrt; the clips' share of them)

std::shared_ptr<const Rig> extras() {
  const auto bytes = p2l_test::vector_file("extras.p2lrt");
  if (bytes.empty()) return nullptr;
  auto loaded = p2l::load(bytes);
  EXPECT_TRUE(loaded) << loaded.error.to_string();
  return loaded.rig;
}

std::int32_t find_clip(const Rig& r, const std::string& id) {
  for (std::size_t i = 0; i < r.clips.size(); ++i)
    if (r.clips[i].id == id) return static_cast<std::int32_t>(i);
  return -1;
}

TEST(ClipVectors, Idle90) {
  P2L_REQUIRE_VECTORS();
  const auto rig = extras();
  ASSERT_TRUE(rig);
  Player run(*rig);
  const std::int32_t idle = find_clip(*rig, "idle");
  ASSERT_GE(idle, 0);
  run.layers.play_base(idle);
  const std::int32_t x = rig->find_parameter("ParamAngleX"), b = rig->find_parameter("ParamB");
  ASSERT_GE(x, 0);
  ASSERT_GE(b, 0);
  std::vector<std::pair<int, std::string>> events;
  for (int i = 0; i < 90; ++i) {
    run.step(0.0166667f);
    for (auto& e : run.fired()) events.emplace_back(i, e);
  }
  // extras.idle90.json: ParamAngleX 9.999962, ParamB 9.536743e-07, opacity 0.8499998 (float time there).
  EXPECT_NEAR(run.values[static_cast<std::size_t>(x)], 9.999962f, 1e-4 * 10);
  EXPECT_NEAR(run.values[static_cast<std::size_t>(b)], 9.536743e-07f, 1e-5);
  EXPECT_NEAR(run.fx.model_opacity, 0.8499998f, 1e-4);
  for (int i = 90; i < 200; ++i) {
    run.step(0.0166667f);
    for (auto& e : run.fired()) events.emplace_back(i, e);
  }
  // 0.0166667 s steps: 1 s is crossed on update 60, 2 s on 120, 3 s on 180 (0-based 59, ...).
  const std::vector<std::pair<int, std::string>> expected{{0, "start"}, {59, "half"}, {119, "start"}, {179, "half"}};
  EXPECT_EQ(events, expected);
}

TEST(ClipVectors, Wave30) {
  P2L_REQUIRE_VECTORS();
  const auto rig = extras();
  ASSERT_TRUE(rig);
  Player run(*rig);
  const std::int32_t wave = find_clip(*rig, "wave");
  ASSERT_GE(wave, 0);
  run.layers.play_base(wave);
  for (int i = 0; i < 30; ++i) run.step(0.0333333f);
  const std::int32_t spin = rig->find_parameter("ParamSpin");
  ASSERT_GE(spin, 0);
  // extras.wave30.json: ParamSpin 89.99983, opacity 1.
  EXPECT_NEAR(run.values[static_cast<std::size_t>(spin)], 89.99983f, 89.99983f * 1e-4);
  EXPECT_EQ(run.fx.model_opacity, 1.0f);
  EXPECT_FALSE(run.layers.state(0).finished);  // 0.999999 s of 1
  run.step(0.0333333f);
  EXPECT_TRUE(run.layers.state(0).finished);
  EXPECT_EQ(run.values[static_cast<std::size_t>(spin)], 90.0f);  // held, at weight 1
}

}  // namespace
