#include "eval/blend.hpp"

#include <cstring>

// On x86-64 Linux the blend is built twice, for the baseline (SSE2, four lanes) and for AVX2
// (eight lanes), and the loader picks one for the processor (GCC's and Clang's
// target_clones). Multiplications and additions stay separate instructions either way
// (-ffp-contract=off), so both give the same bits.
#if defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__))
#define P2L_BLEND_CLONES [[gnu::target_clones("avx2", "default")]]
#else
#define P2L_BLEND_CLONES
#endif

namespace p2l::eval {
namespace {

// Eight or four floats as one value (GCC's and Clang's vector extension): eight fill an AVX
// register, or two SSE ones; in WebAssembly, whose vectors hold four, four are enough and the
// code is smaller. Written out rather than left to the vectoriser, which checks at run time
// that the output overlaps no row and keeps a scalar copy of the loop for when it does: the
// rows never overlap the output (keyforms belong to the model, the output to the instance),
// and for the short outputs of most meshes those checks cost about as much as the sum.
using Floats8 = float __attribute__((vector_size(32)));
using Floats4 = float __attribute__((vector_size(16)));
#if defined(__wasm__)
using Widest = Floats4;
#else
using Widest = Floats8;
#endif

// out[k..k + lanes) = from[k..] + rows[j][k..]·weights[j], j in order: the scalar sum, lane by lane.
template <class V, int kRows>
[[gnu::always_inline]] inline void step(const float* from, const float* const* r, const float* w, float* out,
                                        std::size_t k) {
  V v;
  std::memcpy(&v, from + k, sizeof v);
  for (int j = 0; j < kRows; ++j) {
    V row;
    std::memcpy(&row, r[j] + k, sizeof row);
    v += row * w[j];
  }
  std::memcpy(out + k, &v, sizeof v);
}

// Up to four rows per pass: the output is read and written once for four rows, and each
// element's sum still runs in row order. In place the sum starts from the output itself.
// Inlined by force, so that each clone of blend_rows gets its own copy for its instruction set.
template <int kRows, bool kInPlace>
[[gnu::always_inline]] inline void pass(const float* start, const float* const* rows, const float* weights, float* out,
                                        std::size_t n) {
  const float* r[kRows];
  float w[kRows];
  for (int j = 0; j < kRows; ++j) {
    r[j] = rows[j];
    w[j] = weights[j];
  }
  const float* from = kInPlace ? out : start;
  constexpr std::size_t kLanes = sizeof(Widest) / sizeof(float);
  std::size_t k = 0;
  for (; k + kLanes <= n; k += kLanes) step<Widest, kRows>(from, r, w, out, k);
  if constexpr (kLanes > 4) {
    if (k + 4 <= n) {
      step<Floats4, kRows>(from, r, w, out, k);
      k += 4;
    }
  }
  // The last three at most: no vector copy of this loop (clang would add one).
#if defined(__clang__)
#pragma clang loop vectorize(disable) unroll(disable)
#endif
  for (; k < n; ++k) {
    float v = from[k];
    for (int j = 0; j < kRows; ++j) v += r[j][k] * w[j];
    out[k] = v;
  }
}

template <bool kInPlace>
[[gnu::always_inline]] inline void pass_of(std::size_t rows_here, const float* start, const float* const* rows,
                                           const float* weights, float* out, std::size_t n) {
  switch (rows_here) {
    case 1: pass<1, kInPlace>(start, rows, weights, out, n); break;
    case 2: pass<2, kInPlace>(start, rows, weights, out, n); break;
    default: pass<4, kInPlace>(start, rows, weights, out, n); break;
  }
}

}  // namespace

P2L_BLEND_CLONES void blend_rows(const float* start, const float* const* rows, const float* weights, std::size_t count,
                                 float* out, std::size_t n) {
  // Without a start the sum begins at +0 (written first: a sum that starts from the float
  // +0 is the same bits whether the 0 is a constant or read back, -0 products included).
  if (!start || count == 0) {
    for (std::size_t k = 0; k < n; ++k) out[k] = start ? start[k] : 0.0f;
    start = out;
  }
  // Four rows a pass, then two, then one: three rows take two passes (the same instruction
  // count on Haru as a pass for three, which cost the WebAssembly module 640 bytes).
  for (std::size_t first = 0, here = 0; first < count; first += here) {
    here = count - first >= 4 ? 4 : count - first >= 2 ? 2 : 1;
    if (first == 0 && start != out)
      pass_of<false>(here, start, rows, weights, out, n);
    else
      pass_of<true>(here, nullptr, rows + first, weights + first, out, n);
  }
}

}  // namespace p2l::eval
