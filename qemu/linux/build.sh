#!/usr/bin/env bash
# qemu/linux/build.sh - builds the Linux 6.1 that `make bench-linux` boots
# next to Sigil: Debian's linux-source-6.1, `make ARCH=powerpc tinyconfig`,
# then the fragment qemu/linux/g3beige.config merged in. Output (cached):
# target/linux/vmlinux, rebuilt only when the fragment or this script changes
# (target/linux/vmlinux.stamp holds their checksum).
#
# Usage: bash qemu/linux/build.sh [OUT_DIR]   (default target/linux)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "${1:-target/linux}")
fragment=$here/g3beige.config
tarball=/usr/src/linux-source-6.1.tar.xz
stamp_want=$(cat "$fragment" "$0" | sha256sum | cut -d' ' -f1)

if [ -f "$out/vmlinux" ] && [ "$(cat "$out/vmlinux.stamp" 2>/dev/null)" = "$stamp_want" ]; then
  exit 0
fi

# What the kernel build needs on top of qemu/deps.sh's own list:
# package : a file that proves it is installed.
bash "$here/../deps.sh" \
  "linux-source-6.1:$tarball" \
  "flex:/usr/bin/flex" \
  "bison:/usr/bin/bison" \
  "bc:/usr/bin/bc" \
  "libelf-dev:/usr/include/libelf.h" \
  "libssl-dev:/usr/include/openssl/ssl.h"

# The tarball unpacks to linux-source-6.1/; unpacked once.
src=$out/linux-source-6.1
if [ ! -f "$src/Makefile" ]; then
  echo "linux: unpacking $tarball into $out" >&2
  mkdir -p "$out"
  tar -C "$out" -xf "$tarball"
fi

kmake=(make -C "$src" ARCH=powerpc CROSS_COMPILE=powerpc-linux-gnu- -j2)
echo "linux: tinyconfig + $(basename "$fragment")" >&2
"${kmake[@]}" -s tinyconfig >&2
# merge_config.sh -m only merges; olddefconfig then resolves what the
# fragment's options select or depend on.
(cd "$src" && ARCH=powerpc CROSS_COMPILE=powerpc-linux-gnu- \
  scripts/kconfig/merge_config.sh -m -O "$src" .config "$fragment" >/dev/null)
"${kmake[@]}" -s olddefconfig >&2

# Kconfig drops what it cannot satisfy without a word: check that every
# line of the fragment is in the final .config, and name the ones that are not.
bad=0
while IFS= read -r line; do
  case $line in
    CONFIG_*=*) grep -qxF "$line" "$src/.config" || { echo "linux: $line did not take (.config: $(grep -E "^(# )?${line%%=*}[= ]" "$src/.config" || echo absent))" >&2; bad=1; } ;;
    "# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}
      if grep -q "^$opt=" "$src/.config"; then echo "linux: $opt should be off but is on" >&2; bad=1; fi ;;
  esac
done < "$fragment"
[ $bad -eq 0 ] || { echo "linux: the config is not what qemu/linux/g3beige.config asks for" >&2; exit 1; }

echo "linux: building vmlinux (6-15 minutes on 2 cores)" >&2
"${kmake[@]}" -s vmlinux >&2
cp "$src/vmlinux" "$out/vmlinux"
cp "$src/.config" "$out/config"
echo "$stamp_want" > "$out/vmlinux.stamp"
echo "linux: $out/vmlinux ($(stat -c %s "$out/vmlinux") bytes)" >&2
