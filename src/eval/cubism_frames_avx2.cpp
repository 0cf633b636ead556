// Cubism warps, eight points at a time with AVX2 (chosen at run time: the library is built for
// every x86-64). Each lane makes the float operations cubism_map_warp makes for one point, in
// its order (AVX2 without FMA: the same multiplications and additions, rounded the same), so
// the bits are the Core's (tests/eval_simd_test.cpp). A cell's two corners of a lattice row are
// four floats in a row: one 128-bit load a row and a point, then 4 x 4 transposes in each half.
// Points outside the unit square (a few percent) go one by one to cubism_map_warp.
#include "eval/cubism_frames.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define P2L_CUBISM_AVX2 1
#include <immintrin.h>
#endif

#include <cstdint>

namespace p2l::eval {

#if P2L_CUBISM_AVX2

bool cubism_avx2_available() { return __builtin_cpu_supports("avx2"); }

namespace {

#define P2L_AVX2 gnu::target("avx2"), gnu::always_inline

// Rows r0..r3 (low halves) and r4..r7 (high halves) of (a, b, c, d) into columns: lane k of a
// is row k's a.
[[P2L_AVX2]] inline void transpose(__m256 r04, __m256 r15, __m256 r26, __m256 r37, __m256& a, __m256& b, __m256& c, __m256& d) {
  const __m256 t0 = _mm256_unpacklo_ps(r04, r15), t1 = _mm256_unpacklo_ps(r26, r37);
  const __m256 t2 = _mm256_unpackhi_ps(r04, r15), t3 = _mm256_unpackhi_ps(r26, r37);
  a = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
  b = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
  c = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
  d = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

[[P2L_AVX2]] inline __m256 rows(const float* low, const float* high) {
  return _mm256_set_m128(_mm_loadu_ps(high), _mm_loadu_ps(low));
}

// cell_of for eight coordinates in [0, 1).
[[P2L_AVX2]] inline void cells_of(__m256 w, std::uint32_t n, __m256i& cell, __m256& frac) {
  const __m256 g = _mm256_mul_ps(w, _mm256_set1_ps(static_cast<float>(n)));
  cell = _mm256_min_epi32(_mm256_cvttps_epi32(g), _mm256_set1_epi32(static_cast<std::int32_t>(n - 1)));
  frac = _mm256_sub_ps(g, _mm256_cvtepi32_ps(cell));
}

// One coordinate of the cell's corners, bilinear: c00 * a * b + c10 * fu * b + c01 * a * fv +
// c11 * fu * fv, left to right (a = 1 - fu, b = 1 - fv).
[[P2L_AVX2]] inline __m256 bilinear(__m256 c00, __m256 c10, __m256 c01, __m256 c11, __m256 fu, __m256 fv, __m256 a, __m256 b) {
  __m256 r = _mm256_mul_ps(_mm256_mul_ps(c00, a), b);
  r = _mm256_add_ps(r, _mm256_mul_ps(_mm256_mul_ps(c10, fu), b));
  r = _mm256_add_ps(r, _mm256_mul_ps(_mm256_mul_ps(c01, a), fv));
  return _mm256_add_ps(r, _mm256_mul_ps(_mm256_mul_ps(c11, fu), fv));
}

// Split in two triangles: lower c00 * w0 + c10 * fu + c01 * fv, upper c11 * w1 + c01 * a + c10 * b.
[[P2L_AVX2]] inline __m256 split(__m256 c00, __m256 c10, __m256 c01, __m256 c11, __m256 fu, __m256 fv, __m256 a, __m256 b,
                                 __m256 w0, __m256 w1, __m256 lower) {
  const __m256 lo = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(c00, w0), _mm256_mul_ps(c10, fu)), _mm256_mul_ps(c01, fv));
  const __m256 hi = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(c11, w1), _mm256_mul_ps(c01, a)), _mm256_mul_ps(c10, b));
  return _mm256_blendv_ps(hi, lo, lower);
}

}  // namespace

[[gnu::target("avx2")]] std::size_t cubism_map_warp_avx2(const CubismFrame& f, const float* in, float* out, std::size_t n) {
  const std::int32_t stride = static_cast<std::int32_t>(f.columns + 1);
  const float* pts = f.points;
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  std::size_t j = 0;
  for (; j + 16 <= n; j += 16) {
    const __m256 a = _mm256_loadu_ps(in + j), b = _mm256_loadu_ps(in + j + 8);
    // (u0 u1 u4 u5 | u2 u3 u6 u7) put in order across the halves.
    const __m256 u = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(a, b, 0x88)), 0xD8));
    const __m256 v = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(a, b, 0xDD)), 0xD8));
    const __m256 square = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(u, zero, _CMP_GE_OQ), _mm256_cmp_ps(u, one, _CMP_LT_OQ)),
                                    _mm256_and_ps(_mm256_cmp_ps(v, zero, _CMP_GE_OQ), _mm256_cmp_ps(v, one, _CMP_LT_OQ)));
    // Points outside the square are mapped one by one after the group; their lanes compute the
    // cell at (0, 0) meanwhile, so that every load stays in the lattice.
    const int inside = _mm256_movemask_ps(square);
    alignas(32) float outside_u[8], outside_v[8];
    if (inside != 0xFF) {
      _mm256_store_ps(outside_u, u);
      _mm256_store_ps(outside_v, v);
    }
    __m256i cu, cv;
    __m256 fu, fv;
    cells_of(_mm256_and_ps(u, square), f.columns, cu, fu);
    cells_of(_mm256_and_ps(v, square), f.rows, cv, fv);
    alignas(32) std::int32_t at[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(at),
                       _mm256_slli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(cv, _mm256_set1_epi32(stride)), cu), 1));
    const std::ptrdiff_t below = stride * 2;
    __m256 x00, y00, x10, y10, x01, y01, x11, y11;
    transpose(rows(pts + at[0], pts + at[4]), rows(pts + at[1], pts + at[5]), rows(pts + at[2], pts + at[6]),
              rows(pts + at[3], pts + at[7]), x00, y00, x10, y10);
    transpose(rows(pts + at[0] + below, pts + at[4] + below), rows(pts + at[1] + below, pts + at[5] + below),
              rows(pts + at[2] + below, pts + at[6] + below), rows(pts + at[3] + below, pts + at[7] + below), x01, y01, x11,
              y11);
    __m256 x, y;
    const __m256 p = _mm256_sub_ps(one, fu), q = _mm256_sub_ps(one, fv);
    if (f.bilinear) {
      x = bilinear(x00, x10, x01, x11, fu, fv, p, q);
      y = bilinear(y00, y10, y01, y11, fu, fv, p, q);
    } else {
      const __m256 w0 = _mm256_sub_ps(_mm256_sub_ps(one, fu), fv), w1 = _mm256_sub_ps(fv, p);
      const __m256 lower = _mm256_cmp_ps(_mm256_add_ps(fu, fv), one, _CMP_LE_OQ);
      x = split(x00, x10, x01, x11, fu, fv, p, q, w0, w1, lower);
      y = split(y00, y10, y01, y11, fu, fv, p, q, w0, w1, lower);
    }
    const __m256 lo = _mm256_unpacklo_ps(x, y), hi = _mm256_unpackhi_ps(x, y);  // (x0 y0 x1 y1 | x4 y4 x5 y5), ...
    _mm256_storeu_ps(out + j, _mm256_permute2f128_ps(lo, hi, 0x20));
    _mm256_storeu_ps(out + j + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
    if (inside != 0xFF)
      for (int k = 0; k < 8; ++k)
        if (!(inside & (1 << k))) {
          float* point = out + j + 2 * static_cast<std::size_t>(k);
          cubism_map_warp(f, outside_u[k], outside_v[k], point[0], point[1]);
        }
  }
  return j;
}

#else

bool cubism_avx2_available() { return false; }
std::size_t cubism_map_warp_avx2(const CubismFrame&, const float*, float*, std::size_t) { return 0; }

#endif

}  // namespace p2l::eval
