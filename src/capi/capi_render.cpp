// Software rendering through the C API: p2l_render, p2l_render_texture and p2l_render_threads
// over the rig's p2l::Renderer, which shares the model's decoded pages with every other rig of the model.
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "base/exceptions.hpp"
#include "capi/handle.hpp"
#include "p2l/render.hpp"
#include "render/report.hpp"

namespace {

constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 28;

// A page that does not decode goes to the host's log, once per model (its pages decode once).
void report_page(std::uint32_t page, const char* reason) noexcept {
  P2L_TRY {
    const std::string message = "Texture page " + std::to_string(page) + " is not a PNG the renderer reads: " +
                                (reason != nullptr ? reason : "");
    p2l::capi::log(P2L_LOG_WARNING, message.c_str());
  }
  P2L_CATCH_ALL {}
}

p2l::Renderer& renderer_of(P2lRig& rig) {
  if (!rig.renderer) rig.renderer = std::make_unique<p2l::Renderer>(rig.data->model, rig.data->pages);
  return *rig.renderer;
}

bool bad_size(std::uint32_t width, std::uint32_t height) {
  const std::uint64_t pixels = std::uint64_t{width} * height;
  return pixels == 0 || pixels > kMaxPixels;
}

}  // namespace

extern "C" {

bool p2l_render(P2lRig* rig, uint8_t* rgba, uint32_t width, uint32_t height, const float* transform,
                        uint32_t flags) {
  if (rgba == nullptr || bad_size(width, height)) return false;
  return p2l::capi::guarded(rig, false, [&](P2lRig& r) {
    p2l::render::set_page_failure_reporter(&report_page);
    p2l::Affine affine;
    if (transform != nullptr)
      affine = p2l::Affine{transform[0], transform[1], transform[2], transform[3], transform[4], transform[5]};
    return renderer_of(r).render(r.instance, rgba, width, height, transform != nullptr ? &affine : nullptr, flags);
  });
}

bool p2l_render_texture(P2lRig* rig, uint32_t page, const uint8_t* rgba, uint32_t width, uint32_t height) {
  return p2l::capi::guarded(rig, false, [&](P2lRig& r) {
    if (page >= r.rig().textures.size()) return false;
    if (rgba == nullptr) return renderer_of(r).set_texture(page, {}, 0, 0);
    if (bad_size(width, height)) return false;
    const std::span<const std::uint8_t> pixels(rgba, std::size_t{width} * height * 4);
    return renderer_of(r).set_texture(page, pixels, width, height);
  });
}

uint32_t p2l_render_threads(P2lRig* rig, uint32_t threads) {
  return p2l::capi::guarded(rig, 0u, [&](P2lRig& r) {
    p2l::Renderer& renderer = renderer_of(r);
    renderer.set_threads(threads);
    return renderer.threads();
  });
}

}  // extern "C"
