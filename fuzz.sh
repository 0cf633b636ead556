#!/usr/bin/env bash
# Fuzzes p2l::load / p2l::write (or, with --moc3, the Cubism importer p2l::import_moc3; with
# --csm, the Cubism Core C API of include/Live2DCubismCore.h, on the same corpus) for
# SECONDS (default 60) with libFuzzer, in one process.
#   ./fuzz.sh [--moc3|--csm] [SECONDS] [extra libFuzzer flags...]
# The moc3 corpus starts from the Cubism sample model of the npm package (see
# scripts/fetch_cubism_core.sh) and synthetic files; it lives in the cache, outside the
# repository, because files derived from the model may not be committed.
# Builds build-fuzz/ with clang-14 (ASan + UBSan + coverage), writes the seed corpus into
# fuzz/corpus/ (the vectors from ../shared/vectors/original and their re-writes), runs
# p2l_load_fuzzer and exits non-zero when it leaves a crash, leak, timeout or OOM
# reproducer in fuzz/artifacts/. Reproduce one with:
#   build-fuzz/fuzz/p2l_load_fuzzer fuzz/artifacts/crash-...
set -euo pipefail

cd "$(dirname "$0")"
TARGET=load
if [[ "${1:-}" == "--moc3" || "${1:-}" == "--csm" ]]; then
  TARGET=${1#--}
  shift
fi
SECONDS_TO_RUN=${1:-60}
shift || true
if ! [[ "$SECONDS_TO_RUN" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 [SECONDS] [libFuzzer flags...]" >&2
  exit 2
fi

CC=${CC_FUZZ:-clang-14}
CXX=${CXX_FUZZ:-clang++-14}
BUILD=build-fuzz
VECTORS=../shared/vectors/original
CORPUS=fuzz/corpus
ARTIFACTS=fuzz/artifacts
GENERATOR=()
command -v ninja > /dev/null && GENERATOR=(-G Ninja)

if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
  cmake -S . -B "$BUILD" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
    -DP2L_FUZZ=ON -DP2L_SANITIZE=ON -DP2L_TESTS=OFF -DP2L_BENCH=OFF
fi
# Only the fuzz targets: the rest of the tree need not build for fuzzing.
cmake --build "$BUILD" --target p2l_load_fuzzer p2l_make_seeds p2l_moc3_fuzzer p2l_csm_fuzzer p2l_fuzz_make_moc3 -j 2

MAX_LEN=1048576
if [[ $TARGET == moc3 || $TARGET == csm ]]; then
  CORPUS=${P2L_CACHE:-$HOME/.cache/p2lrt}/fuzz-moc3-corpus
  DICT=()
  mkdir -p "$CORPUS" "$ARTIFACTS"
  if core=$(scripts/fetch_cubism_core.sh 2> /dev/null); then
    cp "$core"/package/characters/*/runtime/*.moc3 "$CORPUS"/
  else
    echo "fuzz.sh: the Cubism Core package could not be fetched; seeding with synthetic files only" >&2
  fi
  # The official samples, when a fidelity run cached them (never in the repository).
  for moc in "${P2L_CACHE:-$HOME/.cache/p2lrt}"/models/official/*/*.moc3; do
    [[ -f $moc ]] && cp "$moc" "$CORPUS/official-$(basename "$(dirname "$moc")").moc3"
  done
  for seed in 1 2 3 4 5 6 7 8; do
    for version in 3 4 5; do
      "$BUILD/fuzz/p2l_fuzz_make_moc3" "$seed" "$CORPUS/synthetic-v$version-$seed.moc3" --version "$version" > /dev/null
    done
    # Version 6 (Cubism 5.3): offscreens, their keyforms, masks and blend shapes, every blend mode.
    "$BUILD/fuzz/p2l_fuzz_make_moc3" "$seed" "$CORPUS/synthetic-v6-$seed.moc3" --version 6 \
      --features default,offscreens,offscreen-keyforms,offscreen-masks,offscreen-shapes,blend-modes > /dev/null
    "$BUILD/fuzz/p2l_fuzz_make_moc3" "$seed" "$CORPUS/synthetic-v6-all-$seed.moc3" --version 6 --features all > /dev/null
  done
else
  DICT=(-dict=fuzz/p2lrt.dict)
  mkdir -p "$CORPUS" "$ARTIFACTS"
  if [[ -d "$VECTORS" ]]; then
    "$BUILD/fuzz/p2l_make_seeds" "$CORPUS" "$VECTORS"
  else
    echo "fuzz.sh: $VECTORS not found; seeding with generated files only" >&2
    "$BUILD/fuzz/p2l_make_seeds" "$CORPUS"
  fi
fi

# Artifacts already there are from earlier runs; only new ones fail this run.
before=$(mktemp)
trap 'rm -f "$before" "${log:-}"' EXIT
ls -1 "$ARTIFACTS" | sort > "$before"
log=$(mktemp)

# Sanitizer reports stop the run (libFuzzer saves the input that caused them).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
set +e
"$BUILD/fuzz/p2l_${TARGET}_fuzzer" "$CORPUS" \
  -max_total_time="$SECONDS_TO_RUN" -max_len="$MAX_LEN" "${DICT[@]}" \
  -artifact_prefix="$ARTIFACTS/" -print_final_stats=1 -rss_limit_mb=2048 -timeout=30 \
  "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

new=$(ls -1 "$ARTIFACTS" | sort | comm -13 "$before" -)
crashes=$(printf '%s' "$new" | grep -c . || true)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2 || true)
corpus_size=$(find "$CORPUS" -type f | wc -l)
echo "fuzz.sh: p2l_${TARGET}_fuzzer ${SECONDS_TO_RUN}s, execs ${execs:-?} (${rate:-?}/s), coverage ${cov:-?} edges, corpus ${corpus_size} files, crashes ${crashes}, libFuzzer exit ${status}"
if [[ $crashes -gt 0 ]]; then
  printf 'fuzz.sh: new artifact: %s\n' $(printf '%s\n' "$new" | sed "s|^|$ARTIFACTS/|")
  exit 1
fi
exit "$status"
