//! The 32-bit address space every Sigil family shares: where user space
//! ends, where the kernel's linear map of RAM begins, and the page size.
//!
//! One definition each: the kernel's `mm` and arch code, the 8xx MMU model,
//! exec's auxv and the ELF loader's checks all read these (the assembly's `KERNELBASE` in
//! `ppc32/vector.h` is checked against this one by `mmu8xx`'s `asm_agrees`).

/// ppc32 page size (AT_PAGESZ).
pub const PAGE_SIZE: u32 = 4096;
/// User space ends here (Linux book3s/32's TASK_SIZE): segments 0xb-0xf are the kernel's.
pub const TASK_SIZE: u32 = 0xb000_0000;
/// Kernel virtual base: physical RAM is linearly mapped from here (one BAT
/// on book3s/32, 8 MiB TLB entries on the 8xx).
pub const KERNELBASE: u32 = 0xc000_0000;

/// The kernel virtual address of a physical address (the linear map).
pub const fn to_virt(phys: usize) -> usize {
    phys + KERNELBASE as usize
}

/// The physical address of a kernel virtual address in the linear map.
pub const fn to_phys(virt: usize) -> usize {
    virt - KERNELBASE as usize
}
