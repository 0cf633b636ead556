#!/usr/bin/env bash
# Installs what p2lrt builds with, from Debian's packages. Safe to run again: it only
# calls apt when a package is missing. Needs root (or sudo).
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config zlib1g-dev libzstd-dev nlohmann-json3-dev libcli11-dev
          libgtest-dev libgmock-dev libbenchmark-dev libpng-dev)
# Speech and video (docs/AUDIO.md, docs/VIDEO.md): libsndfile reads audio files; FFmpeg's
# libraries encode MP4, WebM and GIF; espeak-ng speaks, sox converts and ffmpeg/ffprobe check
# what the tests and the demo make.
packages+=(libsndfile1-dev libavcodec-dev libavformat-dev libavfilter-dev libavutil-dev libswscale-dev
           libswresample-dev ffmpeg espeak-ng sox libsox-fmt-all)
# Packaging and the bindings (docs/PACKAGING.md): CPack's .deb (dpkg-shlibdeps, file), a clean
# Debian root to install it in (debootstrap), C# with mono, Python with pybind11 and NumPy.
[[ "${1:-}" == "--packaging" ]] && packages+=(dpkg-dev file debootstrap mono-mcs mono-runtime python3-dev python3-venv
                                             python3-pip python3-setuptools pybind11-dev python3-pybind11
                                             python3-numpy python3-pytest python3-opengl)
[[ "${1:-}" == "--fuzz" ]] && packages+=(clang-14 libclang-rt-14-dev)
# The WebAssembly build (scripts/wasm.sh): clang 19 with wasi-libc and libc++ for wasm32, and
# binaryen (wasm-opt).
[[ "${1:-}" == "--wasm" ]] && packages+=(clang-19 lld-19 wasi-libc libc++-19-dev-wasm32 libc++abi-19-dev-wasm32
                                         libclang-rt-19-dev-wasm32 llvm-19 binaryen)
# The browser tests (scripts/browser_test.sh): Chromium, headless, drawing WebGL2 through
# SwiftShader.
[[ "${1:-}" == "--browser" ]] && packages+=(chromium)
# Drawing on the GPU (src/gl/, p2lrt view): libepoxy loads OpenGL's functions, GLFW opens
# windows, Dear ImGui draws the viewer's panel, X11's XFixes (and XRandR, which GLFW's native
# header includes) lets a mascot's clicks pass through, a font with Japanese and Chinese glyphs
# shows cdi3 names beside DejaVu's Latin; Mesa's EGL and llvmpipe draw headless in the tests,
# Xvfb and xdotool drive the viewer as a user would, openbox stacks and decorates windows,
# xcompmgr composites a mascot over another window (x11-apps' xlogo) and xev (x11-utils) sees
# the clicks that pass through to it.
[[ "${1:-}" == "--gl" ]] && packages+=(libepoxy-dev libglfw3-dev libimgui-dev libx11-dev libxfixes-dev libxrandr-dev
                                       fonts-dejavu-core fonts-droid-fallback libegl-dev libgles-dev libegl-mesa0
                                       libgl1-mesa-dri xvfb xdotool openbox xcompmgr x11-apps x11-utils)
# node and npm run the official Cubism Core for the fidelity tests; a machine that has them
# already (from Debian or elsewhere) keeps its own.
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
