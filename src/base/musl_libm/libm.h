/* What musl's float sine, cosine and arc tangent sources (fetched by
 * scripts/fetch_musl_math.sh) take from musl's internal libm.h, written for p2lrt: the word
 * access macros, the evaluation hints and the kernels' prototypes. The public and kernel names
 * are renamed on the compile line (cmake/musl_math.cmake), so that these functions sit beside
 * the platform's own sinf, cosf and atan2f. */
#ifndef P2L_MUSL_LIBM_H
#define P2L_MUSL_LIBM_H

#include <float.h>
#include <stdint.h>
#include <string.h>

/* Not <math.h>: the renames on the compile line would reach into the platform's own
 * declarations. What the sources use of it: */
typedef double double_t; /* FLT_EVAL_METHOD 0: x86-64 SSE, WebAssembly */
typedef float float_t;
#define M_PI_2 1.57079632679489661923
#define isnan(x) __builtin_isnan(x)
#define fabsf(x) __builtin_fabsf(x)
double floor(double);
double scalbn(double, int);

#define GET_FLOAT_WORD(w, d) \
  do {                       \
    float f_ = (d);          \
    uint32_t i_;             \
    memcpy(&i_, &f_, 4);     \
    (w) = i_;                \
  } while (0)

/* musl forces evaluation for the floating-point flags it raises; p2lrt reads no flags. */
#define FORCE_EVAL(x) ((void)(x))
#define predict_false(x) __builtin_expect(!!(x), 0)

float sinf(float);
float cosf(float);
float atanf(float);
float atan2f(float, float);
float __sindf(double);
float __cosdf(double);
float __tandf(double, int);
int __rem_pio2f(float, double *);
int __rem_pio2_large(double *, double *, int, int, int);

#endif
