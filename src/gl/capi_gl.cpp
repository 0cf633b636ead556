// The C face of p2l_gl (include/p2l/p2l_gl.h) over gl::GlRenderer and the C API's rigs.
#include "p2l/p2l_gl.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "base/exceptions.hpp"
#include "capi/handle.hpp"
#include "gl/gl_renderer.hpp"

struct P2lGl {
  std::shared_ptr<const p2l::capi::ModelData> data;
  std::unique_ptr<p2l::gl::GlRenderer> renderer;
  std::string failure;
  // The pages the drawn rig's software renderer was given (p2l_render_texture), and whose and
  // which version they are: the GPU draws the same pixels.
  std::vector<const p2l::Image*> given;
  const p2l::Renderer* given_by = nullptr;
  std::uint64_t given_version = 0;
};

namespace {

constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 28;

void write_error(const std::string& message, char* error, std::size_t capacity) {
  if (error == nullptr || capacity == 0) return;
  const std::size_t n = std::min(message.size(), capacity - 1);
  std::memcpy(error, message.data(), n);
  error[n] = '\0';
}

// Gives [gl] the pages [rig]'s software renderer draws in place of the file's, when they are
// not those it has (another rig, or a p2l_render_texture since). Allocates only the first time.
void take_given_pages(P2lGl& gl, const P2lRig& rig) {
  const p2l::Renderer* software = rig.renderer.get();
  const std::uint64_t version = software != nullptr ? software->texture_version() : 0;
  if (software == gl.given_by && version == gl.given_version) return;
  gl.given.assign(rig.rig().textures.size(), nullptr);
  for (std::uint32_t p = 0; software != nullptr && p < gl.given.size(); ++p) gl.given[p] = software->texture_override(p);
  gl.renderer->give_pages(gl.given);
  gl.given_by = software;
  gl.given_version = version;
}

}  // namespace

extern "C" {

P2lGl* p2l_gl_create(const P2lRig* rig, char* error, size_t error_capacity) {
  P2L_TRY {
    if (rig == nullptr || rig->failed || !rig->data) {
      write_error("p2l_gl_create: no working rig", error, error_capacity);
      return nullptr;
    }
    auto gl = std::make_unique<P2lGl>();
    gl->data = rig->data;
    gl->renderer = std::make_unique<p2l::gl::GlRenderer>(rig->data->model, rig->data->pages);
    take_given_pages(*gl, *rig);
    std::string message;
    if (!gl->renderer->prepare(message)) {
      write_error(message, error, error_capacity);
      return nullptr;
    }
    return gl.release();
  } P2L_CATCH_ALL {
    write_error("p2l_gl_create: out of memory", error, error_capacity);
    return nullptr;
  }
}

bool p2l_gl_draw(P2lGl* gl, const P2lRig* rig, uint32_t width, uint32_t height, const float* transform, uint32_t flags) {
  if (gl == nullptr) return false;
  P2L_TRY {
    gl->failure.clear();
    if (rig == nullptr || rig->failed || rig->data != gl->data) {
      gl->failure = rig == nullptr || rig->failed ? "p2l_gl_draw: no working rig" : "p2l_gl_draw: the rig is of another model";
      return false;
    }
    if (width == 0 || height == 0 || std::uint64_t{width} * height > kMaxPixels) {
      gl->failure = "p2l_gl_draw: the size " + std::to_string(width) + " x " + std::to_string(height) + " cannot be drawn";
      return false;
    }
    const p2l::Affine affine =
        transform != nullptr ? p2l::Affine{transform[0], transform[1], transform[2], transform[3], transform[4], transform[5]}
                             : p2l::canvas_fit(rig->rig().canvas, width, height);
    take_given_pages(*gl, *rig);
    return gl->renderer->draw(rig->instance, affine, width, height, flags, gl->failure);
  } P2L_CATCH_ALL {
    gl->failure = "p2l_gl_draw: out of memory";
    return false;
  }
}

const char* p2l_gl_failure(const P2lGl* gl) { return gl ? gl->failure.c_str() : ""; }

void p2l_gl_context_lost(P2lGl* gl) {
  if (gl) gl->renderer->context_lost();
}

void p2l_gl_destroy(P2lGl* gl) { delete gl; }

}  // extern "C"
