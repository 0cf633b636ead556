#include "format/array_codec.hpp"

#include <cmath>
#include <cstring>

namespace p2l::format {

float half_to_float(std::uint16_t h) {
  std::uint32_t sign = std::uint32_t{h & 0x8000u} << 16;
  std::uint32_t exponent = (h >> 10) & 0x1F;
  std::uint32_t mantissa = h & 0x3FF;
  std::uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {
      // Subnormal half: normalise the mantissa into a float's implicit bit.
      std::uint32_t e = 113;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        --e;
      }
      bits = sign | (e << 23) | ((mantissa & 0x3FF) << 13);
    }
  } else if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::uint16_t float_to_half(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000);
  std::uint32_t abs = bits & 0x7FFFFFFF;
  if (abs >= 0x7F800000) return sign | 0x7C00 | (abs > 0x7F800000 ? 0x200 : 0);  // inf / nan
  if (abs >= 0x477FF000) return sign | 0x7C00;  // rounds past 65504
  if (abs < 0x38800000) {
    // Subnormal half (or zero): scale into the 10-bit mantissa with round-to-even.
    if (abs < 0x33000000) return sign;  // below half of the smallest subnormal
    std::uint32_t exponent = abs >> 23;
    std::uint32_t mantissa = (abs & 0x7FFFFF) | 0x800000;
    std::uint32_t shift = 126 - exponent;  // value / 2^-24 = mantissa * 2^(exponent - 126)
    std::uint32_t half = mantissa >> shift;
    std::uint32_t rest = mantissa & ((1u << shift) - 1);
    std::uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1))) ++half;
    return sign | static_cast<std::uint16_t>(half);
  }
  // Normal: rebias the exponent, round the 13 dropped mantissa bits to even.
  std::uint32_t h = ((abs >> 13) - (112u << 10));
  std::uint32_t rest = abs & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;
  return sign | static_cast<std::uint16_t>(h);
}

bool fits_half(float f) { return std::isfinite(f) && std::isfinite(half_to_float(float_to_half(f))); }

std::uint16_t float_to_unorm16(float f) {
  if (!(f > 0)) return 0;
  if (f >= 1) return 65535;
  return static_cast<std::uint16_t>(std::lround(f * 65535.0f));
}

}  // namespace p2l::format
