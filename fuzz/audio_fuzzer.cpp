// Speech's ways in: audio files (p2l::decode_audio_memory through libsndfile) and a sequence
// of pushes and updates in any format, chunk size and time step (p2l::Speech). The first byte
// picks which. Nothing may crash, leak or read out of bounds, and every level and vowel weight
// must stay finite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "p2l/audio.hpp"

namespace {

void check(const p2l::Speech& speech) {
  float sum = 0;
  for (const float w : speech.vowels()) {
    if (!std::isfinite(w) || w < 0.0f) std::abort();
    sum += w;
  }
  if (!std::isfinite(speech.level()) || speech.level() < 0.0f || speech.level() > 1.0f) std::abort();
  if (std::fabs(sum - 1.0f) > 1e-3f) std::abort();
}

void play_file(const std::uint8_t* data, std::size_t size) {
  const p2l::AudioFile file = p2l::decode_audio_memory({data, size}, 30.0);
  if (!file) return;
  p2l::Speech speech(file.sample_rate, file.channels, {.vowels = true});
  if (!speech.push(file.samples)) return;
  speech.end();
  for (int k = 0; k < 200 && !speech.finished(); ++k) {
    speech.update(1.0 / 60.0);
    check(speech);
  }
}

// rate (u32), channels (u8), options (u8), then ops: 0 push (format u8, frames u16, bytes),
// 1 update (dt from a u16 in 1/1000 s, or raw double bits), 2 end, 3 reset, 4 gain.
void play_stream(const std::uint8_t* data, std::size_t size) {
  if (size < 6) return;
  std::uint32_t rate;
  std::memcpy(&rate, data, 4);
  p2l::Speech speech(rate % 400000, data[4] % 40, {.vowels = (data[5] & 1) != 0});
  std::size_t at = 6;
  while (at < size) {
    const std::uint8_t op = data[at++] % 5;
    if (op == 0 && at + 3 <= size) {
      const auto format = static_cast<p2l::PcmFormat>(data[at] % 8);
      std::uint16_t frames;
      std::memcpy(&frames, data + at + 1, 2);
      at += 3;
      const std::size_t need = std::size_t{frames} * p2l::pcm_bytes(format) * speech.channels();
      const std::size_t have = size - at;
      const std::size_t n = speech.channels() && p2l::pcm_bytes(format) ? std::min<std::size_t>(frames, have / (p2l::pcm_bytes(format) * speech.channels())) : frames;
      speech.push(data + at, n, format);
      at += std::min(need, have);
    } else if (op == 1 && at + 2 <= size) {
      std::uint16_t ms;
      std::memcpy(&ms, data + at, 2);
      at += 2;
      double dt = ms / 1000.0;
      if (ms == 0xFFFF && at + 8 <= size) {
        std::memcpy(&dt, data + at, 8);
        at += 8;
      }
      speech.update(dt);
      check(speech);
    } else if (op == 2) {
      speech.end();
    } else if (op == 3) {
      speech.reset();
    } else if (op == 4 && at + 4 <= size) {
      float gain;
      std::memcpy(&gain, data + at, 4);
      at += 4;
      speech.set_gain(gain);
    } else {
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (data[0] & 1)
    play_stream(data + 1, size - 1);
  else
    play_file(data + 1, size - 1);
  return 0;
}
