#include "audio/vowel_resampler.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "base/libm.hpp"

namespace p2l::audio {

namespace {

constexpr double kPi = std::numbers::pi;

// The low-pass's impulse response at [u] reduced samples from the centre: an ideal low-pass
// at [cutoff] (a fraction of the reduced rate) shaped by a Blackman window [reach] wide.
double windowed_sinc(double u, double cutoff, double reach) {
  if (std::fabs(u) > reach) return 0;
  const double x = 2 * cutoff * u;
  const double sinc = x == 0 ? 1.0 : libm::sin(kPi * x) / (kPi * x);
  const double t = u / reach;
  const double blackman = 0.42 + 0.5 * libm::cos(kPi * t) + 0.08 * libm::cos(2 * kPi * t);
  return sinc * blackman;
}

}  // namespace

VowelResampler::VowelResampler(std::uint32_t sample_rate) {
  double rate = std::max<std::uint32_t>(sample_rate, 1);
  while (rate > 48000) {
    rate /= 2;
    ++halvings_;
  }
  const double reach = kHalfKernel * rate;
  const double span = static_cast<double>(kFrame - 1) / kRate * rate;
  reduced_ = static_cast<std::size_t>(std::ceil(span + 2 * reach)) + 2;
  window_ = reduced_ << halvings_;
  taps_ = static_cast<std::size_t>(std::floor(2 * reach)) + 2;
  reduced_samples_.assign(reduced_, 0.0);
  first_.assign(kFrame, 0);
  weights_.assign(kFrame * taps_, 0.0f);
  const double cutoff = kCutoff / rate;
  for (std::size_t k = 0; k < kFrame; ++k) {
    // The last output sample sits one kernel reach before the newest input sample.
    const double centre = static_cast<double>(reduced_ - 1) - reach - static_cast<double>(kFrame - 1 - k) / kRate * rate;
    const std::size_t first = static_cast<std::size_t>(std::ceil(centre - reach));
    first_[k] = std::min(first, reduced_ - taps_);
    float* row = &weights_[k * taps_];
    double sum = 0;
    for (std::size_t t = 0; t < taps_; ++t) {
      const double w = windowed_sinc(static_cast<double>(first_[k] + t) - centre, cutoff, reach);
      row[t] = static_cast<float>(w);
      sum += row[t];
    }
    // Unit gain at 0 Hz whatever the rate, so levels compare across rates.
    for (std::size_t t = 0; t < taps_; ++t) row[t] = static_cast<float>(row[t] / sum);
  }
}

void VowelResampler::resample(std::span<const float> samples, std::span<double, kFrame> frame) {
  const std::size_t group = std::size_t{1} << halvings_;
  const std::size_t have = std::min(samples.size(), window_);
  const float* newest = samples.data() + samples.size();  // one past the newest sample
  // Reduced sample j averages input samples [j * group, (j + 1) * group) of the window, whose
  // first window_ - have samples are silence.
  const std::size_t missing = window_ - have;
  for (std::size_t j = 0; j < reduced_; ++j) {
    double sum = 0;
    for (std::size_t i = j * group; i < (j + 1) * group; ++i) {
      if (i >= missing) sum += *(newest - (window_ - i));
    }
    reduced_samples_[j] = sum / static_cast<double>(group);
  }
  for (std::size_t k = 0; k < kFrame; ++k) {
    const float* row = &weights_[k * taps_];
    const double* x = &reduced_samples_[first_[k]];
    double sum = 0;
    for (std::size_t t = 0; t < taps_; ++t) sum += static_cast<double>(row[t]) * x[t];
    frame[k] = sum;
  }
}

}  // namespace p2l::audio
