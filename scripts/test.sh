#!/usr/bin/env bash
# The whole test suite: set up, build everything with AddressSanitizer and
# UndefinedBehaviorSanitizer (optimised, so -O2 warnings are errors too), run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DP2L_SANITIZE=ON -DP2L_TESTS=ON -DP2L_BENCH=ON >/dev/null
cmake --build build-test
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-test --output-on-failure -j "$(nproc)"
