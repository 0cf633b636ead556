#include "audio/pcm.hpp"

#include <cmath>
#include <cstring>

namespace p2l {

std::size_t pcm_bytes(PcmFormat format) {
  switch (format) {
    case PcmFormat::U8: return 1;
    case PcmFormat::S16: return 2;
    case PcmFormat::S24: return 3;
    case PcmFormat::S32: return 4;
    case PcmFormat::F32: return 4;
    case PcmFormat::F64: return 8;
  }
  return 0;
}

namespace audio {
namespace {

std::uint32_t little_endian(const std::uint8_t* in, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | in[i];
  return v;
}

// Cubism divides the widened sample by 2^31 - 1 in double and keeps it in a Float32Array.
float from_int32(std::int32_t widened) { return static_cast<float>(static_cast<double>(widened) / 2147483647.0); }

float finite_or_zero(double v) {
  const float f = static_cast<float>(v);
  return std::isfinite(f) ? f : 0.0f;
}

}  // namespace

float pcm_sample(const std::uint8_t* in, PcmFormat format) {
  switch (format) {
    case PcmFormat::U8: return from_int32((static_cast<std::int32_t>(in[0]) - 128) * 16777216);
    case PcmFormat::S16: return from_int32(static_cast<std::int32_t>(little_endian(in, 2) << 16));
    case PcmFormat::S24: return from_int32(static_cast<std::int32_t>(little_endian(in, 3) << 8));
    case PcmFormat::S32: return from_int32(static_cast<std::int32_t>(little_endian(in, 4)));
    case PcmFormat::F32: {
      const std::uint32_t bits = little_endian(in, 4);
      float f;
      std::memcpy(&f, &bits, sizeof f);
      return finite_or_zero(f);
    }
    case PcmFormat::F64: {
      std::uint64_t bits = 0;
      for (int i = 7; i >= 0; --i) bits = (bits << 8) | in[i];
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return finite_or_zero(d);
    }
  }
  return 0.0f;
}

}  // namespace audio
}  // namespace p2l
