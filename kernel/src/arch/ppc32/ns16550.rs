//! An ns16550-compatible UART at a memory-mapped address: polled output,
//! receive interrupts. The MPC83xx DUART is one (the MPC8321E-RDB's console),
//! and QEMU's pci-serial on g3beige is another (a second console there).
//!
//! What the registers mean lives in `sigil_core::uart16550` (host-tested);
//! this file only touches them. The interrupt controller in front of the
//! UART is the family's business (Heathrow on g3beige, the IPIC on MPC83xx).

use sigil_core::uart16550 as reg;

use super::mmio::Block;

/// A UART whose eight registers are mapped at `base` (one byte apart).
#[derive(Clone, Copy)]
pub struct Ns16550 {
    regs: Block,
}

impl Ns16550 {
    /// # Safety
    /// `base` is the kernel virtual address of a 16550's registers, mapped
    /// cache-inhibited and guarded for as long as the kernel runs, and no
    /// other code drives that UART.
    pub const unsafe fn new(base: usize) -> Ns16550 {
        // SAFETY: the caller's promise is `Block::new`'s.
        Ns16550 { regs: unsafe { Block::new(base, 8) } }
    }

    fn read(self, r: usize) -> u8 {
        self.regs.reg::<u8>(r).read()
    }

    fn write(self, r: usize, v: u8) {
        self.regs.reg::<u8>(r).write(v)
    }

    /// Sets the line to 8N1 at the rate `div` gives (None keeps the rate
    /// the firmware set), the receive interrupt enabled in the UART (the
    /// interrupt controller still masks it). Bytes that arrived before
    /// stay in the UART for the terminal.
    pub fn init(self, div: Option<u16>) {
        for (r, v) in reg::setup(div) {
            self.write(r, v);
        }
    }

    /// Writes one byte, waiting for the transmit holding register.
    pub fn putc(self, b: u8) {
        while self.read(reg::LSR) & reg::LSR_THRE == 0 {}
        self.write(reg::RBR_THR, b);
    }

    /// Reads one byte if one has arrived. Reading the last one drops the
    /// UART's receive interrupt.
    pub fn getc(self) -> Option<u8> {
        (self.read(reg::LSR) & reg::LSR_DR != 0).then(|| self.read(reg::RBR_THR))
    }
}
