//! The MPC83xx IPIC, as far as Sigil uses it: the console UART's receive
//! interrupt, routed to the core's external interrupt (0x500). What the
//! numbers mean is `sigil_core::ipic`; this file does the MMIO (big-endian
//! 32-bit registers inside IMMR, which head.S maps one-to-one).

use core::sync::atomic::{AtomicUsize, Ordering};

use sigil_core::ipic::{self, Source};

use crate::arch::ppc32::mmio::eieio;

/// The IPIC's registers (0 until `init`).
static BASE: AtomicUsize = AtomicUsize::new(0);

fn read(r: usize) -> u32 {
    // SAFETY: `init`'s caller promised BASE is the IPIC's registers.
    let v = unsafe { core::ptr::read_volatile((BASE.load(Ordering::Relaxed) + r) as *const u32) };
    eieio();
    v
}

fn write(r: usize, v: u32) {
    // SAFETY: as for `read`.
    unsafe { core::ptr::write_volatile((BASE.load(Ordering::Relaxed) + r) as *mut u32, v) };
    eieio();
}

/// Boot: every source masked, internal ones routed to the core's int line.
///
/// # Safety
/// `base` is the kernel virtual address of the IPIC's registers, mapped
/// cache-inhibited and guarded for as long as the kernel runs.
pub unsafe fn init(base: usize) {
    BASE.store(base, Ordering::Relaxed);
    write(ipic::SICNR, 0);
    for mask in [ipic::SIMSR_H, ipic::SIMSR_L, ipic::SEMSR] {
        write(mask, 0);
    }
}

/// Unmasks or masks `source`.
pub fn set_enabled(source: Source, enable: bool) {
    let m = read(source.mask_reg);
    write(source.mask_reg, if enable { m | source.bit } else { m & !source.bit });
}

/// The interrupt number the IPIC presents, if any.
pub fn pending() -> Option<u32> {
    ipic::pending(read(ipic::SIVCR))
}
