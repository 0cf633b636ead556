# musl's sinf, cosf and atan2f (with their kernels) under p2lrt's names, for evaluation under
# Cubism's rules (src/base/cubism_math.hpp says why). P2L_MUSL_MATH names the folder
# scripts/fetch_musl_math.sh fills; without it the platform's functions stand in, and results
# under Cubism's rules may differ from the official Core in the last bits.
#   p2l_add_musl_math(TARGET [OBJECT])
#     creates the static library TARGET (or, with OBJECT, an object library whose objects the
#     caller adds to its own library) when the sources are there, and sets P2L_HAVE_MUSL_MATH in
#     the caller's scope.
function(p2l_add_musl_math target)
  set(kind STATIC)
  if(ARGV1 STREQUAL "OBJECT")
    set(kind OBJECT)
  endif()
  set(P2L_HAVE_MUSL_MATH OFF PARENT_SCOPE)
  set(files sinf.c cosf.c atan2f.c atanf.c __sindf.c __cosdf.c __rem_pio2f.c __rem_pio2_large.c)
  if(NOT P2L_MUSL_MATH)
    message(STATUS "p2lrt: P2L_MUSL_MATH not set: Cubism's rules use the platform's sinf/cosf/atan2f "
                   "(scripts/fetch_musl_math.sh fetches musl's)")
    return()
  endif()
  set(sources)
  foreach(f IN LISTS files)
    if(NOT EXISTS ${P2L_MUSL_MATH}/${f})
      message(FATAL_ERROR "P2L_MUSL_MATH=${P2L_MUSL_MATH} lacks ${f} (scripts/fetch_musl_math.sh fetches it)")
    endif()
    list(APPEND sources ${P2L_MUSL_MATH}/${f})
  endforeach()
  add_library(${target} ${kind} ${sources})
  get_filename_component(root ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/.. ABSOLUTE)
  target_include_directories(${target} PRIVATE ${root}/src/base/musl_libm)
  target_compile_definitions(${target} PRIVATE sinf=p2l_musl_sinf cosf=p2l_musl_cosf atan2f=p2l_musl_atan2f
                             atanf=p2l_musl_atanf __sindf=p2l_musl_sindf __cosdf=p2l_musl_cosdf __tandf=p2l_musl_tandf
                             __rem_pio2f=p2l_musl_rem_pio2f __rem_pio2_large=p2l_musl_rem_pio2_large)
  # As emscripten builds them for the Core: IEEE double arithmetic, nothing fused or reordered.
  target_compile_options(${target} PRIVATE -std=c99 -O2 -ffp-contract=off -fno-fast-math -fno-builtin -w -Werror=implicit-function-declaration)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)
  set(P2L_HAVE_MUSL_MATH ON PARENT_SCOPE)
endfunction()
