/* Stand-ins for the glibc-internal headers that glibc's float math sources include, so that
 * those sources (fetched at build time from Debian's glibc-source package, never committed)
 * compile into the WebAssembly module. Why: the native build calls glibc's sinf, cosf, atan2f,
 * powf and hypotf, and the original runtime's vectors were computed with them; wasi-libc's
 * versions round differently in a few cases in a thousand, so the module uses glibc's code.
 * Only what those files use is defined here; the public names come from the compile line
 * (-D__sinf=sinf and so on), so the aliases glibc would emit are not needed. */
#ifndef P2L_GLIBC_LIBM_SHIM_H
#define P2L_GLIBC_LIBM_SHIM_H
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define attribute_hidden
#define __glibc_likely(c) __builtin_expect((c), 1)
#define __glibc_unlikely(c) __builtin_expect((c), 0)
#define __set_errno(e) (errno = (e))

/* The aliases glibc makes for its symbol versions: the compile line names the functions. */
#define libm_alias_float(from, to)
#define libm_alias_float_other(from, to)
#define libm_alias_finite(from, to)
#define strong_alias(from, to)
#define versioned_symbol(lib, local, symbol, version)
#define LIBM_SVID_COMPAT 0

/* Floating-point environment barriers: WebAssembly has one rounding mode and no flags, so
 * glibc's asm barriers reduce to a volatile read that keeps the expression. */
#define math_opt_barrier(x) ({ __typeof(x) p2l_barrier_ = (x); *(volatile __typeof(x) *)&p2l_barrier_; })
#define math_force_eval(x) ((void)math_opt_barrier(x))
#define math_narrow_eval(x) (x)
#define math_check_force_underflow(x) ((void)0)
#define HIGH_ORDER_BIT_IS_SET_FOR_SNAN 0

#define GET_FLOAT_WORD(i, f) do { float p2l_f_ = (f); uint32_t p2l_u_; memcpy(&p2l_u_, &p2l_f_, 4); (i) = p2l_u_; } while (0)
#define SET_FLOAT_WORD(f, i) do { uint32_t p2l_u_ = (i); float p2l_f_; memcpy(&p2l_f_, &p2l_u_, 4); (f) = p2l_f_; } while (0)

#ifndef issignaling
static inline int p2l_issignaling_float(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return (u & 0x7fffffffu) > 0x7f800000u && !(u & 0x00400000u);
}
static inline int p2l_issignaling_double(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull && !(u & 0x0008000000000000ull);
}
#define issignaling(x) (sizeof(x) == sizeof(float) ? p2l_issignaling_float(x) : p2l_issignaling_double(x))
#endif

/* e_atan2f.c calls glibc's internal atanf. */
float __atanf(float x);
#endif
