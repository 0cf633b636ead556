#include "ext/bones.hpp"

#include <cmath>

#include "base/sized.hpp"
#include "eval/evaluate.hpp"
#include "eval/frames.hpp"
#include "ext/advanced.hpp"
#include "p2l/eval.hpp"

namespace p2l::ext {

using eval::ArcPlan;
using eval::Frame;

std::optional<Affine> affine_of(const Frame& f) {
  if (f.kind != DeformerKind::Rotation) return std::nullopt;
  const float fx = f.flip_x ? -f.scale : f.scale;
  const float fy = f.flip_y ? -f.scale : f.scale;
  return Affine{f.cos * fx, -f.sin * fy, f.sin * fx, f.cos * fy, f.origin_x, f.origin_y};
}

const ArcPlan* declared_arc(const eval::ModelPlan& plan, std::size_t d, bool arcs_on) {
  if (!arcs_on || d >= plan.arc_of.size() || plan.arc_of[d] < 0) return nullptr;
  const ArcPlan& arc = plan.arcs[static_cast<std::size_t>(plan.arc_of[d])];
  return arc.declared ? &arc : nullptr;
}

void ensure_virtual_frames(const Model& model, InstanceState& s, bool arcs_on) {
  if (s.virtual_frames_valid) return;
  const Rig& rig = model.rig();
  const std::size_t core = rig.deformers.size();
  for (std::size_t i = 0; i < s.virtual_frames.size(); ++i) {
    const Deformer& d = rig.deformer_or_bone(core + i);
    const std::size_t parent = static_cast<std::size_t>(d.parent);
    const Frame* parent_frame = d.parent < 0 ? nullptr : parent < core ? &s.frames[parent] : &s.virtual_frames[parent - core];
    eval::ChannelState state;
    // Virtual bones are rotations (validate() checks it): no lattice to write.
    s.virtual_frames[i] = eval::deformer_frame(d, model.plan().deformers[core + i], parent_frame,
                                               {s.normalized.data(), s.cells.data()}, nullptr, nullptr, declared_arc(model.plan(), core + i, arcs_on), state);
  }
  s.virtual_frames_valid = true;
}

const Frame& current_frame(const Model& model, const InstanceState& s, std::size_t d) {
  const std::size_t core = model.rig().deformers.size();
  return d < core ? s.frames[d] : s.virtual_frames[d - core];
}

std::optional<Affine> bone_transform(const Model& model, InstanceState& s, std::uint32_t bone) {
  const Rig& rig = model.rig();
  if (!rig.bones || bone >= rig.bones->bones.size()) return std::nullopt;
  const std::uint32_t d = rig.bones->bones[bone].deformer;
  if (d >= rig.deformer_count_with_bones()) return std::nullopt;
  if (d >= rig.deformers.size()) ensure_virtual_frames(model, s, s.advanced && (features_on(*s.advanced) & kExactLinks));
  return affine_of(current_frame(model, s, d));
}

void FrameSet::init(const Model& model, std::vector<std::uint32_t> members) {
  const Rig& rig = model.rig();
  const eval::ModelPlan& plan = model.plan();
  members_ = std::move(members);
  slot_.assign(rig.deformer_count_with_bones(), -1);
  sized(frames_, members_.size());  // base/sized.hpp says why not resize()
  std::size_t points = 0;
  for (std::size_t k = 0; k < members_.size(); ++k) {
    const std::uint32_t d = members_[k];
    slot_[d] = static_cast<std::int32_t>(k);
    if (d < rig.deformers.size() && rig.deformers[d].kind == DeformerKind::Warp)
      points = std::max<std::size_t>(points, plan.deformers[d].points_offset + std::size_t{plan.deformers[d].point_count} * 2);
  }
  points_.assign(points, 0.0f);
  sized(cells_, plan.max_cells);
}

void FrameSet::evaluate(const Model& model, const InstanceState& s, const float* values, bool arcs_on) {
  const Rig& rig = model.rig();
  const eval::ModelPlan& plan = model.plan();
  for (std::size_t k = 0; k < members_.size(); ++k) {
    const std::uint32_t d = members_[k];
    const Deformer& def = rig.deformer_or_bone(d);
    const Frame* parent = def.parent < 0 ? nullptr : &frame(model, s, static_cast<std::size_t>(def.parent));
    const eval::DeformerPlan& dp = plan.deformers[d];
    float* points = def.kind == DeformerKind::Warp ? points_.data() + dp.points_offset : nullptr;
    eval::ChannelState state;
    frames_[k] = eval::deformer_frame(def, dp, parent, {values, cells_.data()}, points, nullptr, declared_arc(plan, d, arcs_on), state);
  }
}

const Frame& FrameSet::frame(const Model& model, const InstanceState& s, std::size_t d) const {
  return contains(d) ? frames_[static_cast<std::size_t>(slot_[d])] : current_frame(model, s, d);
}

}  // namespace p2l::ext
