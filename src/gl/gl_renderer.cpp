#include "gl/gl_renderer.hpp"

#include "render/blend.hpp"

#include <algorithm>
#include <cmath>

namespace p2l::gl {
namespace {

constexpr std::size_t kMaskSlots = 4;  // as the software renderer keeps
constexpr std::size_t kMaxLayerDepth = 16;

float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

// The glBlendFuncSeparate factors of the Framework's GL blend path, false for the pairs the
// blend shader draws (the software renderer's choice, render/blend.hpp; docs/RUNTIME.md,
// "Compositing"). Modes past the known ones act as NORMAL and OVER, here and in the shader.
bool fixed_factors(std::uint8_t blend, std::uint8_t alpha, GLenum (&f)[4]) {
  if (!render::fixed_function(blend, alpha)) return false;
  if (blend == render::kBlendCubismAdd) {
    f[0] = GL_ONE, f[1] = GL_ONE, f[2] = GL_ZERO, f[3] = GL_ONE;
  } else if (blend == render::kBlendCubismMultiply) {
    f[0] = GL_DST_COLOR, f[1] = GL_ONE_MINUS_SRC_ALPHA, f[2] = GL_ZERO, f[3] = GL_ONE;
  } else {
    f[0] = GL_ONE, f[1] = GL_ONE_MINUS_SRC_ALPHA, f[2] = GL_ONE, f[3] = GL_ONE_MINUS_SRC_ALPHA;
  }
  return true;
}

bool same(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace

GlRenderer::GlRenderer(std::shared_ptr<const Model> model, std::shared_ptr<TexturePages> pages)
    : model_(std::move(model)), pages_(std::move(pages)) {
  mask_slots_.resize(kMaskSlots);
}

GlRenderer::~GlRenderer() { release(); }

bool GlRenderer::prepare(std::string& error) {
  if (prepared_) return true;
  if (!epoxy_is_desktop_gl() ? epoxy_gl_version() < 30 : epoxy_gl_version() < 33) {
    error = std::string("p2l_gl needs OpenGL 3.3 or OpenGL ES 3.0; the context is ") +
            reinterpret_cast<const char*>(glGetString(GL_VERSION));
    return false;
  }
  if (!build_programs(programs_, error)) {
    delete_programs(programs_);
    return false;
  }
  make_pages();
  make_meshes();
  glGenVertexArrays(1, &quad_vao_);
  glBindVertexArray(quad_vao_);
  glGenBuffers(1, &quad_buffer_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_buffer_);
  glBufferData(GL_ARRAY_BUFFER, 8 * sizeof(float), nullptr, GL_DYNAMIC_DRAW);
  glEnableVertexAttribArray(kAttributePosition);
  glVertexAttribPointer(kAttributePosition, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindVertexArray(0);
  prepared_ = true;
  uploaded_for_ = nullptr;
  return true;
}

// Each page's straight RGBA8 pixels, decoded once (shared with the software renderers), or the
// host's in their place.
void GlRenderer::make_pages() {
  textures_.assign(model_->rig().textures.size(), 0);
  for (std::uint32_t p = 0; p < textures_.size(); ++p) make_page(p);
}

void GlRenderer::make_page(std::uint32_t p) {
  if (textures_[p] != 0) glDeleteTextures(1, &textures_[p]);
  textures_[p] = 0;
  const Image* image = p < given_.size() && given_[p] != nullptr ? given_[p] : pages_ ? pages_->page(p) : nullptr;
  if (image == nullptr || image->width == 0 || image->height == 0 ||
      image->rgba.size() < std::size_t{image->width} * image->height * 4)
    return;
  glGenTextures(1, &textures_[p]);
  glBindTexture(GL_TEXTURE_2D, textures_[p]);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, static_cast<GLsizei>(image->width), static_cast<GLsizei>(image->height));
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(image->width), static_cast<GLsizei>(image->height),
                  GL_RGBA, GL_UNSIGNED_BYTE, image->rgba.data());
  // The shader filters itself (texelFetch): premultiplied before interpolation.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

void GlRenderer::give_pages(std::span<const Image* const> given) {
  given_.assign(given.begin(), given.end());
  if (!prepared_) return;
  for (std::uint32_t p = 0; p < textures_.size(); ++p) make_page(p);
}

// One vertex array per mesh: its UVs and indices, which never change, and its positions.
void GlRenderer::make_meshes() {
  const Rig& rig = model_->rig();
  meshes_.assign(rig.meshes.size(), MeshBuffers{});
  std::vector<std::uint32_t> kept;
  for (std::uint32_t m = 0; m < meshes_.size(); ++m) {
    const Mesh& mesh = rig.meshes[m];
    if (!mesh.geometry) continue;
    const Array<float>& uv = mesh.geometry->uvs;
    const std::size_t n = uv.size() / 2;
    // As the software renderer, a triangle with a corner past the vertices is left out.
    kept.clear();
    const std::span<const std::uint32_t> indices = model_->mesh_indices(m);
    for (std::size_t t = 0; t + 2 < indices.size(); t += 3)
      if (indices[t] < n && indices[t + 1] < n && indices[t + 2] < n) kept.insert(kept.end(), &indices[t], &indices[t] + 3);
    if (kept.empty()) continue;
    MeshBuffers& b = meshes_[m];
    glGenVertexArrays(1, &b.vao);
    glBindVertexArray(b.vao);
    glGenBuffers(1, &b.positions);
    glBindBuffer(GL_ARRAY_BUFFER, b.positions);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(n * 2 * sizeof(float)), nullptr, GL_DYNAMIC_DRAW);
    glEnableVertexAttribArray(kAttributePosition);
    glVertexAttribPointer(kAttributePosition, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glGenBuffers(1, &b.uvs);
    glBindBuffer(GL_ARRAY_BUFFER, b.uvs);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(n * 2 * sizeof(float)), uv.data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(kAttributeUv);
    glVertexAttribPointer(kAttributeUv, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glGenBuffers(1, &b.elements);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, b.elements);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(kept.size() * sizeof(std::uint32_t)), kept.data(),
                 GL_STATIC_DRAW);
    b.count = static_cast<GLsizei>(kept.size());
  }
  glBindVertexArray(0);
}

bool GlRenderer::draw(const Instance& instance, const Affine& transform, std::uint32_t width, std::uint32_t height,
                      std::uint32_t flags, std::string& error) {
  if (!prepare(error)) return false;
  GLint host = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &host);
  bound_ = static_cast<GLuint>(host);
  if (!surfaces_.resize(width, height, error)) {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(host));
    return false;
  }
  instance_ = &instance;
  transform_ = transform;
  ++frame_;
  stats_ = FrameStats{};

  // Positions of the meshes that moved (all of them for another instance than last time).
  const Rig& rig = model_->rig();
  const bool all = (flags & kUploadAll) != 0 || uploaded_for_ != &instance;
  for (std::uint32_t m = 0; m < meshes_.size(); ++m) {
    if (meshes_[m].vao == 0 || (!all && (instance.changes(m) & kMeshVerticesChanged) == 0)) continue;
    const std::span<const float> xy = instance.vertices(m);
    const std::size_t n = std::min(xy.size(), rig.meshes[m].geometry->uvs.size());
    glBindBuffer(GL_ARRAY_BUFFER, meshes_[m].positions);
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(float)), xy.data());
    ++stats_.vertex_uploads;
  }
  uploaded_for_ = &instance;

  glViewport(0, 0, static_cast<GLsizei>(width), static_cast<GLsizei>(height));
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_STENCIL_TEST);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  // Cubism's front faces run counter-clockwise as the picture shows them (y down), which is
  // clockwise for GL since surfaces hold the picture's top row first; a mirror swaps them.
  glFrontFace(transform.a * transform.d - transform.b * transform.c < 0.0f ? GL_CCW : GL_CW);
  glCullFace(GL_BACK);
  glBlendEquation(GL_FUNC_ADD);
  bind(surfaces_.frame().framebuffer);
  glClearColor(0, 0, 0, 0);
  // Only what the last frame drew needs clearing (all of a new surface, whose pixels are
  // undefined): on a rasterizer in software most of a large frame is never touched.
  if (surfaces_.width() != cleared_width_ || surfaces_.height() != cleared_height_) {
    frame_dirty_ = Rect{0, 0, static_cast<std::int32_t>(width), static_cast<std::int32_t>(height)};
    cleared_width_ = surfaces_.width();
    cleared_height_ = surfaces_.height();
  }
  if (!frame_dirty_.empty()) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(frame_dirty_.x0, frame_dirty_.y0, frame_dirty_.x1 - frame_dirty_.x0, frame_dirty_.y1 - frame_dirty_.y0);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
  }
  frame_dirty_ = Rect{};

  const Target frame{&surfaces_.frame(), &frame_dirty_};
  std::size_t open = 0, flattened = 0;
  auto target = [&]() { return open > 0 ? Target{&surfaces_.layer(open - 1), &open_drawn_[open - 1]} : frame; };
  for (const std::int32_t command : instance.render_commands()) {
    if (command <= -2) {
      if (open == kMaxLayerDepth) {
        ++flattened;
        continue;
      }
      const Surface& layer = surfaces_.layer(open);
      bind(layer.framebuffer);
      glClear(GL_COLOR_BUFFER_BIT);
      open_parts_[open] = static_cast<std::uint32_t>(-2 - static_cast<std::int64_t>(command));
      open_drawn_[open] = Rect{};
      ++open;
    } else if (command == kRenderEndGroup) {
      if (flattened > 0) {
        --flattened;
      } else if (open > 0) {
        --open;
        close_layer(open, target());
      }
    } else {
      draw_mesh(static_cast<std::uint32_t>(command), target());
    }
  }
  while (open > 0) {
    --open;
    close_layer(open, target());
  }

  // The frame onto the host's framebuffer, flipped, over what is there: the part drawn only.
  bind(static_cast<GLuint>(host));
  glViewport(0, 0, static_cast<GLsizei>(width), static_cast<GLsizei>(height));
  if (flags & kClear) glClear(GL_COLOR_BUFFER_BIT);
  if (frame_dirty_.empty()) {
    instance_ = nullptr;
    return true;
  }
  const Program& present = programs_[kPresent];
  glUseProgram(present.id);
  set_transform(present, Affine{});
  glActiveTexture(GL_TEXTURE0 + kUnitFrame);
  glBindTexture(GL_TEXTURE_2D, surfaces_.frame().texture);
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  // Host row r (from the bottom) shows frame row height - 1 - r: the frame's rows y0..y1 are
  // the host's height - y1 .. height - y0.
  const float h = static_cast<float>(height);
  const float x0 = static_cast<float>(frame_dirty_.x0), x1 = static_cast<float>(frame_dirty_.x1);
  const float y0 = h - static_cast<float>(frame_dirty_.y1), y1 = h - static_cast<float>(frame_dirty_.y0);
  draw_quad(x0, y0, x1, y1);
  glBindVertexArray(0);
  glUseProgram(0);
  glDisable(GL_BLEND);
  instance_ = nullptr;
  return true;
}

void GlRenderer::draw_mesh(std::uint32_t m, const Target& target) {
  const Rig& rig = model_->rig();
  if (m >= meshes_.size() || meshes_[m].vao == 0) return;
  const Mesh& mesh = rig.meshes[m];
  const float opacity = clamp01(instance_->opacity(m));
  if (!(opacity > 0.0f)) return;
  if (mesh.texture_page < 0 || static_cast<std::size_t>(mesh.texture_page) >= textures_.size()) return;
  const GLuint page = textures_[static_cast<std::size_t>(mesh.texture_page)];
  if (page == 0) return;
  const Rect rect = mesh_rect(m);
  if (rect.empty()) return;
  const int mask = mask_slot(mesh.mask_meshes);
  const Program& program = use_composite(target, rect, mesh.blend, mesh.alpha_blend, kMeshFixed,
                                         kMeshBackdrop);
  bind_mask(program, mask, mesh.invert_mask);
  const Rgb& multiply = instance_->multiply(m);
  const Rgb& screen = instance_->screen(m);
  glUniform3f(program.multiply, multiply[0], multiply[1], multiply[2]);
  glUniform3f(program.screen, screen[0], screen[1], screen[2]);
  glUniform1f(program.opacity, opacity);
  set_transform(program, transform_);
  glActiveTexture(GL_TEXTURE0 + kUnitPage);
  glBindTexture(GL_TEXTURE_2D, page);
  mesh.culling ? glEnable(GL_CULL_FACE) : glDisable(GL_CULL_FACE);
  glBindVertexArray(meshes_[m].vao);
  glDrawElements(GL_TRIANGLES, meshes_[m].count, GL_UNSIGNED_INT, nullptr);
  ++stats_.draw_calls;
  if (target.drawn) target.drawn->grow(rect);
}

// A closed group's layer into [target] (docs/RUNTIME.md, "Isolated groups").
void GlRenderer::close_layer(std::size_t depth, const Target& target) {
  const Rect rect = open_drawn_[depth];
  const std::uint32_t part = open_parts_[depth];
  if (rect.empty() || part >= model_->rig().parts.size()) return;
  const GroupComposite& group = instance_->part_composite(part);
  const float opacity = clamp01(group.opacity);
  if (!(opacity > 0.0f)) return;
  const Composite& style = model_->part_group_composite(part);
  const int mask = mask_slot(model_->part_group_masks(part));
  const Program& program = use_composite(target, rect, style.blend, style.alpha_blend,
                                         kLayerFixed, kLayerBackdrop);
  bind_mask(program, mask, style.invert_mask);
  glUniform3f(program.multiply, group.multiply[0], group.multiply[1], group.multiply[2]);
  glUniform3f(program.screen, group.screen[0], group.screen[1], group.screen[2]);
  glUniform1f(program.opacity, opacity);
  set_transform(program, Affine{});
  glActiveTexture(GL_TEXTURE0 + kUnitLayer);
  glBindTexture(GL_TEXTURE_2D, surfaces_.layer(depth).texture);
  glDisable(GL_CULL_FACE);
  draw_quad(static_cast<float>(rect.x0), static_cast<float>(rect.y0), static_cast<float>(rect.x1),
            static_cast<float>(rect.y1));
  if (target.drawn) target.drawn->grow(rect);
}

const Program& GlRenderer::use_composite(const Target& target, const Rect& rect, std::uint8_t blend,
                                         std::uint8_t alpha_blend, ProgramName fixed, ProgramName backdrop) {
  GLenum factors[4];
  if (fixed_factors(blend, alpha_blend, factors)) {
    bind(target.surface->framebuffer);
    const Program& program = programs_[fixed];
    glUseProgram(program.id);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(factors[0], factors[1], factors[2], factors[3]);
    return program;
  }
  glActiveTexture(GL_TEXTURE0 + kUnitBackdrop);
  surfaces_.copy_to_backdrop(*target.surface, rect);
  ++stats_.backdrop_copies;
  bind(target.surface->framebuffer);
  const Program& program = programs_[backdrop];
  glUseProgram(program.id);
  glDisable(GL_BLEND);
  glUniform1i(program.blend, blend);
  glUniform1i(program.alpha_blend, alpha_blend);
  return program;
}

int GlRenderer::mask_slot(std::span<const std::uint32_t> set) {
  if (set.empty()) return -1;
  // This frame's buffer of the set, else the slot used longest ago.
  std::size_t slot = 0;
  const auto age = [&](std::size_t i) { return mask_slots_[i].frame == frame_ ? mask_slots_[i].used : 0; };
  for (std::size_t s = 0; s < mask_slots_.size(); ++s) {
    if (mask_slots_[s].frame == frame_ && same(mask_slots_[s].key, set)) {
      mask_slots_[s].used = ++tick_;
      return static_cast<int>(s);
    }
    if (age(s) < age(slot)) slot = s;
  }
  // Cleared to 1; each mask mesh multiplies it by 1 - a (ZERO, ONE_MINUS_SRC_COLOR).
  bind(surfaces_.mask(slot).framebuffer);
  glClearColor(1, 1, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glClearColor(0, 0, 0, 0);
  const Program& coverage = programs_[kMaskCoverage];
  glUseProgram(coverage.id);
  set_transform(coverage, transform_);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ZERO, GL_ONE_MINUS_SRC_COLOR);
  glDisable(GL_CULL_FACE);  // masks ignore culling
  glActiveTexture(GL_TEXTURE0 + kUnitPage);
  const Rig& rig = model_->rig();
  for (const std::uint32_t id : set) {
    if (id >= meshes_.size() || meshes_[id].vao == 0) continue;
    const std::int32_t page = rig.meshes[id].texture_page;
    if (page < 0 || static_cast<std::size_t>(page) >= textures_.size() || textures_[static_cast<std::size_t>(page)] == 0)
      continue;
    glBindTexture(GL_TEXTURE_2D, textures_[static_cast<std::size_t>(page)]);
    glBindVertexArray(meshes_[id].vao);
    glDrawElements(GL_TRIANGLES, meshes_[id].count, GL_UNSIGNED_INT, nullptr);
    ++stats_.draw_calls;
  }
  ++stats_.mask_buffers;
  mask_slots_[slot].key = set;
  mask_slots_[slot].frame = frame_;
  mask_slots_[slot].used = ++tick_;
  return static_cast<int>(slot);
}

void GlRenderer::bind_mask(const Program& program, int slot, bool invert) {
  if (slot < 0) {
    glUniform1i(program.mask_mode, 0);
    return;
  }
  glActiveTexture(GL_TEXTURE0 + kUnitMask);
  glBindTexture(GL_TEXTURE_2D, surfaces_.mask(static_cast<std::size_t>(slot)).texture);
  glUniform1i(program.mask_mode, invert ? 2 : 1);
}

// The rectangle [x0, x1] x [y0, y1] in surface pixels, as a triangle strip.
void GlRenderer::draw_quad(float x0, float y0, float x1, float y1) {
  const float corners[8] = {x0, y0, x1, y0, x0, y1, x1, y1};
  glBindVertexArray(quad_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_buffer_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof corners, corners);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  ++stats_.draw_calls;
}

void GlRenderer::bind(GLuint framebuffer) {
  if (framebuffer == bound_) return;
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer);
  bound_ = framebuffer;
  ++stats_.framebuffer_binds;
}

void GlRenderer::set_transform(const Program& program, const Affine& t) const {
  glUniform3f(program.row0, t.a, t.b, t.tx);
  glUniform3f(program.row1, t.c, t.d, t.ty);
  glUniform2f(program.size, static_cast<float>(surfaces_.width()), static_cast<float>(surfaces_.height()));
}

// The drawing pixels mesh [m] can touch: its vertices' bounding box, a pixel wider on every
// side, within the drawing (what the blend shader needs of the destination).
Rect GlRenderer::mesh_rect(std::uint32_t m) const {
  const std::span<const float> v = instance_->vertices(m);
  const Affine& t = transform_;
  float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (std::size_t i = 0; i + 1 < v.size(); i += 2) {
    const float x = t.a * v[i] + t.b * v[i + 1] + t.tx, y = t.c * v[i] + t.d * v[i + 1] + t.ty;
    if (!std::isfinite(x) || !std::isfinite(y)) continue;
    x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
  }
  if (!(x0 <= x1) || !(y0 <= y1)) return Rect{};
  const float w = static_cast<float>(surfaces_.width()), h = static_cast<float>(surfaces_.height());
  Rect r;
  r.x0 = static_cast<std::int32_t>(std::max(0.0f, std::floor(x0) - 1.0f));
  r.y0 = static_cast<std::int32_t>(std::max(0.0f, std::floor(y0) - 1.0f));
  r.x1 = static_cast<std::int32_t>(std::min(w, std::ceil(x1) + 1.0f));
  r.y1 = static_cast<std::int32_t>(std::min(h, std::ceil(y1) + 1.0f));
  return r;
}

std::size_t GlRenderer::object_count() const {
  std::size_t n = surfaces_.object_count();
  for (const Program& p : programs_) n += p.id ? 1 : 0;
  for (const GLuint t : textures_) n += t ? 1 : 0;
  for (const MeshBuffers& b : meshes_) n += b.vao ? 4 : 0;
  return n + (quad_vao_ ? 2 : 0);
}

void GlRenderer::release() {
  delete_programs(programs_);
  for (GLuint& t : textures_)
    if (t) glDeleteTextures(1, &t);
  for (MeshBuffers& b : meshes_) {
    if (!b.vao) continue;
    glDeleteVertexArrays(1, &b.vao);
    const GLuint buffers[3] = {b.positions, b.uvs, b.elements};
    glDeleteBuffers(3, buffers);
    b = MeshBuffers{};
  }
  if (quad_vao_) glDeleteVertexArrays(1, &quad_vao_);
  if (quad_buffer_) glDeleteBuffers(1, &quad_buffer_);
  quad_vao_ = quad_buffer_ = 0;
  textures_.clear();
  meshes_.clear();
  surfaces_.release();
  cleared_width_ = cleared_height_ = 0;
  for (MaskSlot& s : mask_slots_) s = MaskSlot{};
  prepared_ = false;
  uploaded_for_ = nullptr;
}

void GlRenderer::context_lost() {
  for (Program& p : programs_) p = Program{};
  textures_.clear();
  meshes_.clear();
  quad_vao_ = quad_buffer_ = 0;
  surfaces_.forget();
  cleared_width_ = cleared_height_ = 0;
  for (MaskSlot& s : mask_slots_) s = MaskSlot{};
  prepared_ = false;
  uploaded_for_ = nullptr;
}

}  // namespace p2l::gl
