# Board: Freescale MPC8321E-RDB (or MPC8323E-RDB: the same e300c2 core and
# peripherals), booted by U-Boot with a device tree. Real hardware only.
#
# QEMU has no MPC83xx model, so there is no QEMU_CMD: `make image
# BOARD=mpc8321erdb` builds the ELF, a U-Boot uImage and the board's dtb
# (from boards/mpc8321erdb.dts); docs/boards/mpc8321erdb.md says how to
# boot them. The kernel takes RAM, the timebase, the console (the DUART's
# first port, an ns16550 in IMMR), the IPIC, the command line and the initrd
# from the device tree U-Boot passes (kernel/src/arch/book3s32/mpc83xx.rs);
# nothing about the board is compiled in.
BOARD_DESC   = MPC8321E-RDB (e300c2, book3s/32 software TLB reload, DUART console, IPIC), U-Boot with a device tree, hardware only
KERNEL_ARCH  = book3s32
KERNEL_LD    = linker/book3s32.ld
KERNEL_ENV   = SIGIL_PLATFORM=mpc83xx
# The e300c2 has no FPU: the kernel emulates user FP (as on qemu-e300).
USER_CFLAGS  =
# As Linux's uImage for this board: loaded at physical 0 (the vectors live
# there), entered at _start_phys (`make image` reads it from the ELF).
UIMAGE_LOAD  = 0x00000000
BOARD_DTS    = boards/mpc8321erdb.dts
