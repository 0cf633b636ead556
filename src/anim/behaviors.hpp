// Procedural behaviors a host switches on: blinking, breathing, gaze toward a point and
// lip sync, each driving the parameters of a role the rig declares (ROLE: EyeBlink,
// Breath, AngleX, AngleY, AngleZ, BodyAngleX, EyeBallX, EyeBallY, LipSync).
// docs/RUNTIME.md "Behaviors" states the rules. update() allocates nothing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "anim/mouth.hpp"
#include "p2l/rig.hpp"

namespace p2l::anim {

inline constexpr std::uint32_t kBlink = 1, kBreath = 2, kLook = 4, kLipSync = 8;

struct BlinkSettings {
  float interval_min = 2, interval_max = 6, closing = 0.1f, closed = 0.05f, opening = 0.15f;
};

class Behaviors {
 public:
  explicit Behaviors(const Rig& rig);

  void set_enabled(std::uint32_t flags) { enabled_ = flags & (kBlink | kBreath | kLook | kLipSync); }
  std::uint32_t enabled() const { return enabled_; }
  void seed(std::uint32_t seed);  // the blink timing's random sequence
  // False, changing nothing, for negative, non-finite or reversed times, or a zero closing
  // or opening time.
  bool set_blink(const BlinkSettings& settings);
  // Breath sway and gaze amplitude (1 as they are) and gaze speed (1: settles in about a
  // third of a second); false, changing nothing, for negative or non-finite values.
  bool set_strength(float sway, float look, float look_speed);
  void look_at(float x, float y);   // each axis clamped to -1..1 (x right, y up); NaN: 0
  void lip_sync(float level);       // clamped to 0..1; NaN: 0 (the mouth's level; vowels off)
  // RMS of [samples] times [gain], clamped to 0..1, becomes the lip-sync level; returns it.
  float lip_sync_samples(std::span<const float> samples, float gain);

  // The mouth lip sync drives: its bindings, mix, level and vowels.
  Mouth& mouth() { return mouth_; }
  const Mouth& mouth() const { return mouth_; }

  // Advances by [dt] seconds (clamped to 0..1; NaN: 0) and applies the enabled behaviors to
  // [values] (one per parameter, raw). [blink_paused]: the blink neither runs nor advances
  // (Cubism's sample blinks only in updates where no motion played).
  void update(float dt, std::span<float> values, bool blink_paused = false);

 private:
  // The implementation owns its members.
  std::uint32_t enabled_ = kBlink | kBreath;

  enum RoleIndex { kEyeBlink, kRoleBreath, kAngleX, kAngleY, kAngleZ, kBodyAngleX, kEyeBallX, kEyeBallY, kRoleCount };
  struct Target {
    std::uint32_t parameter;
    float min, max, default_value;
  };
  // The next random number in [0, 1) (xorshift32, 24 bits).
  float random();
  // How open the eyes are now (the blink state machine at time_).
  float eyes();
  void apply_look(const Target& t, float fraction, std::span<float> values) const;

  std::vector<Target> targets_;            // every role's parameters, role by role
  std::uint32_t role_first_[kRoleCount + 1] = {};  // role r: targets_[role_first_[r], role_first_[r+1])
  BlinkSettings blink_;
  float sway_ = 1, look_ = 1, look_speed_ = 1;
  double time_ = 0;
  double blink_time_ = 0;  // time_ less the updates the blink was paused in
  double blink_at_ = 2.0, blink_start_ = 0;  // the original's first blink at 2 s, before any seeding
  bool blinking_ = false;
  std::uint32_t rng_ = 0x2545F491u;
  float target_x_ = 0, target_y_ = 0;
  double look_pos_[2] = {0, 0}, look_vel_[2] = {0, 0};
  Mouth mouth_;
};

}  // namespace p2l::anim
