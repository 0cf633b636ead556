#!/usr/bin/env bash
# Tests the C# and Unity bindings against a built libp2l:
#
#   bindings/csharp/test.sh LIBDIR [BUILDDIR]
#
# LIBDIR holds libp2l.so or libp2l.so.1 (a build directory, or an installed prefix's lib
# directory such as stage/usr/lib/x86_64-linux-gnu). BUILDDIR receives the compiled assemblies
# and logs (default: a temporary directory, removed afterwards); nothing is written into the
# source tree.
#
# Steps: generate.py --check (P2lNative.g.cs against include/p2l/p2l.h and p2l_cubism.h); mcs
# builds P2lRuntime.dll (P2lNative.g.cs + P2l.cs) and Smoke.exe, warnings as errors; mono runs the
# smoke test on the example character, with the counts `p2lrt info` prints (p2lrt is looked for in
# $P2LRT, next to LIBDIR, in LIBDIR/../bin or LIBDIR/../../bin, then on PATH), and on the Cubism
# sample Haru imported through the bindings against `p2lrt import`; the Unity component is
# compiled against the stub of the Unity API, and driven under mono with it (the example, and Haru
# from a StreamingAssets folder).
#
# Haru comes from npm into a cache outside the repository (scripts/fetch_cubism_core.sh; or
# P2L_CUBISM_CORE=FOLDER of an unpacked live2dcubismcore 1.0.2); its licence forbids shipping it,
# so nothing of it is written into the source tree. Without it the Haru checks are skipped, saying so.
#
# Needs: mono-mcs and mono-runtime (Debian), python3. Exit code 0 when everything passed.
set -euo pipefail

usage() { echo "usage: $0 LIBDIR [BUILDDIR]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
unity="$root/bindings/unity"
started=$(date +%s.%N)

libdir=$(cd "$1" 2>/dev/null && pwd -P) || { echo "test.sh: $1 is not a directory" >&2; exit 2; }
if [ -e "$libdir/libp2l.so" ]; then
  library=$(readlink -f "$libdir/libp2l.so")
elif [ -e "$libdir/libp2l.so.1" ]; then
  library=$(readlink -f "$libdir/libp2l.so.1")
else
  echo "test.sh: no libp2l.so or libp2l.so.1 in $libdir" >&2
  exit 2
fi

if [ $# -eq 2 ]; then
  mkdir -p "$2"
  build=$(cd "$2" && pwd)
else
  build=$(mktemp -d "${TMPDIR:-/tmp}/p2l-csharp.XXXXXX")
  trap 'rm -rf "$build"' EXIT
fi
case "$build/" in "$root/bindings/"*) echo "test.sh: BUILDDIR must not be inside bindings/" >&2; exit 2 ;; esac

python=${PYTHON:-}
if [ -z "$python" ]; then
  if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python=python3; fi
fi
for tool in mcs mono; do
  command -v "$tool" >/dev/null || { echo "test.sh: $tool not found (Debian: apt-get install mono-mcs mono-runtime)" >&2; exit 2; }
done

p2lrt=${P2LRT:-}
if [ -z "$p2lrt" ]; then
  for candidate in "$libdir/p2lrt" "$libdir/../bin/p2lrt" "$libdir/../../bin/p2lrt"; do
    if [ -x "$candidate" ]; then p2lrt=$candidate; break; fi
  done
fi
[ -n "$p2lrt" ] || p2lrt=$(command -v p2lrt || true)
[ -n "$p2lrt" ] || { echo "test.sh: p2lrt not found next to $libdir nor on PATH; set P2LRT=/path/to/p2lrt" >&2; exit 2; }

step() { echo; echo "== $*"; }

# Haru, and what `p2lrt import` makes of it: the reference for the bindings' import.
haru_dir=${P2L_CUBISM_CORE:-}
[ -n "$haru_dir" ] || haru_dir=$("$root/scripts/fetch_cubism_core.sh" 2>/dev/null) || haru_dir=
haru_dir=${haru_dir:+$haru_dir/package/characters/haru_greeter_pro_jp/runtime}
haru_model=haru_greeter_t03.model3.json
cubism_args=()
if [ -n "$haru_dir" ] && [ -f "$haru_dir/$haru_model" ]; then
  step "p2lrt import $haru_model"
  mkdir -p "$build/cubism"
  if ! "$p2lrt" import "$haru_dir/$haru_model" -o "$build/cubism/haru.p2lrt" >"$build/cubism/import.log" 2>&1; then
    cat "$build/cubism/import.log" >&2
    echo "test.sh: p2lrt import failed on $haru_dir/$haru_model" >&2
    exit 1
  fi
  tail -n 1 "$build/cubism/import.log"
  cubism_args=(--cubism "$haru_dir/$haru_model" --cubism-p2lrt "$build/cubism/haru.p2lrt" --cubism-log "$build/cubism/import.log")
else
  echo "test.sh: no Haru (${haru_dir:-scripts/fetch_cubism_core.sh fetched nothing}); its checks are skipped" >&2
fi

step "generate.py --check"
"$python" "$here/generate.py" --check

# mono opens "libp2l.so" for DllImport("p2l"); a runtime-only directory has just libp2l.so.1.
mkdir -p "$build/lib"
ln -sf "$library" "$build/lib/libp2l.so"
export LD_LIBRARY_PATH="$build/lib:$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

mcs_flags=(-warnaserror+ -warn:4 -nologo -debug- -optimize+)

step "mcs: P2lRuntime.dll, Smoke.exe"
mcs "${mcs_flags[@]}" -target:library -out:"$build/P2lRuntime.dll" "$here/P2lNative.g.cs" "$here/P2l.cs"
mcs "${mcs_flags[@]}" -r:System.dll -r:System.Core.dll -r:"$build/P2lRuntime.dll" -out:"$build/Smoke.exe" "$here/Smoke.cs" "$here/SmokeImport.cs"

step "mono Smoke.exe (libp2l: $library, p2lrt: $p2lrt)"
"$p2lrt" info "$root/examples/character/character.p2lrt" >"$build/info.txt"
set +e
mono "$build/Smoke.exe" --rig "$root/examples/character/character.p2lrt" --info "$build/info.txt" \
  --golden "$root/examples/character/golden" --lib "$(dirname "$library")" ${cubism_args[@]+"${cubism_args[@]}"} \
  | tee "$build/smoke.log"
smoke=${PIPESTATUS[0]}
set -e
summary=$(tail -n 1 "$build/smoke.log")
if [ "$smoke" -ne 0 ] || ! [[ "$summary" =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
  echo "test.sh: the smoke test failed (exit $smoke: $summary)" >&2
  exit 1
fi

step "mcs: Unity component against the stub (also as for iOS)"
mcs "${mcs_flags[@]}" -target:library -out:"$build/UnityEngine.dll" "$unity/stub/UnityEngine.cs"
unity_sources=("$unity/P2lCharacter.cs" "$here/P2lNative.g.cs" "$here/P2l.cs")
mcs "${mcs_flags[@]}" -target:library -define:UNITY_5_3_OR_NEWER -r:"$build/UnityEngine.dll" \
  -out:"$build/P2lUnity.dll" "${unity_sources[@]}"
mcs "${mcs_flags[@]}" -target:library -define:UNITY_5_3_OR_NEWER -define:UNITY_IOS -r:"$build/UnityEngine.dll" \
  -out:"$build/P2lUnity-ios.dll" "${unity_sources[@]}"
echo "compiled P2lUnity.dll and P2lUnity-ios.dll"

step "mono StubDriver.exe (the component under the stub, not under Unity)"
mkdir -p "$build/driver"
mcs "${mcs_flags[@]}" -target:library -define:P2L_STUB_DRIVER -out:"$build/driver/UnityEngine.dll" "$unity/stub/UnityEngine.cs"
mcs "${mcs_flags[@]}" -define:UNITY_5_3_OR_NEWER -r:"$build/driver/UnityEngine.dll" -out:"$build/driver/StubDriver.exe" \
  "$unity/stub/StubDriver.cs" "${unity_sources[@]}"
set +e
mono "$build/driver/StubDriver.exe" "$root/examples/character/character.p2lrt" ${cubism_args[1]+"${cubism_args[1]}"} \
  | tee "$build/driver.log"
driver=${PIPESTATUS[0]}
set -e
summary=$(tail -n 1 "$build/driver.log")
if [ "$driver" -ne 0 ] || ! [[ "$summary" =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
  echo "test.sh: the Unity stub driver failed (exit $driver: $summary)" >&2
  exit 1
fi

echo
echo "test.sh: C# and Unity bindings OK ($(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s)"
