#!/usr/bin/env bash
# ThreadSanitizer over the tests that share a model between threads: builds build-tsan/ with
# clang-14 (g++ when clang-14 is missing) and -fsanitize=thread, only the three test
# executables that need it, and runs
#   p2l_thread_stress_tests                     the whole stress test (tests/thread_stress_test.cpp)
#   p2l_eval_threads_tests                      p2l_tests' EvalThreads.* (tests/eval_threads_test.cpp,
#                                               built alone): instances of one Model on 4 threads
#   p2l_render_tests --gtest_filter='RenderPages.SharedPagesDrawTheSame:RenderBands.*'
#                                               renderers sharing one TexturePages on two threads;
#                                               frames drawn in bands on 2 to 7 threads
#   p2l_csm_threads_tests                       the Cubism Core API: models of one csmMoc on 8
#                                               threads (tests/csm/csm_threads_test.cpp)
# (every test that starts a std::thread: grep -rn "std::thread" tests/). Exits non-zero on any
# ThreadSanitizer report or failed test, and ends with one summary line.
#   scripts/tsan.sh [-jN]      (default -j1)
#   P2L_TSAN_FULL=1 scripts/tsan.sh   the same tests from the whole p2l_tests (every test file
#                                     builds under clang then)
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=build-tsan
JOBS=${1:--j1}
if command -v clang++-14 > /dev/null && command -v clang-14 > /dev/null; then
  CC=clang-14 CXX=clang++-14
else
  CC=gcc CXX=g++
fi
GENERATOR=()
command -v ninja > /dev/null && GENERATOR=(-G Ninja)
# musl's math functions: CMake finds them in the cache (P2L_MUSL_MATH's default) and runs
# scripts/fetch_musl_math.sh itself when they are not there.

TSAN_FLAGS="-fsanitize=thread -fno-omit-frame-pointer -g"
# Warnings are the ASan build's job (scripts/test.sh builds with -Werror under g++); this build
# is only for ThreadSanitizer, so a clang-only warning must not stop it. P2L_BENCH off: the
# benchmarks are not needed. The other test folders are configured (P2L_TESTS) but only the
# targets named below are built.
cmake -S . -B "$BUILD" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$TSAN_FLAGS" -DCMAKE_CXX_FLAGS="$TSAN_FLAGS" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread \
  -DP2L_SANITIZE=OFF -DP2L_BENCH=OFF -DP2L_FUZZ=OFF -DP2L_TESTS=ON -DP2L_WERROR=OFF > /dev/null
if [[ "${P2L_TSAN_FULL:-0}" == 1 ]]; then
  EVAL_THREADS=(p2l_tests "$BUILD/tests/p2l_tests" --gtest_filter='EvalThreads.*')
else
  EVAL_THREADS=(p2l_eval_threads_tests "$BUILD/tests/p2l_eval_threads_tests")
fi
cmake --build "$BUILD" "$JOBS" --target "${EVAL_THREADS[0]}" p2l_thread_stress_tests p2l_render_tests \
  p2l_csm_threads_tests

LOG="$BUILD/tsan-logs"
rm -rf "$LOG"
mkdir -p "$LOG"
# halt_on_error: the first report ends the run with exitcode 66; log_path keeps every report in
# a file per process, so none can hide in the test output.
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:exitcode=66:log_path=$PWD/$LOG/tsan"

failed=0
tests_run=0
run() {  # run NAME BINARY [ARGS...]
  local name=$1 out="$LOG/$1.out"
  shift
  local rc=0
  "$@" > "$out" 2>&1 || rc=$?
  local n
  n=$(sed -n 's/^\[==========\] \([0-9]*\) tests\? from .* ran\..*/\1/p' "$out" | tail -1)
  tests_run=$((tests_run + ${n:-0}))
  if [[ $rc -ne 0 ]]; then
    failed=1
    echo "tsan.sh: $name exited with $rc" >&2
    tail -n 30 "$out" >&2
  else
    echo "tsan.sh: $name: ${n:-0} tests passed"
  fi
}
run stress "$BUILD/tests/p2l_thread_stress_tests"
run eval_threads "${EVAL_THREADS[@]:1}"
run render_threads "$BUILD/tests/render/p2l_render_tests" --gtest_filter='RenderPages.SharedPagesDrawTheSame:RenderBands.*'
run csm_threads "$BUILD/tests/csm/p2l_csm_threads_tests"

reports=0
for f in "$LOG"/tsan.*; do
  [[ -e "$f" ]] || continue
  n=$(grep -c "^WARNING: ThreadSanitizer:" "$f" || true)
  reports=$((reports + n))
  [[ $n -gt 0 ]] && { echo "tsan.sh: reports in $f:" >&2; head -n 80 "$f" >&2; }
done
# A report that did not reach a log file (TSan's own fatal errors) still shows in the output.
n=$(cat "$LOG"/*.out | grep -c "ThreadSanitizer" || true)
[[ $reports -eq 0 && $n -gt 0 ]] && reports=$n

echo "tsan.sh: $tests_run tests run, $reports ThreadSanitizer reports$([[ $failed -ne 0 ]] && echo ", FAILED" || true)"
[[ $failed -eq 0 && $reports -eq 0 ]]
