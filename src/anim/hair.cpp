// Cubism 2's hair pendulums. Each one is an anchor the inputs drag about (or whose gravity they
// tilt) and a bob hanging from it at a fixed length; the outputs read the bob's angle. The
// arithmetic is done in double, as the 2.1 runtime does it in JavaScript; parameters are read
// and stored as floats, as its model stores them.
#include "anim/hair.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "anim/frame_time.hpp"
#include "base/libm.hpp"

namespace p2l::anim {
namespace {

constexpr double kGravity = 9.8;
// The runtime never integrates a step shorter than this (so 60 Hz swings as fast as 30 Hz).
constexpr double kShortestStep = 0.033;
constexpr double kRadians = std::numbers::pi / 180.0;

}  // namespace

double HairPhysics::distance(const Point& a, const Point& b) {
  return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y));
}

HairPhysics::HairPhysics(const Rig& rig) : rig_(&rig) {
  states_.reserve(rig.hairs.size());
  for (const Hair& h : rig.hairs) states_.push_back(at_rest(h));
}

// The bob straight below the anchor (y grows downwards), nothing moving.
HairPhysics::State HairPhysics::at_rest(const Hair& hair) {
  State s;
  s.length = hair.length;
  s.bob.y = hair.length;
  s.bob.remember();
  return s;
}

void HairPhysics::reset() {
  for (std::size_t i = 0; i < states_.size(); ++i) states_[i] = at_rest(rig_->hairs[i]);
  clock_seconds_ = 0;
}

// Degrees, 0 with the bob straight below the anchor, growing as the bob swings to -x.
double HairPhysics::bob_angle(const State& s) {
  return -180.0 * libm::atan2(s.anchor.x - s.bob.x, -(s.anchor.y - s.bob.y)) / std::numbers::pi;
}

void HairPhysics::step(float dt, std::span<float> values) {
  if (states_.empty()) return;
  clock_seconds_ += frame_seconds(dt);
  // The framework gives each hair the milliseconds since the physics was made.
  const double now_ms = clock_seconds_ * 1000.0;
  for (std::size_t i = 0; i < states_.size(); ++i) {
    const Hair& hair = rig_->hairs[i];
    State& s = states_[i];
    // A start time of 0 means "not started", so an update at 0 ms starts nothing either.
    if (s.start_ms == 0.0) {
      s.start_ms = s.last_ms = now_ms;
      s.length = distance(s.anchor, s.bob);
      continue;
    }
    const double seconds = (now_ms - s.last_ms) / 1000.0;
    if (seconds != 0.0) {
      pull_anchor(hair, s, values);
      swing(hair, s, seconds);
      const double angle = bob_angle(s);
      // A runaway state (only reachable with absurd inputs) starts over at rest rather than
      // writing NaN into the pose.
      if (!std::isfinite(angle) || !std::isfinite(s.bob.x) || !std::isfinite(s.bob.y)) {
        s = at_rest(hair);
        continue;
      }
      s.angle = angle;
      // The rate divides by the real step, not the clamped one the swing used.
      s.angle_rate = (angle - s.last_angle) / seconds;
      s.last_angle = angle;
    }
    write_outputs(hair, s, values);
    s.last_ms = now_ms;
  }
}

// Each input moves its part of the anchor a [weight] of the way to scale x value, the last
// input first (as the runtime walks them).
void HairPhysics::pull_anchor(const Hair& hair, State& s, std::span<const float> values) const {
  for (std::size_t k = hair.inputs.size(); k-- > 0;) {
    const HairInput& in = hair.inputs[k];
    if (in.parameter >= values.size()) continue;
    const double target = static_cast<double>(in.scale) * static_cast<double>(values[in.parameter]);
    double& field = in.source == HairSource::X ? s.anchor.x : in.source == HairSource::Y ? s.anchor.y : s.gravity_angle;
    field += (target - field) * static_cast<double>(in.weight);
  }
}

// One explicit Euler step of the bob under gravity, the anchor's inertia and the resistance,
// after which the bob is put back at [length] from the anchor and its velocity taken from
// where it ended up.
void HairPhysics::swing(const Hair& hair, State& s, double seconds) {
  const double h = std::max(seconds, kShortestStep), per_second = 1.0 / h;
  const double mass = hair.mass, resistance = hair.resistance;
  Point& a = s.anchor;
  Point& b = s.bob;
  // The anchor's velocity and acceleration from its last two steps; its inertia (acceleration
  // times mass).
  a.vx = (a.x - a.last_x) * per_second;
  a.vy = (a.y - a.last_y) * per_second;
  const double inertia_x = (a.vx - a.last_vx) * per_second * mass;
  const double inertia_y = (a.vy - a.last_vy) * per_second * mass;
  a.remember();

  // Forces on the bob: gravity's component across the string, the part of the anchor's
  // inertia the string does not carry, and the resistance.
  const double direction = -libm::atan2(a.y - b.y, a.x - b.x);
  const double cos_d = libm::cos(direction), sin_d = libm::sin(direction);
  const double across = kGravity * mass * libm::cos(direction - s.gravity_angle * kRadians);
  const double force_x = across * sin_d + -inertia_x * sin_d * sin_d + -b.vx * resistance;
  const double force_y = across * cos_d + -inertia_y * sin_d * cos_d + -b.vy * resistance;
  b.vx += force_x / mass * h;
  b.vy += force_y / mass * h;
  b.x += b.vx * h;
  b.y += b.vy * h;

  const double apart = distance(a, b);
  b.x = a.x + s.length * (b.x - a.x) / apart;
  b.y = a.y + s.length * (b.y - a.y) / apart;
  b.vx = (b.x - b.last_x) * per_second;
  b.vy = (b.y - b.last_y) * per_second;
  b.remember();
}

// Each output blends scale x (angle or rate) over its parameter by [weight], the last output
// first; the result is kept in the parameter's range and stored as a float.
void HairPhysics::write_outputs(const Hair& hair, const State& s, std::span<float> values) const {
  for (std::size_t k = hair.outputs.size(); k-- > 0;) {
    const HairOutput& out = hair.outputs[k];
    if (out.parameter >= values.size()) continue;
    const Parameter& range = rig_->parameters[out.parameter];
    const double w = out.weight;
    const double read = out.value == HairValue::Angle ? s.angle : s.angle_rate;
    const double v = static_cast<double>(values[out.parameter]) * (1.0 - w) + static_cast<double>(out.scale) * read * w;
    if (!std::isfinite(v)) continue;
    values[out.parameter] = static_cast<float>(v < range.min ? range.min : v > range.max ? range.max : v);
  }
}

}  // namespace p2l::anim
