#include "audio/vowel_formants.hpp"

#include <cmath>
#include <numbers>

#include "base/libm.hpp"

namespace p2l::audio {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kPreEmphasis = 0.94;   // lifts the glottal source's -6 dB/octave tilt
constexpr double kLagBandwidth = 50;    // Hz: a Gaussian lag window widens every pole a little
constexpr double kNoiseFloor = 1e-4;    // white noise added to r[0] (-40 dB): keeps A(z) stable
constexpr int kRootIterations = 200;

struct Complex {
  double re = 0, im = 0;
};
Complex operator+(Complex a, Complex b) { return {a.re + b.re, a.im + b.im}; }
Complex operator-(Complex a, Complex b) { return {a.re - b.re, a.im - b.im}; }
Complex operator*(Complex a, Complex b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
Complex operator/(Complex a, Complex b) {
  const double d = b.re * b.re + b.im * b.im;
  return {(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}

// The roots of z^n + c[1] z^(n-1) + ... + c[n] by Durand-Kerner (Weierstrass) iteration from
// fixed starting points: every root found at once, with nothing but complex arithmetic.
template <std::size_t N>
void polynomial_roots(const std::array<double, N + 1>& c, std::array<Complex, N>& roots) {
  Complex start{0.4, 0.9}, power{1, 0};
  for (auto& root : roots) {
    root = power;
    power = power * start;
  }
  for (int iteration = 0; iteration < kRootIterations; ++iteration) {
    double moved = 0;
    for (std::size_t k = 0; k < N; ++k) {
      Complex value{1, 0};
      for (std::size_t j = 1; j <= N; ++j) value = value * roots[k] + Complex{c[j], 0};
      Complex product{1, 0};
      for (std::size_t j = 0; j < N; ++j) {
        if (j != k) product = product * (roots[k] - roots[j]);
      }
      if (product.re == 0 && product.im == 0) product = {1e-12, 0};
      const Complex step = value / product;
      if (!std::isfinite(step.re) || !std::isfinite(step.im)) return;
      roots[k] = roots[k] - step;
      moved = std::fmax(moved, std::fabs(step.re) + std::fabs(step.im));
    }
    if (moved < 1e-12) return;
  }
}

}  // namespace

double natural_log(double x) {
  if (!(x > 0)) return -HUGE_VAL;
  if (!std::isfinite(x)) return x;
  int exponent = 0;
  const double mantissa = std::frexp(x, &exponent);  // x = mantissa * 2^exponent, mantissa in [0.5, 1)
  // ln(m) = 2 atanh(y), y = (m - 1) / (m + 1) in [-1/3, 0): the odd series converges fast.
  const double y = (mantissa - 1) / (mantissa + 1), y2 = y * y;
  double term = y, sum = 0;
  for (int k = 1; k <= 39; k += 2) {
    sum += term / k;
    term *= y2;
  }
  return exponent * std::numbers::ln2 + 2 * sum;
}

FormantAnalyser::FormantAnalyser() {
  for (std::size_t n = 0; n < kFrame; ++n) {
    window_[n] = 0.54 - 0.46 * libm::cos(2 * kPi * static_cast<double>(n) / static_cast<double>(kFrame - 1));
  }
  for (std::size_t k = 0; k <= kOrder; ++k) {
    const double x = 2 * kPi * kLagBandwidth * static_cast<double>(k) / VowelResampler::kRate;
    lag_window_[k] = libm::exp(-0.5 * x * x);
  }
}

Resonances FormantAnalyser::analyse(std::span<const double, kFrame> frame) {
  Resonances found;
  // Scaled to a peak of 1 first: the predictor depends on the shape only, and no square
  // overflows or vanishes whatever the level.
  double peak = 0;
  for (double x : frame) peak = std::fmax(peak, std::fabs(x));
  if (!(peak > 1e-30) || !std::isfinite(peak)) return found;
  double previous = frame[0] / peak;
  for (std::size_t n = 0; n < kFrame; ++n) {
    const double x = frame[n] / peak;
    shaped_[n] = (x - kPreEmphasis * previous) * window_[n];
    previous = x;
  }
  std::array<double, kOrder + 1> r{};
  for (std::size_t k = 0; k <= kOrder; ++k) {
    double sum = 0;
    for (std::size_t n = 0; n + k < kFrame; ++n) sum += shaped_[n] * shaped_[n + k];
    r[k] = sum * lag_window_[k];
  }
  if (!(r[0] > 0)) return found;
  r[0] *= 1 + kNoiseFloor;

  // Levinson-Durbin: a[0] = 1, the prediction error filter A(z) = sum a[k] z^-k.
  std::array<double, kOrder + 1> a{}, previous_a{};
  a[0] = 1;
  double error = r[0];
  for (std::size_t i = 1; i <= kOrder; ++i) {
    double acc = r[i];
    for (std::size_t j = 1; j < i; ++j) acc += a[j] * r[i - j];
    const double reflection = -acc / error;
    previous_a = a;
    for (std::size_t j = 1; j < i; ++j) a[j] = previous_a[j] + reflection * previous_a[i - j];
    a[i] = reflection;
    error *= 1 - reflection * reflection;
    if (!(error > 0)) return found;
  }

  std::array<Complex, kOrder> roots{};
  polynomial_roots<kOrder>(a, roots);
  for (const Complex& root : roots) {
    if (!(root.im > 0)) continue;  // one of each conjugate pair; real roots are no resonance
    const double radius = std::sqrt(root.re * root.re + root.im * root.im);
    if (!(radius > 0) || !(radius < 1)) continue;
    const double frequency = libm::atan2(root.im, root.re) * VowelResampler::kRate / (2 * kPi);
    const double bandwidth = -natural_log(radius) * VowelResampler::kRate / kPi;
    if (frequency < kLowest || frequency > kHighest || bandwidth > kMaxBandwidth) continue;
    if (found.count == Resonances::kMax) break;
    // Insertion keeps them sorted by frequency.
    std::size_t at = found.count++;
    while (at > 0 && found.frequency[at - 1] > frequency) {
      found.frequency[at] = found.frequency[at - 1];
      found.bandwidth[at] = found.bandwidth[at - 1];
      --at;
    }
    found.frequency[at] = frequency;
    found.bandwidth[at] = bandwidth;
  }
  return found;
}

}  // namespace p2l::audio
