//! The flattened device tree in RAM: finding the blob the firmware (r3 at
//! entry on U-Boot boards) or the boot option `fdt=<address>` points at.
//! What it says is read by `sigil_core::devtree` (pure, host-tested).
//!
//! Who calls: the families' boot code (U-Boot boards), and kmain for the
//! boot log and to keep the blob's frames out of the allocator.

use sigil_core::devtree;
use sigil_core::layout::to_virt;

/// The largest blob accepted (U-Boot's are a few KiB).
const MAX_SIZE: usize = 1 << 20;

/// The device tree at physical `addr`, if a valid header is there and the
/// whole blob lies below `ram_end`.
pub fn at(addr: u32, ram_end: u32) -> Option<&'static [u8]> {
    let addr = addr as usize;
    if addr == 0 || !addr.is_multiple_of(4) || addr + 8 > ram_end as usize {
        return None;
    }
    // SAFETY: eight bytes of RAM (checked above), which head.S maps at
    // KERNELBASE; they are only read.
    let head = unsafe { &*(to_virt(addr) as *const [u8; 8]) };
    let len = devtree::total_size(head)?;
    if len > MAX_SIZE || addr + len > ram_end as usize {
        return None;
    }
    // SAFETY: as above, for the whole blob; kmain keeps its frames out of
    // the allocator, so nothing writes there while it is read.
    Some(unsafe { core::slice::from_raw_parts(to_virt(addr) as *const u8, len) })
}

/// `fdt=<hex address>` on the command line (QEMU boots, where no firmware
/// passes r3): the address, or None.
pub fn option(cmdline: &[u8]) -> Option<u32> {
    let value = sigil_core::cmdline::early_value(cmdline, b"fdt=")?;
    let hex = core::str::from_utf8(value).ok()?;
    u32::from_str_radix(hex.trim_start_matches("0x"), 16).ok()
}
