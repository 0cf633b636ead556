// Array element codecs of version 2 (array<T>): the header is `u8 codec, u8 reserved[3],
// u32 count` at a 4-byte boundary inside the chunk, then count elements.
#pragma once

#include <cstddef>
#include <cstdint>

namespace p2l::format {

enum class ArrayCodec : std::uint8_t { F32 = 0, F16 = 1, Unorm16 = 2, U16 = 16, U32 = 17, U8 = 32 };

inline std::size_t codec_element_size(ArrayCodec c) {
  switch (c) {
    case ArrayCodec::F32:
    case ArrayCodec::U32: return 4;
    case ArrayCodec::F16:
    case ArrayCodec::Unorm16:
    case ArrayCodec::U16: return 2;
    case ArrayCodec::U8: return 1;
  }
  return 1;
}

// IEEE 754 binary16 to binary32, exact (every half is a float).
float half_to_float(std::uint16_t h);
// Nearest binary16, ties to even; values beyond the half range become infinity.
std::uint16_t float_to_half(float f);
// True when every value survives as a finite half (the writer falls back to f32 otherwise).
bool fits_half(float f);

inline float unorm16_to_float(std::uint16_t u) { return static_cast<float>(u) / 65535.0f; }
std::uint16_t float_to_unorm16(float f);  // clamps to [0, 1]

}  // namespace p2l::format
