//! Just enough of the Grackle PCI host bridge to switch on the mac-io chip,
//! and a 16550 UART card if one is plugged in (QEMU's pci-serial).
//!
//! Without firmware nothing assigns PCI BARs, and mac-io (ESCC serial, CUDA,
//! interrupt controller) only appears once its BAR 0 has an address and memory
//! decoding is on. Config mechanism #1: write bus/dev/fn/reg to CONFIG_ADDR,
//! then access CONFIG_DATA; both little-endian.
//!
//! PCI I/O space is the 2 MiB at physical 0xfe00_0000 (inside head.S's
//! identity-mapped PCI window); the four PCI interrupt lines reach Heathrow
//! as sources 21-24, a device's line rotated by its slot number (QEMU's
//! Grackle model, from OpenHackWare's wiring).

use super::io::{self, Reg};

const CONFIG_ADDR: Reg<u32> = io::PCI.reg(0xc0_0000);
const CONFIG_DATA: Reg<u32> = io::PCI.reg(0xe0_0000);
/// mac-io (Heathrow) is bus 0, device 16, function 0.
const MACIO_DEV: u32 = 0x8000_0000 | (16 << 11);
const MACIO_ID: u32 = 0x0010_106b;
/// Physical address given to the mac-io BAR: where OpenBIOS puts it, so the
/// memory map matches what a Linux on this machine would show.
pub const MACIO_BAR: u32 = 0x8108_0000;

fn config_read(dev: u32, reg: u32) -> u32 {
    CONFIG_ADDR.write_le(dev | reg);
    CONFIG_DATA.read_le()
}

fn config_write(dev: u32, reg: u32, v: u32) {
    CONFIG_ADDR.write_le(dev | reg);
    CONFIG_DATA.write_le(v);
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

/// QEMU's PCI 16550 card (vendor Red Hat 0x1b36, device 0x0002).
const SERIAL_ID: u32 = 0x0002_1b36;
/// The I/O port given to its BAR 0 (8 registers).
const SERIAL_PORT: u32 = 0x1000;
/// Where PCI I/O space starts in the kernel's address space.
const PCI_IO: usize = 0xfe00_0000;
const HEATHROW_PCI_IRQ: u32 = 21;

/// Finds a pci-serial card on bus 0, gives its BAR an I/O port and turns
/// I/O decoding on. Returns its registers' address and its Heathrow source.
pub fn enable_serial() -> Option<(usize, u32)> {
    let dev =
        (1..32).map(|slot| 0x8000_0000 | (slot << 11)).find(|&d| config_read(d, 0) == SERIAL_ID)?;
    config_write(dev, 0x10, SERIAL_PORT);
    let cmd = config_read(dev, 0x04);
    config_write(dev, 0x04, cmd | 0x1); // I/O space
    let pin = (config_read(dev, 0x3c) >> 8) & 0xff; // 1 = INTA
    let slot = (dev >> 11) & 0x1f;
    Some((PCI_IO + SERIAL_PORT as usize, HEATHROW_PCI_IRQ + ((slot + pin.max(1) - 1) & 3)))
}
