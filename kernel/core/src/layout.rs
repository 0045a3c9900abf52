//! The 32-bit address space every Sigil family shares: where user space
//! ends, where a program's stack and its mmap area are, where the kernel's
//! linear map of RAM begins, and the page size.
//!
//! One definition each: the kernel's `mm` and arch code, the 8xx MMU model,
//! exec's auxv and the ELF loader's checks all read these (the assembly's `KERNELBASE` in
//! `ppc32/vector.h` is checked against this one by `mmu8xx`'s `asm_agrees`,
//! the linker scripts' by the test below).

/// ppc32 page size (AT_PAGESZ).
pub const PAGE_SIZE: u32 = 4096;
/// User space ends here (Linux book3s/32's TASK_SIZE): segments 0xb-0xf are the kernel's.
pub const TASK_SIZE: u32 = 0xb000_0000;
/// exec puts the stack at the top of user space, growing down; 8 MiB are
/// reserved for it (RLIMIT_STACK). /proc's maps names the area ending here
/// `[stack]`.
pub const STACK_TOP: u32 = TASK_SIZE;
pub const STACK_SIZE: u32 = 8 << 20;
/// mmap without a hint allocates downwards from here, a 16 MiB gap below
/// the stack's reservation.
pub const MMAP_TOP: u32 = STACK_TOP - STACK_SIZE - (16 << 20);
/// The signal trampolines' page (`[sigpage]` in /proc's maps): exec maps it
/// into every program here, just above the mmap area, in the gap below the
/// stack; a handler returns into it (sigil-core's `FrameKind::trampoline`).
pub const SIGPAGE: u32 = MMAP_TOP;
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

#[cfg(test)]
mod tests {
    use super::KERNELBASE;

    /// Each family's linker script links the kernel at this KERNELBASE.
    #[test]
    fn linker_scripts_agree() {
        for ld in ["book3s32.ld", "mpc8xx.ld"] {
            let path = std::format!("{}/../../linker/{ld}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect(ld);
            let value = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("KERNELBASE = 0x")?.strip_suffix(';'))
                .unwrap_or_else(|| panic!("{ld} sets no KERNELBASE"));
            assert_eq!(u32::from_str_radix(value, 16), Ok(KERNELBASE), "{ld}");
        }
    }
}
