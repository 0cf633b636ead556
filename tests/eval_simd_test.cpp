// The vector paths against the scalar code they stand in for: the same bits, point by point,
// on lattices and points drawn to reach every branch (inside either triangle or bilinear,
// the cell edges, the ring, the affine frame beyond it, NaN and infinities).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "eval/cubism_frames.hpp"
#include "eval/frames.hpp"
#include "eval/frames_simd.hpp"

namespace {

using p2l::eval::Frame;

struct Lattice {
  std::vector<float> points;
  Frame frame;
};

Lattice random_lattice(std::mt19937& rng, bool bilinear) {
  std::uniform_int_distribution<std::uint32_t> cells(1, 9);
  std::uniform_real_distribution<float> jitter(-40.0f, 40.0f);
  Lattice l;
  l.frame.columns = cells(rng);
  l.frame.rows = cells(rng);
  l.frame.bilinear = bilinear;
  for (std::uint32_t r = 0; r <= l.frame.rows; ++r)
    for (std::uint32_t c = 0; c <= l.frame.columns; ++c) {
      l.points.push_back(100.0f * static_cast<float>(c) + jitter(rng));
      l.points.push_back(-70.0f * static_cast<float>(r) + jitter(rng));
    }
  l.frame.points = l.points.data();
  p2l::eval::finish_warp(l.frame);
  return l;
}

// Mostly inside the unit square, as mesh vertices are; the rest on its lines, in the ring,
// beyond it, or not numbers at all.
float random_coordinate(std::mt19937& rng, std::uint32_t cells) {
  std::uniform_int_distribution<int> kind(0, 19);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  switch (kind(rng)) {
    case 0: return static_cast<float>(std::uniform_int_distribution<std::uint32_t>(0, cells)(rng)) / static_cast<float>(cells);
    case 1: return std::uniform_real_distribution<float>(-2.5f, 3.5f)(rng);
    case 2: return std::uniform_real_distribution<float>(-100.0f, 100.0f)(rng);
    case 3: return std::nextafter(1.0f, 2.0f);
    case 4: return -0.0f;
    case 5: return std::numeric_limits<float>::quiet_NaN();
    case 6: return std::numeric_limits<float>::infinity();
    default: return unit(rng);
  }
}

TEST(EvalSimd, TheAvx2WarpMatchesTheScalarWarpBitForBit) {
  if (!p2l::eval::warp_avx2_available()) GTEST_SKIP() << "this processor (or build) has no AVX2 path";
  std::mt19937 rng(20261130);
  std::size_t vector_points = 0, compared = 0;
  for (int round = 0; round < 400; ++round) {
    const Lattice l = random_lattice(rng, round % 3 == 0);
    const std::size_t count = std::uniform_int_distribution<std::size_t>(0, 41)(rng);
    std::vector<float> given;
    for (std::size_t i = 0; i < count; ++i) {
      if (i % 5 == 0) {
        // On a cell's diagonal (s + t = 1 exactly where the cell counts are powers of two),
        // where the two triangles meet and round differently.
        const float q = static_cast<float>(std::uniform_int_distribution<int>(0, 4)(rng)) / 4.0f;
        given.push_back((static_cast<float>(std::uniform_int_distribution<std::uint32_t>(0, l.frame.columns - 1)(rng)) + q) /
                        static_cast<float>(l.frame.columns));
        given.push_back((static_cast<float>(std::uniform_int_distribution<std::uint32_t>(0, l.frame.rows - 1)(rng)) + 1.0f - q) /
                        static_cast<float>(l.frame.rows));
        continue;
      }
      given.push_back(random_coordinate(rng, l.frame.columns));
      given.push_back(random_coordinate(rng, l.frame.rows));
    }
    std::vector<float> want = given, got = given;
    p2l::eval::map_warp_points_scalar(l.frame, want.data(), want.size());
    const std::size_t done = p2l::eval::map_warp_points_avx2(l.frame, got.data(), got.size());
    ASSERT_EQ(done, got.size() / 8 * 8);
    p2l::eval::map_warp_points_scalar(l.frame, got.data() + done, got.size() - done);
    vector_points += done / 2;
    for (std::size_t i = 0; i < given.size(); ++i) {
      // Bits, so that -0 against 0 or one NaN against another counts as a difference.
      std::uint32_t a, b;
      std::memcpy(&a, &want[i], 4);
      std::memcpy(&b, &got[i], 4);
      ASSERT_EQ(a, b) << "round " << round << ", coordinate " << i << " of " << given.size() << " (point "
                      << given[i & ~std::size_t{1}] << ", " << given[i | 1] << ") on a " << l.frame.columns << "x"
                      << l.frame.rows << (l.frame.bilinear ? " bilinear" : " split") << " lattice: scalar " << want[i]
                      << ", AVX2 " << got[i];
      ++compared;
    }
  }
  EXPECT_GT(vector_points, 3000u);  // the vector loop did most of the work
  EXPECT_GT(compared, 10000u);
}

// The cell table (build_warp_cells) against the lattice it was built from: the scalar and
// AVX2 table loops, and the dispatched mapping with a table, all give the table-free bits.
TEST(EvalSimd, TheCellTableMapsAsTheLatticeDoes) {
  std::mt19937 rng(20261201);
  std::size_t compared = 0;
  for (int round = 0; round < 300; ++round) {
    const Lattice l = random_lattice(rng, false);
    std::vector<double> table(std::size_t{l.frame.columns} * l.frame.rows * p2l::eval::kWarpCellDoubles);
    Frame with_table = l.frame;
    p2l::eval::build_warp_cells(with_table, table.data());
    ASSERT_EQ(with_table.cells, table.data());
    std::vector<float> given;
    for (std::size_t i = 0; i < 40; ++i) {
      given.push_back(random_coordinate(rng, l.frame.columns));
      given.push_back(random_coordinate(rng, l.frame.rows));
    }
    std::vector<float> want = given, scalar = given, dispatched = given, wide = given;
    p2l::eval::map_warp_points_scalar(l.frame, want.data(), want.size());
    p2l::eval::map_warp_points_scalar(with_table, scalar.data(), scalar.size());
    p2l::eval::map_points(with_table, dispatched.data(), dispatched.size());
    std::size_t done = 0;
    if (p2l::eval::warp_avx2_available()) done = p2l::eval::map_warp_points_avx2(with_table, wide.data(), wide.size());
    p2l::eval::map_warp_points_scalar(with_table, wide.data() + done, wide.size() - done);
    for (std::size_t i = 0; i < given.size(); ++i) {
      std::uint32_t a, b, c, d;
      std::memcpy(&a, &want[i], 4);
      std::memcpy(&b, &scalar[i], 4);
      std::memcpy(&c, &dispatched[i], 4);
      std::memcpy(&d, &wide[i], 4);
      ASSERT_EQ(a, b) << "scalar table, round " << round << ", coordinate " << i << " (point " << given[i & ~std::size_t{1}]
                      << ", " << given[i | 1] << ")";
      ASSERT_EQ(a, c) << "dispatched, round " << round << ", coordinate " << i;
      ASSERT_EQ(a, d) << "AVX2 table, round " << round << ", coordinate " << i << " (point " << given[i & ~std::size_t{1}]
                      << ", " << given[i | 1] << ")";
      ++compared;
    }
  }
  EXPECT_EQ(compared, 300u * 80u);
}

TEST(EvalSimd, TheDispatchedWarpIsTheScalarWarp) {
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    const Lattice l = random_lattice(rng, round % 2 == 0);
    std::vector<float> want(2 * 37);
    for (float& v : want) v = random_coordinate(rng, 4);
    std::vector<float> got = want;
    p2l::eval::map_warp_points_scalar(l.frame, want.data(), want.size());
    p2l::eval::map_points(l.frame, got.data(), got.size());
    ASSERT_EQ(0, std::memcmp(want.data(), got.data(), want.size() * sizeof(float))) << "round " << round;
  }
}

}  // namespace

// Under Cubism's rules: cubism_map_points (eight points at a time with AVX2, four through the
// vector extension) against cubism_map_warp point by point, on the same lattices and points.
TEST(EvalSimd, TheCubismWarpOfFourPointsIsTheCubismWarpOfEach) {
  std::mt19937 rng(20261202);
  std::size_t compared = 0;
  for (int round = 0; round < 400; ++round) {
    const Lattice l = random_lattice(rng, round % 3 == 0);
    p2l::eval::CubismFrame f;
    f.columns = l.frame.columns;
    f.rows = l.frame.rows;
    f.bilinear = l.frame.bilinear;
    f.points = l.points.data();
    p2l::eval::cubism_finish_warp(f);
    const std::size_t count = std::uniform_int_distribution<std::size_t>(0, 83)(rng);
    std::vector<float> given;
    for (std::size_t i = 0; i < count; ++i) {
      // Mostly inside, so that most groups of four take the vector path; every other round all
      // inside, so that groups of eight take the AVX2 path (where the processor has it).
      const bool inside = round % 2 == 0 || i % 4 != 3;
      given.push_back(inside ? std::uniform_real_distribution<float>(0.0f, 1.0f)(rng) : random_coordinate(rng, f.columns));
      given.push_back(inside ? std::uniform_real_distribution<float>(0.0f, 1.0f)(rng) : random_coordinate(rng, f.rows));
      if (i % 5 == 0) given[given.size() - 1] = 1.0f - given[given.size() - 2];  // on a diagonal
    }
    std::vector<float> want = given, got = given;
    for (std::size_t j = 0; j + 1 < want.size(); j += 2) p2l::eval::cubism_map_warp(f, want[j], want[j + 1], want[j], want[j + 1]);
    p2l::eval::cubism_map_points(f, got.data(), got.size());
    for (std::size_t i = 0; i < given.size(); ++i) {
      std::uint32_t a, b;
      std::memcpy(&a, &want[i], 4);
      std::memcpy(&b, &got[i], 4);
      ASSERT_EQ(a, b) << "round " << round << ", coordinate " << i << " (point " << given[i & ~std::size_t{1}] << ", "
                      << given[i | 1] << ") on a " << f.columns << "x" << f.rows << (f.bilinear ? " bilinear" : " split")
                      << " lattice: one by one " << want[i] << ", four at a time " << got[i];
      ++compared;
    }
  }
  EXPECT_GT(compared, 10000u);
}
