// A headless GL context for the p2l_gl tests: Mesa's llvmpipe through EGL on the surfaceless
// platform (no display, no window), OpenGL 3.3 core or OpenGL ES 3.0, with an RGBA8
// framebuffer of a given size bound for drawing and read back top row first.
#pragma once

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace p2l_test {

class EglContext {
 public:
  // [es]: OpenGL ES 3.0 instead of OpenGL 3.3 core. ok() false, with why(), when there is none.
  explicit EglContext(bool es);
  ~EglContext();
  bool ok() const { return context_ != EGL_NO_CONTEXT; }
  const std::string& why() const { return why_; }
  std::string renderer() const;

  // An RGBA8 framebuffer of [width] x [height], bound for drawing and cleared to transparent.
  void target(std::uint32_t width, std::uint32_t height);
  // Its pixels, premultiplied RGBA8, top row first.
  std::vector<std::uint8_t> read() const;

 private:
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  GLuint texture_ = 0, framebuffer_ = 0;
  std::uint32_t width_ = 0, height_ = 0;
  std::string why_;
};

}  // namespace p2l_test
