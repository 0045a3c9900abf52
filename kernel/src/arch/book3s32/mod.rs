//! book3s/32: the PowerPC 750 and the e300 core (MPC832x) on QEMU's g3beige.
//!
//! Owns everything that names a register, an SPR or a device address on these
//! boards; the generic kernel reaches it only through `crate::arch`.

mod cuda;
mod escc;
mod fwcfg;
mod io;
mod pci;
mod trap;

pub use fwcfg::BootInfo;
pub use trap::{dump, TrapFrame};

/// Brings up what the console needs and reads the boot information.
pub fn early_init() -> Option<BootInfo> {
    if !pci::enable_macio() {
        return None;
    }
    escc::init();
    fwcfg::present().then(fwcfg::boot_info)
}

/// The processor version register: which CPU this is.
pub fn pvr() -> u32 {
    let v: u32;
    // SAFETY: reading the PVR has no side effects.
    unsafe { core::arch::asm!("mfpvr {0}", out(reg) v, options(nomem, nostack)) };
    v
}

pub use cuda::power_off;
pub use escc::{getc as console_getc, putc as console_putc};
