// Deformer frames under Cubism's rules (docs/RUNTIME.md, "Cubism's rules"): how a warp lattice
// or a rotation places its children's points, in single precision and in the order of
// operations that reproduces the official Cubism Core's results bit for bit (measured on the
// official samples and third-party models against Core 5.1; see docs/IMPORT.md).
//
// Everything is in moc space: model units, y down, the root at the canvas origin.
#pragma once

#include <cstddef>
#include <cstdint>

namespace p2l::eval {

struct CubismFrame {
  bool warp = true;
  // Warp: the lattice's (columns + 1) x (rows + 1) points, already mapped into moc space by
  // the warp's parents, and the affine frame A(u, v) = origin + u·eu + v·ev that extends it outside
  // the unit square.
  std::uint32_t columns = 1, rows = 1;
  bool bilinear = false;
  const float* points = nullptr;
  float origin_x = 0, origin_y = 0, eu_x = 0, eu_y = 0, ev_x = 0, ev_y = 0;
  // Rotation: the composed origin, angle (degrees, base angle included), scale and reflection.
  float x = 0, y = 0, angle = 0, scale = 1;
  bool reflect_x = false, reflect_y = false;
  float sin = 0, cos = 1;            // of the angle, as the Core computes them
  float scaled_sin = 0, scaled_cos = 1;  // scale · sin, scale · cos
  // The scale a child rotation multiplies into its own: a rotation's composed scale, a
  // warp's parent's (1 at the root).
  float inherited_scale = 1;
  // A rotation whose probe could not move: it took the last direction found before it.
  bool reused_direction = false;
};

// Fills a warp frame's affine extension from its lattice's four corners.
void cubism_finish_warp(CubismFrame& f);

// Maps one point of a child through the frame.
void cubism_map_warp(const CubismFrame& f, float u, float v, float& x, float& y);
inline void cubism_map_rotation(const CubismFrame& f, float px, float py, float& x, float& y) {
  if (f.reflect_x) px = -px;
  if (f.reflect_y) py = -py;
  x = f.scaled_cos * px - f.scaled_sin * py + f.x;
  y = f.scaled_sin * px + f.scaled_cos * py + f.y;
}
inline void cubism_map(const CubismFrame& f, float px, float py, float& x, float& y) {
  if (f.warp)
    cubism_map_warp(f, px, py, x, y);
  else
    cubism_map_rotation(f, px, py, x, y);
}
// Maps n / 2 points (x, y interleaved) from [in] to [out], which may be the same buffer.
void cubism_map_points(const CubismFrame& f, const float* in, float* out, std::size_t n);
inline void cubism_map_points(const CubismFrame& f, float* xy, std::size_t n) { cubism_map_points(f, xy, xy, n); }
// What it dispatches between for a warp (exposed for tests/eval_simd_test.cpp): four points at a
// time (SSE, WebAssembly SIMD or plain code), then point by point; and eight at a time with
// AVX2 where cubism_avx2_available() (cubism_frames_avx2.cpp), which returns how many floats it
// mapped (the rest are the caller's).
void cubism_map_warp4(const CubismFrame& f, const float* in, float* out, std::size_t n);
bool cubism_avx2_available();
std::size_t cubism_map_warp_avx2(const CubismFrame& f, const float* in, float* out, std::size_t n);

// A rotation's frame from its interpolated pivot (origin x, y in its parent's space, angle
// and scale) under [parent] (null at the root). Under a parent the Core measures the turn the
// parent gives a short probe above the origin; when the probe cannot move (the parent's
// scale has shrunk it below a float step, even after ten retries ten times shorter), the Core
// reuses the last direction any rotation measured, which [last_direction] holds across
// rotations and evaluations.
struct RotationInput {
  float x = 0, y = 0, angle = 0, scale = 1, base_angle = 0;
  bool reflect_x = false, reflect_y = false;
};
CubismFrame cubism_rotation(const RotationInput& in, const CubismFrame* parent, float last_direction[2]);

}  // namespace p2l::eval
