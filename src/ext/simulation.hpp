// SIMS (H6): one vertex simulation as it runs in an instance. Each update places the goals
// (the target meshes as evaluated), the anchors and the colliders, steps the XPBD solver at
// the simulation's own rate (at most kMaxSimSteps steps, the rest of a long frame dropped)
// and draws the particles over the targets between their last two steps.
#pragma once

#include <cstdint>
#include <vector>

#include "eval/state.hpp"
#include "ext/xpbd.hpp"

namespace p2l::ext {

inline constexpr int kMaxSimSteps = 4;

class SimRun {
 public:
  SimRun(const Model& model, std::size_t index, bool collide);

  // Steps by dt (> 0) or, with dt <= 0, only draws. Appends this update's colliders, canvas
  // pixels (ax, ay, bx, by, ra, rb), to [placed].
  void advance(const Model& model, InstanceState& s, float dt, float wind_x, float wind_y, std::vector<float>& placed);
  void reset() { started_ = false; }

  const XpbdSolver& solver() const { return solver_; }
  std::size_t collider_capacity() const { return colliders_.capacity(); }
  bool started() const { return started_; }

 private:
  void place(const Model& model, InstanceState& s);
  void draw(const Model& model, InstanceState& s, float alpha) const;

  const Simulation* sim_;
  XpbdSolver solver_;
  bool collide_;
  bool started_ = false;
  float remain_ = 0;
  std::vector<float> goals_, anchors_;       // world space, xy interleaved
  std::vector<PlacedCollider> colliders_;    // world space
  std::vector<float> previous_, current_;    // particles after the step before last and the last
};

// H4: subtracts from mesh [m] (its parent's space) the static corrections the simulations'
// bakes added, interpolated linearly between their keys as the bake wrote them.
void subtract_statics(const Rig& rig, std::uint32_t m, const float* values, float* out);

}  // namespace p2l::ext
