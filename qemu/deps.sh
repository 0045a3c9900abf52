#!/usr/bin/env bash
# Installs the Debian packages Sigil needs, only those missing, saying which.
# Used by `make` (every target that builds or runs something depends on it).
# Arguments add "package:file" pairs to the list, for a build with needs of
# its own (qemu/linux/build.sh).
# Everything it prints goes to stderr: `make run QUIET=1` keeps stdout for
# exactly what the program wrote.
set -euo pipefail
exec 1>&2

# package : a file that proves it is installed
needs=(
  "rustc-web:/usr/bin/rustc"
  "cargo-web:/usr/bin/cargo"
  "rust-web-src:/usr/lib/rustlib/src/rust/library/core/Cargo.toml"
  "rustfmt-web:/usr/bin/cargo-fmt"
  "rust-web-clippy:/usr/bin/cargo-clippy"
  "binutils-powerpc-linux-gnu:/usr/bin/powerpc-linux-gnu-ld"
  "gcc-powerpc-linux-gnu:/usr/bin/powerpc-linux-gnu-gcc"
  "g++-powerpc-linux-gnu:/usr/bin/powerpc-linux-gnu-g++"
  "libc6-dev-powerpc-cross:/usr/powerpc-linux-gnu/lib/libc.a"
  "linux-libc-dev-powerpc-cross:/usr/powerpc-linux-gnu/include/sound/asound.h"
  "qemu-system-ppc:/usr/bin/qemu-system-ppc"
  "qemu-user:/usr/bin/qemu-ppc"
  "u-boot-tools:/usr/bin/mkimage"
  # The MPC8321E-RDB's device tree (boards/mpc8321erdb.dts) is compiled to
  # the dtb the host tests and the qemu-e300 device-tree test read.
  "device-tree-compiler:/usr/bin/dtc"
  "gdb-multiarch:/usr/bin/gdb-multiarch"
  # BusyBox from Debian's source package (user/busybox/build.sh): apt-get
  # source unpacks with dpkg-source, the tarball is bzip2, and its kconfig
  # tools are built with the host compiler.
  "dpkg-dev:/usr/bin/dpkg-source"
  "bzip2:/usr/bin/bzip2"
  "gcc:/usr/bin/gcc"
  "libc6-dev:/usr/include/stdio.h"
  "make:/usr/bin/make"
  "xz-utils:/usr/bin/xz"
  "$@"
)
missing=()
for n in "${needs[@]}"; do
  [ -e "${n#*:}" ] || missing+=("${n%%:*}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
