//! book3s/32: the PowerPC 750 and the e300 core (MPC832x) on QEMU's g3beige.
//!
//! Owns everything that names a register, an SPR or a device address on these
//! boards; the generic kernel reaches it only through `crate::arch`.

mod cuda;
mod escc;
mod fwcfg;
mod io;
pub mod kuap;
pub mod mmu;
mod pci;
mod trap;

pub use super::ppc32::context::{boot_stack_bounds, fp_load, fp_save, new_thread, set_kernel_stack, switch, user_frame, FpState};
pub use super::ppc32::frame::{backtrace, dump, stack_pointer, Event, TrapFrame, CR0_SO, MSR_FP, MSR_USER};
pub use cuda::power_off;
pub use escc::{getc as console_getc, putc as console_putc};
pub use fwcfg::BootInfo;

/// Brings up what the console needs and reads the boot information.
pub fn early_init() -> Option<BootInfo> {
    if !pci::enable_macio() {
        return None;
    }
    escc::init();
    fwcfg::present().then(fwcfg::boot_info)
}

/// The machine, for the boot banner.
pub const MACHINE: &str = "QEMU g3beige";

/// Sets up user-space translation for this CPU; returns how its TLB is
/// reloaded, for the boot log.
pub fn mmu_init() -> &'static str {
    let soft_tlb = is_603();
    mmu::init(soft_tlb);
    if soft_tlb { "software (603)" } else { "hash table" }
}

/// The processor version register: which CPU this is.
pub fn pvr() -> u32 {
    let v: u32;
    // SAFETY: reading the PVR has no side effects.
    unsafe { core::arch::asm!("mfpvr {0}", out(reg) v, options(nomem, nostack)) };
    v
}

/// A 603-class core (603e, e300): software TLB reload, no hash table.
pub fn is_603() -> bool {
    matches!((pvr() >> 16) & 0x7fff, 0x3 | 0x6 | 0x7 | 0x81..=0x85)
}

/// What Linux tells a program about this CPU (AT_PLATFORM, AT_HWCAP).
pub fn platform() -> &'static str {
    if is_603() { "ppc603" } else { "ppc750" }
}
/// PPC_FEATURE_32 | HAS_FPU | HAS_MMU (QEMU's e300c2 has an FPU too).
pub const HWCAP: u32 = 0x8c00_0000;
/// Cache block size: glibc's memset uses dcbz with it (AT_DCACHEBSIZE).
pub const CACHE_BLOCK: u32 = 32;

/// The 64-bit timebase.
pub fn timebase() -> u64 {
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
pub fn set_decrementer(ticks: u32) {
    // SAFETY: the decrementer only raises the 0x900 interrupt.
    unsafe { core::arch::asm!("mtdec {0}", in(reg) ticks, options(nomem, nostack)) };
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

/// Makes freshly written instructions at [addr, addr + len) visible to
/// instruction fetch (the signal trampoline): write the data cache back,
/// invalidate the instruction cache.
pub fn sync_icache(addr: u32, len: u32) {
    let mut a = addr & !(CACHE_BLOCK - 1);
    while a < addr + len {
        // SAFETY: dcbst/icbi on a user address the caller just wrote; they
        // cannot change memory contents.
        unsafe { core::arch::asm!("dcbst 0, {0}", "sync", "icbi 0, {0}", in(reg_nonzero) a, options(nostack)) };
        a += CACHE_BLOCK;
    }
    // SAFETY: a context-synchronising barrier.
    unsafe { core::arch::asm!("sync", "isync", options(nostack)) };
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
