//! KUAP on the 8xx: Kernel Userspace Access Protection with the data
//! access-protection register MD_AP (SPR 794), as Linux's
//! `asm/nohash/32/kup-8xx.h` does it.
//!
//! Every user level-1 entry carries access-protection group 3. MD_AP holds
//! two bits per group: open (0xdc000000) makes group 3 "check everything as
//! supervisor", locked (0xde000000) makes it "swapped", so the kernel is held
//! to the user column of the page protection - no access. Unlike book3s/32
//! this blocks kernel *reads* too. A window is one `mtspr` to open and one to
//! close, whatever its size. The values are checked in sigil_core::mmu8xx.

use core::sync::atomic::{AtomicBool, Ordering};

use sigil_core::mmu8xx::{MD_AP_LOCKED, MD_AP_OPEN};

use super::Mpc8xx;

/// Is user access open (MD_AP = open)? Mirrors the register for the fault handler.
static OPEN: AtomicBool = AtomicBool::new(false);

fn set(open: bool) {
    OPEN.store(open, Ordering::Relaxed);
    let v = if open { MD_AP_OPEN } else { MD_AP_LOCKED };
    // SAFETY: MD_AP only changes what the kernel may do to group-3 (user) pages.
    unsafe {
        core::arch::asm!("mtspr {spr}, {0}", "isync", in(reg) v, spr = const super::MD_AP, options(nostack))
    };
}

/// One switch for all of user memory, reads and writes: the state is
/// whether it is open.
impl crate::arch::UserAccess for Mpc8xx {
    type State = u32;

    /// Opens user memory for kernel reads: the same switch as for writes.
    #[inline(always)]
    fn open_read(_start: u32, _end: u32) {
        set(true);
    }

    /// Opens user memory for kernel writes (the whole of it: MD_AP is
    /// all-or-nothing).
    #[inline(always)]
    fn open_write(_start: u32, _end: u32) {
        set(true);
    }

    #[inline(always)]
    fn close(_start: u32) {
        set(false);
    }

    /// Reads were opened with the one switch, so they close with it too.
    #[inline(always)]
    fn close_read() {
        set(false);
    }

    /// A kernel-mode trap saves the state and locks; its exit restores it.
    #[inline(always)]
    fn save_and_close() -> u32 {
        let open = OPEN.load(Ordering::Relaxed);
        if open {
            set(false);
        }
        open as u32
    }

    #[inline(always)]
    fn restore(state: u32) {
        if state != 0 {
            set(true);
        }
    }

    /// Is a kernel write to user address `_ea` currently allowed?
    fn write_allowed(_ea: u32) -> bool {
        OPEN.load(Ordering::Relaxed)
    }
}
