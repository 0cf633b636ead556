// Motion curves by Cubism's rule (docs/RUNTIME.md "Clips"): the first segment whose end time
// is after the time is evaluated. Beziers are restricted (the curve parameter is the linear
// time fraction) or, for Cubism's default, unrestricted (the parameter solves x(s) = t).
// Everything is computed in double, as Cubism's Web Framework does, and rounded once.
#include "anim/curve.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "base/libm.hpp"
#include "base/shortest_decimal.hpp"

namespace p2l::anim {
namespace {

double lerp(double a, double b, double s) { return a + (b - a) * s; }

// de Casteljau on four coordinates at parameter [s].
double bezier(double p0, double p1, double p2, double p3, double s) {
  const double a = lerp(p0, p1, s), b = lerp(p1, p2, s), c = lerp(p2, p3, s);
  return lerp(lerp(a, b, s), lerp(b, c, s), s);
}

// Below this a leading coefficient counts as zero (Cubism's epsilon).
constexpr double kTiny = 1e-5;

double unit(double s) { return std::clamp(s, 0.0, 1.0); }

// The root of b s^2 + c s + d = 0 Cubism takes when the cubic term vanishes: the linear root
// when b vanishes too (or -d when c does as well), else the root with -sqrt. Where there is
// no real root (a segment whose control times fold back, so that x(s) never reaches the
// time) Cubism's square root makes NaN and the parameter goes NaN for good; here the
// discriminant stops at 0, which takes the turning point of x(s), the nearest it comes.
double quadratic_root(double b, double c, double d) {
  if (std::abs(b) < kTiny) return std::abs(c) < kTiny ? -d : -d / c;
  return -(c + std::sqrt(std::max(c * c - 4.0 * b * d, 0.0))) / (2.0 * b);
}

// Cubism's solution of x(s) = t on the unit interval (NaN where the cubic overflows).
double solve_parameter(double x0, double x1, double x2, double x3, double t) {
  // x(s) - t as a s^3 + b s^2 + c s + d.
  const double a = x3 - 3.0 * x2 + 3.0 * x1 - x0;
  const double b = 3.0 * x2 - 6.0 * x1 + 3.0 * x0;
  const double c = 3.0 * x1 - 3.0 * x0;
  const double d = x0 - t;
  // Cubism tests sqrt(a) against its epsilon, so only a tiny non-negative a counts as no
  // cubic term (a negative one takes the cubic path).
  if (a >= 0.0 && a < kTiny * kTiny) return unit(quadratic_root(b, c, d));

  // Depressed cubic u^3 + p u + q = 0 with s = u - b / 3a.
  const double B = b / a, C = c / a, D = d / a;
  const double shift = B / 3.0;
  const double p = (3.0 * C - B * B) / 3.0;
  const double q = (2.0 * B * B * B - 9.0 * B * C + 27.0 * D) / 27.0;
  const double half_q = q / 2.0, third_p = p / 3.0;
  const double discriminant = half_q * half_q + third_p * third_p * third_p;
  // Of several real roots Cubism takes the first (in its order) near the unit interval.
  const auto near_unit = [](double s) { return std::abs(s - 0.5) < 0.51; };

  if (discriminant < 0.0) {
    // Three real roots, the trigonometric way.
    const double r = std::sqrt(-third_p * -third_p * -third_p);
    const double phi = libm::acos(std::clamp(-q / (2.0 * r), -1.0, 1.0));
    const double scale = 2.0 * libm::cbrt(r);
    for (int k = 0; k < 2; ++k) {
      const double s = scale * libm::cos((phi + 2.0 * std::numbers::pi * k) / 3.0) - shift;
      if (near_unit(s)) return unit(s);
    }
    return unit(scale * libm::cos((phi + 4.0 * std::numbers::pi) / 3.0) - shift);
  }
  if (discriminant == 0.0) {
    // A double root and a single one.
    const double u = half_q < 0.0 ? libm::cbrt(-half_q) : -libm::cbrt(half_q);
    const double single = 2.0 * u - shift;
    if (near_unit(single)) return unit(single);
    return unit(-u - shift);
  }
  // One real root (Cardano).
  const double root = std::sqrt(discriminant);
  return unit(libm::cbrt(root - half_q) - libm::cbrt(root + half_q) - shift);
}

// A point's time as the file states it. The rig holds the float nearest to the file's decimal
// (4.3000002 for 4.3); Cubism holds the double of the decimal text (4.3). The float's shortest
// decimal is that text (a motion3 time has far fewer than nine digits), so its double is
// Cubism's time: it decides which segment a time falls in (a time a hair before 3.1 is before
// it) and the fraction within the segment (at 4.3 s the segment ending at 4.3 is at its end).
double file_time(float point) { return shortest_decimal_double(point); }

// Whether the point at [point] ends after [time]. Only a time that rounds to the point's float
// can lie between the float and the decimal: any other is on the same side of both, and the
// decimal is not worked out.
bool ends_after(float point, double time) {
  if (static_cast<float>(time) != point) return point > time;
  return file_time(point) > time;
}

}  // namespace

double bezier_parameter(double x0, double x1, double x2, double x3, double t) {
  // A tiny negative cubic term (Cubism's test lets it through) against huge control times
  // overflows the depressed cubic to inf - inf: where the solution is NaN the time fraction
  // stands in, as for a restricted Bezier, so that no curve ever yields NaN.
  const double s = solve_parameter(x0, x1, x2, x3, t);
  if (std::isfinite(s)) return s;
  return x3 != x0 ? unit((t - x0) / (x3 - x0)) : 0.0;
}

float ease_sine(float x) {
  if (!(x > 0.0f)) return 0.0f;  // below 0, and NaN
  if (x >= 1.0f) return 1.0f;
  return 0.5f - 0.5f * libm::cos(std::numbers::pi_v<float> * x);
}

float curve_value(float start_time, float start_value, std::span<const CurveSegment> segments, double time,
                  BezierRule rule) {
  float start = start_time;
  double v0 = start_value;
  for (const CurveSegment& seg : segments) {
    const double v1 = seg.value;
    if (ends_after(seg.time, time)) {
      const double t0 = file_time(start), t1 = file_time(seg.time);
      // Cubism clamps the fraction below at 0 (a time before the segment's start) and not
      // above: a segment that runs backwards (its end before its start, as some files have)
      // is reached before its start and extrapolated past its end. A segment of zero length
      // is only reached before its start, where the fraction is 0, and never divides.
      const double s = t1 != t0 ? std::max((time - t0) / (t1 - t0), 0.0) : 0.0;
      switch (seg.kind) {
        case SegmentKind::Linear: return static_cast<float>(lerp(v0, v1, s));
        case SegmentKind::Bezier: {
          const double c1y = seg.control[1], c2y = seg.control[3];
          if (rule == BezierRule::Restricted) return static_cast<float>(bezier(v0, c1y, c2y, v1, s));
          const double u = bezier_parameter(t0, file_time(seg.control[0]), file_time(seg.control[2]), t1, time);
          return static_cast<float>(bezier(v0, c1y, c2y, v1, u));
        }
        case SegmentKind::Stepped: return static_cast<float>(v0);
        case SegmentKind::InverseStepped: return static_cast<float>(v1);
      }
      return static_cast<float>(v0);  // an unknown kind (validate() rejects it): hold the segment's start
    }
    start = seg.time;
    v0 = v1;
  }
  return static_cast<float>(v0);  // at or after the last point (or no segments: the start value)
}

}  // namespace p2l::anim
