// The vowel estimator's first step: the latest stretch of audio at any rate, brought to one
// analysis rate (8 kHz) and one band (below 3.5 kHz), so that every later step sees the same
// signal whatever the stream's rate. 8 kHz is the lowest rate Speech accepts: a feature above
// its 4 kHz could not be measured on every stream.
//
// Deterministic and allocation-free after construction: rates above 48 kHz are first halved
// (pairs averaged) until they are at most 48 kHz, then each output sample is a fixed weighted
// sum (a Blackman-windowed sinc, weights computed once in the constructor) of its neighbours.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace p2l::audio {

class VowelResampler {
 public:
  static constexpr double kRate = 8000;       // Hz, the analysis rate
  static constexpr std::size_t kFrame = 256;  // output samples: 32 ms
  static constexpr double kCutoff = 3500;     // Hz, where the low-pass passes half the amplitude
  static constexpr double kHalfKernel = 0.003;  // s, the low-pass's reach either side of a sample

  explicit VowelResampler(std::uint32_t sample_rate);

  // Input samples one frame needs: kFrame / kRate plus the kernel's reach at both ends.
  std::size_t window() const { return window_; }
  // Fills [frame] from [samples], the latest window() samples (fewer: silence before them).
  void resample(std::span<const float> samples, std::span<double, kFrame> frame);

 private:
  std::size_t window_ = 0;      // input samples
  std::size_t halvings_ = 0;    // times pairs are averaged first
  std::size_t reduced_ = 0;     // samples after halving
  std::size_t taps_ = 0;        // weights per output sample
  std::vector<double> reduced_samples_;   // reduced_
  std::vector<std::size_t> first_;        // kFrame: index of each output's first tap
  std::vector<float> weights_;            // kFrame * taps_
};

}  // namespace p2l::audio
