#include "eval/frames.hpp"

#include <algorithm>
#include <cmath>

namespace p2l::eval {
namespace {

struct P {
  double x, y;
};
// A point as two doubles in one vector (GCC and Clang vector extension: SSE2 on x86-64,
// SIMD128 in WebAssembly when enabled, else plain scalar code).
using Pair = double __attribute__((vector_size(16)));

// Inlined by force: the warp's loop reads four of these per point, and at -Oz (the
// WebAssembly build) a call each took a fifth of the evaluation's time.
[[gnu::always_inline]] inline P lattice_point(const Frame& f, std::uint32_t c, std::uint32_t r) {
  const std::size_t i = (static_cast<std::size_t>(r) * (f.columns + 1) + c) * 2;
  return {static_cast<double>(f.points[i]), static_cast<double>(f.points[i + 1])};
}

P affine(const Frame& f, double u, double v) {
  return {f.frame_c[0] + (u - 0.5) * f.frame_ex[0] + (v - 0.5) * f.frame_ey[0],
          f.frame_c[1] + (u - 0.5) * f.frame_ex[1] + (v - 0.5) * f.frame_ey[1]};
}

P triangle(P q00, P q10, P q01, P q11, double s, double t) {
  if (s + t <= 1.0)
    return {q00.x + s * (q10.x - q00.x) + t * (q01.x - q00.x), q00.y + s * (q10.y - q00.y) + t * (q01.y - q00.y)};
  return {q11.x + (1.0 - s) * (q01.x - q11.x) + (1.0 - t) * (q10.x - q11.x),
          q11.y + (1.0 - s) * (q01.y - q11.y) + (1.0 - t) * (q10.y - q11.y)};
}

// The ring's grid lines along an axis of n cells: -2, then the lattice's own lines
// 0, 1/n, ..., 1, then 3.
double ring_line(std::uint32_t i, std::uint32_t n) {
  if (i == 0) return -2.0;
  if (i == n + 2) return 3.0;
  return static_cast<double>(i - 1) / static_cast<double>(n);
}

}  // namespace

// The last line at or below x (0 below the lattice). Starts from x * n and steps to the
// answer by the same comparisons a scan from the first line would make, so it finds the same
// line with two or three comparisons instead of up to n + 1 divisions.
std::uint32_t ring_cell(double x, std::uint32_t n) {
  if (x >= 3.0) return n + 1;
  if (!(x >= 0.0)) return 0;
  std::uint32_t i = static_cast<std::uint32_t>(std::min(x * n, static_cast<double>(n))) + 1;
  while (i > 1 && ring_line(i, n) > x) --i;
  while (i + 1 < n + 2 && ring_line(i + 1, n) <= x) ++i;
  return i;
}

void finish_warp(Frame& f) {
  const P c00 = lattice_point(f, 0, 0), c10 = lattice_point(f, f.columns, 0);
  const P c01 = lattice_point(f, 0, f.rows), c11 = lattice_point(f, f.columns, f.rows);
  f.frame_c[0] = (c00.x + c10.x + c01.x + c11.x) / 4.0;
  f.frame_c[1] = (c00.y + c10.y + c01.y + c11.y) / 4.0;
  f.frame_ex[0] = ((c10.x - c00.x) + (c11.x - c01.x)) / 2.0;
  f.frame_ex[1] = ((c10.y - c00.y) + (c11.y - c01.y)) / 2.0;
  f.frame_ey[0] = ((c01.x - c00.x) + (c11.x - c10.x)) / 2.0;
  f.frame_ey[1] = ((c01.y - c00.y) + (c11.y - c10.y)) / 2.0;
}

namespace {

[[gnu::always_inline]] inline void warp_point(const Frame& f, float uf, float vf, float& ox, float& oy) {
  const double u = uf, v = vf;
  const std::uint32_t columns = f.columns, rows = f.rows;
  P out;
  if (u >= 0.0 && u <= 1.0 && v >= 0.0 && v <= 1.0) {
    // Inside the lattice (most points): x and y side by side in one vector. Each lane does
    // the operations the scalar code does for one coordinate (triangle() above for the split
    // cell), in the same order, so the result is the same bit for bit, in half the
    // instructions where the target has vectors.
    const double fx = u * columns, fy = v * rows;
    const std::uint32_t i = std::min(static_cast<std::uint32_t>(fx), columns - 1);
    const std::uint32_t j = std::min(static_cast<std::uint32_t>(fy), rows - 1);
    const double s = fx - i, t = fy - j;
    const std::size_t row = static_cast<std::size_t>(columns + 1) * 2;
    const float* p00 = f.points + j * row + static_cast<std::size_t>(i) * 2;
    const float* p01 = p00 + row;
    const Pair q00{p00[0], p00[1]}, q10{p00[2], p00[3]}, q01{p01[0], p01[1]}, q11{p01[2], p01[3]};
    Pair r;
    if (f.bilinear)
      r = (1.0 - s) * (1.0 - t) * q00 + s * (1.0 - t) * q10 + (1.0 - s) * t * q01 + s * t * q11;
    else if (s + t <= 1.0)
      r = q00 + s * (q10 - q00) + t * (q01 - q00);
    else
      r = q11 + (1.0 - s) * (q01 - q11) + (1.0 - t) * (q10 - q11);
    ox = static_cast<float>(r[0]);
    oy = static_cast<float>(r[1]);
    return;
  } else if (!(u >= -2.0 && u <= 3.0 && v >= -2.0 && v <= 3.0)) {
    out = affine(f, u, v);
  } else {
    const std::uint32_t ci = ring_cell(u, columns), ri = ring_cell(v, rows);
    auto point = [&](std::uint32_t c, std::uint32_t r) {
      if (c >= 1 && c <= columns + 1 && r >= 1 && r <= rows + 1) return lattice_point(f, c - 1, r - 1);
      return affine(f, ring_line(c, columns), ring_line(r, rows));
    };
    const double u0 = ring_line(ci, columns), u1 = ring_line(ci + 1, columns);
    const double v0 = ring_line(ri, rows), v1 = ring_line(ri + 1, rows);
    const double s = (u - u0) / (u1 - u0), t = (v - v0) / (v1 - v0);
    out = triangle(point(ci, ri), point(ci + 1, ri), point(ci, ri + 1), point(ci + 1, ri + 1), s, t);
  }
  ox = static_cast<float>(out.x);
  oy = static_cast<float>(out.y);
}

}  // namespace

void map_warp_points(const Frame& f, float* xy, std::size_t n) {
  for (std::size_t j = 0; j + 1 < n; j += 2) warp_point(f, xy[j], xy[j + 1], xy[j], xy[j + 1]);
}

void map_warp(const Frame& f, float u, float v, float& x, float& y) {
  float xy[2] = {u, v};
  map_warp_points(f, xy, 2);
  x = xy[0];
  y = xy[1];
}

Frame rotation_frame(const Frame* parent, Pivot p, float base_angle, bool flip_x, bool flip_y) {
  p.angle += base_angle;
  Frame f;
  f.kind = DeformerKind::Rotation;
  f.flip_x = flip_x;
  f.flip_y = flip_y;
  if (!parent) {
    f.origin_x = p.x;
    f.origin_y = p.y;
    f.angle = p.angle;
    f.scale = p.scale;
  } else if (parent->kind == DeformerKind::Rotation) {
    map_rotation(*parent, p.x, p.y, f.origin_x, f.origin_y);
    // The parent's flips place the pivot but do not mirror the child's frame: a vertical
    // flip (or a negative scale) turns the measured "up" half way round, a horizontal
    // one leaves it.
    const float half = (parent->flip_y ? 180.0f : 0.0f) + (parent->scale < 0.0f ? 180.0f : 0.0f);
    f.angle = parent->angle + p.angle + half;
    f.scale = parent->scale * p.scale;
  } else {
    float ax, ay;
    map_warp(*parent, p.x, p.y, f.origin_x, f.origin_y);
    map_warp(*parent, p.x, p.y - 0.1f, ax, ay);
    // Measured toward the point above, so a collapsed lattice turns the frame a quarter.
    const float turn = std::atan2(ay - f.origin_y, ax - f.origin_x) * kDegreesPerRadian + 90.0f;
    f.angle = p.angle + turn;
    f.scale = p.scale * parent->scale;
  }
  const float radians = f.angle * kRadiansPerDegree;
  f.sin = std::sin(radians);
  f.cos = std::cos(radians);
  return f;
}

}  // namespace p2l::eval
