// The renderer's AVX2 kernels (src/render/spans.hpp) against its scalar code: the same scenes
// drawn both ways must give the same bytes. Scenes: many overlapping triangles with random
// corners (some off the image, some folded over each other), random UVs past the page's
// edges, noise pages with transparent texels, masks plain and inverted, culling, colours,
// opacity, Cubism's add and multiply (the kernels) and a blend mode the kernels leave to the
// scalar code, every output flag, odd image
// widths (the kernels' last partial groups of pixels), mirrored and turned transforms; then
// random rigs with deformers, groups and every blend mode.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "random_rig.hpp"
#include "render/spans.hpp"
#include "render_reference.hpp"

namespace {

using namespace render_test;

// Draws [renderer]'s frame with the kernels on and off; false when the processor has none.
bool both_ways(p2l::Renderer& renderer, const p2l::Instance& instance, std::uint32_t w, std::uint32_t h,
               const p2l::Affine* t, std::uint32_t flags, std::vector<std::uint8_t>& vector,
               std::vector<std::uint8_t>& scalar) {
  if (!p2l::render::vector_spans()) return false;
  vector.assign(std::size_t{w} * h * 4, 77);
  scalar = vector;
  EXPECT_TRUE(renderer.render(instance, vector.data(), w, h, t, flags));
  p2l::render::set_vector_spans(false);
  EXPECT_TRUE(renderer.render(instance, scalar.data(), w, h, t, flags));
  p2l::render::set_vector_spans(true);
  return true;
}

std::vector<std::uint8_t> noise(std::uint32_t w, std::uint32_t h, std::mt19937& rng) {
  std::vector<std::uint8_t> px(std::size_t{w} * h * 4);
  for (std::size_t i = 0; i < px.size(); ++i) px[i] = static_cast<std::uint8_t>(rng());
  // A quarter of the texels transparent, a quarter opaque.
  for (std::size_t i = 3; i < px.size(); i += 4) {
    const unsigned kind = rng() % 4;
    if (kind == 0) px[i] = 0;
    if (kind == 1) px[i] = 255;
  }
  return px;
}

TEST(RenderSpans, TrianglesMasksAndFlagsAsTheScalarCode) {
  if (!p2l::render::vector_spans()) GTEST_SKIP() << "no AVX2 on this processor";
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> pos(-10.0f, 70.0f), tex(-0.2f, 1.2f), unit(0.0f, 1.0f);
  int compared = 0;
  for (int scene_number = 0; scene_number < 12; ++scene_number) {
    Scene scene(61, 47);
    const std::int32_t pages[2] = {scene.page_pixels(37, 23, noise(37, 23, rng)),
                                   scene.page_pixels(300, 200, noise(300, 200, rng))};
    std::vector<std::uint32_t> meshes;
    for (int m = 0; m < 8; ++m) {
      p2l::Mesh mesh;
      mesh.id = "t" + std::to_string(m);
      mesh.name = mesh.id;
      mesh.texture_page = pages[m % 2];
      std::vector<float> xy, uv;
      std::vector<std::uint32_t> indices;
      const int corners = 12;
      for (int k = 0; k < corners; ++k) {
        xy.push_back(pos(rng));
        xy.push_back(pos(rng));
        uv.push_back(tex(rng));
        uv.push_back(tex(rng));
      }
      for (int k = 0; k < 16; ++k)
        for (int c = 0; c < 3; ++c) indices.push_back(static_cast<std::uint32_t>(rng() % corners));
      mesh.geometry = p2l::Geometry{std::move(xy), std::move(uv), p2l::IndexArray(std::move(indices))};
      mesh.opacity = m == 3 ? 1.0f : 0.2f + 0.8f * unit(rng);
      mesh.multiply = {unit(rng), unit(rng), 1.0f};
      mesh.screen = {0.0f, unit(rng) * 0.5f, 0.0f};
      mesh.culling = m % 3 == 1;
      if (m == 5) mesh.blend = 2;                     // MULTIPLY_COMPATIBLE: the kernels
      if (m == 6) mesh.blend = 6, mesh.alpha_blend = 1;  // MULTIPLY with ATOP: the scalar code
      if (m == 7) mesh.blend = 1;                     // ADD_COMPATIBLE: the kernels
      scene.rig.meshes.push_back(std::move(mesh));
      meshes.push_back(static_cast<std::uint32_t>(scene.rig.meshes.size() - 1));
    }
    // Masks: mesh 1 by mesh 0 and 7, mesh 4 by mesh 2 inverted, mesh 6 by mesh 0.
    scene.mesh(meshes[1]).mask_meshes = {meshes[0], meshes[7]};
    scene.mesh(meshes[4]).mask_meshes = {meshes[2]};
    scene.mesh(meshes[4]).invert_mask = true;
    scene.mesh(meshes[6]).mask_meshes = {meshes[0]};
    // Cubism's multiply and add masked too: mesh 5 by mesh 3, mesh 7 by mesh 2 inverted.
    scene.mesh(meshes[5]).mask_meshes = {meshes[3]};
    scene.mesh(meshes[7]).mask_meshes = {meshes[2]};
    scene.mesh(meshes[7]).invert_mask = true;
    for (std::uint32_t m : meshes) scene.draw(m);
    Drawn drawn(scene, 61, 47);
    ASSERT_TRUE(drawn.renderer);
    const p2l::Affine mirrored{-0.9f, 0.21f, 0.17f, 0.93f, 58.3f, -1.7f};
    for (const p2l::Affine* t : {static_cast<const p2l::Affine*>(nullptr), &mirrored}) {
      for (std::uint32_t flags = 0; flags < 4; ++flags) {
        for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{61, 47}, {13, 9}, {64, 40}}) {
          std::vector<std::uint8_t> vector, scalar;
          ASSERT_TRUE(both_ways(*drawn.renderer, *drawn.instance, w, h, t, flags, vector, scalar));
          ASSERT_EQ(vector, scalar) << "scene " << scene_number << ", flags " << flags << ", " << w << " x " << h
                                    << (t != nullptr ? ", mirrored" : "");
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, 12 * 2 * 4 * 3);
}

// Random valid rigs (deformers, masks, isolated groups, every blend mode, culling) at random
// poses, as RenderRobustness.RandomRigs draws them.
TEST(RenderSpans, RandomRigsAsTheScalarCode) {
  if (!p2l::render::vector_spans()) GTEST_SKIP() << "no AVX2 on this processor";
  std::mt19937 rng(11);
  const std::vector<std::uint8_t> png = png_of(19, 11, noise(19, 11, rng));
  int drawn_frames = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto model = with_png_page(p2l_test::make_random_rig(seed), png, 19, 11, [](std::size_t) { return 0; });
    ASSERT_TRUE(model);
    p2l::Instance instance(model);
    p2l::Renderer renderer(model);
    const p2l::Affine turned{0.3f, -0.2f, 0.25f, 0.35f, 10, 5};
    for (int pose = 0; pose < 3; ++pose) {
      random_pose(instance, seed, pose);
      for (const p2l::Affine* t : {static_cast<const p2l::Affine*>(nullptr), &turned}) {
        std::vector<std::uint8_t> vector, scalar;
        ASSERT_TRUE(both_ways(renderer, instance, 45, 38, t, p2l::kRenderStraight, vector, scalar));
        ASSERT_EQ(vector, scalar) << "seed " << seed << ", pose " << pose;
        for (std::size_t i = 3; i < vector.size(); i += 4)
          if (vector[i] != 0) {
            ++drawn_frames;
            break;
          }
      }
    }
  }
  EXPECT_GT(drawn_frames, 40);  // of 240: the scenes are not all empty
}

}  // namespace
