# qemu/kuap.py - gdb command `sigil-kuap`: the KUAP state of the kernel
# being debugged (docs/kuap.md). Sourced by qemu/gdbinit.
#
# QEMU's gdb stub does not expose the segment registers (gdb says `sr0` is
# invalid) and QEMU's `monitor info registers` does not print them for the
# 750, so this reads the kernel's own record instead: on book3s/32 the mask
# of unlocked user segments that every lock and unlock updates along with the
# segment registers (`UNLOCKED` in kernel/src/arch/book3s32/kuap.rs), on the
# 8xx the flag that mirrors MD_AP (`OPEN` in kernel/src/arch/mpc8xx/kuap.rs).
# The kernel must be running with translation on (stop it in kernel code).

import gdb

BOOK3S32 = "sigil::arch::book3s32::kuap::UNLOCKED"
MPC8XX = "sigil::arch::mpc8xx::kuap::OPEN"
# User space is segments 0-10 (TASK_SIZE 0xb0000000); 11-15 are the kernel's.
USER_SEGMENTS = 11


def read_static(name, size):
    """The bytes of the kernel static `name` (target memory), or None if the
    ELF has no such symbol (the other MMU family's kernel)."""
    symbol = gdb.lookup_static_symbol(name) or gdb.lookup_global_symbol(name)
    if symbol is None:
        return None
    address = int(symbol.value().address)
    return gdb.selected_inferior().read_memory(address, size).tobytes()


class SigilKuap(gdb.Command):
    """Show which user segments the kernel may write now (KUAP windows).

On book3s/32 each user segment register carries the key Ks: 1 (locked) makes
PP=01 user pages read-only for the kernel, so a stray kernel store takes a
DSI; a UserWindow clears Ks in the segments it covers until it closes. On the
8xx, MD_AP either opens all of user memory or none of it."""

    def __init__(self):
        super().__init__("sigil-kuap", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        data = read_static(BOOK3S32, 4)
        if data is not None:
            mask = int.from_bytes(data, "big")
            print("book3s/32 KUAP: kuap::UNLOCKED = 0x%03x" % mask)
            for seg in range(USER_SEGMENTS):
                base = seg << 28
                if mask & (1 << seg):
                    state = "Ks=0  OPEN: a window is writing here"
                else:
                    state = "Ks=1  locked: a kernel store faults (DSI)"
                print("  SR%-2d at 0x%08x (256 MiB)  %s" % (seg, base, state))
            return
        data = read_static(MPC8XX, 1)
        if data is not None:
            state = "OPEN (MD_AP = 0xdc000000)" if data[0] else "locked (MD_AP = 0xde000000)"
            print("8xx KUAP: kuap::OPEN says user memory is %s" % state)
            return
        raise gdb.GdbError("no KUAP state in the symbols: is target/kernel/<board>/sigil.elf loaded?")


SigilKuap()
