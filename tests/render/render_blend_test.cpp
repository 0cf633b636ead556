// Every colour blend mode with every alpha blend mode: a backdrop quad and a source quad
// overlapping in the middle of a 16 x 8 image, three colour pairs chosen to reach the
// branches of the blend functions, checked in the backdrop alone, the overlap and the source
// over transparency, in premultiplied and straight output.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <tuple>

#include "render_reference.hpp"

namespace {

using namespace render_test;

struct ColourPair {
  Bytes backdrop, source;
  float source_opacity;
};

// 1: sums above 1 (disjoint and conjoint overlaps differ), soft light's polynomial branch.
// 2: opaque backdrop with a 1 and a 0 channel, source with a 1 and a 0 channel (the dodge and
//    burn end cases). 3: a saturated source over a bright backdrop (hue and colour clip), and
//    the source mesh at opacity 0.75.
const ColourPair kPairs[] = {
    {{51, 153, 230, 204}, {179, 77, 128, 153}, 1.0f},
    {{255, 26, 0, 255}, {64, 255, 0, 102}, 1.0f},
    {{200, 220, 40, 180}, {255, 0, 128, 200}, 0.75f},
};

const char* const kBlendNames[] = {"Normal",   "CubismAdd", "CubismMultiply", "Add",        "AddGlow",   "Darken",
                                   "Multiply", "ColorBurn", "LinearBurn",     "Lighten",    "Screen",    "ColorDodge",
                                   "Overlay",  "SoftLight", "HardLight",      "LinearLight", "Hue",      "Color"};
const char* const kAlphaNames[] = {"Over", "Atop", "Out", "ConjointOver", "DisjointOver"};

class BlendModes : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(BlendModes, MatchTheRules) {
  const auto [mode, alpha] = GetParam();
  const p2l::Rgb white{1, 1, 1}, black{0, 0, 0};
  // Each pair plain, then with the source masked by a mesh of alpha 150 (not drawn) and
  // inverted: the mask scales the source's alpha after its straight conversion.
  for (int masking = 0; masking < 3; ++masking) {
    for (const ColourPair& pair : kPairs) {
      const Scene scene = blend_pair_scene(mode, alpha, pair.backdrop, pair.source, pair.source_opacity, masking);
      Drawn drawn(scene, 16, 8);

      const double m = masking == 0 ? 1.0 : mask_value({150 / 255.0}, masking == 2);
      const Px backdrop = composite(0, 0, fragment(pair.backdrop, white, black, 1), Px{});
      const Px top = fragment(pair.source, white, black, pair.source_opacity);
      const Px both = composite(mode, alpha, top, backdrop, m);
      const Px alone = composite(mode, alpha, top, Px{}, m);
      for (bool straight : {false, true}) {
        ASSERT_TRUE(drawn.render(straight ? p2l::kRenderStraight : 0));
        for (std::uint32_t y : {1u, 4u, 6u}) {
          EXPECT_TRUE(near(drawn, 2, y, backdrop, straight));
          EXPECT_TRUE(near(drawn, 8, y, both, straight)) << "masking " << masking;
          EXPECT_TRUE(near(drawn, 13, y, alone, straight)) << "masking " << masking;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllPairs, BlendModes, ::testing::Combine(::testing::Range(0, 18), ::testing::Range(0, 5)),
                         [](const ::testing::TestParamInfo<std::tuple<int, int>>& param_info) {
                           return std::string(kBlendNames[std::get<0>(param_info.param)]) + "_" +
                                  kAlphaNames[std::get<1>(param_info.param)];
                         });

// A few values the rules fix outright, besides the reference arithmetic.
TEST(BlendModes, FixedCases) {
  // Cubism's add keeps the destination alpha: over transparency nothing shows.
  {
    Scene scene(4, 4);
    scene.draw(scene.quad(0, 0, 4, 4, scene.page({255, 0, 0, 255})));
    scene.mesh(0).blend = 1;
    Drawn drawn(scene, 4, 4);
    ASSERT_TRUE(drawn.render());
    EXPECT_EQ(drawn.at(1, 1), (Bytes{0, 0, 0, 0}));
  }
  // Add (glow) goes through the blend shader's OVER: over transparency the source shows.
  {
    Scene scene(4, 4);
    scene.draw(scene.quad(0, 0, 4, 4, scene.page({255, 0, 0, 255})));
    scene.mesh(0).blend = 4;
    Drawn drawn(scene, 4, 4);
    ASSERT_TRUE(drawn.render());
    EXPECT_EQ(drawn.at(1, 1), (Bytes{255, 0, 0, 255}));
  }
  // OUT erases where an opaque source covers.
  {
    Scene scene(4, 4);
    const std::uint32_t back = scene.quad(0, 0, 4, 4, scene.page({0, 0, 255, 255}));
    const std::uint32_t top = scene.quad(0, 0, 2, 4, scene.page({255, 0, 0, 255}));
    scene.mesh(top).alpha_blend = 2;
    scene.draw(back);
    scene.draw(top);
    Drawn drawn(scene, 4, 4);
    ASSERT_TRUE(drawn.render());
    EXPECT_EQ(drawn.at(0, 1), (Bytes{0, 0, 0, 0}));
    EXPECT_EQ(drawn.at(3, 1), (Bytes{0, 0, 255, 255}));
  }
  // Half-transparent red over opaque blue.
  {
    Scene scene(4, 4);
    const std::uint32_t back = scene.quad(0, 0, 4, 4, scene.page({0, 0, 255, 255}));
    const std::uint32_t top = scene.quad(0, 0, 4, 4, scene.page({255, 0, 0, 255}));
    scene.mesh(top).opacity = 0.5f;
    scene.draw(back);
    scene.draw(top);
    Drawn drawn(scene, 4, 4);
    ASSERT_TRUE(drawn.render());
    EXPECT_EQ(drawn.at(2, 2), (Bytes{128, 0, 128, 255}));
  }
}

}  // namespace
