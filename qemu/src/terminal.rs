//! terminal: the runner's own terminal, when its stdin is one.
//!
//! Keys must reach the guest as they are typed, Ctrl-C included, so the
//! terminal is put in raw mode for the run (`Raw`), and restored when the
//! run ends, when the quit key is typed and when the runner is killed by
//! SIGINT, SIGTERM or SIGHUP from elsewhere. The quit key is QEMU's own:
//! Ctrl-A x ends the run (Ctrl-A Ctrl-A sends one Ctrl-A), so every other
//! key belongs to the guest.

use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::OnceLock;

/// glibc's `struct termios` is 60 bytes on every Linux host; this is room
/// enough, and only libc looks inside.
#[derive(Clone, Copy)]
#[repr(C, align(8))]
struct HostTermios([u8; 128]);

extern "C" {
    fn isatty(fd: i32) -> i32;
    fn tcgetattr(fd: i32, t: *mut HostTermios) -> i32;
    fn tcsetattr(fd: i32, when: i32, t: *const HostTermios) -> i32;
    fn cfmakeraw(t: *mut HostTermios);
    fn signal(sig: i32, handler: extern "C" fn(i32)) -> usize;
    fn _exit(status: i32) -> !;
}

const TCSANOW: i32 = 0;
const SIGHUP: i32 = 1;
const SIGINT: i32 = 2;
const SIGTERM: i32 = 15;
/// The quit key's prefix, Ctrl-A.
const PREFIX: u8 = 0x01;

/// The settings to restore; set once, before raw mode begins.
static SAVED: OnceLock<HostTermios> = OnceLock::new();
/// QEMU's process group, once started (0 before).
static QEMU_GROUP: AtomicU32 = AtomicU32::new(0);
/// The quit key was typed.
pub static QUIT: AtomicBool = AtomicBool::new(false);

/// Is stdin a terminal?
pub fn stdin_is_terminal() -> bool {
    // SAFETY: isatty takes a descriptor number and reads no memory of ours.
    unsafe { isatty(0) == 1 }
}

/// Raw mode on stdin while it lives.
pub struct Raw;

impl Raw {
    /// Saves stdin's settings and makes it raw; None if it is no terminal.
    pub fn enter() -> Option<Raw> {
        let mut t = HostTermios([0; 128]);
        // SAFETY: `t` is larger than the C struct termios tcgetattr fills.
        if unsafe { tcgetattr(0, &mut t) } != 0 {
            return None;
        }
        let _ = SAVED.set(t);
        for sig in [SIGHUP, SIGINT, SIGTERM] {
            // SAFETY: `on_signal` only calls async-signal-safe functions.
            unsafe { signal(sig, on_signal) };
        }
        let mut raw = t;
        // SAFETY: as above; cfmakeraw edits the struct in place.
        unsafe {
            cfmakeraw(&mut raw);
            tcsetattr(0, TCSANOW, &raw);
        }
        Some(Raw)
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        restore();
    }
}

fn restore() {
    if let Some(t) = SAVED.get() {
        // SAFETY: `t` holds what tcgetattr filled in.
        unsafe { tcsetattr(0, TCSANOW, t) };
    }
}

/// Killed from outside: the terminal must not stay raw, nor QEMU linger.
extern "C" fn on_signal(sig: i32) {
    restore();
    let group = QEMU_GROUP.load(Ordering::Relaxed);
    if group != 0 {
        sigil_qemu::process::kill_group_of(group);
    }
    // SAFETY: _exit ends the process at once, which is what a signal asks.
    unsafe { _exit(128 + sig) }
}

/// Records QEMU's process group, for the quit key and `on_signal`.
pub fn qemu_started(pgid: u32) {
    QEMU_GROUP.store(pgid, Ordering::Relaxed);
}

/// Stdin with the quit key taken out: Ctrl-A x stops QEMU (the run then
/// ends, with QUIT set); Ctrl-A Ctrl-A is one Ctrl-A; Ctrl-A and any other
/// key are both sent.
pub struct Keys {
    after_prefix: bool,
}

impl Keys {
    pub fn new() -> Keys {
        Keys { after_prefix: false }
    }

    /// Filters `typed` into `out`.
    fn filter(&mut self, typed: &[u8], out: &mut Vec<u8>) {
        for &b in typed {
            if std::mem::replace(&mut self.after_prefix, false) {
                match b {
                    b'x' | b'X' => {
                        QUIT.store(true, Ordering::Relaxed);
                        let group = QEMU_GROUP.load(Ordering::Relaxed);
                        if group != 0 {
                            sigil_qemu::process::kill_group_of(group);
                        }
                    }
                    PREFIX => out.push(PREFIX),
                    _ => out.extend([PREFIX, b]),
                }
            } else if b == PREFIX {
                self.after_prefix = true;
            } else {
                out.push(b);
            }
        }
    }
}

impl Read for Keys {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let mut typed = [0u8; 256];
            let n = std::io::stdin().read(&mut typed[..(buf.len() / 2).clamp(1, 128)])?;
            if n == 0 {
                return Ok(0);
            }
            let mut out = Vec::new();
            self.filter(&typed[..n], &mut out);
            if !out.is_empty() {
                buf[..out.len()].copy_from_slice(&out);
                return Ok(out.len());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_handling() {
        let mut k = Keys::new();
        let mut out = Vec::new();
        k.filter(b"a\x01\x01b\x01", &mut out);
        k.filter(b"c", &mut out);
        assert_eq!(out, b"a\x01b\x01c");
        assert!(!QUIT.load(Ordering::Relaxed));
    }
}
