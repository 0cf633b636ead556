// p2l_gl against the software renderer on the renderer tests' synthetic scenes
// (tests/render/render_reference.hpp), headless on OpenGL 3.3 core: every colour x alpha blend
// pair on meshes (three colour pairs, plain, masked and with an inverted mask) and on isolated
// groups (with opacity, multiply and screen colours, plain, masked, inverted), nested groups
// with masks on both levels, multiply and screen colours on meshes, culling with and without a
// mirroring transform. Each scene is drawn scaled by 8 through the same transform by both
// renderers; every channel of the premultiplied frames is compared. Bound: 2/255 at the 99.9th
// percentile and 3/255 at worst (these scenes have no edges that fall on pixel centres).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "egl_context.hpp"
#include "gl/gl_renderer.hpp"
#include "render_reference.hpp"

namespace {

using namespace render_test;

constexpr float kScale = 8;

p2l_test::EglContext& context() {
  static p2l_test::EglContext c(false);
  return c;
}

struct Compared {
  int worst = 0, p999 = 0;
};

// [scene] drawn by both renderers (with [prepare] applied to the instance first) through
// [transform]: the differences.
template <class Prepare>
Compared draw_both(const Scene& scene, std::uint32_t canvas_w, std::uint32_t canvas_h, const p2l::Affine& transform,
                   Prepare prepare) {
  Compared out;
  Drawn drawn(scene, static_cast<std::uint32_t>(canvas_w * kScale), static_cast<std::uint32_t>(canvas_h * kScale));
  if (!drawn.model) {
    ADD_FAILURE() << "the scene does not compile";
    return out;
  }
  prepare(*drawn.instance);
  drawn.instance->evaluate();
  if (!drawn.render(0, &transform)) ADD_FAILURE() << "the software renderer refused";
  auto pages = std::make_shared<p2l::TexturePages>(drawn.model);
  p2l::gl::GlRenderer gl(drawn.model, pages);
  std::string error;
  context().target(drawn.width, drawn.height);
  if (!gl.draw(*drawn.instance, transform, drawn.width, drawn.height, p2l::gl::kClear, error)) {
    ADD_FAILURE() << error;
    return out;
  }
  const std::vector<std::uint8_t> gpu = context().read();
  std::array<std::size_t, 256> histogram{};
  for (std::size_t i = 0; i < gpu.size(); ++i) ++histogram[static_cast<std::size_t>(std::abs(int{gpu[i]} - int{drawn.image[i]}))];
  std::size_t seen = 0;
  bool found = false;
  for (int d = 0; d < 256; ++d) {
    if (!histogram[static_cast<std::size_t>(d)]) continue;
    out.worst = d;
    seen += histogram[static_cast<std::size_t>(d)];
    if (!found && seen > gpu.size() * 999 / 1000) out.p999 = d, found = true;
  }
  return out;
}

const p2l::Affine kScaled{kScale, 0, 0, kScale, 0, 0};
void nothing(p2l::Instance&) {}

class GlScenes : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!context().ok()) GTEST_SKIP() << context().why();
  }
};

const char* const kBlendNames[] = {"Normal",   "CubismAdd", "CubismMultiply", "Add",        "AddGlow",   "Darken",
                                   "Multiply", "ColorBurn", "LinearBurn",     "Lighten",    "Screen",    "ColorDodge",
                                   "Overlay",  "SoftLight", "HardLight",      "LinearLight", "Hue",      "Color"};
const char* const kAlphaNames[] = {"Over", "Atop", "Out", "ConjointOver", "DisjointOver"};

class GlBlendPairs : public GlScenes, public ::testing::WithParamInterface<std::tuple<int, int>> {};

// As tests/render/render_blend_test.cpp's scenes: a backdrop quad, a source quad over its
// right part by the pair, plain, masked (alpha 150) and inverted.
TEST_P(GlBlendPairs, MeshesMatchTheSoftwareRenderer) {
  const auto [mode, alpha] = GetParam();
  const std::array<std::array<Bytes, 2>, 3> pairs = {{{{{51, 153, 230, 204}, {179, 77, 128, 153}}},
                                                      {{{255, 26, 0, 255}, {64, 255, 0, 102}}},
                                                      {{{200, 220, 40, 180}, {255, 0, 128, 200}}}}};
  for (int masking = 0; masking < 3; ++masking) {
    for (const auto& pair : pairs) {
      // The mask over rows 2 and down: masked and unmasked pixels in one frame.
      const Scene scene = blend_pair_scene(mode, alpha, pair[0], pair[1], 0.8f, masking, 2);
      const Compared c = draw_both(scene, 16, 8, kScaled, nothing);
      EXPECT_LE(c.p999, 2) << "masking " << masking;
      EXPECT_LE(c.worst, 3) << "masking " << masking;
    }
  }
}

// As tests/render/render_offscreen_test.cpp's: a backdrop and an isolated group of two meshes,
// with opacity, multiply and screen colours, composited by the pair.
TEST_P(GlBlendPairs, IsolatedGroupsMatchTheSoftwareRenderer) {
  const auto [mode, alpha] = GetParam();
  for (int masking = 0; masking < 3; ++masking) {
    const Scene scene = group_pair_scene(mode, alpha, {60, 140, 220, 210}, {230, 90, 40, 190}, {20, 200, 120, 160}, 0.7f,
                                         {0.9f, 0.6f, 1.0f}, {0.1f, 0.0f, 0.3f}, masking);
    const Compared c = draw_both(scene, 16, 4, kScaled, nothing);
    EXPECT_LE(c.p999, 2) << "masking " << masking;
    EXPECT_LE(c.worst, 3) << "masking " << masking;
  }
}

INSTANTIATE_TEST_SUITE_P(AllPairs, GlBlendPairs, ::testing::Combine(::testing::Range(0, 18), ::testing::Range(0, 5)),
                         [](const ::testing::TestParamInfo<std::tuple<int, int>>& info) {
                           return std::string(kBlendNames[std::get<0>(info.param)]) + "_" + kAlphaNames[std::get<1>(info.param)];
                         });

// Three levels of groups, each masked (by two meshes, inverted, by one), meshes inside by hue
// and hard light, the groups by soft light, colour dodge atop and multiply disjoint-over.
TEST_F(GlScenes, NestedGroupsWithMasksAndColours) {
  Scene scene(12, 6);
  const std::uint32_t base = scene.quad(0, 0, 12, 6, scene.page({180, 200, 60, 255}));
  const std::uint32_t a = scene.quad(0, 0, 9, 6, scene.page({50, 80, 210, 210}));
  const std::uint32_t b = scene.quad(2, 1, 12, 5, scene.page({240, 70, 150, 160}));
  const std::uint32_t c = scene.quad(4, 0, 10, 6, scene.page({80, 230, 40, 220}));
  const std::uint32_t d = scene.quad(6, 2, 11, 6, scene.page({200, 40, 40, 190}));
  const std::uint32_t k1 = scene.quad(0, 0, 7, 6, scene.page({0, 0, 0, 110}));
  const std::uint32_t k2 = scene.quad(3, 0, 12, 3, scene.page({0, 0, 0, 210}));
  const std::uint32_t k3 = scene.quad(5, 0, 12, 6, scene.page({0, 0, 0, 80}));
  const std::uint32_t k4 = scene.quad(0, 3, 12, 6, scene.page({0, 0, 0, 240}));
  scene.mesh(c).blend = 16;
  scene.mesh(d).blend = 14;
  scene.draw(base);
  const std::uint32_t g1 = scene.isolated_group(0, 13, 0);
  scene.draw(a, g1);
  const std::uint32_t g2 = scene.isolated_group(g1, 11, 1);
  scene.draw(b, g2);
  const std::uint32_t g3 = scene.isolated_group(g2, 6, 4);
  scene.draw(c, g3);
  scene.draw(d, g3);
  scene.part_of_group(g1).composite.opacity = 0.85f;
  scene.part_of_group(g1).composite.mask_meshes = {k1, k2};
  scene.part_of_group(g2).composite.opacity = 0.7f;
  scene.part_of_group(g2).composite.multiply = {1.0f, 0.7f, 0.5f};
  scene.part_of_group(g2).composite.mask_meshes = {k3};
  scene.part_of_group(g2).composite.invert_mask = true;
  scene.part_of_group(g3).composite.screen = {0.3f, 0.1f, 0.0f};
  scene.part_of_group(g3).composite.mask_meshes = {k4};
  const Compared result = draw_both(scene, 12, 6, kScaled, nothing);
  EXPECT_LE(result.p999, 2);
  EXPECT_LE(result.worst, 3);
}

// Multiply and screen colours on meshes (the host's override), by the fixed path and the shader.
TEST_F(GlScenes, MultiplyAndScreenColours) {
  for (std::uint8_t blend : {std::uint8_t{0}, std::uint8_t{6}}) {
    Scene scene(8, 4);
    const std::uint32_t back = scene.quad(0, 0, 8, 4, scene.page({30, 60, 90, 255}));
    const std::uint32_t top = scene.quad(2, 0, 8, 4, scene.page({200, 150, 100, 180}));
    scene.mesh(top).blend = blend;
    scene.draw(back);
    scene.draw(top);
    const Compared c = draw_both(scene, 8, 4, kScaled, [&](p2l::Instance& i) {
      i.set_mesh_colors(top, p2l::ColorOverride{{0.5f, 0.9f, 0.3f}, {0.4f, 0.0f, 0.7f}});
    });
    EXPECT_LE(c.p999, 2) << "blend " << int{blend};
    EXPECT_LE(c.worst, 3) << "blend " << int{blend};
  }
}

// Front and back faces with culling on, through a plain and a mirroring transform.
TEST_F(GlScenes, CullingWithAndWithoutAMirror) {
  Scene scene(8, 4);
  const std::uint32_t front = scene.quad(0, 0, 4, 4, scene.page({250, 0, 0, 255}), true);
  const std::uint32_t back = scene.quad(4, 0, 8, 4, scene.page({0, 250, 0, 255}), false);
  scene.mesh(front).culling = true;
  scene.mesh(back).culling = true;
  scene.draw(front);
  scene.draw(back);
  const p2l::Affine mirrored{-kScale, 0, 0, kScale, 8 * kScale, 0};
  for (const p2l::Affine& t : {kScaled, mirrored}) {
    const Compared c = draw_both(scene, 8, 4, t, nothing);
    EXPECT_LE(c.worst, 0) << "mirrored " << (t.a < 0);
  }
}

}  // namespace
