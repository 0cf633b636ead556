// The drawing rules of docs/RUNTIME.md ("Rendering") written out again for the tests, in
// double precision and independently of src/render: what a pixel must come out as. Small
// scenes (a few solid-colour quads) are built in code and their pixels checked against it.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
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

// The W3C separable blend functions B(Cb, Cs), numbered as P2L_BLEND_*.
inline double separable(int mode, double cb, double cs) {
  switch (mode) {
    case 1:  // CUBISM_ADD
    case 3:  // ADD
    case 4:  // ADD_GLOW
      return std::min(1.0, cb + cs);
    case 2:  // CUBISM_MULTIPLY
    case 6:  // MULTIPLY
      return cb * cs;
    case 5:  // DARKEN
      return std::min(cb, cs);
    case 7:  // COLOR_BURN
      if (cb == 1) return 1;
      if (cs == 0) return 0;
      return 1 - std::min(1.0, (1 - cb) / cs);
    case 8:  // LINEAR_BURN
      return std::max(0.0, cb + cs - 1);
    case 9:  // LIGHTEN
      return std::max(cb, cs);
    case 10:  // SCREEN
      return cb + cs - cb * cs;
    case 11:  // COLOR_DODGE
      if (cb == 0) return 0;
      if (cs == 1) return 1;
      return std::min(1.0, cb / (1 - cs));
    case 12:  // OVERLAY: hard light with the layers swapped
      return cb <= 0.5 ? cs * (2 * cb) : cs + (2 * cb - 1) - cs * (2 * cb - 1);
    case 13: {  // SOFT_LIGHT
      if (cs <= 0.5) return cb - (1 - 2 * cs) * cb * (1 - cb);
      const double d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : std::sqrt(cb);
      return cb + (2 * cs - 1) * (d - cb);
    }
    case 14:  // HARD_LIGHT
      return cs <= 0.5 ? cb * (2 * cs) : cb + (2 * cs - 1) - cb * (2 * cs - 1);
    case 15:  // LINEAR_LIGHT
      return sat01(cb + 2 * cs - 1);
    default:  // NORMAL
      return cs;
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
inline Rgb3 set_sat(const Rgb3& c, double s) {
  // The test colours have three distinct channels.
  const int hi = static_cast<int>(std::max_element(c.begin(), c.end()) - c.begin());
  const int lo = static_cast<int>(std::min_element(c.begin(), c.end()) - c.begin());
  const int mid = 3 - hi - lo;
  Rgb3 out{0, 0, 0};
  if (c[static_cast<std::size_t>(hi)] > c[static_cast<std::size_t>(lo)]) {
    out[static_cast<std::size_t>(mid)] = (c[static_cast<std::size_t>(mid)] - c[static_cast<std::size_t>(lo)]) * s /
                                         (c[static_cast<std::size_t>(hi)] - c[static_cast<std::size_t>(lo)]);
    out[static_cast<std::size_t>(hi)] = s;
  }
  return out;
}

inline Rgb3 blend(int mode, const Rgb3& cb, const Rgb3& cs) {
  if (mode == 16) return set_lum(set_sat(cs, sat(cb)), lum(cb));  // HUE
  if (mode == 17) return set_lum(cs, lum(cb));                    // COLOR
  return {separable(mode, cb[0], cs[0]), separable(mode, cb[1], cs[1]), separable(mode, cb[2], cs[2])};
}

// s composited over d by colour blend [mode] and alpha blend [alpha].
inline Px composite(int mode, int alpha, Px s, Px d) {
  if (mode == 1)  // CUBISM_ADD
    return {sat01(s.r + d.r), sat01(s.g + d.g), sat01(s.b + d.b), d.a};
  if (mode == 2)  // CUBISM_MULTIPLY
    return {sat01(s.r * d.r + d.r * (1 - s.a)), sat01(s.g * d.g + d.g * (1 - s.a)), sat01(s.b * d.b + d.b * (1 - s.a)), d.a};
  if (mode == 0 && alpha == 0)
    return {sat01(s.r + d.r * (1 - s.a)), sat01(s.g + d.g * (1 - s.a)), sat01(s.b + d.b * (1 - s.a)), sat01(s.a + d.a * (1 - s.a))};
  auto straight = [](const Px& p) {
    return p.a > 0 ? Rgb3{sat01(p.r / p.a), sat01(p.g / p.a), sat01(p.b / p.a)} : Rgb3{0, 0, 0};
  };
  const Rgb3 cs = straight(s), cb = straight(d);
  const Rgb3 mixed = blend(mode, cb, cs);
  double p = s.a * d.a;
  if (alpha == 3) p = std::min(s.a, d.a);
  if (alpha == 4) p = std::max(s.a + d.a - 1, 0.0);
  const double w = s.a > 0 ? p / s.a : 0;
  double fa = 1, fb = 1 - s.a;
  if (alpha == 1) fa = d.a;
  if (alpha == 2) fa = 0;
  if (alpha == 3) fb = s.a >= d.a ? 0 : 1 - s.a / d.a;
  if (alpha == 4) fb = d.a > 0 ? std::min(1.0, (1 - s.a) / d.a) : 0;
  Px out;
  double* rgb[3] = {&out.r, &out.g, &out.b};
  for (std::size_t i = 0; i < 3; ++i) {
    const double m = (1 - w) * cs[i] + w * mixed[i];
    *rgb[i] = sat01(s.a * fa * m + d.a * fb * cb[i]);
  }
  out.a = sat01(s.a * fa + d.a * fb);
  return out;
}

// A mesh's fragment: the texel, multiply, screen, then scaled by opacity x coverage.
inline Px fragment(Bytes c, const p2l::Rgb& multiply, const p2l::Rgb& screen, double k) {
  Px t = texel(c);
  double* rgb[3] = {&t.r, &t.g, &t.b};
  for (std::size_t i = 0; i < 3; ++i) {
    double v = *rgb[i] * multiply[i];
    v = v + screen[i] * t.a - v * screen[i];
    *rgb[i] = v * k;
  }
  t.a *= k;
  return t;
}

// An isolated group's layer pixel as it composites: unpremultiplied, multiply, screen, then
// premultiplied by its alpha x opacity x coverage.
inline Px group_fragment(Px layer, const p2l::Rgb& multiply, const p2l::Rgb& screen, double k) {
  if (layer.a <= 0) return {};
  const double a = layer.a * k;
  Px out;
  out.a = a;
  const double c[3] = {sat01(layer.r / layer.a), sat01(layer.g / layer.a), sat01(layer.b / layer.a)};
  double* rgb[3] = {&out.r, &out.g, &out.b};
  for (std::size_t i = 0; i < 3; ++i) {
    double v = c[i] * multiply[i];
    v = v + screen[i] - v * screen[i];
    *rgb[i] = v * a;
  }
  return out;
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
