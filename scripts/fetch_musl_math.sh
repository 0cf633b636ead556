#!/usr/bin/env bash
# Fetches the musl C library's math functions that p2lrt's evaluation uses (their C sources)
# into a cache OUTSIDE the repository and prints the folder; the build compiles them under
# p2lrt's own names into every target, native and WebAssembly alike (cmake/musl_math.cmake,
# src/base/libm.hpp). Why: a runtime that promises the same bits everywhere cannot call the
# host's libm, whose sinf or powf differ between C libraries and between glibc releases; and the
# official Cubism Core is built with emscripten, whose C library is musl, so under Cubism's
# rules musl's sinf, cosf and atan2f are the Core's own.
#
# Debian's emscripten package carries musl 1.2.2's sources; only its .deb is downloaded
# (apt-get download, 109 MB, not installed) and the files below are unpacked and checked by
# sha256. Licences: musl is MIT (its COPYRIGHT travels with the files); the trigonometry,
# atan, acos and cbrt come from FreeBSD's msun (Sun Microsystems' notice: "Permission to use,
# copy, modify, and distribute this software is freely granted, provided that this notice is
# preserved", kept in each file); exp, pow and powf are Arm's optimized-routines (MIT, SPDX
# line in each file). Also musl's SHA-256 (crypt_sha256.c, public domain), for the Cubism
# import's source hash (src/import/cubism/sha256.cpp). Nothing enters the repository.
#   scripts/fetch_musl_math.sh   -> e.g. /root/.cache/p2lrt/musl-libm-emscripten-3.1.6
set -euo pipefail
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
DEST="$CACHE/musl-libm-emscripten-3.1.6"
VERSION="3.1.6~dfsg-5"
SUMS="26f3ae83a89a52640f3979df81eb50a431e75c83d5c18f1487325a39ee84fb73  crypt_sha256.c
2583af55446f07da3225186c368a7aae5a0a0a0edab268967f4122b92e222b87  sinf.c
33cf828e8e733da2b72c723b9ff20057b9a4f10df72a3923dadcb626c23d222c  cosf.c
de7026bcd159b7d06a8cbcc162df722014f3b1a3cc4183116b6b7829eef1d118  __sindf.c
0ba872cc7e26b93bb9784d19fee84b263e1fa3543a76ec3c0893aea47453a2a7  __cosdf.c
b73a0219ba4a34e39ed904b5008126ff1b12dfa1a4a380941363c8db5088d756  __rem_pio2f.c
b97f19fb5951c83a0c10506fab35646caefde13bd03100ad2af55ef00af0b9fb  __rem_pio2_large.c
31a61a0a4c7b00db625b708525f24673a83df868a3e363042c9cc9dcf0aaeec8  atan2f.c
e0533d7b72aabce311a758a1f94fd15e5d4067be73b716cb1f425df5bc9039d6  atanf.c
74069b3a380cf954361e0243b38de2094ae680e2ecfb3e50af61ab576f13babf  powf.c
136f491b0f904842b926784134d0adba7a9103d2ce8a226276dd6e9260457398  powf_data.c
5d632276e5f21cdcd47f35c53cf792640ad347aabce1e1bd5774fad5371fc8d8  powf_data.h
3da38c471cc5eb8dc1c2e283c6c00a36b1d353ba5c8ca1e82d95180948e26bd5  exp2f_data.c
fb52b690bef63df2e8996f2d2b3fd77f9ea08795863e73afdc882df04460e850  exp2f_data.h
69414934bb798f5261e2d80f4b878e2bbe4dfa6025adbd06586195ba5554b04a  __math_oflowf.c
2371ed08fc95e48833a67122b5ef538ce7fc87f40fc7a4df451d71e1787d1d42  __math_uflowf.c
d2af8360271109d77dfab3c538eb158e34633454707dea4efa9f2f1e7e2bd0c7  __math_invalidf.c
194c95f6cd238ffa14e78087b9acffca3a064f2fe46320d67b090bb7a559b1ca  __math_divzerof.c
38da031cfed0ba90e68a14dfbc57404ebcb827c9ac34648161c7d11cb212c9ba  __math_xflowf.c
24e53a9d85f196f66919cc19247be5480bb607ef38844b1a24bc47c4fe4974ef  sin.c
3a74e054057d636fa494bdd76a53a40db5cee618264f6ab31cb0538ba63c6bda  cos.c
f3a37ef9bcfb8a2f9c809d8c7f1aa2c17c8c3319ad7fb2fe7c0a6284ea8859d2  __sin.c
3f0f774aab60a18d7ef935ffdf121bcda17cbadabff14096c614da22e31a42c1  __cos.c
938329e0939cd83ee2185a52154b41242f618d4a6df1b08395f344da33d4f1e6  __rem_pio2.c
a5f94b09b10b4e72bb15d94ae403c9dfd27d7ad881ecd729000004429acfca63  atan2.c
1cffb67a65456ae0bc5f07a94df04a4f18ebc1ac0bffe3219250c4e0555ee01d  atan.c
cc6f9017e7e2e0ef01516fa12c68aa63865e6415c90dc039dfce9abffae09a4c  acos.c
af442893d4048c0eb485b93b5628792fb796d45ffc0f88c682041366c7da611d  cbrt.c
7db56f21ca9b8915d36dd5099b707aafeb6a736eae798e19b76b074764e75f34  exp.c
c55dff64e369fe816cd8ce367064989bb119f85783599680d1a329031c660689  exp_data.c
df77fca837edd02b260dd09a2914202775909ae67a059218ae38cfab104e6d16  exp_data.h
b06f0a08d74fcff8cced7afa2c0e47e301e3e8a19c0de5becdec28cd7b014027  pow.c
2052ec913f9b4a2170a98a6fcbcd7694f5dec220036b00c36106a2b4b65a4c55  pow_data.c
5014345a7958adcf6ff835b5e96afa99dd5a98c40dfe968442288e002b8e01a3  pow_data.h
a5532b3328310bb3ac9f7cd9074fd26c5fe7288c719c907c5c03a615442f9e7e  hypot.c
74669de53bc4b250183cfa262a8a03ee8106f33a83e3aca6b217bafc7363b83c  __math_oflow.c
9a841197bbe9ade9bbd684f8bc65424a97c481d37dabb9fa1790bafe7959034a  __math_uflow.c
b56440ed59fa1e1aaaf6bf8b672c8bb71eaf844457906f7773da1d67d7ef013b  __math_invalid.c
84aa910bdc5e7ccfed42098c37c44e278aa942d46e5a51d5ee8273336c79e719  __math_divzero.c
5feafe10347636884a071a5096f912d5ca4a0939844804ca09b88241405648ad  __math_xflow.c"

if [[ -f "$DEST/sinf.c" ]] && (cd "$DEST" && echo "$SUMS" | sha256sum --check --status 2> /dev/null); then
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
crypt=./usr/share/emscripten/system/lib/libc/musl/src/crypt/crypt_sha256.c
while read -r _ file; do [[ $file == crypt_sha256.c ]] || members+=("$src/$file"); done <<< "$SUMS"
dpkg-deb --fsys-tarfile "$work"/emscripten_*.deb | tar -x -C "$work" "${members[@]}" "$crypt" \
  ./usr/share/emscripten/system/lib/libc/musl/COPYRIGHT
mkdir -p "$work/out"
cp "$work/$src"/*.[ch] "$work/$crypt" "$work/out/"
cp "$work/usr/share/emscripten/system/lib/libc/musl/COPYRIGHT" "$work/out/"
if ! (cd "$work/out" && echo "$SUMS" | sha256sum --check --status); then
  echo "fetch_musl_math: the unpacked files do not have the expected sha256" >&2
  exit 1
fi
mkdir -p "$CACHE"
rm -rf "$DEST" && mv "$work/out" "$DEST"
echo "$DEST"
