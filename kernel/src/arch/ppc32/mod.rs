//! What every 32-bit PowerPC family shares: the trap frame and the words for
//! exceptions (frame.rs), kernel stacks and the context switch (context.rs),
//! their assembly half (entry.S, vector.h), and the common CPU instructions
//! (cpu.rs: PVR, timebase, decrementer, idle), device register blocks
//! (mmio.rs), the Rust side of every
//! exception (trap.rs: the decoding of the vectors all families share),
//! and the ns16550 UART of the book3s/32 boards (ns16550.rs; the 8xx has
//! SMC UARTs instead).

pub mod context;
pub mod cpu;
pub mod frame;
pub mod mmio;
#[cfg(not(sigil_arch = "mpc8xx"))]
pub mod ns16550;
pub mod static_key;
pub mod trap;

/// What a family's boot code hands the generic kernel (from QEMU's fw_cfg on
/// g3beige, from U-Boot's registers and the board file on the 8xx).
pub struct BootInfo {
    pub ram_size: u32,
    pub tb_freq: u32,
    /// Physical address and size of the initrd, or size 0.
    pub initrd: (u32, u32),
    /// Physical address of the NUL-terminated command line, or 0.
    pub cmdline: u32,
    /// Physical address of the flattened device tree the firmware passed, or 0.
    pub fdt: u32,
}

/// The U-Boot boards' (QEMU's g3beige reads fw_cfg instead).
#[cfg(any(sigil_arch = "mpc8xx", sigil_platform = "mpc83xx"))]
impl BootInfo {
    /// What a device tree at physical `fdt` says.
    pub fn from_tree(fdt: u32, facts: &sigil_core::devtree::BootFacts<'static>) -> BootInfo {
        let (start, size) = facts.memory;
        let cmdline = match facts.bootargs {
            [] => 0,
            // The property's NUL follows it in the blob.
            args => sigil_core::layout::to_phys(args.as_ptr() as usize) as u32,
        };
        BootInfo {
            ram_size: start + size,
            tb_freq: facts.timebase_hz,
            initrd: facts.initrd.map_or((0, 0), |(s, e)| (s, e.saturating_sub(s))),
            cmdline,
            fdt,
        }
    }
}
