#!/usr/bin/env bash
# `p2lrt render` into videos (docs/VIDEO.md), checked from outside with FFmpeg's own tools:
# ffprobe counts the streams, the frames and the durations; ffmpeg decodes a frame, which is
# compared with the PNG that the frame-folder path writes for the same frame (drawn on one
# thread from the caller's instance: the video's frames come from worker threads' copies), by
# PSNR in images.py; a transparent WebM is decoded with libvpx (the native VP9 decoder drops
# alpha) and its alpha checked against the PNG's. Then GIF and PNG-sequence frame counts, and
# bad inputs. On the example character, and on Haru when scripts/fetch_cubism_core.sh has
# cached the Cubism Core package (skipped with a message otherwise).
#
#   run_video_test.sh P2LRT SOURCE_DIR WORK_DIR        exit 77: skipped (no FFmpeg tools or build)
set -u
p2lrt=$(realpath "$1") source=$(realpath "$2") work=$3
[ -x "$p2lrt" ] || { echo "no p2lrt at $1"; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
character=$source/examples/character/character.p2lrt
core=${P2L_CUBISM_CORE:-$HOME/.cache/p2lrt/live2dcubismcore-1.0.2}
haru=$core/package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json
fps=30
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
for tool in ffprobe ffmpeg espeak-ng python3; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed (scripts/setup.sh)"; exit 77; }
done
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
if "$p2lrt" render "$character" --seconds 0.1 -q -o probe.mp4 2>&1 | grep -q "built without FFmpeg"; then
  echo "skipped: this p2lrt was built without FFmpeg"
  exit 77
fi

espeak-ng -w speech.wav "Hello. I am the example character, and this video was drawn by p r t." || exit 1
# The audio's length from the WAV header, read here (not by p2lrt's decoder), and the frames
# the duration rule gives: ceil(seconds x fps).
read -r audio_seconds frames < <(python3 -c "
import math, wave
w = wave.open('speech.wav'); s = w.getnframes() / w.getframerate()
print(s, math.ceil(s * $fps - 1e-6))")
echo "speech.wav: $audio_seconds s -> $frames frames at $fps fps"

# ffprobe's view of [file]: one video stream with [frames] frames and one audio stream, both as
# long as the audio within a frame (the video: frames / fps; the container: the longer).
check_streams() {
  local file=$1 video_codec=$2 audio_codec=$3
  ffprobe -v error -count_frames -show_entries stream=codec_type,codec_name,nb_read_frames,duration,pix_fmt,color_space:stream_tags=DURATION,alpha_mode:format=duration \
    -of json "$file" > "$file.probe.json" || { fail "ffprobe cannot read $file"; return; }
  ffprobe -v error -count_frames -show_entries stream=codec_type,codec_name,nb_read_frames,duration:format=duration -of compact "$file" | sed 's/^/  /'
  python3 - "$file.probe.json" "$video_codec" "$audio_codec" "$frames" "$audio_seconds" "$fps" <<'PY' || fail "$file: streams, frames or durations"
import json, sys
probe, vcodec, acodec, frames, seconds, fps = sys.argv[1:]
frames, seconds, fps = int(frames), float(seconds), float(fps)
info = json.load(open(probe))
def duration(s):  # the stream's own, else Matroska's DURATION tag
    if 'duration' in s: return float(s['duration'])
    h, m, sec = s['tags']['DURATION'].split(':'); return int(h) * 3600 + int(m) * 60 + float(sec)
video = [s for s in info['streams'] if s['codec_type'] == 'video']
audio = [s for s in info['streams'] if s['codec_type'] == 'audio']
ok = len(video) == 1 and len(audio) == 1 and video[0]['codec_name'] == vcodec and audio[0]['codec_name'] == acodec
ok = ok and int(video[0]['nb_read_frames']) == frames
for name, d in (('video', duration(video[0])), ('audio', duration(audio[0])), ('container', float(info['format']['duration']))):
    print(f'  {name}: {d:.4f} s (audio file {seconds:.4f} s, difference {(d - seconds) * fps:+.2f} frames)')
    ok = ok and abs(d - seconds) <= 1 / fps + 1e-3
print(f'  streams: {len(video)} video ({video[0]["codec_name"] if video else "-"}, {video[0].get("nb_read_frames") if video else "-"} frames, '
      f'expected {frames}), {len(audio)} audio ({audio[0]["codec_name"] if audio else "-"})')
sys.exit(0 if ok else 1)
PY
}

# PSNR of frame [k] of [video] (decoded by the BT.709 limited range it is tagged with) against [png].
check_psnr() {
  local video=$1 k=$2 png=$3
  ffmpeg -v error -y -i "$video" -vf "select=eq(n\,$k),scale=in_color_matrix=bt709:in_range=tv:flags=accurate_rnd+full_chroma_int+bicubic" \
    -frames:v 1 -pix_fmt rgb24 "$video.$k.png" || { fail "cannot decode frame $k of $video"; return; }
  local db
  db=$(python3 "$here/images.py" psnr "$video.$k.png" "$png") || { fail "cannot compare $video.$k.png"; return; }
  echo "  PSNR of frame $k of $video against $png: $db dB"
  python3 -c "import sys; sys.exit(0 if float('$db') >= 40 else 1)" || fail "$video frame $k: $db dB < 40 dB"
}

# [name] [model] [clip] [size]: MP4 with the voice; the PNG frames of the same render; PSNR.
check_model() {
  local name=$1 model=$2 clip=$3 size=$4
  echo "== $name: MP4 with audio, $size"
  "$p2lrt" render "$model" --clip "$clip" --audio speech.wav --size "$size" --background white -o "$name.mp4" ||
    { fail "$name: render to MP4"; return; }
  check_streams "$name.mp4" h264 aac
  grep -q '"color_space": "bt709"' "$name.mp4.probe.json" || fail "$name.mp4 is not tagged BT.709"
  "$p2lrt" render "$model" --clip "$clip" --audio speech.wav --size "$size" --background white --threads 1 -q -o "$name-frames" ||
    { fail "$name: render to PNG frames"; return; }
  local count
  count=$(ls "$name-frames" | grep -c '^frame_.*\.png$')
  [ "$count" = "$frames" ] || fail "$name-frames holds $count frames, not $frames"
  for k in 0 $((frames / 2)) $((frames - 1)); do
    check_psnr "$name.mp4" "$k" "$(printf '%s-frames/frame_%05d.png' "$name" "$k")"
  done
}

check_model character "$character" idle 640x640

echo "== character: transparent WebM with audio"
if "$p2lrt" render "$character" --clip idle --audio speech.wav --size 320x320 -o character.webm; then
  check_streams character.webm vp9 opus
  grep -q '"alpha_mode": "1"' character.webm.probe.json || fail "character.webm has no alpha_mode tag"
  "$p2lrt" render "$character" --clip idle --audio speech.wav --size 320x320 --threads 1 -q -o transparent-frames || fail "transparent PNG frames"
  k=$((frames / 2))
  ffmpeg -v error -y -c:v libvpx-vp9 -i character.webm -vf "select=eq(n\,$k)" -frames:v 1 -pix_fmt rgba "character.webm.$k.png" &&
    python3 "$here/images.py" alpha "character.webm.$k.png" "$(printf 'transparent-frames/frame_%05d.png' "$k")" ||
    fail "character.webm frame $k: alpha"
else
  fail "render to WebM"
fi

echo "== character: GIF and PNG frames, 1 s at 10 fps"
"$p2lrt" render "$character" --clip idle --seconds 1 --fps 10 --size 200x200 --background white -q -o character.gif || fail "render to GIF"
gif_frames=$(ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames -of csv=p=0 character.gif)
echo "  character.gif: $gif_frames frames"
[ "$gif_frames" = 10 ] || fail "character.gif has $gif_frames frames, not 10"
"$p2lrt" render "$character" --clip idle --seconds 1 --fps 10 --size 200x200 --background white -q -o gif-frames/ ||
  fail "render to PNG frames"
[ "$(ls gif-frames | grep -c '^frame_')" = 10 ] || fail "gif-frames does not hold 10 frames"
# 256 colours a frame, dithered: far from lossless, far from wrong.
ffmpeg -v error -y -i character.gif -vf "select=eq(n\,7)" -frames:v 1 -pix_fmt rgb24 character.gif.7.png &&
  db=$(python3 "$here/images.py" psnr character.gif.7.png gif-frames/frame_00007.png) &&
  echo "  PSNR of frame 7 of character.gif against gif-frames/frame_00007.png: $db dB" &&
  python3 -c "import sys; sys.exit(0 if float('$db') >= 30 else 1)" || fail "character.gif frame 7: not within 30 dB of its PNG"

echo "== frames drawn on 2 threads (copies of the pose) equal frames drawn on 1 (the instance itself)"
# Advanced mode (skinning, simulations) beside Cubism mode: two lanes, every copied buffer in use.
for t in 1 2; do
  "$p2lrt" render "$character" --compare-advanced --advanced all --clip sway --seconds 1 --fps 10 --size 96x96 --threads $t -q \
    -o "threads-$t" || fail "render on $t threads"
done
diff -r threads-1 threads-2 >/dev/null && echo "  identical" || fail "frames on 2 threads differ from frames on 1"

echo "== bad inputs"
# [what] [expected message] [file that must not exist] -- arguments: a clear message, a non-zero
# exit, and no file (nor a temporary one) left behind.
expect_refusal() {
  local what=$1 message=$2 file=$3
  shift 3
  local out status
  out=$("$p2lrt" render "$character" "$@" 2>&1)
  status=$?
  echo "  $what: exit $status: $out"
  [ "$status" -ne 0 ] || fail "$what: exit 0"
  grep -qF -- "$message" <<<"$out" || fail "$what: no \"$message\" in the message"
  [ ! -e "$file" ] || fail "$what: $file was left"
  if [ -d "$(dirname "$file")" ] && ls -a "$(dirname "$file")" | grep -q '\.part$'; then fail "$what: a temporary file was left"; fi
}
printf 'this is not a sound\n' > notes.wav
expect_refusal "not audio" "--audio notes.wav" bad-audio.mp4 --clip idle --audio notes.wav -o bad-audio.mp4
expect_refusal "unknown extension" "unknown kind of output" out.avi --clip idle -o out.avi
expect_refusal "unwritable path" "cannot write" missing-folder/out.mp4 --clip idle --seconds 0.2 -o missing-folder/out.mp4
expect_refusal "animation into one PNG" "is one image" anim.png --clip idle -o anim.png

if [ -f "$haru" ]; then
  check_model haru "$haru" haru_g_m07 1280x720
else
  echo "== Haru skipped: not fetched (scripts/fetch_cubism_core.sh): $haru"
fi

[ "$failures" = 0 ] && echo "all video checks passed" || echo "$failures video checks failed"
[ "$failures" = 0 ]
