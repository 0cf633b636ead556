// A lattice cell's corners blended at (s, t) in the cell: the formulas the warp loops share
// (frames.cpp's scalar loop, frames_simd128.cpp; frames_avx2.cpp writes the same in AVX2
// intrinsics, and tests/eval_simd_test.cpp holds it to these). V holds corner values (a
// point's x and y, or one coordinate of several points) and W the weights (a number, or one
// per lane), both as GCC's and Clang's vector extension allows. Evaluated left to right as
// written: every path gives the same bits.
#pragma once

namespace p2l::eval {

template <class V, class W>
[[gnu::always_inline]] inline V cell_bilinear(V q00, V q10, V q01, V q11, W s, W t) {
  return (1.0 - s) * (1.0 - t) * q00 + s * (1.0 - t) * q10 + (1.0 - s) * t * q01 + s * t * q11;
}

// The split cell's triangle below the (1,0)-(0,1) diagonal (s + t <= 1), from q00.
template <class V, class W>
[[gnu::always_inline]] inline V cell_lower(V q00, V q10, V q01, W s, W t) {
  return q00 + s * (q10 - q00) + t * (q01 - q00);
}

// The one above it, from q11.
template <class V, class W>
[[gnu::always_inline]] inline V cell_upper(V q10, V q01, V q11, W s, W t) {
  return q11 + (1.0 - s) * (q01 - q11) + (1.0 - t) * (q10 - q11);
}

}  // namespace p2l::eval
