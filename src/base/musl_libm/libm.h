/* What musl's math sources (scripts/fetch_musl_math.sh) take from musl's internal libm.h,
 * written for p2lrt: the word access macros, the evaluation and barrier helpers, the build
 * switches and the kernels' prototypes. Names are prefixed by p2l_names.h, forced into every
 * unit on the compile line (cmake/musl_math.cmake). */
#ifndef P2L_MUSL_LIBM_H
#define P2L_MUSL_LIBM_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define hidden __attribute__((__visibility__("hidden")))

/* musl's own choices: results rounded to nearest, signalling NaNs not told apart, and the
 * portable round-to-integer (no target intrinsics, so every target rounds alike). */
#define WANT_ROUNDING 1
#define WANT_SNAN 0
#define issignalingf_inline(x) 0
#define issignaling_inline(x) 0
#define TOINT_INTRINSICS 0

#define predict_true(x) __builtin_expect(!!(x), 1)
#define predict_false(x) __builtin_expect(x, 0)

static inline float eval_as_float(float x) { return x; }
static inline double eval_as_double(double x) { return x; }

/* The barriers keep an expression that raises a floating-point flag from being folded away;
 * the value is what matters to p2lrt, and it is the same either way. */
static inline float fp_barrierf(float x) {
  volatile float y = x;
  return y;
}
static inline double fp_barrier(double x) {
  volatile double y = x;
  return y;
}
static inline void fp_force_evalf(float x) {
  volatile float y;
  y = x;
  (void)y;
}
static inline void fp_force_eval(double x) {
  volatile double y;
  y = x;
  (void)y;
}
#define FORCE_EVAL(x)                         \
  do {                                        \
    if (sizeof(x) == sizeof(float))           \
      fp_force_evalf((float)(x));             \
    else                                      \
      fp_force_eval((double)(x));             \
  } while (0)

static inline uint32_t p2l_asuint(float f) {
  uint32_t i;
  memcpy(&i, &f, 4);
  return i;
}
static inline float p2l_asfloat(uint32_t i) {
  float f;
  memcpy(&f, &i, 4);
  return f;
}
static inline uint64_t p2l_asuint64(double f) {
  uint64_t i;
  memcpy(&i, &f, 8);
  return i;
}
static inline double p2l_asdouble(uint64_t i) {
  double f;
  memcpy(&f, &i, 8);
  return f;
}
#define asuint(f) p2l_asuint(f)
#define asfloat(i) p2l_asfloat(i)
#define asuint64(f) p2l_asuint64(f)
#define asdouble(i) p2l_asdouble(i)

#define EXTRACT_WORDS(hi, lo, d)     \
  do {                               \
    uint64_t u_ = asuint64(d);       \
    (hi) = u_ >> 32;                 \
    (lo) = (uint32_t)u_;             \
  } while (0)
#define GET_HIGH_WORD(hi, d) \
  do {                       \
    (hi) = asuint64(d) >> 32; \
  } while (0)
#define GET_LOW_WORD(lo, d)        \
  do {                             \
    (lo) = (uint32_t)asuint64(d);  \
  } while (0)
#define INSERT_WORDS(d, hi, lo)                                  \
  do {                                                           \
    (d) = asdouble(((uint64_t)(hi) << 32) | (uint32_t)(lo));     \
  } while (0)
#define SET_HIGH_WORD(d, hi) INSERT_WORDS(d, hi, (uint32_t)asuint64(d))
#define SET_LOW_WORD(d, lo) INSERT_WORDS(d, asuint64(d) >> 32, lo)
#define GET_FLOAT_WORD(w, d) \
  do {                       \
    (w) = asuint(d);         \
  } while (0)
#define SET_FLOAT_WORD(d, w) \
  do {                       \
    (d) = asfloat(w);        \
  } while (0)

hidden int __rem_pio2_large(double *, double *, int, int, int);
hidden int __rem_pio2(double, double *);
hidden double __sin(double, double, int);
hidden double __cos(double, double);
hidden int __rem_pio2f(float, double *);
hidden float __sindf(double);
hidden float __cosdf(double);

hidden float __math_oflowf(uint32_t);
hidden float __math_uflowf(uint32_t);
hidden float __math_invalidf(float);
hidden float __math_divzerof(uint32_t);
hidden float __math_xflowf(uint32_t, float);
hidden double __math_oflow(uint32_t);
hidden double __math_uflow(uint32_t);
hidden double __math_invalid(double);
hidden double __math_divzero(uint32_t);
hidden double __math_xflow(uint32_t, double);

#endif
