/* What musl's math sources (scripts/fetch_musl_math.sh) use of <math.h>, written for p2lrt.
 * Not the platform's header: its declarations of sin, powf and the rest would meet the renames
 * of p2l_names.h, and its float_t could differ. FLT_EVAL_METHOD must be 0 (x86-64 SSE, AArch64,
 * WebAssembly): every double and float operation rounds once, as on the machines the Core and
 * the original runtime ran on. */
#ifndef P2L_MUSL_MATH_H
#define P2L_MUSL_MATH_H

#include <float.h>

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "p2lrt's math needs FLT_EVAL_METHOD 0 (SSE2 on x86, or any 64-bit target)"
#endif

typedef double double_t;
typedef float float_t;

#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define M_PI_2 1.57079632679489661923

#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define signbit(x) __builtin_signbit(x)
/* Exact operations: every IEEE implementation gives the same bits. */
#define fabs(x) __builtin_fabs(x)
#define fabsf(x) __builtin_fabsf(x)
#define sqrt(x) __builtin_sqrt(x)
#define sqrtf(x) __builtin_sqrtf(x)
double floor(double);
double scalbn(double, int);

float sinf(float);
float cosf(float);
float atanf(float);
float atan2f(float, float);
float powf(float, float);
double sin(double);
double cos(double);
double atan(double);
double atan2(double, double);
double acos(double);
double cbrt(double);
double exp(double);
double pow(double, double);
double hypot(double, double);

#endif
