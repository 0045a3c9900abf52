//! The ns16550 UART as a register map: the offsets and bits Sigil's driver
//! (kernel/src/arch/ppc32/ns16550.rs) uses, the divisor for a line rate, and
//! the order of the writes that set a line up. Byte registers, one byte
//! apart, as on the MPC83xx DUART and QEMU's pci-serial.
//!
//! With LCR[DLAB] set, offsets 0 and 1 are the divisor latch (low, high)
//! instead of the data and interrupt-enable registers.

pub const RBR_THR: usize = 0; // receive buffer (read) / transmit holding (write)
pub const IER: usize = 1;
pub const DLL: usize = 0; // with DLAB
pub const DLM: usize = 1; // with DLAB
pub const LCR: usize = 3;
pub const MCR: usize = 4;
pub const LSR: usize = 5;

/// IER: interrupt when received data is available.
pub const IER_RX: u8 = 0x01;
/// LCR: 8 data bits, no parity, 1 stop bit; DLAB opens the divisor latch.
pub const LCR_8N1: u8 = 0x03;
pub const LCR_DLAB: u8 = 0x80;
/// MCR: DTR, RTS, and OUT2 (the interrupt gate of PC-style boards).
pub const MCR_DTR_RTS_OUT2: u8 = 0x0b;
/// LSR: a received byte is waiting; the transmit holding register is empty.
pub const LSR_DR: u8 = 0x01;
pub const LSR_THRE: u8 = 0x20;

/// The divisor for `baud` from a `clock_hz` input clock (16 samples a bit),
/// rounded to the nearest; None if it does not fit the 16-bit latch.
pub fn divisor(clock_hz: u32, baud: u32) -> Option<u16> {
    if baud == 0 {
        return None;
    }
    let d = (clock_hz as u64 + 8 * baud as u64) / (16 * baud as u64);
    u16::try_from(d).ok().filter(|&d| d != 0)
}

/// The writes, in order, that set a line to 8N1 with receive interrupts on:
/// interrupts off first, the divisor if one is given (None keeps the rate
/// the firmware programmed), modem lines up, receive on. The FIFOs stay as
/// the firmware left them: enabling them resets them, losing bytes already in.
pub fn setup(div: Option<u16>) -> impl Iterator<Item = (usize, u8)> {
    let [lo, hi] = div.unwrap_or(0).to_le_bytes();
    let rate = div.map(|_| [(LCR, LCR_DLAB | LCR_8N1), (DLL, lo), (DLM, hi)]);
    [(IER, 0)].into_iter().chain(rate.into_iter().flatten()).chain([
        (LCR, LCR_8N1),
        (MCR, MCR_DTR_RTS_OUT2),
        (IER, IER_RX),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn divisors_of_the_boards_clocks() {
        // MPC8321E-RDB: the DUART runs from the 133.33 MHz CSB clock.
        assert_eq!(divisor(133_333_333, 115_200), Some(72));
        assert_eq!(divisor(133_333_333, 9600), Some(868));
        // QEMU's pci-serial (and a PC's UART): 1.8432 MHz.
        assert_eq!(divisor(1_843_200, 115_200), Some(1));
        assert_eq!(divisor(1_843_200, 300), Some(384));
        // Too slow for the latch, too fast for the clock, no rate.
        assert_eq!(divisor(133_333_333, 50), None);
        assert_eq!(divisor(1_843_200, 1_000_000), None);
        assert_eq!(divisor(1_843_200, 0), None);
    }

    #[test]
    fn setup_order() {
        let with: Vec<_> = setup(Some(0x0348)).collect();
        assert_eq!(
            with,
            [(IER, 0), (LCR, 0x83), (DLL, 0x48), (DLM, 0x03), (LCR, 0x03), (MCR, 0x0b), (IER, 1)]
        );
        let kept: Vec<_> = setup(None).collect();
        assert_eq!(kept, [(IER, 0), (LCR, 0x03), (MCR, 0x0b), (IER, 1)]);
    }
}
