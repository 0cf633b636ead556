// A moc3 as a rig under Cubism's rules (core chunks version 2): the moc's own data, object by
// object, for the evaluation that reproduces the Cubism Core (eval/cubism_evaluate.cpp).
// Nothing is converted: positions stay in the moc's space (model units, y down at the root),
// keyforms stay absolute, blend-shape keyforms stay deltas, colours and opacities stay per
// object (the evaluation composes them as the Core does), and each parameter keeps its decimal
// places. A property whose keyforms all hold the same value is written once as the object's
// static value (the evaluation still sums it over the object's keyforms, as the Core does).
#include <bit>
#include <cmath>

#include "import/moc3_context.hpp"

namespace p2l::moc3 {
namespace {

class CubismBuilder {
 public:
  CubismBuilder(const File& f, const Bindings& b, const Objects& o, const BlendShapes& bs, const KeyformColors& kc,
                Rig& rig, ImportReport& report)
      : f_(f), b_(b), o_(o), bs_(bs), kc_(kc), rig_(rig), report_(report) {}

  void build() {
    const auto& c = f_.canvas();
    rig_.rules = CoreRules::Cubism;
    rig_.canvas = {c.width, c.height, c.origin_x, c.origin_y, c.pixels_per_unit, (c.flags & 1) != 0, f_.version() >= 5,
                   f_.version() >= 4};
    parameters();
    reserve_positions();
    deformers();
    parts();
    meshes();
    glues();
    build_draw_tree(o_, true, rig_, report_);
    offscreens();
    for (const auto& note : o_.notes) report_.dropped.push_back(note);
    report_unordered_keys();
  }

 private:
  template <class F, class Form>
  Grid<F> grid(const KeyformRange& k, Form form) const {
    return keyform_grid<F>(b_, k, form);
  }

  // Whether every keyform holds the same bits (then the static value stands for them).
  template <class Value>
  bool constant(const KeyformRange& k, Value value) const {
    for (std::uint32_t j = k.first + 1; j < k.first + k.count; ++j)
      if (std::bit_cast<std::uint32_t>(value(j)) != std::bit_cast<std::uint32_t>(value(k.first))) return false;
    return true;
  }

  // A scalar channel over the object's keyforms, or the value into [fixed] when it never varies.
  void scalar(const KeyformRange& k, Channels& out, ChannelType type, std::size_t slot, float& fixed) const {
    auto value = [&](std::uint32_t j) { return f_.f32(slot, j); };
    if (constant(k, value)) {
      fixed = value(k.first);
      return;
    }
    out.push_back({type, ChannelKind::Scalar, grid<Rgb>(k, [&](std::uint32_t j) { return Rgb{value(j), 0, 0}; })});
  }
  void flag(const KeyformRange& k, Channels& out, ChannelType type, std::size_t slot, bool& fixed) const {
    auto value = [&](std::uint32_t j) { return f_.bool32(slot, j) ? 1.0f : 0.0f; };
    if (constant(k, value)) {
      fixed = value(k.first) != 0.0f;
      return;
    }
    out.push_back({type, ChannelKind::Flag, grid<Rgb>(k, [&](std::uint32_t j) { return Rgb{value(j), 0, 0}; })});
  }
  // Colours (moc 4.2+): keyform j's entry in [entries]; before 4.2 the Core's neutral colour.
  // The Core sums an object's colours over its keyforms from 4.2 on, and such a sum need not
  // give back a colour all keyforms share: an object with keys keeps its colour channels.
  void color(const KeyformRange& k, Channels& out, ChannelType type, const std::vector<std::uint32_t>& entries,
             bool screen, Rgb& fixed) const {
    if (entries.empty()) {
      fixed = screen ? kBlack : kWhite;
      return;
    }
    auto value = [&](std::uint32_t j) { return screen ? c_screen(entries[j]) : c_multiply(entries[j]); };
    if (b_.axes(k.binding).empty()) {
      fixed = value(k.first);
      return;
    }
    out.push_back({type, ChannelKind::Color, grid<Rgb>(k, value)});
  }
  Rgb c_multiply(std::uint32_t e) const { return {f_.f32(108, e), f_.f32(109, e), f_.f32(110, e)}; }
  Rgb c_screen(std::uint32_t e) const { return {f_.f32(111, e), f_.f32(112, e), f_.f32(113, e)}; }
  // A blend-shape keyform's colour deltas: only version 5 gives blend-shape keyforms entries.
  Rgb delta_multiply(const std::vector<std::uint32_t>& entries, std::uint32_t j) const {
    return f_.version() >= 5 ? c_multiply(entries[j]) : kBlack;
  }
  Rgb delta_screen(const std::vector<std::uint32_t>& entries, std::uint32_t j) const {
    return f_.version() >= 5 ? c_screen(entries[j]) : kBlack;
  }

  // The warps' and meshes' keyform positions, all in one block in the order they are built,
  // each object's forms one after another (each form a view of the block): evaluation reads
  // them as one run, as the Core reads the moc's (eval/plan.hpp, rows), and the rig holds one
  // allocation instead of two per form.
  void reserve_positions() {
    std::size_t total = 0;
    for (const auto& d : o_.deformers)
      if (d.warp) total += std::size_t{d.keyforms.count} * (std::size_t{d.rows} + 1) * (std::size_t{d.columns} + 1) * 2;
    for (const auto& m : o_.meshes) total += std::size_t{m.keyforms.count} * m.vertex_count * 2;
    positions_ = std::make_shared<std::vector<float>>(total);
  }
  // The forms of [k] placed next in the block; returns form j's view for keyform_grid.
  auto positions_of(std::size_t slot, const KeyformRange& k, std::uint32_t points) {
    const std::size_t n = std::size_t{points} * 2;
    // Each warp and mesh comes here once, as reserve_positions counted; should one not have
    // been counted, it gets a block of its own rather than running past the end.
    if (n * k.count > positions_->size() - used_) {
      positions_ = std::make_shared<std::vector<float>>(n * k.count);
      used_ = 0;
    }
    float* const at = positions_->data() + used_;
    used_ += n * k.count;
    for (std::uint32_t local = 0; local < k.count; ++local) read_positions(slot, k.first + local, n, at + local * n);
    return [block = positions_, at, n, first = k.first](std::uint32_t j) { return Array<float>::view(at + (j - first) * n, n, block); };
  }

  // Keyform j's n position floats (its entry in [slot] says where they start) into [to].
  void read_positions(std::size_t slot, std::uint32_t j, std::size_t n, float* to) const {
    const std::uint32_t first = static_cast<std::uint32_t>(f_.i32(slot, j));
    for (std::size_t i = 0; i < n; ++i) to[i] = f_.f32(kPositions, first + i);
  }
  Array<float> positions(std::size_t slot, std::uint32_t j, std::uint32_t points) const {
    std::vector<float> v(std::size_t{points} * 2);
    read_positions(slot, j, v.size(), v.data());
    return Array<float>(std::move(v));
  }

  // A blend binding; [shape] makes the delta of keyform j (the base key has none: the Core
  // ignores its keyform).
  template <class S, class Shape>
  Binding<S> binding(const BlendBinding& b, Shape shape) const {
    Binding<S> out;
    out.parameter = b.parameter;
    out.keys = Array<float>(std::vector<float>(b.keys));
    out.neutral = b.base;
    out.shapes.resize(b.keys.size());
    for (std::uint32_t k = 0; k < b.keys.size(); ++k)
      if (k != b.base) out.shapes[k] = shape(b.first + k);
    for (const auto& c : b.constraints) out.limits.push_back({c.parameter, c.points});
    return out;
  }

  void parameters() {
    for (const auto& p : o_.parameters) {
      p2l::Parameter q;
      q.id = q.name = p.id;
      q.min = p.min;
      q.max = p.max;
      q.default_value = p.default_value;
      q.repeat = p.repeat;
      q.blend = p.blend_shape;
      // Past 45 places 0.1^decimals is 0 in single precision, as any larger count gives.
      q.decimals = static_cast<std::uint8_t>(std::min<std::uint32_t>(p.decimals, 255));
      rig_.parameters.push_back(q);
    }
  }

  void deformers() {
    const bool v5 = f_.version() >= 5;
    for (const auto& d : o_.deformers) {
      p2l::Deformer out;
      out.kind = d.warp ? DeformerKind::Warp : DeformerKind::Rotation;
      out.id = d.id;
      out.parent = d.parent;
      out.part = d.parent_part;
      out.visible = d.visible;
      out.enabled = d.enabled;
      const auto& multiply = d.warp ? kc_.warp_multiply : kc_.rotation_multiply;
      const auto& screen = d.warp ? kc_.warp_screen : kc_.rotation_screen;
      if (d.warp) {
        out.columns = d.columns;
        out.rows = d.rows;
        out.bilinear = d.bilinear;
        const std::uint32_t points = (d.rows + 1) * (d.columns + 1);
        out.lattice = grid<Array<float>>(d.keyforms, positions_of(kWarpPositions, d.keyforms, points));
        scalar(d.keyforms, out.channels, ChannelType::Opacity, kWarpOpacity, out.opacity);
        if (!bs_.warps.empty())
          for (const auto& b : bs_.warps[d.specific])
            out.lattice_shapes.push_back(binding<LatticeShape>(b, [&](std::uint32_t j) {
              return LatticeShape{positions(kWarpPositions, j, points), v5 ? f_.f32(kWarpOpacity, j) : 0.0f,
                                  delta_multiply(multiply, j), delta_screen(screen, j)};
            }));
      } else {
        out.base_angle = d.base_angle;
        out.pivot = grid<Pivot>(d.keyforms, [&](std::uint32_t j) {
          return Pivot{f_.f32(kRotationX, j), f_.f32(kRotationY, j), f_.f32(kRotationAngle, j), f_.f32(kRotationScale, j)};
        });
        scalar(d.keyforms, out.channels, ChannelType::Opacity, kRotationOpacity, out.opacity);
        flag(d.keyforms, out.channels, ChannelType::FlipX, kRotationReflectX, out.flip_x);
        flag(d.keyforms, out.channels, ChannelType::FlipY, kRotationReflectY, out.flip_y);
        if (!bs_.rotations.empty())
          for (const auto& b : bs_.rotations[d.specific])
            out.pivot_shapes.push_back(binding<PivotShape>(b, [&](std::uint32_t j) {
              PivotShape s;
              s.pivot = {f_.f32(kRotationX, j), f_.f32(kRotationY, j), f_.f32(kRotationAngle, j), f_.f32(kRotationScale, j)};
              s.opacity = f_.f32(kRotationOpacity, j);
              s.multiply = delta_multiply(multiply, j);
              s.screen = delta_screen(screen, j);
              return s;
            }));
      }
      color(d.keyforms, out.channels, ChannelType::MultiplyColor, multiply, false, out.multiply);
      color(d.keyforms, out.channels, ChannelType::ScreenColor, screen, true, out.screen);
      rig_.deformers.push_back(std::move(out));
    }
  }

  void parts() {
    for (std::size_t i = 0; i < o_.parts.size(); ++i) {
      const auto& p = o_.parts[i];
      p2l::Part out;
      out.id = out.name = p.id;
      out.visible = p.visible;
      out.enabled = p.enabled;
      // Parts carry a draw order only; it sorts a part that owns a draw-order group. Its keys
      // also hide the part (and all below it) outside them, so a keyed part keeps its channel
      // even when the value never changes.
      const auto value = [&](std::uint32_t j) { return f_.f32(kPartOrder, j); };
      const float first = value(p.keyforms.first);
      if (b_.axes(p.keyforms.binding).empty() && std::floor(first) == first && std::fabs(first) < 2e9f)
        out.draw_order = static_cast<std::int32_t>(first);
      else
        out.channels.push_back({ChannelType::DrawOrder, ChannelKind::Scalar,
                                grid<Rgb>(p.keyforms, [&](std::uint32_t j) { return Rgb{value(j), 0, 0}; })});
      for (std::size_t m = 0; m < o_.meshes.size(); ++m)
        if (o_.meshes[m].parent_part == static_cast<std::int32_t>(i)) out.children.push_back({ChildKind::Mesh, static_cast<std::uint32_t>(m)});
      for (std::size_t q = 0; q < o_.parts.size(); ++q)
        if (o_.parts[q].parent == static_cast<std::int32_t>(i)) out.children.push_back({ChildKind::Part, static_cast<std::uint32_t>(q)});
      if (!bs_.parts.empty())
        for (const auto& b : bs_.parts[i])
          out.shapes.push_back(binding<PartShape>(b, [&](std::uint32_t j) {
            PartShape s;
            s.draw_order = value(j);
            return s;
          }));
      rig_.parts.push_back(std::move(out));
    }
  }

  // Version 6: a part with an offscreen is an isolated group (PART group mode 2). Under Cubism's
  // rules that group is the offscreen: the part's composite carries its blend modes, masks and
  // inverted-mask flag, the channels of the part's draw group its keyed opacity and colours
  // (over the owner's binding, so summed as the Core sums them), the part's blend shapes their
  // deltas; the evaluation stops part opacities at it (eval/cubism_evaluate.cpp).
  void offscreens() {
    std::size_t culled = 0;
    std::vector<std::int32_t> group_of(rig_.parts.size(), -1);  // the draw group showing each part
    for (std::size_t g = 0; g < rig_.draw_groups.size(); ++g)
      if (rig_.draw_groups[g].part >= 0) group_of[static_cast<std::size_t>(rig_.draw_groups[g].part)] = static_cast<std::int32_t>(g);
    for (std::size_t i = 0; i < o_.offscreens.size(); ++i) {
      const Offscreen& off = o_.offscreens[i];
      p2l::Part& part = rig_.parts[off.owner];
      const std::int32_t group = group_of[off.owner];
      if (group < 0) {
        report_.dropped.push_back("offscreen " + std::to_string(i) + " of part " + part.id +
                                  ": the part owns no draw-order group, so its content is drawn without the offscreen");
        continue;
      }
      part.group_mode = 2;  // P2L_GROUP_ISOLATED
      Composite& c = part.composite;
      c.blend = off.blend;
      c.alpha_blend = off.alpha_blend;
      c.mask_meshes = off.masks;
      c.invert_mask = (off.flags & 8) != 0;
      culled += (off.flags & 4) == 0;
      // Offscreen keyform j's colours; an entry of -1 is [none] (neutral, or no delta).
      auto multiply = [&](std::uint32_t j, Rgb none) {
        return kc_.offscreen_multiply[j] < 0 ? none : c_multiply(static_cast<std::uint32_t>(kc_.offscreen_multiply[j]));
      };
      auto screen = [&](std::uint32_t j) {
        return kc_.offscreen_screen[j] < 0 ? kBlack : c_screen(static_cast<std::uint32_t>(kc_.offscreen_screen[j]));
      };
      auto opacity = [&](std::uint32_t j) { return f_.f32(161, j); };
      if (!bs_.offscreens.empty())
        for (const auto& b : bs_.offscreens[i])
          part.shapes.push_back(binding<PartShape>(b, [&](std::uint32_t j) {
            PartShape s;
            s.opacity = opacity(j);
            s.multiply = multiply(j, kBlack);
            s.screen = screen(j);
            return s;
          }));
      if (!off.keyed) continue;  // opacity 1, neutral colours
      Channels& channels = rig_.draw_groups[static_cast<std::size_t>(group)].channels;
      const KeyformRange& k = off.keyforms;
      const bool keyed = !b_.axes(k.binding).empty();
      if (keyed) {
        channels.push_back({ChannelType::Opacity, ChannelKind::Scalar, grid<Rgb>(k, [&](std::uint32_t j) { return Rgb{opacity(j), 0, 0}; })});
        channels.push_back({ChannelType::MultiplyColor, ChannelKind::Color,
                            grid<Rgb>(k, [&](std::uint32_t j) { return multiply(j, kWhite); })});
        channels.push_back({ChannelType::ScreenColor, ChannelKind::Color, grid<Rgb>(k, screen)});
      } else {
        c.opacity = opacity(k.first);
        c.multiply = multiply(k.first, kWhite);
        c.screen = screen(k.first);
      }
    }
    if (culled)
      report_.dropped.push_back(std::to_string(culled) +
                                " offscreens are not double-sided; p2lrt composites every offscreen as a full-canvas layer, "
                                "which culling does not affect");
  }

  void meshes() {
    const bool v5 = f_.version() >= 5;
    std::size_t hidden_flags = 0;
    for (std::size_t mi = 0; mi < o_.meshes.size(); ++mi) {
      const auto& m = o_.meshes[mi];
      p2l::Mesh out = mesh_record(m);
      out.visible = m.enabled;  // isEnabled hides a mesh in the Core; isVisible does nothing
      hidden_flags += !m.visible;
      // Keyforms are absolute and the rest positions zero: the Core's sum starts from zero.
      out.geometry = zero_rest_geometry(f_, m);
      out.keyforms = grid<Array<float>>(m.keyforms, positions_of(kMeshPositions, m.keyforms, m.vertex_count));
      scalar(m.keyforms, out.channels, ChannelType::Opacity, kMeshOpacity, out.opacity);
      scalar(m.keyforms, out.channels, ChannelType::DrawOrder, kMeshOrder, out.draw_order);
      color(m.keyforms, out.channels, ChannelType::MultiplyColor, kc_.mesh_multiply, false, out.multiply);
      color(m.keyforms, out.channels, ChannelType::ScreenColor, kc_.mesh_screen, true, out.screen);
      if (!bs_.meshes.empty())
        for (const auto& b : bs_.meshes[mi])
          out.shapes.push_back(binding<MeshShape>(b, [&](std::uint32_t j) {
            MeshShape s;
            s.deltas = positions(kMeshPositions, j, m.vertex_count);
            // Core 4.2 blends blend-shape positions only; 5.0 the opacity, draw order and colours too.
            if (v5) {
              s.opacity = f_.f32(kMeshOpacity, j);
              s.draw_order = f_.f32(kMeshOrder, j);
              s.multiply = c_multiply(kc_.mesh_multiply[j]);
              s.screen = c_screen(kc_.mesh_screen[j]);
            }
            return s;
          }));
      rig_.meshes.push_back(std::move(out));
    }
    if (hidden_flags)
      report_.dropped.push_back(std::to_string(hidden_flags) +
                                " art meshes have isVisible off, which has no effect in the Cubism Core; p2lrt keeps isEnabled only");
  }

  void glues() {
    for (std::size_t gi = 0; gi < o_.glues.size(); ++gi) {
      const auto& g = o_.glues[gi];
      p2l::Glue out;
      out.id = g.id;
      out.mesh_a = g.mesh_a;
      out.mesh_b = g.mesh_b;
      for (const auto& p : g.pairs) out.pairs.push_back({p.a, p.b, p.weight_a, p.weight_b});
      // The intensity's keys hide the glue outside them (it then keeps its last intensity).
      const auto value = [&](std::uint32_t j) { return f_.f32(kGlueIntensity, j); };
      if (b_.axes(g.keyforms.binding).empty())
        out.intensity = value(g.keyforms.first);
      else
        out.channels.push_back({ChannelType::GlueIntensity, ChannelKind::Scalar,
                                grid<Rgb>(g.keyforms, [&](std::uint32_t j) { return Rgb{value(j), 0, 0}; })});
      if (!bs_.glues.empty())
        for (const auto& b : bs_.glues[gi]) out.shapes.push_back(binding<GlueShape>(b, [&](std::uint32_t j) { return GlueShape{value(j)}; }));
      rig_.glues.push_back(std::move(out));
    }
  }

  // Keys the Core loads though they repeat or go down: the lookup scans them in file order as
  // the Core does (docs/IMPORT.md, "Game exports"), which a host may want to know.
  // A line each for the first few (a hostile file could list millions), then how many more.
  void report_unordered_keys() {
    constexpr std::size_t kNamed = 8;
    const auto unordered = b_.unordered();
    for (std::size_t i = 0; i < unordered.size() && i < kNamed; ++i)
      report_.dropped.push_back("parameter binding " + std::to_string(unordered[i].binding) + " of " +
                                rig_.parameters[unordered[i].parameter].id + ": key " + std::to_string(unordered[i].key) +
                                " is not above the one before; kept in file order and looked up as the Core does");
    if (unordered.size() > kNamed)
      report_.dropped.push_back(std::to_string(unordered.size() - kNamed) +
                                " more parameter bindings have keys that are not above the one before; kept likewise");
  }

  const File& f_;
  const Bindings& b_;
  const Objects& o_;
  const BlendShapes& bs_;
  const KeyformColors& kc_;
  Rig& rig_;
  ImportReport& report_;
  std::shared_ptr<std::vector<float>> positions_;  // reserve_positions
  std::size_t used_ = 0;
};

}  // namespace

void build_cubism_rig(const File& f, const Bindings& b, const Objects& o, const BlendShapes& bs, const KeyformColors& kc,
                      ImportResult& result) {
  CubismBuilder(f, b, o, bs, kc, result.rig, result.report).build();
}

}  // namespace p2l::moc3
