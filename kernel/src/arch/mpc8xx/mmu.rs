//! The 8xx MMU for user address spaces: the TLB is a cache of Sigil's
//! two-level table, reloaded in software by head.S (ITLB/DTLB miss).
//!
//! A PTE is already an MD_RPN value (sigil_core::mmu8xx explains the bits),
//! so the miss handler loads it as it is. Switching address spaces points
//! M_TWB at the new level-1 table and empties the TLB: Sigil uses no ASIDs
//! (the 8xx has 16; Linux manages them, Sigil keeps it simple).

use sigil_core::mmu8xx::{self, pte};

use super::Mpc8xx;
use crate::arch::Mmu;

/// The software-reloaded TLB over Sigil's tables (head.S's miss handlers).
impl Mmu for Mpc8xx {
    /// Any number: `activate` ignores the context and empties the TLB.
    const CONTEXTS: Option<usize> = None;

    /// Nothing beyond head.S: the TLB-miss handlers do it all.
    fn init(_alloc: fn(u32) -> Option<usize>) -> &'static str {
        flush_all();
        "software (8xx)"
    }
    /// The PTE for a user page at `phys` (read is implied).
    #[inline(always)]
    fn make_pte(phys: usize, write: bool, exec: bool) -> u32 {
        mmu8xx::user_pte(phys as u32, write, exec)
    }
    #[inline(always)]
    fn pte_present(p: u32) -> bool {
        p & pte::PRESENT != 0
    }
    #[inline(always)]
    fn pte_writable(p: u32) -> bool {
        p & pte::RO == 0
    }
    #[inline(always)]
    fn pte_phys(p: u32) -> usize {
        (p & pte::RPN_MASK) as usize
    }

    /// Makes the table at `pgdir_phys` the current user address space.
    fn activate(_ctx: u32, pgdir_phys: usize) {
        // SAFETY: M_TWB is read only by the TLB-miss handlers; the table is
        // a live, zero-initialised level-1 frame.
        unsafe {
            core::arch::asm!("mtspr {spr}, {0}", in(reg) pgdir_phys, spr = const super::M_TWB, options(nostack))
        };
        flush_all();
    }

    /// After the fault handler made the PTE for `ea` valid: drop the invalid
    /// entry the miss handler loaded, so the retry walks the table again.
    fn reload(_ctx: u32, ea: u32, _swpte: u32) {
        tlbie(ea);
    }

    /// Forgets the translation of one user page.
    fn flush_page(_ctx: u32, ea: u32) {
        tlbie(ea);
    }
}

fn tlbie(ea: u32) {
    // SAFETY: dropping a TLB entry only causes a later reload.
    unsafe { core::arch::asm!("sync", "tlbie {0}", "sync", in(reg) ea, options(nostack)) };
}

/// Empties both TLBs (the kernel's 8 MiB entries come back on the next miss).
fn flush_all() {
    // SAFETY: as for tlbie.
    unsafe { core::arch::asm!("sync", "tlbia", "sync", "isync", options(nostack)) };
}
