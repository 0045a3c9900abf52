//! Just enough of the Grackle PCI host bridge to switch on the mac-io chip.
//!
//! Without firmware nothing assigns PCI BARs, and mac-io (ESCC serial, CUDA,
//! interrupt controller) only appears once its BAR 0 has an address and memory
//! decoding is on. Config mechanism #1: write bus/dev/fn/reg to CONFIG_ADDR,
//! then access CONFIG_DATA; both little-endian.

use super::io;

const CONFIG_ADDR: usize = 0xfec0_0000;
const CONFIG_DATA: usize = 0xfee0_0000;
/// mac-io (Heathrow) is bus 0, device 16, function 0.
const MACIO_DEV: u32 = 0x8000_0000 | (16 << 11);
const MACIO_ID: u32 = 0x0010_106b;
/// Physical address given to the mac-io BAR: where OpenBIOS puts it, so the
/// memory map matches what a Linux on this machine would show.
pub const MACIO_BAR: u32 = 0x8108_0000;

fn config_read(dev: u32, reg: u32) -> u32 {
    io::write32_le(CONFIG_ADDR, dev | reg);
    io::read32_le(CONFIG_DATA)
}

fn config_write(dev: u32, reg: u32, v: u32) {
    io::write32_le(CONFIG_ADDR, dev | reg);
    io::write32_le(CONFIG_DATA, v);
}

/// Assigns the mac-io BAR and enables memory decoding. Returns false if the
/// chip is not there (then there is no console: the caller can only stop).
pub fn enable_macio() -> bool {
    if config_read(MACIO_DEV, 0x00) != MACIO_ID {
        return false;
    }
    config_write(MACIO_DEV, 0x10, MACIO_BAR);
    let cmd = config_read(MACIO_DEV, 0x04);
    config_write(MACIO_DEV, 0x04, cmd | 0x6); // memory space | bus master
    true
}
