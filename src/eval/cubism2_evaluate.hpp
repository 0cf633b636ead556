// Evaluation under Cubism 2's rules (Rig::rules == CoreRules::Cubism2, core chunks version
// 3): the same outputs as evaluate_cubism, computed as the Cubism 2.1 runtime computes a
// .moc: its key lookup (within 0.0001), weights and sums in double precision between float
// buffers, opacity and rotation fields by nested interpolation, draw orders truncated to an
// integer after each interpolation stage, deformers that keep their last frame while a parent
// above them is out of its keys, and meshes drawn through such a frame. docs/RUNTIME.md,
// "Cubism 2's rules", states each rule and where p2lrt departs from the runtime (five or more
// parameters interpolating at once: the correct multilinear result).
#pragma once

#include "eval/plan.hpp"
#include "eval/state.hpp"
#include "p2l/eval.hpp"

namespace p2l::eval {

// Sizes s.cubism2 (Instance's constructor; after init_cubism_state).
void init_cubism2_state(const Rig& rig, const ModelPlan& p, InstanceState& s);
// Puts the frames a deformer keeps while unavailable, and the last probe direction, back to
// what the runtime's buffers hold before its first update (zeros).
void forget_cubism2_history(const Rig& rig, const ModelPlan& p, InstanceState& s);
// Evaluates s.current into s's outputs (canvas-pixel vertices, opacities, draw and render
// orders) and the runtime's own buffers in s.cubism (vertices in model units, y down).
void evaluate_cubism2(const Model& model, InstanceState& s);

}  // namespace p2l::eval
