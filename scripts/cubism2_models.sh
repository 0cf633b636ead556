#!/usr/bin/env bash
# Fetches the Cubism 2 models of the 21 live2d-widget-model npm packages (and the package that
# carries the Cubism 2.1 runtime, live2dcubismcore@1.0.2) into the cache OUTSIDE the
# repository, and prints one .moc path a line (with --mtn: their .mtn motions too). Their licences forbid shipping them: nothing
# they contain, and nothing derived from a model, may enter the repository. Exits 3 when npm
# cannot fetch a package.
set -euo pipefail
cd "$(dirname "$0")"
./npm_fetch.sh live2dcubismcore 1.0.2 live2d.min.js > /dev/null
for m in chitose epsilon2_1 gf haru haruto hibiki hijiki izumi koharu miku ni-j nico nietzsche nipsilon nito shizuku \
  tororo tsumiki unitychan wanko z16; do
  package=$(./npm_fetch.sh "live2d-widget-model-$m" 1.0.5 package.json)
  if [[ ${1:-} == --mtn ]]; then
    find "$package/package" \( -name '*.moc' -o -name '*.mtn' \) | sort
  else
    find "$package/package" -name '*.moc' | sort
  fi
done
