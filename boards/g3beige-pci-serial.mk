# Board: QEMU g3beige (PowerPC 750) with its console on a 16550 UART behind
# PCI (QEMU's pci-serial card) instead of the mac-io ESCC.
#
# The same kernel as g3beige's; the boot option console=ttyS0 makes it find
# the card, give its BAR an I/O port, and use it for the console, its
# receive interrupt a PCI line through Heathrow. The MPC8321E-RDB's console
# is the same kind of UART (kernel/src/arch/ppc32/ns16550.rs drives both);
# this is how that driver runs in QEMU.
BOARD_DESC   = QEMU g3beige, PowerPC 750, console on a PCI 16550 (pci-serial), no firmware
KERNEL_ARCH  = book3s32
KERNEL_LD    = linker/book3s32.ld
USER_CFLAGS  =
BOOT_OPTS    = console=ttyS0
# As g3beige (boards/g3beige.mk says why), the ESCC's line going nowhere:
# QEMU's stdio is the card's.
QEMU_CMD     = qemu-system-ppc -M g3beige -cpu 750 -m 256 -nographic -nodefaults -nic none -no-reboot -monitor none -serial null -chardev stdio,id=ttyS0 -device pci-serial,chardev=ttyS0
