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

use super::Book3s32;
use crate::arch::ppc32::BootInfo;
pub use cuda::{power_off, rtc_seconds};

/// The console is a UART (the ESCC's channel A, or a PCI 16550 picked by
/// `console=ttyS0`) whose receive interrupt comes through the Heathrow PIC.
impl crate::arch::Console for Book3s32 {
    fn putc(b: u8) {
        uart::putc(b)
    }
    fn getc() -> Option<u8> {
        uart::getc()
    }
    fn irq(enable: bool) {
        pic::console_irq(enable)
    }
    fn take_irq() -> bool {
        pic::take_console_irq()
    }
    fn select(name: &[u8]) -> bool {
        uart::select(name)
    }
}

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
