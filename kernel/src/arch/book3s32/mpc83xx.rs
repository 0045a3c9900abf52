//! An MPC83xx SoC around the e300 core: the MPC8321E-RDB (or MPC8323E-RDB),
//! booted by U-Boot's `bootm <kernel> <initrd> <fdt>` (docs/boards/mpc8321erdb.md).
//!
//! Everything comes from the device tree U-Boot passes in r3 (head.S keeps
//! it in `boot_regs`): RAM, the timebase rate, the console (the DUART's
//! ns16550 named by /chosen/stdout-path, its clock and rate), the IPIC, the
//! command line and the initrd. The peripherals are in IMMR, which head.S
//! maps one-to-one (0xe000_0000, 1 MiB, as on Linux's board files).
//! Without a usable tree there is no console to complain on: the kernel stops.

#[path = "ipic.rs"]
mod ipic;

use core::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

use sigil_core::devtree;

use crate::arch::ppc32::ns16550::Ns16550;
use crate::arch::ppc32::BootInfo;

extern "C" {
    /// r3 at entry (the device tree's physical address), stored by head.S.
    static boot_regs: [u32; 1];
}

/// The IMMR window head.S maps.
const IMMR: core::ops::Range<u32> = 0xe000_0000..0xe010_0000;
/// The KERNELBASE BAT's reach: the device tree must lie below it.
const MAPPED_RAM: u32 = 256 << 20;

/// The console UART's registers (0: none), and its IPIC interrupt (0: none).
static CONSOLE: AtomicUsize = AtomicUsize::new(0);
static CONSOLE_IRQ: AtomicU32 = AtomicU32::new(0);

/// The machine, for the boot banner.
pub const MACHINE: &str = "MPC83xx (U-Boot, device tree)";

/// Reads the device tree, starts the console and the IPIC.
pub fn early_init() -> Option<BootInfo> {
    // SAFETY: written once by head.S before any Rust code ran.
    let fdt = unsafe { boot_regs[0] };
    let facts = devtree::parse(crate::devtree::at(fdt, MAPPED_RAM)?).ok()?;
    let uart = facts.console.filter(|u| IMMR.contains(&u.base))?;
    // SAFETY: the DUART's registers, inside the mapped IMMR window; only
    // this file drives them.
    let console = unsafe { Ns16550::new(uart.base as usize) };
    console.init(uart.baud.and_then(|b| sigil_core::uart16550::divisor(uart.clock_hz, b)));
    CONSOLE.store(uart.base as usize, Ordering::Relaxed);
    if let (Some(base), Some(irq)) = (facts.ipic.filter(|a| IMMR.contains(a)), uart.irq) {
        // SAFETY: the device tree's IPIC, inside the IMMR window head.S
        // maps cache-inhibited and guarded.
        unsafe { ipic::init(base as usize) };
        CONSOLE_IRQ.store(irq, Ordering::Relaxed);
    }
    Some(BootInfo::from_tree(fdt, &facts))
}

fn console() -> Option<Ns16550> {
    let base = CONSOLE.load(Ordering::Relaxed);
    // SAFETY: `early_init` stored the address of the UART it set up.
    (base != 0).then(|| unsafe { Ns16550::new(base) })
}

/// The DUART channel the device tree's stdout-path names, its receive
/// interrupt through the IPIC.
impl crate::arch::Console for super::Book3s32 {
    fn putc(b: u8) {
        if let Some(u) = console() {
            u.putc(b);
        }
    }

    fn getc() -> Option<u8> {
        console()?.getc()
    }

    /// Lets the console's receive interrupt through the IPIC, or holds it back.
    fn irq(enable: bool) {
        if let Some(source) = sigil_core::ipic::source(CONSOLE_IRQ.load(Ordering::Relaxed)) {
            ipic::set_enabled(source, enable);
        }
    }

    /// Was the external interrupt the console's? (A level source: draining
    /// the UART drops it.)
    fn take_irq() -> bool {
        let irq = CONSOLE_IRQ.load(Ordering::Relaxed);
        irq != 0 && ipic::pending() == Some(irq)
    }

    /// `console=<name>`: the device tree's stdout-path already chose.
    fn select(_name: &[u8]) -> bool {
        false
    }
}

/// The RDB has no battery-backed clock (the SoC's RTC module counts from
/// power-on, and U-Boot does not set it): the wall clock starts at 1970
/// until root sets it, as Linux's does there without an NTP client.
pub fn rtc_seconds() -> Option<u64> {
    None
}

/// No software power switch on the RDB: stop here, interrupts off, after
/// the console printed the exit line.
pub fn power_off() -> ! {
    loop {
        // SAFETY: turns external and decrementer interrupts off for good.
        unsafe {
            core::arch::asm!("mfmsr {t}", "rlwinm {t}, {t}, 0, 17, 15", "mtmsr {t}", t = out(reg) _, options(nostack))
        };
    }
}
