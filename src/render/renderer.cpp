// The software renderer (include/p2l/render.hpp): draws an Instance's render commands into
// a float premultiplied image, then converts it to RGBA8. docs/RUNTIME.md, "Rendering",
// states every rule; blend.hpp holds the per-pixel arithmetic, raster.hpp the coverage.
//
// Memory: the float image, one layer per level of isolated-group nesting the draw tree can
// reach and up to kMaskSlots mask coverage buffers live in render::Scratch, sized when the
// image size changes; a frame at an unchanged size allocates nothing. The image, the layers
// and the mask buffers are kept zero outside a dirty rectangle, so starting a frame, opening
// a group or computing a mask clears only what was drawn there before, and the image's
// conversion to RGBA8 reads only that rectangle.
//
// Where the processor has AVX2, the normal-over fragments, the masks and the conversion run
// eight pixels at a time (spans.hpp), with the same bits as the scalar code here.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "p2l/render.hpp"
#include "render/blend.hpp"
#include "render/large_pages.hpp"
#include "render/raster.hpp"
#include "render/spans.hpp"

namespace p2l {
namespace render {

namespace {

constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 28;
// Mask coverage buffers kept per renderer: sets of mask meshes beyond this many in one frame
// are computed again when they come back.
constexpr std::size_t kMaskSlots = 4;
// Isolated groups nested deeper than this draw into the layer of the group around them (as
// pass-through groups): each level costs a whole image of floats, and a file could nest
// thousands. Real rigs nest a few.
constexpr std::size_t kMaxLayerDepth = 16;

// An isolated group's layer: premultiplied RGBA, zero outside [dirty].
struct Layer {
  std::vector<float> pixels;
  Rect dirty;
  std::uint32_t part = 0;
};

// The coverage of one set of mask meshes in one frame: zero outside [dirty].
struct MaskSlot {
  std::vector<float> coverage;
  Rect dirty;
  std::span<const std::uint32_t> key;  // into the model, which outlives the renderer's use
  std::uint64_t frame = 0, used = 0;
};

// The deepest nesting of isolated groups the draw tree allows (each child group comes after
// its parent, as the loader checks).
std::size_t isolated_depth(const Rig& rig) {
  const auto& groups = rig.draw_groups;
  std::vector<std::size_t> depth(groups.size(), 0);
  std::size_t deepest = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (const DrawChild& c : groups[g].children) {
      if (c.kind != DrawChildKind::Group || c.index <= g || c.index >= groups.size()) continue;
      const std::int32_t part = groups[c.index].part;
      const bool isolated =
          part >= 0 && static_cast<std::size_t>(part) < rig.parts.size() && rig.parts[static_cast<std::size_t>(part)].group_mode == 2;
      depth[c.index] = depth[g] + (isolated ? 1 : 0);
      deepest = std::max(deepest, depth[c.index]);
    }
  }
  return deepest;
}

bool same(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// How many mask buffers a frame can use at once: the distinct mask sets, at most kMaskSlots.
std::size_t mask_slots(const Model& model) {
  const Rig& rig = model.rig();
  std::vector<std::span<const std::uint32_t>> seen;
  auto note = [&](std::span<const std::uint32_t> set) {
    if (set.empty() || seen.size() >= kMaskSlots) return;
    for (const auto& s : seen)
      if (same(s, set)) return;
    seen.push_back(set);
  };
  for (const Mesh& m : rig.meshes) note(m.mask_meshes);
  for (std::uint32_t p = 0; p < rig.parts.size(); ++p)
    if (rig.parts[p].group_mode == 2) note(model.part_group_masks(p));
  return seen.size();
}

void clear(std::vector<float>& pixels, std::uint32_t width, std::size_t channels, Rect& r) {
  if (r.empty()) return;
  for (std::int32_t y = r.y0; y < r.y1; ++y) {
    float* row = pixels.data() + (static_cast<std::size_t>(y) * width + static_cast<std::size_t>(r.x0)) * channels;
    std::fill(row, row + static_cast<std::size_t>(r.x1 - r.x0) * channels, 0.0f);
  }
  r = Rect{};
}

}  // namespace

struct Scratch {
  std::uint32_t width = 0, height = 0;
  std::vector<float> target;  // the image being drawn, premultiplied RGBA
  Rect target_dirty;          // target is zero outside it
  std::vector<Layer> layers;  // the stack of open isolated groups
  std::vector<MaskSlot> masks;
  std::size_t layer_count = 0, mask_count = 0;  // what the model can need
  std::vector<Image> overrides;                 // set_texture pixels per page; empty: none
  std::vector<const Image*> pages;              // this frame's texture per page
  std::vector<Corner> corners;                  // one mesh's triangles for the AVX2 kernels
  std::vector<std::uint8_t> resolved;           // pages[p] is known this frame
  std::uint64_t frame = 0, tick = 0;

  // Buffers for [w] x [h]; nothing happens at the current size.
  void reserve(std::uint32_t w, std::uint32_t h) {
    if (w == width && h == height) return;
    width = height = 0;
    const std::size_t n = std::size_t{w} * h;
    std::vector<float>().swap(target);
    target.resize(n * 4);
    target_dirty = Rect{};
    layers.clear();
    layers.resize(layer_count);  // each level's pixels on its first use at this size
    masks.clear();
    masks.resize(mask_count);
    for (MaskSlot& m : masks) m.coverage.resize(n);
    width = w;
    height = h;
  }
};

namespace {

// One render call: the model, the instance's last evaluation and the scratch.
class Frame {
 public:
  Frame(Scratch& s, const Model& model, const Instance& instance, TexturePages& pages, const Affine& t)
      : s_(s), model_(model), rig_(model.rig()), instance_(instance), pages_(pages), t_(t),
        mirrored_(t.a * t.d - t.b * t.c < 0.0f) {}

  void draw() {
    std::size_t open = 0, flattened = 0;  // flattened: groups past the deepest layer, drawn through
    for (const std::int32_t command : instance_.render_commands()) {
      if (command <= -2) {
        if (open == s_.layers.size()) {
          ++flattened;
          continue;
        }
        Layer& layer = s_.layers[open++];
        if (layer.pixels.empty()) layer.pixels.resize(std::size_t{s_.width} * s_.height * 4);
        clear(layer.pixels, s_.width, 4, layer.dirty);
        layer.part = static_cast<std::uint32_t>(-2 - static_cast<std::int64_t>(command));
      } else if (command == kRenderEndGroup) {
        if (flattened > 0)
          --flattened;
        else if (open > 0)
          close(--open);
      } else {
        const auto mesh = static_cast<std::uint32_t>(command);
        if (open > 0)
          draw_mesh(mesh, s_.layers[open - 1].pixels.data(), &s_.layers[open - 1].dirty);
        else
          draw_mesh(mesh, s_.target.data(), &s_.target_dirty);
      }
    }
    while (open > 0) close(--open);
  }

 private:
  // Composites layer [index] into what lies under it.
  void close(std::size_t index) {
    if (index > 0)
      draw_layer(s_.layers[index], s_.layers[index - 1].pixels.data(), &s_.layers[index - 1].dirty);
    else
      draw_layer(s_.layers[index], s_.target.data(), &s_.target_dirty);
  }

  // Page [page]'s pixels this frame: the host's, else the decoded embedded PNG; null for none.
  const Image* page(std::int32_t page) {
    if (page < 0 || static_cast<std::size_t>(page) >= s_.pages.size()) return nullptr;
    const auto p = static_cast<std::size_t>(page);
    if (s_.resolved[p] == 0) {
      const Image* image = !s_.overrides[p].rgba.empty() ? &s_.overrides[p] : pages_.page(static_cast<std::uint32_t>(p));
      if (image != nullptr &&
          (image->width == 0 || image->height == 0 || image->rgba.size() < std::size_t{image->width} * image->height * 4))
        image = nullptr;
      s_.pages[p] = image;
      s_.resolved[p] = 1;
    }
    return s_.pages[p];
  }

  // Calls each(a, b, c) with the image-space corners of mesh [m]'s triangles.
  template <class Each>
  void each_triangle(std::uint32_t m, Each&& each) {
    const Mesh& mesh = rig_.meshes[m];
    if (!mesh.geometry) return;
    const std::span<const float> xy = instance_.vertices(m);
    const Array<float>& uv = mesh.geometry->uvs;
    const std::size_t n = std::min(xy.size(), uv.size()) / 2;
    const std::span<const std::uint32_t> indices = model_.mesh_indices(m);
    auto corner = [&](std::size_t i) {
      const float x = xy[2 * i], y = xy[2 * i + 1];
      const float ix = t_.a * x + t_.b * y + t_.tx, iy = t_.c * x + t_.d * y + t_.ty;
      return Corner{ix, iy, uv[2 * i], uv[2 * i + 1]};
    };
    for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
      const std::size_t i0 = indices[t], i1 = indices[t + 1], i2 = indices[t + 2];
      if (i0 >= n || i1 >= n || i2 >= n) continue;
      each(corner(i0), corner(i1), corner(i2));
    }
  }

  // Mesh [m]'s triangles as each_triangle() gives them, three corners each, in the scratch
  // (sized for the largest mesh when the renderer was made).
  std::span<const Corner> corners(std::uint32_t m) {
    s_.corners.clear();
    each_triangle(m, [&](const Corner& a, const Corner& b, const Corner& c) {
      s_.corners.push_back(a);
      s_.corners.push_back(b);
      s_.corners.push_back(c);
    });
    return s_.corners;
  }

  // Calls fragment(pixel, u, v) over every covered pixel of mesh [m]'s triangles.
  template <class Fragment>
  void triangles(std::uint32_t m, Cull cull, Rect* touched, Fragment&& fragment) {
    each_triangle(m, [&](const Corner& a, const Corner& b, const Corner& c) {
      raster_triangle(a, b, c, s_.width, s_.height, cull, touched, fragment);
    });
  }

  // The coverage of the mask meshes [set]: per pixel 1 - prod(1 - a) over their texture
  // alphas a, as the Framework's mask buffer accumulates it.
  const float* mask(std::span<const std::uint32_t> set) {
    for (MaskSlot& slot : s_.masks) {
      if (slot.frame == s_.frame && same(slot.key, set)) {
        slot.used = ++s_.tick;
        return slot.coverage.data();
      }
    }
    if (s_.masks.empty()) {  // the model named no masks: not expected
      s_.masks.emplace_back();
      s_.masks.back().coverage.resize(std::size_t{s_.width} * s_.height);
    }
    // A slot from an earlier frame, else the one used longest ago.
    MaskSlot* slot = &s_.masks[0];
    for (MaskSlot& m : s_.masks) {
      const std::uint64_t age = m.frame == s_.frame ? m.used : 0;
      const std::uint64_t best = slot->frame == s_.frame ? slot->used : 0;
      if (age < best) slot = &m;
    }
    clear(slot->coverage, s_.width, 1, slot->dirty);
    slot->key = set;
    slot->frame = s_.frame;
    slot->used = ++s_.tick;
    float* coverage = slot->coverage.data();
    for (const std::uint32_t id : set) {
      if (id >= rig_.meshes.size()) continue;
      const Image* texture = page(rig_.meshes[id].texture_page);
      if (texture == nullptr) continue;
      if (vector_spans()) {
        mask_mesh(corners(id), s_.width, s_.height, &slot->dirty, *texture, coverage);
        continue;
      }
      triangles(id, Cull::None, &slot->dirty, [&](std::size_t pixel, float u, float v) {
        const float a = sample_alpha(*texture, u, v);
        coverage[pixel] = 1.0f - (1.0f - coverage[pixel]) * (1.0f - a);
      });
    }
    return coverage;
  }

  void draw_mesh(std::uint32_t m, float* target, Rect* dirty) {
    if (m >= rig_.meshes.size()) return;
    const Mesh& mesh = rig_.meshes[m];
    const float opacity = clamp01(instance_.opacity(m));
    if (opacity <= 0.0f) return;
    const Image* texture = page(mesh.texture_page);
    if (texture == nullptr) return;
    const float* coverage = mesh.mask_meshes.empty() ? nullptr : mask(mesh.mask_meshes);
    const bool invert = mesh.invert_mask;
    const Rgb multiply = instance_.multiply(m), screen = instance_.screen(m);
    const std::uint8_t blend = mesh.blend, alpha = mesh.alpha_blend;
    const Cull cull = !mesh.culling ? Cull::None : mirrored_ ? Cull::Negative : Cull::Positive;
    // One loop per combination of masked and plain normal-over, each with its values held
    // by value so that the pixel writes cannot make the compiler reload them.
    auto shade = [&](auto masked, auto normal_over) {
      constexpr bool kMasked = decltype(masked)::value, kNormalOver = decltype(normal_over)::value;
      const Image& tex = *texture;
      triangles(m, cull, dirty, [=, &tex](std::size_t pixel, float u, float v) {
        float s[4];
        if (!sample(tex, u, v, s)) return;
        // The Framework's premultiplied fragment: multiply, screen, then times the base colour
        // (the opacity on all four channels).
        float c[3];
        for (std::size_t i = 0; i < 3; ++i) {
          c[i] = s[i] * multiply[i];
          c[i] = (c[i] + screen[i] * s[3]) - c[i] * screen[i];
          c[i] *= opacity;
        }
        const float a = s[3] * opacity;
        float k = 1.0f;
        if constexpr (kMasked) {
          k = invert ? 1.0f - coverage[pixel] : coverage[pixel];
          if (!(k > 0.0f)) return;
        }
        float* d = target + pixel * 4;
        if constexpr (kNormalOver) {
          const float sa = a * k, keep = 1.0f - sa;
          d[0] = clamp01(c[0] * k + d[0] * keep);
          d[1] = clamp01(c[1] * k + d[1] * keep);
          d[2] = clamp01(c[2] * k + d[2] * keep);
          d[3] = clamp01(sa + d[3] * keep);
        } else {
          composite(blend, alpha, d, c, a, k);
        }
      });
    };
    const bool normal_over = fixed_function(blend, alpha) && blend != kBlendCubismAdd && blend != kBlendCubismMultiply;
    if (normal_over && vector_spans()) {
      OverSpan span;
      span.texture = texture;
      for (std::size_t i = 0; i < 3; ++i) {
        span.multiply[i] = multiply[i];
        span.screen[i] = screen[i];
      }
      span.opacity = opacity;
      span.coverage = coverage;
      span.invert = invert;
      span.target = target;
      over_mesh(corners(m), s_.width, s_.height, cull, dirty, span);
      return;
    }
    using Yes = std::true_type;
    using No = std::false_type;
    if (coverage != nullptr)
      normal_over ? shade(Yes{}, Yes{}) : shade(Yes{}, No{});
    else
      normal_over ? shade(No{}, Yes{}) : shade(No{}, No{});
  }

  void draw_layer(const Layer& layer, float* target, Rect* dirty) {
    if (layer.dirty.empty() || layer.part >= rig_.parts.size()) return;
    const GroupComposite& group = instance_.part_composite(layer.part);
    const float opacity = clamp01(group.opacity);
    if (opacity <= 0.0f) return;
    const Composite& style = model_.part_group_composite(layer.part);
    const std::span<const std::uint32_t> masks = model_.part_group_masks(layer.part);
    const float* coverage = masks.empty() ? nullptr : mask(masks);
    const bool invert = style.invert_mask;
    const Rgb multiply = group.multiply, screen = group.screen;
    const Rect& r = layer.dirty;
    for (std::int32_t y = r.y0; y < r.y1; ++y) {
      for (std::int32_t x = r.x0; x < r.x1; ++x) {
        const std::size_t pixel = static_cast<std::size_t>(y) * s_.width + static_cast<std::size_t>(x);
        const float* l = layer.pixels.data() + pixel * 4;
        const float la = l[3];
        if (!(la > 0.0f)) continue;  // the composite would give the destination back
        float k = 1.0f;
        if (coverage != nullptr) {
          k = invert ? 1.0f - coverage[pixel] : coverage[pixel];
          if (!(k > 0.0f)) continue;
        }
        // The Framework's offscreen composite: the layer's premultiplied pixel recoloured
        // (multiply, then screen scaled by its alpha), times the base colour (opacity on all
        // four channels).
        float c[3];
        for (int i = 0; i < 3; ++i) {
          const auto ch = static_cast<std::size_t>(i);
          c[i] = l[i] * multiply[ch];
          c[i] = (c[i] + screen[ch] * la) - c[i] * screen[ch];
          c[i] *= opacity;
        }
        composite(style.blend, style.alpha_blend, target + pixel * 4, c, la * opacity, k);
      }
    }
    if (dirty != nullptr) dirty->add(r);
  }

  Scratch& s_;
  const Model& model_;
  const Rig& rig_;
  const Instance& instance_;
  TexturePages& pages_;
  Affine t_;
  bool mirrored_;
};

// RGBA8 (straight or premultiplied) to premultiplied floats.
void from_rgba8(const std::uint8_t* in, std::size_t pixels, bool straight, float* out) {
  for (std::size_t i = 0; i < pixels; ++i, in += 4, out += 4) {
    const float a = kByteToUnit[in[3]];
    const float k = straight ? a : 1.0f;
    out[0] = kByteToUnit[in[0]] * k;
    out[1] = kByteToUnit[in[1]] * k;
    out[2] = kByteToUnit[in[2]] * k;
    out[3] = a;
  }
}

// Premultiplied floats to RGBA8, straight or premultiplied, rounded to nearest.
void to_rgba8(const float* in, std::size_t pixels, bool straight, std::uint8_t* out) {
  if (vector_spans()) {
    const std::size_t done = to_rgba8_span(in, pixels, straight, out);
    in += done * 4;
    out += done * 4;
    pixels -= done;
  }
  auto byte = [](float v) { return static_cast<std::uint8_t>(clamp01(v) * 255.0f + 0.5f); };
  for (std::size_t i = 0; i < pixels; ++i, in += 4, out += 4) {
    const float a = clamp01(in[3]);
    if (a <= 0.0f) {
      out[0] = out[1] = out[2] = out[3] = 0;
      continue;
    }
    if (straight) {
      out[0] = byte(in[0] / a);
      out[1] = byte(in[1] / a);
      out[2] = byte(in[2] / a);
    } else {
      out[0] = byte(in[0]);
      out[1] = byte(in[1]);
      out[2] = byte(in[2]);
    }
    out[3] = static_cast<std::uint8_t>(a * 255.0f + 0.5f);
  }
}

// The image [in] (zero outside [dirty]) to RGBA8: zero bytes outside the rectangle, as the
// conversion gives for transparent pixels.
void image_to_rgba8(const float* in, std::uint32_t width, std::uint32_t height, const Rect& dirty, bool straight,
                    std::uint8_t* out) {
  const std::size_t w = width;
  if (dirty.empty()) {
    std::fill(out, out + w * height * 4, std::uint8_t{0});
    return;
  }
  const auto x0 = static_cast<std::size_t>(dirty.x0), x1 = static_cast<std::size_t>(dirty.x1);
  const auto y0 = static_cast<std::size_t>(dirty.y0), y1 = static_cast<std::size_t>(dirty.y1);
  std::fill(out, out + y0 * w * 4, std::uint8_t{0});
  for (std::size_t y = y0; y < y1; ++y) {
    std::uint8_t* row = out + y * w * 4;
    std::fill(row, row + x0 * 4, std::uint8_t{0});
    to_rgba8(in + (y * w + x0) * 4, x1 - x0, straight, row + x0 * 4);
    std::fill(row + x1 * 4, row + w * 4, std::uint8_t{0});
  }
  std::fill(out + y1 * w * 4, out + std::size_t{height} * w * 4, std::uint8_t{0});
}

}  // namespace
}  // namespace render

Renderer::Renderer(std::shared_ptr<const Model> model, std::shared_ptr<TexturePages> pages)
    : model_(std::move(model)), pages_(std::move(pages)), scratch_(std::make_unique<render::Scratch>()) {
  if (!pages_) pages_ = std::make_shared<TexturePages>(model_);
  if (!model_) return;
  render::Scratch& s = *scratch_;
  const std::size_t n = model_->rig().textures.size();
  s.overrides.resize(n);
  s.pages.resize(n, nullptr);
  s.resolved.resize(n, 0);
  s.layer_count = std::min(render::isolated_depth(model_->rig()), render::kMaxLayerDepth);
  s.mask_count = render::mask_slots(*model_);
  std::size_t corners = 0;
  for (std::uint32_t m = 0; m < model_->rig().meshes.size(); ++m) corners = std::max(corners, model_->mesh_indices(m).size());
  s.corners.reserve(corners);
}

Renderer::~Renderer() = default;
Renderer::Renderer(Renderer&&) noexcept = default;
Renderer& Renderer::operator=(Renderer&&) noexcept = default;

const Image* Renderer::texture_override(std::uint32_t page) const {
  if (!scratch_ || page >= scratch_->overrides.size() || scratch_->overrides[page].rgba.empty()) return nullptr;
  return &scratch_->overrides[page];
}

bool Renderer::set_texture(std::uint32_t page, std::span<const std::uint8_t> rgba, std::uint32_t width,
                           std::uint32_t height) {
  if (!scratch_ || page >= scratch_->overrides.size()) return false;
  // Unique across renderers: one that replaces a freed one at the same address still differs.
  static std::atomic<std::uint64_t> versions{0};
  Image& slot = scratch_->overrides[page];
  if (rgba.empty()) {
    slot = Image{};
    texture_version_ = ++versions;
    return true;
  }
  const std::uint64_t pixels = std::uint64_t{width} * height;
  if (pixels == 0 || pixels > render::kMaxPixels || rgba.size() < pixels * 4) return false;
  Image image;
  image.width = width;
  image.height = height;
  render::reserve_in_large_pages(image.rgba, static_cast<std::size_t>(pixels * 4));
  image.rgba.assign(rgba.begin(), rgba.begin() + static_cast<std::ptrdiff_t>(pixels * 4));
  slot = std::move(image);
  texture_version_ = ++versions;
  return true;
}

bool Renderer::render(const Instance& instance, std::uint8_t* rgba, std::uint32_t width, std::uint32_t height,
                      const Affine* transform, std::uint32_t flags) {
  const std::uint64_t pixels = std::uint64_t{width} * height;
  if (rgba == nullptr || pixels == 0 || pixels > render::kMaxPixels) return false;
  if (!scratch_ || !model_ || &instance.model() != model_.get()) return false;
  render::Scratch& s = *scratch_;
  s.reserve(width, height);

  const Affine t = transform != nullptr ? *transform : canvas_fit(model_->rig().canvas, width, height);
  const bool straight = (flags & kRenderStraight) != 0;
  const auto n = static_cast<std::size_t>(pixels);
  if ((flags & kRenderKeep) != 0) {
    render::from_rgba8(rgba, n, straight, s.target.data());
    s.target_dirty = render::Rect{0, 0, static_cast<std::int32_t>(width), static_cast<std::int32_t>(height)};
  } else {
    render::clear(s.target, width, 4, s.target_dirty);
  }
  ++s.frame;
  std::fill(s.resolved.begin(), s.resolved.end(), std::uint8_t{0});

  render::Frame(s, *model_, instance, *pages_, t).draw();
  render::image_to_rgba8(s.target.data(), width, height, s.target_dirty, straight, rgba);
  return true;
}

}  // namespace p2l
