// framing(): where a character lands in an image. One float sequence for every front (the
// tool's golden images, the bindings' and Unity's pictures), so that their pictures agree.
#include <algorithm>
#include <cmath>

#include "p2l/eval.hpp"
#include "p2l/render.hpp"

namespace p2l {

Affine canvas_fit(const Canvas& canvas, std::uint32_t width, std::uint32_t height) {
  const float scale = std::fmin(static_cast<float>(width) / canvas.width, static_cast<float>(height) / canvas.height);
  return Affine{scale, 0.0f, 0.0f, scale, 0.0f, 0.0f};
}

Affine framing(const Instance& instance, std::uint32_t width, std::uint32_t height, const Framing& how) {
  const Canvas& canvas = instance.model().rig().canvas;
  float x0 = 0, y0 = 0, x1 = canvas.width, y1 = canvas.height;
  if (how.drawn) {
    float bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
    for (std::uint32_t m : instance.render_order()) {
      if (!(instance.opacity(m) > 0.0f)) continue;
      const auto v = instance.vertices(m);
      for (std::size_t i = 0; i + 1 < v.size(); i += 2) {
        if (!std::isfinite(v[i]) || !std::isfinite(v[i + 1])) continue;
        bx0 = std::min(bx0, v[i]), bx1 = std::max(bx1, v[i]);
        by0 = std::min(by0, v[i + 1]), by1 = std::max(by1, v[i + 1]);
      }
    }
    if (bx1 > bx0 && by1 > by0) {
      const float margin = (std::isfinite(how.margin) ? std::max(how.margin, 0.0f) : 0.0f) * std::max(bx1 - bx0, by1 - by0);
      x0 = bx0 - margin, y0 = by0 - margin, x1 = bx1 + margin, y1 = by1 + margin;
    }
  }
  const float w = std::max(x1 - x0, 1e-3f), h = std::max(y1 - y0, 1e-3f);
  const float scale = std::min(static_cast<float>(width) / w, static_cast<float>(height) / h);
  Affine t;
  t.a = t.d = scale;
  t.tx = (static_cast<float>(width) - w * scale) * 0.5f - x0 * scale;
  t.ty = (static_cast<float>(height) - h * scale) * 0.5f - y0 * scale;
  if (how.flip_y) {
    t.d = -scale;
    t.ty = static_cast<float>(height) - t.ty;
  }
  return t;
}

}  // namespace p2l
