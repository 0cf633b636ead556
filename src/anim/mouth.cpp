#include "anim/mouth.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace p2l::anim {
namespace {

constexpr std::string_view kSlotRoles[kMouthSlots] = {"LipSync", "MouthForm", "VowelA", "VowelI",
                                                      "VowelU",  "VowelE",    "VowelO"};

// Each vowel's mouth: how far it opens (times the level) and its form (-1 narrow and
// rounded .. 1 wide), as animators shape Japanese vowels for Cubism's standard
// ParamMouthOpenY and ParamMouthForm. Silence keeps the level's opening and the form there.
struct Shape {
  float open, form;
};
constexpr Shape kShapes[kVowelCount - 1] = {
    {1.0f, 0.0f},    // A: wide open
    {0.35f, 1.0f},   // I: nearly closed, wide
    {0.4f, -1.0f},   // U: nearly closed, rounded
    {0.65f, 0.6f},   // E: half open, wide
    {0.8f, -0.6f}};  // O: open, rounded

// Cubism's sample adds the level to each LipSync parameter with weight 0.8.
constexpr float kCubismWeight = 0.8f;

}  // namespace

Mouth::Mouth(const Rig& rig) : rig_(&rig) {
  for (std::size_t s = 0; s < kMouthSlots; ++s)
    for (const Role& role : rig.roles)
      if (role.role == kSlotRoles[s])
        for (const std::uint32_t p : role.parameters)
          if (p < rig.parameters.size()) roles_[s].push_back(p);
  retarget();
}

void Mouth::retarget() {
  const auto target = [&](std::uint32_t p) {
    const Parameter& param = rig_->parameters[p];
    return Target{p, param.min, param.max, param.default_value};
  };
  for (std::size_t s = 0; s < kMouthSlots; ++s) {
    targets_[s].clear();
    for (const std::uint32_t p : parameters(static_cast<MouthSlot>(s))) targets_[s].push_back(target(p));
  }
  // With vowels, a parameter that is both opened and shaped (Haru's LipSync group holds its
  // ParamMouthForm, which Cubism's sample opens with the level) is shaped only.
  voiced_open_.clear();
  for (const std::uint32_t p : parameters(MouthSlot::Open)) {
    bool shaped = false;
    for (std::size_t s = 1; s < kMouthSlots; ++s)
      for (const std::uint32_t q : parameters(static_cast<MouthSlot>(s))) shaped |= q == p;
    if (!shaped) voiced_open_.push_back(target(p));
  }
}

bool Mouth::bind(MouthSlot slot, std::int32_t parameter) {
  const auto s = static_cast<std::size_t>(slot);
  if (s >= kMouthSlots) return false;
  if (parameter >= 0 && static_cast<std::size_t>(parameter) >= rig_->parameters.size()) return false;
  if (parameter < 0 && parameter != -1) return false;
  bound_[s].clear();
  if (parameter >= 0) bound_[s].push_back(static_cast<std::uint32_t>(parameter));
  retarget();
  return true;
}

std::span<const std::uint32_t> Mouth::parameters(MouthSlot slot) const {
  const auto s = static_cast<std::size_t>(slot);
  if (s >= kMouthSlots) return {};
  return bound_[s].empty() ? std::span<const std::uint32_t>(roles_[s]) : std::span<const std::uint32_t>(bound_[s]);
}

void Mouth::set_vowels(const std::array<float, kVowelCount>* weights) {
  vowels_on_ = weights != nullptr;
  if (!weights) return;
  // Finite, non-negative, summing to 1; anything else is silence.
  float sum = 0.0f;
  for (const float w : *weights) sum += std::isfinite(w) && w > 0.0f ? w : 0.0f;
  if (!(sum > 0.0f) || !std::isfinite(sum)) {
    vowels_ = {0, 0, 0, 0, 0, 1};
    return;
  }
  for (std::size_t v = 0; v < kVowelCount; ++v) vowels_[v] = std::isfinite((*weights)[v]) && (*weights)[v] > 0.0f ? (*weights)[v] / sum : 0.0f;
}

// Opens [t] by [amount] (0..1 of its range from its minimum) by the mix. A range may be as wide
// as float's: std::lerp stays in it where min + (max - min) * amount would make inf, and NaN
// at amount 0.
void Mouth::open(const Target& t, float amount, std::span<float> values) const {
  if (t.parameter >= values.size()) return;
  float& v = values[t.parameter];
  const float at = std::lerp(t.min, t.max, amount);
  switch (mix_) {
    case LipMix::Floor: v = std::fmax(v, at); break;  // NaN: the floor
    case LipMix::Add: {
      // Cubism's AddParameterValue sets through SetParameterValue, which clamps to the range.
      const float from = std::isnan(v) ? t.min : v;
      const float sum = from + kCubismWeight * (at - t.min);
      v = std::clamp(sum, t.min, t.max);
      break;
    }
    case LipMix::Set: v = at; break;
  }
}

void Mouth::apply(std::span<float> values) const {
  const float level = std::isnan(level_) ? 0.0f : std::clamp(level_, 0.0f, 1.0f);
  if (!vowels_on_) {
    for (const Target& t : targets_[0]) open(t, level, values);
    return;
  }
  // The opening is the level times the vowels' mean opening; silence counts as fully open,
  // so a sound the estimator calls silence opens the mouth by its level alone.
  const float voiced = 1.0f - vowels_[kVowelCount - 1];
  float opening = vowels_[kVowelCount - 1], form = 0.0f;
  for (std::size_t v = 0; v + 1 < kVowelCount; ++v) {
    opening += vowels_[v] * kShapes[v].open;
    form += vowels_[v] * kShapes[v].form;
  }
  for (const Target& t : voiced_open_) open(t, level * opening, values);
  // The form moves toward the vowels' form as far as the sound is voiced and loud: halfway
  // at a level of 1/8, fully from 1/4.
  const float reach = voiced * std::min(1.0f, level * 4.0f);
  if (voiced > 0.0f && reach > 0.0f) {
    const float f = form / voiced;
    for (const Target& t : targets_[1]) {
      if (t.parameter >= values.size()) continue;
      const float target = f >= 0.0f ? std::lerp(t.default_value, t.max, f) : std::lerp(t.default_value, t.min, -f);
      float& v = values[t.parameter];
      v = std::isnan(v) ? target : std::lerp(v, target, reach);
    }
  }
  for (std::size_t v = 0; v + 1 < kVowelCount; ++v)
    for (const Target& t : targets_[2 + v]) open(t, level * vowels_[v], values);
}

}  // namespace p2l::anim
