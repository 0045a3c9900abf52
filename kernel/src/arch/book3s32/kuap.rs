//! KUAP on book3s/32: Kernel Userspace Access Protection with the segment
//! registers' Ks bit, as Linux's `asm/book3s/32/kup.h` does it.
//!
//! User pages are PP=01. The kernel's accesses use the key Ks of the segment:
//! with Ks=1 (locked, the normal state in the kernel) PP=01 means read-only,
//! so a stray kernel *write* to user memory takes a DSI. Opening a write window
//! clears Ks in the segment(s) the window covers; closing sets it again.
//! Reads cannot be blocked this way (PP=01 is readable with either key), which
//! is why Linux's book3s/32 KUAP is write-only and a read window writes no
//! segment register.
//!
//! Each unlock/lock is, per segment, `mfsrin; rlwinm/oris; mtsrin; isync`, after
//! the `UNLOCKED` update: the isync is what makes a window dear on these
//! cores (docs/kuap.md counts the whole cost).

use core::sync::atomic::{AtomicU32, Ordering};

use super::{mmu, Book3s32};

/// Bit n set = user segment n is unlocked for kernel writes. Left to
/// LLVM's global merge with the window's own statics (`uaccess`: the
/// counters, the open range, the fault flag), so that a window's open and
/// close reach the mask from the base address they form for those, where
/// a symbol of its own took a `lis` more at each.
static UNLOCKED: AtomicU32 = AtomicU32::new(0);

/// The segments [start, end) touches, as a bit mask.
fn segments(start: u32, end: u32) -> u32 {
    let (first, last) = (start >> 28, (end - 1) >> 28);
    ((1u32 << (last + 1)) - 1) & !((1u32 << first) - 1)
}

/// Write windows only: the state is the mask of unlocked segments.
impl crate::arch::UserAccess for Book3s32 {
    type State = u32;

    /// Opens [start, end) for kernel reads: nothing to do, PP=01 pages are
    /// readable with either key (the 8xx, whose KUAP blocks reads, does work here).
    #[inline(always)]
    fn open_read(_start: u32, _end: u32) {}

    /// Unlocks kernel writes to [start, end) (a non-empty user range).
    ///
    /// A window inside one segment, with nothing unlocked yet (every window
    /// but one crossing a 256 MiB boundary, or one opened inside another),
    /// is straight-line code: the mask stored, one `mfsrin; rlwinm; mtsrin;
    /// isync`. With a caller's constant length that is about 16
    /// instructions, where `set`'s loop over the changed segments took 35.
    ///
    /// The two tests are one: the bits in which the first and last byte's
    /// segments differ, or'ed with the mask, are zero. The segment's bit is
    /// formed here, ahead of the branch, so that it dominates the window's
    /// close, which compares the mask with the same bit: LLVM keeps it in a
    /// register over the window instead of shifting it again there.
    #[inline(always)]
    fn open_write(start: u32, end: u32) {
        let seg = start >> 28;
        let bit = 1u32 << seg;
        if ((start ^ (end - 1)) >> 28) | UNLOCKED.load(Ordering::Relaxed) == 0 {
            UNLOCKED.store(bit, Ordering::Relaxed);
            mmu::set_user_sr(seg, mmu::user_sr(seg) & !mmu::SR_KS_BIT);
        } else {
            set_inline(segments(start, end));
        }
    }

    /// Locks every user segment again. When only the segment of `start`
    /// is unlocked (what `open_write` unlocks in line) that one is locked
    /// in line: the segment comes from the window, not from the mask. The
    /// other case is marked cold, so that LLVM lays its loop out of the
    /// way: placed between, it cost the straight path a branch over it.
    #[inline(always)]
    fn close(start: u32) {
        let seg = start >> 28;
        if UNLOCKED.load(Ordering::Relaxed) == 1 << seg {
            UNLOCKED.store(0, Ordering::Relaxed);
            mmu::set_user_sr(seg, mmu::user_sr(seg) | mmu::SR_KS_BIT);
        } else {
            core::hint::cold_path();
            set_inline(0);
        }
    }

    /// A read window unlocked nothing, so there is nothing to lock.
    #[inline(always)]
    fn close_read() {}

    /// The current unlock state; a kernel-mode trap saves it and locks, its
    /// exit restores it, so an interrupt never runs with a window it did not
    /// open (user mode always runs locked: traps from there have nothing to
    /// save).
    #[inline(always)]
    fn save_and_close() -> u32 {
        let s = UNLOCKED.load(Ordering::Relaxed);
        if s != 0 {
            set(0);
        }
        s
    }

    #[inline(always)]
    fn restore(state: u32) {
        if state != 0 {
            set(state);
        }
    }

    /// Is a kernel write to `ea` currently allowed?
    fn write_allowed(ea: u32) -> bool {
        UNLOCKED.load(Ordering::Relaxed) & (1 << (ea >> 28)) != 0
    }
}

/// Unlocks the segments in `mask` and locks the others (a kernel-mode
/// trap's save and restore).
fn set(mask: u32) {
    set_inline(mask)
}

/// `set` in line: what `open_write` and `close` do for the windows they do
/// not handle straight (one over two segments, one inside another). A call
/// there, however rare, kept every value live across it in a saved register.
#[inline(always)]
fn set_inline(mask: u32) {
    // A load and a store, not `swap` (a lwarx/stwcx. loop): interrupts are
    // off in the kernel (kcell.rs), and a kernel-mode trap saves and
    // restores this state around itself, so nothing changes it in between.
    let old = UNLOCKED.load(Ordering::Relaxed);
    UNLOCKED.store(mask, Ordering::Relaxed);
    let mut changed = old ^ mask;
    while changed != 0 {
        let seg = changed.trailing_zeros();
        changed &= changed - 1;
        // Ks set, then cleared again where the segment is to be unlocked:
        // no branch, and one temporary fewer than a select of the two
        // values, which made the windows' rare branch (inlined into every
        // window's open and close) take a saved register.
        let unlock = (mask >> seg) & 1;
        let v = (mmu::user_sr(seg) | mmu::SR_KS_BIT) ^ (unlock * mmu::SR_KS_BIT);
        mmu::set_user_sr(seg, v);
    }
}
