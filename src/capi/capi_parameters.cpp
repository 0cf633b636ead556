// Parameters: what the file says about them, and the host's pose.
#include <cstring>
#include <vector>

#include "capi/handle.hpp"

using namespace p2l::capi;

extern "C" {

uint32_t p2l_parameter_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return count_of(r.rig().parameters.size()); });
}

const char* p2l_parameter_id(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::parameter_ids, index);
}

const char* p2l_parameter_name(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::parameter_names, index);
}

int32_t p2l_parameter_index(const P2lRig* rig, const char* id) {
  if (id == nullptr) return -1;
  return guarded(rig, std::int32_t{-1}, [&](const P2lRig& r) -> std::int32_t {
    // Against the strings p2l_parameter_id hands out, so what it gives is found again.
    const CStrings& ids = r.data->parameter_ids;
    for (std::uint32_t i = 0; i < ids.size(); ++i)
      if (std::strcmp(ids.at(i), id) == 0) return static_cast<std::int32_t>(i);
    return -1;
  });
}

bool p2l_parameter_range(const P2lRig* rig, uint32_t index, float* min, float* max, float* default_value) {
  return guarded(rig, false, [&](const P2lRig& r) {
    const auto& parameters = r.rig().parameters;
    if (index >= parameters.size()) return false;
    const p2l::Parameter& p = parameters[index];
    put(min, p.min);
    put(max, p.max);
    put(default_value, p.default_value);
    return true;
  });
}

uint32_t p2l_parameter_flags(const P2lRig* rig, uint32_t index) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) -> std::uint32_t {
    const auto& parameters = r.rig().parameters;
    if (index >= parameters.size()) return 0;
    const p2l::Parameter& p = parameters[index];
    return (p.repeat ? P2L_PARAMETER_REPEAT : 0u) | (p.blend ? P2L_PARAMETER_BLEND_SHAPE : 0u);
  });
}

uint32_t p2l_parameter_snaps(const P2lRig* rig, uint32_t index, float* out, uint32_t capacity) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) -> std::uint32_t {
    const auto& gui = r.rig().gui;
    if (!gui) return 0;
    for (const p2l::GuiSnap& snap : gui->snaps)
      if (snap.parameter == index) return write_all(snap.values.span(), out, capacity);
    return 0;
  });
}

float* p2l_parameter_values(P2lRig* rig) {
  return guarded(rig, static_cast<float*>(nullptr), [](P2lRig& r) { return r.instance.parameters().data(); });
}

const float* p2l_parameter_current(const P2lRig* rig) {
  return guarded(rig, static_cast<const float*>(nullptr),
                 [](const P2lRig& r) { return r.instance.current().data(); });
}

void p2l_set_parameter(P2lRig* rig, uint32_t index, float value) {
  guarded_void(rig, [&](P2lRig& r) {
    auto values = r.instance.parameters();
    if (index < values.size()) values[index] = value;
  });
}

uint32_t p2l_role_parameters(const P2lRig* rig, const char* role, uint32_t* out, uint32_t capacity) {
  if (role == nullptr) return 0;
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) {
    // Every role record with this name counts, in file order. Written straight to [out] as
    // write_all would: gathering them in a vector first cost the WebAssembly module half a
    // kilobyte for vector::insert.
    std::size_t found = 0;
    for (const p2l::Role& entry : r.rig().roles)
      if (entry.role == role)
        for (const std::uint32_t p : entry.parameters) {
          if (out != nullptr && found < capacity) out[found] = p;
          ++found;
        }
    return count_of(found);
  });
}

}  // extern "C"
