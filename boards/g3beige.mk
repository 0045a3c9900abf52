# Board: QEMU g3beige with a PowerPC 750 (the default board).
#
# A board is data: the Makefile and the host runner (qemu/) both read these
# KEY = value lines. The kernel finds RAM size, timebase frequency, initrd and
# command line at run time through QEMU's fw_cfg, so it needs nothing from here.
BOARD_DESC   = QEMU g3beige, PowerPC 750 (book3s/32, hashed page table), no firmware
KERNEL_ARCH  = book3s32
KERNEL_LD    = linker/book3s32.ld
USER_CFLAGS  =
# Firmware-less boot: `-kernel` only makes QEMU publish the image, initrd and
# command line in fw_cfg; `-device loader` puts the ELF at its physical address
# and starts the CPU at its entry in real mode (OpenBIOS never runs).
# -nodefaults: no default VGA card (its ROM, vgabios-stdvga.bin, comes only with
# the recommended seabios package) and no default drives; the only file QEMU
# then reads is openbios-ppc, from qemu-system-data, which qemu-system-ppc needs.
QEMU_CMD     = qemu-system-ppc -M g3beige -cpu 750 -m 256 -nographic -nodefaults -nic none -no-reboot -monitor none -serial stdio
