#include "format/validate.hpp"

#include <algorithm>
#include <string>

#include "base/decimal.hpp"

namespace p2l::format {
namespace {

constexpr std::uint64_t kMaxGridCells = std::uint64_t{1} << 24;
constexpr int kMaxTreeDepth = 256;
// For checks on parts of a chunk that are not top-level records (no offset to report).
constexpr std::size_t kNoRecord = static_cast<std::size_t>(-1);

class Validator {
 public:
  Validator(const Rig& rig, const RecordOffsets* offsets) : rig_(rig), offsets_(offsets) {}

  Error run() {
    parameters_ = rig_.parameters.size();
    deformers_ = rig_.deformers.size();
    all_deformers_ = rig_.deformer_count_with_bones();
    parts_ = rig_.parts.size();
    meshes_ = rig_.meshes.size();
    core();
    if (ok()) information();
    if (ok()) extensions();
    if (ok()) attached();
    if (ok()) unknown_chunks();
    return error_;
  }

 private:
  bool ok() const { return error_.ok(); }

  // Names the chunk and the record (and its offset when the rig came from a file).
  void fail(ChunkId chunk, std::size_t record, ErrorCode code, const std::string& message) {
    if (!ok()) return;
    error_.code = code;
    error_.chunk = std::string(tag_of(chunk));
    error_.message = message;
    if (offsets_) {
      const auto& c = offsets_->chunks[static_cast<std::size_t>(chunk)];
      if (record < c.starts.size()) {
        error_.offset = c.starts[record];
        error_.in_chunk = c.in_chunk;
      }
    }
  }
  void check(bool condition, ChunkId chunk, std::size_t record, ErrorCode code, const std::string& message) {
    if (!condition) fail(chunk, record, code, message);
  }
  std::string what(const char* kind, std::size_t i, const std::string& id) {
    return std::string(kind) + " " + std::to_string(i) + (id.empty() ? "" : " (\"" + id + "\")");
  }
  void ref(std::uint64_t index, std::size_t limit, const char* target, ChunkId chunk, std::size_t record,
           const std::string& who) {
    if (index >= limit)
      fail(chunk, record, ErrorCode::BadReference,
           who + ": " + target + " reference " + std::to_string(index) + " is out of range (the rig has " +
               std::to_string(limit) + ")");
  }
  void optional_ref(std::int32_t index, std::size_t limit, const char* target, ChunkId chunk, std::size_t record,
                    const std::string& who) {
    if (index < -1 || (index >= 0 && static_cast<std::size_t>(index) >= limit))
      fail(chunk, record, ErrorCode::BadReference,
           who + ": " + target + " reference " + std::to_string(index) + " is out of range (expected -1 or 0.." +
               std::to_string(limit) + " exclusive)");
  }
  void ascending(const Array<float>& keys, bool allow_empty, ChunkId chunk, std::size_t record,
                 const std::string& who) {
    if (keys.empty() && !allow_empty) fail(chunk, record, ErrorCode::BadStructure, who + ": expected at least one key");
    for (std::size_t k = 1; k < keys.size(); ++k)
      if (keys[k] < keys[k - 1]) {
        fail(chunk, record, ErrorCode::BadStructure,
             who + ": keys must ascend, key " + std::to_string(k) + " (" + decimal(keys[k]) +
                 ") is below the one before it");
        return;
      }
  }

  // Counts the file stores in fewer than 32 bits.
  void narrow_count(std::size_t n, std::size_t max, const char* what, ChunkId chunk, std::size_t record,
                    const std::string& who) {
    if (n > max)
      fail(chunk, record, ErrorCode::TooLarge,
           who + ": " + std::to_string(n) + " " + what + ", the format stores at most " + std::to_string(max));
  }

  template <class F, class CheckForm>
  void grid(const Grid<F>& g, ChunkId chunk, std::size_t record, const std::string& who, CheckForm check_form) {
    narrow_count(g.axes.size(), 0xFFFE, "keyform axes", chunk, record, who);  // 0xFFFF means "no grid"
    std::uint64_t size = 1;
    for (const Axis& a : g.axes) {
      ref(a.parameter, parameters_, "parameter", chunk, record, who + " keyform axis");
      ascending(a.keys, false, chunk, record, who + " keyform axis");
      size *= a.keys.empty() ? 1 : a.keys.size();
      if (size > kMaxGridCells) {
        fail(chunk, record, ErrorCode::TooLarge, who + ": the keyform grid has more than 2^24 combinations");
        return;
      }
    }
    if (g.forms.empty()) fail(chunk, record, ErrorCode::BadStructure, who + ": a keyform grid needs at least one cell");
    if (g.coords.size() != g.forms.size() * g.axes.size())
      fail(chunk, record, ErrorCode::BadStructure, who + ": each keyform cell needs one coordinate per axis");
    // Dense cell numbers, sorted to find repeats (memory in proportion to the cells read).
    std::vector<std::uint64_t> taken;
    taken.reserve(g.forms.size());
    for (std::size_t c = 0; c < g.forms.size() && ok(); ++c) {
      std::uint64_t dense = 0, stride = 1;
      for (std::size_t a = 0; a < g.axes.size(); ++a) {
        std::uint16_t k = g.coords[c * g.axes.size() + a];
        if (k >= g.axes[a].keys.size()) {
          fail(chunk, record, ErrorCode::BadStructure,
               who + ": keyform cell " + std::to_string(c) + " sits at key " + std::to_string(k) + " of an axis with " +
                   std::to_string(g.axes[a].keys.size()) + " keys");
          return;
        }
        dense += k * stride;
        stride *= g.axes[a].keys.size();
      }
      taken.push_back(dense);
      check_form(g.forms[c], c);
    }
    if (ok()) no_repeated_cells(taken, chunk, record, who);
  }

  void no_repeated_cells(std::vector<std::uint64_t>& dense, ChunkId chunk, std::size_t record, const std::string& who) {
    std::sort(dense.begin(), dense.end());
    if (std::adjacent_find(dense.begin(), dense.end()) != dense.end())
      fail(chunk, record, ErrorCode::BadStructure, who + ": two keyform cells share a coordinate");
  }

  void channels(const Channels& list, ChunkId chunk, std::size_t record, const std::string& who) {
    narrow_count(list.size(), 0xFF, "channels", chunk, record, who);
    for (const Channel& ch : list) grid(ch.grid, chunk, record, who + " channel", [](const Rgb&, std::size_t) {});
  }

  template <class S, class CheckShape>
  void bindings(const std::vector<Binding<S>>& list, ChunkId chunk, std::size_t record, const std::string& who,
                CheckShape check_shape) {
    narrow_count(list.size(), 0xFFFF, "blend bindings", chunk, record, who);
    for (const Binding<S>& b : list) {
      narrow_count(b.limits.size(), 0xFFFF, "blend limits", chunk, record, who);
      for (const Limit& l : b.limits) narrow_count(l.points.size(), 0xFFFF, "limit points", chunk, record, who);
      ref(b.parameter, parameters_, "parameter", chunk, record, who + " blend binding");
      ascending(b.keys, false, chunk, record, who + " blend binding");
      check(b.neutral < b.keys.size(), chunk, record, ErrorCode::BadStructure,
            who + ": blend binding neutral key " + std::to_string(b.neutral) + " is past its " +
                std::to_string(b.keys.size()) + " keys");
      check(b.shapes.size() == b.keys.size(), chunk, record, ErrorCode::BadStructure,
            who + ": a blend binding needs one (possibly absent) shape per key");
      for (const Limit& l : b.limits) ref(l.parameter, parameters_, "parameter", chunk, record, who + " blend limit");
      for (const auto& s : b.shapes)
        if (s) check_shape(*s);
    }
  }

  void composite(const Composite& c, ChunkId chunk, std::size_t record, const std::string& who) {
    for (auto m : c.mask_meshes) ref(m, meshes_, "mask mesh", chunk, record, who);
    for (auto p : c.mask_parts) ref(p, parts_, "mask part", chunk, record, who);
  }

  void deformer(const Deformer& d, std::size_t index, ChunkId chunk, std::size_t record) {
    std::string who = what(chunk == ChunkId::BONE ? "virtual bone" : "deformer", record, d.id);
    // A parent is an earlier deformer; a virtual bone's may be any rig deformer or an earlier bone.
    if (d.parent < -1 || (d.parent >= 0 && static_cast<std::size_t>(d.parent) >= index))
      fail(chunk, record, ErrorCode::BadStructure,
           who + ": parent " + std::to_string(d.parent) + " must come before it (expected -1 or 0.." +
               std::to_string(index) + " exclusive)");
    optional_ref(d.part, parts_, "part", chunk, record, who);
    channels(d.channels, chunk, record, who);
    if (d.kind == DeformerKind::Warp) {
      if (d.columns == 0 || d.rows == 0 || d.columns > 4096 || d.rows > 4096) {
        fail(chunk, record, ErrorCode::BadStructure,
             who + ": warp lattice " + std::to_string(d.columns) + "x" + std::to_string(d.rows) +
                 " (expected 1..4096 columns and rows)");
        return;
      }
      std::size_t points = (std::size_t{d.columns} + 1) * (d.rows + 1) * 2;
      auto size_check = [&](const Array<float>& p, const char* form) {
        check(p.size() == points, chunk, record, ErrorCode::BadStructure,
              who + ": " + form + " has " + std::to_string(p.size()) + " floats, the " + std::to_string(d.columns) +
                  "x" + std::to_string(d.rows) + " lattice needs " + std::to_string(points));
      };
      if (d.lattice) grid(*d.lattice, chunk, record, who, [&](const Array<float>& p, std::size_t) { size_check(p, "a keyform"); });
      bindings(d.lattice_shapes, chunk, record, who, [&](const LatticeShape& s) { size_check(s.points, "a blend shape"); });
    } else {
      if (d.pivot) grid(*d.pivot, chunk, record, who, [](const Pivot&, std::size_t) {});
      bindings(d.pivot_shapes, chunk, record, who, [](const PivotShape&) {});
    }
  }

  void core() {
    for (std::size_t i = 0; i < rig_.deformers.size() && ok(); ++i) deformer(rig_.deformers[i], i, ChunkId::DEFM, i);
    for (std::size_t i = 0; i < rig_.parts.size() && ok(); ++i) {
      const Part& p = rig_.parts[i];
      std::string who = what("part", i, p.id);
      for (const PartChild& c : p.children) {
        if (c.kind == ChildKind::Part)
          ref(c.index, parts_, "child part", ChunkId::PART, i, who);
        else
          ref(c.index, meshes_, "child mesh", ChunkId::PART, i, who);
      }
      channels(p.channels, ChunkId::PART, i, who);
      composite(p.composite, ChunkId::PART, i, who);
      bindings(p.shapes, ChunkId::PART, i, who, [](const PartShape&) {});
    }
    for (std::size_t i = 0; i < rig_.meshes.size() && ok(); ++i) mesh(rig_.meshes[i], i);
    for (std::size_t i = 0; i < rig_.glues.size() && ok(); ++i) {
      const Glue& g = rig_.glues[i];
      std::string who = what("glue", i, g.id);
      ref(g.mesh_a, meshes_, "mesh", ChunkId::GLUE, i, who);
      ref(g.mesh_b, meshes_, "mesh", ChunkId::GLUE, i, who);
      if (!ok()) return;
      std::size_t va = rig_.meshes[g.mesh_a].vertex_count(), vb = rig_.meshes[g.mesh_b].vertex_count();
      for (const GluePair& p : g.pairs)
        check(p.a < va && p.b < vb, ChunkId::GLUE, i, ErrorCode::BadReference,
              who + ": pairs vertex " + std::to_string(p.a) + " with " + std::to_string(p.b) +
                  ", past its meshes' " + std::to_string(va) + " and " + std::to_string(vb) + " vertices");
      channels(g.channels, ChunkId::GLUE, i, who);
    }
    if (ok()) draw_tree();
    for (std::size_t i = 0; i < rig_.textures.size() && ok(); ++i) {
      const Texture& t = rig_.textures[i];
      check(t.kind <= TextureKind::External, ChunkId::TEXR, i, ErrorCode::BadRecord, "texture page kind is unknown");
    }
    for (std::size_t i = 0; i < rig_.physics.size() && ok(); ++i) {
      const PhysicsGroup& g = rig_.physics[i];
      std::string who = what("physics group", i, g.id);
      for (const auto& in : g.inputs) {
        ref(in.parameter, parameters_, "input parameter", ChunkId::PHYS, i, who);
        check(in.source <= PhysicsSource::Y, ChunkId::PHYS, i, ErrorCode::BadRecord, who + ": unknown input source");
      }
      for (const auto& out : g.outputs) {
        ref(out.parameter, parameters_, "output parameter", ChunkId::PHYS, i, who);
        check(out.source <= PhysicsSource::Y, ChunkId::PHYS, i, ErrorCode::BadRecord, who + ": unknown output source");
        check(out.vertex <= g.segments.size(), ChunkId::PHYS, i, ErrorCode::BadReference,
              who + ": outputs vertex " + std::to_string(out.vertex) + " of a pendulum with " +
                  std::to_string(g.segments.size()) + " segments");
      }
    }
    for (std::size_t i = 0; i < rig_.clips.size() && ok(); ++i) {
      const Clip& c = rig_.clips[i];
      for (const Curve& cv : c.curves) {
        ref(cv.parameter, parameters_, "curve parameter", ChunkId::CLIP, i, what("clip", i, c.id));
        segments(cv.segments, ChunkId::CLIP, i, what("clip", i, c.id));
      }
    }
    for (std::size_t i = 0; i < rig_.roles.size() && ok(); ++i)
      for (auto p : rig_.roles[i].parameters) ref(p, parameters_, "parameter", ChunkId::ROLE, i, what("role", i, rig_.roles[i].role));
  }

  void segments(const std::vector<CurveSegment>& list, ChunkId chunk, std::size_t record, const std::string& who) {
    for (const auto& s : list)
      check(s.kind <= SegmentKind::InverseStepped, chunk, record, ErrorCode::BadRecord, who + ": unknown curve segment kind");
  }

  void mesh(const Mesh& m, std::size_t i) {
    std::string who = what("mesh", i, m.id);
    optional_ref(m.parent, deformers_, "parent deformer", ChunkId::MESH, i, who);
    for (auto k : m.mask_meshes) ref(k, meshes_, "mask mesh", ChunkId::MESH, i, who);
    std::size_t floats = 0;
    if (m.geometry) {
      const Geometry& g = *m.geometry;
      floats = g.positions.size();
      std::size_t vertices = floats / 2;
      check(floats % 2 == 0 && g.uvs.size() == floats && g.indices.size() % 3 == 0, ChunkId::MESH, i,
            ErrorCode::BadStructure,
            who + ": expected two position floats and two UV floats per vertex and three indices per triangle, found " +
                std::to_string(floats) + " positions, " + std::to_string(g.uvs.size()) + " UVs, " +
                std::to_string(g.indices.size()) + " indices");
      if (ok() && !g.indices.empty() && g.indices.max_value() >= vertices)
        fail(ChunkId::MESH, i, ErrorCode::BadReference,
             who + ": index " + std::to_string(g.indices.max_value()) + " is out of range for " +
                 std::to_string(vertices) + " vertices");
    }
    auto deltas = [&](const Array<float>& d, const char* form) {
      check(d.empty() || d.size() == floats, ChunkId::MESH, i, ErrorCode::BadStructure,
            who + ": " + form + " has " + std::to_string(d.size()) + " floats, expected 0 or " + std::to_string(floats) +
                " (two per vertex)");
    };
    if (m.keyforms) grid(*m.keyforms, ChunkId::MESH, i, who, [&](const Array<float>& d, std::size_t) { deltas(d, "a keyform"); });
    channels(m.channels, ChunkId::MESH, i, who);
    bindings(m.shapes, ChunkId::MESH, i, who, [&](const MeshShape& s) { deltas(s.deltas, "a blend shape"); });
  }

  void draw_tree() {
    const auto& groups = rig_.draw_groups;
    if (groups.empty()) {
      fail(ChunkId::DRAW, 0, ErrorCode::BadStructure, "the draw tree needs a root group");
      return;
    }
    // Pre-order: each child group comes after its parent and has exactly one parent.
    std::vector<std::uint8_t> parents(groups.size(), 0);
    std::vector<int> depth(groups.size(), 0);
    for (std::size_t i = 0; i < groups.size() && ok(); ++i) {
      const DrawGroup& g = groups[i];
      std::string who = what("draw group", i, "");
      optional_ref(g.part, parts_, "part", ChunkId::DRAW, i, who);
      channels(g.channels, ChunkId::DRAW, i, who);
      if (g.composite) composite(*g.composite, ChunkId::DRAW, i, who);
      for (const DrawChild& c : g.children) {
        if (c.kind == DrawChildKind::Mesh) {
          ref(c.index, meshes_, "mesh", ChunkId::DRAW, i, who);
        } else if (c.index <= i || c.index >= groups.size() || parents[c.index]++) {
          fail(ChunkId::DRAW, i, ErrorCode::BadStructure,
               who + ": child group " + std::to_string(c.index) + " must come after it and have no other parent");
        } else {
          depth[c.index] = depth[i] + 1;
          check(depth[c.index] <= kMaxTreeDepth, ChunkId::DRAW, i, ErrorCode::BadStructure,
                "the draw tree is nested deeper than 256 groups");
        }
      }
    }
    for (std::size_t i = 1; i < groups.size() && ok(); ++i)
      check(parents[i] == 1, ChunkId::DRAW, i, ErrorCode::BadStructure,
            "draw group " + std::to_string(i) + " is not a child of any group");
  }

  void information() {
    if (rig_.gui) {
      const Gui& gui = *rig_.gui;
      for (std::size_t i = 0; i < gui.snaps.size() && ok(); ++i) {
        ref(gui.snaps[i].parameter, parameters_, "parameter", ChunkId::PGUI, i, "snap list");
        ascending(gui.snaps[i].values, true, ChunkId::PGUI, i, "snap values");
      }
      for (const auto& j : gui.joysticks) {
        ref(j.horizontal, parameters_, "parameter", ChunkId::PGUI, kNoRecord, "joystick");
        ref(j.vertical, parameters_, "parameter", ChunkId::PGUI, kNoRecord, "joystick");
      }
      for (std::size_t i = 0; i < gui.nodes.size() && ok(); ++i) {
        const GuiNode& n = gui.nodes[i];
        bool good = n.group ? n.parameter == -1
                            : n.parameter >= 0 && static_cast<std::size_t>(n.parameter) < parameters_ && n.children == 0;
        check(good, ChunkId::PGUI, kNoRecord, ErrorCode::BadStructure,
              "parameter tree node " + std::to_string(i) +
                  (n.group ? ": a group needs parameter -1" : ": a leaf needs a parameter in range and no children"));
        check(n.label <= GuiLabel::Custom, ChunkId::PGUI, kNoRecord, ErrorCode::BadRecord, "unknown parameter tree label");
      }
      // Each node's children follow it; the subtrees must tile the list exactly.
      std::size_t at = 0;
      while (ok() && at < gui.nodes.size()) at = subtree(gui.nodes, at, 0);
    }
  }
  std::size_t subtree(const std::vector<GuiNode>& nodes, std::size_t at, int depth) {
    if (depth > kMaxTreeDepth) {
      fail(ChunkId::PGUI, kNoRecord, ErrorCode::BadStructure, "the parameter tree is nested deeper than 256");
      return nodes.size();
    }
    std::size_t next = at + 1;
    for (std::uint32_t c = 0; c < nodes[at].children && ok(); ++c) {
      if (next >= nodes.size()) {
        fail(ChunkId::PGUI, kNoRecord, ErrorCode::BadStructure,
             "parameter group node " + std::to_string(at) + " declares more children than follow it");
        return nodes.size();
      }
      next = subtree(nodes, next, depth + 1);
    }
    return next;
  }

  void header(const ExtensionHeader& h, ChunkId chunk, std::size_t deformer_limit) {
    std::string who = std::string(tag_of(chunk)) + " header";
    for (auto p : h.parameters) ref(p, parameters_, "parameter", chunk, kNoRecord, who);
    for (auto g : h.physics_groups) ref(g, rig_.physics.size(), "physics group", chunk, kNoRecord, who);
    for (auto d : h.deformers) ref(d, deformer_limit, "deformer", chunk, kNoRecord, who);
    for (const auto& m : h.meshes) {
      ref(m.mesh, meshes_, "mesh", chunk, kNoRecord, who);
      for (auto a : m.axes) ref(a, parameters_, "axis parameter", chunk, kNoRecord, who);
    }
  }

  bool is_rotation(std::size_t d) const {
    return d < all_deformers_ && rig_.deformer_or_bone(d).kind == DeformerKind::Rotation;
  }

  void extensions() {
    if (rig_.bones) {
      const BoneChunk& b = *rig_.bones;
      header(b.header, ChunkId::BONE, deformers_);
      for (std::size_t i = 0; i < b.virtual_bones.size() && ok(); ++i) {
        const Deformer& d = b.virtual_bones[i];
        check(d.kind == DeformerKind::Rotation, ChunkId::BONE, i, ErrorCode::BadStructure,
              what("virtual bone", i, d.id) + ": must be a rotation deformer");
        deformer(d, deformers_ + i, ChunkId::BONE, i);
      }
      for (const auto& r : b.bones) ref(r.deformer, all_deformers_, "deformer", ChunkId::BONE, kNoRecord, "bone \"" + r.id + "\"");
      for (const auto& a : b.arcs) {
        ref(a.deformer, all_deformers_, "deformer", ChunkId::BONE, kNoRecord, "arc");
        ref(a.parameter, parameters_, "parameter", ChunkId::BONE, kNoRecord, "arc");
        if (!ok()) break;
        const Deformer& d = rig_.deformer_or_bone(a.deformer);
        bool keyed_alone = d.kind == DeformerKind::Rotation && d.pivot && d.pivot->axes.size() == 1 &&
                           d.pivot->axes[0].parameter == a.parameter;
        check(keyed_alone, ChunkId::BONE, kNoRecord, ErrorCode::BadStructure,
              "arc on \"" + d.id + "\": expected a rotation keyed on the arc's parameter alone");
      }
    }
    if (rig_.skins) {
      const SkinChunk& s = *rig_.skins;
      header(s.header, ChunkId::SKIN, all_deformers_);
      for (std::size_t i = 0; i < s.skins.size() && ok(); ++i) {
        const Skin& k = s.skins[i];
        std::string who = "skin " + std::to_string(i);
        ref(k.mesh, meshes_, "mesh", ChunkId::SKIN, i, who);
        for (const Axis& a : k.axes) {
          ref(a.parameter, parameters_, "axis parameter", ChunkId::SKIN, i, who);
          ascending(a.keys, false, ChunkId::SKIN, i, who + " axis");
        }
        for (auto bone : k.bones) ref(bone, all_deformers_, "bone", ChunkId::SKIN, i, who);
        if (!ok()) return;
        const Mesh& m = rig_.meshes[k.mesh];
        bool same = k.from.size() == k.to.size() && k.from.size() == k.weight.size();
        bool in_bones = (k.from.empty() || k.from.max_value() < k.bones.size()) &&
                        (k.to.empty() || k.to.max_value() < k.bones.size());
        check(same && in_bones, ChunkId::SKIN, i, ErrorCode::BadStructure,
              who + ": from, to and weight must have one entry per vertex, naming its bones");
        check(k.from.empty() || k.from.size() == m.vertex_count(), ChunkId::SKIN, i, ErrorCode::BadStructure,
              who + ": weights for " + std::to_string(k.from.size()) + " vertices, the mesh has " +
                  std::to_string(m.vertex_count()));
        bool parent_is_bone = m.parent >= 0 && is_rotation(static_cast<std::size_t>(m.parent));
        bool found = false;
        for (auto bone : k.bones) {
          found |= static_cast<std::int64_t>(bone) == m.parent;
          parent_is_bone &= is_rotation(bone);
        }
        check(parent_is_bone && found, ChunkId::SKIN, i, ErrorCode::BadStructure,
              who + " of mesh \"" + m.id + "\": the mesh must hang from one of its bones, all rotations");
      }
    }
    if (rig_.colliders) {
      const ColliderChunk& c = *rig_.colliders;
      header(c.header, ChunkId::COLL, all_deformers_);
      for (std::size_t i = 0; i < c.colliders.size() && ok(); ++i) {
        const Collider& k = c.colliders[i];
        std::string who = what("collider", i, k.id);
        optional_ref(k.deformer, all_deformers_, "deformer", ChunkId::COLL, i, who);
        optional_ref(k.mesh, meshes_, "mesh", ChunkId::COLL, i, who);
        check(k.radius_a > 0 && k.radius_b > 0 && k.friction >= 0 && k.friction <= 1, ChunkId::COLL, i,
              ErrorCode::BadStructure, who + ": expected positive radii and friction in [0, 1]");
        if (ok() && k.mesh >= 0) {
          std::size_t n = rig_.meshes[static_cast<std::size_t>(k.mesh)].vertex_count();
          check(k.vertex_a < n && k.vertex_b < n, ChunkId::COLL, i, ErrorCode::BadReference,
                who + ": rides vertices its mesh does not have");
        }
      }
    }
    if (rig_.simulations) {
      const SimulationChunk& s = *rig_.simulations;
      header(s.header, ChunkId::SIMS, deformers_);
      for (std::size_t i = 0; i < s.simulations.size() && ok(); ++i) simulation(s.simulations[i], i);
    }
  }

  void simulation(const Simulation& s, std::size_t i) {
    std::string who = what("simulation", i, s.id);
    auto fail_here = [&](const std::string& m) { fail(ChunkId::SIMS, i, ErrorCode::BadStructure, who + ": " + m); };
    if (!(s.fps > 0) || s.substeps < 1 || s.substeps > 128) return fail_here("expected fps > 0 and 1..128 substeps");
    std::size_t particles = 0;
    for (const SimTarget& t : s.targets) {
      ref(t.mesh, meshes_, "target mesh", ChunkId::SIMS, i, who);
      if (!ok()) return;
      if (t.vertex_count != rig_.meshes[t.mesh].vertex_count())
        return fail_here("target \"" + rig_.meshes[t.mesh].id + "\" lists " + std::to_string(t.vertex_count) +
                         " vertices, the mesh has " + std::to_string(rig_.meshes[t.mesh].vertex_count()));
      particles += t.vertex_count;
    }
    auto sized = [&](std::size_t size, std::size_t expected, const char* name) {
      if (ok() && size != expected)
        fail_here(std::string(name) + " has " + std::to_string(size) + " entries, expected " + std::to_string(expected));
    };
    auto within = [&](const IndexArray& a, std::size_t limit, const char* name) {
      if (ok() && !a.empty() && a.max_value() >= limit)
        fail_here(std::string(name) + " refers to " + std::to_string(a.max_value()) + ", past " + std::to_string(limit));
    };
    for (const auto* a : {&s.inv_mass, &s.damping, &s.wind_factor, &s.pin_weight, &s.goal_compliance, &s.goal_offset_x,
                          &s.goal_offset_y})
      sized(a->size(), particles, "a per-particle array");
    sized(s.anchor_mesh.size(), particles, "anchorMesh");
    sized(s.anchor_vertex.size(), particles, "anchorVertex");
    for (std::size_t p = 0; p < s.anchor_mesh.size() && ok(); ++p) {
      std::uint32_t m = s.anchor_mesh[p];
      if (m != 0xFFFFFFFFu && (m >= meshes_ || s.anchor_vertex[p] >= rig_.meshes[m].vertex_count()))
        fail_here("particle " + std::to_string(p) + " pins to a vertex the rig does not have");
    }
    std::size_t edges = s.stretch_a.size(), tris = s.tri_a.size(), bends = s.bend_t1.size(), welds = s.weld_a.size(),
                longs = s.long_particle.size();
    sized(s.stretch_b.size(), edges, "stretchB");
    sized(s.stretch_rest.size(), edges, "stretch rest");
    sized(s.stretch_compliance.size(), edges, "stretch compliance");
    sized(s.compression_compliance.size(), edges, "compressionCompliance");
    sized(s.tri_b.size(), tris, "triB");
    sized(s.tri_c.size(), tris, "triC");
    sized(s.area_compliance.size(), tris, "areaCompliance");
    sized(s.bend_t2.size(), bends, "bendT2");
    sized(s.bend_compliance.size(), bends, "bendCompliance");
    sized(s.weld_b.size(), welds, "weldB");
    sized(s.weld_weight_a.size(), welds, "weld weightA");
    sized(s.weld_weight_b.size(), welds, "weld weightB");
    sized(s.weld_compliance.size(), welds, "weldCompliance");
    sized(s.long_root.size(), longs, "longRoot");
    sized(s.long_max_distance.size(), longs, "maxDistance");
    for (const auto* a : {&s.stretch_a, &s.stretch_b, &s.tri_a, &s.tri_b, &s.tri_c, &s.weld_a, &s.weld_b,
                          &s.long_particle, &s.long_root})
      within(*a, particles, "a constraint");
    within(s.bend_t1, tris, "a bend");
    within(s.bend_t2, tris, "a bend");
    for (auto p : s.parameters) ref(p, parameters_, "parameter", ChunkId::SIMS, i, who);
    for (auto g : s.physics_groups) ref(g, rig_.physics.size(), "physics group", ChunkId::SIMS, i, who);
    for (const SimStatic& st : s.statics) {
      ref(st.parameter, parameters_, "static parameter", ChunkId::SIMS, i, who);
      ascending(st.keys, false, ChunkId::SIMS, i, who + " static");
      for (const SimStaticMesh& m : st.meshes) {
        ref(m.mesh, meshes_, "static mesh", ChunkId::SIMS, i, who);
        if (!ok()) return;
        if (m.offsets.size() != st.keys.size()) return fail_here("static offsets need one array per key");
        for (const auto& o : m.offsets)
          sized(o.size(), rig_.meshes[m.mesh].vertex_count() * 2, "a static offset array");
      }
    }
    std::size_t colliders = rig_.colliders ? rig_.colliders->colliders.size() : 0;
    for (auto c : s.colliders) ref(c, colliders, "collider", ChunkId::SIMS, i, who);
  }

  void attached() {
    for (std::size_t i = 0; i < rig_.expressions.size() && ok(); ++i) {
      const Expression& e = rig_.expressions[i];
      for (const auto& v : e.values) {
        ref(v.parameter, parameters_, "parameter", ChunkId::EXPR, i, what("expression", i, e.id));
        check(v.blend <= ExpressionBlend::Overwrite, ChunkId::EXPR, i, ErrorCode::BadRecord, "unknown expression blend");
      }
    }
    for (std::size_t i = 0; i < rig_.hit_areas.size() && ok(); ++i)
      for (auto m : rig_.hit_areas[i].meshes) ref(m, meshes_, "mesh", ChunkId::HITA, i, what("hit area", i, rig_.hit_areas[i].id));
    for (std::size_t i = 0; i < rig_.user_data.size() && ok(); ++i) {
      check(rig_.user_data[i].kind == 0, ChunkId::UDAT, i, ErrorCode::BadRecord, "user data kind must be 0 (a mesh)");
      ref(rig_.user_data[i].target, meshes_, "mesh", ChunkId::UDAT, i, "user data " + std::to_string(i));
    }
    if (rig_.pose) {
      for (std::size_t i = 0; i < rig_.pose->groups.size() && ok(); ++i) {
        const PoseGroup& g = rig_.pose->groups[i];
        std::string who = "pose group " + std::to_string(i);
        check(!g.entries.empty(), ChunkId::POSE, i, ErrorCode::BadStructure, who + ": expected at least one part");
        for (const auto& e : g.entries) {
          ref(e.part, parts_, "part", ChunkId::POSE, i, who);
          for (auto l : e.linked) ref(l, parts_, "linked part", ChunkId::POSE, i, who);
        }
      }
    }
    std::vector<std::uint8_t> seen(rig_.clips.size(), 0);
    for (std::size_t i = 0; i < rig_.clip_extensions.size() && ok(); ++i) {
      const ClipExtension& x = rig_.clip_extensions[i];
      std::string who = "clip extension " + std::to_string(i);
      ref(x.clip, rig_.clips.size(), "clip", ChunkId::CEXT, i, who);
      if (!ok()) return;
      check(!seen[x.clip]++, ChunkId::CEXT, i, ErrorCode::BadStructure, who + ": a clip has at most one extension record");
      for (std::size_t k = 1; k < x.events.size(); ++k)
        check(x.events[k].time >= x.events[k - 1].time, ChunkId::CEXT, i, ErrorCode::BadStructure,
              who + ": events must be in ascending time");
      for (const auto& c : x.curves) {
        check(c.target >= ClipCurveTarget::PartOpacity && c.target <= ClipCurveTarget::LipSync, ChunkId::CEXT, i,
              ErrorCode::BadRecord, who + ": unknown curve target");
        if (c.target == ClipCurveTarget::PartOpacity)
          ref(static_cast<std::uint32_t>(c.part), parts_, "part", ChunkId::CEXT, i, who + " part opacity curve");
        else
          check(c.part == -1, ChunkId::CEXT, i, ErrorCode::BadReference, who + ": only part opacity curves name a part");
        segments(c.segments, ChunkId::CEXT, i, who);
      }
      for (const auto& f : x.fades)
        ref(f.curve, rig_.clips[x.clip].curves.size(), "curve", ChunkId::CEXT, i, who + " fade");
    }
  }

  // Kept chunks are written back verbatim: their tags must be valid and not clash.
  void unknown_chunks() {
    for (std::size_t i = 0; i < rig_.unknown_chunks.size() && ok(); ++i) {
      const std::string& tag = rig_.unknown_chunks[i].tag;
      bool alnum = tag.size() == 4;
      for (char c : tag) alnum &= (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      // Canonical (upper-case) tags appear once in a file; vendor tags may repeat.
      bool canonical = std::none_of(tag.begin(), tag.end(), [](char c) { return c >= 'a' && c <= 'z'; });
      bool clash = chunk_id_of(tag).has_value();
      for (std::size_t j = 0; j < i && canonical; ++j) clash |= rig_.unknown_chunks[j].tag == tag;
      if (!alnum || clash) {
        error_.code = ErrorCode::BadStructure;
        error_.chunk = tag;
        error_.message = "kept chunk " + std::to_string(i) + ": expected a tag of four ASCII letters or digits, not a "
                         "chunk this library writes itself, and (when upper case) not used twice";
      }
    }
  }

  const Rig& rig_;
  const RecordOffsets* offsets_;
  Error error_;
  std::size_t parameters_ = 0, deformers_ = 0, all_deformers_ = 0, parts_ = 0, meshes_ = 0;
};

}  // namespace

Error validate_rig(const Rig& rig, const RecordOffsets* offsets) { return Validator(rig, offsets).run(); }

}  // namespace p2l::format
