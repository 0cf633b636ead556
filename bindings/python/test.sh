#!/usr/bin/env bash
# Builds and installs the Python package into a fresh-or-kept venv, then runs its pytest suite.
#   bindings/python/test.sh [BUILD_DIR]        (default: build-python at the repository root)
# BUILD_DIR gets venv/ (Debian's /usr/bin/python3 -m venv --system-site-packages: NumPy, pytest
# and setuptools come from Debian, no package index is used), cmake/ (the CMake build, kept
# between runs) and tools/p2l_make_moc3 (tests/cubism's synthetic moc3 generator, for the
# Cubism import test). Environment passed through: CMAKE_PREFIX_PATH (an installed p2l CMake
# package is used when found there), P2L_CMAKE_ARGS, P2L_BUILD_JOBS (default 2), P2LRT_TOOL (a
# p2lrt binary: also compare with `p2lrt render`), P2L_PYTHON (default /usr/bin/python3),
# PYTEST_ADDOPTS. Exits non-zero when the build or a test fails.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-python}
mkdir -p "$build"
build=$(cd "$build" && pwd)
python=${P2L_PYTHON:-/usr/bin/python3}
start=$SECONDS
step() { echo "== $* ($((SECONDS - start)) s)"; }

venv=$build/venv
if [[ ! -x $venv/bin/python ]]; then
  step "venv $venv"
  "$python" -m venv --system-site-packages "$venv"
fi

# The synthetic moc3 generator (three source files, no dependencies); the test skips without it.
if [[ -z ${P2L_MAKE_MOC3:-} && -f $root/tests/cubism/make_moc3.cpp ]]; then
  gen=$build/tools/p2l_make_moc3
  sources=("$root"/tests/cubism/{make_moc3,synth_model,moc3_writer}.cpp)
  stale=0
  [[ -x $gen ]] || stale=1
  for f in "${sources[@]}" "$root"/tests/cubism/{synth_model,moc3_writer}.hpp; do [[ $f -nt $gen ]] && stale=1; done
  if ((stale)); then
    step "building $gen"
    mkdir -p "$build/tools"
    if ! ${CXX:-c++} -std=c++20 -O1 -I"$root/tests/cubism" "${sources[@]}" -o "$gen"; then
      echo "test.sh: could not build p2l_make_moc3; the synthetic Cubism import test will be skipped" >&2
      rm -f "$gen"
    fi
  fi
  [[ -x $gen ]] && export P2L_MAKE_MOC3=$gen
fi

step "pip install --no-build-isolation $here"
export P2L_PYTHON_BUILD_DIR=${P2L_PYTHON_BUILD_DIR:-$build/cmake}
export P2L_BUILD_JOBS=${P2L_BUILD_JOBS:-2}
# --no-index: everything needed is in Debian's site-packages; never wait on an index.
"$venv/bin/python" -m pip install --no-build-isolation --no-index --force-reinstall --no-deps "$here"
# The run-time dependency, from Debian.
"$venv/bin/python" -c "import numpy" || { echo "test.sh: NumPy is missing (apt-get install python3-numpy)" >&2; exit 1; }

step "pytest"
# From the build folder, so that `import p2l` is the installed package, not bindings/python/p2l.
cd "$build"
status=0
P2L_SOURCE_DIR=$root "$venv/bin/python" -m pytest -rs -o cache_dir="$build/pytest_cache" "$here/tests" || status=$?
step "done (exit $status)"
exit $status
