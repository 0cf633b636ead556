// A curve segment for the clip tests, in one call.
#pragma once

#include <array>

#include "p2l/rig.hpp"

namespace p2l_test {

inline p2l::CurveSegment seg(p2l::SegmentKind kind, float time, float value, std::array<float, 4> control = {}) {
  p2l::CurveSegment s;
  s.kind = kind;
  s.time = time;
  s.value = value;
  s.control = control;
  return s;
}

}  // namespace p2l_test
