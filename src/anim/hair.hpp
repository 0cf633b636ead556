// Cubism 2's hair physics (the HAIR chunk, a model's physics.json): every hair is a two-point
// pendulum, played as the Cubism 2.1 runtime plays its PhysicsHair and as the Cubism 2
// framework drives it (each update given the time since the physics was made).
// docs/RUNTIME.md "Hair physics" states the rules and where p2lrt departs from them.
//
// The state is sized when the physics is made; step() allocates nothing.
#pragma once

#include <span>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l::anim {

class HairPhysics {
 public:
  explicit HairPhysics(const Rig& rig);

  bool empty() const { return states_.empty(); }
  // Every hair hanging at rest, the clock at 0.
  void reset();
  // Advances the clock by [dt] seconds and updates every hair in file order from [values]
  // (one per parameter), writing the outputs into them. The first update with time on the
  // clock only starts each hair: it writes nothing.
  void step(float dt, std::span<float> values);

 private:
  // One end of a pendulum; [last_*]: as it was at the end of the previous step.
  struct Point {
    double x = 0, y = 0, vx = 0, vy = 0;
    double last_x = 0, last_y = 0, last_vx = 0, last_vy = 0;
    void remember() { last_x = x, last_y = y, last_vx = vx, last_vy = vy; }
  };
  struct State {
    Point anchor, bob;
    double length = 0;         // kept between the two points
    double gravity_angle = 0;  // degrees, tilted by the gravity-angle inputs
    double angle = 0, angle_rate = 0, last_angle = 0;  // degrees, degrees per second
    double start_ms = 0, last_ms = 0;  // 0: not started
  };

  static double distance(const Point& a, const Point& b);
  static State at_rest(const Hair& hair);
  static double bob_angle(const State& s);
  void pull_anchor(const Hair& hair, State& s, std::span<const float> values) const;
  static void swing(const Hair& hair, State& s, double seconds);
  void write_outputs(const Hair& hair, const State& s, std::span<float> values) const;

  const Rig* rig_;
  std::vector<State> states_;  // one per rig.hairs entry
  double clock_seconds_ = 0;
};

}  // namespace p2l::anim
