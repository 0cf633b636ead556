#!/usr/bin/env bash
# Regenerates tests/audio/data/cubism_rms.json: the mouth levels Cubism's sample
# (LAppWavFileHandler) computes on the committed speech, in every sample format it reads
# (scripts/audio_variants.py). Development time only: it needs Live2D's CubismWebSamples
# (a git mirror, CUBISM_WEB_SAMPLES=/path/to/repo.git, default the search tool's mirror) and
# TypeScript from npm; the repository keeps only the numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
SAMPLES=${CUBISM_WEB_SAMPLES:-/work/.mirror/Live2D+CubismWebSamples/repo}
CACHE=${P2L_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/p2lrt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$SAMPLES" show HEAD:Samples/TypeScript/Demo/src/lappwavfilehandler.ts > "$work/lappwavfilehandler.ts"
commit=$(git -C "$SAMPLES" rev-parse --short HEAD)
TS=$(scripts/npm_fetch.sh typescript 5.6.3 lib/typescript.js)
for wav in tests/audio/data/speech_*.wav; do python3 scripts/audio_variants.py "$wav" "$work/wav"; done
SAMPLES_COMMIT=$commit node scripts/cubism_rms_reference.mjs "$work/lappwavfilehandler.ts" "$TS" \
  tests/audio/data/cubism_rms.json "$work"/wav/*.wav
echo "wrote tests/audio/data/cubism_rms.json (CubismWebSamples $commit)"
