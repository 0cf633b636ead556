// p2l_gl's renderer (include/p2l/p2l_gl.h is its C face): draws an instance's last evaluation
// with OpenGL 3.3 core or OpenGL ES 3.0 by the rules p2l::Renderer draws them in software
// (docs/RUNTIME.md, "Rendering"), with the GLSL the WebGL2 player shares.
//
//  - Commands: Instance::render_commands, back to front, into an RGBA8 frame of the drawing's
//    size; an isolated group draws into a layer (one per nesting level) that its closing
//    composites with the group's opacity, colours, masks and blend modes.
//  - Blending: the Framework's GL blend path where it is exact (NORMAL + OVER, ADD_COMPATIBLE,
//    MULTIPLY_COMPATIBLE); every other pair copies the destination under the drawing into the
//    backdrop texture and composites in the shader.
//  - Masks: the software renderer's coverage, m = 1 - prod(1 - a) over the mask meshes'
//    texture alphas, accumulated in a mask buffer (as the Framework's); a frame computes each
//    distinct set once and keeps up to four.
//  - The frame goes onto the host's framebuffer at the end, composited over what is there.
//
// GL objects are made on the first draw (programs, pages, mesh buffers) and at a new size
// (surfaces); a frame after the first makes none and allocates nothing. Vertex buffers follow
// the instance's change flags: draw after every evaluation, or pass kUploadAll.
#pragma once

#include <epoxy/gl.h>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gl/programs.hpp"
#include "gl/surfaces.hpp"
#include "p2l/eval.hpp"
#include "p2l/render.hpp"

namespace p2l::gl {

inline constexpr std::uint32_t kClear = 1;      // clear the host's framebuffer to transparent first
inline constexpr std::uint32_t kUploadAll = 2;  // every mesh's vertices, whatever the change flags

// What the last draw asked of the GPU (the benchmark reports it).
struct FrameStats {
  std::uint32_t draw_calls = 0, framebuffer_binds = 0, backdrop_copies = 0, mask_buffers = 0, vertex_uploads = 0;
};

class GlRenderer {
 public:
  GlRenderer(std::shared_ptr<const Model> model, std::shared_ptr<TexturePages> pages);
  ~GlRenderer();  // deletes its GL objects: the context must be current
  GlRenderer(const GlRenderer&) = delete;
  GlRenderer& operator=(const GlRenderer&) = delete;

  // Makes the programs, pages and mesh buffers if they are not there; false with [error].
  bool prepare(std::string& error);
  // Pixels a host gave in place of the file's pages (p2l_render_texture): a non-null [given][p]
  // is drawn for page p. Taken now when the pages exist (each page made again), else when they
  // are made; the images must stay valid until the next call.
  void give_pages(std::span<const Image* const> given);
  // Draws [instance] (of this model) into the framebuffer bound for drawing, [width] x [height],
  // through [transform] (canvas pixels to drawing pixels, y down); restores that binding.
  bool draw(const Instance& instance, const Affine& transform, std::uint32_t width, std::uint32_t height,
            std::uint32_t flags, std::string& error);
  void context_lost();  // the context is gone with every object: forget them, make anew later
  std::size_t object_count() const;  // GL objects held, for the leak tests
  const FrameStats& stats() const { return stats_; }

 private:
  struct MeshBuffers {
    GLuint vao = 0, positions = 0, uvs = 0, elements = 0;
    GLsizei count = 0;  // indices kept (triangles whose corners exist)
  };
  struct MaskSlot {
    std::span<const std::uint32_t> key;
    std::uint64_t frame = 0, used = 0;
  };
  struct Target {
    const Surface* surface;
    Rect* drawn;  // grown by what is drawn; null for the frame
  };

  void make_meshes();
  void make_pages();
  void make_page(std::uint32_t page);
  void release();
  void draw_mesh(std::uint32_t m, const Target& target);
  void close_layer(std::size_t depth, const Target& target);
  const Program& use_composite(const Target& target, const Rect& rect, std::uint8_t blend, std::uint8_t alpha_blend,
                               ProgramName fixed, ProgramName backdrop);
  // The mask buffer of [set], computed now if this frame has not (binding its framebuffer);
  // -1 for no masks.
  int mask_slot(std::span<const std::uint32_t> set);
  // Binds mask buffer [slot] to the mask unit and sets [program]'s mask mode (none for -1).
  void bind_mask(const Program& program, int slot, bool invert);
  void bind(GLuint framebuffer);  // for drawing, unless it is bound already
  void draw_quad(float x0, float y0, float x1, float y1);
  void set_transform(const Program& program, const Affine& t) const;
  Rect mesh_rect(std::uint32_t m) const;

  std::shared_ptr<const Model> model_;
  std::shared_ptr<TexturePages> pages_;
  bool prepared_ = false;
  Program programs_[kProgramCount];
  std::vector<GLuint> textures_;  // per page; 0: no pixels
  std::vector<const Image*> given_;  // give_pages' pixels per page; null: the file's
  std::vector<MeshBuffers> meshes_;
  GLuint quad_vao_ = 0, quad_buffer_ = 0;
  Surfaces surfaces_;
  std::vector<MaskSlot> mask_slots_;

  // This frame's.
  const Instance* instance_ = nullptr;
  const Instance* uploaded_for_ = nullptr;
  Affine transform_;
  std::uint64_t frame_ = 0, tick_ = 0;
  std::array<std::uint32_t, 16> open_parts_{};
  std::array<Rect, 16> open_drawn_{};
  FrameStats stats_;
  GLuint bound_ = 0;                         // the framebuffer bound for drawing
  Rect frame_dirty_;                         // what the frame surface holds drawn
  std::uint32_t cleared_width_ = 0, cleared_height_ = 0;  // the frame surface's size when cleared whole
};

}  // namespace p2l::gl
