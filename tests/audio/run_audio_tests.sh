#!/usr/bin/env bash
# Makes the audio the speech tests read, then runs them (tests/audio/speech_test.cpp):
#   cubism/   the committed speech in every sample format Cubism's sample reads
#             (scripts/audio_variants.py), the files of tests/audio/data/cubism_rms.json
#   formats/  one sentence (espeak-ng) converted by sox into every sample format and several rates
#   bad/      a truncated WAV and OGG, a file that is no audio, a u-law WAV, an MP3, an empty file
#   run_audio_tests.sh P2L_AUDIO_TESTS OUT_DIR [gtest arguments]
set -euo pipefail
tests=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
for tool in espeak-ng sox python3; do
  if ! command -v "$tool" > /dev/null; then
    echo "run_audio_tests: $tool is not installed (scripts/setup.sh installs it)" >&2
    exit 77
  fi
done
rm -rf "$out" && mkdir -p "$out/cubism" "$out/formats" "$out/bad"
for wav in "$root"/tests/audio/data/speech_*.wav; do python3 "$root/scripts/audio_variants.py" "$wav" "$out/cubism"; done

# One sentence at espeak-ng's 22,050 Hz, 16-bit; sox without dither (-D), so that every
# conversion is the plain one.
src="$out/formats/speech_s16.wav"
espeak-ng -v en-us -w "$src" "The quick brown fox jumps over the lazy dog, and then it rests."
f=$out/formats
sox -D "$src" -e unsigned-integer -b 8 "$f/speech_u8.wav"
sox -D "$src" -b 24 "$f/speech_s24.wav"
sox -D "$src" -b 32 "$f/speech_s32.wav"
sox -D "$src" -e floating-point -b 32 "$f/speech_f32.wav"
sox -D "$src" -e floating-point -b 64 "$f/speech_f64.wav"
sox -D "$src" -b 16 "$f/speech_s16.flac"
sox -D "$src" -b 24 "$f/speech_s24.flac"
sox -D "$src" -C 6 "$f/speech.ogg"
sox -D "$src" -c 2 "$f/speech_stereo_s16.wav"
sox -D "$src" -c 6 -e floating-point -b 32 "$f/speech_6ch_f32.wav"
for rate in 32000 44100 48000 96000; do
  sox -D "$src" -e floating-point -b 32 -r "$rate" "$f/speech_${rate}_f32.wav" rate -v
done
sox -D "$src" -b 16 -r 44100 "$f/speech_44100_s16.flac" rate -v

# Files that are not good audio.
b=$out/bad
head -c 20000 "$src" > "$b/truncated.wav"
head -c 6000 "$f/speech.ogg" > "$b/truncated.ogg"
printf 'this is a text file, not a sound\n%.0s' {1..50} > "$b/not_audio.wav"
sox -D "$src" -e u-law "$b/ulaw.wav"
: > "$b/empty.wav"
if sox -D "$src" "$b/speech.mp3" 2> /dev/null; then :; else
  # No MP3 encoder: an MPEG frame header and noise still is no WAV, FLAC or Ogg.
  { printf '\xff\xfb\x90\x64'; head -c 4000 /dev/urandom; } > "$b/speech.mp3"
fi

P2L_AUDIO_DIR=$out "$tests" "$@"
