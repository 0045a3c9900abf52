//! Device registers: the one place a driver's register access becomes a
//! volatile load or store.
//!
//! A `Block` is a range of device registers the kernel maps for its whole
//! life (cache-inhibited, guarded: head.S's device windows). Making one is
//! `unsafe`: that is the promise about the address. From a block, a driver
//! names `Reg`s by offset (checked against the block's length when the
//! constant is built), and reading or writing those is safe. Every access
//! is followed by `eieio`, which keeps device accesses in program order.

use core::marker::PhantomData;

/// A range of device registers.
#[derive(Clone, Copy)]
pub struct Block {
    base: usize,
    len: usize,
}

impl Block {
    /// The registers at kernel virtual [base, base + len).
    ///
    /// # Safety
    /// The range must stay mapped, cache-inhibited and guarded, for as long
    /// as the block or a register of it is used, and a load or store of a
    /// register the driver names there must affect nothing but that device.
    pub const unsafe fn new(base: usize, len: usize) -> Block {
        Block { base, len }
    }

    /// The part [off, off + len) of this block (a device inside a window:
    /// g3beige's mac-io).
    #[cfg_attr(any(sigil_arch = "mpc8xx", sigil_platform = "mpc83xx"), allow(dead_code))]
    pub const fn sub(self, off: usize, len: usize) -> Block {
        assert!(off + len <= self.len, "sub-block outside its block");
        Block { base: self.base + off, len }
    }

    /// The register of type `T` at byte offset `off`.
    pub const fn reg<T>(self, off: usize) -> Reg<T> {
        let size = core::mem::size_of::<T>();
        assert!(off + size <= self.len && off.is_multiple_of(size), "register outside its block");
        Reg { addr: self.base + off, ty: PhantomData }
    }
}

/// One device register of type `T` (u8, u16 or u32), big-endian as the CPU.
#[derive(Clone, Copy)]
pub struct Reg<T> {
    addr: usize,
    ty: PhantomData<T>,
}

impl<T: Copy> Reg<T> {
    pub fn read(self) -> T {
        // SAFETY: the register lies in a `Block`, whose maker promised it is
        // a mapped device register (`Block::new`); `reg` checked the bounds
        // and the alignment.
        let v = unsafe { core::ptr::read_volatile(self.addr as *const T) };
        eieio();
        v
    }

    pub fn write(self, v: T) {
        // SAFETY: as for `read`.
        unsafe { core::ptr::write_volatile(self.addr as *mut T, v) };
        eieio();
    }
}

/// PCI's registers (and the Heathrow PIC's) are little-endian (g3beige).
#[cfg_attr(any(sigil_arch = "mpc8xx", sigil_platform = "mpc83xx"), allow(dead_code))]
impl Reg<u32> {
    pub fn read_le(self) -> u32 {
        u32::from_le(self.read())
    }

    pub fn write_le(self, v: u32) {
        self.write(v.to_le());
    }
}

/// Keeps device accesses in program order.
pub fn eieio() {
    // SAFETY: a pure ordering barrier.
    unsafe { core::arch::asm!("eieio", options(nostack, preserves_flags)) };
}
