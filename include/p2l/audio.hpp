// Speech: audio in, a mouth out. A p2l::Speech takes PCM as it arrives (any size of chunk, any
// of the sample formats below, interleaved channels) and, each update(dt), measures the audio
// that time covered: the mouth level Cubism's sample computes (LAppWavFileHandler: the root
// mean square of the samples since the previous update, every channel alike, no smoothing)
// and, when asked, the vowel being spoken (A, I, U, E, O or silence). A p2l::Animator takes
// both (Animator::speak) and drives the rig's LipSync parameters, its mouth form and its
// vowel parameters. Files come in through decode_audio_file (libsndfile: WAV, FLAC,
// OGG/Vorbis). docs/AUDIO.md states every rule, the latency included.
//
//   p2l::Speech voice(rate, channels, {.vowels = true});
//   when audio arrives:  voice.push(bytes, frames, p2l::PcmFormat::S16);
//   every frame:         voice.update(dt);  animator.speak(voice);  animator.update(...);
//
// update() allocates nothing; push() allocates only while its buffer grows. Nothing here
// throws on purpose.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace p2l {

// Sample formats of pushed PCM, little-endian, channels interleaved. Integers are scaled as
// Cubism's sample scales them: widened to 32 bits (unsigned 8-bit centred first) and divided
// by 2^31 - 1; floats are taken as they are (NaN and infinities as 0).
enum class PcmFormat : std::uint32_t { U8 = 1, S16 = 2, S24 = 3, S32 = 4, F32 = 5, F64 = 6 };
// Bytes per sample of [format]; 0 for a value that is no format.
std::size_t pcm_bytes(PcmFormat format);

enum class Vowel : std::uint32_t { A = 0, I = 1, U = 2, E = 3, O = 4, Silence = 5 };
inline constexpr std::size_t kVowelCount = 6;
const char* vowel_name(Vowel vowel);  // "A", "I", "U", "E", "O", "silence"

struct SpeechOptions {
  bool vowels = false;  // estimate vowels as well as the level
  float gain = 1;       // the level is the RMS times gain, clamped to 0..1
};

namespace audio {
class VowelTracker;
}

class Speech {
 public:
  // Audio of [sample_rate] Hz (8,000..384,000) with [channels] channels (1..32); check ok().
  Speech(std::uint32_t sample_rate, std::uint32_t channels, SpeechOptions options = {});
  ~Speech();
  Speech(Speech&&) noexcept;
  Speech& operator=(Speech&&) noexcept;

  // False for a rate or channel count out of range: such a speech refuses every push.
  bool ok() const { return rate_ != 0; }
  // Why the constructor or the last refused push failed; empty when nothing failed.
  const std::string& error() const { return error_; }

  std::uint32_t sample_rate() const { return rate_; }
  std::uint32_t channels() const { return channels_; }
  const SpeechOptions& options() const { return options_; }
  // False, changing nothing, for a negative or non-finite gain.
  bool set_gain(float gain);
  // False, taking nothing, with a message in error(): an invalid speech, an unknown format,
  // NULL data for frames, more than kMaxBufferedFrames waiting, push after end(), or no memory.
  bool push(const void* data, std::size_t frames, PcmFormat format);
  bool push(std::span<const float> interleaved);  // F32 samples
  // No more audio will come: once the last sample is consumed, finished() turns true.
  void end();
  // Advances the speech clock by [dt] seconds (negative or NaN: 0) and measures the audio the
  // clock passed. The clock never runs ahead of the audio pushed: it waits for more (the
  // level is then 0, as for silence).
  void update(double dt);
  // Back to nothing pushed, time 0; the options stay.
  void reset();

  float level() const { return level_; }
  double rms() const { return rms_; }                    // unclamped, before the gain
  const std::array<float, kVowelCount>& vowels() const { return weights_; }  // sum 1
  Vowel vowel() const;                                   // the heaviest weight
  double time() const { return rate_ ? static_cast<double>(consumed_) / rate_ : 0.0; }  // seconds consumed
  double buffered() const { return rate_ ? static_cast<double>(pushed_ - consumed_) / rate_ : 0.0; }
  bool finished() const { return ended_ && consumed_ == pushed_; }
  // How far the vowel estimate lags the clock: its window's centre (0 without vowels).
  double vowel_latency() const;

  // The rates and channel counts a speech takes (and an audio file may have).
  static constexpr std::uint32_t kMinRate = 8000, kMaxRate = 384000, kMaxChannels = 32;
  // At most this many frames wait to be consumed (11.6 minutes at 48 kHz): a host pushing
  // faster than time passes is refused rather than filling memory.
  static constexpr std::uint64_t kMaxBufferedFrames = std::uint64_t{1} << 25;

 private:
  bool refuse(std::string message);
  // Room in the ring for [frames] more frames beside what it must keep.
  bool make_room(std::uint64_t frames);
  std::size_t history() const;  // frames kept behind the consumed ones for the vowel window

  std::uint32_t rate_ = 0, channels_ = 0;
  SpeechOptions options_;
  std::string error_;
  // A ring of the frames pushed and not yet consumed, plus the vowel window's history: each
  // frame's sum of squares over its channels, and its mono mix.
  std::vector<double> energy_;
  std::vector<float> mono_;
  std::vector<float> window_;  // the vowel window, oldest first (update copies the ring into it)
  std::size_t capacity_ = 0;   // frames the ring holds (energy_ and mono_ sizes): 0 or a power of two
  std::uint64_t pushed_ = 0, consumed_ = 0;
  double clock_ = 0;           // seconds, as Cubism's _userTimeSeconds
  bool ended_ = false;
  float level_ = 0;
  double rms_ = 0;
  std::array<float, kVowelCount> weights_{0, 0, 0, 0, 0, 1};
  std::unique_ptr<audio::VowelTracker> tracker_;
};

// A whole audio file, decoded: interleaved float samples as libsndfile normalises them (integers
// divided by 2^(bits-1)).
struct AudioFile {
  std::uint32_t sample_rate = 0, channels = 0;
  std::vector<float> samples;
  std::string format;  // e.g. "WAV, 16-bit PCM"
  std::string error;   // non-empty: nothing was decoded, and why
  explicit operator bool() const { return error.empty(); }
  double seconds() const { return channels ? static_cast<double>(samples.size()) / channels / sample_rate : 0.0; }
};
inline AudioFile audio_error(std::string message) {
  AudioFile failed;
  failed.error = std::move(message);
  return failed;
}
// Reads WAV, FLAC or OGG/Vorbis with 8/16/24/32-bit integer or 32/64-bit float samples, any
// number of channels (1..32) and any rate (8,000..384,000 Hz), at most [max_seconds] long. Any
// other file, a truncated one, or one longer than that gives an error naming the problem.
// False from audio_files_supported(): this build has no libsndfile, and every call says so.
AudioFile decode_audio_file(const std::string& path, double max_seconds = 1200);
AudioFile decode_audio_memory(std::span<const std::uint8_t> bytes, double max_seconds = 1200);
bool audio_files_supported();

}  // namespace p2l
