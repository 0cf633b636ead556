// Evaluation under Cubism 2's rules, as the Cubism 2.1 runtime updates a model: parts, then
// each deformer (parents first: its keyforms, then its frame under its parent), then each
// mesh (its keyforms, then its place through its parent), then the render order.
//
// The runtime is JavaScript: its sums are doubles and its buffers float arrays. Here every
// weight, sum and frame is a double and every buffer the runtime keeps in a float array
// (lattices, vertices, a lookup's t, a rotation's probe) is rounded to float where it does.
#include "eval/cubism2_evaluate.hpp"

#include <cmath>
#include <cstring>

#include "base/sized.hpp"
#include "eval/cubism_evaluate.hpp"

namespace p2l::eval {
namespace {

// One lookup of a grid at the pose: the axes between two keys (their t) and the cells at the
// 2^dims corners (GridPlan::cubism2_corners), in the instance's scratch.
struct Corners {
  bool outside = false;
  std::uint32_t dims = 0;
  float t[GridPlan::kMaxCubism2Dims] = {};
  const std::uint32_t* cells = nullptr;
  std::size_t count() const { return std::size_t{1} << dims; }
};

Corners look_up(const GridPlan& grid, const float* values, std::uint32_t* cells) {
  Corners k;
  k.cells = cells;
  k.outside = !grid.cubism2_corners(values, cells, k.t, k.dims);
  return k;
}

// Folds the corner values [v] (2^dims, corner bit j the upper key of axis j) one axis after
// another, axis 0 first, as the runtime's nested interpolations do: each pair becomes
// a + (b - a) t. For five or more axes the runtime uses a defective weight table instead (NaN
// positions, wrong weights); this is the interpolation it meant (docs/RUNTIME.md).
double fold_lerp(double* v, const Corners& k) {
  for (std::uint32_t j = 0; j < k.dims; ++j) {
    const double t = k.t[j];
    const std::size_t half = std::size_t{1} << (k.dims - 1 - j);
    for (std::size_t i = 0; i < half; ++i) v[i] = v[2 * i] + (v[2 * i + 1] - v[2 * i]) * t;
  }
  return v[0];
}

// JavaScript's x | 0 (ToInt32): truncation toward zero, modulo 2^32 (0 for what is not a
// number or lies beyond 2^63, which no draw order reaches).
std::int32_t to_int32(double x) {
  if (!(std::fabs(x) < 9.2e18)) return 0;
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(static_cast<std::int64_t>(x))));
}

// The same fold for draw orders, truncated to an integer after every stage as the runtime
// truncates them.
std::int32_t fold_truncated(double* v, const Corners& k) {
  for (std::uint32_t j = 0; j < k.dims; ++j) {
    const double t = k.t[j];
    const std::size_t half = std::size_t{1} << (k.dims - 1 - j);
    for (std::size_t i = 0; i < half; ++i) v[i] = to_int32(v[2 * i] + (v[2 * i + 1] - v[2 * i]) * t);
  }
  return to_int32(v[0]);
}

// A scalar property: its channel folded over the channel's grid (at the end keys when the pose
// lies beyond them, as the runtime folds it), else the static value. A channel's lookup
// outside its keys sets [outside].
template <class Fold>
auto scalar(std::span<const ChannelPlan> channels, ChannelType type, float fallback, const float* values, Cubism2State& c2,
            bool& outside, Fold fold) {
  for (const ChannelPlan& ch : channels) {
    if (ch.type != type || ch.kind != ChannelKind::Scalar) continue;
    const Corners k = look_up(ch.grid, values, c2.corner_cells.data());
    outside |= k.outside;
    double* v = c2.corner_values.data();
    for (std::size_t c = 0; c < k.count(); ++c) v[c] = k.cells[c] == GridPlan::kMissing ? 0.0 : ch.forms[k.cells[c]][0];
    return fold(v, k);
  }
  Corners none;
  double v = fallback;
  return fold(&v, none);
}

double lerped(double* v, const Corners& k) { return fold_lerp(v, k); }
std::int32_t truncated(double* v, const Corners& k) { return fold_truncated(v, k); }

// A flag: the corner at every lower key decides (the runtime reads a rotation's reflections
// from the first corner's keyform).
bool flag(std::span<const ChannelPlan> channels, ChannelType type, bool fallback, const float* values, Cubism2State& c2,
          bool& outside) {
  for (const ChannelPlan& ch : channels) {
    if (ch.type != type || ch.kind != ChannelKind::Flag) continue;
    const Corners k = look_up(ch.grid, values, c2.corner_cells.data());
    outside |= k.outside;
    return k.cells[0] != GridPlan::kMissing && ch.forms[k.cells[0]][0] != 0.0f;
  }
  return fallback;
}

// Positions: the weighted sum over the corners in double (each corner's weight the product of
// its t or 1 - t, the last axis first, as the runtime multiplies them), stored as floats.
void blend_positions(const Corners& k, const Array<float>* forms, const float* start, float* out, std::size_t n, double* weights) {
  for (std::size_t c = 0; c < k.count(); ++c) {
    double w = 1;
    for (std::uint32_t j = k.dims; j-- > 0;) w *= ((c >> j) & 1) ? static_cast<double>(k.t[j]) : 1.0 - k.t[j];
    weights[c] = w;
  }
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0;
    for (std::size_t c = 0; c < k.count(); ++c)
      if (k.cells[c] != GridPlan::kMissing) sum += weights[c] * forms[k.cells[c]][i];
    out[i] = static_cast<float>(start ? start[i] + sum : sum);
  }
}

void evaluate_parts(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  CubismState& c = s.cubism;
  for (std::uint32_t pi : plan.cubism_plan.part_order) {
    const std::int32_t parent = plan.parts[pi].parent;
    const bool on = rig.parts[pi].enabled && (parent < 0 || c.part_on[static_cast<std::size_t>(parent)]);
    c.part_on[pi] = on;
    const float input = std::fmin(1.0f, std::fmax(0.0f, s.part_opacity[pi] * s.animation_part_opacity[pi]));
    c.part_input[pi] = input;
    c.part_opacity[pi] = parent >= 0 ? input * c.part_opacity[static_cast<std::size_t>(parent)] : input;
    s.part_draw_order[pi] = static_cast<float>(rig.parts[pi].draw_order);
  }
}

void evaluate_deformers(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  CubismState& c = s.cubism;
  Cubism2State& c2 = s.cubism2;
  const float* values = s.normalized.data();
  for (std::size_t i = 0; i < rig.deformers.size(); ++i) {
    const Deformer& d = rig.deformers[i];
    const DeformerPlan& dp = plan.deformers[i];
    const bool has_grid = d.kind == DeformerKind::Warp ? d.lattice.has_value() : d.pivot.has_value();
    // The grid's corners live in the second half of corner_cells and the channels' lookups in
    // the first, so that both are alive while the frame is made.
    Corners k;
    if (has_grid) k = look_up(dp.grid, values, c2.corner_cells.data() + c2.corner_cells.size() / 2);
    bool outside = k.outside;
    const double opacity = scalar(dp.channels, ChannelType::Opacity, d.opacity, values, c2, outside, lerped);
    const bool reflect_x = flag(dp.channels, ChannelType::FlipX, d.flip_x, values, c2, outside);
    const bool reflect_y = flag(dp.channels, ChannelType::FlipY, d.flip_y, values, c2, outside);
    c2.deformer_outside[i] = outside;
    // Available: its parent is available and inside its keys (the runtime's test for a
    // deformer's parent). A warp that is not keeps its last frame; a rotation makes its frame
    // all the same, from the frame its parent has (and its keys clamped to their ends when it
    // lies outside them): a rotation's children may draw through it.
    const std::size_t p = d.parent >= 0 ? static_cast<std::size_t>(d.parent) : 0;
    const bool placed = d.enabled && (d.part < 0 || c.part_on[static_cast<std::size_t>(d.part)]);
    const bool available = placed && (d.parent < 0 || (c2.deformer_available[p] && !c2.deformer_outside[p]));
    c2.deformer_available[i] = available;
    c.deformer_on[i] = available && !outside;
    s.deformer_dirty[i] = c.deformer_on[i];
    const bool warp = d.kind == DeformerKind::Warp;
    if (!placed || (warp && !available)) continue;
    const Cubism2Frame* parent = d.parent >= 0 ? &c2.frames[p] : nullptr;
    Cubism2Frame f;
    if (warp) {
      float* local = c.local_points.data() + dp.points_offset;
      float* points = s.warp_points.data() + dp.points_offset;
      const std::size_t n = std::size_t{dp.point_count} * 2;
      if (has_grid)
        blend_positions(k, d.lattice->forms.data(), nullptr, local, n, c2.corner_values.data());
      else
        std::fill(local, local + n, 0.0f);
      if (parent)
        cubism2_map_points(*parent, local, points, n);
      else
        std::memcpy(points, local, n * sizeof(float));
      f = cubism2_warp(points, d.columns, d.rows);
      f.total_scale = parent ? parent->total_scale : 1.0;
    } else {
      Cubism2Rotation in;
      if (has_grid) {
        double* v = c2.corner_values.data();
        auto field = [&](float Pivot::*member) {
          for (std::size_t cn = 0; cn < k.count(); ++cn) v[cn] = k.cells[cn] == GridPlan::kMissing ? 0.0 : dp.pivots[k.cells[cn]].*member;
          return fold_lerp(v, k);
        };
        in.x = field(&Pivot::x);
        in.y = field(&Pivot::y);
        in.angle = field(&Pivot::angle);
        in.scale = field(&Pivot::scale);
      }
      in.angle += d.base_angle;
      in.reflect_x = reflect_x;
      in.reflect_y = reflect_y;
      f = cubism2_rotation(in, parent, c.probe_direction);
    }
    f.total_opacity = parent ? parent->total_opacity * opacity : opacity;
    c2.frames[i] = f;
    c.deformer_opacity[i] = static_cast<float>(f.total_opacity);
  }
}

void evaluate_meshes(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  CubismState& c = s.cubism;
  Cubism2State& c2 = s.cubism2;
  const float* values = s.normalized.data();
  const Canvas& canvas = rig.canvas;
  for (std::size_t mi = 0; mi < rig.meshes.size(); ++mi) {
    const Mesh& m = rig.meshes[mi];
    const MeshPlan& mp = plan.meshes[mi];
    const bool has_grid = m.keyforms.has_value();
    Corners k;
    if (has_grid) k = look_up(mp.keyforms, values, c2.corner_cells.data() + c2.corner_cells.size() / 2);
    bool outside = k.outside;
    const std::int32_t order = scalar(mp.channels, ChannelType::DrawOrder, m.draw_order, values, c2, outside, truncated);
    const double opacity = scalar(mp.channels, ChannelType::Opacity, m.opacity, values, c2, outside, lerped);
    const bool part_on = mp.part < 0 || c.part_on[static_cast<std::size_t>(mp.part)];
    const std::int32_t parent = m.parent;
    // A mesh is placed by its parent unless that parent is outside its own keys: through the
    // frame the parent has, which is its last one when a deformer above it is outside its
    // keys (the runtime tests only the parent's own keys here). A parent never placed (not
    // enabled, its part hidden) hides it.
    bool placed = true;
    if (parent >= 0) {
      const auto p = static_cast<std::size_t>(parent);
      const Deformer& d = rig.deformers[p];
      placed = d.enabled && (d.part < 0 || c.part_on[static_cast<std::size_t>(d.part)]) && !c2.deformer_outside[p];
    }
    // Outside its keys a mesh is neither computed nor drawn: its buffers keep what they had.
    if (outside || !m.visible || !part_on || !placed) {
      c.mesh_on[mi] = 0;
      s.mesh_dirty[mi] = 0;
      s.opacity[mi] = c.mesh_opacity[mi];
      s.draw_order[mi] = static_cast<float>(c.draw_orders[mi]);
      continue;
    }
    c.draw_orders[mi] = order;
    float* out = c.vertices.data() + mp.vertex_offset;
    float* local = parent >= 0 ? c.local_vertices.data() + mp.vertex_offset : out;
    const std::size_t n = std::size_t{mp.vertex_count} * 2;
    const float* start = m.geometry ? m.geometry->positions.data() : nullptr;
    if (has_grid)
      blend_positions(k, m.keyforms->forms.data(), start, local, n, c2.corner_values.data());
    else if (start)
      std::memcpy(local, start, n * sizeof(float));
    double parent_opacity = 1;
    if (parent >= 0) {
      const Cubism2Frame& f = c2.frames[static_cast<std::size_t>(parent)];
      cubism2_map_points(f, local, out, n);
      parent_opacity = f.total_opacity;
    }
    c.mesh_on[mi] = 1;
    s.mesh_dirty[mi] = 1;
    // Drawn with the keyform opacity times the part's times the parent deformer's.
    const double part_opacity = mp.part >= 0 ? c.part_opacity[static_cast<std::size_t>(mp.part)] : 1.0f;
    c.mesh_opacity[mi] = static_cast<float>(opacity * part_opacity * parent_opacity);
    s.opacity[mi] = c.mesh_opacity[mi];
    s.draw_order[mi] = static_cast<float>(order);
    // Canvas pixels: the model's units are y down from the top left corner.
    float* pixels = s.vertices.data() + mp.vertex_offset;
    for (std::size_t j = 0; j + 1 < n; j += 2) {
      pixels[j] = canvas.origin_x + out[j] * canvas.pixels_per_unit;
      pixels[j + 1] = canvas.origin_y + out[j + 1] * canvas.pixels_per_unit;
    }
  }
}

}  // namespace

void forget_cubism2_history(const Rig& rig, const ModelPlan& p, InstanceState& s) {
  Cubism2State& c2 = s.cubism2;
  // Before a deformer's first frame the runtime's buffers hold zeros: a warp's lattice is all
  // at the origin, a rotation is the identity at the origin.
  std::fill(s.warp_points.begin(), s.warp_points.end(), 0.0f);
  for (std::size_t i = 0; i < rig.deformers.size(); ++i) {
    const Deformer& d = rig.deformers[i];
    c2.frames[i] = Cubism2Frame{};
    if (d.kind == DeformerKind::Warp)
      c2.frames[i] = cubism2_warp(s.warp_points.data() + p.deformers[i].points_offset, d.columns, d.rows);
    else
      c2.frames[i].warp = false;
  }
  s.cubism.probe_direction[0] = s.cubism.probe_direction[1] = 0.0f;
}

void init_cubism2_state(const Rig& rig, const ModelPlan& p, InstanceState& s) {
  Cubism2State& c2 = s.cubism2;
  sized(c2.frames, rig.deformers.size());
  forget_cubism2_history(rig, p, s);
  sized(c2.deformer_outside, rig.deformers.size());
  sized(c2.deformer_available, rig.deformers.size());
  // Cubism 2 has no mesh colours: every mesh multiplies by white and screens black.
  std::fill(s.multiply.begin(), s.multiply.end(), kWhite);
  std::fill(s.screen.begin(), s.screen.end(), kBlack);
  // Two lookups are alive at once (an object's grid and one of its channels): each has half.
  sized(c2.corner_cells, 2 * p.max_cells);
  sized(c2.corner_values, p.max_cells);
}

void evaluate_cubism2(const Model& model, InstanceState& s) {
  const Rig& rig = model.rig();
  const ModelPlan& plan = model.plan();
  for (std::size_t i = 0; i < rig.parameters.size(); ++i) s.normalized[i] = cubism_normalize(rig.parameters[i], s.current[i]);
  evaluate_parts(rig, plan, s);
  evaluate_deformers(rig, plan, s);
  evaluate_meshes(rig, plan, s);
  cubism_render_order(rig, plan, s);
}

}  // namespace p2l::eval
