// Evaluation under Cubism's rules (Rig::rules == CoreRules::Cubism, core chunks version 2):
// the same outputs as evaluate_core, computed as the official Cubism Core computes a moc3 —
// keys snapping per parameter, objects hidden outside their keys, part opacity in the
// core, deformer colours composed down to meshes, blend shapes as deltas weighed by the
// smallest of their limits, and Cubism's single-precision order of operations throughout.
// docs/RUNTIME.md, "Cubism's rules", states each rule.
#pragma once

#include "eval/plan.hpp"
#include "eval/state.hpp"
#include "p2l/eval.hpp"

namespace p2l::eval {

// Fills p.cubism_plan (Model::create, for a rig under Cubism's rules).
void plan_cubism(const Rig& rig, ModelPlan& p);
// Sizes s.cubism (Instance's constructor).
void init_cubism_state(const Rig& rig, const ModelPlan& p, InstanceState& s);
// Evaluates s.current into s's outputs (vertices in canvas pixels, opacities, colours, draw
// and render orders) and the Core's own outputs in s.cubism.
// [mark], when given, is called with its context after each stage (parameters, parts,
// deformers, meshes, glue, output, render order: kCubismStages), for the stage benchmark.
inline constexpr std::size_t kCubismStages = 7;
struct StageMark {
  void (*call)(void* context, std::size_t stage) = nullptr;
  void* context = nullptr;
};
void evaluate_cubism(const Model& model, InstanceState& s, StageMark mark = {});

// The render order (s.render_order, s.render_commands, s.cubism.render_orders) from the draw
// orders and shown flags an evaluation left in s.cubism (Cubism 2's rules share it).
void cubism_render_order(const Rig& rig, const ModelPlan& plan, InstanceState& s);

// Every mesh's canvas-pixel vertices from its model vertices (Instance::set_pixel_vertices).
void cubism_pixel_vertices(const Rig& rig, const ModelPlan& plan, InstanceState& s);

// A parameter's value as the Core evaluates it: wrapped into [min, max) when it repeats, else
// clamped; a value that is not a number takes the default.
float cubism_normalize(const Parameter& p, float value);

}  // namespace p2l::eval
