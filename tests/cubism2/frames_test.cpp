// Cubism 2's deformer frames (eval/cubism2_frames.cpp) on what a hostile file can make a point:
// not a number, or infinite. Found by the moc2 fuzzer (a NaN vertex converted to a lattice
// cell number, undefined behaviour): such a point maps outside the lattice, to a point that is
// not a number either, and no cell is looked up.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "eval/cubism2_frames.hpp"

namespace {

TEST(Cubism2Frames, PointsThatAreNotNumbersMapOutsideTheLattice) {
  const std::vector<float> lattice = {0, 0, 10, 0, 20, 0, 0, 10, 10, 10, 20, 10};  // 2 x 1 cells
  const p2l::eval::Cubism2Frame warp = p2l::eval::cubism2_warp(lattice.data(), 2, 1);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> in = {nan, 0.5f, 0.5f, nan, inf, 0.5f, -inf, -inf, 0.25f, 0.5f};
  std::vector<float> out(in.size());
  p2l::eval::cubism2_map_points(warp, in.data(), out.data(), in.size());
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_TRUE(std::isnan(out[3]));
  EXPECT_FALSE(std::isfinite(out[4]));
  // A point inside maps by its cell's triangle: (0.25, 0.5) is halfway up the first cell.
  EXPECT_FLOAT_EQ(out[8], 5.0f);
  EXPECT_FLOAT_EQ(out[9], 5.0f);
}

}  // namespace
