// The warp mapping, two points at a time with WebAssembly SIMD (built with -msimd128; without
// it this file maps nothing and frames.cpp's scalar loop does it all). Each lane does what
// the scalar loop does for one point: the same double-precision operations in the same order,
// and the same choice of triangle, so the module's results stay those of the native build
// bit for bit (web/test/conformance.mjs compares them).
//
// Why it pays: the scalar loop already keeps a point's x and y in one vector, but computes
// the cell, its weights and the triangle's mask in scalar code and broadcasts them, point by
// point; here two points travel side by side (all x in one vector, all y in another), so
// that work is done once for both, and a pair of points whose four coordinates all lie in
// [0, 1] is recognised by one comparison. In V8 that took the loop, half of the module's
// evaluation on the Cubism sample, down by about a third (docs/PERFORMANCE.md).
#include "eval/frames.hpp"
#include "eval/frames_simd.hpp"
#include "eval/warp_cell.hpp"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include <cstdint>

namespace p2l::eval {

#if defined(__wasm_simd128__)

namespace {

enum class Blend { Bilinear, Split };

// Two doubles as the vector extension sees them, so the shared formulas (warp_cell.hpp) apply.
using F64x2 = double __attribute__((vector_size(16)));

// Two points' rows of a cell, each (x, y) of its left corner then of its right one, as the
// corners' x and y two points at a time, in double. The shuffles are the patterns engines
// turn into single instructions (unpack, move high).
struct RowCorners {
  F64x2 left_x, left_y, right_x, right_y;
};
[[gnu::always_inline]] inline F64x2 widen_low(v128_t v) { return F64x2(wasm_f64x2_promote_low_f32x4(v)); }
[[gnu::always_inline]] inline RowCorners row_corners(v128_t first, v128_t second) {
  const v128_t left = wasm_i32x4_shuffle(first, second, 0, 4, 1, 5);   // x x y y
  const v128_t right = wasm_i32x4_shuffle(first, second, 2, 6, 3, 7);  // x x y y
  return {widen_low(left), widen_low(wasm_i64x2_shuffle(left, left, 1, 1)), widen_low(right),
          widen_low(wasm_i64x2_shuffle(right, right, 1, 1))};
}

// One coordinate of the two points' cell corners, blended as frames.cpp's inside loop does.
template <Blend kBlend>
[[gnu::always_inline]] inline v128_t blend(F64x2 q00, F64x2 q10, F64x2 q01, F64x2 q11, F64x2 s, F64x2 t,
                                           v128_t in_lower) {
  if constexpr (kBlend == Blend::Bilinear)
    return v128_t(cell_bilinear(q00, q10, q01, q11, s, t));
  else
    return wasm_v128_bitselect(v128_t(cell_lower(q00, q10, q01, s, t)), v128_t(cell_upper(q10, q01, q11, s, t)), in_lower);
}

template <Blend kBlend>
std::size_t loop(const Frame& f, float* xy, std::size_t n) {
  const v128_t zero4 = wasm_f32x4_splat(0.0f), one4 = wasm_f32x4_splat(1.0f);
  const v128_t one = wasm_f64x2_splat(1.0);
  const v128_t columns = wasm_f64x2_splat(f.columns), rows = wasm_f64x2_splat(f.rows);
  const v128_t last_column = wasm_i32x4_splat(static_cast<std::int32_t>(f.columns - 1));
  const v128_t last_row = wasm_i32x4_splat(static_cast<std::int32_t>(f.rows - 1));
  const v128_t stride = wasm_i32x4_splat(static_cast<std::int32_t>(f.columns + 1));  // points per lattice row
  const std::size_t row = static_cast<std::size_t>(f.columns + 1) * 2;                // floats per lattice row
  std::size_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const v128_t given = wasm_v128_load(xy + j);  // u0 v0 u1 v1
    // Both points inside the unit square (NaN is not): else the scalar loop maps the pair,
    // the ring and the affine frame included. The comparisons in float decide as the
    // scalar loop's in double, the values being the same.
    if (!wasm_i32x4_all_true(wasm_v128_and(wasm_f32x4_ge(given, zero4), wasm_f32x4_le(given, one4)))) {
      map_warp_points_scalar(f, xy + j, 4);
      continue;
    }
    const v128_t uv = wasm_i32x4_shuffle(given, given, 0, 2, 1, 3);  // u0 u1 v0 v1
    const v128_t u = wasm_f64x2_promote_low_f32x4(uv), v = wasm_f64x2_promote_low_f32x4(wasm_i64x2_shuffle(uv, uv, 1, 1));
    const v128_t fx = wasm_f64x2_mul(u, columns), fy = wasm_f64x2_mul(v, rows);
    // The cell: in [0, columns] before the min, below 2^31 (the caller checks), so the
    // signed conversions give the scalar loop's unsigned ones.
    const v128_t i = wasm_u32x4_min(wasm_i32x4_trunc_sat_f64x2_zero(fx), last_column);
    const v128_t k = wasm_u32x4_min(wasm_i32x4_trunc_sat_f64x2_zero(fy), last_row);
    const v128_t s = wasm_f64x2_sub(fx, wasm_f64x2_convert_low_i32x4(i));
    const v128_t t = wasm_f64x2_sub(fy, wasm_f64x2_convert_low_i32x4(k));
    const v128_t at = wasm_i32x4_add(wasm_i32x4_mul(k, stride), i);
    const float* a = f.points + static_cast<std::size_t>(wasm_i32x4_extract_lane(at, 0)) * 2;
    const float* b = f.points + static_cast<std::size_t>(wasm_i32x4_extract_lane(at, 1)) * 2;
    // Each point's cell: its lower row's two corners, then its upper row's (x, y, x, y).
    const v128_t a0 = wasm_v128_load(a), a1 = wasm_v128_load(a + row);
    const v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + row);
    const v128_t in_lower = wasm_f64x2_le(wasm_f64x2_add(s, t), one);
    const RowCorners row0 = row_corners(a0, b0), row1 = row_corners(a1, b1);  // the cell's rows k and k + 1
    const F64x2 ws = F64x2(s), wt = F64x2(t);
    const v128_t rx = blend<kBlend>(row0.left_x, row0.right_x, row1.left_x, row1.right_x, ws, wt, in_lower);
    const v128_t ry = blend<kBlend>(row0.left_y, row0.right_y, row1.left_y, row1.right_y, ws, wt, in_lower);
    const v128_t x = wasm_f32x4_demote_f64x2_zero(rx), y = wasm_f32x4_demote_f64x2_zero(ry);
    wasm_v128_store(xy + j, wasm_i32x4_shuffle(x, y, 0, 4, 1, 5));
  }
  return j;
}

}  // namespace

std::size_t map_warp_points_simd128(const Frame& f, float* xy, std::size_t n) {
  // Point numbers travel in 32-bit lanes: lattices too large for them stay scalar.
  if (static_cast<std::uint64_t>(f.columns + 1ull) * (f.rows + 1ull) >= (1ull << 30)) return 0;
  return f.bilinear ? loop<Blend::Bilinear>(f, xy, n) : loop<Blend::Split>(f, xy, n);
}

#else

std::size_t map_warp_points_simd128(const Frame&, float*, std::size_t) { return 0; }

#endif

}  // namespace p2l::eval
