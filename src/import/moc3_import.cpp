#include "p2l/import.hpp"

#include <algorithm>
#include <cmath>

#include "import/moc3_context.hpp"

namespace p2l {
namespace moc3 {

Array<float> Context::positions(std::size_t slot, std::uint32_t j, std::uint32_t points, bool root, bool offset) const {
  const std::uint32_t first = static_cast<std::uint32_t>(f.i32(slot, j));
  std::vector<float> v(std::size_t{points} * 2);
  const auto& c = f.canvas();
  for (std::size_t i = 0; i < v.size(); ++i) {
    const float x = f.f32(kPositions, first + i);
    const float origin = !offset ? 0.0f : i % 2 == 0 ? c.origin_x : c.origin_y;
    v[i] = root ? origin + x * c.pixels_per_unit : x;
  }
  return v;
}

namespace {

// A scalar channel, or nothing when every keyform holds [static_value].
void scalar(const Context& c, Channels& out, ChannelType type, const KeyformRange& k, std::size_t slot, float static_value) {
  bool varies = false;
  for (std::uint32_t j = k.first; j < k.first + k.count; ++j) varies |= c.f.f32(slot, j) != static_value;
  if (!varies) return;
  Channel ch;
  ch.type = type;
  ch.kind = ChannelKind::Scalar;
  ch.grid = c.grid<Rgb>(k, [&](std::uint32_t j) { return Rgb{c.f.f32(slot, j), 0, 0}; });
  out.push_back(std::move(ch));
}

void flag(const Context& c, Channels& out, ChannelType type, const KeyformRange& k, std::size_t slot) {
  bool any = false;
  for (std::uint32_t j = k.first; j < k.first + k.count; ++j) any |= c.f.bool32(slot, j);
  if (!any) return;
  Channel ch;
  ch.type = type;
  ch.kind = ChannelKind::Flag;
  ch.grid = c.grid<Rgb>(k, [&](std::uint32_t j) { return Rgb{c.f.bool32(slot, j) ? 1.0f : 0.0f, 0, 0}; });
  out.push_back(std::move(ch));
}

}  // namespace

// Draw-order groups: the moc numbers a group after its owner, p2lrt's draw tree lists
// groups in pre-order (each followed by its subtree), so they are renumbered by a walk from
// the root. A group owned by a part object carries that part, whose draw order sorts it, and
// the moc group's minimum draw order, where Cubism sorts a hidden child.
void build_draw_tree(const Objects& o, bool floor_orders, Rig& rig, ImportReport& report) {
  rig.draw_groups.clear();
  if (o.draw_groups.empty()) rig.draw_groups.emplace_back();
  // An explicit stack, not recursion: a hostile file may nest groups as deep as it is long.
  struct Visit {
    std::uint32_t group;
    std::int32_t part, parent;  // parent: its index in rig.draw_groups, -1 for the root
    std::size_t slot;           // its entry among the parent's children
  };
  std::vector<std::uint8_t> seen(o.draw_groups.size(), 0);
  // Cubism's files list every art mesh in exactly one group; a damaged one may list a mesh
  // twice (p2lrt keeps its first place) or not at all (not drawn; the Core's render order 0).
  std::vector<std::uint8_t> listed(rig.meshes.size(), 0);
  std::size_t repeated = 0;
  std::vector<Visit> stack;
  if (!o.draw_groups.empty()) stack.push_back({0, -1, -1, 0});
  while (!stack.empty()) {
    const Visit v = stack.back();
    stack.pop_back();
    const auto at = static_cast<std::uint32_t>(rig.draw_groups.size());
    rig.draw_groups.emplace_back();
    rig.draw_groups[at].part = v.part;
    if (floor_orders) rig.draw_groups[at].floor_order = static_cast<std::int32_t>(o.draw_groups[v.group].min_order);
    if (v.parent >= 0) rig.draw_groups[static_cast<std::size_t>(v.parent)].children[v.slot].index = at;
    seen[v.group] = 1;
    const std::size_t first_child = stack.size();
    for (const auto& obj : o.draw_groups[v.group].objects) {
      auto& children = rig.draw_groups[at].children;
      if (!obj.part) {
        if (obj.index < listed.size() && listed[obj.index]++) {
          ++repeated;
          continue;
        }
        children.push_back({DrawChildKind::Mesh, obj.index});
      } else if (!seen[static_cast<std::size_t>(obj.group)]) {  // a group owned twice is drawn once
        seen[static_cast<std::size_t>(obj.group)] = 1;
        stack.push_back({static_cast<std::uint32_t>(obj.group), static_cast<std::int32_t>(obj.index), static_cast<std::int32_t>(at),
                         children.size()});
        children.push_back({DrawChildKind::Group, 0});
      }
    }
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(first_child), stack.end());  // first child on top
  }
  for (std::size_t g = 1; g < seen.size(); ++g)
    if (!seen[g]) report.dropped.push_back("draw-order group " + std::to_string(g) + " is owned by no part object and is not drawn");
  const auto meshes = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " art mesh" : " art meshes"); };
  if (repeated > 0)
    report.dropped.push_back("the draw-order groups list " + meshes(repeated) +
                             " a second time: a mesh is drawn at its first place only");
  std::size_t unlisted = 0;
  for (std::size_t m = 0; m < listed.size(); ++m) unlisted += listed[m] ? 0 : 1;
  if (unlisted > 0)
    report.dropped.push_back(meshes(unlisted) + " in no draw-order group, not drawn (the Core's render order 0)");

}

}  // namespace moc3

using moc3::BlendShapes;
using moc3::Bindings;
using moc3::Context;
using moc3::File;
using moc3::KeyformColors;
using moc3::Objects;
using moc3::flag;
using moc3::scalar;
using moc3::build_draw_tree;
using namespace moc3_slots;

ImportResult import_moc3(std::span<const std::uint8_t> bytes, const Moc3ImportOptions& options) {
  ImportResult result;
  File f;
  Bindings bindings;
  Objects o;
  BlendShapes blend;
  KeyformColors colors;
  if (!File::open(bytes, f, result.error) || !Bindings::read(f, bindings, result.error) ||
      !Objects::read(f, bindings, o, result.error) || !BlendShapes::read(f, o, blend, result.error) ||
      !KeyformColors::read(f, o, colors, result.error))
    return result;
  if (options.rules == CoreRules::Cubism) {
    moc3::build_cubism_rig(f, bindings, o, blend, colors, result);
    result.error = validate(result.rig);
    return result;
  }
  if (!bindings.unordered().empty()) {
    const moc3::UnorderedKeys& u = bindings.unordered().front();
    result.error = Error{ErrorCode::BadStructure, "moc3", -1, false,
                         "parameter binding " + std::to_string(u.binding) + ": key " + std::to_string(u.key) +
                             " is not above the one before; the format's own rules need ascending keys (import under "
                             "Cubism's rules, the default, to keep them as the Core does)"};
    return result;
  }
  Rig& rig = result.rig;
  Context in{f, bindings, o, blend, colors, rig, result.report, {}, {}, std::size_t{1} << 22};
  const auto& c = f.canvas();
  rig.canvas = {c.width, c.height, c.origin_x, c.origin_y, c.pixels_per_unit};
  if (c.flags & 1) result.report.dropped.push_back("canvas flag 'y already reversed' (bit 0) is set; positions are taken as y down");
  if (!o.offscreens.empty())
    result.report.dropped.push_back(std::to_string(o.offscreens.size()) +
                                    " offscreens (moc3 version 6) are kept under Cubism's rules only: under the original "
                                    "rules their parts draw straight into the model, without their opacity, colours, "
                                    "blend modes and masks");
  for (const auto& note : o.notes) result.report.dropped.push_back(note);

  for (const auto& p : o.parameters) {
    Parameter q;
    q.id = q.name = p.id;
    q.min = p.min;
    q.max = p.max;
    q.default_value = p.default_value;
    q.repeat = p.repeat;
    q.blend = p.blend_shape;
    // The Core wraps a repeating value into [min, max): the maximum itself shows the
    // minimum's pose. p2lrt keeps both ends, so the maximum is stored one float lower and
    // the original maximum then wraps as in Cubism.
    if (p.repeat && p.max > p.min) {
      q.max = std::nextafter(p.max, p.min);
      result.report.dropped.push_back("parameter " + p.id + " repeats: its maximum is stored as the float just below " +
                                      std::to_string(p.max) + " so that " + std::to_string(p.max) +
                                      " wraps to the minimum as in Cubism");
      if (q.default_value > q.max) {
        q.default_value = p.min;
        result.report.dropped.push_back("parameter " + p.id + ": its default, the maximum, is stored as the minimum, which "
                                        "Cubism evaluates it as");
      }
    }
    rig.parameters.push_back(q);
    if (p.decimals != 3)
      result.report.dropped.push_back("parameter " + p.id + ": " + std::to_string(p.decimals) +
                                      " decimal places; p2lrt snaps to keys within 0.001 (Cubism within 0.1^" +
                                      std::to_string(p.decimals) + ")");
  }

  // Scales: a rotation maps its local units into the space of its parent's output. At the
  // root that space is model units, which become canvas pixels here; a rotation with no
  // rotation above it (at the root, or under warps only) inherits the scale 1 in both
  // runtimes, so its own scale takes the pixels-per-unit factor; deeper ones inherit it.
  in.rotation_above.assign(o.deformers.size(), false);
  for (std::size_t i = 0; i < o.deformers.size(); ++i) {
    const auto parent = o.deformers[i].parent;
    if (parent >= 0)
      in.rotation_above[i] =
          in.rotation_above[static_cast<std::size_t>(parent)] || !o.deformers[static_cast<std::size_t>(parent)].warp;
  }
  for (std::size_t di = 0; di < o.deformers.size(); ++di) {
    const auto& d = o.deformers[di];
    Deformer out;
    out.kind = d.warp ? DeformerKind::Warp : DeformerKind::Rotation;
    out.id = d.id;
    out.parent = d.parent;
    out.part = d.parent_part;
    out.visible = d.visible;
    out.enabled = d.enabled;
    const bool root = d.parent < 0;
    if (d.warp) {
      out.columns = d.columns;
      out.rows = d.rows;
      out.bilinear = d.bilinear;
      const std::uint32_t points = (d.rows + 1) * (d.columns + 1);
      out.lattice = in.grid<Array<float>>(d.keyforms, [&](std::uint32_t j) { return in.positions(kWarpPositions, j, points, root); });
      scalar(in, out.channels, ChannelType::Opacity, d.keyforms, kWarpOpacity, 1.0f);
    } else {
      out.base_angle = d.base_angle;
      const bool scaled = !in.rotation_above[di];
      out.pivot = in.grid<Pivot>(d.keyforms, [&](std::uint32_t j) {
        Pivot p{f.f32(kRotationX, j), f.f32(kRotationY, j), f.f32(kRotationAngle, j), f.f32(kRotationScale, j)};
        if (root) {
          p.x = c.origin_x + p.x * c.pixels_per_unit;
          p.y = c.origin_y + p.y * c.pixels_per_unit;
        }
        if (scaled) p.scale *= c.pixels_per_unit;
        return p;
      });
      scalar(in, out.channels, ChannelType::Opacity, d.keyforms, kRotationOpacity, 1.0f);
      flag(in, out.channels, ChannelType::FlipX, d.keyforms, kRotationReflectX);
      flag(in, out.channels, ChannelType::FlipY, d.keyforms, kRotationReflectY);
    }
    rig.deformers.push_back(std::move(out));
  }

  // Enabled as the Core decides it from the flags: the object's own, its parent part
  // chain's and (for meshes) its deformer chain's. p2lrt hides disabled meshes. (Bindings
  // that leave their keys disable objects too: compose_mesh_tables handles those.)
  std::vector<bool> part_on(o.parts.size()), deformer_on(o.deformers.size());
  for (std::size_t i = 0; i < o.parts.size(); ++i)
    part_on[i] = o.parts[i].enabled && (o.parts[i].parent < 0 || part_on[static_cast<std::size_t>(o.parts[i].parent)]);
  for (std::size_t i = 0; i < o.deformers.size(); ++i) {
    const auto& d = o.deformers[i];
    deformer_on[i] = d.enabled && (d.parent_part < 0 || part_on[static_cast<std::size_t>(d.parent_part)]) &&
                     (d.parent < 0 || deformer_on[static_cast<std::size_t>(d.parent)]);
  }

  for (std::size_t i = 0; i < o.parts.size(); ++i) {
    const auto& p = o.parts[i];
    Part out;
    out.id = out.name = p.id;
    out.visible = p.visible;
    out.draw_order = 500;
    scalar(in, out.channels, ChannelType::DrawOrder, p.keyforms, kPartOrder, 500.0f);
    for (std::size_t m = 0; m < o.meshes.size(); ++m)
      if (o.meshes[m].parent_part == static_cast<std::int32_t>(i)) out.children.push_back({ChildKind::Mesh, static_cast<std::uint32_t>(m)});
    for (std::size_t q = 0; q < o.parts.size(); ++q)
      if (o.parts[q].parent == static_cast<std::int32_t>(i)) out.children.push_back({ChildKind::Part, static_cast<std::uint32_t>(q)});
    if (!p.visible) result.report.dropped.push_back("part " + p.id + " starts invisible (Cubism part opacity 0): its meshes are hidden");
    if (!part_on[i]) result.report.dropped.push_back("part " + p.id + " is disabled: its meshes are hidden and cannot be shown");
    rig.parts.push_back(std::move(out));
  }

  for (const auto& m : o.meshes) {
    Mesh out = moc3::mesh_record(m);
    // Part opacity multiplies down the part tree, so an invisible part hides its subtree.
    bool part_visible = true;
    for (std::int32_t q = m.parent_part; q >= 0; q = o.parts[static_cast<std::size_t>(q)].parent)
      part_visible &= o.parts[static_cast<std::size_t>(q)].visible;
    const bool enabled = m.enabled && (m.parent_part < 0 || part_on[static_cast<std::size_t>(m.parent_part)]) &&
                         (m.parent < 0 || deformer_on[static_cast<std::size_t>(m.parent)]);
    in.mesh_enabled.push_back(enabled);
    out.visible = enabled && part_visible;
    // Rest positions at zero and each keyform's absolute positions as its offsets: the
    // weights of a full grid sum to one, so the blend is the Core's interpolation.
    out.geometry = zero_rest_geometry(f, m);
    const bool root = m.parent < 0;
    out.keyforms = in.grid<Array<float>>(m.keyforms, [&](std::uint32_t j) { return in.positions(kMeshPositions, j, m.vertex_count, root); });
    scalar(in, out.channels, ChannelType::DrawOrder, m.keyforms, kMeshOrder, 500.0f);
    rig.meshes.push_back(std::move(out));
  }

  for (const auto& g : o.glues) {
    Glue out;
    out.id = g.id;
    out.mesh_a = g.mesh_a;
    out.mesh_b = g.mesh_b;
    for (const auto& p : g.pairs) out.pairs.push_back({p.a, p.b, p.weight_a, p.weight_b});
    scalar(in, out.channels, ChannelType::GlueIntensity, g.keyforms, kGlueIntensity, 1.0f);
    rig.glues.push_back(std::move(out));
  }

  build_draw_tree(o, false, rig, result.report);

  compose_mesh_tables(in);
  // Blend shapes measure from the default pose, so they come last, over finished objects.
  add_blend_shapes(in);
  result.error = validate(rig);
  return result;
}

}  // namespace p2l
