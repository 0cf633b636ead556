#!/usr/bin/env bash
# Makes p2lrt's Debian package with CPack and installs it on a clean Debian 12: a fresh
# minimal root made by debootstrap from the Debian archive this machine's apt uses, entered
# with chroot (no container runtime needed). There apt installs the package with what it
# depends on, and the installed p2lrt command reads, checks and draws the example character;
# the picture must be the one the build tree's p2lrt draws. Then the package is removed and
# nothing of it may stay. Needs root.
#   scripts/deb_test.sh [BUILD_DIR]   (default build-pkg: configured here with -DCMAKE_INSTALL_PREFIX=/usr)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-pkg}
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr -DBUILD_SHARED_LIBS=ON \
        -DP2L_TESTS=OFF -DP2L_BENCH=OFF -DP2L_MUSL_MATH="$(scripts/fetch_musl_math.sh)" > /dev/null
fi
if ! grep -q '^CMAKE_INSTALL_PREFIX:PATH=/usr$' "$build/CMakeCache.txt"; then
  echo "deb_test: $build must be configured with -DCMAKE_INSTALL_PREFIX=/usr" >&2
  exit 2
fi
command -v debootstrap > /dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap > /dev/null
cmake --build "$build" -j "$(nproc)"
(cd "$build" && cpack -G DEB > cpack.log 2>&1) || { tail -n 20 "$build/cpack.log" >&2; exit 1; }
deb=$(ls "$build"/p2lrt_*_*.deb)
echo "deb_test: $(basename "$deb"), $(stat -c %s "$deb") bytes"

# The archive apt uses here: the first URI serving Debian 12 ("bookworm") in its sources.
mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
         awk '/^URIs:/{u=$2} /^Suites:/{for(i=2;i<=NF;i++) if ($i=="bookworm") {print u; exit}}')
[[ -n "$mirror" ]] || mirror=$(awk '$1=="deb" && $3=="bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
if [[ -z "$mirror" ]]; then
  echo "deb_test: no Debian 12 archive in this machine's apt sources" >&2
  exit 1
fi

root=$PWD/$build/debian12-root
cleanup() { umount "$root/proc" 2>/dev/null || true; }
trap cleanup EXIT
cleanup
rm -rf "$root"
echo "deb_test: debootstrap --variant=minbase bookworm"
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$build/debootstrap.log" 2>&1 ||
  { tail -n 20 "$build/debootstrap.log" >&2; exit 1; }
mount -t proc proc "$root/proc"
cp "$deb" "$root/tmp/"
cp examples/character/character.p2lrt "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"; }

passed=0
failed=0
check() {  # check NAME COMMAND...
  local name=$1
  shift
  if "$@" > "$build/deb_$name.log" 2>&1; then
    passed=$((passed + 1))
    echo "deb_test: ok   $name"
  else
    failed=$((failed + 1))
    echo "deb_test: FAIL $name ($build/deb_$name.log)"
    tail -n 20 "$build/deb_$name.log" | sed 's/^/  | /'
  fi
}
check not_there_before bash -c "! chroot '$root' sh -c 'command -v p2lrt'"
check install in_root sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /tmp/$(basename "$deb")"
check info in_root p2lrt info /usr/share/p2lrt/examples/character.p2lrt
check validate in_root p2lrt validate /usr/share/p2lrt/examples/character.p2lrt
check library_registered bash -c "chroot '$root' ldconfig -p | grep -q 'libp2l.so.1 '"
# libp2l.so carries the Cubism import: on a root with only what the package depends on, every
# library it needs is found (and no crypto library is among them: the hash is musl's SHA-256).
check library_resolves in_root sh -c "lib=\$(ldconfig -p | awk '/libp2l.so.1 /{print \$NF; exit}') \
  && ldd \"\$lib\" && ! ldd \"\$lib\" | grep -q 'not found' && ! ldd \"\$lib\" | grep -q libcrypto"
# The same picture as the build tree's p2lrt draws: the package's command and libraries work
# on a system that has only what the package depends on.
check render bash -c "chroot '$root' p2lrt render /usr/share/p2lrt/examples/character.p2lrt -o /tmp/default.png --size 256x256 \
  && '$build/p2lrt' render examples/character/character.p2lrt -o '$build/deb_default_host.png' --size 256x256 \
  && cmp '$root/tmp/default.png' '$build/deb_default_host.png'"
# `p2lrt view` on a root without a display: the libraries it links are there (the package
# depends on them), and it says why no window opens.
check view_without_display in_root sh -c "! p2lrt view /usr/share/p2lrt/examples/character.p2lrt 2> /tmp/view.err \
  && grep -q 'no display to open a window on' /tmp/view.err"
check remove bash -c "chroot '$root' apt-get remove -y -qq p2lrt && ! chroot '$root' sh -c 'command -v p2lrt' \
  && test ! -e '$root/usr/lib/x86_64-linux-gnu/libp2l.so.1' && test ! -e '$root/usr/share/p2lrt'"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
