//! book3s/32: the PowerPC 750 and the e300 core (MPC832x) on QEMU's g3beige,
//! and the e300c2 on an MPC8321E-RDB booted by U-Boot.
//!
//! Owns everything that names a register, an SPR or a device address on these
//! boards; the generic kernel reaches it only through `crate::arch`.

mod kuap;
mod mmu;
mod trap;

// The machine around the core, picked by the board file (KERNEL_ENV
// SIGIL_PLATFORM, build.rs): QEMU's g3beige, or an MPC83xx SoC booted by
// U-Boot. Each gives early_init, MACHINE, power_off and the console.
// The console goes out only through `impl Console` below.
#[cfg(not(sigil_platform = "mpc83xx"))]
mod g3beige;
#[cfg(not(sigil_platform = "mpc83xx"))]
use g3beige as platform;
#[cfg(sigil_platform = "mpc83xx")]
mod mpc83xx;
#[cfg(sigil_platform = "mpc83xx")]
use mpc83xx as platform;
pub use platform::{early_init, power_off, rtc_seconds, MACHINE};

pub use super::ppc32::context::FpState;
pub use super::ppc32::cpu::{
    copy_block, copy_block_padded, emulate_privileged, idle, pvr, skip_faulted_access,
    sync_icache_range,
};
pub use super::ppc32::frame::{backtrace, dump, stack_pointer, Exception, TrapFrame, PT_REGS};
pub(crate) use super::ppc32::static_key::{sites as static_key_sites, static_branch};
pub use super::ppc32::trap::exception;
pub use trap::classify;

/// The book3s/32 family: what it implements of `crate::arch`'s traits.
pub struct Book3s32;

// The traits' implementations live with what they drive: UserAccess in
// kuap.rs, Mmu in mmu.rs, Console in the platform's file.

/// A 603-class core (603e, e300): software TLB reload, no hash table.
pub fn is_603() -> bool {
    matches!((pvr() >> 16) & 0x7fff, 0x3 | 0x6 | 0x7 | 0x81..=0x85)
}

/// What Linux tells a program about this CPU (AT_PLATFORM, AT_HWCAP).
pub fn platform() -> &'static str {
    if is_603() {
        "ppc603"
    } else {
        "ppc750"
    }
}
/// The e300c2 (the MPC832x core of the mailing-list measurements) is an
/// e300c1 without its FPU. QEMU's model of it does execute FP instructions,
/// but Sigil follows the hardware: on an e300c2 user FP is emulated, as
/// Linux does for CPU_FTR_FPU_UNAVAILABLE cores.
const PVR_E300C2: u32 = 0x0084;

/// AT_HWCAP: PPC_FEATURE_32 | HAS_MMU, and HAS_FPU unless the core has none.
pub fn hwcap() -> u32 {
    const PPC_FEATURE_32_MMU: u32 = 0x8400_0000;
    const PPC_FEATURE_HAS_FPU: u32 = 0x0800_0000;
    if pvr() >> 16 == PVR_E300C2 {
        PPC_FEATURE_32_MMU
    } else {
        PPC_FEATURE_32_MMU | PPC_FEATURE_HAS_FPU
    }
}
/// Cache block size: glibc's memset uses dcbz with it (AT_DCACHEBSIZE).
pub const CACHE_BLOCK: u32 = 32;
