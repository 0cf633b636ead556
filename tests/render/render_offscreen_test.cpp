// Offscreens (isolated part groups) composited by the Cubism 5 R5 Framework's rules
// (docs/RUNTIME.md, "Isolated groups (offscreens)"): the layer's premultiplied pixel
// recoloured by the group's multiply and screen colours, times its opacity on all four
// channels, masked by 1 - prod(1 - a) of its mask meshes (inverted: the product), then
// composited by every colour blend x alpha blend pair, and nested groups. Expected pixels
// come from the double-precision reference of render_reference.hpp.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "render_reference.hpp"

namespace {

using namespace render_test;

const p2l::Rgb kWhite{1, 1, 1}, kBlack{0, 0, 0};

const char* const kBlendNames[] = {"Normal",   "CubismAdd", "CubismMultiply", "Add",         "AddGlow", "Darken",
                                   "Multiply", "ColorBurn", "LinearBurn",     "Lighten",     "Screen",  "ColorDodge",
                                   "Overlay",  "SoftLight", "HardLight",      "LinearLight", "Hue",     "Color"};
const char* const kAlphaNames[] = {"Over", "Atop", "Out", "ConjointOver", "DisjointOver"};

// A backdrop (x 0..10) and an isolated group (x 6..16) holding two overlapping meshes, the
// group with opacity 0.7, multiply and screen colours, by every pair; unmasked, masked by a
// mesh of alpha 170 over x 0..12 and by the same inverted.
class OffscreenModes : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(OffscreenModes, CompositeByTheRules) {
  const auto [mode, alpha] = GetParam();
  const Bytes back{60, 140, 220, 210}, lower{230, 90, 40, 190}, upper{20, 200, 120, 160};
  const p2l::Rgb multiply{0.9f, 0.6f, 1.0f}, screen{0.1f, 0.0f, 0.3f};
  const float opacity = 0.7f;
  for (int masking = 0; masking < 3; ++masking) {
    const Scene scene = group_pair_scene(mode, alpha, back, lower, upper, opacity, multiply, screen, masking);
    Drawn drawn(scene, 16, 4);

    const Px base = composite(0, 0, fragment(back, kWhite, kBlack, 1), Px{});
    const Px only_lower = composite(0, 0, fragment(lower, kWhite, kBlack, 1), Px{});
    const Px both = composite(0, 0, fragment(upper, kWhite, kBlack, 1), only_lower);
    struct Column {
      std::uint32_t x;
      Px under, layer;
      bool masked;
    };
    const Column columns[] = {
        {2, base, Px{}, true},  {7, base, only_lower, true}, {9, base, both, true},
        {11, Px{}, both, true}, {13, Px{}, both, false},     {15, Px{}, only_lower, false},
    };
    for (bool straight : {false, true}) {
      ASSERT_TRUE(drawn.render(straight ? p2l::kRenderStraight : 0));
      for (const Column& c : columns) {
        const double m = masking == 0 ? 1.0 : mask_value({c.masked ? 170 / 255.0 : 0.0}, masking == 2);
        const Px expected =
            c.layer.a > 0 && m > 0 ? composite(mode, alpha, group_fragment(c.layer, multiply, screen, opacity), c.under, m) : c.under;
        EXPECT_TRUE(near(drawn, c.x, 1, expected, straight)) << "column " << c.x << " masking " << masking;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllPairs, OffscreenModes, ::testing::Combine(::testing::Range(0, 18), ::testing::Range(0, 5)),
                         [](const ::testing::TestParamInfo<std::tuple<int, int>>& param_info) {
                           return std::string(kBlendNames[std::get<0>(param_info.param)]) + "_" +
                                  kAlphaNames[std::get<1>(param_info.param)];
                         });

// Nested offscreens: G1 (overlay, over, opacity 0.8, masked by two mask meshes) holds a mesh
// and G2 (darken, disjoint over, opacity 0.6, screen colour, inverted mask) holding a mesh
// drawn by hard light; G2 composites into G1's layer, G1 into the image.
TEST(Offscreens, NestedGroupsWithMasksAndColours) {
  const Bytes back{200, 180, 40, 255}, a{40, 90, 200, 200}, c{250, 60, 160, 170}, d{90, 220, 30, 230};
  Scene scene(12, 4);
  const std::uint32_t mb = scene.quad(0, 0, 12, 4, scene.page(back));
  const std::uint32_t ma = scene.quad(0, 0, 8, 4, scene.page(a));
  const std::uint32_t mc = scene.quad(3, 0, 12, 4, scene.page(c));
  const std::uint32_t md = scene.quad(5, 0, 10, 4, scene.page(d));
  const std::uint32_t k1 = scene.quad(0, 0, 6, 4, scene.page({0, 0, 0, 120}));
  const std::uint32_t k2 = scene.quad(4, 0, 12, 4, scene.page({0, 0, 0, 200}));
  const std::uint32_t k3 = scene.quad(7, 0, 12, 4, scene.page({0, 0, 0, 90}));
  scene.mesh(md).blend = 14;
  scene.draw(mb);
  const std::uint32_t g1 = scene.isolated_group(0, 12, 0);
  scene.draw(ma, g1);
  const std::uint32_t g2 = scene.isolated_group(g1, 5, 4);
  scene.draw(mc, g2);
  scene.draw(md, g2);
  {
    p2l::Part& p1 = scene.part_of_group(g1);
    p1.composite.opacity = 0.8f;
    p1.composite.mask_meshes = {k1, k2};
  }
  {
    p2l::Part& p2 = scene.part_of_group(g2);
    p2.composite.opacity = 0.6f;
    p2.composite.screen = {0.2f, 0.1f, 0.4f};
    p2.composite.mask_meshes = {k3};
    p2.composite.invert_mask = true;
  }
  Drawn drawn(scene, 12, 4);
  ASSERT_TRUE(drawn.render());
  const Px base = composite(0, 0, fragment(back, kWhite, kBlack, 1), Px{});
  for (std::uint32_t x = 0; x < 12; ++x) {
    const double cx = x + 0.5;
    Px inner;
    if (cx > 3) inner = composite(0, 0, fragment(c, kWhite, kBlack, 1), inner);
    if (cx > 5 && cx < 10) inner = composite(14, 0, fragment(d, kWhite, kBlack, 1), inner);
    Px outer;
    if (cx < 8) outer = composite(0, 0, fragment(a, kWhite, kBlack, 1), outer);
    const double m2 = mask_value({cx > 7 ? 90 / 255.0 : 0.0}, true);
    if (inner.a > 0 && m2 > 0) outer = composite(5, 4, group_fragment(inner, kWhite, {0.2f, 0.1f, 0.4f}, 0.6), outer, m2);
    const double m1 = mask_value({cx < 6 ? 120 / 255.0 : 0.0, cx > 4 ? 200 / 255.0 : 0.0});
    const Px expected = outer.a > 0 && m1 > 0 ? composite(12, 0, group_fragment(outer, kWhite, kBlack, 0.8), base, m1) : base;
    EXPECT_TRUE(near(drawn, x, 2, expected, false)) << "column " << x;
  }
}

// Fixed values: an offscreen of opaque red at opacity 0.5 over opaque blue, by normal over
// (Cubism's fixed-function path) and by normal atop (the blend shader), the same here.
TEST(Offscreens, OpacityScalesAllFourChannels) {
  for (std::uint8_t alpha : {std::uint8_t{0}, std::uint8_t{1}}) {
    Scene scene(4, 4);
    scene.draw(scene.quad(0, 0, 4, 4, scene.page({0, 0, 255, 255})));
    const std::uint32_t g = scene.isolated_group(0, 0, alpha);
    scene.draw(scene.quad(0, 0, 4, 4, scene.page({255, 0, 0, 255})), g);
    scene.part_of_group(g).composite.opacity = 0.5f;
    Drawn drawn(scene, 4, 4);
    ASSERT_TRUE(drawn.render());
    EXPECT_EQ(drawn.at(2, 2), (Bytes{128, 0, 128, 255})) << int(alpha);
  }
}

}  // namespace
