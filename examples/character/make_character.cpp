// p2l_make_character: builds the bundled example character ("Tsumugi", a chibi head and torso)
// entirely in code and writes it as character.p2lrt and character.json.
//
//   p2l_make_character OUTPUT_FOLDER
//
// Nothing here comes from outside the project: every texture is drawn below with signed
// distance functions into one 1024x1024 atlas, encoded with p2l::encode_png, and every
// deformer, keyform and motion is computed. The rig shows the whole Cubism-style feature set
// of the format's core and attached chunks: warp and rotation deformers nested both ways,
// keyform grids on one and two parameters, blend shapes with a limit, glue, masks (one
// inverted), four blend modes, an isolated part group, pendulum physics, parameter roles,
// clips with events and part-opacity curves, expressions, a pose group, hit areas, a
// parameter panel and information entries; and, for advanced mode, the extension chunks a
// skeleton and simulation bake adds (BONE, SKIN, COLL, SIMS): a skinned left arm with a
// folded forearm bone and an arc, and a simulated hair lock that keeps out of a shoulder
// collider. README.md beside this file lists where each one is.
//
// How positions are made. Every sprite is drawn at its place on the canvas (1024x1024 pixels,
// y down). A mesh is a grid over its sprite's canvas rectangle with the empty cells left out
// (the left sleeve and the hair lock, which bend, are strips along their centre lines).
// Deformers are defined so that at the default pose every warp is an axis-aligned rectangle
// and every rotation is at angle 0 and scale 1; a canvas point then has a simple position in
// any deformer's space (Space::to_local), which is how vertices, lattices, pivots and keyform
// offsets are all written: as canvas points and canvas displacements, converted once.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "p2l/json.hpp"
#include "p2l/render.hpp"
#include "p2l/rig.hpp"

namespace {

using p2l::Array;
using p2l::Rig;

constexpr float kPi = 3.14159265358979f;
constexpr float kCanvasSize = 1024;
constexpr int kAtlasSize = 1024;

// ---------------------------------------------------------------------------------------
// Small maths

struct Vec {
  float x = 0, y = 0;
};
Vec operator+(Vec a, Vec b) { return {a.x + b.x, a.y + b.y}; }
Vec operator-(Vec a, Vec b) { return {a.x - b.x, a.y - b.y}; }
Vec operator*(Vec a, float s) { return {a.x * s, a.y * s}; }
float dot(Vec a, Vec b) { return a.x * b.x + a.y * b.y; }
float length(Vec a) { return std::sqrt(dot(a, a)); }
// The same point seen in the mirror through the canvas centre line: the character's right
// side is drawn by painting its left side at the mirrored point.
Vec mirror(Vec p) { return {kCanvasSize - p.x, p.y}; }
// [v] turned by [degrees] as rotation deformers turn (positive: clockwise on screen, y down).
Vec rotate(Vec v, float degrees) {
  const float r = degrees * kPi / 180;
  return {v.x * std::cos(r) - v.y * std::sin(r), v.x * std::sin(r) + v.y * std::cos(r)};
}

float clamp01(float x) { return std::clamp(x, 0.0f, 1.0f); }
float lerp(float a, float b, float t) { return a + (b - a) * t; }
float smoothstep(float e0, float e1, float x) {
  const float t = clamp01((x - e0) / (e1 - e0));
  return t * t * (3 - 2 * t);
}

// ---------------------------------------------------------------------------------------
// Signed distances (canvas pixels, negative inside), the shapes every sprite is drawn from

float sd_circle(Vec p, Vec c, float r) { return length(p - c) - r; }

// An ellipse's implicit function scaled by its gradient: exact on the outline, close enough
// nearby for anti-aliasing and soft edges.
float sd_ellipse(Vec p, Vec c, float rx, float ry) {
  const float dx = (p.x - c.x) / rx, dy = (p.y - c.y) / ry;
  const float k = std::sqrt(dx * dx + dy * dy);
  if (k < 1e-6f) return -std::min(rx, ry);
  const float gradient = std::sqrt(dx * dx / (rx * rx) + dy * dy / (ry * ry)) / k;
  return (k - 1) / gradient;
}

float sd_box(Vec p, Vec c, Vec half, float radius) {
  const Vec q{std::abs(p.x - c.x) - half.x + radius, std::abs(p.y - c.y) - half.y + radius};
  const Vec outside{std::max(q.x, 0.0f), std::max(q.y, 0.0f)};
  return length(outside) + std::min(std::max(q.x, q.y), 0.0f) - radius;
}

float sd_segment(Vec p, Vec a, Vec b) {
  const Vec ab = b - a;
  const float t = clamp01(dot(p - a, ab) / dot(ab, ab));
  return length(p - (a + ab * t));
}

// Exact distance to a simple polygon (after Inigo Quilez).
float sd_polygon(Vec p, const std::vector<Vec>& v) {
  float d = dot(p - v[0], p - v[0]);
  float sign = 1;
  for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i, ++i) {
    const Vec e = v[j] - v[i], w = p - v[i];
    const Vec b = w - e * clamp01(dot(w, e) / dot(e, e));
    d = std::min(d, dot(b, b));
    const bool c1 = p.y >= v[i].y, c2 = p.y < v[j].y, c3 = e.x * w.y > e.y * w.x;
    if ((c1 && c2 && c3) || (!c1 && !c2 && !c3)) sign = -sign;
  }
  return sign * std::sqrt(d);
}

// Smooth union: shapes melt into each other over [k] pixels.
float smin(float a, float b, float k) {
  const float h = clamp01(0.5f + 0.5f * (b - a) / k);
  return lerp(b, a, h) - k * h * (1 - h);
}

// A tapered stroke along a sampled centre line (hair strands, lashes, brows). Besides the
// distance it reports where along the stroke (t, 0..1) and across it (side, -1..1) the
// point is, which the painters use for shading and strand lines.
struct StrokeHit {
  float d = 1e9f, t = 0, side = 0;
};
struct Stroke {
  std::vector<Vec> points;
  std::vector<float> radii;

  StrokeHit at(Vec p) const {
    StrokeHit best;
    const float n = static_cast<float>(points.size() - 1);
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
      const Vec a = points[i], ab = points[i + 1] - a;
      const float s = clamp01(dot(p - a, ab) / dot(ab, ab));
      const Vec c = a + ab * s;
      const float r = lerp(radii[i], radii[i + 1], s);
      const float d = length(p - c) - r;
      if (d < best.d) {
        const float cross = (ab.x * (p.y - a.y) - ab.y * (p.x - a.x)) / std::max(length(ab), 1e-6f);
        best = {d, (static_cast<float>(i) + s) / n, std::clamp(cross / std::max(r, 1e-3f), -1.0f, 1.0f)};
      }
    }
    return best;
  }
};

Stroke make_stroke(const std::function<Vec(float)>& centre, const std::function<float(float)>& radius, int samples) {
  Stroke s;
  for (int i = 0; i <= samples; ++i) {
    const float t = static_cast<float>(i) / static_cast<float>(samples);
    s.points.push_back(centre(t));
    s.radii.push_back(radius(t));
  }
  return s;
}

// ---------------------------------------------------------------------------------------
// Colours and painting

struct Rgba {
  float r = 0, g = 0, b = 0, a = 0;
};
constexpr Rgba rgb(int r, int g, int b, float a = 1.0f) {
  return {static_cast<float>(r) / 255.0f, static_cast<float>(g) / 255.0f, static_cast<float>(b) / 255.0f, a};
}
Rgba mix(Rgba x, Rgba y, float t) {
  return {lerp(x.r, y.r, t), lerp(x.g, y.g, t), lerp(x.b, y.b, t), lerp(x.a, y.a, t)};
}
Rgba with_alpha(Rgba c, float a) { return {c.r, c.g, c.b, a}; }

// How much of a texel a shape covers: one texel of soft edge ([aa] canvas pixels) around
// the outline, which is what keeps the art smooth when the renderer samples it.
float cover(float d, float aa) { return clamp01(0.5f - d / aa); }

// Layers are painted back to front into a premultiplied accumulator.
struct Ink {
  float r = 0, g = 0, b = 0, a = 0;
  void over(Rgba c, float coverage) {
    const float k = clamp01(c.a * coverage);
    r = c.r * k + r * (1 - k);
    g = c.g * k + g * (1 - k);
    b = c.b * k + b * (1 - k);
    a = k + a * (1 - k);
  }
  Rgba straight() const {
    if (a <= 1e-6f) return {};
    return {r / a, g / a, b / a, a};
  }
};

// The palette: a chestnut-haired girl with teal eyes in a sailor top.
constexpr Rgba kSkin = rgb(255, 236, 226), kSkinShade = rgb(246, 200, 188), kSkinLine = rgb(176, 106, 96);
constexpr Rgba kHair = rgb(122, 74, 62), kHairDark = rgb(80, 45, 42), kHairLight = rgb(178, 118, 96);
constexpr Rgba kHairLine = rgb(54, 28, 30);
constexpr Rgba kIrisTop = rgb(24, 58, 84), kIrisBottom = rgb(78, 190, 196), kPupil = rgb(14, 28, 44);
constexpr Rgba kLash = rgb(52, 30, 36);
constexpr Rgba kShirt = rgb(250, 250, 254), kShirtShade = rgb(204, 210, 232), kShirtLine = rgb(82, 84, 120);
constexpr Rgba kNavy = rgb(46, 60, 122), kRed = rgb(222, 62, 90), kRedDark = rgb(150, 28, 56);
constexpr Rgba kGold = rgb(252, 208, 76), kGoldDark = rgb(176, 122, 30);

// ---------------------------------------------------------------------------------------
// The texture atlas

// A sprite is a canvas rectangle drawn into an atlas rectangle at [scale] texels per canvas
// pixel: the eyes and mouth get a full texel per pixel, big soft shapes fewer.
struct Sprite {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float scale = 1;
  int ax = 0, ay = 0, aw = 0, ah = 0;

  // Atlas texel coordinates of a canvas point.
  Vec texel(Vec p) const {
    return {static_cast<float>(ax) + (p.x - x0) * scale, static_cast<float>(ay) + (p.y - y0) * scale};
  }
};
using Painter = std::function<Rgba(Vec p, float aa)>;

class Atlas {
 public:
  // Sprites are requested first and packed together (tallest first, on shelves) before any
  // is painted; add() returns the sprite's number.
  std::size_t add(Vec top_left, Vec bottom_right, float scale, Painter paint) {
    Sprite s;
    s.x0 = top_left.x;
    s.y0 = top_left.y;
    s.x1 = bottom_right.x;
    s.y1 = bottom_right.y;
    s.scale = scale;
    s.aw = static_cast<int>(std::ceil((s.x1 - s.x0) * scale));
    s.ah = static_cast<int>(std::ceil((s.y1 - s.y0) * scale));
    // Keep the canvas rectangle exactly as wide as the texels drawn for it.
    s.x1 = s.x0 + static_cast<float>(s.aw) / scale;
    s.y1 = s.y0 + static_cast<float>(s.ah) / scale;
    sprites_.push_back(s);
    painters_.push_back(std::move(paint));
    return sprites_.size() - 1;
  }

  const Sprite& sprite(std::size_t i) const { return sprites_.at(i); }

  void pack_and_paint() {
    std::vector<std::size_t> order(sprites_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return sprites_[a].ah > sprites_[b].ah; });
    // Skyline packing: each sprite goes where its top would be highest (then leftmost), on
    // a per-column height profile. Four texels of padding around each sprite keep bilinear
    // sampling from reaching a neighbour.
    constexpr int kPad = 4;
    std::vector<int> skyline(kAtlasSize, 0);
    for (std::size_t i : order) {
      Sprite& s = sprites_[i];
      const int w = s.aw + 2 * kPad, h = s.ah + 2 * kPad;
      int best_x = -1, best_y = kAtlasSize;
      for (int x = 0; x + w <= kAtlasSize; ++x) {
        const int y = *std::max_element(skyline.begin() + x, skyline.begin() + x + w);
        if (y < best_y) {
          best_y = y;
          best_x = x;
        }
      }
      if (best_x < 0 || best_y + h > kAtlasSize) throw std::runtime_error("the sprites do not fit in the atlas");
      s.ax = best_x + kPad;
      s.ay = best_y + kPad;
      std::fill(skyline.begin() + best_x, skyline.begin() + best_x + w, best_y + h);
      used_height_ = std::max(used_height_, best_y + h);
    }

    pixels_.assign(static_cast<std::size_t>(kAtlasSize) * kAtlasSize, Rgba{});
    for (std::size_t i = 0; i < sprites_.size(); ++i) paint(sprites_[i], painters_[i]);
    bleed();
  }

  float alpha(int x, int y) const {
    if (x < 0 || y < 0 || x >= kAtlasSize || y >= kAtlasSize) return 0;
    return pixels_[static_cast<std::size_t>(y) * kAtlasSize + static_cast<std::size_t>(x)].a;
  }

  // Whether any texel of [s] under the canvas rectangle (plus a texel around it) is drawn.
  bool covers(const Sprite& s, Vec a, Vec b) const {
    const Vec ta = s.texel(a), tb = s.texel(b);
    const int x0 = std::max(static_cast<int>(std::floor(ta.x)) - 1, s.ax);
    const int y0 = std::max(static_cast<int>(std::floor(ta.y)) - 1, s.ay);
    const int x1 = std::min(static_cast<int>(std::ceil(tb.x)) + 1, s.ax + s.aw);
    const int y1 = std::min(static_cast<int>(std::ceil(tb.y)) + 1, s.ay + s.ah);
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x)
        if (alpha(x, y) > 1.0f / 512.0f) return true;
    return false;
  }

  int used_height() const { return used_height_; }

  std::vector<std::uint8_t> rgba8() const {
    std::vector<std::uint8_t> out(pixels_.size() * 4);
    auto byte = [](float v) { return static_cast<std::uint8_t>(std::lround(clamp01(v) * 255.0f)); };
    for (std::size_t i = 0; i < pixels_.size(); ++i) {
      const Rgba& c = pixels_[i];
      out[i * 4 + 0] = byte(c.r);
      out[i * 4 + 1] = byte(c.g);
      out[i * 4 + 2] = byte(c.b);
      out[i * 4 + 3] = byte(c.a);
    }
    return out;
  }

 private:
  // Each texel takes the painter's colour at the canvas point under its centre, 2x2
  // supersampled so that thin lines stay even.
  void paint(const Sprite& s, const Painter& painter) {
    const float aa = 1.0f / s.scale;
    for (int ty = 0; ty < s.ah; ++ty) {
      for (int tx = 0; tx < s.aw; ++tx) {
        float r = 0, g = 0, b = 0, a = 0;
        for (int sy = 0; sy < 2; ++sy) {
          for (int sx = 0; sx < 2; ++sx) {
            const Vec p{s.x0 + (static_cast<float>(tx) + 0.25f + 0.5f * static_cast<float>(sx)) * aa,
                        s.y0 + (static_cast<float>(ty) + 0.25f + 0.5f * static_cast<float>(sy)) * aa};
            const Rgba c = painter(p, aa);
            r += c.r * c.a;
            g += c.g * c.a;
            b += c.b * c.a;
            a += c.a;
          }
        }
        Rgba& out = pixels_[static_cast<std::size_t>(s.ay + ty) * kAtlasSize + static_cast<std::size_t>(s.ax + tx)];
        out = a > 1e-6f ? Rgba{r / a, g / a, b / a, a / 4} : Rgba{};
      }
    }
  }

  // Transparent texels next to drawn ones take their neighbours' colour (alpha stays 0), so
  // that bilinear sampling at an edge blends towards the sprite's colour and not black.
  void bleed() {
    std::vector<char> known(pixels_.size());
    for (std::size_t i = 0; i < pixels_.size(); ++i) known[i] = pixels_[i].a > 0;
    for (int pass = 0; pass < 4; ++pass) {
      std::vector<char> next = known;
      for (int y = 0; y < kAtlasSize; ++y) {
        for (int x = 0; x < kAtlasSize; ++x) {
          const std::size_t i = static_cast<std::size_t>(y) * kAtlasSize + static_cast<std::size_t>(x);
          if (known[i]) continue;
          float r = 0, g = 0, b = 0, n = 0;
          for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
              const int nx = x + dx, ny = y + dy;
              if (nx < 0 || ny < 0 || nx >= kAtlasSize || ny >= kAtlasSize) continue;
              const std::size_t j = static_cast<std::size_t>(ny) * kAtlasSize + static_cast<std::size_t>(nx);
              if (!known[j]) continue;
              r += pixels_[j].r;
              g += pixels_[j].g;
              b += pixels_[j].b;
              n += 1;
            }
          }
          if (n > 0) {
            pixels_[i] = Rgba{r / n, g / n, b / n, 0};
            next[i] = 1;
          }
        }
      }
      known = std::move(next);
    }
  }

  std::vector<Sprite> sprites_;
  std::vector<Painter> painters_;
  std::vector<Rgba> pixels_;
  int used_height_ = 0;
};

// ---------------------------------------------------------------------------------------
// The character's anatomy (canvas pixels). The character's left ("L", as in ParamEyeLOpen)
// is on the viewer's right, as in Cubism models; right-side sprites are mirrored.

constexpr Vec kHeadCentre{512, 415};
constexpr float kHeadRadius = 183;
constexpr Vec kEyeL{592, 472};  // the eye on the viewer's right
constexpr float kEyeRx = 50, kEyeRy = 54;
constexpr Vec kNeckPivot{512, 660};    // where the head turns on the neck
constexpr Vec kTieL{700, 330};         // where the left twin tail is tied
constexpr Vec kShoulderL{618, 698};    // the left arm's pivot
constexpr Vec kMouth{512, 546};        // the middle of the mouth's top edge
constexpr float kMouthHalfWidth = 34;

// The simulated hair lock (the character's right, the viewer's left): its centre line from
// the top (t = 0, under the side lock) to the tip (t = 1), and its half thickness.
Vec hair_lock_centre(float t) { return {348 - 14 * t - 9 * std::sin(kPi * t), 530 + 270 * t}; }
float hair_lock_radius(float t) {
  t = clamp01(t);
  if (t < 0.15f) return lerp(10, 12.5f, t / 0.15f);
  return 11 * std::pow(1 - (t - 0.15f) / 0.85f, 1.1f) + 1.5f;
}

float face_sdf(Vec p) {
  // A round skull melting into a softer, wider jaw: the chibi face.
  return smin(sd_circle(p, kHeadCentre, kHeadRadius), sd_ellipse(p, {512, 470}, 170, 145), 30);
}

// The fringe's lower edge: eight locks, pointed at their tips.
struct Lock {
  float x, half, tip;
};
constexpr Lock kFringe[] = {{352, 30, 452}, {402, 30, 400}, {450, 26, 382}, {496, 28, 370},
                            {542, 26, 382}, {588, 30, 390}, {632, 30, 402}, {674, 32, 452}};
constexpr float kFringeBase = 335;

float fringe_edge(float x) {
  float y = kFringeBase;
  for (const Lock& l : kFringe) {
    const float u = std::abs(x - l.x) / l.half;
    if (u < 1) y = std::max(y, kFringeBase + (l.tip - kFringeBase) * std::pow(1 - u, 1.4f));
  }
  return y;
}

float bangs_sdf(Vec p) {
  const float slope = fringe_edge(p.x + 0.5f) - fringe_edge(p.x - 0.5f);
  const float below_edge = (p.y - fringe_edge(p.x)) / std::sqrt(1 + slope * slope);
  return std::max(sd_circle(p, {512, 412}, 204), below_edge);
}

float torso_sdf(Vec p) {
  const float trapezoid = sd_polygon(p, {{420, 660}, {604, 660}, {704, 1060}, {320, 1060}});
  const float shoulders = std::min(sd_circle(p, {418, 710}, 52), sd_circle(p, {606, 710}, 52));
  return smin(trapezoid, shoulders, 24);
}

// Strokes of the left twin tail, side lock, lash and brow (the right ones are mirrored).
const Stroke& tail_stroke() {
  static const Stroke s = make_stroke(
      [](float t) {
        return Vec{kTieL.x + 70 * std::sin(kPi * t * 0.8f) - 40 * t * t, kTieL.y - 2 + 480 * t};
      },
      [](float t) {
        if (t < 0.25f) return lerp(18, 52, smoothstep(0, 0.25f, t));
        const float u = (t - 0.25f) / 0.75f;
        return 52 * std::pow(1 - u, 1.2f) + 2 * (1 - u);
      },
      48);
  return s;
}

const Stroke& side_lock_stroke() {
  static const Stroke s = make_stroke([](float t) { return Vec{682 + 6 * t - 8 * std::sin(kPi * t), 358 + 250 * t}; },
                                      [](float t) {
                                        if (t < 0.3f) return 14 + 8 * t / 0.3f;
                                        return 22 * std::pow(1 - (t - 0.3f) / 0.7f, 1.3f) + 1.5f;
                                      },
                                      32);
  return s;
}

// The upper lash follows the top of the eye white, thin at the inner corner and heavy
// towards the outer one.
const Stroke& lash_stroke() {
  static const Stroke s = make_stroke(
      [](float t) {
        const float a = lerp(196, 346, t) * kPi / 180;
        return Vec{kEyeL.x + (kEyeRx + 2) * std::cos(a), kEyeL.y + (kEyeRy + 3) * std::sin(a)};
      },
      [](float t) { return 2.5f + 3.5f * std::sin(kPi * std::min(t * 1.15f, 1.0f)) + 2.5f * t; }, 40);
  return s;
}

const Stroke& lash_wing_stroke() {
  static const Stroke s =
      make_stroke([](float t) { return Vec{kEyeL.x + 48 + 18 * t, kEyeL.y - 14 - 10 * t + 4 * t * t}; },
                  [](float t) { return lerp(5.5f, 1.0f, t); }, 8);
  return s;
}

const Stroke& brow_stroke() {
  static const Stroke s = make_stroke(
      [](float t) {
        const float x = kEyeL.x - 32 + 66 * t;
        return Vec{x, 398 - 12 * std::sin(kPi * t * 0.9f)};
      },
      [](float t) { return 1.2f + 2.8f * std::sin(kPi * t); }, 16);
  return s;
}

// ---------------------------------------------------------------------------------------
// Painters, one per sprite. Each returns the straight colour at canvas point p; aa is one
// texel in canvas pixels. They describe the left-hand sprite where there are two.

Rgba paint_background(Vec p, float aa) {
  Ink ink;
  const Vec c{512, 512};
  const float d = sd_circle(p, c, 470);
  const float t = clamp01(length(p - c) / 470);
  Rgba colour = mix(rgb(253, 244, 248), rgb(206, 214, 248), smoothstep(0.15f, 1.0f, t));
  // Soft polka dots on a diagonal lattice.
  const float gx = std::fmod(p.x + p.y * 0.5f + 2000, 90.0f) - 45, gy = std::fmod(p.y + 2000, 78.0f) - 39;
  const float dot_mask = cover(std::sqrt(gx * gx + gy * gy) - 9, 3);
  colour = mix(colour, rgb(255, 255, 255), 0.45f * dot_mask);
  ink.over(colour, cover(d, aa));
  ink.over(rgb(255, 255, 255, 0.8f), cover(std::abs(d + 6) - 3, aa));
  return ink.straight();
}

// A four-pointed twinkle with a glow (drawn with additive blending).
Painter sparkle_painter(Vec c, float r) {
  return [c, r](Vec p, float) {
    const Vec q = p - c;
    const float astroid = std::sqrt(std::abs(q.x) / r) + std::sqrt(std::abs(q.y) / r) - 1;
    const float star = smoothstep(0.15f, -0.2f, astroid);
    const float glow = 0.35f * smoothstep(r * 0.8f, 0.0f, length(q));
    return with_alpha(rgb(255, 230, 160), clamp01(star + glow));
  };
}

Rgba paint_hair_back(Vec p, float aa) {
  Ink ink;
  const float d = smin(sd_circle(p, {512, 408}, 214), sd_box(p, {512, 540}, {198, 105}, 70), 40);
  const float phi = std::atan2(p.x - 512, p.y - 150);
  const float strands = smoothstep(0.75f, 1.0f, std::cos(phi * 46) * 0.6f + std::cos(phi * 17 + 1) * 0.4f);
  Rgba c = mix(kHair, kHairDark, smoothstep(300, 620, p.y) * 0.8f + 0.2f);
  c = mix(c, kHairLine, 0.3f * strands);
  ink.over(c, cover(d, aa));
  ink.over(kHairLine, cover(std::abs(d + 1.5f) - 1.5f, aa));
  return ink.straight();
}

Rgba paint_tail(Vec p, float aa) {
  Ink ink;
  const StrokeHit h = tail_stroke().at(p);
  Rgba c = mix(kHair, kHairDark, std::pow(std::abs(h.side), 2.0f) * 0.75f + 0.25f * h.t);
  c = mix(c, kHairLight, 0.55f * smoothstep(0.35f, 0.0f, std::abs(h.side + 0.35f)) * smoothstep(0.05f, 0.2f, h.t) *
                             smoothstep(0.7f, 0.4f, h.t));
  const float strands = smoothstep(0.8f, 1.0f, std::cos(h.side * 9.5f + 0.5f));
  c = mix(c, kHairLine, 0.35f * strands * smoothstep(0.02f, 0.1f, h.t));
  ink.over(c, cover(h.d, aa));
  ink.over(kHairLine, cover(std::abs(h.d + 1.5f) - 1.5f, aa));
  return ink.straight();
}

Rgba paint_bangs(Vec p, float aa) {
  Ink ink;
  const float d = bangs_sdf(p);
  Rgba c = mix(kHairLight, kHair, smoothstep(215, 320, p.y));
  c = mix(c, kHairDark, 0.55f * smoothstep(350, 455, p.y));
  // Strand lines fanning out from the crown.
  const float phi = std::atan2(p.x - 512, p.y - 140);
  const float strands = smoothstep(0.8f, 1.0f, std::cos(phi * 34) * 0.7f + std::cos(phi * 13 + 2) * 0.3f);
  c = mix(c, kHairLine, 0.3f * strands * smoothstep(260, 330, p.y));
  ink.over(c, cover(d, aa));
  ink.over(kHairLine, cover(std::abs(d + 1.5f) - 1.5f, aa));
  return ink.straight();
}

// The glossy "angel ring" across the crown (drawn with screen blending, masked by the bangs).
Rgba paint_hair_shine(Vec p, float) {
  const Vec q = p - Vec{512, 432};
  const float angle = std::atan2(q.x, -q.y);  // 0 straight up
  const float r = length(q);
  // A soft band, smooth on top and notched by the strands below, fading at its ends.
  const float notch = 9 * std::pow(std::abs(std::sin(angle * 13)), 3.0f);
  const float band = smoothstep(154, 160, r) * smoothstep(176 + notch, 170 + notch, r);
  const float arc = smoothstep(1.0f, 0.55f, std::abs(angle));
  const float glints = 0.8f + 0.2f * std::cos(angle * 26);
  return with_alpha(rgb(140, 112, 120), band * arc * glints * 0.65f);
}

Rgba paint_side_lock(Vec p, float aa) {
  Ink ink;
  const StrokeHit h = side_lock_stroke().at(p);
  Rgba c = mix(kHair, kHairDark, std::pow(std::abs(h.side), 2.0f) * 0.7f + 0.3f * h.t);
  c = mix(c, kHairLine, 0.3f * smoothstep(0.8f, 1.0f, std::cos(h.side * 7)));
  ink.over(c, cover(h.d, aa));
  ink.over(kHairLine, cover(std::abs(h.d + 1.2f) - 1.2f, aa));
  return ink.straight();
}

Rgba paint_face(Vec p, float aa) {
  Ink ink;
  const float d = face_sdf(p);
  // Darker towards the outline, a little warmer under the cheeks: a shaded disc.
  const float shade = 0.85f * smoothstep(-46, 0, d) + 0.15f * smoothstep(500, 600, p.y);
  ink.over(mix(kSkin, kSkinShade, clamp01(shade)), cover(d, aa));
  ink.over(kSkinLine, cover(std::abs(d + 1.5f) - 1.5f, aa));
  return ink.straight();
}

// The shade the fringe casts on the forehead (multiply blending). Its mask is the eye
// whites, inverted: the shade falls everywhere but on the eyes.
Rgba paint_face_shadow(Vec p, float aa) {
  const float inside = cover(face_sdf(p) + 2, aa);
  const float edge = fringe_edge(p.x);
  const float amount = 1 - smoothstep(edge + 8, edge + 46, p.y);
  return with_alpha(rgb(236, 186, 184), inside * amount * 0.95f);
}

Rgba paint_cheek(Vec p, float) {
  Ink ink;
  const Vec c{612, 544};
  const float k = length(Vec{(p.x - c.x) / 42, (p.y - c.y) / 21});
  ink.over(rgb(255, 170, 182), 1 - smoothstep(0.25f, 1.0f, k));
  // Three little hatch strokes, the manga blush.
  for (int i = 0; i < 3; ++i) {
    const float x = c.x - 14 + 14 * static_cast<float>(i);
    const float d = sd_segment(p, {x + 5, c.y - 8}, {x - 4, c.y + 7}) - 1.6f;
    ink.over(rgb(238, 120, 140), 0.8f * cover(d, 1));
  }
  return ink.straight();
}

Rgba paint_nose(Vec p, float aa) {
  Ink ink;
  ink.over(rgb(228, 156, 146), cover(sd_ellipse(p, {512, 524}, 4.5f, 3), aa));
  return ink.straight();
}

// The open mouth; keyforms squash it into a line when it closes.
Rgba paint_mouth(Vec p, float aa) {
  Ink ink;
  const float nx = (p.x - kMouth.x) / kMouthHalfWidth;
  const float top = kMouth.y + 3 * nx * nx;
  const float bottom = kMouth.y + 2 + 38 * std::sqrt(std::max(0.0f, 1 - nx * nx));
  const float d = std::max({top - p.y, p.y - bottom, std::abs(nx) * kMouthHalfWidth - kMouthHalfWidth});
  ink.over(rgb(132, 34, 52), cover(d, aa));
  const float tongue = sd_ellipse(p, {kMouth.x, kMouth.y + 32}, 21, 11);
  ink.over(rgb(238, 122, 134), cover(std::max(tongue, d + 1), aa));
  const float teeth = std::max(p.y - (top + 6), d + 1.5f);
  ink.over(rgb(255, 255, 255), cover(teeth, aa));
  ink.over(rgb(96, 28, 38), cover(std::abs(d + 1.2f) - 1.2f, aa));
  return ink.straight();
}

Rgba paint_eye_white(Vec p, float aa) {
  Ink ink;
  const float d = sd_ellipse(p, kEyeL, kEyeRx, kEyeRy);
  // The lid's shade on the top of the white.
  const Rgba c = mix(rgb(255, 255, 255), rgb(214, 214, 236), smoothstep(kEyeL.y - 20, kEyeL.y - 52, p.y));
  ink.over(c, cover(d, aa));
  ink.over(rgb(200, 170, 180), cover(std::abs(d + 1) - 1, aa));
  return ink.straight();
}

Rgba paint_iris(Vec p, float aa) {
  Ink ink;
  const Vec c{kEyeL.x, kEyeL.y + 6};
  const float d = sd_ellipse(p, c, 38, 47);
  Rgba colour = mix(kIrisTop, kIrisBottom, smoothstep(c.y - 30, c.y + 42, p.y));
  // A lighter ring around the pupil.
  const float ring = sd_ellipse(p, {c.x, c.y + 4}, 24, 31);
  colour = mix(colour, rgb(120, 214, 210), 0.35f * smoothstep(8, 0, std::abs(ring)) * smoothstep(c.y - 10, c.y + 20, p.y));
  ink.over(colour, cover(d, aa));
  ink.over(kPupil, cover(sd_ellipse(p, {c.x, c.y + 4}, 15, 21), aa));
  ink.over(rgb(16, 36, 56), cover(std::abs(d + 1.8f) - 1.8f, aa));
  return ink.straight();
}

// The catch lights (additive blending, masked by the eye white).
Rgba paint_eye_sparkle(Vec p, float aa) {
  Ink ink;
  ink.over(rgb(255, 255, 255), cover(sd_ellipse(p, {kEyeL.x - 13, kEyeL.y - 16}, 11, 13), aa));
  ink.over(rgb(255, 255, 255), cover(sd_circle(p, {kEyeL.x + 15, kEyeL.y + 28}, 5.5f), aa));
  ink.over(rgb(255, 255, 255, 0.8f), cover(sd_circle(p, {kEyeL.x + 19, kEyeL.y - 10}, 3), aa));
  return ink.straight();
}

Rgba paint_lash(Vec p, float aa) {
  Ink ink;
  const float d = std::min(lash_stroke().at(p).d, lash_wing_stroke().at(p).d);
  ink.over(kLash, cover(d, aa));
  return ink.straight();
}

Rgba paint_lower_lash(Vec p, float aa) {
  Ink ink;
  Stroke s = make_stroke(
      [](float t) {
        const float a = lerp(18, 62, t) * kPi / 180;
        return Vec{kEyeL.x + (kEyeRx - 1) * std::cos(a), kEyeL.y + (kEyeRy - 1) * std::sin(a)};
      },
      [](float t) { return 1.8f * std::sin(kPi * t) + 0.3f; }, 12);
  ink.over(rgb(130, 76, 76, 0.9f), cover(s.at(p).d, aa));
  return ink.straight();
}

Rgba paint_brow(Vec p, float aa) {
  Ink ink;
  ink.over(rgb(104, 60, 52), cover(brow_stroke().at(p).d, aa));
  return ink.straight();
}

Rgba paint_neck(Vec p, float aa) {
  Ink ink;
  const float d = sd_box(p, {512, 650}, {32, 56}, 10);
  const float edge = smoothstep(14, 32, std::abs(p.x - 512));
  ink.over(mix(kSkin, kSkinShade, 0.25f + 0.6f * edge), cover(d, aa));
  ink.over(kSkinLine, cover(std::abs(std::abs(p.x - 512) - 30.5f) - 1.5f, aa) * cover(d, aa));
  return ink.straight();
}

// The chin's shadow on the neck (multiply blending, masked by the neck).
Rgba paint_neck_shadow(Vec p, float) {
  const float k = length(Vec{(p.x - 512) / 70, (p.y - 606) / 34});
  return with_alpha(rgb(232, 170, 164), 1 - smoothstep(0.5f, 1.0f, k));
}

Rgba paint_body(Vec p, float aa) {
  Ink ink;
  const float d = torso_sdf(p);
  const float inside = cover(d, aa);
  ink.over(mix(kShirt, kShirtShade, 0.8f * smoothstep(-34, 0, d) + 0.2f * smoothstep(740, 1020, p.y)), inside);
  // The V of the neckline shows the chest.
  const std::vector<Vec> v_neck{{470, 642}, {554, 642}, {512, 728}};
  const float chest = sd_polygon(p, v_neck);
  ink.over(mix(kSkin, kSkinShade, smoothstep(710, 660, p.y) * 0.8f), cover(chest, aa) * inside);
  // The sailor collar, with its white stripe along the outer edge.
  const std::vector<Vec> collar{{376, 666}, {470, 642}, {512, 720}, {554, 642}, {648, 666}, {606, 728}, {512, 806}, {418, 728}};
  const float collar_d = std::max(sd_polygon(p, collar), -chest);
  ink.over(kNavy, cover(collar_d, aa) * inside);
  float outer = 1e9f;
  const std::vector<Vec> rim{{376, 666}, {418, 728}, {512, 806}, {606, 728}, {648, 666}};
  for (std::size_t i = 0; i + 1 < rim.size(); ++i) outer = std::min(outer, sd_segment(p, rim[i], rim[i + 1]));
  ink.over(kShirt, cover(std::abs(outer - 11) - 2.2f, aa) * cover(collar_d + 1, aa));
  ink.over(kShirtLine, cover(std::abs(collar_d + 1) - 1, aa) * inside);
  // The red bow: two wings, a knot and two tails.
  const float wings = std::min(sd_polygon(p, {{512, 762}, {474, 738}, {470, 786}}) - 4,
                               sd_polygon(p, {{512, 762}, {550, 738}, {554, 786}}) - 4);
  const float tails = sd_polygon(p, {{504, 768}, {520, 768}, {532, 826}, {513, 816}, {494, 826}});
  const float bow = std::min({wings, tails, sd_circle(p, {512, 762}, 11)});
  Rgba red = mix(kRed, kRedDark, 0.5f * smoothstep(40, 8, std::abs(p.x - 512)) * smoothstep(30, 0, std::abs(p.y - 762)));
  ink.over(red, cover(bow, aa));
  ink.over(kRedDark, cover(std::abs(bow + 1) - 1.2f, aa));
  // The outline, except across the neckline, where the neck continues into the chest.
  ink.over(kShirtLine, cover(std::abs(d + 1.5f) - 1.5f, aa) * cover(-chest - 2, aa));
  return ink.straight();
}

// The left arm is two sprites, the sleeve and the hand, because the hand hangs from a
// rotation of its own (RotHandL, at the wrist); the right arm is one sprite, both together.
constexpr Vec kArmShoulder{kShoulderL.x + 2, kShoulderL.y + 4}, kWrist{662, 845}, kHand{668, 870};
constexpr float kHandRadius = 23;

void ink_hand(Ink& ink, Vec p, float aa) {
  const float hand = sd_circle(p, kHand, kHandRadius);
  ink.over(mix(kSkin, kSkinShade, smoothstep(-16, 0, hand)), cover(hand, aa));
  ink.over(kSkinLine, cover(std::abs(hand + 1.2f) - 1.2f, aa));
}

void ink_sleeve(Ink& ink, Vec p, float aa) {
  const Vec axis = kWrist - kArmShoulder;
  const float t = clamp01(dot(p - kArmShoulder, axis) / dot(axis, axis));
  const float sleeve = sd_segment(p, kArmShoulder, kWrist) - lerp(30, 26, t);
  const float side = std::abs((axis.x * (p.y - kArmShoulder.y) - axis.y * (p.x - kArmShoulder.x)) / length(axis)) / 30;
  Rgba cloth = mix(kShirt, kShirtShade, 0.7f * smoothstep(0.4f, 1.0f, side));
  if (t > 0.84f) cloth = kNavy;  // the cuff
  ink.over(cloth, cover(sleeve, aa));
  ink.over(kShirtLine, cover(std::abs(sleeve + 1.2f) - 1.2f, aa));
}

Rgba paint_arm(Vec p, float aa) {
  Ink ink;
  ink_hand(ink, p, aa);
  ink_sleeve(ink, p, aa);
  return ink.straight();
}

Rgba paint_sleeve(Vec p, float aa) {
  Ink ink;
  ink_sleeve(ink, p, aa);
  return ink.straight();
}

Rgba paint_hand(Vec p, float aa) {
  Ink ink;
  ink_hand(ink, p, aa);
  return ink.straight();
}

// A long lock falling from behind the right side lock (the viewer's left) beside the
// shoulder: the strand the vertex simulation (SIMS) moves in advanced mode.
const Stroke& hair_lock_stroke() {
  static const Stroke s = make_stroke([](float t) { return hair_lock_centre(t); }, [](float t) { return hair_lock_radius(t); }, 40);
  return s;
}

Rgba paint_hair_lock(Vec p, float aa) {
  Ink ink;
  const StrokeHit h = hair_lock_stroke().at(p);
  Rgba c = mix(kHair, kHairDark, std::pow(std::abs(h.side), 2.0f) * 0.7f + 0.3f * h.t);
  c = mix(c, kHairLight, 0.45f * smoothstep(0.35f, 0.0f, std::abs(h.side - 0.3f)) * smoothstep(0.05f, 0.2f, h.t) *
                             smoothstep(0.75f, 0.4f, h.t));
  c = mix(c, kHairLine, 0.3f * smoothstep(0.8f, 1.0f, std::cos(h.side * 7 + 0.4f)));
  ink.over(c, cover(h.d, aa));
  ink.over(kHairLine, cover(std::abs(h.d + 1.2f) - 1.2f, aa));
  return ink.straight();
}

Rgba paint_ribbon(Vec p, float aa) {
  Ink ink;
  const Vec k = kTieL;
  const float loops = std::min(sd_polygon(p, {{k.x, k.y}, {k.x - 40, k.y - 26}, {k.x - 44, k.y + 22}}) - 6,
                               sd_polygon(p, {{k.x, k.y}, {k.x + 40, k.y - 26}, {k.x + 44, k.y + 22}}) - 6);
  const float tails = sd_polygon(p, {{k.x - 7, k.y + 6}, {k.x + 7, k.y + 6}, {k.x + 22, k.y + 66}, {k.x + 4, k.y + 56},
                                     {k.x - 12, k.y + 70}});
  const float knot = sd_circle(p, k, 10);
  const float d = std::min({loops, tails, knot});
  Rgba c = mix(kRed, kRedDark, 0.6f * smoothstep(34, 6, length(p - k)));
  c = mix(c, rgb(255, 150, 170), 0.4f * smoothstep(-4, -10, loops) * smoothstep(k.y - 4, k.y - 20, p.y));
  ink.over(c, cover(d, aa));
  ink.over(kRedDark, cover(std::abs(d + 1) - 1.2f, aa));
  ink.over(kRed, cover(knot + 1.5f, aa));
  return ink.straight();
}

Rgba paint_star_clip(Vec p, float aa) {
  Ink ink;
  std::vector<Vec> star;
  for (int i = 0; i < 10; ++i) {
    const float a = (-90 + 36 * static_cast<float>(i)) * kPi / 180;
    const float r = i % 2 == 0 ? 26.0f : 11.0f;
    star.push_back({kTieL.x + r * std::cos(a), kTieL.y + r * std::sin(a)});
  }
  const float d = sd_polygon(p, star) - 1.5f;
  ink.over(mix(rgb(255, 240, 160), kGold, smoothstep(kTieL.y - 18, kTieL.y + 16, p.y)), cover(d, aa));
  ink.over(kGoldDark, cover(std::abs(d + 1) - 1.2f, aa));
  ink.over(rgb(255, 255, 255, 0.9f), cover(sd_circle(p, {kTieL.x - 5, kTieL.y - 5}, 3.5f), aa));
  return ink.straight();
}

// The painter of a right-hand sprite: the left one seen in the mirror.
Painter mirrored(Rgba (*paint)(Vec, float)) {
  return [paint](Vec p, float aa) { return paint(mirror(p), aa); };
}

// ---------------------------------------------------------------------------------------
// Building the rig

// Where a deformer's children live, relative to the canvas at the default pose: a warp's
// children in the unit square of its rest rectangle, a rotation's in pixels from its pivot.
struct Space {
  bool warp = false;
  Vec origin, size{1, 1};
  Vec to_local(Vec p) const {
    return warp ? Vec{(p.x - origin.x) / size.x, (p.y - origin.y) / size.y} : p - origin;
  }
};

// Parameter values at one cell of a keyform grid, by parameter index.
using Values = std::map<std::uint32_t, float>;
struct AxisKeys {
  std::uint32_t parameter;
  std::vector<float> keys;
};

// Every combination of the axes' keys, as grid cells (a full, not sparse, grid).
template <class F>
p2l::Grid<F> full_grid(const std::vector<AxisKeys>& axes, const std::function<F(const Values&)>& form) {
  p2l::Grid<F> grid;
  std::size_t cells = 1;
  for (const AxisKeys& a : axes) {
    grid.axes.push_back({a.parameter, Array<float>(a.keys)});
    cells *= a.keys.size();
  }
  for (std::size_t cell = 0; cell < cells; ++cell) {
    Values values;
    std::size_t rest = cell;
    for (const AxisKeys& a : axes) {
      const std::size_t k = rest % a.keys.size();
      rest /= a.keys.size();
      grid.coords.push_back(static_cast<std::uint16_t>(k));
      values[a.parameter] = a.keys[k];
    }
    grid.forms.push_back(form(values));
  }
  return grid;
}

// A mesh's vertices on the canvas at the default pose, with UVs and triangles.
struct MeshGrid {
  std::vector<Vec> points;
  std::vector<float> uvs;
  std::vector<std::uint32_t> indices;
};

// A grid of [cols] x [rows] cells over each sprite's rectangle, cells with nothing drawn in
// them left out. Several sprites make one mesh of separate pieces (the background sparkles).
MeshGrid grid_mesh(const Atlas& atlas, const std::vector<std::size_t>& sprites, int cols, int rows) {
  MeshGrid m;
  for (std::size_t id : sprites) {
    const Sprite& s = atlas.sprite(id);
    const auto cx = static_cast<std::size_t>(cols), cy = static_cast<std::size_t>(rows);
    auto at = [&](std::size_t i, std::size_t j) {
      return Vec{lerp(s.x0, s.x1, static_cast<float>(i) / static_cast<float>(cols)),
                 lerp(s.y0, s.y1, static_cast<float>(j) / static_cast<float>(rows))};
    };
    std::vector<std::int64_t> index((cx + 1) * (cy + 1), -1);
    auto vertex = [&](std::size_t i, std::size_t j) {
      std::int64_t& v = index[j * (cx + 1) + i];
      if (v < 0) {
        v = static_cast<std::int64_t>(m.points.size());
        const Vec p = at(i, j);
        const Vec t = s.texel(p);
        m.points.push_back(p);
        m.uvs.push_back(t.x / static_cast<float>(kAtlasSize));
        m.uvs.push_back(t.y / static_cast<float>(kAtlasSize));
      }
      return static_cast<std::uint32_t>(v);
    };
    for (std::size_t j = 0; j < cy; ++j) {
      for (std::size_t i = 0; i < cx; ++i) {
        if (!atlas.covers(s, at(i, j), at(i + 1, j + 1))) continue;
        const std::uint32_t a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i, j + 1), d = vertex(i + 1, j + 1);
        m.indices.insert(m.indices.end(), {a, b, c, b, d, c});
      }
    }
  }
  if (m.indices.empty()) throw std::runtime_error("a mesh has no drawn cells");
  return m;
}

// A strip two vertices wide along a centre line (an arm, a lock of hair): one row of two
// vertices at each centre point, [half] pixels either side of the line, across its
// direction there. Vertex 2k is row k's left one (seen along the line), 2k + 1 its right
// one; each cell is two triangles, as in grid_mesh. It must cover everything the sprite
// draws, which check_covers() makes sure of.
MeshGrid strip_mesh(const Sprite& s, const std::vector<Vec>& centre, const std::vector<float>& half) {
  MeshGrid m;
  for (std::size_t k = 0; k < centre.size(); ++k) {
    const Vec along = centre[std::min(k + 1, centre.size() - 1)] - centre[k > 0 ? k - 1 : 0];
    const Vec across = Vec{-along.y, along.x} * (1 / length(along));
    for (const Vec p : {centre[k] - across * half[k], centre[k] + across * half[k]}) {
      const Vec t = s.texel(p);
      m.points.push_back(p);
      m.uvs.push_back(t.x / static_cast<float>(kAtlasSize));
      m.uvs.push_back(t.y / static_cast<float>(kAtlasSize));
    }
  }
  for (std::uint32_t k = 0; k + 1 < centre.size(); ++k) {
    const std::uint32_t a = 2 * k, b = a + 1, c = a + 2, d = a + 3;
    m.indices.insert(m.indices.end(), {a, b, c, b, d, c});
  }
  return m;
}

// Throws unless every drawn texel of the sprite has its centre inside a triangle of the mesh.
void check_covers(const Atlas& atlas, const Sprite& s, const MeshGrid& m, const std::string& what) {
  auto inside = [&](Vec p) {
    for (std::size_t i = 0; i + 2 < m.indices.size(); i += 3) {
      const Vec a = m.points[m.indices[i]], b = m.points[m.indices[i + 1]], c = m.points[m.indices[i + 2]];
      const float d1 = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
      const float d2 = (c.x - b.x) * (p.y - b.y) - (c.y - b.y) * (p.x - b.x);
      const float d3 = (a.x - c.x) * (p.y - c.y) - (a.y - c.y) * (p.x - c.x);
      if ((d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0)) return true;
    }
    return false;
  };
  for (int y = 0; y < s.ah; ++y)
    for (int x = 0; x < s.aw; ++x) {
      if (atlas.alpha(s.ax + x, s.ay + y) <= 1.0f / 512.0f) continue;
      const Vec p{s.x0 + (static_cast<float>(x) + 0.5f) / s.scale, s.y0 + (static_cast<float>(y) + 0.5f) / s.scale};
      if (!inside(p))
        throw std::runtime_error("the " + what + " mesh leaves out a drawn texel at canvas (" + std::to_string(p.x) + ", " +
                                 std::to_string(p.y) + ")");
    }
}

enum Blend : std::uint8_t { kNormal = 0, kCubismAdd = 1, kCubismMultiply = 2, kScreen = 10 };

class Builder {
 public:
  Rig rig;

  std::uint32_t parameter(const std::string& id, const std::string& name, float min, float max, float def,
                          bool blend = false) {
    p2l::Parameter p;
    p.id = id;
    p.name = name;
    p.min = min;
    p.max = max;
    p.default_value = def;
    p.blend = blend;
    rig.parameters.push_back(p);
    return static_cast<std::uint32_t>(rig.parameters.size() - 1);
  }

  std::uint32_t param(const std::string& id) const {
    const std::int32_t i = rig.find_parameter(id);
    if (i < 0) throw std::runtime_error("no parameter " + id);
    return static_cast<std::uint32_t>(i);
  }

  std::uint32_t part(const std::string& id, const std::string& name, std::int32_t draw_order) {
    p2l::Part p;
    p.id = id;
    p.name = name;
    p.draw_order = draw_order;
    rig.parts.push_back(p);
    return static_cast<std::uint32_t>(rig.parts.size() - 1);
  }

  Vec to_local(std::int32_t deformer, Vec canvas) const {
    return deformer < 0 ? canvas : spaces_[static_cast<std::size_t>(deformer)].to_local(canvas);
  }

  // A warp whose rest lattice is the canvas rectangle [a, b], cut into [cols] x [rows]
  // cells; at each key combination of [axes] every lattice point moves by [move].
  std::int32_t warp(const std::string& id, std::int32_t parent, std::uint32_t part_index, Vec a, Vec b,
                    std::uint32_t cols, std::uint32_t rows, const std::vector<AxisKeys>& axes,
                    const std::function<Vec(Vec point, const Values&)>& move) {
    p2l::Deformer d;
    d.kind = p2l::DeformerKind::Warp;
    d.id = id;
    d.parent = parent;
    d.part = static_cast<std::int32_t>(part_index);
    d.columns = cols;
    d.rows = rows;
    d.bilinear = true;  // smoother inside the cells than the two-triangle split
    d.lattice = full_grid<Array<float>>(axes, [&](const Values& values) {
      std::vector<float> points;
      for (std::uint32_t j = 0; j <= rows; ++j) {
        for (std::uint32_t i = 0; i <= cols; ++i) {
          const Vec p{lerp(a.x, b.x, static_cast<float>(i) / static_cast<float>(cols)),
                      lerp(a.y, b.y, static_cast<float>(j) / static_cast<float>(rows))};
          const Vec local = to_local(parent, p + move(p, values));
          points.push_back(local.x);
          points.push_back(local.y);
        }
      }
      return Array<float>(points);
    });
    rig.deformers.push_back(std::move(d));
    Space s;
    s.warp = true;
    s.origin = a;
    s.size = b - a;
    spaces_.push_back(s);
    return static_cast<std::int32_t>(rig.deformers.size() - 1);
  }

  // A rotation about the canvas point [pivot], turned by angle(values) degrees (positive
  // turns clockwise on screen, y pointing down).
  std::int32_t rotation(const std::string& id, std::int32_t parent, std::uint32_t part_index, Vec pivot,
                        const std::vector<AxisKeys>& axes, const std::function<float(const Values&)>& angle) {
    return rotation_moving(id, parent, part_index, pivot, axes,
                           [&](const Values& values) { return std::pair{pivot, angle(values)}; });
  }

  // A rotation whose pivot moves as well: at each key combination place(values) gives the
  // pivot (a canvas point, as the parent sits at the default pose) and the angle. [rest] is
  // where the pivot is at the default pose, where its children are placed from.
  std::int32_t rotation_moving(const std::string& id, std::int32_t parent, std::uint32_t part_index, Vec rest,
                               const std::vector<AxisKeys>& axes,
                               const std::function<std::pair<Vec, float>(const Values&)>& place) {
    rig.deformers.push_back(rotation_record(id, parent, part_index, axes, place));
    Space s;
    s.origin = rest;
    spaces_.push_back(s);
    return static_cast<std::int32_t>(rig.deformers.size() - 1);
  }

  // The record of such a rotation, not added to the deformers: a virtual bone (BONE) is one.
  p2l::Deformer rotation_record(const std::string& id, std::int32_t parent, std::uint32_t part_index,
                                const std::vector<AxisKeys>& axes,
                                const std::function<std::pair<Vec, float>(const Values&)>& place) const {
    p2l::Deformer d;
    d.kind = p2l::DeformerKind::Rotation;
    d.id = id;
    d.parent = parent;
    d.part = static_cast<std::int32_t>(part_index);
    d.pivot = full_grid<p2l::Pivot>(axes, [&](const Values& values) {
      const auto [pivot, angle] = place(values);
      const Vec local = to_local(parent, pivot);
      return p2l::Pivot{local.x, local.y, angle, 1.0f};
    });
    return d;
  }

  std::uint32_t mesh(const std::string& id, const std::string& name, std::int32_t parent, std::uint32_t part_index,
                     const MeshGrid& grid, std::uint8_t blend = kNormal) {
    p2l::Mesh m;
    m.id = id;
    m.name = name;
    m.parent = parent;
    m.blend = blend;
    m.texture_page = 0;
    std::vector<float> positions;
    for (Vec p : grid.points) {
      const Vec l = to_local(parent, p);
      positions.push_back(l.x);
      positions.push_back(l.y);
    }
    m.geometry = p2l::Geometry{Array<float>(positions), Array<float>(grid.uvs), p2l::IndexArray(grid.indices)};
    rig.meshes.push_back(std::move(m));
    rest_.push_back(grid.points);
    keyform_at_default_.emplace_back();
    const auto index = static_cast<std::uint32_t>(rig.meshes.size() - 1);
    rig.parts[part_index].children.push_back({p2l::ChildKind::Mesh, index});
    return index;
  }

  const p2l::Mesh& mesh_at(std::uint32_t m) const { return rig.meshes[m]; }
  // Where the mesh's vertices are on the canvas at the default pose.
  const std::vector<Vec>& rest_points(std::uint32_t m) const { return rest_[m]; }
  p2l::Mesh& mesh_at(std::uint32_t m) { return rig.meshes[m]; }

  // Keyforms: at each key combination every vertex moves by move(rest canvas point).
  void keyforms(std::uint32_t m, const std::vector<AxisKeys>& axes,
                const std::function<Vec(Vec point, const Values&)>& move) {
    p2l::Mesh& mesh = rig.meshes[m];
    mesh.keyforms = full_grid<Array<float>>(axes, [&](const Values& values) { return deltas(m, values, move); });
    // What the keyforms give at the default pose: blend-shape targets are measured from it.
    Values defaults;
    for (const AxisKeys& a : axes) defaults[a.parameter] = rig.parameters[a.parameter].default_value;
    keyform_at_default_[m] = [move, defaults](Vec p) { return move(p, defaults); };
  }

  // A blend shape on [parameter] (keys 0 and 1, neutral at 0): at 1 the vertices move by
  // [move] from wherever the keyforms put them, and the opacity goes to [opacity].
  void blend_shape(std::uint32_t m, std::uint32_t parameter, const std::function<Vec(Vec point)>& move,
                   std::optional<float> opacity = std::nullopt, std::optional<p2l::Limit> limit = std::nullopt) {
    p2l::Mesh& mesh = rig.meshes[m];
    const auto& at_default = keyform_at_default_[m];
    p2l::MeshShape shape;
    // A shape's deltas are keyform offsets, not displacements: add what the keyforms give at
    // the default pose, which the runtime subtracts.
    shape.deltas = deltas(m, {}, [&](Vec p, const Values&) { return (at_default ? at_default(p) : Vec{}) + move(p); });
    shape.draw_order = mesh.draw_order;
    shape.opacity = opacity.value_or(mesh.opacity);
    shape.multiply = mesh.multiply;
    shape.screen = mesh.screen;
    p2l::Binding<p2l::MeshShape> binding;
    binding.parameter = parameter;
    binding.keys = Array<float>{0.0f, 1.0f};
    binding.neutral = 0;
    binding.shapes = {std::nullopt, shape};
    if (limit) binding.limits.push_back(*limit);
    mesh.shapes.push_back(std::move(binding));
  }

  // Glue between the vertices of two meshes that sit on the same canvas point at rest;
  // [weight_a] says how far mesh a's vertex follows mesh b's (0 leaves the pair out).
  void glue(const std::string& id, std::uint32_t a, std::uint32_t b, const std::function<float(Vec point)>& weight_a) {
    p2l::Glue g;
    g.id = id;
    g.mesh_a = a;
    g.mesh_b = b;
    g.intensity = 1;
    for (std::size_t i = 0; i < rest_[a].size(); ++i) {
      for (std::size_t j = 0; j < rest_[b].size(); ++j) {
        if (length(rest_[a][i] - rest_[b][j]) > 0.01f) continue;
        const float w = weight_a(rest_[a][i]);
        if (w > 0) g.pairs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j), w, 0.0f});
      }
    }
    if (g.pairs.empty()) throw std::runtime_error("glue " + id + " found no shared vertices");
    rig.glues.push_back(std::move(g));
  }

 private:
  // Per-vertex offsets in the mesh parent's space for canvas displacements; empty when
  // nothing moves (a keyform cell may be empty).
  Array<float> deltas(std::uint32_t m, const Values& values, const std::function<Vec(Vec, const Values&)>& move) const {
    const std::int32_t parent = rig.meshes[m].parent;
    std::vector<float> out;
    bool moved = false;
    for (Vec p : rest_[m]) {
      const Vec d = move(p, values);
      const Vec l = to_local(parent, p + d) - to_local(parent, p);
      moved = moved || l.x != 0 || l.y != 0;
      out.push_back(l.x);
      out.push_back(l.y);
    }
    return moved ? Array<float>(out) : Array<float>{};
  }

  std::vector<Space> spaces_;
  std::vector<std::vector<Vec>> rest_;
  std::vector<std::function<Vec(Vec)>> keyform_at_default_;
};

float value(const Values& v, std::uint32_t parameter) { return v.at(parameter); }

// ---------------------------------------------------------------------------------------
// The sprites

struct Sprites {
  std::size_t background = 0, hair_back = 0, bangs = 0, hair_shine = 0, face = 0, face_shadow = 0, nose = 0, mouth = 0;
  std::size_t neck = 0, neck_shadow = 0, body = 0;
  std::vector<std::size_t> sparkles;
  // Pairs: [0] the character's left (viewer's right), [1] the mirrored right.
  std::array<std::size_t, 2> tail{}, side_lock{}, cheek{}, eye_white{}, iris{}, eye_sparkle{}, lash{}, lower_lash{},
      brow{}, arm{}, ribbon{}, star{};
  // The left arm's hand (its sleeve is arm[0]) and the simulated hair lock.
  std::size_t hand_l = 0, hair_lock = 0;
};

// Adds a sprite and its mirror image: the left one at [a, b], the right one mirrored.
std::array<std::size_t, 2> add_pair(Atlas& atlas, Vec a, Vec b, float scale, Rgba (*paint)(Vec, float)) {
  const std::size_t left = atlas.add(a, b, scale, paint);
  const std::size_t right = atlas.add({kCanvasSize - b.x, a.y}, {kCanvasSize - a.x, b.y}, scale, mirrored(paint));
  return {left, right};
}

Sprites add_sprites(Atlas& atlas) {
  Sprites s;
  s.background = atlas.add({42, 42}, {982, 982}, 0.25f, paint_background);
  const std::array<std::array<float, 3>, 6> twinkles{
      {{150, 240, 26}, {880, 200, 20}, {112, 640, 18}, {915, 600, 24}, {250, 128, 14}, {792, 112, 12}}};
  for (const auto& t : twinkles) {
    const float r = t[2] + 3;
    s.sparkles.push_back(atlas.add({t[0] - r, t[1] - r}, {t[0] + r, t[1] + r}, 1.0f, sparkle_painter({t[0], t[1]}, t[2])));
  }
  s.hair_back = atlas.add({290, 185}, {734, 656}, 0.7f, paint_hair_back);
  s.tail = add_pair(atlas, {640, 300}, {820, 820}, 0.7f, paint_tail);
  s.bangs = atlas.add({305, 200}, {719, 456}, 0.8f, paint_bangs);
  s.hair_shine = atlas.add({350, 250}, {674, 360}, 0.8f, paint_hair_shine);
  s.side_lock = add_pair(atlas, {650, 340}, {716, 616}, 0.8f, paint_side_lock);
  // The face's texels and grid are chosen so that a grid row and five grid columns fall on
  // the neck's top row (y 594, x 480..544): the glue pairs those vertices.
  s.face = atlas.add({320, 226}, {704, 626}, 0.75f, paint_face);
  s.neck = atlas.add({480, 594}, {544, 706}, 0.75f, paint_neck);
  s.face_shadow = atlas.add({320, 226}, {704, 486}, 0.5f, paint_face_shadow);
  s.cheek = add_pair(atlas, {566, 518}, {660, 570}, 1.0f, paint_cheek);
  s.nose = atlas.add({504, 518}, {520, 530}, 1.0f, paint_nose);
  s.mouth = atlas.add({474, 540}, {550, 592}, 1.0f, paint_mouth);
  s.eye_white = add_pair(atlas, {kEyeL.x - 56, 412}, {kEyeL.x + 56, 532}, 1.0f, paint_eye_white);
  s.iris = add_pair(atlas, {kEyeL.x - 42, 428}, {kEyeL.x + 42, 532}, 1.0f, paint_iris);
  s.eye_sparkle = add_pair(atlas, {kEyeL.x - 28, 440}, {kEyeL.x + 26, 506}, 1.0f, paint_eye_sparkle);
  s.lash = add_pair(atlas, {528, 400}, {670, 470}, 1.0f, paint_lash);
  s.lower_lash = add_pair(atlas, {606, 482}, {646, 526}, 1.0f, paint_lower_lash);
  s.brow = add_pair(atlas, {552, 378}, {634, 406}, 1.0f, paint_brow);
  s.neck_shadow = atlas.add({440, 568}, {584, 644}, 0.5f, paint_neck_shadow);
  s.body = atlas.add({318, 606}, {706, 1024}, 0.7f, paint_body);
  s.arm = {atlas.add({580, 660}, {700, 902}, 0.7f, paint_sleeve),
           atlas.add({kCanvasSize - 700, 660}, {kCanvasSize - 580, 902}, 0.7f, mirrored(paint_arm))};
  s.hand_l = atlas.add({638, 840}, {698, 900}, 0.7f, paint_hand);
  s.hair_lock = atlas.add({310, 508}, {368, 812}, 0.8f, paint_hair_lock);
  s.ribbon = add_pair(atlas, {646, 292}, {756, 412}, 1.0f, paint_ribbon);
  s.star = add_pair(atlas, {670, 300}, {730, 360}, 1.0f, paint_star_clip);
  return s;
}

// ---------------------------------------------------------------------------------------
// The character

class Character {
 public:
  Character() {
    sprites_ = add_sprites(atlas_);
    atlas_.pack_and_paint();
    Rig& rig = b_.rig;
    // A square canvas; the model's origin in its middle, one unit across.
    rig.canvas = p2l::Canvas{kCanvasSize, kCanvasSize, kCanvasSize / 2, kCanvasSize / 2, kCanvasSize};
    add_parameters();
    add_parts();
    add_deformers();
    add_background();
    add_back_hair();
    add_body();
    add_face();
    add_eyes();
    add_front_hair();
    add_accessories();
    add_draw_tree();
    add_texture();
    add_physics();
    add_roles();
    add_clips();
    add_expressions();
    add_pose_and_hit_areas();
    add_panel();
    add_meta();
    add_advanced();
  }

  const Rig& rig() const { return b_.rig; }
  const Atlas& atlas() const { return atlas_; }

 private:
  // Standard Cubism ids, so that hosts, look-at and lip-sync code written for Cubism models
  // find them; the ranges are Cubism's usual ones.
  void add_parameters() {
    angle_x_ = b_.parameter("ParamAngleX", "Angle X", -30, 30, 0);
    angle_y_ = b_.parameter("ParamAngleY", "Angle Y", -30, 30, 0);
    angle_z_ = b_.parameter("ParamAngleZ", "Angle Z", -30, 30, 0);
    body_x_ = b_.parameter("ParamBodyAngleX", "Body Angle X", -10, 10, 0);
    // Eyes open past 1 for surprise (the "surprised" expression multiplies them).
    eye_open_[0] = b_.parameter("ParamEyeLOpen", "Eye L Open", 0, 1.2f, 1);
    eye_open_[1] = b_.parameter("ParamEyeROpen", "Eye R Open", 0, 1.2f, 1);
    ball_x_ = b_.parameter("ParamEyeBallX", "Eyeball X", -1, 1, 0);
    ball_y_ = b_.parameter("ParamEyeBallY", "Eyeball Y", -1, 1, 0);
    brow_y_[0] = b_.parameter("ParamBrowLY", "Brow L Y", -1, 1, 0);
    brow_y_[1] = b_.parameter("ParamBrowRY", "Brow R Y", -1, 1, 0);
    mouth_open_ = b_.parameter("ParamMouthOpenY", "Mouth Open", 0, 1, 0);
    mouth_form_ = b_.parameter("ParamMouthForm", "Mouth Form", -1, 1, 0);
    // A blend-shape parameter: its shapes add on top of whatever the keyforms give.
    smile_ = b_.parameter("ParamSmile", "Smile", 0, 1, 0, true);
    breath_ = b_.parameter("ParamBreath", "Breath", 0, 1, 0);
    // Written by the pendulums (PHYS), read by the hair and ribbon deformers.
    hair_front_ = b_.parameter("ParamHairFront", "Hair Front Sway", -1, 1, 0);
    hair_back_ = b_.parameter("ParamHairBack", "Hair Back Sway", -1, 1, 0);
    ribbon_ = b_.parameter("ParamRibbon", "Ribbon Sway", -1, 1, 0);
    arm_ = b_.parameter("ParamArmL", "Arm L Raise", 0, 1, 0);
    // The left elbow, in degrees (positive brings the hand in across the chest); BONE and SKIN
    // make the forearm follow its arc between the keys in advanced mode.
    elbow_ = b_.parameter("ParamArmLElbow", "Arm L Elbow", 0, 120, 0);
    // The hair lock's baked swing, written by its pendulum; the vertex simulation (SIMS)
    // holds it at 0 and moves the lock itself.
    hair_sim_ = b_.parameter("ParamHairSim", "Hair Lock Sway", -1, 1, 0);
  }

  void add_parts() {
    background_ = b_.part("PartBackground", "Background", 100);
    hair_back_part_ = b_.part("PartHairBack", "Back Hair", 200);
    body_ = b_.part("PartBody", "Body", 300);
    face_ = b_.part("PartFace", "Face", 400);
    hair_front_part_ = b_.part("PartHairFront", "Front Hair", 500);
    brows_ = b_.part("PartBrows", "Brows", 550);  // over the fringe, as anime brows are drawn
    ribbons_ = b_.part("PartRibbons", "Ribbons", 600);
    stars_ = b_.part("PartStarClips", "Star Clips", 600);
    // The face is drawn as one isolated layer: its multiply shadows and additive sparkles
    // work inside it, and fading the part fades the face as a whole.
    b_.rig.parts[face_].group_mode = 2;
  }

  // Parents before children: body warp -> arm rotation, head rotation -> back hair warp ->
  // tail rotations -> tail warps, head rotation -> face warp -> bangs warp, side-lock rotations.
  void add_deformers() {
    // The torso leans with ParamBodyAngleX and its shoulders rise with ParamBreath.
    body_warp_ = b_.warp("WarpBody", -1, body_, {232, 560}, {792, 1040}, 3, 3, {{body_x_, {-10, 0, 10}}, {breath_, {0, 1}}},
                         [this](Vec p, const Values& v) {
                           const float lean = value(v, body_x_) / 10, breath = value(v, breath_);
                           const float top = 1 - clamp01((p.y - 560) / 480);
                           return Vec{lean * 18 * std::pow(top, 1.2f) + breath * 4 * (p.x - 512) / 280 * top,
                                      -breath * 8 * top};
                         });
    arm_rotation_ = b_.rotation("RotArmL", body_warp_, body_, kShoulderL, {{arm_, {0, 0.5f, 1}}}, [this](const Values& v) {
      const float a = value(v, arm_);
      return a < 0.25f ? 0.0f : a < 0.75f ? -75.0f : -130.0f;
    });
    // The head tilts on the neck: ParamAngleZ 30 tilts it 12 degrees anticlockwise.
    head_ = b_.rotation("RotHead", body_warp_, face_, kNeckPivot, {{angle_z_, {-30, 0, 30}}},
                        [this](const Values& v) { return -0.4f * value(v, angle_z_); });
    // The back hair slides a little against the face's turn: depth.
    back_hair_warp_ = b_.warp("WarpHairBack", head_, hair_back_part_, {280, 180}, {744, 660}, 2, 2,
                              {{angle_x_, {-30, 0, 30}}, {angle_y_, {-30, 0, 30}}}, [this](Vec, const Values& v) {
                                return Vec{-12 * value(v, angle_x_) / 30, 8 * value(v, angle_y_) / 30};
                              });
    for (int side = 0; side < 2; ++side) {
      const Vec tie = side == 0 ? kTieL : mirror(kTieL);
      const Sprite& sprite = atlas_.sprite(sprites_.tail[static_cast<std::size_t>(side)]);
      const std::string suffix = side == 0 ? "L" : "R";
      // The tail swings from its tie (rotation) and bends along its length (warp), both on
      // the pendulum's ParamHairBack: positive swings both tails to the viewer's right.
      tail_rotation_[side] = b_.rotation("RotTail" + suffix, back_hair_warp_, hair_back_part_, tie, {{hair_back_, {-1, 0, 1}}},
                                         [this](const Values& v) { return -9 * value(v, hair_back_); });
      tail_warp_[side] = b_.warp("WarpTail" + suffix, tail_rotation_[side], hair_back_part_, {sprite.x0, sprite.y0},
                                 {sprite.x1, sprite.y1}, 2, 4, {{hair_back_, {-1, 0, 1}}}, [this, tie](Vec p, const Values& v) {
                                   const float down = clamp01((p.y - tie.y) / 490);
                                   return Vec{value(v, hair_back_) * 34 * std::pow(down, 1.6f), 0};
                                 });
    }
    // The face turns with ParamAngleX / ParamAngleY: its middle moves further than its
    // outline, so the near side compresses and the far side stretches.
    face_warp_ = b_.warp("WarpFace", head_, face_, {300, 196}, {724, 640}, 4, 4,
                         {{angle_x_, {-30, 0, 30}}, {angle_y_, {-30, 0, 30}}}, [this](Vec p, const Values& v) {
                           const float ax = value(v, angle_x_) / 30, ay = value(v, angle_y_) / 30;
                           const float bx = std::sin(kPi * clamp01((p.x - 300) / 424));
                           const float by = std::sin(kPi * clamp01((p.y - 196) / 444));
                           return Vec{ax * (46 * bx * (0.6f + 0.4f * by) + 10), -ay * (32 * by * (0.6f + 0.4f * bx) + 8)};
                         });
    // The fringe's tips sway with ParamHairFront.
    bangs_warp_ = b_.warp("WarpBangs", face_warp_, hair_front_part_, {305, 200}, {719, 456}, 4, 2, {{hair_front_, {-1, 0, 1}}},
                          [this](Vec p, const Values& v) {
                            return Vec{value(v, hair_front_) * 12 * std::pow(clamp01((p.y - 200) / 256), 1.5f), 0};
                          });
    for (int side = 0; side < 2; ++side) {
      const Vec top = side == 0 ? Vec{682, 362} : mirror({682, 362});
      side_rotation_[side] = b_.rotation(side == 0 ? "RotSideL" : "RotSideR", face_warp_, hair_front_part_, top,
                                         {{hair_front_, {-1, 0, 1}}},
                                         [this](const Values& v) { return -10 * value(v, hair_front_); });
    }
    // The left hand turns with the forearm about the elbow. The forearm's own rotation is
    // folded away (it is BONE's virtual bone): the hand's rotation hangs from the upper arm
    // and its pivot, the wrist, is keyed along the circle about the elbow (BONE's arc).
    hand_rotation_ = b_.rotation_moving("RotHandL", arm_rotation_, body_, kWrist, {{elbow_, elbow_keys()}},
                                        [this](const Values& v) {
                                          const float angle = value(v, elbow_);
                                          return std::pair{elbow() + rotate(kWrist - elbow(), angle), angle};
                                        });
  }

  // The left elbow, half way down the sleeve, and where the forearm starts to turn: the bend
  // fades in over 20 pixels either side of it, as a two-bone skin weights the vertices.
  static constexpr float kElbowAlong = 74.5f;
  static std::vector<float> elbow_keys() { return {0, 30, 60, 90, 120}; }
  static Vec arm_axis() { return (kWrist - kArmShoulder) * (1 / length(kWrist - kArmShoulder)); }
  static Vec elbow() { return kArmShoulder + arm_axis() * kElbowAlong; }
  static float along_arm(Vec p) { return dot(p - kArmShoulder, arm_axis()); }
  static float forearm_weight(Vec p) { return clamp01(0.5f + (along_arm(p) - kElbowAlong) / 40); }

  MeshGrid grid(std::size_t sprite, int cols, int rows) const { return grid_mesh(atlas_, {sprite}, cols, rows); }

  void add_background() {
    b_.mesh("Background", "Background", -1, background_, grid(sprites_.background, 6, 6));
    // Additive twinkles: one mesh of six separate quads.
    b_.mesh("Sparkles", "Sparkles", -1, background_, grid_mesh(atlas_, sprites_.sparkles, 1, 1), kCubismAdd);
  }

  void add_back_hair() {
    b_.mesh("HairTailL", "Twin Tail L", tail_warp_[0], hair_back_part_, grid(sprites_.tail[0], 3, 12));
    b_.mesh("HairTailR", "Twin Tail R", tail_warp_[1], hair_back_part_, grid(sprites_.tail[1], 3, 12));
    b_.mesh("HairBack", "Back Hair", back_hair_warp_, hair_back_part_, grid(sprites_.hair_back, 10, 10));
  }

  void add_body() {
    neck_ = b_.mesh("Neck", "Neck", body_warp_, body_, grid(sprites_.neck, 4, 7));
    // The chin's shadow follows the head but shows only on the neck: a mask.
    const std::uint32_t shadow = b_.mesh("NeckShadow", "Neck Shadow", head_, body_, grid(sprites_.neck_shadow, 4, 2), kCubismMultiply);
    b_.mesh_at(shadow).mask_meshes = {neck_};
    body_mesh_ = b_.mesh("Body", "Body", body_warp_, body_, grid(sprites_.body, 12, 10));
    b_.mesh("ArmR", "Arm R", body_warp_, body_, grid(sprites_.arm[1], 3, 6));
    add_left_arm();
  }

  // The left arm: the hand on its rotation, under the sleeve, and the sleeve as a strip along
  // the arm, two vertices across, its rows closer together at the elbow. The sleeve hangs
  // from the upper arm (RotArmL); its keyforms on ParamArmLElbow are what a skeleton bake
  // writes: each vertex turned about the elbow with the forearm, by its weight (a linear blend
  // of the two bones: rigid on the forearm past the elbow, half way on the elbow's row).
  void add_left_arm() {
    hand_mesh_ = b_.mesh("HandL", "Hand L", hand_rotation_, body_, grid(sprites_.hand_l, 2, 2));
    std::vector<Vec> centre;
    std::vector<float> half;
    for (float along : {-36.0f, -6.0f, 24.0f, 50.0f, 64.0f, kElbowAlong, 85.0f, 99.0f, 124.0f, 152.0f, 182.0f}) {
      centre.push_back(kArmShoulder + arm_axis() * along);
      half.push_back(lerp(30, 26, clamp01(along / length(kWrist - kArmShoulder))) + 6.5f);
    }
    const Sprite& sprite = atlas_.sprite(sprites_.arm[0]);
    const MeshGrid strip = strip_mesh(sprite, centre, half);
    check_covers(atlas_, sprite, strip, "ArmL");
    arm_mesh_ = b_.mesh("ArmL", "Arm L", arm_rotation_, body_, strip);
    b_.keyforms(arm_mesh_, {{elbow_, elbow_keys()}}, [this](Vec p, const Values& v) {
      return (elbow() + rotate(p - elbow(), value(v, elbow_)) - p) * forearm_weight(p);
    });
  }

  void add_face() {
    face_mesh_ = b_.mesh("Face", "Face", face_warp_, face_, grid(sprites_.face, 24, 25));
    // The neck's top row follows the chin, fading out over the rows below it, so the neck
    // bends instead of sliding out from under the turning head.
    b_.glue("GlueNeck", neck_, face_mesh_, [](Vec p) { return clamp01(1 - (p.y - 594) / 40); });
    face_shadow_ = b_.mesh("FaceShadow", "Fringe Shadow", face_warp_, face_, grid(sprites_.face_shadow, 12, 8), kCubismMultiply);
    for (int side = 1; side >= 0; --side) {
      const auto i = static_cast<std::size_t>(side);
      const std::uint32_t cheek = b_.mesh(side == 0 ? "CheekL" : "CheekR", side == 0 ? "Cheek L" : "Cheek R", face_warp_,
                                          face_, grid(sprites_.cheek[i], 4, 2), kCubismMultiply);
      b_.mesh_at(cheek).opacity = 0.7f;
      // Smiling lifts the cheeks and deepens the blush (a blend shape on opacity too).
      b_.blend_shape(cheek, smile_, [](Vec) { return Vec{0, -3}; }, 1.0f);
    }
    b_.mesh("Nose", "Nose", face_warp_, face_, grid(sprites_.nose, 1, 1));
    add_mouth();
  }

  void add_mouth() {
    const std::uint32_t mouth = b_.mesh("Mouth", "Mouth", face_warp_, face_, grid(sprites_.mouth, 8, 4));
    // Keyforms on two axes: closed it is a narrow line, open the full drawing; the form
    // bends its corners up (smile) or down.
    b_.keyforms(mouth, {{mouth_open_, {0, 1}}, {mouth_form_, {-1, 0, 1}}}, [this](Vec p, const Values& v) {
      const float open = value(v, mouth_open_), form = value(v, mouth_form_);
      const float nx = std::clamp((p.x - kMouth.x) / kMouthHalfWidth, -1.2f, 1.2f);
      const float width = lerp(0.62f, 1.0f, open) + std::max(form, 0.0f) * 0.06f;
      const float height = lerp(0.09f, 1.0f, open);
      const Vec to{kMouth.x + (p.x - kMouth.x) * width, kMouth.y + (p.y - kMouth.y) * height - form * 9 * nx * nx};
      return to - p;
    });
    // The smile blend shape widens the mouth and turns its corners up, open or closed.
    b_.blend_shape(mouth, smile_, [](Vec p) {
      const float nx = std::clamp((p.x - kMouth.x) / kMouthHalfWidth, -1.2f, 1.2f);
      return Vec{0.14f * (p.x - kMouth.x), -11 * nx * nx};
    });
  }

  // Where a closed eye's lash line lies (a slight sag), for the eye centred at [cx].
  static float closed_line(float x, float cx) {
    const float nx = std::clamp((x - cx) / 55, -1.0f, 1.0f);
    return 486 + 8 * (1 - nx * nx);
  }

  void add_eyes() {
    std::array<std::uint32_t, 2> whites{};
    for (int side = 1; side >= 0; --side) {
      const auto i = static_cast<std::size_t>(side);
      const std::string s = side == 0 ? "L" : "R";
      const float cx = side == 0 ? kEyeL.x : kCanvasSize - kEyeL.x;
      const std::uint32_t open = eye_open_[i];
      // The smile's eye shapes fade out as the eye closes (a limit on the eye's openness),
      // so that a smiling blink neither folds the eye white inside out nor uncovers it.
      const p2l::Limit only_when_open{open, {{0.0f, 0.0f}, {1.0f, 1.0f}}};

      const std::uint32_t white = b_.mesh("EyeWhite" + s, "Eye White " + s, face_warp_, face_, grid(sprites_.eye_white[i], 8, 8));
      whites[i] = white;
      b_.keyforms(white, {{open, {0, 1, 1.2f}}}, [open, cx](Vec p, const Values& v) {
        const float o = value(v, open);
        if (o < 0.5f) return Vec{0, closed_line(p.x, cx) + (p.y - kEyeL.y) * 0.03f - p.y};  // squashed onto the lid
        if (o > 1.1f) return Vec{0, (p.y - kEyeL.y) * 0.1f};                                  // wide open
        return Vec{};
      });
      // Smiling eyes: the lower lid rises, the upper one comes down a little.
      b_.blend_shape(white, smile_, [cx](Vec p) {
        const float nx = std::clamp((p.x - cx) / 55, -1.0f, 1.0f);
        if (p.y > kEyeL.y) return Vec{0, -(p.y - kEyeL.y) * 0.5f * (1 - 0.25f * nx * nx)};
        return Vec{0, (kEyeL.y - p.y) * 0.12f};
      }, std::nullopt, only_when_open);

      // Iris and catch lights follow the eyeballs and are masked by the eye white, which is
      // also what hides them when the eye closes.
      const std::uint32_t iris = b_.mesh("Iris" + s, "Iris " + s, face_warp_, face_, grid(sprites_.iris[i], 6, 6));
      b_.mesh_at(iris).mask_meshes = {white};
      b_.keyforms(iris, {{ball_x_, {-1, 0, 1}}, {ball_y_, {-1, 0, 1}}},
                  [this](Vec, const Values& v) { return Vec{13 * value(v, ball_x_), -9 * value(v, ball_y_)}; });
      const std::uint32_t sparkle = b_.mesh("EyeSparkle" + s, "Eye Sparkle " + s, face_warp_, face_,
                                            grid(sprites_.eye_sparkle[i], 3, 3), kCubismAdd);
      b_.mesh_at(sparkle).mask_meshes = {white};
      b_.keyforms(sparkle, {{ball_x_, {-1, 0, 1}}, {ball_y_, {-1, 0, 1}}},
                  [this](Vec, const Values& v) { return Vec{10 * value(v, ball_x_), -7 * value(v, ball_y_)}; });

      const std::uint32_t lower = b_.mesh("EyeLashLower" + s, "Lower Lash " + s, face_warp_, face_, grid(sprites_.lower_lash[i], 3, 2));
      b_.blend_shape(lower, smile_, [](Vec p) { return Vec{0, -(p.y - kEyeL.y) * 0.5f}; }, std::nullopt, only_when_open);

      // The upper lash slides down onto the closed line as the eye closes.
      const std::uint32_t lash = b_.mesh("EyeLash" + s, "Upper Lash " + s, face_warp_, face_, grid(sprites_.lash[i], 10, 3));
      b_.keyforms(lash, {{open, {0, 1, 1.2f}}}, [open, cx](Vec p, const Values& v) {
        const float o = value(v, open);
        const float nx = std::clamp((p.x - cx) / 52, -1.0f, 1.0f);
        const float arc = std::sqrt(1 - nx * nx);
        if (o < 0.5f) return Vec{0, closed_line(p.x, cx) - (kEyeL.y - 57 * arc)};
        if (o > 1.1f) return Vec{0, -5.7f * arc};
        return Vec{};
      });
      b_.blend_shape(lash, smile_, [cx](Vec p) {
        const float nx = std::clamp((p.x - cx) / 52, -1.0f, 1.0f);
        return Vec{0, 7 * std::sqrt(1 - nx * nx) + 1};
      }, std::nullopt, only_when_open);

      const std::uint32_t brow = b_.mesh("Brow" + s, "Brow " + s, face_warp_, brows_, grid(sprites_.brow[i], 6, 2));
      b_.keyforms(brow, {{brow_y_[i], {-1, 0, 1}}}, [this, i](Vec, const Values& v) { return Vec{0, -10 * value(v, brow_y_[i])}; });
    }
    // The fringe's shade falls everywhere but on the eyes: an inverted mask.
    p2l::Mesh& shadow = b_.mesh_at(face_shadow_);
    shadow.mask_meshes = {whites[0], whites[1]};
    shadow.invert_mask = true;
  }

  void add_front_hair() {
    add_hair_lock();
    b_.mesh("HairSideR", "Side Lock R", side_rotation_[1], hair_front_part_, grid(sprites_.side_lock[1], 2, 10));
    b_.mesh("HairSideL", "Side Lock L", side_rotation_[0], hair_front_part_, grid(sprites_.side_lock[0], 2, 10));
    bangs_ = b_.mesh("HairFront", "Bangs", bangs_warp_, hair_front_part_, grid(sprites_.bangs, 14, 8));
    // The shine uses screen blending and shows only on the bangs.
    const std::uint32_t shine = b_.mesh("HairShine", "Hair Shine", bangs_warp_, hair_front_part_, grid(sprites_.hair_shine, 10, 2), kScreen);
    b_.mesh_at(shine).mask_meshes = {bangs_};
  }

  // The lock beside the right shoulder: a strip of twelve rows along its centre line, from just
  // above its top (hidden under the side lock) to just past its tip. It hangs from the side
  // lock's rotation (so its top stays under the side lock as the face turns); its baked swing
  // (ParamHairSim, from its pendulum) bends it progressively from the top.
  void add_hair_lock() {
    std::vector<Vec> centre;
    std::vector<float> half;
    constexpr int kRows = 12;
    for (int k = 0; k < kRows; ++k) {
      const float t = -0.06f + 1.09f * static_cast<float>(k) / (kRows - 1);
      centre.push_back(hair_lock_centre(t));
      // No thinner than 9 pixels either side: the tip's triangles stay well shaped for the
      // simulation's area and bend constraints.
      half.push_back(std::max(hair_lock_radius(t) + 4.5f, 9.0f));
    }
    const Sprite& sprite = atlas_.sprite(sprites_.hair_lock);
    const MeshGrid strip = strip_mesh(sprite, centre, half);
    check_covers(atlas_, sprite, strip, "HairLockR");
    lock_ = b_.mesh("HairLockR", "Hair Lock R", side_rotation_[1], hair_front_part_, strip);
    const Vec top = hair_lock_centre(0);
    b_.keyforms(lock_, {{hair_sim_, {-1, 0, 1}}}, [this, top](Vec p, const Values& v) {
      const float down = clamp01((p.y - top.y) / 270);
      return top + rotate(p - top, -16 * value(v, hair_sim_) * down) - p;
    });
  }

  // Accessory A (red ribbons, whose ends flutter on the ParamRibbon pendulum) and accessory B
  // (star clips): a pose group shows one of them.
  void add_accessories() {
    for (int side = 1; side >= 0; --side) {
      const auto i = static_cast<std::size_t>(side);
      const std::string s = side == 0 ? "L" : "R";
      const std::uint32_t ribbon = b_.mesh("Ribbon" + s, "Ribbon " + s, tail_rotation_[i], ribbons_, grid(sprites_.ribbon[i], 4, 4));
      b_.keyforms(ribbon, {{ribbon_, {-1, 0, 1}}}, [this](Vec p, const Values& v) {
        return Vec{16 * value(v, ribbon_) * std::pow(clamp01((p.y - kTieL.y - 8) / 62), 1.3f), 0};
      });
    }
    for (int side = 1; side >= 0; --side) {
      const auto i = static_cast<std::size_t>(side);
      b_.mesh(side == 0 ? "StarClipL" : "StarClipR", side == 0 ? "Star Clip L" : "Star Clip R", tail_rotation_[i], stars_,
              grid(sprites_.star[i], 2, 2));
    }
  }

  // One draw group per part under the root, ordered by the parts' draw orders; the face's
  // group is isolated and composites normally at full opacity.
  void add_draw_tree() {
    Rig& rig = b_.rig;
    rig.draw_groups.assign(1, p2l::DrawGroup{});
    for (std::uint32_t p = 0; p < rig.parts.size(); ++p) {
      p2l::DrawGroup g;
      g.part = static_cast<std::int32_t>(p);
      g.draw_order = rig.parts[p].draw_order;
      for (const p2l::PartChild& c : rig.parts[p].children) g.children.push_back({p2l::DrawChildKind::Mesh, c.index});
      if (rig.parts[p].group_mode == 2) g.composite = p2l::Composite{};
      rig.draw_groups[0].children.push_back({p2l::DrawChildKind::Group, static_cast<std::uint32_t>(rig.draw_groups.size())});
      rig.draw_groups.push_back(std::move(g));
    }
  }

  void add_texture() {
    const std::vector<std::uint8_t> pixels = atlas_.rgba8();
    std::vector<std::uint8_t> png;
    std::string error;
    if (!p2l::encode_png(pixels.data(), kAtlasSize, kAtlasSize, png, error)) throw std::runtime_error(error);
    p2l::Texture page;
    page.kind = p2l::TextureKind::Png;
    page.width = kAtlasSize;
    page.height = kAtlasSize;
    page.data = Array<std::uint8_t>(png);
    b_.rig.textures = {page};
  }

  // Cubism-style pendulums (values as in Cubism's sample models): the head's sway and tilt
  // and the body's lean push each one; each writes its sway parameter as an angle.
  void add_physics() {
    Rig& rig = b_.rig;
    rig.physics_fps = 60;
    auto group = [&](const std::string& id, const std::string& name, std::uint32_t output, float scale,
                     std::vector<p2l::PhysicsSegment> segments) {
      p2l::PhysicsGroup g;
      g.id = id;
      g.name = name;
      g.inputs = {{angle_x_, 60, p2l::PhysicsSource::X, false},
                  {angle_z_, 60, p2l::PhysicsSource::Angle, false},
                  {body_x_, 40, p2l::PhysicsSource::X, false}};
      const auto last = static_cast<std::uint32_t>(segments.size() - 1);
      // Reflected so that the hair lags: the head turning right swings it left first.
      g.outputs = {{output, last, scale, 100, p2l::PhysicsSource::Angle, true}};
      g.segments = std::move(segments);
      g.normalization = {-10, 0, 10, -10, 0, 10};
      rig.physics.push_back(std::move(g));
    };
    // Segments are the pendulum's points, root first: length, mobility, delay, acceleration.
    group("PhysicsHairFront", "Front hair", hair_front_, 1.5f, {{0, 1, 1, 1}, {3, 0.95f, 0.9f, 1.5f}});
    group("PhysicsHairBack", "Twin tails", hair_back_, 1.2f, {{0, 1, 1, 1}, {10, 0.9f, 0.85f, 1.2f}, {10, 0.9f, 0.8f, 1.5f}});
    group("PhysicsRibbon", "Ribbons", ribbon_, 1.8f, {{0, 1, 1, 1}, {5, 0.92f, 0.8f, 1.8f}});
    // The hair lock's baked swing: what Cubism mode shows. Advanced mode skips this group and
    // simulates the lock (SIMS).
    lock_physics_ = static_cast<std::uint32_t>(rig.physics.size());
    group("PhysicsHairLock", "Hair lock", hair_sim_, 1.4f, {{0, 1, 1, 1}, {12, 0.9f, 0.85f, 1.3f}});
  }

  void add_roles() {
    b_.rig.roles = {
        {"EyeBlink", {eye_open_[0], eye_open_[1]}}, {"LipSync", {mouth_open_}}, {"Breath", {breath_}},
        {"AngleX", {angle_x_}},   {"AngleY", {angle_y_}},     {"AngleZ", {angle_z_}},
        {"BodyAngleX", {body_x_}}, {"EyeBallX", {ball_x_}}, {"EyeBallY", {ball_y_}},
    };
  }

  // Curve helpers: a curve starts at (0, v0) and each segment ends at (time, value).
  static p2l::CurveSegment linear(float t, float v) { return {p2l::SegmentKind::Linear, {}, t, v}; }
  static p2l::CurveSegment stepped(float t, float v) { return {p2l::SegmentKind::Stepped, {}, t, v}; }
  // An ease-in-out Bezier from the previous point (t0, v0): flat tangents at both ends.
  static p2l::CurveSegment ease(float t0, float v0, float t, float v) {
    const float third = (t - t0) / 3;
    return {p2l::SegmentKind::Bezier, {t0 + third, v0, t - third, v}, t, v};
  }
  // A curve of eased segments through (time, value) points; the first point is the start.
  static p2l::Curve eased(std::uint32_t parameter, const std::vector<std::array<float, 2>>& points) {
    p2l::Curve c;
    c.parameter = parameter;
    c.start_time = points[0][0];
    c.start_value = points[0][1];
    for (std::size_t i = 1; i < points.size(); ++i)
      c.segments.push_back(ease(points[i - 1][0], points[i - 1][1], points[i][0], points[i][1]));
    return c;
  }

  void add_clips() {
    Rig& rig = b_.rig;
    // Idle: four seconds of looping sway and two breaths, a blink at 2 s and a glance.
    p2l::Clip idle;
    idle.id = "idle";
    idle.name = "Idle";
    idle.group = "Idle";
    idle.duration = 4;
    idle.fps = 30;
    idle.looping = true;
    idle.fade_in = 0.5f;
    idle.fade_out = 0.5f;
    idle.curves.push_back(eased(angle_x_, {{0, 0}, {1.2f, 7}, {2.6f, -5}, {4, 0}}));
    idle.curves.push_back(eased(angle_y_, {{0, 0}, {1.5f, 4}, {3, -3}, {4, 0}}));
    idle.curves.push_back(eased(angle_z_, {{0, 0}, {2, -4}, {4, 0}}));
    idle.curves.push_back(eased(body_x_, {{0, 0}, {2, 2.5f}, {4, 0}}));
    idle.curves.push_back(eased(breath_, {{0, 0}, {1, 1}, {2, 0}, {3, 1}, {4, 0}}));
    for (std::uint32_t eye : eye_open_) {
      p2l::Curve blink{eye, 0, 1, {linear(1.9f, 1), linear(2.0f, 0), linear(2.05f, 0), linear(2.2f, 1), linear(4, 1)}};
      idle.curves.push_back(blink);
    }
    // A glance to the side: stepped segments hold a value, then jump.
    idle.curves.push_back({ball_x_, 0, 0, {stepped(2.6f, 0.5f), stepped(3.5f, 0), linear(4, 0)}});
    rig.clips.push_back(idle);

    // Wave: the left arm rises and waves while she smiles.
    p2l::Clip wave;
    wave.id = "wave";
    wave.name = "Wave";
    wave.group = "TapBody";
    wave.duration = 2.6f;
    wave.fps = 30;
    wave.fade_in = 0.3f;
    wave.fade_out = 0.4f;
    wave.curves.push_back(eased(arm_, {{0, 0}, {0.5f, 1}, {0.8f, 0.8f}, {1.1f, 1}, {1.4f, 0.8f}, {1.7f, 1}, {2.4f, 0}, {2.6f, 0}}));
    wave.curves.push_back(eased(smile_, {{0, 0}, {0.5f, 1}, {2.0f, 1}, {2.6f, 0}}));
    wave.curves.push_back(eased(mouth_open_, {{0, 0}, {0.5f, 0.5f}, {2.0f, 0.5f}, {2.6f, 0}}));
    wave.curves.push_back(eased(angle_z_, {{0, 0}, {0.6f, -6}, {2.0f, -6}, {2.6f, 0}}));
    rig.clips.push_back(wave);

    // Nod: a quick double nod with the eyes half closing.
    p2l::Clip nod;
    nod.id = "nod";
    nod.name = "Nod";
    nod.group = "TapHead";
    nod.duration = 1.5f;
    nod.fps = 30;
    nod.curves.push_back(eased(angle_y_, {{0, 0}, {0.35f, -18}, {0.7f, 4}, {1.1f, -8}, {1.5f, 0}}));
    for (std::uint32_t eye : eye_open_) nod.curves.push_back(eased(eye, {{0, 1}, {0.35f, 0.6f}, {0.9f, 1}, {1.5f, 1}}));
    rig.clips.push_back(nod);

    // Accessory switches: part-opacity curves (CEXT) steer the pose group, as Cubism
    // motions switch pose parts.
    for (int which = 0; which < 2; ++which) {
      p2l::Clip c;
      c.id = which == 0 ? "show_ribbons" : "show_star_clips";
      c.name = which == 0 ? "Show ribbons" : "Show star clips";
      c.group = "Accessory";
      c.duration = 0.5f;
      c.fps = 30;
      rig.clips.push_back(c);
    }

    // Sway: the left elbow bends in and out (through values between its keys, where advanced
    // mode's skin and arc differ from the bake's chords) while the body and head sway, which
    // swings the hair lock against the right shoulder. Looping.
    p2l::Clip sway;
    sway.id = "sway";
    sway.name = "Elbow and sway";
    sway.group = "Sway";
    sway.duration = 2;
    sway.fps = 30;
    sway.looping = true;
    sway.fade_in = 0.2f;
    sway.fade_out = 0.2f;
    sway.curves.push_back(eased(elbow_, {{0, 0}, {0.8f, 105}, {1.4f, 45}, {2, 0}}));
    sway.curves.push_back(eased(body_x_, {{0, 0}, {0.35f, 10}, {0.85f, -10}, {1.4f, 8}, {2, 0}}));
    sway.curves.push_back(eased(angle_z_, {{0, 0}, {0.45f, -22}, {1.0f, 22}, {1.5f, -10}, {2, 0}}));
    sway.curves.push_back(eased(angle_x_, {{0, 0}, {0.7f, 12}, {1.5f, -12}, {2, 0}}));
    rig.clips.push_back(sway);

    // Events: the idle announces its blink; the wave its first wave.
    p2l::ClipExtension idle_x;
    idle_x.clip = 0;
    idle_x.events = {{2.0f, "blink_hint"}, {2.6f, "glance"}};
    p2l::ClipExtension wave_x;
    wave_x.clip = 1;
    wave_x.events = {{0.5f, "wave"}};
    rig.clip_extensions = {idle_x, wave_x};
    for (std::uint32_t which = 0; which < 2; ++which) {
      p2l::ClipExtension x;
      x.clip = 3 + which;
      for (std::uint32_t part : {ribbons_, stars_}) {
        const float v = (part == ribbons_) == (which == 0) ? 1.0f : 0.0f;
        x.curves.push_back({p2l::ClipCurveTarget::PartOpacity, static_cast<std::int32_t>(part), -1, -1, 0, v, {linear(0.5f, v)}});
      }
      rig.clip_extensions.push_back(x);
    }
  }

  void add_expressions() {
    using p2l::ExpressionBlend;
    b_.rig.expressions = {
        {"smile", "Smile", 0.5f, 0.5f, {{smile_, ExpressionBlend::Overwrite, 1}, {mouth_form_, ExpressionBlend::Add, 0.5f}}},
        {"surprised",
         "Surprised",
         0.3f,
         0.5f,
         {{eye_open_[0], ExpressionBlend::Multiply, 1.2f},
          {eye_open_[1], ExpressionBlend::Multiply, 1.2f},
          {mouth_open_, ExpressionBlend::Overwrite, 0.6f},
          {mouth_form_, ExpressionBlend::Overwrite, -0.4f},
          {brow_y_[0], ExpressionBlend::Add, 0.8f},
          {brow_y_[1], ExpressionBlend::Add, 0.8f}}},
    };
  }

  void add_pose_and_hit_areas() {
    b_.rig.pose = p2l::Pose{0.5f, {p2l::PoseGroup{{p2l::PoseEntry{ribbons_, {}}, p2l::PoseEntry{stars_, {}}}}}};
    b_.rig.hit_areas = {{"HitAreaHead", "Head", {face_mesh_, bangs_}}, {"HitAreaBody", "Body", {body_mesh_}}};
  }

  // The panel: three groups, a joystick for the head and one for the eyes, and snaps for
  // the mouth form and the arm.
  void add_panel() {
    p2l::Gui gui;
    gui.joysticks = {{angle_x_, angle_y_}, {ball_x_, ball_y_}};
    gui.snaps = {{mouth_form_, Array<float>{-1.0f, 0.0f, 1.0f}}, {arm_, Array<float>{0.0f, 1.0f}},
                 {elbow_, Array<float>(elbow_keys())}};
    auto group = [&](const std::string& id, const std::string& name, std::uint32_t argb, std::vector<std::uint32_t> params) {
      p2l::GuiNode g;
      g.group = true;
      g.open = true;
      g.label = p2l::GuiLabel::Custom;
      g.id = id;
      g.name = name;
      g.argb = argb;
      g.children = static_cast<std::uint32_t>(params.size());
      gui.nodes.push_back(g);
      for (std::uint32_t p : params) {
        p2l::GuiNode leaf;
        leaf.parameter = static_cast<std::int32_t>(p);
        gui.nodes.push_back(leaf);
      }
    };
    group("GroupFace", "Face", 0xFFE89A8Au,
          {angle_x_, angle_y_, angle_z_, eye_open_[0], eye_open_[1], ball_x_, ball_y_, brow_y_[0], brow_y_[1], mouth_open_,
           mouth_form_, smile_});
    group("GroupBody", "Body", 0xFF8A9AE8u, {body_x_, breath_, arm_, elbow_});
    group("GroupPhysics", "Hair and ribbons (physics)", 0xFF9AD8A0u, {hair_front_, hair_back_, ribbon_, hair_sim_});
    b_.rig.gui = gui;
  }

  void add_meta() {
    b_.rig.meta = {
        {"generator", "p2lrt examples"},
        {"generator_version", "0.1.0"},
        {"title", "Tsumugi, the p2lrt example character"},
        {"source", "examples/character/make_character.cpp"},
        {"license", "MIT (drawn by code in this repository; no third-party art)"},
    };
  }

  // ---------------------------------------------------------------------------------------
  // Advanced mode: the extension chunks, as the format's writer bakes them. Cubism mode (the
  // default) draws the bake above and never reads them.

  static p2l::ExtensionHeader extension_header(std::uint16_t feature, std::uint16_t hooks) {
    p2l::ExtensionHeader h;
    h.feature = feature;
    h.hooks = hooks;
    return h;
  }

  void add_advanced() {
    add_bones_and_skin();
    add_collider();
    add_simulation();
  }

  // BONE and SKIN: the left arm's skeleton. The upper arm is RotArmL, the sleeve's home; the
  // forearm was folded away by the bake, so it is a virtual bone (a rotation on the elbow,
  // keyed as RotHandL is, turning by ParamArmLElbow's value) that only skinning evaluates.
  // The sleeve's skin names both bones on the elbow axis with the weights its keyforms were
  // baked with. RotHandL's pivot is keyed on a circle about the elbow, so BONE gives it an
  // arc (exact links: between keys the wrist follows the circle, not its chord).
  void add_bones_and_skin() {
    Rig& rig = b_.rig;
    const auto forearm = static_cast<std::uint32_t>(rig.deformers.size());  // the first virtual bone
    p2l::BoneChunk bones;
    bones.header = extension_header(2, p2l::kHookH2 | p2l::kHookH3);
    bones.header.deformers = {static_cast<std::uint32_t>(hand_rotation_)};
    bones.virtual_bones.push_back(b_.rotation_record("BoneForearmL", arm_rotation_, body_, {{elbow_, elbow_keys()}},
                                                     [this](const Values& v) { return std::pair{elbow(), value(v, elbow_)}; }));
    bones.bones = {{static_cast<std::uint32_t>(arm_rotation_), "UpperArmL"},
                   {forearm, "ForearmL"},
                   {static_cast<std::uint32_t>(hand_rotation_), "HandL"}};
    const Vec centre = b_.to_local(arm_rotation_, elbow());
    bones.arcs.push_back({static_cast<std::uint32_t>(hand_rotation_), elbow_, centre.x, centre.y});
    rig.bones = bones;

    p2l::SkinChunk skins;
    skins.header = extension_header(1, p2l::kHookH4);
    skins.header.meshes = {{arm_mesh_, {elbow_}, {}}};
    skins.header.depends_on = {"BONE"};
    p2l::Skin skin;
    skin.mesh = arm_mesh_;
    skin.axes = {{elbow_, Array<float>(elbow_keys())}};
    skin.bones = {static_cast<std::uint32_t>(arm_rotation_), forearm};
    // Per vertex: bone 0 (upper arm) blended towards bone 1 (forearm) by the bake's weight;
    // a vertex on one bone alone names it twice at weight 0.
    std::vector<std::uint32_t> from, to;
    std::vector<float> weight;
    for (Vec p : b_.rest_points(arm_mesh_)) {
      const float w = forearm_weight(p);
      from.push_back(w >= 1 ? 1 : 0);
      to.push_back(w > 0 ? 1 : 0);
      weight.push_back(w > 0 && w < 1 ? w : 0);
    }
    skin.from = p2l::IndexArray(from);
    skin.to = p2l::IndexArray(to);
    skin.weight = Array<float>(weight);
    skins.skins.push_back(skin);
    rig.skins = skins;
  }

  // COLL: a capsule along the right shoulder and upper arm, a little inside the sleeve's
  // outline, riding WarpBody (its ends are points in the warp's space), so it leans and
  // breathes with the torso. The hair lock's simulation keeps out of it.
  void add_collider() {
    const Vec a = mirror(kArmShoulder), b = mirror(kArmShoulder + arm_axis() * 120);
    const Vec la = b_.to_local(body_warp_, a), lb = b_.to_local(body_warp_, b);
    p2l::Collider c;
    c.id = "ShoulderR";
    c.capsule = true;
    c.deformer = body_warp_;
    c.ax = la.x;
    c.ay = la.y;
    c.bx = lb.x;
    c.by = lb.y;
    c.radius_a = 34;
    c.radius_b = 25;
    c.friction = 0.3f;
    p2l::ColliderChunk colliders;
    colliders.header = extension_header(8, p2l::kHookH6);
    colliders.header.depends_on = {"SIMS"};
    colliders.colliders.push_back(c);
    b_.rig.colliders = colliders;
  }

  // SIMS: the hair lock as particles (its vertices in order). The top row is pinned to where
  // the rig puts it; the rest hang under gravity with a little wind, held together by
  // stretch along every mesh edge (stiff, but soft in compression so that the strand can
  // bend), area on every triangle and bends between triangles sharing an edge. In advanced
  // mode ParamHairSim stays at 0 and its pendulum is skipped: the simulation replaces both.
  void add_simulation() {
    const std::vector<Vec>& rest = b_.rest_points(lock_);
    const p2l::Mesh& mesh = b_.mesh_at(lock_);
    const auto n = static_cast<std::uint32_t>(rest.size());
    p2l::Simulation s;
    s.id = "HairLockR";
    s.fps = 60;
    s.substeps = 8;
    s.gravity_y = -980;  // world space is y up
    s.wind_x = -60;      // a breeze towards the viewer's left, away from the shoulder
    s.pin_compliance = 1e-4f;
    s.targets = {{lock_, n}};
    std::vector<float> inv_mass, damping, wind, pin, goal, zero;
    std::vector<std::uint32_t> anchor_mesh, anchor_vertex;
    for (std::uint32_t i = 0; i < n; ++i) {
      const float down = clamp01((rest[i].y - hair_lock_centre(0).y) / 270);
      inv_mass.push_back(1);
      damping.push_back(1.5f);
      wind.push_back(down);
      pin.push_back(i < 2 ? 1.0f : 0.0f);  // the top row
      goal.push_back(-1);                  // no goal: the strand keeps its shape by its bends
      zero.push_back(0);
      anchor_mesh.push_back(0xFFFFFFFFu);  // a pin follows its own vertex
      anchor_vertex.push_back(i);
    }
    s.inv_mass = Array<float>(inv_mass);
    s.damping = Array<float>(damping);
    s.wind_factor = Array<float>(wind);
    s.pin_weight = Array<float>(pin);
    s.goal_compliance = Array<float>(goal);
    s.goal_offset_x = Array<float>(zero);
    s.goal_offset_y = Array<float>(zero);
    s.anchor_mesh = p2l::IndexArray(anchor_mesh);
    s.anchor_vertex = p2l::IndexArray(anchor_vertex);

    // Edges and triangles from the mesh; a bend for every edge two triangles share.
    const std::vector<std::uint32_t> indices = mesh.geometry->indices.to_vector();
    std::vector<std::uint32_t> sa, sb, ta, tb, tc, b1, b2;
    std::vector<float> length_at_rest;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> triangles_of;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (std::uint32_t t = 0; t * 3 < indices.size(); ++t) {
      const std::uint32_t v[3] = {indices[t * 3], indices[t * 3 + 1], indices[t * 3 + 2]};
      ta.push_back(v[0]);
      tb.push_back(v[1]);
      tc.push_back(v[2]);
      for (int e = 0; e < 3; ++e) {
        const auto key = std::minmax(v[e], v[(e + 1) % 3]);
        auto& list = triangles_of[key];
        if (list.empty()) edges.push_back(key);
        list.push_back(t);
      }
    }
    for (const auto& [a, b] : edges) {
      sa.push_back(a);
      sb.push_back(b);
      length_at_rest.push_back(length(rest[a] - rest[b]));
      const auto& list = triangles_of[{a, b}];
      if (list.size() == 2) {
        b1.push_back(list[0]);
        b2.push_back(list[1]);
      }
    }
    s.stretch_a = p2l::IndexArray(sa);
    s.stretch_b = p2l::IndexArray(sb);
    s.stretch_rest = Array<float>(length_at_rest);
    s.stretch_compliance = Array<float>(std::vector<float>(sa.size(), 1e-7f));
    s.compression_compliance = Array<float>(std::vector<float>(sa.size(), 2e-4f));
    s.tri_a = p2l::IndexArray(ta);
    s.tri_b = p2l::IndexArray(tb);
    s.tri_c = p2l::IndexArray(tc);
    s.area_compliance = Array<float>(std::vector<float>(ta.size(), 1e-2f));
    s.bend_t1 = p2l::IndexArray(b1);
    s.bend_t2 = p2l::IndexArray(b2);
    s.bend_compliance = Array<float>(std::vector<float>(b1.size(), 5e-7f));
    s.parameters = {hair_sim_};
    s.physics_groups = {lock_physics_};
    s.colliders = {0};

    p2l::SimulationChunk sims;
    sims.header = extension_header(4, p2l::kHookH1 | p2l::kHookH4 | p2l::kHookH6);
    sims.header.parameters = s.parameters;
    sims.header.physics_groups = s.physics_groups;
    sims.simulations.push_back(std::move(s));
    b_.rig.simulations = std::move(sims);
  }

  Atlas atlas_;
  Sprites sprites_;
  Builder b_;
  std::uint32_t angle_x_ = 0, angle_y_ = 0, angle_z_ = 0, body_x_ = 0, ball_x_ = 0, ball_y_ = 0, mouth_open_ = 0,
                mouth_form_ = 0, smile_ = 0, breath_ = 0, hair_front_ = 0, hair_back_ = 0, ribbon_ = 0, arm_ = 0,
                elbow_ = 0, hair_sim_ = 0;
  std::array<std::uint32_t, 2> eye_open_{}, brow_y_{};
  std::uint32_t background_ = 0, hair_back_part_ = 0, body_ = 0, face_ = 0, hair_front_part_ = 0, brows_ = 0, ribbons_ = 0,
                stars_ = 0;
  std::int32_t body_warp_ = -1, arm_rotation_ = -1, head_ = -1, back_hair_warp_ = -1, face_warp_ = -1, bangs_warp_ = -1;
  std::array<std::int32_t, 2> tail_rotation_{}, tail_warp_{}, side_rotation_{};
  std::uint32_t neck_ = 0, body_mesh_ = 0, face_mesh_ = 0, face_shadow_ = 0, bangs_ = 0;
  std::int32_t hand_rotation_ = -1;
  std::uint32_t hand_mesh_ = 0, arm_mesh_ = 0, lock_ = 0, lock_physics_ = 0;
};

void write_file(const std::filesystem::path& path, const void* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

int run(const std::filesystem::path& folder) {
  const Character character;
  const Rig& rig = character.rig();

  const p2l::Error error = p2l::validate(rig);
  if (!error.ok()) throw std::runtime_error("the rig does not validate: " + error.to_string());
  // Compiling it for evaluation checks what validation does not (keyform grids, the tree).
  const auto model = p2l::Model::create(std::make_shared<const Rig>(rig));
  if (!model) throw std::runtime_error("the rig does not compile: " + model.error.to_string());

  const p2l::WriteResult written = p2l::write(rig);
  if (!written) throw std::runtime_error("writing failed: " + written.error.to_string());
  // Read it back: what the file holds must be what was built.
  const p2l::LoadResult loaded = p2l::load(written.bytes);
  if (!loaded || !(*loaded.rig == rig)) throw std::runtime_error("the written file does not read back to the same rig");

  std::filesystem::create_directories(folder);
  write_file(folder / "character.p2lrt", written.bytes.data(), written.bytes.size());
  const std::string json = p2l::rig_to_json(rig);
  write_file(folder / "character.json", json.data(), json.size());

  std::size_t vertices = 0;
  for (const p2l::Mesh& m : rig.meshes) vertices += m.vertex_count();
  std::printf("wrote %s: %zu bytes (texture %zu bytes, atlas rows used %d of %d), %zu meshes, %zu vertices, %zu deformers\n",
              (folder / "character.p2lrt").string().c_str(), written.bytes.size(), rig.textures[0].data.size(),
              character.atlas().used_height(), kAtlasSize, rig.meshes.size(), vertices, rig.deformers.size());
  std::printf("wrote %s: %zu bytes\n", (folder / "character.json").string().c_str(), json.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_FOLDER\n  writes OUTPUT_FOLDER/character.p2lrt and character.json\n",
                 argc > 0 ? argv[0] : "p2l_make_character");
    return 2;
  }
  try {
    return run(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "p2l_make_character: %s\n", e.what());
    return 1;
  }
}
