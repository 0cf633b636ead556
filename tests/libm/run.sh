#!/usr/bin/env bash
# The same bits whatever the host's libm: runs the suites whose results are recorded outside
# p2lrt - the original runtime's vectors (bit for bit), the conformance suite, the Cubism
# fixtures against the official Core's dumps, the drop-in Core against them - with
# other_libm.so preloaded, a libm whose every transcendental result differs from glibc's in the
# last place. They must still pass: p2lrt computes those functions with its own copy of musl's
# (src/base/libm.hpp). First checks that the preload takes effect at all.
#   run.sh OTHER_LIBM PROBE P2L_TESTS CONFORMANCE_TESTS PIPELINE_TESTS CUBISM_COMPARE MAKE_MOC3 CSM_DUMP CSM_COMPARE WORK
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
other=$1 probe=$2 tests=$3 conformance=$4 pipeline=$5 compare=$6 make=$7 csm_dump=$8 csm_compare=$9 work=${10}

# Under AddressSanitizer the preloaded library comes before ASan's runtime in the link order,
# which ASan would refuse by default; nothing of ASan's is interposed by it.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
plain=$("$probe") || exit 1
swapped=$(LD_PRELOAD="$other" "$probe") || exit 1
if [[ "$plain" == "$swapped" ]]; then
  echo "libm: other_libm.so did not take effect (sinf(0.5f) = $plain both ways)" >&2
  exit 1
fi
echo "libm: sinf(0.5f) is $plain with the host's libm, $swapped with other_libm.so"

status=0
run() {
  local name=$1
  shift
  if LD_PRELOAD="$other" "$@" > "$work/$name.log" 2>&1; then
    echo "libm: $name passes under the other libm"
  else
    echo "libm: $name FAILS under the other libm ($work/$name.log):" >&2
    grep -E "FAILED|Failure|mismatch|differ" "$work/$name.log" | head -20 >&2
    status=1
  fi
}
mkdir -p "$work"
run vectors "$tests" --gtest_filter='*EvalVectors*:Vectors.*:CubismImport*:CubismPlayback*:CubismHiddenState*'
run conformance "$conformance" --gtest_also_run_disabled_tests
run pipeline "$pipeline"
run cubism_fixtures "$here/cubism/compare_fixtures.sh" "$compare" "$make"
run csm_fixtures "$here/csm/run_fixtures.sh" "$csm_dump" "$csm_compare" "$make" "$work/csm"
exit $status
