// Motion curves: the value of a clip's curve at a time, by Cubism's segment rules.
#pragma once

#include <span>

#include "p2l/rig.hpp"

namespace p2l::anim {

// How a Bezier segment's control points shape it.
enum class BezierRule : bool {
  // The spec's (and Cubism's AreBeziersRestricted: true) rule: the curve parameter is the
  // linear time fraction, and only the value coordinates are interpolated (de Casteljau).
  Restricted,
  // Cubism's default: the control times count; the parameter s solves x(s) = t (a cubic,
  // solved in closed form with Cubism's choice of root), then the value is taken at s.
  Unrestricted,
};

// The value at [time] (seconds) of the curve that starts at (start_time, start_value) and
// runs through [segments]. Cubism's rule: the first segment whose end time is after [time]
// is evaluated (so an exact end time belongs to the next segment); before the start the
// first segment gives its start (its end if it is inverse stepped, as Cubism's rule gives),
// after the last its end value. The time is a double because Cubism's clock is: a time a
// hair below a point must not round onto it.
float curve_value(float start_time, float start_value, std::span<const CurveSegment> segments, double time,
                  BezierRule rule = BezierRule::Restricted);

inline float curve_value(const Curve& c, double time, BezierRule rule = BezierRule::Restricted) {
  return curve_value(c.start_time, c.start_value, c.segments, time, rule);
}

// The curve parameter s in [0, 1] at which the Bezier x(s) with control times x0..x3 reaches
// [t] (Cubism's unrestricted rule, exposed for its tests).
double bezier_parameter(double x0, double x1, double x2, double x3, double t);

// Cubism's fade easing: 0.5 - 0.5 cos(pi x) with x clamped to [0, 1].
float ease_sine(float x);

}  // namespace p2l::anim
