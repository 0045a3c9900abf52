//! Printing. `print!` formats into a small buffer on the stack and writes it
//! with one `write` system call per 256 bytes, so a line normally reaches the
//! console whole even when several processes print at once.

use core::fmt::{self, Write};

use crate::sys::{syscall, Error, Sysno};

/// Writes all of `buf` to `fd`.
pub fn write_all(fd: u32, mut buf: &[u8]) -> Result<(), Error> {
    while !buf.is_empty() {
        // SAFETY: buf is a live slice the kernel only reads.
        let n =
            unsafe { syscall(Sysno::Write, [fd, buf.as_ptr() as u32, buf.len() as u32, 0, 0, 0]) }?;
        buf = &buf[n as usize..];
    }
    Ok(())
}

/// A `fmt::Write` sink that buffers and flushes to one file descriptor.
pub struct Out {
    fd: u32,
    buf: [u8; 256],
    len: usize,
}

impl Out {
    pub const fn new(fd: u32) -> Out {
        Out { fd, buf: [0; 256], len: 0 }
    }

    pub fn flush(&mut self) {
        // Nowhere to report a failed write of the output itself: drop it.
        let _ = write_all(self.fd, &self.buf[..self.len]);
        self.len = 0;
    }
}

impl Write for Out {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for &b in s.as_bytes() {
            if self.len == self.buf.len() {
                self.flush();
            }
            self.buf[self.len] = b;
            self.len += 1;
        }
        Ok(())
    }
}

/// Formats `args` to `fd` (what the macros expand to).
pub fn print_to(fd: u32, args: fmt::Arguments) {
    let mut out = Out::new(fd);
    let _ = out.write_fmt(args);
    out.flush();
}

#[macro_export]
macro_rules! print {
    ($($arg:tt)*) => { $crate::io::print_to(1, format_args!($($arg)*)) };
}

#[macro_export]
macro_rules! println {
    () => { $crate::print!("\n") };
    ($($arg:tt)*) => { $crate::io::print_to(1, format_args!("{}\n", format_args!($($arg)*))) };
}

#[macro_export]
macro_rules! eprintln {
    ($($arg:tt)*) => { $crate::io::print_to(2, format_args!("{}\n", format_args!($($arg)*))) };
}
