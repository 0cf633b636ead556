#!/usr/bin/env bash
# Measures the vowel estimator against espeak-ng speech (docs/AUDIO.md "Vowels"): speaks held
# vowels and short words in four voices (scripts/vowel_corpus.py, with espeak-ng's phoneme
# timing as labels), resamples the held vowels with sox to other rates, and runs the
# measurement program, which prints the tables and fails when a target is missed.
#
#   scripts/vowel_accuracy.sh [--quick] [PATH/TO/vowel_accuracy]
#
# The program comes from the argument, else $VOWEL_ACCURACY, else build/tests/audio/vowel_accuracy;
# this script builds nothing. --quick (for CI, a few seconds): three voices, every vowel held at
# one pitch plus six words each, and the held vowels at 8 and 48 kHz. The full run: four
# voices, every vowel held at three pitches, twenty words each, and the held vowels at 8,
# 11.025, 16, 44.1, 48 and 96 kHz. Needs espeak-ng's library (libespeak-ng1), sox and python3.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
quick=""
program="${VOWEL_ACCURACY:-$root/build/tests/audio/vowel_accuracy}"
for arg in "$@"; do
  case "$arg" in
    --quick) quick="--quick" ;;
    -*) echo "usage: $0 [--quick] [path/to/vowel_accuracy]" >&2; exit 2 ;;
    *) program="$arg" ;;
  esac
done
if [[ ! -x "$program" ]]; then
  echo "vowel_accuracy.sh: no program at $program (build the vowel_accuracy target, or pass its path)" >&2
  exit 2
fi
for tool in sox python3; do
  command -v "$tool" >/dev/null || { echo "vowel_accuracy.sh: $tool is not installed" >&2; exit 2; }
done

work="$(mktemp -d "${TMPDIR:-/tmp}/p2l-vowels.XXXXXX")"
trap 'rm -rf "$work"' EXIT

python3 "$root/scripts/vowel_corpus.py" "$work/native" $quick

if [[ -n "$quick" ]]; then rates=(8000 48000); else rates=(8000 11025 16000 44100 48000 96000); fi
sets=("22050=$work/native")
for rate in "${rates[@]}"; do
  dir="$work/$rate"
  mkdir -p "$dir"
  grep ' held ' "$work/native/manifest.txt" > "$dir/manifest.txt"
  while read -r _voice _kind wav lab; do
    sox "$work/native/$wav" -r "$rate" "$dir/$wav"
    cp "$work/native/$lab" "$dir/$lab"
  done < "$dir/manifest.txt"
  sets+=("$rate=$dir")
done

"$program" "${sets[@]}"
