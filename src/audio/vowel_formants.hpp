// The vowel estimator's measurement: the resonances (formants) of the vocal tract in one
// 32 ms frame at 8 kHz, from linear prediction. The tract's shape fixes its resonances, and
// the first two tell the five vowels apart (A: F1 high; I: F1 low, F2 high; U: both low; E:
// between A and I; O: F1 mid, F2 low).
//
// Textbook steps, written here rather than taken from a DSP library so that WebAssembly and
// every machine compute the same bits (only +, -, *, /, sqrt and src/base/libm.hpp):
// pre-emphasis and a Hamming window, the autocorrelation, Levinson-Durbin for the predictor
// A(z), the roots of A(z) by Durand-Kerner iteration, each root's angle as a frequency and its
// radius as a bandwidth. Allocation-free: everything lives in fixed arrays.
#pragma once

#include <array>
#include <cstddef>
#include <span>

#include "audio/vowel_resampler.hpp"

namespace p2l::audio {

// Resonances found in a frame, lowest first: frequency and bandwidth in Hz.
struct Resonances {
  static constexpr std::size_t kMax = 8;
  std::array<double, kMax> frequency{}, bandwidth{};
  std::size_t count = 0;
};

class FormantAnalyser {
 public:
  static constexpr std::size_t kFrame = VowelResampler::kFrame;
  static constexpr std::size_t kOrder = 10;  // two poles per kHz of the 4 kHz band, plus two for the source

  FormantAnalyser();
  // The resonances of [frame] (8 kHz samples) narrower than kMaxBandwidth, between kLowest and
  // kHighest Hz; none for a frame without energy.
  Resonances analyse(std::span<const double, kFrame> frame);

  static constexpr double kMaxBandwidth = 600;  // Hz: wider poles shape the spectral tilt
  static constexpr double kLowest = 150, kHighest = 3700;

 private:
  std::array<double, kFrame> window_{}, shaped_{};
  std::array<double, kOrder + 1> lag_window_{};
};

// ln(x) for x > 0 from +, *, / only (no host log): the same bits everywhere.
double natural_log(double x);

}  // namespace p2l::audio
