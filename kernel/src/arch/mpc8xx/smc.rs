//! The serial console: SMC1 in UART mode, through the CPM's buffer
//! descriptors, polled.
//!
//! Assumption (as Linux's cpm_uart early console makes it): U-Boot left SMC1
//! initialised as its own console - baud rate generator, pins, parameter RAM,
//! one receive and one transmit buffer descriptor with their buffers. Sigil
//! reuses that setup and only finds the descriptors: the SMC1 UART parameter
//! block at IMMR + 0x3e80 holds RBASE/TBASE, their offsets in the dual-port
//! RAM at IMMR + 0x2000. A descriptor is {status u16, length u16, buffer u32}.

use core::sync::atomic::{AtomicUsize, Ordering};

use sigil_core::mmu8xx::{IO_BASE, KERNELBASE};

use super::boot;
use crate::arch::ppc32::mmio::Block;

const DPRAM: usize = 0x2000;
const SMC1_PARAM: usize = 0x3e80;
const BD_READY: u16 = 0x8000; // Tx: owned by the CPM; Rx: EMPTY

/// IMMR offsets of the Rx and Tx descriptors (0 until `init`).
static RX_BD: AtomicUsize = AtomicUsize::new(0);
static TX_BD: AtomicUsize = AtomicUsize::new(0);

/// The descriptor at IMMR offset `bd` (0: not found) and the IMMR block.
fn descriptor(bd: &AtomicUsize) -> Option<(Block, usize)> {
    let off = bd.load(Ordering::Relaxed);
    Some((boot::immr().filter(|_| off != 0)?, off))
}

/// The kernel address of a descriptor's buffer (physical: DPRAM or RAM).
fn buffer(immr: Block, bd: usize) -> *mut u8 {
    let phys = immr.reg::<u32>(bd + 4).read();
    (if phys >= IO_BASE { phys } else { phys + KERNELBASE }) as *mut u8
}

/// Finds the descriptors U-Boot set up for SMC1.
pub fn init(immr: Block) {
    let rbase = immr.reg::<u16>(SMC1_PARAM).read() as usize;
    let tbase = immr.reg::<u16>(SMC1_PARAM + 2).read() as usize;
    RX_BD.store(DPRAM + rbase, Ordering::Relaxed);
    TX_BD.store(DPRAM + tbase, Ordering::Relaxed);
}

/// SMC1 is the only console UART on these boards.
impl crate::arch::Console for super::Mpc8xx {
    /// Writes one byte: wait until the CPM gave the Tx buffer back, fill it,
    /// hand it over.
    fn putc(b: u8) {
        let Some((immr, bd)) = descriptor(&TX_BD) else { return };
        let (status, len) = (immr.reg::<u16>(bd), immr.reg::<u16>(bd + 2));
        while status.read() & BD_READY != 0 {}
        // SAFETY: the buffer U-Boot gave the descriptor (DPRAM, or RAM in the
        // kernel's linear map); the CPM does not own it while READY is clear.
        unsafe { core::ptr::write_volatile(buffer(immr, bd), b) };
        len.write(1);
        status.write(status.read() | BD_READY);
    }

    /// Reads one byte if one has arrived.
    fn getc() -> Option<u8> {
        let (immr, bd) = descriptor(&RX_BD)?;
        let status = immr.reg::<u16>(bd);
        if status.read() & BD_READY != 0 {
            return None;
        }
        // SAFETY: as in `putc`; the CPM filled the buffer and handed it to
        // us (EMPTY clear).
        let b = unsafe { core::ptr::read_volatile(buffer(immr, bd)) };
        status.write(status.read() | BD_READY);
        Some(b)
    }

    /// SMC1's receive interrupt is not wired up (the CPM interrupt
    /// controller is not set up): input is taken when a reader polls for
    /// it, so this has nothing to mask.
    fn irq(_enable: bool) {}

    /// No console interrupt on this board (see `irq`).
    fn take_irq() -> bool {
        false
    }

    /// `console=<name>`: there is no other console to pick.
    fn select(_name: &[u8]) -> bool {
        false
    }
}
