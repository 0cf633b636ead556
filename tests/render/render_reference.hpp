// The drawing rules of docs/RUNTIME.md ("Rendering") written out again for the tests, in
// double precision and independently of src/render: what a pixel must come out as. Small
// scenes (a few solid-colour quads) are built in code and their pixels checked against it.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "p2l/render.hpp"
#include "p2l/rig.hpp"

namespace render_test {

using Bytes = std::array<std::uint8_t, 4>;  // straight RGBA8

// ---------------------------------------------------------------------------------------
// The reference arithmetic.

// A premultiplied colour.
struct Px {
  double r = 0, g = 0, b = 0, a = 0;
};

inline double sat01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

inline Px texel(Bytes c) {
  const double a = c[3] / 255.0;
  return {c[0] / 255.0 * a, c[1] / 255.0 * a, c[2] / 255.0 * a, a};
}

// The colour blend functions B(Cs, Cd) of the Cubism 5 R5 Framework, as docs/RUNTIME.md
// ("Compositing") states them, numbered as P2L_BLEND_*: [s] the source's straight channel,
// [d] the destination's.
inline double separable(int mode, double s, double d) {
  switch (mode) {
    case 3:  // ADD
      return std::min(s + d, 1.0);
    case 4:  // ADD_GLOW
      return s + d;
    case 5:  // DARKEN
      return std::min(s, d);
    case 6:  // MULTIPLY
      return s * d;
    case 7:  // COLOR_BURN
      if (std::fabs(d - 1) < 1e-6) return 1;
      if (std::fabs(s) < 1e-6) return 0;
      return 1 - std::min(1.0, (1 - d) / s);
    case 8:  // LINEAR_BURN
      return std::max(0.0, s + d - 1);
    case 9:  // LIGHTEN
      return std::max(s, d);
    case 10:  // SCREEN
      return s + d - s * d;
    case 11:  // COLOR_DODGE
      if (d <= 0) return 0;
      if (s == 1) return 1;
      return std::min(1.0, d / (1 - s));
    case 12:  // OVERLAY
      return d < 0.5 ? 2 * s * d : 1 - 2 * (1 - s) * (1 - d);
    case 13:  // SOFT_LIGHT
      if (s <= 0.5) return d - (1 - 2 * s) * d * (1 - d);
      if (d <= 0.25) return d + (2 * s - 1) * d * ((16 * d - 12) * d + 3);
      return d + (2 * s - 1) * (std::sqrt(d) - d);
    case 14:  // HARD_LIGHT
      return s < 0.5 ? 2 * s * d : 1 - 2 * (1 - s) * (1 - d);
    case 15:  // LINEAR_LIGHT
      return s < 0.5 ? std::max(0.0, 2 * s + d - 1) : std::min(1.0, 2 * (s - 0.5) + d);
    default:  // NORMAL
      return s;
  }
}

using Rgb3 = std::array<double, 3>;
inline double lum(const Rgb3& c) { return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2]; }
inline Rgb3 clip_color(Rgb3 c) {
  const double l = lum(c);
  const double n = std::min({c[0], c[1], c[2]}), x = std::max({c[0], c[1], c[2]});
  if (n < 0)
    for (double& v : c) v = l + (v - l) * l / (l - n);
  if (x > 1)
    for (double& v : c) v = l + (v - l) * (1 - l) / (x - l);
  return c;
}
inline Rgb3 set_lum(Rgb3 c, double l) {
  const double d = l - lum(c);
  for (double& v : c) v += d;
  return clip_color(c);
}
inline double sat(const Rgb3& c) { return std::max({c[0], c[1], c[2]}) - std::min({c[0], c[1], c[2]}); }
// The docs' table: which channel takes the largest (s), the middle and the smallest (0) value.
inline Rgb3 set_sat(const Rgb3& c, double s) {
  const double x = std::max({c[0], c[1], c[2]}), n = std::min({c[0], c[1], c[2]});
  const double top = n < x ? s : 0;
  const double middle = n < x ? (c[0] + c[1] + c[2] - x - n - n) * s / (x - n) : 0;
  const double r = c[0], g = c[1], b = c[2];
  if (r == x) return b < g ? Rgb3{top, middle, 0} : Rgb3{top, 0, middle};
  if (g == x) return r < b ? Rgb3{0, top, middle} : Rgb3{middle, top, 0};
  return g < r ? Rgb3{middle, 0, top} : Rgb3{0, middle, top};
}

inline Rgb3 blend(int mode, const Rgb3& cs, const Rgb3& cd) {
  if (mode == 16) return set_lum(set_sat(cs, sat(cd)), lum(cd));  // HUE
  if (mode == 17) return set_lum(cs, lum(cd));                    // COLOR
  return {separable(mode, cs[0], cd[0]), separable(mode, cs[1], cd[1]), separable(mode, cs[2], cd[2])};
}

// The premultiplied-to-straight conversion: 0 below an alpha of 1e-5.
inline Rgb3 straight_of(const Px& p) {
  if (std::fabs(p.a) < 1e-5) return {0, 0, 0};
  return {p.r / p.a, p.g / p.a, p.b / p.a};
}

// The fragment [s] (premultiplied, before its mask) composited into [d] by colour blend
// [mode] and alpha blend [alpha], [m] the mask value.
inline Px composite(int mode, int alpha, Px s, Px d, double m = 1) {
  if (mode > 17) mode = 0;
  if (alpha > 4) alpha = 0;
  if (mode == 1)  // ADD_COMPATIBLE: GL ONE, ONE / ZERO, ONE
    return {sat01(s.r * m + d.r), sat01(s.g * m + d.g), sat01(s.b * m + d.b), d.a};
  if (mode == 2) {  // MULTIPLY_COMPATIBLE: GL DST_COLOR, ONE_MINUS_SRC_ALPHA / ZERO, ONE
    const double keep = 1 - s.a * m;
    return {sat01(s.r * m * d.r + d.r * keep), sat01(s.g * m * d.g + d.g * keep), sat01(s.b * m * d.b + d.b * keep), d.a};
  }
  if (mode == 0 && alpha == 0) {  // GL ONE, ONE_MINUS_SRC_ALPHA
    const double keep = 1 - s.a * m;
    return {sat01(s.r * m + d.r * keep), sat01(s.g * m + d.g * keep), sat01(s.b * m + d.b * keep), sat01(s.a * m + d.a * keep)};
  }
  const Rgb3 cs = straight_of(s), cd = straight_of(d);
  const double as = s.a * m, ad = d.a;
  const Rgb3 b = blend(mode, cs, cd);
  double w[3];  // the weights of B, Cs and Cd
  switch (alpha) {
    case 1: w[0] = as * ad, w[1] = 0, w[2] = ad * (1 - as); break;                      // ATOP
    case 2: w[0] = 0, w[1] = 0, w[2] = ad * (1 - as); break;                            // OUT
    case 3: w[0] = std::min(as, ad), w[1] = std::max(as - ad, 0.0), w[2] = std::max(ad - as, 0.0); break;  // CONJOINT
    case 4: w[0] = std::max(as + ad - 1, 0.0), w[1] = std::min(as, 1 - ad), w[2] = std::min(ad, 1 - as); break;  // DISJOINT
    default: w[0] = as * ad, w[1] = as * (1 - ad), w[2] = ad * (1 - as); break;        // OVER
  }
  Px out;
  double* rgb[3] = {&out.r, &out.g, &out.b};
  for (std::size_t i = 0; i < 3; ++i) *rgb[i] = sat01(b[i] * w[0] + cs[i] * w[1] + cd[i] * w[2]);
  out.a = sat01(w[0] + w[1] + w[2]);
  return out;
}

// A mesh's fragment before its mask: the premultiplied texel, multiply, screen scaled by the
// texel's alpha, then times the opacity on all four channels.
inline Px fragment(Bytes c, const p2l::Rgb& multiply, const p2l::Rgb& screen, double opacity) {
  Px t = texel(c);
  double* rgb[3] = {&t.r, &t.g, &t.b};
  for (std::size_t i = 0; i < 3; ++i) {
    double v = *rgb[i] * multiply[i];
    v = v + screen[i] * t.a - v * screen[i];
    *rgb[i] = v * opacity;
  }
  t.a *= opacity;
  return t;
}

// An isolated group's (offscreen's) layer pixel as it composites, before the group's mask:
// the premultiplied layer pixel recoloured as a texel is, times the group's opacity.
inline Px group_fragment(Px layer, const p2l::Rgb& multiply, const p2l::Rgb& screen, double opacity) {
  if (layer.a <= 0) return {};
  Px out = layer;
  double* rgb[3] = {&out.r, &out.g, &out.b};
  for (std::size_t i = 0; i < 3; ++i) {
    double v = *rgb[i] * multiply[i];
    v = v + screen[i] * layer.a - v * screen[i];
    *rgb[i] = v * opacity;
  }
  out.a = layer.a * opacity;
  return out;
}

// The mask value of mask alphas [alphas]: 1 - prod(1 - a); [invert] turns it to 1 - that.
inline double mask_value(std::initializer_list<double> alphas, bool invert = false) {
  double keep = 1;
  for (double a : alphas) keep *= 1 - a;
  return invert ? keep : 1 - keep;
}

// What the RGBA8 output must hold (before rounding), 0..255.
inline std::array<double, 4> bytes_of(Px p, bool straight) {
  const double a = sat01(p.a);
  if (a <= 0) return {0, 0, 0, 0};
  auto ch = [&](double v) { return sat01(straight ? v / a : v) * 255.0; };
  return {ch(p.r), ch(p.g), ch(p.b), a * 255.0};
}

// ---------------------------------------------------------------------------------------
// Scenes built in code.

inline std::vector<std::uint8_t> png_of(std::uint32_t w, std::uint32_t h, const std::vector<std::uint8_t>& rgba) {
  std::vector<std::uint8_t> out;
  std::string error;
  EXPECT_TRUE(p2l::encode_png(rgba.data(), w, h, out, error)) << error;
  return out;
}

inline std::vector<std::uint8_t> solid(std::uint32_t w, std::uint32_t h, Bytes c) {
  std::vector<std::uint8_t> px;
  for (std::uint32_t i = 0; i < w * h; ++i) px.insert(px.end(), c.begin(), c.end());
  return px;
}

struct Scene {
  p2l::Rig rig;

  Scene(std::uint32_t width, std::uint32_t height) { rig.canvas = {float(width), float(height), 0, 0, -1}; }

  // An embedded PNG page of 2 x 2 texels of [c].
  std::int32_t page(Bytes c) { return page_pixels(2, 2, solid(2, 2, c)); }
  std::int32_t page_pixels(std::uint32_t w, std::uint32_t h, const std::vector<std::uint8_t>& rgba) {
    p2l::Texture t;
    t.kind = p2l::TextureKind::Png;
    t.width = w;
    t.height = h;
    t.data = png_of(w, h, rgba);
    rig.textures.push_back(std::move(t));
    return static_cast<std::int32_t>(rig.textures.size() - 1);
  }

  // A quad [x0, x1] x [y0, y1] in canvas pixels showing the whole page, as two triangles
  // that are Cubism front faces ([front]) or back faces. Not drawn until draw() names it.
  std::uint32_t quad(float x0, float y0, float x1, float y1, std::int32_t page, bool front = true) {
    p2l::Mesh m;
    m.id = "m" + std::to_string(rig.meshes.size());
    m.name = m.id;
    m.texture_page = page;
    m.geometry = p2l::Geometry{{x0, y0, x1, y0, x0, y1, x1, y1},
                               {0, 0, 1, 0, 0, 1, 1, 1},
                               front ? p2l::IndexArray{0, 2, 1, 1, 2, 3} : p2l::IndexArray{0, 1, 2, 1, 3, 2}};
    rig.meshes.push_back(std::move(m));
    return static_cast<std::uint32_t>(rig.meshes.size() - 1);
  }
  std::uint32_t triangle(std::array<float, 6> xy, std::array<float, 6> uv, std::int32_t page) {
    p2l::Mesh m;
    m.id = "m" + std::to_string(rig.meshes.size());
    m.name = m.id;
    m.texture_page = page;
    m.geometry = p2l::Geometry{std::vector<float>(xy.begin(), xy.end()), std::vector<float>(uv.begin(), uv.end()),
                               p2l::IndexArray{0, 1, 2}};
    rig.meshes.push_back(std::move(m));
    return static_cast<std::uint32_t>(rig.meshes.size() - 1);
  }
  p2l::Mesh& mesh(std::uint32_t m) { return rig.meshes[m]; }

  // Appends mesh [m] to draw group [group] (0: the root).
  void draw(std::uint32_t m, std::uint32_t group = 0) {
    rig.draw_groups[group].children.push_back({p2l::DrawChildKind::Mesh, m});
  }
  // A new part isolating its meshes (group mode 2) and its draw group under [parent];
  // returns the draw group. The part's index is the draw group's part.
  std::uint32_t isolated_group(std::uint32_t parent = 0, std::uint8_t blend = 0, std::uint8_t alpha = 0) {
    p2l::Part part;
    part.id = "p" + std::to_string(rig.parts.size());
    part.name = part.id;
    part.group_mode = 2;
    part.composite.blend = blend;
    part.composite.alpha_blend = alpha;
    rig.parts.push_back(std::move(part));
    p2l::DrawGroup g;
    g.part = static_cast<std::int32_t>(rig.parts.size() - 1);
    rig.draw_groups.push_back(std::move(g));
    const auto index = static_cast<std::uint32_t>(rig.draw_groups.size() - 1);
    rig.draw_groups[parent].children.push_back({p2l::DrawChildKind::Group, index});
    return index;
  }
  p2l::Part& part_of_group(std::uint32_t group) { return rig.parts[static_cast<std::size_t>(rig.draw_groups[group].part)]; }
};

// The scene of one colour x alpha blend pair on meshes (render_blend_test.cpp; p2l_gl's tests
// draw it too): a backdrop quad over x 0..10 of a 16 x 8 canvas, the [source] quad over x 6..16
// by the pair at [opacity]; [masking] 1 masks it by a mesh of alpha 150 covering rows [mask_y0]
// and down, 2 the same inverted.
inline Scene blend_pair_scene(int mode, int alpha, Bytes backdrop, Bytes source, float opacity, int masking,
                              float mask_y0 = 0) {
  Scene scene(16, 8);
  const std::uint32_t back = scene.quad(0, 0, 10, 8, scene.page(backdrop));
  const std::uint32_t top = scene.quad(6, 0, 16, 8, scene.page(source));
  const std::uint32_t mask = scene.quad(0, mask_y0, 16, 8, scene.page({9, 9, 9, 150}));
  scene.mesh(top).blend = static_cast<std::uint8_t>(mode);
  scene.mesh(top).alpha_blend = static_cast<std::uint8_t>(alpha);
  scene.mesh(top).opacity = opacity;
  if (masking > 0) scene.mesh(top).mask_meshes = {mask};
  scene.mesh(top).invert_mask = masking == 2;
  scene.draw(back);
  scene.draw(top);
  return scene;
}

// The scene of one pair on an isolated group (render_offscreen_test.cpp; p2l_gl's tests too): a
// [back] quad over x 0..10 of a 16 x 4 canvas, and a group by the pair holding [lower] over x
// 6..16 and [upper] over x 8..14, with [opacity], [multiply] and [screen]; [masking] 1 masks the
// group by a mesh of alpha 170 over x 0..12, 2 the same inverted.
inline Scene group_pair_scene(int mode, int alpha, Bytes back, Bytes lower, Bytes upper, float opacity,
                              p2l::Rgb multiply, p2l::Rgb screen, int masking) {
  Scene scene(16, 4);
  const std::uint32_t b = scene.quad(0, 0, 10, 4, scene.page(back));
  const std::uint32_t l1 = scene.quad(6, 0, 16, 4, scene.page(lower));
  const std::uint32_t l2 = scene.quad(8, 0, 14, 4, scene.page(upper));
  const std::uint32_t mask = scene.quad(0, 0, 12, 4, scene.page({1, 2, 3, 170}));
  scene.draw(b);
  const std::uint32_t g = scene.isolated_group(0, static_cast<std::uint8_t>(mode), static_cast<std::uint8_t>(alpha));
  scene.draw(l1, g);
  scene.draw(l2, g);
  p2l::Part& part = scene.part_of_group(g);
  part.composite.opacity = opacity;
  part.composite.multiply = multiply;
  part.composite.screen = screen;
  if (masking > 0) part.composite.mask_meshes = {mask};
  part.composite.invert_mask = masking == 2;
  return scene;
}

// [rig] with the PNG [png] of [w] x [h] texels as its one page, mesh m on page page_of(m)
// (-1: none), compiled.
template <class PageOf>
std::shared_ptr<const p2l::Model> with_png_page(p2l::Rig rig, const std::vector<std::uint8_t>& png, std::uint32_t w,
                                                std::uint32_t h, PageOf page_of) {
  p2l::Texture page;
  page.width = w;
  page.height = h;
  page.data = png;
  rig.textures.push_back(page);
  for (std::size_t m = 0; m < rig.meshes.size(); ++m) rig.meshes[m].texture_page = page_of(m);
  auto model = p2l::Model::create(std::make_shared<const p2l::Rig>(std::move(rig)));
  EXPECT_TRUE(model) << model.error.to_string();
  return model.model;
}

// The random-rig tests' pose [pose] of rig [seed]: every parameter set, then evaluated.
inline void random_pose(p2l::Instance& instance, std::uint64_t seed, int pose) {
  auto values = instance.parameters();
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>((seed * 31 + i * 7 + static_cast<std::size_t>(pose) * 13) % 61) - 30.0f;
  instance.evaluate();
}

// A scene compiled, with an instance at its defaults and a renderer.
struct Drawn {
  std::shared_ptr<const p2l::Model> model;
  std::unique_ptr<p2l::Instance> instance;
  std::unique_ptr<p2l::Renderer> renderer;
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> image;

  Drawn(const Scene& scene, std::uint32_t w, std::uint32_t h) : width(w), height(h) {
    const p2l::Error error = p2l::validate(scene.rig);
    EXPECT_TRUE(error.ok()) << error.to_string();
    auto result = p2l::Model::create(std::make_shared<const p2l::Rig>(scene.rig));
    EXPECT_TRUE(result) << result.error.to_string();
    model = result.model;
    if (!model) return;
    instance = std::make_unique<p2l::Instance>(model);
    renderer = std::make_unique<p2l::Renderer>(model);
    image.assign(std::size_t{w} * h * 4, 0);
  }

  bool render(std::uint32_t flags = 0, const p2l::Affine* transform = nullptr) {
    if (!renderer) return false;
    return renderer->render(*instance, image.data(), width, height, transform, flags);
  }
  Bytes at(std::uint32_t x, std::uint32_t y) const {
    const std::size_t i = (std::size_t{y} * width + x) * 4;
    return {image[i], image[i + 1], image[i + 2], image[i + 3]};
  }
};

// Checks pixel (x, y) against [expected] within one step of 255.
inline ::testing::AssertionResult near(const Drawn& d, std::uint32_t x, std::uint32_t y, Px expected, bool straight) {
  const Bytes got = d.at(x, y);
  const std::array<double, 4> want = bytes_of(expected, straight);
  for (std::size_t i = 0; i < 4; ++i) {
    if (std::fabs(got[i] - want[i]) > 1.0 + 1e-9) {
      return ::testing::AssertionFailure()
             << "pixel (" << x << ", " << y << ") is " << int(got[0]) << " " << int(got[1]) << " " << int(got[2]) << " "
             << int(got[3]) << ", expected " << want[0] << " " << want[1] << " " << want[2] << " " << want[3]
             << (straight ? " (straight)" : " (premultiplied)");
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace render_test
