// The bundled example character drawn at three poses against the committed golden images
// (examples/character/golden, written by `p2lrt render ... --size 256x256`, straight alpha on
// transparency). Any change to evaluation, the part poses or rendering that moves a pixel
// shows here.
//
// Tolerance: 1/255 per channel. The evaluation and the renderer run fixed float operation
// orders without contraction, so one build reproduces the goldens exactly; what may differ
// on another machine is the last bit of libm's sin/cos/atan2 (rotation deformers, physics
// is not involved), which moves vertices by ~1e-5 px and texels by less than 1e-4 of a
// level: enough to flip the rounding of a channel by one step, never more. Edge pixels
// would only differ by more if a pixel centre sat within 1e-5 px of a triangle edge.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "p2l/anim.hpp"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "p2l/render.hpp"
#include "test_util.hpp"

namespace {

const std::string kFolder = std::string(P2L_SOURCE_DIR) + "/examples/character";

struct GoldenPose {
  const char* golden;
  std::vector<std::pair<const char*, float>> parameters;
};

class ExampleGolden : public ::testing::TestWithParam<GoldenPose> {};

TEST_P(ExampleGolden, RendersAsCommitted) {
  const GoldenPose& pose = GetParam();
  auto loaded = p2l::load(p2l_test::read_bytes(kFolder + "/character.p2lrt"));
  ASSERT_TRUE(loaded) << loaded.error.to_string();
  auto model = p2l::Model::create(loaded.rig);
  ASSERT_TRUE(model) << model.error.to_string();
  p2l::Instance character(model.model);
  for (const auto& [id, value] : pose.parameters) {
    const std::int32_t p = loaded.rig->find_parameter(id);
    ASSERT_GE(p, 0) << id;
    character.parameters()[static_cast<std::size_t>(p)] = value;
  }
  // As hosts show it: with the part poses (the ribbons shown, the star clips hidden).
  p2l::Animator animator(model.model);
  animator.evaluate(character);

  p2l::Image golden;
  std::string error;
  ASSERT_TRUE(p2l::decode_png(p2l_test::read_bytes(kFolder + "/golden/" + pose.golden), golden, error)) << error;
  ASSERT_EQ(golden.width, 256u);
  ASSERT_EQ(golden.height, 256u);
  // `p2lrt render` fits the (square) canvas into the image: the null transform does the same.
  ASSERT_EQ(loaded.rig->canvas.width, loaded.rig->canvas.height);
  std::vector<std::uint8_t> pixels(golden.rgba.size());
  p2l::Renderer renderer(model.model);
  ASSERT_TRUE(renderer.render(character, pixels.data(), golden.width, golden.height, nullptr, p2l::kRenderStraight));

  int worst = 0;
  std::size_t differing = 0, drawn = 0;
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    const int d = std::abs(static_cast<int>(pixels[i]) - static_cast<int>(golden.rgba[i]));
    worst = std::max(worst, d);
    differing += d != 0;
    drawn += i % 4 == 3 && pixels[i] != 0;
  }
  EXPECT_LE(worst, 1) << differing << " channels differ from " << pose.golden;
  EXPECT_GT(drawn, pixels.size() / 4 / 4) << "the character covers too little of the image";
}

INSTANTIATE_TEST_SUITE_P(
    Poses, ExampleGolden,
    ::testing::Values(GoldenPose{"default.png", {}},
                      GoldenPose{"turned.png", {{"ParamAngleX", 25.0f}, {"ParamAngleY", -15.0f}}},
                      GoldenPose{"happy.png",
                                 {{"ParamEyeLOpen", 0.0f}, {"ParamEyeROpen", 0.0f}, {"ParamMouthOpenY", 1.0f}, {"ParamSmile", 1.0f}}}),
    [](const auto& info) { return std::string(info.param.golden).substr(0, std::string(info.param.golden).find('.')); });

}  // namespace
