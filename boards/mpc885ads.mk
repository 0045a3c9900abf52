# Board: Freescale MPC885ADS (MPC885, 8xx core), booted by U-Boot. Real hardware only.
#
# QEMU has no 8xx model, so there is no QEMU_CMD: `make image BOARD=mpc885ads`
# builds the ELF and a U-Boot uImage; docs/boards/mpc8xx.md says how to boot it.
# Booted with a device tree (bootm <kernel> <initrd> <fdt>), the kernel reads
# RAM size, timebase rate, command line and initrd from it. The legacy boot
# (no tree) gives only U-Boot's bd_t, which Sigil does not parse (its layout
# depends on U-Boot's configuration): RAM size and timebase rate are then
# the numbers set here and compiled in (KERNEL_ENV).
BOARD_DESC   = MPC885ADS (MPC8xx: software TLB reload, KUAP via MD_AP, SMC1 console), U-Boot, hardware only
KERNEL_ARCH  = mpc8xx
KERNEL_LD    = linker/mpc8xx.ld
# RAM in MiB, and the timebase rate U-Boot programmed: the ADS's 50 MHz
# system clock / 16 (SCCR[TBS] = 1, as Linux sets it). Check yours: U-Boot's
# `bdinfo` prints the bus frequency.
KERNEL_ENV   = SIGIL_RAM_MB=32 SIGIL_TB_FREQ=3125000
# The 8xx has no FPU, but user programs stay hard-float like glibc itself:
# the kernel emulates their FP instructions (kernel/src/fpemu.rs).
USER_CFLAGS  =
# U-Boot copies the image to physical 0 (the vectors live there) and jumps to
# _start_phys; `make image` reads that address from the ELF.
UIMAGE_LOAD  = 0x00000000
