// p2l::shortest_decimal_double: the double of the shortest decimal that reads back as a float
// (3.1f gives the double 3.1, not 3.0999999046325684), which is how Cubism's Framework holds
// the numbers of its JSON files.
// Why not std::from_chars(double): libc++ for WebAssembly (19) has no floating-point
// from_chars, and strtod depends on the C locale. The decimal's digits (at most nine) are an
// exact integer m, and m * 10^e or m / 10^-e with |e| <= 22 (10^e exact in a double) is one
// correctly rounded operation: the same double from_chars gives. Outside that range
// (magnitudes below about 1e-14 or above 1e22) the float's own value is returned.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>

namespace p2l {

// The shortcut for a float below 2^24 in magnitude whose shortest decimal has at most four
// places after the point, as motion times have (curves read them every frame, and formatting
// would cost several times the rest of the clip stage): the nearest decimal with the fewest
// places that reads back as the float is the shortest, and m / 10^k is its double, the one
// operation the digits' path below does (the scaling is exact: 24 + 10 bits). False otherwise.
inline bool few_places_decimal(float f, double& out) {
  static constexpr double kScales[] = {1e0, 1e1, 1e2, 1e3, 1e4};
  if (!(std::fabs(f) < 16777216.0f)) return false;  // larger: integers with trailing zeros shorten
  for (const double scale : kScales) {
    const double value = std::nearbyint(static_cast<double>(f) * scale) / scale;
    if (static_cast<float>(value) == f) {
      out = value;
      return true;
    }
  }
  return false;
}

inline double shortest_decimal_double(float f) {
  if (double value = 0; few_places_decimal(f, value)) return value;
  char text[32];
  const char* const end = std::to_chars(text, text + sizeof text, f).ptr;
  const char* p = text;
  const bool negative = p < end && *p == '-';
  if (negative) ++p;
  std::uint64_t digits = 0;
  int exponent = 0, count = 0;
  bool fraction = false;
  for (; p < end && *p != 'e'; ++p) {
    if (*p == '.') {
      fraction = true;
      continue;
    }
    if (*p < '0' || *p > '9' || ++count > 18) return f;  // inf, nan: no digits to read
    digits = digits * 10 + static_cast<std::uint64_t>(*p - '0');
    if (fraction) --exponent;
  }
  if (p < end) {  // 'e', a sign, digits
    int e = 0;
    const auto read = std::from_chars(p + 1 + (p[1] == '+'), end, e);
    if (read.ec != std::errc{}) return f;
    exponent += e;
  }
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (exponent < -22 || exponent > 22 || digits > (std::uint64_t{1} << 53)) return f;
  const double m = static_cast<double>(digits);
  const double value = exponent < 0 ? m / kPowers[-exponent] : m * kPowers[exponent];
  return negative ? -value : value;
}

}  // namespace p2l
