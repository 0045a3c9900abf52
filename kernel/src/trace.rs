//! The signal trace (`trace=signal` on the command line): one compact line per
//! step of a signal's life, for students to watch one travel. Off by default;
//! when off, each hook is one load and a branch.
//!
//! Line format (parsed by the host trace tool in qemu/):
//! `@sig <event> pid=<n> k=v ...`

use core::sync::atomic::{AtomicBool, Ordering};

use sigil_core::signal::SigInfo;

pub static ENABLED: AtomicBool = AtomicBool::new(false);

#[inline(always)]
fn on() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

pub fn generate(target: u32, info: &SigInfo) {
    if on() {
        crate::console::print_always(format_args!(
            "@sig generate pid={} sender={} signo={} code={}\n",
            target, info.pid(), info.signo(), info.code()
        ));
    }
}

pub fn frame(pid: u32, signo: u32, addr: u32, len: u32) {
    if on() {
        crate::console::print_always(format_args!(
            "@sig frame pid={} signo={} frame={:#x} size={} windows={}\n",
            pid, signo, addr, len, crate::uaccess::WINDOWS.load(Ordering::Relaxed)
        ));
    }
}

pub fn sigreturn(pid: u32, frame: u32) {
    if on() {
        crate::console::print_always(format_args!("@sig sigreturn pid={} frame={:#x}\n", pid, frame));
    }
}
