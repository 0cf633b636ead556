// The SIMS solver (src/ext/xpbd.hpp) on small scenes built by hand, each with an answer
// known from mechanics: a chain and a cloth come to rest under their pins, a particle slides
// down or sticks to a capsule, stiff goals, welds, areas and long-range limits hold exactly,
// compliant pins, goals, welds and edges yield by what XPBD's statics predict, bends hold a
// hinged flap out, two runs agree bit for bit, and stepping allocates nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "counting_allocator.hpp"
#include "ext/xpbd.hpp"

namespace {

using p2l::ext::PlacedCollider;
using p2l::ext::XpbdSolver;

constexpr float kStep = 1.0f / 60.0f;
constexpr float kGravity = -980.0f;  // world y is up

// A Simulation record written by hand: particles with their goals, then constraints.
struct Scene {
  std::uint32_t substeps = 8;
  float gravity_y = kGravity;
  float pin_compliance = 0;
  std::size_t colliders = 0;
  std::vector<float> goals;  // xy interleaved, the reset positions
  std::vector<float> inv_mass, damping, wind_factor, pin_weight, goal_compliance, goal_offset_x, goal_offset_y;
  std::vector<std::uint32_t> stretch_a, stretch_b, tri_a, tri_b, tri_c, bend_t1, bend_t2, weld_a, weld_b, long_particle,
      long_root;
  std::vector<float> stretch_rest, stretch_compliance, compression_compliance, area_compliance, bend_compliance,
      weld_weight_a, weld_weight_b, weld_compliance, long_max_distance;

  // A free particle (pin 0, no goal) unless told otherwise.
  std::uint32_t particle(float x, float y, float pin = 0, float damp = 1, float goal = -1) {
    goals.insert(goals.end(), {x, y});
    inv_mass.push_back(1);
    damping.push_back(damp);
    wind_factor.push_back(1);
    pin_weight.push_back(pin);
    goal_compliance.push_back(goal);
    goal_offset_x.push_back(0);
    goal_offset_y.push_back(0);
    return static_cast<std::uint32_t>(inv_mass.size() - 1);
  }
  float distance(std::uint32_t a, std::uint32_t b) const {
    return std::hypot(goals[a * 2] - goals[b * 2], goals[a * 2 + 1] - goals[b * 2 + 1]);
  }
  // An edge whose file rest length is its length at the goals.
  void stretch(std::uint32_t a, std::uint32_t b, float compliance, float compression) {
    stretch_a.push_back(a);
    stretch_b.push_back(b);
    stretch_rest.push_back(distance(a, b));
    stretch_compliance.push_back(compliance);
    compression_compliance.push_back(compression);
  }
  std::uint32_t triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c, float compliance) {
    tri_a.push_back(a);
    tri_b.push_back(b);
    tri_c.push_back(c);
    area_compliance.push_back(compliance);
    return static_cast<std::uint32_t>(tri_a.size() - 1);
  }
  void bend(std::uint32_t t1, std::uint32_t t2, float compliance) {
    bend_t1.push_back(t1);
    bend_t2.push_back(t2);
    bend_compliance.push_back(compliance);
  }
  void weld(std::uint32_t a, std::uint32_t b, float weight_a, float weight_b, float compliance) {
    weld_a.push_back(a);
    weld_b.push_back(b);
    weld_weight_a.push_back(weight_a);
    weld_weight_b.push_back(weight_b);
    weld_compliance.push_back(compliance);
  }
  void long_range(std::uint32_t particle_index, std::uint32_t root, float max_distance) {
    long_particle.push_back(particle_index);
    long_root.push_back(root);
    long_max_distance.push_back(max_distance);
  }

  p2l::Simulation build() const {
    p2l::Simulation s;
    s.fps = 60;
    s.substeps = substeps;
    s.gravity_y = gravity_y;
    s.pin_compliance = pin_compliance;
    const auto n = static_cast<std::uint32_t>(inv_mass.size());
    s.targets = {p2l::SimTarget{0, n}};
    s.inv_mass = inv_mass;
    s.damping = damping;
    s.wind_factor = wind_factor;
    s.pin_weight = pin_weight;
    s.goal_compliance = goal_compliance;
    s.goal_offset_x = goal_offset_x;
    s.goal_offset_y = goal_offset_y;
    s.anchor_mesh = std::vector<std::uint32_t>(n, 0xFFFFFFFFu);
    s.anchor_vertex = std::vector<std::uint32_t>(n, 0u);
    s.stretch_a = stretch_a;
    s.stretch_b = stretch_b;
    s.stretch_rest = stretch_rest;
    s.stretch_compliance = stretch_compliance;
    s.compression_compliance = compression_compliance;
    s.tri_a = tri_a;
    s.tri_b = tri_b;
    s.tri_c = tri_c;
    s.area_compliance = area_compliance;
    s.bend_t1 = bend_t1;
    s.bend_t2 = bend_t2;
    s.bend_compliance = bend_compliance;
    s.weld_a = weld_a;
    s.weld_b = weld_b;
    s.weld_weight_a = weld_weight_a;
    s.weld_weight_b = weld_weight_b;
    s.weld_compliance = weld_compliance;
    s.long_particle = long_particle;
    s.long_root = long_root;
    s.long_max_distance = long_max_distance;
    s.colliders.assign(colliders, 0u);
    return s;
  }
};

// Reset on the goals with the anchors given (the goals when empty) and take them as this
// step's targets.
void start(XpbdSolver& solver, const std::vector<float>& goals, const std::vector<float>& anchors = {},
           std::span<const PlacedCollider> colliders = {}) {
  const std::vector<float>& pins = anchors.empty() ? goals : anchors;
  solver.reset(goals, pins);
  solver.set_targets(goals, pins, colliders, 0);
}

void run(XpbdSolver& solver, int steps) {
  for (int k = 0; k < steps; ++k) solver.step(kStep, 0, 0);
}

float px(const XpbdSolver& s, std::size_t i) { return s.x()[i]; }
float py(const XpbdSolver& s, std::size_t i) { return s.y()[i]; }

// The largest move of any particle over one more step.
float largest_move(XpbdSolver& solver) {
  const std::vector<float> x(solver.x().begin(), solver.x().end()), y(solver.y().begin(), solver.y().end());
  solver.step(kStep, 0, 0);
  float worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::hypot(px(solver, i) - x[i], py(solver, i) - y[i]));
  return worst;
}

// 1. A chain of 8 particles 10 apart, laid out horizontally, the first rigidly pinned: it
// swings down and comes to rest hanging straight under its pin, each link at its length.
TEST(XpbdChain, HangsStraightDownAtRestLength) {
  Scene scene;
  constexpr std::uint32_t kLinks = 7;
  scene.particle(0, 0, 1.0f);
  for (std::uint32_t i = 1; i <= kLinks; ++i) {
    scene.particle(10.0f * static_cast<float>(i), 0, 0, 4.0f);
    scene.stretch(i - 1, i, 0, 0);
  }
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  ASSERT_EQ(solver.particle_count(), kLinks + 1);
  start(solver, scene.goals);
  run(solver, 8 * 60);

  EXPECT_EQ(px(solver, 0), 0.0f);
  EXPECT_EQ(py(solver, 0), 0.0f);
  for (std::uint32_t i = 1; i <= kLinks; ++i) {
    SCOPED_TRACE(i);
    EXPECT_NEAR(px(solver, i), 0.0f, 1e-5f);  // straight down under the pin
    EXPECT_LT(py(solver, i), py(solver, i - 1));
    const float link = std::hypot(px(solver, i) - px(solver, i - 1), py(solver, i) - py(solver, i - 1));
    // Stiff links, one iteration (two sweeps) a substep: within 0.2% of their length (the
    // top links, which carry the most, are 0.14% long).
    EXPECT_NEAR(link, 10.0f, 0.02f);
  }
  EXPECT_LT(largest_move(solver) / kStep, 1e-3f);  // at rest: below 0.001 units/s
}

// 2. A 5x4 cloth hanging from its top row, which is pinned rigidly to anchors 15 to the
// right of where the cloth starts: it swings over and settles there in its rest shape.
TEST(XpbdCloth, PinnedGridSettlesUnderItsAnchors) {
  constexpr std::uint32_t kW = 5, kH = 4;
  Scene scene;
  auto at = [](std::uint32_t c, std::uint32_t r) { return r * kW + c; };
  for (std::uint32_t r = 0; r < kH; ++r)
    for (std::uint32_t c = 0; c < kW; ++c)
      scene.particle(10.0f * static_cast<float>(c), -10.0f * static_cast<float>(r), r == 0 ? 1.0f : 0.0f, 3.0f);
  for (std::uint32_t r = 0; r < kH; ++r)
    for (std::uint32_t c = 0; c < kW; ++c) {
      if (c + 1 < kW) scene.stretch(at(c, r), at(c + 1, r), 1e-7f, 1e-6f);
      if (r + 1 < kH) scene.stretch(at(c, r), at(c, r + 1), 1e-7f, 1e-6f);
    }
  // Two triangles a cell, bent against each other and against the next cell's.
  for (std::uint32_t r = 0; r + 1 < kH; ++r)
    for (std::uint32_t c = 0; c + 1 < kW; ++c) {
      const std::uint32_t lower = scene.triangle(at(c, r), at(c, r + 1), at(c + 1, r + 1), 1e-6f);
      const std::uint32_t upper = scene.triangle(at(c, r), at(c + 1, r + 1), at(c + 1, r), 1e-6f);
      scene.bend(lower, upper, 1e-4f);
      if (c > 0) scene.bend(upper - 2, lower, 1e-4f);
    }
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  std::vector<float> anchors = scene.goals;
  for (std::size_t i = 0; i < anchors.size(); i += 2) anchors[i] += 15.0f;
  start(solver, scene.goals, anchors);

  float move = 0;
  for (int k = 0; k < 10 * 60; ++k) move = largest_move(solver);
  EXPECT_LT(move, 2e-4f);  // the last step moved nothing by more than 0.0002
  for (std::uint32_t i = 0; i < kW * kH; ++i) {
    SCOPED_TRACE(i);
    ASSERT_TRUE(std::isfinite(px(solver, i)) && std::isfinite(py(solver, i)));
    if (i < kW) {  // the pinned row sits exactly on its anchors
      EXPECT_EQ(px(solver, i), anchors[i * 2]);
      EXPECT_EQ(py(solver, i), anchors[i * 2 + 1]);
    } else {  // the rest hangs in its rest shape under them, stiff enough to sag by < 0.01
      EXPECT_NEAR(px(solver, i), anchors[i * 2], 0.01f);
      EXPECT_NEAR(py(solver, i), anchors[i * 2 + 1], 0.01f);
    }
  }
}

// 3. Collisions. A capsule tilted down to the right, slope 1/2, radius 10.
constexpr PlacedCollider kSlope{0, 0, 100, -50, 10, 10, 0};

// Where a point is along the capsule's axis (0 at a, 100·sqrt(1.25) at b) and its distance
// from the axis.
float along(const PlacedCollider& c, float x, float y) {
  const float ex = c.bx - c.ax, ey = c.by - c.ay;
  return ((x - c.ax) * ex + (y - c.ay) * ey) / std::hypot(ex, ey);
}
float from_axis(const PlacedCollider& c, float x, float y) {
  const float ex = c.bx - c.ax, ey = c.by - c.ay;
  const float t = std::clamp(((x - c.ax) * ex + (y - c.ay) * ey) / (ex * ex + ey * ey), 0.0f, 1.0f);
  return std::hypot(x - (c.ax + ex * t), y - (c.ay + ey * t));
}

struct SlideResult {
  float landed_along = 0, along_after = 0;
  float landed_time = -1, after_time = 0;
};

// A particle dropped from 20 above the capsule at x = 30; after it lands, `after` more
// seconds of steps. It is never inside the capsule after a step.
SlideResult drop_on_slope(float friction, float after) {
  Scene scene;
  scene.substeps = 4;
  scene.colliders = 1;
  scene.particle(30, 20, 0, 0);
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  PlacedCollider capsule = kSlope;
  capsule.friction = friction;
  start(solver, scene.goals, {}, {&capsule, 1});
  SlideResult r;
  for (int k = 1; k <= 600; ++k) {
    solver.set_targets(scene.goals, scene.goals, {&capsule, 1}, 0);
    solver.step(kStep, 0, 0);
    const float x = px(solver, 0), y = py(solver, 0), t = static_cast<float>(k) * kStep;
    EXPECT_GE(from_axis(capsule, x, y), 10.0f - 1e-3f) << "inside after step " << k;
    if (r.landed_time < 0 && from_axis(capsule, x, y) < 10.0f + 1e-3f) {
      r.landed_time = t;
      r.landed_along = along(capsule, x, y);
    }
    if (r.landed_time >= 0 && t >= r.landed_time + after - 1e-4f) {
      r.along_after = along(capsule, x, y);
      r.after_time = t - r.landed_time;
      break;
    }
  }
  return r;
}

TEST(XpbdCollision, FrictionlessParticleSlidesDownTheCapsule) {
  const SlideResult r = drop_on_slope(0, 0.25f);
  ASSERT_GT(r.landed_time, 0.2f);  // fell about 22.5 to the surface: 0.21 s
  ASSERT_LT(r.landed_time, 0.25f);
  // Landing keeps the tangential part of the fall's speed, g t sin(theta) (sin = 1/sqrt 5),
  // and the incline adds g sin(theta) t^2 / 2: 39.2 in 0.25 s. Stuck, it would be 0.
  const float sin_theta = 1.0f / std::sqrt(5.0f);
  const float expected = 980.0f * r.landed_time * sin_theta * r.after_time +
                         0.5f * 980.0f * sin_theta * r.after_time * r.after_time;
  EXPECT_NEAR(r.along_after - r.landed_along, expected, 0.03f * expected);
}

TEST(XpbdCollision, FullFrictionHoldsTheParticleWhereItLands) {
  const SlideResult r = drop_on_slope(1, 2.0f);
  ASSERT_GT(r.landed_time, 0.0f);
  EXPECT_NEAR(r.along_after, r.landed_along, 1e-4f);  // 2 s later, not 1e-4 further
}

// A tapered capsule's radius goes linearly from a to b at the closest point of its axis:
// particles inside it (no gravity, one substep) come out on that radius along the normal.
TEST(XpbdCollision, TaperedCapsulePushesOutToTheRadiusWhereItIsClosest) {
  Scene scene;
  scene.substeps = 1;
  scene.gravity_y = 0;
  scene.colliders = 1;
  scene.particle(50, 1, 0, 0);    // over the middle: radius 5 + 15 * 0.5 = 12.5
  scene.particle(90, -2, 0, 0);   // under the thick end: 5 + 15 * 0.9 = 18.5
  scene.particle(-3, 1, 0, 0);    // beyond a: the cap of radius 5 about a
  scene.particle(20, 0, 0, 0);    // on the axis: no normal, pushed up by 5 + 15 * 0.2 = 8
  scene.particle(50, 30, 0, 0);   // outside: untouched
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  const PlacedCollider cone{0, 0, 100, 0, 5, 20, 0};
  start(solver, scene.goals, {}, {&cone, 1});
  solver.step(kStep, 0, 0);
  EXPECT_NEAR(px(solver, 0), 50.0f, 1e-4f);
  EXPECT_NEAR(py(solver, 0), 12.5f, 1e-4f);
  EXPECT_NEAR(px(solver, 1), 90.0f, 1e-4f);
  EXPECT_NEAR(py(solver, 1), -18.5f, 1e-4f);
  const float d = std::sqrt(10.0f);
  EXPECT_NEAR(px(solver, 2), -3.0f / d * 5.0f, 1e-4f);
  EXPECT_NEAR(py(solver, 2), 1.0f / d * 5.0f, 1e-4f);
  EXPECT_NEAR(px(solver, 3), 20.0f, 1e-4f);
  EXPECT_NEAR(py(solver, 3), 8.0f, 1e-4f);
  EXPECT_EQ(px(solver, 4), 50.0f);
  EXPECT_EQ(py(solver, 4), 30.0f);
}

// A collider that moves between steps sweeps through the substeps; one placed for the first
// time has no previous placement and stands where it is. A circle of radius 5 next to a
// weightless particle, then moved across it: arriving gradually it shoves the particle ahead
// of it (to +x); had it jumped to its new place at once it would have pushed it out to -x.
TEST(XpbdCollision, MovingColliderIsInterpolatedAcrossSubsteps) {
  Scene scene;
  scene.substeps = 4;
  scene.gravity_y = 0;
  scene.colliders = 1;
  scene.particle(0, 0, 0, 0);
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  // First step: placed at (-6, 0), 6 away; coming from anywhere else it would have hit.
  PlacedCollider circle{-6, 0, -6, 0, 5, 5, 0};
  start(solver, scene.goals, {}, {&circle, 1});
  solver.step(kStep, 0, 0);
  EXPECT_EQ(px(solver, 0), 0.0f);
  // Then to (2, 0): at the substeps it is at -4, -2, 0, 2 and each time puts the particle on
  // its right edge (it keeps the speed of the last push in between): 1, 3, 5, then 7.
  circle.ax = circle.bx = 2;
  solver.set_targets(scene.goals, scene.goals, {&circle, 1}, 0);
  solver.step(kStep, 0, 0);
  EXPECT_NEAR(px(solver, 0), 7.0f, 1e-4f);
  EXPECT_NEAR(py(solver, 0), 0.0f, 1e-4f);
}

// 4. Determinism: a scene with every kind of constraint, moving anchors, goals, a moving
// collider and gusting wind, stepped by two solvers: the same bits after every step; and a
// solver reset and run again repeats itself.
struct Busy {
  Scene scene;
  p2l::Simulation sim;
  Busy() {
    scene.substeps = 6;
    scene.pin_compliance = 1e-4f;
    scene.colliders = 2;
    constexpr std::uint32_t kW = 4, kH = 4;
    auto at = [](std::uint32_t c, std::uint32_t r) { return r * kW + c; };
    for (std::uint32_t r = 0; r < kH; ++r)
      for (std::uint32_t c = 0; c < kW; ++c)
        scene.particle(12.0f * static_cast<float>(c), -12.0f * static_cast<float>(r), r == 0 ? (c % 2 ? 1.0f : 0.6f) : 0.0f,
                       0.5f, r == kH - 1 ? 1e-3f : -1.0f);
    scene.goal_offset_x[at(1, 3)] = 3;
    scene.goal_offset_y[at(2, 3)] = -2;
    for (std::uint32_t r = 0; r < kH; ++r)
      for (std::uint32_t c = 0; c < kW; ++c) {
        if (c + 1 < kW) scene.stretch(at(c, r), at(c + 1, r), 1e-6f, 1e-4f);
        if (r + 1 < kH) scene.stretch(at(c, r), at(c, r + 1), 1e-6f, 1e-4f);
      }
    for (std::uint32_t r = 0; r + 1 < kH; ++r)
      for (std::uint32_t c = 0; c + 1 < kW; ++c) {
        const std::uint32_t lower = scene.triangle(at(c, r), at(c, r + 1), at(c + 1, r + 1), c == 1 ? -1.0f : 1e-5f);
        const std::uint32_t upper = scene.triangle(at(c, r), at(c + 1, r + 1), at(c + 1, r), 1e-5f);
        scene.bend(lower, upper, 1e-3f);
      }
    const std::uint32_t tail = scene.particle(40, -36, 0, 1.0f);
    scene.weld(tail, at(3, 3), 1.0f, 0.5f, 1e-5f);
    scene.long_range(at(0, 3), at(0, 0), 38);
    scene.long_range(at(3, 3), at(3, 0), 38);
    sim = scene.build();
  }
  // The targets at step k: the pinned row sways, the goals drift, a circle and a tapered
  // capsule move through the cloth.
  void targets(int k, std::vector<float>& goals, std::vector<float>& anchors, PlacedCollider (&colliders)[2]) const {
    const float t = static_cast<float>(k) * kStep;
    goals = scene.goals;
    anchors = scene.goals;
    for (std::size_t i = 0; i < anchors.size(); i += 2) {
      anchors[i] += 8.0f * std::sin(3.0f * t);
      goals[i + 1] += 2.0f * std::cos(2.0f * t);
    }
    colliders[0] = {18 + 10 * std::sin(t), -30, 18 + 10 * std::sin(t), -30, 6, 6, 0.3f};
    colliders[1] = {-5, -40 + 5 * std::cos(t), 45, -42, 3, 7, 0};
  }
};

void run_busy(const Busy& busy, XpbdSolver& solver, int steps, std::vector<float>& trace) {
  std::vector<float> goals, anchors;
  PlacedCollider colliders[2];
  busy.targets(0, goals, anchors, colliders);
  solver.reset(goals, anchors);
  for (int k = 1; k <= steps; ++k) {
    busy.targets(k, goals, anchors, colliders);
    solver.set_targets(goals, anchors, colliders, solver.frame_angle(anchors));
    const float t = static_cast<float>(k) * kStep;
    solver.step(kStep, 300.0f * std::sin(5.0f * t), 50.0f);
    trace.insert(trace.end(), solver.x().begin(), solver.x().end());
    trace.insert(trace.end(), solver.y().begin(), solver.y().end());
  }
}

TEST(XpbdDeterminism, TwoSolversAgreeBitForBit) {
  const Busy busy;
  XpbdSolver first(busy.sim), second(busy.sim);
  std::vector<float> a, b, again;
  run_busy(busy, first, 300, a);
  run_busy(busy, second, 300, b);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
  run_busy(busy, first, 300, again);  // reset and run again: the same run
  EXPECT_EQ(std::memcmp(a.data(), again.data(), a.size() * sizeof(float)), 0);
  for (float v : a) ASSERT_TRUE(std::isfinite(v));
  // The scene did move: the free corner is not where it started.
  EXPECT_GT(std::fabs(first.x()[15] - busy.scene.goals[30]) + std::fabs(first.y()[15] - busy.scene.goals[31]), 1.0f);
}

// 5. Goals.
TEST(XpbdGoals, NegativeOrNonFiniteComplianceMeansNone) {
  EXPECT_TRUE(p2l::ext::no_constraint(-1.0f));
  EXPECT_TRUE(p2l::ext::no_constraint(std::nanf("")));
  EXPECT_TRUE(p2l::ext::no_constraint(INFINITY));
  EXPECT_FALSE(p2l::ext::no_constraint(0.0f));
  EXPECT_FALSE(p2l::ext::no_constraint(1e-3f));

  // Weightless particles whose goals jump away: with no goal they stay put.
  Scene scene;
  scene.gravity_y = 0;
  scene.particle(0, 0, 0, 1, -1.0f);
  scene.particle(5, 0, 0, 1, std::nanf(""));
  scene.particle(10, 0, 0, 1, INFINITY);
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  start(solver, scene.goals);
  std::vector<float> moved = scene.goals;
  for (float& v : moved) v += 50.0f;
  solver.set_targets(moved, moved, {}, 0);
  run(solver, 30);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(px(solver, i), scene.goals[i * 2]);
    EXPECT_EQ(py(solver, i), scene.goals[i * 2 + 1]);
  }
}

// Two firm pins give the body's turn; a stiff goal with an offset holds its particle on the
// goal plus the offset turned by that angle, against gravity, at the end of every step.
TEST(XpbdGoals, StiffGoalHoldsTheGoalPlusTheTurnedOffset) {
  Scene scene;
  scene.substeps = 4;
  scene.particle(0, 0, 1.0f);
  scene.particle(10, 0, 0.5f);  // firm enough for the frame, soft as a pin
  const std::uint32_t free = scene.particle(20, -5, 0, 1, 0.0f);
  scene.goal_offset_x[free] = 5;
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  start(solver, scene.goals);
  EXPECT_EQ(solver.frame_angle(scene.goals), 0.0f);

  // The anchors turned by 90 degrees about the first: the body's angle is pi/2.
  std::vector<float> anchors = scene.goals;
  anchors[2] = 0;
  anchors[3] = 10;
  const float angle = solver.frame_angle(anchors);
  EXPECT_NEAR(angle, std::numbers::pi_v<float> / 2, 1e-6f);
  std::vector<float> goals = scene.goals;
  goals[free * 2] = 20;
  goals[free * 2 + 1] = 30;
  solver.set_targets(goals, anchors, {}, angle);
  for (int k = 0; k < 10; ++k) {
    solver.step(kStep, 0, 0);
    EXPECT_NEAR(px(solver, free), 20.0f, 1e-4f);  // (20, 30) + (5, 0) turned by 90 degrees
    EXPECT_NEAR(py(solver, free), 35.0f, 1e-4f);
  }

  // 30 degrees about the centroid, scaled and moved: still 30 degrees.
  const float c = std::cos(0.5236f), s = std::sin(0.5236f);
  std::vector<float> turned = {7 + 2 * (-5 * c), 3 + 2 * (-5 * s), 7 + 2 * (5 * c), 3 + 2 * (5 * s), 0, 0};
  EXPECT_NEAR(solver.frame_angle(turned), 0.5236f, 1e-5f);
}

TEST(XpbdGoals, FewerThanTwoFirmPinsGiveNoTurn) {
  Scene scene;
  scene.particle(0, 0, 1.0f);
  scene.particle(10, 0, 0.49f);
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  start(solver, scene.goals);
  EXPECT_EQ(solver.frame_angle(std::vector<float>{0, 0, 0, 10}), 0.0f);
}

// XPBD's statics: a zero-length spring of compliance c holding a unit mass rests g' c below
// its target, whatever the substep, where g' = g exp(-damping hs) is the gravity one substep
// of integration leaves after its velocity decay. Pins get c = pinCompliance (1 - w) / w
// (inverse mass 1), goals their own compliance.
float sag(float compliance, float damping, std::uint32_t substeps) {
  const float hs = kStep / static_cast<float>(substeps);
  return 980.0f * std::exp(-damping * hs) * compliance;
}

TEST(XpbdGoals, CompliantPinsAndGoalsSagByGravityTimesCompliance) {
  Scene scene;
  scene.pin_compliance = 1e-3f;
  scene.particle(0, 0, 0.5f, 5);       // c = 1e-3
  scene.particle(10, 0, 0.25f, 5);     // c = 3e-3
  scene.particle(20, 0, 0, 5, 1e-3f);  // goal c = 1e-3
  scene.particle(30, 0, 0, 5, 0.0f);   // stiff goal: no sag
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  start(solver, scene.goals);
  run(solver, 5 * 60);
  // Float rounding moves a fixed point that each substep approaches by only a 1/(1 + c/hs²)
  // share by up to an ulp times that much: 1e-4 and 3e-4 here. Without the decay the sags
  // would be 0.01 and 0.03 larger.
  EXPECT_NEAR(py(solver, 0), -sag(1e-3f, 5, 8), 2e-4f);  // 0.9698
  EXPECT_NEAR(py(solver, 1), -sag(3e-3f, 5, 8), 5e-4f);  // 2.9095
  EXPECT_NEAR(py(solver, 2), -sag(1e-3f, 5, 8), 2e-4f);
  EXPECT_NEAR(py(solver, 3), 0.0f, 1e-4f);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(px(solver, i), scene.goals[i * 2], 1e-4f);
}

// 6. Welds and long-range attachments.
TEST(XpbdWelds, StiffWeldsMeetByTheirWeights) {
  Scene scene;
  scene.substeps = 1;
  scene.gravity_y = 0;
  scene.particle(0, 0);
  scene.particle(10, 4);
  scene.weld(0, 1, 1, 1, 0);  // equal weights: both to the midpoint (5, 2)
  scene.particle(20, 0);
  scene.particle(30, -6);
  scene.weld(2, 3, 1, 0, 0);  // the second side does not give: the first goes all the way
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  start(solver, scene.goals);
  solver.step(kStep, 0, 0);
  EXPECT_NEAR(px(solver, 0), 5.0f, 1e-5f);
  EXPECT_NEAR(py(solver, 0), 2.0f, 1e-5f);
  EXPECT_NEAR(px(solver, 1), 5.0f, 1e-5f);
  EXPECT_NEAR(py(solver, 1), 2.0f, 1e-5f);
  EXPECT_NEAR(px(solver, 2), 30.0f, 1e-5f);
  EXPECT_NEAR(py(solver, 2), -6.0f, 1e-5f);
  EXPECT_EQ(px(solver, 3), 30.0f);
  EXPECT_EQ(py(solver, 3), -6.0f);
}

// A compliant weld from a free particle to a pinned one is a spring of compliance c / weightA
// (the pinned side has no mobility): it hangs g' c / weightA below (g' as for sag()).
TEST(XpbdWelds, CompliantWeldToAPinSagsByGravityTimesComplianceOverWeight) {
  Scene scene;
  scene.particle(0, 0, 1.0f);
  scene.particle(0, 0, 0, 5);
  scene.weld(1, 0, 0.5f, 1, 1e-4f);
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  start(solver, scene.goals);
  run(solver, 5 * 60);
  EXPECT_NEAR(px(solver, 1), 0.0f, 1e-5f);
  EXPECT_NEAR(py(solver, 1), -sag(1e-4f, 5, 8) / 0.5f, 2e-5f);  // 0.19397
}

// A particle falling from 5 below its pinned root on a 20 long leash: free fall until the
// leash is taut, then held exactly 20 below, never further.
TEST(XpbdLongRange, CapsTheDistanceFromTheRoot) {
  Scene scene;
  scene.particle(0, 0, 1.0f);
  scene.particle(0, -5, 0, 1);
  scene.long_range(1, 0, 20);
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  start(solver, scene.goals);
  solver.step(kStep, 0, 0);
  EXPECT_GT(py(solver, 1), -5.5f);  // a free fall's first frame (about 0.16 down)
  EXPECT_LT(py(solver, 1), -5.0f);
  for (int k = 0; k < 120; ++k) {
    solver.step(kStep, 0, 0);
    EXPECT_LE(std::hypot(px(solver, 1), py(solver, 1)), 20.0f + 1e-4f);
  }
  EXPECT_NEAR(px(solver, 1), 0.0f, 1e-5f);
  EXPECT_NEAR(py(solver, 1), -20.0f, 1e-4f);
}

// A very stretchy 4-link chain under gravity would hang far longer than its 40; leashes
// from every particle to the pin at its rest distance keep the tip within 40 of it.
TEST(XpbdLongRange, KeepsAStretchyChainNearItsLength) {
  auto tip_distance = [](bool leashed) {
    Scene scene;
    scene.particle(0, 0, 1.0f);
    for (std::uint32_t i = 1; i <= 4; ++i) {
      scene.particle(0, -10.0f * static_cast<float>(i), 0, 3);
      scene.stretch(i - 1, i, 1e-2f, 1e-2f);
      if (leashed) scene.long_range(i, 0, 10.0f * static_cast<float>(i));
    }
    const p2l::Simulation sim = scene.build();
    XpbdSolver solver(sim);
    start(solver, scene.goals);
    run(solver, 4 * 60);
    return std::hypot(px(solver, 4), py(solver, 4));
  };
  EXPECT_GT(tip_distance(false), 60.0f);  // 88.6: the links stretch by more than their length
  const float leashed = tip_distance(true);
  EXPECT_LE(leashed, 40.0f + 1e-3f);
  EXPECT_GT(leashed, 39.0f);
}

// Stretch and compression have their own compliance. Under gravity a particle hanging 10
// below a rigid pin stretches its link and one standing 10 above compresses it. Each substep
// solves the edge twice from a zero multiplier, so a link of compliance c rests where
// x = (x - G) f^2 with f = a/(1 + a), a = c/hs^2 and G = g' hs^2 (g' as for sag()): an
// extension of G a^2 / (1 + 2a), about half the single solve's g' c.
TEST(XpbdStretch, StretchAndCompressionYieldByTheirOwnCompliance) {
  Scene scene;
  scene.particle(0, 0, 1.0f);
  scene.particle(0, -10, 0, 5);
  scene.stretch(0, 1, 1e-3f, 3e-3f);
  scene.particle(20, 0, 1.0f);
  scene.particle(20, 10, 0, 5);  // balanced exactly on top: nothing pushes it sideways
  scene.stretch(2, 3, 1e-3f, 3e-3f);
  const p2l::Simulation sim = scene.build();
  XpbdSolver solver(sim);
  start(solver, scene.goals);
  run(solver, 5 * 60);
  const float hs = kStep / 8.0f;
  auto yield = [&](float c) {
    const float a = c / (hs * hs), g = 980.0f * std::exp(-5.0f * hs) * hs * hs;
    return g * a * a / (1.0f + 2.0f * a);
  };
  EXPECT_EQ(px(solver, 1), 0.0f);
  EXPECT_NEAR(py(solver, 1), -10.0f - yield(1e-3f), 2e-4f);  // stretched by 0.4839
  EXPECT_EQ(px(solver, 3), 20.0f);
  EXPECT_NEAR(py(solver, 3), 10.0f - yield(3e-3f), 5e-4f);  // compressed by 1.4544
}

// An edge's rest length is the longer of the file's and the goals' distance: goals drawn
// 15 apart lengthen a 10 long link to 15, goals drawn 5 apart leave it at 10.
TEST(XpbdStretch, RestLengthFollowsTheGoalsButNeverShortens) {
  auto hang = [](float goal_length) {
    Scene scene;
    scene.particle(0, 0, 1.0f);
    scene.particle(0, -10, 0, 5);
    scene.stretch(0, 1, 0, 0);
    const p2l::Simulation sim = scene.build();
    XpbdSolver solver(sim);
    start(solver, scene.goals);
    std::vector<float> goals = scene.goals;
    goals[3] = -goal_length;
    solver.set_targets(goals, goals, {}, 0);
    run(solver, 3 * 60);
    return py(solver, 1);
  };
  EXPECT_NEAR(hang(15), -15.0f, 0.01f);  // stiff: 0.004 long under its own weight
  EXPECT_NEAR(hang(5), -10.0f, 0.01f);
}

// Triangles: a free corner over an edge pinned at both ends, 10 above it. With a stiff area
// it stays there; without one the guard lets gravity flatten the triangle only to a fifth of
// its area, 2 above, and never through. Either winding of the corners behaves the same.
TEST(XpbdTriangles, AreaHoldsAndTheFlipGuardStopsAtAFifth) {
  auto apex = [](float compliance, bool mirrored) {
    Scene scene;
    scene.particle(0, 0, 1.0f);
    scene.particle(20, 0, 1.0f);
    scene.particle(10, 10, 0, 2);
    if (mirrored)
      scene.triangle(1, 0, 2, compliance);
    else
      scene.triangle(0, 1, 2, compliance);
    const p2l::Simulation sim = scene.build();
    XpbdSolver solver(sim);
    start(solver, scene.goals);
    run(solver, 3 * 60);
    return std::array<float, 2>{px(solver, 2), py(solver, 2)};
  };
  for (bool mirrored : {false, true}) {
    SCOPED_TRACE(mirrored);
    const auto kept = apex(0.0f, mirrored);
    EXPECT_EQ(kept[0], 10.0f);  // the area's gradient at the apex is straight up
    EXPECT_NEAR(kept[1], 10.0f, 1e-4f);
    const auto guarded = apex(-1.0f, mirrored);
    EXPECT_EQ(guarded[0], 10.0f);
    EXPECT_NEAR(guarded[1], 2.0f, 1e-4f);
  }
}

// Bends: a flap (triangle 2-3-4) hinged on one corner to a pinned triangle sticks out
// sideways while a stiff bend keeps it turned as the pinned one; without the bend it swings
// down and hangs.
TEST(XpbdBends, StiffBendHoldsAHingedFlapOut) {
  auto tip = [](bool bent) {
    Scene scene;
    scene.particle(0, 0, 1.0f);
    scene.particle(0, -10, 1.0f);
    scene.particle(10, -5, 1.0f);  // the hinge
    scene.particle(20, 0, 0, 2);
    scene.particle(20, -10, 0, 2);
    scene.stretch(2, 3, 0, 0);
    scene.stretch(3, 4, 0, 0);
    scene.stretch(4, 2, 0, 0);
    const std::uint32_t base = scene.triangle(0, 1, 2, -1);
    const std::uint32_t flap = scene.triangle(2, 4, 3, -1);
    if (bent) scene.bend(base, flap, 0);
    const p2l::Simulation sim = scene.build();
    XpbdSolver solver(sim);
    start(solver, scene.goals);
    run(solver, 3 * 60);
    return std::array<float, 4>{px(solver, 3), py(solver, 3), px(solver, 4), py(solver, 4)};
  };
  const auto held = tip(true);
  EXPECT_NEAR(held[0], 20.0f, 0.01f);  // within 0.003 of where it was built
  EXPECT_NEAR(held[1], 0.0f, 0.01f);
  EXPECT_NEAR(held[2], 20.0f, 0.01f);
  EXPECT_NEAR(held[3], -10.0f, 0.01f);
  const auto hanging = tip(false);
  EXPECT_LT(hanging[1], -14.0f);  // swung down below the hinge (at y -5): -14.7 and -15.2
  EXPECT_LT(hanging[3], -14.0f);
}

// 7. After construction nothing allocates: 100 steps of the busy scene, with targets,
// colliders and the body's turn set before each.
TEST(XpbdAllocations, NoneAcrossAHundredSteps) {
  const Busy busy;
  XpbdSolver solver(busy.sim);
  std::vector<float> goals, anchors;
  PlacedCollider colliders[2];
  busy.targets(0, goals, anchors, colliders);
  solver.reset(goals, anchors);
  const std::size_t before = p2l_test::allocation_count();
  for (int k = 1; k <= 100; ++k) {
    const float t = static_cast<float>(k) * kStep;
    for (std::size_t i = 0; i < anchors.size(); i += 2) anchors[i] = busy.scene.goals[i] + 8.0f * std::sin(3.0f * t);
    colliders[0].ax = colliders[0].bx = 18 + 10 * std::sin(t);
    solver.set_targets(goals, anchors, colliders, solver.frame_angle(anchors));
    solver.step(kStep, 100.0f, 0.0f);
  }
  EXPECT_EQ(p2l_test::allocation_count() - before, 0u);
  // More colliders than the capacity: the extra ones are ignored, still without allocating.
  const PlacedCollider many[3] = {colliders[0], colliders[1], colliders[1]};
  const std::size_t again = p2l_test::allocation_count();
  solver.set_targets(goals, anchors, many, 0);
  solver.step(kStep, 0, 0);
  EXPECT_EQ(p2l_test::allocation_count() - again, 0u);
}

}  // namespace

namespace {

// The specification: a negative compliance is no constraint. Two free particles joined by a
// stretch constraint with a negative compliance fall apart freely (no spring at all), and
// one with no compression compliance behaves as a rope: taut, it holds; slack, it lets go.
TEST(XpbdNegativeCompliance, IsNoConstraintOnThatSide) {
  p2l::Simulation sim;
  sim.fps = 60;
  sim.substeps = 4;
  sim.targets.push_back({0, 2});
  auto per = [](std::vector<float> v) { return p2l::Array<float>(std::move(v)); };
  sim.inv_mass = per({0, 1});
  sim.damping = per({0, 0});
  sim.wind_factor = per({0, 0});
  sim.pin_weight = per({1, 0});
  sim.goal_compliance = per({-1, -1});
  sim.goal_offset_x = per({0, 0});
  sim.goal_offset_y = per({0, 0});
  sim.anchor_mesh = p2l::IndexArray{0xFFFFFFFFu, 0xFFFFFFFFu};
  sim.anchor_vertex = p2l::IndexArray{0, 0};
  sim.stretch_a = p2l::IndexArray{0};
  sim.stretch_b = p2l::IndexArray{1};
  sim.stretch_rest = per({10});
  sim.stretch_compliance = per({0});
  // Negative, and of the size that would cancel the particle's weight in the XPBD update
  // (compliance / hs^2 = -1 = -w): read as a number, the step divides by zero.
  sim.compression_compliance = per({-1.0f / 57600.0f});
  // The free particle starts 4 below the pin (slack) and is thrown upward by gravity pointing up.
  sim.gravity_y = 500;
  p2l::ext::XpbdSolver solver(sim);
  const std::vector<float> goals{0, 0, 0, -4};
  solver.reset(goals, goals);
  solver.set_targets(goals, goals, {}, 0.0f);
  for (int k = 0; k < 6; ++k) solver.step(1.0f / 60.0f, 0, 0);
  // Compressed (closer than 10) the rope gives no push: the particle rises as in free fall,
  // -4 + g t^2 / 2 at t = 0.1 s (within the integrator's g h t / 2).
  EXPECT_NEAR(solver.y()[1], -4.0f + 0.5f * 500.0f * 0.01f, 0.15f);
  // Taut it holds at 10 above.
  for (int k = 0; k < 120; ++k) solver.step(1.0f / 60.0f, 0, 0);
  EXPECT_NEAR(solver.y()[1], 10.0f, 0.05f);
  EXPECT_NEAR(solver.x()[1], 0.0f, 1e-4f);
}

}  // namespace
