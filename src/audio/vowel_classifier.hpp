// The vowel estimator's decision: which of A, I, U, E, O a frame's resonances are like. The
// first two formants (F1, F2) are compared with each vowel's typical pair on the Bark scale
// (Traunmueller's rational formula, so no logarithm), where equal steps are about equally
// audible and a voice's size shifts every formant by about the same amount.
#pragma once

#include <array>

#include "audio/vowel_formants.hpp"

namespace p2l::audio {

// Formants F1 and F2 picked from [found], in Hz; false when there are not two.
bool pick_formants(const Resonances& found, double& f1, double& f2);

// Weights of A, I, U, E, O (sum 1) for a frame with formants [f1] and [f2] in Hz.
std::array<double, 5> classify_vowel(double f1, double f2);

// Hz to Bark (Traunmueller 1990).
double bark(double hz);

}  // namespace p2l::audio
