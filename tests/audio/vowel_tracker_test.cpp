// The vowel estimator's promises (src/audio/vowels.hpp): finite weights summing to 1 whatever
// the input, no allocation per call, the same bits for the same input, and the five vowels
// told apart on synthetic speech (a pulse train through two resonators at textbook formants)
// at every rate. Its accuracy on real speech is measured by scripts/vowel_accuracy.sh.
//
// This file replaces the global allocator (counting_allocator.hpp): it is its own test binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <vector>

#include "audio/vowels.hpp"
#include "counting_allocator.hpp"

namespace {

using p2l::kVowelCount;
using p2l::audio::VowelTracker;
using Weights = std::array<float, kVowelCount>;

constexpr std::uint32_t kRates[] = {8000, 11025, 16000, 22050, 44100, 48000, 96000, 384000};

// A voiced vowel: a pulse train at [f0] Hz, low-passed like a glottal source, through two
// resonators at [f1] and [f2] Hz (80 and 100 Hz wide), scaled to a peak of [peak].
std::vector<float> synthetic_vowel(std::uint32_t rate, double f0, double f1, double f2, double seconds, double peak = 0.5) {
  const std::size_t count = static_cast<std::size_t>(seconds * rate);
  std::vector<double> signal(count);
  const double period = rate / f0;
  double source = 0, next_pulse = 0;
  for (std::size_t n = 0; n < count; ++n) {
    double pulse = 0;
    if (static_cast<double>(n) >= next_pulse) {
      pulse = 1;
      next_pulse += period;
    }
    source = 0.9 * source + pulse;  // about -6 dB per octave above 300 Hz
    signal[n] = source;
  }
  for (auto [frequency, bandwidth] : {std::pair{f1, 80.0}, std::pair{f2, 100.0}}) {
    const double r = std::exp(-std::numbers::pi * bandwidth / rate);
    const double c = 2 * r * std::cos(2 * std::numbers::pi * frequency / rate);
    double y1 = 0, y2 = 0;
    for (double& x : signal) {
      const double y = (1 - r) * x + c * y1 - r * r * y2;
      y2 = y1;
      y1 = y;
      x = y;
    }
  }
  double top = 0;
  for (double x : signal) top = std::max(top, std::fabs(x));
  std::vector<float> out(count);
  for (std::size_t n = 0; n < count; ++n) out[n] = static_cast<float>(signal[n] / top * peak);
  return out;
}

// Runs [tracker] over [samples] as p2l::Speech does (an update every 1/60 s with the latest
// window) and returns the weights after each update.
std::vector<Weights> track(VowelTracker& tracker, const std::vector<float>& samples, std::uint32_t rate) {
  std::vector<Weights> out;
  Weights weights{};
  for (int k = 1;; ++k) {
    const std::size_t end = static_cast<std::size_t>(k * static_cast<double>(rate) / 60);
    if (end > samples.size()) break;
    const std::size_t begin = end > tracker.window() ? end - tracker.window() : 0;
    tracker.analyse(std::span<const float>(samples.data() + begin, end - begin), 1.0 / 60, weights);
    out.push_back(weights);
  }
  return out;
}

void expect_valid(const Weights& weights) {
  double sum = 0;
  for (float w : weights) {
    ASSERT_TRUE(std::isfinite(w));
    ASSERT_GE(w, 0.0f);
    sum += w;
  }
  ASSERT_NEAR(sum, 1.0, 1e-6);
}

std::size_t heaviest(const Weights& weights) {
  return static_cast<std::size_t>(std::max_element(weights.begin(), weights.end()) - weights.begin());
}

TEST(VowelTracker, WindowIsAFixedDurationAtEveryRate) {
  for (std::uint32_t rate : kRates) {
    VowelTracker tracker(rate);
    const double seconds = static_cast<double>(tracker.window()) / rate;
    EXPECT_GT(seconds, 0.036) << rate;
    EXPECT_LT(seconds, 0.040) << rate;
    EXPECT_DOUBLE_EQ(tracker.latency(), seconds / 2) << rate;
  }
}

TEST(VowelTracker, HostileInputsGiveFiniteWeightsSummingToOne) {
  constexpr float kMax = std::numeric_limits<float>::max();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kTiny = std::numeric_limits<float>::denorm_min();
  for (std::uint32_t rate : {8000u, 44100u, 384000u}) {
    VowelTracker tracker(rate);
    const std::size_t n = tracker.window();
    std::vector<std::vector<float>> inputs = {
        {}, {0.5f}, std::vector<float>(n, 0.0f), std::vector<float>(n, 1.0f), std::vector<float>(n, -1.0f),
        std::vector<float>(n, kMax), std::vector<float>(n, kTiny), std::vector<float>(n / 3, 0.7f),
        std::vector<float>(3 * n, 0.25f)};
    std::vector<float> square(n), alternating(n), clipped(n), huge(n), noise(n), specials(n);
    std::uint32_t seed = 1;
    for (std::size_t i = 0; i < n; ++i) {
      square[i] = (i * 200 / rate) % 2 ? 1.0f : -1.0f;  // 100 Hz, full scale
      alternating[i] = i % 2 ? 1.0f : -1.0f;            // the Nyquist frequency
      clipped[i] = std::clamp(4.0f * std::sin(static_cast<float>(i) * 0.02f), -1.0f, 1.0f);
      huge[i] = i % 3 ? kMax : -kMax;
      seed = seed * 1664525u + 1013904223u;
      noise[i] = static_cast<float>(seed >> 8) / 16777216.0f * 2e-7f - 1e-7f;
      specials[i] = i % 5 == 0 ? kNaN : i % 7 == 0 ? kInf : i % 11 == 0 ? -kInf : 0.1f;
    }
    for (auto* extra : {&square, &alternating, &clipped, &huge, &noise, &specials}) inputs.push_back(*extra);
    for (double dt : {0.0, 1.0 / 60, -1.0, 1e9, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
      for (const auto& input : inputs) {
        Weights weights{};
        tracker.analyse(input, dt, weights);
        expect_valid(weights);
      }
    }
  }
}

TEST(VowelTracker, AnalyseAllocatesNothing) {
  for (std::uint32_t rate : kRates) {
    VowelTracker tracker(rate);
    const auto vowel = synthetic_vowel(rate, 120, 730, 1090, 0.2);
    Weights weights{};
    const std::size_t before = p2l_test::allocation_count();
    for (std::size_t end = tracker.window(); end <= vowel.size(); end += rate / 60) {
      tracker.analyse(std::span<const float>(vowel.data() + end - tracker.window(), tracker.window()), 1.0 / 60, weights);
    }
    tracker.analyse({}, 0, weights);
    tracker.reset();
    EXPECT_EQ(p2l_test::allocation_count(), before) << rate;
  }
}

TEST(VowelTracker, SameInputSameBits) {
  const auto vowel = synthetic_vowel(44100, 150, 300, 870, 0.5);
  VowelTracker first(44100), second(44100);
  const auto a = track(first, vowel, 44100);
  first.reset();
  const auto b = track(second, vowel, 44100);
  const auto c = track(first, vowel, 44100);  // after reset() as from new
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Weights)), 0);
  EXPECT_EQ(std::memcmp(a.data(), c.data(), a.size() * sizeof(Weights)), 0);
}

struct Formants {
  const char* name;
  std::size_t vowel;
  double f1, f2;
};
// Peterson and Barney (1952): men's and women's averages for the nearest English vowels.
constexpr Formants kMen[] = {{"A", 0, 730, 1090}, {"I", 1, 270, 2290}, {"U", 2, 300, 870}, {"E", 3, 530, 1840}, {"O", 4, 570, 840}};
constexpr Formants kWomen[] = {{"A", 0, 850, 1220}, {"I", 1, 310, 2790}, {"U", 2, 370, 950}, {"E", 3, 610, 2330}, {"O", 4, 590, 920}};

void expect_vowels(const Formants (&vowels)[5], double f0) {
  for (std::uint32_t rate : kRates) {
    for (const Formants& vowel : vowels) {
      VowelTracker tracker(rate);
      const auto frames = track(tracker, synthetic_vowel(rate, f0, vowel.f1, vowel.f2, 0.5), rate);
      // Past the first 100 ms (the window filling, the smoothing settling) every frame is right.
      for (std::size_t k = 6; k < frames.size(); ++k) {
        expect_valid(frames[k]);
        EXPECT_EQ(heaviest(frames[k]), vowel.vowel) << vowel.name << " at " << rate << " Hz, frame " << k;
      }
    }
  }
}

TEST(VowelTracker, TellsTextbookVowelsOfAMansVoice) { expect_vowels(kMen, 120); }
TEST(VowelTracker, TellsTextbookVowelsOfAWomansVoice) { expect_vowels(kWomen, 220); }

TEST(VowelTracker, SilenceIsRelativeButQuietVowelsStayVowels) {
  const std::uint32_t rate = 16000;
  // A quiet vowel on its own (peak 0.01, about -46 dBFS) is a vowel.
  {
    VowelTracker tracker(rate);
    const auto frames = track(tracker, synthetic_vowel(rate, 120, 730, 1090, 0.5, 0.01), rate);
    EXPECT_EQ(heaviest(frames.back()), 0u);
    EXPECT_LT(frames.back()[5], 0.01f);
  }
  // A loud vowel, then digital silence, then a faint hiss 50 dB below the vowel: silence.
  {
    VowelTracker tracker(rate);
    auto audio = synthetic_vowel(rate, 120, 270, 2290, 0.5, 0.5);
    audio.resize(audio.size() + rate / 2, 0.0f);
    std::uint32_t seed = 7;
    for (std::size_t i = 0; i < rate / 2; ++i) {
      seed = seed * 1664525u + 1013904223u;
      audio.push_back(static_cast<float>(seed >> 8) / 16777216.0f * 0.004f - 0.002f);
    }
    const auto frames = track(tracker, audio, rate);
    EXPECT_EQ(heaviest(frames[25]), 1u);          // 0.42 s: the vowel
    EXPECT_GT(frames[50][5], 0.999f);             // 0.83 s: silence
    EXPECT_GT(frames.back()[5], 0.999f);          // the hiss
  }
  // Out-of-range floats raise the silence floor no higher than a full-scale window would.
  {
    VowelTracker tracker(rate);
    Weights weights{};
    const std::vector<float> burst(tracker.window(), std::numeric_limits<float>::max());
    tracker.analyse(burst, 1.0 / 60, weights);
    const auto frames = track(tracker, synthetic_vowel(rate, 120, 730, 1090, 0.5, 0.1), rate);
    EXPECT_EQ(heaviest(frames.back()), 0u);
  }
}

}  // namespace
