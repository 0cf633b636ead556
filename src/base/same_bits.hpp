// p2l::same_bits: equality of float data by their bits, so that -0 differs from 0 and a NaN
// equals itself: "did this value change" for change flags and plan comparisons.
#pragma once

#include <cstring>
#include <span>

namespace p2l {

inline bool same_bits(std::span<const float> a, std::span<const float> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

}  // namespace p2l
