// Evaluation under Cubism's rules, stage by stage as the Core runs them: parameters, parts
// (enabled, opacity, draw order), deformers (parents first), meshes, glue, the output, the
// render order. Every float operation is one the Core makes, in its order: keyform sums
// start from zero and add each corner's weight times its form; a property without a
// channel of its own is its static value summed the same way over the object's grid (the
// Core interpolates its keyforms even when they are all equal, and that sum need not give
// the value back); blend shapes add weight times delta, binding by binding.
#include "eval/cubism_evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/keyed_sort.hpp"
#include "base/sized.hpp"
#include "eval/blend.hpp"
#include "eval/channels.hpp"
#include "eval/grid.hpp"

namespace p2l::eval {
namespace {

float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

// A limit curve's weight at x: linear between its points, held beyond the first and last.
float limit_weight(const std::vector<std::array<float, 2>>& points, float x) {
  if (points.empty()) return 1.0f;
  if (x <= points.front()[0]) return points.front()[1];
  if (x >= points.back()[0]) return points.back()[1];
  for (std::size_t i = 0; i + 1 < points.size(); ++i)
    if (x < points[i + 1][0]) {
      const float t = (x - points[i][0]) / (points[i + 1][0] - points[i][0]);
      return points[i][1] + (points[i + 1][1] - points[i][1]) * t;
    }
  return points.back()[1];
}

// Calls add(shape, weight) for the shapes a binding mixes: the keys around the value (held
// beyond the ends, no snapping), each weighed by min(1, every limit), the neutral key and
// absent shapes adding nothing.
template <class S, class Add>
void for_each_cubism_shape(const std::vector<Binding<S>>& bindings, const float* values, Add&& add) {
  for (const Binding<S>& b : bindings) {
    const Span s = span_exact(b.keys.span(), values[b.parameter]);
    float limit = 1.0f;
    for (const Limit& l : b.limits) limit = std::min(limit, limit_weight(l.points, values[l.parameter]));
    if (limit == 0.0f) continue;
    if (s.lo != b.neutral && s.lo < b.shapes.size() && b.shapes[s.lo]) add(*b.shapes[s.lo], (1.0f - s.t) * limit);
    if (s.hi != s.lo && s.hi != b.neutral && s.hi < b.shapes.size() && b.shapes[s.hi]) add(*b.shapes[s.hi], s.t * limit);
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

void compose_colors(Rgb& multiply, Rgb& screen, const Rgb& parent_multiply, const Rgb& parent_screen) {
  for (int k = 0; k < 3; ++k) {
    multiply[k] = multiply[k] * parent_multiply[k];
    screen[k] = screen[k] + parent_screen[k] - screen[k] * parent_screen[k];
  }
}

void evaluate_parts(const Rig& rig, const ModelPlan& plan, const CubismWeigher& weigh, InstanceState& s) {
  CubismState& c = s.cubism;
  for (std::uint32_t pi : plan.cubism_plan.part_order) {
    const Part& part = rig.parts[pi];
    const PartPlan& pp = plan.parts[pi];
    Properties props(weigh, {});
    float order = props.scalar(pp.channels, ChannelType::DrawOrder, static_cast<float>(part.draw_order), false);
    props.visit(pp.channels);
    const std::int32_t parent = pp.parent;
    c.part_on[pi] = part.enabled && !props.outside() && (parent < 0 || c.part_on[static_cast<std::size_t>(parent)]);
    // Part opacity is an input of the Core (isVisible starts it at 0 or 1): here the host's
    // and the animation's factors over that start.
    const float input = clamp01((part.visible ? 1.0f : 0.0f) * s.part_opacity[pi] * s.animation_part_opacity[pi]);
    c.part_input[pi] = input;
    c.part_opacity[pi] = parent < 0 ? input : input * c.part_opacity[static_cast<std::size_t>(parent)];
    for_each_cubism_shape(part.shapes, weigh.values, [&](const PartShape& shape, float w) { order += w * shape.draw_order; });
    s.part_draw_order[pi] = order;
  }
}

void evaluate_deformers(const Rig& rig, const ModelPlan& plan, const CubismWeigher& weigh, InstanceState& s) {
  CubismState& c = s.cubism;
  for (std::size_t i = 0; i < rig.deformers.size(); ++i) {
    const Deformer& d = rig.deformers[i];
    const DeformerPlan& dp = plan.deformers[i];
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
    if (!on) continue;  // its frame is never read: every child of a hidden deformer hides too
    auto shape_colors = [&](float shape_opacity, const Rgb& m, const Rgb& sc, float w) {
      opacity += w * shape_opacity;
      for (int k = 0; k < 3; ++k) {
        multiply[k] += w * m[k];
        screen[k] += w * sc[k];
      }
    };
    if (d.kind == DeformerKind::Warp) {
      float* points = s.warp_points.data() + dp.points_offset;
      const std::size_t n = std::size_t{dp.point_count} * 2;
      if (has_grid) {
        blend_rows(nullptr, nullptr, nullptr, 0, points, n);
        for (const CellWeight& cw : grid) {
          const float* row = d.lattice->forms[cw.cell].data();
          blend_rows(points, &row, &cw.weight, 1, points, std::min(n, d.lattice->forms[cw.cell].size()));
        }
      } else {
        std::fill(points, points + n, 0.0f);
      }
      for_each_cubism_shape(d.lattice_shapes, weigh.values, [&](const LatticeShape& shape, float w) {
        const std::size_t m = std::min(n, shape.points.size());
        for (std::size_t j = 0; j < m; ++j) points[j] += w * shape.points[j];
        shape_colors(shape.opacity, shape.multiply, shape.screen, w);
      });
      if (parent) cubism_map_points(*parent, points, n);
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
        const Pivot& p = d.pivot->forms[cw.cell];
        in.x += cw.weight * p.x;
        in.y += cw.weight * p.y;
        in.angle += cw.weight * p.angle;
        in.scale += cw.weight * p.scale;
      }
      for_each_cubism_shape(d.pivot_shapes, weigh.values, [&](const PivotShape& shape, float w) {
        in.x += w * shape.pivot.x;
        in.y += w * shape.pivot.y;
        in.angle += w * shape.pivot.angle;
        in.scale += w * shape.pivot.scale;
        shape_colors(shape.opacity, shape.multiply, shape.screen, w);
      });
      in.base_angle = d.base_angle;
      in.reflect_x = flip_x;
      in.reflect_y = flip_y;
      c.frames[i] = cubism_rotation(in, parent, c.probe_direction);
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
    c.mesh_on[mi] = on;
    s.mesh_dirty[mi] = on;
    if (!on) continue;  // the Core leaves its buffers as the last update wrote them
    float* out = c.vertices.data() + mp.vertex_offset;
    const std::size_t n = std::size_t{mp.vertex_count} * 2;
    const float* start = m.geometry ? m.geometry->positions.data() : nullptr;
    blend_rows(start, nullptr, nullptr, 0, out, n);
    for (const CellWeight& cw : grid) {
      const auto& form = m.keyforms->forms[cw.cell];
      const float* row = form.data();
      blend_rows(out, &row, &cw.weight, 1, out, std::min(n, form.size()));
    }
    for_each_cubism_shape(m.shapes, weigh.values, [&](const MeshShape& shape, float w) {
      const std::size_t len = std::min(n, shape.deltas.size());
      for (std::size_t j = 0; j < len; ++j) out[j] += w * shape.deltas[j];
      opacity += w * shape.opacity;
      order += w * shape.draw_order;
      for (int k = 0; k < 3; ++k) {
        multiply[k] += w * shape.multiply[k];
        screen[k] += w * shape.screen[k];
      }
    });
    if (m.parent >= 0) {
      const std::size_t p = static_cast<std::size_t>(m.parent);
      cubism_map_points(c.frames[p], out, n);
      compose_colors(multiply, screen, c.deformer_multiply[p], c.deformer_screen[p]);
    }
    // The keyform opacity meets the part's first, then the deformer's.
    if (mp.part >= 0) opacity = opacity * c.part_opacity[static_cast<std::size_t>(mp.part)];
    if (m.parent >= 0) opacity = opacity * c.deformer_opacity[static_cast<std::size_t>(m.parent)];
    for (int k = 0; k < 3; ++k) {
      multiply[k] = clamp01(multiply[k]);
      screen[k] = clamp01(screen[k]);
    }
    // The Core's integer draw order; it sorts by it.
    const float key = order + 0.001f;
    const std::int32_t draw = std::fabs(key) < 2147483648.0f ? static_cast<std::int32_t>(key) : INT32_MIN;
    c.draw_orders[mi] = draw;
    s.opacity[mi] = opacity;
    s.draw_order[mi] = static_cast<float>(draw);
    s.multiply[mi] = multiply;
    s.screen[mi] = screen;
  }
}

// Glue moves vertex pairs after every deformation. A glue outside its keys keeps the
// intensity it last had inside them; a glue whose mesh is hidden pulls toward (and moves)
// that mesh's last vertices, as the Core's buffers hold them.
void apply_glue(const Rig& rig, const ModelPlan& plan, const CubismWeigher& weigh, InstanceState& s) {
  CubismState& c = s.cubism;
  for (std::size_t gi = 0; gi < rig.glues.size(); ++gi) {
    const Glue& g = rig.glues[gi];
    Properties props(weigh, {});
    float intensity = props.scalar(plan.glues[gi].channels, ChannelType::GlueIntensity, g.intensity, false);
    props.visit(plan.glues[gi].channels);
    if (!props.outside()) {
      for_each_cubism_shape(g.shapes, weigh.values, [&](const GlueShape& shape, float w) { intensity += w * shape.intensity; });
      c.glue_intensity[gi] = intensity;
    }
    intensity = c.glue_intensity[gi];
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

// The Core's output (model units, y up) and p2lrt's (canvas pixels, y down).
void write_output(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  CubismState& c = s.cubism;
  const float ox = rig.canvas.origin_x, oy = rig.canvas.origin_y, ppu = rig.canvas.pixels_per_unit;
  const float up = rig.canvas.y_up ? 1.0f : -1.0f;  // the Core negates y, unless the moc's root is y up already
  for (std::size_t mi = 0; mi < rig.meshes.size(); ++mi) {
    if (!c.mesh_on[mi]) continue;
    const MeshPlan& mp = plan.meshes[mi];
    const float* in = c.vertices.data() + mp.vertex_offset;
    float* model = c.model_vertices.data() + mp.vertex_offset;
    float* pixels = s.vertices.data() + mp.vertex_offset;
    for (std::size_t j = 0; j + 1 < std::size_t{mp.vertex_count} * 2; j += 2) {
      model[j] = in[j];
      model[j + 1] = up * in[j + 1];
      pixels[j] = ox + in[j] * ppu;
      pixels[j + 1] = oy - model[j + 1] * ppu;
    }
  }
}

// Each group sorts its children by draw order (a hidden child at the group's floor), ties in
// tree order; a mesh takes the next place, a child group the block of places its meshes need.
void order_group(const Rig& rig, const ModelPlan& plan, InstanceState& s, std::uint32_t group_index, std::int32_t start) {
  const DrawGroup& g = rig.draw_groups[group_index];
  const CubismState& c = s.cubism;
  KeyedIndex* entries = s.sort_scratch.data() + plan.draw_groups[group_index].sort_offset;
  const std::size_t n = g.children.size();
  for (std::size_t i = 0; i < n; ++i) {
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
    entries[i] = {key, static_cast<std::uint32_t>(i)};
  }
  sort_keyed(entries, entries + n);
  std::int32_t at = start;
  for (std::size_t i = 0; i < n; ++i) {
    const DrawChild ch = g.children[entries[i].index];
    if (ch.kind == DrawChildKind::Mesh) {
      s.cubism.render_orders[ch.index] = at++;
    } else {
      order_group(rig, plan, s, ch.index, at);
      at += static_cast<std::int32_t>(plan.cubism_plan.group_meshes[ch.index]);
    }
  }
}

void build_render_order(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  CubismState& c = s.cubism;
  std::fill(c.render_orders.begin(), c.render_orders.end(), -1);
  if (!rig.draw_groups.empty()) order_group(rig, plan, s, 0, 0);
  // The meshes shown, back to front: the places in order (a place is a mesh's only).
  s.render_order.clear();
  s.render_commands.clear();
  KeyedIndex* order = s.sort_scratch.data();  // the groups' entries are no longer needed
  std::size_t shown = 0;
  for (std::size_t m = 0; m < rig.meshes.size(); ++m)
    if (c.mesh_on[m] && c.render_orders[m] >= 0) order[shown++] = {c.render_orders[m], static_cast<std::uint32_t>(m)};
  sort_keyed(order, order + shown);
  for (std::size_t k = 0; k < shown; ++k) {
    s.render_order.push_back(order[k].index);
    s.render_commands.push_back(static_cast<std::int32_t>(order[k].index));
  }
}

}  // namespace

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
  for (std::size_t i = 0; i < rig.parameters.size(); ++i)
    c.epsilon[i] = static_cast<float>(std::pow(0.1, static_cast<double>(rig.parameters[i].decimals)));
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
  // Meshes per draw group, its child groups included (children come after their parent).
  sized(c.group_meshes, rig.draw_groups.size());
  for (std::size_t g = rig.draw_groups.size(); g-- > 0;) {
    std::uint32_t n = 0;
    for (const DrawChild& ch : rig.draw_groups[g].children) n += ch.kind == DrawChildKind::Mesh ? 1 : c.group_meshes[ch.index];
    c.group_meshes[g] = n;
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
  sized(c.vertices, p.vertex_floats);
  sized(c.model_vertices, p.vertex_floats);
  sized(c.glue_intensity, rig.glues.size());
  sized(c.render_orders, meshes);
  sized(c.draw_orders, meshes);
}

void evaluate_cubism(const Model& model, InstanceState& s) {
  const Rig& rig = model.rig();
  const ModelPlan& plan = model.plan();
  for (std::size_t i = 0; i < rig.parameters.size(); ++i) s.normalized[i] = cubism_normalize(rig.parameters[i], s.current[i]);
  s.weight_cache.invalidate();
  s.tracking = false;
  s.evaluated_valid = false;
  const CubismWeigher weigh{s.normalized.data(), plan.cubism_plan.epsilon.data(), s.cells.data(), &s.weight_cache};
  evaluate_parts(rig, plan, weigh, s);
  evaluate_deformers(rig, plan, weigh, s);
  evaluate_meshes(rig, plan, weigh, s);
  apply_glue(rig, plan, weigh, s);
  write_output(rig, plan, s);
  build_render_order(rig, plan, s);
}

}  // namespace p2l::eval
