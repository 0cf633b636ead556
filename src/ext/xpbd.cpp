// The SIMS solver. It follows the editor's XPBD solver operation for operation so that a
// scene steps here as it does there: every quantity is a float, the transcendental functions
// are evaluated in double and rounded (as the JVM's Math does), except the bend angle, which
// takes the editor's float polynomial atan2. The order of every sum and product below is
// part of that contract; keep it when editing. The build turns off FMA contraction.
#include "ext/xpbd.hpp"

#include <algorithm>
#include <cmath>

#include "base/libm.hpp"
#include "base/sized.hpp"

namespace p2l::ext {
namespace {

// Pin weights at or above this make a particle follow its anchor outright.
constexpr float kRigidPin = 0.999f;
// Pin weights at or above this count towards the body's turn (frame_angle).
constexpr float kFramePin = 0.5f;
// The flip guard pushes a triangle back out once it shrinks below this share of its rest area.
constexpr float kMinAreaShare = 0.2f;

float exp_d(float v) { return static_cast<float>(libm::exp(static_cast<double>(v))); }
float sqrt_d(float v) { return static_cast<float>(std::sqrt(static_cast<double>(v))); }
float sin_d(float v) { return static_cast<float>(libm::sin(static_cast<double>(v))); }
float cos_d(float v) { return static_cast<float>(libm::cos(static_cast<double>(v))); }
float atan2_d(float y, float x) { return static_cast<float>(libm::atan2(static_cast<double>(y), static_cast<double>(x))); }

// The editor's float atan2 (its FastAngle): fold into the first octant, shift arguments past
// tan(pi/8) by pi/4 so the series converges fast, odd Taylor series up to t^15, unfold.
// Only bends use it; matching it bit for bit keeps bent strands identical to the editor's.
float fast_atan2(float y, float x) {
  constexpr float kPi = 3.1415927f;
  constexpr float kHalfPi = kPi / 2.0f;
  constexpr float kQuarterPi = kPi / 4.0f;
  constexpr float kTanPi8 = 0.41421357f;
  const float ax = std::fabs(x), ay = std::fabs(y);
  if (ax == 0.0f && ay == 0.0f) return 0.0f;
  const float a = ay <= ax ? ay / ax : ax / ay;
  const bool shifted = a > kTanPi8;
  const float t = shifted ? (a - 1.0f) / (a + 1.0f) : a;
  const float t2 = t * t;
  float r = t * (1.0f + t2 * (-1.0f / 3.0f +
                              t2 * (1.0f / 5.0f +
                                    t2 * (-1.0f / 7.0f +
                                          t2 * (1.0f / 9.0f + t2 * (-1.0f / 11.0f + t2 * (1.0f / 13.0f - t2 / 15.0f)))))));
  if (shifted) r += kQuarterPi;
  if (ay > ax) r = kHalfPi - r;
  if (x < 0.0f) r = kPi - r;
  return y < 0.0f ? -r : r;
}

// The k-th constraint visited by a sweep over `count` of them; sweeps alternate direction so
// that no constraint is always solved last (which would bias the result towards it).
std::size_t sweep(std::size_t k, std::size_t count, bool reverse) { return reverse ? count - 1 - k : k; }

float mix(float from, float to, float t) { return from + (to - from) * t; }

PlacedCollider lerp(const PlacedCollider& from, const PlacedCollider& to, float t) {
  PlacedCollider c = to;  // radii and friction are the current ones; only the placement moves
  c.ax = mix(from.ax, to.ax, t);
  c.ay = mix(from.ay, to.ay, t);
  c.bx = mix(from.bx, to.bx, t);
  c.by = mix(from.by, to.by, t);
  return c;
}

void copy_interleaved(std::span<const float> xy, std::vector<float>& x, std::vector<float>& y) {
  const std::size_t n = std::min(x.size(), xy.size() / 2);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = xy[i * 2];
    y[i] = xy[i * 2 + 1];
  }
}

// A bend's gradient over the distinct particles of its two triangles (at most six), the
// shared corners' contributions summed in the order they are added.
struct BendGradient {
  std::uint32_t index[6] = {};
  float gx[6] = {}, gy[6] = {};
  std::size_t n = 0;

  void add(std::uint32_t i, float x, float y) {
    for (std::size_t j = 0; j < n; ++j) {
      if (index[j] == i) {
        gx[j] += x;
        gy[j] += y;
        return;
      }
    }
    index[n] = i;
    gx[n] = x;
    gy[n] = y;
    ++n;
  }
};

}  // namespace

bool no_constraint(float compliance) { return !(compliance >= 0.0f) || !std::isfinite(compliance); }

XpbdSolver::XpbdSolver(const Simulation& sim) : sim_(&sim) {
  const std::size_t n = sim.inv_mass.size();
  for (auto* v : {&x_, &y_, &vx_, &vy_, &px_, &py_}) v->assign(n, 0.0f);
  for (Points* p : {&goal_, &anchor_, &prev_goal_, &prev_anchor_, &step_goal_, &step_anchor_}) {
    p->x.assign(n, 0.0f);
    p->y.assign(n, 0.0f);
  }
  // Sized once (base/sized.hpp says why not resize()).
  sized(kinematic_, n);
  sized(mobility_, n);
  for (std::size_t i = 0; i < n; ++i) {
    kinematic_[i] = sim.pin_weight[i] >= kRigidPin || sim.inv_mass[i] == 0.0f;
    mobility_[i] = kinematic_[i] ? 0.0f : sim.inv_mass[i];
    if (sim.pin_weight[i] >= kFramePin) frame_particles_.push_back(static_cast<std::uint32_t>(i));
  }
  frame_rest_.assign(frame_particles_.size() * 2, 0.0f);

  const std::size_t colliders = sim.colliders.size();
  sized(colliders_, colliders);
  sized(prev_colliders_, colliders);
  sized(step_colliders_, colliders);

  const std::size_t edges = sim.stretch_a.size(), triangles = sim.tri_a.size();
  stretch_lambda_.assign(edges, 0.0f);
  area_lambda_.assign(triangles, 0.0f);
  flip_lambda_.assign(triangles, 0.0f);
  bend_lambda_.assign(sim.bend_t1.size(), 0.0f);
  weld_lambda_.assign(sim.weld_a.size() * 2, 0.0f);
  pin_lambda_.assign(n * 2, 0.0f);
  goal_lambda_.assign(n * 2, 0.0f);
  rest_length_.assign(edges, 0.0f);  // measured at every substep before use
  rest_area_.assign(triangles, 0.0f);
  rest_inverse_.assign(triangles * 4, 0.0f);
}

void XpbdSolver::reset(std::span<const float> goals, std::span<const float> anchors) {
  copy_interleaved(goals, x_, y_);
  std::fill(vx_.begin(), vx_.end(), 0.0f);
  std::fill(vy_.begin(), vy_.end(), 0.0f);
  copy_interleaved(goals, goal_.x, goal_.y);
  copy_interleaved(anchors, anchor_.x, anchor_.y);
  prev_goal_ = goal_;  // same sizes: copy assignment reuses the storage
  prev_anchor_ = anchor_;
  step_goal_ = goal_;
  angle_ = prev_angle_ = 0.0f;
  prev_collider_count_ = 0;
  for (std::size_t k = 0; k < frame_particles_.size(); ++k) {
    frame_rest_[k * 2] = anchor_.x[frame_particles_[k]];
    frame_rest_[k * 2 + 1] = anchor_.y[frame_particles_[k]];
  }
  frame_rest_set_ = true;
}

void XpbdSolver::set_targets(std::span<const float> goals, std::span<const float> anchors,
                             std::span<const PlacedCollider> colliders, float frame_angle) {
  copy_interleaved(goals, goal_.x, goal_.y);
  copy_interleaved(anchors, anchor_.x, anchor_.y);
  collider_count_ = std::min(colliders.size(), colliders_.size());
  std::copy_n(colliders.begin(), collider_count_, colliders_.begin());
  angle_ = frame_angle;
}

void XpbdSolver::step(float h, float wind_x, float wind_y) {
  // A zero, negative or NaN step would turn every velocity into NaN for good; it is no step.
  if (!(h > 0.0f)) return;
  const std::uint32_t substeps = std::max<std::uint32_t>(1, sim_->substeps);
  const float hs = h / static_cast<float>(substeps);
  const float hs2 = hs * hs;
  for (std::uint32_t sub = 1; sub <= substeps; ++sub) {
    const float t = static_cast<float>(sub) / static_cast<float>(substeps);
    interpolate_targets(t);
    const float angle = prev_angle_ + (angle_ - prev_angle_) * t;
    const bool reverse = sub % 2 == 0;
    measure_rest();
    integrate(hs, wind_x, wind_y);
    clear_lambdas();
    solve_pins(hs2);
    solve_distances(hs2, reverse);
    solve_triangles(hs2, reverse);
    solve_bends(hs2, reverse);
    solve_welds(hs2, reverse);
    solve_goals(hs2, angle);
    solve_collisions();
    solve_long_range(reverse);
    // The constraints after the first stretch sweep pull edges off their length again; a
    // second sweep the other way, from fresh multipliers, has edges end the substep closest
    // to it.
    std::fill(stretch_lambda_.begin(), stretch_lambda_.end(), 0.0f);
    solve_distances(hs2, !reverse);
    update_velocities(hs);
  }
  // Forces no cloth is made for (a host's wind of 1e29, a pose flung across the canvas in one
  // frame) overflow a particle to infinity, and then every constraint it is in turns its
  // neighbours into NaN for good. Such a step is dropped: the simulation is at rest on this
  // step's goals, as after a reset, and goes on from there.
  bool finite = true;
  for (std::size_t i = 0; i < x_.size(); ++i) finite = finite && std::isfinite(x_[i]) && std::isfinite(y_[i]);
  if (!finite) {
    std::copy(goal_.x.begin(), goal_.x.end(), x_.begin());
    std::copy(goal_.y.begin(), goal_.y.end(), y_.begin());
    std::fill(vx_.begin(), vx_.end(), 0.0f);
    std::fill(vy_.begin(), vy_.end(), 0.0f);
  }
  // This step's targets are where the next step's interpolation starts.
  prev_goal_ = goal_;
  prev_anchor_ = anchor_;
  prev_angle_ = angle_;
  std::copy_n(colliders_.begin(), collider_count_, prev_colliders_.begin());
  prev_collider_count_ = collider_count_;
}

// Substep targets between the previous step's and this one's; a collider placed for the
// first time has nothing to come from and stands where it is.
void XpbdSolver::interpolate_targets(float t) {
  for (std::size_t i = 0; i < x_.size(); ++i) {
    step_anchor_.x[i] = mix(prev_anchor_.x[i], anchor_.x[i], t);
    step_anchor_.y[i] = mix(prev_anchor_.y[i], anchor_.y[i], t);
    step_goal_.x[i] = mix(prev_goal_.x[i], goal_.x[i], t);
    step_goal_.y[i] = mix(prev_goal_.y[i], goal_.y[i], t);
  }
  for (std::size_t k = 0; k < collider_count_; ++k)
    step_colliders_[k] = k < prev_collider_count_ ? lerp(prev_colliders_[k], colliders_[k], t) : colliders_[k];
}

// The goals are the rig's evaluated shape, so they say how long an edge and how large a
// triangle should be right now; an edge is never asked to be shorter than the file's rest.
void XpbdSolver::measure_rest() {
  const Simulation& sim = *sim_;
  const auto& gx = step_goal_.x;
  const auto& gy = step_goal_.y;
  for (std::size_t k = 0; k < sim.stretch_a.size(); ++k) {
    const std::uint32_t a = sim.stretch_a[k], b = sim.stretch_b[k];
    const float dx = gx[a] - gx[b];
    const float dy = gy[a] - gy[b];
    rest_length_[k] = std::fmax(sim.stretch_rest[k], sqrt_d(dx * dx + dy * dy));
  }
  for (std::size_t k = 0; k < sim.tri_a.size(); ++k) {
    const std::uint32_t a = sim.tri_a[k], b = sim.tri_b[k], c = sim.tri_c[k];
    const float m00 = gx[b] - gx[a];
    const float m01 = gx[c] - gx[a];
    const float m10 = gy[b] - gy[a];
    const float m11 = gy[c] - gy[a];
    const float det = m00 * m11 - m01 * m10;
    rest_area_[k] = det / 2.0f;
    float* inverse = &rest_inverse_[k * 4];
    if (det * det < 1e-12f) {
      std::fill(inverse, inverse + 4, 0.0f);  // no rest shape: bends on it are skipped
      continue;
    }
    inverse[0] = m11 / det;
    inverse[1] = -m01 / det;
    inverse[2] = -m10 / det;
    inverse[3] = m00 / det;
  }
}

// Symplectic Euler with exponential velocity damping; kinematic particles jump to their
// substep anchor (their velocity then comes out of update_velocities like everyone's).
void XpbdSolver::integrate(float hs, float wind_x, float wind_y) {
  const Simulation& sim = *sim_;
  for (std::size_t i = 0; i < x_.size(); ++i) {
    px_[i] = x_[i];
    py_[i] = y_[i];
    if (kinematic_[i]) {
      x_[i] = step_anchor_.x[i];
      y_[i] = step_anchor_.y[i];
      continue;
    }
    const float decay = exp_d(-sim.damping[i] * hs);
    vx_[i] = (vx_[i] + (sim.gravity_x + wind_x * sim.wind_factor[i]) * hs) * decay;
    vy_[i] = (vy_[i] + (sim.gravity_y + wind_y * sim.wind_factor[i]) * hs) * decay;
    x_[i] += vx_[i] * hs;
    y_[i] += vy_[i] * hs;
  }
}

// One solver iteration per substep: the multipliers start from zero every substep.
void XpbdSolver::clear_lambdas() {
  for (auto* v : {&stretch_lambda_, &area_lambda_, &flip_lambda_, &bend_lambda_, &weld_lambda_, &pin_lambda_,
                  &goal_lambda_})
    std::fill(v->begin(), v->end(), 0.0f);
}

// A partial pin is a zero-length spring to the anchor, the softer the lower its weight.
void XpbdSolver::solve_pins(float hs2) {
  const Simulation& sim = *sim_;
  for (std::size_t i = 0; i < x_.size(); ++i) {
    const float weight = sim.pin_weight[i];
    if (weight <= 0.0f || kinematic_[i] || no_constraint(sim.pin_compliance)) continue;
    const float compliance = sim.pin_compliance * (1.0f - weight) / weight * sim.inv_mass[i];
    attach(i, step_anchor_.x[i], step_anchor_.y[i], compliance / hs2, pin_lambda_);
  }
}

// Edges: stretch and compression have their own compliance; a negative one is no constraint
// on that side (the specification's rule: a rope is stiff to stretch and has no compression
// compliance). The original runtime divides by it instead.
void XpbdSolver::solve_distances(float hs2, bool reverse) {
  const Simulation& sim = *sim_;
  const std::size_t count = sim.stretch_a.size();
  for (std::size_t step = 0; step < count; ++step) {
    const std::size_t k = sweep(step, count, reverse);
    const std::uint32_t a = sim.stretch_a[k], b = sim.stretch_b[k];
    const float wa = mobility_[a], wb = mobility_[b];
    const float w = wa + wb;
    if (w == 0.0f) continue;
    const float dx = x_[a] - x_[b];
    const float dy = y_[a] - y_[b];
    const float length = sqrt_d(dx * dx + dy * dy);
    if (length < 1e-9f) continue;  // no direction to push along
    const float c = length - rest_length_[k];
    const float compliance = c < 0.0f ? sim.compression_compliance[k] : sim.stretch_compliance[k];
    if (no_constraint(compliance)) continue;
    const float alpha = compliance / hs2;
    const float delta = (-c - alpha * stretch_lambda_[k]) / (w + alpha);
    stretch_lambda_[k] += delta;
    const float nx = dx / length, ny = dy / length;
    x_[a] += wa * delta * nx;
    y_[a] += wa * delta * ny;
    x_[b] -= wb * delta * nx;
    y_[b] -= wb * delta * ny;
  }
}

// Triangles keep their (signed) rest area when they have an area compliance, and are always
// kept from collapsing or turning over by a stiff one-sided guard at a fifth of it.
void XpbdSolver::solve_triangles(float hs2, bool reverse) {
  const Simulation& sim = *sim_;
  const std::size_t count = sim.tri_a.size();
  for (std::size_t step = 0; step < count; ++step) {
    const std::size_t k = sweep(step, count, reverse);
    const float rest = rest_area_[k];
    if (rest * rest < 1e-8f) continue;
    if (mobility_[sim.tri_a[k]] + mobility_[sim.tri_b[k]] + mobility_[sim.tri_c[k]] == 0.0f) continue;
    // Measured with the rest's orientation, so a mirrored rest shape works the same.
    const float sign = rest > 0.0f ? 1.0f : -1.0f;
    const float compliance = sim.area_compliance[k];
    if (!no_constraint(compliance)) pull_area(k, sign, std::fabs(rest), compliance / hs2, false);
    pull_area(k, sign, std::fabs(rest) * kMinAreaShare, 0.0f, true);
  }
}

// One XPBD update of triangle k's oriented area towards `target`; the guard only ever
// pushes it up to the target, and keeps its own multiplier.
void XpbdSolver::pull_area(std::size_t k, float sign, float target, float alpha, bool guard) {
  const Simulation& sim = *sim_;
  const std::uint32_t a = sim.tri_a[k], b = sim.tri_b[k], c = sim.tri_c[k];
  const float wa = mobility_[a], wb = mobility_[b], wc = mobility_[c];
  const float xa = x_[a], ya = y_[a], xb = x_[b], yb = y_[b], xc = x_[c], yc = y_[c];
  const float area = sign * ((xb - xa) * (yc - ya) - (xc - xa) * (yb - ya)) / 2.0f;
  const float constraint = area - target;
  if (guard && constraint >= 0.0f) return;
  const float gax = sign * (yb - yc) / 2.0f, gay = sign * (xc - xb) / 2.0f;
  const float gbx = sign * (yc - ya) / 2.0f, gby = sign * (xa - xc) / 2.0f;
  const float gcx = sign * (ya - yb) / 2.0f, gcy = sign * (xb - xa) / 2.0f;
  const float w = wa * (gax * gax + gay * gay) + wb * (gbx * gbx + gby * gby) + wc * (gcx * gcx + gcy * gcy);
  if (w < 1e-12f) return;
  std::vector<float>& lambda = guard ? flip_lambda_ : area_lambda_;
  const float delta = (-constraint - alpha * lambda[k]) / (w + alpha);
  lambda[k] += delta;
  x_[a] += wa * delta * gax;
  y_[a] += wa * delta * gay;
  x_[b] += wb * delta * gbx;
  y_[b] += wb * delta * gby;
  x_[c] += wc * delta * gcx;
  y_[c] += wc * delta * gcy;
}

// Triangle k's rotation from its rest shape, read off the deformation gradient
// F = [e1 e2] * rest_inverse as (F00 + F11, F10 - F01), the unnormalised (cos, sin) of its
// rotational part, with the gradient of that angle. False without a usable rest shape or
// when the triangle is crushed so far that the angle means nothing.
bool XpbdSolver::turn_of(std::size_t k, Turn& out) const {
  const Simulation& sim = *sim_;
  const float* inverse = &rest_inverse_[k * 4];
  const float p = inverse[0], q = inverse[1], r = inverse[2], s = inverse[3];
  if (p == 0.0f && q == 0.0f && r == 0.0f && s == 0.0f) return false;
  const std::uint32_t a = sim.tri_a[k], b = sim.tri_b[k], c = sim.tri_c[k];
  const float e1x = x_[b] - x_[a], e1y = y_[b] - y_[a];
  const float e2x = x_[c] - x_[a], e2y = y_[c] - y_[a];
  const float cs = e1x * p + e2x * r + e1y * q + e2y * s;
  const float sn = e1y * p + e2y * r - e1x * q - e2x * s;
  const float norm = cs * cs + sn * sn;
  if (norm < 1e-12f) return false;
  const float bx = (cs * -q - sn * p) / norm, by = (cs * p - sn * q) / norm;
  const float cx = (cs * -s - sn * r) / norm, cy = (cs * r - sn * s) / norm;
  out.cs = cs;
  out.sn = sn;
  const float grad[6] = {-(bx + cx), -(by + cy), bx, by, cx, cy};
  std::copy(grad, grad + 6, out.grad);
  return true;
}

// A bend keeps two triangles turned alike: the constraint is the first one's rotation less
// the second's, taken within +-pi as one atan2 of the product of their (cos, sin) pairs.
void XpbdSolver::solve_bends(float hs2, bool reverse) {
  const Simulation& sim = *sim_;
  const std::size_t count = sim.bend_t1.size();
  Turn first, second;
  for (std::size_t step = 0; step < count; ++step) {
    const std::size_t k = sweep(step, count, reverse);
    const std::uint32_t t1 = sim.bend_t1[k], t2 = sim.bend_t2[k];
    if (no_constraint(sim.bend_compliance[k])) continue;
    if (!turn_of(t1, first) || !turn_of(t2, second)) continue;
    BendGradient g;
    g.add(sim.tri_a[t1], first.grad[0], first.grad[1]);
    g.add(sim.tri_b[t1], first.grad[2], first.grad[3]);
    g.add(sim.tri_c[t1], first.grad[4], first.grad[5]);
    g.add(sim.tri_a[t2], -second.grad[0], -second.grad[1]);
    g.add(sim.tri_b[t2], -second.grad[2], -second.grad[3]);
    g.add(sim.tri_c[t2], -second.grad[4], -second.grad[5]);
    const float c1 = first.cs, s1 = first.sn, c2 = second.cs, s2 = second.sn;
    const float constraint = fast_atan2(s1 * c2 - c1 * s2, c1 * c2 + s1 * s2);
    float w = 0.0f;
    for (std::size_t j = 0; j < g.n; ++j) w += mobility_[g.index[j]] * (g.gx[j] * g.gx[j] + g.gy[j] * g.gy[j]);
    if (w < 1e-12f) continue;
    const float alpha = sim.bend_compliance[k] / hs2;  // a negative one was skipped above
    const float delta = (-constraint - alpha * bend_lambda_[k]) / (w + alpha);
    bend_lambda_[k] += delta;
    for (std::size_t j = 0; j < g.n; ++j) {
      const std::uint32_t i = g.index[j];
      x_[i] += mobility_[i] * delta * g.gx[j];
      y_[i] += mobility_[i] * delta * g.gy[j];
    }
  }
}

// A weld draws two particles together, each axis on its own; the weights say which side
// gives way (0: that side does not move).
void XpbdSolver::solve_welds(float hs2, bool reverse) {
  const Simulation& sim = *sim_;
  const std::size_t count = sim.weld_a.size();
  for (std::size_t step = 0; step < count; ++step) {
    const std::size_t k = sweep(step, count, reverse);
    const std::uint32_t a = sim.weld_a[k], b = sim.weld_b[k];
    const float wa = mobility_[a] * sim.weld_weight_a[k];
    const float wb = mobility_[b] * sim.weld_weight_b[k];
    const float w = wa + wb;
    if (w == 0.0f || no_constraint(sim.weld_compliance[k])) continue;
    const float alpha = sim.weld_compliance[k] / hs2;
    float* lambda = &weld_lambda_[k * 2];
    const float dx = (-(x_[a] - x_[b]) - alpha * lambda[0]) / (w + alpha);
    lambda[0] += dx;
    x_[a] += wa * dx;
    x_[b] -= wb * dx;
    const float dy = (-(y_[a] - y_[b]) - alpha * lambda[1]) / (w + alpha);
    lambda[1] += dy;
    y_[a] += wa * dy;
    y_[b] -= wb * dy;
  }
}

// Goals draw particles back to the rig's evaluated shape, each plus its offset turned with
// the body.
void XpbdSolver::solve_goals(float hs2, float angle) {
  const Simulation& sim = *sim_;
  const float cos_a = cos_d(angle), sin_a = sin_d(angle);
  for (std::size_t i = 0; i < x_.size(); ++i) {
    const float compliance = sim.goal_compliance[i];
    if (no_constraint(compliance) || kinematic_[i]) continue;
    const float ox = sim.goal_offset_x[i] * cos_a - sim.goal_offset_y[i] * sin_a;
    const float oy = sim.goal_offset_x[i] * sin_a + sim.goal_offset_y[i] * cos_a;
    attach(i, step_goal_.x[i] + ox, step_goal_.y[i] + oy, compliance / hs2, goal_lambda_);
  }
}

// A zero-length spring from particle i to (tx, ty), one update per axis, x first.
void XpbdSolver::attach(std::size_t i, float tx, float ty, float alpha, std::vector<float>& lambda) {
  const float w = sim_->inv_mass[i];
  if (w == 0.0f) return;
  const float dx = (-(x_[i] - tx) - alpha * lambda[i * 2]) / (w + alpha);
  lambda[i * 2] += dx;
  x_[i] += w * dx;
  const float dy = (-(y_[i] - ty) - alpha * lambda[i * 2 + 1]) / (w + alpha);
  lambda[i * 2 + 1] += dy;
  y_[i] += w * dy;
}

// Colliders are rigid and one-sided: a particle inside one is put back on its surface along
// the normal from the closest point of its axis, the radius varying along the axis. Friction
// then takes its share of this substep's slide along the surface away.
void XpbdSolver::solve_collisions() {
  if (collider_count_ == 0) return;
  for (std::size_t i = 0; i < x_.size(); ++i) {
    if (kinematic_[i]) continue;
    for (std::size_t k = 0; k < collider_count_; ++k) {
      const PlacedCollider& c = step_colliders_[k];
      const float ex = c.bx - c.ax, ey = c.by - c.ay;
      const float length2 = ex * ex + ey * ey;
      const float t =
          length2 > 1e-12f ? std::clamp(((x_[i] - c.ax) * ex + (y_[i] - c.ay) * ey) / length2, 0.0f, 1.0f) : 0.0f;
      const float cx = c.ax + ex * t, cy = c.ay + ey * t;
      const float radius = c.radius_a + (c.radius_b - c.radius_a) * t;
      const float dx = x_[i] - cx, dy = y_[i] - cy;
      const float distance = sqrt_d(dx * dx + dy * dy);
      if (distance >= radius) continue;
      // On the axis itself there is no normal: push up (world y is up).
      const bool has_normal = distance > 1e-6f;
      const float nx = has_normal ? dx / distance : 0.0f;
      const float ny = has_normal ? dy / distance : 1.0f;
      const float depth = radius - distance;
      x_[i] += nx * depth;
      y_[i] += ny * depth;
      if (c.friction > 0.0f) {
        const float mx = x_[i] - px_[i], my = y_[i] - py_[i];
        const float along = mx * -ny + my * nx;  // the move's component along the tangent (-ny, nx)
        x_[i] -= -ny * along * c.friction;
        y_[i] -= nx * along * c.friction;
      }
    }
  }
}

// Long-range attachments cap how far a particle may get from its root, whatever the
// constraints in between allow: a hard limit that stops long chains from stretching.
void XpbdSolver::solve_long_range(bool reverse) {
  const Simulation& sim = *sim_;
  const std::size_t count = sim.long_particle.size();
  for (std::size_t step = 0; step < count; ++step) {
    const std::size_t k = sweep(step, count, reverse);
    const std::uint32_t i = sim.long_particle[k];
    if (kinematic_[i]) continue;
    const std::uint32_t r = sim.long_root[k];
    const float dx = x_[i] - x_[r], dy = y_[i] - y_[r];
    const float length = sqrt_d(dx * dx + dy * dy);
    const float limit = sim.long_max_distance[k];
    if (length <= limit || length < 1e-9f) continue;
    const float scale = limit / length;
    x_[i] = x_[r] + dx * scale;
    y_[i] = y_[r] + dy * scale;
  }
}

void XpbdSolver::update_velocities(float hs) {
  for (std::size_t i = 0; i < x_.size(); ++i) {
    vx_[i] = (x_[i] - px_[i]) / hs;
    vy_[i] = (y_[i] - py_[i]) / hs;
  }
}

// Least-squares rotation between the two centred point sets: atan2 of the summed cross and
// dot products (the 2D Procrustes solution), in float as the editor sums.
float XpbdSolver::frame_angle(std::span<const float> anchors) const {
  const std::size_t count = frame_particles_.size();
  if (count < 2 || !frame_rest_set_) return 0.0f;
  float rx = 0, ry = 0, cx = 0, cy = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = frame_particles_[k];
    if (i * 2 + 1 >= anchors.size()) return 0.0f;
    rx += frame_rest_[k * 2];
    ry += frame_rest_[k * 2 + 1];
    cx += anchors[i * 2];
    cy += anchors[i * 2 + 1];
  }
  const float n = static_cast<float>(count);
  rx /= n;
  ry /= n;
  cx /= n;
  cy /= n;
  float dot = 0, cross = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = frame_particles_[k];
    const float ax = frame_rest_[k * 2] - rx, ay = frame_rest_[k * 2 + 1] - ry;
    const float bx = anchors[i * 2] - cx, by = anchors[i * 2 + 1] - cy;
    dot += ax * bx + ay * by;
    cross += ax * by - ay * bx;
  }
  if (dot == 0.0f && cross == 0.0f) return 0.0f;
  return atan2_d(cross, dot);
}

}  // namespace p2l::ext
