// The drawing rules besides the blend table: multiply and screen colours, masks (inverted,
// by parts, more sets than the renderer keeps), nested isolated groups driven by channels,
// culling, pixel centres and the top-left rule, sampling, output flags, transforms and
// inputs a renderer must survive.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <thread>
#include <vector>

#include "random_rig.hpp"
#include "render_reference.hpp"
#include "rig_builder.hpp"

namespace {

using namespace render_test;

const p2l::Rgb kWhite{1, 1, 1}, kBlack{0, 0, 0};

TEST(RenderColours, MultiplyScreenAndOpacity) {
  const Bytes back{30, 60, 90, 255}, tex{200, 150, 100, 178};
  const p2l::Rgb multiply{0.5f, 1.0f, 0.25f}, screen{0.2f, 0.0f, 0.6f};
  for (int variant = 0; variant < 2; ++variant) {
    Scene scene(8, 4);
    const std::uint32_t b = scene.quad(0, 0, 8, 4, scene.page(back));
    const std::uint32_t m = scene.quad(2, 0, 8, 4, scene.page(tex));
    scene.mesh(m).multiply = multiply;
    scene.mesh(m).screen = screen;
    scene.mesh(m).opacity = 0.6f;
    if (variant == 1) {
      scene.mesh(m).blend = 10;       // screen
      scene.mesh(m).alpha_blend = 3;  // conjoint over
    }
    scene.draw(b);
    scene.draw(m);
    Drawn drawn(scene, 8, 4);
    ASSERT_TRUE(drawn.render());
    const Px base = composite(0, 0, fragment(back, kWhite, kBlack, 1), Px{});
    const Px top = fragment(tex, multiply, screen, 0.6);
    EXPECT_TRUE(near(drawn, 5, 2, composite(scene.mesh(m).blend, scene.mesh(m).alpha_blend, top, base), false));
    EXPECT_TRUE(near(drawn, 0, 2, base, false));
  }
}

// Mask meshes k1 (alpha 100, x 0..8) and k2 (alpha 200, x 4..12) over a 14-pixel row;
// X is masked by both, Y the same but inverted. The mask meshes are not drawn, have opacity
// 0.3 and a black multiply colour, and k2 is a culled back face: none of that matters. Where
// both cover, the mask is 1 - (1 - a1)(1 - a2), as Cubism's mask buffer accumulates it.
TEST(RenderMasks, CoverageIsOneMinusTheProductAndInverts) {
  const Bytes colour{200, 50, 100, 255};
  Scene scene(14, 4);
  const std::uint32_t k1 = scene.quad(0, 0, 8, 4, scene.page({10, 20, 30, 100}));
  const std::uint32_t k2 = scene.quad(4, 0, 12, 4, scene.page({40, 50, 60, 200}), false);
  for (std::uint32_t k : {k1, k2}) {
    scene.mesh(k).opacity = 0.3f;
    scene.mesh(k).multiply = {0, 0, 0};
  }
  scene.mesh(k2).culling = true;
  const std::int32_t page = scene.page(colour);
  const std::uint32_t x = scene.quad(0, 0, 14, 2, page);
  const std::uint32_t y = scene.quad(0, 2, 14, 4, page);
  scene.mesh(x).mask_meshes = {k1, k2};
  scene.mesh(y).mask_meshes = {k1, k2};
  scene.mesh(y).invert_mask = true;
  scene.draw(x);
  scene.draw(y);
  Drawn drawn(scene, 14, 4);
  for (bool straight : {false, true}) {
    ASSERT_TRUE(drawn.render(straight ? p2l::kRenderStraight : 0));
    const double coverage[] = {mask_value({100 / 255.0}), mask_value({100 / 255.0, 200 / 255.0}),
                               mask_value({200 / 255.0}), 0.0};
    const std::uint32_t columns[] = {2, 6, 10, 13};
    for (int i = 0; i < 4; ++i) {
      const Px masked = composite(0, 0, fragment(colour, kWhite, kBlack, coverage[i]), Px{});
      const Px inverted = composite(0, 0, fragment(colour, kWhite, kBlack, 1 - coverage[i]), Px{});
      EXPECT_TRUE(near(drawn, columns[i], 1, masked, straight));
      EXPECT_TRUE(near(drawn, columns[i], 3, inverted, straight));
    }
  }
}

// Eight masked meshes over six columns, each masked by two adjacent columns' mask meshes:
// six distinct mask sets in one frame, then the first two again after the renderer has had
// to let them go.
TEST(RenderMasks, MoreMaskSetsThanTheRendererKeeps) {
  const Bytes colour{0, 128, 255, 96};
  Scene scene(24, 4);
  const std::int32_t opaque = scene.page({0, 0, 0, 255});
  std::vector<std::uint32_t> masks;
  for (int c = 0; c < 6; ++c) masks.push_back(scene.quad(static_cast<float>(4 * c), 0, static_cast<float>(4 * c + 4), 4, opaque));
  const std::int32_t page = scene.page(colour);
  for (int k = 0; k < 8; ++k) {
    const std::uint32_t m = scene.quad(0, 0, 24, 4, page);
    scene.mesh(m).mask_meshes = {masks[static_cast<std::size_t>(k % 6)], masks[static_cast<std::size_t>((k + 1) % 6)]};
    scene.draw(m);
  }
  Drawn drawn(scene, 24, 4);
  for (int frame = 0; frame < 2; ++frame) {
    ASSERT_TRUE(drawn.render());
    for (int c = 0; c < 6; ++c) {
      Px expected;
      for (int k = 0; k < 8; ++k)
        if (k % 6 == c || (k + 1) % 6 == c) expected = composite(0, 0, fragment(colour, kWhite, kBlack, 1), expected);
      EXPECT_TRUE(near(drawn, static_cast<std::uint32_t>(4 * c + 2), 2, expected, false)) << "column " << c;
    }
  }
}

// A mask that moves between frames: its coverage is computed again for every frame.
TEST(RenderMasks, MovingMaskIsRecomputedEachFrame) {
  const Bytes colour{255, 255, 255, 255};
  Scene scene(8, 4);
  scene.rig.parameters.push_back(p2l_test::param("P", 0, 1, 0));
  const std::uint32_t mask = scene.quad(0, 0, 4, 4, scene.page({0, 0, 0, 255}));
  scene.mesh(mask).keyforms = p2l_test::keyed(0, {0, 1}, std::vector<p2l::Array<float>>{
                                                             p2l::Array<float>{0, 0, 0, 0, 0, 0, 0, 0},
                                                             p2l::Array<float>{4, 0, 4, 0, 4, 0, 4, 0}});
  const std::uint32_t m = scene.quad(0, 0, 8, 4, scene.page(colour));
  scene.mesh(m).mask_meshes = {mask};
  scene.draw(m);
  Drawn drawn(scene, 8, 4);
  for (float p : {0.0f, 1.0f, 0.0f}) {
    drawn.instance->parameters()[0] = p;
    drawn.instance->evaluate();
    ASSERT_TRUE(drawn.render());
    EXPECT_EQ(drawn.at(2, 1)[3], p == 0 ? 255 : 0) << p;
    EXPECT_EQ(drawn.at(6, 1)[3], p == 0 ? 0 : 255) << p;
  }
}

// An isolated group masked by a part's mesh (x 0..6, alpha 150) and a mask mesh of its own
// (x 8..10, opaque), over an opaque backdrop; the group composites by multiply.
TEST(RenderMasks, GroupsMaskedByPartsAndMeshes) {
  const Bytes back{250, 240, 230, 255}, inside{30, 160, 90, 220};
  for (bool invert : {false, true}) {
    Scene scene(12, 4);
    const std::uint32_t b = scene.quad(0, 0, 12, 4, scene.page(back));
    const std::uint32_t by_part = scene.quad(0, 0, 6, 4, scene.page({1, 2, 3, 150}));
    const std::uint32_t own = scene.quad(8, 0, 10, 4, scene.page({1, 2, 3, 255}));
    p2l::Part holder;
    holder.id = "holder";
    holder.children = {{p2l::ChildKind::Mesh, by_part}};
    scene.rig.parts.push_back(holder);
    const auto holder_index = static_cast<std::uint32_t>(scene.rig.parts.size() - 1);
    scene.draw(b);
    const std::uint32_t g = scene.isolated_group(0, 6, 0);
    p2l::Part& part = scene.part_of_group(g);
    part.composite.mask_parts = {holder_index};
    part.composite.mask_meshes = {own};
    part.composite.invert_mask = invert;
    scene.draw(scene.quad(0, 0, 12, 4, scene.page(inside)), g);
    Drawn drawn(scene, 12, 4);
    ASSERT_TRUE(drawn.render());
    const Px base = composite(0, 0, fragment(back, kWhite, kBlack, 1), Px{});
    const Px layer = composite(0, 0, fragment(inside, kWhite, kBlack, 1), Px{});
    const double coverage[] = {150 / 255.0, 0.0, 1.0};
    const std::uint32_t columns[] = {2, 7, 9};
    for (int i = 0; i < 3; ++i) {
      const double k = invert ? 1 - coverage[i] : coverage[i];
      const Px expected = k > 0 ? composite(6, 0, group_fragment(layer, kWhite, kBlack, 1), base, k) : base;
      EXPECT_TRUE(near(drawn, columns[i], 2, expected, false)) << "invert " << invert << " column " << columns[i];
    }
  }
}

// Two nested isolated groups whose opacity and colours come from draw-group channels keyed on
// a parameter, drawn at the parameter's midpoint:
//   backdrop A (x 0..8)
//   G1: hard light, over; opacity 1 -> 0.4, multiply white -> (0.2, 0.6, 1)
//     B (x 0..6)
//     G2: multiply, atop; opacity 0.5 -> 1, screen black -> (0.4, 0.2, 0)
//       C (x 2..8)
TEST(RenderGroups, NestedGroupsWithChannelDrivenCompositing) {
  const Bytes a{40, 90, 200, 255}, b{220, 120, 30, 200}, c{90, 200, 140, 180};
  Scene scene(8, 4);
  scene.rig.parameters.push_back(p2l_test::param("P", 0, 1, 0));
  const std::uint32_t ma = scene.quad(0, 0, 8, 4, scene.page(a));
  const std::uint32_t mb = scene.quad(0, 0, 6, 4, scene.page(b));
  const std::uint32_t mc = scene.quad(2, 0, 8, 4, scene.page(c));
  scene.draw(ma);
  const std::uint32_t g1 = scene.isolated_group(0, 14, 0);
  scene.draw(mb, g1);
  const std::uint32_t g2 = scene.isolated_group(g1, 6, 1);
  scene.draw(mc, g2);
  using p2l::ChannelType;
  scene.rig.draw_groups[g1].channels = {
      p2l_test::scalar_channel(ChannelType::Opacity, 0, {0, 1}, {1.0f, 0.4f}),
      p2l_test::color_channel(ChannelType::MultiplyColor, 0, {0, 1}, {p2l::Rgb{1, 1, 1}, p2l::Rgb{0.2f, 0.6f, 1.0f}})};
  scene.rig.draw_groups[g2].channels = {
      p2l_test::scalar_channel(ChannelType::Opacity, 0, {0, 1}, {0.5f, 1.0f}),
      p2l_test::color_channel(ChannelType::ScreenColor, 0, {0, 1}, {p2l::Rgb{0, 0, 0}, p2l::Rgb{0.4f, 0.2f, 0.0f}})};
  Drawn drawn(scene, 8, 4);
  drawn.instance->parameters()[0] = 0.5f;
  drawn.instance->evaluate();

  const p2l::Rgb g1_multiply{0.6f, 0.8f, 1.0f}, g2_screen{0.2f, 0.1f, 0.0f};
  const double g1_opacity = 0.7, g2_opacity = 0.75;
  // The evaluation gives what the channels say (a precondition of this test).
  const auto& e1 = drawn.instance->part_composite(static_cast<std::uint32_t>(scene.rig.draw_groups[g1].part));
  const auto& e2 = drawn.instance->part_composite(static_cast<std::uint32_t>(scene.rig.draw_groups[g2].part));
  ASSERT_NEAR(e1.opacity, g1_opacity, 1e-6);
  ASSERT_NEAR(e2.opacity, g2_opacity, 1e-6);
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_NEAR(e1.multiply[i], g1_multiply[i], 1e-6);
    ASSERT_NEAR(e2.screen[i], g2_screen[i], 1e-6);
  }

  ASSERT_TRUE(drawn.render());
  const Px base = composite(0, 0, fragment(a, kWhite, kBlack, 1), Px{});
  for (std::uint32_t x : {1u, 4u, 7u}) {
    const bool has_b = x < 6, has_c = x >= 2;
    Px layer2, layer1;
    if (has_c) layer2 = composite(0, 0, fragment(c, kWhite, kBlack, 1), layer2);
    if (has_b) layer1 = composite(0, 0, fragment(b, kWhite, kBlack, 1), layer1);
    if (layer2.a > 0) layer1 = composite(6, 1, group_fragment(layer2, kWhite, g2_screen, g2_opacity), layer1);
    const Px expected = layer1.a > 0 ? composite(14, 0, group_fragment(layer1, g1_multiply, kBlack, g1_opacity), base) : base;
    EXPECT_TRUE(near(drawn, x, 2, expected, false)) << "column " << x;
  }
}

// Sibling isolated groups reuse one layer: each starts from a cleared layer, every frame.
TEST(RenderGroups, SiblingGroupsStartFromClearedLayers) {
  const Bytes red{255, 0, 0, 255}, blue{0, 0, 255, 255};
  Scene scene(8, 4);
  const std::uint32_t ga = scene.isolated_group();
  scene.draw(scene.quad(0, 0, 4, 4, scene.page(red)), ga);
  const std::uint32_t gb = scene.isolated_group();
  scene.part_of_group(gb).composite.opacity = 0.5f;
  scene.draw(scene.quad(4, 0, 8, 4, scene.page(blue)), gb);
  Drawn drawn(scene, 8, 4);
  for (int frame = 0; frame < 2; ++frame) {
    ASSERT_TRUE(drawn.render());
    EXPECT_EQ(drawn.at(2, 1), (Bytes{255, 0, 0, 255}));
    EXPECT_TRUE(near(drawn, 6, 1, group_fragment(texel(blue), kWhite, kBlack, 0.5), false));
  }
}

// Culling keeps Cubism's front faces, (b - a) x (c - a) < 0 in canvas coordinates, also
// under a mirroring transform.
TEST(RenderCulling, OnlyFrontFacesDrawWhenCulling) {
  for (bool culling : {true, false}) {
    Scene scene(8, 4);
    const std::int32_t page = scene.page({255, 255, 255, 255});
    const std::uint32_t front = scene.quad(0, 0, 4, 4, page, true);
    const std::uint32_t back = scene.quad(4, 0, 8, 4, page, false);
    scene.mesh(front).culling = culling;
    scene.mesh(back).culling = culling;
    scene.draw(front);
    scene.draw(back);
    Drawn drawn(scene, 8, 4);
    ASSERT_TRUE(drawn.render());
    EXPECT_EQ(drawn.at(1, 1)[3], 255);
    EXPECT_EQ(drawn.at(6, 1)[3], culling ? 0 : 255);
    // Mirrored left to right: the front face now covers x 4..8 and still draws.
    const p2l::Affine mirror{-1, 0, 0, 1, 8, 0};
    ASSERT_TRUE(drawn.render(0, &mirror));
    EXPECT_EQ(drawn.at(6, 1)[3], 255);
    EXPECT_EQ(drawn.at(1, 1)[3], culling ? 0 : 255);
    // Mirrored top to bottom.
    const p2l::Affine flip{1, 0, 0, -1, 0, 4};
    ASSERT_TRUE(drawn.render(0, &flip));
    EXPECT_EQ(drawn.at(1, 1)[3], 255);
    EXPECT_EQ(drawn.at(6, 1)[3], culling ? 0 : 255);
  }
}

// Pixel centres at +0.5 and the top-left rule: a pixel whose centre lies on an edge shared
// by two triangles is drawn by exactly one of them, whatever their windings.
TEST(RenderFillRule, SharedDiagonalDrawsOnce) {
  for (bool same_winding : {true, false}) {
    Scene scene(8, 8);
    const std::int32_t red = scene.page({255, 0, 0, 128}), blue = scene.page({0, 0, 255, 128});
    // Upper right (y < x) and lower left (y > x) of the diagonal through every pixel centre (i + .5, i + .5).
    const std::uint32_t t1 = scene.triangle({0, 0, 8, 0, 8, 8}, {0, 0, 1, 0, 1, 1}, red);
    const std::uint32_t t2 = same_winding ? scene.triangle({0, 0, 8, 8, 0, 8}, {0, 0, 1, 1, 0, 1}, blue)
                                          : scene.triangle({0, 0, 0, 8, 8, 8}, {0, 0, 0, 1, 1, 1}, blue);
    scene.draw(t1);
    scene.draw(t2);
    Drawn drawn(scene, 8, 8);
    ASSERT_TRUE(drawn.render());
    for (std::uint32_t y = 0; y < 8; ++y)
      for (std::uint32_t x = 0; x < 8; ++x) {
        const Bytes p = drawn.at(x, y);
        ASSERT_EQ(p[3], 128) << "pixel " << x << ", " << y;
        // Off the diagonal each triangle draws its own side; on it, the triangle for which
        // the diagonal is a left edge (the upper-right one).
        const bool red_side = x >= y;
        EXPECT_EQ(p[0], red_side ? 128 : 0) << "pixel " << x << ", " << y;
        EXPECT_EQ(p[2], red_side ? 0 : 128) << "pixel " << x << ", " << y;
      }
  }
}

TEST(RenderFillRule, SharedRowsAndColumnsGoToTheLowerAndRightQuad) {
  for (bool front : {true, false}) {
    // A vertical edge at x = 4.5 through the centres of column 4.
    {
      Scene scene(8, 4);
      const std::int32_t red = scene.page({255, 0, 0, 128}), blue = scene.page({0, 0, 255, 128});
      scene.draw(scene.quad(0, 0, 4.5f, 4, red, front));
      scene.draw(scene.quad(4.5f, 0, 8, 4, blue, !front));
      Drawn drawn(scene, 8, 4);
      ASSERT_TRUE(drawn.render());
      for (std::uint32_t x = 0; x < 8; ++x) {
        EXPECT_EQ(drawn.at(x, 1)[3], 128) << x;
        EXPECT_EQ(drawn.at(x, 1)[0], x < 4 ? 128 : 0) << x;
      }
    }
    // A horizontal edge at y = 2.5 through the centres of row 2.
    {
      Scene scene(4, 6);
      const std::int32_t red = scene.page({255, 0, 0, 128}), blue = scene.page({0, 0, 255, 128});
      scene.draw(scene.quad(0, 0, 4, 2.5f, red, front));
      scene.draw(scene.quad(0, 2.5f, 4, 6, blue, front));
      Drawn drawn(scene, 4, 6);
      ASSERT_TRUE(drawn.render());
      for (std::uint32_t y = 0; y < 6; ++y) {
        EXPECT_EQ(drawn.at(1, y)[3], 128) << y;
        EXPECT_EQ(drawn.at(1, y)[0], y < 2 ? 128 : 0) << y;
      }
    }
  }
}

TEST(RenderFillRule, OuterEdgesTopAndLeftIncluded) {
  for (bool front : {true, false}) {
    Scene scene(6, 6);
    scene.draw(scene.quad(0.5f, 0.5f, 4.5f, 4.5f, scene.page({255, 255, 255, 255}), front));
    Drawn drawn(scene, 6, 6);
    ASSERT_TRUE(drawn.render());
    for (std::uint32_t y = 0; y < 6; ++y)
      for (std::uint32_t x = 0; x < 6; ++x) EXPECT_EQ(drawn.at(x, y)[3], (x < 4 && y < 4) ? 255 : 0) << x << ", " << y;
  }
}

// Bilinear sampling between texel centres, clamped to the edge texels; v runs down the page.
TEST(RenderSampling, BilinearBetweenTexelCentresAndVDown) {
  Scene scene(8, 8);
  const std::int32_t ramp = scene.page_pixels(2, 1, {0, 0, 0, 255, 255, 255, 255, 255});
  const std::int32_t column = scene.page_pixels(1, 2, {255, 0, 0, 255, 0, 0, 255, 255});
  scene.draw(scene.quad(0, 0, 8, 2, ramp));
  scene.draw(scene.quad(6, 2, 8, 8, column));
  Drawn drawn(scene, 8, 8);
  ASSERT_TRUE(drawn.render());
  auto level = [](double u, int texels) { return sat01(u * texels - 0.5); };
  for (std::uint32_t x = 0; x < 8; ++x) {
    const double want = level((x + 0.5) / 8.0, 2) * 255;
    EXPECT_NEAR(drawn.at(x, 1)[0], want, 1.0) << x;
  }
  for (std::uint32_t y = 2; y < 8; ++y) {
    const double blue = level((y - 2 + 0.5) / 6.0, 2);
    EXPECT_NEAR(drawn.at(7, y)[0], (1 - blue) * 255, 1.0) << y;
    EXPECT_NEAR(drawn.at(7, y)[2], blue * 255, 1.0) << y;
  }
  EXPECT_EQ(drawn.at(7, 2)[0], 255);  // the top texel at the top
}

// Output flags: straight or premultiplied, and drawing over what the image holds.
TEST(RenderOutput, KeepStartsFromTheImage) {
  const Bytes tex{250, 10, 10, 100};
  Scene scene(4, 4);
  scene.draw(scene.quad(0, 0, 2, 4, scene.page(tex)));
  Drawn drawn(scene, 4, 4);
  const Bytes held{100, 150, 200, 128};
  for (bool straight : {false, true}) {
    for (std::size_t i = 0; i < drawn.image.size(); i += 4)
      for (std::size_t c = 0; c < 4; ++c) drawn.image[i + c] = held[c];
    ASSERT_TRUE(drawn.render(p2l::kRenderKeep | (straight ? p2l::kRenderStraight : 0)));
    const Px under = straight ? texel(held) : Px{held[0] / 255.0, held[1] / 255.0, held[2] / 255.0, held[3] / 255.0};
    EXPECT_TRUE(near(drawn, 1, 1, composite(0, 0, fragment(tex, kWhite, kBlack, 1), under), straight));
    EXPECT_TRUE(near(drawn, 3, 1, under, straight));
  }
  // Without the flag the image starts transparent.
  ASSERT_TRUE(drawn.render());
  EXPECT_EQ(drawn.at(3, 1), (Bytes{0, 0, 0, 0}));
  EXPECT_TRUE(near(drawn, 1, 1, fragment(tex, kWhite, kBlack, 1), false));
}

TEST(RenderTransform, NullFitsTheCanvasAndAffineMaps) {
  {
    Scene scene(16, 8);  // canvas 16 x 8 into 8 x 8: scale 0.5
    scene.draw(scene.quad(0, 0, 16, 8, scene.page({255, 255, 255, 255})));
    Drawn drawn(scene, 8, 8);
    ASSERT_TRUE(drawn.render());
    EXPECT_EQ(drawn.at(7, 3)[3], 255);
    EXPECT_EQ(drawn.at(7, 4)[3], 0);
  }
  {
    Scene scene(4, 4);
    scene.draw(scene.quad(0, 0, 2, 2, scene.page({255, 255, 255, 255})));
    Drawn drawn(scene, 8, 8);
    const p2l::Affine t{2, 0, 0, 2, 1, 0};  // canvas (0..2) -> image x 1..5, y 0..4
    ASSERT_TRUE(drawn.render(0, &t));
    for (std::uint32_t x = 0; x < 8; ++x) EXPECT_EQ(drawn.at(x, 2)[3], (x >= 1 && x < 5) ? 255 : 0) << x;
    EXPECT_EQ(drawn.at(2, 4)[3], 0);
  }
}

TEST(RenderRobustness, RefusesBadImages) {
  Scene scene(4, 4);
  scene.draw(scene.quad(0, 0, 4, 4, scene.page({255, 255, 255, 255})));
  Drawn drawn(scene, 4, 4);
  std::uint8_t small[16] = {};
  EXPECT_FALSE(drawn.renderer->render(*drawn.instance, nullptr, 4, 4));
  EXPECT_FALSE(drawn.renderer->render(*drawn.instance, small, 0, 4));
  EXPECT_FALSE(drawn.renderer->render(*drawn.instance, small, 4, 0));
  EXPECT_FALSE(drawn.renderer->render(*drawn.instance, small, 1u << 15, 1u << 14));  // 2^29 pixels
  for (std::uint8_t v : small) EXPECT_EQ(v, 0);
  // An instance of another model.
  Drawn other(scene, 4, 4);
  EXPECT_FALSE(drawn.renderer->render(*other.instance, drawn.image.data(), 4, 4));
}

TEST(RenderRobustness, ExtremeVerticesAndTransforms) {
  const float big = 3.4e38f;
  Scene scene(8, 8);
  const std::int32_t page = scene.page({255, 255, 255, 128});
  scene.draw(scene.triangle({-big, -big, big, 1e-30f, 0, big}, {0, 0, 1, 0, 0, 1}, page));   // overflowing sizes
  scene.draw(scene.triangle({0, 0, 4, 4, 8, 8}, {0, 0, 1, 1, 0, 1}, page));                 // degenerate
  scene.draw(scene.triangle({1, 1, 1, 1, 1, 1}, {0, 0, 1, 1, 0, 1}, page));                 // a point
  scene.draw(scene.quad(1e6f, 1e6f, 1e6f + 10, 1e6f + 10, page));                         // far off
  scene.draw(scene.quad(-1e9f, -1e9f, 1e9f, 1e9f, page));                                 // huge, covers all
  Drawn drawn(scene, 8, 8);
  ASSERT_TRUE(drawn.render());
  // The huge quad covers every pixel exactly once; the overflowing triangle draws somewhere or
  // nowhere, but never twice per pixel and never outside 0..255 (checked by the alpha values).
  for (std::uint32_t y = 0; y < 8; ++y)
    for (std::uint32_t x = 0; x < 8; ++x) {
      const std::uint8_t a = drawn.at(x, y)[3];
      EXPECT_TRUE(a == 128 || a == 192) << x << ", " << y << ": " << int(a);
    }
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (const p2l::Affine& t : {p2l::Affine{nan, 0, 0, nan, 0, 0}, p2l::Affine{inf, 0, 0, inf, 0, 0},
                               p2l::Affine{1e30f, 0, 0, 1e30f, 0, 0}, p2l::Affine{0, 0, 0, 0, 0, 0},
                               p2l::Affine{1, 0, 0, 1, nan, 0}}) {
    ASSERT_TRUE(drawn.render(0, &t));
    for (std::uint8_t v : drawn.image) EXPECT_TRUE(v == 0 || v == 128 || v == 192 || v == 255 || v == 64 || v == 96);
  }
}

TEST(RenderRobustness, MissingAndUndecodablePages) {
  Scene scene(8, 4);
  const std::int32_t good = scene.page({0, 255, 0, 255});
  p2l::Texture broken;
  broken.kind = p2l::TextureKind::Png;
  broken.data = std::vector<std::uint8_t>{1, 2, 3, 4};
  scene.rig.textures.push_back(broken);
  const auto broken_page = static_cast<std::int32_t>(scene.rig.textures.size() - 1);
  p2l::Texture ktx;
  ktx.kind = p2l::TextureKind::Ktx2;
  ktx.width = 2;
  ktx.height = 2;
  ktx.data = std::vector<std::uint8_t>{0xAB, 0x4B, 0x54, 0x58};
  scene.rig.textures.push_back(ktx);
  const auto ktx_page = static_cast<std::int32_t>(scene.rig.textures.size() - 1);

  const std::uint32_t no_page = scene.quad(0, 0, 1, 4, -1);
  const std::uint32_t past_end = scene.quad(1, 0, 2, 4, 9);
  const std::uint32_t undecodable = scene.quad(2, 0, 3, 4, broken_page);
  const std::uint32_t host_page = scene.quad(3, 0, 4, 4, ktx_page);
  // Masked by a mesh without pixels: no coverage; inverted, full coverage.
  const std::uint32_t masked = scene.quad(4, 0, 6, 4, good);
  const std::uint32_t inverted = scene.quad(6, 0, 8, 4, good);
  const std::uint32_t mask = scene.quad(0, 0, 8, 4, broken_page);  // not drawn
  scene.mesh(masked).mask_meshes = {mask};
  scene.mesh(inverted).mask_meshes = {mask};
  scene.mesh(inverted).invert_mask = true;
  for (std::uint32_t m : {no_page, past_end, undecodable, host_page, masked, inverted}) scene.draw(m);
  Drawn drawn(scene, 8, 4);
  ASSERT_TRUE(drawn.render());
  for (std::uint32_t x = 0; x < 6; ++x) EXPECT_EQ(drawn.at(x, 1), (Bytes{0, 0, 0, 0})) << x;
  EXPECT_EQ(drawn.at(7, 1), (Bytes{0, 255, 0, 255}));
  EXPECT_EQ(drawn.renderer->pages().page(static_cast<std::uint32_t>(broken_page)), nullptr);
  EXPECT_FALSE(drawn.renderer->pages().error(static_cast<std::uint32_t>(broken_page)).empty());
  EXPECT_EQ(drawn.renderer->pages().page(static_cast<std::uint32_t>(ktx_page)), nullptr);
  EXPECT_FALSE(drawn.renderer->pages().error(static_cast<std::uint32_t>(ktx_page)).empty());
  EXPECT_NE(drawn.renderer->pages().page(static_cast<std::uint32_t>(good)), nullptr);
  EXPECT_TRUE(drawn.renderer->pages().error(static_cast<std::uint32_t>(good)).empty());

  // Host pixels for the KTX2 page and in place of the broken one.
  const std::vector<std::uint8_t> red = solid(3, 3, {255, 0, 0, 255});
  p2l::Renderer& r = *drawn.renderer;
  EXPECT_FALSE(r.set_texture(9, red, 3, 3));
  EXPECT_FALSE(r.set_texture(static_cast<std::uint32_t>(ktx_page), red, 0, 3));
  EXPECT_FALSE(r.set_texture(static_cast<std::uint32_t>(ktx_page), red, 4, 4));  // too few bytes
  EXPECT_FALSE(r.set_texture(static_cast<std::uint32_t>(ktx_page), red, 1u << 15, 1u << 14));
  ASSERT_TRUE(r.set_texture(static_cast<std::uint32_t>(ktx_page), red, 3, 3));
  ASSERT_TRUE(r.set_texture(static_cast<std::uint32_t>(broken_page), red, 3, 3));
  ASSERT_TRUE(drawn.render());
  EXPECT_EQ(drawn.at(3, 1), (Bytes{255, 0, 0, 255}));
  EXPECT_EQ(drawn.at(2, 1), (Bytes{255, 0, 0, 255}));
  EXPECT_EQ(drawn.at(5, 1), (Bytes{0, 255, 0, 255}));  // the mask now covers
  EXPECT_EQ(drawn.at(7, 1), (Bytes{0, 0, 0, 0}));
  // Taken back.
  ASSERT_TRUE(r.set_texture(static_cast<std::uint32_t>(ktx_page), {}, 0, 0));
  ASSERT_TRUE(drawn.render());
  EXPECT_EQ(drawn.at(3, 1), (Bytes{0, 0, 0, 0}));
  EXPECT_EQ(drawn.at(2, 1), (Bytes{255, 0, 0, 255}));
}

// Random valid rigs (deformers, masks, isolated groups, every blend mode, culling) with a
// noise page, at random poses and transforms: every frame draws, and draws the same twice.
TEST(RenderRobustness, RandomRigs) {
  std::vector<std::uint8_t> noise(5 * 3 * 4);
  for (std::size_t i = 0; i < noise.size(); ++i) noise[i] = static_cast<std::uint8_t>(i * 97 + 13);
  const std::vector<std::uint8_t> png = png_of(5, 3, noise);
  int drawn_frames = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const auto model = with_png_page(p2l_test::make_random_rig(seed), png, 5, 3,
                                     [](std::size_t m) { return m % 5 == 4 ? -1 : 0; });
    ASSERT_TRUE(model);
    p2l::Instance instance(model);
    p2l::Renderer renderer(model);
    std::vector<std::uint8_t> first(48 * 40 * 4), second(48 * 40 * 4);
    const p2l::Affine turned{0.3f, -0.2f, 0.25f, 0.35f, 10, 5};
    for (int pose = 0; pose < 3; ++pose) {
      random_pose(instance, seed, pose);
      for (const p2l::Affine* t : {static_cast<const p2l::Affine*>(nullptr), &turned}) {
        ASSERT_TRUE(renderer.render(instance, first.data(), 48, 40, t));
        ASSERT_TRUE(renderer.render(instance, second.data(), 48, 40, t));
        EXPECT_EQ(first, second) << "seed " << seed;
        for (std::size_t i = 3; i < first.size(); i += 4)
          if (first[i] != 0) {
            ++drawn_frames;
            break;
          }
      }
    }
  }
  EXPECT_GT(drawn_frames, 60);  // of 360: the scenes are not all empty
}

// Two renderers sharing one TexturePages decode each page once and draw the same.
TEST(RenderPages, SharedPagesDrawTheSame) {
  Scene scene(4, 4);
  scene.draw(scene.quad(0, 0, 4, 4, scene.page({10, 20, 30, 200})));
  Drawn drawn(scene, 4, 4);
  auto pages = std::make_shared<p2l::TexturePages>(drawn.model);
  p2l::Renderer a(drawn.model, pages), b(drawn.model, pages);
  std::vector<std::uint8_t> ia(64), ib(64);
  ASSERT_TRUE(a.render(*drawn.instance, ia.data(), 4, 4));
  ASSERT_TRUE(b.render(*drawn.instance, ib.data(), 4, 4));
  EXPECT_EQ(ia, ib);
  EXPECT_EQ(&a.pages(), &b.pages());
  // Renderers on two threads decode the shared pages once and draw the same.
  auto fresh = std::make_shared<p2l::TexturePages>(drawn.model);
  p2l::Renderer c(drawn.model, fresh), d(drawn.model, fresh);
  p2l::Instance other(drawn.model);
  std::vector<std::uint8_t> ic(64), id(64);
  std::thread tc([&] {
    for (int i = 0; i < 50; ++i) c.render(*drawn.instance, ic.data(), 4, 4);
  });
  std::thread td([&] {
    for (int i = 0; i < 50; ++i) d.render(other, id.data(), 4, 4);
  });
  tc.join();
  td.join();
  EXPECT_EQ(ic, ib);
  EXPECT_EQ(id, ib);
  p2l::Renderer moved(std::move(a));
  ASSERT_TRUE(moved.render(*drawn.instance, ia.data(), 4, 4));
  EXPECT_EQ(ia, ib);
}

}  // namespace
