// Physics: Cubism's pendulums (cubism-semantics §8) on small rigs built here. Expected values
// are worked out in the tests from the formulas, not by running the implementation; the
// comparison with Cubism's own Framework code is tests/physics_reference/run_haru.sh.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <vector>

#include "anim/physics.hpp"
#include "rig_builder.hpp"
#include "counting_allocator.hpp"

namespace {

using p2l::PhysicsGroup;
using p2l::PhysicsSource;
using p2l::Rig;
using p2l::anim::Physics;
using p2l_test::param;

constexpr double kPi = 3.14159265358979323846;

p2l::PhysicsInput input(std::uint32_t parameter, float weight, PhysicsSource source, bool reflect = false) {
  return {parameter, weight, source, reflect};
}
p2l::PhysicsOutput output(std::uint32_t parameter, std::uint32_t vertex, float scale, float weight = 100,
                          PhysicsSource source = PhysicsSource::Angle, bool reflect = false) {
  return {parameter, vertex, scale, weight, source, reflect};
}
// A point: length from the one before (0 for the root), mobility, delay, acceleration.
p2l::PhysicsSegment point(float length, float mobility, float delay, float acceleration) {
  return {length, mobility, delay, acceleration};
}

std::vector<float> defaults(const Rig& rig) {
  std::vector<float> v;
  for (const auto& p : rig.parameters) v.push_back(p.default_value);
  return v;
}

// Parameters 0 InX, 1 InAngle, 2 Out; one group: an X input, an Angle input and a strand
// root + one point of length 1 (mobility 1, delay 1, acceleration 1), Out = the angle of
// point 1. Normalization: position -10..10, angle -45..45 around 0.
Rig one_strand() {
  Rig rig;
  rig.parameters = {param("InX", -10, 10, 0), param("InAngle", -10, 10, 0), param("Out", -10, 10, 0)};
  PhysicsGroup g;
  g.inputs = {input(0, 100, PhysicsSource::X), input(1, 100, PhysicsSource::Angle)};
  g.segments = {point(0, 1, 1, 1), point(1, 1, 1, 1)};
  g.outputs = {output(2, 1, 1)};
  g.normalization = {-10, 0, 10, -45, 0, 45};
  rig.physics = {g};
  return rig;
}

// Angle of [t] from the straight-down direction (0, 1), wrapped to [-pi, pi] (an output on
// point 1, whose parent direction is the negated gravity option).
double angle_from_down(double tx, double ty) {
  double r = std::atan2(ty, tx) - std::atan2(1.0, 0.0);
  while (r < -kPi) r += 2 * kPi;
  while (r > kPi) r -= 2 * kPi;
  return r;
}

// ---------------------------------------------------------------------------------------
// 1. Hand-computed steps
// ---------------------------------------------------------------------------------------

// InX = 5: normalised 5 (position 0..10 over 0..10), negated as reflect is false: root at
// (-5, 0). Gravity straight down, point 1 starts at (0, 1). With dt = 1/30, delay = 1:
// position (0, 1) + force (0, 1) = (0, 2), pulled back to length 1 from the root.
TEST(PhysicsHand, TwoPointStrandWithoutFpsLagsOneFrame) {
  const Rig rig = one_strand();
  Physics physics(rig);
  std::vector<float> v = defaults(rig);
  const float dt = 1.0f / 30.0f;

  // Step 1 by hand.
  const double rx = -5, ry = 0;
  double px = 0, py = 2;  // (0, 1) + velocity 0 + force (0, 1) x delay^2
  double len = std::hypot(px - rx, py - ry);
  px = rx + (px - rx) / len;
  py = ry + (py - ry) / len;
  const double vx = px - 0, vy = py - 1;  // (position - last) / delay x mobility
  const double out1 = angle_from_down(px - rx, py - ry);
  // Step 2: the same inputs; direction kept (gravity unchanged), velocity and force added.
  double qx = px + vx + 0, qy = py + vy + 1;
  len = std::hypot(qx - rx, qy - ry);
  qx = rx + (qx - rx) / len;
  qy = ry + (qy - ry) / len;
  const double out2 = angle_from_down(qx - rx, qy - ry);
  EXPECT_NEAR(out1, std::atan2(2.0, 5.0) - kPi / 2, 1e-12);  // the strand swings towards the root

  // Without fps each call steps once by dt and applies the step before: the first call
  // writes the initial output (0), each later call the previous call's step.
  v[0] = 5;
  physics.step(dt, v);
  EXPECT_EQ(v[2], 0.0f);
  v = defaults(rig);
  v[0] = 5;
  physics.step(dt, v);
  EXPECT_NEAR(v[2], out1, 2e-6);
  v = defaults(rig);
  v[0] = 5;
  physics.step(dt, v);
  EXPECT_NEAR(v[2], out2, 2e-6);
}

// An Angle input tilts gravity and turns the translation by -angle, with Cubism's
// sequential assignment (the y line reads the new x); the point's direction is turned by a
// fifth of the gravity change, sequentially again.
TEST(PhysicsHand, AngleInputTurnsTranslationAndGravityWithCubismQuirks) {
  const Rig rig = one_strand();
  Physics physics(rig);
  std::vector<float> v = defaults(rig);
  v[0] = 5;   // translation x = -5
  v[1] = 10;  // angle: 10 of 10 -> 45, negated -> -45 degrees

  const double c = std::sqrt(0.5);
  // theta = rad(-angle) = +45 degrees: x' = x cos - y sin; y' = x' sin + y cos (new x).
  const double rx = -5 * c - 0 * c;
  const double ry = rx * c + 0 * c;  // -2.5 (a plain rotation would give -3.5355)
  // Gravity (sin, cos) of -45 degrees.
  const double gx = -c, gy = c;
  // Direction of point 1 from the root, turned by (angle from the last gravity (0, 1) to g) / 5.
  double r = std::atan2(gy, gx) - std::atan2(1.0, 0.0);
  r /= 5;
  double dx = 0 - rx, dy = 1 - ry;
  dx = std::cos(r) * dx - dy * std::sin(r);
  dy = std::sin(r) * dx + dy * std::cos(r);  // sequential: the new dx
  double px = rx + dx + gx, py = ry + dy + gy;  // + force x delay^2 (delay 1)
  const double len = std::hypot(px - rx, py - ry);
  px = rx + (px - rx) / len;
  py = ry + (py - ry) / len;
  const double expected = angle_from_down(px - rx, py - ry);

  physics.step(1.0f / 30.0f, v);  // applies the initial 0
  v[2] = 0;
  physics.step(1.0f / 30.0f, v);
  EXPECT_NEAR(v[2], expected, 2e-6);
}

// With an fps the first call may not step at all: the output is the interpolation of the
// two initial outputs (0) until the first step, then between the last two steps by
// remain / h.
TEST(PhysicsHand, FpsInterpolatesBetweenTheLastTwoSteps) {
  Rig rig = one_strand();
  rig.physics_fps = 30;
  Physics physics(rig);
  std::vector<float> v = defaults(rig);
  v[0] = 5;
  physics.step(1.0f / 60.0f, v);  // remain 1/60 < 1/30: no step, alpha 1/2 of (0, 0)
  EXPECT_EQ(v[2], 0.0f);
  physics.step(1.0f / 60.0f, v);  // one step, remain 0: alpha 0 -> the initial 0 again
  EXPECT_EQ(v[2], 0.0f);
  // Inputs held at the first call's values: step 1 is the hand-computed out1 above.
  const double out1 = std::atan2(2.0, 5.0) - kPi / 2;
  physics.step(1.0f / 60.0f, v);  // no step, alpha 1/2: half way from 0 to out1
  EXPECT_NEAR(v[2], out1 / 2, 2e-6);
  physics.step(1.0f / 120.0f, v);  // alpha 3/4
  EXPECT_NEAR(v[2], out1 * 3 / 4, 2e-6);
}

// ---------------------------------------------------------------------------------------
// 2. Frame-rate independence
// ---------------------------------------------------------------------------------------

// Parameters 0 InX, 1 InAngle, 2 Tip, 3 Mid; a three-point strand.
Rig swinging(float fps) {
  Rig rig;
  rig.parameters = {param("InX", -10, 10, 0), param("InAngle", -10, 10, 0), param("Tip", -5, 5, 0),
                    param("Mid", -5, 5, 0)};
  rig.physics_fps = fps;
  PhysicsGroup g;
  g.inputs = {input(0, 60, PhysicsSource::X), input(1, 40, PhysicsSource::Angle)};
  g.segments = {point(0, 1, 1, 1), point(3, 0.9f, 0.9f, 1.5f), point(3, 0.9f, 0.8f, 1.2f)};
  g.outputs = {output(2, 2, 10), output(3, 1, 10)};
  g.normalization = {-10, 0, 10, -10, 0, 10};
  rig.physics = {g};
  return rig;
}

// Outputs at t = k/6 s (k = 1..18) of the swinging strand updated at [rate] Hz for 3 s, the
// inputs following sinusoids of the time at the end of each frame. The strand starts
// stabilized at the inputs of t = 0, which also seeds the input cache there (without it the
// cache starts at the first frame's values, a start-up transient that differs by rate).
std::vector<float> trajectory(float fps, int rate) {
  const Rig rig = swinging(fps);
  Physics physics(rig);
  std::vector<float> v(rig.parameters.size()), samples;
  auto inputs = [&](double t) {
    v[0] = static_cast<float>(8 * std::sin(2 * kPi * 0.7 * t));
    v[1] = static_cast<float>(6 * std::sin(2 * kPi * 0.45 * t + 1));
    v[2] = v[3] = 0;
  };
  inputs(0);
  physics.stabilize(v);
  const float dt = 1.0f / static_cast<float>(rate);
  const int per_sample = rate / 6;
  for (int n = 0; n < rate * 3; ++n) {
    inputs(static_cast<double>(n + 1) / rate);
    physics.step(dt, v);
    if ((n + 1) % per_sample == 0) {
      samples.push_back(v[2]);
      samples.push_back(v[3]);
    }
  }
  return samples;
}

float max_difference(const std::vector<float>& a, const std::vector<float>& b) {
  float d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::fmax(d, std::fabs(a[i] - b[i]));
  return d;
}

float max_magnitude(const std::vector<float>& a) {
  float m = 0;
  for (float x : a) m = std::fmax(m, std::fabs(x));
  return m;
}

// Output range 10 (-5..5); the outputs swing over about +-3. With a physics fps the steps
// fall at the same times whatever the frame rate, their inputs interpolated linearly between
// frames and the outputs between steps: what remains is that interpolation's error (measured
// up to 0.013 with fps 30 and 0.023 with fps 60), bound here at 1 % of the output range.
TEST(PhysicsFrameRate, FixedFpsGivesTheSameTrajectoryAt30And60And144Hz) {
  for (float fps : {30.0f, 60.0f}) {
    const auto r30 = trajectory(fps, 30), r60 = trajectory(fps, 60), r144 = trajectory(fps, 144);
    ASSERT_EQ(r30.size(), 36u);
    ASSERT_EQ(r144.size(), 36u);
    const float d60 = max_difference(r30, r60), d144 = max_difference(r30, r144), d = max_difference(r60, r144);
    std::printf("physics_fps %g: outputs up to %.3f; max |30 Hz - 60 Hz| %.5f, |30 Hz - 144 Hz| %.5f, "
                "|60 Hz - 144 Hz| %.5f\n",
                static_cast<double>(fps), static_cast<double>(max_magnitude(r30)), static_cast<double>(d60),
                static_cast<double>(d144), static_cast<double>(d));
    EXPECT_GT(max_magnitude(r30), 1.0f);  // the strand does swing
    EXPECT_LT(d60, 0.1f);
    EXPECT_LT(d144, 0.1f);
    EXPECT_LT(d, 0.1f);
  }
}

// Without an fps every frame is one step of dt: the pendulum's response depends on dt (the
// delay factor is Delay x dt x 30 and the force enters as delay^2), so the trajectories part.
TEST(PhysicsFrameRate, WithoutFpsTrajectoriesDependOnTheFrameRate) {
  const auto r30 = trajectory(0, 30), r60 = trajectory(0, 60), r144 = trajectory(0, 144);
  const auto f30 = trajectory(30, 30), f144 = trajectory(30, 144);
  const float d144 = max_difference(r30, r144), d60 = max_difference(r30, r60);
  const float fixed = max_difference(f30, f144);
  std::printf("physics_fps 0: max |30 Hz - 60 Hz| %.5f, |30 Hz - 144 Hz| %.5f (with fps 30: %.5f)\n",
              static_cast<double>(d60), static_cast<double>(d144), static_cast<double>(fixed));
  EXPECT_GT(d144, 10 * fixed);
  EXPECT_GT(d144, 1.0f);  // 10 % of the output range
}

// ---------------------------------------------------------------------------------------
// 3. Y sources
// ---------------------------------------------------------------------------------------

// Parameters 0 InY, 1 Tilt, 2 Angle, 3 OutY; a tilted strand whose root a Y input moves.
Rig vertical(float out_y_min, float out_y_weight) {
  Rig rig;
  rig.parameters = {param("InY", -1, 1, 0), param("Tilt", -10, 10, 0), param("Angle", -10, 10, 0),
                    param("OutY", out_y_min, 1, 0.5f)};
  PhysicsGroup g;
  g.inputs = {input(0, 100, PhysicsSource::Y), input(1, 100, PhysicsSource::Angle)};
  g.segments = {point(0, 1, 1, 1), point(2, 0.9f, 0.9f, 1)};
  g.outputs = {output(2, 1, 5), output(3, 1, 3, out_y_weight, PhysicsSource::Y)};
  g.normalization = {-10, 0, 10, -10, 0, 10};
  rig.physics = {g};
  return rig;
}

TEST(PhysicsY, YInputMovesThePendulum) {
  const Rig rig = vertical(-1, 40);
  Physics still(rig), moved(rig);
  std::vector<float> a = defaults(rig), b = defaults(rig);
  a[1] = b[1] = 5;  // tilted
  still.stabilize(a);
  moved.stabilize(b);
  EXPECT_FLOAT_EQ(a[2], b[2]);
  float largest = 0;
  for (int n = 0; n < 30; ++n) {
    a = defaults(rig);
    b = defaults(rig);
    a[1] = b[1] = 5;
    b[0] = 1;  // only the Y input changes
    still.step(1.0f / 60, a);
    moved.step(1.0f / 60, b);
    largest = std::fmax(largest, std::fabs(b[2] - a[2]));
  }
  EXPECT_GT(largest, 0.05f);
}

// Cubism never loads the translation scale, so X and Y outputs give 0 x scale = 0, which
// is then clamped and blended like any output.
TEST(PhysicsY, YOutputWritesZeroBlendedByWeight) {
  {
    const Rig rig = vertical(-1, 40);
    Physics physics(rig);
    for (int n = 0; n < 10; ++n) {
      std::vector<float> v = defaults(rig);  // OutY 0.5 before physics
      v[0] = 0.7f;
      v[1] = 3;
      physics.step(1.0f / 60, v);
      EXPECT_FLOAT_EQ(v[3], 0.5f * 0.6f + 0.0f * 0.4f);
    }
  }
  {
    const Rig rig = vertical(0.25f, 100);  // 0 is below the range: clamped up
    Physics physics(rig);
    std::vector<float> v = defaults(rig);
    v[0] = 0.7f;
    physics.stabilize(v);
    EXPECT_EQ(v[3], 0.25f);
    physics.step(1.0f / 60, v);
    EXPECT_EQ(v[3], 0.25f);
  }
}

TEST(PhysicsY, XOutputWritesZeroToo) {
  Rig rig = one_strand();
  rig.physics[0].outputs = {output(2, 1, 4, 50, PhysicsSource::X)};
  Physics physics(rig);
  for (int n = 0; n < 5; ++n) {
    std::vector<float> v = defaults(rig);
    v[0] = 7;
    v[2] = 3;
    physics.step(1.0f / 30, v);
    EXPECT_FLOAT_EQ(v[2], 1.5f);  // 3 x 0.5 + 0 x 0.5
  }
}

// ---------------------------------------------------------------------------------------
// 4. Clamp, weight, reflect, wind, reset, stabilize, the 5 s rule, skip, propagation
// ---------------------------------------------------------------------------------------

// The angle outputs of the one-point strand over 20 frames with InX = 6 then 0.
std::vector<float> run(const Rig& rig, int frames = 20, float in_x = 6, float out_before = 0) {
  Physics physics(rig);
  std::vector<float> out;
  for (int n = 0; n < frames; ++n) {
    std::vector<float> v = defaults(rig);
    v[0] = n < 5 ? in_x : 0;
    v[2] = out_before;
    physics.step(1.0f / 30, v);
    out.push_back(v[2]);
  }
  return out;
}

TEST(PhysicsOutputs, ClampToTheRangeThenBlendByWeight) {
  Rig rig = one_strand();
  rig.physics[0].outputs = {output(2, 1, 1)};
  const auto free = run(rig);
  rig.physics[0].outputs = {output(2, 1, 30)};  // 30 x the angle: beyond +-10 at times
  const auto clamped = run(rig);
  int saturated = 0;
  for (std::size_t i = 0; i < free.size(); ++i) {
    const float expected = std::fmin(10.0f, std::fmax(-10.0f, free[i] * 30));
    EXPECT_NEAR(clamped[i], expected, 1e-4f) << i;
    saturated += std::fabs(clamped[i]) == 10.0f;
  }
  EXPECT_GT(saturated, 0);

  rig.physics[0].outputs = {output(2, 1, 30, 25)};  // weight 25 %: onto the value 4 held before
  const auto blended = run(rig, 20, 6, 4);
  for (std::size_t i = 0; i < free.size(); ++i)
    EXPECT_NEAR(blended[i], 4 * 0.75f + clamped[i] * 0.25f, 1e-4f) << i;
}

TEST(PhysicsOutputs, ReflectNegatesInputsAndOutputs) {
  Rig rig = one_strand();
  const auto base = run(rig);
  rig.physics[0].outputs[0].reflect = true;
  const auto out_reflected = run(rig);
  rig.physics[0].outputs[0].reflect = false;
  rig.physics[0].inputs[0].reflect = true;
  const auto in_reflected = run(rig);
  float largest = 0;
  for (std::size_t i = 0; i < base.size(); ++i) {
    EXPECT_FLOAT_EQ(out_reflected[i], -base[i]) << i;
    EXPECT_NEAR(in_reflected[i], -base[i], 1e-6f) << i;  // the mirrored swing
    largest = std::fmax(largest, std::fabs(base[i]));
  }
  EXPECT_GT(largest, 0.3f);
}

// The input centre is the range's midpoint, not the parameter's default.
TEST(PhysicsInputs, CentreIsTheMidpointOfTheRange) {
  Rig rig = one_strand();
  rig.parameters[0] = param("InX", 0, 20, 0);  // default 0, midpoint 10
  Physics physics(rig);
  std::vector<float> v = defaults(rig);
  v[0] = 10;  // the midpoint: no translation, the strand stays
  for (int n = 0; n < 10; ++n) {
    physics.step(1.0f / 30, v);
    EXPECT_EQ(v[2], 0.0f);
  }
  v[0] = 0;  // the default: the far left end of the range, translation +10 (negated -10)
  physics.step(1.0f / 30, v);
  physics.step(1.0f / 30, v);
  EXPECT_GT(std::fabs(v[2]), 0.1f);
}

TEST(PhysicsOptions, WindChangesTheRestAngle) {
  const Rig rig = one_strand();
  Physics calm(rig), windy(rig);
  windy.set_wind(0.5f, 0);
  std::vector<float> a = defaults(rig), b = defaults(rig);
  calm.stabilize(a);
  windy.stabilize(b);
  EXPECT_EQ(a[2], 0.0f);
  // At rest along gravity (0, 1) x 1 + wind (0.5, 0): the point leans to +x, an angle of
  // atan2(1, 0.5) - pi/2 from straight down.
  EXPECT_NEAR(b[2], std::atan2(1.0, 0.5) - kPi / 2, 2e-6);
  // Stepping converges to the same lean.
  Physics stepped(rig);
  stepped.set_wind(0.5f, 0);
  std::vector<float> c = defaults(rig);
  for (int n = 0; n < 600; ++n) {
    c = defaults(rig);
    stepped.step(1.0f / 60, c);
  }
  EXPECT_NEAR(c[2], b[2], 1e-3);
}

TEST(PhysicsState, ResetRestoresTheStateAtConstructionAndKeepsTheWind) {
  const Rig rig = one_strand();
  Physics used(rig), fresh(rig);
  used.set_wind(0.2f, 0);
  fresh.set_wind(0.2f, 0);
  std::vector<float> v = defaults(rig);
  for (int n = 0; n < 17; ++n) {
    v = defaults(rig);
    v[0] = 4;
    v[1] = static_cast<float>(n % 5);
    used.step(1.0f / 45, v);
  }
  used.reset();
  for (int n = 0; n < 12; ++n) {
    std::vector<float> a = defaults(rig), b = defaults(rig);
    a[0] = b[0] = static_cast<float>(n) - 3;
    used.step(1.0f / 60, a);
    fresh.step(1.0f / 60, b);
    EXPECT_EQ(a[2], b[2]) << n;
  }
}

TEST(PhysicsState, StabilizeIsTheRestALongRunReaches) {
  Rig rig = swinging(30);
  Physics stable(rig), running(rig);
  std::vector<float> s = defaults(rig);
  s[0] = 4;
  s[1] = -7;
  stable.stabilize(s);
  EXPECT_GT(std::fabs(s[3]), 0.3f);  // Mid leans with the tilted gravity (Tip, along it, reads ~0)
  std::vector<float> r;
  for (int n = 0; n < 60 * 20; ++n) {
    r = defaults(rig);
    r[0] = 4;
    r[1] = -7;
    running.step(1.0f / 60, r);
  }
  EXPECT_NEAR(r[2], s[2], 1e-3f);
  EXPECT_NEAR(r[3], s[3], 1e-3f);
  // After stabilize the strand is at rest: stepping with the same inputs stays there.
  std::vector<float> t = defaults(rig);
  t[0] = 4;
  t[1] = -7;
  stable.step(1.0f / 30, t);
  EXPECT_NEAR(t[2], s[2], 1e-4f);
}

// More than 5 s accumulated: the time is dropped and no step runs.
TEST(PhysicsState, FiveSecondsAccumulatedAreDropped) {
  for (float fps : {0.0f, 30.0f}) {
    const Rig rig = swinging(fps);
    Physics a(rig), b(rig);
    auto frame = [&](Physics& p, int n, float dt) {
      std::vector<float> v = defaults(rig);
      v[0] = static_cast<float>(8 * std::sin(0.3 * n));
      v[1] = static_cast<float>(5 * std::cos(0.2 * n));
      p.step(dt, v);
      return v[2];
    };
    // 40 frames: an even count, so with fps 30 the accumulated time is back to 0 exactly.
    float before = 0;
    for (int n = 0; n < 40; ++n) {
      before = frame(a, n, 1.0f / 60);
      frame(b, n, 1.0f / 60);
    }
    const float after = frame(a, 40, 6.0f);  // no step: the same interpolation as before
    EXPECT_EQ(after, before) << fps;
    for (int n = 41; n < 80; ++n) EXPECT_EQ(frame(a, n, 1.0f / 60), frame(b, n, 1.0f / 60)) << fps << " " << n;
  }
}

// Two groups: Lead writes Chain, Follow reads Chain. Follow sees Lead's output of the same
// step even though the host's value of Chain stays at its default; skipping Lead leaves
// Follow at rest.
Rig chained() {
  Rig rig;
  rig.parameters = {param("InX", -10, 10, 0), param("Chain", -10, 10, 0), param("Out", -10, 10, 0)};
  PhysicsGroup lead, follow;
  lead.inputs = {input(0, 100, PhysicsSource::X)};
  lead.segments = {point(0, 1, 1, 1), point(2, 0.9f, 0.8f, 1)};
  lead.outputs = {output(1, 1, 20)};
  lead.normalization = {-10, 0, 10, -10, 0, 10};
  follow.inputs = {input(1, 100, PhysicsSource::Angle)};
  follow.segments = {point(0, 1, 1, 1), point(2, 0.9f, 0.8f, 1)};
  follow.outputs = {output(2, 1, 10)};
  follow.normalization = {-10, 0, 10, -10, 0, 10};
  rig.physics = {lead, follow};
  return rig;
}

TEST(PhysicsGroups, LaterGroupsReadEarlierOutputsAndSkipStopsAGroup) {
  const Rig rig = chained();
  Physics physics(rig), skipping(rig);
  const std::uint8_t skip_lead[] = {1, 0};
  float moved = 0;
  for (int n = 0; n < 30; ++n) {
    std::vector<float> v = defaults(rig), w = defaults(rig);
    v[0] = w[0] = 8;
    physics.step(1.0f / 60, v);
    skipping.step(1.0f / 60, w, skip_lead);
    moved = std::fmax(moved, std::fabs(v[2]));
    EXPECT_EQ(w[1], 0.0f);  // Lead neither steps nor writes
    EXPECT_EQ(w[2], 0.0f);  // Follow's input Chain stays at its default: at rest
  }
  EXPECT_GT(moved, 0.1f);
}

// ---------------------------------------------------------------------------------------
// 5. Robustness
// ---------------------------------------------------------------------------------------

// The outputs (parameters 2 on) are finite; the inputs are what the test put there.
void expect_finite(const std::vector<float>& v, const char* what, std::size_t first = 2) {
  for (std::size_t i = first; i < v.size(); ++i) EXPECT_TRUE(std::isfinite(v[i])) << what << ": parameter " << i;
}

TEST(PhysicsRobustness, DegenerateRigsAndInputsGiveFiniteOutputs) {
  Rig rig;
  rig.parameters = {param("InX", -10, 10, 0), param("Flat", 2, 2, 2), param("Out", -10, 10, 0),
                    param("OutFar", 0.5f, 1, 0.75f), param("OutFlat", 3, 3, 3), param("Out2", -10, 10, 0)};
  rig.physics_fps = 60;
  PhysicsGroup zero;  // a zero-length segment (a point on top of its parent), then a normal one
  zero.inputs = {input(0, 100, PhysicsSource::X), input(1, 100, PhysicsSource::Angle)};
  zero.segments = {point(0, 1, 1, 1), point(0, 0.9f, 0.8f, 1), point(1, 0.9f, 0.8f, 1)};
  zero.outputs = {output(2, 1, 10), output(5, 2, 10), output(3, 3, 1, 50),  // vertex 3 = point count
                  output(4, 2, 10), output(2, 0, 1, 50)};                    // vertex 0: the root
  zero.normalization = {-10, 0, 10, -10, 0, 10};
  PhysicsGroup lonely;  // one point only
  lonely.inputs = {input(0, 100, PhysicsSource::X)};
  lonely.segments = {point(0, 1, 1, 1)};
  lonely.outputs = {output(5, 1, 1)};
  lonely.normalization = {-10, 0, 10, -10, 0, 10};
  PhysicsGroup empty;  // no point at all
  empty.inputs = {input(0, 100, PhysicsSource::X)};
  empty.outputs = {output(5, 0, 1)};
  PhysicsGroup still;  // no acceleration and no wind: stabilize has no direction
  still.inputs = {input(0, 100, PhysicsSource::X)};
  still.segments = {point(0, 1, 1, 0), point(1, 1, 1, 0)};
  still.outputs = {output(5, 1, 1, 50)};
  still.normalization = {-10, 0, 10, 0, 0, 0};
  rig.physics = {zero, lonely, empty, still};

  Physics physics(rig);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = defaults(rig);
  physics.stabilize(v);
  expect_finite(v, "stabilize");
  const float inputs[] = {3, nan, 8, inf, -inf, -4, nan, 1e30f, 0, 5};
  for (int n = 0; n < 200; ++n) {
    v = defaults(rig);
    v[0] = inputs[n % 10];
    v[1] = n % 3 ? nan : 2;
    v[2] = n % 7 ? 0 : nan;  // a NaN already in an output parameter
    v[3] = n % 5 ? 0.75f : inf;
    physics.step(n % 11 ? 1.0f / 60 : 0.3f, v);
    expect_finite(v, "step");
  }
  v = defaults(rig);
  v[0] = nan;
  physics.stabilize(v);
  expect_finite(v, "stabilize NaN");
  EXPECT_EQ(v[4], 3.0f);  // a one-value range holds its value

  // Cubism skips outputs on points it never moves (vertex 0 or >= point count) while
  // stepping, but its interpolation still writes them from their initial value 0: clamped
  // into the range and blended by weight.
  v = defaults(rig);
  physics.step(1.0f / 60, v);
  EXPECT_FLOAT_EQ(v[3], 0.75f * 0.5f + 0.5f * 0.5f);

  // Times that do nothing.
  std::vector<float> before = defaults(rig), w = before;
  for (float dt : {0.0f, -1.0f, nan, -inf}) {
    physics.step(dt, w);
    EXPECT_EQ(w, before);
  }
  // A values span shorter than the parameters: nothing is read or written.
  std::vector<float> shorter(2, 1.0f);
  physics.step(1.0f / 60, shorter);
  physics.stabilize(shorter);
  EXPECT_EQ(shorter, std::vector<float>(2, 1.0f));
}

TEST(PhysicsRobustness, AnAbsurdFpsStillEnds) {
  Rig rig = swinging(1e30f);
  Physics physics(rig);
  std::vector<float> v = defaults(rig);
  v[0] = 3;
  physics.step(1.0f / 60, v);
  physics.step(4.0f, v);
  expect_finite(v, "fps 1e30");
}

TEST(PhysicsRobustness, StepAndStabilizeDoNotAllocate) {
  const Rig rig = chained();
  Physics physics(rig);
  physics.set_wind(0.1f, 0.2f);
  std::vector<float> v = defaults(rig);
  const std::uint8_t skip[] = {0, 1};
  const std::size_t before = p2l_test::allocation_count();
  physics.stabilize(v);
  for (int n = 0; n < 100; ++n) {
    v[0] = static_cast<float>(n % 9);
    physics.step(1.0f / 60, v, n % 2 ? std::span<const std::uint8_t>(skip) : std::span<const std::uint8_t>());
  }
  physics.reset();
  physics.step(0.01f, v);
  EXPECT_EQ(p2l_test::allocation_count(), before);
}

}  // namespace
