//! /dev/sigil/uaccess: the user-access counters, for benchmarks to read.
//!
//! The experiments Sigil is built for count how many user-access windows an
//! operation opens (`uaccess::WINDOWS`) and how many bytes cross them
//! (`uaccess::BYTES`). Every read of this file returns a fresh snapshot as
//! one text line, `windows <W> bytes <B>\n` (totals since boot), so a
//! program reads it before and after a loop and divides the difference by
//! the loop count. The read itself opens one window (its copy-out) after the
//! snapshot is taken: a before/after pair counts exactly one window and the
//! line's length in bytes of its own. Linux has no such file; only Sigil's
//! benchmarks open it.

use core::fmt::Write;
use core::sync::atomic::Ordering;

use sigil_core::abi::Errno;

use crate::fs::FileOps;
use crate::uaccess::{copy_to_user, BYTES, WINDOWS};

/// The open counters file (`fs::devices` opens it); it has no state,
/// every read is a snapshot.
pub struct Counters;

/// A line being formatted on the kernel stack (the longest is 39 bytes).
struct Line {
    buf: [u8; 48],
    len: usize,
}

impl Write for Line {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        self.buf.get_mut(self.len..end).ok_or(core::fmt::Error)?.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl FileOps for Counters {
    /// The snapshot line, cut to `len` bytes if the buffer is shorter.
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        let mut line = Line { buf: [0; 48], len: 0 };
        let (w, b) = (WINDOWS.load(Ordering::Relaxed), BYTES.load(Ordering::Relaxed));
        writeln!(line, "windows {w} bytes {b}").map_err(|_| Errno::EINVAL)?;
        let n = line.len.min(len as usize);
        copy_to_user(buf, &line.buf[..n])?;
        Ok(n as u32)
    }
}
