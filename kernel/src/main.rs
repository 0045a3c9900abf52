//! Sigil: a small kernel for 32-bit PowerPC that shows how Linux delivers signals.
//!
//! Boot order: head.S (real mode, BATs, MMU on) -> kmain() here -> memory,
//! traps, timer -> the first process. Read docs/ to follow one signal from
//! kill() to the handler and back.
#![no_std]
#![no_main]
#![deny(unsafe_op_in_unsafe_fn)]

mod arch;
mod console;
mod trap;

use core::panic::PanicInfo;

extern "C" {
    static __kernel_start: u8;
    static __kernel_end: u8;
}

#[no_mangle]
extern "C" fn kmain() -> ! {
    let Some(boot) = arch::early_init() else { arch::power_off() };
    // SAFETY: linker symbols; only their addresses are used.
    let size = unsafe { (&__kernel_end as *const u8 as usize) - (&__kernel_start as *const u8 as usize) };
    kprintln!("Sigil on QEMU g3beige: PVR {:#010x}, RAM {} MiB, kernel {} KiB, timebase {} Hz",
        arch::pvr(), boot.ram_size >> 20, size >> 10, boot.tb_freq);
    console::exit(0)
}

#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    kprintln!("SIGIL OOPS: kernel panic: {}", info);
    console::exit(255)
}
