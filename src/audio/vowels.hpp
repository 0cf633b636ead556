// The vowel estimator behind SpeechOptions::vowels: from the latest window of mono samples it
// tells how much the sound is like A, I, U, E, O, or silence. docs/AUDIO.md "Vowels" states
// the method and its measured accuracy (scripts/vowel_accuracy.sh).
//
// Rules every implementation here keeps:
// - The same bits on every machine and in WebAssembly: transcendental functions only through
//   src/base/libm.hpp, no fused multiply-adds, no library that wasm32-wasi cannot build.
// - analyse() allocates nothing; the constructor sizes everything for the rate.
// - Any input (NaN-free floats of any size, silence, clipping, DC) gives finite weights that
//   sum to 1.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "audio/vowel_classifier.hpp"
#include "audio/vowel_formants.hpp"
#include "audio/vowel_resampler.hpp"
#include "p2l/audio.hpp"

namespace p2l::audio {

class VowelTracker {
 public:
  explicit VowelTracker(std::uint32_t sample_rate);  // 8,000..384,000 Hz

  // Samples analyse() reads: the window, a fixed length of time whatever the rate.
  std::size_t window() const;
  // The window's centre behind its end, in seconds: how far the estimate lags the audio.
  double latency() const;

  // Estimates from [samples] (the latest window() mono samples, oldest first; fewer at the
  // start, padded with silence before them) after [dt] seconds since the previous call (for
  // smoothing), writing the weights of A, I, U, E, O and silence, in that order.
  void analyse(std::span<const float> samples, double dt, std::array<float, kVowelCount>& weights);
  void reset();

 private:
  std::uint32_t rate_;
  VowelResampler resampler_;
  FormantAnalyser analyser_;
  std::array<double, VowelResampler::kFrame> frame_{};
  std::array<double, kVowelCount> smoothed_{0, 0, 0, 0, 0, 1};
  std::array<double, 5> last_vowel_{0.2, 0.2, 0.2, 0.2, 0.2};  // held while no vowel is measured
  double loudest_ = 0;   // the recent loudest window's RMS, decaying: silence is relative to it
  bool started_ = false;
};

}  // namespace p2l::audio
