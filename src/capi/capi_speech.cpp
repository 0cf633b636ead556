// The speech C API (include/p2l/p2l_speech.h) over p2l::Speech and the animator's mouth.
#include <cmath>
#include <memory>
#include <new>

#include "capi/handle.hpp"
#include "p2l/audio.hpp"
#include "p2l/p2l_speech.h"

struct P2lSpeech {
  explicit P2lSpeech(p2l::Speech s) : speech(std::move(s)) {}
  p2l::Speech speech;
};

namespace {

using p2l::capi::guarded;
using p2l::capi::guarded_void;

constexpr std::uint32_t kKnownFlags = P2L_SPEECH_VOWELS;
constexpr double kMaxFileSeconds = 1200;

p2l::SpeechOptions options_of(std::uint32_t flags) {
  p2l::SpeechOptions o;
  o.vowels = (flags & P2L_SPEECH_VOWELS) != 0;
  return o;
}

// A speech handle for [speech], or null with the reason written for the caller.
P2lSpeech* hand_over(p2l::Speech speech, char* error, size_t capacity) noexcept {
  if (!speech.ok()) {
    p2l::capi::report_failure("p2l_speech: " + speech.error(), error, capacity);
    return nullptr;
  }
  P2L_TRY {
    return new P2lSpeech(std::move(speech));
  } P2L_CATCH_ALL {
    p2l::capi::report_failure("", error, capacity);
  }
  return nullptr;
}

P2lSpeech* from_file(p2l::AudioFile file, std::uint32_t flags, char* error, size_t capacity) noexcept {
  P2L_TRY {
    if (!file) {
      p2l::capi::report_failure(file.error, error, capacity);
      return nullptr;
    }
    p2l::Speech speech(file.sample_rate, file.channels, options_of(flags));
    if (speech.ok() && !speech.push(file.samples)) {
      p2l::capi::report_failure(speech.error(), error, capacity);
      return nullptr;
    }
    speech.end();
    return hand_over(std::move(speech), error, capacity);
  } P2L_CATCH_ALL {
    p2l::capi::report_failure("", error, capacity);
  }
  return nullptr;
}

bool flags_ok(std::uint32_t flags, char* error, size_t capacity) noexcept {
  if ((flags & ~kKnownFlags) == 0) return true;
  p2l::capi::report_failure("p2l_speech: unknown flags 0x" + std::to_string(flags & ~kKnownFlags), error, capacity);
  return false;
}

}  // namespace

extern "C" {

P2lSpeech* p2l_speech_create(uint32_t sample_rate, uint32_t channels, uint32_t flags, char* error, size_t error_capacity) {
  if (!flags_ok(flags, error, error_capacity)) return nullptr;
  P2L_TRY {
    return hand_over(p2l::Speech(sample_rate, channels, options_of(flags)), error, error_capacity);
  } P2L_CATCH_ALL {
    p2l::capi::report_failure("", error, error_capacity);
  }
  return nullptr;
}

P2lSpeech* p2l_speech_load_file(const char* path, uint32_t flags, char* error, size_t error_capacity) {
  if (!flags_ok(flags, error, error_capacity)) return nullptr;
  if (path == nullptr) {
    p2l::capi::report_failure("p2l_speech_load_file: no path", error, error_capacity);
    return nullptr;
  }
  P2L_TRY {
    return from_file(p2l::decode_audio_file(path, kMaxFileSeconds), flags, error, error_capacity);
  } P2L_CATCH_ALL {
    p2l::capi::report_failure("", error, error_capacity);
  }
  return nullptr;
}

P2lSpeech* p2l_speech_load_memory(const uint8_t* bytes, size_t len, uint32_t flags, char* error, size_t error_capacity) {
  if (!flags_ok(flags, error, error_capacity)) return nullptr;
  if (bytes == nullptr && len > 0) {
    p2l::capi::report_failure("p2l_speech_load_memory: no bytes", error, error_capacity);
    return nullptr;
  }
  P2L_TRY {
    return from_file(p2l::decode_audio_memory({bytes, len}, kMaxFileSeconds), flags, error, error_capacity);
  } P2L_CATCH_ALL {
    p2l::capi::report_failure("", error, error_capacity);
  }
  return nullptr;
}

void p2l_speech_free(P2lSpeech* speech) { delete speech; }

bool p2l_speech_push(P2lSpeech* speech, const void* samples, size_t frames, uint32_t format) {
  if (speech == nullptr) return false;
  P2L_TRY {
    return speech->speech.push(samples, frames, static_cast<p2l::PcmFormat>(format));
  } P2L_CATCH_ALL {
  }
  return false;
}

void p2l_speech_end(P2lSpeech* speech) {
  if (speech) speech->speech.end();
}
const char* p2l_speech_error(const P2lSpeech* speech) { return speech ? speech->speech.error().c_str() : nullptr; }
void p2l_speech_update(P2lSpeech* speech, double dt) {
  if (speech) speech->speech.update(dt);
}
void p2l_speech_reset(P2lSpeech* speech) {
  if (speech) speech->speech.reset();
}
float p2l_speech_level(const P2lSpeech* speech) { return speech ? speech->speech.level() : 0.0f; }
bool p2l_speech_set_gain(P2lSpeech* speech, float gain) { return speech && speech->speech.set_gain(gain); }

uint32_t p2l_speech_vowels(const P2lSpeech* speech, float* weights) {
  if (speech == nullptr) return 0;
  if (weights)
    for (std::size_t v = 0; v < p2l::kVowelCount; ++v) weights[v] = speech->speech.vowels()[v];
  return static_cast<uint32_t>(speech->speech.vowel());
}

double p2l_speech_time(const P2lSpeech* speech) { return speech ? speech->speech.time() : 0.0; }
double p2l_speech_buffered(const P2lSpeech* speech) { return speech ? speech->speech.buffered() : 0.0; }
bool p2l_speech_finished(const P2lSpeech* speech) { return speech && speech->speech.finished(); }
double p2l_speech_latency(const P2lSpeech* speech) { return speech ? speech->speech.vowel_latency() : 0.0; }
uint32_t p2l_speech_rate(const P2lSpeech* speech) { return speech ? speech->speech.sample_rate() : 0; }
uint32_t p2l_speech_channels(const P2lSpeech* speech) { return speech ? speech->speech.channels() : 0; }

void p2l_speak(P2lRig* rig, const P2lSpeech* speech) {
  if (speech == nullptr) return;
  guarded_void(rig, [&](P2lRig& r) { r.animator.speak(speech->speech); });
}

bool p2l_mouth_bind(P2lRig* rig, uint32_t slot, int32_t parameter) {
  if (slot >= p2l::kMouthSlots) return false;
  return guarded(rig, false, [&](P2lRig& r) { return r.animator.bind_mouth(static_cast<p2l::MouthSlot>(slot), parameter); });
}

uint32_t p2l_mouth_parameters(const P2lRig* rig, uint32_t slot, uint32_t* out, uint32_t capacity) {
  if (slot >= p2l::kMouthSlots) return 0;
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) {
    return p2l::capi::write_all(r.animator.mouth_parameters(static_cast<p2l::MouthSlot>(slot)), out, capacity);
  });
}

bool p2l_set_lip_mix(P2lRig* rig, uint32_t mix) {
  if (mix > P2L_LIP_SET) return false;
  return guarded(rig, false, [&](P2lRig& r) {
    r.animator.set_lip_mix(static_cast<p2l::LipMix>(mix));
    return true;
  });
}

uint32_t p2l_lip_mix(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{P2L_LIP_FLOOR}, [](const P2lRig& r) { return static_cast<std::uint32_t>(r.animator.lip_mix()); });
}

}  // extern "C"
