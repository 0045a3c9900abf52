//! The book3s/32 MMU for user address spaces: segment registers, the hashed
//! page table (750) and the software-loaded TLB (603/e300).
//!
//! The kernel itself never takes a translation miss: RAM and devices are
//! mapped by BATs (head.S). User memory is described by Sigil's own two-level
//! page table (`mm::space`); the hardware structures are only caches of it:
//!
//! * 750: on a DSI/ISI "no PTE" fault, `reload` copies the software PTE into
//!   the 64 KiB hashed page table (HTAB), evicting an entry if both PTEGs are full.
//! * e300: the TLB-miss vectors (head.S, 0x1000-0x1200) walk the software
//!   table in real mode and load the TLB directly; there is no HTAB at all.
//!
//! A software PTE is already in the hardware's "PTE word 1" format (RPN, R, C,
//! WIMG, PP) plus software bits in the reserved positions, so both reload paths
//! only mask the software bits off.
//!
//! Protection: user pages use PP=01 (read/write) or PP=11 (read-only). A user
//! segment register has Kp=0 and, while in the kernel, Ks=1: the kernel then
//! sees PP=01 pages as read-only. That is KUAP (see kuap.rs).

use core::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

use sigil_core::layout::{to_virt, TASK_SIZE};

use super::Book3s32;
use crate::arch::Mmu;

/// Software PTE bits (in word 1's reserved bits 0xe04) and hardware ones.
pub mod pte {
    pub const PRESENT: u32 = 0x800;
    pub const WRITE: u32 = 0x400;
    pub const EXEC: u32 = 0x200;
    pub const SW_MASK: u32 = 0xe04;
    pub const R: u32 = 0x100;
    pub const C: u32 = 0x80;
    pub const PP_RW: u32 = 0x1;
    pub const PP_RO: u32 = 0x3;
}

const SR_KS: u32 = 0x4000_0000;
const SR_KP: u32 = 0x2000_0000;
const HTAB_SIZE: usize = 64 * 1024;

/// Does this CPU reload its TLB in software (603/e300) rather than from the HTAB?
static SOFT_TLB: AtomicU32 = AtomicU32::new(0);
/// Kernel virtual address of the HTAB (750 only).
static HTAB: AtomicUsize = AtomicUsize::new(0);
/// Round-robin victim when both PTEGs are full.
static VICTIM: AtomicU32 = AtomicU32::new(0);

/// Physical address of a word the 603 miss handlers read in real mode with an
/// absolute `lwz`: the current address space's L1 table.
pub const PGDIR_SLOT: usize = 0xf0;

// head.S's miss handlers repeat these as `#define`s: they must agree.
const _: () = {
    use crate::arch::ppc32::frame::define_in;
    let head = include_str!("head.S");
    assert!(define_in(head, "PGDIR_SLOT") == PGDIR_SLOT);
    assert!(define_in(head, "PTE_PRESENT") == pte::PRESENT as usize);
    assert!(define_in(head, "PTE_WRITE") == pte::WRITE as usize);
};

/// Writes segment register `seg`, with no context synchronisation: an
/// `isync` must follow before user memory is touched through it.
fn mtsrin(seg: u32, v: u32) {
    // SAFETY: only user segments (0-11) change meaning; the kernel runs from BATs.
    unsafe { core::arch::asm!("mtsrin {0}, {1}", in(reg) v, in(reg) seg << 28, options(nostack)) };
}

/// `mtsrin` for a segment number known at build time: `mtsr` takes it as an
/// immediate, so no register is loaded with the segment's address first.
fn mtsr<const SEG: u32>(v: u32) {
    // SAFETY: as for `mtsrin`; `activate` writes only the user segments.
    unsafe {
        core::arch::asm!("mtsr {seg}, {v}", seg = const SEG, v = in(reg) v, options(nostack))
    };
}

/// Context synchronisation: segment registers written before it apply to
/// every access after it.
fn isync() {
    // SAFETY: a barrier.
    unsafe { core::arch::asm!("isync", options(nostack)) };
}

fn set_sr(seg: u32, v: u32) {
    mtsrin(seg, v);
    isync();
}

/// A VSID's bits in a segment register.
const VSID_MASK: u32 = 0x00ff_ffff;
/// What the VSID grows by from one segment of a context to the next.
const VSID_STEP: u32 = 0x111;

const fn vsid(ctx: u32, seg: u32) -> u32 {
    // Linux's scramble (CTX_TO_VSID): spreads contexts over the hash.
    (ctx.wrapping_mul(897 * 16).wrapping_add(seg * VSID_STEP)) & VSID_MASK
}

/// How many contexts `next_segment` steps through without a carry: the
/// first VSID of context `ctx` is `ctx * 897 * 16`, below 2^24 for every
/// one of these, and its last user segment's `(TASK_SIZE >> 28) - 1` steps
/// later still is. More than mm hands out (`Mmu::CONTEXTS` says so, and
/// `proc` checks it against `mm::context::NR_CONTEXTS`, which arch, below
/// mm, does not import).
const CONTEXTS: u32 = (VSID_MASK - ((TASK_SIZE >> 28) - 1) * VSID_STEP) / (897 * 16) + 1;

/// Segment register value (SR_KS and the VSID) of segment 0 of context
/// `ctx`: `vsid(ctx, 0)` without its mask, which clears nothing for the
/// contexts there are (`CONTEXTS`).
const fn first_segment(ctx: u32) -> u32 {
    SR_KS | ctx.wrapping_mul(897 * 16)
}

/// Segment register value `sr` (SR_KS and a VSID) for the next segment of
/// the same context: `vsid(ctx, seg + 1)` from `vsid(ctx, seg)` by one add,
/// as Linux's `switch_mmu_context` steps it. No mask: for the contexts
/// there are (`CONTEXTS`) no VSID of a user segment reaches 2^24, so the
/// sum never carries out of the VSID into the flag bits, and the mask
/// `vsid` applies has nothing to clear.
const fn next_segment(sr: u32) -> u32 {
    sr + VSID_STEP
}

// The argument above, checked at build time for every segment of every
// context: the first value and each step without a mask are `vsid`'s
// values, flags untouched.
const _: () = {
    let mut ctx = 0;
    while ctx < CONTEXTS {
        assert!(first_segment(ctx) == SR_KS | vsid(ctx, 0));
        let mut seg = 0;
        while seg + 1 < TASK_SIZE >> 28 {
            assert!(next_segment(SR_KS | vsid(ctx, seg)) == SR_KS | vsid(ctx, seg + 1));
            seg += 1;
        }
        ctx += 1;
    }
};

/// The segment register value of user segment `seg` for the current space.
pub fn user_sr(seg: u32) -> u32 {
    let v: u32;
    // SAFETY: reading a segment register has no side effects.
    unsafe {
        core::arch::asm!("mfsrin {0}, {1}", out(reg) v, in(reg) seg << 28, options(nomem, nostack))
    };
    v
}

/// Writes a user segment register (KUAP lock/unlock).
pub fn set_user_sr(seg: u32, v: u32) {
    set_sr(seg, v)
}

pub const SR_KS_BIT: u32 = SR_KS;

fn pteg(hash: u32) -> usize {
    HTAB.load(Ordering::Relaxed) + ((hash << 6) as usize & (HTAB_SIZE - 1))
}

/// The architected HTAB update sequence: invalidate, sync, word 1, then word 0.
fn write_pte(slot: &mut [u32; 2], word0: u32, word1: u32) {
    // SAFETY: volatile stores to a kernel-owned HTAB slot, ordered by sync.
    unsafe {
        core::ptr::write_volatile(&mut slot[0], 0);
        core::arch::asm!("sync", options(nostack));
        core::ptr::write_volatile(&mut slot[1], word1);
        core::arch::asm!("eieio", options(nostack));
        core::ptr::write_volatile(&mut slot[0], word0);
        core::arch::asm!("sync", options(nostack));
    }
}

/// QEMU's model of the 603 software TLB keeps its own translation cache, and
/// forgets an entry there only when `tlbie` finds the page in the emulated
/// 64-entry TLB. A page whose entry a later `tlbld` already evicted stays
/// cached, so after munmap the process would still see the old frame (seen
/// as stale data in re-grown brk/mmap memory on qemu-e300). QEMU drops its
/// whole cache when a segment register changes, so we change one and put it
/// back. On a real 603/e300 this costs two mtsrin and is not needed.
fn forget_evicted(ea: u32) {
    let seg = ea >> 28;
    let v = user_sr(seg);
    set_sr(seg, v ^ SR_KP);
    set_sr(seg, v);
}

fn tlbie(ea: u32) {
    // SAFETY: invalidating a TLB entry never breaks the kernel (BAT-mapped).
    unsafe { core::arch::asm!("sync", "tlbie {0}", "sync", in(reg) ea, options(nostack)) };
}

/// Empties the whole TLB (tlbia is illegal on e300, so one tlbie per congruence class).
fn flush_all() {
    for i in 0..64u32 {
        tlbie(i << 12);
    }
    // SAFETY: a barrier.
    unsafe { core::arch::asm!("sync", options(nostack)) };
}

/// Segments and the hash table (750) or software TLB reload (603/e300).
impl Mmu for Book3s32 {
    const CONTEXTS: Option<usize> = Some(CONTEXTS as usize);

    /// The PTE for a user page at `phys` (read is implied). WRITE only ever
    /// beside PRESENT: the e300's store-miss vector (head.S) tests WRITE alone.
    #[inline(always)]
    fn make_pte(phys: usize, write: bool, exec: bool) -> u32 {
        let mut v = phys as u32 | pte::PRESENT | pte::R | pte::C;
        v |= if write { pte::WRITE | pte::PP_RW } else { pte::PP_RO };
        if exec {
            v |= pte::EXEC;
        }
        v
    }
    #[inline(always)]
    fn pte_present(p: u32) -> bool {
        p & pte::PRESENT != 0
    }
    #[inline(always)]
    fn pte_writable(p: u32) -> bool {
        p & pte::WRITE != 0
    }
    #[inline(always)]
    fn pte_phys(p: u32) -> usize {
        (p & 0xffff_f000) as usize
    }

    /// Sets up translation for user space: the HTAB (750) or nothing (e300), and
    /// kernel segments 12-15 (never used for translation: BATs cover them);
    /// says which reload the CPU uses.
    fn init(alloc: fn(u32) -> Option<usize>) -> &'static str {
        let soft_tlb = super::is_603();
        SOFT_TLB.store(soft_tlb as u32, Ordering::Relaxed);
        if !soft_tlb {
            let phys = alloc(4).expect("RAM for the hash table");
            HTAB.store(to_virt(phys), Ordering::Relaxed);
            // SAFETY: SDR1 = table base with HTABMASK 0 (64 KiB); the table is zeroed.
            unsafe {
                core::arch::asm!("sync", "mtsdr1 {0}", "isync", in(reg) phys, options(nostack))
            };
        }
        for seg in 12..16u32 {
            set_sr(seg, SR_KP | 0x00ff_fff0 | seg);
        }
        flush_all();
        if soft_tlb {
            "software (603)"
        } else {
            "hash table"
        }
    }

    /// Makes `ctx` with L1 table `pgdir_phys` the current user address space.
    /// Segments are loaded locked (Ks=1): the kernel cannot write user memory
    /// until a `UserWindow` unlocks one.
    /// One `isync` after all twelve writes, as Linux's `switch_mmu_context`
    /// does: the kernel runs from BATs, so nothing between them uses a user
    /// segment (11 fewer instructions a switch than one `isync` each). Each
    /// value comes from the one before by one add (`next_segment`), rather
    /// than from `vsid`'s scramble computed afresh, and goes out by `mtsr`
    /// with the segment's number an immediate: `mtsrin` took its address
    /// in a register, one `lis` a segment. So a segment costs two
    /// instructions, the add and the write, and none of them a mask
    /// (`first_segment`, `next_segment`).
    fn activate(ctx: u32, pgdir_phys: usize) {
        let mut sr = first_segment(ctx);
        // LLVM sees every later value as the first plus a constant, and
        // built one such constant (SR_KS plus a step) in a register, where
        // `switch_to` then derived the kernel stack's physical top from it
        // on the path that switches no space too (two more instructions
        // there). An empty asm hides the first value's origin: each segment
        // is an `addi` from it.
        // SAFETY: the asm has no instructions; `sr` goes through unchanged.
        unsafe {
            core::arch::asm!("# {0}", inout(reg) sr, options(pure, nomem, nostack, preserves_flags))
        };
        macro_rules! user_segments {
            ($($seg:literal)*) => {
                const _: () = assert!([$($seg),*].len() as u32 == TASK_SIZE >> 28);
                $(
                    mtsr::<$seg>(sr);
                    sr = next_segment(sr);
                )*
            };
        }
        user_segments!(0 1 2 3 4 5 6 7 8 9 10);
        isync();
        // SAFETY: PGDIR_SLOT is a reserved word in the vector page (below 0x100).
        unsafe { core::ptr::write_volatile(to_virt(PGDIR_SLOT) as *mut u32, pgdir_phys as u32) };
    }

    /// Copies the software PTE for `ea` into the HTAB (750). Returns at once on
    /// a software-TLB CPU, where the miss handlers do this job.
    fn reload(ctx: u32, ea: u32, swpte: u32) {
        if SOFT_TLB.load(Ordering::Relaxed) != 0 {
            return;
        }
        let v = vsid(ctx, ea >> 28);
        let api = (ea >> 22) & 0x3f;
        let hash = (v & 0x7ffff) ^ ((ea >> 12) & 0xffff);
        let word1 = swpte & !pte::SW_MASK;
        for (h, hv) in [(0u32, hash), (0x40, !hash)] {
            let word0 = 0x8000_0000 | (v << 7) | h | api;
            let base = pteg(hv) as *mut [u32; 2];
            for i in 0..8 {
                // SAFETY: `base` is one of the 1024 PTEGs of the zeroed, kernel-owned HTAB.
                let slot = unsafe { &mut *base.add(i) };
                if slot[0] & 0x8000_0000 == 0 || slot[0] == word0 {
                    write_pte(slot, word0, word1);
                    return;
                }
            }
        }
        // Both groups full: evict a slot of the primary group.
        let i = VICTIM.fetch_add(1, Ordering::Relaxed) as usize % 8;
        // SAFETY: as above.
        let slot = unsafe { &mut *(pteg(hash) as *mut [u32; 2]).add(i) };
        write_pte(slot, 0x8000_0000 | (v << 7) | api, word1);
        flush_all();
    }

    /// Forgets the translation of one user page of `ctx` (HTAB entry and TLB).
    fn flush_page(ctx: u32, ea: u32) {
        if SOFT_TLB.load(Ordering::Relaxed) == 0 {
            let v = vsid(ctx, ea >> 28);
            let api = (ea >> 22) & 0x3f;
            let hash = (v & 0x7ffff) ^ ((ea >> 12) & 0xffff);
            for (h, hv) in [(0u32, hash), (0x40, !hash)] {
                let word0 = 0x8000_0000 | (v << 7) | h | api;
                let base = pteg(hv) as *mut [u32; 2];
                for i in 0..8 {
                    // SAFETY: as in `reload`.
                    let slot = unsafe { &mut *base.add(i) };
                    if slot[0] == word0 {
                        // SAFETY: as in `write_pte`.
                        unsafe { core::ptr::write_volatile(&mut slot[0], 0) };
                    }
                }
            }
        } else {
            forget_evicted(ea);
        }
        tlbie(ea);
    }
}
