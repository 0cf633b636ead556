// The core evaluation of one instance's current values into its outputs.
#pragma once

#include "eval/draw_order.hpp"
#include "eval/plan.hpp"
#include "eval/state.hpp"
#include "eval/weights.hpp"
#include "p2l/eval.hpp"

namespace p2l::eval {

// Evaluates s.current: frames, vertices, opacities, colours, draw orders, part
// composites, glue, render order and commands. Writes only into s's buffers.
void evaluate_core(const Model& model, InstanceState& s);

// One deformer's (or virtual bone's) frame at the pose: keyforms, blend shapes, with an
// [arc] (H2) the pivot moved onto its circle, then the parent's frame. A warp's lattice
// goes to [points], and its cell table (when the plan gives it one) to [cells] unless that
// is null; [state] receives its channel values.
Frame deformer_frame(const Deformer& d, const DeformerPlan& dp, const Frame* parent, const Weigher& weigh, float* points,
                     double* cells, const ArcPlan* arc, ChannelState& state);

// A mesh's vertices in its parent's space at the pose: rest positions, keyform offsets and
// blend shapes (those [skip_binding] marks left out), with its channel values.
ChannelState mesh_local(const Mesh& m, const MeshPlan& mp, const Weigher& weigh, float* out,
                        const std::uint8_t* skip_binding = nullptr);

// The stages evaluate_core runs, in this order (exposed for the stage benchmarks).
void normalize_parameters(const ModelPlan& plan, InstanceState& s);
void evaluate_deformers(const Rig& rig, const ModelPlan& plan, InstanceState& s);
void evaluate_meshes(const Rig& rig, const ModelPlan& plan, InstanceState& s);
void evaluate_parts(const Rig& rig, const ModelPlan& plan, InstanceState& s);
void apply_glue(const Rig& rig, const ModelPlan& plan, InstanceState& s);

}  // namespace p2l::eval
