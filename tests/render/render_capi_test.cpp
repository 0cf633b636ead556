// p2l_render and p2l_render_texture: the same pixels as p2l::Renderer, a page that does not
// decode logged once per model, host pages, and the arguments the C API refuses.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "p2l/format.hpp"
#include "p2l/p2l.h"
#include "render_reference.hpp"

namespace {

using namespace render_test;

std::vector<std::string> g_warnings;

void remember(std::int32_t level, const char* message, void*) {
  if (level == P2L_LOG_WARNING) g_warnings.emplace_back(message);
}

Scene two_pages() {
  Scene scene(8, 4);
  const std::int32_t good = scene.page({40, 200, 120, 180});
  p2l::Texture broken;
  broken.kind = p2l::TextureKind::Png;
  broken.width = 2;
  broken.height = 2;
  broken.data = std::vector<std::uint8_t>{0x89, 'P', 'N', 'G', 1, 2, 3};
  scene.rig.textures.push_back(broken);
  scene.draw(scene.quad(0, 0, 4, 4, good));
  scene.draw(scene.quad(4, 0, 8, 4, 1));
  return scene;
}

TEST(RenderCapi, DrawsAsTheRendererAndLogsABrokenPageOnce) {
  const Scene scene = two_pages();
  const p2l::WriteResult written = p2l::write(scene.rig);
  ASSERT_TRUE(written) << written.error.to_string();
  char error[256] = {};
  P2lModel* model = p2l_model_load(written.bytes.data(), written.bytes.size(), 0, error, sizeof error);
  ASSERT_NE(model, nullptr) << error;
  P2lRig* a = p2l_rig_create(model, error, sizeof error);
  P2lRig* b = p2l_rig_create(model, error, sizeof error);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);

  g_warnings.clear();
  p2l_set_log(remember, nullptr);
  std::vector<std::uint8_t> image(8 * 4 * 4, 7);
  EXPECT_TRUE(p2l_render(a, image.data(), 8, 4, nullptr, 0));
  EXPECT_TRUE(p2l_render(a, image.data(), 8, 4, nullptr, 0));
  EXPECT_TRUE(p2l_render(b, image.data(), 8, 4, nullptr, 0));
  p2l_set_log(nullptr, nullptr);
  ASSERT_EQ(g_warnings.size(), 1u);
  EXPECT_NE(g_warnings[0].find("page 1"), std::string::npos) << g_warnings[0];

  Drawn drawn(scene, 8, 4);
  ASSERT_TRUE(drawn.render());
  EXPECT_EQ(image, drawn.image);
  const float transform[6] = {0.5f, 0, 0, 1, 2, 0};
  const p2l::Affine affine{0.5f, 0, 0, 1, 2, 0};
  EXPECT_TRUE(p2l_render(b, image.data(), 8, 4, transform, P2L_RENDER_STRAIGHT));
  ASSERT_TRUE(drawn.render(p2l::kRenderStraight, &affine));
  EXPECT_EQ(image, drawn.image);
  EXPECT_EQ(image[(1 * 8 + 3) * 4 + 3], 180);  // canvas x 2..4 lands on 3..4
  EXPECT_EQ(image[(1 * 8 + 1) * 4 + 3], 0);

  // Host pixels for the page that does not decode, then taken back.
  const std::vector<std::uint8_t> red = solid(2, 2, {255, 0, 0, 255});
  EXPECT_FALSE(p2l_render_texture(a, 2, red.data(), 2, 2));
  EXPECT_FALSE(p2l_render_texture(a, 1, red.data(), 0, 2));
  EXPECT_FALSE(p2l_render_texture(a, 1, red.data(), 1u << 15, 1u << 14));
  EXPECT_TRUE(p2l_render_texture(a, 1, red.data(), 2, 2));
  EXPECT_TRUE(p2l_render(a, image.data(), 8, 4, nullptr, 0));
  EXPECT_EQ(image[(1 * 8 + 6) * 4 + 0], 255);
  EXPECT_EQ(image[(1 * 8 + 6) * 4 + 3], 255);
  EXPECT_TRUE(p2l_render(b, image.data(), 8, 4, nullptr, 0));  // another rig: its own pages
  EXPECT_EQ(image[(1 * 8 + 6) * 4 + 3], 0);
  EXPECT_TRUE(p2l_render_texture(a, 1, nullptr, 0, 0));
  EXPECT_TRUE(p2l_render(a, image.data(), 8, 4, nullptr, 0));
  EXPECT_EQ(image[(1 * 8 + 6) * 4 + 3], 0);

  // Kept pixels, straight in and out.
  for (std::size_t i = 0; i < image.size(); i += 4) {
    image[i] = 10;
    image[i + 1] = 20;
    image[i + 2] = 30;
    image[i + 3] = 255;
  }
  EXPECT_TRUE(p2l_render(a, image.data(), 8, 4, nullptr, P2L_RENDER_KEEP | P2L_RENDER_STRAIGHT));
  EXPECT_EQ(image[(1 * 8 + 6) * 4 + 0], 10);
  EXPECT_EQ(image[(1 * 8 + 6) * 4 + 3], 255);

  // Refused arguments.
  EXPECT_FALSE(p2l_render(nullptr, image.data(), 8, 4, nullptr, 0));
  EXPECT_FALSE(p2l_render(a, nullptr, 8, 4, nullptr, 0));
  EXPECT_FALSE(p2l_render(a, image.data(), 0, 4, nullptr, 0));
  EXPECT_FALSE(p2l_render(a, image.data(), 1u << 15, 1u << 14, nullptr, 0));
  EXPECT_FALSE(p2l_render_texture(nullptr, 0, red.data(), 2, 2));
  EXPECT_EQ(p2l_rig_failure(a), nullptr);
  EXPECT_EQ(p2l_rig_failure(b), nullptr);

  p2l_rig_free(a);
  p2l_rig_free(b);
  p2l_model_free(model);
}

// A rig loaded alone (its own model) decodes and logs on its own.
TEST(RenderCapi, RigLoadRendersItsPages) {
  const Scene scene = two_pages();
  const p2l::WriteResult written = p2l::write(scene.rig);
  ASSERT_TRUE(written);
  P2lRig* rig = p2l_rig_load(written.bytes.data(), written.bytes.size(), nullptr, 0);
  ASSERT_NE(rig, nullptr);
  std::vector<std::uint8_t> image(8 * 4 * 4);
  EXPECT_TRUE(p2l_render(rig, image.data(), 8, 4, nullptr, 0));
  Drawn drawn(scene, 8, 4);
  ASSERT_TRUE(drawn.render());
  EXPECT_EQ(image, drawn.image);
  p2l_rig_free(rig);
}

}  // namespace

namespace {

// p2l_render_threads: the count in use, and frames on threads the same bytes as on one.
TEST(RenderCapi, ThreadsDrawTheBytesOfOne) {
  using namespace render_test;
  Scene scene(60, 120);
  const std::int32_t page = scene.page_pixels(2, 2, {255, 0, 0, 255, 0, 255, 0, 200, 0, 0, 255, 120, 250, 250, 250, 60});
  scene.draw(scene.quad(3, 5, 57, 115, page));
  scene.draw(scene.triangle({0, 0, 60, 61.5f, 10, 120}, {0, 0, 1, 0.5f, 0, 1}, page));
  const p2l::WriteResult written = p2l::write(scene.rig);
  ASSERT_TRUE(written) << written.error.to_string();
  char error[256] = {};
  P2lRig* rig = p2l_rig_load(written.bytes.data(), written.bytes.size(), error, sizeof error);
  ASSERT_NE(rig, nullptr) << error;
  p2l_evaluate(rig);
  std::vector<std::uint8_t> one(60 * 120 * 4, 3), many(60 * 120 * 4, 5);
  ASSERT_TRUE(p2l_render(rig, one.data(), 60, 120, nullptr, P2L_RENDER_STRAIGHT));
  EXPECT_EQ(p2l_render_threads(rig, 3), 3u);
  ASSERT_TRUE(p2l_render(rig, many.data(), 60, 120, nullptr, P2L_RENDER_STRAIGHT));
  EXPECT_EQ(one, many);
  EXPECT_GE(p2l_render_threads(rig, 0), 1u);
  EXPECT_EQ(p2l_render_threads(rig, 1), 1u);
  EXPECT_EQ(p2l_render_threads(nullptr, 2), 0u);
  p2l_rig_free(rig);
}

}  // namespace
