/* Every external name of musl's math sources (scripts/fetch_musl_math.sh) under p2lrt's own
 * prefix, forced into each of their translation units (cmake/musl_math.cmake): they sit beside
 * the platform's libm, and a host that links its own musl statically meets no duplicate. */
#ifndef P2L_MUSL_NAMES_H
#define P2L_MUSL_NAMES_H

#define sinf p2l_musl_sinf
#define cosf p2l_musl_cosf
#define atan2f p2l_musl_atan2f
#define atanf p2l_musl_atanf
#define powf p2l_musl_powf
#define sin p2l_musl_sin
#define cos p2l_musl_cos
#define atan2 p2l_musl_atan2
#define atan p2l_musl_atan
#define acos p2l_musl_acos
#define cbrt p2l_musl_cbrt
#define exp p2l_musl_exp
#define pow p2l_musl_pow
#define hypot p2l_musl_hypot

#define __sindf p2l_musl_sindf
#define __cosdf p2l_musl_cosdf
#define __tandf p2l_musl_tandf
#define __rem_pio2f p2l_musl_rem_pio2f
#define __rem_pio2_large p2l_musl_rem_pio2_large
#define __rem_pio2 p2l_musl_rem_pio2
#define __sin p2l_musl_ksin
#define __cos p2l_musl_kcos
#define __tan p2l_musl_ktan
#define __math_oflowf p2l_musl_math_oflowf
#define __math_uflowf p2l_musl_math_uflowf
#define __math_invalidf p2l_musl_math_invalidf
#define __math_divzerof p2l_musl_math_divzerof
#define __math_xflowf p2l_musl_math_xflowf
#define __math_oflow p2l_musl_math_oflow
#define __math_uflow p2l_musl_math_uflow
#define __math_invalid p2l_musl_math_invalid
#define __math_divzero p2l_musl_math_divzero
#define __math_xflow p2l_musl_math_xflow
#define __exp_data p2l_musl_exp_data
#define __pow_log_data p2l_musl_pow_log_data
#define __powf_log2_data p2l_musl_powf_log2_data
#define __exp2f_data p2l_musl_exp2f_data

#endif
