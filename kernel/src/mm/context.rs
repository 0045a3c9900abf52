//! MMU context numbers: which address space a hardware translation belongs to.
//!
//! On book3s32 a context selects the VSIDs of the user segments (arch/book3s32/mmu.rs),
//! so the HTAB and the TLB can hold entries of many address spaces at once
//! and a switch needs no flush. Two live address spaces with one context
//! would see each other's pages. Numbers therefore come from a free set, as
//! in Linux's book3s32 `mmu_context.c`: a bitmap searched next-fit from the
//! last number handed out (so a freed number is reused as late as possible),
//! and a number goes back into the set when its address space is dropped -
//! after `AddressSpace::drop` has flushed every page it mapped, so no
//! hardware entry with its VSIDs is left for the next owner.
//!
//! The set is much larger than the address spaces that can be alive at once
//! (a process has one, plus one an execve builds: proc checks this at compile
//! time), so it runs out only on a kernel bug; `alloc` then returns None and
//! the fork or execve fails with ENOMEM instead of sharing a number. The 8xx ignores contexts: it empties
//! its TLB on every switch (arch/mpc8xx/mmu.rs).

use crate::kcell::KCell;

/// Context numbers 1..NR_CONTEXTS (0 means "none": it is never handed out).
pub const NR_CONTEXTS: usize = 1024;

struct Contexts {
    used: [u32; NR_CONTEXTS / 32],
    /// Where the next search starts.
    next: usize,
}

/// Context 0 starts (and stays) used.
static CONTEXTS: KCell<Contexts> = KCell::new(Contexts { used: only_zero_used(), next: 1 });

const fn only_zero_used() -> [u32; NR_CONTEXTS / 32] {
    let mut used = [0; NR_CONTEXTS / 32];
    used[0] = 1;
    used
}

impl Contexts {
    fn is_used(&self, n: usize) -> bool {
        self.used[n / 32] & (1 << (n % 32)) != 0
    }
}

/// A free context number, now marked used; None if every one is taken.
pub fn alloc() -> Option<u32> {
    let c = CONTEXTS.get();
    let n = (0..NR_CONTEXTS).map(|i| (c.next + i) % NR_CONTEXTS).find(|&n| !c.is_used(n))?;
    c.used[n / 32] |= 1 << (n % 32);
    c.next = (n + 1) % NR_CONTEXTS;
    Some(n as u32)
}

/// Gives `ctx` back; its address space has flushed all its translations.
pub fn free(ctx: u32) {
    let c = CONTEXTS.get();
    let n = ctx as usize;
    assert!(n != 0 && c.is_used(n), "free of an unused MMU context {n}");
    c.used[n / 32] &= !(1 << (n % 32));
}
