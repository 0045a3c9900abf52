//! Memory: physical frames, the kernel heap, and user address spaces.
//!
//! All RAM (up to 256 MiB) is mapped linearly at KERNELBASE (book3s32: one
//! BAT; 8xx: 8 MiB TLB entries the miss handler computes), so the kernel
//! reaches any physical frame at `phys + KERNELBASE`; `to_virt` says so.

pub mod context;
pub mod frames;
pub mod heap;
pub mod space;

pub use sigil_core::layout::{
    to_phys, to_virt, MMAP_TOP, SIGPAGE, STACK_SIZE, STACK_TOP, TASK_SIZE,
};
/// `sigil_core::layout`'s, as the address arithmetic here wants it.
pub const PAGE_SIZE: usize = sigil_core::layout::PAGE_SIZE as usize;
