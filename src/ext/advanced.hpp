// Advanced mode: what the extension chunks (BONE, SKIN, SIMS, COLL) add over the Cubism-
// equivalent evaluation, at the hooks of the format's stage table. An instance has an
// AdvancedState only while some feature is on; without one, every hook is skipped and the
// evaluation runs the core code alone.
//
//   H1  parameters   held at their defaults for the whole evaluation; pendulums skipped
//   H2  deformers    a rotation keyed along a circle interpolates on it (exact links)
//   H3  bone frames  virtual bones and attachable bones, for skinning, colliders, hosts
//   H4  meshes       skin corrections; static corrections taken back out; declared
//                    contributions replaced (keyform axes at defaults, blend shapes left out)
//   H6  time step    the vertex simulations, stepped by p2l_update, drawn over their targets
//
// Which chunk acts where comes from its common header (hooks, and the H1/H2/H4 lists);
// docs/RUNTIME.md ("Advanced mode") gives every rule.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "eval/plan.hpp"
#include "eval/state.hpp"

namespace p2l::ext {

using eval::ArcPlan;
using eval::ChannelState;
using eval::ModelPlan;

inline constexpr std::uint32_t kSkin = 1, kExactLinks = 2, kSim = 4, kCollision = 8;
inline constexpr std::uint32_t kAllFeatures = kSkin | kExactLinks | kSim | kCollision;

// The features the rig's extension chunks carry that this runtime runs.
std::uint32_t carried_features(const Rig& rig);

// Builds the state for the requested features (those the rig carries, whose chunks' header
// dependencies are present and on). [on] receives the features actually on; [notes] what was
// left out and why. Null when nothing is on.
// [s] is the instance's state (its scratch prepares the skins).
std::unique_ptr<AdvancedState, AdvancedDeleter> make_advanced(const Model& model, InstanceState& s,
                                                              std::uint32_t requested, std::uint32_t& on,
                                                              std::vector<std::string>& notes);

std::uint32_t features_on(const AdvancedState& a);

// H1: the held parameters at their defaults (in s.normalized).
void hold_parameters(const AdvancedState& a, const ModelPlan& plan, InstanceState& s);
// Per PHYS group, 1 where a simulation replaces the pendulum; empty when none is skipped.
std::span<const std::uint8_t> skipped_physics(const AdvancedState& a);

// H2: the arc replacing deformer [d]'s chord, or null.
const ArcPlan* frame_arc(const AdvancedState& a, const ModelPlan& plan, std::size_t d);
// Moves a pivot from the chord between its bracketing keys onto the arc's circle, turning
// the angle and the radius with the key weight.
void along_arc(const ArcPlan& arc, const std::vector<Pivot>& forms, const float* values, Pivot& p);

// H4: mesh [m] in its parent's space with the extensions' contributions.
ChannelState mesh_local_hooked(AdvancedState& a, InstanceState& s, std::size_t m, float* out);

// H6: steps the simulations by dt from the evaluated targets and draws them over the
// targets, between their last two steps; dt <= 0 (an evaluation without time) draws the
// last step without stepping, or leaves the targets while a simulation has not started.
void advance_simulations(AdvancedState& a, InstanceState& s, float dt);
void reset_simulations(AdvancedState& a);
// The colliders as the last update placed them: ax, ay, bx, by, radius a, radius b (canvas px).
std::span<const float> placed_colliders(const AdvancedState& a);

}  // namespace p2l::ext
