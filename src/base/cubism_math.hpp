// The single-precision sine, cosine and arc tangent that evaluation under Cubism's rules uses:
// musl's (scripts/fetch_musl_math.sh, cmake/musl_math.cmake). The official Cubism Core is built
// with emscripten, whose C library is musl; glibc rounds some of these results differently in
// the last bit, and a rotation deformer's direction probe can turn that bit into a visible
// angle (docs/RUNTIME.md, "Cubism's rules"). Built without musl's sources, the platform's stand
// in and such results may differ from the Core's.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(P2L_HAVE_MUSL_MATH)
extern "C" {
float p2l_musl_sinf(float);
float p2l_musl_cosf(float);
float p2l_musl_atan2f(float, float);
}
#endif

namespace p2l::cubism_math {

#if defined(P2L_HAVE_MUSL_MATH)
inline constexpr bool kExact = true;
inline float sin(float x) { return p2l_musl_sinf(x); }
inline float cos(float x) { return p2l_musl_cosf(x); }
inline float atan2(float y, float x) { return p2l_musl_atan2f(y, x); }
#else
inline constexpr bool kExact = false;
inline float sin(float x) { return std::sin(x); }
inline float cos(float x) { return std::cos(x); }
inline float atan2(float y, float x) { return std::atan2(y, x); }
#endif

// A parameter's epsilon for its decimal places, as the Core computes it: powf(0.1f, decimals),
// 0.1 rounded to float first (1e-4 is then 1.00000005e-4, not 10^-4 rounded once,
// 0.99999997e-4; they part at 2, 4 and 5 places). The double power of that float, rounded
// once, equals powf's result at 0 to 12 places (measured against exact arithmetic).
inline float epsilon(std::uint32_t decimals) {
  return static_cast<float>(std::pow(static_cast<double>(0.1f), static_cast<double>(decimals)));
}

}  // namespace p2l::cubism_math
