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

const DPRAM: usize = 0x2000;
const SMC1_PARAM: usize = 0x3e80;
const BD_READY: u16 = 0x8000; // Tx: owned by the CPM; Rx: EMPTY

/// Kernel addresses of the Rx and Tx descriptors (0 until `init`).
static RX_BD: AtomicUsize = AtomicUsize::new(0);
static TX_BD: AtomicUsize = AtomicUsize::new(0);

fn read16(a: usize) -> u16 {
    // SAFETY: CPM registers/descriptors in the identity-mapped I/O window.
    unsafe { core::ptr::read_volatile(a as *const u16) }
}
fn write16(a: usize, v: u16) {
    // SAFETY: as for read16; eieio keeps device writes in order.
    unsafe {
        core::ptr::write_volatile(a as *mut u16, v);
        core::arch::asm!("eieio", options(nostack, preserves_flags));
    }
}

/// The kernel address of a descriptor's buffer (physical: DPRAM or RAM).
fn buffer(bd: usize) -> *mut u8 {
    // SAFETY: as for read16.
    let phys = unsafe { core::ptr::read_volatile((bd + 4) as *const u32) };
    (if phys >= IO_BASE { phys } else { phys + KERNELBASE }) as *mut u8
}

/// Finds the descriptors U-Boot set up for SMC1.
pub fn init(immr: usize) {
    let rbase = read16(immr + SMC1_PARAM) as usize;
    let tbase = read16(immr + SMC1_PARAM + 2) as usize;
    RX_BD.store(immr + DPRAM + rbase, Ordering::Relaxed);
    TX_BD.store(immr + DPRAM + tbase, Ordering::Relaxed);
}

/// Writes one byte: wait until the CPM gave the Tx buffer back, fill it, hand it over.
pub fn putc(b: u8) {
    let bd = TX_BD.load(Ordering::Relaxed);
    if bd == 0 {
        return;
    }
    while read16(bd) & BD_READY != 0 {}
    // SAFETY: the CPM does not own the buffer while READY is clear.
    unsafe { core::ptr::write_volatile(buffer(bd), b) };
    write16(bd + 2, 1);
    write16(bd, read16(bd) | BD_READY);
}

/// Reads one byte if one has arrived.
pub fn getc() -> Option<u8> {
    let bd = RX_BD.load(Ordering::Relaxed);
    if bd == 0 || read16(bd) & BD_READY != 0 {
        return None;
    }
    // SAFETY: the CPM filled the buffer and handed it to us (EMPTY clear).
    let b = unsafe { core::ptr::read_volatile(buffer(bd)) };
    write16(bd, read16(bd) | BD_READY);
    Some(b)
}

/// SMC1's receive interrupt is not wired up (the CPM interrupt controller
/// is not set up): input is taken when a reader polls for it, so this has
/// nothing to mask.
pub fn console_irq(_enable: bool) {}

/// No console interrupt on this board (see `console_irq`).
pub fn take_console_irq() -> bool {
    false
}
