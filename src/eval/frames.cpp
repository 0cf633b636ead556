#include "eval/frames.hpp"

#include "base/libm.hpp"
#include "eval/frames_simd.hpp"
#include "eval/warp_cell.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace p2l::eval {
namespace {

struct P {
  double x, y;
};
// A point as two doubles in one vector (GCC and Clang vector extension: SSE2 on x86-64,
// SIMD128 in WebAssembly when enabled, else plain scalar code).
using Pair = double __attribute__((vector_size(16)));

// Inlined by force: the ring path reads four of these per point, and at -Oz (the
// WebAssembly build) a call each cost more than the arithmetic.
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

// The ring cell holding x and the two lines around it, as ring_line gives them: the lines
// found while searching are the ones the mapping needs next, so it divides for no line twice.
struct RingSpan {
  std::uint32_t cell;
  double low, high;
};

// The last line at or below x (0 below the lattice). Starts from x * n and steps to the
// answer by the same comparisons a scan from the first line would make, so it finds the same
// line with two or three comparisons instead of up to n + 1 divisions.
[[gnu::always_inline]] inline RingSpan ring_span(double x, std::uint32_t n) {
  if (x >= 3.0) return {n + 1, ring_line(n + 1, n), 3.0};
  if (!(x >= 0.0)) return {0, -2.0, ring_line(1, n)};
  std::uint32_t i = static_cast<std::uint32_t>(std::min(x * n, static_cast<double>(n))) + 1;
  double low = ring_line(i, n);
  while (i > 1 && low > x) low = ring_line(--i, n);
  double high = ring_line(i + 1, n);
  while (i + 1 < n + 2 && high <= x) {
    low = high;
    high = ring_line(++i + 1, n);
  }
  return {i, low, high};
}

}  // namespace

std::uint32_t ring_cell(double x, std::uint32_t n) { return ring_span(x, n).cell; }

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

void build_warp_cells(Frame& f, double* table) {
  const std::uint32_t columns = f.columns, rows = f.rows;
  const std::size_t row = static_cast<std::size_t>(columns + 1) * 2;
  Pair* out = reinterpret_cast<Pair*>(table);
  for (std::uint32_t k = 0; k < rows; ++k) {
    const float* p00 = f.points + k * row;
    for (std::uint32_t i = 0; i < columns; ++i, p00 += 2, out += 6) {
      const float* p01 = p00 + row;
      const Pair q00{p00[0], p00[1]}, q10{p00[2], p00[3]}, q01{p01[0], p01[1]}, q11{p01[2], p01[3]};
      // The lower triangle q00 + s(q10 − q00) + t(q01 − q00), the upper one
      // q11 + (1 − s)(q01 − q11) + (1 − t)(q10 − q11): corner, then the edges in that order.
      out[0] = q00;
      out[1] = q10 - q00;
      out[2] = q01 - q00;
      out[3] = q11;
      out[4] = q01 - q11;
      out[5] = q10 - q11;
    }
  }
  f.cells = table;
}

namespace {

// A point outside the unit square: the ring of virtual cells, or beyond it the affine frame.
// Rare (a few percent of points), so kept out of the inside loop.
[[gnu::noinline]] void warp_outside(const Frame& f, double u, double v, float& ox, float& oy) {
  const std::uint32_t columns = f.columns, rows = f.rows;
  P out;
  if (!(u >= -2.0 && u <= 3.0 && v >= -2.0 && v <= 3.0)) {
    out = affine(f, u, v);
  } else {
    const RingSpan su = ring_span(u, columns), sv = ring_span(v, rows);
    // A corner of the ring cell: a lattice point, or a virtual one on the affine frame.
    auto point = [&](std::uint32_t c, double line_u, std::uint32_t r, double line_v) {
      if (c >= 1 && c <= columns + 1 && r >= 1 && r <= rows + 1) return lattice_point(f, c - 1, r - 1);
      return affine(f, line_u, line_v);
    };
    const double s = (u - su.low) / (su.high - su.low), t = (v - sv.low) / (sv.high - sv.low);
    out = triangle(point(su.cell, su.low, sv.cell, sv.low), point(su.cell + 1, su.high, sv.cell, sv.low),
                   point(su.cell, su.low, sv.cell + 1, sv.high), point(su.cell + 1, su.high, sv.cell + 1, sv.high), s, t);
  }
  ox = static_cast<float>(out.x);
  oy = static_cast<float>(out.y);
}

using Mask = std::int64_t __attribute__((vector_size(16)));

// How a cell blends its corners: bilinear, two triangles from the lattice points, or two
// triangles from the frame's cell table; or, for the smallest code, the first two as the
// frame says point by point.
enum class Blend { Bilinear, Split, SplitTable, AsFrameSays };

// Points inside the unit square (nearly all): x and y side by side in one vector. Each lane
// does the operations the scalar code does for one coordinate (triangle() above for the split
// cell), in the same order, so the result is the same bit for bit, in half the instructions
// where the target has vectors. The split cell computes both triangles and keeps one by a
// mask: which one is a coin toss per point, and a mispredicted branch cost more than the
// second triangle (a sixth of the evaluation on Haru). With a cell table the triangle's
// corner and edges are read ready (the same differences), and the choice is one select.
template <Blend kBlend>
void map_warp_loop(const Frame& f, float* xy, std::size_t n) {
  const std::uint32_t columns = f.columns, rows = f.rows;
  const std::size_t row = static_cast<std::size_t>(columns + 1) * 2;
  for (std::size_t j = 0; j + 1 < n; j += 2) {
    const double u = xy[j], v = xy[j + 1];
    if (!(u >= 0.0 && u <= 1.0 && v >= 0.0 && v <= 1.0)) {
      warp_outside(f, u, v, xy[j], xy[j + 1]);
      continue;
    }
    const double fx = u * columns, fy = v * rows;
    const std::uint32_t i = std::min(static_cast<std::uint32_t>(fx), columns - 1);
    const std::uint32_t k = std::min(static_cast<std::uint32_t>(fy), rows - 1);
    const double s = fx - i, t = fy - k;
    Pair r;
    if constexpr (kBlend == Blend::SplitTable) {
      const bool upper = !(s + t <= 1.0);
      const Pair* c = reinterpret_cast<const Pair*>(f.cells) + (static_cast<std::size_t>(k) * columns + i) * 6 + (upper ? 3 : 0);
      const double a = upper ? 1.0 - s : s, b = upper ? 1.0 - t : t;
      r = c[0] + a * c[1] + b * c[2];
    } else {
      const float* p00 = f.points + k * row + static_cast<std::size_t>(i) * 2;
      const float* p01 = p00 + row;
      const Pair q00{p00[0], p00[1]}, q10{p00[2], p00[3]}, q01{p01[0], p01[1]}, q11{p01[2], p01[3]};
      if (kBlend == Blend::Bilinear || (kBlend == Blend::AsFrameSays && f.bilinear)) {
        r = cell_bilinear(q00, q10, q01, q11, s, t);
      } else {
        const Pair lower = cell_lower(q00, q10, q01, s, t), upper = cell_upper(q10, q01, q11, s, t);
        const std::int64_t all = -static_cast<std::int64_t>(s + t <= 1.0);  // every bit when in the lower
        const Mask in_lower{all, all};
        r = std::bit_cast<Pair>((in_lower & std::bit_cast<Mask>(lower)) | (~in_lower & std::bit_cast<Mask>(upper)));
      }
    }
    xy[j] = static_cast<float>(r[0]);
    xy[j + 1] = static_cast<float>(r[1]);
  }
}

}  // namespace

void map_warp_outside(const Frame& f, float* xy) { warp_outside(f, xy[0], xy[1], xy[0], xy[1]); }

void map_warp_points_scalar(const Frame& f, float* xy, std::size_t n) {
#if defined(__wasm__)
  // In WebAssembly the SIMD loop (frames_simd128.cpp) maps nearly every point, and this one
  // only pairs with a point outside the unit square and a last odd point: one loop for
  // every kind of cell is enough, and smaller.
  map_warp_loop<Blend::AsFrameSays>(f, xy, n);
#else
  if (f.bilinear)
    map_warp_loop<Blend::Bilinear>(f, xy, n);
  else if (kWarpCellTables && f.cells)
    map_warp_loop<Blend::SplitTable>(f, xy, n);
  else
    map_warp_loop<Blend::Split>(f, xy, n);
#endif
}

void map_warp_points(const Frame& f, float* xy, std::size_t n) {
#if defined(__wasm__)
  // Two points at a time with WebAssembly SIMD (the same operations, lane by lane).
  if (n >= 4) {
    const std::size_t done = map_warp_points_simd128(f, xy, n);
    xy += done;
    n -= done;
  }
#else
  // Four points at a time where the processor has AVX2 (the same operations, lane by lane).
  static const bool wide = warp_avx2_available();
  if (wide && n >= 8) {
    const std::size_t done = map_warp_points_avx2(f, xy, n);
    xy += done;
    n -= done;
  }
#endif
  map_warp_points_scalar(f, xy, n);
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
    const float turn = libm::atan2(ay - f.origin_y, ax - f.origin_x) * kDegreesPerRadian + 90.0f;
    f.angle = p.angle + turn;
    f.scale = p.scale * parent->scale;
  }
  const float radians = f.angle * kRadiansPerDegree;
  f.sin = libm::sin(radians);
  f.cos = libm::cos(radians);
  return f;
}

}  // namespace p2l::eval
