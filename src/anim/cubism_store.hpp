// A parameter value as Cubism's model stores it. Every write through CubismModel's
// setParameterValue (motions, expressions, eye blink) keeps the value in the parameter's
// range: clamped, or, for a repeat parameter, wrapped into it by whole ranges (Web Framework
// 5-r.4). The Cubism-playback clips and expressions store their results this way, so that
// what a host reads (p2l_parameter_current) and what the next stage starts from are Cubism's.
#pragma once

#include <algorithm>
#include <cmath>

#include "p2l/rig.hpp"

namespace p2l::anim {

// [v] brought into [min, max] by whole ranges past the end it left; a zero range stays at
// the end.
inline float wrap_into(float v, float min, float max) {
  const float size = max - min;
  if (v > max) return size > 0.0f ? min + std::fmod(v - max, size) : max;
  if (v < min) return size > 0.0f ? max - std::fmod(min - v, size) : min;
  return v;
}

inline float cubism_store(const Parameter& range, float v) {
  return range.repeat ? wrap_into(v, range.min, range.max) : std::clamp(v, range.min, range.max);
}

}  // namespace p2l::anim
