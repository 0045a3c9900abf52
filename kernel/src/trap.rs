//! Generic trap handling: what each kind of exception means to the kernel.
//!
//! The arch layer turns a vector into a call here with the saved `TrapFrame`.
//! Kernel-mode faults become an oops: the registers, the fault address, a
//! backtrace, and a non-zero exit so no test ever hangs on a dead kernel.

use crate::arch::{self, TrapFrame};

pub fn handle(tf: &mut TrapFrame) {
    oops("unexpected exception", tf)
}

/// A kernel bug: print everything and stop the machine with status 255.
pub fn oops(what: &str, tf: &TrapFrame) -> ! {
    crate::console::print_always(format_args!("\nSIGIL OOPS: {}\n", what));
    arch::dump(tf);
    crate::console::exit(255)
}
