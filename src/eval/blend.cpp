#include "eval/blend.hpp"

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

// Up to four rows per pass: the output is read and written once for four rows, and each
// element's sum still runs in row order. In place the sum starts from the output itself: a
// separate loop for it, as compilers vectorise a loop over distinct start and output (after
// checking they do not overlap) but fall back to scalar code when they are the same array.
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
  for (std::size_t k = 0; k < n; ++k) {
    float v = kInPlace ? out[k] : start[k];
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
