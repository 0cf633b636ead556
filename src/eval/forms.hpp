// What both the plan (default-pose values, once at load) and every evaluation compute the
// same way: an object's static channel state, a grid's blended forms, a rotation's pivot.
// One definition, so that "the value at the default pose" is exactly what evaluating at
// the defaults gives.
#pragma once

#include <algorithm>
#include <vector>

#include "eval/grid.hpp"
#include "eval/plan.hpp"

namespace p2l::eval {

// The values an object starts from before its channels and shapes.
inline ChannelState static_state(const Deformer& d) {
  ChannelState s;
  s.opacity = d.opacity;
  s.multiply = d.multiply;
  s.screen = d.screen;
  if (d.kind == DeformerKind::Rotation) {
    s.flip_x = d.flip_x;
    s.flip_y = d.flip_y;
  }
  return s;
}
inline ChannelState static_state(const Mesh& m) {
  ChannelState s;
  s.draw_order = m.draw_order;
  s.opacity = m.opacity;
  s.multiply = m.multiply;
  s.screen = m.screen;
  return s;
}
inline ChannelState static_state(const Part& p) {
  ChannelState s;
  s.draw_order = static_cast<float>(p.draw_order);
  return s;
}

// Adds the grid's blended forms at [values] into out[0..n); a shorter form adds to its length.
template <class F>
void add_forms(const GridPlan& grid, const std::vector<F>& forms, const float* values, CellWeight* scratch, float* out,
               std::size_t n) {
  const std::size_t count = grid.weights(values, scratch);
  for (std::size_t i = 0; i < count; ++i) {
    const auto& form = forms[scratch[i].cell];
    const float w = scratch[i].weight;
    const std::size_t m = std::min(n, form.size());
    for (std::size_t k = 0; k < m; ++k) out[k] += form[k] * w;
  }
}

// A rotation's keyed pivot: the identity at the origin without keyforms, else the blend
// (from zero, so a missing cell counts as the zero pivot).
inline Pivot pivot_at(const Deformer& d, const GridPlan& grid, const float* values, CellWeight* scratch) {
  if (!d.pivot) return Pivot{0, 0, 0, 1};
  Pivot p{0, 0, 0, 0};
  const std::size_t n = grid.weights(values, scratch);
  for (std::size_t i = 0; i < n; ++i) {
    const Pivot& c = d.pivot->forms[scratch[i].cell];
    const float w = scratch[i].weight;
    p.x += c.x * w;
    p.y += c.y * w;
    p.angle += c.angle * w;
    p.scale += c.scale * w;
  }
  return p;
}

}  // namespace p2l::eval
