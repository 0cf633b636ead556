// p2l_gl against p2l_render, headless (Mesa's llvmpipe through EGL), on OpenGL 3.3 core and on
// OpenGL ES 3.0: the example character at its golden poses and Haru (the npm sample, when
// fetched) at five poses, each frame drawn by both through the same transform and compared
// channel by channel, premultiplied. Bound: the 99.9th percentile of the differences at most
// 2/255 (RGBA8 mask buffers and the GPU's own float rounding move edge pixels by a level or
// two); the worst is printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "egl_context.hpp"
#include "p2l/p2l.h"
#include "p2l/p2l_cubism.h"
#include "p2l/p2l_gl.h"
#include "p2l/render.hpp"

namespace {

struct Difference {
  int worst = 0;
  int p999 = 0;
  double mean = 0;
};

Difference compare(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  std::array<std::size_t, 256> histogram{};
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const int d = std::abs(int{a[i]} - int{b[i]});
    ++histogram[static_cast<std::size_t>(d)];
    sum += d;
  }
  Difference out;
  out.mean = sum / static_cast<double>(a.size());
  std::size_t seen = 0;
  const auto at999 = static_cast<std::size_t>(static_cast<double>(a.size()) * 0.999);
  bool found = false;
  for (int d = 0; d < 256; ++d) {
    if (histogram[static_cast<std::size_t>(d)] == 0) continue;
    out.worst = d;
    seen += histogram[static_cast<std::size_t>(d)];
    if (!found && seen > at999) {
      out.p999 = d;
      found = true;
    }
  }
  return out;
}

std::vector<std::uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class GlVsSoftware : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    context_ = std::make_unique<p2l_test::EglContext>(GetParam());
    if (!context_->ok()) GTEST_SKIP() << context_->why();
  }

  // Draws [rig] with both renderers at [width] x [height] through p2l_framing's transform and
  // checks the bound; prints the figures.
  void check(P2lGl* gl, P2lRig* rig, const std::string& what, std::uint32_t width = 512, std::uint32_t height = 512) {
    float transform[6];
    ASSERT_TRUE(p2l_framing(rig, width, height, 0, 0.0f, transform));
    std::vector<std::uint8_t> software(std::size_t{width} * height * 4);
    ASSERT_TRUE(p2l_render(rig, software.data(), width, height, transform, 0));
    context_->target(width, height);
    ASSERT_TRUE(p2l_gl_draw(gl, rig, width, height, transform, P2L_GL_CLEAR)) << p2l_gl_failure(gl);
    const std::vector<std::uint8_t> gpu = context_->read();
    std::size_t drawn = 0;
    for (std::size_t i = 3; i < software.size(); i += 4) drawn += software[i] != 0;
    ASSERT_GT(drawn, software.size() / 4 / 50) << what << ": the software frame is nearly empty";
    const Difference d = compare(software, gpu);
    // P2L_GL_DUMP=DIR writes both frames and their difference (x16) there, to look at.
    if (const char* dump = std::getenv("P2L_GL_DUMP")) {
      std::vector<std::uint8_t> diff(gpu.size()), png;
      for (std::size_t i = 0; i < diff.size(); ++i)
        diff[i] = i % 4 == 3 ? 255 : static_cast<std::uint8_t>(std::min(255, 16 * std::abs(int{software[i]} - int{gpu[i]})));
      std::string name = what;
      std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
      name = std::string(dump) + "/" + (GetParam() ? "es_" : "gl_") + name;
      for (const auto& [suffix, pixels] : {std::pair<const char*, const std::vector<std::uint8_t>*>{"software", &software}, {"gpu", &gpu}, {"diff", &diff}}) {
        std::string why;
        if (p2l::encode_png(pixels->data(), width, height, png, why)) {
          std::ofstream(name + "_" + suffix + ".png", std::ios::binary).write(reinterpret_cast<const char*>(png.data()),
                                                                             static_cast<std::streamsize>(png.size()));
        }
      }
    }
    std::printf("gl_vs_software: %s, %s: mean %.4f, 99.9th percentile %d/255, worst %d/255\n",
                GetParam() ? "ES 3.0" : "GL 3.3", what.c_str(), d.mean, d.p999, d.worst);
    EXPECT_LE(d.p999, 2) << what;
  }

  std::unique_ptr<p2l_test::EglContext> context_;
};

// Pages the host gives the rig (p2l_render_texture: files next to the rig, a skin swap) are
// drawn by p2l_gl too, given before p2l_gl_create or after it (taken again at the next draw).
TEST_P(GlVsSoftware, PagesTheHostGaveAreDrawnToo) {
  const std::vector<std::uint8_t> bytes = read_file(std::string(P2L_SOURCE_DIR) + "/examples/character/character.p2lrt");
  char error[256] = "";
  P2lRig* rig = p2l_rig_load(bytes.data(), bytes.size(), error, sizeof error);
  ASSERT_NE(rig, nullptr) << error;
  ASSERT_GE(p2l_texture_count(rig), 1u);
  std::int32_t kind = 0;
  std::uint32_t width = 0, height = 0;
  const std::uint8_t* data = nullptr;
  std::size_t len = 0;
  p2l_texture_info(rig, 0, &kind, &width, &height, &data, &len);
  std::vector<std::uint8_t> page;
  std::string why;
  p2l::Image decoded;
  ASSERT_TRUE(p2l::decode_png({data, len}, decoded, why)) << why;
  // The page's own alpha (the shapes stay), with its colours turned: what the GPU draws must
  // change as the software picture does.
  const auto recoloured = [&](int shift) {
    std::vector<std::uint8_t> out = decoded.rgba;
    for (std::size_t i = 0; i < out.size(); i += 4)
      for (int c = 0; c < 3; ++c) out[i + static_cast<std::size_t>(c)] = decoded.rgba[i + static_cast<std::size_t>((c + shift) % 3)] ^ 0x5a;
    return out;
  };
  const std::vector<std::uint8_t> first = recoloured(1), second = recoloured(2);
  ASSERT_TRUE(p2l_render_texture(rig, 0, first.data(), decoded.width, decoded.height));
  P2lGl* gl = p2l_gl_create(rig, error, sizeof error);
  ASSERT_NE(gl, nullptr) << error;
  check(gl, rig, "example character, a page given before p2l_gl_create");
  ASSERT_TRUE(p2l_render_texture(rig, 0, second.data(), decoded.width, decoded.height));
  check(gl, rig, "example character, a page given after");
  ASSERT_TRUE(p2l_render_texture(rig, 0, nullptr, 0, 0));
  check(gl, rig, "example character, the file's page again");
  p2l_gl_destroy(gl);
  p2l_rig_free(rig);
}

TEST_P(GlVsSoftware, ExampleCharacterAtItsGoldenPoses) {
  const std::vector<std::uint8_t> bytes = read_file(std::string(P2L_SOURCE_DIR) + "/examples/character/character.p2lrt");
  char error[256] = "";
  P2lRig* rig = p2l_rig_load(bytes.data(), bytes.size(), error, sizeof error);
  ASSERT_NE(rig, nullptr) << error;
  P2lGl* gl = p2l_gl_create(rig, error, sizeof error);
  ASSERT_NE(gl, nullptr) << error;
  std::printf("gl_vs_software: %s\n", context_->renderer().c_str());
  const struct {
    const char* name;
    std::vector<std::pair<const char*, float>> parameters;
  } poses[] = {{"default", {}},
               {"turned", {{"ParamAngleX", 25.0f}, {"ParamAngleY", -15.0f}}},
               {"happy", {{"ParamEyeLOpen", 0.0f}, {"ParamEyeROpen", 0.0f}, {"ParamMouthOpenY", 1.0f}, {"ParamSmile", 1.0f}}}};
  for (const auto& pose : poses) {
    for (const auto& [id, value] : pose.parameters) p2l_set_parameter(rig, static_cast<std::uint32_t>(p2l_parameter_index(rig, id)), value);
    p2l_update(rig, 0.0f);
    check(gl, rig, std::string("example character, ") + pose.name);
  }
  p2l_gl_destroy(gl);
  p2l_rig_free(rig);
}

TEST_P(GlVsSoftware, HaruAtFivePoses) {
  const char* cache = std::getenv("P2L_CUBISM_CORE");
  const std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
  const std::string model = (cache && *cache ? std::string(cache) : home + "/.cache/p2lrt/live2dcubismcore-1.0.2") +
                            "/package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << "Haru not fetched (scripts/fetch_cubism_core.sh)";
  char error[512] = "";
  P2lRig* rig = p2l_rig_import_cubism(model.c_str(), 0, error, sizeof error);
  ASSERT_NE(rig, nullptr) << error;
  P2lGl* gl = p2l_gl_create(rig, error, sizeof error);
  ASSERT_NE(gl, nullptr) << error;
  check(gl, rig, "Haru, default");
  // Random poses over every parameter's range (a fixed sequence), then a motion played.
  std::uint32_t seed = 12345;
  const auto next = [&]() { return (seed = seed * 1664525u + 1013904223u) / 4294967296.0f; };
  for (int pose = 1; pose <= 3; ++pose) {
    for (std::uint32_t p = 0; p < p2l_parameter_count(rig); ++p) {
      float lo = 0, hi = 0, def = 0;
      p2l_parameter_range(rig, p, &lo, &hi, &def);
      p2l_set_parameter(rig, p, lo + (hi - lo) * next());
    }
    p2l_update(rig, 0.0f);
    check(gl, rig, "Haru, random pose " + std::to_string(pose), 640, 480);
  }
  p2l_play(rig, 0);
  for (int frame = 0; frame < 45; ++frame) p2l_update(rig, 1.0f / 60.0f);
  check(gl, rig, "Haru, 45 frames into a motion", 720, 1280);
  p2l_gl_destroy(gl);
  p2l_rig_free(rig);
}

INSTANTIATE_TEST_SUITE_P(Contexts, GlVsSoftware, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Es30" : "Gl33"; });

}  // namespace
