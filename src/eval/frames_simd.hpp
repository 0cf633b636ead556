// The warp mapping's vector path and the scalar one it must match bit for bit (frames.cpp
// dispatches between them; tests/eval_simd_test.cpp holds them to each other).
#pragma once

#include <cstddef>

#include "eval/state.hpp"

namespace p2l::eval {

// The portable loop: every point of xy[0..n) (x, y interleaved).
void map_warp_points_scalar(const Frame& frame, float* xy, std::size_t n);
// One point outside the unit square (the ring or the affine frame), in place.
void map_warp_outside(const Frame& frame, float* xy);

// True when this build has the AVX2 path and the processor runs it.
bool warp_avx2_available();
// Maps the leading points of xy[0..n) four at a time and returns how many floats it did (a
// multiple of 8); the caller maps the rest. Only call when warp_avx2_available().
std::size_t map_warp_points_avx2(const Frame& frame, float* xy, std::size_t n);

// The same two points at a time with WebAssembly SIMD (frames_simd128.cpp); returns 0 in
// builds without it.
std::size_t map_warp_points_simd128(const Frame& frame, float* xy, std::size_t n);

}  // namespace p2l::eval
