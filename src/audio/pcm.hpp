// One PCM sample of a pushed format as a float, scaled as Cubism's sample scales WAV samples
// (LAppWavFileHandler.getPcmSample): integers widened to 32 bits, unsigned 8-bit centred
// first, then divided by 2^31 - 1; floats as they are, NaN and infinities as 0.
#pragma once

#include <cstdint>

#include "p2l/audio.hpp"

namespace p2l::audio {

// [in] holds pcm_bytes(format) bytes, little-endian; [format] is a valid PcmFormat.
float pcm_sample(const std::uint8_t* in, PcmFormat format);

}  // namespace p2l::audio
