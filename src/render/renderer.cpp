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
// Threads (Renderer::set_threads): the image is cut into horizontal bands, each with its own
// float image, layers and masks (a Surface), and every band draws the whole frame clipped to
// its rows. A pixel depends on nothing outside its own position in any buffer, and the
// coverage rules are decided in the whole image's coordinates (raster.hpp's Band), so the
// bands together give the bytes one thread gives. What the bands share is made before they
// start and only read by them: the pages resolved, and the image-space triangles of every
// mesh the frame draws (MeshCorners).
//
// Where the processor has AVX2, the fixed-function fragments (normal-over, Cubism's add and
// multiply), the masks and the conversion run eight pixels at a time (spans.hpp), with the
// same bits as the scalar code here.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/exceptions.hpp"
#include "p2l/render.hpp"
#include "render/band_pool.hpp"
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
// Bands per drawing thread: more bands than threads, taken in turn, so that a thread done
// with a quiet band (sky, empty margins) takes another while a busy one (a face) is drawn.
constexpr std::uint32_t kBandsPerThread = 4;
// Nor bands thinner than this: each band walks every mesh's triangles once.
constexpr std::uint32_t kMinBandRows = 32;

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

// One band's buffers: its rows of the image being drawn, of each isolated group's layer and
// of each mask, in the band's pixel indices (raster.hpp's Band).
struct Surface {
  Band band;
  std::vector<float> target;  // premultiplied RGBA
  Rect target_dirty;          // target is zero outside it
  std::vector<Layer> layers;  // the stack of open isolated groups
  std::vector<MaskSlot> masks;
  std::uint64_t tick = 0;
  std::exception_ptr failure;  // what a drawing thread threw, for render() to throw again

  void reserve(const Band& b, std::size_t layer_count, std::size_t mask_count) {
    band = b;
    const std::size_t n = std::size_t{b.width} * b.rows();
    std::vector<float>().swap(target);
    target.resize(n * 4);
    target_dirty = Rect{};
    layers.clear();
    layers.resize(layer_count);  // each level's pixels on its first use at this size
    masks.clear();
    masks.resize(mask_count);
    for (MaskSlot& m : masks) m.coverage.resize(n);
  }
};

// The image-space triangles of the meshes one frame draws (and of their masks), three corners
// each, made once a frame before the bands draw.
struct MeshCorners {
  std::vector<Corner> corners;                 // room for every mesh's triangles
  std::vector<std::uint32_t> begin, end;       // mesh m's are corners[begin[m], end[m])
  std::vector<double> top, bottom;             // the least and greatest corner y (finite ones)
  std::vector<std::uint8_t> made;              // made this frame

  std::span<const Corner> of(std::uint32_t m) const {
    return {corners.data() + begin[m], corners.data() + end[m]};
  }
  // Whether mesh [m]'s triangles can cover a pixel of [band]: raster_rows() visits the rows
  // floor(top - 0.5) to ceil(bottom - 0.5).
  bool may_cover(std::uint32_t m, const Band& band) const {
    return !(std::ceil(bottom[m] - 0.5) < static_cast<double>(band.y0) ||
             std::floor(top[m] - 0.5) > static_cast<double>(band.y1 - 1));
  }
};

struct Scratch {
  std::uint32_t width = 0, height = 0;
  std::size_t layer_count = 0, mask_count = 0;  // what the model can need
  std::vector<Image> overrides;                 // set_texture pixels per page; empty: none
  std::vector<const Image*> pages;              // this frame's texture per page
  std::vector<std::uint8_t> resolved;           // pages[p] is known this frame
  MeshCorners meshes;
  std::vector<Surface> bands;
  std::unique_ptr<BandPool> pool;  // null: the caller draws alone
  std::uint64_t frame = 0;

  unsigned threads() const { return pool ? pool->threads() : 1u; }

  // Buffers for [w] x [h], cut into bands for the threads; nothing happens at the current size.
  void reserve(std::uint32_t w, std::uint32_t h) {
    if (w == width && h == height) return;
    width = height = 0;
    const std::uint32_t most = std::max(1u, h / kMinBandRows);
    const std::uint32_t count = std::min(threads() == 1 ? 1u : threads() * kBandsPerThread, most);
    bands.clear();
    bands.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto y0 = static_cast<std::int32_t>(std::uint64_t{h} * i / count);
      const auto y1 = static_cast<std::int32_t>(std::uint64_t{h} * (i + 1) / count);
      bands[i].reserve(Band{w, y0, y1}, layer_count, mask_count);
    }
    width = w;
    height = h;
  }
};

namespace {

// What the bands of one render call share, made before they draw: each page this frame
// draws resolved (the host's, else the decoded embedded PNG; null for none) and the
// image-space triangles of every mesh drawn or masking.
class FramePrep {
 public:
  FramePrep(Scratch& s, const Model& model, const Instance& instance, TexturePages& pages, const Affine& t)
      : s_(s), model_(model), rig_(model.rig()), instance_(instance), pages_(pages), t_(t) {}

  void prepare() {
    std::fill(s_.resolved.begin(), s_.resolved.end(), std::uint8_t{0});
    std::fill(s_.meshes.made.begin(), s_.meshes.made.end(), std::uint8_t{0});
    s_.meshes.corners.clear();
    for (const std::int32_t command : instance_.render_commands()) {
      if (command <= -2) {
        const auto part = static_cast<std::uint32_t>(-2 - static_cast<std::int64_t>(command));
        if (part < rig_.parts.size()) masks(model_.part_group_masks(part));
      } else if (command >= 0) {
        const auto m = static_cast<std::uint32_t>(command);
        if (m >= rig_.meshes.size() || !(clamp01(instance_.opacity(m)) > 0.0f)) continue;
        if (page(rig_.meshes[m].texture_page) == nullptr) continue;
        make(m);
        masks(rig_.meshes[m].mask_meshes);
      }
    }
  }

 private:
  void masks(std::span<const std::uint32_t> set) {
    for (const std::uint32_t id : set)
      if (id < rig_.meshes.size() && page(rig_.meshes[id].texture_page) != nullptr) make(id);
  }

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

  // Mesh [m]'s triangles, three image-space corners each, and the rows they span.
  void make(std::uint32_t m) {
    MeshCorners& out = s_.meshes;
    if (out.made[m] != 0) return;
    out.made[m] = 1;
    out.begin[m] = out.end[m] = static_cast<std::uint32_t>(out.corners.size());
    double top = INFINITY, bottom = -INFINITY;
    const Mesh& mesh = rig_.meshes[m];
    if (mesh.geometry) {
      const std::span<const float> xy = instance_.vertices(m);
      const Array<float>& uv = mesh.geometry->uvs;
      const std::size_t n = std::min(xy.size(), uv.size()) / 2;
      const std::span<const std::uint32_t> indices = model_.mesh_indices(m);
      auto corner = [&](std::size_t i) {
        const float x = xy[2 * i], y = xy[2 * i + 1];
        const float ix = t_.a * x + t_.b * y + t_.tx, iy = t_.c * x + t_.d * y + t_.ty;
        const double cy = iy;
        top = std::fmin(top, cy);
        bottom = std::fmax(bottom, cy);
        out.corners.push_back(Corner{ix, cy, uv[2 * i], uv[2 * i + 1]});
      };
      for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
        const std::size_t i0 = indices[t], i1 = indices[t + 1], i2 = indices[t + 2];
        if (i0 >= n || i1 >= n || i2 >= n) continue;
        corner(i0);
        corner(i1);
        corner(i2);
      }
    }
    out.end[m] = static_cast<std::uint32_t>(out.corners.size());
    out.top[m] = top;
    out.bottom[m] = bottom;
  }

  Scratch& s_;
  const Model& model_;
  const Rig& rig_;
  const Instance& instance_;
  TexturePages& pages_;
  Affine t_;
};

// One band of one render call: the model, the instance's last evaluation, what FramePrep
// made and the band's buffers.
class Frame {
 public:
  Frame(const Scratch& s, Surface& surface, const Model& model, const Instance& instance, const Affine& t)
      : s_(s), b_(surface), band_(surface.band), model_(model), rig_(model.rig()), instance_(instance),
        mirrored_(t.a * t.d - t.b * t.c < 0.0f) {}

  void draw() {
    std::size_t open = 0, flattened = 0;  // flattened: groups past the deepest layer, drawn through
    for (const std::int32_t command : instance_.render_commands()) {
      if (command <= -2) {
        if (open == b_.layers.size()) {
          ++flattened;
          continue;
        }
        Layer& layer = b_.layers[open++];
        if (layer.pixels.empty()) layer.pixels.resize(std::size_t{band_.width} * band_.rows() * 4);
        clear(layer.pixels, band_.width, 4, layer.dirty);
        layer.part = static_cast<std::uint32_t>(-2 - static_cast<std::int64_t>(command));
      } else if (command == kRenderEndGroup) {
        if (flattened > 0)
          --flattened;
        else if (open > 0)
          close(--open);
      } else {
        const auto mesh = static_cast<std::uint32_t>(command);
        if (open > 0)
          draw_mesh(mesh, b_.layers[open - 1].pixels.data(), &b_.layers[open - 1].dirty);
        else
          draw_mesh(mesh, b_.target.data(), &b_.target_dirty);
      }
    }
    while (open > 0) close(--open);
  }

 private:
  // Composites layer [index] into what lies under it.
  void close(std::size_t index) {
    if (index > 0)
      draw_layer(b_.layers[index], b_.layers[index - 1].pixels.data(), &b_.layers[index - 1].dirty);
    else
      draw_layer(b_.layers[index], b_.target.data(), &b_.target_dirty);
  }

  // Page [page]'s pixels this frame, as FramePrep resolved them; null for none.
  const Image* page(std::int32_t page) const {
    if (page < 0 || static_cast<std::size_t>(page) >= s_.pages.size() || s_.resolved[static_cast<std::size_t>(page)] == 0)
      return nullptr;
    return s_.pages[static_cast<std::size_t>(page)];
  }

  // Mesh [m]'s triangles in image space, three corners each, when they may cover a pixel of
  // this band; else none.
  std::span<const Corner> corners(std::uint32_t m) const {
    if (s_.meshes.made[m] == 0 || !s_.meshes.may_cover(m, band_)) return {};
    return s_.meshes.of(m);
  }

  // Calls fragment(pixel, u, v) over every covered pixel of mesh [m]'s triangles.
  template <class Fragment>
  void triangles(std::uint32_t m, Cull cull, Rect* touched, Fragment&& fragment) {
    const std::span<const Corner> c = corners(m);
    for (std::size_t i = 0; i + 2 < c.size(); i += 3) raster_triangle(c[i], c[i + 1], c[i + 2], band_, cull, touched, fragment);
  }

  // The coverage of the mask meshes [set]: per pixel 1 - prod(1 - a) over their texture
  // alphas a, as the Framework's mask buffer accumulates it.
  const float* mask(std::span<const std::uint32_t> set) {
    for (MaskSlot& slot : b_.masks) {
      if (slot.frame == s_.frame && same(slot.key, set)) {
        slot.used = ++b_.tick;
        return slot.coverage.data();
      }
    }
    if (b_.masks.empty()) {  // the model named no masks: not expected
      b_.masks.emplace_back();
      b_.masks.back().coverage.resize(std::size_t{band_.width} * band_.rows());
    }
    // A slot from an earlier frame, else the one used longest ago.
    MaskSlot* slot = &b_.masks[0];
    for (MaskSlot& m : b_.masks) {
      const std::uint64_t age = m.frame == s_.frame ? m.used : 0;
      const std::uint64_t best = slot->frame == s_.frame ? slot->used : 0;
      if (age < best) slot = &m;
    }
    clear(slot->coverage, band_.width, 1, slot->dirty);
    slot->key = set;
    slot->frame = s_.frame;
    slot->used = ++b_.tick;
    float* coverage = slot->coverage.data();
    for (const std::uint32_t id : set) {
      if (id >= rig_.meshes.size()) continue;
      const Image* texture = page(rig_.meshes[id].texture_page);
      if (texture == nullptr) continue;
      if (vector_spans()) {
        mask_mesh(corners(id), band_, &slot->dirty, *texture, coverage);
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
    if (fixed_function(blend, alpha) && vector_spans()) {
      OverSpan span;
      span.texture = texture;
      span.mode = blend == kBlendCubismAdd ? Fixed::Add : blend == kBlendCubismMultiply ? Fixed::Multiply : Fixed::Over;
      for (std::size_t i = 0; i < 3; ++i) {
        span.multiply[i] = multiply[i];
        span.screen[i] = screen[i];
      }
      span.opacity = opacity;
      span.coverage = coverage;
      span.invert = invert;
      span.target = target;
      over_mesh(corners(m), band_, cull, dirty, span);
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
        const std::size_t pixel = static_cast<std::size_t>(y) * band_.width + static_cast<std::size_t>(x);
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

  const Scratch& s_;
  Surface& b_;
  const Band band_;
  const Model& model_;
  const Rig& rig_;
  const Instance& instance_;
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
  const std::size_t meshes = model_->rig().meshes.size();
  std::size_t corners = 0;
  for (std::uint32_t m = 0; m < meshes; ++m) corners += model_->mesh_indices(m).size();
  s.meshes.corners.reserve(corners);
  s.meshes.begin.resize(meshes);
  s.meshes.end.resize(meshes);
  s.meshes.top.resize(meshes);
  s.meshes.bottom.resize(meshes);
  s.meshes.made.resize(meshes);
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

void Renderer::set_threads(unsigned threads) {
  if (!scratch_) return;
  if (threads == 0) threads = render::processor_cores();
  if (!render::platform_has_threads()) threads = 1;
  render::Scratch& s = *scratch_;
  if (threads == s.threads()) return;
  s.pool = threads == 1 ? nullptr : std::make_unique<render::BandPool>(threads);
  s.width = s.height = 0;  // cut into bands again at the next frame
}

unsigned Renderer::threads() const { return scratch_ ? scratch_->threads() : 1u; }

namespace {

// One band's share of a render call.
struct BandJob {
  render::Scratch& s;
  const Model& model;
  const Instance& instance;
  const Affine& t;
  std::uint8_t* rgba;
  bool keep, straight;

  static void run(void* context, std::size_t i) {
    const auto& job = *static_cast<const BandJob*>(context);
    render::Surface& b = job.s.bands[i];
    P2L_TRY {
      const render::Band& band = b.band;
      std::uint8_t* rows = job.rgba + static_cast<std::size_t>(band.y0) * band.width * 4;
      if (job.keep) {
        render::from_rgba8(rows, std::size_t{band.width} * band.rows(), job.straight, b.target.data());
        b.target_dirty = render::Rect{0, 0, static_cast<std::int32_t>(band.width), static_cast<std::int32_t>(band.rows())};
      } else {
        render::clear(b.target, band.width, 4, b.target_dirty);
      }
      render::Frame(job.s, b, job.model, job.instance, job.t).draw();
      render::image_to_rgba8(b.target.data(), band.width, band.rows(), b.target_dirty, job.straight, rows);
    }
#if P2L_HAS_EXCEPTIONS
    P2L_CATCH_ALL { b.failure = std::current_exception(); }
#endif
  }
};

}  // namespace

bool Renderer::render(const Instance& instance, std::uint8_t* rgba, std::uint32_t width, std::uint32_t height,
                      const Affine* transform, std::uint32_t flags) {
  const std::uint64_t pixels = std::uint64_t{width} * height;
  if (rgba == nullptr || pixels == 0 || pixels > render::kMaxPixels) return false;
  if (!scratch_ || !model_ || &instance.model() != model_.get()) return false;
  render::Scratch& s = *scratch_;
  s.reserve(width, height);

  const Affine t = transform != nullptr ? *transform : canvas_fit(model_->rig().canvas, width, height);
  ++s.frame;
  render::FramePrep(s, *model_, instance, *pages_, t).prepare();
  BandJob job{s, *model_, instance, t, rgba, (flags & kRenderKeep) != 0, (flags & kRenderStraight) != 0};
  if (s.pool)
    s.pool->run(s.bands.size(), &BandJob::run, &job);
  else
    BandJob::run(&job, 0);
#if P2L_HAS_EXCEPTIONS
  // What a band threw (memory running out for a layer), thrown again on the caller's thread.
  for (render::Surface& b : s.bands) {
    if (!b.failure) continue;
    std::exception_ptr failure = std::move(b.failure);
    for (render::Surface& other : s.bands) other.failure = nullptr;
    std::rethrow_exception(failure);
  }
#endif
  return true;
}

}  // namespace p2l
