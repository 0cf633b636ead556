// Blend shapes (moc 4.2+) as p2lrt bindings.
//
// Cubism stores each blend-shape keyform as a delta that is added to the object's
// interpolated value; p2lrt stores a target and adds (target − value at the default pose)·w.
// So a target is written as the default-pose value plus the delta, with the default-pose
// value computed by the very functions p2lrt evaluates with (eval/forms.hpp), and the
// difference gives back the delta up to one rounding. The base key's keyform is ignored
// by both. Core 4.2 (moc version 4) blends positions of warps and meshes only; version 5
// adds opacity, draw order and colours, parts, rotations and glue.
#include <cmath>

#include "eval/channels.hpp"
#include "eval/forms.hpp"
#include "import/moc3_context.hpp"

namespace p2l::moc3 {
namespace {

using eval::CellWeight;
using eval::ChannelState;

class DefaultPose {
 public:
  explicit DefaultPose(const Rig& rig) {
    for (const auto& q : rig.parameters) values_.push_back(eval::normalize({q.min, q.max, q.default_value, q.repeat}, q.default_value));
  }

  ChannelState state(ChannelState start, const Channels& channels) {
    const auto plans = eval::plan_channels(channels);
    for (const auto& ch : channels) grow(ch.grid.cell_count());
    eval::apply_channels(plans, {values_.data(), scratch_.data()}, start);
    return start;
  }
  std::vector<float> forms(const std::optional<Grid<Array<float>>>& grid, std::size_t n) {
    std::vector<float> out(n, 0.0f);
    if (!grid) return out;
    grow(grid->cell_count());
    eval::blend_forms(eval::GridPlan(*grid), grid->forms, {values_.data(), scratch_.data()}, nullptr, out.data(), n);
    return out;
  }
  Pivot pivot(const p2l::Deformer& d) {
    if (!d.pivot) return eval::pivot_at(d, eval::GridPlan(), {values_.data(), scratch_.data()});
    grow(d.pivot->cell_count());
    return eval::pivot_at(d, eval::GridPlan(*d.pivot), {values_.data(), scratch_.data()});
  }

 private:
  void grow(std::size_t cells) {
    if (scratch_.size() < cells) scratch_.resize(cells);
  }
  std::vector<float> values_;
  std::vector<CellWeight> scratch_{1};
};

// Cubism weighs a binding by min(1, every constraint's weight); p2lrt by the product of
// its limits. They agree for at most one constraint whose weights stay within [0, 1].
template <class S>
Binding<S> binding(Context& c, const BlendBinding& b, const std::string& owner) {
  Binding<S> out;
  out.parameter = b.parameter;
  out.keys = Array<float>(std::vector<float>(b.keys));
  out.neutral = b.base;
  out.shapes.resize(b.keys.size());
  bool same = b.constraints.size() <= 1;
  for (const auto& k : b.constraints) {
    out.limits.push_back({k.parameter, k.points});
    for (const auto& p : k.points) same &= p[1] >= 0.0f && p[1] <= 1.0f;
  }
  if (!same)
    c.report.dropped.push_back(owner + ": a blend shape on " + c.rig.parameters[b.parameter].id +
                               " has several constraints or weights outside [0, 1]; p2lrt multiplies them where Cubism "
                               "takes min(1, weights)");
  return out;
}

bool nonzero(const Rgb& v) { return v[0] != 0.0f || v[1] != 0.0f || v[2] != 0.0f; }

// A shape's target: the default-pose points moved by a keyform's deltas.
Array<float> moved(std::vector<float> base, const Array<float>& delta) {
  for (std::size_t i = 0; i < base.size(); ++i) base[i] += delta[i];
  return Array<float>(std::move(base));
}

Rgb plus(Rgb a, const Rgb& b) {
  for (int k = 0; k < 3; ++k) a[k] += b[k];
  return a;
}

}  // namespace

void add_blend_shapes(Context& c) {
  if (!c.blend.any()) return;
  DefaultPose pose(c.rig);
  const bool v5 = c.f.version() >= 5;
  const auto& canvas = c.f.canvas();

  for (std::size_t di = 0; di < c.o.deformers.size(); ++di) {
    const auto& d = c.o.deformers[di];
    p2l::Deformer& out = c.rig.deformers[di];
    const auto& list = d.warp ? c.blend.warps[d.specific] : c.blend.rotations[d.specific];
    if (list.empty()) continue;
    const std::string who = (d.warp ? "warp " : "rotation ") + d.id;
    const ChannelState base = pose.state(eval::static_state(out), out.channels);
    const bool root = d.parent < 0;
    bool colours = false;
    if (d.warp) {
      const std::uint32_t points = (d.rows + 1) * (d.columns + 1);
      const auto base_points = pose.forms(out.lattice, std::size_t{points} * 2);
      for (const auto& b : list) {
        auto binding_out = binding<LatticeShape>(c, b, who);
        for (std::uint32_t k = 0; k < b.keys.size(); ++k) {
          if (k == b.base) continue;
          const std::uint32_t j = b.first + k;
          const auto delta = c.positions(kWarpPositions, j, points, root, false);
          LatticeShape s{moved(base_points, delta), base.opacity + (v5 ? c.f.f32(kWarpOpacity, j) : 0.0f), base.multiply,
                         base.screen};
          if (v5) colours |= nonzero(c.multiply_color(c.colors.warp_multiply[j])) || nonzero(c.screen_color(c.colors.warp_screen[j]));
          binding_out.shapes[k] = std::move(s);
        }
        out.lattice_shapes.push_back(std::move(binding_out));
      }
    } else {
      const Pivot base_pivot = pose.pivot(out);
      const float scale = c.rotation_above[di] ? 1.0f : canvas.pixels_per_unit;
      const float place = root ? canvas.pixels_per_unit : 1.0f;
      for (const auto& b : list) {
        auto binding_out = binding<PivotShape>(c, b, who);
        for (std::uint32_t k = 0; k < b.keys.size(); ++k) {
          if (k == b.base) continue;
          const std::uint32_t j = b.first + k;
          PivotShape s;
          s.pivot = {base_pivot.x + c.f.f32(kRotationX, j) * place, base_pivot.y + c.f.f32(kRotationY, j) * place,
                     base_pivot.angle + c.f.f32(kRotationAngle, j), base_pivot.scale + c.f.f32(kRotationScale, j) * scale};
          s.flip_x = base.flip_x;
          s.flip_y = base.flip_y;
          s.opacity = base.opacity + c.f.f32(kRotationOpacity, j);
          s.multiply = base.multiply;
          s.screen = base.screen;
          colours |= nonzero(c.multiply_color(c.colors.rotation_multiply[j])) || nonzero(c.screen_color(c.colors.rotation_screen[j]));
          binding_out.shapes[k] = s;
        }
        out.pivot_shapes.push_back(std::move(binding_out));
      }
    }
    if (colours)
      c.report.dropped.push_back(who + ": blend shapes change its colours; p2lrt composes deformer colours into meshes at "
                                 "import, so these changes are not imported");
  }

  for (std::size_t mi = 0; mi < c.o.meshes.size(); ++mi) {
    const auto& list = c.blend.meshes[mi];
    if (list.empty()) continue;
    const auto& m = c.o.meshes[mi];
    p2l::Mesh& out = c.rig.meshes[mi];
    const std::string who = "mesh " + m.id;
    const ChannelState base = pose.state(eval::static_state(out), out.channels);
    const auto base_offsets = pose.forms(out.keyforms, std::size_t{m.vertex_count} * 2);
    bool colours = false;
    for (const auto& b : list) {
      auto binding_out = binding<MeshShape>(c, b, who);
      for (std::uint32_t k = 0; k < b.keys.size(); ++k) {
        if (k == b.base) continue;
        const std::uint32_t j = b.first + k;
        const auto delta = c.positions(kMeshPositions, j, m.vertex_count, m.parent < 0, false);
        MeshShape s;
        s.deltas = moved(base_offsets, delta);
        s.draw_order = base.draw_order + (v5 ? c.f.f32(kMeshOrder, j) : 0.0f);
        s.opacity = base.opacity + (v5 ? c.f.f32(kMeshOpacity, j) : 0.0f);
        s.multiply = base.multiply;
        s.screen = base.screen;
        if (v5) {
          const Rgb dm = c.multiply_color(c.colors.mesh_multiply[j]), ds = c.screen_color(c.colors.mesh_screen[j]);
          colours |= nonzero(dm) || nonzero(ds);
          s.multiply = plus(s.multiply, dm);
          s.screen = plus(s.screen, ds);
        }
        binding_out.shapes[k] = std::move(s);
      }
      out.shapes.push_back(std::move(binding_out));
    }
    if (colours)
      c.report.dropped.push_back(who + ": blend shapes change its colours; p2lrt adds them to the composed colour and does "
                                 "not clamp the result to [0, 1] as Cubism does");
  }

  for (std::size_t pi = 0; pi < c.o.parts.size(); ++pi) {
    const auto& list = c.blend.parts[pi];
    if (list.empty()) continue;
    p2l::Part& out = c.rig.parts[pi];
    const ChannelState base = pose.state(eval::static_state(out), out.channels);
    for (const auto& b : list) {
      auto binding_out = binding<PartShape>(c, b, "part " + out.id);
      for (std::uint32_t k = 0; k < b.keys.size(); ++k) {
        if (k == b.base) continue;
        PartShape s;
        s.draw_order = base.draw_order + c.f.f32(kPartOrder, b.first + k);
        s.opacity = base.opacity;
        s.multiply = base.multiply;
        s.screen = base.screen;
        binding_out.shapes[k] = s;
      }
      out.shapes.push_back(std::move(binding_out));
    }
  }

  for (std::size_t gi = 0; gi < c.o.glues.size(); ++gi)
    if (!c.blend.glues[gi].empty())
      c.report.dropped.push_back("glue " + c.o.glues[gi].id + ": " + std::to_string(c.blend.glues[gi].size()) +
                                 " blend shapes on its intensity (GLUE has no blend shapes)");
}

}  // namespace p2l::moc3
