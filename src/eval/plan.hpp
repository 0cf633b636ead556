// The evaluation plan a Model compiles from its Rig once at load: grids ready for lookup,
// the default-pose values blend shapes are measured from, buffer layouts, and the derived
// tables hosts ask for. Immutable after Model::create; every Instance reads it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "eval/grid.hpp"
#include "p2l/rig.hpp"

namespace p2l::eval {

// The values channels and blend shapes act on for one object.
struct ChannelState {
  float draw_order = 0, opacity = 1;
  Rgb multiply = kWhite, screen = kBlack;
  bool flip_x = false, flip_y = false;
  float glue_intensity = 1;
};

struct ChannelPlan {
  ChannelType type;
  ChannelKind kind;
  GridPlan grid;
  const Rgb* forms;  // the Rig's, one per cell
};

// Change tracking: the parameters an object's own evaluation reads (its grids' axes, a
// deformer's channels', its blend shapes' keys and limits), as a run of ModelPlan::reads.
// What its parents read reaches it through them.
struct ReadSet {
  std::uint32_t first = 0, count = 0;
};

struct ParameterPlan {
  float min, max, default_value;
  bool repeat;
};

// Forms that lie at one stride in one block (MeshPlan::rows).
struct RowRun {
  const float* first = nullptr;
  std::size_t stride = 0;  // floats
};

struct DeformerPlan {
  std::vector<ChannelPlan> channels;
  ReadSet reads;
  GridPlan grid;                     // lattice or pivot keyforms; empty when none
  std::uint32_t points_offset = 0;   // warps: into InstanceState::warp_points
  std::uint32_t point_count = 0;     // warps: (columns + 1) * (rows + 1)
  // Split-cell warps that map at least as many points as they have cells: where their cell
  // table starts in InstanceState::warp_cells (frames.hpp, build_warp_cells); else -1.
  std::int64_t cells_offset = -1;
  RowRun rows;  // warps: as MeshPlan::rows, for the lattice's forms
  const Pivot* pivots = nullptr;  // rotations with keyforms: their forms in ModelPlan::pivot_forms
  // Blend shapes are measured from the default pose, which never changes: kept here.
  ChannelState base_state;
  std::vector<float> base_points;  // warps with shapes
  Pivot base_pivot;                // rotations with shapes
};

struct MeshPlan {
  std::vector<ChannelPlan> channels;
  ReadSet reads;
  bool glued = false;  // glue moves its vertices after the mesh stage: evaluated every time
  GridPlan keyforms;
  std::uint32_t vertex_offset = 0;  // floats into InstanceState::vertices
  std::uint32_t vertex_count = 0;
  ChannelState base_state;
  std::vector<float> base_offsets;  // meshes with shapes: keyform offsets at the defaults
  std::vector<std::uint32_t> indices;  // widened copy when the file stores u16
  std::int32_t part = -1;
  // Its keyforms' rows when the rig holds them at one stride in one block (the moc3
  // importer lays them one after another; a .p2lrt file read in place puts each array's
  // header between them): the blend then reads row c at first + c * stride, with no form's
  // header to look up. Null first: form by form.
  RowRun rows;
};

struct PartPlan {
  std::vector<ChannelPlan> channels;
  ChannelState base_state;
  std::int32_t parent = -1;
  std::int32_t draw_group = -1;    // the first draw group showing this part
  const Composite* composite = nullptr;  // the draw tree's, else the part's own
  std::vector<std::uint32_t> group_masks;
};

// H2 (exact links): a rotation whose pivot is keyed on one parameter along a circle.
struct ArcPlan {
  std::uint32_t parameter = 0;
  float cx = 0, cy = 0;
  std::span<const float> keys;          // the pivot grid's one axis
  std::vector<std::int32_t> key_cell;   // the pivot cell at each key, -1 where a sparse grid has none
  // A DEFM rotation's frame is only replaced when BONE's header declares it (H2 deformers);
  // a virtual bone is no core frame and needs no declaration.
  bool declared = false;
};

struct GluePlan {
  std::vector<ChannelPlan> channels;
};

struct DrawGroupPlan {
  std::vector<ChannelPlan> channels;
  std::uint32_t sort_offset = 0;  // into InstanceState::sort_scratch
};

// What evaluation under Cubism's rules (eval/cubism_evaluate.cpp) needs beyond the rest.
struct CubismPlan {
  std::vector<float> epsilon;             // per parameter: 0.1^decimals, the key snap
  std::vector<std::uint32_t> part_order;  // every part after its parent
  std::vector<std::uint32_t> group_places;  // per draw group: the render places in it and below
  // Version 6's offscreens: the isolated parts (PART group mode 2), in part order, and per
  // part its offscreen's number or -1 (its group's first place is the offscreen's; opacities
  // of the parts and meshes below stop at it).
  std::vector<std::uint32_t> offscreen_parts;
  std::vector<std::int32_t> offscreen_of;
};

struct ModelPlan {
  bool cubism = false;  // the rig evaluates by Cubism's rules (or Cubism 2's); then [cubism_plan] is filled
  bool cubism2 = false;  // by Cubism 2's (eval/cubism2_evaluate.cpp)
  CubismPlan cubism_plan;
  std::vector<ParameterPlan> parameters;
  std::vector<float> default_values;  // normalised
  std::vector<DeformerPlan> deformers;  // DEFM's, then BONE's virtual bones
  std::vector<ArcPlan> arcs;
  std::vector<std::int32_t> arc_of;     // per deformer or virtual bone: its arc, or -1
  std::vector<MeshPlan> meshes;
  std::vector<PartPlan> parts;
  std::vector<GluePlan> glues;
  std::vector<DrawGroupPlan> draw_groups;
  // Per weight-cache slot (GridPlan::slot), where its weights start in an instance's cache;
  // one more entry ends the last.
  std::vector<std::size_t> weight_offsets;
  std::vector<std::uint32_t> reads;  // the ReadSets' parameters
  // Every channel's forms, copied in evaluation order (ChannelPlan::forms points here): an
  // object's property sums read one run of memory rather than a block per channel.
  std::vector<Rgb> channel_forms;
  // The rotations' pivot forms copied one after another in deformer order (DeformerPlan::pivots).
  std::vector<Pivot> pivot_forms;
  // Buffer sizes every Instance allocates once.
  std::size_t warp_floats = 0, warp_cell_doubles = 0, vertex_floats = 0, max_cells = 1, sort_entries = 0, render_commands = 0;
};

// Wraps a repeating parameter's value beyond its range, clamps the others; a value that
// is not finite takes the default.
float normalize(const ParameterPlan& p, float value);

}  // namespace p2l::eval
