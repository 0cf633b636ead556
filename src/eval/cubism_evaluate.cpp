// Evaluation under Cubism's rules, stage by stage as the Core runs them: parameters, parts
// (enabled, opacity, draw order), deformers (parents first), meshes, glue, the output, the
// render order. Every float operation is one the Core makes, in its order: keyform sums
// start from zero and add each corner's weight times its form; a property without a
// channel of its own is its static value summed the same way over the object's grid (the
// Core interpolates its keyforms even when they are all equal, and that sum need not give
// the value back); blend shapes add, binding by binding, the binding's two keys mixed and
// then scaled by its limit (ShapeMix).
#include "eval/cubism_evaluate.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include "base/cubism_math.hpp"
#include "base/keyed_sort.hpp"
#include "base/sized.hpp"
#include "eval/blend.hpp"
#include "eval/channels.hpp"
#include "eval/forms.hpp"
#include "eval/grid.hpp"

namespace p2l::eval {
namespace {

float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

// A limit curve's weight at x: linear between its points, held beyond the first and last;
// y0 (1 - t) + y1 t as the Core writes it (measured: v5-constraints, bit for bit; y0 + (y1 - y0) t
// is not).
float limit_weight(const std::vector<std::array<float, 2>>& points, float x) {
  if (points.empty()) return 1.0f;
  if (x <= points.front()[0]) return points.front()[1];
  if (x >= points.back()[0]) return points.back()[1];
  for (std::size_t i = 0; i + 1 < points.size(); ++i)
    if (x < points[i + 1][0]) {
      const float t = (x - points[i][0]) / (points[i + 1][0] - points[i][0]);
      return points[i][1] * (1.0f - t) + points[i + 1][1] * t;
    }
  return points.back()[1];
}

// A blend binding at the pose as the Core mixes it: the shapes at the keys around the value
// (held beyond the ends, no snapping; none at the neutral key or where the binding has none),
// each with its key weight, and the binding's limit, min(1, every constraint). A property
// adds (lo * w_lo + hi * w_hi) * limit: the Core interpolates the binding like keyforms whose
// neutral form is zero, then scales the result (measured: v4-constraints and v4-colors in
// tests/cubism/fixtures, bit for bit; weighting each shape by w * limit is not).
template <class S>
struct ShapeMix {
  const S* lo = nullptr;
  float lo_weight = 0.0f;
  const S* hi = nullptr;
  float hi_weight = 0.0f;
  float limit = 1.0f;

  template <class Get>
  float of(Get get) const {
    float v = 0.0f;
    if (lo) v += get(*lo) * lo_weight;
    if (hi) v += get(*hi) * hi_weight;
    return v * limit;
  }
  // out[0..n) += the mix of the shapes' arrays (an array shorter than n adds nothing beyond it).
  template <class Get>
  void add_to(float* out, std::size_t n, Get array_of) const {
    const std::span<const float> a = lo ? array_of(*lo).span() : std::span<const float>{};
    const std::span<const float> b = hi ? array_of(*hi).span() : std::span<const float>{};
    for (std::size_t j = 0; j < n; ++j) {
      float v = 0.0f;
      if (j < a.size()) v += a[j] * lo_weight;
      if (j < b.size()) v += b[j] * hi_weight;
      out[j] += v * limit;
    }
  }
  // The opacity and colours of shapes that carry them.
  void add_colors(float& opacity, Rgb& multiply, Rgb& screen) const {
    opacity += of([](const S& x) { return x.opacity; });
    for (int k = 0; k < 3; ++k) {
      multiply[k] += of([k](const S& x) { return x.multiply[k]; });
      screen[k] += of([k](const S& x) { return x.screen[k]; });
    }
  }
};

// Calls add(mix) for each binding that mixes a shape at the pose, in binding order.
template <class S, class Add>
void for_each_cubism_mix(const std::vector<Binding<S>>& bindings, const float* values, Add&& add) {
  for (const Binding<S>& b : bindings) {
    const Span s = span_exact(b.keys.span(), values[b.parameter]);
    ShapeMix<S> mix;
    for (const Limit& l : b.limits) mix.limit = std::min(mix.limit, limit_weight(l.points, values[l.parameter]));
    if (mix.limit == 0.0f) continue;  // adds zeros
    auto shape_at = [&](std::uint32_t k) -> const S* {
      return k != b.neutral && k < b.shapes.size() && b.shapes[k] ? &*b.shapes[k] : nullptr;
    };
    mix.lo = shape_at(s.lo);
    mix.lo_weight = 1.0f - s.t;
    if (s.hi != s.lo) {
      mix.hi = shape_at(s.hi);
      mix.hi_weight = 1.0f - mix.lo_weight;  // not t: the Core's (1 - (1 - t)), measured on v5-constraints
    }
    if (mix.lo || mix.hi) add(mix);
  }
}

// An object's scalar and colour properties: a channel's blend, else the static value summed
// over the object's grid (its main keyforms), else the static value.
class Properties {
 public:
  Properties(const CubismWeigher& weigh, std::span<const CellWeight> grid) : weigh_(weigh), grid_(grid) {}

  bool outside() const { return outside_; }
  std::span<const CellWeight> weights(const GridPlan& g) { return weigh_(g, outside_); }

  float scalar(std::span<const ChannelPlan> channels, ChannelType type, float fallback, bool has_grid) {
    for (const ChannelPlan& ch : channels)
      if (ch.type == type) {
        float v = 0.0f;
        for (const CellWeight& c : weights(ch.grid)) v += ch.kind == ChannelKind::Scalar ? ch.forms[c.cell][0] * c.weight : 0.0f;
        return v;
      }
    return has_grid ? over_grid(fallback) : fallback;
  }
  // Colours are not summed without a channel: before moc 4.2 the Core has none to sum.
  Rgb color(std::span<const ChannelPlan> channels, ChannelType type, const Rgb& fallback) {
    for (const ChannelPlan& ch : channels)
      if (ch.type == type) {
        Rgb v{0.0f, 0.0f, 0.0f};
        for (const CellWeight& c : weights(ch.grid))
          for (int k = 0; k < 3; ++k) v[k] += ch.kind == ChannelKind::Color ? ch.forms[c.cell][k] * c.weight : 0.0f;
        return v;
      }
    return fallback;
  }
  // Flags are not blended: the corner at every lower key decides.
  bool flag(std::span<const ChannelPlan> channels, ChannelType type, bool fallback) {
    for (const ChannelPlan& ch : channels)
      if (ch.type == type && ch.kind == ChannelKind::Flag) {
        const auto w = weights(ch.grid);
        return w.empty() ? fallback : ch.forms[w[0].cell][0] != 0.0f;
      }
    return fallback;
  }
  // Every channel's grid looked at, so that one outside its keys hides the object.
  void visit(std::span<const ChannelPlan> channels) {
    for (const ChannelPlan& ch : channels) weights(ch.grid);
  }

 private:
  float over_grid(float v) const {
    float sum = 0.0f;
    for (const CellWeight& c : grid_) sum += v * c.weight;
    return sum;
  }
  const CubismWeigher& weigh_;
  std::span<const CellWeight> grid_;
  bool outside_ = false;
};

// What the Core clamps an object's values to after its blend shapes when they are Cubism 5.0's
// (Canvas::blend_clamp; only objects with blend shapes: elsewhere an opacity above 1 passes).
float clamp(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }
void clamp_blended(float& opacity, Rgb& multiply, Rgb& screen) {
  opacity = clamp01(opacity);
  for (int k = 0; k < 3; ++k) {
    multiply[k] = clamp01(multiply[k]);
    screen[k] = clamp01(screen[k]);
  }
}
// The Core's integer draw order (it sorts by it): the value plus 0.001, truncated; beyond
// the int range the Core's conversion gives INT32_MIN.
std::int32_t cubism_draw_order(float order) {
  const float key = order + 0.001f;
  return std::fabs(key) < 2147483648.0f ? static_cast<std::int32_t>(key) : INT32_MIN;
}
constexpr float kMinScale = 0.0001f, kMaxScale = 100.0f, kMaxAngle = 3600.0f, kMaxOrder = 1000.0f;

void compose_colors(Rgb& multiply, Rgb& screen, const Rgb& parent_multiply, const Rgb& parent_screen) {
  for (int k = 0; k < 3; ++k) {
    multiply[k] = multiply[k] * parent_multiply[k];
    screen[k] = screen[k] + parent_screen[k] - screen[k] * parent_screen[k];
  }
}

void evaluate_parts(const Rig& rig, const ModelPlan& plan, const CubismWeigher& weigh, InstanceState& s) {
  CubismState& c = s.cubism;
  const std::int32_t* offscreen_of = plan.cubism_plan.offscreen_of.data();
  for (std::uint32_t pi : plan.cubism_plan.part_order) {
    const Part& part = rig.parts[pi];
    const PartPlan& pp = plan.parts[pi];
    Properties props(weigh, {});
    float order = props.scalar(pp.channels, ChannelType::DrawOrder, static_cast<float>(part.draw_order), false);
    props.visit(pp.channels);
    const std::int32_t parent = pp.parent;
    const bool on = part.enabled && !props.outside() && (parent < 0 || c.part_on[static_cast<std::size_t>(parent)]);
    c.part_switched[pi] = on != static_cast<bool>(c.part_on[pi]);
    c.part_on[pi] = on;
    // Part opacity is an input of the Core (isVisible starts it at 0 or 1): here the host's
    // and the animation's factors over that start. The product down the tree stops at a part
    // with an offscreen: the offscreen carries it (measured on Ren with Core 6.0.1).
    const float input = clamp01(s.part_opacity[pi] * s.animation_part_opacity[pi]);
    c.part_input[pi] = input;
    const bool inherits = parent >= 0 && offscreen_of[static_cast<std::size_t>(parent)] < 0;
    c.part_opacity[pi] = inherits ? input * c.part_opacity[static_cast<std::size_t>(parent)] : input;
    // As for meshes (the fixtures do not tell whether parts do this too).
    if (!part.shapes.empty()) order = static_cast<float>(cubism_draw_order(order));
    for_each_cubism_mix(part.shapes, weigh.values,
                        [&](const ShapeMix<PartShape>& mix) { order += mix.of([](const PartShape& x) { return x.draw_order; }); });
    if (rig.canvas.blend_clamp && !part.shapes.empty()) order = clamp(order, 0.0f, kMaxOrder);
    s.part_draw_order[pi] = order;
    // An offscreen: its keyforms (the draw group's channels, over the part's binding), its blend
    // shapes (the part's opacity and colour deltas), times the part opacities above it. While
    // its part is hidden the Core makes its opacity 0 and leaves its colours as they were.
    if (offscreen_of[pi] < 0) continue;
    if (!c.part_on[pi]) {
      s.part_composite[pi].opacity = 0.0f;
      continue;
    }
    const Composite& composite = *pp.composite;
    const std::span<const ChannelPlan> channels =
        pp.draw_group >= 0 ? std::span<const ChannelPlan>(plan.draw_groups[static_cast<std::size_t>(pp.draw_group)].channels)
                           : std::span<const ChannelPlan>();
    float opacity = props.scalar(channels, ChannelType::Opacity, composite.opacity, false);
    Rgb multiply = props.color(channels, ChannelType::MultiplyColor, composite.multiply);
    Rgb screen = props.color(channels, ChannelType::ScreenColor, composite.screen);
    for_each_cubism_mix(part.shapes, weigh.values, [&](const ShapeMix<PartShape>& mix) { mix.add_colors(opacity, multiply, screen); });
    if (rig.canvas.blend_clamp && !part.shapes.empty()) clamp_blended(opacity, multiply, screen);
    s.part_composite[pi] = {opacity * c.part_opacity[pi], multiply, screen};
  }
}

void evaluate_deformers(const Rig& rig, const ModelPlan& plan, const CubismWeigher& weigh, InstanceState& s) {
  CubismState& c = s.cubism;
  for (std::size_t i = 0; i < rig.deformers.size(); ++i) {
    const Deformer& d = rig.deformers[i];
    const DeformerPlan& dp = plan.deformers[i];
    // Change tracking: a deformer whose reads, parent and part did not change keeps its frame,
    // lattice, opacity and colours, and leaves the probe direction as it left it (a rotation that
    // reused the direction is evaluated again when the direction it found has changed).
    std::array<float, 4>& direction = c.direction[i];
    const bool probes = d.kind == DeformerKind::Rotation && d.parent >= 0;
    const bool reads_moved = s.tracking && reads_changed(plan, dp.reads, s);
    if (s.tracking && !(d.parent >= 0 && s.deformer_dirty[static_cast<std::size_t>(d.parent)]) &&
        !(d.part >= 0 && c.part_switched[static_cast<std::size_t>(d.part)]) && !reads_moved &&
        !(probes && c.deformer_on[i] && c.frames[i].reused_direction &&
          (std::bit_cast<std::uint32_t>(direction[0]) != std::bit_cast<std::uint32_t>(c.probe_direction[0]) ||
           std::bit_cast<std::uint32_t>(direction[1]) != std::bit_cast<std::uint32_t>(c.probe_direction[1])))) {
      s.deformer_dirty[i] = 0;
      if (probes && c.deformer_on[i]) {
        c.probe_direction[0] = direction[2];
        c.probe_direction[1] = direction[3];
      }
      continue;
    }
    s.deformer_dirty[i] = 1;
    const bool has_grid = d.kind == DeformerKind::Warp ? d.lattice.has_value() : d.pivot.has_value();
    bool outside = false;
    const auto grid = has_grid ? weigh(dp.grid, outside) : std::span<const CellWeight>{};
    Properties props(weigh, grid);
    float opacity = props.scalar(dp.channels, ChannelType::Opacity, d.opacity, has_grid);
    Rgb multiply = props.color(dp.channels, ChannelType::MultiplyColor, d.multiply);
    Rgb screen = props.color(dp.channels, ChannelType::ScreenColor, d.screen);
    const bool flip_x = props.flag(dp.channels, ChannelType::FlipX, d.flip_x);
    const bool flip_y = props.flag(dp.channels, ChannelType::FlipY, d.flip_y);
    props.visit(dp.channels);
    const CubismFrame* parent = d.parent >= 0 ? &c.frames[static_cast<std::size_t>(d.parent)] : nullptr;
    const bool on = d.enabled && !outside && !props.outside() && (d.part < 0 || c.part_on[static_cast<std::size_t>(d.part)]) &&
                    (d.parent < 0 || c.deformer_on[static_cast<std::size_t>(d.parent)]);
    c.deformer_on[i] = on;
    if (!on) {
      c.deformer_local[i] = 0;  // its reads may change while it is not evaluated
      continue;  // its frame is never read: every child of a hidden deformer hides too
    }
    if (d.kind == DeformerKind::Warp) {
      float* points = s.warp_points.data() + dp.points_offset;
      const std::size_t n = std::size_t{dp.point_count} * 2;
      // Its lattice before the parent maps it: kept from the last evaluation when its own reads
      // did not change (only a parent moved), as in real playback, where a body sway moves
      // everything below it and little else changes.
      float* local = c.local_points.data() + dp.points_offset;
      const bool keep_local = s.tracking && c.deformer_local[i] && !reads_moved;
      if (!keep_local && has_grid && dp.rows.first)
        blend_row_run(grid, dp.rows, nullptr, local, n);
      else if (!keep_local && has_grid)
        blend_cells(grid, d.lattice->forms, nullptr, local, n);
      else if (!keep_local)
        std::fill(local, local + n, 0.0f);
      for_each_cubism_mix(d.lattice_shapes, weigh.values, [&](const ShapeMix<LatticeShape>& mix) {
        if (!keep_local) mix.add_to(local, n, [](const LatticeShape& x) -> const Array<float>& { return x.points; });
        mix.add_colors(opacity, multiply, screen);
      });
      c.deformer_local[i] = 1;
      if (rig.canvas.blend_clamp && !d.lattice_shapes.empty()) clamp_blended(opacity, multiply, screen);
      if (parent)
        cubism_map_points(*parent, local, points, n);
      else
        std::memcpy(points, local, n * sizeof(float));
      CubismFrame& f = c.frames[i];
      f = CubismFrame{};
      f.columns = d.columns;
      f.rows = d.rows;
      f.bilinear = d.bilinear;
      f.points = points;
      f.inherited_scale = parent ? parent->inherited_scale : 1.0f;
      cubism_finish_warp(f);
    } else {
      RotationInput in;
      in.scale = has_grid ? 0.0f : 1.0f;
      for (const CellWeight& cw : grid) {
        const Pivot& p = dp.pivots[cw.cell];
        in.x += cw.weight * p.x;
        in.y += cw.weight * p.y;
        in.angle += cw.weight * p.angle;
        in.scale += cw.weight * p.scale;
      }
      for_each_cubism_mix(d.pivot_shapes, weigh.values, [&](const ShapeMix<PivotShape>& mix) {
        in.x += mix.of([](const PivotShape& x) { return x.pivot.x; });
        in.y += mix.of([](const PivotShape& x) { return x.pivot.y; });
        in.angle += mix.of([](const PivotShape& x) { return x.pivot.angle; });
        in.scale += mix.of([](const PivotShape& x) { return x.pivot.scale; });
        mix.add_colors(opacity, multiply, screen);
      });
      if (rig.canvas.blend_clamp && !d.pivot_shapes.empty()) {
        in.angle = clamp(in.angle, -kMaxAngle, kMaxAngle);
        in.scale = clamp(in.scale, kMinScale, kMaxScale);
        clamp_blended(opacity, multiply, screen);
      }
      in.base_angle = d.base_angle;
      in.reflect_x = flip_x;
      in.reflect_y = flip_y;
      direction[0] = c.probe_direction[0];
      direction[1] = c.probe_direction[1];
      c.frames[i] = cubism_rotation(in, parent, c.probe_direction);
      direction[2] = c.probe_direction[0];
      direction[3] = c.probe_direction[1];
    }
    if (d.parent >= 0) {
      const std::size_t p = static_cast<std::size_t>(d.parent);
      opacity = opacity * c.deformer_opacity[p];
      compose_colors(multiply, screen, c.deformer_multiply[p], c.deformer_screen[p]);
    }
    c.deformer_opacity[i] = opacity;
    c.deformer_multiply[i] = multiply;
    c.deformer_screen[i] = screen;
  }
}

// A mesh's blend shapes added to its positions [out], opacity, colours and draw order, then
// Cubism 5.0's clamps. The Core runs this stage on every mesh, shown or hidden (keep_hidden_mesh).
void add_mesh_shapes(const Rig& rig, const Mesh& m, const CubismWeigher& weigh, float* out, std::size_t n, float& opacity,
                     Rgb& multiply, Rgb& screen, float& order) {
  for_each_cubism_mix(m.shapes, weigh.values, [&](const ShapeMix<MeshShape>& mix) {
    mix.add_to(out, n, [](const MeshShape& x) -> const Array<float>& { return x.deltas; });
    mix.add_colors(opacity, multiply, screen);
    order += mix.of([](const MeshShape& x) { return x.draw_order; });
  });
  if (rig.canvas.blend_clamp) {
    clamp_blended(opacity, multiply, screen);
    order = clamp(order, 0.0f, kMaxOrder);
  }
}

// The Core's buffers of a mesh that is hidden this update: nothing is interpolated or deformed,
// but the blend-shape stage still runs. Vertices, opacity and draw order are buffers it changes
// in place: they hold what the last update left (the vertices y up, as the last output turned
// them) and the shapes add to that again at every update the mesh stays hidden. The colours a
// host reads are the mesh's own (its keyforms' when it was last evaluated, not composed with
// the deformers') plus this update's shapes (measured, Core 6.0.1: v5-glue-stale and
// v6-offscreens in tests/cubism/fixtures).
void keep_hidden_mesh(const Rig& rig, const Mesh& m, const MeshPlan& mp, std::size_t mi, const CubismWeigher& weigh,
                      InstanceState& s) {
  CubismState& c = s.cubism;
  Rgb multiply = c.mesh_multiply[mi], screen = c.mesh_screen[mi];
  if (!m.shapes.empty()) {
    float order = static_cast<float>(c.draw_orders[mi]);
    add_mesh_shapes(rig, m, weigh, c.vertices.data() + mp.vertex_offset, std::size_t{mp.vertex_count} * 2,
                    c.mesh_opacity[mi], multiply, screen, order);
    c.draw_orders[mi] = cubism_draw_order(order);
  }
  s.opacity[mi] = c.mesh_opacity[mi];
  s.draw_order[mi] = static_cast<float>(c.draw_orders[mi]);
  s.multiply[mi] = multiply;
  s.screen[mi] = screen;
}

void evaluate_meshes(const Rig& rig, const ModelPlan& plan, const CubismWeigher& weigh, InstanceState& s) {
  CubismState& c = s.cubism;
  for (std::size_t mi = 0; mi < rig.meshes.size(); ++mi) {
    const Mesh& m = rig.meshes[mi];
    const MeshPlan& mp = plan.meshes[mi];
    bool outside = false;
    const auto grid = m.keyforms ? weigh(mp.keyforms, outside) : std::span<const CellWeight>{};
    const bool has_grid = m.keyforms.has_value();
    Properties props(weigh, grid);
    float opacity = props.scalar(mp.channels, ChannelType::Opacity, m.opacity, has_grid);
    float order = props.scalar(mp.channels, ChannelType::DrawOrder, m.draw_order, has_grid);
    Rgb multiply = props.color(mp.channels, ChannelType::MultiplyColor, m.multiply);
    Rgb screen = props.color(mp.channels, ChannelType::ScreenColor, m.screen);
    props.visit(mp.channels);
    const bool on = m.visible && !outside && !props.outside() && (mp.part < 0 || c.part_on[static_cast<std::size_t>(mp.part)]) &&
                    (m.parent < 0 || c.deformer_on[static_cast<std::size_t>(m.parent)]);
    // Change tracking: a mesh shown before and now whose reads and parent did not change keeps
    // its vertices (its buffer holds last evaluation's output); its opacity, colours and draw
    // order are computed again all the same (cheap). Glued meshes are always evaluated.
    const bool reads_moved = s.tracking && reads_changed(plan, mp.reads, s);
    const bool fresh = !(s.tracking && on && c.mesh_on[mi] && !mp.glued &&
                         !(m.parent >= 0 && s.deformer_dirty[static_cast<std::size_t>(m.parent)]) && !reads_moved);
    c.mesh_on[mi] = on;
    c.mesh_fresh[mi] = on && fresh;
    s.mesh_dirty[mi] = on;
    if (!on) {
      c.mesh_local[mi] = 0;  // its reads may change while it is hidden
      keep_hidden_mesh(rig, m, mp, mi, weigh, s);
      continue;
    }
    float* out = c.vertices.data() + mp.vertex_offset;
    const std::size_t n = fresh ? std::size_t{mp.vertex_count} * 2 : 0;
    // Its vertices before the parent maps them (keyforms and blend shapes): kept from the last
    // evaluation when its own reads did not change, as a warp's lattice is.
    float* local = c.local_vertices.data() + mp.vertex_offset;
    const bool keep_local = fresh && s.tracking && c.mesh_local[mi] && !reads_moved;
    const float* start = m.geometry ? m.geometry->positions.data() : nullptr;
    const std::size_t blended = keep_local ? 0 : n;  // what this evaluation blends into [local]
    if (blended && has_grid && mp.rows.first)
      blend_row_run(grid, mp.rows, start, local, blended);
    else if (blended && has_grid)
      blend_cells(grid, m.keyforms->forms, start, local, blended);
    else if (blended)
      blend_rows(start, nullptr, nullptr, 0, local, blended);
    c.mesh_multiply[mi] = multiply;
    c.mesh_screen[mi] = screen;
    if (!m.shapes.empty()) {
      // The Core makes the keyed draw order its integer before blend shapes add to it
      // (measured: v5-all in tests/cubism/fixtures).
      order = static_cast<float>(cubism_draw_order(order));
      add_mesh_shapes(rig, m, weigh, local, blended, opacity, multiply, screen, order);
    }
    c.mesh_local[mi] = 1;
    // (A mesh without vertices has no place in the buffers: nothing to copy, no pointer to copy to.)
    if (m.parent < 0 && n > 0) std::memcpy(out, local, n * sizeof(float));
    if (m.parent >= 0) {
      const std::size_t p = static_cast<std::size_t>(m.parent);
      if (fresh) cubism_map_points(c.frames[p], local, out, n);
      // Composed with the deformers' the colours are clamped; a mesh at the root keeps its own.
      compose_colors(multiply, screen, c.deformer_multiply[p], c.deformer_screen[p]);
      for (int k = 0; k < 3; ++k) {
        multiply[k] = clamp01(multiply[k]);
        screen[k] = clamp01(screen[k]);
      }
    }
    // The keyform opacity meets the deformer's first, then the part's, as Core 6 multiplies
    // them (Core 5 the other way round: up to 6e-8 apart; tests/cubism/fixtures *-core51).
    if (m.parent >= 0) opacity = opacity * c.deformer_opacity[static_cast<std::size_t>(m.parent)];
    // Under a part with an offscreen, the offscreen carries the part opacities.
    if (mp.part >= 0 && plan.cubism_plan.offscreen_of[static_cast<std::size_t>(mp.part)] < 0)
      opacity = opacity * c.part_opacity[static_cast<std::size_t>(mp.part)];
    const std::int32_t draw = cubism_draw_order(order);
    c.draw_orders[mi] = draw;
    c.mesh_opacity[mi] = opacity;  // the Core multiplies its opacity buffer in place
    s.opacity[mi] = opacity;
    s.draw_order[mi] = static_cast<float>(draw);
    s.multiply[mi] = multiply;
    s.screen[mi] = screen;
  }
}

// Glue moves vertex pairs after every deformation. Its intensity is looked up as every other
// property is (the Core has one lookup; a glue lookup without snapping, measured before, was
// the epsilon rounded the wrong way showing through). Outside its keys the glue keeps the
// intensity it last had inside them, and its blend shapes still add to that (not cumulatively:
// measured, Core 6.0.1, on the v5-all model of synth_model's seed 1).
// A glue whose mesh is hidden pulls toward, and moves, what that mesh's buffer holds: its
// last output, y up (write_output), moved by every glue and blend shape since (measured, Core
// 6.0.1: v5-glue-stale in tests/cubism/fixtures).
void apply_glue(const Rig& rig, const ModelPlan& plan, const CubismWeigher& weigh, InstanceState& s) {
  CubismState& c = s.cubism;
  for (std::size_t gi = 0; gi < rig.glues.size(); ++gi) {
    const Glue& g = rig.glues[gi];
    Properties props(weigh, {});
    float intensity = props.scalar(plan.glues[gi].channels, ChannelType::GlueIntensity, g.intensity, false);
    props.visit(plan.glues[gi].channels);
    if (props.outside()) intensity = c.glue_intensity[gi];
    else c.glue_intensity[gi] = intensity;
    for_each_cubism_mix(g.shapes, weigh.values, [&](const ShapeMix<GlueShape>& mix) {
      intensity += mix.of([](const GlueShape& x) { return x.intensity; });
    });
    if (rig.canvas.blend_clamp && !g.shapes.empty()) intensity = clamp01(intensity);
    if (g.mesh_a == g.mesh_b) continue;
    float* a = c.vertices.data() + plan.meshes[g.mesh_a].vertex_offset;
    float* b = c.vertices.data() + plan.meshes[g.mesh_b].vertex_offset;
    for (const GluePair& pair : g.pairs)
      for (int k = 0; k < 2; ++k) {
        const float pa = a[pair.a * 2 + k], pb = b[pair.b * 2 + k];
        a[pair.a * 2 + k] = pa + (pb - pa) * pair.weight_a * intensity;
        b[pair.b * 2 + k] = pb + (pa - pb) * pair.weight_b * intensity;
      }
  }
}

// Model units (y up) to canvas pixels (y down): the one formula of both loops below.
struct PixelSpace {
  float ox, oy, ppu;
  explicit PixelSpace(const Canvas& c) : ox(c.origin_x), oy(c.origin_y), ppu(c.pixels_per_unit) {}
  void put(float x, float y, float* out) const {
    out[0] = ox + x * ppu;
    out[1] = oy - y * ppu;
  }
};

// A mesh's model vertices (y up) in canvas pixels.
void pixel_vertices(const Rig& rig, const MeshPlan& mp, InstanceState& s) {
  const PixelSpace to(rig.canvas);
  // Two distinct buffers (restrict lets the compiler vectorise the loop).
  const float* __restrict model = s.cubism.vertices.data() + mp.vertex_offset;
  float* __restrict pixels = s.vertices.data() + mp.vertex_offset;
  const std::size_t n = std::size_t{mp.vertex_count} * 2;
  for (std::size_t j = 0; j + 1 < n; j += 2) to.put(model[j], model[j + 1], pixels + j);
}

// The Core's output (model units, y up) and p2lrt's (canvas pixels, y down). The Core turns
// y up in the mesh's own buffer, so a mesh hidden later keeps its vertices y up there, and glue
// and blend shapes act on them as they are (measured on game exports of moc3 version 2, Core
// 6.0.1: docs/IMPORT.md, "Game exports"; fixture v3-glue-stale).
void write_output(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  CubismState& c = s.cubism;
  const PixelSpace to(rig.canvas);
  const float up = rig.canvas.y_up ? 1.0f : -1.0f;  // the Core negates y, unless the moc's root is y up already
  for (std::size_t mi = 0; mi < rig.meshes.size(); ++mi) {
    if (!c.mesh_fresh[mi]) continue;  // hidden, or shown with the vertices it had (turned already)
    const MeshPlan& mp = plan.meshes[mi];
    // Two distinct buffers (restrict lets the compiler vectorise the loops).
    float* __restrict model = c.vertices.data() + mp.vertex_offset;
    float* __restrict pixels = s.vertices.data() + mp.vertex_offset;
    const std::size_t n = std::size_t{mp.vertex_count} * 2;
    if (!s.pixel_vertices) {  // the host reads the model vertices only (Instance::set_pixel_vertices)
      if (up != 1.0f)
        for (std::size_t j = 1; j < n; j += 2) model[j] = up * model[j];
      continue;
    }
    // The turn and the conversion in one pass.
    for (std::size_t j = 0; j + 1 < n; j += 2) {
      model[j + 1] = up * model[j + 1];
      to.put(model[j], model[j + 1], pixels + j);
    }
  }
}

// Each group sorts its children by draw order (a hidden child at the group's floor), ties in
// tree order; a mesh takes the next place, a child group the block of places its meshes (and
// offscreens) need, a group with an offscreen the first place of its block for it. The walk
// goes in render order: it lists the meshes shown and the isolated groups' commands as it goes.
void order_group(const Rig& rig, const ModelPlan& plan, InstanceState& s, std::uint32_t group_index, std::int32_t start) {
  const DrawGroup& g = rig.draw_groups[group_index];
  CubismState& c = s.cubism;
  const CubismPlan& cp = plan.cubism_plan;
  KeyedIndex* entries = s.sort_scratch.data() + plan.draw_groups[group_index].sort_offset;
  const std::size_t n = g.children.size();
  // The entries hold last evaluation's order (at first the tree order): new keys, re-sorted.
  for (std::size_t e = 0; e < n; ++e) {
    const std::uint32_t i = entries[e].index;
    const DrawChild& ch = g.children[i];
    std::int64_t key = g.floor_order;
    if (ch.kind == DrawChildKind::Mesh) {
      if (c.mesh_on[ch.index]) key = c.draw_orders[ch.index];
    } else {
      const std::int32_t part = rig.draw_groups[ch.index].part;
      if (part < 0) {
        key = rig.draw_groups[ch.index].draw_order;
      } else if (c.part_on[static_cast<std::size_t>(part)]) {
        const float v = s.part_draw_order[static_cast<std::size_t>(part)] + 0.001f;
        key = std::fabs(v) < 2147483648.0f ? static_cast<std::int32_t>(v) : INT32_MIN;
      }
    }
    entries[e].key = key;
  }
  resort_keyed(entries, entries + n);
  std::int32_t at = start;
  for (std::size_t i = 0; i < n; ++i) {
    const DrawChild ch = g.children[entries[i].index];
    if (ch.kind == DrawChildKind::Mesh) {
      c.render_orders[ch.index] = at++;
      if (c.mesh_on[ch.index]) {
        s.render_order.push_back(ch.index);
        s.render_commands.push_back(static_cast<std::int32_t>(ch.index));
      }
      continue;
    }
    const std::int32_t part = rig.draw_groups[ch.index].part;
    const std::int32_t number = part >= 0 ? cp.offscreen_of[static_cast<std::size_t>(part)] : -1;
    const bool offscreen = number >= 0;
    const std::int32_t next = at + static_cast<std::int32_t>(cp.group_places[ch.index]) + (offscreen ? 1 : 0);
    if (offscreen) {
      c.render_orders[rig.meshes.size() + static_cast<std::size_t>(number)] = at++;
      if (c.part_on[static_cast<std::size_t>(part)]) s.render_commands.push_back(-2 - part);
    }
    order_group(rig, plan, s, ch.index, at);
    if (offscreen && c.part_on[static_cast<std::size_t>(part)]) s.render_commands.push_back(-1);
    at = next;
  }
}

void build_render_order(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  CubismState& c = s.cubism;
  // A drawable (or offscreen) no draw-order group lists keeps render order 0, as in the
  // official Cores (measured on 4.2.2 and 5.1.0 with a moc3 that leaves a mesh out); every
  // place handed out stays below the root's group_places.
  std::fill(c.render_orders.begin(), c.render_orders.end(), 0);
  s.render_order.clear();
  s.render_commands.clear();
  if (!rig.draw_groups.empty()) order_group(rig, plan, s, 0, 0);
}

}  // namespace

void cubism_render_order(const Rig& rig, const ModelPlan& plan, InstanceState& s) { build_render_order(rig, plan, s); }

void cubism_pixel_vertices(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  if (plan.cubism2) return;  // Cubism 2's evaluation writes them always (its model space is y down)
  for (const MeshPlan& mp : plan.meshes) pixel_vertices(rig, mp, s);
}

float cubism_normalize(const Parameter& p, float value) {
  if (std::isnan(value)) return p.default_value;
  if (p.repeat) {
    const float range = p.max - p.min;
    if (range > 0.0f && std::isfinite(value)) {
      const float n = (value - p.min) / range;
      return (n - std::floor(n)) * range + p.min;
    }
  }
  return std::min(std::max(value, p.min), p.max);
}

void plan_cubism(const Rig& rig, ModelPlan& p) {
  CubismPlan& c = p.cubism_plan;
  sized(c.epsilon, rig.parameters.size());
  for (std::size_t i = 0; i < rig.parameters.size(); ++i) c.epsilon[i] = cubism_math::epsilon(rig.parameters[i].decimals);
  // Parts after their parents: a walk down from each root (validation leaves at most one
  // parent per part; a part listed under two parents keeps the last, as the plan does).
  std::vector<std::uint8_t> placed(rig.parts.size(), 0);
  c.part_order.clear();
  std::vector<std::uint32_t> stack;
  for (std::uint32_t root = 0; root < rig.parts.size(); ++root) {
    if (p.parts[root].parent >= 0) continue;
    stack.push_back(root);
    while (!stack.empty()) {
      const std::uint32_t q = stack.back();
      stack.pop_back();
      if (placed[q]) continue;
      placed[q] = 1;
      c.part_order.push_back(q);
      for (const PartChild& child : rig.parts[q].children)
        if (child.kind == ChildKind::Part && static_cast<std::uint32_t>(p.parts[child.index].parent) == q) stack.push_back(child.index);
    }
  }
  for (std::uint32_t q = 0; q < rig.parts.size(); ++q)  // in a cycle of parts: after the others, in index order
    if (!placed[q]) c.part_order.push_back(q);
  // Offscreens: the isolated parts.
  c.offscreen_parts.clear();
  sized(c.offscreen_of, rig.parts.size());
  for (std::uint32_t q = 0; q < rig.parts.size(); ++q) {
    c.offscreen_of[q] = rig.parts[q].group_mode == 2 ? static_cast<std::int32_t>(c.offscreen_parts.size()) : -1;
    if (c.offscreen_of[q] >= 0) c.offscreen_parts.push_back(q);
  }
  // Render places per draw group, its child groups included (children come after their
  // parent): one a mesh, one an offscreen.
  sized(c.group_places, rig.draw_groups.size());
  for (std::size_t g = rig.draw_groups.size(); g-- > 0;) {
    std::uint32_t n = 0;
    for (const DrawChild& ch : rig.draw_groups[g].children) {
      if (ch.kind == DrawChildKind::Mesh) {
        n += 1;
        continue;
      }
      const std::int32_t part = rig.draw_groups[ch.index].part;
      n += c.group_places[ch.index] + (part >= 0 && c.offscreen_of[static_cast<std::size_t>(part)] >= 0 ? 1 : 0);
    }
    c.group_places[g] = n;
  }
}

void init_cubism_state(const Rig& rig, const ModelPlan& p, InstanceState& s) {
  CubismState& c = s.cubism;
  const std::size_t deformers = rig.deformers.size(), parts = rig.parts.size(), meshes = rig.meshes.size();
  sized(c.frames, deformers);
  sized(c.deformer_on, deformers);
  sized(c.part_on, parts);
  sized(c.mesh_on, meshes);
  sized(c.deformer_opacity, deformers);
  sized(c.deformer_multiply, deformers);
  sized(c.deformer_screen, deformers);
  sized(c.part_input, parts);
  sized(c.part_opacity, parts);
  sized(c.part_switched, parts);
  sized(c.mesh_fresh, meshes);
  sized(c.mesh_local, meshes);
  sized(c.deformer_local, deformers);
  sized(c.local_vertices, p.vertex_floats);
  sized(c.local_points, p.warp_floats);
  sized(c.direction, deformers);
  // The Core's buffers before its first update hold zero, but for the colours of a file whose
  // meshes have no keyform colours (moc3 before version 4), which are the constants from the
  // start (measured, Core 6.0.1: white and black on version 2 exports with meshes hidden from
  // the start, zero on v5-outside in tests/cubism/fixtures).
  sized(c.vertices, p.vertex_floats);
  sized(c.mesh_opacity, meshes);
  sized(c.mesh_multiply, meshes);
  sized(c.mesh_screen, meshes);
  if (!rig.canvas.keyform_colors)
    for (std::size_t mi = 0; mi < meshes; ++mi) {
      c.mesh_multiply[mi] = rig.meshes[mi].multiply;
      c.mesh_screen[mi] = rig.meshes[mi].screen;
    }
  sized(c.glue_intensity, rig.glues.size());
  sized(c.render_orders, meshes + p.cubism_plan.offscreen_parts.size());
  sized(c.draw_orders, meshes);
}

void evaluate_cubism(const Model& model, InstanceState& s, StageMark mark) {
  const Rig& rig = model.rig();
  const ModelPlan& plan = model.plan();
  auto done = [&](std::size_t stage) {
    if (mark.call) mark.call(mark.context, stage);
  };
  for (std::size_t i = 0; i < rig.parameters.size(); ++i) s.normalized[i] = cubism_normalize(rig.parameters[i], s.current[i]);
  s.weight_cache.invalidate();
  start_tracking(s);
  const CubismWeigher weigh{s.normalized.data(), plan.cubism_plan.epsilon.data(), s.cells.data(), &s.weight_cache};
  done(0);
  evaluate_parts(rig, plan, weigh, s);
  done(1);
  evaluate_deformers(rig, plan, weigh, s);
  done(2);
  evaluate_meshes(rig, plan, weigh, s);
  done(3);
  apply_glue(rig, plan, weigh, s);
  done(4);
  write_output(rig, plan, s);
  done(5);
  build_render_order(rig, plan, s);
  done(6);
}

}  // namespace p2l::eval
