/* "Another C library's libm", for tests/libm/run.sh: preloaded (LD_PRELOAD) into the test
 * programs, it answers every transcendental function one unit in the last place away from
 * glibc's, as a different libm (musl's, Apple's, a newer glibc's correctly rounded ones) may. A
 * p2lrt that computes the same bits on every machine never calls these (src/base/libm.hpp), so
 * the suites it runs under still match their recorded results to the bit; one call left to the
 * host's libm in an evaluation path turns into a mismatch. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void *next(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "other_libm: no %s to wrap\n", name);
    abort();
  }
  return f;
}

static float nudgef(float r) { return isfinite(r) && r != 0.0f ? nextafterf(r, INFINITY) : r; }
static double nudge(double r) { return isfinite(r) && r != 0.0 ? nextafter(r, INFINITY) : r; }

#define WRAP1F(name)                                              \
  float name(float x) {                                           \
    static float (*real)(float);                                  \
    if (!real) real = (float (*)(float))next(#name);              \
    return nudgef(real(x));                                       \
  }
#define WRAP2F(name)                                              \
  float name(float x, float y) {                                  \
    static float (*real)(float, float);                           \
    if (!real) real = (float (*)(float, float))next(#name);       \
    return nudgef(real(x, y));                                    \
  }
#define WRAP1(name)                                               \
  double name(double x) {                                         \
    static double (*real)(double);                                \
    if (!real) real = (double (*)(double))next(#name);            \
    return nudge(real(x));                                        \
  }
#define WRAP2(name)                                               \
  double name(double x, double y) {                               \
    static double (*real)(double, double);                        \
    if (!real) real = (double (*)(double, double))next(#name);    \
    return nudge(real(x, y));                                     \
  }

WRAP1F(sinf) WRAP1F(cosf) WRAP1F(tanf) WRAP1F(asinf) WRAP1F(acosf) WRAP1F(atanf) WRAP2F(atan2f)
WRAP1F(sinhf) WRAP1F(coshf) WRAP1F(tanhf) WRAP1F(expf) WRAP1F(exp2f) WRAP1F(expm1f) WRAP1F(logf)
WRAP1F(log2f) WRAP1F(log10f) WRAP1F(log1pf) WRAP2F(powf) WRAP2F(hypotf) WRAP1F(cbrtf)
WRAP1(sin) WRAP1(cos) WRAP1(tan) WRAP1(asin) WRAP1(acos) WRAP1(atan) WRAP2(atan2)
WRAP1(sinh) WRAP1(cosh) WRAP1(tanh) WRAP1(exp) WRAP1(exp2) WRAP1(expm1) WRAP1(log)
WRAP1(log2) WRAP1(log10) WRAP1(log1p) WRAP2(pow) WRAP2(hypot) WRAP1(cbrt)

/* The compiler may merge a sine and a cosine of one argument into one call. */
void sincosf(float x, float *s, float *c) {
  *s = sinf(x);
  *c = cosf(x);
}
void sincos(double x, double *s, double *c) {
  *s = sin(x);
  *c = cos(x);
}
