// A seeded random-rig generator for conformance, fuzz seeds, benchmarks and cross-platform
// (WASM) comparisons: make_random_rig(seed) always returns a rig that p2l::validate()
// accepts, small enough to evaluate hundreds of times under AddressSanitizer.
//
// The same seed gives the same rig on every platform and standard library: the generator
// uses its own PRNG (splitmix64) and integer arithmetic only, never <random>'s
// distributions (whose output differs between libraries). Every float it makes is a
// dyadic rational k / 2^s with |k| < 2^24, so it is exact as a float and computed without
// rounding; the one rounding operation used (adding two such values) is a single IEEE
// addition, which no compiler may contract or reorder.
//
// What a rig holds (each within RandomRigOptions' bounds):
//  - parameters: ranges such as [-30,30], [0,1], [-180,180], some repeat, some blend-shape
//    parameters (blend = true); defaults inside the range.
//  - deformers: warps (1..4 x 1..4 lattices, random bilinear) and rotations (base angle,
//    pivot grids), each parented to -1 or any earlier deformer, so every nesting
//    (warp/rotation under warp/rotation) occurs. Forms are in the parent's space: canvas
//    pixels at the root, the parent warp's unit square (sometimes a little outside it, to
//    reach the extension ring), local pixels around 0 under a rotation. Rotation scales
//    0.5..1.5, sometimes negative, angles -45..45.
//  - keyform grids with 0..3 axes on distinct non-blend parameters, 1..3 keys an axis
//    (sometimes not spanning the range), dense or sparse, cells in any order.
//  - blend-shape bindings (lattice, pivot, mesh, part) on blend parameters, with neutral
//    keys, keys without a shape and limits on other parameters.
//  - channels: DrawOrder/Opacity (scalar), MultiplyColor/ScreenColor (colour), FlipX/FlipY
//    (flag, on rotations), GlueIntensity (on glue); each type at most once an object.
//  - meshes: 3..12 vertices in their parent's space (rarely none: no geometry), UVs in
//    [0,1], valid triangles, keyform deltas (some cells empty), masks, culling, blend modes
//    0..17, alpha blends 0..4, draw order, opacity, colours, texture page -1.
//  - glue between two distinct meshes with geometry.
//  - parts: a forest (each part and each mesh under at most one part), group modes 0..2,
//    composites with masks that avoid the part's own subtree and ancestors, channels and
//    shapes.
//  - the draw tree: the root plus a group for some parts, nested as the parts nest, with
//    draw orders, channels and optional composites, written in pre-order (the order a
//    load gives back); every mesh appears in it exactly once.
//  - with `motion`: clips (every segment kind), roles and pendulum physics (X and angle
//    sources): core chunks that version 1 keeps.
//  - with `non_core`: what version 1 drops (META, PGUI, EXPR, HITA, UDAT, POSE, CEXT, HAIR and
//    vertical physics sources).
//  - with `extensions`: the advanced-mode chunks, each present or absent on its own (so
//    every combination occurs over seeds), with the common header the specification
//    expects (feature bit, hooks, the lists below); version 1 drops them.
//    BONE: 0..3 virtual bones (rotations under a DEFM deformer or an earlier virtual bone,
//    pivot grids on 0..2 axes, some made for arcs), 0..3 attachable bones, 0..2 arcs on
//    rotations keyed on the arc's parameter alone: made ones have 3..5 keys on a circle
//    about the arc's centre (rounded to the space's ticks, pivot angle turning with the
//    position, each step under half a turn), others are DEFM or virtual rotations that
//    happen to have one axis; header deformers = the DEFM deformers with an arc.
//    SKIN: 0..2 skins on meshes hanging from a DEFM rotation (no such mesh: no SKIN), the
//    home plus 0..3 other rotations (virtual bones too, then depends_on BONE), 1..3 axes
//    of 2..4 keys, weights given per vertex or left to the runtime to fit; header meshes
//    = each skin's mesh and axis parameters.
//    COLL: 0..3 circles or capsules following two vertices of a mesh, a deformer (virtual
//    bones too) with points in its space, or fixed canvas points; depends_on SIMS.
//    SIMS: 0..2 simulations over 1..2 meshes with geometry (at most 24 particles; no such
//    mesh: no SIMS), per-particle masses (some 0), pins (some >= 0.999), anchors (itself
//    or a mesh vertex), stretch along the targets' triangle edges, their triangles, bends
//    between triangles sharing an edge, welds, long-range attachments, compliances that
//    are sometimes negative (absent), held parameters, skipped physics groups, static
//    corrections per target and key, COLL colliders; header = the union of the held
//    parameters and skipped groups.
//    The extensions only refer to the rest of the rig and add nothing to it.
// Not generated yet: texture pages, kept unknown chunks, stripped names.
//
// Separate streams (derived from the seed) feed the core content, `motion`, `non_core`
// and `extensions`, so turning those three on or off leaves the rest of the rig unchanged
// (the extensions come last and read what the others made, so their own content depends
// on `motion` and `non_core`: skipped physics groups name PHYS groups).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l_test {

struct RandomRigOptions {
  int max_parameters = 6;  // 1..max parameters
  int max_deformers = 6;   // 0..max deformers
  int max_meshes = 8;      // 1..max meshes
  int max_vertices = 12;   // 3..max vertices a mesh (at least 3)
  int max_parts = 4;       // 1..max parts
  int max_axes = 3;        // 0..max axes a keyform grid
  int max_keys = 3;        // 1..max keys an axis or a binding
  bool blend_shapes = true;
  bool channels = true;
  bool glue = true;
  bool masks = true;
  bool motion = true;     // clips, roles, physics (X and angle sources): core, version 1 keeps them
  bool non_core = false;  // META PGUI EXPR HITA UDAT POSE CEXT HAIR and Y physics sources: version 1 drops them
  bool extensions = false;  // BONE SKIN COLL SIMS (advanced mode): version 1 drops them
};

// splitmix64 (Steele, Lea, Flood 2014): tiny, fast, every seed good, the same everywhere.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// Integers, choices and exact dyadic floats from a SplitMix64 stream.
class RigRandom {
 public:
  explicit RigRandom(std::uint64_t seed) : bits_(seed) {}
  std::uint64_t bits() { return bits_.next(); }
  // Uniform in [0, n) (n > 0); the tiny modulo bias does not matter here.
  std::uint32_t below(std::uint64_t n) { return static_cast<std::uint32_t>(bits_.next() % n); }
  // Uniform in [lo, hi].
  int between(int lo, int hi) { return lo + static_cast<int>(below(static_cast<std::uint64_t>(hi - lo) + 1)); }
  std::int64_t between64(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(bits_.next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  // True with probability percent / 100.
  bool chance(int percent) { return static_cast<int>(below(100)) < percent; }
  // k / 2^shift for a uniform integer k with lo <= k / 2^shift <= hi. Exact: lo and hi
  // scale by a power of two without rounding, and |k| stays below 2^24.
  float uniform(double lo, double hi, int shift = 8) {
    auto k_lo = static_cast<std::int64_t>(std::ceil(std::ldexp(lo, shift)));
    auto k_hi = static_cast<std::int64_t>(std::floor(std::ldexp(hi, shift)));
    if (k_hi < k_lo) k_hi = k_lo;
    return dyadic(between64(k_lo, k_hi), shift);
  }
  static float dyadic(std::int64_t k, int shift) { return std::ldexp(static_cast<float>(k), -shift); }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }

 private:
  SplitMix64 bits_;
};

namespace random_rig_detail {

using namespace p2l;

// The space a deformer's children (and its own forms) live in.
enum class Space { Canvas, Unit, Local };

// The resolution (power of two) that gives a range at least 64 distinct steps.
inline int shift_for(float min, float max) {
  int shift = 0;
  double width = static_cast<double>(max) - min;
  while (shift < 16 && std::ldexp(width, shift) < 64) ++shift;
  while (shift > -4 && std::ldexp(width, shift) > 4096) --shift;
  return shift;
}

class Generator {
 public:
  Generator(std::uint64_t seed, const RandomRigOptions& options)
      : o_(options), seed_(seed), r_(stream(seed, 0x636F7265 /* "core" */)) {}

  Rig run() {
    rig_.canvas = {400, 400, r_.chance(50) ? 200.0f : 0.0f, r_.chance(50) ? 200.0f : 0.0f,
                   r_.chance(50) ? -1.0f : r_.uniform(100, 1000, 0)};
    int parameter_count = r_.between(1, std::max(1, o_.max_parameters));
    int deformer_count = r_.between(0, std::max(0, o_.max_deformers));
    int mesh_count = r_.between(1, std::max(1, o_.max_meshes));
    part_count_ = r_.between(1, std::max(1, o_.max_parts));
    parameters(parameter_count);
    for (int i = 0; i < deformer_count; ++i) deformer(i);
    for (int i = 0; i < mesh_count; ++i) mesh(i);
    parts();
    if (o_.glue) glues();
    draw_tree();
    if (o_.motion) {
      RigRandom m(stream(seed_, 0x6D6F7469 /* "moti" */));
      motion(m);
    }
    if (o_.non_core) {
      RigRandom n(stream(seed_, 0x6E6F6E63 /* "nonc" */));
      non_core(n);
    }
    if (o_.extensions) {
      RigRandom e(stream(seed_, 0x65787465 /* "exte" */));
      extensions(e);
    }
    return std::move(rig_);
  }

 private:
  static std::uint64_t stream(std::uint64_t seed, std::uint64_t tag) {
    SplitMix64 s(seed ^ (tag * 0xD1B54A32D192ED03ull));
    return s.next();
  }

  std::string name(RigRandom& r, const char* stem, std::size_t i) {
    static const char* const kNames[] = {"", "", "Angle", "角度 X", "Ünïcödé", "name with spaces", "Body"};
    std::string n = kNames[r.below(std::size(kNames))];
    if (!n.empty()) n += " " + std::string(stem) + std::to_string(i);
    return n;
  }

  // ---- parameters and keys ----

  void parameters(int count) {
    struct Range {
      float min, max;
    };
    static const Range kRanges[] = {{-30, 30}, {0, 1}, {-180, 180}, {-1, 1}, {0, 10}, {-10, 10}, {-5, 20}};
    int blend = 0;
    if (o_.blend_shapes && count >= 2 && r_.chance(70)) blend = r_.between(1, std::min(2, count - 1));
    for (int i = 0; i < count; ++i) {
      Parameter p;
      p.id = "Param" + std::to_string(i);
      p.name = name(r_, "param ", static_cast<std::size_t>(i));
      // The last `blend` parameters are the blend-shape ones (their position varies below).
      bool is_blend = i >= count - blend;
      if (is_blend) {
        p.blend = true;
        p.min = r_.chance(70) ? 0.0f : -1.0f;
        p.max = 1;
      } else {
        const Range& range = kRanges[r_.below(std::size(kRanges))];
        p.min = range.min;
        p.max = range.max;
        p.repeat = r_.chance(p.max - p.min >= 360 ? 50 : 15);
      }
      bool natural = r_.chance(60);
      if (natural)
        p.default_value = p.min <= 0 && p.max >= 0 ? 0.0f : p.min;
      else
        p.default_value = r_.uniform(p.min, p.max, shift_for(p.min, p.max));
      rig_.parameters.push_back(p);
    }
    // Mix the blend parameters in among the others.
    r_.shuffle(rig_.parameters);
    for (std::size_t i = 0; i < rig_.parameters.size(); ++i) {
      rig_.parameters[i].id = "Param" + std::to_string(i);
      (rig_.parameters[i].blend ? blend_params_ : keyed_params_).push_back(static_cast<std::uint32_t>(i));
    }
  }

  // 1..max_keys distinct ascending keys on parameter p: spanning the range, or not.
  Array<float> keys(RigRandom& r, std::uint32_t p, int max_keys) {
    const Parameter& par = rig_.parameters[p];
    int n = r.between(1, std::max(1, max_keys));
    int shift = shift_for(par.min, par.max);
    std::vector<float> k;
    if (n >= 2 && r.chance(65)) {
      k.push_back(par.min);
      k.push_back(par.max);
    }
    for (int tries = 0; static_cast<int>(k.size()) < n && tries < 32; ++tries) {
      float v = r.uniform(par.min, par.max, shift);
      if (std::find(k.begin(), k.end(), v) == k.end()) k.push_back(v);
    }
    std::sort(k.begin(), k.end());
    return Array<float>(std::move(k));
  }

  // A grid on 0..max_axes distinct keyed parameters; form(r) makes each cell's form.
  template <class F, class MakeForm>
  Grid<F> grid(RigRandom& r, int max_axes, MakeForm form) {
    Grid<F> g;
    std::vector<std::uint32_t> candidates = keyed_params_;
    r.shuffle(candidates);
    int axes = std::min<int>(r.between(0, std::max(0, max_axes)), static_cast<int>(candidates.size()));
    std::size_t cells = 1;
    for (int a = 0; a < axes; ++a) {
      Axis axis{candidates[static_cast<std::size_t>(a)], keys(r, candidates[static_cast<std::size_t>(a)], o_.max_keys)};
      cells *= axis.keys.size();
      g.axes.push_back(std::move(axis));
    }
    // Every coordinate (dense order), then maybe sparse, maybe shuffled.
    std::vector<std::vector<std::uint16_t>> coords;
    for (std::size_t c = 0; c < cells; ++c) {
      std::vector<std::uint16_t> at;
      std::size_t rest = c;
      for (const Axis& axis : g.axes) {
        at.push_back(static_cast<std::uint16_t>(rest % axis.keys.size()));
        rest /= axis.keys.size();
      }
      coords.push_back(std::move(at));
    }
    if (cells > 1 && r.chance(35)) {
      std::vector<std::vector<std::uint16_t>> kept;
      for (auto& c : coords)
        if (r.chance(60)) kept.push_back(c);
      if (kept.empty()) kept.push_back(coords[r.below(coords.size())]);
      coords = std::move(kept);
    }
    if (r.chance(30)) r.shuffle(coords);
    for (const auto& c : coords) {
      g.coords.insert(g.coords.end(), c.begin(), c.end());
      g.forms.push_back(form(r));
    }
    return g;
  }

  template <class S, class MakeShape>
  std::vector<Binding<S>> bindings(RigRandom& r, int max_bindings, MakeShape shape) {
    std::vector<Binding<S>> out;
    if (!o_.blend_shapes || blend_params_.empty() || !r.chance(50)) return out;
    int n = r.between(1, max_bindings);
    for (int i = 0; i < n; ++i) {
      Binding<S> b;
      b.parameter = r.pick(blend_params_);
      b.keys = keys(r, b.parameter, o_.max_keys);
      b.neutral = r.below(b.keys.size());
      for (std::size_t k = 0; k < b.keys.size(); ++k) {
        bool present = k == b.neutral ? r.chance(15) : r.chance(75);
        b.shapes.push_back(present ? std::optional<S>(shape(r)) : std::nullopt);
      }
      int limits = r.chance(35) ? r.between(1, 2) : 0;
      for (int l = 0; l < limits && rig_.parameters.size() > 1; ++l) {
        Limit limit;
        do limit.parameter = r.below(rig_.parameters.size());
        while (limit.parameter == b.parameter);
        Array<float> xs = keys(r, limit.parameter, 3);
        for (float x : xs) limit.points.push_back({x, r.uniform(0, 1, 6)});
        b.limits.push_back(std::move(limit));
      }
      out.push_back(std::move(b));
    }
    return out;
  }

  // ---- channels ----

  static ChannelKind kind_of(ChannelType t) {
    switch (t) {
      case ChannelType::MultiplyColor:
      case ChannelType::ScreenColor:
        return ChannelKind::Color;
      case ChannelType::FlipX:
      case ChannelType::FlipY:
        return ChannelKind::Flag;
      default:
        return ChannelKind::Scalar;
    }
  }

  // Values as a load gives them back: a scalar or flag in [0] and zeros after it.
  Rgb channel_value(RigRandom& r, ChannelType t) {
    switch (t) {
      case ChannelType::DrawOrder:
        return {r.uniform(0, 1000, r.chance(70) ? 0 : 4), 0, 0};
      case ChannelType::Opacity:
      case ChannelType::GlueIntensity:
        return {r.chance(20) ? 1.0f : r.uniform(0, 1, 8), 0, 0};
      case ChannelType::MultiplyColor:
      case ChannelType::ScreenColor:
        return {r.uniform(0, 1, 8), r.uniform(0, 1, 8), r.uniform(0, 1, 8)};
      case ChannelType::FlipX:
      case ChannelType::FlipY:
        return {r.chance(50) ? 1.0f : 0.0f, 0, 0};
    }
    return {0, 0, 0};
  }

  Channels channels(RigRandom& r, std::vector<ChannelType> allowed) {
    Channels out;
    if (!o_.channels) return out;
    r.shuffle(allowed);
    for (ChannelType t : allowed) {
      if (!r.chance(30)) continue;
      Channel ch;
      ch.type = t;
      ch.kind = kind_of(t);
      ch.grid = grid<Rgb>(r, std::min(2, o_.max_axes), [&](RigRandom& rr) { return channel_value(rr, t); });
      out.push_back(std::move(ch));
    }
    return out;
  }

  // ---- geometry in a space ----

  Space space_under(std::int32_t deformer) const {
    if (deformer < 0) return Space::Canvas;
    return rig_.deformers[static_cast<std::size_t>(deformer)].kind == DeformerKind::Warp ? Space::Unit : Space::Local;
  }
  // A point coordinate in a space; `wide` reaches a little outside a parent warp.
  float coordinate(RigRandom& r, Space s, bool wide) {
    switch (s) {
      case Space::Canvas:
        return r.uniform(50, 350, 4);
      case Space::Unit:
        return wide ? r.uniform(-0.2, 1.2, 10) : r.uniform(0, 1, 10);
      case Space::Local:
        return r.uniform(-50, 50, 4);
    }
    return 0;
  }
  // A small displacement in a space.
  float delta(RigRandom& r, Space s) {
    switch (s) {
      case Space::Canvas:
        return r.uniform(-8, 8, 6);
      case Space::Unit:
        return r.uniform(-0.05, 0.05, 12);
      case Space::Local:
        return r.uniform(-6, 6, 6);
    }
    return 0;
  }
  std::vector<float> jittered(RigRandom& r, const std::vector<float>& base, Space s) {
    std::vector<float> out = base;
    for (float& v : out) v += delta(r, s);
    return out;
  }

  // ---- deformers ----

  void deformer(int index) {
    Deformer d;
    d.kind = r_.chance(50) ? DeformerKind::Warp : DeformerKind::Rotation;
    d.id = (d.kind == DeformerKind::Warp ? "Warp" : "Rotation") + std::to_string(index);
    d.parent = index > 0 && r_.chance(70) ? static_cast<std::int32_t>(r_.below(static_cast<std::uint64_t>(index))) : -1;
    d.part = r_.chance(40) ? static_cast<std::int32_t>(r_.below(static_cast<std::uint64_t>(part_count_))) : -1;
    d.visible = r_.chance(92);
    d.enabled = r_.chance(92);
    d.flip_x = r_.chance(10);
    d.flip_y = r_.chance(10);
    d.bilinear = r_.chance(d.kind == DeformerKind::Warp ? 50 : 5);
    d.opacity = r_.chance(60) ? 1.0f : r_.uniform(0, 1, 8);
    if (r_.chance(30)) d.multiply = {r_.uniform(0, 1, 8), r_.uniform(0, 1, 8), r_.uniform(0, 1, 8)};
    if (r_.chance(30)) d.screen = {r_.uniform(0, 1, 8), r_.uniform(0, 1, 8), r_.uniform(0, 1, 8)};
    Space s = space_under(d.parent);
    if (d.kind == DeformerKind::Warp) {
      d.columns = static_cast<std::uint32_t>(r_.between(1, 4));
      d.rows = static_cast<std::uint32_t>(r_.between(1, 4));
      std::vector<float> base = lattice(d.columns, d.rows, s);
      if (r_.chance(95))
        d.lattice = grid<Array<float>>(r_, o_.max_axes, [&](RigRandom& r) { return Array<float>(jittered(r, base, s)); });
      d.lattice_shapes = bindings<LatticeShape>(r_, 2, [&](RigRandom& r) {
        LatticeShape shape;
        shape.points = Array<float>(jittered(r, base, s));
        shape_colours(r, shape.opacity, shape.multiply, shape.screen);
        return shape;
      });
      d.channels = channels(r_, {ChannelType::Opacity, ChannelType::MultiplyColor, ChannelType::ScreenColor});
    } else {
      d.base_angle = r_.chance(50) ? 0.0f : r_.uniform(-45, 45, 2);
      Pivot base = pivot(r_, s);
      if (r_.chance(95)) d.pivot = grid<Pivot>(r_, o_.max_axes, [&](RigRandom& r) { return pivot_near(r, base, s); });
      d.pivot_shapes = bindings<PivotShape>(r_, 2, [&](RigRandom& r) {
        PivotShape shape;
        shape.pivot = pivot_near(r, base, s);
        shape.flip_x = r.chance(15);
        shape.flip_y = r.chance(15);
        shape_colours(r, shape.opacity, shape.multiply, shape.screen);
        return shape;
      });
      d.channels = channels(r_, {ChannelType::Opacity, ChannelType::MultiplyColor, ChannelType::ScreenColor,
                                 ChannelType::FlipX, ChannelType::FlipY});
    }
    rig_.deformers.push_back(std::move(d));
  }

  // A regular (columns+1) x (rows+1) lattice over a rectangle of the space, row by row.
  std::vector<float> lattice(std::uint32_t columns, std::uint32_t rows, Space s) {
    // Corners in ticks of 2^-shift, so that every lattice point is exact.
    int shift = 0;
    std::int64_t x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    switch (s) {
      case Space::Canvas:
        shift = 2;
        x0 = r_.between64(80 * 4, 160 * 4), x1 = r_.between64(240 * 4, 320 * 4);
        y0 = r_.between64(80 * 4, 160 * 4), y1 = r_.between64(240 * 4, 320 * 4);
        break;
      case Space::Unit: {
        shift = 10;
        bool wide = r_.chance(15);
        x0 = r_.between64(wide ? -205 : 0, 300), x1 = r_.between64(700, wide ? 1228 : 1024);
        y0 = r_.between64(wide ? -205 : 0, 300), y1 = r_.between64(700, wide ? 1228 : 1024);
        break;
      }
      case Space::Local:
        shift = 2;
        x0 = r_.between64(-50 * 4, -20 * 4), x1 = r_.between64(20 * 4, 50 * 4);
        y0 = r_.between64(-50 * 4, -20 * 4), y1 = r_.between64(20 * 4, 50 * 4);
        break;
    }
    std::vector<float> points;
    for (std::uint32_t j = 0; j <= rows; ++j)
      for (std::uint32_t i = 0; i <= columns; ++i) {
        points.push_back(RigRandom::dyadic(x0 + (x1 - x0) * i / columns, shift));
        points.push_back(RigRandom::dyadic(y0 + (y1 - y0) * j / rows, shift));
      }
    return points;
  }

  float scale(RigRandom& r) {
    float v = r.chance(30) ? 1.0f : r.uniform(0.5, 1.5, 6);
    return r.chance(12) ? -v : v;
  }
  Pivot pivot(RigRandom& r, Space s) {
    Pivot p;
    switch (s) {
      case Space::Canvas:
        p.x = r.uniform(100, 300, 2), p.y = r.uniform(100, 300, 2);
        break;
      case Space::Unit:
        p.x = r.uniform(0, 1, 10), p.y = r.uniform(0, 1, 10);
        break;
      case Space::Local:
        p.x = r.uniform(-30, 30, 2), p.y = r.uniform(-30, 30, 2);
        break;
    }
    p.angle = r.chance(30) ? 0.0f : r.uniform(-45, 45, 2);
    p.scale = scale(r);
    return p;
  }
  Pivot pivot_near(RigRandom& r, const Pivot& base, Space s) {
    Pivot p = base;
    p.x += delta(r, s);
    p.y += delta(r, s);
    p.angle = r.uniform(-45, 45, 2);
    p.scale = r.chance(60) ? base.scale : scale(r);
    return p;
  }
  void shape_colours(RigRandom& r, float& opacity, Rgb& multiply, Rgb& screen) {
    opacity = r.chance(50) ? 1.0f : r.uniform(0, 1, 8);
    multiply = r.chance(50) ? kWhite : Rgb{r.uniform(0, 1, 8), r.uniform(0, 1, 8), r.uniform(0, 1, 8)};
    screen = r.chance(50) ? kBlack : Rgb{r.uniform(0, 1, 8), r.uniform(0, 1, 8), r.uniform(0, 1, 8)};
  }

  // ---- meshes ----

  void mesh(int index) {
    Mesh m;
    m.id = "Mesh" + std::to_string(index);
    m.name = name(r_, "mesh ", static_cast<std::size_t>(index));
    int deformers = static_cast<int>(rig_.deformers.size());
    m.parent = deformers > 0 && r_.chance(80) ? static_cast<std::int32_t>(r_.below(static_cast<std::uint64_t>(deformers))) : -1;
    m.blend = r_.chance(70) ? 0 : static_cast<std::uint8_t>(r_.between(0, 17));
    m.alpha_blend = r_.chance(70) ? 0 : static_cast<std::uint8_t>(r_.between(0, 4));
    m.culling = r_.chance(30);
    m.visible = r_.chance(90);
    m.texture_page = -1;
    Space s = space_under(m.parent);
    std::size_t floats = 0;
    if (r_.chance(96)) {
      int n = r_.between(3, std::max(3, o_.max_vertices));
      bool wide = r_.chance(20);
      std::vector<float> positions, uvs;
      for (int v = 0; v < n; ++v) {
        positions.push_back(coordinate(r_, s, wide));
        positions.push_back(coordinate(r_, s, wide));
        uvs.push_back(r_.uniform(0, 1, 12));
        uvs.push_back(r_.uniform(0, 1, 12));
      }
      std::vector<std::uint32_t> indices;
      int triangles = r_.between(1, 2 * n - 2);
      for (int t = 0; t < triangles; ++t) {
        std::uint32_t a = r_.below(static_cast<std::uint64_t>(n)), b, c;
        do b = r_.below(static_cast<std::uint64_t>(n));
        while (b == a);
        do c = r_.below(static_cast<std::uint64_t>(n));
        while (c == a || c == b);
        indices.insert(indices.end(), {a, b, c});
      }
      floats = positions.size();
      m.geometry = Geometry{Array<float>(std::move(positions)), Array<float>(std::move(uvs)), IndexArray(std::move(indices))};
    }
    auto deltas = [&](RigRandom& r, int empty_percent) {
      if (floats == 0 || r.chance(empty_percent)) return Array<float>();
      std::vector<float> d(floats);
      for (float& v : d) v = delta(r, s);
      return Array<float>(std::move(d));
    };
    if (r_.chance(75)) m.keyforms = grid<Array<float>>(r_, o_.max_axes, [&](RigRandom& r) { return deltas(r, 20); });
    m.channels = channels(r_, {ChannelType::DrawOrder, ChannelType::Opacity, ChannelType::MultiplyColor,
                               ChannelType::ScreenColor});
    m.draw_order = r_.chance(30) ? 500.0f : r_.uniform(0, 1000, r_.chance(70) ? 0 : 4);
    m.opacity = r_.chance(60) ? 1.0f : r_.uniform(0, 1, 8);
    if (r_.chance(25)) m.multiply = {r_.uniform(0, 1, 8), r_.uniform(0, 1, 8), r_.uniform(0, 1, 8)};
    if (r_.chance(25)) m.screen = {r_.uniform(0, 1, 8), r_.uniform(0, 1, 8), r_.uniform(0, 1, 8)};
    m.shapes = bindings<MeshShape>(r_, 2, [&](RigRandom& r) {
      MeshShape shape;
      shape.deltas = deltas(r, 10);
      shape.draw_order = r.chance(50) ? m.draw_order : r.uniform(0, 1000, 0);
      shape_colours(r, shape.opacity, shape.multiply, shape.screen);
      return shape;
    });
    rig_.meshes.push_back(std::move(m));
  }

  void mesh_masks() {
    std::size_t n = rig_.meshes.size();
    if (!o_.masks || n < 2) return;
    for (std::size_t i = 0; i < n; ++i) {
      Mesh& m = rig_.meshes[i];
      if (!r_.chance(20)) continue;
      int count = r_.between(1, 2);
      for (int k = 0; k < count; ++k) {
        std::uint32_t mask = r_.below(n);
        if (mask != i && std::find(m.mask_meshes.begin(), m.mask_meshes.end(), mask) == m.mask_meshes.end())
          m.mask_meshes.push_back(mask);
      }
      m.invert_mask = !m.mask_meshes.empty() && r_.chance(40);
    }
  }

  // ---- parts ----

  void parts() {
    mesh_masks();
    std::size_t n = static_cast<std::size_t>(part_count_);
    rig_.parts.resize(n);
    // A forest: in a random order, each part hangs from an earlier one or from nothing.
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    r_.shuffle(order);
    part_parent_.assign(n, -1);
    for (std::size_t k = 1; k < n; ++k)
      if (r_.chance(60)) part_parent_[order[k]] = static_cast<std::int32_t>(order[r_.below(k)]);
    std::vector<std::vector<PartChild>> children(n);
    for (std::size_t i = 0; i < n; ++i)
      if (part_parent_[i] >= 0) children[static_cast<std::size_t>(part_parent_[i])].push_back({ChildKind::Part, static_cast<std::uint32_t>(i)});
    mesh_part_.assign(rig_.meshes.size(), -1);
    for (std::size_t m = 0; m < rig_.meshes.size(); ++m)
      if (r_.chance(85)) {
        mesh_part_[m] = static_cast<std::int32_t>(r_.below(n));
        children[static_cast<std::size_t>(mesh_part_[m])].push_back({ChildKind::Mesh, static_cast<std::uint32_t>(m)});
      }
    for (std::size_t i = 0; i < n; ++i) {
      Part& p = rig_.parts[i];
      p.id = "Part" + std::to_string(i);
      p.name = name(r_, "part ", i);
      p.visible = r_.chance(90);
      p.sketch = r_.chance(10);
      p.group_mode = static_cast<std::uint8_t>(r_.between(0, 2));
      p.draw_order = r_.chance(40) ? 500 : r_.between(0, 1000);
      r_.shuffle(children[i]);
      p.children = children[i];
      p.channels = channels(r_, {ChannelType::DrawOrder, ChannelType::Opacity, ChannelType::MultiplyColor,
                                 ChannelType::ScreenColor});
      p.composite = composite(i);
      p.shapes = bindings<PartShape>(r_, 2, [&](RigRandom& r) {
        PartShape shape;
        shape.draw_order = r.uniform(0, 1000, 0);
        shape_colours(r, shape.opacity, shape.multiply, shape.screen);
        return shape;
      });
    }
  }

  bool part_within(std::int32_t part, std::size_t ancestor) const {
    for (; part >= 0; part = part_parent_[static_cast<std::size_t>(part)])
      if (static_cast<std::size_t>(part) == ancestor) return true;
    return false;
  }

  // A composite for part `self` (or, with self = -1, a part-less draw group): masks only
  // from outside the part's subtree and its ancestors, so no part masks itself.
  Composite composite(std::int64_t self) {
    Composite c;
    c.blend = r_.chance(60) ? 0 : static_cast<std::uint8_t>(r_.between(0, 17));
    c.alpha_blend = r_.chance(60) ? 0 : static_cast<std::uint8_t>(r_.between(0, 4));
    c.opacity = r_.chance(60) ? 1.0f : r_.uniform(0, 1, 8);
    if (r_.chance(25)) c.multiply = {r_.uniform(0, 1, 8), r_.uniform(0, 1, 8), r_.uniform(0, 1, 8)};
    if (r_.chance(25)) c.screen = {r_.uniform(0, 1, 8), r_.uniform(0, 1, 8), r_.uniform(0, 1, 8)};
    if (!o_.masks || !r_.chance(25)) return c;
    auto related = [&](std::int32_t part) {
      if (self < 0 || part < 0) return false;
      auto s = static_cast<std::size_t>(self);
      return part_within(part, s) || part_within(static_cast<std::int32_t>(s), static_cast<std::size_t>(part));
    };
    for (int k = r_.between(1, 2); k > 0; --k) {
      std::uint32_t m = r_.below(rig_.meshes.size());
      if (!related(mesh_part_[m]) && std::find(c.mask_meshes.begin(), c.mask_meshes.end(), m) == c.mask_meshes.end())
        c.mask_meshes.push_back(m);
    }
    if (r_.chance(40)) {
      auto p = static_cast<std::int32_t>(r_.below(rig_.parts.size()));
      if (!related(p) && p != self) c.mask_parts.push_back(static_cast<std::uint32_t>(p));
    }
    c.invert_mask = r_.chance(40);
    return c;
  }

  // ---- glue ----

  void glues() {
    std::vector<std::uint32_t> with_geometry;
    for (std::size_t m = 0; m < rig_.meshes.size(); ++m)
      if (rig_.meshes[m].vertex_count() > 0) with_geometry.push_back(static_cast<std::uint32_t>(m));
    if (with_geometry.size() < 2) return;
    int count = r_.chance(50) ? r_.between(1, 2) : 0;
    for (int i = 0; i < count; ++i) {
      Glue g;
      g.id = "Glue" + std::to_string(i);
      g.mesh_a = r_.pick(with_geometry);
      do g.mesh_b = r_.pick(with_geometry);
      while (g.mesh_b == g.mesh_a);
      g.intensity = r_.chance(40) ? 1.0f : r_.uniform(0, 1, 8);
      std::size_t va = rig_.meshes[g.mesh_a].vertex_count(), vb = rig_.meshes[g.mesh_b].vertex_count();
      for (int k = r_.between(1, 4); k > 0; --k) {
        float wa = r_.uniform(0, 1, 8);
        g.pairs.push_back({r_.below(va), r_.below(vb), wa, r_.chance(50) ? 1.0f - wa : r_.uniform(0, 1, 8)});
      }
      g.channels = channels(r_, {ChannelType::GlueIntensity});
      rig_.glues.push_back(std::move(g));
    }
  }

  // ---- the draw tree ----

  struct TreeNode {
    std::int32_t part = -1;
    std::vector<DrawChild> children;  // Group children index `nodes_`, not the output yet
  };

  void draw_tree() {
    std::size_t n = rig_.parts.size();
    // Which parts get a group of their own; their meshes and grouped descendants go in it.
    grouped_.assign(n, false);
    for (std::size_t i = 0; i < n; ++i) grouped_[i] = rig_.parts[i].group_mode != 0 ? r_.chance(80) : r_.chance(35);
    nodes_.assign(1, TreeNode{});
    node_of_part_.assign(n, -1);
    for (std::size_t i = 0; i < n; ++i) node_for(static_cast<std::int32_t>(i));
    // Sometimes a part-less group gathers some of the root's meshes.
    std::uint32_t loose = 0;
    if (r_.chance(20)) {
      loose = static_cast<std::uint32_t>(nodes_.size());
      nodes_.push_back(TreeNode{});
      nodes_[0].children.push_back({DrawChildKind::Group, loose});
    }
    for (std::size_t m = 0; m < rig_.meshes.size(); ++m) {
      std::uint32_t node = node_for(mesh_part_[m]);
      if (node == 0 && loose != 0 && r_.chance(50)) node = loose;
      nodes_[node].children.push_back({DrawChildKind::Mesh, static_cast<std::uint32_t>(m)});
    }
    rig_.draw_groups.clear();
    emit(0);
  }

  // The node a part's content goes in: its own, else its nearest grouped ancestor's, else the root.
  std::uint32_t node_for(std::int32_t part) {
    if (part < 0) return 0;
    auto p = static_cast<std::size_t>(part);
    if (!grouped_[p]) return node_for(part_parent_[p]);
    if (node_of_part_[p] < 0) {
      std::uint32_t parent = node_for(part_parent_[p]);
      node_of_part_[p] = static_cast<std::int32_t>(nodes_.size());
      nodes_.push_back(TreeNode{part, {}});
      nodes_[parent].children.push_back({DrawChildKind::Group, static_cast<std::uint32_t>(node_of_part_[p])});
    }
    return static_cast<std::uint32_t>(node_of_part_[p]);
  }

  // Writes node `i` and its subtree in pre-order (as a load numbers them).
  std::uint32_t emit(std::uint32_t i) {
    auto at = static_cast<std::uint32_t>(rig_.draw_groups.size());
    rig_.draw_groups.emplace_back();
    TreeNode node = nodes_[i];
    r_.shuffle(node.children);
    DrawGroup g;
    g.part = node.part;
    g.draw_order = node.part >= 0 && r_.chance(50) ? rig_.parts[static_cast<std::size_t>(node.part)].draw_order
                                                   : r_.between(0, 1000);
    g.channels = channels(r_, {ChannelType::DrawOrder, ChannelType::Opacity, ChannelType::MultiplyColor,
                               ChannelType::ScreenColor});
    if (r_.chance(i == 0 ? 10 : 40)) g.composite = composite(node.part);
    for (const DrawChild& c : node.children) {
      if (c.kind == DrawChildKind::Mesh)
        g.children.push_back(c);
      else
        g.children.push_back({DrawChildKind::Group, emit(c.index)});
    }
    rig_.draw_groups[at] = std::move(g);
    return at;
  }

  // ---- clips, roles, physics ----

  std::vector<CurveSegment> segments(RigRandom& r, float t0, float duration, float lo, float hi, int shift) {
    std::vector<CurveSegment> out;
    int n = r.between(0, 4);
    float t = t0;
    for (int i = 0; i < n; ++i) {
      CurveSegment s;
      s.kind = static_cast<SegmentKind>(r.below(4));
      float next = t + r.uniform(0.0625, std::max(0.0625, static_cast<double>(duration) / 2), 6);
      if (s.kind == SegmentKind::Bezier)
        s.control = {r.uniform(t, next, 8), r.uniform(lo, hi, shift), r.uniform(t, next, 8), r.uniform(lo, hi, shift)};
      s.time = next;
      s.value = r.uniform(lo, hi, shift);
      out.push_back(s);
      t = next;
    }
    return out;
  }

  void motion(RigRandom& r) {
    std::size_t np = rig_.parameters.size();
    for (int c = r.between(0, 2), i = 0; i < c; ++i) {
      Clip clip;
      clip.id = "Clip" + std::to_string(i);
      clip.name = name(r, "clip ", static_cast<std::size_t>(i));
      clip.group = r.chance(50) ? "Idle" : "";
      clip.duration = r.uniform(0.5, 4, 4);
      clip.fps = r.chance(50) ? 30.0f : 60.0f;
      clip.looping = r.chance(50);
      clip.fade_in = r.chance(50) ? -1.0f : r.uniform(0, 1, 4);
      clip.fade_out = r.chance(50) ? -1.0f : r.uniform(0, 1, 4);
      for (int k = r.between(0, 3); k > 0; --k) {
        Curve curve;
        curve.parameter = r.below(np);
        const Parameter& p = rig_.parameters[curve.parameter];
        int shift = shift_for(p.min, p.max);
        curve.start_time = 0;
        curve.start_value = r.uniform(p.min, p.max, shift);
        curve.segments = segments(r, 0, clip.duration, p.min, p.max, shift);
        clip.curves.push_back(std::move(curve));
      }
      rig_.clips.push_back(std::move(clip));
    }
    static const char* const kRoles[] = {"EyeBlink", "LipSync", "Breath", "AngleX"};
    for (int c = r.between(0, 2), i = 0; i < c; ++i) {
      Role role;
      role.role = kRoles[r.below(std::size(kRoles))];
      for (int k = r.between(0, 2); k > 0; --k) role.parameters.push_back(r.below(np));
      rig_.roles.push_back(std::move(role));
    }
    rig_.physics_fps = r.chance(50) ? 0.0f : (r.chance(50) ? 30.0f : 60.0f);
    for (int c = r.chance(50) ? r.between(1, 2) : 0, i = 0; i < c; ++i) rig_.physics.push_back(physics_group(r, i, false));
  }

  PhysicsGroup physics_group(RigRandom& r, int i, bool vertical) {
    std::size_t np = rig_.parameters.size();
    int sources = vertical ? 3 : 2;
    PhysicsGroup g;
    g.id = "Physics" + std::to_string(i);
    g.name = name(r, "physics ", static_cast<std::size_t>(i));
    for (int k = r.between(1, 2); k > 0; --k)
      g.inputs.push_back({r.below(np), r.uniform(0, 100, 0), static_cast<PhysicsSource>(r.below(static_cast<std::uint64_t>(sources))), r.chance(30)});
    int segments = r.between(2, 3);
    for (int k = 0; k < segments; ++k)
      g.segments.push_back({k == 0 ? 0.0f : r.uniform(1, 20, 2), r.uniform(0.5, 1, 8), r.uniform(0.5, 1, 8), r.uniform(0.5, 2, 6)});
    for (int k = r.between(1, 2); k > 0; --k)
      g.outputs.push_back({r.below(np), static_cast<std::uint32_t>(r.between(0, segments)), r.uniform(0, 2, 6), r.uniform(0, 100, 0),
                           static_cast<PhysicsSource>(r.below(static_cast<std::uint64_t>(sources))), r.chance(30)});
    g.normalization = {r.uniform(-20, -1, 2), 0, r.uniform(1, 20, 2), r.uniform(-20, -1, 2), 0, r.uniform(1, 20, 2)};
    return g;
  }

  // ---- what version 1 cannot hold ----

  void non_core(RigRandom& r) {
    std::size_t np = rig_.parameters.size(), nm = rig_.meshes.size(), nparts = rig_.parts.size();
    rig_.meta = {MetaEntry{"generator", "p2l_test::make_random_rig"}, MetaEntry{"seed", std::to_string(seed_)}};
    Gui gui;
    for (std::size_t p = 0; p < np; ++p)
      if (r.chance(30)) gui.snaps.push_back({static_cast<std::uint32_t>(p), keys(r, static_cast<std::uint32_t>(p), 3)});
    if (np >= 2 && r.chance(50)) gui.joysticks.push_back({0, 1});
    gui.nodes.push_back(GuiNode{true, r.chance(50), GuiLabel::Custom, -1, "Group0", "All", "", 0xFF336699u,
                                static_cast<std::uint32_t>(np)});
    for (std::size_t p = 0; p < np; ++p)
      gui.nodes.push_back(GuiNode{false, false, r.chance(50) ? GuiLabel::Preset : GuiLabel::None, static_cast<std::int32_t>(p),
                                  "", "", "", 0, 0});
    rig_.gui = gui;
    Expression e;
    e.id = "Expression0";
    e.fade_in = r.uniform(0, 1, 4);
    e.fade_out = r.uniform(0, 1, 4);
    for (int k = r.between(1, 3); k > 0; --k)
      e.values.push_back({r.below(np), static_cast<ExpressionBlend>(r.below(3)), r.uniform(-1, 1, 6)});
    rig_.expressions.push_back(e);
    rig_.hit_areas.push_back(HitArea{"HitArea0", "Hit", {r.below(nm)}});
    rig_.user_data.push_back(UserData{0, r.below(nm), "user data"});
    Pose pose;
    pose.fade_in = r.uniform(0, 1, 4);
    PoseGroup group;
    group.entries.push_back({r.below(nparts), {}});
    if (nparts > 1) group.entries.push_back({r.below(nparts), {r.below(nparts)}});
    pose.groups.push_back(group);
    rig_.pose = pose;
    if (!rig_.clips.empty()) {
      ClipExtension x;
      x.clip = 0;
      x.events = {{0.0f, "start"}, {r.uniform(0, 1, 4), "mid"}};
      if (x.events[1].time < x.events[0].time) std::swap(x.events[0], x.events[1]);
      ClipExtraCurve curve;
      curve.target = ClipCurveTarget::PartOpacity;
      curve.part = static_cast<std::int32_t>(r.below(nparts));
      curve.segments = segments(r, 0, 1, 0, 1, 8);
      x.curves.push_back(curve);
      if (!rig_.clips[0].curves.empty()) x.fades.push_back({0, 0.25f, -1.0f});
      rig_.clip_extensions.push_back(x);
    }
    // A vertical (Y) physics source: only PHYS version 2 holds it.
    PhysicsGroup g = physics_group(r, static_cast<int>(rig_.physics.size()), true);
    g.inputs.push_back({r.below(np), 50.0f, PhysicsSource::Y, false});
    rig_.physics.push_back(std::move(g));
    // A Cubism 2 hair pendulum (HAIR), drawn last so that everything above stays as it was.
    Hair hair;
    hair.name = "Hair0";
    hair.length = r.uniform(0.05f, 0.5f, 4);
    hair.resistance = r.uniform(0, 2, 4);
    hair.mass = r.uniform(0.05f, 1, 4);
    for (int k = r.between(0, 3); k > 0; --k)
      hair.inputs.push_back({r.below(np), static_cast<HairSource>(r.below(3)), r.uniform(-1, 1, 4), r.uniform(0, 1, 4)});
    for (int k = r.between(0, 2); k > 0; --k)
      hair.outputs.push_back({r.below(np), static_cast<HairValue>(r.below(2)), r.uniform(-0.1f, 0.1f, 4), r.uniform(0, 1, 4)});
    rig_.hairs.push_back(std::move(hair));
  }

  // ---- the extension chunks (advanced mode): BONE SKIN COLL SIMS ----
  //
  // Read-only over the core: they refer to what the core, `motion` and `non_core` made
  // and add nothing to it, so the rest of the rig is the same with or without them.

  void extensions(RigRandom& r) {
    // Each chunk's presence is drawn first, so every combination occurs over seeds.
    bool bone = r.chance(65), skin = r.chance(70), coll = r.chance(60), sims = r.chance(65);
    if (bone) bone_chunk(r);
    if (skin) skin_chunk(r);
    if (coll) collider_chunk(r);  // before SIMS, whose simulations may list the colliders
    if (sims) simulation_chunk(r);
  }

  // The space a deformer's children live in, virtual bones (rotations) included.
  Space space_under_any(std::int32_t deformer) const {
    if (deformer < 0) return Space::Canvas;
    return rig_.deformer_or_bone(static_cast<std::size_t>(deformer)).kind == DeformerKind::Warp ? Space::Unit
                                                                                                : Space::Local;
  }

  // n distinct ascending keys on parameter p (every range has at least 64 steps).
  Array<float> distinct_keys(RigRandom& r, std::uint32_t p, int n) {
    const Parameter& par = rig_.parameters[p];
    int shift = shift_for(par.min, par.max);
    std::vector<float> k;
    while (static_cast<int>(k.size()) < n) {
      float v = r.uniform(par.min, par.max, shift);
      if (std::find(k.begin(), k.end(), v) == k.end()) k.push_back(v);
    }
    std::sort(k.begin(), k.end());
    return Array<float>(std::move(k));
  }

  // Up to n distinct values of `from`, in a random order.
  template <class T>
  std::vector<T> some_of(RigRandom& r, std::vector<T> from, int n) {
    r.shuffle(from);
    if (static_cast<int>(from.size()) > n) from.resize(static_cast<std::size_t>(std::max(0, n)));
    return from;
  }

  // A compliance: absent (negative) now and then, else 0 or a small dyadic value.
  static float compliance(RigRandom& r, int negative_percent) {
    if (r.chance(negative_percent)) return r.chance(50) ? -1.0f : -r.uniform(0.0625, 4, 6);
    return r.chance(25) ? 0.0f : r.uniform(0, 1.0 / 64, 20);
  }

  std::vector<std::uint32_t> meshes_with_geometry() const {
    std::vector<std::uint32_t> out;
    for (std::size_t m = 0; m < rig_.meshes.size(); ++m)
      if (rig_.meshes[m].vertex_count() > 0) out.push_back(static_cast<std::uint32_t>(m));
    return out;
  }

  // round(4096 cos(15k degrees)) for any k: a fixed table, so circles need no libm.
  static std::int64_t cos15(int k) {
    static const std::int64_t kQuarter[] = {4096, 3956, 3547, 2896, 2048, 1060, 0};
    k = ((k % 24) + 24) % 24;
    if (k <= 6) return kQuarter[k];
    if (k <= 12) return -kQuarter[12 - k];
    if (k <= 18) return -kQuarter[k - 12];
    return kQuarter[24 - k];
  }
  static std::int64_t sin15(int k) { return cos15(k - 6); }

  // A pivot grid for an arc: one axis, 3..5 keys, the pivots on a circle about a centre in
  // the parent's space, turning one way by the same step (under half a turn) from key to
  // key, and the pivot angle turning with them. Positions are rounded to the space's
  // ticks (a dyadic approximation of the circle).
  Grid<Pivot> arc_pivot(RigRandom& r, Space s, Arc& arc) {
    int shift = 0;
    std::int64_t cx = 0, cy = 0, radius = 0;
    switch (s) {
      case Space::Canvas:
        shift = 2;
        cx = r.between64(150 * 4, 250 * 4), cy = r.between64(150 * 4, 250 * 4), radius = r.between64(20 * 4, 80 * 4);
        break;
      case Space::Unit:
        shift = 10;
        cx = r.between64(350, 674), cy = r.between64(350, 674), radius = r.between64(64, 256);
        break;
      case Space::Local:
        shift = 4;
        cx = r.between64(-20 * 16, 20 * 16), cy = r.between64(-20 * 16, 20 * 16), radius = r.between64(8 * 16, 40 * 16);
        break;
    }
    arc.parameter = r.pick(keyed_params_);
    arc.cx = RigRandom::dyadic(cx, shift);
    arc.cy = RigRandom::dyadic(cy, shift);
    int n = r.between(3, 5);
    int step = r.between(1, 8) * (r.chance(50) ? 1 : -1);  // in 15-degree units: under half a turn
    int start = r.between(0, 23);
    int angle0 = r.between(-3, 3);
    float scale_all = scale(r);
    Grid<Pivot> g;
    g.axes.push_back({arc.parameter, distinct_keys(r, arc.parameter, n)});
    std::vector<std::uint16_t> order;
    for (int k = 0; k < n; ++k) order.push_back(static_cast<std::uint16_t>(k));
    if (r.chance(25)) r.shuffle(order);
    for (std::uint16_t k : order) {
      int at = start + step * k;
      Pivot p;
      p.x = RigRandom::dyadic(cx + radius * cos15(at) / 4096, shift);
      p.y = RigRandom::dyadic(cy + radius * sin15(at) / 4096, shift);
      p.angle = static_cast<float>(15 * (angle0 + step * k));
      p.scale = scale_all;
      g.coords.push_back(k);
      g.forms.push_back(p);
    }
    return g;
  }

  // BONE: 0..3 virtual bones (some made for arcs), 0..3 attachable bones, 0..2 arcs.
  void bone_chunk(RigRandom& r) {
    BoneChunk& b = rig_.bones.emplace();
    b.header.feature = 2;
    b.header.hooks = kHookH2 | kHookH3;
    std::size_t defm = rig_.deformers.size();
    int virtual_count = r.between(0, 3), arc_count = r.between(0, 2);
    std::vector<Arc> arcs;  // on virtual bones made for them
    for (int i = 0; i < virtual_count; ++i) {
      std::size_t index = defm + static_cast<std::size_t>(i);
      Deformer d;
      d.kind = DeformerKind::Rotation;
      d.id = "VirtualBone" + std::to_string(i);
      // A DEFM deformer or an earlier virtual bone; the root only when there is neither.
      d.parent = index > 0 ? static_cast<std::int32_t>(r.below(index)) : -1;
      d.part = r.chance(20) ? static_cast<std::int32_t>(r.below(rig_.parts.size())) : -1;
      d.visible = r.chance(92);
      d.enabled = r.chance(92);
      d.flip_x = r.chance(10);
      d.flip_y = r.chance(10);
      d.opacity = r.chance(70) ? 1.0f : r.uniform(0, 1, 8);
      d.base_angle = r.chance(50) ? 0.0f : r.uniform(-45, 45, 2);
      Space s = space_under_any(d.parent);
      if (static_cast<int>(arcs.size()) < arc_count && r.chance(70)) {
        Arc arc;
        arc.deformer = static_cast<std::uint32_t>(index);
        d.pivot = arc_pivot(r, s, arc);
        arcs.push_back(arc);
      } else {
        Pivot base = pivot(r, s);
        if (r.chance(95)) d.pivot = grid<Pivot>(r, std::min(2, o_.max_axes), [&](RigRandom& rr) { return pivot_near(rr, base, s); });
        d.pivot_shapes = bindings<PivotShape>(r, 1, [&](RigRandom& rr) {
          PivotShape shape;
          shape.pivot = pivot_near(rr, base, s);
          shape.flip_x = rr.chance(15);
          shape_colours(rr, shape.opacity, shape.multiply, shape.screen);
          return shape;
        });
      }
      if (r.chance(30)) d.channels = channels(r, {ChannelType::Opacity, ChannelType::FlipX, ChannelType::FlipY});
      b.virtual_bones.push_back(std::move(d));
    }
    std::size_t all = rig_.deformer_count_with_bones();
    // Arcs on other rotations keyed on one parameter alone (DEFM ones, or virtual bones
    // whose ordinary grid has one axis): their pivots lie on no particular circle, the
    // centre is a point of the parent's space.
    std::vector<std::uint32_t> keyed_alone;
    for (std::size_t d = 0; d < all; ++d) {
      const Deformer& def = rig_.deformer_or_bone(d);
      bool taken = std::any_of(arcs.begin(), arcs.end(), [&](const Arc& a) { return a.deformer == d; });
      if (!taken && def.kind == DeformerKind::Rotation && def.pivot && def.pivot->axes.size() == 1)
        keyed_alone.push_back(static_cast<std::uint32_t>(d));
    }
    for (std::uint32_t d : some_of(r, keyed_alone, arc_count - static_cast<int>(arcs.size()))) {
      const Deformer& def = rig_.deformer_or_bone(d);
      Space s = space_under_any(def.parent);
      arcs.push_back({d, def.pivot->axes[0].parameter, coordinate(r, s, false), coordinate(r, s, false)});
    }
    r.shuffle(arcs);
    b.arcs = arcs;
    for (const Arc& a : b.arcs)
      if (a.deformer < defm) b.header.deformers.push_back(a.deformer);  // the header lists DEFM deformers only
    std::sort(b.header.deformers.begin(), b.header.deformers.end());
    if (all > 0)
      for (int k = r.between(0, 3), i = 0; i < k; ++i)
        b.bones.push_back({r.below(all), (r.chance(20) ? "骨 " : "Bone") + std::to_string(i)});
  }

  // SKIN: 0..2 skins on meshes that hang from a DEFM rotation (none: no SKIN this seed).
  void skin_chunk(RigRandom& r) {
    std::size_t all = rig_.deformer_count_with_bones();
    std::vector<std::uint32_t> rotations, homes;
    for (std::size_t d = 0; d < all; ++d)
      if (rig_.deformer_or_bone(d).kind == DeformerKind::Rotation) rotations.push_back(static_cast<std::uint32_t>(d));
    for (std::size_t m = 0; m < rig_.meshes.size(); ++m) {
      std::int32_t parent = rig_.meshes[m].parent;
      if (parent >= 0 && rig_.deformers[static_cast<std::size_t>(parent)].kind == DeformerKind::Rotation)
        homes.push_back(static_cast<std::uint32_t>(m));
    }
    if (homes.empty()) return;
    SkinChunk& chunk = rig_.skins.emplace();
    chunk.header.feature = 1;
    chunk.header.hooks = kHookH4;
    bool virtual_bone = false;
    for (std::uint32_t mesh : some_of(r, homes, r.chance(10) ? 0 : r.between(1, 2))) {
      const Mesh& m = rig_.meshes[mesh];
      auto home = static_cast<std::uint32_t>(m.parent);
      Skin k;
      k.mesh = mesh;
      for (std::uint32_t p : some_of(r, keyed_params_, r.between(1, 3)))
        k.axes.push_back({p, distinct_keys(r, p, r.between(2, 4))});
      std::vector<std::uint32_t> others;
      for (std::uint32_t d : rotations)
        if (d != home) others.push_back(d);
      k.bones = some_of(r, others, r.between(0, 3));
      k.bones.push_back(home);
      r.shuffle(k.bones);
      for (std::uint32_t bone : k.bones) virtual_bone |= bone >= rig_.deformers.size();
      std::size_t vertices = m.vertex_count();
      if (vertices > 0 && r.chance(55)) {  // given; otherwise the runtime fits them
        std::vector<std::uint32_t> from, to;
        std::vector<float> weight;
        for (std::size_t v = 0; v < vertices; ++v) {
          from.push_back(r.below(k.bones.size()));
          to.push_back(r.below(k.bones.size()));
          weight.push_back(r.chance(20) ? 0.0f : r.chance(20) ? 1.0f : r.uniform(0, 1, 8));
        }
        k.from = IndexArray(std::move(from));
        k.to = IndexArray(std::move(to));
        k.weight = Array<float>(std::move(weight));
      }
      MeshOverride o;
      o.mesh = mesh;
      for (const Axis& a : k.axes) o.axes.push_back(a.parameter);
      chunk.header.meshes.push_back(std::move(o));
      chunk.skins.push_back(std::move(k));
    }
    if (virtual_bone) chunk.header.depends_on.push_back("BONE");
  }

  // COLL: 0..3 circles or capsules, following a mesh's vertices, a deformer or nothing.
  void collider_chunk(RigRandom& r) {
    ColliderChunk& chunk = rig_.colliders.emplace();
    chunk.header.feature = 8;
    chunk.header.hooks = kHookH6;
    chunk.header.depends_on.push_back("SIMS");
    std::vector<std::uint32_t> geometry = meshes_with_geometry();
    std::size_t all = rig_.deformer_count_with_bones();
    for (int n = r.between(0, 3), i = 0; i < n; ++i) {
      Collider c;
      c.id = "Collider" + std::to_string(i);
      c.capsule = r.chance(50);
      int follow = static_cast<int>(r.below(3));
      Space s = Space::Canvas;
      if (follow == 0 && !geometry.empty()) {
        c.mesh = static_cast<std::int32_t>(r.pick(geometry));
        std::size_t vertices = rig_.meshes[static_cast<std::size_t>(c.mesh)].vertex_count();
        c.vertex_a = r.below(vertices);
        c.vertex_b = c.capsule ? r.below(vertices) : c.vertex_a;
      } else if (follow == 1 && all > 0) {
        c.deformer = static_cast<std::int32_t>(r.below(all));
        s = space_under_any(c.deformer);
      }
      if (c.mesh < 0) {
        c.ax = coordinate(r, s, false), c.ay = coordinate(r, s, false);
        c.bx = c.capsule ? coordinate(r, s, false) : c.ax;
        c.by = c.capsule ? coordinate(r, s, false) : c.ay;
      }
      c.radius_a = r.uniform(1, 40, 2);
      c.radius_b = c.capsule ? r.uniform(1, 40, 2) : c.radius_a;
      c.friction = r.chance(20) ? 0.0f : r.chance(20) ? 1.0f : r.uniform(0, 1, 8);
      chunk.colliders.push_back(std::move(c));
    }
  }

  // SIMS: 0..2 simulations over 1..2 meshes with geometry each (none: no SIMS this seed).
  void simulation_chunk(RigRandom& r) {
    std::vector<std::uint32_t> geometry = meshes_with_geometry();
    if (geometry.empty()) return;
    SimulationChunk& chunk = rig_.simulations.emplace();
    chunk.header.feature = 4;
    chunk.header.hooks = kHookH1 | kHookH4 | kHookH6;
    for (int n = r.chance(10) ? 0 : r.between(1, 2), i = 0; i < n; ++i)
      chunk.simulations.push_back(simulation(r, i, geometry));
    for (const Simulation& s : chunk.simulations) {
      chunk.header.parameters.insert(chunk.header.parameters.end(), s.parameters.begin(), s.parameters.end());
      chunk.header.physics_groups.insert(chunk.header.physics_groups.end(), s.physics_groups.begin(), s.physics_groups.end());
    }
    for (auto* list : {&chunk.header.parameters, &chunk.header.physics_groups}) {
      std::sort(list->begin(), list->end());
      list->erase(std::unique(list->begin(), list->end()), list->end());
    }
  }

  Simulation simulation(RigRandom& r, int index, const std::vector<std::uint32_t>& geometry) {
    static const float kFps[] = {30, 60, 120};
    Simulation s;
    s.id = "Simulation" + std::to_string(index);
    s.fps = kFps[r.below(3)];
    s.substeps = static_cast<std::uint32_t>(r.between(1, 8));
    s.gravity_x = r.chance(70) ? 0.0f : r.uniform(-100, 100, 2);
    s.gravity_y = r.chance(60) ? -980.0f : r.uniform(-2000, 500, 2);  // world y points up
    s.wind_x = r.chance(50) ? 0.0f : r.uniform(-200, 200, 2);
    s.wind_y = r.chance(70) ? 0.0f : r.uniform(-50, 50, 2);
    s.pin_compliance = r.chance(50) ? 0.0f : r.uniform(0, 1.0 / 256, 20);
    std::vector<std::uint32_t> first;  // each target's first particle
    std::uint32_t particles = 0;
    for (std::uint32_t mesh : some_of(r, geometry, r.between(1, 2))) {
      auto vertices = static_cast<std::uint32_t>(rig_.meshes[mesh].vertex_count());
      s.targets.push_back({mesh, vertices});
      first.push_back(particles);
      particles += vertices;
    }
    std::vector<float> inv_mass, damping, wind, pin, goal, offset_x, offset_y;
    std::vector<std::uint32_t> anchor_mesh, anchor_vertex;
    for (std::uint32_t p = 0; p < particles; ++p) {
      inv_mass.push_back(r.chance(20) ? 0.0f : r.uniform(0, 2, 6));
      damping.push_back(r.chance(30) ? 0.0f : r.uniform(0, 1, 8));
      wind.push_back(r.chance(30) ? 1.0f : r.uniform(0, 2, 6));
      pin.push_back(r.chance(25) ? (r.chance(50) ? 1.0f : 1023.0f / 1024) : r.chance(30) ? 0.0f : r.uniform(0, 1, 8));
      goal.push_back(compliance(r, 30));
      offset_x.push_back(r.chance(50) ? 0.0f : r.uniform(-2, 2, 6));
      offset_y.push_back(r.chance(50) ? 0.0f : r.uniform(-2, 2, 6));
      if (r.chance(60)) {
        anchor_mesh.push_back(0xFFFFFFFFu);
        anchor_vertex.push_back(0);
      } else {
        std::uint32_t m = r.pick(geometry);
        anchor_mesh.push_back(m);
        anchor_vertex.push_back(r.below(rig_.meshes[m].vertex_count()));
      }
    }
    s.inv_mass = Array<float>(std::move(inv_mass));
    s.damping = Array<float>(std::move(damping));
    s.wind_factor = Array<float>(std::move(wind));
    s.pin_weight = Array<float>(std::move(pin));
    s.goal_compliance = Array<float>(std::move(goal));
    s.goal_offset_x = Array<float>(std::move(offset_x));
    s.goal_offset_y = Array<float>(std::move(offset_y));
    s.anchor_mesh = IndexArray(std::move(anchor_mesh));
    s.anchor_vertex = IndexArray(std::move(anchor_vertex));
    // Stretch along the targets' triangle edges (each edge once), triangles from their
    // indices, bends between triangles sharing an edge.
    std::vector<std::uint32_t> sa, sb, ta, tb, tc, b1, b2;
    std::vector<float> rest, stretch, compression, area, bend;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (std::size_t t = 0; t < s.targets.size(); ++t) {
      const IndexArray& indices = rig_.meshes[s.targets[t].mesh].geometry->indices;
      bool triangles = r.chance(80);
      for (std::size_t i = 0; i + 2 < indices.size(); i += 3) {
        std::uint32_t v[3] = {first[t] + indices[i], first[t] + indices[i + 1], first[t] + indices[i + 2]};
        for (int e = 0; e < 3; ++e) {
          std::pair<std::uint32_t, std::uint32_t> edge = std::minmax(v[e], v[(e + 1) % 3]);
          if (std::find(edges.begin(), edges.end(), edge) != edges.end()) continue;
          edges.push_back(edge);
          if (!r.chance(85)) continue;
          sa.push_back(v[e]);
          sb.push_back(v[(e + 1) % 3]);
          rest.push_back(r.uniform(0.25, 64, 6));
          stretch.push_back(compliance(r, 15));
          compression.push_back(compliance(r, 35));
        }
        if (triangles) {
          ta.push_back(v[0]), tb.push_back(v[1]), tc.push_back(v[2]);
          area.push_back(compliance(r, 25));
        }
      }
    }
    for (std::size_t i = 0; i < ta.size(); ++i)
      for (std::size_t j = i + 1; j < ta.size() && b1.size() < 24; ++j) {
        int shared = 0;
        for (std::uint32_t a : {ta[i], tb[i], tc[i]})
          for (std::uint32_t b : {ta[j], tb[j], tc[j]}) shared += a == b;
        if (shared == 2 && r.chance(60)) {
          b1.push_back(static_cast<std::uint32_t>(i)), b2.push_back(static_cast<std::uint32_t>(j));
          bend.push_back(compliance(r, 25));
        }
      }
    s.stretch_a = IndexArray(std::move(sa));
    s.stretch_b = IndexArray(std::move(sb));
    s.stretch_rest = Array<float>(std::move(rest));
    s.stretch_compliance = Array<float>(std::move(stretch));
    s.compression_compliance = Array<float>(std::move(compression));
    s.tri_a = IndexArray(std::move(ta));
    s.tri_b = IndexArray(std::move(tb));
    s.tri_c = IndexArray(std::move(tc));
    s.area_compliance = Array<float>(std::move(area));
    s.bend_t1 = IndexArray(std::move(b1));
    s.bend_t2 = IndexArray(std::move(b2));
    s.bend_compliance = Array<float>(std::move(bend));
    // Welds and long-range attachments between distinct particles.
    std::vector<std::uint32_t> wa, wb, lp, lr;
    std::vector<float> weight_a, weight_b, weld, distance;
    if (particles >= 2) {
      auto two = [&](std::vector<std::uint32_t>& a, std::vector<std::uint32_t>& b) {
        std::uint32_t x = r.below(particles), y;
        do y = r.below(particles);
        while (y == x);
        a.push_back(x), b.push_back(y);
      };
      for (int n = r.between(0, 3); n > 0; --n) {
        two(wa, wb);
        float w = r.uniform(0, 1, 8);
        weight_a.push_back(w);
        weight_b.push_back(r.chance(50) ? 1.0f - w : r.uniform(0, 1, 8));
        weld.push_back(compliance(r, 25));
      }
      for (int n = r.between(0, 3); n > 0; --n) {
        two(lp, lr);
        distance.push_back(r.uniform(0.5, 100, 4));
      }
    }
    s.weld_a = IndexArray(std::move(wa));
    s.weld_b = IndexArray(std::move(wb));
    s.weld_weight_a = Array<float>(std::move(weight_a));
    s.weld_weight_b = Array<float>(std::move(weight_b));
    s.weld_compliance = Array<float>(std::move(weld));
    s.long_particle = IndexArray(std::move(lp));
    s.long_root = IndexArray(std::move(lr));
    s.long_max_distance = Array<float>(std::move(distance));
    // What the simulation replaces, its static corrections and its colliders.
    std::vector<std::uint32_t> all_parameters(rig_.parameters.size()), groups(rig_.physics.size());
    for (std::size_t p = 0; p < all_parameters.size(); ++p) all_parameters[p] = static_cast<std::uint32_t>(p);
    for (std::size_t g = 0; g < groups.size(); ++g) groups[g] = static_cast<std::uint32_t>(g);
    s.parameters = some_of(r, all_parameters, r.between(0, 2));
    if (!groups.empty()) s.physics_groups = some_of(r, groups, r.between(0, 2));
    for (std::uint32_t p : some_of(r, all_parameters, r.chance(40) ? 0 : r.between(1, 2))) {
      SimStatic st;
      st.parameter = p;
      st.keys = distinct_keys(r, p, r.between(1, 3));
      for (const SimTarget& t : s.targets) {
        SimStaticMesh sm;
        sm.mesh = t.mesh;
        for (std::size_t k = 0; k < st.keys.size(); ++k) {
          std::vector<float> offsets(2 * std::size_t{t.vertex_count});
          for (float& v : offsets) v = r.chance(30) ? 0.0f : r.uniform(-4, 4, 6);
          sm.offsets.push_back(Array<float>(std::move(offsets)));
        }
        st.meshes.push_back(std::move(sm));
      }
      s.statics.push_back(std::move(st));
    }
    if (rig_.colliders)
      for (std::size_t c = 0; c < rig_.colliders->colliders.size(); ++c)
        if (r.chance(60)) s.colliders.push_back(static_cast<std::uint32_t>(c));
    return s;
  }

  const RandomRigOptions& o_;
  std::uint64_t seed_;
  RigRandom r_;
  Rig rig_;
  int part_count_ = 1;
  std::vector<std::uint32_t> keyed_params_, blend_params_;
  std::vector<std::int32_t> part_parent_, mesh_part_;
  std::vector<TreeNode> nodes_;
  std::vector<bool> grouped_;
  std::vector<std::int32_t> node_of_part_;
};

}  // namespace random_rig_detail

// A valid rig drawn from `seed`; the same seed and options give the same rig everywhere.
// [rig] with its extension chunks (BONE SKIN COLL SIMS) taken out: what a version-1 file,
// or a runtime without advanced mode, keeps.
inline p2l::Rig without_extensions(p2l::Rig rig) {
  rig.bones.reset();
  rig.skins.reset();
  rig.colliders.reset();
  rig.simulations.reset();
  return rig;
}

inline p2l::Rig make_random_rig(std::uint64_t seed, const RandomRigOptions& options = {}) {
  return random_rig_detail::Generator(seed, options).run();
}

}  // namespace p2l_test
