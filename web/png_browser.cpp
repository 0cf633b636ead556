// The WebAssembly module leaves PNG to the browser, which decodes images natively (the
// player uploads pages to WebGL itself; p2l_render takes pages through p2l_render_texture).
// Carrying libpng would add its size to every page load for no use there.
#include "p2l/render.hpp"

namespace p2l {

bool decode_png(std::span<const std::uint8_t>, Image& out, std::string& error) {
  out = {};
  error = "this WebAssembly build decodes no PNG: the browser decodes pages (see p2l_render_texture)";
  return false;
}

bool encode_png(const std::uint8_t*, std::uint32_t, std::uint32_t, std::vector<std::uint8_t>& out, std::string& error) {
  out.clear();
  error = "this WebAssembly build encodes no PNG";
  return false;
}

}  // namespace p2l
