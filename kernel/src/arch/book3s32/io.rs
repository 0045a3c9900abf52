//! MMIO on the g3beige board: the physical windows head.S maps with BATs, and
//! the byte-order helpers PCI devices need.
//!
//! head.S maps (cache-inhibited, guarded):
//!   0xf100_0000 -> 0x8100_0000  mac-io BAR (we assign it 0x8108_0000, see pci.rs)
//!   0xfe00_0000 -> 0xfe00_0000  Grackle PCI config registers
//!   0xf000_0000 -> 0xf000_0000  fw_cfg
//! The ppc is big-endian; PCI registers are little-endian, hence `lwbrx`/`stwbrx`.

/// Virtual address of the mac-io (Heathrow) block, with its BAR at 0x8108_0000.
pub const MACIO: usize = 0xf108_0000;

/// Reads an 8-bit device register.
pub fn read8(addr: usize) -> u8 {
    // SAFETY: only called with addresses inside the BAT-mapped device windows.
    let v = unsafe { core::ptr::read_volatile(addr as *const u8) };
    eieio();
    v
}

/// Writes an 8-bit device register.
pub fn write8(addr: usize, v: u8) {
    // SAFETY: as for read8.
    unsafe { core::ptr::write_volatile(addr as *mut u8, v) };
    eieio();
}

/// Writes a big-endian 16-bit device register.
pub fn write16(addr: usize, v: u16) {
    // SAFETY: as for read8.
    unsafe { core::ptr::write_volatile(addr as *mut u16, v) };
    eieio();
}

/// Reads a little-endian 32-bit register (PCI, Heathrow PIC).
pub fn read32_le(addr: usize) -> u32 {
    // SAFETY: as for read8.
    let v = unsafe { core::ptr::read_volatile(addr as *const u32) };
    eieio();
    u32::from_le(v)
}

/// Writes a little-endian 32-bit register (PCI, Heathrow PIC).
pub fn write32_le(addr: usize, v: u32) {
    // SAFETY: as for read8.
    unsafe { core::ptr::write_volatile(addr as *mut u32, v.to_le()) };
    eieio();
}

/// Keeps device accesses in program order.
fn eieio() {
    // SAFETY: a pure ordering barrier.
    unsafe { core::arch::asm!("eieio", options(nostack, preserves_flags)) };
}
