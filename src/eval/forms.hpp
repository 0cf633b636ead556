// What both the plan (default-pose values, once at load) and every evaluation compute the
// same way: an object's static channel state, a grid's blended forms, a rotation's pivot.
// One definition, so that "the value at the default pose" is exactly what evaluating at
// the defaults gives.
#pragma once

#include <algorithm>
#include <vector>

#include "eval/blend.hpp"
#include "eval/grid.hpp"
#include "eval/plan.hpp"
#include "eval/weights.hpp"

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

// out[0..n) = start[0..n) (zeros when start is null) plus each cell's row times its weight,
// added in cell order, in batches, each one pass over the output (eval/blend.hpp).
template <class RowOf>
void blend_batches(std::span<const CellWeight> cells, RowOf row_of, const float* start, float* out, std::size_t n) {
  constexpr std::size_t kBatch = 16;
  const float* rows[kBatch];
  float weights[kBatch];
  std::size_t i = 0;
  const float* from = start;
  do {
    std::size_t m = 0;
    for (; m < kBatch && i < cells.size(); ++m, ++i) {
      rows[m] = row_of(cells[i].cell);
      weights[m] = cells[i].weight;
    }
    blend_rows(from, rows, weights, m, out, n);
    from = out;
  } while (i < cells.size());
}

// The same over a grid's forms. A form shorter than n adds to its length.
template <class F>
void blend_cells(std::span<const CellWeight> cells, const std::vector<F>& forms, const float* start, float* out,
                 std::size_t n) {
  bool full = true;
  for (const CellWeight& c : cells) full &= forms[c.cell].size() >= n;
  if (!full) {  // a form shorter than the output: row by row, each over its own length
    blend_rows(start, nullptr, nullptr, 0, out, n);
    for (const CellWeight& c : cells) {
      const float* row = forms[c.cell].data();
      blend_rows(out, &row, &c.weight, 1, out, std::min(n, forms[c.cell].size()));
    }
    return;
  }
  blend_batches(cells, [&](std::uint32_t cell) { return forms[cell].data(); }, start, out, n);
}

// The same over forms at one stride in one block (MeshPlan::rows): no form's header is read.
inline void blend_row_run(std::span<const CellWeight> cells, RowRun rows, const float* start, float* out, std::size_t n) {
  blend_batches(cells, [&](std::uint32_t cell) { return rows.first + std::size_t{cell} * rows.stride; }, start, out, n);
}

// The same with the grid's weights at the pose.
template <class F>
void blend_forms(const GridPlan& grid, const std::vector<F>& forms, const Weigher& weigh, const float* start, float* out,
                 std::size_t n) {
  blend_cells(weigh(grid), forms, start, out, n);
}

// A rotation's keyed pivot: the identity at the origin without keyforms, else the blend
// (from zero, so a missing cell counts as the zero pivot).
inline Pivot pivot_at(const Deformer& d, const GridPlan& grid, const Weigher& weigh) {
  if (!d.pivot) return Pivot{0, 0, 0, 1};
  Pivot p{0, 0, 0, 0};
  for (const CellWeight& cw : weigh(grid)) {
    const Pivot& c = d.pivot->forms[cw.cell];
    const float w = cw.weight;
    p.x += c.x * w;
    p.y += c.y * w;
    p.angle += c.angle * w;
    p.scale += c.scale * w;
  }
  return p;
}

}  // namespace p2l::eval
