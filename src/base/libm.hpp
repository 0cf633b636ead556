// The transcendental functions every evaluation rule uses, from musl's C library, built into
// p2lrt under its own names for every target (scripts/fetch_musl_math.sh, cmake/musl_math.cmake).
//
// Why not the host's libm: C libraries round these functions differently in the last bit
// (glibc 2.36 and musl differ on 0.2 % of sinf's arguments and 23 % of atan2's; newer glibc
// releases replace float functions with CORE-MATH's correctly rounded ones), and a rotation
// chain or a physics pendulum carries such a bit into visible output. A runtime that promises the same bits on every machine
// computes them with one implementation it ships; musl's is MIT (its trigonometry, atan, acos
// and cbrt from FreeBSD's msun under Sun's permissive notice; exp, pow and powf from Arm's
// optimized-routines, MIT). And the official Cubism Core is built with emscripten, whose C
// library is musl: under Cubism's rules these sinf, cosf and atan2f are the Core's own.
//
// Operations IEEE 754 rounds correctly (sqrt, floor, fmod, fabs...) stay std::: every
// implementation gives the same bits.
#pragma once

#include <cmath>

extern "C" {
float p2l_musl_sinf(float);
float p2l_musl_cosf(float);
float p2l_musl_atan2f(float, float);
float p2l_musl_powf(float, float);
double p2l_musl_sin(double);
double p2l_musl_cos(double);
double p2l_musl_atan2(double, double);
double p2l_musl_acos(double);
double p2l_musl_cbrt(double);
double p2l_musl_exp(double);
double p2l_musl_pow(double, double);
double p2l_musl_hypot(double, double);
}

namespace p2l::libm {

inline float sin(float x) { return p2l_musl_sinf(x); }
inline float cos(float x) { return p2l_musl_cosf(x); }
inline float atan2(float y, float x) { return p2l_musl_atan2f(y, x); }
inline float pow(float x, float y) { return p2l_musl_powf(x, y); }
// Not musl's hypotf, which rounds the sum of squares to float before the root (13 % of random
// arguments then differ from the correctly rounded result): the squares of floats are exact in
// double, the sum and the root round once each, so the float result is correctly rounded but
// for arguments within 2^-54 of a rounding boundary. Every step is an IEEE-exact operation, so
// every machine computes the same bits; it is also glibc's algorithm (the original runtime's).
inline float hypot(float x, float y) {
  const double dx = x, dy = y;
  return static_cast<float>(std::sqrt(dx * dx + dy * dy));
}

inline double sin(double x) { return p2l_musl_sin(x); }
inline double cos(double x) { return p2l_musl_cos(x); }
inline double atan2(double y, double x) { return p2l_musl_atan2(y, x); }
inline double acos(double x) { return p2l_musl_acos(x); }
inline double cbrt(double x) { return p2l_musl_cbrt(x); }
inline double exp(double x) { return p2l_musl_exp(x); }
inline double pow(double x, double y) { return p2l_musl_pow(x, y); }
inline double hypot(double x, double y) { return p2l_musl_hypot(x, y); }

}  // namespace p2l::libm
