// Deformer frames: how a warp lattice or a rotation maps its children's points into its
// parent's space (and, at the root, into canvas pixels).
#pragma once

#include "eval/state.hpp"

namespace p2l::eval {

// Warp: the unit square maps through the lattice cells (bilinear, or two triangles split
// along the (1,0)-(0,1) diagonal); outside it, within [-2, 3]², a ring of virtual cells
// whose extra points follow the lattice's mean affine frame, always as triangles; beyond
// that, the affine frame alone. Computed in double precision.
void finish_warp(Frame& frame);  // computes the affine frame from frame.points
// For a split-cell lattice: fills [table] (kWarpCellDoubles per cell, row by row) with each
// cell's two triangles as a corner and two edges, the very differences the mapping would
// compute per point, and points frame.cells at it. Mapping then gives the same bits.
inline constexpr std::size_t kWarpCellDoubles = 12;
void build_warp_cells(Frame& frame, double* table);
// Whether plans give lattices cell tables. Not in WebAssembly: there (V8, node 20) building a
// table cost 3x what it does natively and mapping through one measured slower than through
// the lattice in most runs (docs/PERFORMANCE.md), so the module keeps the smaller code.
#if defined(__wasm__)
inline constexpr bool kWarpCellTables = false;
#else
inline constexpr bool kWarpCellTables = true;
#endif
// The ring cell along an axis of n lattice cells that holds x: the last of the lines -2, 0,
// 1/n, ..., 1 at or below x (0 below them all). Exposed for its test.
std::uint32_t ring_cell(double x, std::uint32_t n);
void map_warp(const Frame& frame, float u, float v, float& x, float& y);

// Rotation: flips, then scale, then rotation by angle (degrees), then the origin.
inline void map_rotation(const Frame& f, float x, float y, float& ox, float& oy) {
  const float sx = (f.flip_x ? -x : x) * f.scale;
  const float sy = (f.flip_y ? -y : y) * f.scale;
  ox = f.origin_x + sx * f.cos - sy * f.sin;
  oy = f.origin_y + sx * f.sin + sy * f.cos;
}

inline void map_point(const Frame& f, float x, float y, float& ox, float& oy) {
  if (f.kind == DeformerKind::Warp)
    map_warp(f, x, y, ox, oy);
  else
    map_rotation(f, x, y, ox, oy);
}

// Maps n/2 points (x, y interleaved) through a warp frame in place: one loop over them, so
// the frame's kind is looked at once per mesh rather than once per point.
void map_warp_points(const Frame& frame, float* xy, std::size_t n);

// Maps n/2 points (x, y interleaved) through the frame in place.
inline void map_points(const Frame& f, float* xy, std::size_t n) {
  if (f.kind == DeformerKind::Warp) return map_warp_points(f, xy, n);
  for (std::size_t j = 0; j + 1 < n; j += 2) map_rotation(f, xy[j], xy[j + 1], xy[j], xy[j + 1]);
}

// The frame a rotation gives its children from its keyed pivot (in its parent's space):
// the base angle adds to the keyed angle. Under a rotation the origin maps through the
// parent, angles add and scales multiply, and a parent's vertical flip or negative scale
// turns the child half way round. Under a warp the frame stays rigid: the origin maps
// through the lattice, the angle turns with the lattice's direction measured toward the
// point 0.1 above the pivot, and the scale is the nearest rotation's above the lattice.
Frame rotation_frame(const Frame* parent, Pivot p, float base_angle, bool flip_x, bool flip_y);

// Degrees to radians and back, rounded as single-precision constants.
inline constexpr float kRadiansPerDegree = 3.14159265358979323846f / 180.0f;
inline constexpr float kDegreesPerRadian = 57.2957795130823208767981548141051703f;

}  // namespace p2l::eval
