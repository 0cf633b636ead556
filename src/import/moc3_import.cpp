#include "p2l/import.hpp"

#include <algorithm>
#include <functional>

#include "import/moc3_bindings.hpp"
#include "import/moc3_file.hpp"
#include "import/moc3_objects.hpp"

namespace p2l {
namespace {

using moc3::File;

// Keyform slots (moc3.md section 2.9).
constexpr std::size_t kPartOrder = 58, kWarpOpacity = 59, kWarpPositions = 60, kRotationOpacity = 61,
                      kRotationAngle = 62, kRotationX = 63, kRotationY = 64, kRotationScale = 65,
                      kRotationReflectX = 66, kRotationReflectY = 67, kMeshOpacity = 68, kMeshOrder = 69,
                      kMeshPositions = 70, kPositions = 71, kUvs = 78, kIndices = 79, kGlueIntensity = 100;

class Importer {
 public:
  Importer(const File& f, const moc3::Bindings& b) : f_(f), bindings_(b) {}

  // A grid over the binding's axes (the first varies fastest, as in moc3 and p2lrt), one
  // form per keyform of [k] made by form(global keyform index).
  template <class F>
  Grid<F> grid(const moc3::KeyformRange& k, const std::function<F(std::uint32_t)>& form) const {
    Grid<F> g;
    const auto axes = bindings_.axes(k.binding);
    for (const auto& a : axes) g.axes.push_back({a.parameter, Array<float>(std::vector<float>(a.keys.begin(), a.keys.end()))});
    for (std::uint32_t local = 0; local < k.count; ++local) {
      std::uint32_t rest = local;
      for (const auto& a : axes) {
        g.coords.push_back(static_cast<std::uint16_t>(rest % a.keys.size()));
        rest /= static_cast<std::uint32_t>(a.keys.size());
      }
      g.forms.push_back(form(k.first + local));
    }
    return g;
  }

  // A scalar channel, or nothing when every keyform holds [static_value].
  void scalar(Channels& out, ChannelType type, const moc3::KeyformRange& k, std::size_t slot, float static_value) const {
    bool varies = false;
    for (std::uint32_t j = k.first; j < k.first + k.count; ++j) varies |= f_.f32(slot, j) != static_value;
    if (!varies) return;
    Channel c;
    c.type = type;
    c.kind = ChannelKind::Scalar;
    c.grid = grid<Rgb>(k, [&](std::uint32_t j) { return Rgb{f_.f32(slot, j), 0, 0}; });
    out.push_back(std::move(c));
  }

  void flag(Channels& out, ChannelType type, const moc3::KeyformRange& k, std::size_t slot) const {
    bool any = false;
    for (std::uint32_t j = k.first; j < k.first + k.count; ++j) any |= f_.bool32(slot, j);
    if (!any) return;
    Channel c;
    c.type = type;
    c.kind = ChannelKind::Flag;
    c.grid = grid<Rgb>(k, [&](std::uint32_t j) { return Rgb{f_.bool32(slot, j) ? 1.0f : 0.0f, 0, 0}; });
    out.push_back(std::move(c));
  }

  // 2 * points floats of keyform [j]'s positions, mapped to canvas pixels at the root
  // (moc space is y down in model units about the origin).
  Array<float> positions(std::size_t slot, std::uint32_t j, std::uint32_t points, bool root) const {
    const std::uint32_t first = static_cast<std::uint32_t>(f_.i32(slot, j));
    std::vector<float> v(std::size_t{points} * 2);
    const auto& c = f_.canvas();
    for (std::size_t i = 0; i < v.size(); ++i) {
      const float x = f_.f32(kPositions, first + i);
      v[i] = root ? (i % 2 == 0 ? c.origin_x + x * c.pixels_per_unit : c.origin_y + x * c.pixels_per_unit) : x;
    }
    return v;
  }

  const File& f_;
  const moc3::Bindings& bindings_;
};

}  // namespace

ImportResult import_moc3(std::span<const std::uint8_t> bytes) {
  ImportResult result;
  File f;
  moc3::Bindings bindings;
  moc3::Objects o;
  if (!File::open(bytes, f, result.error) || !moc3::Bindings::read(f, bindings, result.error) ||
      !moc3::Objects::read(f, bindings, o, result.error))
    return result;
  if (f.version() >= 4)
    result.report.dropped.push_back("moc3 version " + std::to_string(f.version()) +
                                    ": keyform colours and blend shapes are not imported yet");
  Importer in(f, bindings);
  Rig& rig = result.rig;
  const auto& c = f.canvas();
  rig.canvas = {c.width, c.height, c.origin_x, c.origin_y, c.pixels_per_unit};
  if (c.flags & 1) result.report.dropped.push_back("canvas flag 'y already reversed' (bit 0) is set; positions are taken as y down");

  for (const auto& p : o.parameters) {
    Parameter q;
    q.id = q.name = p.id;
    q.min = p.min;
    q.max = p.max;
    q.default_value = p.default_value;
    q.repeat = p.repeat;
    rig.parameters.push_back(q);
    if (p.decimals != 3)
      result.report.dropped.push_back("parameter " + p.id + ": " + std::to_string(p.decimals) +
                                      " decimal places (p2lrt snaps keys within 0.001)");
  }

  // Scales: a rotation maps its local units into the space of its parent's output. At the
  // root that space is model units, which become canvas pixels here; a rotation with no
  // rotation above it (at the root, or under warps only) inherits the scale 1 in both
  // runtimes, so its own scale takes the pixels-per-unit factor; deeper ones inherit it.
  std::vector<bool> rotation_above(o.deformers.size(), false);
  for (std::size_t i = 0; i < o.deformers.size(); ++i) {
    const auto parent = o.deformers[i].parent;
    if (parent >= 0)
      rotation_above[i] = rotation_above[static_cast<std::size_t>(parent)] || !o.deformers[static_cast<std::size_t>(parent)].warp;
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
      in.scalar(out.channels, ChannelType::Opacity, d.keyforms, kWarpOpacity, 1.0f);
    } else {
      out.base_angle = d.base_angle;
      out.pivot = in.grid<Pivot>(d.keyforms, [&](std::uint32_t j) {
        Pivot p{f.f32(kRotationX, j), f.f32(kRotationY, j), f.f32(kRotationAngle, j), f.f32(kRotationScale, j)};
        if (root) {
          p.x = c.origin_x + p.x * c.pixels_per_unit;
          p.y = c.origin_y + p.y * c.pixels_per_unit;
        }
        if (!rotation_above[di]) p.scale *= c.pixels_per_unit;
        return p;
      });
      in.scalar(out.channels, ChannelType::Opacity, d.keyforms, kRotationOpacity, 1.0f);
      in.flag(out.channels, ChannelType::FlipX, d.keyforms, kRotationReflectX);
      in.flag(out.channels, ChannelType::FlipY, d.keyforms, kRotationReflectY);
    }
    rig.deformers.push_back(std::move(out));
  }

  // Enabled as the Core decides it: the object's flag, its parent part chain's and (for
  // meshes) its deformer chain's. p2lrt hides disabled meshes.
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
    in.scalar(out.channels, ChannelType::DrawOrder, p.keyforms, kPartOrder, 500.0f);
    for (std::size_t m = 0; m < o.meshes.size(); ++m)
      if (o.meshes[m].parent_part == static_cast<std::int32_t>(i)) out.children.push_back({ChildKind::Mesh, static_cast<std::uint32_t>(m)});
    for (std::size_t q = 0; q < o.parts.size(); ++q)
      if (o.parts[q].parent == static_cast<std::int32_t>(i)) out.children.push_back({ChildKind::Part, static_cast<std::uint32_t>(q)});
    if (!p.visible) result.report.dropped.push_back("part " + p.id + " starts invisible (Cubism part opacity 0): its meshes are hidden");
    rig.parts.push_back(std::move(out));
  }

  for (const auto& m : o.meshes) {
    Mesh out;
    out.id = out.name = m.id;
    out.parent = m.parent;
    out.blend = (m.flags & 1) ? 1 : (m.flags & 2) ? 2 : 0;
    out.mask_meshes = m.masks;
    out.invert_mask = (m.flags & 8) != 0;
    out.culling = (m.flags & 4) == 0;
    out.texture_page = static_cast<std::int32_t>(m.texture);
    const bool part_visible = m.parent_part < 0 || o.parts[static_cast<std::size_t>(m.parent_part)].visible;
    out.visible = m.enabled && (m.parent_part < 0 || part_on[static_cast<std::size_t>(m.parent_part)]) &&
                  (m.parent < 0 || deformer_on[static_cast<std::size_t>(m.parent)]) && part_visible;
    std::vector<float> uvs(std::size_t{m.vertex_count} * 2);
    for (std::size_t k = 0; k < uvs.size(); ++k) uvs[k] = f.f32(kUvs, m.first_uv + k);
    std::vector<std::uint32_t> indices(m.index_count);
    for (std::size_t k = 0; k < indices.size(); ++k) indices[k] = f.u16(kIndices, m.first_index + k);
    // Rest positions at zero and each keyform's absolute positions as its offsets: the
    // weights of a full grid sum to one, so the blend is the Core's interpolation.
    out.geometry = Geometry{Array<float>(std::vector<float>(std::size_t{m.vertex_count} * 2, 0.0f)), Array<float>(std::move(uvs)),
                            IndexArray(std::move(indices))};
    const bool root = m.parent < 0;
    out.keyforms = in.grid<Array<float>>(m.keyforms, [&](std::uint32_t j) { return in.positions(kMeshPositions, j, m.vertex_count, root); });
    in.scalar(out.channels, ChannelType::Opacity, m.keyforms, kMeshOpacity, 1.0f);
    in.scalar(out.channels, ChannelType::DrawOrder, m.keyforms, kMeshOrder, 500.0f);
    rig.meshes.push_back(std::move(out));
  }

  for (const auto& g : o.glues) {
    Glue out;
    out.id = g.id;
    out.mesh_a = g.mesh_a;
    out.mesh_b = g.mesh_b;
    for (const auto& p : g.pairs) out.pairs.push_back({p.a, p.b, p.weight_a, p.weight_b});
    in.scalar(out.channels, ChannelType::GlueIntensity, g.keyforms, kGlueIntensity, 1.0f);
    rig.glues.push_back(std::move(out));
  }

  // Draw-order groups keep their numbering (children come after their parents); a group
  // owned by a part object carries that part, whose draw order sorts it.
  rig.draw_groups.assign(std::max<std::size_t>(1, o.draw_groups.size()), DrawGroup{});
  for (std::size_t g = 0; g < o.draw_groups.size(); ++g)
    for (const auto& obj : o.draw_groups[g].objects) {
      if (obj.part) {
        rig.draw_groups[static_cast<std::size_t>(obj.group)].part = static_cast<std::int32_t>(obj.index);
        rig.draw_groups[g].children.push_back({DrawChildKind::Group, static_cast<std::uint32_t>(obj.group)});
      } else {
        rig.draw_groups[g].children.push_back({DrawChildKind::Mesh, obj.index});
      }
    }

  result.error = validate(rig);
  return result;
}

}  // namespace p2l
