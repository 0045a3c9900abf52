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
mod kuap;
mod mmu;
mod smc;
mod trap;

pub use super::ppc32::context::FpState;
pub use super::ppc32::cpu::{
    copy_block, copy_block_padded, emulate_privileged, idle, pvr, skip_faulted_access,
    sync_icache_range,
};
pub use super::ppc32::frame::{backtrace, dump, stack_pointer, Exception, TrapFrame, PT_REGS};
pub(crate) use super::ppc32::static_key::{sites as static_key_sites, static_branch};
pub use super::ppc32::trap::exception;
pub use super::ppc32::BootInfo;
pub use boot::rtc_seconds;
pub use trap::classify;

/// The machine, for the boot banner.
pub const MACHINE: &str = "MPC885ADS (U-Boot)";

/// The MMU special-purpose registers the Rust side writes: MD_AP, the data
/// access-protection groups (KUAP's switch, kuap.rs), and M_TWB, the
/// level-1 table base the TLB-miss handlers walk from (mmu.rs). head.S
/// names them too; the build checks that both say the same.
const MD_AP: usize = 794;
const M_TWB: usize = 796;
const _: () = {
    use super::ppc32::frame::define_in;
    assert!(define_in(include_str!("head.S"), "MD_AP") == MD_AP);
    assert!(define_in(include_str!("head.S"), "M_TWB") == M_TWB);
};

/// Finds the CPM through IMMR, starts the timebase, reads U-Boot's registers.
pub fn early_init() -> Option<BootInfo> {
    let immr = boot::immr()?;
    boot::start_timebase(immr);
    smc::init(immr);
    Some(boot::boot_info())
}

/// The 8xx family: what it implements of `crate::arch`'s traits.
pub struct Mpc8xx;

// The traits' implementations live with what they drive: UserAccess in
// kuap.rs, Mmu in mmu.rs, Console in smc.rs.

/// What Linux tells a program about this CPU (AT_PLATFORM, AT_HWCAP).
pub fn platform() -> &'static str {
    "ppc823"
}
/// PPC_FEATURE_32 | HAS_MMU: no FPU (Linux cpu_specs_8xx.h).
pub fn hwcap() -> u32 {
    0x8400_0000
}
/// Cache block size (AT_DCACHEBSIZE): 16 bytes on the 8xx.
pub const CACHE_BLOCK: u32 = 16;

/// There is no software power switch on these boards: stop here, with
/// interrupts off, after the console has printed the exit line.
pub fn power_off() -> ! {
    loop {
        // SAFETY: turns external and decrementer interrupts off for good.
        unsafe {
            core::arch::asm!("mfmsr {t}", "rlwinm {t}, {t}, 0, 17, 15", "mtmsr {t}", t = out(reg) _, options(nostack))
        };
    }
}
