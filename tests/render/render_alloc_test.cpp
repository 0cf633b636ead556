// After the first frame at a size, rendering allocates nothing: this binary replaces the
// global allocator with a counting one and renders a scene with every kind of scratch the
// renderer keeps (more mask sets than it caches, group masks, nested isolated groups, PNG
// and host pages), through p2l::Renderer and through the C API.
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "p2l/format.hpp"
#include "p2l/p2l.h"
#include "render_reference.hpp"
#include "rig_builder.hpp"
#include "counting_allocator.hpp"

namespace {

using namespace render_test;

// Six mask sets over six columns (the renderer keeps four), a group masked by a mesh holding
// a nested group, a parameter moving the meshes and the groups' opacity, a KTX2 page the
// host fills.
Scene busy_scene() {
  Scene scene(48, 16);
  scene.rig.parameters.push_back(p2l_test::param("P", 0, 1, 0));
  const std::int32_t opaque = scene.page({0, 0, 0, 255});
  const std::int32_t colour = scene.page({200, 100, 50, 160});
  p2l::Texture ktx;
  ktx.kind = p2l::TextureKind::Ktx2;
  ktx.width = 2;
  ktx.height = 2;
  ktx.data = std::vector<std::uint8_t>{0xAB, 0x4B, 0x54, 0x58};
  scene.rig.textures.push_back(ktx);
  const auto host = static_cast<std::int32_t>(scene.rig.textures.size() - 1);

  std::vector<std::uint32_t> masks;
  for (int c = 0; c < 6; ++c) masks.push_back(scene.quad(static_cast<float>(8 * c), 0, static_cast<float>(8 * c + 8), 16, opaque));
  for (int k = 0; k < 8; ++k) {
    const std::uint32_t m = scene.quad(0, 0, 48, 16, colour);
    scene.mesh(m).mask_meshes = {masks[static_cast<std::size_t>(k % 6)], masks[static_cast<std::size_t>((k + 1) % 6)]};
    scene.mesh(m).invert_mask = k % 3 == 0;
    scene.mesh(m).blend = static_cast<std::uint8_t>(k * 2 % 18);
    scene.mesh(m).alpha_blend = static_cast<std::uint8_t>(k % 5);
    scene.draw(m);
  }
  const std::uint32_t g1 = scene.isolated_group(0, 10, 3);
  scene.part_of_group(g1).composite.mask_meshes = {masks[2]};
  const std::uint32_t moving = scene.quad(4, 2, 30, 14, host);
  scene.mesh(moving).keyforms = p2l_test::keyed(0, {0, 1}, std::vector<p2l::Array<float>>{
                                                                p2l::Array<float>{0, 0, 0, 0, 0, 0, 0, 0},
                                                                p2l::Array<float>{10, 1, 10, 1, 10, 1, 10, 1}});
  scene.draw(moving, g1);
  const std::uint32_t g2 = scene.isolated_group(g1, 16, 1);
  scene.rig.draw_groups[g2].channels = {p2l_test::scalar_channel(p2l::ChannelType::Opacity, 0, {0, 1}, {1.0f, 0.2f})};
  scene.draw(scene.quad(10, 0, 40, 16, colour), g2);
  return scene;
}

TEST(RenderAllocations, NoneAfterTheFirstFrameAtASize) {
  const Scene scene = busy_scene();
  Drawn drawn(scene, 48, 16);
  ASSERT_TRUE(drawn.renderer->set_texture(2, solid(4, 4, {0, 255, 0, 200}), 4, 4));
  ASSERT_TRUE(drawn.render());
  const p2l::Affine shifted{0.9f, 0.1f, -0.1f, 0.9f, 3, 1};
  for (int frame = 0; frame < 6; ++frame) {
    drawn.instance->parameters()[0] = static_cast<float>(frame) / 5.0f;
    drawn.instance->evaluate();
    const std::size_t before = p2l_test::allocation_count();
    const std::uint32_t flags = static_cast<std::uint32_t>(frame) & 3u;
    ASSERT_TRUE(drawn.render(flags, frame % 2 == 1 ? &shifted : nullptr));
    EXPECT_EQ(p2l_test::allocation_count() - before, 0u) << "frame " << frame;
  }
  // Another size: its first frame may allocate, the next ones do not.
  std::vector<std::uint8_t> bigger(96 * 40 * 4);
  ASSERT_TRUE(drawn.renderer->render(*drawn.instance, bigger.data(), 96, 40));
  for (int frame = 0; frame < 3; ++frame) {
    const std::size_t before = p2l_test::allocation_count();
    ASSERT_TRUE(drawn.renderer->render(*drawn.instance, bigger.data(), 96, 40));
    EXPECT_EQ(p2l_test::allocation_count() - before, 0u) << "frame " << frame;
  }
}

// The same on threads: each band's buffers are made at the first frame, the threads wait
// between frames, and handing a frame to them allocates nothing.
TEST(RenderAllocations, NoneAfterTheFirstFrameOnThreads) {
  const Scene scene = busy_scene();
  Drawn drawn(scene, 48, 16);
  ASSERT_TRUE(drawn.renderer->set_texture(2, solid(4, 4, {0, 255, 0, 200}), 4, 4));
  drawn.renderer->set_threads(3);
  const p2l::Affine tall{2.0f, 0.2f, -0.1f, 10.0f, 3, 1};  // the scene over 160 rows: five bands
  std::vector<std::uint8_t> image(96 * 160 * 4);
  ASSERT_TRUE(drawn.renderer->render(*drawn.instance, image.data(), 96, 160, &tall));
  for (int frame = 0; frame < 6; ++frame) {
    drawn.instance->parameters()[0] = static_cast<float>(frame) / 5.0f;
    drawn.instance->evaluate();
    const std::size_t before = p2l_test::allocation_count();
    ASSERT_TRUE(drawn.renderer->render(*drawn.instance, image.data(), 96, 160, &tall, static_cast<std::uint32_t>(frame) & 3u));
    EXPECT_EQ(p2l_test::allocation_count() - before, 0u) << "frame " << frame;
  }
}

TEST(RenderAllocations, NoneAfterTheFirstFrameThroughTheCApi) {
  const Scene scene = busy_scene();
  const p2l::WriteResult written = p2l::write(scene.rig);
  ASSERT_TRUE(written) << written.error.to_string();
  P2lRig* rig = p2l_rig_load(written.bytes.data(), written.bytes.size(), nullptr, 0);
  ASSERT_NE(rig, nullptr);
  std::vector<std::uint8_t> image(48 * 16 * 4);
  ASSERT_TRUE(p2l_render(rig, image.data(), 48, 16, nullptr, 0));
  for (int frame = 0; frame < 3; ++frame) {
    p2l_set_parameter(rig, 0, static_cast<float>(frame) / 2.0f);
    p2l_evaluate(rig);
    const std::size_t before = p2l_test::allocation_count();
    ASSERT_TRUE(p2l_render(rig, image.data(), 48, 16, nullptr, P2L_RENDER_STRAIGHT));
    EXPECT_EQ(p2l_test::allocation_count() - before, 0u) << "frame " << frame;
  }
  p2l_rig_free(rig);
}

}  // namespace
