#!/usr/bin/env bash
# Fuzzes one of p2lrt's ways in with libFuzzer, or (--smoke) every one briefly, as CI does.
#   ./fuzz.sh [--load|--moc3|--moc2|--mtn|--csm|--json|--capi|--audio] [SECONDS] [extra libFuzzer flags...]
#   ./fuzz.sh --smoke [SECONDS]        every target SECONDS (default 60) on its committed seeds
#   ./fuzz.sh --minimize TARGET [DIR]  merge the cache's corpus of TARGET into a smallest set, or
#                                      into DIR, adding only what DIR's files do not cover yet
#                                      (fuzz/seeds/capi: the committed seeds grow by a long run)
#   P2L_FUZZ_CLOCK=cpu ./fuzz.sh --TARGET SECONDS   SECONDS of the fuzzer's CPU time, not wall time
# Targets (fuzz/*.cpp; docs/RELIABILITY.md):
#   load  p2l::load / p2l::write, evaluation, animation and the software renderer (default)
#   moc3  the Cubism importer p2l::import_moc3, every moc3 version
#   moc2  the Cubism 2 .moc reader p2l::cubism2::read_moc, versions 6 to 11
#   mtn   the Cubism 2 .mtn motion reader p2l::cubism2::read_mtn
#   csm   the Cubism Core C API of include/Live2DCubismCore.h, on the moc3 corpus
#   json  the Cubism side files (model3/physics3/motion3/exp3/pose3/cdi3/userdata3)
#   capi  the C API of include/p2l/p2l.h as a sequence of calls
#   audio speech: audio files through libsndfile, and PCM pushes and updates (include/p2l/audio.hpp)
# A long run grows its corpus in the cache, outside the repository (the moc3 and json corpora
# start from the Cubism sample of the npm package, which may not be committed):
#   ${P2L_CACHE:-~/.cache/p2lrt}/fuzz/TARGET/corpus; it starts from fuzz/seeds/TARGET (small,
# made from p2lrt's own files only) and, for load, moc3 and json, generated or cached files.
# Builds build-fuzz/ with clang-14 (ASan + UBSan + LeakSanitizer + coverage). Exits non-zero
# when a run leaves a crash, leak, timeout or out-of-memory reproducer in fuzz/artifacts/TARGET/;
# reproduce one with build-fuzz/fuzz/p2l_TARGET_fuzzer fuzz/artifacts/TARGET/crash-...
set -euo pipefail

cd "$(dirname "$0")"
CACHE=${P2L_CACHE:-$HOME/.cache/p2lrt}
CC=${CC_FUZZ:-clang-14}
CXX=${CXX_FUZZ:-clang++-14}
BUILD=build-fuzz
VECTORS=../shared/vectors/original
TARGETS=(load moc3 moc2 mtn csm json capi audio)

binary() { [[ $1 == json ]] && echo "$BUILD/fuzz/p2l_cubism_json_fuzzer" || echo "$BUILD/fuzz/p2l_$1_fuzzer"; }

# Copies the committed seeds of [target] into [dir]. moc3 and csm have none committed (no
# .moc3 file is kept in the repository): their seeds are synthetic files made here, by
# p2l_fuzz_make_moc3, of every version, and three shaped as game exports are (keys that repeat
# or go down, glue to meshes that hide, the root in pixels).
copy_seeds() {
  local target=$1 dir=$2 seed version
  mkdir -p "$dir"
  if [[ $target == moc2 ]]; then
    "$BUILD/fuzz/p2l_fuzz_make_moc2" "$dir" > /dev/null
  elif [[ $target == mtn ]]; then
    "$BUILD/fuzz/p2l_fuzz_make_moc2" "$dir" --mtn > /dev/null
  elif [[ $target == moc3 || $target == csm ]]; then
    for seed in 1 2; do
      for version in 3 4 5 6; do
        "$BUILD/fuzz/p2l_fuzz_make_moc3" "$seed" "$dir/synthetic-v$version-$seed.moc3" --version "$version" > /dev/null
      done
    done
    "$BUILD/fuzz/p2l_fuzz_make_moc3" 1 "$dir/synthetic-v4-unsorted-keys.moc3" --version 4 --features default,unsorted-keys > /dev/null
    "$BUILD/fuzz/p2l_fuzz_make_moc3" 114 "$dir/synthetic-v5-glue-stale.moc3" --version 5 --features default,glue-stale > /dev/null
    "$BUILD/fuzz/p2l_fuzz_make_moc3" 3 "$dir/synthetic-v5-pixel-scale.moc3" --version 5 --features all,pixel-scale > /dev/null
  else
    cp "fuzz/seeds/$target"/* "$dir"/
  fi
}

build() {
  if [[ ! -f "$BUILD/build.ninja" ]]; then
    cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
      -DP2L_FUZZ=ON -DP2L_SANITIZE=ON -DP2L_TESTS=OFF -DP2L_BENCH=OFF > /dev/null
  fi
  # Only the fuzz targets: the rest of the tree need not build for fuzzing.
  cmake --build "$BUILD" --target p2l_load_fuzzer p2l_make_seeds p2l_moc3_fuzzer p2l_csm_fuzzer \
    p2l_fuzz_make_moc3 p2l_moc2_fuzzer p2l_fuzz_make_moc2 p2l_mtn_fuzzer p2l_cubism_json_fuzzer p2l_capi_fuzzer p2l_audio_fuzzer \
    -j "$(nproc)"
}

# Fills [dir] with the seeds of [target]: the committed ones, then what can be made or fetched.
fill_corpus() {
  local target=$1 dir=$2
  copy_seeds "$target" "$dir"
  case $target in
    load)
      if [[ -d "$VECTORS" ]]; then "$BUILD/fuzz/p2l_make_seeds" "$dir" "$VECTORS"; else "$BUILD/fuzz/p2l_make_seeds" "$dir"; fi ;;
    moc3|csm)
      local core
      if core=$(scripts/fetch_cubism_core.sh 2> /dev/null); then
        cp "$core"/package/characters/*/runtime/*.moc3 "$dir"/
      else
        echo "fuzz.sh: the Cubism Core package could not be fetched; seeding with synthetic files only" >&2
      fi
      for moc in "$CACHE"/models/official/*/*.moc3; do
        [[ -f $moc ]] && cp "$moc" "$dir/official-$(basename "$(dirname "$moc")").moc3"
      done
      for seed in 3 4 5 6 7 8; do
        for version in 3 4 5; do
          "$BUILD/fuzz/p2l_fuzz_make_moc3" "$seed" "$dir/synthetic-v$version-$seed.moc3" --version "$version" > /dev/null
        done
        "$BUILD/fuzz/p2l_fuzz_make_moc3" "$seed" "$dir/synthetic-v6-all-$seed.moc3" --version 6 --features all > /dev/null
      done ;;
    moc2)
      # The live2d-widget-model packages' .moc files (fetched from npm, never committed).
      local m package
      for m in chitose epsilon2_1 gf haru haruto hibiki hijiki izumi koharu miku ni-j nico nietzsche nipsilon \
        nito shizuku tororo tsumiki unitychan wanko z16; do
        if package=$(scripts/npm_fetch.sh "live2d-widget-model-$m" 1.0.5 package.json 2> /dev/null); then
          find "$package/package" -name '*.moc' -exec cp {} "$dir"/ \;
        fi
      done ;;
    mtn)
      # The widget packages' motions, renamed so that equal names do not overwrite each other.
      local f n=0
      if scripts/cubism2_models.sh > /dev/null 2>&1; then
        while IFS= read -r f; do cp "$f" "$dir/npm-$((n++))-$(basename "$f")"; done \
          < <(find "$CACHE"/live2d-widget-model-*/package -name '*.mtn' | sort)
      fi ;;
    json)
      # The sample model's side files, each behind the byte that names its kind.
      local core f kind
      if core=$(scripts/fetch_cubism_core.sh 2> /dev/null); then
        while IFS= read -r -d '' f; do
          case $f in
            *.model3.json) kind=m ;; *.physics3.json) kind=p ;; *.motion3.json) kind=o ;;
            *.exp3.json) kind=e ;; *.pose3.json) kind=s ;; *.cdi3.json) kind=c ;; *.userdata3.json) kind=u ;;
            *) continue ;;
          esac
          { printf '%s' "$kind"; cat "$f"; } > "$dir/sample-$(basename "$f")"
        done < <(find "$core/package/characters" -name '*.json' -print0)
      fi ;;
  esac
}

# Runs [target] for [seconds] on [corpus]; prints one summary line; non-zero on a finding.
run_target() {
  local target=$1 seconds=$2 corpus=$3
  shift 3
  local artifacts=fuzz/artifacts/$target dict=() before log status
  mkdir -p "$artifacts"
  [[ $target == load ]] && dict=(-dict=fuzz/p2lrt.dict)
  before=$(ls -1 "$artifacts" | sort)
  log=$(mktemp)
  # Sanitizer reports stop the run (libFuzzer saves the input that caused them).
  # P2L_FUZZ_CLOCK=cpu: SECONDS is the fuzzer's own CPU time (user + system), not the wall
  # clock, so that a run on a busy machine still gets its hour; it is stopped with SIGINT
  # (libFuzzer 14 then prints its figures and exits 72, which counts as a clean end here).
  # libFuzzer's -timeout is wall time: on a machine busy with other work an input that takes
  # half a second can wait 30 for a core, so a CPU-clock run allows 300 (P2L_FUZZ_TIMEOUT).
  local limit=$seconds clock=${P2L_FUZZ_CLOCK:-wall} timeout=${P2L_FUZZ_TIMEOUT:-30}
  [[ $clock == cpu ]] && limit=$((seconds * 20)) timeout=${P2L_FUZZ_TIMEOUT:-300}
  set +e
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$(binary "$target")" "$corpus" -max_total_time="$limit" -max_len=1048576 "${dict[@]}" \
    -artifact_prefix="$artifacts/" -print_final_stats=1 -rss_limit_mb=2048 -timeout="$timeout" \
    "$@" > "$log" 2>&1 &
  local pid=$! cpu=0 stopped=0
  if [[ $clock == cpu ]]; then
    local ticks
    ticks=$(getconf CLK_TCK)
    while kill -0 "$pid" 2> /dev/null; do
      # Fields 14 and 15 of /proc/PID/stat: user and system time in clock ticks.
      cpu=$(awk -v t="$ticks" '{ sub(/^.*\) /, ""); print int(($12 + $13) / t) }' "/proc/$pid/stat" 2> /dev/null || echo "$cpu")
      if [[ $cpu -ge $seconds ]]; then kill -INT "$pid"; stopped=1; break; fi
      sleep 5
    done
  fi
  wait "$pid"
  status=$?
  set -e
  [[ $stopped == 1 && $status == 72 ]] && status=0
  local new crashes execs rate cov peak
  # slow-unit-* files are libFuzzer's notes of inputs that took over 10 s of wall time, not
  # findings (on a busy machine they are mostly waiting): left in place, not counted.
  new=$(ls -1 "$artifacts" | sort | comm -13 <(printf '%s\n' "$before" | grep .) - | grep -v '^slow-unit-' || true)
  crashes=$(printf '%s' "$new" | grep -c . || true)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  peak=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2 || true)
  local used=""
  [[ $clock == cpu ]] && used=", ${cpu}s CPU"
  echo "fuzz.sh: $target ${seconds}s ($clock clock$used), execs ${execs:-?} (${rate:-?}/s), coverage ${cov:-?} edges, corpus $(find "$corpus" -type f | wc -l) files, peak RSS ${peak:-?} MB, findings ${crashes}, libFuzzer exit ${status}"
  if [[ $crashes -gt 0 || $status -ne 0 ]]; then
    grep -E -A30 '^==[0-9]+==ERROR|runtime error|\*\*\* p2l_|^SUMMARY' "$log" | head -n 60 >&2 || tail -n 40 "$log" >&2
    printf 'fuzz.sh: new artifact: %s\n' $(printf '%s\n' "$new" | sed "s|^|$artifacts/|") >&2
    cp "$log" "$artifacts/last-$target.log"
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

case ${1:-} in
  --smoke)
    seconds=${2:-60}
    build
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # Two at a time (CI has two cores); each on a scratch copy of its committed seeds.
    failed=0 pids=() names=()
    for target in "${TARGETS[@]}"; do
      copy_seeds "$target" "$work/$target"
      run_target "$target" "$seconds" "$work/$target" > "$work/$target.out" 2>&1 &
      pids+=($!) names+=("$target")
      if [[ ${#pids[@]} -ge $(nproc) ]]; then
        wait "${pids[0]}" || failed=1
        cat "$work/${names[0]}.out"
        pids=("${pids[@]:1}") names=("${names[@]:1}")
      fi
    done
    for i in "${!pids[@]}"; do
      wait "${pids[$i]}" || failed=1
      cat "$work/${names[$i]}.out"
    done
    exit "$failed" ;;
  --minimize)
    target=${2:?usage: $0 --minimize TARGET [DIR]}
    build
    corpus=$CACHE/fuzz/$target/corpus
    merged=${3:-$(mktemp -d)}
    mkdir -p "$merged"
    had=$(find "$merged" -type f | wc -l)
    # libFuzzer's merge keeps what is in the first directory and adds the fewest inputs of the
    # others (greedy set cover) that reach the edges it does not reach yet; edges, not hit
    # counts, so that a committed seed set stays small (capi: 3,005 files give 122 more).
    "$(binary "$target")" -set_cover_merge=1 -use_counters=0 -rss_limit_mb=2048 -timeout=300 "$merged" "$corpus" > /dev/null 2>&1
    echo "fuzz.sh: $target corpus of $(find "$corpus" -type f | wc -l) files minimises to $(find "$merged" -type f | wc -l) in $merged ($had there before)"
    exit 0 ;;
esac

target=load
if [[ ${1:-} == --* ]]; then
  target=${1#--}
  shift
  if [[ ! " ${TARGETS[*]} " == *" $target "* ]]; then
    echo "usage: $0 [--load|--moc3|--moc2|--mtn|--csm|--json|--capi|--audio] [SECONDS] [libFuzzer flags...] | --smoke [SECONDS]" >&2
    exit 2
  fi
fi
seconds=${1:-60}
shift || true
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 [--load|--moc3|--moc2|--mtn|--csm|--json|--capi|--audio] [SECONDS] [libFuzzer flags...] | --smoke [SECONDS]" >&2
  exit 2
fi
build
corpus=$CACHE/fuzz/$target/corpus
fill_corpus "$target" "$corpus"
run_target "$target" "$seconds" "$corpus" "$@"
