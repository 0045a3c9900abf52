//! Memory: physical frames, the kernel heap, and user address spaces.
//!
//! All RAM (up to 256 MiB) is mapped linearly at KERNELBASE (book3s32: one
//! BAT; 8xx: 8 MiB TLB entries the miss handler computes), so the kernel
//! reaches any physical frame at `phys + KERNELBASE`; `to_virt` says so.

pub mod context;
pub mod frames;
pub mod heap;
pub mod space;

pub use sigil_core::layout::TASK_SIZE;
/// `sigil_core::layout`'s, as the address arithmetic here wants them.
pub const KERNELBASE: usize = sigil_core::layout::KERNELBASE as usize;
pub const PAGE_SIZE: usize = sigil_core::layout::PAGE_SIZE as usize;

/// The kernel virtual address of a physical address.
pub fn to_virt(phys: usize) -> usize {
    phys + KERNELBASE
}

/// The physical address of a kernel virtual address.
pub fn to_phys(virt: usize) -> usize {
    virt - KERNELBASE
}
