# Board: QEMU g3beige with an e300c2 core (the MPC832x core), no firmware.
#
# OpenBIOS cannot run on 603-class cores, so this board only ever boots the way
# g3beige already does: loaded by QEMU, starting in real mode. The kernel sees
# the e300's PVR and uses the 603 software TLB reload instead of the hash table.
BOARD_DESC   = QEMU g3beige with an e300c2 core (book3s/32, software TLB reload), no firmware
KERNEL_ARCH  = book3s32
KERNEL_LD    = linker/book3s32.ld
USER_CFLAGS  =
# -nodefaults as on g3beige (boards/g3beige.mk says why).
QEMU_CMD     = qemu-system-ppc -M g3beige -cpu e300c2 -m 256 -nographic -nodefaults -nic none -no-reboot -monitor none -serial stdio
