// Behaviors (docs/RUNTIME.md "Behaviors"), following the original runtime's formulas: a
// blink state machine on accumulated time with xorshift32 intervals, sine sways on the angle
// roles and the Breath role, a critically damped gaze follow, and the mouth (anim/mouth.hpp).
#include "anim/behaviors.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string_view>

#include "base/libm.hpp"

namespace p2l::anim {
namespace {

constexpr std::uint32_t kDefaultSeed = 0x2545F491u;

// Role names, in Behaviors::RoleIndex order.
// (LipSync is the mouth's: anim/mouth.hpp.)
constexpr std::string_view kRoleNames[] = {"EyeBlink", "Breath", "AngleX", "AngleY", "AngleZ", "BodyAngleX", "EyeBallX", "EyeBallY"};

// A sway: offset and peak as fractions of the range (of half the range for the angles) and
// the cycle in seconds; float constants, as the original's.
struct Sway {
  float offset, peak, cycle;
};
constexpr Sway kAngleXSway{0.0f, 0.15f, 6.5345f};
constexpr Sway kAngleYSway{0.0f, 0.08f, 3.5345f};
constexpr Sway kAngleZSway{0.0f, 0.10f, 5.5345f};
constexpr Sway kBodyAngleXSway{0.0f, 0.04f, 15.5345f};
constexpr Sway kBreathSway{0.5f, 0.5f, 3.2345f};

// Gaze: sub-steps of at most 1/120 s (the original's), shorter when the speed would make
// the explicit step overshoot (omega * h <= 0.5), and the speed capped where the follow
// already settles within a frame.
constexpr double kLookStep = 1.0 / 120.0;
constexpr double kLookStiffness = 120.0;
constexpr double kMaxOmegaStep = 0.5;
constexpr float kMaxLookSpeed = 30.0f;

bool finite_nonnegative(float v) { return std::isfinite(v) && v >= 0.0f; }

// sin(2 pi T / cycle), the phase reduced in double so that it stays exact for long runs.
float wave(double time, float cycle) {
  const double c = static_cast<double>(cycle);
  return static_cast<float>(libm::sin(2.0 * std::numbers::pi * (std::fmod(time, c) / c)));
}

// A range may be as wide as float's, where max - min is inf (and inf times a weight of 0, NaN).
// These keep the documented formulas (bit for bit where they are finite) and end at the range's
// edge where a sum passes float's.
// (to - from) * a * b, multiplied in that order.
float width(float from, float to, float a, float b = 1.0f) {
  const float w = to - from;
  if (std::isfinite(w)) return w * a * b;
  const float f = a * b;
  return to * f - from * f;
}
float add_within(float value, float delta, float min, float max) {
  const float sum = value + delta;
  return std::isinf(sum) ? std::clamp(sum, min, max) : sum;
}

}  // namespace

Behaviors::Behaviors(const Rig& rig) : mouth_(rig) {
  for (int r = 0; r < kRoleCount; ++r) {
    role_first_[r] = static_cast<std::uint32_t>(targets_.size());
    for (const Role& role : rig.roles) {
      if (role.role != kRoleNames[r]) continue;
      for (const std::uint32_t p : role.parameters) {
        if (p >= rig.parameters.size()) continue;  // a bad record: ignored
        const Parameter& param = rig.parameters[p];
        targets_.push_back({p, param.min, param.max, param.default_value});
      }
    }
  }
  role_first_[kRoleCount] = static_cast<std::uint32_t>(targets_.size());
}

float Behaviors::random() {
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 17;
  rng_ ^= rng_ << 5;
  return static_cast<float>(rng_ >> 8) / static_cast<float>(1u << 24);
}

void Behaviors::seed(std::uint32_t seed) {
  rng_ = seed != 0 ? seed : kDefaultSeed;
  // A blink under way finishes and draws the next one then; otherwise the next is drawn now.
  if (!blinking_) {
    const double r = static_cast<double>(random());
    blink_at_ = blink_time_ + static_cast<double>(blink_.interval_min) +
                r * (static_cast<double>(blink_.interval_max) - static_cast<double>(blink_.interval_min));
  }
}

bool Behaviors::set_blink(const BlinkSettings& s) {
  for (const float t : {s.interval_min, s.interval_max, s.closing, s.closed, s.opening})
    if (!finite_nonnegative(t)) return false;
  if (s.interval_max < s.interval_min || s.closing <= 0.0f || s.opening <= 0.0f) return false;
  blink_ = s;
  return true;
}

bool Behaviors::set_strength(float sway, float look, float look_speed) {
  if (!finite_nonnegative(sway) || !finite_nonnegative(look) || !finite_nonnegative(look_speed)) return false;
  sway_ = sway;
  look_ = look;
  look_speed_ = look_speed;
  return true;
}

void Behaviors::look_at(float x, float y) {
  target_x_ = std::isnan(x) ? 0.0f : std::clamp(x, -1.0f, 1.0f);
  target_y_ = std::isnan(y) ? 0.0f : std::clamp(y, -1.0f, 1.0f);
}

void Behaviors::lip_sync(float level) {
  mouth_.set_level(std::isnan(level) ? 0.0f : std::clamp(level, 0.0f, 1.0f));
  mouth_.set_vowels(nullptr);
}

float Behaviors::lip_sync_samples(std::span<const float> samples, float gain) {
  double sum = 0.0;
  for (const float s : samples)
    if (std::isfinite(s)) sum += static_cast<double>(s) * static_cast<double>(s);  // NaN, inf: 0
  const double rms = samples.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(samples.size()));
  const double level = rms * static_cast<double>(gain);
  lip_sync(std::isnan(level) ? 0.0f : static_cast<float>(std::clamp(level, 0.0, 1.0)));
  return mouth_.level();
}

float Behaviors::eyes() {
  if (!blinking_ && blink_time_ >= blink_at_) {
    blinking_ = true;
    blink_start_ = blink_time_;
  }
  if (!blinking_) return 1.0f;
  const double t = blink_time_ - blink_start_;
  const double closing = static_cast<double>(blink_.closing);
  const double closed = static_cast<double>(blink_.closed);
  const double opening = static_cast<double>(blink_.opening);
  if (t < closing) return static_cast<float>(1.0 - t / closing);
  if (t < closing + closed) return 0.0f;
  if (t < closing + closed + opening) return static_cast<float>((t - closing - closed) / opening);
  blinking_ = false;
  const double r = static_cast<double>(random());
  blink_at_ = blink_time_ + static_cast<double>(blink_.interval_min) +
              r * (static_cast<double>(blink_.interval_max) - static_cast<double>(blink_.interval_min));
  return 1.0f;
}

// [fraction] of the way from the default toward the end of the range in that direction.
void Behaviors::apply_look(const Target& t, float fraction, std::span<float> values) const {
  if (t.parameter >= values.size()) return;
  const float reach = fraction >= 0.0f ? width(t.default_value, t.max, fraction, look_) : width(t.min, t.default_value, fraction, look_);
  values[t.parameter] = add_within(values[t.parameter], reach, t.min, t.max);
}

void Behaviors::update(float dt, std::span<float> values, bool blink_paused) {
  const float step = std::isnan(dt) ? 0.0f : std::clamp(dt, 0.0f, 1.0f);
  time_ += static_cast<double>(step);
  if (!blink_paused) blink_time_ += static_cast<double>(step);
  const auto role = [&](RoleIndex r) {
    return std::span<const Target>(targets_.data() + role_first_[r], role_first_[r + 1] - role_first_[r]);
  };

  if ((enabled_ & kBlink) && !blink_paused) {
    const float open = eyes();
    for (const Target& t : role(kEyeBlink))
      if (t.parameter < values.size()) values[t.parameter] *= open;
  }

  if (enabled_ & kBreath) {
    const struct {
      RoleIndex role;
      Sway sway;
    } sways[] = {{kAngleX, kAngleXSway}, {kAngleY, kAngleYSway}, {kAngleZ, kAngleZSway}, {kBodyAngleX, kBodyAngleXSway}};
    for (const auto& s : sways) {
      const float w = wave(time_, s.sway.cycle);
      for (const Target& t : role(s.role))
        if (t.parameter < values.size())
          values[t.parameter] = add_within(values[t.parameter], width(t.min, t.max, (s.sway.offset + s.sway.peak * w) * 0.5f, sway_), t.min, t.max);
    }
    // Breathing sets its parameter across the whole range; the sway strength leaves it.
    const float w = wave(time_, kBreathSway.cycle);
    for (const Target& t : role(kRoleBreath))
      if (t.parameter < values.size())
        values[t.parameter] = add_within(t.min, width(t.min, t.max, kBreathSway.offset + kBreathSway.peak * w), t.min, t.max);
  }

  if (enabled_ & kLook) {
    const double speed = static_cast<double>(std::min(look_speed_, kMaxLookSpeed));
    const double target[2] = {static_cast<double>(target_x_), static_cast<double>(target_y_)};
    if (speed <= 0.0) {
      look_vel_[0] = look_vel_[1] = 0.0;  // speed 0: the gaze stays where it is
    } else {
      const double k = kLookStiffness * speed * speed;
      const double d = 2.0 * std::sqrt(k);
      const double max_step = std::min(kLookStep, kMaxOmegaStep / std::sqrt(k));
      for (int axis = 0; axis < 2; ++axis) {
        double remaining = static_cast<double>(step);
        while (remaining > 0.0) {
          const double h = std::min(remaining, max_step);
          look_vel_[axis] += ((target[axis] - look_pos_[axis]) * k - look_vel_[axis] * d) * h;
          look_pos_[axis] += look_vel_[axis] * h;
          remaining -= h;
        }
      }
    }
    const float x = static_cast<float>(look_pos_[0]);
    const float y = static_cast<float>(look_pos_[1]);
    for (const Target& t : role(kAngleX)) apply_look(t, x, values);
    for (const Target& t : role(kAngleY)) apply_look(t, y, values);
    for (const Target& t : role(kBodyAngleX)) apply_look(t, 0.33f * x, values);
    for (const Target& t : role(kEyeBallX)) apply_look(t, x, values);
    for (const Target& t : role(kEyeBallY)) apply_look(t, y, values);
    for (const Target& t : role(kAngleZ)) apply_look(t, -x * y, values);
  }

  if (enabled_ & kLipSync) mouth_.apply(values);
}

}  // namespace p2l::anim
