#!/usr/bin/env bash
# user/busybox/build.sh OUT: BusyBox, cross-built statically for ppc32, as
# OUT/busybox, and the list of its applet links, OUT/busybox.links.
#
# The source is Debian bookworm's source package (`apt-get source busybox`,
# with Debian's patches applied), fetched once into OUT/src and never again
# while it is there. apt runs with a private state directory under OUT: the
# deb-src lines are derived at run time from this machine's own apt sources
# (deb822 /etc/apt/sources.list.d/*.sources or one-line sources.list), so the
# repository names no mirror and the host's apt configuration is not touched.
# apt checks the source package against the signed Release file as usual.
#
# The configuration is user/busybox/busybox.config: `make defconfig` of this
# source with CONFIG_STATIC, CONFIG_CROSS_COMPILER_PREFIX=powerpc-linux-gnu-
# and CONFIG_TC off (tc needs kernel headers' CBQ definitions). Bookworm's
# 1.35 has no SHA1/SHA256_HWACCEL options yet (they came in 1.36, x86-only
# code that must stay off for ppc). The Makefile reruns this script only
# when that file or this script changes.
set -euo pipefail
out=$(realpath -m "${1:?usage: build.sh OUT}")
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"

fetch() {
  local apt="$out/apt"
  mkdir -p "$apt/sources.list.d" "$apt/lists/partial" "$apt/cache/archives/partial" "$out/fetch"
  # deb -> deb-src, bookworm suites only, from the machine's own sources.
  : > "$apt/sources.list"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] || continue
    sed -e 's/^Types:.*/Types: deb-src/' "$f" > "$apt/sources.list.d/$(basename "$f")"
  done
  if [ -e /etc/apt/sources.list ]; then
    sed -n 's/^deb \(.*\)$/deb-src \1/p' /etc/apt/sources.list > "$apt/sources.list"
  fi
  local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/sources.list.d"
              -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
  echo "busybox: fetching Debian's busybox source package (once; cached in $out/src)" >&2
  apt-get -q "${opts[@]}" update >&2
  (cd "$out/fetch" && apt-get -q "${opts[@]}" source busybox >&2)
  local dir
  dir=$(find "$out/fetch" -mindepth 1 -maxdepth 1 -type d -name 'busybox-*' | head -1)
  [ -n "$dir" ] || { echo "busybox: apt-get source left no source tree" >&2; exit 1; }
  rm -rf "$out/src"
  mv "$dir" "$out/src"
  rm -rf "$out/fetch"
}

[ -e "$out/src/Makefile" ] || fetch

# An out-of-tree build: the fetched source stays pristine.
mkdir -p "$out/build"
cp "$here/busybox.config" "$out/build/.config"
make -s -C "$out/src" O="$out/build" oldconfig </dev/null >/dev/null
make -s -C "$out/src" O="$out/build" -j"$(nproc)" busybox busybox.links >&2
cp "$out/build/busybox.links" "$out/busybox.links"
cp "$out/build/busybox" "$out/busybox"
echo "busybox: $out/busybox ($(stat -c %s "$out/busybox") bytes)" >&2
