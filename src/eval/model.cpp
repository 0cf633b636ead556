// Model::create: compiles a Rig into its evaluation plan once, so that evaluating
// finds every grid ready, every buffer laid out and the default pose measured.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "base/keyed_sort.hpp"
#include "base/sized.hpp"
#include "eval/channels.hpp"
#include "eval/cubism_evaluate.hpp"
#include "eval/forms.hpp"
#include "eval/frames.hpp"
#include "eval/plan.hpp"
#include "p2l/eval.hpp"

namespace p2l {
namespace eval {

float normalize(const ParameterPlan& p, float value) {
  if (!std::isfinite(value)) return p.default_value;
  // A repeating range wraps what lies beyond it; both ends keep their value.
  if (p.repeat && p.max > p.min && (value < p.min || value > p.max)) {
    const float range = p.max - p.min;
    float r = std::fmod(value - p.min, range);
    if (r < 0.0f) r += range;
    return r + p.min;
  }
  return std::clamp(value, std::min(p.min, p.max), std::max(p.min, p.max));
}

namespace {

// The channel state of an object from its static values at [values].
ChannelState state_at(const ChannelState& start, std::span<const ChannelPlan> channels, const float* values,
                      std::vector<CellWeight>& scratch) {
  ChannelState s = start;
  apply_channels(channels, {values, scratch.data()}, s);
  return s;
}

template <class F>
void grow_cells(std::size_t& max_cells, const Grid<F>& g) {
  max_cells = std::max(max_cells, g.cell_count());
}
void grow_cells(std::size_t& max_cells, const Channels& channels) {
  for (const Channel& c : channels) max_cells = std::max(max_cells, c.grid.cell_count());
}

// The arcs of BONE, each with the pivot cell at every key of its one axis.
void plan_arcs(const Rig& rig, ModelPlan& p) {
  p.arc_of.assign(rig.deformer_count_with_bones(), -1);
  if (!rig.bones) return;
  const BoneChunk& bones = *rig.bones;
  for (const Arc& a : bones.arcs) {
    const Deformer& d = rig.deformer_or_bone(a.deformer);
    if (!d.pivot || d.pivot->axes.size() != 1 || p.arc_of[a.deformer] >= 0) continue;  // validate() rules out the first
    ArcPlan arc;
    arc.parameter = a.parameter;
    arc.cx = a.cx;
    arc.cy = a.cy;
    arc.keys = d.pivot->axes[0].keys.span();
    arc.key_cell.assign(arc.keys.size(), -1);
    for (std::size_t c = 0; c < d.pivot->forms.size(); ++c) {
      const std::uint16_t key = d.pivot->coords[c];
      if (key < arc.key_cell.size()) arc.key_cell[key] = static_cast<std::int32_t>(c);
    }
    const bool is_virtual = a.deformer >= rig.deformers.size();
    const auto& listed = bones.header.deformers;
    arc.declared = is_virtual || ((bones.header.hooks & kHookH2) &&
                                  std::find(listed.begin(), listed.end(), a.deformer) != listed.end());
    p.arc_of[a.deformer] = static_cast<std::int32_t>(p.arcs.size());
    p.arcs.push_back(std::move(arc));
  }
}

// Cell tables for the split-cell warps that map at least as many points per evaluation as
// they have cells: building a table costs about what mapping one point through it saves.
void plan_cell_tables(const Rig& rig, ModelPlan& p) {
  // Cubism's rules map through their own frames (cubism_frames.hpp), never a cell table.
  if (!kWarpCellTables || p.cubism) return;
  std::vector<std::uint64_t> mapped(rig.deformers.size(), 0);
  auto count = [&](std::int32_t parent, std::uint64_t points) {
    if (parent >= 0 && static_cast<std::size_t>(parent) < mapped.size()) mapped[static_cast<std::size_t>(parent)] += points;
  };
  for (std::size_t i = 0; i < rig.deformer_count_with_bones(); ++i) {
    const Deformer& d = rig.deformer_or_bone(i);
    count(d.parent, d.kind == DeformerKind::Warp ? p.deformers[i].point_count : 2);
  }
  for (const Mesh& m : rig.meshes) count(m.parent, m.vertex_count());
  for (std::size_t i = 0; i < rig.deformers.size(); ++i) {
    const Deformer& d = rig.deformers[i];
    const std::uint64_t cells = std::uint64_t{d.columns} * d.rows;
    if (d.kind != DeformerKind::Warp || d.bilinear || cells == 0 || mapped[i] < cells) continue;
    p.deformers[i].cells_offset = static_cast<std::int64_t>(p.warp_cell_doubles);
    p.warp_cell_doubles += static_cast<std::size_t>(cells) * kWarpCellDoubles;
  }
}

// The parameters each deformer's and mesh's own evaluation reads (ReadSet: for a mesh, what
// moves its vertices), and the glued meshes, which change tracking always evaluates.
class ReadCollector {
 public:
  ReadCollector(std::vector<std::uint32_t>& reads, std::size_t parameters) : reads_(reads), set_of_(parameters, 0) {}
  template <class F>
  void grid(const Grid<F>& g) {
    for (const Axis& a : g.axes) add(a.parameter);
  }
  void channels(const Channels& list) {
    for (const Channel& c : list) grid(c.grid);
  }
  template <class S>
  void bindings(const std::vector<Binding<S>>& list) {
    for (const Binding<S>& b : list) {
      add(b.parameter);
      for (const Limit& l : b.limits) add(l.parameter);
    }
  }
  // Ends the set begun at [first] and starts the next.
  ReadSet close(std::size_t first) {
    ++set_;
    return {static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(reads_.size() - first)};
  }

 private:
  // Each parameter once a set: marked with the set's number rather than sorted (no sort of
  // 32-bit numbers in the module for it).
  void add(std::uint32_t parameter) {
    if (parameter >= set_of_.size() || set_of_[parameter] == set_) return;
    set_of_[parameter] = set_;
    reads_.push_back(parameter);
  }
  std::vector<std::uint32_t>& reads_;
  std::vector<std::uint32_t> set_of_;
  std::uint32_t set_ = 1;
};

void plan_reads(const Rig& rig, ModelPlan& p) {
  ReadCollector collect(p.reads, rig.parameters.size());
  for (std::size_t i = 0; i < rig.deformers.size(); ++i) {
    const Deformer& d = rig.deformers[i];
    const std::size_t first = p.reads.size();
    if (d.lattice) collect.grid(*d.lattice);
    if (d.pivot) collect.grid(*d.pivot);
    collect.channels(d.channels);
    collect.bindings(d.lattice_shapes);
    collect.bindings(d.pivot_shapes);
    p.deformers[i].reads = collect.close(first);
  }
  for (std::size_t i = 0; i < rig.meshes.size(); ++i) {
    const Mesh& m = rig.meshes[i];
    const std::size_t first = p.reads.size();
    // Not its channels: a mesh's channel values are computed at every evaluation anyway.
    if (m.keyforms) collect.grid(*m.keyforms);
    collect.bindings(m.shapes);
    p.meshes[i].reads = collect.close(first);
  }
  for (const Glue& g : rig.glues) {
    p.meshes[g.mesh_a].glued = true;
    p.meshes[g.mesh_b].glued = true;
  }
}

// Copies the channels' forms into one run (ModelPlan::channel_forms), parts, deformers and
// meshes in the order evaluation visits them, and points the plans there.
void pool_channel_forms(const Rig& rig, ModelPlan& p) {
  // One walk twice: counting, then (at set) copying; one instance of each lambda keeps the
  // WebAssembly module small.
  std::size_t total = 0;
  Rgb* at = nullptr;
  auto visit = [&](const Channels& channels, std::vector<ChannelPlan>& plans) {
    for (std::size_t k = 0; k < channels.size(); ++k) {
      const std::vector<Rgb>& forms = channels[k].grid.forms;
      if (at == nullptr) {
        total += forms.size();
        continue;
      }
      std::copy(forms.begin(), forms.end(), at);
      plans[k].forms = at;
      at += forms.size();
    }
  };
  auto walk = [&] {
    for (std::size_t i = 0; i < rig.parts.size(); ++i) visit(rig.parts[i].channels, p.parts[i].channels);
    for (std::size_t i = 0; i < rig.deformer_count_with_bones(); ++i) visit(rig.deformer_or_bone(i).channels, p.deformers[i].channels);
    for (std::size_t i = 0; i < rig.meshes.size(); ++i) visit(rig.meshes[i].channels, p.meshes[i].channels);
    for (std::size_t i = 0; i < rig.glues.size(); ++i) visit(rig.glues[i].channels, p.glues[i].channels);
    for (std::size_t i = 0; i < rig.draw_groups.size(); ++i) visit(rig.draw_groups[i].channels, p.draw_groups[i].channels);
  };
  walk();
  if (total == 0) return;  // every channel keeps its (empty) forms
  sized(p.channel_forms, total);
  at = p.channel_forms.data();
  walk();
}

// Where forms of at least n floats each lie in one block at one stride of at least n (the
// same keeper, evenly spaced), the first one's start and the stride (MeshPlan::rows).
RowRun row_run(const std::vector<Array<float>>& forms, std::size_t n) {
  if (forms.empty() || n == 0 || forms[0].size() < n) return {};
  const void* keeper = forms[0].keeper();
  if (keeper == nullptr && forms.size() > 1) return {};  // no one block to be sure of
  const auto address = [](const Array<float>& f) { return reinterpret_cast<std::uintptr_t>(f.data()); };
  std::size_t stride = n;
  if (forms.size() > 1) {
    const std::uintptr_t gap = address(forms[1]) - address(forms[0]);
    if (address(forms[1]) < address(forms[0]) || gap % sizeof(float) != 0 || gap / sizeof(float) < n) return {};
    stride = gap / sizeof(float);
  }
  for (std::size_t k = 0; k < forms.size(); ++k)
    if (forms[k].size() < n || (k > 0 && forms[k].keeper() != keeper) ||
        address(forms[k]) != address(forms[0]) + k * stride * sizeof(float))
      return {};
  return {forms[0].data(), stride};
}

// Copies the rotations' pivot forms into one run (ModelPlan::pivot_forms), in deformer order.
void pool_pivot_forms(const Rig& rig, ModelPlan& p) {
  std::size_t total = 0;
  for (std::size_t i = 0; i < rig.deformer_count_with_bones(); ++i)
    if (const Deformer& d = rig.deformer_or_bone(i); d.pivot) total += d.pivot->forms.size();
  sized(p.pivot_forms, total);
  Pivot* at = p.pivot_forms.data();
  for (std::size_t i = 0; i < rig.deformer_count_with_bones(); ++i) {
    const Deformer& d = rig.deformer_or_bone(i);
    if (!d.pivot) continue;
    std::copy(d.pivot->forms.begin(), d.pivot->forms.end(), at);
    p.deformers[i].pivots = at;
    at += d.pivot->forms.size();
  }
}

// Gives every blended grid a slot of the weight cache, one slot to grids with equal lookups
// (eval/weights.hpp). Flag channels read one cell and need none.
void share_grids(ModelPlan& p) {
  std::vector<GridPlan*> grids;
  auto add = [&](GridPlan& g) {
    if (!g.empty()) grids.push_back(&g);
  };
  auto add_channels = [&](std::vector<ChannelPlan>& list) {
    for (ChannelPlan& c : list)
      if (c.kind != ChannelKind::Flag) add(c.grid);
  };
  for (DeformerPlan& d : p.deformers) {
    add(d.grid);
    add_channels(d.channels);
  }
  for (MeshPlan& m : p.meshes) {
    add(m.keyforms);
    add_channels(m.channels);
  }
  for (PartPlan& x : p.parts) add_channels(x.channels);
  for (GluePlan& x : p.glues) add_channels(x.channels);
  for (DrawGroupPlan& x : p.draw_groups) add_channels(x.channels);

  // Grouped by hash; within a group each grid is compared with the group's first few slots
  // (a file made to collide only loses sharing, not time).
  constexpr std::size_t kCompared = 8;
  std::vector<KeyedIndex> order(grids.size());
  for (std::size_t i = 0; i < grids.size(); ++i)
    order[i] = {static_cast<std::int64_t>(grids[i]->lookup_hash()), static_cast<std::uint32_t>(i)};
  sort_keyed(order.data(), order.data() + order.size());
  p.weight_offsets.assign(1, 0);
  std::size_t group = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    GridPlan& g = *grids[order[k].index];
    if (k == 0 || order[k].key != order[k - 1].key) group = k;
    std::uint32_t slot = GridPlan::kNoSlot;
    for (std::size_t j = group; j < std::min(k, group + kCompared) && slot == GridPlan::kNoSlot; ++j)
      if (grids[order[j].index]->same_lookup(g)) slot = grids[order[j].index]->slot();
    if (slot == GridPlan::kNoSlot) {
      slot = static_cast<std::uint32_t>(p.weight_offsets.size() - 1);
      p.weight_offsets.push_back(p.weight_offsets.back() + g.cell_count());
    }
    g.set_slot(slot);
  }
}

}  // namespace
}  // namespace eval

using namespace eval;

Model::~Model() = default;

ModelResult Model::create(std::shared_ptr<const Rig> rig_ptr) {
  ModelResult result;
  if (!rig_ptr) {
    result.error = {ErrorCode::BadStructure, "", -1, false, "no rig to evaluate"};
    return result;
  }
  if (Error e = validate(*rig_ptr); !e.ok()) {
    result.error = e;
    return result;
  }
  const Rig& rig = *rig_ptr;
  auto plan = std::make_unique<ModelPlan>();
  ModelPlan& p = *plan;

  // Scratch sizes first: the default-pose measurements below use the scratch.
  for (std::size_t i = 0; i < rig.deformer_count_with_bones(); ++i) {
    const Deformer& d = rig.deformer_or_bone(i);
    if (d.lattice) grow_cells(p.max_cells, *d.lattice);
    if (d.pivot) grow_cells(p.max_cells, *d.pivot);
    grow_cells(p.max_cells, d.channels);
  }
  for (const Mesh& m : rig.meshes) {
    if (m.keyforms) grow_cells(p.max_cells, *m.keyforms);
    grow_cells(p.max_cells, m.channels);
  }
  for (const Part& part : rig.parts) grow_cells(p.max_cells, part.channels);
  for (const Glue& g : rig.glues) grow_cells(p.max_cells, g.channels);
  for (const DrawGroup& g : rig.draw_groups) grow_cells(p.max_cells, g.channels);
  std::vector<CellWeight> scratch(p.max_cells);

  // The plans' lists are sized here and filled in place (base/sized.hpp says why).
  sized(p.parameters, rig.parameters.size());
  sized(p.default_values, rig.parameters.size());
  for (std::size_t i = 0; i < rig.parameters.size(); ++i) {
    const Parameter& q = rig.parameters[i];
    p.parameters[i] = {q.min, q.max, q.default_value, q.repeat};
    p.default_values[i] = normalize(p.parameters[i], q.default_value);
  }
  const float* defaults = p.default_values.data();

  // Virtual bones (BONE) get plans too: advanced mode evaluates them with the same code.
  sized(p.deformers, rig.deformer_count_with_bones());
  for (std::size_t i = 0; i < rig.deformer_count_with_bones(); ++i) {
    const Deformer& d = rig.deformer_or_bone(i);
    DeformerPlan& dp = p.deformers[i];
    dp.channels = plan_channels(d.channels);
    dp.base_state = state_at(static_state(d), dp.channels, defaults, scratch);
    if (d.kind == DeformerKind::Warp) {
      dp.point_count = (d.columns + 1) * (d.rows + 1);
      dp.points_offset = static_cast<std::uint32_t>(p.warp_floats);
      p.warp_floats += std::size_t{dp.point_count} * 2;
      if (d.lattice) {
        dp.grid = GridPlan(*d.lattice);
        dp.rows = row_run(d.lattice->forms, std::size_t{dp.point_count} * 2);
      }
      if (!d.lattice_shapes.empty()) {
        dp.base_points.assign(std::size_t{dp.point_count} * 2, 0.0f);
        if (d.lattice) blend_forms(dp.grid, d.lattice->forms, {defaults, scratch.data()}, nullptr, dp.base_points.data(), dp.base_points.size());
      }
    } else {
      if (d.pivot) dp.grid = GridPlan(*d.pivot);
      if (!d.pivot_shapes.empty()) {
        dp.base_pivot = pivot_at(d, dp.grid, {defaults, scratch.data()});
      }
    }
  }

  plan_arcs(rig, p);

  sized(p.meshes, rig.meshes.size());
  for (std::size_t mi = 0; mi < rig.meshes.size(); ++mi) {
    const Mesh& m = rig.meshes[mi];
    MeshPlan& mp = p.meshes[mi];
    mp.channels = plan_channels(m.channels);
    mp.vertex_count = static_cast<std::uint32_t>(m.vertex_count());
    mp.vertex_offset = static_cast<std::uint32_t>(p.vertex_floats);
    p.vertex_floats += std::size_t{mp.vertex_count} * 2;
    mp.base_state = state_at(static_state(m), mp.channels, defaults, scratch);
    if (m.keyforms) {
      mp.keyforms = GridPlan(*m.keyforms);
      mp.rows = row_run(m.keyforms->forms, std::size_t{mp.vertex_count} * 2);
    }
    if (!m.shapes.empty()) {
      mp.base_offsets.assign(std::size_t{mp.vertex_count} * 2, 0.0f);
      if (m.keyforms) blend_forms(mp.keyforms, m.keyforms->forms, {defaults, scratch.data()}, nullptr, mp.base_offsets.data(), mp.base_offsets.size());
    }
    if (m.geometry && m.geometry->indices.u32().empty()) mp.indices = m.geometry->indices.to_vector();
  }

  sized(p.parts, rig.parts.size());
  for (std::size_t i = 0; i < rig.parts.size(); ++i) {
    const Part& part = rig.parts[i];
    PartPlan& pp = p.parts[i];
    pp.channels = plan_channels(part.channels);
    pp.base_state = state_at(static_state(part), pp.channels, defaults, scratch);
    pp.composite = &part.composite;
    for (const PartChild& c : part.children) {
      if (c.kind == ChildKind::Mesh)
        p.meshes[c.index].part = static_cast<std::int32_t>(i);
      else
        p.parts[c.index].parent = static_cast<std::int32_t>(i);
    }
  }

  std::size_t sort_entries = 0;
  sized(p.draw_groups, rig.draw_groups.size());
  for (std::size_t gi = 0; gi < rig.draw_groups.size(); ++gi) {
    const DrawGroup& g = rig.draw_groups[gi];
    DrawGroupPlan& gp = p.draw_groups[gi];
    gp.channels = plan_channels(g.channels);
    gp.sort_offset = static_cast<std::uint32_t>(sort_entries);
    sort_entries += g.children.size();
    if (g.part >= 0 && static_cast<std::size_t>(g.part) < p.parts.size()) {
      PartPlan& pp = p.parts[static_cast<std::size_t>(g.part)];
      if (pp.draw_group < 0) {
        pp.draw_group = static_cast<std::int32_t>(gi);
        if (g.composite) pp.composite = &*g.composite;
      }
    }
  }
  p.sort_entries = sort_entries;
  // Every draw-tree child at most once (a file may list a mesh twice), plus an opening and
  // a closing per group.
  p.render_commands = sort_entries + 2 * rig.draw_groups.size();

  // The meshes masking each part's group: its mask meshes, then the masking parts' meshes
  // however deep, each once.
  for (std::size_t i = 0; i < rig.parts.size(); ++i) {
    PartPlan& pp = p.parts[i];
    auto add = [&](std::uint32_t m) {
      if (std::find(pp.group_masks.begin(), pp.group_masks.end(), m) == pp.group_masks.end()) pp.group_masks.push_back(m);
    };
    for (std::uint32_t m : pp.composite->mask_meshes) add(m);
    std::vector<std::uint32_t> stack(pp.composite->mask_parts.begin(), pp.composite->mask_parts.end());
    std::vector<std::uint8_t> seen(rig.parts.size(), 0);  // not vector<bool>: one vector type less in the module
    while (!stack.empty()) {
      const std::uint32_t q = stack.back();
      stack.pop_back();
      if (q >= rig.parts.size() || seen[q]) continue;
      seen[q] = 1;
      for (const PartChild& c : rig.parts[q].children) {
        if (c.kind == ChildKind::Mesh)
          add(c.index);
        else
          stack.push_back(c.index);
      }
    }
  }

  sized(p.glues, rig.glues.size());
  for (std::size_t i = 0; i < rig.glues.size(); ++i) p.glues[i].channels = plan_channels(rig.glues[i].channels);
  p.cubism = rig.rules != CoreRules::Original;
  p.cubism2 = rig.rules == CoreRules::Cubism2;
  if (p.cubism) plan_cubism(rig, p);
  plan_cell_tables(rig, p);
  plan_reads(rig, p);
  pool_channel_forms(rig, p);
  pool_pivot_forms(rig, p);
  share_grids(p);

  std::shared_ptr<Model> model(new Model());
  model->rig_ = std::move(rig_ptr);
  model->plan_ = std::move(plan);
  result.model = std::move(model);
  return result;
}

std::int32_t Model::mesh_part(std::uint32_t mesh) const { return plan_->meshes[mesh].part; }
std::int32_t Model::part_parent(std::uint32_t part) const { return plan_->parts[part].parent; }

std::span<const std::uint32_t> Model::mesh_indices(std::uint32_t mesh) const {
  const Mesh& m = rig_->meshes[mesh];
  if (!m.geometry) return {};
  if (!m.geometry->indices.u32().empty()) return m.geometry->indices.u32().span();
  return plan_->meshes[mesh].indices;
}

const Composite& Model::part_group_composite(std::uint32_t part) const { return *plan_->parts[part].composite; }
std::span<const std::uint32_t> Model::part_group_masks(std::uint32_t part) const { return plan_->parts[part].group_masks; }
std::span<const float> Model::default_values() const { return plan_->default_values; }

}  // namespace p2l
