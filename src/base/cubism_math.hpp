// Numbers the official Cubism Core computes in its own way.
#pragma once

#include <cstdint>

#include "base/libm.hpp"

namespace p2l::cubism_math {

// A parameter's epsilon for its decimal places, as the Core computes it: powf(0.1f, decimals)
// with musl's powf (base/libm.hpp), 0.1 rounded to float first (1e-4 is then 1.00000005e-4, not
// 10^-4 rounded once, 0.99999997e-4; they part at 2, 4 and 5 places).
inline float epsilon(std::uint32_t decimals) { return libm::pow(0.1f, static_cast<float>(decimals)); }

}  // namespace p2l::cubism_math
