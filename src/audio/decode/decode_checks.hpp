// What every audio decoder checks before it decodes: a channel count and a rate p2l::Speech
// takes (its own limits), and a length within the caller's limit; each refusal names the file
// and the problem.
#pragma once

#include <cstdint>
#include <string>

#include "p2l/audio.hpp"

namespace p2l::audio {

// Empty when [channels] and [rate] are supported, else why not.
inline std::string check_shape(const std::string& name, long channels, long rate) {
  if (channels < 1 || channels > static_cast<long>(Speech::kMaxChannels))
    return name + ": " + std::to_string(channels) + " channels are not supported (1..32)";
  if (rate < static_cast<long>(Speech::kMinRate) || rate > static_cast<long>(Speech::kMaxRate))
    return name + ": a sample rate of " + std::to_string(rate) + " Hz is not supported (8000..384000)";
  return {};
}

inline std::string too_long(const std::string& name, double seconds, double max_seconds) {
  return name + ": " + std::to_string(seconds) + " s of audio is longer than the " + std::to_string(max_seconds) + " s allowed";
}

}  // namespace p2l::audio
