// The module's SIMD warp mapping (src/eval/frames_simd128.cpp) against the scalar loop it
// stands in for, inside WebAssembly: the same bits, point by point, on random lattices and
// points drawn to reach every branch (either triangle or bilinear, the cell edges, the ring,
// the affine frame beyond it, NaN and infinities), in runs of every length. Built into a
// module of its own (p2l_warp_test.wasm, at the flags frames.cpp has in p2l.wasm) and run by
// web/test/warp_simd.mjs. tests/eval_simd_test.cpp does the same for the native AVX2 path.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "eval/frames.hpp"
#include "eval/frames_simd.hpp"
#include "splitmix.hpp"

namespace {

float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(splitmix_next() >> 8) / 16777216.0f; }

// Mostly inside the unit square, as mesh vertices are; the rest on its lines, in the ring,
// beyond it, or not numbers at all.
float coordinate(std::uint32_t cells) {
  switch (splitmix_next() % 20) {
    case 0: return static_cast<float>(splitmix_next() % (cells + 1)) / static_cast<float>(cells);
    case 1: return uniform(-2.5f, 3.5f);
    case 2: return uniform(-100.0f, 100.0f);
    case 3: return std::nextafter(1.0f, 2.0f);
    case 4: return -0.0f;
    case 5: return std::numeric_limits<float>::quiet_NaN();
    case 6: return std::numeric_limits<float>::infinity();
    default: return uniform(0.0f, 1.0f);
  }
}

}  // namespace

// Maps [rounds] random runs both ways; returns how many coordinates differ (0: none), or -1
// when the SIMD path mapped nothing at all (a build without it).
extern "C" __attribute__((export_name("run"))) int run(std::uint32_t seed, std::uint32_t rounds) {
  splitmix_state = seed;
  using p2l::eval::Frame;
  int differing = 0;
  std::size_t vector_floats = 0;
  // Fixed arrays: std::vector would bring libc++'s error reporting and its WASI imports.
  float lattice[10 * 10 * 2], simd[80], scalar[80];
  for (std::uint32_t round = 0; round < rounds; ++round) {
    Frame f;
    f.columns = 1 + splitmix_next() % 9;
    f.rows = 1 + splitmix_next() % 9;
    f.bilinear = splitmix_next() % 2;
    float* point = lattice;
    for (std::uint32_t r = 0; r <= f.rows; ++r)
      for (std::uint32_t c = 0; c <= f.columns; ++c) {
        *point++ = 100.0f * static_cast<float>(c) + uniform(-40.0f, 40.0f);
        *point++ = -70.0f * static_cast<float>(r) + uniform(-40.0f, 40.0f);
      }
    f.points = lattice;
    p2l::eval::finish_warp(f);
    const std::size_t n = 2 * (splitmix_next() % 40);  // 0 to 39 points: every remainder of a pair
    for (std::size_t j = 0; j < n; j += 2) {
      simd[j] = coordinate(f.columns);
      simd[j + 1] = coordinate(f.rows);
    }
    std::memcpy(scalar, simd, n * sizeof(float));
    const std::size_t done = p2l::eval::map_warp_points_simd128(f, simd, n);
    vector_floats += done;
    p2l::eval::map_warp_points_scalar(f, simd + done, n - done);
    p2l::eval::map_warp_points_scalar(f, scalar, n);
    for (std::size_t j = 0; j < n; ++j) differing += std::memcmp(&simd[j], &scalar[j], sizeof(float)) != 0;
  }
  return vector_floats ? differing : -1;
}
