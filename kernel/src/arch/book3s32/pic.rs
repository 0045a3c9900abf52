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

use super::io::{self, Block, Reg};

/// Heathrow's two banks of events, mask, clear and levels words.
const PIC: Block = io::MACIO.sub(0x10, 0x20);
const HIGH_MASK: Reg<u32> = PIC.reg(0x4);
const HIGH_CLEAR: Reg<u32> = PIC.reg(0x8);
const EVENTS: Reg<u32> = PIC.reg(0x10);
const MASK: Reg<u32> = PIC.reg(0x14);
const CLEAR: Reg<u32> = PIC.reg(0x18);
const LEVELS: Reg<u32> = PIC.reg(0x1c);
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
    MASK.write_le(0);
    CLEAR.write_le(!0);
    HIGH_MASK.write_le(0);
    HIGH_CLEAR.write_le(!0);
}

/// Lets the console's receive interrupt through, or holds it back (the
/// receive buffer is full: the byte waits in the UART, and QEMU holds the
/// rest, until a reader makes room).
pub fn console_irq(enable: bool) {
    let bit = CONSOLE.load(Ordering::Relaxed);
    let mask = MASK.read_le();
    MASK.write_le(if enable { mask | bit } else { mask & !bit });
}

/// Was the external interrupt the console's? Clears its event if so.
pub fn take_console_irq() -> bool {
    let bit = CONSOLE.load(Ordering::Relaxed);
    if (EVENTS.read_le() | LEVELS.read_le()) & bit == 0 {
        return false;
    }
    CLEAR.write_le(bit);
    true
}
