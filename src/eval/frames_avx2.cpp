// The warp mapping, four points at a time with AVX2 (x86-64 processors from 2013 on,
// chosen at run time). Each lane does what the scalar loop in frames.cpp does for one
// point: the same double-precision operations in the same order, and the same choice of
// triangle, so the two agree bit for bit (tests/eval_simd_test.cpp). Points outside the
// unit square (a few percent) go to the scalar ring code one by one.
#include "eval/frames_simd.hpp"

#include "eval/frames.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define P2L_WARP_AVX2 1
#include <immintrin.h>
#endif

#include <cstdint>

namespace p2l::eval {

#if P2L_WARP_AVX2

bool warp_avx2_available() { return __builtin_cpu_supports("avx2"); }

namespace {

#define P2L_AVX2 gnu::target("avx2"), gnu::always_inline

// Four (x, y) float pairs -> four x and four y in double.
[[P2L_AVX2]] inline void split(__m256 pairs, __m256i deinterleave, __m256d& x, __m256d& y) {
  const __m256 q = _mm256_permutevar8x32_ps(pairs, deinterleave);
  x = _mm256_cvtps_pd(_mm256_castps256_ps128(q));
  y = _mm256_cvtps_pd(_mm256_extractf128_ps(q, 1));
}

// The four points' corners at the given lattice point numbers, plus [offset] floats: four
// (x, y) pairs. Plain loads: on the processors measured they beat AVX2's gather.
[[P2L_AVX2]] inline __m256 corners(const float* points, const std::int32_t* at, std::size_t offset) {
  auto pair = [&](int lane) {
    return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(points + static_cast<std::size_t>(at[lane]) * 2 + offset));
  };
  const __m128i low = _mm_unpacklo_epi64(pair(0), pair(1)), high = _mm_unpacklo_epi64(pair(2), pair(3));
  return _mm256_castsi256_ps(_mm256_set_m128i(high, low));
}

// One coordinate of the cell's corners, blended as frames.cpp's inside loop does.
template <bool kBilinear>
[[P2L_AVX2]] inline __m256d blend(__m256d q00, __m256d q10, __m256d q01, __m256d q11, __m256d s, __m256d t) {
  const __m256d one = _mm256_set1_pd(1.0);
  const __m256d one_s = _mm256_sub_pd(one, s), one_t = _mm256_sub_pd(one, t);
  if constexpr (kBilinear) {
    __m256d r = _mm256_mul_pd(_mm256_mul_pd(one_s, one_t), q00);
    r = _mm256_add_pd(r, _mm256_mul_pd(_mm256_mul_pd(s, one_t), q10));
    r = _mm256_add_pd(r, _mm256_mul_pd(_mm256_mul_pd(one_s, t), q01));
    return _mm256_add_pd(r, _mm256_mul_pd(_mm256_mul_pd(s, t), q11));
  } else {
    const __m256d lower = _mm256_add_pd(_mm256_add_pd(q00, _mm256_mul_pd(s, _mm256_sub_pd(q10, q00))),
                                        _mm256_mul_pd(t, _mm256_sub_pd(q01, q00)));
    const __m256d upper = _mm256_add_pd(_mm256_add_pd(q11, _mm256_mul_pd(one_s, _mm256_sub_pd(q01, q11))),
                                        _mm256_mul_pd(one_t, _mm256_sub_pd(q10, q11)));
    const __m256d in_lower = _mm256_cmp_pd(_mm256_add_pd(s, t), one, _CMP_LE_OQ);
    return _mm256_blendv_pd(upper, lower, in_lower);
  }
}

// Four (x, y) double pairs, lanes 0 to 3, as four x and four y.
[[P2L_AVX2]] inline void transpose(const double* p0, const double* p1, const double* p2, const double* p3, __m256d& x,
                                   __m256d& y) {
  const __m256d a = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(p0)), _mm_load_pd(p2), 1);  // x0 y0 x2 y2
  const __m256d b = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(p1)), _mm_load_pd(p3), 1);  // x1 y1 x3 y3
  x = _mm256_unpacklo_pd(a, b);
  y = _mm256_unpackhi_pd(a, b);
}

enum class Blend { Bilinear, Split, SplitTable };

// With a cell table (build_warp_cells) each lane picks its triangle's corner and edges and
// adds corner + a·edge1 + b·edge2, (a, b) = (s, t) or (1 − s, 1 − t): frames.cpp's table
// loop lane by lane. Without one, the corners are read from the lattice and blended.
template <Blend kBlend>
[[gnu::target("avx2")]] std::size_t loop(const Frame& f, float* xy, std::size_t n) {
  const __m256i deinterleave = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
  const __m256d columns = _mm256_set1_pd(f.columns), rows = _mm256_set1_pd(f.rows);
  const __m128i last_column = _mm_set1_epi32(static_cast<int>(f.columns - 1));
  const __m128i last_row = _mm_set1_epi32(static_cast<int>(f.rows - 1));
  const __m128i stride = _mm_set1_epi32(static_cast<int>(f.columns + 1));  // points per lattice row
  const __m256d upper_half = _mm256_set1_pd(static_cast<double>(kWarpCellDoubles / 2));
  const __m256d cell_doubles = _mm256_set1_pd(static_cast<double>(kWarpCellDoubles));
  std::size_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const __m256 given = _mm256_loadu_ps(xy + j);
    __m256d u, v;
    split(given, deinterleave, u, v);
    const __m256d inside = _mm256_and_pd(
        _mm256_and_pd(_mm256_cmp_pd(u, zero, _CMP_GE_OQ), _mm256_cmp_pd(u, one, _CMP_LE_OQ)),
        _mm256_and_pd(_mm256_cmp_pd(v, zero, _CMP_GE_OQ), _mm256_cmp_pd(v, one, _CMP_LE_OQ)));
    const int outside = _mm256_movemask_pd(inside) ^ 0xF;
    if (outside) {
      // Points outside take the scalar path after the group; meanwhile they are pulled into
      // the square (NaN to 0) so their lanes read inside the lattice.
      u = _mm256_min_pd(_mm256_max_pd(u, zero), one);
      v = _mm256_min_pd(_mm256_max_pd(v, zero), one);
    }
    const __m256d fx = _mm256_mul_pd(u, columns), fy = _mm256_mul_pd(v, rows);
    const __m128i i = _mm_min_epu32(_mm256_cvttpd_epi32(fx), last_column);
    const __m128i k = _mm_min_epu32(_mm256_cvttpd_epi32(fy), last_row);
    const __m256d id = _mm256_cvtepi32_pd(i), kd = _mm256_cvtepi32_pd(k);
    const __m256d s = _mm256_sub_pd(fx, id), t = _mm256_sub_pd(fy, kd);
    __m256d rx, ry;
    if constexpr (kBlend == Blend::SplitTable) {
      const __m256d upper = _mm256_cmp_pd(_mm256_add_pd(s, t), one, _CMP_NLE_UQ);
      const __m256d a = _mm256_blendv_pd(s, _mm256_sub_pd(one, s), upper);
      const __m256d b = _mm256_blendv_pd(t, _mm256_sub_pd(one, t), upper);
      // Where each lane's triangle starts, in doubles: exact in double, and below 2^31 (the
      // caller checks the table's size), so converted once.
      const __m256d at = _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(kd, columns), id), cell_doubles),
                                       _mm256_and_pd(upper, upper_half));
      const __m128i start = _mm256_cvttpd_epi32(at);
      const double* c0 = f.cells + _mm_cvtsi128_si32(start);
      const double* c1 = f.cells + _mm_extract_epi32(start, 1);
      const double* c2 = f.cells + _mm_extract_epi32(start, 2);
      const double* c3 = f.cells + _mm_extract_epi32(start, 3);
      __m256d cx, cy, ex, ey, gx, gy;
      transpose(c0, c1, c2, c3, cx, cy);
      transpose(c0 + 2, c1 + 2, c2 + 2, c3 + 2, ex, ey);
      transpose(c0 + 4, c1 + 4, c2 + 4, c3 + 4, gx, gy);
      rx = _mm256_add_pd(_mm256_add_pd(cx, _mm256_mul_pd(a, ex)), _mm256_mul_pd(b, gx));
      ry = _mm256_add_pd(_mm256_add_pd(cy, _mm256_mul_pd(a, ey)), _mm256_mul_pd(b, gy));
    } else {
      const __m128i at00 = _mm_add_epi32(_mm_mullo_epi32(k, stride), i), at01 = _mm_add_epi32(at00, stride);
      alignas(16) std::int32_t at[8];
      _mm_store_si128(reinterpret_cast<__m128i*>(at), at00);
      _mm_store_si128(reinterpret_cast<__m128i*>(at + 4), at01);
      __m256d x00, y00, x10, y10, x01, y01, x11, y11;
      split(corners(f.points, at, 0), deinterleave, x00, y00);
      split(corners(f.points, at, 2), deinterleave, x10, y10);
      split(corners(f.points, at + 4, 0), deinterleave, x01, y01);
      split(corners(f.points, at + 4, 2), deinterleave, x11, y11);
      rx = blend<kBlend == Blend::Bilinear>(x00, x10, x01, x11, s, t);
      ry = blend<kBlend == Blend::Bilinear>(y00, y10, y01, y11, s, t);
    }
    const __m128 x = _mm256_cvtpd_ps(rx), y = _mm256_cvtpd_ps(ry);
    _mm_storeu_ps(xy + j, _mm_unpacklo_ps(x, y));
    _mm_storeu_ps(xy + j + 4, _mm_unpackhi_ps(x, y));
    if (outside) {
      alignas(32) float was[8];
      _mm256_store_ps(was, given);
      for (int lane = 0; lane < 4; ++lane) {
        if (!(outside >> lane & 1)) continue;
        float* point = xy + j + lane * 2;
        point[0] = was[lane * 2];
        point[1] = was[lane * 2 + 1];
        map_warp_outside(f, point);
      }
    }
  }
  return j;
}

#undef P2L_AVX2

}  // namespace

std::size_t map_warp_points_avx2(const Frame& f, float* xy, std::size_t n) {
  // Point numbers travel in 32-bit lanes: lattices too large for them stay scalar.
  if (static_cast<std::uint64_t>(f.columns + 1ull) * (f.rows + 1ull) >= (1ull << 30)) return 0;
  if (f.bilinear) return loop<Blend::Bilinear>(f, xy, n);
  // So do a cell table's starts, 12 doubles per cell.
  if (f.cells && static_cast<std::uint64_t>(f.columns) * f.rows * kWarpCellDoubles < (1ull << 31))
    return loop<Blend::SplitTable>(f, xy, n);
  return loop<Blend::Split>(f, xy, n);
}

#else

bool warp_avx2_available() { return false; }
std::size_t map_warp_points_avx2(const Frame&, float*, std::size_t) { return 0; }

#endif

}  // namespace p2l::eval
