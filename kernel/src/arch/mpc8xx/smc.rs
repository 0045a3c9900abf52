//! The serial console: SMC1 in UART mode, through the CPM's buffer
//! descriptors; output polled, input on SMC1's receive interrupt.
//!
//! Assumption (as Linux's cpm_uart early console makes it): U-Boot left SMC1
//! initialised as its own console - baud rate generator, pins, parameter RAM,
//! one receive and one transmit buffer descriptor with their buffers, and a
//! receive buffer length (MRBLR) of 1, so each byte closes the descriptor.
//! Sigil reuses that setup and only finds the descriptors: the SMC1 UART
//! parameter block at IMMR + 0x3e80 holds RBASE/TBASE, their offsets in the
//! dual-port RAM at IMMR + 0x2000. A descriptor is {status u16, length u16,
//! buffer u32}.
//!
//! Receive interrupt: the receive descriptor carries the INT bit, so the
//! CPM sets SMCE[RX] each time it closes it; SMCM[RX] (`irq`) lets that
//! raise CPM vector 4, which `init` routes through the CPM interrupt
//! controller to SIU level 2 and the core's external interrupt
//! (`sigil_core::pic8xx` has the chain). `take_irq` acknowledges it at all
//! three. It is the only interrupt Sigil unmasks on this board: `init`
//! masks every other SIU and CPM source U-Boot may have left enabled.

use core::sync::atomic::{AtomicUsize, Ordering};

use sigil_core::mmu8xx::{IO_BASE, KERNELBASE};
use sigil_core::pic8xx::{self as pic, CPMVEC_SMC1, CPM_LEVEL};

use super::boot;
use crate::arch::ppc32::mmio::Block;

const DPRAM: usize = 0x2000;
const SMC1_PARAM: usize = 0x3e80;
const BD_READY: u16 = 0x8000; // Tx: owned by the CPM; Rx: EMPTY
const BD_INT: u16 = 0x1000; // set the event bit when the CPM closes it
const SMCE: usize = 0xa86; // SMC1 event register (u8; write 1s to clear)
const SMCM: usize = 0xa8a; // SMC1 mask register (u8)
const SMC_RX: u8 = 0x01; // a receive buffer was closed

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

/// Finds the descriptors U-Boot set up for SMC1 and wires its receive
/// interrupt up to the core, still masked at SMC1 itself (SMCM) until the
/// tty asks for it (`irq`).
pub fn init(immr: Block) {
    let rbase = immr.reg::<u16>(SMC1_PARAM).read() as usize;
    let tbase = immr.reg::<u16>(SMC1_PARAM + 2).read() as usize;
    RX_BD.store(DPRAM + rbase, Ordering::Relaxed);
    TX_BD.store(DPRAM + tbase, Ordering::Relaxed);
    let rx = immr.reg::<u16>(DPRAM + rbase);
    rx.write(rx.read() | BD_INT);
    immr.reg::<u8>(SMCM).write(0);
    immr.reg::<u8>(SMCE).write(0xff);
    immr.reg::<u32>(pic::CIMR).write(pic::cpm_bit(CPMVEC_SMC1));
    immr.reg::<u32>(pic::CICR).write(pic::cicr(CPM_LEVEL));
    immr.reg::<u32>(pic::SIMASK).write(pic::level_bit(CPM_LEVEL));
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
        status.write(status.read() | BD_READY | BD_INT);
        Some(b)
    }

    /// Masks or unmasks SMC1's receive event. A byte that closed the
    /// descriptor while it was masked left SMCE[RX] set, so unmasking
    /// interrupts at once: nothing waits unnoticed.
    fn irq(enable: bool) {
        let Some(immr) = boot::immr() else { return };
        immr.reg::<u8>(SMCM).write(if enable { SMC_RX } else { 0 });
    }

    /// The external interrupt came from the CPM (SIVEC), and there from
    /// SMC1 (CIVR): clears SMC1's receive event, ends the CPM vector (any
    /// vector the CPM latched, so an error vector 0 cannot stay in service)
    /// and says whether it was the console.
    fn take_irq() -> bool {
        let Some(immr) = boot::immr() else { return false };
        let siu = pic::siu_source(immr.reg::<u32>(pic::SIVEC).read());
        if siu != Some(pic::level_source(CPM_LEVEL)) {
            return false;
        }
        let civr = immr.reg::<u16>(pic::CIVR);
        civr.write(pic::CIVR_IACK);
        let vector = pic::cpm_vector(civr.read());
        if vector == CPMVEC_SMC1 {
            immr.reg::<u8>(SMCE).write(SMC_RX);
        }
        immr.reg::<u32>(pic::CISR).write(pic::cpm_bit(vector));
        vector == CPMVEC_SMC1
    }

    /// `console=<name>`: there is no other console to pick.
    fn select(_name: &[u8]) -> bool {
        false
    }
}
