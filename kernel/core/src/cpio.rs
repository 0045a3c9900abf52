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

/// Header magic of the "new ASCII" format (`070702`, the CRC variant, is
/// refused, as Linux's initramfs unpacker does).
const MAGIC: &[u8; 6] = b"070701";
const HEADER_LEN: usize = 110;
const TRAILER: &str = "TRAILER!!!";

/// File type bits of `mode` (`st_mode`).
const S_IFMT: u32 = 0o170_000;
const S_IFDIR: u32 = 0o040_000;
const S_IFREG: u32 = 0o100_000;
const S_IFLNK: u32 = 0o120_000;

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
mod tests {
    use super::*;
    use std::format;
    use std::vec::Vec;

    fn sample() -> Vec<u8> {
        write_newc(&[
            Entry { name: "bin", mode: 0o040_755, data: b"" },
            Entry { name: "bin/hello", mode: 0o100_755, data: b"\x7fELF..." },
            Entry { name: "etc", mode: 0o040_755, data: b"" },
            Entry { name: "etc/motd", mode: 0o100_644, data: b"welcome to sigil\n" },
            Entry { name: "empty", mode: 0o100_644, data: b"" },
            Entry { name: "a", mode: 0o100_644, data: b"1" },
            Entry { name: "ab", mode: 0o100_644, data: b"12" },
            Entry { name: "abc", mode: 0o100_644, data: b"123" },
            Entry { name: "abcd", mode: 0o100_644, data: b"1234" },
            Entry { name: "sh", mode: 0o120_777, data: b"bin/hello" },
        ])
    }

    #[test]
    fn writer_emits_the_documented_bytes() {
        let a = write_newc(&[Entry { name: "init", mode: 0o100_755, data: b"hi" }]);
        let header = "070701\
            00000001000081ED0000000000000000000000010000000000000002\
            0000000000000000000000000000000000000005";
        let mut want = Vec::from(header.as_bytes());
        want.extend_from_slice(b"00000000init\0\0hi\0\0"); // check, name+NUL, pad to 116, data, pad
        assert_eq!(&a[..want.len()], &want[..]);
        assert_eq!(a.len() % 4, 0);
        let trailer = &a[want.len()..];
        assert_eq!(&trailer[..6], b"070701");
        assert_eq!(&trailer[110..121], b"TRAILER!!!\0");
        assert_eq!(trailer.len(), 124);
    }

    #[test]
    fn round_trip() {
        let bytes = sample();
        let archive = Archive::new(&bytes).unwrap();
        let read: Vec<Entry<'_>> = archive.entries().collect();
        let written = sample();
        let again = write_newc(&read);
        assert_eq!(again, written, "read then write gives the same bytes");
        assert_eq!(read.len(), 10);
        assert!(read[0].is_dir() && read[1].is_file() && read[9].is_symlink());
        assert_eq!(archive.find("etc/motd").unwrap().data, b"welcome to sigil\n");
        assert_eq!(archive.find("/bin/hello").unwrap().mode, 0o100_755);
        assert_eq!(archive.find("./abcd").unwrap().data, b"1234");
        assert_eq!(archive.find("empty").unwrap().data, b"");
        assert!(archive.find("nope").is_none());
        assert!(archive.find("bin/").is_none());
    }

    #[test]
    fn reader_strips_prefixes_and_skips_the_root() {
        let bytes = write_newc(&[
            Entry { name: ".", mode: 0o040_755, data: b"" },
            Entry { name: "./init", mode: 0o100_755, data: b"x" },
            Entry { name: "/dev", mode: 0o040_755, data: b"" },
        ]);
        let archive = Archive::new(&bytes).unwrap();
        let names: Vec<&str> = archive.entries().map(|e| e.name).collect();
        assert_eq!(names, ["init", "dev"]);
        assert_eq!(archive.find("/init").unwrap().data, b"x");
    }

    #[test]
    fn ignores_bytes_after_the_trailer_and_refuses_a_missing_one() {
        let mut bytes = sample();
        let len = bytes.len();
        bytes.resize(len.next_multiple_of(512), 0); // cpio's block padding
        assert_eq!(Archive::new(&bytes).unwrap().entries().count(), 10);
        let no_trailer = &bytes[..len - 124];
        assert_eq!(Archive::new(no_trailer).err(), Some(CpioError::Truncated));
        assert_eq!(Archive::new(&[]).err(), Some(CpioError::Truncated));
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = sample();
        // The trailer's 3 bytes of padding may go; anything shorter must fail.
        let min_ok = bytes.len() - 3;
        for len in 0..bytes.len() {
            let r = Archive::new(&bytes[..len]);
            assert_eq!(r.is_ok(), len >= min_ok, "length {len}: {:?}", r.err());
        }
    }

    /// Replace header field `i` (0 = ino ... 12 = check) of the first record.
    fn with_field(i: usize, text: &[u8; 8]) -> Vec<u8> {
        let mut bytes = sample();
        bytes[6 + 8 * i..14 + 8 * i].copy_from_slice(text);
        bytes
    }

    #[test]
    fn malformed_headers_are_errors() {
        let mut bad_magic = sample();
        bad_magic[5] = b'7'; // 070707: the old portable format
        assert_eq!(Archive::new(&bad_magic).err(), Some(CpioError::BadMagic));
        for i in 0..13 {
            assert_eq!(
                Archive::new(&with_field(i, b"0000000g")).err(),
                Some(CpioError::BadHex),
                "field {i}"
            );
            assert_eq!(
                Archive::new(&with_field(i, b" 0000001")).err(),
                Some(CpioError::BadHex),
                "field {i}"
            );
        }
        let huge = |i| Archive::new(&with_field(i, b"FFFFFFFF")).err();
        assert_eq!(huge(6), Some(CpioError::Truncated), "filesize 4 GiB");
        assert_eq!(huge(11), Some(CpioError::Truncated), "namesize 4 GiB");
        assert_eq!(Archive::new(&with_field(11, b"00000000")).err(), Some(CpioError::BadName));
        // namesize 3 makes "bi" + 'n' instead of a NUL terminator.
        assert_eq!(Archive::new(&with_field(11, b"00000003")).err(), Some(CpioError::BadName));
        let mut inner_nul = sample();
        inner_nul[111] = 0; // "b\0n\0"
        assert_eq!(Archive::new(&inner_nul).err(), Some(CpioError::BadName));
        let mut not_utf8 = sample();
        not_utf8[110] = 0xff;
        assert_eq!(Archive::new(&not_utf8).err(), Some(CpioError::BadName));
        // Lower-case hex is valid too.
        let lower = write_newc(&[Entry { name: "x", mode: 0o100_644, data: &[7; 0xab] }]);
        let lower = std::string::String::from_utf8_lossy(&lower).replace("000000AB", "000000ab");
        assert_eq!(Archive::new(lower.as_bytes()).unwrap().find("x").unwrap().data.len(), 0xab);
    }

    #[test]
    fn random_mutations_never_panic() {
        let bytes = sample();
        let mut seed = 0x2545_f491_u32;
        let mut accepted = 0;
        for round in 0..20_000 {
            let mut m = bytes.clone();
            for _ in 0..1 + round % 4 {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                let at = seed as usize % m.len();
                // Half the time a hex digit, to get past the hex check.
                m[at] = if seed & 1 == 0 {
                    b"0123456789abcdefF"[(seed >> 8) as usize % 17]
                } else {
                    (seed >> 16) as u8
                };
            }
            let cut = if round % 3 == 0 { m.len() - (seed as usize >> 20) % 64 } else { m.len() };
            if let Ok(a) = Archive::new(&m[..cut]) {
                accepted += 1;
                for e in a.entries() {
                    let found = a.find(e.name).unwrap();
                    let _ = format!("{found:?}");
                }
            }
        }
        assert!(accepted > 0, "some mutations (e.g. in file data) must still parse");
    }
}
