// The rig as a whole: its canvas, evaluation, and the host's opacity and colour settings.
#include <algorithm>
#include <cmath>
#include <optional>

#include "capi/handle.hpp"

using namespace p2l::capi;

namespace {

// The override the C caller describes: none when both colours are null, white multiply and
// black screen in place of a null one.
std::optional<p2l::ColorOverride> colors_from(const float* multiply, const float* screen) {
  if (multiply == nullptr && screen == nullptr) return std::nullopt;
  p2l::ColorOverride colors;
  if (multiply != nullptr) colors.multiply = {multiply[0], multiply[1], multiply[2]};
  if (screen != nullptr) colors.screen = {screen[0], screen[1], screen[2]};
  return colors;
}

}  // namespace

extern "C" {

void p2l_canvas(const P2lRig* rig, float* width, float* height) {
  guarded_void(rig, [&](const P2lRig& r) {
    put(width, r.rig().canvas.width);
    put(height, r.rig().canvas.height);
  });
}

void p2l_canvas_origin(const P2lRig* rig, float* x, float* y, float* pixels_per_unit) {
  guarded_void(rig, [&](const P2lRig& r) {
    const p2l::Canvas& canvas = r.rig().canvas;
    put(x, canvas.origin_x);
    put(y, canvas.origin_y);
    put(pixels_per_unit, canvas.pixels_per_unit < 0 ? 0.0f : canvas.pixels_per_unit);
  });
}

void p2l_evaluate(P2lRig* rig) {
  guarded_void(rig, [](P2lRig& r) { r.animator.evaluate(r.instance); });
}

void p2l_set_opacity(P2lRig* rig, float opacity) {
  if (!std::isfinite(opacity)) return;
  guarded_void(rig, [&](P2lRig& r) { r.instance.set_opacity(std::clamp(opacity, 0.0f, 1.0f)); });
}

float p2l_opacity(const P2lRig* rig) {
  return guarded(rig, 0.0f, [](const P2lRig& r) { return r.instance.opacity(); });
}

bool p2l_set_mesh_colors(P2lRig* rig, uint32_t index, const float* multiply, const float* screen) {
  return guarded(rig, false, [&](P2lRig& r) {
    if (index >= r.rig().meshes.size()) return false;
    return r.instance.set_mesh_colors(index, colors_from(multiply, screen));
  });
}

bool p2l_set_part_colors(P2lRig* rig, uint32_t index, const float* multiply, const float* screen) {
  return guarded(rig, false, [&](P2lRig& r) {
    if (index >= r.rig().parts.size()) return false;
    return r.instance.set_part_colors(index, colors_from(multiply, screen));
  });
}

}  // extern "C"
