// Motion curves by Cubism's rule (docs/RUNTIME.md "Clips"): the first segment whose end time
// is after the time is evaluated; Beziers are restricted (the curve parameter is the linear
// time fraction, de Casteljau runs on the values only).
#include "anim/curve.hpp"

#include <cmath>
#include <numbers>

namespace p2l::anim {
namespace {

float lerp(float a, float b, float s) { return a + (b - a) * s; }

// Cubism's restricted Bezier: de Casteljau on the four values at parameter [s].
float bezier(float v0, float c1, float c2, float v1, float s) {
  const float a = lerp(v0, c1, s), b = lerp(c1, c2, s), c = lerp(c2, v1, s);
  const float ab = lerp(a, b, s), bc = lerp(b, c, s);
  return lerp(ab, bc, s);
}

}  // namespace

float ease_sine(float x) {
  if (!(x > 0.0f)) return 0.0f;  // below 0, and NaN
  if (x >= 1.0f) return 1.0f;
  return 0.5f - 0.5f * std::cos(std::numbers::pi_v<float> * x);
}

float curve_value(float start_time, float start_value, std::span<const CurveSegment> segments, float time) {
  float t0 = start_time, v0 = start_value;
  for (const CurveSegment& seg : segments) {
    const float t1 = seg.time, v1 = seg.value;
    if (t1 > time) {
      // Cubism clamps the fraction below at 0 (a time before the segment's start). When the
      // time is after the start it is before the end, so the span is positive: a segment of
      // zero (or negative) length is only reached before its start, and never divides.
      const float s = time > t0 ? (time - t0) / (t1 - t0) : 0.0f;
      switch (seg.kind) {
        case SegmentKind::Linear: return lerp(v0, v1, s);
        case SegmentKind::Bezier: return bezier(v0, seg.control[1], seg.control[3], v1, s);
        case SegmentKind::Stepped: return v0;
        case SegmentKind::InverseStepped: return v1;
      }
      return v0;  // an unknown kind (validate() rejects it): hold the segment's start
    }
    t0 = t1;
    v0 = v1;
  }
  return v0;  // at or after the last point (or no segments: the start value)
}

}  // namespace p2l::anim
