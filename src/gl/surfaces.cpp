#include "gl/surfaces.hpp"

namespace p2l::gl {
namespace {

GLuint color_texture(std::uint32_t width, std::uint32_t height) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, static_cast<GLsizei>(width), static_cast<GLsizei>(height));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return texture;
}

void destroy(Surface& s) {
  if (s.framebuffer) glDeleteFramebuffers(1, &s.framebuffer);
  if (s.texture) glDeleteTextures(1, &s.texture);
  s = Surface{};
}

}  // namespace

// A surface, its completeness in [status]; the framebuffer bindings are left as they were (the
// renderer keeps track of what it bound).
Surface Surfaces::make(GLenum* status) {
  GLint draw = 0, read = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
  Surface s;
  s.texture = color_texture(width_, height_);
  glGenFramebuffers(1, &s.framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, s.framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, s.texture, 0);
  if (status) *status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read));
  return s;
}

bool Surfaces::resize(std::uint32_t width, std::uint32_t height, std::string& error) {
  if (width == width_ && height == height_ && frame_.framebuffer) return true;
  release();
  width_ = width;
  height_ = height;
  GLenum status = GL_FRAMEBUFFER_COMPLETE;
  frame_ = make(&status);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    error = "p2l_gl: an RGBA8 framebuffer of " + std::to_string(width) + " x " + std::to_string(height) +
            " is incomplete (status " + std::to_string(status) + ")";
    release();
    return false;
  }
  backdrop_ = color_texture(width, height);
  return true;
}

const Surface& Surfaces::layer(std::size_t depth) {
  while (layers_.size() <= depth) layers_.push_back(make());
  return layers_[depth];
}

const Surface& Surfaces::mask(std::size_t slot) {
  while (masks_.size() <= slot) masks_.push_back(make());
  return masks_[slot];
}

void Surfaces::copy_to_backdrop(const Surface& from, const Rect& r) {
  glBindTexture(GL_TEXTURE_2D, backdrop_);
  if (r.empty()) return;
  glBindFramebuffer(GL_READ_FRAMEBUFFER, from.framebuffer);
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, r.x0, r.y0, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
}

std::size_t Surfaces::object_count() const {
  std::size_t n = (frame_.framebuffer ? 2 : 0) + (backdrop_ ? 1 : 0);
  return n + 2 * (layers_.size() + masks_.size());
}

void Surfaces::release() {
  destroy(frame_);
  for (Surface& s : layers_) destroy(s);
  for (Surface& s : masks_) destroy(s);
  layers_.clear();
  masks_.clear();
  if (backdrop_) glDeleteTextures(1, &backdrop_);
  backdrop_ = 0;
  width_ = height_ = 0;
}

void Surfaces::forget() {
  frame_ = Surface{};
  backdrop_ = 0;
  layers_.clear();
  masks_.clear();
  width_ = height_ = 0;
}

}  // namespace p2l::gl
