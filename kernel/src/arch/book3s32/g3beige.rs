//! QEMU's g3beige around a book3s/32 core: mac-io (ESCC console, CUDA,
//! Heathrow PIC) behind the Grackle PCI bridge, and fw_cfg for the boot
//! facts. No firmware runs: QEMU loads the kernel and starts it.

#[path = "cuda.rs"]
mod cuda;
#[path = "escc.rs"]
mod escc;
#[path = "fwcfg.rs"]
mod fwcfg;
#[path = "io.rs"]
mod io;
#[path = "pci.rs"]
mod pci;
#[path = "pic.rs"]
mod pic;
#[path = "uart.rs"]
mod uart;

use crate::arch::ppc32::BootInfo;
pub use cuda::{power_off, rtc_seconds};
pub use pic::{console_irq, take_console_irq};
pub use uart::{getc as console_getc, putc as console_putc, select as select_console};

/// Brings up what the console needs and reads the boot information.
pub fn early_init() -> Option<BootInfo> {
    if !pci::enable_macio() {
        return None;
    }
    pic::init();
    escc::init();
    fwcfg::present().then(fwcfg::boot_info)
}

/// The machine, for the boot banner.
pub const MACHINE: &str = "QEMU g3beige";
