// The core evaluation, in the order of the format's stages: parameters, deformer frames
// (parents first), meshes (rest positions + keyform offsets + blend shapes, then the
// parent's frame), part draw orders and group composites, glue, draw order.
#include "eval/evaluate.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "eval/channels.hpp"
#include "eval/cubism2_evaluate.hpp"
#include "eval/cubism_evaluate.hpp"
#include "eval/draw_order.hpp"
#include "eval/forms.hpp"
#include "eval/frames.hpp"
#include "ext/advanced.hpp"

namespace p2l::eval {
namespace {

float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

}  // namespace

void normalize_parameters(const ModelPlan& plan, InstanceState& s) {
  for (std::size_t i = 0; i < plan.parameters.size(); ++i) s.normalized[i] = normalize(plan.parameters[i], s.current[i]);
  // The start of an evaluation: cached weights are for other values, and what changed since
  // the last one decides what is evaluated again.
  s.weight_cache.invalidate();
  start_tracking(s);
}

Frame deformer_frame(const Deformer& d, const DeformerPlan& dp, const Frame* parent, const Weigher& weigh, float* points,
                     double* cells, const ArcPlan* arc, ChannelState& state) {
  const float* values = weigh.values;
  state = static_state(d);
  apply_channels(dp.channels, weigh, state);
  Frame frame;
  if (d.kind == DeformerKind::Warp) {
    const std::size_t n = std::size_t{dp.point_count} * 2;
    if (d.lattice)
      blend_forms(dp.grid, d.lattice->forms, weigh, nullptr, points, n);
    else
      std::fill(points, points + n, 0.0f);
    for_each_shape(d.lattice_shapes, values, [&](const LatticeShape& shape, float w) {
      const std::size_t m = std::min(n, shape.points.size());
      for (std::size_t j = 0; j < m; ++j) points[j] += (shape.points[j] - dp.base_points[j]) * w;
      toward(state, dp.base_state, shape.opacity, nullptr, shape.multiply, shape.screen, w);
    });
    if (parent) map_points(*parent, points, n);
    frame.kind = DeformerKind::Warp;
    frame.columns = d.columns;
    frame.rows = d.rows;
    frame.bilinear = d.bilinear;
    frame.points = points;
    frame.scale = parent ? parent->scale : 1.0f;
    finish_warp(frame);
    if (kWarpCellTables && cells && dp.cells_offset >= 0 && !d.bilinear) build_warp_cells(frame, cells + dp.cells_offset);
  } else {
    Pivot p = pivot_at(d, dp.grid, weigh);
    for_each_shape(d.pivot_shapes, values, [&](const PivotShape& shape, float w) {
      p.x += (shape.pivot.x - dp.base_pivot.x) * w;
      p.y += (shape.pivot.y - dp.base_pivot.y) * w;
      p.angle += (shape.pivot.angle - dp.base_pivot.angle) * w;
      p.scale += (shape.pivot.scale - dp.base_pivot.scale) * w;
      toward(state, dp.base_state, shape.opacity, nullptr, shape.multiply, shape.screen, w);
    });
    if (arc) ext::along_arc(*arc, d.pivot->forms, values, p);  // H2
    frame = rotation_frame(parent, p, d.base_angle, state.flip_x, state.flip_y);
  }
  return frame;
}

void evaluate_deformers(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  const Weigher weigh{s.normalized.data(), s.cells.data(), &s.weight_cache};
  const ext::AdvancedState* advanced = s.advanced.get();
  for (std::size_t i = 0; i < rig.deformers.size(); ++i) {
    const Deformer& d = rig.deformers[i];
    const DeformerPlan& dp = plan.deformers[i];
    const bool dirty = !s.tracking || (d.parent >= 0 && s.deformer_dirty[static_cast<std::size_t>(d.parent)]) ||
                       reads_changed(plan, dp.reads, s);
    s.deformer_dirty[i] = dirty;
    if (!dirty) continue;  // its frame, lattice, cell table and opacity hold
    const Frame* parent = d.parent >= 0 ? &s.frames[static_cast<std::size_t>(d.parent)] : nullptr;
    const ArcPlan* arc = advanced ? ext::frame_arc(*advanced, plan, i) : nullptr;
    ChannelState state;
    s.frames[i] = deformer_frame(d, dp, parent, weigh, s.warp_points.data() + dp.points_offset, s.warp_cells.data(), arc, state);
    // Each level clamps before multiplying, so no level carries another below transparent.
    const float inherited = d.parent >= 0 ? s.deformer_opacity[static_cast<std::size_t>(d.parent)] : 1.0f;
    s.deformer_opacity[i] = clamp01(state.opacity) * inherited;
  }
}

ChannelState mesh_local(const Mesh& m, const MeshPlan& mp, const Weigher& weigh, float* out,
                        const std::uint8_t* skip_binding) {
  const float* values = weigh.values;
  ChannelState state = static_state(m);
  apply_channels(mp.channels, weigh, state);
  const std::size_t n = out ? std::size_t{mp.vertex_count} * 2 : 0;
  if (n) {
    if (m.keyforms)
      blend_forms(mp.keyforms, m.keyforms->forms, weigh, m.geometry->positions.data(), out, n);
    else
      std::memcpy(out, m.geometry->positions.data(), n * sizeof(float));
  }
  for (std::size_t b = 0; b < m.shapes.size(); ++b) {
    if (skip_binding && skip_binding[b]) continue;  // H4: an extension stands in for this blend shape
    std::uint32_t keys[2];
    float weights[2];
    const std::size_t count = binding_weights(m.shapes[b], values, keys, weights);
    for (std::size_t k = 0; k < count; ++k) {
      // Mesh shapes hold target offsets: they replace the offsets the default pose has.
      const MeshShape& shape = *m.shapes[b].shapes[keys[k]];
      const float w = weights[k];
      const std::size_t len = std::min(n, shape.deltas.size());
      for (std::size_t j = 0; j < len; ++j) out[j] += (shape.deltas[j] - mp.base_offsets[j]) * w;
      toward(state, mp.base_state, shape.opacity, &shape.draw_order, shape.multiply, shape.screen, w);
    }
  }
  return state;
}

void evaluate_meshes(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  const Weigher weigh{s.normalized.data(), s.cells.data(), &s.weight_cache};
  ext::AdvancedState* advanced = s.advanced.get();
  for (std::size_t mi = 0; mi < rig.meshes.size(); ++mi) {
    const Mesh& m = rig.meshes[mi];
    const MeshPlan& mp = plan.meshes[mi];
    float* out = s.vertices.data() + mp.vertex_offset;
    const std::size_t n = std::size_t{mp.vertex_count} * 2;
    // A mesh its changes do not reach keeps its vertices; its channel values are computed
    // again all the same (cheap, and the host layer rewrites them after every evaluation).
    const bool clean = s.tracking && !mp.glued && (m.parent < 0 || !s.deformer_dirty[static_cast<std::size_t>(m.parent)]) &&
                       !reads_changed(plan, mp.reads, s);
    s.mesh_dirty[mi] = !clean;
    const ChannelState state = advanced ? ext::mesh_local_hooked(*advanced, s, mi, out)  // H4
                                        : mesh_local(m, mp, weigh, clean ? nullptr : out);
    if (m.parent >= 0 && !clean) map_points(s.frames[static_cast<std::size_t>(m.parent)], out, n);
    const float inherited = m.parent >= 0 ? s.deformer_opacity[static_cast<std::size_t>(m.parent)] : 1.0f;
    s.opacity[mi] = clamp01(state.opacity) * inherited;
    s.draw_order[mi] = state.draw_order;
    s.multiply[mi] = state.multiply;
    s.screen[mi] = state.screen;
  }
}

void evaluate_parts(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  const Weigher weigh{s.normalized.data(), s.cells.data(), &s.weight_cache};
  const float* values = weigh.values;
  for (std::size_t pi = 0; pi < rig.parts.size(); ++pi) {
    const Part& part = rig.parts[pi];
    const PartPlan& pp = plan.parts[pi];
    ChannelState state = static_state(part);
    apply_channels(pp.channels, weigh, state);
    for_each_shape(part.shapes, values, [&](const PartShape& shape, float w) {
      toward(state, pp.base_state, shape.opacity, &shape.draw_order, shape.multiply, shape.screen, w);
    });
    s.part_draw_order[pi] = state.draw_order;
    // The isolated group composites with its composite's values, which the draw tree's
    // channels for the group override.
    ChannelState group;
    group.opacity = pp.composite->opacity;
    group.multiply = pp.composite->multiply;
    group.screen = pp.composite->screen;
    if (pp.draw_group >= 0) apply_channels(plan.draw_groups[static_cast<std::size_t>(pp.draw_group)].channels, weigh, group);
    s.part_composite[pi] = {clamp01(group.opacity), group.multiply, group.screen};
  }
}

void apply_glue(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  const Weigher weigh{s.normalized.data(), s.cells.data(), &s.weight_cache};
  for (std::size_t gi = 0; gi < rig.glues.size(); ++gi) {
    const Glue& g = rig.glues[gi];
    ChannelState state;
    state.glue_intensity = g.intensity;
    apply_channels(plan.glues[gi].channels, weigh, state);
    const float intensity = state.glue_intensity;
    if (g.mesh_a == g.mesh_b) continue;
    float* a = s.vertices.data() + plan.meshes[g.mesh_a].vertex_offset;
    float* b = s.vertices.data() + plan.meshes[g.mesh_b].vertex_offset;
    for (const GluePair& pair : g.pairs) {
      // Both move from the pair's positions before this pair: each by its own weight.
      for (int k = 0; k < 2; ++k) {
        const float pa = a[pair.a * 2 + k], pb = b[pair.b * 2 + k];
        a[pair.a * 2 + k] = pa + (pb - pa) * pair.weight_a * intensity;
        b[pair.b * 2 + k] = pb + (pa - pb) * pair.weight_b * intensity;
      }
    }
  }
}

void evaluate_core(const Model& model, InstanceState& s) {
  if (model.plan().cubism2) return evaluate_cubism2(model, s);
  if (model.plan().cubism) return evaluate_cubism(model, s);
  const Rig& rig = model.rig();
  const ModelPlan& plan = model.plan();
  normalize_parameters(plan, s);
  s.virtual_frames_valid = false;  // virtual bones follow these values when next asked
  if (s.advanced) ext::hold_parameters(*s.advanced, plan, s);  // H1
  evaluate_deformers(rig, plan, s);
  evaluate_meshes(rig, plan, s);
  evaluate_parts(rig, plan, s);
  apply_glue(rig, plan, s);
  build_render_order(rig, plan, s);
}

}  // namespace p2l::eval
