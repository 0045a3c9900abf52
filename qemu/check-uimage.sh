#!/usr/bin/env bash
# Checks the U-Boot image `make image` wrote in DIR (target/kernel/<board>):
# `mkimage -l` must read a PowerPC Linux kernel image, uncompressed, whose
# load address is UIMAGE_LOAD's 0 and whose entry point is the ELF's
# _start_phys, and whose data is the ELF's raw image. Used by make test-boards.
set -euo pipefail
dir=$1
img=$dir/sigil.uImage
info=$(mkimage -l "$img")
echo "$info" | sed 's/^/  /'
entry=$(powerpc-linux-gnu-nm "$dir/sigil.elf" | awk '$3 == "_start_phys" {print $1}')
fail() { echo "check-uimage: $img: $*" >&2; exit 1; }
grep -q "Image Type:   PowerPC Linux Kernel Image (uncompressed)" <<<"$info" || fail "not a PowerPC kernel image"
grep -q "Load Address: 00000000" <<<"$info" || fail "load address is not 0"
grep -qi "Entry Point:  $entry" <<<"$info" || fail "entry point is not _start_phys ($entry)"
size=$(stat -c %s "$dir/sigil.bin")
grep -q "Data Size:    $size Bytes" <<<"$info" || fail "data size is not sigil.bin's $size bytes"
echo "check-uimage: $img: load 0, entry $entry, $size bytes: ok"
