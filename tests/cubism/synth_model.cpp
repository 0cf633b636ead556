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
    {"far-outside", &Features::far_outside},   {"tiny-scale", &Features::tiny_scale},
    {"big-angles", &Features::big_angles},     {"opacity-over-one", &Features::opacity_over_one},
    {"color-overshoot", &Features::color_overshoot}, {"constraint-extremes", &Features::constraint_extremes},
    {"decimals", &Features::decimals},         {"blend-everything", &Features::blend_everything},
    {"eps-exact", &Features::eps_exact}, {"unsorted-keys", &Features::unsorted_keys},
    {"pixel-scale", &Features::pixel_scale},
    {"offscreens", &Features::offscreens},     {"offscreen-keyforms", &Features::offscreen_keyforms},
    {"offscreen-masks", &Features::offscreen_masks}, {"blend-modes", &Features::blend_modes},
    {"blend-sweep", &Features::blend_sweep},   {"offscreen-shapes", &Features::offscreen_shapes},
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
  std::uint32_t decimals = 3;  // the Core's snapping distance is 10^-decimals
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
  bool offscreen = false;   // version 6: owns an offscreen (and so a group)
  bool force_offscreen = false;  // made for Features::offscreens' structures: owns one for sure
};

// Version 6: an offscreen owned by a part, one keyform per regular keyform of the part.
struct Offscreen {
  int owner = 0;
  std::uint8_t flags = 0;  // 4 double-sided, 8 inverted mask
  std::int32_t blend = 0;  // colour blend | alpha blend << 8
  std::vector<std::int32_t> masks;
  std::vector<float> opacity;
  Colors colors;
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
  std::int32_t blend = 0;  // version 6: colour blend | alpha blend << 8
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
// One blend shape (a blend-shape parameter's keyforms on one object): per key a delta of
// every channel the target kind has, zero at the base key. Which vectors are filled depends
// on the kind: warps positions, opacity, colours; meshes positions, opacity, draw order,
// colours; rotations opacity, angle, origin, scale, colours; parts draw order; glue
// intensity; offscreens (version 6) opacity, colours. Version 4 writes positions, opacity and
// draw order only.
struct BlendShape {
  int param = 0, set = 0;
  std::vector<std::vector<float>> deltas;  // one position delta run per key
  std::vector<float> opacity, order;       // version 4: zero unless Features::blend_ignored
  std::vector<Rgb> multiply, screen;       // version 5
  std::vector<float> angle, x, y, scale;   // version 5, rotations
  std::vector<float> intensity;            // version 5, glue
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
  std::map<int, std::vector<BlendShape>> warp_shapes;      // by warp row
  std::map<int, std::vector<BlendShape>> mesh_shapes;      // by mesh index
  std::map<int, std::vector<BlendShape>> rotation_shapes;  // by rotation row (version 5)
  std::map<int, std::vector<BlendShape>> part_shapes;      // by part index (version 5)
  std::map<int, std::vector<BlendShape>> glue_shapes;      // by glue index (version 5)
  std::vector<Offscreen> offscreens;                       // version 6, in owner part order
  std::map<int, std::vector<BlendShape>> offscreen_shapes;  // by offscreen index (version 6)
  int warps = 0, rotations = 0;
  std::vector<std::string> notes;  // what the special features built, for the dump
  float pixels_per_unit = 1000;    // Features::pixel_scale: 1, the root in pixels
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
  Generator(std::uint64_t seed, int version, const Features& f) : rng_(seed), version_(version), f_(f) {
    if (f_.blend_everything && version_ >= 5) f_.blend = true;  // shapes need blend parameters
    if (version_ < 6)  // the version 6 features draw nothing before version 6
      f_.offscreens = f_.offscreen_keyforms = f_.offscreen_masks = f_.blend_modes = f_.blend_sweep =
          f_.offscreen_shapes = false;
    if (!f_.offscreens) f_.offscreen_keyforms = f_.offscreen_masks = f_.offscreen_shapes = f_.blend_sweep = false;
    if (f_.offscreen_shapes) f_.blend = true;
  }

  Model run() {
    make_params();
    make_parts();
    make_deformers();
    make_meshes();
    make_glue();
    make_groups();
    if (version_ >= 6) make_offscreens();
    if (version_ >= 4) {
      make_colors();
      make_blend_shapes();
    }
    if (version_ >= 6) make_blend_modes();
    if (f_.pixel_scale) to_pixels();
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
      if (f_.decimals) decimal_places(p);
      if (f_.eps_exact) eps_exact(p);
      if (f_.unsorted_keys) unsort_keys(p);
      m_.params.push_back(std::move(p));
    }
    normal_params_ = normal;
    if (version_ < 4 || !f_.blend) return;
    const bool everything = f_.blend_everything && version_ >= 5;
    const int blends = everything ? rng_.between(3, 4) : rng_.between(1, 2);
    for (int i = 0; i < blends; ++i) {
      Param p;
      p.id = "ParamBlend" + std::to_string(i);
      p.blend = true;
      // Blend-everything has both Editor key lists: [0, 1] on base 0 and [-1, 0, 1] on base 1.
      const int kind = rng_.below(3);
      // clang-format off
      switch (everything && i < 2 ? i : kind) {
        case 0: p.min = 0, p.max = 1, p.sets = {KeySet{{0, 1}, 0}}; break;
        case 1: p.min = -1, p.max = 1, p.sets = {KeySet{{-1, 0, 1}, 1}}; break;
        default: p.min = 0, p.max = 1, p.sets = {KeySet{{0, 0.5f, 1}, 0}}; break;
      }
      // clang-format on
      p.def = p.sets[0].keys[static_cast<std::size_t>(p.sets[0].base)];
      // The blend-shape key lookup has no snapping distance: other decimal places must not matter.
      if (f_.decimals) p.decimals = kPlaces[rng_.below(static_cast<int>(std::size(kPlaces)))];
      m_.params.push_back(std::move(p));
    }
  }

  // Features::pixel_scale: every root coordinate (root warps' points, root rotations' origins,
  // root meshes' vertices and their blend-shape deltas) times a factor in the thousands and
  // moved off the origin, root rotations' scales times it too (their children are in their
  // own units), and one pixel a unit.
  void to_pixels() {
    const float k = rng_.range(1500.0f, 4000.0f), ox = rng_.range(500.0f, 2500.0f), oy = rng_.range(500.0f, 4000.0f);
    auto place = [&](std::vector<float>& xy, bool delta) {
      for (std::size_t i = 0; i + 1 < xy.size(); i += 2) {
        xy[i] = xy[i] * k + (delta ? 0 : ox);
        xy[i + 1] = xy[i + 1] * k + (delta ? 0 : oy);
      }
    };
    for (Deformer& d : m_.deformers) {
      if (d.parent >= 0) continue;
      for (auto& p : d.points) place(p, false);
      for (std::size_t j = 0; j < d.x.size(); ++j) {
        d.x[j] = d.x[j] * k + ox;
        d.y[j] = d.y[j] * k + oy;
        d.scale[j] *= k;
      }
      auto& targets = d.warp ? m_.warp_shapes : m_.rotation_shapes;
      const auto shapes = targets.find(d.row);  // (operator[] would make an empty blend-shape target)
      if (shapes == targets.end()) continue;
      for (BlendShape& b : shapes->second) {
        for (auto& run : b.deltas) place(run, true);
        for (float& v : b.x) v *= k;
        for (float& v : b.y) v *= k;
        for (float& v : b.scale) v *= k;
      }
    }
    for (std::size_t i = 0; i < m_.meshes.size(); ++i) {
      if (m_.meshes[i].parent >= 0) continue;
      for (auto& p : m_.meshes[i].positions) place(p, false);
      auto it = m_.mesh_shapes.find(static_cast<int>(i));
      if (it != m_.mesh_shapes.end())
        for (BlendShape& b : it->second)
          for (auto& run : b.deltas) place(run, true);
    }
    m_.pixels_per_unit = 1;
  }

  // Features::unsorted_keys: a key list repeats one of its keys (right after it, or at the end),
  // or two neighbours swap places, so that the list goes down once.
  void unsort_keys(Param& p) {
    for (KeySet& k : p.sets) {
      if (!rng_.chance(0.6f)) continue;
      const std::size_t n = k.keys.size(), i = static_cast<std::size_t>(rng_.below(static_cast<int>(n)));
      switch (rng_.below(3)) {
        case 0: k.keys.insert(k.keys.begin() + static_cast<std::ptrdiff_t>(i), k.keys[i]); break;
        case 1: k.keys.push_back(k.keys[i]); break;
        default:
          if (n >= 2) std::swap(k.keys[std::min(i, n - 2)], k.keys[std::min(i, n - 2) + 1]);
          else k.keys.push_back(k.keys[0] - 1);
      }
    }
  }

  // Features::decimals. The Core snaps a value within eps = 10^-d of a key to it, counts a
  // value more than eps beyond the end keys as out of range, and does not interpolate
  // between keys less than 1.5 eps apart; the poses use each parameter's minimum, maximum,
  // default and keys, so the end keys move inside by up to eps (one exactly eps: the float
  // rounding of key - eps decides), a close pair of keys is added, and the default lands
  // near a key.
  static constexpr std::uint32_t kPlaces[] = {1, 2, 4, 5, 1, 2, 4, 5, 3};
  static constexpr float kEpsilon[] = {1, 0.1f, 0.01f, 0.001f, 0.0001f, 0.00001f};
  void decimal_places(Param& p) {
    static constexpr float kInside[] = {0.25f, 0.6f, 0.95f, 1.0f};         // of eps
    static constexpr float kGap[] = {0.4f, 0.9f, 1.2f, 1.45f, 1.5f, 2.5f};  // of eps
    static constexpr float kOff[] = {0.0f, 0.3f, -0.6f, 0.9f, -1.0f, 1.1f};  // of eps
    p.decimals = kPlaces[rng_.below(static_cast<int>(std::size(kPlaces)))];
    const float eps = kEpsilon[p.decimals];
    std::vector<float>& keys = p.sets[0].keys;
    if (rng_.chance(0.5f)) keys.front() = p.min + kInside[rng_.below(4)] * eps;
    if (rng_.chance(0.5f)) keys.back() = p.max - kInside[rng_.below(4)] * eps;
    const float at = snap(p.min + (p.max - p.min) * rng_.range(0.2f, 0.8f), eps);
    keys.push_back(at);
    keys.push_back(at + kGap[rng_.below(static_cast<int>(std::size(kGap)))] * eps);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    if (p.sets.size() > 1 && p.sets[1].keys == keys) p.sets.pop_back();
    const float key = keys[static_cast<std::size_t>(rng_.below(static_cast<int>(keys.size())))];
    p.def = std::clamp(key + kOff[rng_.below(static_cast<int>(std::size(kOff)))] * eps, p.min, p.max);
  }

  // Features::eps_exact: decimals 2, 4 or 5 (where the Core's epsilon powf(0.1f, d) is not
  // 10^-d rounded to float once: 1e-4f lies a hair inside it) and key 0 the first key of the
  // parameter's first key set, with the default where the two epsilons part: the Core's
  // epsilon below 0 (the Core: key 0; below key - epsilon with the other: outside), or the
  // once-rounded 10^-d above it when 0 is the minimum (the Core: key 0; the other: past the
  // snapping distance). A third-party model's default -0.001 beside its key 0 at 3 decimals
  // showed that the boundaries matter.
  void eps_exact(Param& p) {
    if (!(p.min <= 0.0f && 0.0f < p.max)) return;
    static constexpr std::uint32_t kParting[] = {2, 4, 5};
    p.decimals = kParting[rng_.below(3)];
    std::vector<float>& keys = p.sets[0].keys;
    std::erase_if(keys, [](float k) { return k < 0.0f; });
    if (std::find(keys.begin(), keys.end(), 0.0f) == keys.end()) keys.insert(keys.begin(), 0.0f);
    if (keys.size() < 2) keys.push_back(p.max);
    const float core = static_cast<float>(std::pow(static_cast<double>(0.1f), static_cast<double>(p.decimals)));
    p.def = p.min < 0.0f ? -core : kEpsilon[p.decimals];
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

  // One axis on the key set covering its parameter's whole range: the object is never hidden.
  Binding full_axis() { return {{rng_.below(normal_params_), 0}}; }

  // An opacity for one keyform: 1, or with chance [p_other] a value in [0.2, 1), or
  // (meshes) sometimes exactly 0, which makes the mesh invisible in the Core. With
  // opacity-over-one, a third of the keyforms are slightly to well above 1.
  float opacity(float p_other, bool zero) {
    const float roll = rng_.unit(), value = rng_.range(0.2f, 1.0f);
    if (f_.opacity_over_one) {
      static constexpr float kOver[] = {1.00005f, 1.0001f, 1.001f, 1.01f, 1.05f, 1.2f};
      const bool over = rng_.chance(0.35f);
      const float pick = rng_.chance(0.5f) ? kOver[rng_.below(6)] : rng_.range(1.00005f, 1.2f);
      if (over) return pick;
    }
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
      part_keyforms(p);
      m_.parts.push_back(std::move(p));
    }
    if (f_.offscreens) make_offscreen_parts();
  }

  // A part's binding and draw-order keyforms.
  void part_keyforms(Part& p) {
    p.binding = binding(1);
    const float base = static_cast<float>(rng_.between(1, 9) * 100);
    for (std::size_t k = 0; k < keyform_count(m_, p.binding); ++k) {
      const float delta = static_cast<float>(rng_.between(-3, 3) * 50);
      p.order.push_back(f_.draw_order ? std::clamp(base + delta, 0.0f, 1000.0f) : base);
    }
  }

  // Features::offscreens: a chain of parts under a random part (or the root): an offscreen
  // part, a plain part under it, an offscreen part under that and another directly under the
  // last; blend-sweep adds 18 offscreen parts, each under a random earlier part. Each gets a
  // mesh of its own (make_deformers), so that each owns something to draw.
  void make_offscreen_parts() {
    const int n = static_cast<int>(m_.parts.size());
    const int top = rng_.chance(0.5f) ? -1 : rng_.below(n);
    static constexpr bool kChain[] = {true, false, true, true};
    int parent = top;
    for (bool offscreen : kChain) {
      Part p;
      p.id = "Part" + std::to_string(m_.parts.size());
      p.parent = parent;
      p.force_offscreen = offscreen;
      part_keyforms(p);
      parent = static_cast<int>(m_.parts.size());
      offscreen_parts_.push_back(parent);
      m_.parts.push_back(std::move(p));
    }
    m_.notes.push_back("offscreen chain: part " + std::to_string(parent - 3) + " (offscreen) > " +
                       std::to_string(parent - 2) + " > " + std::to_string(parent - 1) + " (offscreen) > " +
                       std::to_string(parent) + " (offscreen), under part " + std::to_string(top));
    if (!f_.blend_sweep) return;
    for (int i = 0; i < 18; ++i) {
      Part p;
      p.id = "Part" + std::to_string(m_.parts.size());
      p.parent = rng_.chance(0.3f) ? -1 : rng_.below(static_cast<int>(m_.parts.size()));
      p.force_offscreen = true;
      part_keyforms(p);
      offscreen_parts_.push_back(static_cast<int>(m_.parts.size()));
      m_.parts.push_back(std::move(p));
    }
  }

  // A part that is enabled and visible up to the root, for the structures the features build
  // (a hidden one would leave nothing to compare); part 0 when there is none.
  int shown_part() const {
    for (std::size_t p = 0; p < m_.parts.size(); ++p) {
      bool shown = true;
      for (int q = static_cast<int>(p); q >= 0; q = m_.parts[static_cast<std::size_t>(q)].parent)
        shown &= m_.parts[static_cast<std::size_t>(q)].enabled && m_.parts[static_cast<std::size_t>(q)].visible;
      if (shown) return static_cast<int>(p);
    }
    return 0;
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

  // Appends a deformer of the given kind under [parent] and draws the rest of it (part,
  // binding unless [axes] is given, keyforms); returns its index.
  int add_deformer(bool warp, int parent, const Binding* axes) {
    const int i = static_cast<int>(m_.deformers.size());
    Deformer d;
    d.warp = warp;
    d.id = (d.warp ? "Warp" : "Rotation") + std::to_string(i);
    d.row = d.warp ? m_.warps++ : m_.rotations++;
    d.parent = parent;
    d.part = rng_.below(static_cast<int>(m_.parts.size()));
    const bool hidden = rng_.chance(0.2f);
    d.visible = !(hidden && f_.disabled);  // no effect in the Core
    d.binding = axes ? *axes : binding(2);
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
      if (f_.big_angles && rng_.chance(0.75f)) d.base_angle = big_angle();
      const float ox = s.cx + rng_.range(-0.5f, 0.5f) * s.half, oy = s.cy + rng_.range(-0.5f, 0.5f) * s.half;
      const bool flips = rng_.chance(0.5f);
      for (std::size_t k = 0; k < keyforms; ++k) {
        d.angle.push_back(f_.big_angles ? rng_.range(-45, 45) : rng_.range(-25, 25));
        d.x.push_back(ox + rng_.range(-0.1f, 0.1f) * s.half);
        d.y.push_back(oy + rng_.range(-0.1f, 0.1f) * s.half);
        d.scale.push_back(rng_.range(0.8f, 1.2f));
        const bool rx = rng_.chance(0.35f), ry = rng_.chance(0.35f);
        d.reflect_x.push_back(rx && flips && f_.reflect);
        d.reflect_y.push_back(ry && flips && f_.reflect);
      }
    }
    m_.deformers.push_back(std::move(d));
    return i;
  }

  float big_angle() {
    const float sign = rng_.chance(0.5f) ? 1.0f : -1.0f;
    return sign * snap(rng_.range(160, 179.9f), 0.1f);
  }

  void make_deformers() {
    const int n = rng_.between(1, 5);
    for (int i = 0; i < n; ++i) {
      const bool warp = !f_.rotations || rng_.chance(0.55f);
      // Parent: the root or an earlier deformer (rotations under warps only when allowed).
      std::vector<int> candidates;
      for (int j = 0; j < i; ++j)
        if (warp || f_.rot_under_warp || !m_.deformers[static_cast<std::size_t>(j)].warp) candidates.push_back(j);
      const bool nest = rng_.chance(0.65f);
      int parent = -1;
      if (nest && f_.nested_deformers && !candidates.empty())
        parent = candidates[static_cast<std::size_t>(rng_.below(static_cast<int>(candidates.size())))];
      add_deformer(warp, parent, nullptr);
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
    // The structures of the special features come after the hiding, so they stay shown.
    if (f_.tiny_scale) make_tiny_chain();
    if (f_.big_angles) make_angle_chain();
    if (f_.blend_everything && version_ >= 5) make_blend_structures();
    // A mesh of its own in each part Features::offscreens made, at the root or under a deformer.
    for (int owner : offscreen_parts_) {
      const bool root = rng_.chance(0.3f);
      const int under = rng_.below(static_cast<int>(m_.deformers.size()));
      extra_meshes_.push_back({root ? -1 : under, owner});
    }
  }

  // Features::tiny_scale. Rotations R1 (root) .. RD, a warp between two of them now and then,
  // each keyed on one parameter from scale lo (keyform 0, the parameter's minimum) to hi (the
  // last keyform): the cumulative scale under RD is the product of the D own scales, at most
  // 5e-10 with every parameter at its minimum and about 1e-7 at its maximum. RD's children
  // collapse onto RD's origin in float, so a rotation below it (the compensator, scaled back
  // up by ~1e8 to a visible size) gets its direction probe through RD back unchanged (the
  // probe fails: both points round to the same floats) or a few ulps off, depending on the
  // pose. R1 sits ~0.3 units from the model origin in both axes, where an ulp is ~3e-8.
  void make_tiny_chain() {
    const int depth = rng_.between(4, 8);
    // ~10^(-9.5 / depth): the own scale a level needs for the product to reach ~3e-10.
    static constexpr float kTypical[] = {0, 0, 0, 0, 4.2e-3f, 1.26e-2f, 2.6e-2f, 4.4e-2f, 6.5e-2f};
    const float lowest = rng_.range(1, 5) * 1e-10f, highest = rng_.range(0.6f, 2) * 1e-7f;
    const int part = shown_part();
    int parent = -1;
    float lo_product = 1, ratio_product = 1;
    std::string levels;
    for (int level = 0; level < depth; ++level) {
      if (level > 0 && rng_.chance(0.45f)) chain_.push_back(parent = chain_link(true, parent, part, levels));
      const int r = chain_link(false, parent, part, levels);
      Deformer& d = m_.deformers[static_cast<std::size_t>(r)];
      const bool last = level == depth - 1;
      const float lo = last ? lowest / lo_product : kTypical[depth] * rng_.range(0.6f, 1.6f);
      const float ratio = last ? highest / lowest / ratio_product : rng_.range(1.3f, 3.0f);
      lo_product *= lo;
      ratio_product *= ratio;
      set_scales(d, lo, lo * ratio);
      if (parent < 0) {
        const float sx = rng_.chance(0.5f) ? 1.0f : -1.0f, ox = sx * rng_.range(0.25f, 0.42f);
        const float sy = rng_.chance(0.5f) ? 1.0f : -1.0f, oy = sy * rng_.range(0.25f, 0.4f);
        for (std::size_t k = 0; k < d.x.size(); ++k) {
          d.x[k] = ox + rng_.range(-0.01f, 0.01f);
          d.y[k] = oy + rng_.range(-0.01f, 0.01f);
        }
      }
      chain_.push_back(r);
      parent = r;
    }
    // The compensator, under RD or under a warp below RD.
    if (rng_.chance(0.5f)) parent = chain_link(true, parent, part, levels);
    const int comp = chain_link(false, parent, part, levels);
    Deformer& c = m_.deformers[static_cast<std::size_t>(comp)];
    const float back = 0.3f / std::sqrt(lowest * highest);
    const float low = back * rng_.range(0.8f, 1.0f), high = back * rng_.range(1.0f, 1.25f);
    set_scales(c, low, high);
    char note[200];
    std::snprintf(note, sizeof note, "tiny-scale chain%s, scale product %.3g .. %.3g, then R%d (x %.3g)", levels.c_str(),
                  static_cast<double>(lowest), static_cast<double>(highest), comp, static_cast<double>(back));
    m_.notes.push_back(note);
    extra_meshes_.push_back({comp, part});
    extra_meshes_.push_back({comp, part});
    extra_meshes_.push_back({chain_[static_cast<std::size_t>(rng_.below(static_cast<int>(chain_.size())))], part});
  }

  // One link of a feature's chain: a deformer under [parent] in [part], keyed over a whole range
  // (never hidden); its name goes onto [levels] for the dump.
  int chain_link(bool warp, int parent, int part, std::string& levels) {
    const Binding axes = full_axis();
    const int i = add_deformer(warp, parent, &axes);
    m_.deformers[static_cast<std::size_t>(i)].part = part;
    levels += (warp ? " W" : " R") + std::to_string(i);
    return i;
  }

  // Keyform scales from [lo] (keyform 0) to [hi] (the last), geometric in between.
  static void set_scales(Deformer& d, float lo, float hi) {
    const std::size_t n = d.scale.size();
    for (std::size_t k = 0; k < n; ++k) d.scale[k] = k == 0 ? lo : k + 1 == n ? hi : std::sqrt(lo * hi);
  }

  // Features::big_angles: 2-4 nested rotations (sometimes a warp between two), every one on a
  // base angle near +-170 degrees, keyed over whole ranges (never hidden), with a mesh below
  // the last and some of the others.
  void make_angle_chain() {
    const int depth = rng_.between(2, 4), part = shown_part();
    int parent = -1;
    std::string levels;
    for (int level = 0; level < depth; ++level) {
      if (level > 0 && f_.rot_under_warp && rng_.chance(0.3f)) parent = chain_link(true, parent, part, levels);
      const int r = chain_link(false, parent, part, levels);
      m_.deformers[static_cast<std::size_t>(r)].base_angle = big_angle();
      if (level > 0 && rng_.chance(0.5f)) extra_meshes_.push_back({r, part});
      parent = r;
    }
    extra_meshes_.push_back({parent, part});
    m_.notes.push_back("big-angles chain" + levels);
  }

  // Features::blend_everything: a warp under a rotation and a rotation under a warp (enabled,
  // keyed over a whole range), each with a mesh, when the random tree has none.
  void make_blend_structures() {
    if (!f_.rotations) return;
    bool warp_under_rotation = false, rotation_under_warp = false;
    for (const Deformer& d : m_.deformers) {
      if (d.parent < 0) continue;
      const Deformer& parent = m_.deformers[static_cast<std::size_t>(d.parent)];
      const bool enabled = d.enabled && parent.enabled;  // a disabled pair shows nothing
      warp_under_rotation |= enabled && d.warp && !parent.warp;
      rotation_under_warp |= enabled && !d.warp && parent.warp;
    }
    const int part = shown_part();
    const Binding axes = full_axis();  // shown at every pose
    if (!warp_under_rotation) {
      const int r = add_deformer(false, -1, &axes), w = add_deformer(true, r, &axes);
      m_.deformers[static_cast<std::size_t>(r)].part = m_.deformers[static_cast<std::size_t>(w)].part = part;
      extra_meshes_.push_back({w, part});
      m_.notes.push_back("blend-everything: warp W" + std::to_string(w) + " under rotation R" + std::to_string(r));
    }
    if (!rotation_under_warp && f_.rot_under_warp) {
      const int w = add_deformer(true, -1, &axes), r = add_deformer(false, w, &axes);
      m_.deformers[static_cast<std::size_t>(r)].part = m_.deformers[static_cast<std::size_t>(w)].part = part;
      extra_meshes_.push_back({r, part});
      m_.notes.push_back("blend-everything: rotation R" + std::to_string(r) + " under warp W" + std::to_string(w));
    }
  }

  // A grid of (nx + 1) x (ny + 1) vertices, two triangles a cell, UVs on the grid.
  static void mesh_grid(Mesh& me, int nx, int ny) {
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
  }

  // Opacity and draw order of every keyform of a mesh.
  void mesh_keyforms(Mesh& me, std::size_t keyforms) {
    const float base = static_cast<float>(rng_.between(1, 9) * 100);
    const bool faded = rng_.chance(0.4f), moving = rng_.chance(0.5f);
    for (std::size_t k = 0; k < keyforms; ++k) {
      me.opacity.push_back(opacity(faded ? 0.6f : 0.0f, true));
      const float delta = static_cast<float>(rng_.between(-4, 4) * 50 + rng_.between(-2, 2));
      me.order.push_back(moving && f_.draw_order ? std::clamp(base + delta, 0.0f, 1000.0f) : base);
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
      const int nx = rng_.between(1, 3), ny = rng_.between(1, 3);
      mesh_grid(me, nx, ny);
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
      // A glue partner of the previous mesh: enabled exactly when it is (blend-everything wants
      // glue to put shapes on, so mesh 1 always is one there).
      const bool partner = rng_.chance(0.4f) || (f_.blend_everything && version_ >= 5 && i == 1);
      if (partner && i > 0 && f_.glue) {
        const Mesh& before = m_.meshes.back();
        me.part = before.part;
        me.parent = before.parent;
        me.enabled = before.enabled;
        me.binding = before.binding;
        glue_pairs_.push_back({i - 1, i});
      }
      const std::size_t keyforms = keyform_count(m_, me.binding);
      const bool warp = me.parent >= 0 && m_.deformers[static_cast<std::size_t>(me.parent)].warp;
      const bool outside = f_.outside && warp, far = f_.far_outside && warp && rng_.chance(0.7f);
      // far-outside: half-widths of 1-3.6 units of the warp's square reach its far field.
      me.positions = grid_keyforms(space_of(me.parent), nx, ny, keyforms, far ? 2.5f : 0.3f,
                                   far ? 9.0f : outside ? 1.6f : 0.6f);
      mesh_keyforms(me, keyforms);
      m_.meshes.push_back(std::move(me));
    }
    // The meshes of the special features' structures: plain, shown, keyed over whole ranges.
    for (const auto& [parent, part] : extra_meshes_) plain_mesh(parent, part, 2);
    // Features::blend_sweep: meshes up to 90, one for each (colour, alpha) blend pair.
    while (f_.blend_sweep && m_.meshes.size() < 90) {
      const bool root = rng_.chance(0.3f);
      const int deformer = rng_.below(static_cast<int>(m_.deformers.size()));
      plain_mesh(root ? -1 : deformer, rng_.below(static_cast<int>(m_.parts.size())), 1);
    }
  }

  // A plain mesh (double-sided, no mask) of up to [cells] x [cells] cells keyed over a whole range.
  void plain_mesh(int parent, int part, int cells) {
    Mesh me;
    me.id = "ArtMesh" + std::to_string(m_.meshes.size());
    me.parent = parent;
    me.part = part;
    me.flags = 4;
    const int nx = rng_.between(1, cells), ny = rng_.between(1, cells);
    mesh_grid(me, nx, ny);
    me.binding = full_axis();
    const std::size_t keyforms = keyform_count(m_, me.binding);
    me.positions = grid_keyforms(space_of(parent), nx, ny, keyforms, 0.3f, 0.6f);
    mesh_keyforms(me, keyforms);
    m_.meshes.push_back(std::move(me));
  }

  void make_glue() {
    int n = rng_.between(0, 2);
    if (!f_.glue && !f_.glue_stale) return;
    if (f_.blend_everything && version_ >= 5) n = std::max(n, 1);
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
    // Version 6: offscreens on some parts with meshes below (the Editor gives each a group).
    if (!f_.offscreens) return;
    for (std::size_t p = 0; p < m_.parts.size(); ++p) {
      Part& part = m_.parts[p];
      const bool chosen = rng_.chance(0.4f);
      part.offscreen = (chosen || part.force_offscreen) && subtree_meshes[p] > 0;
      part.owns_group |= part.offscreen;
    }
  }

  // Version 6: the offscreens of the parts that own one, in part order, with a keyform per
  // regular keyform of the owner part (opacity 1, white and black unless offscreen-keyforms),
  // double-sided or not, masks with offscreen-masks.
  void make_offscreens() {
    for (std::size_t p = 0; p < m_.parts.size(); ++p) {
      if (!m_.parts[p].offscreen) continue;
      Offscreen o;
      o.owner = static_cast<int>(p);
      if (rng_.chance(0.7f)) o.flags |= 4;
      const std::size_t keyforms = m_.parts[p].order.size();
      const bool faded = rng_.chance(0.6f);
      for (std::size_t k = 0; k < keyforms; ++k) {
        const float roll = rng_.unit(), value = rng_.range(0.1f, 1.0f);
        const bool other = f_.offscreen_keyforms && faded && roll < 0.7f;
        o.opacity.push_back(!other ? 1.0f : roll < 0.1f ? 0.0f : value);
      }
      fill_colors(o.colors, keyforms, f_.offscreen_keyforms);
      const bool masked = rng_.chance(0.5f), inverted = rng_.chance(0.5f);
      if (masked && f_.offscreen_masks) {
        // Meshes outside the owner's subtree.
        std::vector<int> outside;
        for (std::size_t i = 0; i < m_.meshes.size(); ++i) {
          bool under = false;
          for (int q = m_.meshes[i].part; q >= 0; q = m_.parts[static_cast<std::size_t>(q)].parent)
            under |= q == static_cast<int>(p);
          if (!under) outside.push_back(static_cast<int>(i));
        }
        const int count = rng_.between(1, 2);
        for (int k = 0; k < count && !outside.empty(); ++k) {
          const bool none = rng_.chance(0.1f);
          o.masks.push_back(none ? -1 : outside[static_cast<std::size_t>(rng_.below(static_cast<int>(outside.size())))]);
        }
        if (inverted && !o.masks.empty()) o.flags |= 8;
      }
      m_.offscreens.push_back(std::move(o));
    }
  }

  // Version 6 blend modes (colour | alpha << 8). Without blend-modes, AddCompatible or
  // MultiplyCompatible from a mesh's additive / multiplicative flag bits, Normal + Over for
  // the rest and for offscreens. With it, meshes deal (colour, alpha) pairs from a shuffled
  // deck of the 90 (their flag bits then say AddCompatible / MultiplyCompatible, as an older
  // Core would read them), offscreen k takes colour (c + k) mod 18 and alpha (a + k) mod 5.
  void make_blend_modes() {
    if (!f_.blend_modes) {
      for (Mesh& me : m_.meshes) me.blend = (me.flags & 1) ? 1 : (me.flags & 2) ? 2 : 0;
      return;
    }
    std::vector<int> deck(90);
    for (int i = 0; i < 90; ++i) deck[static_cast<std::size_t>(i)] = i;
    for (std::size_t i = deck.size(); i > 1; --i)
      std::swap(deck[i - 1], deck[static_cast<std::size_t>(rng_.below(static_cast<int>(i)))]);
    for (std::size_t i = 0; i < m_.meshes.size(); ++i) {
      Mesh& me = m_.meshes[i];
      const int pair = deck[i % deck.size()], colour = pair % 18, alpha = pair / 18;
      me.blend = colour | alpha << 8;
      me.flags = static_cast<std::uint8_t>((me.flags & ~3) | (colour == 1 ? 1 : colour == 2 ? 2 : 0));
    }
    const int colour = rng_.below(18), alpha = rng_.below(5);
    for (std::size_t k = 0; k < m_.offscreens.size(); ++k) {
      const int c = (colour + static_cast<int>(k)) % 18, a = (alpha + static_cast<int>(k)) % 5;
      m_.offscreens[k].blend = c | a << 8;
    }
  }

  // Version 4: a multiply and a screen colour for every regular keyform (white / black
  // when the object or the feature has none). color-overshoot takes most tinted objects
  // outside [0, 1] both ways.
  void fill_colors(Colors& c, std::size_t keyforms, bool on) {
    const bool tinted = rng_.chance(0.6f) && on;
    const bool wild = tinted && f_.color_overshoot && rng_.chance(0.75f);
    for (std::size_t k = 0; k < keyforms; ++k) {
      Rgb mul{rng_.range(0.3f, 1), rng_.range(0.3f, 1), rng_.range(0.3f, 1)};
      Rgb scr{rng_.range(0, 0.4f), rng_.range(0, 0.4f), rng_.range(0, 0.4f)};
      if (wild) {
        mul = {rng_.range(-0.6f, 2.2f), rng_.range(-0.6f, 2.2f), rng_.range(-0.6f, 2.2f)};
        scr = {rng_.range(-0.6f, 1.8f), rng_.range(-0.6f, 1.8f), rng_.range(-0.6f, 1.8f)};
      }
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

  enum class Kind { Warp, Mesh, Rotation, Part, Glue, Offscreen };

  // Version 5 deltas of one blend-shape key besides positions (see BlendShape). [tint]: the
  // target has colours to shift; [scale]: a rotation's own scale, which its delta is relative to.
  void v5_deltas(BlendShape& b, Kind kind, const Space& s, bool tint, float scale) {
    if (kind != Kind::Part && kind != Kind::Glue) {
      const bool fade = rng_.chance(0.4f);
      const float value = rng_.range(-0.7f, 0.3f);
      b.opacity.back() = fade ? value : 0.0f;
      const bool shift = tint && rng_.chance(f_.color_overshoot ? 0.7f : 0.4f);
      Rgb mul{0, 0, 0}, scr{0, 0, 0};
      if (shift && f_.color_overshoot)
        mul = {rng_.range(-1.5f, 1.5f), rng_.range(-1.5f, 1.5f), rng_.range(-1.5f, 1.5f)},
        scr = {rng_.range(-1.2f, 1.2f), rng_.range(-1.2f, 1.2f), rng_.range(-1.2f, 1.2f)};
      else if (shift)
        mul = {rng_.range(-0.5f, 0.3f), rng_.range(-0.5f, 0.3f), rng_.range(-0.5f, 0.3f)},
        scr = {rng_.range(-0.1f, 0.4f), rng_.range(-0.1f, 0.4f), rng_.range(-0.1f, 0.4f)};
      b.multiply.back() = mul;
      b.screen.back() = scr;
    }
    if (kind == Kind::Mesh) {
      const bool move = rng_.chance(0.3f);
      const float delta = static_cast<float>(rng_.between(-6, 6) * 50);
      b.order.back() = move && f_.draw_order ? delta : 0.0f;
    }
    if (kind == Kind::Part) {
      const int steps = rng_.between(1, 9);  // (two statements: the draws' order is fixed)
      b.order.back() = static_cast<float>(steps * (rng_.chance(0.5f) ? 100 : -100));
    }
    if (kind == Kind::Rotation) {
      b.angle.back() = rng_.range(-40, 40);
      b.x.back() = rng_.range(-0.15f, 0.15f) * s.half;
      b.y.back() = rng_.range(-0.15f, 0.15f) * s.half;
      const bool grow = rng_.chance(0.5f);
      b.scale.back() = grow ? scale * rng_.range(-0.3f, 0.3f) : 0.0f;
    }
    if (kind == Kind::Glue) b.intensity.back() = rng_.range(-0.8f, 0.8f);
  }

  // Version 4: blend shapes on some warps and meshes, one or two blend parameters each.
  // Version 5 adds opacity, colour and draw-order deltas and shapes on rotations, parts, glue.
  void make_blend_shapes() {
    std::vector<int> blends;
    for (int p = normal_params_; p < static_cast<int>(m_.params.size()); ++p) blends.push_back(p);
    if (blends.empty()) return;
    const bool v5 = version_ >= 5, everything = f_.blend_everything && v5;
    auto shapes_for = [&](const Space& s, int points, Kind kind, bool tint, float scale) {
      std::vector<BlendShape> out;
      const int several = everything ? rng_.between(2, 3) : rng_.between(1, 2);
      const int n = std::min(several, static_cast<int>(blends.size()));
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
          if (!v5) continue;
          for (auto* channel : {&b.angle, &b.x, &b.y, &b.scale, &b.intensity}) channel->push_back(0);
          b.multiply.push_back({0, 0, 0});
          b.screen.push_back({0, 0, 0});
          if (!base) v5_deltas(b, kind, s, tint, scale);
        }
        const bool limited = rng_.chance(0.4f) || (f_.constraint_extremes && rng_.chance(0.4f));
        int count = f_.constraint_extremes ? rng_.between(1, 3) : f_.multi_constraints ? rng_.between(1, 2) : 1;
        if (f_.constraint_extremes && !three_constraints_) count = 3;  // at least one shape has three
        if (limited && f_.constraints) {
          for (int c = 0; c < count; ++c) b.constraints.push_back(make_constraint());
          three_constraints_ |= count == 3;
        }
        out.push_back(std::move(b));
      }
      return out;
    };
    for (const Deformer& d : m_.deformers)
      if (d.warp && rng_.chance(everything ? 0.85f : 0.45f))
        m_.warp_shapes[d.row] =
            shapes_for(space_of(d.parent), (d.rows + 1) * (d.cols + 1), Kind::Warp, f_.deformer_colors, 1);
    for (std::size_t i = 0; i < m_.meshes.size(); ++i)
      if (rng_.chance(everything ? 0.75f : 0.55f))
        m_.mesh_shapes[static_cast<int>(i)] =
            shapes_for(space_of(m_.meshes[i].parent), m_.meshes[i].vertices, Kind::Mesh, f_.colors, 1);
    if (!v5) return;
    for (const Deformer& d : m_.deformers)
      if (!d.warp && rng_.chance(everything ? 0.85f : 0.3f))
        m_.rotation_shapes[d.row] = shapes_for(space_of(d.parent), 0, Kind::Rotation, f_.deformer_colors, d.scale[0]);
    for (std::size_t p = 0; p < m_.parts.size(); ++p) {
      const bool owns = m_.parts[p].owns_group;
      if (rng_.chance(everything ? (owns ? 1.0f : 0.5f) : (owns ? 0.4f : 0.15f)))
        m_.part_shapes[static_cast<int>(p)] = shapes_for({}, 0, Kind::Part, false, 1);
    }
    for (std::size_t g = 0; g < m_.glues.size(); ++g)
      if (rng_.chance(everything ? 1.0f : 0.4f))
        m_.glue_shapes[static_cast<int>(g)] = shapes_for({}, 0, Kind::Glue, false, 1);
    if (!f_.offscreen_shapes) return;
    for (std::size_t o = 0; o < m_.offscreens.size(); ++o)
      if (rng_.chance(everything ? 1.0f : 0.6f))
        m_.offscreen_shapes[static_cast<int>(o)] = shapes_for({}, 0, Kind::Offscreen, true, 1);
  }

  // A weight limit on a normal parameter: 1-3 (value, weight) pairs, values ascending.
  // constraint-extremes makes half of the weights ones outside [0, 1] (the Core takes the
  // minimum of 1 and every constraint's weight, so 1.5 acts as 1 and -0.3 turns the shape over).
  int make_constraint() {
    static constexpr float kExtreme[] = {1.5f, -0.3f, 1.25f, -1.0f, 2.0f, -0.05f};
    Constraint c;
    c.param = rng_.below(normal_params_);
    const Param& p = m_.params[static_cast<std::size_t>(c.param)];
    const int pairs = rng_.between(1, 3);
    std::vector<float> values;
    for (int k = 0; k < pairs; ++k) values.push_back(snap(rng_.range(p.min, p.max), (p.max - p.min) / 64));
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (float v : values) {
      float weight = snap(rng_.unit(), 1.0f / 32);
      if (f_.constraint_extremes && rng_.chance(0.5f)) weight = kExtreme[rng_.below(6)];
      c.values.push_back({v, weight});
    }
    m_.constraints.push_back(std::move(c));
    return static_cast<int>(m_.constraints.size()) - 1;
  }

  Rng rng_;
  int version_;
  Features f_;
  Model m_;
  int normal_params_ = 0;
  std::vector<std::pair<int, int>> glue_pairs_;    // meshes enabled together (see make_meshes)
  std::vector<std::pair<int, int>> extra_meshes_;  // (deformer, part) of the features' meshes
  std::vector<int> chain_;                         // the tiny-scale chain's deformers
  std::vector<int> offscreen_parts_;               // the parts Features::offscreens made
  bool three_constraints_ = false;
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
    if (version_ >= 6) offscreens();  // colour and mask entries first, as the Editor writes them
    deformers();
    meshes();
    draw_order_groups();
    glue();
    if (version_ >= 4) blend_shapes();
    parameters();  // after the blend shapes: parameters own ranges of their bindings
    keyforms();    // complete once the blend shapes have appended theirs
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
    canvas.pixels_per_unit = m_.pixels_per_unit;
    canvas.width = 1.2f * m_.pixels_per_unit;
    canvas.height = m_.pixels_per_unit;
    canvas.origin_x = 0.6f * m_.pixels_per_unit;
    canvas.origin_y = 0.5f * m_.pixels_per_unit;
    if (m_.pixels_per_unit == 1) canvas.width = canvas.height = 5000, canvas.origin_x = canvas.origin_y = 0;
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
           n(kBlendShapesArtMeshes) +
           (version_ >= 5 ? "+" + n(kBlendShapesRotations) + "+" + n(kBlendShapesParts) + "+" + n(kBlendShapesGlue)
                          : std::string()) +
           (version_ >= 6 ? "+" + n(kBlendShapesOffscreens) : std::string()) + " blend-shape targets" +
           (version_ >= 6   ? " (warps+meshes+rotations+parts+glue+offscreens)"
            : version_ >= 5 ? " (warps+meshes+rotations+parts+glue)"
                            : "") +
           ", " + n(kBlendShapeConstraints) + " constraints";
    if (version_ >= 6) s += ", " + n(kOffscreens) + " offscreens (" + n(kOffscreenKeyforms) + " keyforms)";
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
    for (const Part& p : m_.parts) {
      ids.push_back(p.id);
      binding.push_back(keyform_binding(p.binding));
      first.push_back(static_cast<std::int32_t>(part_order_.size()));
      count.push_back(static_cast<std::int32_t>(p.order.size()));
      append(part_order_, p.order);
      // Version 6: each regular keyform's offscreen keyform (the offscreens' keyforms are laid
      // out in part order, one per keyform of the owner), -1 without an offscreen.
      for (std::size_t k = 0; k < p.order.size(); ++k)
        part_offscreen_keyform_.push_back(p.offscreen ? static_cast<std::int32_t>(offscreen_keyforms_++) : -1);
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
    if (version_ >= 6) {
      std::vector<std::int32_t> offscreen(m_.parts.size(), -1);
      for (std::size_t o = 0; o < m_.offscreens.size(); ++o)
        offscreen[static_cast<std::size_t>(m_.offscreens[o].owner)] = static_cast<std::int32_t>(o);
      w_.i32(152, offscreen);
    }
  }

  // Version 6: the offscreen table and the offscreens' regular keyforms (their colour entries
  // the first of the colour arrays, their masks the first of the mask array; blend-shape
  // keyforms follow later).
  void offscreens() {
    std::vector<std::int32_t> owner, blend, first_mask, mask_count, first_colors;
    std::vector<std::uint8_t> flags;
    for (const Offscreen& o : m_.offscreens) {
      owner.push_back(o.owner);
      flags.push_back(o.flags);
      blend.push_back(o.blend);
      first_mask.push_back(static_cast<std::int32_t>(masks_.size()));
      mask_count.push_back(static_cast<std::int32_t>(o.masks.size()));
      append(masks_, o.masks);
      append(offscreen_.opacity, o.opacity);
      add_colors(o.colors, first_colors, offscreen_.colors);
    }
    w_.count(kOffscreens, m_.offscreens.size());
    w_.i32(155, owner);
    w_.u8(156, flags);
    w_.i32(157, blend);
    w_.i32(158, first_mask);
    w_.i32(159, mask_count);
  }

  // One colour entry (a multiply and a screen colour); returns its index.
  std::int32_t add_color(const Rgb& multiply, const Rgb& screen) {
    const auto entry = static_cast<std::int32_t>(multiply_[0].size());
    multiply_[0].push_back(multiply.r), multiply_[1].push_back(multiply.g), multiply_[2].push_back(multiply.b);
    screen_[0].push_back(screen.r), screen_[1].push_back(screen.g), screen_[2].push_back(screen.b);
    return entry;
  }

  // The entries of an object's regular keyforms, consecutive: version 4 names the first one
  // per object ([first]); version 5 also each keyform's multiply and screen entry ([entries],
  // the same index for both, as the Editor writes).
  void add_colors(const Colors& c, std::vector<std::int32_t>& first, std::vector<std::int32_t>& entries) {
    first.push_back(static_cast<std::int32_t>(multiply_[0].size()));
    for (std::size_t k = 0; k < c.multiply.size(); ++k) entries.push_back(add_color(c.multiply[k], c.screen[k]));
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
        w_first.push_back(static_cast<std::int32_t>(warp_.opacity.size()));
        w_count.push_back(static_cast<std::int32_t>(d.points.size()));
        w_points.push_back((d.rows + 1) * (d.cols + 1));
        w_rows.push_back(static_cast<std::uint32_t>(d.rows));
        w_cols.push_back(static_cast<std::uint32_t>(d.cols));
        w_quad.push_back(d.quad);
        for (std::size_t k = 0; k < d.points.size(); ++k) {
          warp_.opacity.push_back(d.opacity[k]);
          warp_.positions.push_back(add_positions(d.points[k]));
        }
        add_colors(d.colors, w_colors, warp_.colors);
      } else {
        r_binding.push_back(b);
        r_first.push_back(static_cast<std::int32_t>(rotation_.opacity.size()));
        r_count.push_back(static_cast<std::int32_t>(d.angle.size()));
        r_base.push_back(d.base_angle);
        append(rotation_.opacity, d.opacity);
        append(rotation_.angle, d.angle);
        append(rotation_.x, d.x);
        append(rotation_.y, d.y);
        append(rotation_.scale, d.scale);
        for (std::size_t k = 0; k < d.angle.size(); ++k) {
          rotation_.reflect_x.push_back(d.reflect_x[k]);
          rotation_.reflect_y.push_back(d.reflect_y[k]);
        }
      }
    }
    // Rotation colours after every warp's (entries: warps, rotations, meshes).
    for (const Deformer& d : m_.deformers)
      if (!d.warp) add_colors(d.colors, r_colors, rotation_.colors);
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
    if (version_ >= 4) {
      w_.i32(105, w_colors);
      w_.i32(106, r_colors);
    }
  }

  void meshes() {
    std::vector<std::string> ids;
    std::vector<std::int32_t> binding, first, count, parent_part, parent, vertices, first_uv, first_index, index_count,
        first_mask, mask_count, colors, blend;
    std::vector<std::int32_t>& masks = masks_;
    std::vector<std::uint32_t> texture;
    std::vector<std::uint8_t> flags;
    std::vector<bool> visible, enabled;
    std::vector<float> uvs;
    std::vector<std::uint16_t> indices;
    for (const Mesh& me : m_.meshes) {
      ids.push_back(me.id);
      binding.push_back(keyform_binding(me.binding));
      first.push_back(static_cast<std::int32_t>(mesh_.opacity.size()));
      count.push_back(static_cast<std::int32_t>(me.positions.size()));
      visible.push_back(me.visible);
      enabled.push_back(me.enabled);
      parent_part.push_back(me.part);
      parent.push_back(me.parent);
      texture.push_back(me.texture);
      flags.push_back(me.flags);
      blend.push_back(me.blend);
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
        mesh_.opacity.push_back(me.opacity[k]);
        mesh_.order.push_back(me.order[k]);
        mesh_.positions.push_back(add_positions(me.positions[k]));
      }
    }
    for (const Mesh& me : m_.meshes) add_colors(me.colors, colors, mesh_.colors);
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
    if (version_ >= 6) w_.i32(153, blend);
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
    // Meshes in each group's subtree: children come later, so sum backwards. In version 6 an
    // offscreen takes a place too (the first of its owner part's block).
    std::vector<std::int32_t> total(static_cast<std::size_t>(groups), 0);
    for (int g = groups - 1; g >= 0; --g)
      for (const Object& o : objects[static_cast<std::size_t>(g)])
        total[static_cast<std::size_t>(g)] +=
            o.type == 0 ? 1
                        : total[static_cast<std::size_t>(o.self)] +
                              (m_.parts[static_cast<std::size_t>(o.index)].offscreen ? 1 : 0);
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
        const auto& shapes = o.type == 0 ? m_.mesh_shapes : m_.part_shapes;
        const auto found = shapes.find(o.index);
        if (version_ >= 5 && found != shapes.end()) {
          const float reach = blend_reach(found->second);
          lo = std::max(0.0f, std::min(lo, *std::min_element(orders.begin(), orders.end()) - reach));
          hi = std::min(1000.0f, std::max(hi, *std::max_element(orders.begin(), orders.end()) + reach));
        }
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

  // How far an object's blend shapes can move its draw order (each shape's largest delta times
  // its largest weight), so that the group's range holds every value: Core 5.1 computes render
  // orders that are no permutation (two meshes on one index, for many updates after) once a
  // blend shape takes a draw order outside its group's [minimum, maximum].
  float blend_reach(const std::vector<BlendShape>& list) const {
    float reach = 0;
    for (const BlendShape& b : list) {
      float delta = 0, weight = 1;
      for (float v : b.order) delta = std::max(delta, std::fabs(v));
      for (int c : b.constraints)
        for (const auto& value : m_.constraints[static_cast<std::size_t>(c)].values)
          weight = std::max(weight, std::fabs(value.second));
      reach += delta * weight;
    }
    return reach;
  }

  void glue() {
    std::vector<std::string> ids;
    std::vector<std::int32_t> binding, first, count, a, b, first_info, info_count;
    std::vector<float> weights;
    std::vector<std::uint16_t> vertex;
    for (const Glue& g : m_.glues) {
      ids.push_back(g.id);
      binding.push_back(keyform_binding(g.binding));
      first.push_back(static_cast<std::int32_t>(glue_intensity_.size()));
      count.push_back(static_cast<std::int32_t>(g.intensity.size()));
      append(glue_intensity_, g.intensity);
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
  }

  // Blend shapes: blend-shape parameter bindings (one per blend parameter, keys after the
  // regular ones), keyform bindings, the delta keyforms appended after every regular keyform
  // of their kind (version 5: each warp, mesh and rotation delta keyform with a colour entry
  // of its own after every regular keyform's), constraints.
  void blend_shapes() {
    const bool v5 = version_ >= 5;
    const std::map<int, std::vector<BlendShape>>* kinds[] = {&m_.warp_shapes,     &m_.mesh_shapes,
                                                              &m_.part_shapes,     &m_.rotation_shapes,
                                                              &m_.glue_shapes,     &m_.offscreen_shapes};
    std::vector<std::int32_t> pb_first, pb_count, pb_base;
    bs_pb_first_.assign(m_.params.size(), 0);
    bs_pb_count_.assign(m_.params.size(), 0);
    std::vector<std::int32_t> pb_of(m_.params.size(), -1);
    for (std::size_t p = 0; p < m_.params.size(); ++p) {
      bs_pb_first_[p] = static_cast<std::int32_t>(pb_first.size());
      if (!m_.params[p].blend) continue;
      bool used = false;
      for (const auto* shapes : kinds)
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
    // One target kind: its (target, first keyform binding, count) table at [slot], the keyform
    // bindings, and through [keyform] each key's delta keyform, which returns its index in the
    // kind's keyform arrays.
    auto targets = [&](const std::map<int, std::vector<BlendShape>>& shapes, Count entry, int slot,
                       const auto& keyform) {
      std::vector<std::int32_t> target, first, count;
      for (const auto& [object, list] : shapes) {
        target.push_back(object);
        first.push_back(static_cast<std::int32_t>(kb_pb.size()));
        count.push_back(static_cast<std::int32_t>(list.size()));
        for (const BlendShape& s : list) {
          kb_pb.push_back(pb_of[static_cast<std::size_t>(s.param)]);
          kb_count.push_back(static_cast<std::int32_t>(s.deltas.size()));
          kb_cfirst.push_back(static_cast<std::int32_t>(cindex.size()));
          kb_ccount.push_back(static_cast<std::int32_t>(s.constraints.size()));
          append(cindex, s.constraints);
          for (std::size_t k = 0; k < s.deltas.size(); ++k) {
            const auto index = static_cast<std::int32_t>(keyform(s, k));
            if (k == 0) kb_first.push_back(index);
          }
        }
      }
      w_.count(entry, target.size());
      w_.i32(slot, target);
      w_.i32(slot + 1, first);
      w_.i32(slot + 2, count);
    };
    auto color = [&](const BlendShape& s, std::size_t k, KeyformArrays& kind) {
      if (v5) kind.colors.push_back(add_color(s.multiply[k], s.screen[k]));
    };
    targets(m_.warp_shapes, kBlendShapesWarps, 125, [&](const BlendShape& s, std::size_t k) {
      const std::size_t index = warp_.opacity.size();
      warp_.opacity.push_back(s.opacity[k]);
      warp_.positions.push_back(add_positions(s.deltas[k]));
      color(s, k, warp_);
      return index;
    });
    targets(m_.mesh_shapes, kBlendShapesArtMeshes, 128, [&](const BlendShape& s, std::size_t k) {
      const std::size_t index = mesh_.opacity.size();
      mesh_.opacity.push_back(s.opacity[k]);
      mesh_.order.push_back(s.order[k]);
      mesh_.positions.push_back(add_positions(s.deltas[k]));
      color(s, k, mesh_);
      return index;
    });
    if (v5) {
      targets(m_.part_shapes, kBlendShapesParts, 143, [&](const BlendShape& s, std::size_t k) {
        part_order_.push_back(s.order[k]);
        part_offscreen_keyform_.push_back(-1);  // version 6: no offscreen keyform of its own
        return part_order_.size() - 1;
      });
      targets(m_.rotation_shapes, kBlendShapesRotations, 146, [&](const BlendShape& s, std::size_t k) {
        const std::size_t index = rotation_.opacity.size();
        rotation_.opacity.push_back(s.opacity[k]);
        rotation_.angle.push_back(s.angle[k]);
        rotation_.x.push_back(s.x[k]);
        rotation_.y.push_back(s.y[k]);
        rotation_.scale.push_back(s.scale[k]);
        rotation_.reflect_x.push_back(false);
        rotation_.reflect_y.push_back(false);
        color(s, k, rotation_);
        return index;
      });
      targets(m_.glue_shapes, kBlendShapesGlue, 149, [&](const BlendShape& s, std::size_t k) {
        glue_intensity_.push_back(s.intensity[k]);
        return glue_intensity_.size() - 1;
      });
    }
    if (version_ >= 6)
      targets(m_.offscreen_shapes, kBlendShapesOffscreens, 164, [&](const BlendShape& s, std::size_t k) {
        const std::size_t index = offscreen_.opacity.size();
        offscreen_.opacity.push_back(s.opacity[k]);
        color(s, k, offscreen_);
        return index;
      });
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

  // Parameters last but for the keyforms: their binding ranges and (version 4) key lists
  // need everything else.
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
      decimals.push_back(q.decimals);
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
    }
  }

  // The keyform arrays of every kind and the colour entries, complete once the blend shapes
  // have appended their keyforms.
  void keyforms() {
    w_.count(kPartKeyforms, part_order_.size());
    w_.f32(58, part_order_);
    w_.count(kWarpKeyforms, warp_.opacity.size());
    w_.f32(59, warp_.opacity);
    w_.i32(60, warp_.positions);
    w_.count(kRotationKeyforms, rotation_.opacity.size());
    w_.f32(61, rotation_.opacity);
    w_.f32(62, rotation_.angle);
    w_.f32(63, rotation_.x);
    w_.f32(64, rotation_.y);
    w_.f32(65, rotation_.scale);
    w_.bool32(66, rotation_.reflect_x);
    w_.bool32(67, rotation_.reflect_y);
    w_.count(kArtMeshKeyforms, mesh_.opacity.size());
    w_.f32(68, mesh_.opacity);
    w_.f32(69, mesh_.order);
    w_.i32(70, mesh_.positions);
    w_.count(kGlueKeyforms, glue_intensity_.size());
    w_.f32(100, glue_intensity_);
    if (version_ >= 4) {
      w_.count(kMultiplyColors, multiply_[0].size());
      w_.count(kScreenColors, screen_[0].size());
      for (int c = 0; c < 3; ++c) {
        w_.f32(108 + c, multiply_[static_cast<std::size_t>(c)]);
        w_.f32(111 + c, screen_[static_cast<std::size_t>(c)]);
      }
    }
    if (version_ >= 5) {
      int slot = 137;  // multiply then screen entry, for warp, rotation and art-mesh keyforms
      for (const KeyformArrays* kind : {&warp_, &rotation_, &mesh_}) {
        w_.i32(slot++, kind->colors);
        w_.i32(slot++, kind->colors);
      }
    }
    if (version_ >= 6) {
      w_.i32(160, part_offscreen_keyform_);
      w_.count(kOffscreenKeyforms, offscreen_.opacity.size());
      w_.f32(161, offscreen_.opacity);
      w_.i32(162, offscreen_.colors);
      w_.i32(163, offscreen_.colors);
    }
  }

  // The keyform arrays of one kind, filled by its section and by the blend shapes.
  struct KeyformArrays {
    std::vector<float> opacity, order, angle, x, y, scale;
    std::vector<bool> reflect_x, reflect_y;
    std::vector<std::int32_t> positions;
    std::vector<std::int32_t> colors;  // version 5: each keyform's colour entry
  };

  const Model& m_;
  int version_;
  Rng& rng_;
  Writer w_;
  std::vector<float> keys_, positions_;
  std::vector<std::int32_t> binding_indices_, kfb_first_, kfb_count_, pb_first_, pb_count_;
  std::map<std::vector<std::int32_t>, std::int32_t> kfb_index_;
  std::vector<std::vector<std::int32_t>> pb_of_;  // [param][key set] -> parameter binding
  std::vector<std::int32_t> param_pb_first_, param_pb_count_, bs_pb_first_, bs_pb_count_;
  KeyformArrays warp_, rotation_, mesh_, offscreen_;
  std::vector<float> part_order_, glue_intensity_;
  std::vector<std::int32_t> masks_;                   // the drawable-mask array (offscreens' first)
  std::vector<std::int32_t> part_offscreen_keyform_;  // version 6: slot 160, one per part keyform
  std::size_t offscreen_keyforms_ = 0;
  std::vector<float> multiply_[3], screen_[3];
};


// ---------------------------------------------------------------------------------------
// A readable description (p2l_make_moc3 --dump), to narrow a failure down by hand.

std::string describe(const Model& m) {
  std::string s;
  auto num = [](float v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.7g", static_cast<double>(v));
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
  for (const Param& p : m.params) {
    s += "param " + p.id + " [" + num(p.min) + ", " + num(p.max) + "] default " + num(p.def) +
         (p.repeat ? " repeat" : "") + (p.blend ? " blend" : "") +
         (p.decimals != 3 ? " decimals " + std::to_string(p.decimals) : "") + " keys";
    for (const KeySet& k : p.sets) s += " " + list(k.keys);
    s += "\n";
  }
  for (std::size_t i = 0; i < m.parts.size(); ++i) {
    const Part& p = m.parts[i];
    s += "part " + std::to_string(i) + " parent " + std::to_string(p.parent) + (p.enabled ? "" : " DISABLED") +
 (p.visible ? "" : " INVISIBLE") + (p.owns_group ? " group" : "") + (p.offscreen ? " offscreen" : "") + " keys " + axes(p.binding) + " order " +
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
      s += " base " + num(d.base_angle) + " angle " + list(d.angle) + " scale " + list(d.scale) +
           (std::count(d.reflect_x.begin(), d.reflect_x.end(), true) ? " reflect-x" : "") +
           (std::count(d.reflect_y.begin(), d.reflect_y.end(), true) ? " reflect-y" : "");
    s += "\n";
  }
  for (std::size_t i = 0; i < m.meshes.size(); ++i) {
    const Mesh& me = m.meshes[i];
    s += "mesh " + std::to_string(i) + " parent " + std::to_string(me.parent) + " part " + std::to_string(me.part) +
         (me.enabled ? "" : " DISABLED") + (me.visible ? "" : " invisible") + " flags " + std::to_string(me.flags) +
         " vertices " + std::to_string(me.vertices) + " keys " + axes(me.binding) + " opacity " + list(me.opacity) +
         " order " + list(me.order);
    if (me.blend != 0) s += " blend " + std::to_string(me.blend & 0xff) + "/" + std::to_string(me.blend >> 8);
    if (!me.masks.empty()) {
      s += " masks";
      for (std::int32_t k : me.masks) s += " " + std::to_string(k);
    }
    s += "\n";
  }
  for (std::size_t i = 0; i < m.offscreens.size(); ++i) {
    const Offscreen& o = m.offscreens[i];
    s += "offscreen " + std::to_string(i) + " owner part " + std::to_string(o.owner) + " flags " +
         std::to_string(o.flags) + " blend " + std::to_string(o.blend & 0xff) + "/" + std::to_string(o.blend >> 8) +
         " opacity " + list(o.opacity);
    if (!o.masks.empty()) {
      s += " masks";
      for (std::int32_t k : o.masks) s += " " + std::to_string(k);
    }
    s += "\n";
  }
  for (const Glue& g : m.glues)
    s += "glue " + g.id + " meshes " + std::to_string(g.a) + "-" + std::to_string(g.b) + " pairs " +
         std::to_string(g.pairs.size()) + " keys " + axes(g.binding) + " intensity " + list(g.intensity) + "\n";
  const std::pair<const std::map<int, std::vector<BlendShape>>*, const char*> kinds[] = {
      {&m.warp_shapes, "warp "},
      {&m.mesh_shapes, "mesh "},
      {&m.rotation_shapes, "rotation "},
      {&m.part_shapes, "part "},
      {&m.glue_shapes, "glue "},
      {&m.offscreen_shapes, "offscreen "}};
  for (const auto& [shapes, kind] : kinds)
    for (const auto& [target, list_] : *shapes)
      for (const BlendShape& b : list_) {
        s += std::string("blend shape on ") + kind + std::to_string(target) + ": " +
             m.params[static_cast<std::size_t>(b.param)].id + ", " + std::to_string(b.constraints.size()) +
             " constraints";
        if (shapes == &m.part_shapes) s += ", order deltas " + list(b.order);
        if (shapes == &m.mesh_shapes && !b.multiply.empty()) s += ", order deltas " + list(b.order);
        if (shapes == &m.glue_shapes) s += ", intensity deltas " + list(b.intensity);
        if (shapes == &m.rotation_shapes) s += ", angle deltas " + list(b.angle) + ", scale deltas " + list(b.scale);
        if (!b.opacity.empty() && shapes != &m.part_shapes && shapes != &m.glue_shapes)
          s += ", opacity deltas " + list(b.opacity);
        for (int c : b.constraints) {
          const Constraint& limit = m.constraints[static_cast<std::size_t>(c)];
          s += " {" + m.params[static_cast<std::size_t>(limit.param)].id;
          for (const auto& [value, weight] : limit.values) s += " " + num(value) + ":" + num(weight);
          s += "}";
        }
        s += "\n";
      }
  for (const std::string& note : m.notes) s += note + "\n";
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
    eps_exact = false;  // see Features::eps_exact
    unsorted_keys = false;  // see Features::unsorted_keys
    pixel_scale = false;    // see Features::pixel_scale
    blend_sweep = false;  // see Features::blend_sweep
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
  if (version < 1 || version > 6) {
    out.error = "versions 1-6 only";
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
