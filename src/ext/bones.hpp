// H3: bone frames. BONE's virtual bones are rotations evaluated only for skinning, colliders
// and hosts, after the core deformers and at the same values; FrameSet evaluates a chosen
// set of deformers and virtual bones at other values (a skin's key corners, its rest pose),
// taking every frame it does not recompute from the current evaluation.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "eval/plan.hpp"
#include "eval/state.hpp"
#include "p2l/affine.hpp"

namespace p2l::ext {

// The arc H2 puts on deformer or virtual bone [d] with exact links [arcs_on], or null: a DEFM
// rotation's only when BONE's header declares it.
const eval::ArcPlan* declared_arc(const eval::ModelPlan& plan, std::size_t d, bool arcs_on);

// A rotation frame as an affine map (flips and scale, then the turn, then the origin);
// nothing for a warp, whose map is not affine.
std::optional<Affine> affine_of(const eval::Frame& f);

// Computes s.virtual_frames for this evaluation if no one has yet.
void ensure_virtual_frames(const Model& model, InstanceState& s, bool arcs_on);

// The frame of deformer or virtual bone [d] at the current evaluation.
const eval::Frame& current_frame(const Model& model, const InstanceState& s, std::size_t d);

// The canvas frame of BONE's attachable bone [bone] at the last evaluation (virtual bones
// computed on request); nothing for a warp or a bone the rig does not list.
std::optional<Affine> bone_transform(const Model& model, InstanceState& s, std::uint32_t bone);

// Frames of a fixed set of deformers and virtual bones at given values.
class FrameSet {
 public:
  // [members]: indices into DEFM + virtual bones, ascending (so parents come first).
  void init(const Model& model, std::vector<std::uint32_t> members);
  // Evaluates the members at [values]; a member's parent outside the set takes its current
  // frame from [s]. [arcs_on]: H2 arcs apply as in the evaluation.
  void evaluate(const Model& model, const InstanceState& s, const float* values, bool arcs_on);
  // The member's frame after evaluate(), else the current one.
  const eval::Frame& frame(const Model& model, const InstanceState& s, std::size_t d) const;
  bool contains(std::size_t d) const { return d < slot_.size() && slot_[d] >= 0; }
  bool empty() const { return members_.empty(); }

 private:
  std::vector<std::uint32_t> members_;
  std::vector<std::int32_t> slot_;  // per deformer or virtual bone: its place in frames_, or -1
  std::vector<eval::Frame> frames_;
  std::vector<float> points_;  // member warps' lattices, at their plan offsets
  std::vector<eval::CellWeight> cells_;
};

}  // namespace p2l::ext
