//! Memory: physical frames, the kernel heap, and user address spaces.
//!
//! All RAM (up to 256 MiB) is mapped linearly at KERNELBASE (book3s32: one
//! BAT; 8xx: 8 MiB TLB entries the miss handler computes), so the kernel
//! reaches any physical frame at `phys + KERNELBASE`; `to_virt` says so.

pub mod context;
pub mod frames;
pub mod heap;
pub mod space;

/// Where the BAT maps physical 0.
pub const KERNELBASE: usize = 0xc000_0000;
pub const PAGE_SIZE: usize = 4096;
/// User space ends here (Linux book3s/32's TASK_SIZE): segments 0xb-0xf are the kernel's.
pub const TASK_SIZE: u32 = 0xb000_0000;

/// The kernel virtual address of a physical address.
pub fn to_virt(phys: usize) -> usize {
    phys + KERNELBASE
}

/// The physical address of a kernel virtual address.
pub fn to_phys(virt: usize) -> usize {
    virt - KERNELBASE
}
