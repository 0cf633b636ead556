// Frames drawn in bands on several threads (Renderer::set_threads) against the same frames on
// one: every byte the same. Random rigs (deformers, masks, nested isolated groups, every blend
// mode, culling) at random poses, plain and turned transforms, every output flag (drawing over
// the image's bytes too), image heights that do not divide into the bands evenly, with the
// AVX2 kernels and with the scalar code.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "random_rig.hpp"
#include "render/spans.hpp"
#include "render_reference.hpp"

namespace {

using namespace render_test;

std::vector<std::uint8_t> noise(std::uint32_t w, std::uint32_t h, std::mt19937& rng) {
  std::vector<std::uint8_t> px(std::size_t{w} * h * 4);
  for (auto& b : px) b = static_cast<std::uint8_t>(rng());
  for (std::size_t i = 3; i < px.size(); i += 4)
    if (rng() % 4 == 0) px[i] = 0;
  return px;
}

// Restores the AVX2 kernels when a test leaves, whatever it turned off.
struct SpansOn {
  ~SpansOn() { p2l::render::set_vector_spans(true); }
};

TEST(RenderBands, RandomRigsOnThreadsAsOnOne) {
  SpansOn restore;
  std::mt19937 rng(23);
  const std::vector<std::uint8_t> png = png_of(29, 17, noise(29, 17, rng));
  const std::vector<std::uint8_t> backdrop = noise(173, 261, rng);
  int compared = 0, banded = 0;
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    const auto model = with_png_page(p2l_test::make_random_rig(seed), png, 29, 17, [](std::size_t) { return 0; });
    ASSERT_TRUE(model);
    p2l::Instance instance(model);
    p2l::Renderer one(model), many(model);
    const unsigned threads = 2 + static_cast<unsigned>(seed % 4);  // 2 to 5
    many.set_threads(threads);
    ASSERT_EQ(many.threads(), threads);
    const p2l::Affine turned{1.3f, -0.9f, 1.1f, 1.6f, 40, 7};
    for (int pose = 0; pose < 3; ++pose) {
      random_pose(instance, seed, pose);
      for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{173, 261}, {64, 97}}) {
        for (const p2l::Affine* t : {static_cast<const p2l::Affine*>(nullptr), &turned}) {
          for (std::uint32_t flags = 0; flags < 4; ++flags) {
            const bool scalar = (flags + static_cast<std::uint32_t>(pose)) % 3 == 0;
            p2l::render::set_vector_spans(!scalar);
            const std::vector<std::uint8_t> before(backdrop.begin(), backdrop.begin() + std::size_t{w} * h * 4);
            std::vector<std::uint8_t> a = before, b = before;
            ASSERT_TRUE(one.render(instance, a.data(), w, h, t, flags));
            ASSERT_TRUE(many.render(instance, b.data(), w, h, t, flags));
            ASSERT_EQ(a, b) << "seed " << seed << ", pose " << pose << ", " << w << " x " << h << ", flags " << flags
                            << (t != nullptr ? ", turned" : "") << (scalar ? ", scalar code" : "") << ", " << threads
                            << " threads";
            ++compared;
            if (a != before) ++banded;
          }
        }
      }
    }
  }
  EXPECT_EQ(compared, 24 * 3 * 2 * 2 * 4);
  EXPECT_GT(banded, compared / 2);  // the frames draw something
}

// Triangles crossing the band boundaries (for 2 to 7 threads), corners on pixel centres, half
// of them masked by a mesh crossing every boundary, half inside an isolated group: the pixels
// on either side of a boundary come from different threads' clipping of one triangle.
TEST(RenderBands, EdgesOnTheBoundariesAsOnOne) {
  SpansOn restore;
  std::mt19937 rng(3);
  Scene scene(40, 200);
  const std::int32_t page = scene.page_pixels(16, 16, noise(16, 16, rng));
  const std::uint32_t mask = scene.triangle({0, 0, 40, 100.5f, 0, 200}, {0, 0, 1, 0.5f, 0, 1}, page);
  const std::uint32_t group = scene.isolated_group(0, 4, 1);
  for (int k = 0; k < 8; ++k) {
    const float y = 12.5f + 25.0f * static_cast<float>(k);
    const std::uint32_t m = scene.triangle({0, y - 12.5f, 40, y, 0, y + 12.5f}, {0, 0, 1, 0.5f, 0, 1}, page);
    if (k % 2 == 0) scene.mesh(m).mask_meshes = {mask};
    scene.draw(m, k < 4 ? 0 : group);
  }
  scene.draw(scene.quad(0, 0, 40, 200, page));
  for (const bool vector : {true, false}) {
    p2l::render::set_vector_spans(vector);
    Drawn drawn(scene, 40, 200);
    ASSERT_TRUE(drawn.render());
    const std::vector<std::uint8_t> alone = drawn.image;
    for (unsigned threads = 2; threads <= 7; ++threads) {
      drawn.renderer->set_threads(threads);
      std::fill(drawn.image.begin(), drawn.image.end(), std::uint8_t{9});
      ASSERT_TRUE(drawn.render());
      ASSERT_EQ(drawn.image, alone) << threads << " threads" << (vector ? "" : ", scalar code");
    }
    drawn.renderer->set_threads(1);
    ASSERT_TRUE(drawn.render());
    EXPECT_EQ(drawn.image, alone) << "back to one thread";
  }
}

TEST(RenderBands, ThreadCounts) {
  Scene scene(8, 8);
  scene.draw(scene.quad(0, 0, 8, 8, scene.page({10, 20, 30, 255})));
  Drawn drawn(scene, 8, 8);
  EXPECT_EQ(drawn.renderer->threads(), 1u);  // the default: the caller alone
  drawn.renderer->set_threads(0);            // every core
  EXPECT_GE(drawn.renderer->threads(), 1u);
  drawn.renderer->set_threads(3);
  EXPECT_EQ(drawn.renderer->threads(), 3u);
  ASSERT_TRUE(drawn.render());  // an image too small for bands: drawn whole
  EXPECT_EQ(drawn.at(4, 4), (Bytes{10, 20, 30, 255}));
}

}  // namespace
