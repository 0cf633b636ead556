// The formulas here are the ones whose float results equal the official Core's, found by
// comparing candidate orders of operations with Core 5.1 on the official samples and on
// third-party models (docs/IMPORT.md, "How the rules were measured"); each is pinned by the
// fixtures in tests/cubism/fixtures. Changing an order of operations changes the bits.
#include "eval/cubism_frames.hpp"

#include <cstddef>
#include <cstring>

#include "base/cubism_math.hpp"
#include "eval/warp_ring.hpp"

namespace p2l::eval {
namespace {

constexpr float kPi = 3.14159265358979f;  // the float nearest pi

using Pt = RingPoint<float>;

[[gnu::always_inline]] inline Pt lattice(const CubismFrame& f, std::uint32_t c, std::uint32_t r) {
  const std::size_t i = (static_cast<std::size_t>(r) * (f.columns + 1) + c) * 2;
  return {f.points[i], f.points[i + 1]};
}

RingFrame<float> ring_of(const CubismFrame& f) {
  return {f.origin_x, f.origin_y, f.eu_x, f.eu_y, f.ev_x, f.ev_y};
}

[[gnu::noinline]] Pt outside(const CubismFrame& f, float u, float v) {
  return ring_point(ring_of(f), [&](std::uint32_t c, std::uint32_t r) { return lattice(f, c, r); }, f.columns, f.rows, u, v);
}

}  // namespace

void cubism_finish_warp(CubismFrame& f) {
  const RingFrame<float> r = ring_frame(lattice(f, 0, 0), lattice(f, f.columns, 0), lattice(f, 0, f.rows), lattice(f, f.columns, f.rows));
  f.origin_x = r.origin_x, f.origin_y = r.origin_y;
  f.eu_x = r.eu_x, f.eu_y = r.eu_y, f.ev_x = r.ev_x, f.ev_y = r.ev_y;
}

void cubism_map_warp(const CubismFrame& f, float u, float v, float& x, float& y) {
  if (!(u >= 0.0f && u < 1.0f && v >= 0.0f && v < 1.0f)) {
    const Pt p = outside(f, u, v);
    x = p.x;
    y = p.y;
    return;
  }
  std::uint32_t cu, cv;
  float fu, fv;
  ring_cell_of(u, f.columns, cu, fu);
  ring_cell_of(v, f.rows, cv, fv);
  const Pt p00 = lattice(f, cu, cv), p10 = lattice(f, cu + 1, cv), p01 = lattice(f, cu, cv + 1), p11 = lattice(f, cu + 1, cv + 1);
  if (f.bilinear) {
    const float a = 1.0f - fu, b = 1.0f - fv;
    x = p00.x * a * b + p10.x * fu * b + p01.x * a * fv + p11.x * fu * fv;
    y = p00.y * a * b + p10.y * fu * b + p01.y * a * fv + p11.y * fu * fv;
  } else if (fu + fv <= 1.0f) {
    const float w = 1.0f - fu - fv;
    x = p00.x * w + p10.x * fu + p01.x * fv;
    y = p00.y * w + p10.y * fu + p01.y * fv;
  } else {
    const float a = 1.0f - fu, b = 1.0f - fv, w = fv - a;
    x = p11.x * w + p01.x * a + p10.x * b;
    y = p11.y * w + p01.y * a + p10.y * b;
  }
}

namespace {

// Four points at a time through a warp's cells, with the compilers' vector extension (SSE on
// x86-64, WebAssembly SIMD with -msimd128, plain code elsewhere): each lane makes the float
// operations cubism_map_warp makes for one point, in its order, so the bits are the same; the
// triangle is chosen by a mask instead of a branch the processor cannot predict. A group with
// a point outside the unit square (a few percent) goes point by point.
using F4 = float __attribute__((vector_size(16)));
using I4 = std::int32_t __attribute__((vector_size(16)));

[[gnu::always_inline]] inline F4 select(I4 mask, F4 a, F4 b) { return (F4)(((I4)a & mask) | ((I4)b & ~mask)); }
[[gnu::always_inline]] inline I4 select(I4 mask, I4 a, I4 b) { return (a & mask) | (b & ~mask); }

// Four floats from [p] (any alignment).
[[gnu::always_inline]] inline F4 row_at(const float* p) {
  F4 r;
  std::memcpy(&r, p, sizeof r);
  return r;
}

// Rows r0..r3 of (a, b, c, d) into the columns: a = (r0.a, r1.a, r2.a, r3.a), and so on.
[[gnu::always_inline]] inline void transpose(F4 r0, F4 r1, F4 r2, F4 r3, F4& a, F4& b, F4& c, F4& d) {
  const F4 t0 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5), t1 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
  const F4 t2 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7), t3 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
  a = __builtin_shufflevector(t0, t1, 0, 1, 4, 5);
  b = __builtin_shufflevector(t0, t1, 2, 3, 6, 7);
  c = __builtin_shufflevector(t2, t3, 0, 1, 4, 5);
  d = __builtin_shufflevector(t2, t3, 2, 3, 6, 7);
}

// ring_cell_of for four coordinates in [0, 1).
[[gnu::always_inline]] inline void cells_of(F4 w, std::uint32_t n, I4& cell, F4& frac) {
  const F4 g = w * static_cast<float>(n);
  const I4 last = I4{} + static_cast<std::int32_t>(n - 1);
  cell = __builtin_convertvector(g, I4);
  cell = select(cell > last, last, cell);
  frac = g - __builtin_convertvector(cell, F4);
}

std::size_t map_warp_inside4(const CubismFrame& f, const float* in, float* out, std::size_t n) {
  const std::int32_t stride = static_cast<std::int32_t>(f.columns + 1);
  const float* pts = f.points;
  std::size_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const F4 lo = row_at(in + j), hi = row_at(in + j + 4);
    const F4 u = __builtin_shufflevector(lo, hi, 0, 2, 4, 6), v = __builtin_shufflevector(lo, hi, 1, 3, 5, 7);
    const I4 inside = (u >= 0.0f) & (u < 1.0f) & (v >= 0.0f) & (v < 1.0f);
    if (!(inside[0] & inside[1] & inside[2] & inside[3])) {
      for (std::size_t k = j; k < j + 8; k += 2) cubism_map_warp(f, in[k], in[k + 1], out[k], out[k + 1]);
      continue;
    }
    I4 cu, cv;
    F4 fu, fv;
    cells_of(u, f.columns, cu, fu);
    cells_of(v, f.rows, cv, fv);
    const I4 at = (cv * stride + cu) * 2;
    // A cell's two corners of a lattice row are four floats in a row (x, y of the corner and of
    // the next): one load a row and a lane, then a 4 x 4 transpose, instead of 32 single loads.
    F4 x00, y00, x10, y10, x01, y01, x11, y11;
    transpose(row_at(pts + at[0]), row_at(pts + at[1]), row_at(pts + at[2]), row_at(pts + at[3]), x00, y00, x10, y10);
    const std::ptrdiff_t below = stride * 2;
    transpose(row_at(pts + at[0] + below), row_at(pts + at[1] + below), row_at(pts + at[2] + below),
              row_at(pts + at[3] + below), x01, y01, x11, y11);
    F4 x, y;
    if (f.bilinear) {
      const F4 a = 1.0f - fu, b = 1.0f - fv;
      x = x00 * a * b + x10 * fu * b + x01 * a * fv + x11 * fu * fv;
      y = y00 * a * b + y10 * fu * b + y01 * a * fv + y11 * fu * fv;
    } else {
      const F4 w0 = 1.0f - fu - fv;
      const F4 a = 1.0f - fu, b = 1.0f - fv, w1 = fv - a;
      const I4 lower = (fu + fv) <= 1.0f;
      x = select(lower, x00 * w0 + x10 * fu + x01 * fv, x11 * w1 + x01 * a + x10 * b);
      y = select(lower, y00 * w0 + y10 * fu + y01 * fv, y11 * w1 + y01 * a + y10 * b);
    }
    const F4 out_lo = __builtin_shufflevector(x, y, 0, 4, 1, 5), out_hi = __builtin_shufflevector(x, y, 2, 6, 3, 7);
    std::memcpy(out + j, &out_lo, sizeof out_lo);
    std::memcpy(out + j + 4, &out_hi, sizeof out_hi);
  }
  return j;
}

}  // namespace

void cubism_map_warp4(const CubismFrame& f, const float* in, float* out, std::size_t n) {
  for (std::size_t j = map_warp_inside4(f, in, out, n); j + 1 < n; j += 2) cubism_map_warp(f, in[j], in[j + 1], out[j], out[j + 1]);
}

void cubism_map_points(const CubismFrame& f, const float* in, float* out, std::size_t n) {
  static const bool avx2 = cubism_avx2_available();
  if (f.warp) {
    const std::size_t j = avx2 ? cubism_map_warp_avx2(f, in, out, n) : 0;
    cubism_map_warp4(f, in + j, out + j, n - j);
  } else {
    for (std::size_t j = 0; j + 1 < n; j += 2) cubism_map_rotation(f, in[j], in[j + 1], out[j], out[j + 1]);
  }
}

CubismFrame cubism_rotation(const RotationInput& in, const CubismFrame* parent, float last_direction[2]) {
  CubismFrame f;
  f.warp = false;
  f.reflect_x = in.reflect_x;
  f.reflect_y = in.reflect_y;
  if (!parent) {
    f.x = in.x;
    f.y = in.y;
    f.angle = in.angle + in.base_angle;
    f.scale = in.scale;
  } else {
    // The turn the parent gives a short "up" probe at the origin: 0.1 in a warp's unit
    // square, 10 local units under a rotation.
    const float probe = parent->warp ? -0.1f : -10.0f;
    float tx, ty;
    cubism_map(*parent, in.x, in.y, tx, ty);
    float k = 1.0f;
    bool found = false;
    for (int tries = 0; tries < 10 && !found; ++tries, k *= 0.1f) {
      float ax, ay;
      cubism_map(*parent, in.x, in.y + k * probe, ax, ay);
      if (ax - tx != 0.0f || ay - ty != 0.0f) {
        last_direction[0] = ax - tx;
        last_direction[1] = ay - ty;
        found = true;
        break;
      }
      cubism_map(*parent, in.x, in.y - k * probe, ax, ay);
      if (ax - tx != 0.0f || ay - ty != 0.0f) {
        last_direction[0] = -(ax - tx);
        last_direction[1] = -(ay - ty);
        found = true;
      }
    }
    f.reused_direction = !found;
    float turn = libm::atan2(last_direction[1], last_direction[0]) - libm::atan2(probe, 0.0f);
    while (turn < -kPi) turn += 2 * kPi;
    while (turn > kPi) turn -= 2 * kPi;
    f.x = tx;
    f.y = ty;
    f.angle = (in.angle + turn * 180.0f / kPi) + in.base_angle;
    f.scale = in.scale * parent->inherited_scale;
  }
  const float radians = f.angle * kPi / 180.0f;
  f.sin = libm::sin(radians);
  f.cos = libm::cos(radians);
  f.scaled_sin = f.scale * f.sin;
  f.scaled_cos = f.scale * f.cos;
  f.inherited_scale = f.scale;
  return f;
}

}  // namespace p2l::eval
