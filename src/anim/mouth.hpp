// The mouth as speech moves it: the lip-sync level opens the LipSync role's parameters, and
// with vowels (p2l::Speech with SpeechOptions::vowels) each vowel's shape also moves the
// MouthForm role's parameters and the VowelA..VowelO roles' ones (the importer binds
// ParamMouthForm and Cubism's MotionSync ids ParamA..ParamO to them). A host may bind any
// parameter to a slot instead. How the mouth meets what clips left there is the mix:
// docs/RUNTIME.md "Lip sync and vowels" states the rules. apply() allocates nothing.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "p2l/anim.hpp"
#include "p2l/audio.hpp"
#include "p2l/rig.hpp"

namespace p2l::anim {


class Mouth {
 public:
  explicit Mouth(const Rig& rig);

  // Binds [parameter] to [slot] in place of the roles' parameters (-1: back to the roles);
  // false, changing nothing, for a parameter the rig lacks or a slot out of range.
  bool bind(MouthSlot slot, std::int32_t parameter);
  // The parameters [slot] drives now (the binding, else the role's).
  std::span<const std::uint32_t> parameters(MouthSlot slot) const;

  void set_mix(LipMix mix) { mix_ = mix; }
  LipMix mix() const { return mix_; }

  // The level, 0..1, and the vowel weights (A I U E O silence), or none: the level alone.
  void set_level(float level) { level_ = level; }
  void set_vowels(const std::array<float, kVowelCount>* weights);
  float level() const { return level_; }

  void apply(std::span<float> values) const;

 private:
  struct Target {
    std::uint32_t parameter;
    float min, max, default_value;
  };
  void open(const Target& t, float amount, std::span<float> values) const;
  void retarget();  // targets_ and voiced_open_ from the roles and bindings

  const Rig* rig_;
  std::array<std::vector<std::uint32_t>, kMouthSlots> roles_, bound_;
  std::array<std::vector<Target>, kMouthSlots> targets_;  // what apply() drives per slot
  std::vector<Target> voiced_open_;  // the opening's targets with vowels: those no other slot shapes
  LipMix mix_ = LipMix::Floor;
  float level_ = 0;
  bool vowels_on_ = false;
  std::array<float, kVowelCount> vowels_{0, 0, 0, 0, 0, 1};
};

}  // namespace p2l::anim
