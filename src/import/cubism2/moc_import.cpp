#include "import/cubism2/moc_import.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace p2l::cubism2 {

namespace {

// The 2.1 runtime keeps a value within 0.0001 of a key on that key: 4 decimal places.
constexpr std::uint8_t kKeyDecimals = 4;
// What the runtime gives a parameter it is asked for but does not define.
constexpr float kCreatedRange = 1e6f;

// Bytes are Latin-1 to the runtime (one character each); the rig's strings are UTF-8.
std::string utf8_of(const std::string& latin1, bool& changed) {
  std::string out;
  for (const char c : latin1) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x80) {
      out += c;
    } else {
      out += static_cast<char>(0xC0 | b >> 6);
      out += static_cast<char>(0x80 | (b & 0x3F));
      changed = true;
    }
  }
  return out;
}

class Builder {
 public:
  Builder(const Moc& moc, ImportResult& result) : moc_(moc), rig_(result.rig), report_(result.report) {}

  void build() {
    rig_.rules = CoreRules::Cubism2;
    // Canvas pixels are the model's units, y down, from the top left corner.
    rig_.canvas = {static_cast<float>(moc_.canvas_width), static_cast<float>(moc_.canvas_height), 0, 0, 1.0f, false, false, false};
    for (const ParameterDef& p : moc_.parameters) add_parameter(p.id, p.min, p.max, p.value, false);
    deformers();
    parts_and_meshes();
    masks();
    for (const std::string& note : moc_.notes) report_.dropped.push_back(note);
    if (renamed_ids_ > 0)
      report_.dropped.push_back(std::to_string(renamed_ids_) +
                                " ids hold bytes past ASCII: read as Latin-1 (as the runtime reads them) and kept as UTF-8");
  }

 private:
  std::string id_of(const std::string& raw) {
    bool changed = false;
    std::string id = utf8_of(raw, changed);
    renamed_ids_ += changed ? 1 : 0;
    return id;
  }

  std::uint32_t add_parameter(const std::string& raw, float min, float max, float value, bool created) {
    const std::string id = id_of(raw);
    if (auto it = parameters_.find(id); it != parameters_.end()) {
      if (!created) report_.dropped.push_back("parameter " + id + " is defined twice: the first definition is kept");
      return it->second;
    }
    p2l::Parameter p;
    p.id = p.name = id;
    p.min = std::min(min, max);
    p.max = std::max(min, max);
    p.default_value = std::clamp(value, p.min, p.max);
    p.decimals = kKeyDecimals;
    if (created)
      report_.dropped.push_back("parameter " + id + " is keyed on but not defined: made with the range ±1e6 and default 0, as "
                                "the runtime makes it");
    else if (min > max)
      report_.dropped.push_back("parameter " + id + "'s range runs backwards: its ends are swapped");
    const auto index = static_cast<std::uint32_t>(rig_.parameters.size());
    parameters_[id] = index;
    rig_.parameters.push_back(std::move(p));
    return index;
  }

  std::uint32_t parameter(const std::string& raw) {
    const auto it = parameters_.find(id_of(raw));
    return it != parameters_.end() ? it->second : add_parameter(raw, -kCreatedRange, kCreatedRange, 0, true);
  }

  // A grid over [axes] (the first varying fastest, as in the .moc and in p2lrt), form k made by make(k).
  template <class F, class Make>
  Grid<F> grid(const KeyAxes& axes, Make make) {
    Grid<F> g;
    for (const KeyAxis& a : axes) g.axes.push_back({parameter(a.parameter), Array<float>(std::vector<float>(a.keys))});
    const std::uint32_t forms = keyform_count(axes);
    g.coords.reserve(std::size_t{forms} * axes.size());
    for (std::uint32_t k = 0; k < forms; ++k) {
      std::uint32_t rest = k;
      for (const KeyAxis& a : axes) {
        const auto n = static_cast<std::uint32_t>(a.keys.size());
        g.coords.push_back(static_cast<std::uint16_t>(rest % n));
        rest /= n;
      }
      g.forms.push_back(make(k));
    }
    return g;
  }

  // A scalar channel over the keyforms, or the value into [fixed] when every keyform holds it
  // (the object's positions, keyed the same, still hide it outside its keys).
  template <class Value>
  void scalar(const KeyAxes& axes, std::size_t forms, Value value, Channels& out, ChannelType type, float& fixed) {
    bool varies = false;
    for (std::size_t k = 1; k < forms; ++k) varies |= value(k) != value(0);
    fixed = value(0);
    if (varies) out.push_back({type, ChannelKind::Scalar, grid<Rgb>(axes, [&](std::uint32_t k) { return Rgb{value(k), 0, 0}; })});
  }

  // A flag channel over the keyforms, or the flag into [fixed] when every keyform holds it.
  template <class Value>
  void flag(const KeyAxes& axes, std::size_t forms, Value value, Channels& out, ChannelType type, bool& fixed) {
    bool varies = false;
    for (std::size_t k = 1; k < forms; ++k) varies |= value(k) != value(0);
    fixed = value(0);
    if (varies)
      out.push_back({type, ChannelKind::Flag, grid<Rgb>(axes, [&](std::uint32_t k) { return Rgb{value(k) ? 1.0f : 0.0f, 0, 0}; })});
  }

  // Deformers parents first: passes over all of them, each taking those whose parent is the
  // root or already taken, as the runtime orders them.
  void deformers() {
    std::vector<std::pair<const Deformer*, std::int32_t>> all;
    for (std::size_t p = 0; p < moc_.parts.size(); ++p)
      for (const Deformer& d : moc_.parts[p].deformers) all.push_back({&d, static_cast<std::int32_t>(p)});
    std::vector<bool> taken(all.size(), false);
    for (bool progress = true; progress;) {
      progress = false;
      for (std::size_t i = 0; i < all.size(); ++i) {
        if (taken[i]) continue;
        const Deformer& d = *all[i].first;
        std::int32_t parent = -1;
        if (d.parent != kRootId) {
          const auto it = deformer_ids_.find(id_of(d.parent));
          if (it == deformer_ids_.end()) continue;
          parent = it->second;
        }
        taken[i] = true;
        progress = true;
        add_deformer(d, parent, all[i].second);
      }
    }
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (taken[i]) continue;
      // A parent never defined, or a loop: the runtime cannot place it, nor what it carries.
      const Deformer& d = *all[i].first;
      report_.dropped.push_back("deformer " + id_of(d.id) + "'s parent " + id_of(d.parent) +
                                " is not a deformer of the model (or is its own descendant): it and what it carries are not drawn");
      add_deformer(d, -1, all[i].second).enabled = false;
    }
  }

  p2l::Deformer& add_deformer(const Deformer& d, std::int32_t parent, std::int32_t part) {
    p2l::Deformer out;
    out.kind = d.kind == DeformerKind::Warp ? p2l::DeformerKind::Warp : p2l::DeformerKind::Rotation;
    out.id = unique(id_of(d.id), deformer_ids_, "deformer");
    out.parent = parent;
    out.part = part;
    const std::size_t forms = keyform_count(d.axes);
    if (d.kind == DeformerKind::Warp) {
      out.columns = d.columns;
      out.rows = d.rows;
      out.lattice = grid<Array<float>>(d.axes, [&](std::uint32_t k) { return Array<float>(std::vector<float>(d.grids[k])); });
    } else {
      out.pivot = grid<Pivot>(d.axes, [&](std::uint32_t k) {
        const AffineForm& a = d.affines[k];
        return Pivot{a.origin_x, a.origin_y, a.angle, a.scale};
      });
      // The runtime reflects by the flags of the keyform at every lower key (flag channels,
      // when they differ) and scales by the first scale.
      flag(d.axes, forms, [&](std::size_t k) { return d.affines[k].reflect_x; }, out.channels, ChannelType::FlipX, out.flip_x);
      flag(d.axes, forms, [&](std::size_t k) { return d.affines[k].reflect_y; }, out.channels, ChannelType::FlipY, out.flip_y);
      bool scales_differ = false;
      for (const AffineForm& a : d.affines) scales_differ |= a.scale_y != a.scale;
      if (scales_differ)
        report_.dropped.push_back("rotation deformer " + out.id + ": a second scale differs from the first; the first is used, "
                                  "as in the runtime");
    }
    if (!d.opacities.empty())
      scalar(d.axes, forms, [&](std::size_t k) { return d.opacities[k]; }, out.channels, ChannelType::Opacity, out.opacity);
    deformer_ids_[out.id] = static_cast<std::int32_t>(rig_.deformers.size());
    rig_.deformers.push_back(std::move(out));
    return rig_.deformers.back();
  }

  // [id], or id#2, id#3... when the id is taken (the rig's ids are unique).
  template <class Map>
  std::string unique(const std::string& id, const Map& taken, const char* kind) {
    if (taken.find(id) == taken.end()) return id;
    for (int n = 2;; ++n) {
      std::string other = id + "#" + std::to_string(n);
      if (taken.find(other) == taken.end()) {
        report_.dropped.push_back(std::string(kind) + " id " + id + " is used twice: the second is " + other);
        return other;
      }
    }
  }

  void parts_and_meshes() {
    std::size_t colour_groups = 0, blends = 0, negative_pages = 0;
    for (std::size_t p = 0; p < moc_.parts.size(); ++p) {
      const Part& part = moc_.parts[p];
      p2l::Part out;
      out.id = out.name = unique(id_of(part.id), part_ids_, "part");
      part_ids_[out.id] = static_cast<std::uint32_t>(p);
      out.visible = part.visible;
      for (const Mesh& m : part.meshes) {
        p2l::Mesh mesh;
        mesh.id = mesh.name = unique(id_of(m.id), mesh_ids_, "mesh");
        const auto index = static_cast<std::uint32_t>(rig_.meshes.size());
        mesh_ids_[mesh.id] = index;
        if (m.parent != kRootId) {
          const auto it = deformer_ids_.find(id_of(m.parent));
          if (it != deformer_ids_.end()) {
            mesh.parent = it->second;
          } else {
            report_.dropped.push_back("mesh " + mesh.id + "'s parent " + id_of(m.parent) + " is not a deformer of the model: not drawn");
            mesh.visible = false;
          }
        }
        mesh.culling = m.culling;
        // The runtime draws a texture number below 0 with page 1.
        mesh.texture_page = m.texture >= 0 ? m.texture : 1;
        negative_pages += m.texture < 0 ? 1 : 0;
        if (m.blend <= kBlendMultiply) {
          mesh.blend = m.blend;  // Cubism 2's add and multiply are p2lrt's ADD_COMPATIBLE and MULTIPLY_COMPATIBLE
        } else {
          ++blends;
        }
        colour_groups += m.colour_group >= 0 ? 1 : 0;
        // Culling: the 2.1 runtime's WebGL renderer keeps the triangles clockwise on the screen
        // (gl.frontFace(CW), under the framework's projection, which turns the model's y-down
        // space up), which are the ones p2lrt's renderers cull in canvas pixels (y down): each
        // triangle's winding is turned round (a triangle's area and coverage stay the same).
        std::vector<std::uint32_t> indices(m.indices.begin(), m.indices.end());
        for (std::size_t t = 0; t + 2 < indices.size(); t += 3) std::swap(indices[t + 1], indices[t + 2]);
        // Keyforms are absolute and the rest positions zero, as under Cubism's rules for a moc3.
        mesh.geometry = Geometry{Array<float>(std::vector<float>(std::size_t{m.vertex_count} * 2, 0.0f)),
                                 Array<float>(std::vector<float>(m.uvs)), IndexArray(std::move(indices))};
        mesh.keyforms = grid<Array<float>>(m.axes, [&](std::uint32_t k) { return Array<float>(std::vector<float>(m.positions[k])); });
        const std::size_t forms = m.positions.size();
        scalar(m.axes, forms, [&](std::size_t k) { return m.opacities[k]; }, mesh.channels, ChannelType::Opacity, mesh.opacity);
        scalar(m.axes, forms, [&](std::size_t k) { return static_cast<float>(m.draw_orders[k]); }, mesh.channels,
               ChannelType::DrawOrder, mesh.draw_order);
        out.children.push_back({ChildKind::Mesh, index});
        // Drawn in the runtime's order: by draw order, then parts in file order and each part's
        // meshes in file order.
        rig_.draw_groups[0].children.push_back({DrawChildKind::Mesh, index});
        rig_.meshes.push_back(std::move(mesh));
        clip_ids_.push_back(&m.clip_ids);
      }
      rig_.parts.push_back(std::move(out));
    }
    if (negative_pages > 0)
      report_.dropped.push_back(std::to_string(negative_pages) + " meshes name a texture below 0: drawn with page 1, as the runtime draws them");
    if (colour_groups > 0)
      report_.dropped.push_back(std::to_string(colour_groups) + " meshes name a colour group, which drawing does not use");
    if (blends > 0)
      report_.dropped.push_back(std::to_string(blends) + " meshes have a blend mode past multiply: drawn with the normal blend");
  }

  // Version 11's masks: each mesh id listed masks the mesh (their union, as one mask).
  void masks() {
    for (std::size_t m = 0; m < clip_ids_.size(); ++m) {
      for (const std::string& raw : *clip_ids_[m]) {
        const std::string id = id_of(raw);
        const auto it = mesh_ids_.find(id);
        if (it == mesh_ids_.end()) {
          report_.dropped.push_back("mesh " + rig_.meshes[m].id + " is masked by " + id + ", which is not a mesh of the model: "
                                    "that mask is left out");
          continue;
        }
        auto& list = rig_.meshes[m].mask_meshes;
        if (std::find(list.begin(), list.end(), it->second) == list.end()) list.push_back(it->second);
      }
    }
  }

  const Moc& moc_;
  Rig& rig_;
  ImportReport& report_;
  std::map<std::string, std::uint32_t> parameters_, part_ids_, mesh_ids_;
  std::map<std::string, std::int32_t> deformer_ids_;
  std::vector<const std::vector<std::string>*> clip_ids_;
  std::size_t renamed_ids_ = 0;
};

}  // namespace

ImportResult import_moc(const Moc& moc) {
  ImportResult result;
  Builder(moc, result).build();
  result.error = validate(result.rig);
  if (!result.error.ok()) result.rig = Rig{};
  return result;
}

ImportResult import_moc(std::span<const std::uint8_t> bytes) {
  Moc moc;
  ImportResult result;
  if (!read_moc(bytes, moc, result.error)) return result;
  return import_moc(moc);
}

}  // namespace p2l::cubism2
