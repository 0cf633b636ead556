// The host's frame step as Cubism's clock counts it.
#pragma once

#include <cmath>

namespace p2l::anim {

// A host passing 1/60 s as a float passes 0.016666668, which runs ahead of the 1/60 that
// Cubism's Web Framework adds up in double: after 300 frames the float clock is past 5 s
// while Cubism's is not, and a segment ending at 5 s is sampled on the other side. So a
// float step that is the float nearest to 1/n for a whole frame rate n (1 to 100000 Hz) is
// taken as 1/n in double; any other step as it is. Negative, NaN or infinite: 0.
inline double frame_seconds(float dt) {
  if (!(dt > 0.0f) || !std::isfinite(dt)) return 0.0;
  const double rate = std::round(1.0 / static_cast<double>(dt));
  if (rate >= 1.0 && rate <= 100000.0 && static_cast<float>(1.0 / rate) == dt) return 1.0 / rate;
  return static_cast<double>(dt);
}

}  // namespace p2l::anim
