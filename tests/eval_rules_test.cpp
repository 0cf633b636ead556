// One test per evaluation rule of docs/RUNTIME.md, each on a rig small enough to work the
// expected values out by hand (the working is in the comments). Values marked "original"
// come from the original runtime's own rule tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "base/keyed_sort.hpp"
#include "eval/frames.hpp"
#include "rig_builder.hpp"

namespace {

using namespace p2l_test;
using p2l::ChannelType;

// --- parameters ---------------------------------------------------------------------

// Vertex 0's x follows the parameter one to one: keys at the ends, offsets equal to them.
p2l::Mesh follower(const std::string& id, std::uint32_t parameter, float min, float max) {
  p2l::Mesh m = mesh(id, -1, {0, 0, 0, 0, 0, 0});
  m.keyforms = keyed<p2l::Array<float>>(parameter, {min, max}, {p2l::Array<float>{min, 0, 0, 0, 0, 0}, p2l::Array<float>{max, 0, 0, 0, 0, 0}});
  return m;
}

TEST(EvalRules, ParametersClampAndRepeatingOnesWrapOnlyBeyondTheirRange) {
  auto in = instance_of(rig({param("C", -30, 30, 0, true), param("N", -30, 30, 5)}, {},
                            {follower("c", 0, -30, 30), follower("n", 1, -30, 30)}));
  struct Case {
    float c, n, want_c, want_n;
  } cases[] = {
      {30, 50, 30, 30},     // both ends of a repeating range keep their value; N clamps
      {-30, -50, -30, -30},
      {40, 0, -20, 0},      // 40 - (-30) = 70, 70 mod 60 = 10, -30 + 10 = -20
      {-40, 0, 20, 0},      // -40 + 30 = -10, mod 60 = 50, -30 + 50 = 20
      {95, 0, -25, 0},      // 125 mod 60 = 5
      {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), 0, 5},  // not finite: default
  };
  for (const Case& c : cases) {
    set(in, {c.c, c.n});
    EXPECT_NEAR(in.vertices(0)[0], c.want_c, 1e-4) << c.c;
    EXPECT_NEAR(in.vertices(1)[0], c.want_n, 1e-4) << c.n;
  }
  set(in, {40, 0});
  EXPECT_EQ(in.current()[0], 40.0f) << "the values used are reported as given, before wrapping";
}

// --- keyform grids --------------------------------------------------------------------

TEST(EvalRules, KeyformGridsBlendMultilinearly) {
  // Vertex 0 x offsets at the corners (A, B): (0,0) 0, (1,0) 10, (0,1) 20, (1,1) 40.
  p2l::Mesh m = mesh("m", -1, {0, 0, 0, 0, 0, 0});
  p2l::Grid<p2l::Array<float>> g;
  g.axes = {{0, {0, 1}}, {1, {0, 1}}};
  g.coords = {0, 0, 1, 0, 0, 1, 1, 1};
  g.forms = {p2l::Array<float>{0, 0, 0, 0, 0, 0}, p2l::Array<float>{10, 0, 0, 0, 0, 0}, p2l::Array<float>{20, 0, 0, 0, 0, 0},
             p2l::Array<float>{40, 0, 0, 0, 0, 0}};
  m.keyforms = g;
  auto in = instance_of(rig({param("A", 0, 1, 0), param("B", 0, 1, 0)}, {}, {m}));
  // A = 0.25, B = 0.5: 0.75*0.5*0 + 0.25*0.5*10 + 0.75*0.5*20 + 0.25*0.5*40 = 1.25 + 7.5 + 5 = 13.75.
  set(in, {0.25f, 0.5f});
  EXPECT_NEAR(in.vertices(0)[0], 13.75f, 1e-5);
}

TEST(EvalRules, KeyformsSnapToKeysWithinAThousandthAndBlendShapesDoNot) {
  // Original: at 0.9995 the keyform is exactly the one at key 1; the blend shape is not.
  p2l::Mesh m = mesh("m", -1, {0, 0, 0, 0, 0, 0});
  m.keyforms = keyed<p2l::Array<float>>(0, {0, 1}, {p2l::Array<float>(std::vector<float>(6, 0.0f)), p2l::Array<float>(std::vector<float>(6, 100.0f))});
  p2l::Binding<p2l::MeshShape> b;
  b.parameter = 1;
  b.keys = {0, 1};
  b.neutral = 0;
  p2l::MeshShape shape;
  shape.deltas = std::vector<float>(6, 0.0f);
  shape.draw_order = 500;
  shape.opacity = 0;
  shape.multiply = p2l::kWhite;
  b.shapes = {std::nullopt, shape};
  m.shapes = {b};
  auto in = instance_of(rig({param("A", 0, 1, 0), param("S", 0, 1, 0, false, true)}, {}, {m}));
  set(in, {0.9995f, 0.9995f});
  EXPECT_EQ(in.vertices(0)[0], 100.0f);
  EXPECT_NEAR(in.opacity(0), 0.0005f, 1e-5);  // 1 + (0 - 1) * 0.9995
  set(in, {0.9985f, 0});
  EXPECT_NEAR(in.vertices(0)[0], 99.85f, 1e-3) << "0.0015 from the key does not snap";
}

TEST(EvalRules, MissingCellsOfASparseGridCountAsZeroForms) {
  // Original: vertex i moves 1 px in x only in cell i; cell (1,1) is missing. At (0.5, 0.5)
  // each present cell weighs 0.25 and the missing one's quarter is not redistributed.
  p2l::Mesh m = mesh("m", -1, {1000, 2000, 1000, 2000, 1000, 2000, 1000, 2000});
  m.geometry->uvs = std::vector<float>(8, 0.0f);
  p2l::Grid<p2l::Array<float>> g;
  g.axes = {{0, {0, 1}}, {1, {0, 1}}};
  g.coords = {0, 0, 1, 0, 0, 1};
  for (int i = 0; i < 3; ++i) {
    std::vector<float> form(8, 0.0f);
    form[static_cast<std::size_t>(i) * 2] = 1;
    g.forms.push_back(form);
  }
  m.keyforms = g;
  auto in = instance_of(rig({param("A", 0, 1, 0), param("B", 0, 1, 0)}, {}, {m}));
  set(in, {0.5f, 0.5f});
  const std::vector<float> want{1000.25f, 2000, 1000.25f, 2000, 1000.25f, 2000, 1000, 2000};
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(in.vertices(0)[i], want[i], 1e-4) << i;
}

TEST(EvalRules, AnEmptyKeyformAddsNothingAndTheOthersStillBlend) {
  // A keyform may hold no floats (FORMAT.md: 0 or two per vertex): a zero offset. Between an
  // empty key and one moving x by 40, a quarter of the way, x moves 10; rest positions hold.
  p2l::Mesh m = mesh("m", -1, {100, 200, 300, 400, 500, 600});
  p2l::Grid<p2l::Array<float>> g = keyed(0, {0, 1, 2}, std::vector<p2l::Array<float>>{
      p2l::Array<float>{}, p2l::Array<float>{40, 0, 40, 0, 40, 0}, p2l::Array<float>{}});
  m.keyforms = g;
  auto in = instance_of(rig({param("A", 0, 2, 0)}, {}, {m}));
  set(in, {0.25f});
  const std::vector<float> want{110, 200, 310, 400, 510, 600};
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_FLOAT_EQ(in.vertices(0)[i], want[i]) << i;
  set(in, {1.5f});  // half of 40 from key 1, the empty key 2 adds nothing
  EXPECT_FLOAT_EQ(in.vertices(0)[0], 120);
  EXPECT_FLOAT_EQ(in.vertices(0)[1], 200);
}

TEST(EvalRules, ARingCellIsTheLastLineAtOrBelowThePoint) {
  // The reference: scan the ring's lines -2, 0, 1/n, ..., 1 (then 3) from the first, as the
  // format describes it. Every line itself, its two float neighbours and points between.
  for (std::uint32_t n = 1; n <= 9; ++n) {
    auto line = [n](std::uint32_t i) { return i == 0 ? -2.0 : i == n + 2 ? 3.0 : static_cast<double>(i - 1) / n; };
    auto scan = [&](double x) {
      std::uint32_t i = 0;
      while (i + 1 < n + 2 && line(i + 1) <= x) ++i;
      return i;
    };
    std::vector<double> xs{-2.5, -2.0, -1.0, -1e-300, 0.0, 0.999999, 1.0, 1.5, 2.999, 3.0, 7.0};
    for (std::uint32_t i = 0; i <= n + 2; ++i)
      for (double x : {line(i), std::nextafter(line(i), -10.0), std::nextafter(line(i), 10.0), line(i) + 0.5 / n})
        xs.push_back(x);
    for (double x : xs) EXPECT_EQ(p2l::eval::ring_cell(x, n), scan(x)) << "n " << n << " x " << x;
  }
}

TEST(EvalRules, AGridWithFarMoreKeyCombinationsThanCellsFindsEachCell) {
  // Three axes of five keys (125 combinations) and three cells: the plan keeps a sorted list
  // rather than a table. The cells are listed out of coordinate order, so a cell found by
  // its position in the file instead of its coordinates moves the wrong vertex.
  p2l::Mesh m = mesh("m", -1, {0, 0, 0, 0, 0, 0, 0, 0});
  m.geometry->uvs = std::vector<float>(8, 0.0f);
  p2l::Grid<p2l::Array<float>> g;
  g.axes = {{0, {0, 1, 2, 3, 4}}, {1, {0, 1, 2, 3, 4}}, {2, {0, 1, 2, 3, 4}}};
  g.coords = {4, 4, 4, 0, 0, 0, 1, 0, 0};
  for (int i = 0; i < 3; ++i) {
    std::vector<float> form(8, 0.0f);
    form[static_cast<std::size_t>(i) * 2] = 1;
    g.forms.push_back(form);
  }
  m.keyforms = g;
  auto in = instance_of(rig({param("A", 0, 4, 0), param("B", 0, 4, 0), param("C", 0, 4, 0)}, {}, {m}));
  set(in, {4, 4, 4});
  EXPECT_EQ(std::vector<float>(in.vertices(0).begin(), in.vertices(0).end()), (std::vector<float>{1, 0, 0, 0, 0, 0, 0, 0}));
  set(in, {0.25f, 0, 0});
  EXPECT_EQ(std::vector<float>(in.vertices(0).begin(), in.vertices(0).end()),
            (std::vector<float>{0, 0, 0.75f, 0, 0.25f, 0, 0, 0}));
  set(in, {2, 2, 2});
  EXPECT_EQ(std::vector<float>(in.vertices(0).begin(), in.vertices(0).end()), std::vector<float>(8, 0.0f))
      << "no cell at (2, 2, 2): nothing moves";
}

TEST(EvalRules, FlagChannelsTakeTheKeyAtOrBelowTheValue) {
  // A rotation at (100, 100) flipping x from key 0.5 of A; the mesh point (10, 0) lands at
  // x 110 unflipped, 90 flipped.
  p2l::Deformer r = rotation("R", -1, 0, single(p2l::Pivot{100, 100, 0, 1}));
  r.channels.push_back(scalar_channel(ChannelType::FlipX, 0, {0, 0.5f}, {0, 1}));
  r.channels.push_back(scalar_channel(ChannelType::FlipY, 1, {0, 1}, {0, 1}));
  auto in = instance_of(rig({param("A", 0, 1, 0), param("B", 0, 1, 0)}, {r}, {mesh("m", 0, {10, 0, 0, 10, 0, 0})}));
  const std::pair<float, float> cases[] = {{0.0f, 110}, {0.49f, 110}, {0.4995f, 90} /* snaps to 0.5 */, {0.5f, 90}, {0.75f, 90}, {1.0f, 90}};
  for (auto [a, x] : cases) {
    set(in, {a, 0});
    EXPECT_NEAR(in.vertices(0)[0], x, 1e-4) << "A = " << a;
  }
  set(in, {0, 0.99f});
  EXPECT_NEAR(in.vertices(0)[3], 110, 1e-4) << "B below its key 1: not flipped";
  set(in, {0, 1});
  EXPECT_NEAR(in.vertices(0)[3], 90, 1e-4) << "B at key 1: (0, 10) flips to (0, -10)";
}

// --- warps ----------------------------------------------------------------------------

// A 1x1 lattice with its (1,1) corner pulled out to (200, 200); the others at (0,0),
// (100,0), (0,100).
const std::vector<float> kPulled{0, 0, 100, 0, 0, 100, 200, 200};

std::vector<float> through_warp(const std::vector<float>& lattice, bool bilinear, std::vector<float> uv, std::uint32_t columns = 1,
                                std::uint32_t rows = 1) {
  while (uv.size() < 6) uv.push_back(0);
  auto in = instance_of(rig({}, {warp("W", -1, lattice, bilinear, columns, rows)}, {mesh("m", 0, uv)}));
  auto v = in.vertices(0);
  return {v.begin(), v.end()};
}

TEST(EvalRules, WarpCellsAreBilinearOrTwoTrianglesByTheFlag) {
  // (0.75, 0.75) bilinear: .75*.25*100 + .75*.75*200 = 18.75 + 112.5 = 131.25 on each axis.
  auto v = through_warp(kPulled, true, {0.75f, 0.75f, 0.25f, 0.25f});
  EXPECT_NEAR(v[0], 131.25f, 1e-4);
  EXPECT_NEAR(v[1], 131.25f, 1e-4);
  // (0.25, 0.25) bilinear: .25*.75*100 + .0625*200 = 31.25.
  EXPECT_NEAR(v[2], 31.25f, 1e-4);
  // Triangles split along (1,0)-(0,1). (0.75, 0.75) is in the far triangle:
  // q11 + .25*(q01 - q11) + .25*(q10 - q11) = (200 - 50 - 25, 200 - 25 - 50) = (125, 125).
  v = through_warp(kPulled, false, {0.75f, 0.75f, 0.25f, 0.25f});
  EXPECT_NEAR(v[0], 125, 1e-4);
  EXPECT_NEAR(v[1], 125, 1e-4);
  // (0.25, 0.25) in the near one: q00 + .25*q10 + .25*q01 = (25, 25).
  EXPECT_NEAR(v[2], 25, 1e-4);
  EXPECT_NEAR(v[3], 25, 1e-4);
}

TEST(EvalRules, WarpsExtendThroughARingOfVirtualCellsThenTheirAffineFrame) {
  // The mean frame of kPulled: centre (75, 75), ex = ((100-0) + (200-0))/2 = 150 in x and
  // (0 + 100)/2 = 50 in y, ey = (50, 150); A(u,v) = centre + (u-.5) ex + (v-.5) ey.
  // (-1, 0.5) is in the ring cell u in [-2, 0], v in [0, 1]: corners A(-2,0) = (-325,-125),
  // lattice (0,0) = (0,0), A(-2,1) = (-275, 25), lattice (0,1) = (0,100); s = t = 0.5,
  // s + t <= 1: (-325,-125) + .5*(325,125) + .5*(50,150) = (-137.5, 12.5).
  for (bool bilinear : {true, false}) {
    auto v = through_warp(kPulled, bilinear, {-1, 0.5f, 4, 0.5f});
    EXPECT_NEAR(v[0], -137.5f, 1e-3) << "the ring is triangles even for a bilinear warp";
    EXPECT_NEAR(v[1], 12.5f, 1e-3);
    // (4, 0.5) is beyond [-2, 3]: A(4, .5) = (75 + 3.5*150, 75 + 3.5*50) = (600, 250).
    EXPECT_NEAR(v[2], 600, 1e-3);
    EXPECT_NEAR(v[3], 250, 1e-3);
  }
  // Original: a lattice of an affine map maps affinely everywhere, inside, in the ring and beyond.
  auto f = [](float u, float v) { return std::pair<float, float>{10 + 100 * u + 10 * v, 20 + 50 * v}; };
  std::vector<float> points;
  for (int r = 0; r <= 1; ++r)
    for (int c = 0; c <= 2; ++c) {
      auto [x, y] = f(static_cast<float>(c) / 2, static_cast<float>(r));
      points.push_back(x);
      points.push_back(y);
    }
  for (bool bilinear : {true, false}) {
    auto v = through_warp(points, bilinear, {0.3f, 0.7f, -1, 0.5f, 2.5f, -1.5f}, 2, 1);
    const std::pair<float, float> uv[] = {{0.3f, 0.7f}, {-1, 0.5f}, {2.5f, -1.5f}};
    for (std::size_t i = 0; i < 3; ++i) {
      auto [x, y] = f(uv[i].first, uv[i].second);
      EXPECT_NEAR(v[i * 2], x, 1e-3);
      EXPECT_NEAR(v[i * 2 + 1], y, 1e-3);
    }
    v = through_warp(points, bilinear, {5, 4}, 2, 1);
    EXPECT_NEAR(v[0], f(5, 4).first, 1e-3);
    EXPECT_NEAR(v[1], f(5, 4).second, 1e-3);
  }
}

// --- rotations ------------------------------------------------------------------------

TEST(EvalRules, TheBaseAngleTurnsARotationOnTopOfItsKeyedAngle) {
  // Original: 45 + 20.
  auto in = instance_of(rig({}, {rotation("R", -1, 45, single(p2l::Pivot{100, 100, 20, 1}))}, {mesh("m", 0, kAxes)}));
  EXPECT_NEAR(axis_angle(frame_of(in)), 65, 1e-3);
}

TEST(EvalRules, ARotationUnderARotationComposesOriginAngleAndScale) {
  // P at (100, 100), 90°, scale 2; R at (10, 0) in P, 30°, scale 0.5. R's origin is P's
  // image of (10, 0): (100, 100 + 20) = (100, 120); its angle 90 + 30 = 120, scale 1. The
  // point (10, 0) in R goes to (100 + 10 cos 120°, 120 + 10 sin 120°) = (95, 128.660254).
  auto in = instance_of(rig({}, {rotation("P", -1, 0, single(p2l::Pivot{100, 100, 90, 2})), rotation("R", 0, 0, single(p2l::Pivot{10, 0, 30, 0.5f}))},
                            {mesh("m", 1, {10, 0, 0, 0, 0, 0})}));
  EXPECT_NEAR(in.vertices(0)[0], 95, 1e-3);
  EXPECT_NEAR(in.vertices(0)[1], 128.660254f, 1e-3);
  EXPECT_NEAR(in.vertices(0)[2], 100, 1e-3);
  EXPECT_NEAR(in.vertices(0)[3], 120, 1e-3);
}

TEST(EvalRules, AParentFlipPlacesTheChildAndAVerticalOneTurnsItHalfWay) {
  // Original: the parent at 30° flipped in x leaves the child's frame at 30°; flipped in y
  // it turns it by 180° to -150°.
  const std::tuple<bool, bool, float> cases[] = {{true, false, 30.0f}, {false, true, -150.0f}};
  for (auto [fx, fy, want] : cases) {
    auto in = instance_of(rig({}, {rotation("P", -1, 0, single(p2l::Pivot{250, 250, 30, 1.5f}), fx, fy), rotation("R", 0, 0, single(p2l::Pivot{20, 10, 0, 1}))},
                              {mesh("m", 1, kAxes)}));
    EXPECT_NEAR(axis_angle(frame_of(in)), want, 1e-3) << fx << fy;
  }
}

TEST(EvalRules, ANegativeParentScaleKeepsTheChildUpright) {
  // Original: the scale negates the axes and the half turn negates them back.
  auto in = instance_of(rig({}, {rotation("P", -1, 0, single(p2l::Pivot{100, 100, 0, -1})), rotation("R", 0, 0, single(p2l::Pivot{0, 0, 0, 1}))},
                            {mesh("m", 1, kAxes)}));
  const std::vector<float> want{100, 100, 10, 0, 0, 10};
  auto f = frame_of(in);
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(f[i], want[i], 1e-3) << i;
}

TEST(EvalRules, ARotationUnderAWarpTurnsWithTheLatticeAndKeepsItsSize) {
  // Original: a lattice turned by half a radian (28.648°) and scaled by 200 px per unit;
  // the pivot at its centre: origin (239.82, 335.70), angle 45 + 28.648, and the 10 px axis
  // stays 10 px long (the scale of the rotation above the lattice, none here: 1).
  const float c = std::cos(0.5f), s = std::sin(0.5f);
  std::vector<float> points{200, 200, 200 + 200 * c, 200 + 200 * s, 200 - 200 * s, 200 + 200 * c, 200 + 200 * (c - s), 200 + 200 * (s + c)};
  auto in = instance_of(rig({}, {warp("W", -1, points), rotation("R", 0, 45, single(p2l::Pivot{0.5f, 0.5f, 0, 1}))}, {mesh("m", 1, kAxes)}));
  auto f = frame_of(in);
  EXPECT_NEAR(f[0], 239.82f, 0.01);
  EXPECT_NEAR(f[1], 335.70f, 0.01);
  EXPECT_NEAR(axis_angle(f), 73.648f, 1e-2);
  EXPECT_NEAR(axis_length(f), 10, 1e-3);
}

TEST(EvalRules, ARotationUnderAWarpTakesTheScaleOfTheNearestRotationAbove) {
  // P (scale 3) > W (identity lattice, 100 px square in P) > R (scale 0.5): R's frame has
  // scale 3 * 0.5 = 1.5, so the 10 px axis becomes 15 px.
  auto in = instance_of(rig({}, {rotation("P", -1, 0, single(p2l::Pivot{0, 0, 0, 3})), warp("W", 0, {0, 0, 100, 0, 0, 100, 100, 100}),
                                 rotation("R", 1, 0, single(p2l::Pivot{0.5f, 0.5f, 0, 0.5f}))},
                            {mesh("m", 2, kAxes)}));
  auto f = frame_of(in);
  EXPECT_NEAR(f[0], 150, 1e-3);  // (0.5, 0.5) -> (50, 50) in P -> (150, 150)
  EXPECT_NEAR(axis_length(f), 15, 1e-3);
  EXPECT_NEAR(axis_angle(f), 0, 1e-3);
}

// --- blend shapes ---------------------------------------------------------------------

TEST(EvalRules, BlendShapesMoveTowardTargetsFromTheDefaultPoseWithLimits) {
  // Original: a rotation keyed on A (default 0.25: pivot at angle 15, scale 1.25), with a
  // shape on S targeting angle 40, scale 1.5, limited by T's curve (-1,.2) (0,1) (1,.5).
  p2l::Deformer r = rotation("R", -1, 0, keyed<p2l::Pivot>(2, {0, 1}, {p2l::Pivot{20, 10, 10, 1}, p2l::Pivot{30, 10, 30, 2}}));
  p2l::Binding<p2l::PivotShape> b;
  b.parameter = 1;
  b.keys = {0, 1};
  b.neutral = 0;
  p2l::PivotShape shape;
  shape.pivot = {10, 0, 40, 1.5f};
  shape.opacity = 1;
  b.shapes = {std::nullopt, shape};
  b.limits = {{2, {{-1, 0.2f}, {0, 1}, {1, 0.5f}}}};
  r.pivot_shapes = {b};
  auto in = instance_of(rig({param("S", -1, 1, 0, false, true), param("T", 0, 1, 0, false, true), param("A", 0, 1, 0.25f)}, {r},
                            {mesh("m", 0, kAxes)}));
  // A = 1, T = 1, S = 1: 30 + (40 - 15) * 0.5 = 42.5 degrees; scale 2 + (1.5 - 1.25) * 0.5 = 2.125.
  set(in, {0, 1, 1});
  auto f = frame_of(in);
  EXPECT_NEAR(axis_angle(f), 42.5f, 1e-3);
  EXPECT_NEAR(axis_length(f) / 10, 2.125f, 1e-4);
  // The limit's curve at A = 0.5 (halfway between the points (0, 1) and (1, 0.5)): 0.75,
  // and the pivot at A = 0.5 is angle 20, scale 1.5: 20 + 25 * .75 = 38.75; 1.5 + .25 * .75.
  set(in, {0, 1, 0.5f});
  f = frame_of(in);
  EXPECT_NEAR(axis_angle(f), 38.75f, 1e-3);
  EXPECT_NEAR(axis_length(f) / 10, 1.6875f, 1e-4);
}

TEST(EvalRules, MeshShapesReplaceTheDefaultPoseOffsetsAndNeutralOrEmptyKeysAddNothing) {
  // Offsets keyed on A (default 0.25): x 0 at 0, 40 at 1, so 10 at the default. A shape
  // on S targets x offset 100 at key 1; key -1 has no shape; key 0 is neutral but carries
  // one, which must not count.
  p2l::Mesh m = mesh("m", -1, {0, 0, 0, 0, 0, 0});
  m.keyforms = keyed<p2l::Array<float>>(0, {0, 1}, {p2l::Array<float>{0, 0, 0, 0, 0, 0}, p2l::Array<float>{40, 0, 0, 0, 0, 0}});
  p2l::Binding<p2l::MeshShape> b;
  b.parameter = 1;
  b.keys = {-1, 0, 1};
  b.neutral = 1;
  p2l::MeshShape target, neutral;
  target.deltas = {100, 0, 0, 0, 0, 0};
  target.opacity = 1;
  target.multiply = {0.8f, 0.8f, 1};
  target.draw_order = 700;
  neutral.deltas = {-999, 0, 0, 0, 0, 0};
  neutral.opacity = 1;
  neutral.multiply = p2l::kWhite;
  neutral.draw_order = 500;
  b.shapes = {std::nullopt, neutral, target};
  m.shapes = {b};
  auto in = instance_of(rig({param("A", 0, 1, 0.25f), param("S", -1, 1, 0, false, true)}, {}, {m}));
  // A = 1, S = 0.5: 40 + (100 - 10) * 0.5 = 85; multiply 1 + (0.8 - 1) * .5 = 0.9;
  // draw order 500 + (700 - 500) * .5 = 600.
  set(in, {1, 0.5f});
  EXPECT_NEAR(in.vertices(0)[0], 85, 1e-4);
  EXPECT_NEAR(in.multiply(0)[0], 0.9f, 1e-6);
  EXPECT_NEAR(in.multiply(0)[2], 1.0f, 1e-6);
  EXPECT_NEAR(in.draw_order(0), 600, 1e-3);
  // S = 0 is the neutral key: nothing, whatever its shape holds. S = -1 has no shape.
  for (float s : {0.0f, -1.0f, -0.5f}) {
    set(in, {1, s});
    EXPECT_NEAR(in.vertices(0)[0], 40, 1e-4) << s;
  }
}

// --- opacity, colours -----------------------------------------------------------------

TEST(EvalRules, OpacityClampsAtEveryLevelAndMultipliesDownTheChain) {
  // Original: a warp at -0.5 over a mesh at -0.5 gives 0, not 0.25.
  p2l::Deformer w = warp("W", -1, {0, 0, 100, 0, 0, 100, 100, 100});
  w.opacity = -0.5f;
  p2l::Mesh m = mesh("m", 0, {0, 0, 1, 0, 0, 1});
  m.opacity = -0.5f;
  EXPECT_EQ(instance_of(rig({}, {w}, {m})).opacity(0), 0.0f);
  // Each level clamps before the product: 1.5 over 0.5 gives 1 * 0.5, not 0.75; 0.5 over
  // 1.5 gives 0.5 * 1; 1 over -0.5 gives 0, not -0.5.
  w.opacity = 1.5f;
  m.opacity = 0.5f;
  EXPECT_EQ(instance_of(rig({}, {w}, {m})).opacity(0), 0.5f);
  w.opacity = 0.5f;
  m.opacity = 1.5f;
  EXPECT_EQ(instance_of(rig({}, {w}, {m})).opacity(0), 0.5f);
  w.opacity = 1.0f;
  m.opacity = -0.5f;
  EXPECT_EQ(instance_of(rig({}, {w}, {m})).opacity(0), 0.0f);
  // Then W 0.5 > R 0.8 > mesh 0.5.
  w.opacity = 0.5f;
  p2l::Deformer r = rotation("R", 0, 0, single(p2l::Pivot{0.5f, 0.5f, 0, 1}));
  r.opacity = 0.8f;
  p2l::Mesh n = mesh("n", 1, {0, 0, 1, 0, 0, 1});
  n.opacity = 0.5f;
  EXPECT_NEAR(instance_of(rig({}, {w, r}, {n})).opacity(0), 0.2f, 1e-7);
}

TEST(EvalRules, PartOpacityIsNotInMeshOpacityButTheHostsIs) {
  p2l::Rig r = rig({}, {}, {mesh("m", -1, {0, 0, 1, 0, 0, 1})});
  p2l::Part part;
  part.id = "P";
  part.group_mode = 2;
  part.composite.opacity = 0.3f;
  part.children = {{p2l::ChildKind::Mesh, 0}};
  r.parts = {part};
  auto in = instance_of(r);
  EXPECT_EQ(in.opacity(0), 1.0f);
  EXPECT_EQ(in.part_composite(0).opacity, 0.3f) << "the part's opacity composites its group";
  in.set_part_opacity(0, 0.5f);
  in.set_opacity(0.5f);
  in.evaluate();
  EXPECT_EQ(in.opacity(0), 0.25f) << "the host's part and rig opacities multiply the mesh";
}

TEST(EvalRules, MultiplyAndScreenColoursComeFromTheMeshAloneNotItsDeformers) {
  // Channels keyed on A: multiply white -> (1, .5, .25), screen black -> (.2, .4, .6). At
  // A = .5: multiply (1, .75, .625), screen (.1, .2, .3). The warp's own colours do not
  // reach the mesh (the original runtime's rule; Cubism multiplies them down the chain).
  p2l::Deformer w = warp("W", -1, {0, 0, 100, 0, 0, 100, 100, 100});
  w.multiply = {0.5f, 0.5f, 0.5f};
  w.screen = {0.5f, 0.5f, 0.5f};
  p2l::Mesh m = mesh("m", 0, {0, 0, 1, 0, 0, 1});
  m.channels.push_back(color_channel(ChannelType::MultiplyColor, 0, {0, 1}, {p2l::kWhite, {1, 0.5f, 0.25f}}));
  m.channels.push_back(color_channel(ChannelType::ScreenColor, 0, {0, 1}, {p2l::kBlack, {0.2f, 0.4f, 0.6f}}));
  auto in = instance_of(rig({param("A", 0, 1, 0)}, {w}, {m}));
  set(in, {0.5f});
  const p2l::Rgb mul{1, 0.75f, 0.625f}, scr{0.1f, 0.2f, 0.3f};
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(in.multiply(0)[k], mul[k], 1e-6);
    EXPECT_NEAR(in.screen(0)[k], scr[k], 1e-6);
  }
}

TEST(EvalRules, ChannelsSetDrawOrderAndOpacity) {
  // Draw order 400 -> 600 over A: 450 at 0.25. Opacity 0 -> 1 -> 0.25 over keys 0, .5, 1:
  // at .75 halfway between 1 and .25: 0.625.
  p2l::Mesh m = mesh("m", -1, {0, 0, 1, 0, 0, 1});
  m.channels.push_back(scalar_channel(ChannelType::DrawOrder, 0, {0, 1}, {400, 600}));
  m.channels.push_back(scalar_channel(ChannelType::Opacity, 1, {0, 0.5f, 1}, {0, 1, 0.25f}));
  auto in = instance_of(rig({param("A", 0, 1, 0), param("B", 0, 1, 0)}, {}, {m}));
  set(in, {0.25f, 0.75f});
  EXPECT_NEAR(in.draw_order(0), 450, 1e-4);
  EXPECT_NEAR(in.opacity(0), 0.625f, 1e-6);
}

// --- glue -----------------------------------------------------------------------------

TEST(EvalRules, GlueMovesVertexPairsAfterAllDeformation) {
  // a's vertex 0 at (0, 0) on the canvas; b's vertex 0 at (0, 0) in a rotation at (100, 0),
  // so at (100, 0) once deformed: glue sees the deformed positions. With weights .5/.5 and
  // intensity I: a0 = 0 + 100 * .5 * I, b0 = 100 - 100 * .5 * I. Intensity keyed 0 -> 1 on A.
  p2l::Glue g;
  g.id = "G";
  g.mesh_a = 0;
  g.mesh_b = 1;
  g.intensity = 1;
  g.pairs = {{0, 0, 0.5f, 0.5f}, {1, 1, 1.0f, 0.0f}};
  g.channels.push_back(scalar_channel(ChannelType::GlueIntensity, 0, {0, 1}, {0, 1}));
  p2l::Rig r = rig({param("A", 0, 1, 1)}, {rotation("R", -1, 0, single(p2l::Pivot{100, 0, 0, 1}))},
                   {mesh("a", -1, {0, 0, 10, 0, 0, 10}), mesh("b", 0, {0, 0, 10, 0, 0, 10})});
  r.glues = {g};
  auto in = instance_of(r);
  set(in, {1});
  EXPECT_NEAR(in.vertices(0)[0], 50, 1e-4);
  EXPECT_NEAR(in.vertices(1)[0], 50, 1e-4);
  // Pair 2 with weights (1, 0): a1 (10, 0) moves all the way to b1 (110, 0); b1 stays.
  EXPECT_NEAR(in.vertices(0)[2], 110, 1e-4);
  EXPECT_NEAR(in.vertices(1)[2], 110, 1e-4);
  set(in, {0.5f});
  EXPECT_NEAR(in.vertices(0)[0], 25, 1e-4);
  EXPECT_NEAR(in.vertices(1)[0], 75, 1e-4);
  set(in, {0});
  EXPECT_NEAR(in.vertices(0)[0], 0, 1e-4);
  EXPECT_NEAR(in.vertices(1)[0], 100, 1e-4);
}

// --- draw order -----------------------------------------------------------------------

p2l::Part part_named(const std::string& id, std::int32_t order, std::uint8_t mode = 0) {
  p2l::Part p;
  p.id = id;
  p.draw_order = order;
  p.group_mode = mode;
  return p;
}

p2l::DrawGroup group_of(std::int32_t part, std::vector<p2l::DrawChild> children) {
  p2l::DrawGroup g;
  g.part = part;
  g.children = std::move(children);
  return g;
}

std::vector<std::uint32_t> order_of(const p2l::Instance& in) { return {in.render_order().begin(), in.render_order().end()}; }
std::vector<std::int32_t> commands_of(const p2l::Instance& in) { return {in.render_commands().begin(), in.render_commands().end()}; }

TEST(EvalRules, GroupsSortByTheirPartsDrawOrderAndOrdersTieWithinOne) {
  // Original: in P, a (500.6) and b (500.4) tie at 500 and keep tree order; Q (300) is
  // behind P (500) until P's channel keys it to 100.
  p2l::Rig r = rig({param("A", 0, 1, 0)}, {}, {mesh("a", -1, {0, 0, 0, 0, 0, 0}), mesh("b", -1, {0, 0, 0, 0, 0, 0}), mesh("c", -1, {0, 0, 0, 0, 0, 0})});
  r.meshes[0].draw_order = 500.6f;
  r.meshes[1].draw_order = 500.4f;
  r.parts = {part_named("P", 500), part_named("Q", 300)};
  r.parts[0].channels.push_back(scalar_channel(ChannelType::DrawOrder, 0, {0, 1}, {500, 100}));
  r.parts[0].children = {{p2l::ChildKind::Mesh, 0}, {p2l::ChildKind::Mesh, 1}};
  r.parts[1].children = {{p2l::ChildKind::Mesh, 2}};
  r.draw_groups = {group_of(-1, {{p2l::DrawChildKind::Group, 1}, {p2l::DrawChildKind::Group, 2}}),
                   group_of(0, {{p2l::DrawChildKind::Mesh, 0}, {p2l::DrawChildKind::Mesh, 1}}),
                   group_of(1, {{p2l::DrawChildKind::Mesh, 2}})};
  auto in = instance_of(r);
  set(in, {0});
  EXPECT_EQ(order_of(in), (std::vector<std::uint32_t>{2, 0, 1}));
  set(in, {1});
  EXPECT_EQ(order_of(in), (std::vector<std::uint32_t>{0, 1, 2}));
}

// The draw order's sort packs keys and indices into 64-bit numbers when the keys' range
// leaves room for the indices and heap-sorts otherwise: both give the (key, index) order.
TEST(EvalRules, KeyedSortGivesTheKeyThenIndexOrderForAnyKeys) {
  std::mt19937 random(7);
  const std::int64_t wide[] = {INT64_MIN, INT64_MAX, -1, 0, 1, INT64_MIN + 1, INT64_MAX - 1};
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = random() % 70;
    std::vector<p2l::KeyedIndex> entries(n);
    for (std::size_t i = 0; i < n; ++i) {
      std::int64_t key = static_cast<std::int64_t>(random() % 9) - 4;
      if (trial % 4 == 1) key = static_cast<std::int64_t>(random()) << 30;
      if (trial % 4 == 2 && random() % 3 == 0) key = wide[random() % 7];
      // Indices unique but not always 0..n-1.
      entries[i] = {key, static_cast<std::uint32_t>(trial % 4 == 3 ? 0xFFFFFFFFu - i * 3 : i)};
    }
    std::vector<p2l::KeyedIndex> want = entries;
    std::sort(want.begin(), want.end(), p2l::KeyedIndexLess{});
    p2l::sort_keyed(entries.data(), entries.data() + n);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(entries[i].key, want[i].key) << "trial " << trial << " entry " << i;
      ASSERT_EQ(entries[i].index, want[i].index) << "trial " << trial << " entry " << i;
    }
  }
}

// Each evaluation re-sorts the last one's order with new keys: a few moves when few keys
// moved, sort_keyed when many did. Either way the (key, index) order, from any start.
TEST(EvalRules, ResortFromTheLastOrderGivesTheKeyThenIndexOrder) {
  std::mt19937 random(11);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = 1 + random() % 300;
    std::vector<std::int64_t> keys(n);
    for (auto& k : keys) k = static_cast<std::int64_t>(random() % 1000);
    std::vector<p2l::KeyedIndex> entries(n);
    for (std::size_t i = 0; i < n; ++i) entries[i] = {0, static_cast<std::uint32_t>(i)};
    for (int frame = 0; frame < 40; ++frame) {
      // Most frames move a few keys a little; some reverse or shuffle every key.
      const int kind = frame % 10;
      for (std::size_t i = 0; i < n; ++i) {
        if (kind == 3) keys[i] = -keys[i];
        else if (kind == 7) keys[i] = static_cast<std::int64_t>(random() % 1000);
        else if (random() % 20 == 0) keys[i] += static_cast<std::int64_t>(random() % 41) - 20;
      }
      for (auto& e : entries) e.key = keys[e.index];
      p2l::resort_keyed(entries.data(), entries.data() + n);
      std::vector<p2l::KeyedIndex> want(n);
      for (std::size_t i = 0; i < n; ++i) want[i] = {keys[i], static_cast<std::uint32_t>(i)};
      std::sort(want.begin(), want.end(), p2l::KeyedIndexLess{});
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(entries[i].index, want[i].index) << "trial " << trial << " frame " << frame << " entry " << i;
        ASSERT_EQ(entries[i].key, want[i].key) << "trial " << trial << " frame " << frame << " entry " << i;
      }
    }
  }
}

TEST(EvalRules, DrawOrderKeysAreTheOrderPlusAThousandthFloored) {
  // c (499.9995) -> floor(500.0005) = 500 ties with a (500) and stays after it in tree
  // order; b (499.998) -> floor(499.999) = 499 goes first. d is hidden: never drawn.
  p2l::Rig r = rig({}, {}, {mesh("a", -1, {0, 0, 0, 0, 0, 0}), mesh("b", -1, {0, 0, 0, 0, 0, 0}), mesh("c", -1, {0, 0, 0, 0, 0, 0}),
                            mesh("d", -1, {0, 0, 0, 0, 0, 0})});
  r.meshes[0].draw_order = 500;
  r.meshes[1].draw_order = 499.998f;
  r.meshes[2].draw_order = 499.9995f;
  r.meshes[3].draw_order = 100;
  r.meshes[3].visible = false;
  auto in = instance_of(r);
  EXPECT_EQ(order_of(in), (std::vector<std::uint32_t>{1, 0, 2}));
  EXPECT_EQ(in.changes(3) & p2l::kMeshVisible, 0u);
}

TEST(EvalRules, RenderCommandsOpenAndCloseIsolatedGroupsOnly) {
  // Root: mesh z (600) and part 0's group (500, isolated) holding mesh x (10) and part 1's
  // group (20, isolated) holding y; part 2 (pass-through, 700) holds w. Back to front:
  // [begin 0, x, [begin 1, y, end], end], z, w.
  p2l::Rig r = rig({}, {}, {mesh("x", -1, {0, 0, 0, 0, 0, 0}), mesh("y", -1, {0, 0, 0, 0, 0, 0}), mesh("z", -1, {0, 0, 0, 0, 0, 0}),
                            mesh("w", -1, {0, 0, 0, 0, 0, 0})});
  r.meshes[0].draw_order = 10;
  r.meshes[2].draw_order = 600;
  r.parts = {part_named("P0", 500, 2), part_named("P1", 20, 2), part_named("P2", 700, 0)};
  r.parts[0].children = {{p2l::ChildKind::Mesh, 0}, {p2l::ChildKind::Part, 1}};
  r.parts[1].children = {{p2l::ChildKind::Mesh, 1}};
  r.parts[2].children = {{p2l::ChildKind::Mesh, 3}};
  r.draw_groups = {group_of(-1, {{p2l::DrawChildKind::Mesh, 2}, {p2l::DrawChildKind::Group, 1}, {p2l::DrawChildKind::Group, 3}}),
                   group_of(0, {{p2l::DrawChildKind::Mesh, 0}, {p2l::DrawChildKind::Group, 2}}),
                   group_of(1, {{p2l::DrawChildKind::Mesh, 1}}),
                   group_of(2, {{p2l::DrawChildKind::Mesh, 3}})};
  auto in = instance_of(r);
  EXPECT_EQ(commands_of(in), (std::vector<std::int32_t>{-2, 0, -3, 1, -1, -1, 2, 3}));
  EXPECT_EQ(order_of(in), (std::vector<std::uint32_t>{0, 1, 2, 3}));
}

TEST(EvalRules, GroupCompositesTakeTheDrawTreesChannelsOverTheStaticValues) {
  // Part 0's composite opacity .9 and multiply (1,1,.9); its draw group keys opacity
  // .6 -> 1 over A: at A = 0.5, 0.8; the multiply stays static.
  p2l::Rig r = rig({param("A", 0, 1, 0)}, {}, {mesh("x", -1, {0, 0, 0, 0, 0, 0})});
  r.parts = {part_named("P", 500, 2)};
  r.parts[0].children = {{p2l::ChildKind::Mesh, 0}};
  r.parts[0].composite.opacity = 0.9f;
  r.parts[0].composite.multiply = {1, 1, 0.9f};
  r.draw_groups = {group_of(-1, {{p2l::DrawChildKind::Group, 1}}), group_of(0, {{p2l::DrawChildKind::Mesh, 0}})};
  r.draw_groups[1].channels.push_back(scalar_channel(ChannelType::Opacity, 0, {0, 1}, {0.6f, 1}));
  auto in = instance_of(r);
  set(in, {0.5f});
  EXPECT_NEAR(in.part_composite(0).opacity, 0.8f, 1e-6);
  EXPECT_EQ(in.part_composite(0).multiply[2], 0.9f);
}

TEST(EvalRules, ChangeFlagsTellWhatMovedSinceTheEvaluationBefore) {
  p2l::Mesh m = mesh("m", -1, {0, 0, 0, 0, 0, 0});
  m.keyforms = keyed<p2l::Array<float>>(0, {0, 1}, {p2l::Array<float>{0, 0, 0, 0, 0, 0}, p2l::Array<float>{10, 0, 0, 0, 0, 0}});
  m.channels.push_back(scalar_channel(ChannelType::Opacity, 1, {0, 1}, {1, 0}));
  auto in = instance_of(rig({param("A", 0, 1, 0), param("B", 0, 1, 0)}, {}, {m}));
  EXPECT_EQ(in.changes(0), 127u) << "everything is new after the first evaluation";
  in.evaluate();
  EXPECT_EQ(in.changes(0), p2l::kMeshVisible) << "nothing moved";
  set(in, {0.5f, 0});
  EXPECT_EQ(in.changes(0), p2l::kMeshVisible | p2l::kMeshVerticesChanged);
  set(in, {0.5f, 1});
  EXPECT_EQ(in.changes(0), p2l::kMeshVisibilityChanged | p2l::kMeshOpacityChanged) << "opacity 0: not visible";
}

}  // namespace
