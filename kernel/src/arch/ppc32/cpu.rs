//! CPU instructions every 32-bit PowerPC family runs the same way: the PVR,
//! the timebase and decrementer, waiting for an interrupt, and the one
//! privileged instruction user code is allowed to try (mfpvr), the
//! register-set copies of the signal frames, and stepping over a faulted access.

use super::frame::{TrapFrame, PT_REGS, PT_RESTORED};

/// The processor version register: which CPU this is.
pub fn pvr() -> u32 {
    let v: u32;
    // SAFETY: reading the PVR has no side effects.
    unsafe { core::arch::asm!("mfpvr {0}", out(reg) v, options(nomem, nostack)) };
    v
}

/// The timebase and the decrementer are the same on every family.
impl crate::arch::Clock for crate::arch::Arch {
    /// The decrementer interrupts when it turns negative: 2^31 - 1 at most.
    const TIMER_MAX_TICKS: u64 = 0x7fff_ffff;
    #[inline(always)]
    fn now() -> u64 {
        timebase()
    }
    fn arm(ticks: u32) {
        set_decrementer(ticks)
    }
}

/// The 64-bit timebase.
fn timebase() -> u64 {
    loop {
        let (hi, lo, hi2): (u32, u32, u32);
        // SAFETY: reading the timebase has no side effects.
        unsafe {
            core::arch::asm!("mftbu {0}", "mftb {1}", "mftbu {2}", out(reg) hi, out(reg) lo, out(reg) hi2,
                options(nomem, nostack));
        }
        if hi == hi2 {
            return ((hi as u64) << 32) | lo as u64;
        }
    }
}

/// Arms the decrementer to interrupt after `ticks` timebase ticks.
fn set_decrementer(ticks: u32) {
    // SAFETY: the decrementer only raises the 0x900 interrupt.
    unsafe { core::arch::asm!("mtdec {0}", in(reg) ticks, options(nomem, nostack)) };
}

/// Makes instructions just stored at [addr, addr + len) visible to
/// instruction fetch. The 750's, the e300's and the 8xx's instruction caches
/// do not snoop the data cache: `dcbst` writes each block back to memory,
/// `icbi` drops any stale copy of it from the instruction cache (both act on
/// the physical block, whatever address names it), and `sync; isync` waits
/// for them (Linux's `flush_icache_range`). `addr` is a kernel address (a
/// user page's frame through the linear map: no KUAP window is needed).
pub fn sync_icache_range(addr: usize, len: usize) {
    let block = crate::arch::CACHE_BLOCK as usize;
    let mut a = addr & !(block - 1);
    while a < addr + len {
        sync_block(a);
        a += block;
    }
    icache_barrier();
}

/// Writes back and invalidates the cache block holding `addr` (any address
/// in it: the instructions ignore the low bits).
#[inline(always)]
fn sync_block(addr: usize) {
    // SAFETY: dcbst/icbi on an address the caller just wrote; they cannot
    // change memory contents.
    unsafe {
        core::arch::asm!("dcbst 0, {0}", "sync", "icbi 0, {0}", in(reg_nonzero) addr, options(nostack))
    };
}

/// Waits for the blocks' `dcbst`/`icbi` and discards prefetched instructions.
#[inline(always)]
fn icache_barrier() {
    // SAFETY: a context-synchronising barrier.
    unsafe { core::arch::asm!("sync", "isync", options(nostack)) };
}

/// Lets one interrupt in (nothing to run until one arrives).
pub fn idle() {
    // SAFETY: interrupts are enabled only here, where the kernel holds no
    // reference into its global state (see kcell.rs), and disabled again.
    unsafe {
        core::arch::asm!(
            "mfmsr {t}", "ori {t}, {t}, 0x8000", "mtmsr {t}", "nop", "nop",
            "rlwinm {t}, {t}, 0, 17, 15", "mtmsr {t}",
            t = out(reg) _, options(nostack)
        );
    }
}

/// Emulates the privileged instructions user code may use, as Linux's
/// `emulate_instruction` does: today only `mfpvr` (glibc reads the PVR to
/// pick its memcpy). Returns true if `insn` was emulated (NIP then advanced).
pub fn emulate_privileged(tf: &mut TrapFrame, insn: u32) -> bool {
    const MFPVR_MASK: u32 = 0xfc1f_ffff;
    const MFPVR: u32 = 0x7c1f_42a6;
    if insn & MFPVR_MASK == MFPVR {
        tf.gpr[((insn >> 21) & 31) as usize] = pvr();
        tf.nip += 4;
        return true;
    }
    false
}

/// Steps over the kernel load or store at `tf.nip` whose user access faulted
/// inside a `UserWindow` (the window recorded the fault: `uaccess::fixup`).
/// The access does not happen, but an update form still writes the effective
/// address `ea` into its base register, as the compiled loop expects
/// (`sigil_core::insn` explains why).
///
/// A skipped `lmw` (`copy_block`) may have loaded some of its registers
/// before the fault; the others still hold the kernel's values, which the
/// routine's `stmw` would then copy into a user's registers. They all read
/// as zero instead.
pub fn skip_faulted_access(tf: &mut TrapFrame, ea: u32) {
    // SAFETY: a kernel-mode fault: nip is kernel text, mapped and readable.
    let insn = unsafe { core::ptr::read_volatile(tf.nip as *const u32) };
    if let Some(ra) = sigil_core::insn::update_base(insn) {
        tf.gpr[ra] = ea;
    }
    if let Some(rt) = sigil_core::insn::load_multiple_first(insn) {
        tf.gpr[rt..].fill(0);
    }
    tf.nip += 4;
}

/// One call of an entry.S copy routine, `dst` in r3 and `src` in r4 (its
/// operand given by the caller: the padded copies reuse r4 for their
/// zeroes' address, the others leave it as it was); a literal name each
/// (an asm template takes no constant).
macro_rules! call_copy {
    ($routine:literal, $dst:expr, $($r4:tt)*) => {
        // SAFETY: the caller's contract (`copy_block`, `copy_block_padded`);
        // the routine keeps the ABI's stack rules and restores every
        // register it uses but r4 (when its operand says so) and lr.
        unsafe {
            core::arch::asm!(
                concat!("bl ", $routine),
                in("r3") $dst,
                $($r4)*,
                out("lr") _,
                options(preserves_flags)
            )
        }
    };
}

/// Copies `N` words from `src` to `dst` with lmw/stmw (entry.S's
/// `copy_words44` and `copy_words39`: eleven instructions; they save the
/// r14-r31 they use). `N` is one of the two register sets a signal frame
/// moves: all of mc_gregs (`PT_REGS`, the frame write) or r0 ..= CCR
/// (`PT_RESTORED`, sigreturn); any other fails the build.
///
/// Called from inline asm, not as an `extern "C"` function: the routine
/// touches only r14-r31 (saved and restored), the stack and lr, so the
/// caller's values stay in r0 and r5-r12 and in CR across it. Declared as
/// a C call, the ABI had every volatile register clobbered, and the frame
/// writer kept its whole live set in saved registers (18 of them).
///
/// # Safety
/// Both addresses are word-aligned and valid for `N` words; a user one
/// lies inside the open `UserWindow` of its direction, whose fault path
/// makes a fault there an EFAULT (entry.S says why a fault in the middle
/// of an `lmw`/`stmw` is safe).
#[inline(always)]
pub unsafe fn copy_block<const N: usize>(dst: *mut u32, src: *const u32) {
    const { assert!(N == PT_REGS || N == PT_RESTORED, "entry.S copies 44 or 39 words") };
    const { assert!(PT_REGS == 44 && PT_RESTORED == 39) };
    if N == PT_REGS {
        call_copy!("copy_words44", dst, in("r4") src);
    } else {
        call_copy!("copy_words39", dst, in("r4") src);
    }
}

/// Stores the `N` words at `src` to `dst`, then zeroes up to `LEN` words
/// in all, with lmw/stmw (entry.S's `copy_words8_pad32` and `_pad34`:
/// eleven instructions). `N` is a siginfo's 8 meaningful words, `LEN` its
/// 32 or, in an rt frame, those and the two zero words after it; any other
/// pair fails the build. Called from inline asm as `copy_block` is, and for
/// its reason; the routine uses r4 as scratch.
///
/// # Safety
/// As `copy_block`'s, for `LEN` words at `dst` and `N` at `src`.
#[inline(always)]
pub unsafe fn copy_block_padded<const N: usize, const LEN: usize>(dst: *mut u32, src: *const u32) {
    const { assert!(N == 8 && (LEN == 32 || LEN == 34), "entry.S copies 8 words, pads to 32 or 34") };
    if LEN == 32 {
        call_copy!("copy_words8_pad32", dst, inout("r4") src => _);
    } else {
        call_copy!("copy_words8_pad34", dst, inout("r4") src => _);
    }
}
