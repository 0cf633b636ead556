// Deformer frames under Cubism 2's rules (docs/RUNTIME.md, "Cubism 2's rules"): how a warp
// lattice or a rotation places its children's points as the Cubism 2.1 runtime places them.
// The runtime is JavaScript: it computes in double precision and keeps its buffers (lattices,
// vertices, a rotation's probe) in float arrays, so the arithmetic here is double and every
// stored point is rounded to float where the runtime's is.
//
// Everything is in model units, y down, the root at the canvas origin.
#pragma once

#include <cstddef>
#include <cstdint>

#include "eval/warp_ring.hpp"

namespace p2l::eval {

struct Cubism2Frame {
  bool warp = true;
  // Warp: the lattice's (columns + 1) x (rows + 1) points mapped by its parents (floats), and
  // the affine frame of its ring.
  std::uint32_t columns = 1, rows = 1;
  const float* points = nullptr;
  RingFrame<double> ring;
  // Rotation: the composed origin and the matrix of angle, scale and reflection.
  double x = 0, y = 0;
  double m00 = 1, m01 = 0, m10 = 0, m11 = 1;
  // The scale a child rotation multiplies into its own (a rotation's composed scale, a warp's
  // parent's, 1 at the root) and the opacity a child multiplies into its own.
  double total_scale = 1, total_opacity = 1;
};

// A warp's frame over its mapped lattice [points].
Cubism2Frame cubism2_warp(const float* points, std::uint32_t columns, std::uint32_t rows);

// A rotation's frame: origin (x, y) in its parent's space, angle in degrees, scale, reflection.
// Under [parent] the origin is mapped and rounded to float, and the angle gains the turn the
// parent gives a short probe above the origin ((0, -0.1) in a warp, (0, -10) under a
// rotation; ten tries, each ten times shorter, forward then backward; the runtime keeps a
// backward probe's displacement without turning it round). When no probe moves, the
// direction found last by any rotation is used: [last_direction] holds it.
struct Cubism2Rotation {
  double x = 0, y = 0, angle = 0, scale = 1;
  bool reflect_x = false, reflect_y = false;
};
Cubism2Frame cubism2_rotation(const Cubism2Rotation& in, const Cubism2Frame* parent, float last_direction[2]);

// Maps n / 2 points (x, y interleaved) from [in] to [out] (floats, as the runtime stores them).
void cubism2_map_points(const Cubism2Frame& f, const float* in, float* out, std::size_t n);

}  // namespace p2l::eval
