// The update pipeline, host overrides, physics controls and behaviors.
#include <cmath>
#include <span>

#include "capi/handle.hpp"

using namespace p2l::capi;

extern "C" {

void p2l_update(P2lRig* rig, float dt) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.update(r.instance, dt, p2l::kStageAll); });
}

void p2l_update_stages(P2lRig* rig, float dt, uint32_t stages) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.update(r.instance, dt, stages); });
}

bool p2l_set_parameter_override(P2lRig* rig, uint32_t index, float value, float weight) {
  return guarded(rig, false, [&](P2lRig& r) { return r.animator.set_override(index, value, weight); });
}

void p2l_clear_parameter_overrides(P2lRig* rig) {
  guarded_void(rig, [](P2lRig& r) { r.animator.clear_overrides(); });
}

void p2l_physics_reset(P2lRig* rig) {
  guarded_void(rig, [](P2lRig& r) { r.animator.reset_physics(); });
}

void p2l_physics_wind(P2lRig* rig, float x, float y) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.set_physics_wind(x, y); });
}

void p2l_physics_stabilize(P2lRig* rig) {
  guarded_void(rig, [](P2lRig& r) { r.animator.stabilize_physics(r.instance); });
}

void p2l_behaviors(P2lRig* rig, uint32_t flags) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.set_behaviors(flags); });
}

void p2l_behavior_seed(P2lRig* rig, uint32_t seed) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.behavior_seed(seed); });
}

bool p2l_blink_settings(P2lRig* rig, float interval_min, float interval_max, float closing, float closed,
                        float opening) {
  return guarded(rig, false, [&](P2lRig& r) {
    return r.animator.blink_settings(interval_min, interval_max, closing, closed, opening);
  });
}

bool p2l_behavior_strength(P2lRig* rig, float sway, float look, float look_speed) {
  return guarded(rig, false, [&](P2lRig& r) { return r.animator.behavior_strength(sway, look, look_speed); });
}

float p2l_lip_sync_samples(P2lRig* rig, const float* samples, size_t count, float gain) {
  return guarded(rig, 0.0f, [&](P2lRig& r) {
    const std::span<const float> audio =
        samples == nullptr ? std::span<const float>() : std::span<const float>(samples, count);
    return r.animator.lip_sync_samples(audio, gain);
  });
}

void p2l_look_at(P2lRig* rig, float x, float y) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.look_at(x, y); });
}

void p2l_lip_sync(P2lRig* rig, float level) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.lip_sync(level); });
}

}  // extern "C"
