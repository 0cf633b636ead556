// The SIMS vertex simulation's solver: 2D extended position-based dynamics (XPBD) over one
// Simulation record's particles and constraints, in world space (canvas x, negated canvas
// y: y up). Single-threaded, fixed constraint order, every buffer sized at construction,
// so stepping allocates nothing and two runs from the same inputs agree bit for bit.
//
// One step of h seconds runs `substeps` substeps. Each substep interpolates the anchors,
// goals, colliders and body angle between the previous step's and this step's targets,
// measures rest lengths and areas from the interpolated goals, integrates (gravity, wind,
// damping), then solves in order: pins, stretch, triangles (area + the anti-flip guard),
// bends, welds, goals, collisions, long-range attachments, stretch again (the opposite
// sweep), and derives velocities. Sweeps alternate direction every substep.
// docs/RUNTIME.md ("Vertex simulation") writes out every constraint.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l::ext {

// A collider placed for a step, world space: a capsule from a to b with the radius going
// from radius_a to radius_b (a circle when a and b coincide), friction 0..1.
struct PlacedCollider {
  float ax = 0, ay = 0, bx = 0, by = 0, radius_a = 1, radius_b = 1, friction = 0;
};

// A negative or non-finite compliance stands for "no such constraint".
bool no_constraint(float compliance);

class XpbdSolver {
 public:
  // [sim] must be valid (p2l::validate) and outlive the solver.
  explicit XpbdSolver(const Simulation& sim);

  std::size_t particle_count() const { return x_.size(); }

  // Every particle at rest on its goal (xy interleaved, world space); anchors as given and
  // taken as the firmly pinned particles' rest for frame_angle(); the body angle 0. The
  // previous targets are these; colliders keep no previous placement, so the next
  // set_targets()'s colliders are used as they are for the first step.
  void reset(std::span<const float> goals, std::span<const float> anchors);

  // This step's targets: goals (each particle's evaluated position), anchors (where its pin
  // holds it), colliders (at most the count given at construction) and the body's turn
  // since rest. The previous step's targets are interpolated towards these across the
  // substeps.
  void set_targets(std::span<const float> goals, std::span<const float> anchors,
                   std::span<const PlacedCollider> colliders, float frame_angle);

  // One step of h seconds; wind is the scene's plus the host's, world space.
  void step(float h, float wind_x, float wind_y);

  // Particle positions after the last step (or the reset), world space.
  std::span<const float> x() const { return x_; }
  std::span<const float> y() const { return y_; }

  // The best-fit rotation (radians, 2D Procrustes about the centroids) taking the firmly
  // pinned particles' anchors at rest to the given anchors; 0 with fewer than two.
  float frame_angle(std::span<const float> anchors) const;

 private:
  // A per-particle point set, one array per coordinate.
  struct Points {
    std::vector<float> x, y;
  };
  // One triangle's turn away from its rest shape: an unnormalised (cos, sin) and the
  // gradient of its angle at corners a, b, c (x, y each).
  struct Turn {
    float cs = 0, sn = 0;
    float grad[6] = {};
  };

  void interpolate_targets(float t);
  void measure_rest();
  void integrate(float hs, float wind_x, float wind_y);
  void clear_lambdas();
  void solve_pins(float hs2);
  void solve_distances(float hs2, bool reverse);
  void solve_triangles(float hs2, bool reverse);
  void pull_area(std::size_t k, float sign, float target, float alpha, bool guard);
  bool turn_of(std::size_t k, Turn& out) const;
  void solve_bends(float hs2, bool reverse);
  void solve_welds(float hs2, bool reverse);
  void solve_goals(float hs2, float angle);
  void attach(std::size_t i, float tx, float ty, float alpha, std::vector<float>& lambda);
  void solve_collisions();
  void solve_long_range(bool reverse);
  void update_velocities(float hs);

  const Simulation* sim_;
  std::vector<float> x_, y_;
  std::vector<float> vx_, vy_;
  std::vector<float> px_, py_;  // positions at the start of the substep
  // Per particle, fixed by the record: pinned rigidly (follows its anchor) and its mobility
  // (inverse mass, 0 when kinematic).
  std::vector<std::uint8_t> kinematic_;
  std::vector<float> mobility_;
  // Targets of this step, of the previous one, and interpolated for the running substep.
  Points goal_, anchor_, prev_goal_, prev_anchor_, step_goal_, step_anchor_;
  float angle_ = 0, prev_angle_ = 0;
  // Colliders: capacity fixed at construction, counts of those placed now and last step.
  std::vector<PlacedCollider> colliders_, prev_colliders_, step_colliders_;
  std::size_t collider_count_ = 0, prev_collider_count_ = 0;
  // Lagrange multipliers, zeroed every substep; pins, goals and welds keep one per axis.
  std::vector<float> stretch_lambda_, area_lambda_, flip_lambda_, bend_lambda_, weld_lambda_, pin_lambda_,
      goal_lambda_;
  // Rest state measured from the interpolated goals each substep: lengths, signed areas, and
  // each triangle's inverse edge matrix (4 floats, all 0 when degenerate).
  std::vector<float> rest_length_, rest_area_, rest_inverse_;
  // The firmly pinned particles (pin weight >= 0.5) and their anchors at the last reset.
  std::vector<std::uint32_t> frame_particles_;
  std::vector<float> frame_rest_;
  bool frame_rest_set_ = false;
};

}  // namespace p2l::ext
