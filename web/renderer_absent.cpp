// p2l.wasm has no software renderer: browsers draw with WebGL (web/player/), and leaving it
// out keeps the module inside its size budget. The C API stays whole - p2l_render and
// p2l_render_texture say, through the host's log, which module has them (p2l-render.wasm).
#include "capi/handle.hpp"
#include "p2l/p2l.h"
#include "p2l/render.hpp"

// The rig handle owns a renderer it would make on first use; here it never makes one, so the
// renderer's scratch state has nothing in it.
namespace p2l::render {
struct Scratch {};
}  // namespace p2l::render
p2l::Renderer::~Renderer() = default;

namespace {
constexpr const char* kAbsent =
    "this module (p2l.wasm) has no software renderer: draw with WebGL, or load p2l-render.wasm";
}

extern "C" {

bool p2l_render(P2lRig*, uint8_t*, uint32_t, uint32_t, const float*, uint32_t) {
  p2l::capi::log(P2L_LOG_WARNING, kAbsent);
  return false;
}

bool p2l_render_texture(P2lRig*, uint32_t, const uint8_t*, uint32_t, uint32_t) {
  p2l::capi::log(P2L_LOG_WARNING, kAbsent);
  return false;
}

// WebAssembly has no threads: one, as p2l-render.wasm says too.
uint32_t p2l_render_threads(P2lRig* rig, uint32_t) { return rig != nullptr ? 1u : 0u; }

}
