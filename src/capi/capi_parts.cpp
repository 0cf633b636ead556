// Parts: the file's part tree, isolated groups, and the host's part opacities.
#include <algorithm>
#include <cmath>

#include "capi/handle.hpp"

using namespace p2l::capi;

namespace {

bool has_part(const P2lRig& r, std::uint32_t index) { return index < r.rig().parts.size(); }

}  // namespace

extern "C" {

uint32_t p2l_part_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return count_of(r.rig().parts.size()); });
}

const char* p2l_part_id(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::part_ids, index);
}

const char* p2l_part_name(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::part_names, index);
}

int32_t p2l_part_parent(const P2lRig* rig, uint32_t index) {
  return guarded(rig, std::int32_t{-1},
                 [&](const P2lRig& r) { return has_part(r, index) ? r.model().part_parent(index) : -1; });
}

uint32_t p2l_part_flags(const P2lRig* rig, uint32_t index) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) -> std::uint32_t {
    if (!has_part(r, index)) return 0;
    const p2l::Part& part = r.rig().parts[index];
    return (part.visible ? P2L_PART_VISIBLE : 0u) | (part.sketch ? P2L_PART_SKETCH : 0u);
  });
}

int32_t p2l_part_group(const P2lRig* rig, uint32_t index, int32_t* blend, int32_t* alpha_blend, bool* invert_mask) {
  return guarded(rig, std::int32_t{-1}, [&](const P2lRig& r) -> std::int32_t {
    if (!has_part(r, index)) return -1;
    const p2l::Composite& composite = r.model().part_group_composite(index);
    put(blend, composite.blend);
    put(alpha_blend, composite.alpha_blend);
    put(invert_mask, composite.invert_mask);
    return r.rig().parts[index].group_mode;
  });
}

uint32_t p2l_part_masks(const P2lRig* rig, uint32_t index, uint32_t* out, uint32_t capacity) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) -> std::uint32_t {
    if (!has_part(r, index)) return 0;
    return write_all(r.model().part_group_masks(index), out, capacity);
  });
}

bool p2l_part_composite(const P2lRig* rig, uint32_t index, float* opacity, float* multiply, float* screen) {
  return guarded(rig, false, [&](const P2lRig& r) {
    if (!has_part(r, index)) return false;
    const p2l::GroupComposite& composite = r.instance.part_composite(index);
    put(opacity, composite.opacity);
    put_rgb(multiply, composite.multiply);
    put_rgb(screen, composite.screen);
    return true;
  });
}

float p2l_part_opacity(const P2lRig* rig, uint32_t index) {
  return guarded(rig, 0.0f,
                 [&](const P2lRig& r) { return has_part(r, index) ? r.instance.part_opacity(index) : kNaN; });
}

bool p2l_set_part_opacity(P2lRig* rig, uint32_t index, float opacity) {
  return guarded(rig, false, [&](P2lRig& r) {
    if (!has_part(r, index)) return false;
    float value = std::isfinite(opacity) ? std::clamp(opacity, 0.0f, 1.0f) : 1.0f;
    return r.instance.set_part_opacity(index, value);
  });
}

float p2l_part_animation_opacity(const P2lRig* rig, uint32_t index) {
  return guarded(rig, 0.0f, [&](const P2lRig& r) { return r.animator.part_animation_opacity(index); });
}

}  // extern "C"
