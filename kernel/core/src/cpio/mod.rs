//! cpio: the initramfs archive format ("newc"), read in the kernel, written on the host.
//!
//! Owns the byte format only. At boot the kernel's fs (`kernel/src/fs/`) wraps
//! the initramfs in an [`Archive`], which checks the whole archive once, and
//! then looks files up with [`Archive::find`] or lists them with
//! [`Archive::entries`]; entry data is borrowed from the archive, never
//! copied. The host runner builds the archive with [`write_newc`].
//!
//! # The format
//! A newc archive is a list of records, then a record named `TRAILER!!!`:
//!
//! ```text
//!  +--------+---------------------------------+-------------+------+----------+------+
//!  | 070701 | 13 fields x 8 ASCII hex digits  | name + NUL  | pad  | data     | pad  |
//!  +--------+---------------------------------+-------------+------+----------+------+
//!   6 bytes   ino mode uid gid nlink mtime      namesize      to 4   filesize   to 4
//!             filesize devmajor devminor        bytes         bytes  bytes      bytes
//!             rdevmajor rdevminor namesize check
//!  \___________________ 110 bytes __________/
//! ```
//!
//! Numbers are text, so the format has no byte order and no alignment
//! surprises; the paddings keep every header 4-aligned from the archive start.
//! Directories have no data; a symlink's data is its target. Only the first
//! archive is read (Linux also accepts several concatenated ones), and hard
//! links (nlink > 1 on files, data on the last copy only) are not supported:
//! the writer never makes them.
//!
//! # Robustness
//! The initramfs comes from outside the kernel, so [`Archive::new`] treats it
//! as hostile: every size is checked against the remaining bytes with
//! overflow-checked arithmetic, and any problem is a [`CpioError`], never a
//! panic. After `new` succeeds, iteration cannot fail.
//!
//! # Why hand-written
//! `cpio_reader` (no_std) was evaluated: its iterator silently stops at a
//! corrupt record (a truncated initramfs would look like a shorter one), it
//! has no writer, which the host side needs, and it pulls in `bitflags`. The
//! format is one fixed text header; reading and writing it takes ~100 lines.

use alloc::vec::Vec;

use crate::abi::mode::{S_IFDIR, S_IFLNK, S_IFMT, S_IFREG};

/// Header magic of the "new ASCII" format (`070702`, the CRC variant, is
/// refused, as Linux's initramfs unpacker does).
const MAGIC: &[u8; 6] = b"070701";
const HEADER_LEN: usize = 110;
const TRAILER: &str = "TRAILER!!!";

/// One file of the archive, as read or as to be written. On read, `name` has
/// no leading `./` or `/`, and `data` borrows from the archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    pub name: &'a str,
    /// `st_mode`: type and permissions, e.g. 0o040755 (directory), 0o100755.
    pub mode: u32,
    pub data: &'a [u8],
}

impl Entry<'_> {
    pub fn is_dir(&self) -> bool {
        self.mode & S_IFMT == S_IFDIR
    }

    pub fn is_file(&self) -> bool {
        self.mode & S_IFMT == S_IFREG
    }

    pub fn is_symlink(&self) -> bool {
        self.mode & S_IFMT == S_IFLNK
    }
}

/// Why an initramfs was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CpioError {
    /// A record does not start with `070701`.
    BadMagic,
    /// A header field is not 8 hex digits.
    BadHex,
    /// A name is empty, not NUL-terminated, has a NUL inside or is not UTF-8.
    BadName,
    /// A record runs past the end, or the archive ends before `TRAILER!!!`.
    Truncated,
}

/// A checked newc archive: every record up to the trailer is well formed.
#[derive(Debug, Clone, Copy)]
pub struct Archive<'a> {
    bytes: &'a [u8],
}

/// One parsed record and the bytes after it (and after its padding).
struct Record<'a> {
    entry: Entry<'a>,
    trailer: bool,
    rest: &'a [u8],
}

impl<'a> Archive<'a> {
    /// Check the whole archive up to `TRAILER!!!`; bytes after the trailer
    /// (block padding added by cpio tools) are ignored. Called once at boot.
    pub fn new(bytes: &'a [u8]) -> Result<Self, CpioError> {
        let mut rest = bytes;
        loop {
            let rec = parse_record(rest)?;
            if rec.trailer {
                return Ok(Archive { bytes });
            }
            rest = rec.rest;
        }
    }

    /// The entries in archive order, without the root (`.`) and the trailer.
    pub fn entries(&self) -> Entries<'a> {
        Entries { rest: self.bytes }
    }

    /// The entry for `path` (leading `/` or `./` ignored), if any. A linear
    /// scan: an initramfs holds tens of files.
    pub fn find(&self, path: &str) -> Option<Entry<'a>> {
        let path = normalize(path);
        self.entries().find(|e| e.name == path)
    }
}

/// Iterator over an [`Archive`]'s entries.
pub struct Entries<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Entries<'a> {
    type Item = Entry<'a>;

    fn next(&mut self) -> Option<Entry<'a>> {
        loop {
            // Archive::new checked every record, so parsing cannot fail here.
            let rec = parse_record(self.rest).ok()?;
            if rec.trailer {
                return None;
            }
            self.rest = rec.rest;
            if !rec.entry.name.is_empty() && rec.entry.name != "." {
                return Some(rec.entry);
            }
        }
    }
}

/// Drop the leading `./` and `/` that `find . | cpio` and absolute paths add.
fn normalize(mut path: &str) -> &str {
    loop {
        if let Some(p) = path.strip_prefix("./") {
            path = p;
        } else if let Some(p) = path.strip_prefix('/') {
            path = p;
        } else {
            return path;
        }
    }
}

/// Round `n` up to a multiple of 4, or None on overflow.
fn pad4(n: usize) -> Option<usize> {
    n.checked_add(3).map(|n| n & !3)
}

/// One 8-digit hex header field (upper or lower case).
fn hex8(field: &[u8]) -> Result<u32, CpioError> {
    field.iter().try_fold(0u32, |acc, &c| {
        let digit = (c as char).to_digit(16).ok_or(CpioError::BadHex)?;
        Ok((acc << 4) | digit)
    })
}

/// Parse the record at the start of `bytes`.
fn parse_record(bytes: &[u8]) -> Result<Record<'_>, CpioError> {
    let header = bytes.get(..HEADER_LEN).ok_or(CpioError::Truncated)?;
    if &header[..6] != MAGIC {
        return Err(CpioError::BadMagic);
    }
    // Fields after the magic, 8 digits each: 0 ino, 1 mode, ..., 6 filesize,
    // ..., 11 namesize, 12 check. All are checked to be hex.
    let mut fields = [0u32; 13];
    for (i, f) in fields.iter_mut().enumerate() {
        *f = hex8(&header[6 + 8 * i..14 + 8 * i])?;
    }
    let (mode, filesize, namesize) = (fields[1], fields[6] as usize, fields[11] as usize);

    let name_end = HEADER_LEN.checked_add(namesize).ok_or(CpioError::Truncated)?;
    let name = bytes.get(HEADER_LEN..name_end).ok_or(CpioError::Truncated)?;
    let name = match name.split_last() {
        Some((0, name)) if !name.contains(&0) => {
            core::str::from_utf8(name).map_err(|_| CpioError::BadName)?
        }
        _ => return Err(CpioError::BadName),
    };
    let data_start = pad4(name_end).ok_or(CpioError::Truncated)?;
    if name == TRAILER {
        // The trailer may lose its padding when an archive is cut to size.
        return Ok(Record { entry: Entry { name, mode, data: &[] }, trailer: true, rest: &[] });
    }
    let data_end = data_start.checked_add(filesize).ok_or(CpioError::Truncated)?;
    let data = bytes.get(data_start..data_end).ok_or(CpioError::Truncated)?;
    let next = pad4(data_end).ok_or(CpioError::Truncated)?;
    // A missing final padding shows up as a truncated next header.
    let rest = bytes.get(next..).unwrap_or(&[]);
    Ok(Record { entry: Entry { name: normalize(name), mode, data }, trailer: false, rest })
}

/// Build a newc archive of `entries`, in order, followed by the trailer.
/// Every entry gets its own inode number, uid/gid 0 and mtime 0 (so the
/// same input gives the same bytes); directories get nlink 2, others 1.
/// Called by the host runner to make the initramfs.
///
/// # Panics
/// If a name contains a NUL byte or a file is 4 GiB or larger: the format
/// cannot express either, and the host side should fail loudly.
pub fn write_newc(entries: &[Entry<'_>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let nlink = if e.is_dir() { 2 } else { 1 };
        push_record(&mut out, i as u32 + 1, e.name, e.mode, nlink, e.data);
    }
    push_record(&mut out, 0, TRAILER, 0, 1, &[]);
    out
}

/// Append one record with its paddings to `out`.
fn push_record(out: &mut Vec<u8>, ino: u32, name: &str, mode: u32, nlink: u32, data: &[u8]) {
    assert!(!name.contains('\0'), "cpio name {name:?} contains a NUL");
    let filesize = u32::try_from(data.len()).expect("cpio entry of 4 GiB or more");
    let namesize = name.len() as u32 + 1;
    out.extend_from_slice(MAGIC);
    // ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor
    // rdevminor namesize check
    for field in [ino, mode, 0, 0, nlink, 0, filesize, 0, 0, 0, 0, namesize, 0] {
        for shift in (0..8).rev() {
            out.push(b"0123456789ABCDEF"[(field >> (4 * shift)) as usize & 0xf]);
        }
    }
    out.extend_from_slice(name.as_bytes());
    out.push(0);
    out.resize(out.len().next_multiple_of(4), 0);
    out.extend_from_slice(data);
    out.resize(out.len().next_multiple_of(4), 0);
}

#[cfg(test)]
mod tests;
