// p2l_gl's offscreen surfaces, all of the drawing's size: the frame, one layer per level of
// isolated-group nesting, mask buffers, and the backdrop the blend shader reads the destination
// from. RGBA8, premultiplied, the drawing's top row first (src/gl/shaders/vertex.glsl says why).
// Each is made the first time a frame needs it at this size; none per frame after that.
#pragma once

#include <epoxy/gl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace p2l::gl {

struct Rect {
  std::int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  void grow(const Rect& r) {
    if (r.empty()) return;
    if (empty()) {
      *this = r;
      return;
    }
    x0 = x0 < r.x0 ? x0 : r.x0;
    y0 = y0 < r.y0 ? y0 : r.y0;
    x1 = x1 > r.x1 ? x1 : r.x1;
    y1 = y1 > r.y1 ? y1 : r.y1;
  }
};

struct Surface {
  GLuint texture = 0, framebuffer = 0;
};

class Surfaces {
 public:
  // Makes the frame and the backdrop [width] x [height] (nothing at the current size); false
  // with [error] when the framebuffer is incomplete.
  bool resize(std::uint32_t width, std::uint32_t height, std::string& error);
  const Surface& frame() const { return frame_; }
  const Surface& layer(std::size_t depth);  // nesting level [depth], 0 the outermost
  const Surface& mask(std::size_t slot);
  GLuint backdrop() const { return backdrop_; }
  // [rect] of [from] into the backdrop, bound on the active texture unit afterwards.
  void copy_to_backdrop(const Surface& from, const Rect& rect);
  std::uint32_t width() const { return width_; }
  std::uint32_t height() const { return height_; }
  std::size_t object_count() const;  // GL objects held, for the leak tests

  void release();  // deletes every object (the context is current)
  void forget();   // the context is gone and took them: forgets them

 private:
  Surface make(GLenum* status = nullptr);
  std::uint32_t width_ = 0, height_ = 0;
  Surface frame_;
  GLuint backdrop_ = 0;
  std::vector<Surface> layers_, masks_;
};

}  // namespace p2l::gl
