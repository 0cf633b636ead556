#include "synth_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <utility>

#include "moc3_writer.hpp"

namespace p2l_test::synth {
namespace {

using namespace p2l_test::moc3w;

// ---------------------------------------------------------------------------------------
// Features by name.

struct FeatureName {
  const char* name;
  bool Features::*flag;
};
// clang-format off
constexpr FeatureName kFeatureNames[] = {
    {"partial-keys", &Features::partial_keys}, {"repeat", &Features::repeat},
    {"multi-axis", &Features::multi_axis},     {"nested-parts", &Features::nested_parts},
    {"part-groups", &Features::part_groups},   {"disabled", &Features::disabled},
    {"opacity", &Features::opacity},           {"draw-order", &Features::draw_order},
    {"rotations", &Features::rotations},       {"nested-deformers", &Features::nested_deformers},
    {"rot-under-warp", &Features::rot_under_warp}, {"reflect", &Features::reflect},
    {"quad", &Features::quad},                 {"masks", &Features::masks},
    {"glue", &Features::glue},                 {"glue-stale", &Features::glue_stale},
    {"colors", &Features::colors},
    {"deformer-colors", &Features::deformer_colors}, {"shared-colors", &Features::shared_colors}, {"blend", &Features::blend},
    {"constraints", &Features::constraints},   {"multi-constraints", &Features::multi_constraints},
    {"blend-ignored", &Features::blend_ignored},
    {"outside", &Features::outside},           {"single-key", &Features::single_key},
};
// clang-format on

// ---------------------------------------------------------------------------------------
// SplitMix64 and helpers. Floats come from 24-bit integers, so they are exact.

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  float unit() { return static_cast<float>(next() >> 40) / 16777216.0f; }  // [0, 1)
  float range(float lo, float hi) { return lo + (hi - lo) * unit(); }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  int between(int lo, int hi) { return lo + below(hi - lo + 1); }  // inclusive
  bool chance(float p) { return unit() < p; }

 private:
  std::uint64_t state_;
};

// Rounds to a multiple of [step] (keeps keys and ranges readable in a dump).
float snap(float v, float step) { return std::round(v / step) * step; }

// ---------------------------------------------------------------------------------------
// The model, object by object; serialise() turns it into moc3 arrays.

struct KeySet {
  std::vector<float> keys;  // ascending
  int base = 0;             // blend-shape key sets: the neutral key
};
struct Param {
  std::string id;
  float min = 0, max = 1, def = 0;
  bool repeat = false, blend = false;
  std::vector<KeySet> sets;
};
struct Axis {
  int param = 0, set = 0;
};
using Binding = std::vector<Axis>;

struct Rgb {
  float r = 1, g = 1, b = 1;
};
struct Colors {
  std::vector<Rgb> multiply, screen;  // one each per regular keyform
};

struct Part {
  std::string id;
  Binding binding;
  std::vector<float> order;
  bool visible = true, enabled = true;
  int parent = -1;
  bool owns_group = false;  // a draw-order group of its own (only with meshes under it)
};

struct Deformer {
  std::string id;
  bool warp = true;
  int row = 0;  // index in the warp or rotation table
  Binding binding;
  bool visible = true, enabled = true;
  int part = 0, parent = -1;
  std::vector<float> opacity;
  Colors colors;
  // warps
  int rows = 1, cols = 1;
  bool quad = false;
  std::vector<std::vector<float>> points;
  // rotations
  float base_angle = 0;
  std::vector<float> angle, x, y, scale;
  std::vector<bool> reflect_x, reflect_y;
};

struct Mesh {
  std::string id;
  Binding binding;
  bool visible = true, enabled = true;
  int part = 0, parent = -1;
  std::uint32_t texture = 0;
  std::uint8_t flags = 0;
  int vertices = 0;
  std::vector<float> uvs;
  std::vector<std::uint16_t> indices;
  std::vector<std::int32_t> masks;
  std::vector<std::vector<float>> positions;
  std::vector<float> opacity, order;
  Colors colors;
};

struct GluePair {
  std::uint16_t a = 0, b = 0;
  float weight_a = 0, weight_b = 0;
};
struct Glue {
  std::string id;
  Binding binding;
  std::vector<float> intensity;
  int a = 0, b = 0;
  std::vector<GluePair> pairs;
};

struct Constraint {
  int param = 0;
  std::vector<std::pair<float, float>> values;  // (parameter value ascending, weight)
};
struct BlendShape {
  int param = 0, set = 0;
  std::vector<std::vector<float>> deltas;  // one position delta run per key; zero at the base key
  std::vector<float> opacity, order;       // deltas per key: zero unless Features::blend_ignored
  std::vector<int> constraints;
};

// Where an object's positions live: around (cx, cy), within +-half (the parent's space).
struct Space {
  float cx = 0, cy = 0, half = 0.35f;
};

struct Model {
  std::vector<Param> params;
  std::vector<Part> parts;
  std::vector<Deformer> deformers;
  std::vector<Mesh> meshes;
  std::vector<Glue> glues;
  std::vector<Constraint> constraints;
  std::map<int, std::vector<BlendShape>> warp_shapes;  // by warp row
  std::map<int, std::vector<BlendShape>> mesh_shapes;  // by mesh index
  int warps = 0, rotations = 0;
};

std::size_t keyform_count(const Model& m, const Binding& b) {
  std::size_t n = 1;
  for (const Axis& a : b)
    n *= m.params[static_cast<std::size_t>(a.param)].sets[static_cast<std::size_t>(a.set)].keys.size();
  return n;
}

// ---------------------------------------------------------------------------------------
// Generation.

class Generator {
 public:
  Generator(std::uint64_t seed, int version, const Features& f) : rng_(seed), version_(version), f_(f) {}

  Model run() {
    make_params();
    make_parts();
    make_deformers();
    make_meshes();
    make_glue();
    make_groups();
    if (version_ >= 4) {
      make_colors();
      make_blend_shapes();
    }
    return std::move(m_);
  }

 private:
  // Normal parameters with their key sets, then (version 4) blend-shape parameters.
  void make_params() {
    static constexpr float kRanges[][2] = {{-30, 30}, {-1, 1}, {0, 1}, {-10, 10}, {0, 10}, {-180, 180}};
    const int normal = rng_.between(2, 6);
    for (int i = 0; i < normal; ++i) {
      Param p;
      p.id = "ParamN" + std::to_string(i);
      const auto& r = kRanges[rng_.below(static_cast<int>(std::size(kRanges)))];
      p.min = r[0];
      p.max = r[1];
      const float span = p.max - p.min, step = span / 64;
      p.repeat = rng_.chance(0.25f) && f_.repeat;
      p.def = rng_.chance(0.5f) ? (p.min < 0 && p.max > 0 ? 0.0f : p.min) : snap(rng_.range(p.min, p.max), step);
      // Key set 0 covers the range; a second one (half of the parameters) may cover part of it.
      const int sets = rng_.between(1, 2);
      for (int s = 0; s < sets; ++s) {
        KeySet k;
        const float roll = rng_.unit();
        if (s == 1 && roll < 0.15f && f_.single_key) {
          k.keys = {snap(rng_.range(p.min, p.max), step)};
        } else if (s == 1 && roll < 0.7f && f_.partial_keys) {
          // Keys inside the range: the object is hidden (not clamped) beyond them.
          const float lo = snap(p.min + span * rng_.range(0.0f, 0.25f), step);
          const float hi = snap(p.max - span * rng_.range(0.0f, 0.25f), step);
          k.keys = {lo, hi};
          if (rng_.chance(0.4f)) k.keys.insert(k.keys.begin() + 1, snap((lo + hi) / 2, step));
        } else {
          k.keys = {p.min, p.max};
          if (rng_.chance(0.5f)) k.keys.insert(k.keys.begin() + 1, snap(rng_.range(p.min + step, p.max - step), step));
        }
        k.keys.erase(std::unique(k.keys.begin(), k.keys.end()), k.keys.end());
        // The Editor writes one parameter binding per distinct key list.
        if (p.sets.empty() || p.sets[0].keys != k.keys) p.sets.push_back(std::move(k));
      }
      m_.params.push_back(std::move(p));
    }
    normal_params_ = normal;
    if (version_ < 4 || !f_.blend) return;
    const int blends = rng_.between(1, 2);
    for (int i = 0; i < blends; ++i) {
      Param p;
      p.id = "ParamBlend" + std::to_string(i);
      p.blend = true;
      // clang-format off
      switch (rng_.below(3)) {
        case 0: p.min = 0, p.max = 1, p.sets = {KeySet{{0, 1}, 0}}; break;
        case 1: p.min = -1, p.max = 1, p.sets = {KeySet{{-1, 0, 1}, 1}}; break;
        default: p.min = 0, p.max = 1, p.sets = {KeySet{{0, 0.5f, 1}, 0}}; break;
      }
      // clang-format on
      p.def = p.sets[0].keys[static_cast<std::size_t>(p.sets[0].base)];
      m_.params.push_back(std::move(p));
    }
  }

  // 0..max_axes axes on distinct normal parameters, each with one of the parameter's key sets.
  Binding binding(int max_axes) {
    if (!f_.multi_axis) max_axes = std::min(max_axes, 1);
    const float roll = rng_.unit();
    const int axes = std::min(roll < 0.25f ? 0 : roll < 0.75f || max_axes < 2 ? 1 : 2, max_axes);
    Binding b;
    std::vector<int> free(static_cast<std::size_t>(normal_params_));
    for (int i = 0; i < normal_params_; ++i) free[static_cast<std::size_t>(i)] = i;
    for (int a = 0; a < axes && !free.empty(); ++a) {
      const auto at = static_cast<std::size_t>(rng_.below(static_cast<int>(free.size())));
      const int p = free[at];
      free.erase(free.begin() + static_cast<std::ptrdiff_t>(at));
      b.push_back({p, rng_.below(static_cast<int>(m_.params[static_cast<std::size_t>(p)].sets.size()))});
    }
    return b;
  }

  // An opacity for one keyform: 1, or with chance [p_other] a value in [0.2, 1), or
  // (meshes) sometimes exactly 0, which makes the mesh invisible in the Core.
  float opacity(float p_other, bool zero) {
    const float roll = rng_.unit(), value = rng_.range(0.2f, 1.0f);
    if (!f_.opacity || roll >= p_other) return 1.0f;
    return zero && roll < p_other * 0.15f ? 0.0f : value;
  }

  void make_parts() {
    const int n = rng_.between(2, 4);
    for (int i = 0; i < n; ++i) {
      Part p;
      p.id = "Part" + std::to_string(i);
      const bool nest = rng_.chance(0.6f);
      if (i > 0 && nest && f_.nested_parts) p.parent = rng_.below(i);
      p.binding = binding(1);
      const float base = static_cast<float>(rng_.between(1, 9) * 100);
      for (std::size_t k = 0; k < keyform_count(m_, p.binding); ++k) {
        const float delta = static_cast<float>(rng_.between(-3, 3) * 50);
        p.order.push_back(f_.draw_order ? std::clamp(base + delta, 0.0f, 1000.0f) : base);
      }
      m_.parts.push_back(std::move(p));
    }
  }

  Space space_of(int deformer) const {
    if (deformer < 0) return {0, 0, 0.35f};
    if (m_.deformers[static_cast<std::size_t>(deformer)].warp) return {0.5f, 0.5f, 0.4f};
    return {0, 0, 0.2f};
  }

  // A (cols+1) x (rows+1) grid of points, row-major, in [s], one run per keyform: a base
  // rectangle moved a little per keyform and jittered per point.
  std::vector<std::vector<float>> grid_keyforms(const Space& s, int cols, int rows, std::size_t keyforms, float lo,
                                                float hi) {
    const float cx = s.cx + rng_.range(-0.3f, 0.3f) * s.half, cy = s.cy + rng_.range(-0.3f, 0.3f) * s.half;
    const float hw = rng_.range(lo, hi) * s.half, hh = rng_.range(lo, hi) * s.half;
    std::vector<std::vector<float>> out;
    for (std::size_t k = 0; k < keyforms; ++k) {
      const float dx = rng_.range(-0.12f, 0.12f) * s.half, dy = rng_.range(-0.12f, 0.12f) * s.half;
      std::vector<float> pts;
      for (int r = 0; r <= rows; ++r)
        for (int c = 0; c <= cols; ++c) {
          const float u = static_cast<float>(c) / static_cast<float>(cols),
                      v = static_cast<float>(r) / static_cast<float>(rows);
          pts.push_back(cx - hw + 2 * hw * u + dx + rng_.range(-0.06f, 0.06f) * s.half);
          pts.push_back(cy - hh + 2 * hh * v + dy + rng_.range(-0.06f, 0.06f) * s.half);
        }
      out.push_back(std::move(pts));
    }
    return out;
  }

  void make_deformers() {
    const int n = rng_.between(1, 5);
    for (int i = 0; i < n; ++i) {
      Deformer d;
      d.warp = !f_.rotations || rng_.chance(0.55f);
      d.id = (d.warp ? "Warp" : "Rotation") + std::to_string(i);
      d.row = d.warp ? m_.warps++ : m_.rotations++;
      // Parent: the root or an earlier deformer (rotations under warps only when allowed).
      std::vector<int> candidates;
      for (int j = 0; j < i; ++j)
        if (d.warp || f_.rot_under_warp || !m_.deformers[static_cast<std::size_t>(j)].warp) candidates.push_back(j);
      const bool nest = rng_.chance(0.65f);
      if (nest && f_.nested_deformers && !candidates.empty())
        d.parent = candidates[static_cast<std::size_t>(rng_.below(static_cast<int>(candidates.size())))];
      d.part = rng_.below(static_cast<int>(m_.parts.size()));
      const bool hidden = rng_.chance(0.2f);
      d.visible = !(hidden && f_.disabled);  // no effect in the Core
      d.binding = binding(2);
      const std::size_t keyforms = keyform_count(m_, d.binding);
      const bool faded = rng_.chance(0.4f);
      for (std::size_t k = 0; k < keyforms; ++k) d.opacity.push_back(opacity(faded ? 0.5f : 0.0f, false));
      const Space s = space_of(d.parent);
      if (d.warp) {
        d.cols = rng_.between(1, 3);
        d.rows = rng_.between(1, 3);
        const bool quad = rng_.chance(0.5f);
        d.quad = quad && f_.quad && version_ >= 2;
        d.points = grid_keyforms(s, d.cols, d.rows, keyforms, 0.45f, 0.7f);
      } else {
        const bool angled = rng_.chance(0.5f);
        const float base = rng_.range(-30, 30);
        d.base_angle = angled ? snap(base, 0.5f) : 0.0f;
        const float ox = s.cx + rng_.range(-0.5f, 0.5f) * s.half, oy = s.cy + rng_.range(-0.5f, 0.5f) * s.half;
        const bool flips = rng_.chance(0.5f);
        for (std::size_t k = 0; k < keyforms; ++k) {
          d.angle.push_back(rng_.range(-25, 25));
          d.x.push_back(ox + rng_.range(-0.1f, 0.1f) * s.half);
          d.y.push_back(oy + rng_.range(-0.1f, 0.1f) * s.half);
          d.scale.push_back(rng_.range(0.8f, 1.2f));
          const bool rx = rng_.chance(0.35f), ry = rng_.chance(0.35f);
          d.reflect_x.push_back(rx && flips && f_.reflect);
          d.reflect_y.push_back(ry && flips && f_.reflect);
        }
      }
      m_.deformers.push_back(std::move(d));
    }
    // At most one hidden subtree a model (more would leave little to compare): a disabled
    // part, an invisible part (its opacity starts at 0) or a disabled deformer, from the later
    // half of its list (parents come first, so rarely the root of everything).
    const bool hide = rng_.chance(0.35f);
    const int parts = static_cast<int>(m_.parts.size()), deformers = static_cast<int>(m_.deformers.size());
    const int what = rng_.below(3), part = rng_.between(parts / 2, parts - 1);
    const int deformer = rng_.between(deformers / 2, deformers - 1);
    if (hide && f_.disabled) {
      if (what == 0) m_.parts[static_cast<std::size_t>(part)].enabled = false;
      if (what == 1) m_.parts[static_cast<std::size_t>(part)].visible = false;
      if (what == 2) m_.deformers[static_cast<std::size_t>(deformer)].enabled = false;
    }
  }

  void make_meshes() {
    const int n = rng_.between(3, 8);
    for (int i = 0; i < n; ++i) {
      Mesh me;
      me.id = "ArtMesh" + std::to_string(i);
      const bool under = rng_.chance(0.75f);
      if (under) me.parent = rng_.below(static_cast<int>(m_.deformers.size()));
      me.part = rng_.below(static_cast<int>(m_.parts.size()));
      const bool off = rng_.chance(0.08f), hidden = rng_.chance(0.2f);
      me.enabled = !(off && f_.disabled);
      me.visible = !(hidden && f_.disabled);  // no effect in the Core
      me.texture = static_cast<std::uint32_t>(rng_.below(2));
      // Flags: bit 0 additive, bit 1 multiplicative, bit 2 double-sided, bit 3 inverted mask.
      const int blend = rng_.below(7);
      me.flags = static_cast<std::uint8_t>(blend == 5 ? 1 : blend == 6 ? 2 : 0);
      if (rng_.chance(0.7f)) me.flags |= 4;
      // Grid of (nx + 1) x (ny + 1) vertices, two triangles a cell, UVs on the grid.
      const int nx = rng_.between(1, 3), ny = rng_.between(1, 3);
      me.vertices = (nx + 1) * (ny + 1);
      for (int r = 0; r <= ny; ++r)
        for (int c = 0; c <= nx; ++c) {
          me.uvs.push_back(static_cast<float>(c) / static_cast<float>(nx));
          me.uvs.push_back(static_cast<float>(r) / static_cast<float>(ny));
        }
      for (int r = 0; r < ny; ++r)
        for (int c = 0; c < nx; ++c) {
          const auto v = static_cast<std::uint16_t>(r * (nx + 1) + c);
          const auto right = static_cast<std::uint16_t>(v + 1), down = static_cast<std::uint16_t>(v + nx + 1);
          const auto diag = static_cast<std::uint16_t>(down + 1);
          me.indices.insert(me.indices.end(), {v, right, down, right, diag, down});
        }
      // Masks: other meshes (sometimes -1, which the Editor writes and the Core skips).
      const bool masked = rng_.chance(0.3f), inverted = rng_.chance(0.5f);
      if (masked && f_.masks && n > 1) {
        const int count = rng_.between(1, 2);
        for (int k = 0; k < count; ++k) {
          int other = rng_.below(n - 1);
          if (other >= i) ++other;
          me.masks.push_back(rng_.chance(0.15f) ? -1 : other);
        }
        if (inverted) me.flags |= 8;
      }
      me.binding = binding(2);
      // A glue partner of the previous mesh: enabled exactly when it is.
      const bool partner = rng_.chance(0.4f);
      if (partner && i > 0 && f_.glue) {
        const Mesh& before = m_.meshes.back();
        me.part = before.part;
        me.parent = before.parent;
        me.enabled = before.enabled;
        me.binding = before.binding;
        glue_pairs_.push_back({i - 1, i});
      }
      const std::size_t keyforms = keyform_count(m_, me.binding);
      const bool outside = f_.outside && me.parent >= 0 && m_.deformers[static_cast<std::size_t>(me.parent)].warp;
      me.positions = grid_keyforms(space_of(me.parent), nx, ny, keyforms, 0.3f, outside ? 1.6f : 0.6f);
      const float base = static_cast<float>(rng_.between(1, 9) * 100);
      const bool faded = rng_.chance(0.4f), moving = rng_.chance(0.5f);
      for (std::size_t k = 0; k < keyforms; ++k) {
        me.opacity.push_back(opacity(faded ? 0.6f : 0.0f, true));
        const float delta = static_cast<float>(rng_.between(-4, 4) * 50 + rng_.between(-2, 2));
        me.order.push_back(moving && f_.draw_order ? std::clamp(base + delta, 0.0f, 1000.0f) : base);
      }
      m_.meshes.push_back(std::move(me));
    }
  }

  void make_glue() {
    const int n = rng_.between(0, 2);
    if (!f_.glue && !f_.glue_stale) return;
    for (int i = 0; i < n; ++i) {
      Glue g;
      g.id = "Glue" + std::to_string(i);
      const int meshes = static_cast<int>(m_.meshes.size());
      g.a = rng_.below(meshes);
      g.b = rng_.below(meshes - 1);
      if (g.b >= g.a) ++g.b;
      if (!f_.glue_stale) {
        if (glue_pairs_.empty()) return;
        std::tie(g.a, g.b) = glue_pairs_[static_cast<std::size_t>(rng_.below(static_cast<int>(glue_pairs_.size())))];
        if (rng_.chance(0.5f)) std::swap(g.a, g.b);
      }
      const int pairs = rng_.between(1, 3);
      for (int k = 0; k < pairs; ++k) {
        const float w = snap(rng_.unit(), 1.0f / 16);
        g.pairs.push_back({static_cast<std::uint16_t>(rng_.below(m_.meshes[static_cast<std::size_t>(g.a)].vertices)),
                           static_cast<std::uint16_t>(rng_.below(m_.meshes[static_cast<std::size_t>(g.b)].vertices)), w,
                           1 - w});
      }
      g.binding = binding(1);
      if (!f_.glue_stale)
        for (Axis& a : g.binding) a.set = 0;  // key set 0 covers the parameter's range
      for (std::size_t k = 0; k < keyform_count(m_, g.binding); ++k) g.intensity.push_back(rng_.range(0, 1));
      m_.glues.push_back(std::move(g));
    }
  }

  // Parts owning a draw-order group: some of those with meshes in their subtree.
  void make_groups() {
    std::vector<int> subtree_meshes(m_.parts.size(), 0);
    for (const Mesh& me : m_.meshes)
      for (int p = me.part; p >= 0; p = m_.parts[static_cast<std::size_t>(p)].parent)
        ++subtree_meshes[static_cast<std::size_t>(p)];
    for (std::size_t p = 0; p < m_.parts.size(); ++p) {
      const bool owns = rng_.chance(0.5f);
      m_.parts[p].owns_group = owns && subtree_meshes[p] > 0 && f_.part_groups;
    }
  }

  // Version 4: a multiply and a screen colour for every regular keyform (white / black
  // when the object or the feature has none).
  void fill_colors(Colors& c, std::size_t keyforms, bool on) {
    const bool tinted = rng_.chance(0.6f) && on;
    for (std::size_t k = 0; k < keyforms; ++k) {
      Rgb mul{rng_.range(0.3f, 1), rng_.range(0.3f, 1), rng_.range(0.3f, 1)};
      Rgb scr{rng_.range(0, 0.4f), rng_.range(0, 0.4f), rng_.range(0, 0.4f)};
      if (!tinted) mul = {1, 1, 1}, scr = {0, 0, 0};
      c.multiply.push_back(mul);
      c.screen.push_back(scr);
    }
  }

  void make_colors() {
    for (Deformer& d : m_.deformers) fill_colors(d.colors, keyform_count(m_, d.binding), f_.deformer_colors);
    for (Mesh& me : m_.meshes) fill_colors(me.colors, keyform_count(m_, me.binding), f_.colors);
    if (!f_.shared_colors) untint_shared();
  }

  // Without shared-colors: no two tinted objects on one mesh's chain key the same
  // parameter (the composed colour is then quadratic between keys, which p2lrt's one
  // channel only interpolates); the deformer of such a pair loses its tint.
  static bool tinted(const Colors& c) {
    for (std::size_t k = 0; k < c.multiply.size(); ++k)
      if (c.multiply[k].r != 1 || c.multiply[k].g != 1 || c.multiply[k].b != 1 || c.screen[k].r != 0 ||
          c.screen[k].g != 0 || c.screen[k].b != 0)
        return true;
    return false;
  }
  void untint_shared() {
    for (const Mesh& me : m_.meshes) {
      std::vector<int> keyed;  // parameters of tinted objects met so far, walking up
      auto add = [&](const Binding& b) {
        for (const Axis& a : b) keyed.push_back(a.param);
      };
      if (tinted(me.colors)) add(me.binding);
      for (int d = me.parent; d >= 0; d = m_.deformers[static_cast<std::size_t>(d)].parent) {
        Deformer& def = m_.deformers[static_cast<std::size_t>(d)];
        if (!tinted(def.colors)) continue;
        bool shared = false;
        for (const Axis& a : def.binding) shared |= std::find(keyed.begin(), keyed.end(), a.param) != keyed.end();
        if (shared) {
          for (auto& c : def.colors.multiply) c = {1, 1, 1};
          for (auto& c : def.colors.screen) c = {0, 0, 0};
        } else {
          add(def.binding);
        }
      }
    }
  }

  // Version 4: blend shapes on some warps and meshes, one or two blend parameters each.
  void make_blend_shapes() {
    std::vector<int> blends;
    for (int p = normal_params_; p < static_cast<int>(m_.params.size()); ++p) blends.push_back(p);
    if (blends.empty()) return;
    auto shapes_for = [&](const Space& s, int points) {
      std::vector<BlendShape> out;
      const int n = std::min(rng_.between(1, 2), static_cast<int>(blends.size()));
      const int first = rng_.below(static_cast<int>(blends.size()));
      for (int j = 0; j < n; ++j) {
        BlendShape b;
        b.param = blends[static_cast<std::size_t>((first + j) % static_cast<int>(blends.size()))];
        const KeySet& keys = m_.params[static_cast<std::size_t>(b.param)].sets[0];
        for (std::size_t k = 0; k < keys.keys.size(); ++k) {
          std::vector<float> delta(static_cast<std::size_t>(points) * 2, 0.0f);
          const bool base = static_cast<int>(k) == keys.base;
          if (!base)
            for (float& v : delta) v = rng_.range(-0.1f, 0.1f) * s.half;
          b.deltas.push_back(std::move(delta));
          b.opacity.push_back(base || !f_.blend_ignored ? 0.0f : -0.5f);
          b.order.push_back(base || !f_.blend_ignored ? 0.0f : 300.0f);
        }
        const bool limited = rng_.chance(0.4f);
        const int count = f_.multi_constraints ? rng_.between(1, 2) : 1;
        if (limited && f_.constraints)
          for (int c = 0; c < count; ++c) b.constraints.push_back(make_constraint());
        out.push_back(std::move(b));
      }
      return out;
    };
    for (const Deformer& d : m_.deformers)
      if (d.warp && rng_.chance(0.45f))
        m_.warp_shapes[d.row] = shapes_for(space_of(d.parent), (d.rows + 1) * (d.cols + 1));
    for (std::size_t i = 0; i < m_.meshes.size(); ++i)
      if (rng_.chance(0.55f))
        m_.mesh_shapes[static_cast<int>(i)] = shapes_for(space_of(m_.meshes[i].parent), m_.meshes[i].vertices);
  }

  // A weight limit on a normal parameter: 1-3 (value, weight) pairs, values ascending.
  int make_constraint() {
    Constraint c;
    c.param = rng_.below(normal_params_);
    const Param& p = m_.params[static_cast<std::size_t>(c.param)];
    const int pairs = rng_.between(1, 3);
    std::vector<float> values;
    for (int k = 0; k < pairs; ++k) values.push_back(snap(rng_.range(p.min, p.max), (p.max - p.min) / 64));
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (float v : values) c.values.push_back({v, snap(rng_.unit(), 1.0f / 32)});
    m_.constraints.push_back(std::move(c));
    return static_cast<int>(m_.constraints.size()) - 1;
  }

  Rng rng_;
  int version_;
  Features f_;
  Model m_;
  int normal_params_ = 0;
  std::vector<std::pair<int, int>> glue_pairs_;  // meshes enabled together (see make_meshes)
};

// ---------------------------------------------------------------------------------------
// Serialisation into moc3 arrays.

template <class T>
void append(std::vector<T>& to, const std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

class Serializer {
 public:
  Serializer(const Model& m, int version, Rng& rng) : m_(m), version_(version), rng_(rng), w_(version) {}

  std::vector<std::uint8_t> run(std::string& error) {
    bindings();
    parts();
    deformers();
    meshes();
    draw_order_groups();
    glue();
    if (version_ >= 4) blend_shapes();
    parameters();  // after the blend shapes: parameters own ranges of their bindings
    // The shared arrays, filled by the sections above.
    w_.count(kKeyformPositions, positions_.size());
    w_.f32(71, positions_);
    w_.count(kParameterBindingIndices, binding_indices_.size());
    w_.i32(72, binding_indices_);
    w_.count(kKeyformBindings, kfb_first_.size());
    w_.i32(73, kfb_first_);
    w_.i32(74, kfb_count_);
    w_.count(kParameterBindings, pb_first_.size());
    w_.i32(75, pb_first_);
    w_.i32(76, pb_count_);
    w_.count(kKeys, keys_.size());
    w_.f32(77, keys_);
    Canvas canvas;
    canvas.pixels_per_unit = 1000;
    canvas.width = 1200;
    canvas.height = 1000;
    canvas.origin_x = 600;
    canvas.origin_y = 500;
    return w_.build(canvas, error);
  }

  std::string summary() const {
    auto n = [&](Count c) { return std::to_string(w_.count(c)); };
    std::string s = "moc3 v" + std::to_string(version_) + ": " + n(kParameters) + " parameters, " + n(kParts) +
                    " parts, " + n(kWarps) + " warps, " + n(kRotations) + " rotations, " + n(kArtMeshes) + " meshes, " +
                    n(kGlue) + " glue, " + n(kDrawOrderGroups) + " draw-order groups, " + n(kKeyformBindings) +
                    " keyform bindings";
    if (version_ >= 4)
      s += ", " + n(kMultiplyColors) + " colours, " + std::to_string(w_.count(kBlendShapesWarps)) + "+" +
           n(kBlendShapesArtMeshes) + " blend-shape targets, " + n(kBlendShapeConstraints) + " constraints";
    return s;
  }

 private:
  // Parameter bindings: per normal parameter, one per key set in use, in parameter order
  // (each parameter owns a contiguous run). Keyform bindings: one per distinct axis list.
  void bindings() {
    std::vector<std::vector<bool>> used(m_.params.size());
    for (std::size_t p = 0; p < m_.params.size(); ++p) used[p].assign(m_.params[p].sets.size(), false);
    auto mark = [&](const Binding& b) {
      for (const Axis& a : b) used[static_cast<std::size_t>(a.param)][static_cast<std::size_t>(a.set)] = true;
    };
    for (const auto& o : m_.parts) mark(o.binding);
    for (const auto& o : m_.deformers) mark(o.binding);
    for (const auto& o : m_.meshes) mark(o.binding);
    for (const auto& o : m_.glues) mark(o.binding);
    pb_of_.resize(m_.params.size());
    param_pb_first_.assign(m_.params.size(), 0);
    param_pb_count_.assign(m_.params.size(), 0);
    for (std::size_t p = 0; p < m_.params.size(); ++p) {
      pb_of_[p].assign(m_.params[p].sets.size(), -1);
      param_pb_first_[p] = static_cast<std::int32_t>(pb_first_.size());
      if (m_.params[p].blend) continue;
      for (std::size_t s = 0; s < m_.params[p].sets.size(); ++s) {
        if (!used[p][s]) continue;
        pb_of_[p][s] = static_cast<std::int32_t>(pb_first_.size());
        pb_first_.push_back(static_cast<std::int32_t>(keys_.size()));
        pb_count_.push_back(static_cast<std::int32_t>(m_.params[p].sets[s].keys.size()));
        append(keys_, m_.params[p].sets[s].keys);
        ++param_pb_count_[p];
      }
    }
  }

  std::int32_t keyform_binding(const Binding& b) {
    std::vector<std::int32_t> list;
    for (const Axis& a : b) list.push_back(pb_of_[static_cast<std::size_t>(a.param)][static_cast<std::size_t>(a.set)]);
    const auto it = kfb_index_.find(list);
    if (it != kfb_index_.end()) return it->second;
    const auto index = static_cast<std::int32_t>(kfb_first_.size());
    kfb_first_.push_back(static_cast<std::int32_t>(binding_indices_.size()));
    kfb_count_.push_back(static_cast<std::int32_t>(list.size()));
    append(binding_indices_, list);
    kfb_index_.emplace(list, index);
    return index;
  }

  std::int32_t add_positions(const std::vector<float>& run) {
    const auto first = static_cast<std::int32_t>(positions_.size());
    append(positions_, run);
    return first;
  }

  void parts() {
    std::vector<std::string> ids;
    std::vector<std::int32_t> binding, first, count, parent;
    std::vector<bool> visible, enabled;
    std::vector<float> order;
    for (const Part& p : m_.parts) {
      ids.push_back(p.id);
      binding.push_back(keyform_binding(p.binding));
      first.push_back(static_cast<std::int32_t>(order.size()));
      count.push_back(static_cast<std::int32_t>(p.order.size()));
      append(order, p.order);
      visible.push_back(p.visible);
      enabled.push_back(p.enabled);
      parent.push_back(p.parent);
    }
    w_.count(kParts, m_.parts.size());
    w_.ids(3, ids);
    w_.i32(4, binding);
    w_.i32(5, first);
    w_.i32(6, count);
    w_.bool32(7, visible);
    w_.bool32(8, enabled);
    w_.i32(9, parent);
    w_.count(kPartKeyforms, order.size());
    w_.f32(58, order);
  }

  void add_colors(const Colors& c, std::vector<std::int32_t>& first) {
    first.push_back(static_cast<std::int32_t>(multiply_[0].size()));
    for (std::size_t k = 0; k < c.multiply.size(); ++k) {
      multiply_[0].push_back(c.multiply[k].r), multiply_[1].push_back(c.multiply[k].g),
          multiply_[2].push_back(c.multiply[k].b);
      screen_[0].push_back(c.screen[k].r), screen_[1].push_back(c.screen[k].g), screen_[2].push_back(c.screen[k].b);
    }
  }

  // The common table, then the warp and rotation tables (rows in deformer order). Warp
  // keyform positions go into the shared array now; blend-shape keyforms follow later.
  void deformers() {
    std::vector<std::string> ids;
    std::vector<std::int32_t> binding, parent_part, parent, row;
    std::vector<std::uint32_t> type;
    std::vector<bool> visible, enabled;
    std::vector<std::int32_t> w_binding, w_first, w_count, w_points, w_colors;
    std::vector<std::uint32_t> w_rows, w_cols;
    std::vector<bool> w_quad;
    std::vector<std::int32_t> r_binding, r_first, r_count, r_colors;
    std::vector<float> r_base;
    std::vector<bool> r_reflect_x, r_reflect_y;
    std::vector<float> r_opacity, r_angle, r_x, r_y, r_scale;
    for (const Deformer& d : m_.deformers) {
      const std::int32_t b = keyform_binding(d.binding);
      ids.push_back(d.id);
      binding.push_back(b);
      visible.push_back(d.visible);
      enabled.push_back(d.enabled);
      parent_part.push_back(d.part);
      parent.push_back(d.parent);
      type.push_back(d.warp ? 0 : 1);
      row.push_back(d.row);
      if (d.warp) {
        w_binding.push_back(b);
        w_first.push_back(static_cast<std::int32_t>(warp_opacity_.size()));
        w_count.push_back(static_cast<std::int32_t>(d.points.size()));
        w_points.push_back((d.rows + 1) * (d.cols + 1));
        w_rows.push_back(static_cast<std::uint32_t>(d.rows));
        w_cols.push_back(static_cast<std::uint32_t>(d.cols));
        w_quad.push_back(d.quad);
        for (std::size_t k = 0; k < d.points.size(); ++k) {
          warp_opacity_.push_back(d.opacity[k]);
          warp_positions_.push_back(add_positions(d.points[k]));
        }
        add_colors(d.colors, w_colors);
      } else {
        r_binding.push_back(b);
        r_first.push_back(static_cast<std::int32_t>(r_opacity.size()));
        r_count.push_back(static_cast<std::int32_t>(d.angle.size()));
        r_base.push_back(d.base_angle);
        append(r_opacity, d.opacity);
        append(r_angle, d.angle);
        append(r_x, d.x);
        append(r_y, d.y);
        append(r_scale, d.scale);
        for (std::size_t k = 0; k < d.angle.size(); ++k) {
          r_reflect_x.push_back(d.reflect_x[k]);
          r_reflect_y.push_back(d.reflect_y[k]);
        }
      }
    }
    // Rotation colours after every warp's (entries: warps, rotations, meshes).
    for (const Deformer& d : m_.deformers)
      if (!d.warp) add_colors(d.colors, r_colors);
    w_.count(kDeformers, m_.deformers.size());
    w_.ids(11, ids);
    w_.i32(12, binding);
    w_.bool32(13, visible);
    w_.bool32(14, enabled);
    w_.i32(15, parent_part);
    w_.i32(16, parent);
    w_.u32(17, type);
    w_.i32(18, row);
    w_.count(kWarps, w_binding.size());
    w_.i32(19, w_binding);
    w_.i32(20, w_first);
    w_.i32(21, w_count);
    w_.i32(22, w_points);
    w_.u32(23, w_rows);
    w_.u32(24, w_cols);
    if (version_ >= 2) w_.bool32(101, w_quad);
    w_.count(kRotations, r_binding.size());
    w_.i32(25, r_binding);
    w_.i32(26, r_first);
    w_.i32(27, r_count);
    w_.f32(28, r_base);
    w_.count(kRotationKeyforms, r_opacity.size());
    w_.f32(61, r_opacity);
    w_.f32(62, r_angle);
    w_.f32(63, r_x);
    w_.f32(64, r_y);
    w_.f32(65, r_scale);
    w_.bool32(66, r_reflect_x);
    w_.bool32(67, r_reflect_y);
    if (version_ >= 4) {
      w_.i32(105, w_colors);
      w_.i32(106, r_colors);
    }
  }

  void meshes() {
    std::vector<std::string> ids;
    std::vector<std::int32_t> binding, first, count, parent_part, parent, vertices, first_uv, first_index, index_count,
        first_mask, mask_count, colors, masks;
    std::vector<std::uint32_t> texture;
    std::vector<std::uint8_t> flags;
    std::vector<bool> visible, enabled;
    std::vector<float> uvs;
    std::vector<std::uint16_t> indices;
    for (const Mesh& me : m_.meshes) {
      ids.push_back(me.id);
      binding.push_back(keyform_binding(me.binding));
      first.push_back(static_cast<std::int32_t>(mesh_opacity_.size()));
      count.push_back(static_cast<std::int32_t>(me.positions.size()));
      visible.push_back(me.visible);
      enabled.push_back(me.enabled);
      parent_part.push_back(me.part);
      parent.push_back(me.parent);
      texture.push_back(me.texture);
      flags.push_back(me.flags);
      vertices.push_back(me.vertices);
      first_uv.push_back(static_cast<std::int32_t>(uvs.size()));
      append(uvs, me.uvs);
      first_index.push_back(static_cast<std::int32_t>(indices.size()));
      index_count.push_back(static_cast<std::int32_t>(me.indices.size()));
      append(indices, me.indices);
      first_mask.push_back(static_cast<std::int32_t>(masks.size()));
      mask_count.push_back(static_cast<std::int32_t>(me.masks.size()));
      append(masks, me.masks);
      for (std::size_t k = 0; k < me.positions.size(); ++k) {
        mesh_opacity_.push_back(me.opacity[k]);
        mesh_order_.push_back(me.order[k]);
        mesh_positions_.push_back(add_positions(me.positions[k]));
      }
    }
    for (const Mesh& me : m_.meshes) add_colors(me.colors, colors);
    w_.count(kArtMeshes, m_.meshes.size());
    w_.ids(33, ids);
    w_.i32(34, binding);
    w_.i32(35, first);
    w_.i32(36, count);
    w_.bool32(37, visible);
    w_.bool32(38, enabled);
    w_.i32(39, parent_part);
    w_.i32(40, parent);
    w_.u32(41, texture);
    w_.u8(42, flags);
    w_.i32(43, vertices);
    w_.i32(44, first_uv);
    w_.i32(45, first_index);
    w_.i32(46, index_count);
    w_.i32(47, first_mask);
    w_.i32(48, mask_count);
    w_.count(kUvs, uvs.size());
    w_.f32(78, uvs);
    w_.count(kPositionIndices, indices.size());
    w_.u16(79, indices);
    w_.count(kDrawableMasks, masks.size());
    w_.i32(80, masks);
    if (version_ >= 4) w_.i32(107, colors);
  }

  // Group 0 is the root, then one group per group-owning part in part order (so a child
  // group comes after its parent's). A mesh is an object of the group of its nearest
  // ancestor part (or its own part) owning one, a group-owning part an object of the group
  // above it.
  void draw_order_groups() {
    const std::size_t np = m_.parts.size();
    std::vector<int> owned(np, -1);
    int groups = 1;
    for (std::size_t p = 0; p < np; ++p)
      if (m_.parts[p].owns_group) owned[p] = groups++;
    // The group an object under part p (p itself included when [self]) belongs to.
    auto group_of = [&](int p, bool self) {
      if (!self && p >= 0) p = m_.parts[static_cast<std::size_t>(p)].parent;
      for (; p >= 0; p = m_.parts[static_cast<std::size_t>(p)].parent)
        if (owned[static_cast<std::size_t>(p)] >= 0) return owned[static_cast<std::size_t>(p)];
      return 0;
    };
    struct Object {
      std::uint32_t type;
      std::int32_t index, self;
    };
    std::vector<std::vector<Object>> objects(static_cast<std::size_t>(groups));
    for (std::size_t i = 0; i < m_.meshes.size(); ++i)
      objects[static_cast<std::size_t>(group_of(m_.meshes[i].part, true))].push_back(
          {0, static_cast<std::int32_t>(i), -1});
    for (std::size_t p = 0; p < np; ++p)
      if (owned[p] >= 0)
        objects[static_cast<std::size_t>(group_of(static_cast<int>(p), false))].push_back(
            {1, static_cast<std::int32_t>(p), owned[p]});
    // Shuffle each group's objects (ties in draw order keep this order in the Core).
    for (auto& list : objects)
      for (std::size_t i = list.size(); i > 1; --i)
        std::swap(list[i - 1], list[static_cast<std::size_t>(rng_.below(static_cast<int>(i)))]);
    // Meshes in each group's subtree: children come later, so sum backwards.
    std::vector<std::int32_t> total(static_cast<std::size_t>(groups), 0);
    for (int g = groups - 1; g >= 0; --g)
      for (const Object& o : objects[static_cast<std::size_t>(g)])
        total[static_cast<std::size_t>(g)] += o.type == 0 ? 1 : total[static_cast<std::size_t>(o.self)];
    std::vector<std::int32_t> first, count;
    std::vector<std::uint32_t> max_order, min_order, type;
    std::vector<std::int32_t> index, self;
    for (int g = 0; g < groups; ++g) {
      const auto& list = objects[static_cast<std::size_t>(g)];
      first.push_back(static_cast<std::int32_t>(type.size()));
      count.push_back(static_cast<std::int32_t>(list.size()));
      float lo = 1000, hi = 0;
      for (const Object& o : list) {
        type.push_back(o.type);
        index.push_back(o.index);
        self.push_back(o.self);
        const auto& orders = o.type == 0 ? m_.meshes[static_cast<std::size_t>(o.index)].order
                                         : m_.parts[static_cast<std::size_t>(o.index)].order;
        for (float v : orders) lo = std::min(lo, v), hi = std::max(hi, v);
      }
      if (list.empty()) lo = hi = 500;
      max_order.push_back(static_cast<std::uint32_t>(hi));
      min_order.push_back(static_cast<std::uint32_t>(lo));
    }
    w_.count(kDrawOrderGroups, first.size());
    w_.i32(81, first);
    w_.i32(82, count);
    w_.i32(83, total);
    w_.u32(84, max_order);
    w_.u32(85, min_order);
    w_.count(kDrawOrderGroupObjects, type.size());
    w_.u32(86, type);
    w_.i32(87, index);
    w_.i32(88, self);
  }

  void glue() {
    std::vector<std::string> ids;
    std::vector<std::int32_t> binding, first, count, a, b, first_info, info_count;
    std::vector<float> weights, intensity;
    std::vector<std::uint16_t> vertex;
    for (const Glue& g : m_.glues) {
      ids.push_back(g.id);
      binding.push_back(keyform_binding(g.binding));
      first.push_back(static_cast<std::int32_t>(intensity.size()));
      count.push_back(static_cast<std::int32_t>(g.intensity.size()));
      append(intensity, g.intensity);
      a.push_back(g.a);
      b.push_back(g.b);
      first_info.push_back(static_cast<std::int32_t>(weights.size()));
      info_count.push_back(static_cast<std::int32_t>(g.pairs.size() * 2));
      for (const GluePair& p : g.pairs) {
        weights.push_back(p.weight_a), vertex.push_back(p.a);  // entry 2k: mesh A
        weights.push_back(p.weight_b), vertex.push_back(p.b);  // entry 2k + 1: mesh B
      }
    }
    w_.count(kGlue, m_.glues.size());
    w_.ids(90, ids);
    w_.i32(91, binding);
    w_.i32(92, first);
    w_.i32(93, count);
    w_.i32(94, a);
    w_.i32(95, b);
    w_.i32(96, first_info);
    w_.i32(97, info_count);
    w_.count(kGlueInfo, weights.size());
    w_.f32(98, weights);
    w_.u16(99, vertex);
    w_.count(kGlueKeyforms, intensity.size());
    w_.f32(100, intensity);
  }

  // Version 4 blend shapes: blend-shape parameter bindings (one per blend parameter, keys
  // after the regular ones), keyform bindings, the delta keyforms appended after every
  // regular keyform of their kind, constraints.
  void blend_shapes() {
    std::vector<std::int32_t> pb_first, pb_count, pb_base;
    bs_pb_first_.assign(m_.params.size(), 0);
    bs_pb_count_.assign(m_.params.size(), 0);
    std::vector<std::int32_t> pb_of(m_.params.size(), -1);
    for (std::size_t p = 0; p < m_.params.size(); ++p) {
      bs_pb_first_[p] = static_cast<std::int32_t>(pb_first.size());
      if (!m_.params[p].blend) continue;
      bool used = false;
      for (const auto* shapes : {&m_.warp_shapes, &m_.mesh_shapes})
        for (const auto& [target, list] : *shapes)
          for (const BlendShape& s : list) used |= s.param == static_cast<int>(p);
      if (!used) continue;
      const KeySet& k = m_.params[p].sets[0];
      pb_of[p] = static_cast<std::int32_t>(pb_first.size());
      pb_first.push_back(static_cast<std::int32_t>(keys_.size()));
      pb_count.push_back(static_cast<std::int32_t>(k.keys.size()));
      pb_base.push_back(k.base);
      append(keys_, k.keys);
      bs_pb_count_[p] = 1;
    }
    std::vector<std::int32_t> kb_pb, kb_first, kb_count, kb_cfirst, kb_ccount, cindex;
    auto targets = [&](const std::map<int, std::vector<BlendShape>>& shapes, std::vector<float>& opacity,
                       std::vector<float>* order, std::vector<std::int32_t>& positions,
                       std::vector<std::int32_t>& target, std::vector<std::int32_t>& first,
                       std::vector<std::int32_t>& count) {
      for (const auto& [object, list] : shapes) {
        target.push_back(object);
        first.push_back(static_cast<std::int32_t>(kb_pb.size()));
        count.push_back(static_cast<std::int32_t>(list.size()));
        for (const BlendShape& s : list) {
          kb_pb.push_back(pb_of[static_cast<std::size_t>(s.param)]);
          kb_first.push_back(static_cast<std::int32_t>(opacity.size()));
          kb_count.push_back(static_cast<std::int32_t>(s.deltas.size()));
          kb_cfirst.push_back(static_cast<std::int32_t>(cindex.size()));
          kb_ccount.push_back(static_cast<std::int32_t>(s.constraints.size()));
          append(cindex, s.constraints);
          for (std::size_t k = 0; k < s.deltas.size(); ++k) {
            opacity.push_back(s.opacity[k]);
            if (order) order->push_back(s.order[k]);
            positions.push_back(add_positions(s.deltas[k]));
          }
        }
      }
    };
    std::vector<std::int32_t> wt, wf, wc, mt, mf, mc;
    targets(m_.warp_shapes, warp_opacity_, nullptr, warp_positions_, wt, wf, wc);
    targets(m_.mesh_shapes, mesh_opacity_, &mesh_order_, mesh_positions_, mt, mf, mc);
    std::vector<std::int32_t> c_param, c_first, c_count;
    std::vector<float> c_value, c_weight;
    for (const Constraint& c : m_.constraints) {
      c_param.push_back(c.param);
      c_first.push_back(static_cast<std::int32_t>(c_value.size()));
      c_count.push_back(static_cast<std::int32_t>(c.values.size()));
      for (const auto& [value, weight] : c.values) c_value.push_back(value), c_weight.push_back(weight);
    }
    w_.count(kBlendShapeParameterBindings, pb_first.size());
    w_.i32(117, pb_first);
    w_.i32(118, pb_count);
    w_.i32(119, pb_base);
    w_.count(kBlendShapeKeyformBindings, kb_pb.size());
    w_.i32(120, kb_pb);
    w_.i32(121, kb_first);
    w_.i32(122, kb_count);
    w_.i32(123, kb_cfirst);
    w_.i32(124, kb_ccount);
    w_.count(kBlendShapesWarps, wt.size());
    w_.i32(125, wt);
    w_.i32(126, wf);
    w_.i32(127, wc);
    w_.count(kBlendShapesArtMeshes, mt.size());
    w_.i32(128, mt);
    w_.i32(129, mf);
    w_.i32(130, mc);
    w_.count(kBlendShapeConstraintIndices, cindex.size());
    w_.i32(131, cindex);
    w_.count(kBlendShapeConstraints, c_param.size());
    w_.i32(132, c_param);
    w_.i32(133, c_first);
    w_.i32(134, c_count);
    w_.count(kBlendShapeConstraintValues, c_value.size());
    w_.f32(135, c_value);
    w_.f32(136, c_weight);
  }

  // Parameters last: their binding ranges and (version 4) key lists need everything else.
  // Also writes the warp and mesh keyform arrays, complete once the blend shapes are in.
  void parameters() {
    std::vector<std::string> ids;
    std::vector<float> max, min, def;
    std::vector<bool> repeat;
    std::vector<std::uint32_t> decimals, type;
    std::vector<std::int32_t> key_first, key_count;
    for (std::size_t p = 0; p < m_.params.size(); ++p) {
      const Param& q = m_.params[p];
      ids.push_back(q.id);
      max.push_back(q.max);
      min.push_back(q.min);
      def.push_back(q.def);
      repeat.push_back(q.repeat);
      decimals.push_back(3);
      type.push_back(q.blend ? 1 : 0);
      // The key list: the sorted union of the keys of the parameter's bindings.
      std::vector<float> keys;
      for (std::size_t s = 0; s < q.sets.size(); ++s) {
        const bool used = q.blend ? bs_pb_count_.size() > p && bs_pb_count_[p] > 0 : pb_of_[p][s] >= 0;
        if (used) append(keys, q.sets[s].keys);
      }
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      key_first.push_back(static_cast<std::int32_t>(keys_.size()));
      key_count.push_back(static_cast<std::int32_t>(keys.size()));
      if (version_ >= 4) append(keys_, keys);
    }
    w_.count(kParameters, m_.params.size());
    w_.ids(50, ids);
    w_.f32(51, max);
    w_.f32(52, min);
    w_.f32(53, def);
    w_.bool32(54, repeat);
    w_.u32(55, decimals);
    w_.i32(56, param_pb_first_);
    w_.i32(57, param_pb_count_);
    if (version_ >= 4) {
      w_.i32(103, key_first);
      w_.i32(104, key_count);
      w_.u32(114, type);
      w_.i32(115, bs_pb_first_);
      w_.i32(116, bs_pb_count_);
      w_.count(kMultiplyColors, multiply_[0].size());
      w_.count(kScreenColors, screen_[0].size());
      for (int c = 0; c < 3; ++c) {
        w_.f32(108 + c, multiply_[static_cast<std::size_t>(c)]);
        w_.f32(111 + c, screen_[static_cast<std::size_t>(c)]);
      }
    }
    w_.count(kWarpKeyforms, warp_opacity_.size());
    w_.f32(59, warp_opacity_);
    w_.i32(60, warp_positions_);
    w_.count(kArtMeshKeyforms, mesh_opacity_.size());
    w_.f32(68, mesh_opacity_);
    w_.f32(69, mesh_order_);
    w_.i32(70, mesh_positions_);
  }

  const Model& m_;
  int version_;
  Rng& rng_;
  Writer w_;
  std::vector<float> keys_, positions_;
  std::vector<std::int32_t> binding_indices_, kfb_first_, kfb_count_, pb_first_, pb_count_;
  std::map<std::vector<std::int32_t>, std::int32_t> kfb_index_;
  std::vector<std::vector<std::int32_t>> pb_of_;  // [param][key set] -> parameter binding
  std::vector<std::int32_t> param_pb_first_, param_pb_count_, bs_pb_first_, bs_pb_count_;
  std::vector<float> warp_opacity_, mesh_opacity_, mesh_order_;
  std::vector<std::int32_t> warp_positions_, mesh_positions_;
  std::vector<float> multiply_[3], screen_[3];
};

// ---------------------------------------------------------------------------------------
// A readable description (p2l_make_moc3 --dump), to narrow a failure down by hand.

std::string describe(const Model& m) {
  std::string s;
  auto num = [](float v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", static_cast<double>(v));
    return std::string(b);
  };
  auto list = [&](const std::vector<float>& v) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? " " : "") + num(v[i]);
    return out + "]";
  };
  auto axes = [&](const Binding& b) {
    std::string out = "{";
    for (std::size_t i = 0; i < b.size(); ++i) {
      const Param& p = m.params[static_cast<std::size_t>(b[i].param)];
      out += (i ? ", " : "") + p.id + " " + list(p.sets[static_cast<std::size_t>(b[i].set)].keys);
    }
    return out + "}";
  };
  for (const Param& p : m.params)
    s += "param " + p.id + " [" + num(p.min) + ", " + num(p.max) + "] default " + num(p.def) +
         (p.repeat ? " repeat" : "") + (p.blend ? " blend" : "") + "\n";
  for (std::size_t i = 0; i < m.parts.size(); ++i) {
    const Part& p = m.parts[i];
    s += "part " + std::to_string(i) + " parent " + std::to_string(p.parent) + (p.enabled ? "" : " DISABLED") +
         (p.visible ? "" : " INVISIBLE") + (p.owns_group ? " group" : "") + " keys " + axes(p.binding) + " order " +
         list(p.order) + "\n";
  }
  for (std::size_t i = 0; i < m.deformers.size(); ++i) {
    const Deformer& d = m.deformers[i];
    s += "deformer " + std::to_string(i) + " " + d.id + " parent " + std::to_string(d.parent) + " part " +
         std::to_string(d.part) + (d.enabled ? "" : " DISABLED") + (d.visible ? "" : " invisible") + " keys " +
         axes(d.binding) + " opacity " + list(d.opacity);
    if (d.warp)
      s += " " + std::to_string(d.cols) + "x" + std::to_string(d.rows) + (d.quad ? " quad" : "");
    else
      s += " base " + num(d.base_angle) + " angle " + list(d.angle) + " scale " + list(d.scale);
    s += "\n";
  }
  for (std::size_t i = 0; i < m.meshes.size(); ++i) {
    const Mesh& me = m.meshes[i];
    s += "mesh " + std::to_string(i) + " parent " + std::to_string(me.parent) + " part " + std::to_string(me.part) +
         (me.enabled ? "" : " DISABLED") + (me.visible ? "" : " invisible") + " flags " + std::to_string(me.flags) +
         " vertices " + std::to_string(me.vertices) + " keys " + axes(me.binding) + " opacity " + list(me.opacity) +
         " order " + list(me.order) + "\n";
  }
  for (const Glue& g : m.glues)
    s += "glue " + g.id + " meshes " + std::to_string(g.a) + "-" + std::to_string(g.b) + " pairs " +
         std::to_string(g.pairs.size()) + " keys " + axes(g.binding) + " intensity " + list(g.intensity) + "\n";
  for (const auto* shapes : {&m.warp_shapes, &m.mesh_shapes})
    for (const auto& [target, list_] : *shapes)
      for (const BlendShape& b : list_)
        s += std::string("blend shape on ") + (shapes == &m.warp_shapes ? "warp " : "mesh ") + std::to_string(target) +
             ": " + m.params[static_cast<std::size_t>(b.param)].id + ", " + std::to_string(b.constraints.size()) +
             " constraints\n";
  return s;
}

}  // namespace

bool Features::set(std::string_view name) {
  if (name == "default") {
    *this = Features{};
    return true;
  }
  if (name == "all" || name == "none") {
    const bool on = name == "all";
    for (const auto& f : kFeatureNames) this->*f.flag = on;
    return true;
  }
  if (name == "full-keys") {
    partial_keys = false;
    return true;
  }
  const bool off = name.starts_with("no-");
  if (off) name.remove_prefix(3);
  for (const auto& f : kFeatureNames)
    if (name == f.name) {
      this->*f.flag = !off;
      return true;
    }
  return false;
}

std::string Features::names() {
  std::string s;
  for (const auto& f : kFeatureNames) s += std::string(s.empty() ? "" : " ") + f.name;
  return s + " (each also as no-NAME); default, all, none, full-keys";
}

Generated generate_moc3(std::uint64_t seed, int version, const Features& features) {
  Generated out;
  if (version < 1 || version > 4) {
    out.error = "versions 1-4 only";
    return out;
  }
  const Model model = Generator(seed, version, features).run();
  Rng layout_rng(seed ^ 0x5eed5eed5eed5eedull);  // a separate stream for layout choices
  Serializer s(model, version, layout_rng);
  out.bytes = s.run(out.error);
  out.summary = s.summary();
  out.description = describe(model);
  return out;
}

}  // namespace p2l_test::synth
