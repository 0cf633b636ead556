// The web test modules' random numbers (malloc_stress.cpp, warp_simd.cpp): SplitMix64, the
// high half of each output; seed by assigning splitmix_state.
#pragma once

#include <cstdint>

inline std::uint64_t splitmix_state;

inline std::uint32_t splitmix_next() {
  std::uint64_t z = (splitmix_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<std::uint32_t>((z ^ (z >> 31)) >> 32);
}
