// The core evaluation of one instance's current values into its outputs.
#pragma once

#include "eval/draw_order.hpp"
#include "eval/plan.hpp"
#include "eval/state.hpp"
#include "p2l/eval.hpp"

namespace p2l::eval {

// Evaluates s.current: frames, vertices, opacities, colours, draw orders, part
// composites, glue, render order and commands. Writes only into s's buffers.
void evaluate_core(const Model& model, InstanceState& s);

// The stages evaluate_core runs, in this order (exposed for the stage benchmarks).
void normalize_parameters(const ModelPlan& plan, InstanceState& s);
void evaluate_deformers(const Rig& rig, const ModelPlan& plan, InstanceState& s);
void evaluate_meshes(const Rig& rig, const ModelPlan& plan, InstanceState& s);
void evaluate_parts(const Rig& rig, const ModelPlan& plan, InstanceState& s);
void apply_glue(const Rig& rig, const ModelPlan& plan, InstanceState& s);

}  // namespace p2l::eval
