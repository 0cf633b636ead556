// p2l_gl against the software renderer on the same frames, in one run: N Haru instances (the npm
// sample, fetched by scripts/fetch_cubism_core.sh) laid out in a grid over a 1280 x 720 picture,
// each playing a motion with physics, drawn by p2l_gl (one renderer per instance, as hosts
// make one per rig, into one framebuffer) and by p2l::Renderer (one per instance, into one
// image, each over what the last drew). Headless through EGL: Mesa's llvmpipe by default,
// a GPU where the EGL device is one (EGL_PLATFORM=device is not handled; the surfaceless
// platform picks Mesa's default driver). Prints frames per second of each, their ratio, and
// p2l_gl's draw calls and framebuffer binds per frame.
//   p2l_gl_bench [FRAMES]   (./bench.sh --gl)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "egl_context.hpp"
#include "gl/gl_renderer.hpp"
#include "p2l/anim.hpp"
#include "p2l/cubism.hpp"
#include "p2l/eval.hpp"
#include "p2l/render.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint32_t kWidth = 1280, kHeight = 720;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

int main(int argc, char** argv) {
  const int frames = argc > 1 ? std::atoi(argv[1]) : 30;
  const char* cache = std::getenv("P2L_CUBISM_CORE");
  const std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
  const std::filesystem::path model3 = (cache && *cache ? std::string(cache) : home + "/.cache/p2lrt/live2dcubismcore-1.0.2") +
                                       "/package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json";
  const p2l::ImportResult imported = p2l::import_cubism(model3);
  if (!imported) {
    std::fprintf(stderr, "gl_bench: Haru does not import (scripts/fetch_cubism_core.sh): %s\n", imported.error.message.c_str());
    return 1;
  }
  auto compiled = p2l::Model::create(std::make_shared<const p2l::Rig>(imported.rig));
  if (!compiled) return 1;
  const std::shared_ptr<const p2l::Model> model = compiled.model;
  auto pages = std::make_shared<p2l::TexturePages>(model);
  p2l_test::EglContext context(false);
  if (!context.ok()) {
    std::fprintf(stderr, "gl_bench: %s\n", context.why().c_str());
    return 1;
  }
  std::printf("gl_bench: %s; Haru, %d frames each at %u x %u\n", context.renderer().c_str(), frames, kWidth, kHeight);
  std::printf("| instances | p2l_gl fps | software fps | p2l_gl / software | draw calls / frame | framebuffer binds / frame |\n");
  std::printf("|---|---|---|---|---|---|\n");
  std::vector<std::uint8_t> image(std::size_t{kWidth} * kHeight * 4);
  for (const int n : {1, 8, 32}) {
    // A grid of cells of the picture's aspect; each instance framed into its cell.
    const int columns = n == 1 ? 1 : n == 8 ? 4 : 8, rows = (n + columns - 1) / columns;
    const float cell_w = static_cast<float>(kWidth) / static_cast<float>(columns),
                cell_h = static_cast<float>(kHeight) / static_cast<float>(rows);
    const p2l::Rig& rig = model->rig();
    const float scale = std::min(cell_w / rig.canvas.width, cell_h / rig.canvas.height);
    std::vector<std::unique_ptr<p2l::Instance>> instances;
    std::vector<std::unique_ptr<p2l::Animator>> animators;
    std::vector<std::unique_ptr<p2l::gl::GlRenderer>> gl;
    std::vector<std::unique_ptr<p2l::Renderer>> software;
    std::vector<p2l::Affine> at;
    for (int i = 0; i < n; ++i) {
      instances.push_back(std::make_unique<p2l::Instance>(model));
      animators.push_back(std::make_unique<p2l::Animator>(model));
      animators.back()->play(static_cast<std::int32_t>(i % std::max<std::size_t>(1, rig.clips.size())));
      gl.push_back(std::make_unique<p2l::gl::GlRenderer>(model, pages));
      software.push_back(std::make_unique<p2l::Renderer>(model, pages));
      at.push_back({scale, 0, 0, scale, static_cast<float>(i % columns) * cell_w, static_cast<float>(i / columns) * cell_h});
    }
    double gl_time = 0, software_time = 0;
    p2l::gl::FrameStats per_frame;
    std::string error;
    for (int f = 0; f < frames + 2; ++f) {  // two warm-up frames, not counted
      for (int i = 0; i < n; ++i) animators[static_cast<std::size_t>(i)]->update(*instances[static_cast<std::size_t>(i)], 1.0f / 30.0f);
      context.target(kWidth, kHeight);
      glFinish();
      const Clock::time_point g = Clock::now();
      std::uint32_t draws = 0, binds = 0;
      for (int i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (!gl[k]->draw(*instances[k], at[k], kWidth, kHeight, 0, error)) {
          std::fprintf(stderr, "gl_bench: %s\n", error.c_str());
          return 1;
        }
        draws += gl[k]->stats().draw_calls;
        binds += gl[k]->stats().framebuffer_binds;
      }
      glFinish();
      const double gpu = seconds_since(g);
      std::fill(image.begin(), image.end(), 0);
      const Clock::time_point s = Clock::now();
      for (int i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i);
        software[k]->render(*instances[k], image.data(), kWidth, kHeight, &at[k], p2l::kRenderKeep);
      }
      const double cpu = seconds_since(s);
      if (f >= 2) {
        gl_time += gpu;
        software_time += cpu;
        per_frame.draw_calls = draws;
        per_frame.framebuffer_binds = binds;
      }
    }
    const double gl_fps = static_cast<double>(frames) / gl_time, software_fps = static_cast<double>(frames) / software_time;
    std::printf("| %d | %.1f | %.1f | %.2f | %u | %u |\n", n, gl_fps, software_fps, gl_fps / software_fps,
                per_frame.draw_calls, per_frame.framebuffer_binds);
    gl.clear();
  }
  return 0;
}
