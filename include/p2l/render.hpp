// Software rendering: draws an Instance's last evaluation into RGBA8 pixels by the drawing
// rules of the C API (include/p2l/p2l.h, docs/RUNTIME.md "Rendering"): straight-alpha
// textures sampled bilinearly, premultiplied compositing, multiply and screen colours,
// masks (inverted too), culling, every colour and alpha blend mode, isolated groups.
//
//   p2l::Renderer renderer(model);                 // one per character (its scratch)
//   renderer.render(character, pixels, 512, 512);  // fits the canvas into the image
//
// Embedded PNG pages decode on first use, once per TexturePages (give every Renderer of a
// model the same one to decode them once); KTX2 and external pages draw once the host gives
// their pixels (set_texture).
// After the first frame at a size, render() allocates nothing. Nothing here throws on
// purpose; memory exhaustion surfaces as std::bad_alloc, which the C API turns into a
// failed rig.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "p2l/affine.hpp"
#include "p2l/eval.hpp"

namespace p2l {

namespace render {
struct Scratch;  // src/render: per-renderer buffers
}  // namespace render

inline constexpr std::uint32_t kRenderStraight = 1;  // straight alpha out (premultiplied otherwise)
inline constexpr std::uint32_t kRenderKeep = 2;      // draw over what the image holds

// Renderer transforms map canvas pixels to image pixels (p2l/affine.hpp).

// Straight RGBA8 pixels of a decoded texture page.
struct Image {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba;
};

// Decodes PNG bytes (every colour type, 8 and 16 bits, interlaced or not) into straight
// RGBA8; false with [error] set when they are not a PNG libpng reads.
bool decode_png(std::span<const std::uint8_t> png, Image& out, std::string& error);
// Encodes straight RGBA8 pixels as a PNG; false with [error] set on failure.
bool encode_png(const std::uint8_t* rgba, std::uint32_t width, std::uint32_t height, std::vector<std::uint8_t>& out,
                std::string& error);

// A model's embedded PNG pages, each decoded on first use; safe to share between renderers
// on any threads (each page decodes once, under a lock).
class TexturePages {
 public:
  explicit TexturePages(std::shared_ptr<const Model> model);
  ~TexturePages();
  // Page [page] decoded, or null when it is not an embedded PNG or does not decode (then
  // error() says why).
  const Image* page(std::uint32_t page);
  std::string error(std::uint32_t page) const;

 private:
  struct State;
  std::shared_ptr<const Model> model_;
  std::unique_ptr<State> state_;
};

class Renderer {
 public:
  // [pages]: shared decoded pages (null: the renderer decodes its own).
  explicit Renderer(std::shared_ptr<const Model> model, std::shared_ptr<TexturePages> pages = nullptr);
  ~Renderer();
  Renderer(Renderer&&) noexcept;
  Renderer& operator=(Renderer&&) noexcept;

  // Straight RGBA8 pixels (width x height) for page [page] in place of the file's, copied;
  // an empty span takes them back. False for no such page, a zero size, more than 2^28
  // pixels, or fewer bytes than width x height x 4.
  bool set_texture(std::uint32_t page, std::span<const std::uint8_t> rgba, std::uint32_t width, std::uint32_t height);
  // The pixels set_texture gave page [page], or null (the file's page is drawn); valid until the
  // next set_texture. texture_version() changes with every set_texture of any renderer, so that
  // another renderer of the same pages (p2l_gl) can tell when to take them again.
  const Image* texture_override(std::uint32_t page) const;
  std::uint64_t texture_version() const { return texture_version_; }

  // Draws [instance]'s last evaluation (it must be on this renderer's model) into [rgba],
  // width x height pixels, rows top first. [transform] maps canvas pixels to image pixels;
  // null fits the canvas into the image from its top left corner, keeping its aspect.
  // False, drawing nothing, for a null image, a zero size or more than 2^28 pixels.
  bool render(const Instance& instance, std::uint8_t* rgba, std::uint32_t width, std::uint32_t height,
              const Affine* transform = nullptr, std::uint32_t flags = 0);

  // Threads drawing each frame, the caller's included: the image is cut into horizontal
  // bands that they draw at once, giving the bytes one thread gives. 0: one per processor
  // core; 1 (the default): the caller alone. The threads wait between frames (started here,
  // not per frame); where the platform has none (WebAssembly) it stays 1.
  void set_threads(unsigned threads);
  unsigned threads() const;

  TexturePages& pages() { return *pages_; }

 private:
  std::shared_ptr<const Model> model_;
  std::shared_ptr<TexturePages> pages_;
  std::unique_ptr<render::Scratch> scratch_;
  std::uint64_t texture_version_ = 0;  // 0: never set
};

// How framing() places a character in an image.
struct Framing {
  // The bounds of what the instance draws (its shown meshes' vertices) instead of the whole
  // canvas, with [margin] around them (a fraction of their larger side; 0.04 is
  // `p2lrt render --fit`'s). Nothing drawn: the whole canvas.
  bool drawn = false;
  float margin = 0.04f;
  // Image rows bottom first (OpenGL and Unity textures): y turned over.
  bool flip_y = false;
};

// The canvas-to-image transform for a [width] x [height] image: the canvas (or what is
// drawn) scaled to fit with its aspect kept, and centred. `p2lrt render`, the bindings and
// the Unity component frame with it (p2l_framing in the C API).
Affine framing(const Instance& instance, std::uint32_t width, std::uint32_t height, const Framing& how = {});
// What a null transform means to the renderers (p2l_render, p2l_gl_draw): the canvas scaled to
// fit [width] x [height] from the image's top left corner, its aspect kept (a NaN side ignored).
Affine canvas_fit(const Canvas& canvas, std::uint32_t width, std::uint32_t height);

}  // namespace p2l
