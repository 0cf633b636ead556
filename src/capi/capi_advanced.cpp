// Advanced mode: switching the extension features, the simulations' controls, bone frames.
#include <algorithm>
#include <string>
#include <vector>

#include "capi/handle.hpp"

using namespace p2l::capi;

extern "C" {

uint32_t p2l_advanced_available(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return r.instance.advanced_available(); });
}

uint32_t p2l_set_advanced(P2lRig* rig, uint32_t features) {
  return guarded(rig, std::uint32_t{0}, [&](P2lRig& r) {
    std::vector<std::string> notes;
    const std::uint32_t on = r.instance.set_advanced(features, &notes);
    for (const std::string& note : notes) log(P2L_LOG_WARNING, ("p2l_set_advanced: " + note).c_str());
    return on;
  });
}

void p2l_sim_reset(P2lRig* rig) {
  guarded_void(rig, [](P2lRig& r) { r.instance.reset_simulations(); });
}

void p2l_sim_wind(P2lRig* rig, float x, float y) {
  guarded_void(rig, [&](P2lRig& r) { r.instance.set_simulation_wind(x, y); });
}

uint32_t p2l_sim_colliders(const P2lRig* rig, float* out, uint32_t capacity) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) -> std::uint32_t {
    const auto placed = r.instance.simulation_colliders();
    const std::size_t count = placed.size() / 6;
    if (out != nullptr) std::copy_n(placed.begin(), std::min<std::size_t>(count, capacity) * 6, out);
    return count_of(count);
  });
}

uint32_t p2l_bone_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return count_of(r.data->bone_ids.size()); });
}

const char* p2l_bone_id(const P2lRig* rig, uint32_t index) { return model_string(rig, &ModelData::bone_ids, index); }

bool p2l_bone_transform(P2lRig* rig, uint32_t index, float* out) {
  return guarded(rig, false, [&](P2lRig& r) {
    const auto m = r.instance.bone_transform(index);
    if (!m) return false;
    if (out != nullptr) {
      const float values[6] = {m->a, m->b, m->c, m->d, m->tx, m->ty};
      std::copy_n(values, 6, out);
    }
    return true;
  });
}

}  // extern "C"
