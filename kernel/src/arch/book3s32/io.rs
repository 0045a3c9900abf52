//! MMIO on the g3beige board: the physical windows head.S maps with BATs,
//! as the register blocks (`ppc32::mmio::Block`) the drivers name their
//! registers in.
//!
//! head.S maps (cache-inhibited, guarded):
//!   0xf100_0000 -> 0x8100_0000  mac-io BAR (we assign it 0x8108_0000, see pci.rs)
//!   0xfe00_0000 -> 0xfe00_0000  Grackle PCI I/O space and config registers
//!   0xf000_0000 -> 0xf000_0000  fw_cfg
//! The ppc is big-endian; PCI registers are little-endian (`Reg::read_le`).

pub use crate::arch::ppc32::mmio::{Block, Reg};

// SAFETY (the three blocks): head.S's BATs map these windows cache-inhibited
// and guarded for the kernel's life; they hold only device registers.

/// The mac-io (Heathrow) block, with its BAR at 0x8108_0000: 512 KiB.
pub const MACIO: Block = unsafe { Block::new(0xf108_0000, 0x8_0000) };
/// Grackle: the PCI I/O space (2 MiB) and the config address and data
/// registers at 0xfec0_0000 and 0xfee0_0000.
pub const PCI: Block = unsafe { Block::new(0xfe00_0000, 0x100_0000) };
/// QEMU's fw_cfg selector and data registers.
pub const FW_CFG: Block = unsafe { Block::new(0xf000_0500, 0x100) };
