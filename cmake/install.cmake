# What `cmake --install` puts where (GNU layout), the CMake package p2lConfig.cmake, the
# pkg-config files, and the Debian package that `cpack` makes from the same install.
#
#   include/p2l/*.h, *.hpp        the C API (p2l.h, p2l_cubism.h) and the C++ API
#   include/Live2DCubismCore.h    the Cubism Core API (docs/CUBISM_CORE.md)
#   lib/libp2l.so.1.4.0, .so.1, .so   the C API with the Cubism import (soname from the ABI's major
#                                 number)
#   lib/libp2l.a, libp2l_json.a, libp2l_cubism.a, libp2l_csm.a   the static libraries
#   lib/libp2l_gl.a, include/p2l/p2l_gl.h   the GPU renderer (when built: libepoxy found)
#   lib/libLive2DCubismCore.so, .a    the drop-in Cubism Core (unversioned, as the official one)
#   lib/cmake/p2l/                find_package(p2l CONFIG)
#   lib/pkgconfig/p2l.pc, p2l-static.pc, p2l-cubism-core.pc, p2l-gl.pc (with p2l_gl)
#   bin/p2lrt                     the command
#   share/p2lrt/examples/character.p2lrt, share/doc/p2lrt/
include(CMakePackageConfigHelpers)

# The names targets have in the package (p2l::NAME) and, for projects that add p2lrt with
# add_subdirectory, the same names as aliases.
set(P2L_EXPORTED p2l:p2l_static p2l_shared:p2l_shared p2l_json:json p2l_cubism:import
                 p2l_csm:cubism_core_static p2l_csm_shared:cubism_core)
foreach(pair IN LISTS P2L_EXPORTED)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 target)
  list(GET pair 1 name)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  add_library(p2l::${name} ALIAS ${target})
endforeach()
if(BUILD_SHARED_LIBS)
  add_library(p2l::p2l ALIAS p2l_shared)
else()
  add_library(p2l::p2l ALIAS p2l)
endif()

set(P2L_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/p2l)
install(TARGETS p2l p2l_json p2l_cubism p2l_csm EXPORT p2lTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS p2l_shared p2l_csm_shared EXPORT p2lTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS p2lrt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/libLive2DCubismCore.a DESTINATION ${CMAKE_INSTALL_LIBDIR})
# p2l_gl.h goes with libp2l_gl.a: a build without libepoxy has neither.
if(TARGET p2l_gl)
  set_target_properties(p2l_gl PROPERTIES EXPORT_NAME gl)
  add_library(p2l::gl ALIAS p2l_gl)
  install(TARGETS p2l_gl EXPORT p2lTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  set(P2L_GL_HEADER_EXCLUDE "")
else()
  set(P2L_GL_HEADER_EXCLUDE PATTERN "p2l_gl.h" EXCLUDE)
endif()
install(DIRECTORY include/p2l DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp"
        ${P2L_GL_HEADER_EXCLUDE})
install(FILES include/Live2DCubismCore.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES examples/character/character.p2lrt examples/character/README.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/p2lrt/examples)
install(FILES README.md docs/FORMAT.md docs/RUNTIME.md docs/CUBISM_CORE.md docs/PACKAGING.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The licences of what the binaries carry: p2lrt's own (MIT) and, compiled into every library,
# musl's math functions (docs/RUNTIME.md, "Math functions"), with the notices their files carry,
# read from the fetched sources themselves. Debian looks for them in the package's copyright file.
file(READ ${P2L_MUSL_MATH}/COPYRIGHT P2L_MUSL_COPYRIGHT)
file(STRINGS ${P2L_MUSL_MATH}/__sin.c P2L_SUN_NOTICE REGEX "^ \\* (Copyright|Developed|Permission|software|is preserved)")
file(STRINGS ${P2L_MUSL_MATH}/pow.c P2L_ARM_NOTICE REGEX "(Copyright|SPDX)")
list(JOIN P2L_SUN_NOTICE "\n" P2L_SUN_NOTICE)
list(JOIN P2L_ARM_NOTICE "\n" P2L_ARM_NOTICE)
file(READ LICENSE P2L_LICENSE_TEXT)
# `p2lrt view` compiles Dear ImGui in (Debian's libimgui.a) and links GLFW, libepoxy and X11.
set(P2L_IMGUI_NOTICE "")
set(P2L_VIEWER_DYNAMIC "")
if(P2L_VIEWER_LIBS_FOUND)
  string(REPLACE "Copyright (c) the p2lrt authors" "Copyright (c) 2014-2021 Omar Cornut" P2L_IMGUI_LICENSE "${P2L_LICENSE_TEXT}")
  set(P2L_IMGUI_NOTICE "Dear ImGui 1.86 (Debian's libimgui-dev), compiled into the p2lrt command for `p2lrt view`, with
stb_truetype and stb_rect_pack (Sean Barrett, public domain or MIT) inside it:

${P2L_IMGUI_LICENSE}
")
  set(P2L_VIEWER_DYNAMIC ", and for `p2lrt view` GLFW, libepoxy, libX11, libXfixes and libGL")
endif()
# `p2lrt render` into MP4, WebM and GIF links FFmpeg's libraries (docs/VIDEO.md). Debian builds
# them with --enable-gpl (libx264), so the p2lrt command as distributed with them is, as a whole,
# under the GPL's terms; the libraries (libp2l, libp2l_gl, the Cubism Core) never link FFmpeg.
if(P2L_FFMPEG_FOUND)
  string(APPEND P2L_VIEWER_DYNAMIC ".

The p2lrt command links FFmpeg's libavcodec, libavformat, libavfilter, libavutil, libswscale and
libswresample dynamically for `p2lrt render` into MP4, WebM and GIF. Debian builds FFmpeg with
--enable-gpl (for libx264), so that command, distributed with them, is as a whole under the terms
of the GNU GPL version 2 or later; p2lrt's own source stays MIT, and the libraries this package
installs (libp2l, libp2l_gl, libLive2DCubismCore) never link FFmpeg")
endif()
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/copyright CONTENT
"p2lrt
=====

@P2L_LICENSE_TEXT@
Third-party code compiled into the libraries and the command
============================================================

musl 1.2.2's math functions (sinf, cosf, atan2f, powf, sin, cos, atan2, acos, cbrt, exp, pow,
hypot and their kernels) and SHA-256 (crypt_sha256.c, public domain), from Debian's emscripten
3.1.6 package, under p2lrt's own names. MIT; the functions from FreeBSD's msun carry Sun
Microsystems' notice, exp, pow and powf Arm's.

@P2L_MUSL_COPYRIGHT@
The notice the msun files carry:

@P2L_SUN_NOTICE@

The notice Arm's files carry:

@P2L_ARM_NOTICE@

@P2L_IMGUI_NOTICE@Linked dynamically: zlib, zstd, libpng, libsndfile (LGPL 2.1 or later) and libvorbisfile (BSD)@P2L_VIEWER_DYNAMIC@; their Debian packages carry their licences.
" @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

install(EXPORT p2lTargets NAMESPACE p2l:: DESTINATION ${P2L_INSTALL_CMAKEDIR})
set(P2L_HAS_GL FALSE)
if(TARGET p2l_gl)
  set(P2L_HAS_GL TRUE)
endif()
configure_package_config_file(cmake/package/p2lConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/p2lConfig.cmake
                              INSTALL_DESTINATION ${P2L_INSTALL_CMAKEDIR})
# 0.x: a minor release may change the C++ API, so only the same minor version satisfies a request.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/p2lConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/p2lConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/p2lConfigVersion.cmake
        DESTINATION ${P2L_INSTALL_CMAKEDIR})

# pkg-config files that find their prefix from where they lie (${pcfiledir}), so an installed
# tree can be moved (a staging folder, a package's root) and still be found.
set(P2L_PC_DIR ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH P2L_PC_TO_PREFIX ${P2L_PC_DIR} ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" P2L_PC_TO_PREFIX "${P2L_PC_TO_PREFIX}")
file(RELATIVE_PATH P2L_PC_LIBDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_LIBDIR})
file(RELATIVE_PATH P2L_PC_INCLUDEDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_INCLUDEDIR})
# What linking libp2l.a needs beside it: the libraries it calls (pkg-config modules) and the
# C++ runtime.
set(P2L_PC_STATIC_REQUIRES "zlib libzstd libpng")
if(P2L_SNDFILE_FOUND)
  string(APPEND P2L_PC_STATIC_REQUIRES " sndfile vorbisfile")
endif()
set(P2L_PC_STATIC_LIBS "\${libdir}/libp2l.a -lstdc++ -lm -pthread")
if(BUILD_SHARED_LIBS)
  set(P2L_PC_DESCRIPTION "the C API for .p2lrt rigs (p2l/p2l.h) and Cubism models (p2l/p2l_cubism.h)")
  set(P2L_PC_LIBS "-L\${libdir} -lp2l")
  set(P2L_PC_REQUIRES "")
else()
  # libp2l.a only: the Cubism import is libp2l_cubism.a (p2l::import), as in the CMake package.
  set(P2L_PC_DESCRIPTION "the C API for .p2lrt rigs (p2l/p2l.h)")
  set(P2L_PC_LIBS "${P2L_PC_STATIC_LIBS}")
  set(P2L_PC_REQUIRES "${P2L_PC_STATIC_REQUIRES}")
endif()
set(P2L_PC_FILES p2l p2l-static p2l-cubism-core)
if(TARGET p2l_gl)
  list(APPEND P2L_PC_FILES p2l-gl)
endif()
foreach(pc IN LISTS P2L_PC_FILES)
  configure_file(cmake/package/${pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

# The Debian package: `cpack -G DEB` in a build configured with -DCMAKE_INSTALL_PREFIX=/usr
# (then the libraries go to Debian's multiarch folder). dpkg-shlibdeps finds what it depends
# on; the shlibs file lets packages built against libp2l.so.1 depend on this one.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME p2lrt)
set(CPACK_PACKAGE_VENDOR "p2lrt")
# The Maintainer field: the project's authors, as LICENSE names them. The project publishes no
# address, so none is made up; whoever builds and ships the package names themselves with
# -DP2L_PACKAGE_MAINTAINER="Name <address>".
set(P2L_PACKAGE_MAINTAINER "the p2lrt authors" CACHE STRING "The Debian package's Maintainer field")
set(CPACK_PACKAGE_CONTACT "${P2L_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Runtime and SDK for .p2lrt 2D puppet rigs and Cubism models")
set(CPACK_PACKAGE_DESCRIPTION "p2lrt loads .p2lrt rigs and imports Cubism models, evaluates
them (parameters, deformers, physics, motions, expressions), and renders them. This package
has the p2lrt command, the C API (libp2l.so.${P2L_ABI_MAJOR}), the static C and C++ libraries
with their headers, a drop-in Cubism Core (libLive2DCubismCore), the CMake package and the
pkg-config files, and the example character.")
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CHECKSUM SHA256)
include(CPack)
