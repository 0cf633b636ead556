#include "p2lrt/view/framing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace p2lrt::viewer {

Framing Framing::of(const P2lRig* rig) {
  float lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
  const std::uint32_t meshes = p2l_mesh_count(rig);
  for (std::uint32_t m = 0; m < meshes; ++m) {
    if (!(p2l_mesh_opacity(rig, m) > 0)) continue;
    const float* xy = p2l_mesh_vertices(rig, m);
    const std::uint32_t n = p2l_mesh_vertex_count(rig, m);
    for (std::uint32_t v = 0; xy && v < n; ++v) {
      lo_x = std::min(lo_x, xy[2 * v]), hi_x = std::max(hi_x, xy[2 * v]);
      lo_y = std::min(lo_y, xy[2 * v + 1]), hi_y = std::max(hi_y, xy[2 * v + 1]);
    }
  }
  if (!(hi_x > lo_x && hi_y > lo_y && std::isfinite(hi_x - lo_x) && std::isfinite(hi_y - lo_y))) {
    // Nothing drawn: the whole canvas.
    float w = 0, h = 0;
    p2l_canvas(rig, &w, &h);
    lo_x = lo_y = 0;
    hi_x = w > 0 ? w : 1;
    hi_y = h > 0 ? h : 1;
  }
  const float margin = 0.04f * std::max(hi_x - lo_x, hi_y - lo_y);
  Framing f;
  f.center_x = (lo_x + hi_x) / 2;
  f.center_y = (lo_y + hi_y) / 2;
  f.extent_x = hi_x - lo_x + 2 * margin;
  f.extent_y = hi_y - lo_y + 2 * margin;
  return f;
}

std::array<float, 6> Framing::transform(float width, float height) const {
  const float area = std::max(1.0f, width - left);
  const float scale = std::min(area / extent_x, std::max(1.0f, height) / extent_y) * zoom;
  return {scale, 0, 0, scale, width - area / 2 + pan_x - scale * center_x, height / 2 + pan_y - scale * center_y};
}

void Framing::to_canvas(float width, float height, float x, float y, float& cx, float& cy) const {
  const auto t = transform(width, height);
  cx = (x - t[4]) / t[0];
  cy = (y - t[5]) / t[3];
}

void Framing::zoom_about(float width, float height, float x, float y, float factor) {
  float cx = 0, cy = 0;
  to_canvas(width, height, x, y, cx, cy);
  zoom = std::clamp(zoom * factor, 0.1f, 20.0f);
  const auto t = transform(width, height);
  // Move the pan so that canvas point (cx, cy) lands on (x, y) again.
  pan_x += x - (t[0] * cx + t[4]);
  pan_y += y - (t[3] * cy + t[5]);
}

}  // namespace p2lrt::viewer
