#!/usr/bin/env bash
# Installs a p2lrt build into a staging folder and builds hosts against the installed tree
# only, the way projects outside the repository would: a C program through pkg-config (p2l,
# then p2l-static), the C program and a C++ program through find_package(p2l CONFIG), a
# Cubism Core host through pkg-config p2l-cubism-core, and the C99 Cubism import host through
# pkg-config p2l (libp2l.so). Every host prints the example character's vertices at one pose;
# all four printouts must be the same.
#   tests/package/run.sh BUILD_DIR   (a build configured with -DCMAKE_INSTALL_PREFIX=/usr)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
stage=$build/stage
work=$build/consumers
rm -rf "$stage" "$work"
mkdir -p "$work"
DESTDIR=$stage cmake --install "$build" > "$work/install.log"

passed=0
failed=0
check() {  # check NAME COMMAND...: runs the command, counts it
  local name=$1
  shift
  if "$@" > "$work/$name.log" 2>&1; then
    passed=$((passed + 1))
    echo "package: ok   $name"
  else
    failed=$((failed + 1))
    echo "package: FAIL $name (log: $work/$name.log)"
    tail -n 20 "$work/$name.log" | sed 's/^/  | /'
  fi
}

pcdir=$(dirname "$(find "$stage" -name p2l.pc -print -quit)")
libdir=$(dirname "$pcdir")
prefix=$stage/usr
example=$prefix/share/p2lrt/examples/character.p2lrt
pose=(ParamAngleX 25)
export PKG_CONFIG_PATH=$pcdir

# Nothing installed may point back into the build or source tree: the tree must work wherever
# it is unpacked.
check relocatable bash -c "! grep -rIl -e '$build' -e '$root' '$stage'"
check soname bash -c "readelf -d '$libdir/libp2l.so' | grep -q 'SONAME.*libp2l.so.1\]'"
check tool_info "$prefix/bin/p2lrt" info "$example"
# The licences travel with the binaries: p2lrt's, and musl's for the math functions compiled in.
check notices bash -c "f=\$(find '$prefix/share/doc' -name copyright -path '*p2l*' -print -quit) && grep -q 'p2lrt' \"\$f\" \
  && grep -q 'Rich Felker' \"\$f\" && grep -q 'Sun Microsystems' \"\$f\" && grep -q 'Arm Limited' \"\$f\""

cc=${CC:-cc}
check pkgconfig_c bash -c "$cc -std=c99 -Wall -Wextra -Werror $(pkg-config --cflags p2l) '$here/consumer.c' \
  $(pkg-config --libs p2l) -o '$work/consumer_pc' && LD_LIBRARY_PATH='$libdir' '$work/consumer_pc' '$example' ${pose[*]} > '$work/out_pc.txt'"
check pkgconfig_static_c bash -c "$cc -std=c99 -Wall -Wextra -Werror $(pkg-config --cflags p2l-static) '$here/consumer.c' \
  $(pkg-config --libs p2l-static) -o '$work/consumer_static' && ! readelf -d '$work/consumer_static' | grep -q libp2l \
  && '$work/consumer_static' '$example' ${pose[*]} > '$work/out_static.txt'"
check pkgconfig_cubism_core bash -c "$cc -std=c99 -Wall -Wextra -Werror $(pkg-config --cflags p2l-cubism-core) \
  '$here/csm_consumer.c' $(pkg-config --libs p2l-cubism-core) -o '$work/csm_consumer' \
  && LD_LIBRARY_PATH='$libdir' '$work/csm_consumer'"
check find_package bash -c "cmake -S '$here/cxx' -B '$work/cmake' -DCMAKE_PREFIX_PATH='$prefix' -DCMAKE_BUILD_TYPE=Release \
  && cmake --build '$work/cmake' -j 2"
check cmake_cxx bash -c "'$work/cmake/p2l_consumer_cxx' '$example' ${pose[*]} > '$work/out_cxx.txt'"
check cmake_c bash -c "LD_LIBRARY_PATH='$libdir' '$work/cmake/p2l_consumer_c_cmake' '$example' ${pose[*]} > '$work/out_c_cmake.txt'"
# libp2l.so carries the Cubism import's C API (p2l_cubism.h, installed beside p2l.h): the C99
# import host (tests/capi) built against the installed tree alone imports the npm Haru as the
# installed `p2lrt import` does (77 from run_import_cubism.sh: Haru not fetched, compiled only).
check cubism_exports bash -c "test -f '$prefix/include/p2l/p2l_cubism.h' \
  && nm -D --defined-only '$libdir/libp2l.so' | grep -q ' T p2l_rig_import_cubism$'"
if [[ " $(pkg-config --libs p2l) " == *" -lp2l "* ]]; then
  check pkgconfig_cubism_import bash -c "$cc -std=c99 -Wall -Wextra -Werror $(pkg-config --cflags p2l) \
    '$root/tests/capi/import_cubism.c' $(pkg-config --libs p2l) -o '$work/import_cubism_pc' \
    && { LD_LIBRARY_PATH='$libdir' bash '$root/tests/capi/run_import_cubism.sh' '$prefix/bin/p2lrt' \
         '$work/import_cubism_pc' '$work/import_cubism' || [ \$? -eq 77 ]; }"
else
  echo "package: skip pkgconfig_cubism_import (pkg-config p2l is libp2l.a here: BUILD_SHARED_LIBS=OFF)"
fi
# The same numbers from every host: the C API over libp2l.so and libp2l.a, and the C++ API.
check same_output bash -c "test -s '$work/out_pc.txt' && cmp '$work/out_pc.txt' '$work/out_static.txt' \
  && cmp '$work/out_pc.txt' '$work/out_cxx.txt' && cmp '$work/out_pc.txt' '$work/out_c_cmake.txt'"
# An unknown component is refused with a message that names it.
check unknown_component bash -c "mkdir -p '$work/bad' && printf 'cmake_minimum_required(VERSION 3.24)\nproject(x C)\nfind_package(p2l CONFIG REQUIRED COMPONENTS vulkan)\n' > '$work/bad/CMakeLists.txt' \
  && ! cmake -S '$work/bad' -B '$work/bad/build' -DCMAKE_PREFIX_PATH='$prefix' > '$work/bad/log' 2>&1 && grep -q 'no component \"vulkan\"' '$work/bad/log'"

# The GPU renderer (a build with libepoxy): libp2l_gl.a with p2l_gl.h, through pkg-config p2l-gl
# and find_package(p2l COMPONENTS gl); the C example (examples/gl/window.c) builds against the
# installed tree alone and, under Xvfb, draws the installed example character into a PNG. The
# command then carries Dear ImGui for `p2lrt view`, whose notice must travel with it.
if [[ -f $pcdir/p2l-gl.pc ]]; then
  check gl_notices bash -c "grep -q 'Omar Cornut' \"\$(find '$prefix/share/doc' -name copyright -path '*p2l*' -print -quit)\""
  check pkgconfig_gl bash -c "$cc -std=c99 -Wall -Wextra -Werror $(pkg-config --cflags p2l-gl glfw3 stb) \
    '$root/examples/gl/window.c' $(pkg-config --libs p2l-gl glfw3 stb) -o '$work/gl_window' \
    && { ! command -v xvfb-run > /dev/null || { xvfb-run -a '$work/gl_window' '$example' --png '$work/gl_window.png' \
         && test -s '$work/gl_window.png'; }; }"
  check find_package_gl bash -c "mkdir -p '$work/gl' && printf 'cmake_minimum_required(VERSION 3.24)\nproject(x C CXX)\nfind_package(p2l CONFIG REQUIRED COMPONENTS gl)\nfind_package(PkgConfig REQUIRED)\npkg_check_modules(GLFW REQUIRED IMPORTED_TARGET glfw3 stb)\nadd_executable(w %s)\ntarget_link_libraries(w PRIVATE p2l::gl PkgConfig::GLFW)\n' '$root/examples/gl/window.c' > '$work/gl/CMakeLists.txt' \
    && cmake -S '$work/gl' -B '$work/gl/build' -DCMAKE_PREFIX_PATH='$prefix' && cmake --build '$work/gl/build'"
  # A host without pkg-config still finds the package; only the gl component is missing, and says why.
  check find_package_without_pkgconfig bash -c "cmake -S '$here/cxx' -B '$work/cmake_no_pc' -DCMAKE_PREFIX_PATH='$prefix' \
    -DPKG_CONFIG_EXECUTABLE=/nonexistent && mkdir -p '$work/gl_no_pc' \
    && printf 'cmake_minimum_required(VERSION 3.24)\nproject(x C)\nfind_package(p2l CONFIG REQUIRED COMPONENTS gl)\n' > '$work/gl_no_pc/CMakeLists.txt' \
    && ! cmake -S '$work/gl_no_pc' -B '$work/gl_no_pc/build' -DCMAKE_PREFIX_PATH='$prefix' -DPKG_CONFIG_EXECUTABLE=/nonexistent > '$work/gl_no_pc/log' 2>&1 \
    && grep -q 'p2l::gl needs libepoxy' '$work/gl_no_pc/log'"
else
  echo "package: skip the GPU renderer's checks (built without libepoxy: no p2l-gl.pc)"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
