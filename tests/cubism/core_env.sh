# Sourced by the Cubism test scripts: sets $core to the cached npm package of the official
# Cubism Core (fetching it if needed), or exits 77 (skipped, with the reason) when it cannot
# be fetched or node is missing. $1: the script's name for the message.
if ! core=$("$(dirname "${BASH_SOURCE[0]}")/../../scripts/fetch_cubism_core.sh"); then
  echo "$1: SKIPPED: the official Cubism Core could not be fetched from npm" >&2
  exit 77
fi
if ! command -v node > /dev/null; then
  echo "$1: SKIPPED: node is not installed" >&2
  exit 77
fi
