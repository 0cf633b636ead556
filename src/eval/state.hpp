// One Instance's mutable state: every buffer is sized when the instance is made, so an
// evaluation only writes into memory it already has.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "base/keyed_sort.hpp"
#include "eval/cubism2_frames.hpp"
#include "eval/cubism_frames.hpp"
#include "eval/grid.hpp"
#include "eval/plan.hpp"
#include "eval/weights.hpp"
#include "p2l/eval.hpp"

namespace p2l::eval {

// Where a deformer places its children.
struct Frame {
  DeformerKind kind = DeformerKind::Warp;
  // Rotation: a rigid frame.
  float origin_x = 0, origin_y = 0, angle = 0, scale = 1;
  bool flip_x = false, flip_y = false;
  float sin = 0, cos = 1;  // of angle, computed once per evaluation
  // Warp: its lattice points in canvas pixels (InstanceState::warp_points) and the mean
  // affine frame that extends it outside the unit square. [scale] of a warp is the scale
  // of the nearest rotation above it, which rotations inside the lattice inherit.
  std::uint32_t columns = 1, rows = 1;
  bool bilinear = false;
  const float* points = nullptr;
  double frame_c[2]{}, frame_ex[2]{}, frame_ey[2]{};
  // Split-cell lattices that map many points: per cell, each triangle's corner and edges in
  // double (build_warp_cells), so a point costs three loads and two multiply-adds. Null:
  // the points are read from [points].
  const double* cells = nullptr;
};

}  // namespace p2l::eval

namespace p2l::eval {

// Evaluation under Cubism's rules: what it keeps per instance. The Core evaluates in place,
// so some of its results depend on what an earlier update left (a hidden mesh's buffers, which
// glue and blend shapes keep moving; a glue's last intensity inside its keys; a rotation
// probe's last direction): those live here and are reproduced (docs/RUNTIME.md, "Hidden objects").
struct CubismState {
  std::vector<CubismFrame> frames;
  std::vector<std::uint8_t> deformer_on, part_on, mesh_on;
  std::vector<float> deformer_opacity;
  std::vector<Rgb> deformer_multiply, deformer_screen;
  std::vector<float> part_input;    // the part opacities the evaluation starts from (host, animation)
  std::vector<float> part_opacity;  // their products down the part tree
  // The Core's per-mesh buffers, which a hidden mesh keeps (cubism_evaluate.cpp, keep_hidden_mesh):
  std::vector<float> vertices;      // moc space (y down) while evaluated, then the output (y up)
  std::vector<float> mesh_opacity;  // keyform x deformer x part, plus blend shapes while hidden
  std::vector<Rgb> mesh_multiply, mesh_screen;  // its keyforms' colours (before shapes and deformers)
  std::vector<float> glue_intensity;  // the last inside its keys (0 before)
  // As csmGetRenderOrders: per mesh, then per offscreen (CubismPlan::offscreen_parts).
  std::vector<std::int32_t> render_orders;
  std::vector<std::int32_t> draw_orders;    // per mesh, as csmGetDrawableDrawOrders
  float probe_direction[2] = {0.0f, 0.0f};
  // Change tracking (InstanceState::tracking): a part whose being shown changed this evaluation;
  // the probe direction each rotation found before and left after it (a rotation that reused the
  // direction depends on what it found); a mesh whose vertices this evaluation wrote.
  std::vector<std::uint8_t> part_switched, mesh_fresh;
  // Vertices and warp lattices before their parents map them, and whether they hold this pose's
  // (the object was evaluated shown last time; hidden, its reads may have moved unseen).
  std::vector<float> local_vertices, local_points;
  std::vector<std::uint8_t> mesh_local, deformer_local;
  std::vector<std::array<float, 4>> direction;  // per deformer: before x, y, after x, y
};

// Evaluation under Cubism 2's rules (cubism2_evaluate.cpp), beside CubismState's buffers.
// The 2.1 runtime keeps a deformer's frame and opacity from the last update that could
// compute them: a deformer whose parent is unavailable keeps its last frame, and the meshes
// under it are drawn through that frame.
struct Cubism2State {
  std::vector<Cubism2Frame> frames;                  // per deformer
  std::vector<std::uint8_t> deformer_outside;        // its own keys do not hold the pose
  std::vector<std::uint8_t> deformer_available;      // its parent is available and inside its keys
  std::vector<std::uint32_t> corner_cells;           // a lookup's corners (GridPlan::cubism2_corners)
  std::vector<double> corner_values;                 // and what a nested interpolation folds over them
};

}  // namespace p2l::eval

namespace p2l::ext {
struct AdvancedState;  // src/ext/state.hpp: advanced mode's per-instance state
struct AdvancedDeleter {
  void operator()(AdvancedState* a) const noexcept;
};
}  // namespace p2l::ext

namespace p2l {

struct InstanceState {
  std::vector<float> values;   // host pose, raw
  std::vector<float> current;  // what the last evaluation started from, raw
  std::vector<float> normalized;
  std::vector<eval::CellWeight> cells;  // grid weight scratch
  eval::WeightCache weight_cache;       // the core evaluation's weights, per shared grid

  // Change tracking: the normalised values the buffers were last evaluated at, which of
  // them this evaluation changes, and which deformers it evaluates again. Objects whose
  // reads and parents did not change keep last evaluation's frames and vertices.
  std::vector<float> evaluated;
  std::vector<std::uint8_t> changed, deformer_dirty, mesh_dirty;
  bool evaluated_valid = false;  // the buffers hold an evaluation at [evaluated]
  bool tracking = false;         // this evaluation skips what its changes do not reach
  bool incremental = true;       // false: every evaluation from scratch (tests compare the two)
  bool pixel_vertices = true;    // Instance::set_pixel_vertices: [vertices] written and compared

  // Deformers.
  std::vector<eval::Frame> frames;
  std::vector<float> deformer_opacity;
  std::vector<float> warp_points;
  std::vector<double> warp_cells;  // the cell tables (DeformerPlan::cells_offset)

  // Meshes.
  std::vector<float> vertices;
  std::vector<float> opacity, draw_order;
  std::vector<Rgb> multiply, screen;
  std::vector<std::uint32_t> changes;
  std::vector<std::uint32_t> render_order;
  std::vector<std::int32_t> render_commands;

  // Parts.
  std::vector<float> part_draw_order;
  std::vector<GroupComposite> part_composite;

  // Draw-order sorting scratch: (key, the child's place in its group) per draw-tree child.
  std::vector<KeyedIndex> sort_scratch;

  // The host layer.
  float host_opacity = 1;
  std::vector<float> part_opacity;
  bool any_part_opacity = false;  // some part below 1: the per-mesh product is needed
  std::vector<std::optional<ColorOverride>> mesh_colors, part_colors;
  bool any_color_override = false;

  // The animation layer (Animator): the rig's opacity clips set, and per part the pose and
  // clip part opacities, multiplied in with the host's.
  float animation_opacity = 1;
  std::vector<float> animation_part_opacity;
  bool any_animation_part_opacity = false;

  // Under Cubism's rules (ModelPlan::cubism): the Core's state.
  eval::CubismState cubism;
  eval::Cubism2State cubism2;  // Cubism 2's rules only

  // Advanced mode (p2l_set_advanced): null while every feature is off.
  std::unique_ptr<ext::AdvancedState, ext::AdvancedDeleter> advanced;
  // BONE's virtual bones at this evaluation's values, made on first use (skinning, colliders,
  // bone transforms) and dropped at the next evaluation.
  std::vector<eval::Frame> virtual_frames;
  bool virtual_frames_valid = false;
  // The host's wind for the simulations (p2l_sim_wind), world space (y up); kept across switches.
  float sim_wind_x = 0, sim_wind_y = 0;

  // What the evaluation before showed, for the change flags.
  struct Shown {
    std::vector<float> vertices, opacity, draw_order;
    std::vector<Rgb> multiply, screen;
    std::vector<std::int32_t> place;
    bool valid = false;
  } shown;
  std::vector<std::int32_t> place;  // this evaluation's render place per mesh, -1 when not drawn
};

namespace eval {

// Starts an evaluation's change tracking at s.normalized: which parameters moved since the
// buffers were last evaluated (bit for bit), and whether this evaluation may skip what they do
// not reach. Advanced mode's hooks read more than the plan's read sets say (held parameters,
// skins, simulations): it evaluates everything, and the evaluation after it too.
inline void start_tracking(InstanceState& s) {
  s.tracking = s.evaluated_valid && s.incremental && !s.advanced;
  if (s.tracking)
    for (std::size_t i = 0; i < s.normalized.size(); ++i)
      s.changed[i] = std::bit_cast<std::uint32_t>(s.normalized[i]) != std::bit_cast<std::uint32_t>(s.evaluated[i]);
  std::copy(s.normalized.begin(), s.normalized.end(), s.evaluated.begin());
  s.evaluated_valid = !s.advanced;
}

// True when this evaluation changes a parameter of the set.
inline bool reads_changed(const ModelPlan& plan, ReadSet reads, const InstanceState& s) {
  for (std::uint32_t k = reads.first; k < reads.first + reads.count; ++k)
    if (s.changed[plan.reads[k]]) return true;
  return false;
}

}  // namespace eval

}  // namespace p2l
