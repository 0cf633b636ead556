#include "egl_context.hpp"

#include <algorithm>

namespace p2l_test {

EglContext::EglContext(bool es) {
  display_ = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  EGLint major = 0, minor = 0;
  if (display_ == EGL_NO_DISPLAY || !eglInitialize(display_, &major, &minor)) {
    why_ = "no EGL surfaceless display (Mesa's libegl-mesa0: scripts/setup.sh --gl)";
    return;
  }
  eglBindAPI(es ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT,
                                      EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  eglChooseConfig(display_, config_attributes, &config, 1, &configs);
  const EGLint gl_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                  EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  const EGLint es_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
  context_ = eglCreateContext(display_, configs > 0 ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
                              es ? es_attributes : gl_attributes);
  if (context_ == EGL_NO_CONTEXT || !eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_)) {
    why_ = std::string("no ") + (es ? "OpenGL ES 3.0" : "OpenGL 3.3 core") + " context (EGL error " +
           std::to_string(eglGetError()) + ")";
    if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
    context_ = EGL_NO_CONTEXT;
  }
}

EglContext::~EglContext() {
  if (context_ != EGL_NO_CONTEXT) {
    if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
    if (texture_) glDeleteTextures(1, &texture_);
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
  }
  if (display_ != EGL_NO_DISPLAY) eglTerminate(display_);
}

std::string EglContext::renderer() const {
  return std::string(reinterpret_cast<const char*>(glGetString(GL_RENDERER))) + ", " +
         reinterpret_cast<const char*>(glGetString(GL_VERSION));
}

void EglContext::target(std::uint32_t width, std::uint32_t height) {
  if (width != width_ || height != height_) {
    if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
    if (texture_) glDeleteTextures(1, &texture_);
    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, static_cast<GLsizei>(width), static_cast<GLsizei>(height));
    glGenFramebuffers(1, &framebuffer_);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
    width_ = width;
    height_ = height;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, static_cast<GLsizei>(width), static_cast<GLsizei>(height));
  glClearColor(0, 0, 0, 0);
  glClear(GL_COLOR_BUFFER_BIT);
}

std::vector<std::uint8_t> EglContext::read() const {
  std::vector<std::uint8_t> bottom_first(std::size_t{width_} * height_ * 4), out(bottom_first.size());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, static_cast<GLsizei>(width_), static_cast<GLsizei>(height_), GL_RGBA, GL_UNSIGNED_BYTE,
               bottom_first.data());
  const std::size_t row = std::size_t{width_} * 4;
  for (std::uint32_t y = 0; y < height_; ++y)
    std::copy_n(bottom_first.data() + (height_ - 1 - y) * row, row, out.data() + y * row);
  return out;
}

}  // namespace p2l_test
