//! The serial console: channel A of the Z85C30 ESCC inside mac-io.
//!
//! QEMU's `-serial stdio` is wired to channel A. Registers are bytes with a
//! 16-byte stride: control at +0x20, data at +0x30. A control write selects
//! register n, the next write sets it; a plain control read is RR0.
//!
//! Output is polled (QEMU's transmitter is always ready at once). Input
//! raises the receive interrupt (WR1 "Rx on all characters", WR9 master
//! enable), routed through the Heathrow PIC (`pic.rs`). QEMU's ESCC holds
//! one received byte and takes the next from its chardev only after that
//! one is read, so a byte left unread holds the sender back: no overrun.

use super::io::{self, Block, Reg};

/// Channel A of the ESCC at mac-io + 0x13000.
const ESCC_A: Block = io::MACIO.sub(0x13020, 0x20);
const CTRL: Reg<u8> = ESCC_A.reg(0);
const DATA: Reg<u8> = ESCC_A.reg(0x10);
const RR0_RX_AVAIL: u8 = 0x01;
const RR0_TX_EMPTY: u8 = 0x04;

fn write_reg(n: u8, v: u8) {
    CTRL.write(n);
    CTRL.write(v);
}

/// Resets the chip and enables 8-bit receive and transmit (QEMU drops output
/// until WR5's transmit-enable bit is set).
pub fn init() {
    write_reg(9, 0xc0); // hardware reset
    write_reg(4, 0x44); // x16 clock, 1 stop bit, no parity
    write_reg(3, 0xc1); // Rx 8 bits, Rx enable
    write_reg(5, 0x68); // Tx 8 bits, Tx enable
    write_reg(1, 0x10); // interrupt on every received character
    write_reg(9, 0x08); // master interrupt enable
}

/// Writes one byte, waiting for the transmit buffer.
pub fn putc(b: u8) {
    while CTRL.read() & RR0_TX_EMPTY == 0 {}
    DATA.write(b);
}

/// Reads one byte if one has arrived.
pub fn getc() -> Option<u8> {
    if CTRL.read() & RR0_RX_AVAIL != 0 {
        Some(DATA.read())
    } else {
        None
    }
}
