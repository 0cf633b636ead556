// Cubism's CubismPhysics (cubism-semantics §8) in float arithmetic, operation for operation,
// so that results equal the Framework's float results; docs/RUNTIME.md "Physics" lists the
// rules, the quirks kept and the guards added for degenerate data.
#include "anim/physics.hpp"

#include <cmath>

#include "base/libm.hpp"
#include "base/sized.hpp"

namespace p2l::anim {
namespace {

constexpr float kAirResistance = 5.0f;
constexpr float kMaximumWeight = 100.0f;
constexpr float kMovementThreshold = 0.001f;
constexpr float kMaxDeltaTime = 5.0f;
constexpr float kPi = 3.1415926535897932384626433832795f;
// Steps one call may take: far above any real rig (a 5 s frame at 1000 fps is 5000), it only
// bounds a file whose fps makes the loop endless.
constexpr int kMaxStepsPerCall = 10000;

float degrees_to_radian(float degrees) { return (degrees / 180.0f) * kPi; }

// atan2(to) - atan2(from), wrapped into [-pi, pi].
float direction_to_radian(float from_x, float from_y, float to_x, float to_y) {
  const float q1 = libm::atan2(to_y, to_x);
  const float q2 = libm::atan2(from_y, from_x);
  float r = q1 - q2;
  while (r < -kPi) r += kPi * 2.0f;
  while (r > kPi) r -= kPi * 2.0f;
  return r;
}

// Cubism's CubismVector2::Normalize (length = pow(x*x + y*y, 0.5)); a zero, infinite or NaN
// length gives (0, 0) where Cubism would divide into NaN.
void normalize(float& x, float& y) {
  const float length = libm::pow((x * x) + (y * y), 0.5f);
  if (!(length > 0.0f) || !std::isfinite(length)) {
    x = 0.0f;
    y = 0.0f;
    return;
  }
  x = x / length;
  y = y / length;
}

// Cubism's NormalizeParameterValue: the value clamped into the parameter range, mapped
// around the range's midpoint onto the normalization's (min, default, max), negated unless
// reflect.
float normalize_parameter(float value, float parameter_min, float parameter_max, float normalized_min,
                          float normalized_max, float normalized_default, bool reflect) {
  const float max_value = std::fmax(parameter_max, parameter_min);
  if (max_value < value) value = max_value;
  const float min_value = std::fmin(parameter_max, parameter_min);
  if (min_value > value) value = min_value;
  const float min_norm = std::fmin(normalized_min, normalized_max);
  const float max_norm = std::fmax(normalized_min, normalized_max);
  const float middle_norm = normalized_default;
  const float middle_value = min_value + (std::fabs(max_value - min_value) / 2.0f);
  const float param_value = value - middle_value;
  float result = 0.0f;
  if (param_value > 0.0f) {
    const float n_length = max_norm - middle_norm;
    const float p_length = max_value - middle_value;
    if (p_length != 0.0f) {
      result = param_value * (n_length / p_length);
      result += middle_norm;
    }
  } else if (param_value < 0.0f) {
    const float n_length = min_norm - middle_norm;
    const float p_length = min_value - middle_value;
    if (p_length != 0.0f) {
      result = param_value * (n_length / p_length);
      result += middle_norm;
    }
  } else {
    result = middle_norm;
  }
  return reflect ? result : (result * -1.0f);
}

bool finite2(float x, float y) { return std::isfinite(x) && std::isfinite(y); }

}  // namespace

Physics::Physics(const Rig& rig) {
  const std::size_t parameter_count = rig.parameters.size();
  // Every list sized from its count, then filled in place (src/base/sized.hpp says why).
  sized(ranges_, parameter_count);
  for (std::size_t p = 0; p < parameter_count; ++p) {
    const Parameter& param = rig.parameters[p];
    ranges_[p] = {param.min, param.max, param.default_value};
  }
  input_cache_.assign(parameter_count, 0.0f);
  caches_.assign(parameter_count, 0.0f);
  std::vector<std::uint8_t> read(parameter_count, 0);  // not vector<bool>: one vector type less in the module
  fps_ = rig.physics_fps > 0.0f && std::isfinite(rig.physics_fps) ? rig.physics_fps : 0.0f;

  std::size_t input_count = 0, output_count = 0, point_count = 0;
  for (const PhysicsGroup& pg : rig.physics) {
    for (const PhysicsInput& in : pg.inputs) input_count += in.parameter < parameter_count;
    for (const PhysicsOutput& out : pg.outputs) output_count += out.parameter < parameter_count;
    point_count += pg.segments.size();
  }
  sized(groups_, rig.physics.size());
  sized(inputs_, input_count);
  sized(outputs_, output_count);
  sized(points_, point_count);
  std::uint32_t inputs = 0, outputs = 0, points = 0;
  for (std::size_t k = 0; k < rig.physics.size(); ++k) {
    const PhysicsGroup& pg = rig.physics[k];
    Group& g = groups_[k];
    g.normalization = pg.normalization;
    g.threshold = kMovementThreshold * pg.normalization.position_max;
    g.first_input = inputs;
    for (const PhysicsInput& in : pg.inputs) {
      if (in.parameter >= parameter_count) continue;  // a rig that did not pass validate()
      inputs_[inputs++] = {in.parameter, in.weight / kMaximumWeight, in.source, in.reflect};
      if (!read[in.parameter]) {
        read[in.parameter] = 1;
        read_.push_back(in.parameter);
      }
    }
    g.input_count = inputs - g.first_input;
    g.first_output = outputs;
    for (const PhysicsOutput& out : pg.outputs) {
      if (out.parameter >= parameter_count) continue;
      // Cubism reads the Scale into the angle scale only; the translation scale stays 0.
      const float scale = out.source == PhysicsSource::Angle ? out.scale : 0.0f;
      outputs_[outputs++] = {out.parameter, out.vertex, scale, out.weight / kMaximumWeight, out.source, out.reflect};
    }
    g.output_count = outputs - g.first_output;
    g.first_point = points;
    for (const PhysicsSegment& s : pg.segments) {
      Point& p = points_[points++];
      p.radius = s.length;
      p.mobility = s.mobility;
      p.delay = s.delay;
      p.acceleration = s.acceleration;
    }
    g.point_count = points - g.first_point;
  }
  current_.assign(outputs_.size(), 0.0f);
  previous_.assign(outputs_.size(), 0.0f);
  reset();
}

void Physics::reset() {
  for (const Group& g : groups_) {
    Point* s = points_.data() + g.first_point;
    Vec initial;  // the root at (0, 0), each point Radius below the one before
    for (std::uint32_t i = 0; i < g.point_count; ++i) {
      if (i > 0) initial.y = initial.y + s[i].radius;
      s[i].position = initial;
      s[i].last_position = initial;
      s[i].velocity = {};
      s[i].last_gravity = {0.0f, 1.0f};
    }
  }
  for (float& v : current_) v = 0.0f;
  for (float& v : previous_) v = 0.0f;
  remain_ = 0.0f;
  cache_started_ = false;
}

void Physics::set_wind(float x, float y) {
  wind_.x = std::isfinite(x) ? x : 0.0f;
  wind_.y = std::isfinite(y) ? y : 0.0f;
}

float Physics::sane(std::span<const float> values, std::uint32_t parameter) const {
  const float v = values[parameter];
  return std::isfinite(v) ? v : ranges_[parameter].default_value;
}

// The inputs summed (translation in x and y, angle in degrees) and the translation turned by
// -angle with Cubism's sequential assignment (the y line uses the new x).
Physics::Vec Physics::translation(const Group& g, std::span<const float> source, float& angle) const {
  Vec t;
  angle = 0.0f;
  const Normalization& n = g.normalization;
  for (std::uint32_t i = 0; i < g.input_count; ++i) {
    const Input& in = inputs_[g.first_input + i];
    const Range& r = ranges_[in.parameter];
    const float v = sane(source, in.parameter);
    if (in.source == PhysicsSource::Angle) {
      angle += normalize_parameter(v, r.min, r.max, n.angle_min, n.angle_max, n.angle_default, in.reflect) * in.weight;
    } else {
      const float d =
          normalize_parameter(v, r.min, r.max, n.position_min, n.position_max, n.position_default, in.reflect) *
          in.weight;
      if (in.source == PhysicsSource::Y)
        t.y += d;
      else
        t.x += d;
    }
  }
  const float rad = degrees_to_radian(-angle);
  t.x = (t.x * libm::cos(rad)) - (t.y * libm::sin(rad));
  t.y = (t.x * libm::sin(rad)) + (t.y * libm::cos(rad));
  if (!finite2(t.x, t.y)) t = {};
  return t;
}

// Cubism's RadianToDirection of the total input angle, normalised: where the strand hangs.
Physics::Vec Physics::gravity_direction(float angle) {
  const float total_radian = degrees_to_radian(angle);
  Vec gravity{libm::sin(total_radian), libm::cos(total_radian)};
  normalize(gravity.x, gravity.y);
  return gravity;
}

// Cubism's UpdateParticles: one step of length h.
void Physics::update_points(const Group& g, Vec root, float angle, float h) {
  if (g.point_count == 0) return;
  Point* s = points_.data() + g.first_point;
  s[0].position = root;
  const Vec gravity = gravity_direction(angle);
  for (std::uint32_t i = 1; i < g.point_count; ++i) {
    Point& p = s[i];
    const Point& parent = s[i - 1];
    const Vec force{(gravity.x * p.acceleration) + wind_.x, (gravity.y * p.acceleration) + wind_.y};
    p.last_position = p.position;
    const float delay = p.delay * h * 30.0f;

    Vec direction{p.position.x - parent.position.x, p.position.y - parent.position.y};
    const float radian =
        direction_to_radian(p.last_gravity.x, p.last_gravity.y, gravity.x, gravity.y) / kAirResistance;
    // Cubism's sequential assignment: the y line reads the x just written.
    direction.x = (libm::cos(radian) * direction.x) - (direction.y * libm::sin(radian));
    direction.y = (libm::sin(radian) * direction.x) + (direction.y * libm::cos(radian));
    p.position = {parent.position.x + direction.x, parent.position.y + direction.y};

    const Vec velocity{p.velocity.x * delay, p.velocity.y * delay};
    const Vec pull{force.x * delay * delay, force.y * delay * delay};
    p.position = {p.position.x + velocity.x + pull.x, p.position.y + velocity.y + pull.y};

    Vec n{p.position.x - parent.position.x, p.position.y - parent.position.y};
    normalize(n.x, n.y);
    p.position = {parent.position.x + (n.x * p.radius), parent.position.y + (n.y * p.radius)};
    if (std::fabs(p.position.x) < g.threshold) p.position.x = 0.0f;

    if (delay != 0.0f) {
      p.velocity = {p.position.x - p.last_position.x, p.position.y - p.last_position.y};
      p.velocity = {p.velocity.x / delay, p.velocity.y / delay};
      p.velocity = {p.velocity.x * p.mobility, p.velocity.y * p.mobility};
    }
    p.last_gravity = gravity;
    // Only extreme data (values near the float limit) can get here: hang the point at rest.
    if (!finite2(p.position.x, p.position.y)) {
      p.position = {parent.position.x, parent.position.y + p.radius};
      if (!finite2(p.position.x, p.position.y)) p.position = {};
      p.velocity = {};
    }
    if (!finite2(p.velocity.x, p.velocity.y)) p.velocity = {};
  }
}

// Cubism's UpdateParticlesForStabilization: every point along normalise(force) x Radius.
void Physics::rest_points(const Group& g, Vec root, float angle) {
  if (g.point_count == 0) return;
  Point* s = points_.data() + g.first_point;
  s[0].position = root;
  const Vec gravity = gravity_direction(angle);
  for (std::uint32_t i = 1; i < g.point_count; ++i) {
    Point& p = s[i];
    const Point& parent = s[i - 1];
    Vec force{(gravity.x * p.acceleration) + wind_.x, (gravity.y * p.acceleration) + wind_.y};
    p.last_position = p.position;
    p.velocity = {};
    normalize(force.x, force.y);
    force = {force.x * p.radius, force.y * p.radius};
    p.position = {parent.position.x + force.x, parent.position.y + force.y};
    if (std::fabs(p.position.x) < g.threshold) p.position.x = 0.0f;
    p.last_gravity = gravity;
    if (!finite2(p.position.x, p.position.y)) p.position = parent.position;
  }
}

// The output's reading of its point (the caller checked 1 <= vertex < point count).
float Physics::output_value(const Group& g, const Output& o) const {
  const Point* s = points_.data() + g.first_point;
  const std::uint32_t k = o.vertex;
  const Vec t{s[k].position.x - s[k - 1].position.x, s[k].position.y - s[k - 1].position.y};
  float out = 0.0f;
  switch (o.source) {
    case PhysicsSource::X:
      out = t.x;
      break;
    case PhysicsSource::Y:
      out = t.y;
      break;
    case PhysicsSource::Angle: {
      // The parent segment's direction; for the first segment the negated gravity option (0, -1).
      Vec parent{-0.0f, 1.0f};
      if (k >= 2) parent = {s[k - 1].position.x - s[k - 2].position.x, s[k - 1].position.y - s[k - 2].position.y};
      out = direction_to_radian(parent.x, parent.y, t.x, t.y);
      break;
    }
  }
  if (o.reflect) out *= -1.0f;
  return out;
}

// Cubism's UpdateOutputParameterValue: scaled, clamped into the range, blended by weight.
void Physics::write(float& parameter_value, const Output& o, float out) const {
  const Range& r = ranges_[o.parameter];
  float value = out * o.scale;
  if (std::isnan(value)) value = 0.0f;
  if (value < r.min)
    value = r.min;
  else if (value > r.max)
    value = r.max;
  if (o.weight >= 1.0f) {
    parameter_value = value;
  } else {
    const float base = std::isfinite(parameter_value) ? parameter_value : r.default_value;
    value = (base * (1.0f - o.weight)) + (value * o.weight);
    parameter_value = std::isfinite(value) ? value : r.default_value;
  }
}

void Physics::step(float dt, std::span<float> values, std::span<const std::uint8_t> skip) {
  if (!(dt > 0.0f)) return;
  if (values.size() < ranges_.size()) return;
  const auto skipped = [&](std::size_t g) { return g < skip.size() && skip[g] != 0; };

  remain_ += dt;
  if (remain_ > kMaxDeltaTime) remain_ = 0.0f;
  if (!cache_started_) {
    for (std::uint32_t p : read_) input_cache_[p] = sane(values, p);
    cache_started_ = true;
  }
  const float h = fps_ > 0.0f ? 1.0f / fps_ : dt;

  int steps = 0;
  while (remain_ >= h) {
    for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
      if (skipped(gi)) continue;
      const Group& g = groups_[gi];
      for (std::uint32_t o = g.first_output; o < g.first_output + g.output_count; ++o) previous_[o] = current_[o];
    }
    // The inputs of this step: the cache moved towards this frame's values by h / remain.
    const float input_weight = h / remain_;
    for (std::uint32_t p : read_) {
      caches_[p] = (input_cache_[p] * (1.0f - input_weight)) + (sane(values, p) * input_weight);
      input_cache_[p] = caches_[p];
    }
    for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
      if (skipped(gi)) continue;
      const Group& g = groups_[gi];
      float angle = 0.0f;
      const Vec root = translation(g, caches_, angle);
      update_points(g, root, angle, h);
      for (std::uint32_t oi = g.first_output; oi < g.first_output + g.output_count; ++oi) {
        const Output& o = outputs_[oi];
        if (o.vertex < 1 || o.vertex >= g.point_count) continue;
        current_[oi] = output_value(g, o);
        write(caches_[o.parameter], o, current_[oi]);  // later groups read it
      }
    }
    const float next = remain_ - h;
    if (next == remain_ || ++steps >= kMaxStepsPerCall) {
      remain_ = 0.0f;
      break;
    }
    remain_ = next;
  }

  // Outputs between the last two steps, written onto this frame's values. Cubism writes an
  // output whose vertex it never moves too (its values stay 0).
  const float alpha = remain_ / h;
  for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
    if (skipped(gi)) continue;
    const Group& g = groups_[gi];
    for (std::uint32_t oi = g.first_output; oi < g.first_output + g.output_count; ++oi)
      write(values[outputs_[oi].parameter], outputs_[oi], (previous_[oi] * (1.0f - alpha)) + (current_[oi] * alpha));
  }
}

void Physics::stabilize(std::span<float> values) {
  if (values.size() < ranges_.size()) return;
  for (std::uint32_t p : read_) input_cache_[p] = sane(values, p);
  cache_started_ = true;
  for (const Group& g : groups_) {
    float angle = 0.0f;
    const Vec root = translation(g, values, angle);
    rest_points(g, root, angle);
    for (std::uint32_t oi = g.first_output; oi < g.first_output + g.output_count; ++oi) {
      const Output& o = outputs_[oi];
      if (o.vertex < 1 || o.vertex >= g.point_count) continue;
      current_[oi] = output_value(g, o);
      previous_[oi] = current_[oi];
      write(values[o.parameter], o, current_[oi]);  // later groups read it
    }
  }
}

}  // namespace p2l::anim
