#include "audio/vowels.hpp"

#include <algorithm>
#include <cmath>

#include "base/libm.hpp"

namespace p2l::audio {

namespace {

constexpr double kSmoothing = 0.030;      // s: the weights' exponential time constant
constexpr double kSilenceFloor = 0.001;   // RMS (-60 dBFS): below it, always silence
constexpr double kRelativeFloor = 0.018;  // of the recent loudest RMS (-35 dB): silence below
constexpr double kLoudestDecay = 2.0;     // s: how fast the recent loudest RMS is forgotten

}  // namespace

VowelTracker::VowelTracker(std::uint32_t sample_rate) : rate_(sample_rate), resampler_(sample_rate) {}

std::size_t VowelTracker::window() const { return resampler_.window(); }

double VowelTracker::latency() const { return 0.5 * static_cast<double>(window()) / rate_; }

void VowelTracker::reset() {
  smoothed_ = {0, 0, 0, 0, 0, 1};
  last_vowel_ = {0.2, 0.2, 0.2, 0.2, 0.2};
  loudest_ = 0;
  started_ = false;
}

void VowelTracker::analyse(std::span<const float> samples, double dt, std::array<float, kVowelCount>& weights) {
  if (!(dt >= 0)) dt = 0;
  resampler_.resample(samples, frame_);
  double energy = 0;
  for (double x : frame_) energy += x * x;
  double rms = std::sqrt(energy / static_cast<double>(frame_.size()));
  if (!std::isfinite(rms)) rms = 0;

  // Capped at full scale: a burst of out-of-range floats must not silence the seconds after it.
  loudest_ = std::fmax(std::fmin(rms, 1.0), loudest_ * libm::exp(-dt / kLoudestDecay));
  const double floor = std::fmax(kSilenceFloor, kRelativeFloor * loudest_);
  // Silence fades out over the octave above the floor rather than switching at it.
  const double silence = std::clamp((2 * floor - rms) / floor, 0.0, 1.0);

  if (silence < 1) {
    double f1 = 0, f2 = 0;
    if (pick_formants(analyser_.analyse(frame_), f1, f2)) last_vowel_ = classify_vowel(f1, f2);
  }
  std::array<double, kVowelCount> instant{};
  for (std::size_t v = 0; v < 5; ++v) instant[v] = (1 - silence) * last_vowel_[v];
  instant[5] = silence;

  const double follow = started_ ? 1 - libm::exp(-dt / kSmoothing) : 1.0;
  started_ = true;
  double sum = 0;
  for (std::size_t v = 0; v < kVowelCount; ++v) {
    smoothed_[v] += follow * (instant[v] - smoothed_[v]);
    sum += smoothed_[v];
  }
  for (std::size_t v = 0; v < kVowelCount; ++v) weights[v] = static_cast<float>(smoothed_[v] / sum);
}

}  // namespace p2l::audio
