# Toolchain for the WebAssembly build: Debian's clang with wasi-libc and libc++ for wasm32
# (scripts/wasm.sh installs them). The module it makes is a WASI "reactor" with no imports
# at all, so node and browsers instantiate it with an empty import object.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(P2L_WASI_CLANG 19 CACHE STRING "Debian clang major version for the WebAssembly build")
set(CMAKE_C_COMPILER clang-${P2L_WASI_CLANG})
set(CMAKE_CXX_COMPILER clang++-${P2L_WASI_CLANG})
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(CMAKE_CXX_COMPILER_TARGET wasm32-wasi)
# clang-19's package has no llvm-ar; any LLVM archiver handles wasm objects.
find_program(CMAKE_AR NAMES llvm-ar-${P2L_WASI_CLANG} llvm-ar REQUIRED)
find_program(CMAKE_RANLIB NAMES llvm-ranlib-${P2L_WASI_CLANG} llvm-ranlib REQUIRED)
# Platform/Generic drops the suffix; the module is a .wasm file.
set(CMAKE_EXECUTABLE_SUFFIX_C ".wasm")
set(CMAKE_EXECUTABLE_SUFFIX_CXX ".wasm")
# wasm32-wasi has no C++ exception runtime: the library is built without exceptions.
set(CMAKE_CXX_FLAGS_INIT "-fno-exceptions")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
