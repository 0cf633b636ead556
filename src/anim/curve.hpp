// Motion curves: the value of a clip's curve at a time, by Cubism's segment rules.
#pragma once

#include <span>

#include "p2l/rig.hpp"

namespace p2l::anim {

// The value at [time] (seconds) of the curve that starts at (start_time, start_value) and
// runs through [segments]. Cubism's rule: the first segment whose end time is after [time]
// is evaluated (so an exact end time belongs to the next segment); before the start the
// first segment gives its start (its end if it is inverse stepped, as Cubism's rule gives),
// after the last its end value. Bezier control points are
// restricted to their segment: the curve parameter is the linear time fraction and only
// the value coordinates are interpolated (de Casteljau), as Cubism's restricted Beziers.
float curve_value(float start_time, float start_value, std::span<const CurveSegment> segments, float time);

inline float curve_value(const Curve& c, float time) { return curve_value(c.start_time, c.start_value, c.segments, time); }

// Cubism's fade easing: 0.5 - 0.5 cos(pi x) with x clamped to [0, 1].
float ease_sine(float x);

}  // namespace p2l::anim
