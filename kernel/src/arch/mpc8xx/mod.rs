//! mpc8xx: MPC885 boards (MPC885ADS) booted by U-Boot. No QEMU model exists,
//! so this family is built and host-tested, never run here (docs/boards/mpc8xx.md).
//!
//! Owns everything that names a register, an SPR or a device address on these
//! boards; the generic kernel reaches it only through `crate::arch`.
//!
//! Floating point: the 8xx has no FPU (HWCAP says so). FP instructions raise
//! the software emulation exception (0x1000), which `trap` reports as
//! FP-unavailable and the kernel emulates (`crate::fpemu`, as Linux's
//! CONFIG_MATH_EMULATION does), so the shared lazy-FP code
//! (`fp_load`/`fp_save`) is never reached.

mod boot;
pub mod kuap;
pub mod mmu;
mod smc;
mod trap;

pub use super::ppc32::context::{fp_load, fp_save, new_thread, set_kernel_stack, switch, user_frame, FpState};
pub use super::ppc32::frame::{dump, Event, TrapFrame, CR0_SO, MSR_FP, MSR_USER};
pub use boot::BootInfo;
pub use smc::{getc as console_getc, putc as console_putc};

/// The machine, for the boot banner.
pub const MACHINE: &str = "MPC885ADS (U-Boot)";

/// Finds the CPM through IMMR, starts the timebase, reads U-Boot's registers.
pub fn early_init() -> Option<BootInfo> {
    let immr = boot::immr_base()?;
    boot::start_timebase(immr);
    smc::init(immr);
    Some(boot::boot_info())
}

/// Sets up user-space translation: nothing beyond head.S (the TLB-miss
/// handlers do it all). Returns how the TLB is reloaded, for the boot log.
pub fn mmu_init() -> &'static str {
    mmu::flush_all();
    "software (8xx)"
}

/// The processor version register: which CPU this is.
pub fn pvr() -> u32 {
    let v: u32;
    // SAFETY: reading the PVR has no side effects.
    unsafe { core::arch::asm!("mfpvr {0}", out(reg) v, options(nomem, nostack)) };
    v
}

/// What Linux tells a program about this CPU (AT_PLATFORM, AT_HWCAP).
pub fn platform() -> &'static str {
    "ppc823"
}
/// PPC_FEATURE_32 | HAS_MMU: no FPU (Linux cpu_specs_8xx.h).
pub const HWCAP: u32 = 0x8400_0000;
/// Cache block size (AT_DCACHEBSIZE): 16 bytes on the 8xx.
pub const CACHE_BLOCK: u32 = 16;

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
    // SAFETY: as on book3s32: interrupts are enabled only here, where the
    // kernel holds no reference into its global state, and disabled again.
    unsafe {
        core::arch::asm!(
            "mfmsr {t}", "ori {t}, {t}, 0x8000", "mtmsr {t}", "nop", "nop",
            "rlwinm {t}, {t}, 0, 17, 15", "mtmsr {t}",
            t = out(reg) _, options(nostack)
        );
    }
}

/// Makes freshly written instructions at [addr, addr + len) visible to
/// instruction fetch: write the data cache back, invalidate the icache.
/// The addresses are user memory, which KUAP blocks even for these cache
/// operations on the 8xx, so they run inside an open window.
pub fn sync_icache(addr: u32, len: u32) {
    let kuap = kuap::save_and_lock();
    kuap::unlock_read(addr, addr + len);
    let mut a = addr & !(CACHE_BLOCK - 1);
    while a < addr + len {
        // SAFETY: dcbst/icbi on a user address the caller just wrote; they
        // cannot change memory contents.
        unsafe { core::arch::asm!("dcbst 0, {0}", "sync", "icbi 0, {0}", in(reg_nonzero) a, options(nostack)) };
        a += CACHE_BLOCK;
    }
    // SAFETY: a context-synchronising barrier.
    unsafe { core::arch::asm!("sync", "isync", options(nostack)) };
    kuap::lock();
    kuap::restore(kuap);
}

/// Emulates `mfpvr` for user code, as on book3s32 (glibc reads the PVR).
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

/// There is no software power switch on these boards: stop here, with
/// interrupts off, after the console has printed the exit line.
pub fn power_off() -> ! {
    loop {
        // SAFETY: turns external and decrementer interrupts off for good.
        unsafe { core::arch::asm!("mfmsr {t}", "rlwinm {t}, {t}, 0, 17, 15", "mtmsr {t}", t = out(reg) _, options(nostack)) };
    }
}
