# musl's math functions (and its SHA-256) under p2lrt's own names, compiled into every target (native and
# WebAssembly alike) so that evaluation computes the same bits on every machine, whatever the
# host's libm (src/base/libm.hpp says why and which functions). P2L_MUSL_MATH names the folder
# scripts/fetch_musl_math.sh fills, outside the repository; when it is not set or lacks a file,
# the script is run once at configure time.
#   p2l_add_musl_math(TARGET [OBJECT])
#     creates the static library TARGET (or, with OBJECT, an object library whose objects the
#     caller adds to its own library).
set(P2L_MUSL_MATH_FILES
    # float: sine, cosine (msun), arc tangent (msun), power (Arm)
    sinf.c cosf.c __sindf.c __cosdf.c __rem_pio2f.c __rem_pio2_large.c atan2f.c atanf.c
    powf.c powf_data.c exp2f_data.c
    __math_oflowf.c __math_uflowf.c __math_invalidf.c __math_divzerof.c __math_xflowf.c
    # double: sine, cosine, arc tangent, arc cosine, cube root (msun), exp, power (Arm), hypot
    sin.c cos.c __sin.c __cos.c __rem_pio2.c atan2.c atan.c acos.c cbrt.c exp.c exp_data.c
    pow.c pow_data.c hypot.c
    __math_oflow.c __math_uflow.c __math_invalid.c __math_divzero.c __math_xflow.c)

function(p2l_find_musl_math)
  set(missing OFF)
  foreach(f IN LISTS P2L_MUSL_MATH_FILES)
    if(NOT P2L_MUSL_MATH OR NOT EXISTS ${P2L_MUSL_MATH}/${f})
      set(missing ON)
    endif()
  endforeach()
  if(NOT missing)
    return()
  endif()
  get_filename_component(root ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/.. ABSOLUTE)
  message(STATUS "p2lrt: fetching musl's math sources (scripts/fetch_musl_math.sh)")
  execute_process(COMMAND bash ${root}/scripts/fetch_musl_math.sh OUTPUT_VARIABLE folder
                  RESULT_VARIABLE status OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT status EQUAL 0 OR NOT EXISTS ${folder}/sinf.c)
    message(FATAL_ERROR "p2lrt needs musl's math sources and scripts/fetch_musl_math.sh could not fetch "
                        "them (it downloads Debian's emscripten package with apt-get). Run it where it "
                        "can, and pass its folder as -DP2L_MUSL_MATH=DIR.")
  endif()
  set(P2L_MUSL_MATH ${folder} CACHE PATH "Folder with musl's math sources (scripts/fetch_musl_math.sh)" FORCE)
endfunction()

function(p2l_add_musl_math target)
  set(kind STATIC)
  if(ARGV1 STREQUAL "OBJECT")
    set(kind OBJECT)
  endif()
  p2l_find_musl_math()
  set(sources)
  foreach(f IN LISTS P2L_MUSL_MATH_FILES)
    if(NOT EXISTS ${P2L_MUSL_MATH}/${f})
      message(FATAL_ERROR "P2L_MUSL_MATH=${P2L_MUSL_MATH} lacks ${f} (scripts/fetch_musl_math.sh fetches it)")
    endif()
    list(APPEND sources ${P2L_MUSL_MATH}/${f})
  endforeach()
  get_filename_component(root ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/.. ABSOLUTE)
  if(NOT EXISTS ${P2L_MUSL_MATH}/crypt_sha256.c)
    message(FATAL_ERROR "P2L_MUSL_MATH=${P2L_MUSL_MATH} lacks crypt_sha256.c (scripts/fetch_musl_math.sh fetches it)")
  endif()
  # musl's SHA-256 too, compiled inside p2lrt's wrapper (src/base/musl_libm/sha256.c says why).
  add_library(${target} ${kind} ${sources} ${root}/src/base/musl_libm/sha256.c)
  # The shim headers (math.h, libm.h, features.h) come before the platform's; p2l_names.h
  # gives every external name p2lrt's prefix.
  target_include_directories(${target} BEFORE PRIVATE ${root}/src/base/musl_libm ${P2L_MUSL_MATH})
  # As musl builds them: IEEE arithmetic, nothing fused, reordered or folded into a builtin.
  target_compile_options(${target} PRIVATE "SHELL:-include ${root}/src/base/musl_libm/p2l_names.h" -std=c99 -O2
                         -ffp-contract=off -fno-fast-math -fno-math-errno -fno-builtin -w
                         -Werror=implicit-function-declaration)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)
endfunction()
