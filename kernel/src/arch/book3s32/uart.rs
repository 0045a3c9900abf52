//! Which UART the g3beige console uses: the ESCC's channel A (the default,
//! QEMU's `-serial`), or a 16550 on a PCI card (QEMU's `pci-serial`) after
//! the boot option `console=ttyS0` (Linux's name for the first 8250-family
//! port). Both feed the same terminal (`dev::tty`) through the same names:
//! `putc`, `getc`, and the interrupt in `pic`.
//!
//! The choice is made once, while the command line is read at boot, before
//! the banner and before any input is taken.

use core::sync::atomic::{AtomicUsize, Ordering};

use super::{escc, pci, pic};
use crate::arch::ppc32::ns16550::Ns16550;

/// The 16550's registers once it is the console (0: the ESCC is).
static NS16550: AtomicUsize = AtomicUsize::new(0);

/// pci-serial's input clock: a PC UART's 1.8432 MHz (QEMU ignores the rate).
const PCI_SERIAL_CLOCK: u32 = 1_843_200;
const BAUD: u32 = 115_200;

fn ns16550() -> Option<Ns16550> {
    let base = NS16550.load(Ordering::Relaxed);
    // SAFETY: `select` stored the address of a 16550 it found and set up,
    // inside head.S's PCI I/O window; only this file drives it.
    (base != 0).then(|| unsafe { Ns16550::new(base) })
}

/// `console=<name>`: switches to the named UART. False if there is none.
pub fn select(name: &[u8]) -> bool {
    match name {
        b"ttyS0" => {
            let Some((base, source)) = pci::enable_serial() else { return false };
            // SAFETY: the card's BAR was just given this I/O port; nothing
            // else drives it.
            let uart = unsafe { Ns16550::new(base) };
            uart.init(sigil_core::uart16550::divisor(PCI_SERIAL_CLOCK, BAUD));
            pic::set_console_source(source);
            NS16550.store(base, Ordering::Relaxed);
            true
        }
        b"ttyPZ0" => true, // the ESCC (Linux's pmac_zilog name), as booted
        _ => false,
    }
}

/// Writes one byte to the console UART.
pub fn putc(b: u8) {
    match ns16550() {
        Some(u) => u.putc(b),
        None => escc::putc(b),
    }
}

/// Reads one byte from the console UART if one has arrived.
pub fn getc() -> Option<u8> {
    match ns16550() {
        Some(u) => u.getc(),
        None => escc::getc(),
    }
}
