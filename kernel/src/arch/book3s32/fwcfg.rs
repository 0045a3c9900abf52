//! QEMU's fw_cfg: how the kernel learns RAM size, timebase frequency, and where
//! QEMU put the initrd and the command line, with no firmware and no device tree.
//!
//! Select an item with a big-endian 16-bit write, then read its bytes one by one.
//! Integer items are little-endian.

use super::io::{self, Reg};
use crate::arch::ppc32::BootInfo;

const SELECT: Reg<u16> = io::FW_CFG.reg(0x10);
const DATA: Reg<u8> = io::FW_CFG.reg(0x12);

const RAM_SIZE: u16 = 0x03;
const CMDLINE_ADDR: u16 = 0x09;
const INITRD_ADDR: u16 = 0x0a;
const INITRD_SIZE: u16 = 0x0b;
const PPC_TBFREQ: u16 = 0x8003;

fn read_le(key: u16, len: usize) -> u64 {
    SELECT.write(key);
    let mut v = 0u64;
    for i in 0..len {
        v |= (DATA.read() as u64) << (8 * i);
    }
    v
}

/// Is fw_cfg there at all (signature "QEMU")?
pub fn present() -> bool {
    read_le(0, 4) == u32::from_le_bytes(*b"QEMU") as u64
}

pub fn boot_info() -> BootInfo {
    BootInfo {
        ram_size: read_le(RAM_SIZE, 8).min(0xc000_0000) as u32,
        tb_freq: read_le(PPC_TBFREQ, 4) as u32,
        initrd: (read_le(INITRD_ADDR, 4) as u32, read_le(INITRD_SIZE, 4) as u32),
        cmdline: read_le(CMDLINE_ADDR, 4) as u32,
        fdt: 0,
    }
}
