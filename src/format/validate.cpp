#include "format/validate.hpp"

#include <algorithm>
#include <string>

#include "base/decimal.hpp"
#include "base/message.hpp"

namespace p2l::format {
namespace {

constexpr std::uint64_t kMaxGridCells = std::uint64_t{1} << 24;
constexpr int kMaxTreeDepth = 256;
// For checks on parts of a chunk that are not top-level records (no offset to report).
constexpr std::size_t kNoRecord = static_cast<std::size_t>(-1);
constexpr std::size_t kNoNumber = static_cast<std::size_t>(-1);

// What a check is about: the chunk and top-level record (for the offset) and how a message
// names it, e.g. `mesh 3 ("face") channel keyform axis`. The name is only written out when
// a check fails: passing a Where down to every check costs no string on the way.
struct Where {
  ChunkId chunk;
  std::size_t record = kNoRecord;
  std::string_view kind;             // "mesh"
  std::size_t number = kNoNumber;    // after the kind
  const std::string* id = nullptr;   // after a number: ("id") unless empty; without one: "id"
  const char* suffix[2] = {"", ""};  // " channel", " keyform axis"

  // The same record, named more narrowly (at most two levels).
  Where operator+(const char* more) const {
    Where w = *this;
    w.suffix[*suffix[0] != '\0' ? 1 : 0] = more;
    return w;
  }
  std::string name() const {
    std::string text(kind);
    if (number != kNoNumber) {
      text += message(" {}", number);
      if (id && !id->empty()) text += message(" (\"{}\")", *id);
    } else if (id) {
      text += message(" \"{}\"", *id);
    }
    return text + suffix[0] + suffix[1];
  }
};

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
    if (ok()) rules();
    if (ok()) information();
    if (ok()) extensions();
    if (ok()) attached();
    if (ok()) unknown_chunks();
    return error_;
  }

 private:
  bool ok() const { return error_.ok(); }

  // Names the chunk and the record (and its offset when the rig came from a file). The
  // first failure is the one reported.
  void fail(ChunkId chunk, std::size_t record, ErrorCode code, std::string message) {
    if (!ok()) return;
    error_.code = code;
    error_.chunk = std::string(tag_of(chunk));
    error_.message = std::move(message);
    if (offsets_) {
      const auto& c = offsets_->chunks[static_cast<std::size_t>(chunk)];
      if (record < c.starts.size()) {
        error_.offset = c.starts[record];
        error_.in_chunk = c.in_chunk;
      }
    }
  }
  // The same for a message about `where`: the pattern's first "{}" is its name, the others
  // the arguments (base/message.hpp). Nothing is formatted once a failure is kept.
  template <class... Args>
  void fail(const Where& where, ErrorCode code, const char* pattern, const Args&... args) {
    if (ok()) fail(where.chunk, where.record, code, message(pattern, where.name(), args...));
  }

  void ref(std::uint64_t index, std::size_t limit, const char* target, const Where& where) {
    if (index >= limit)
      fail(where, ErrorCode::BadReference, "{}: {} reference {} is out of range (the rig has {})", target, index, limit);
  }
  void optional_ref(std::int32_t index, std::size_t limit, const char* target, const Where& where) {
    if (index < -1 || (index >= 0 && static_cast<std::size_t>(index) >= limit))
      fail(where, ErrorCode::BadReference, "{}: {} reference {} is out of range (expected -1 or 0..{} exclusive)",
           target, index, limit);
  }
  void ascending(const Array<float>& keys, bool allow_empty, const Where& where) {
    if (keys.empty() && !allow_empty) fail(where, ErrorCode::BadStructure, "{}: expected at least one key");
    for (std::size_t k = 1; k < keys.size(); ++k)
      if (keys[k] < keys[k - 1]) {
        fail(where, ErrorCode::BadStructure, "{}: keys must ascend, key {} ({}) is below the one before it", k,
             decimal(keys[k]));
        return;
      }
  }

  // Counts the file stores in fewer than 32 bits.
  void narrow_count(std::size_t n, std::size_t max, const char* what, const Where& where) {
    if (n > max) fail(where, ErrorCode::TooLarge, "{}: {} {}, the format stores at most {}", n, what, max);
  }

  // A keyform grid: its axes and cells here, each cell's form by `check_form` (after the
  // cell's coordinates, so that the first fault in file order is the one reported).
  template <class F, class CheckForm>
  void grid(const Grid<F>& g, const Where& where, CheckForm check_form) {
    grid_axes(g.axes, g.coords.size(), g.forms.size(), where);
    // Dense cell numbers, sorted to find repeats (memory in proportion to the cells read).
    std::vector<std::uint64_t> taken;
    taken.reserve(g.forms.size());
    for (std::size_t c = 0; c < g.forms.size() && ok(); ++c) {
      if (!grid_cell(g.axes, g.coords, c, where, taken)) return;
      check_form(g.forms[c]);
    }
    if (ok()) no_repeated_cells(taken, where);
  }
  void grid_axes(const std::vector<Axis>& axes, std::size_t coords, std::size_t cells, const Where& where) {
    narrow_count(axes.size(), 0xFFFE, "keyform axes", where);  // 0xFFFF means "no grid"
    std::uint64_t size = 1;
    for (const Axis& a : axes) {
      ref(a.parameter, parameters_, "parameter", where + " keyform axis");
      // Cubism's lookup scans the keys in order, and the Core loads keys that repeat or go
      // down (docs/FORMAT.md section 8.13): only the format's own rules need them ascending.
      if (rig_.rules != CoreRules::Original) {
        if (a.keys.empty()) fail(where, ErrorCode::BadStructure, "{}: expected at least one key");
      } else {
        ascending(a.keys, false, where + " keyform axis");
      }
      size *= a.keys.empty() ? 1 : a.keys.size();
      if (size > kMaxGridCells) {
        fail(where, ErrorCode::TooLarge, "{}: the keyform grid has more than 2^24 combinations");
        return;
      }
    }
    if (cells == 0) fail(where, ErrorCode::BadStructure, "{}: a keyform grid needs at least one cell");
    if (coords != cells * axes.size())
      fail(where, ErrorCode::BadStructure, "{}: each keyform cell needs one coordinate per axis");
  }
  // Cell c's coordinates, as a dense cell number added to `taken`; false when one is out of range.
  bool grid_cell(const std::vector<Axis>& axes, const std::vector<std::uint16_t>& coords, std::size_t c,
                 const Where& where, std::vector<std::uint64_t>& taken) {
    std::uint64_t dense = 0, stride = 1;
    for (std::size_t a = 0; a < axes.size(); ++a) {
      std::uint16_t k = coords[c * axes.size() + a];
      if (k >= axes[a].keys.size()) {
        fail(where, ErrorCode::BadStructure, "{}: keyform cell {} sits at key {} of an axis with {} keys", c, k,
             axes[a].keys.size());
        return false;
      }
      dense += k * stride;
      stride *= axes[a].keys.size();
    }
    taken.push_back(dense);
    return true;
  }

  void no_repeated_cells(std::vector<std::uint64_t>& dense, const Where& where) {
    std::sort(dense.begin(), dense.end());
    if (std::adjacent_find(dense.begin(), dense.end()) != dense.end())
      fail(where, ErrorCode::BadStructure, "{}: two keyform cells share a coordinate");
  }

  void channels(const Channels& list, const Where& where) {
    narrow_count(list.size(), 0xFF, "channels", where);
    for (const Channel& ch : list) grid(ch.grid, where + " channel", [](const Rgb&) {});
  }

  // Blend bindings: each binding here, its present shapes by `check_shape`.
  template <class S, class CheckShape>
  void bindings(const std::vector<Binding<S>>& list, const Where& where, CheckShape check_shape) {
    narrow_count(list.size(), 0xFFFF, "blend bindings", where);
    for (const Binding<S>& b : list) {
      binding(b.parameter, b.keys, b.neutral, b.shapes.size(), b.limits, where);
      for (const auto& s : b.shapes)
        if (s) check_shape(*s);
    }
  }
  void binding(std::uint32_t parameter, const Array<float>& keys, std::uint32_t neutral, std::size_t shapes,
               const std::vector<Limit>& limits, const Where& where) {
    narrow_count(limits.size(), 0xFFFF, "blend limits", where);
    for (const Limit& l : limits) narrow_count(l.points.size(), 0xFFFF, "limit points", where);
    ref(parameter, parameters_, "parameter", where + " blend binding");
    ascending(keys, false, where + " blend binding");
    if (!(neutral < keys.size()))
      fail(where, ErrorCode::BadStructure, "{}: blend binding neutral key {} is past its {} keys", neutral,
           keys.size());
    if (shapes != keys.size())
      fail(where, ErrorCode::BadStructure, "{}: a blend binding needs one (possibly absent) shape per key");
    for (const Limit& l : limits) ref(l.parameter, parameters_, "parameter", where + " blend limit");
  }

  void composite(const Composite& c, const Where& where) {
    for (auto m : c.mask_meshes) ref(m, meshes_, "mask mesh", where);
    for (auto p : c.mask_parts) ref(p, parts_, "mask part", where);
  }

  void deformer(const Deformer& d, std::size_t index, ChunkId chunk, std::size_t record) {
    const Where where{chunk, record, chunk == ChunkId::BONE ? "virtual bone" : "deformer", record, &d.id};
    // A parent is an earlier deformer; a virtual bone's may be any rig deformer or an earlier bone.
    if (d.parent < -1 || (d.parent >= 0 && static_cast<std::size_t>(d.parent) >= index))
      fail(where, ErrorCode::BadStructure, "{}: parent {} must come before it (expected -1 or 0..{} exclusive)",
           d.parent, index);
    optional_ref(d.part, parts_, "part", where);
    channels(d.channels, where);
    if (d.kind == DeformerKind::Warp) {
      if (d.columns == 0 || d.rows == 0 || d.columns > 4096 || d.rows > 4096) {
        fail(where, ErrorCode::BadStructure, "{}: warp lattice {}x{} (expected 1..4096 columns and rows)", d.columns,
             d.rows);
        return;
      }
      std::size_t points = (std::size_t{d.columns} + 1) * (d.rows + 1) * 2;
      auto size_check = [&](const Array<float>& p, const char* form) {
        if (p.size() != points)
          fail(where, ErrorCode::BadStructure, "{}: {} has {} floats, the {}x{} lattice needs {}", form, p.size(),
               d.columns, d.rows, points);
      };
      if (d.lattice) grid(*d.lattice, where, [&](const Array<float>& p) { size_check(p, "a keyform"); });
      bindings(d.lattice_shapes, where, [&](const LatticeShape& s) { size_check(s.points, "a blend shape"); });
    } else {
      if (d.pivot) grid(*d.pivot, where, [](const Pivot&) {});
      bindings(d.pivot_shapes, where, [](const PivotShape&) {});
    }
  }

  void core() {
    for (std::size_t i = 0; i < rig_.deformers.size() && ok(); ++i) deformer(rig_.deformers[i], i, ChunkId::DEFM, i);
    for (std::size_t i = 0; i < rig_.parts.size() && ok(); ++i) {
      const Part& p = rig_.parts[i];
      const Where where{ChunkId::PART, i, "part", i, &p.id};
      for (const PartChild& c : p.children) {
        if (c.kind == ChildKind::Part)
          ref(c.index, parts_, "child part", where);
        else
          ref(c.index, meshes_, "child mesh", where);
      }
      channels(p.channels, where);
      composite(p.composite, where);
      bindings(p.shapes, where, [](const PartShape&) {});
    }
    for (std::size_t i = 0; i < rig_.meshes.size() && ok(); ++i) mesh(rig_.meshes[i], i);
    for (std::size_t i = 0; i < rig_.glues.size() && ok(); ++i) {
      const Glue& g = rig_.glues[i];
      const Where where{ChunkId::GLUE, i, "glue", i, &g.id};
      ref(g.mesh_a, meshes_, "mesh", where);
      ref(g.mesh_b, meshes_, "mesh", where);
      if (!ok()) return;
      std::size_t va = rig_.meshes[g.mesh_a].vertex_count(), vb = rig_.meshes[g.mesh_b].vertex_count();
      for (const GluePair& p : g.pairs)
        if (!(p.a < va && p.b < vb))
          fail(where, ErrorCode::BadReference, "{}: pairs vertex {} with {}, past its meshes' {} and {} vertices", p.a,
               p.b, va, vb);
      channels(g.channels, where);
      bindings(g.shapes, where, [](const GlueShape&) {});
    }
    if (ok()) draw_tree();
    for (std::size_t i = 0; i < rig_.textures.size() && ok(); ++i) {
      if (rig_.textures[i].kind > TextureKind::External)
        fail(ChunkId::TEXR, i, ErrorCode::BadRecord, "texture page kind is unknown");
    }
    for (std::size_t i = 0; i < rig_.physics.size() && ok(); ++i) {
      const PhysicsGroup& g = rig_.physics[i];
      const Where where{ChunkId::PHYS, i, "physics group", i, &g.id};
      for (const auto& in : g.inputs) {
        ref(in.parameter, parameters_, "input parameter", where);
        if (in.source > PhysicsSource::Y) fail(where, ErrorCode::BadRecord, "{}: unknown input source");
      }
      for (const auto& out : g.outputs) {
        ref(out.parameter, parameters_, "output parameter", where);
        if (out.source > PhysicsSource::Y) fail(where, ErrorCode::BadRecord, "{}: unknown output source");
        if (out.vertex > g.segments.size())
          fail(where, ErrorCode::BadReference, "{}: outputs vertex {} of a pendulum with {} segments", out.vertex,
               g.segments.size());
      }
    }
    for (std::size_t i = 0; i < rig_.clips.size() && ok(); ++i) {
      const Clip& c = rig_.clips[i];
      const Where where{ChunkId::CLIP, i, "clip", i, &c.id};
      for (const Curve& cv : c.curves) {
        ref(cv.parameter, parameters_, "curve parameter", where);
        segments(cv.segments, where);
      }
    }
    for (std::size_t i = 0; i < rig_.roles.size() && ok(); ++i) {
      const Where where{ChunkId::ROLE, i, "role", i, &rig_.roles[i].role};
      for (auto p : rig_.roles[i].parameters) ref(p, parameters_, "parameter", where);
    }
  }

  // What only one set of core rules can carry (docs/FORMAT.md section 8.13): the version-1
  // layouts have no field for Cubism's, and Cubism's rules have no extension hooks.
  void rules() {
    if (rig_.rules != CoreRules::Original && rig_.rules != CoreRules::Cubism && rig_.rules != CoreRules::Cubism2)
      return fail(ChunkId::CANV, kNoRecord, ErrorCode::BadStructure, "unknown core rules");
    if (rig_.rules == CoreRules::Cubism2) cubism2_rules();
    if (rig_.rules != CoreRules::Original) {
      if (!(rig_.canvas.pixels_per_unit > 0.0f))
        fail(ChunkId::CANV, kNoRecord, ErrorCode::BadStructure,
             "under Cubism's rules the root is in model units: pixelsPerUnit must be above 0");
      if (rig_.bones || rig_.skins || rig_.colliders || rig_.simulations)
        fail(rig_.bones ? ChunkId::BONE : rig_.skins ? ChunkId::SKIN : rig_.colliders ? ChunkId::COLL : ChunkId::SIMS,
             kNoRecord, ErrorCode::BadStructure,
             "the extension chunks hook into the format's own rules; a rig under Cubism's rules (core chunks "
             "version 2) cannot carry them");
      return;
    }
    if (rig_.canvas.y_up || rig_.canvas.blend_clamp || rig_.canvas.keyform_colors)
      fail(ChunkId::CANV, kNoRecord, ErrorCode::BadStructure,
           "a root pointing y up, clamping blend shapes and keyform colours need Cubism's rules (CANV version 2)");
    for (std::size_t i = 0; i < rig_.parameters.size() && ok(); ++i)
      if (rig_.parameters[i].decimals != 3)
        fail(Where{ChunkId::PARM, i, "parameter", i, &rig_.parameters[i].id}, ErrorCode::BadStructure,
             "{}: {} decimal places need Cubism's rules (PARM version 2); the format's own snap within 0.001",
             rig_.parameters[i].decimals);
    for (std::size_t i = 0; i < rig_.parts.size() && ok(); ++i)
      if (!rig_.parts[i].enabled)
        fail(Where{ChunkId::PART, i, "part", i, &rig_.parts[i].id}, ErrorCode::BadStructure,
             "{}: a disabled part needs Cubism's rules (PART version 2)");
    for (std::size_t i = 0; i < rig_.glues.size() && ok(); ++i)
      if (!rig_.glues[i].shapes.empty())
        fail(Where{ChunkId::GLUE, i, "glue", i, &rig_.glues[i].id}, ErrorCode::BadStructure,
             "{}: blend shapes on glue need Cubism's rules (GLUE version 2)");
    for (std::size_t i = 0; i < rig_.draw_groups.size() && ok(); ++i)
      if (rig_.draw_groups[i].floor_order != 0)
        fail(ChunkId::DRAW, i, ErrorCode::BadStructure,
             message("draw group {}: a floor order needs Cubism's rules (DRAW version 2)", i));
  }

  // Cubism 2's rules (docs/FORMAT.md section 8.14) evaluate what a Cubism 2 model has: warps
  // split into triangles, rotations, opacity and draw-order keyforms, reflections, full
  // keyform grids. Anything else would be ignored by that evaluation, so it is refused.
  void cubism2_rules() {
    const Canvas& c = rig_.canvas;
    if (c.y_up || c.blend_clamp || c.keyform_colors)
      return fail(ChunkId::CANV, kNoRecord, ErrorCode::BadStructure,
                  "under Cubism 2's rules (core chunks version 3) the root is y down, and blend-shape clamps and keyform "
                  "colours do not exist: CANV flags must be 0");
    if (!rig_.glues.empty())
      return fail(ChunkId::GLUE, 0, ErrorCode::BadStructure, "Cubism 2's rules (core chunks version 3) have no glue");
    auto channels = [&](const Channels& list, std::initializer_list<ChannelType> allowed, const Where& where) {
      for (const Channel& ch : list)
        if (std::find(allowed.begin(), allowed.end(), ch.type) == allowed.end())
          return fail(where, ErrorCode::BadStructure, "{}: under Cubism 2's rules this object keys only its opacity, draw "
                                                      "order and reflections (channel {})",
                      static_cast<int>(ch.type));
    };
    auto full = [&](const auto& grid, const Where& where) {
      std::uint64_t combinations = 1;
      for (const Axis& a : grid.axes) combinations *= std::max<std::size_t>(1, a.keys.size());
      if (combinations != grid.cell_count())
        fail(where, ErrorCode::BadStructure, "{}: under Cubism 2's rules a keyform grid holds every key combination");
    };
    for (std::size_t i = 0; i < rig_.deformers.size() && ok(); ++i) {
      const Deformer& d = rig_.deformers[i];
      const Where where{ChunkId::DEFM, i, "deformer", i, &d.id};
      if (d.bilinear || !d.lattice_shapes.empty() || !d.pivot_shapes.empty() || d.multiply != kWhite || d.screen != kBlack)
        return fail(where, ErrorCode::BadStructure,
                    "{}: Cubism 2's rules have no bilinear warps, blend shapes or deformer colours");
      channels(d.channels, {ChannelType::Opacity, ChannelType::FlipX, ChannelType::FlipY}, where);
      for (const Channel& ch : d.channels) full(ch.grid, where);
      if (d.lattice) full(*d.lattice, where);
      if (d.pivot) full(*d.pivot, where);
    }
    for (std::size_t i = 0; i < rig_.meshes.size() && ok(); ++i) {
      const Mesh& m = rig_.meshes[i];
      const Where where{ChunkId::MESH, i, "mesh", i, &m.id};
      if (!m.shapes.empty() || m.multiply != kWhite || m.screen != kBlack)
        return fail(where, ErrorCode::BadStructure, "{}: Cubism 2's rules have no blend shapes or mesh colours");
      channels(m.channels, {ChannelType::Opacity, ChannelType::DrawOrder}, where);
      for (const Channel& ch : m.channels) full(ch.grid, where);
      if (m.keyforms) full(*m.keyforms, where);
    }
    for (std::size_t i = 0; i < rig_.parts.size() && ok(); ++i) {
      const Part& p = rig_.parts[i];
      if (p.group_mode == 2 || !p.shapes.empty() || !p.channels.empty())
        fail(Where{ChunkId::PART, i, "part", i, &p.id}, ErrorCode::BadStructure,
             "{}: Cubism 2's parts have no offscreen, blend shapes or keyforms");
    }
    for (std::size_t i = 0; i < rig_.draw_groups.size() && ok(); ++i)
      if (!rig_.draw_groups[i].channels.empty() || rig_.draw_groups[i].composite)
        fail(ChunkId::DRAW, i, ErrorCode::BadStructure,
             message("draw group {}: Cubism 2's rules have no keyed or composited draw groups", i));
  }

  void segments(const std::vector<CurveSegment>& list, const Where& where) {
    for (const auto& s : list)
      if (s.kind > SegmentKind::InverseStepped) fail(where, ErrorCode::BadRecord, "{}: unknown curve segment kind");
  }

  void mesh(const Mesh& m, std::size_t i) {
    const Where where{ChunkId::MESH, i, "mesh", i, &m.id};
    optional_ref(m.parent, deformers_, "parent deformer", where);
    for (auto k : m.mask_meshes) ref(k, meshes_, "mask mesh", where);
    std::size_t floats = 0;
    if (m.geometry) {
      const Geometry& g = *m.geometry;
      floats = g.positions.size();
      std::size_t vertices = floats / 2;
      if (!(floats % 2 == 0 && g.uvs.size() == floats && g.indices.size() % 3 == 0))
        fail(where, ErrorCode::BadStructure,
             "{}: expected two position floats and two UV floats per vertex and three indices per triangle, found {} "
             "positions, {} UVs, {} indices",
             floats, g.uvs.size(), g.indices.size());
      if (ok() && !g.indices.empty() && g.indices.max_value() >= vertices)
        fail(where, ErrorCode::BadReference, "{}: index {} is out of range for {} vertices", g.indices.max_value(),
             vertices);
    }
    auto deltas = [&](const Array<float>& d, const char* form) {
      if (!(d.empty() || d.size() == floats))
        fail(where, ErrorCode::BadStructure, "{}: {} has {} floats, expected 0 or {} (two per vertex)", form, d.size(),
             floats);
    };
    if (m.keyforms) grid(*m.keyforms, where, [&](const Array<float>& d) { deltas(d, "a keyform"); });
    channels(m.channels, where);
    bindings(m.shapes, where, [&](const MeshShape& s) { deltas(s.deltas, "a blend shape"); });
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
    // A mesh is drawn once: listed twice it would have two places in the render order.
    std::vector<std::uint8_t> listed(meshes_, 0);
    for (std::size_t i = 0; i < groups.size() && ok(); ++i) {
      const DrawGroup& g = groups[i];
      const Where where{ChunkId::DRAW, i, "draw group", i};
      optional_ref(g.part, parts_, "part", where);
      channels(g.channels, where);
      if (g.composite) composite(*g.composite, where);
      for (const DrawChild& c : g.children) {
        if (c.kind == DrawChildKind::Mesh) {
          ref(c.index, meshes_, "mesh", where);
          if (ok() && listed[c.index]++)
            fail(where, ErrorCode::BadStructure, "{}: mesh {} is already listed in the draw tree (a mesh has one place in it)", c.index);
        } else if (c.index <= i || c.index >= groups.size() || parents[c.index]++) {
          fail(where, ErrorCode::BadStructure, "{}: child group {} must come after it and have no other parent",
               c.index);
        } else {
          depth[c.index] = depth[i] + 1;
          if (depth[c.index] > kMaxTreeDepth)
            fail(ChunkId::DRAW, i, ErrorCode::BadStructure, "the draw tree is nested deeper than 256 groups");
        }
      }
    }
    for (std::size_t i = 1; i < groups.size() && ok(); ++i)
      if (parents[i] != 1)
        fail(ChunkId::DRAW, i, ErrorCode::BadStructure, message("draw group {} is not a child of any group", i));
  }

  void information() {
    if (rig_.gui) {
      const Gui& gui = *rig_.gui;
      for (std::size_t i = 0; i < gui.snaps.size() && ok(); ++i) {
        ref(gui.snaps[i].parameter, parameters_, "parameter", Where{ChunkId::PGUI, i, "snap list"});
        ascending(gui.snaps[i].values, true, Where{ChunkId::PGUI, i, "snap values"});
      }
      const Where joystick{ChunkId::PGUI, kNoRecord, "joystick"};
      for (const auto& j : gui.joysticks) {
        ref(j.horizontal, parameters_, "parameter", joystick);
        ref(j.vertical, parameters_, "parameter", joystick);
      }
      for (std::size_t i = 0; i < gui.nodes.size() && ok(); ++i) {
        const GuiNode& n = gui.nodes[i];
        bool good = n.group ? n.parameter == -1
                            : n.parameter >= 0 && static_cast<std::size_t>(n.parameter) < parameters_ && n.children == 0;
        if (!good)
          fail(ChunkId::PGUI, kNoRecord, ErrorCode::BadStructure,
               message(n.group ? "parameter tree node {}: a group needs parameter -1"
                               : "parameter tree node {}: a leaf needs a parameter in range and no children",
                       i));
        if (n.label > GuiLabel::Custom)
          fail(ChunkId::PGUI, kNoRecord, ErrorCode::BadRecord, "unknown parameter tree label");
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
             message("parameter group node {} declares more children than follow it", at));
        return nodes.size();
      }
      next = subtree(nodes, next, depth + 1);
    }
    return next;
  }

  void header(const ExtensionHeader& h, ChunkId chunk, std::size_t deformer_limit) {
    const Where where = Where{chunk, kNoRecord, tag_of(chunk)} + " header";
    for (auto p : h.parameters) ref(p, parameters_, "parameter", where);
    for (auto g : h.physics_groups) ref(g, rig_.physics.size(), "physics group", where);
    for (auto d : h.deformers) ref(d, deformer_limit, "deformer", where);
    for (const auto& m : h.meshes) {
      ref(m.mesh, meshes_, "mesh", where);
      for (auto a : m.axes) ref(a, parameters_, "axis parameter", where);
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
        if (d.kind != DeformerKind::Rotation)
          fail(Where{ChunkId::BONE, i, "virtual bone", i, &d.id}, ErrorCode::BadStructure,
               "{}: must be a rotation deformer");
        deformer(d, deformers_ + i, ChunkId::BONE, i);
      }
      for (const auto& r : b.bones)
        ref(r.deformer, all_deformers_, "deformer", Where{ChunkId::BONE, kNoRecord, "bone", kNoNumber, &r.id});
      const Where arc{ChunkId::BONE, kNoRecord, "arc"};
      for (const auto& a : b.arcs) {
        ref(a.deformer, all_deformers_, "deformer", arc);
        ref(a.parameter, parameters_, "parameter", arc);
        if (!ok()) break;
        const Deformer& d = rig_.deformer_or_bone(a.deformer);
        bool keyed_alone = d.kind == DeformerKind::Rotation && d.pivot && d.pivot->axes.size() == 1 &&
                           d.pivot->axes[0].parameter == a.parameter;
        if (!keyed_alone)
          fail(ChunkId::BONE, kNoRecord, ErrorCode::BadStructure,
               message("arc on \"{}\": expected a rotation keyed on the arc's parameter alone", d.id));
      }
    }
    if (rig_.skins) {
      const SkinChunk& s = *rig_.skins;
      header(s.header, ChunkId::SKIN, all_deformers_);
      for (std::size_t i = 0; i < s.skins.size() && ok(); ++i) {
        const Skin& k = s.skins[i];
        const Where where{ChunkId::SKIN, i, "skin", i};
        ref(k.mesh, meshes_, "mesh", where);
        for (const Axis& a : k.axes) {
          ref(a.parameter, parameters_, "axis parameter", where);
          ascending(a.keys, false, where + " axis");
        }
        for (auto bone : k.bones) ref(bone, all_deformers_, "bone", where);
        if (!ok()) return;
        const Mesh& m = rig_.meshes[k.mesh];
        bool same = k.from.size() == k.to.size() && k.from.size() == k.weight.size();
        bool in_bones = (k.from.empty() || k.from.max_value() < k.bones.size()) &&
                        (k.to.empty() || k.to.max_value() < k.bones.size());
        if (!(same && in_bones))
          fail(where, ErrorCode::BadStructure, "{}: from, to and weight must have one entry per vertex, naming its bones");
        if (!(k.from.empty() || k.from.size() == m.vertex_count()))
          fail(where, ErrorCode::BadStructure, "{}: weights for {} vertices, the mesh has {}", k.from.size(),
               m.vertex_count());
        bool parent_is_bone = m.parent >= 0 && is_rotation(static_cast<std::size_t>(m.parent));
        bool found = false;
        for (auto bone : k.bones) {
          found |= static_cast<std::int64_t>(bone) == m.parent;
          parent_is_bone &= is_rotation(bone);
        }
        if (!(parent_is_bone && found))
          fail(where, ErrorCode::BadStructure,
               "{} of mesh \"{}\": the mesh must hang from one of its bones, all rotations", m.id);
      }
    }
    if (rig_.colliders) {
      const ColliderChunk& c = *rig_.colliders;
      header(c.header, ChunkId::COLL, all_deformers_);
      for (std::size_t i = 0; i < c.colliders.size() && ok(); ++i) {
        const Collider& k = c.colliders[i];
        const Where where{ChunkId::COLL, i, "collider", i, &k.id};
        optional_ref(k.deformer, all_deformers_, "deformer", where);
        optional_ref(k.mesh, meshes_, "mesh", where);
        if (!(k.radius_a > 0 && k.radius_b > 0 && k.friction >= 0 && k.friction <= 1))
          fail(where, ErrorCode::BadStructure, "{}: expected positive radii and friction in [0, 1]");
        if (ok() && k.mesh >= 0) {
          std::size_t n = rig_.meshes[static_cast<std::size_t>(k.mesh)].vertex_count();
          if (!(k.vertex_a < n && k.vertex_b < n))
            fail(where, ErrorCode::BadReference, "{}: rides vertices its mesh does not have");
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
    const Where where{ChunkId::SIMS, i, "simulation", i, &s.id};
    if (!(s.fps > 0) || s.substeps < 1 || s.substeps > 128)
      return fail(where, ErrorCode::BadStructure, "{}: expected fps > 0 and 1..128 substeps");
    std::size_t particles = 0;
    for (const SimTarget& t : s.targets) {
      ref(t.mesh, meshes_, "target mesh", where);
      if (!ok()) return;
      const Mesh& m = rig_.meshes[t.mesh];
      if (t.vertex_count != m.vertex_count())
        return fail(where, ErrorCode::BadStructure, "{}: target \"{}\" lists {} vertices, the mesh has {}", m.id,
                    t.vertex_count, m.vertex_count());
      particles += t.vertex_count;
    }
    auto sized = [&](std::size_t size, std::size_t expected, const char* name) {
      if (ok() && size != expected)
        fail(where, ErrorCode::BadStructure, "{}: {} has {} entries, expected {}", name, size, expected);
    };
    auto within = [&](const IndexArray& a, std::size_t limit, const char* name) {
      if (ok() && !a.empty() && a.max_value() >= limit)
        fail(where, ErrorCode::BadStructure, "{}: {} refers to {}, past {}", name, a.max_value(), limit);
    };
    for (const auto* a : {&s.inv_mass, &s.damping, &s.wind_factor, &s.pin_weight, &s.goal_compliance, &s.goal_offset_x,
                          &s.goal_offset_y})
      sized(a->size(), particles, "a per-particle array");
    sized(s.anchor_mesh.size(), particles, "anchorMesh");
    sized(s.anchor_vertex.size(), particles, "anchorVertex");
    for (std::size_t p = 0; p < s.anchor_mesh.size() && ok(); ++p) {
      std::uint32_t m = s.anchor_mesh[p];
      if (m != 0xFFFFFFFFu && (m >= meshes_ || s.anchor_vertex[p] >= rig_.meshes[m].vertex_count()))
        fail(where, ErrorCode::BadStructure, "{}: particle {} pins to a vertex the rig does not have", p);
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
    for (auto p : s.parameters) ref(p, parameters_, "parameter", where);
    for (auto g : s.physics_groups) ref(g, rig_.physics.size(), "physics group", where);
    for (const SimStatic& st : s.statics) {
      ref(st.parameter, parameters_, "static parameter", where);
      ascending(st.keys, false, where + " static");
      for (const SimStaticMesh& m : st.meshes) {
        ref(m.mesh, meshes_, "static mesh", where);
        if (!ok()) return;
        if (m.offsets.size() != st.keys.size())
          return fail(where, ErrorCode::BadStructure, "{}: static offsets need one array per key");
        for (const auto& o : m.offsets) sized(o.size(), rig_.meshes[m.mesh].vertex_count() * 2, "a static offset array");
      }
    }
    std::size_t colliders = rig_.colliders ? rig_.colliders->colliders.size() : 0;
    for (auto c : s.colliders) ref(c, colliders, "collider", where);
  }

  void attached() {
    for (std::size_t i = 0; i < rig_.expressions.size() && ok(); ++i) {
      const Expression& e = rig_.expressions[i];
      const Where where{ChunkId::EXPR, i, "expression", i, &e.id};
      for (const auto& v : e.values) {
        ref(v.parameter, parameters_, "parameter", where);
        if (v.blend > ExpressionBlend::Overwrite)
          fail(ChunkId::EXPR, i, ErrorCode::BadRecord, "unknown expression blend");
      }
    }
    for (std::size_t i = 0; i < rig_.hit_areas.size() && ok(); ++i) {
      const Where where{ChunkId::HITA, i, "hit area", i, &rig_.hit_areas[i].id};
      for (auto m : rig_.hit_areas[i].meshes) ref(m, meshes_, "mesh", where);
    }
    for (std::size_t i = 0; i < rig_.user_data.size() && ok(); ++i) {
      if (rig_.user_data[i].kind != 0)
        fail(ChunkId::UDAT, i, ErrorCode::BadRecord, "user data kind must be 0 (a mesh)");
      ref(rig_.user_data[i].target, meshes_, "mesh", Where{ChunkId::UDAT, i, "user data", i});
    }
    if (rig_.pose) {
      for (std::size_t i = 0; i < rig_.pose->groups.size() && ok(); ++i) {
        const PoseGroup& g = rig_.pose->groups[i];
        const Where where{ChunkId::POSE, i, "pose group", i};
        if (g.entries.empty()) fail(where, ErrorCode::BadStructure, "{}: expected at least one part");
        for (const auto& e : g.entries) {
          ref(e.part, parts_, "part", where);
          for (auto l : e.linked) ref(l, parts_, "linked part", where);
        }
      }
    }
    std::vector<std::uint8_t> seen(rig_.clips.size(), 0);
    for (std::size_t i = 0; i < rig_.clip_extensions.size() && ok(); ++i) {
      const ClipExtension& x = rig_.clip_extensions[i];
      const Where where{ChunkId::CEXT, i, "clip extension", i};
      ref(x.clip, rig_.clips.size(), "clip", where);
      if (!ok()) return;
      if (seen[x.clip]++) fail(where, ErrorCode::BadStructure, "{}: a clip has at most one extension record");
      for (std::size_t k = 1; k < x.events.size(); ++k)
        if (!(x.events[k].time >= x.events[k - 1].time))
          fail(where, ErrorCode::BadStructure, "{}: events must be in ascending time");
      for (const auto& c : x.curves) {
        if (!(c.target >= ClipCurveTarget::PartOpacity && c.target <= ClipCurveTarget::LipSync))
          fail(where, ErrorCode::BadRecord, "{}: unknown curve target");
        if (c.target == ClipCurveTarget::PartOpacity)
          ref(static_cast<std::uint32_t>(c.part), parts_, "part", where + " part opacity curve");
        else if (c.part != -1)
          fail(where, ErrorCode::BadReference, "{}: only part opacity curves name a part");
        segments(c.segments, where);
      }
      for (const auto& f : x.fades) ref(f.curve, rig_.clips[x.clip].curves.size(), "curve", where + " fade");
    }
    for (std::size_t i = 0; i < rig_.hairs.size() && ok(); ++i) {
      const Hair& h = rig_.hairs[i];
      const Where where{ChunkId::HAIR, i, "hair", i, &h.name};
      // The bob is put back at [length] from the anchor and accelerated by force / mass.
      if (!(h.length > 0.0f) || !(h.mass > 0.0f))
        fail(where, ErrorCode::BadStructure, "{}: expected a length and a mass above 0");
      for (const auto& in : h.inputs) {
        ref(in.parameter, parameters_, "input parameter", where);
        if (in.source > HairSource::GravityAngle) fail(where, ErrorCode::BadRecord, "{}: unknown input source");
      }
      for (const auto& out : h.outputs) {
        ref(out.parameter, parameters_, "output parameter", where);
        if (out.value > HairValue::AngularVelocity) fail(where, ErrorCode::BadRecord, "{}: unknown output value");
      }
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
        error_.message = message(
            "kept chunk {}: expected a tag of four ASCII letters or digits, not a chunk this library writes itself, "
            "and (when upper case) not used twice",
            i);
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
