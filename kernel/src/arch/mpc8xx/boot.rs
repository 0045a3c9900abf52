//! What the kernel learns at boot on a U-Boot board: U-Boot's registers
//! (saved by head.S), IMMR (where the on-chip peripherals are), and the two
//! facts the board file supplies at build time: RAM size and timebase frequency.
//!
//! Given a device tree (`bootm <kernel> <initrd> <fdt>`), U-Boot enters
//! with r3 = the tree, and RAM, timebase, command line and initrd come
//! from it (`sigil_core::devtree`). U-Boot's legacy `bootm` (no device tree given) enters with r3 = bd_t,
//! r4/r5 = initrd start/end, r6/r7 = command line start/end (U-Boot
//! arch/powerpc/lib/bootm.c). The bd_t layout depends on U-Boot's
//! configuration, so Sigil does not read it: the board file says
//! SIGIL_RAM_MB and SIGIL_TB_FREQ instead (boards/mpc885ads.mk).

use sigil_core::mmu8xx::IO_BASE;

use crate::arch::ppc32::mmio::Block;
use crate::arch::ppc32::BootInfo;

extern "C" {
    /// r3-r7 at entry, stored by head.S.
    static boot_regs: [u32; 5];
}

/// Parses a decimal build-time setting (const, so a bad board file fails the build).
const fn decimal(s: &str) -> u32 {
    let b = s.as_bytes();
    let mut v = 0u32;
    let mut i = 0;
    while i < b.len() {
        assert!(b[i].is_ascii_digit(), "board setting must be decimal");
        v = v * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    v
}

const RAM_SIZE: u32 = decimal(env!("SIGIL_RAM_MB")) << 20;
const TB_FREQ: u32 = decimal(env!("SIGIL_TB_FREQ"));

pub fn boot_info() -> BootInfo {
    // SAFETY: written once by head.S before any Rust code ran.
    let r = unsafe { boot_regs };
    let tree = crate::devtree::at(r[0], RAM_SIZE).and_then(|b| sigil_core::devtree::parse(b).ok());
    if let Some(facts) = tree {
        return BootInfo::from_tree(r[0], &facts);
    }
    let initrd = if r[1] != 0 && r[2] > r[1] { (r[1], r[2] - r[1]) } else { (0, 0) };
    BootInfo { ram_size: RAM_SIZE, tb_freq: TB_FREQ, initrd, cmdline: r[3], fdt: 0 }
}

/// The internal memory map U-Boot set up, as a register block: IMMR's base
/// (SPR 638, upper half) and its 64 KiB. None if it lies below the kernel's
/// identity-mapped I/O window.
pub fn immr() -> Option<Block> {
    let v: u32;
    // SAFETY: reading IMMR has no side effects.
    unsafe { core::arch::asm!("mfspr {0}, 638", out(reg) v, options(nomem, nostack)) };
    let base = v & 0xffff_0000;
    // SAFETY: the on-chip registers, which head.S maps one-to-one from
    // IO_BASE up, cache-inhibited and guarded.
    (base >= IO_BASE).then(|| unsafe { Block::new(base as usize, 0x1_0000) })
}

/// Lets the timebase (and so the decrementer) count: TBSCR[TBE], behind its
/// keep-alive key (MPC885 reference manual; Linux m8xx_setup.c does the same).
pub fn start_timebase(immr: Block) {
    const KAPWR_KEY: u32 = 0x55cc_aa33;
    const TBE: u16 = 0x0001;
    let (tbscr, tbscrk) = (immr.reg::<u16>(0x200), immr.reg::<u32>(0x300));
    tbscrk.write(KAPWR_KEY);
    tbscr.write(tbscr.read() | TBE);
}

/// The SIU real-time clock (MPC885 reference manual, "Real-Time Clock"):
/// RTC counts seconds, as Linux's `mpc8xx_get_rtc_time` reads it, while
/// RTCSC[RTE] says it runs. None if it is stopped or IMMR is out of reach.
pub fn rtc_seconds() -> Option<u64> {
    const RTE: u16 = 0x0001;
    let immr = immr()?;
    let (rtcsc, rtc) = (immr.reg::<u16>(0x220).read(), immr.reg::<u32>(0x224).read());
    (rtcsc & RTE != 0).then_some(rtc as u64)
}
