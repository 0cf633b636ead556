// p2l_framing: the transform p2l_render and `p2lrt render` frame a character with (p2l::framing).
// A file of its own: the WebAssembly module without the software renderer keeps it.
#include <algorithm>
#include <cstdint>

#include "capi/handle.hpp"
#include "p2l/render.hpp"

extern "C" {

bool p2l_framing(const P2lRig* rig, uint32_t width, uint32_t height, uint32_t flags, float margin, float* out) {
  if (out == nullptr || width == 0 || height == 0) return false;
  return p2l::capi::guarded(rig, false, [&](const P2lRig& r) {
    p2l::Framing how;
    how.drawn = (flags & P2L_FRAME_DRAWN) != 0;
    how.margin = margin;
    how.flip_y = (flags & P2L_FRAME_FLIP_Y) != 0;
    const p2l::Affine t = p2l::framing(r.instance, width, height, how);
    const float six[6] = {t.a, t.b, t.c, t.d, t.tx, t.ty};
    std::copy(six, six + 6, out);
    return true;
  });
}

}  // extern "C"
