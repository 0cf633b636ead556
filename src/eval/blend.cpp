#include "eval/blend.hpp"

namespace p2l::eval {
namespace {

// Up to four rows per pass: the output is read and written once for four rows, and each
// element's sum still runs in row order. Without a start the sum begins at 0.0f, as the
// separate passes did (which turns a first product of -0 into +0: the same bits).
template <int kRows, bool kStart>
void pass(const float* start, const float* const* rows, const float* weights, float* out, std::size_t n) {
  const float* r[kRows];
  float w[kRows];
  for (int j = 0; j < kRows; ++j) {
    r[j] = rows[j];
    w[j] = weights[j];
  }
  for (std::size_t k = 0; k < n; ++k) {
    float v = kStart ? start[k] : 0.0f;
    for (int j = 0; j < kRows; ++j) v += r[j][k] * w[j];
    out[k] = v;
  }
}

template <bool kStart>
void pass_of(std::size_t rows_here, const float* start, const float* const* rows, const float* weights, float* out,
             std::size_t n) {
  switch (rows_here) {
    case 1: pass<1, kStart>(start, rows, weights, out, n); break;
    case 2: pass<2, kStart>(start, rows, weights, out, n); break;
    case 3: pass<3, kStart>(start, rows, weights, out, n); break;
    default: pass<4, kStart>(start, rows, weights, out, n); break;
  }
}

}  // namespace

void blend_rows(const float* start, const float* const* rows, const float* weights, std::size_t count, float* out,
                std::size_t n) {
  if (count == 0) {
    for (std::size_t k = 0; k < n; ++k) out[k] = start ? start[k] : 0.0f;
    return;
  }
  for (std::size_t first = 0; first < count; first += 4) {
    const std::size_t here = count - first < 4 ? count - first : 4;
    if (first > 0)
      pass_of<true>(here, out, rows + first, weights + first, out, n);
    else if (start)
      pass_of<true>(here, start, rows, weights, out, n);
    else
      pass_of<false>(here, nullptr, rows, weights, out, n);
  }
}

}  // namespace p2l::eval
