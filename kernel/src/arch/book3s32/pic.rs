//! The Heathrow interrupt controller inside mac-io (the g3beige's PIC), as
//! far as Sigil uses it: the console UART's receive interrupt (the ESCC's,
//! or a PCI 16550's after `console=ttyS0`).
//!
//! Heathrow has two banks of 32 sources; each bank is four little-endian
//! words: events (latched edges), mask, clear (write 1s to drop events) and
//! levels. Sources 0-31 are in the bank at +0x20, 32-63 at +0x10. ESCC
//! channel A is source 15 (QEMU's OLDWORLD_ESCCA_IRQ, as in Apple's device
//! tree), an edge source: its event is latched when the line rises, so the
//! handler clears it before draining the UART, and a byte arriving after
//! the drain raises a new one. PCI lines (sources 21-24) are level
//! sources: they latch no event and stay asserted, seen in the levels
//! word, until the device is drained.

use core::sync::atomic::{AtomicU32, Ordering};

use super::io;

const BANK_LOW: usize = io::MACIO + 0x20;
const EVENTS: usize = BANK_LOW;
const MASK: usize = BANK_LOW + 0x4;
const CLEAR: usize = BANK_LOW + 0x8;
const LEVELS: usize = BANK_LOW + 0xc;
const ESCC_A: u32 = 1 << 15;

/// The console's source bit (in the low bank).
static CONSOLE: AtomicU32 = AtomicU32::new(ESCC_A);

/// Makes `source` (0-31) the console's, masked until `console_irq(true)`.
pub fn set_console_source(source: u32) {
    console_irq(false);
    CONSOLE.store(1 << source, Ordering::Relaxed);
}

/// Masks every source and drops stale events (boot).
pub fn init() {
    io::write32_le(MASK, 0);
    io::write32_le(CLEAR, !0);
    io::write32_le(io::MACIO + 0x14, 0);
    io::write32_le(io::MACIO + 0x18, !0);
}

/// Lets the console's receive interrupt through, or holds it back (the
/// receive buffer is full: the byte waits in the UART, and QEMU holds the
/// rest, until a reader makes room).
pub fn console_irq(enable: bool) {
    let bit = CONSOLE.load(Ordering::Relaxed);
    let mask = io::read32_le(MASK);
    io::write32_le(MASK, if enable { mask | bit } else { mask & !bit });
}

/// Was the external interrupt the console's? Clears its event if so.
pub fn take_console_irq() -> bool {
    let bit = CONSOLE.load(Ordering::Relaxed);
    if (io::read32_le(EVENTS) | io::read32_le(LEVELS)) & bit == 0 {
        return false;
    }
    io::write32_le(CLEAR, bit);
    true
}
