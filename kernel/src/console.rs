//! The kernel console: formatted printing and the exit protocol.
//!
//! The host runner (qemu/) reads the console. The kernel's last line is always
//! `@@SIGIL-EXIT <status>@@`, then the machine powers off: that is how a test
//! or `make run` learns PID 1's exit status (QEMU itself always exits 0).

use core::fmt::{self, Write};
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::arch::{self, Arch, Console as _};

/// Column of the cursor (0 = at a line start), so the exit marker can start
/// on a line of its own without adding a blank line.
static COLUMN: AtomicUsize = AtomicUsize::new(0);
/// `quiet` on the command line: kernel messages are dropped, programs' output is not.
pub static QUIET: AtomicBool = AtomicBool::new(false);

/// Writes kernel text to the console, each `\n` as `\r\n`.
pub fn write_bytes(bytes: &[u8]) {
    for &b in bytes {
        if b == b'\n' {
            Arch::putc(b'\r');
        }
        Arch::putc(b);
    }
    if let Some(pos) = bytes.iter().rposition(|&b| b == b'\n') {
        COLUMN.store(bytes.len() - pos - 1, Ordering::Relaxed);
    } else {
        COLUMN.fetch_add(bytes.len(), Ordering::Relaxed);
    }
}

/// Writes bytes exactly as given: the terminal's output, already through
/// its output processing (`dev::tty`).
pub fn write_raw(bytes: &[u8]) {
    for &b in bytes {
        Arch::putc(b);
    }
    if let Some(pos) = bytes.iter().rposition(|&b| b == b'\n') {
        COLUMN.store(bytes.len() - pos - 1, Ordering::Relaxed);
    } else {
        COLUMN.fetch_add(bytes.len(), Ordering::Relaxed);
    }
}

struct Console;

impl Write for Console {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        write_bytes(s.as_bytes());
        Ok(())
    }
}

/// Prints a kernel message unless `quiet` was given.
pub fn print(args: fmt::Arguments) {
    if !QUIET.load(Ordering::Relaxed) {
        let _ = Console.write_fmt(args);
    }
}

/// Prints even under `quiet`: oopses must always be seen.
pub fn print_always(args: fmt::Arguments) {
    let _ = Console.write_fmt(args);
}

#[macro_export]
macro_rules! kprintln {
    ($($arg:tt)*) => { $crate::console::print(format_args!("{}\n", format_args!($($arg)*))) };
}

#[macro_export]
macro_rules! kprint {
    ($($arg:tt)*) => { $crate::console::print(format_args!($($arg)*)) };
}

/// Prints the exit marker and powers the machine off.
pub fn exit(status: i32) -> ! {
    if COLUMN.load(Ordering::Relaxed) != 0 && !QUIET.load(Ordering::Relaxed) {
        write_bytes(b"\n");
    }
    let _ = writeln!(Console, "@@SIGIL-EXIT {}@@", status);
    arch::power_off()
}
