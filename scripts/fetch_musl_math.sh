#!/usr/bin/env bash
# Fetches musl's single-precision sine, cosine and arc tangent (the C sources) into a cache
# OUTSIDE the repository and prints the folder; the build compiles them under p2lrt's own
# names (cmake/musl_math.cmake). Why: the official Cubism Core is built with emscripten, whose
# C library is musl, and its rotation deformers call sinf, cosf and atan2f. musl's results
# differ from glibc's in the last bit for some arguments, and a chain of rotations carries
# such a bit into visible differences (docs/RUNTIME.md, "Cubism's rules"), so the evaluation
# under Cubism's rules uses musl's functions on every platform.
#
# Debian's emscripten package carries musl's sources; only its .deb is downloaded (apt-get
# download, 109 MB, not installed) and the eight files are unpacked and checked by sha256.
# MIT (musl) and the FreeBSD msun notices travel with the files; nothing enters the repository.
#   scripts/fetch_musl_math.sh   -> e.g. /root/.cache/p2lrt/musl-math-emscripten-3.1.6
set -euo pipefail
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
DEST="$CACHE/musl-math-emscripten-3.1.6"
VERSION="3.1.6~dfsg-5"
SUMS="2583af55446f07da3225186c368a7aae5a0a0a0edab268967f4122b92e222b87  sinf.c
33cf828e8e733da2b72c723b9ff20057b9a4f10df72a3923dadcb626c23d222c  cosf.c
31a61a0a4c7b00db625b708525f24673a83df868a3e363042c9cc9dcf0aaeec8  atan2f.c
e0533d7b72aabce311a758a1f94fd15e5d4067be73b716cb1f425df5bc9039d6  atanf.c
de7026bcd159b7d06a8cbcc162df722014f3b1a3cc4183116b6b7829eef1d118  __sindf.c
0ba872cc7e26b93bb9784d19fee84b263e1fa3543a76ec3c0893aea47453a2a7  __cosdf.c
b73a0219ba4a34e39ed904b5008126ff1b12dfa1a4a380941363c8db5088d756  __rem_pio2f.c
b97f19fb5951c83a0c10506fab35646caefde13bd03100ad2af55ef00af0b9fb  __rem_pio2_large.c"

if [[ -f "$DEST/sinf.c" ]] && (cd "$DEST" && echo "$SUMS" | sha256sum --check --status); then
  echo "$DEST"
  exit 0
fi
if ! command -v apt-get > /dev/null || ! command -v dpkg-deb > /dev/null; then
  echo "fetch_musl_math: apt-get and dpkg-deb are needed (Debian)" >&2
  exit 3
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
download() { (cd "$work" && apt-get download "emscripten=$VERSION" > "$work/apt.log" 2>&1); }
# A fresh machine may not have read the package lists yet: read them once and try again.
update() {
  local sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq > /dev/null 2>&1
}
if ! download && ! { update && download; }; then
  echo "fetch_musl_math: apt-get could not download emscripten $VERSION:" >&2
  tail -3 "$work/apt.log" >&2
  exit 3
fi
src=./usr/share/emscripten/system/lib/libc/musl/src/math
members=()
while read -r _ file; do members+=("$src/$file"); done <<< "$SUMS"
dpkg-deb --fsys-tarfile "$work"/emscripten_*.deb | tar -x -C "$work" "${members[@]}" \
  ./usr/share/emscripten/system/lib/libc/musl/COPYRIGHT
mkdir -p "$work/out"
cp "$work/$src"/*.c "$work/out/"
cp "$work/usr/share/emscripten/system/lib/libc/musl/COPYRIGHT" "$work/out/"
if ! (cd "$work/out" && echo "$SUMS" | sha256sum --check --status); then
  echo "fetch_musl_math: the unpacked files do not have the expected sha256" >&2
  exit 1
fi
mkdir -p "$CACHE"
rm -rf "$DEST" && mv "$work/out" "$DEST"
echo "$DEST"
