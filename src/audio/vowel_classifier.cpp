#include "audio/vowel_classifier.hpp"

#include <cmath>

#include "base/libm.hpp"

namespace p2l::audio {

namespace {

struct Prototype {
  std::size_t vowel;  // 0..4: A I U E O
  double f1, f2;      // Hz
};
// Typical F1 and F2 of the five vowels, between adult male and female values, from the
// phonetics literature (Peterson and Barney 1952; Hillenbrand et al. 1995; Japanese and Spanish
// five-vowel systems). U has two: the back rounded [u] of Japanese or Spanish, and the fronted
// [u:] of present-day British and much American English, whose F2 is near E's but whose F1 is
// an I's; both are drawn with rounded lips.
constexpr std::array<Prototype, 6> kPrototypes{{
    {0, 800, 1200},  // A
    {1, 300, 2400},  // I
    {2, 340, 850},   // U, back
    {2, 350, 1750},  // U, fronted
    {3, 550, 1950},  // E
    {4, 540, 880},   // O
}};
// A formant is a narrow resonance: a wide pole near one (a high voice's sparse harmonics give
// such pairs) or below 200 Hz (the voice's fundamental) is passed over.
constexpr double kFormantBandwidth = 350;  // Hz
constexpr double kLowestF1 = 200, kHighestF1 = 1100;
constexpr double kSpread = 0.7;  // Bark: how fast a vowel's weight falls off with distance

}  // namespace

double bark(double hz) { return 26.81 * hz / (1960 + hz) - 0.53; }

bool pick_formants(const Resonances& found, double& f1, double& f2) {
  std::size_t picked = 0;
  for (std::size_t i = 0; i < found.count && picked < 2; ++i) {
    if (found.frequency[i] < kLowestF1 || found.bandwidth[i] > kFormantBandwidth) continue;
    (picked++ == 0 ? f1 : f2) = found.frequency[i];
  }
  return picked == 2 && f1 <= kHighestF1;
}

std::array<double, 5> classify_vowel(double f1, double f2) {
  const double z1 = bark(f1), z2 = bark(f2);
  std::array<double, 5> distance;
  distance.fill(HUGE_VAL);
  double nearest = HUGE_VAL;
  for (const Prototype& prototype : kPrototypes) {
    const double d1 = z1 - bark(prototype.f1), d2 = z2 - bark(prototype.f2);
    distance[prototype.vowel] = std::fmin(distance[prototype.vowel], d1 * d1 + d2 * d2);
    nearest = std::fmin(nearest, distance[prototype.vowel]);
  }
  // Relative to the nearest, so that a frame far from every vowel still has weights.
  std::array<double, 5> score{};
  double sum = 0;
  for (std::size_t v = 0; v < 5; ++v) {
    score[v] = libm::exp(-(distance[v] - nearest) / (2 * kSpread * kSpread));
    sum += score[v];
  }
  for (double& s : score) s /= sum;
  return score;
}

}  // namespace p2l::audio
