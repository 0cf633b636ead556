// Keyform grids compiled for lookup: which cells contribute at a pose, and by how much.
//
// A grid's value at a pose is the multilinear blend of the cells at the corners of the
// key interval each axis' parameter falls in. Keyform axes snap: a value within 0.001 of
// a key takes that key exactly. A cell a sparse grid does not store counts as the zero
// form; the weights of the stored ones are not renormalised.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l::eval {

inline constexpr float kKeySnap = 0.001f;

// The bracketing keys of a value and the weight of the upper one.
struct Span {
  std::uint32_t lo = 0, hi = 0;
  float t = 0;
};

// Without snapping: below the first key the first, above the last the last.
Span span_exact(std::span<const float> keys, float value);
// With keyform snapping (kKeySnap).
Span span_snapped(std::span<const float> keys, float value);

// Cubism's lookup (docs/RUNTIME.md, "Cubism's rules"), as the Core 6.0.1 does it, with the
// parameter's epsilon powf(0.1f, decimals) and every bound rounded to float: below key0 -
// epsilon outside; below epsilon + key0 key 0; else the first key i >= 1 with value <
// epsilon + key i (none: outside, past the last key) is the value's key if key i - epsilon
// < value, otherwise the value lies in the segment from key i - 1 at t = (value - key i-1) /
// (key i - key i-1), t = 0 when the keys lie closer than epsilon * 1.5f. Outside hides the
// object. A single key holds only where key0 - epsilon < value < epsilon + key0.
struct CubismSpan {
  std::uint32_t lo = 0;
  float t = 0;  // toward key lo + 1; 0 on a key
  bool outside = false;
};
CubismSpan span_cubism(std::span<const float> keys, float value, float epsilon);
// The Cubism 2.1 runtime's lookup (docs/RUNTIME.md, "Cubism 2's rules"), which compares in
// double precision: a value within 0.0001 of a key (strictly) is on it; below the first key -
// 0.0001, or not below the last + 0.0001, outside (at the end key); between two keys, t =
// (value - key i) / (key i+1 - key i) in double, kept as a float as the runtime keeps it.
// A single key holds only within 0.0001 of it.
inline constexpr double kCubism2KeySnap = 0.0001;
CubismSpan span_cubism2(std::span<const float> keys, float value);

struct CellWeight {
  std::uint32_t cell;
  float weight;
};

struct AxisPlan {
  std::uint32_t parameter;
  std::span<const float> keys;
  std::uint64_t stride;  // in dense cell numbers
};

class GridPlan {
 public:
  GridPlan() = default;
  template <class F>
  explicit GridPlan(const Grid<F>& grid) {
    build(grid.axes, grid.coords, grid.cell_count());
  }

  std::size_t cell_count() const { return cells_; }
  bool empty() const { return cells_ == 0; }

  // Writes the contributing cells at [values] (normalised parameter values) into [out],
  // in the canonical corner order (axis 0 varies fastest, lower before upper), and
  // returns how many. [out] must hold cell_count() entries.
  std::size_t weights(const float* values, CellWeight* out) const;
  // The cell at or below [values] on every axis (flags hold until the next key), or -1.
  std::int64_t floor_cell(const float* values) const;
  // The same weights under Cubism's lookup (span_cubism, [epsilon] per parameter), in the same
  // corner order; the first is the corner at every lower key. kOutside when a value lies
  // outside its axis' keys.
  static constexpr std::size_t kOutside = static_cast<std::size_t>(-1);
  std::size_t cubism_weights(const float* values, const float* epsilon, CellWeight* out) const;
  // Cubism 2's lookup (span_cubism2): the axes between two keys (their t, axis order) and the
  // cells at the 2^dims corners into [cells] (corner bit j: the upper key of the j-th of
  // them); false when a value lies outside its axis' keys, and then the corners are those of
  // the pose clamped to the end keys, which the runtime still interpolates. A corner the grid
  // does not store is kMissing. [cells] must hold cell_count() entries; a grid with more
  // corners than cells (only a sparse grid, which Cubism 2's rules refuse) gives no corners.
  static constexpr std::uint32_t kMissing = 0xFFFFFFFFu;
  static constexpr std::size_t kMaxCubism2Dims = 32;
  bool cubism2_corners(const float* values, std::uint32_t* cells, float* t, std::uint32_t& dims) const;

  // Grids that give the same weights at every pose (the same axes, keys and cell numbering:
  // a mesh's keyforms and its opacity and draw-order channels, as Cubism keys them, or
  // sibling meshes keyed alike) share one slot of the per-evaluation weight cache
  // (eval/weights.hpp). kNoSlot for a grid outside a Model.
  static constexpr std::uint32_t kNoSlot = 0xFFFFFFFFu;
  std::uint32_t slot() const { return slot_; }
  void set_slot(std::uint32_t slot) { slot_ = slot; }
  // Equal lookups give equal weights: the same function of the same tables.
  bool same_lookup(const GridPlan& other) const;
  std::uint64_t lookup_hash() const;

 private:
  void build(const std::vector<Axis>& axes, const std::vector<std::uint16_t>& coords, std::size_t cells);
  std::int64_t find(std::uint64_t dense) const;
  // The corners of the interpolating axes [active] (weights [t]) from the cell number [base].
  std::size_t corners(std::uint64_t base, const std::uint32_t* active, const float* t, std::size_t m, CellWeight* out) const;
  // The weights from each axis' lookup (grid.cpp).
  template <class SpanOf>
  std::size_t weights_by(SpanOf span_of, CellWeight* out) const;

  std::vector<AxisPlan> axes_;
  std::size_t cells_ = 0;
  // Dense number -> cell: a full table when the key combinations are few compared with
  // the cells, else a sorted list searched by bisection (memory stays proportional to
  // the file whatever its keys multiply to: the dense numbers in order, and each one's cell).
  std::vector<std::uint32_t> dense_;
  std::vector<std::uint64_t> sparse_numbers_;
  std::vector<std::uint32_t> sparse_cells_;
  std::uint32_t slot_ = kNoSlot;
};

}  // namespace p2l::eval
