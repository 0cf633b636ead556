// The Instance's advanced-mode surface: switching features, the simulations' controls, bone
// frames. The hooks themselves run inside the evaluation (src/eval/evaluate.cpp).
#include <cmath>

#include "eval/state.hpp"
#include "ext/advanced.hpp"
#include "ext/bones.hpp"
#include "ext/state.hpp"
#include "p2l/eval.hpp"

namespace p2l {

std::uint32_t advanced_features(const Rig& rig) { return ext::carried_features(rig); }

std::uint32_t Instance::advanced_available() const { return ext::carried_features(model_->rig()); }

std::uint32_t Instance::set_advanced(std::uint32_t features, std::vector<std::string>* notes) {
  InstanceState& s = *state_;
  // Nothing of the old state survives a switch: off again is exactly the core evaluation.
  s.advanced.reset();
  s.virtual_frames_valid = false;
  std::uint32_t on = 0;
  std::vector<std::string> local;
  s.advanced = ext::make_advanced(*model_, s, features, on, notes ? *notes : local);
  if (on == 0) s.advanced.reset();
  return on;
}

std::uint32_t Instance::advanced() const { return state_->advanced ? ext::features_on(*state_->advanced) : 0; }

void Instance::reset_simulations() {
  if (state_->advanced) ext::reset_simulations(*state_->advanced);
}

void Instance::set_simulation_wind(float x, float y) {
  if (!std::isfinite(x) || !std::isfinite(y)) return;
  state_->sim_wind_x = x;
  state_->sim_wind_y = -y;  // canvas y down, world y up
}

std::span<const float> Instance::simulation_colliders() const {
  return state_->advanced ? ext::placed_colliders(*state_->advanced) : std::span<const float>();
}

std::span<const std::uint8_t> Instance::skipped_physics() const {
  return state_->advanced ? ext::skipped_physics(*state_->advanced) : std::span<const std::uint8_t>();
}

std::optional<Affine> Instance::bone_transform(std::uint32_t bone) { return ext::bone_transform(*model_, *state_, bone); }

}  // namespace p2l
