//! An open tmpfs file or directory: the inode, an offset and the status
//! flags. Reads and writes go to the inode's `Data`; a directory's offset is
//! the getdents cookie of the next entry (`tmpfs::Entry::off`).

use alloc::vec::Vec;
use core::cell::Cell;

use sigil_core::abi::Errno;

use super::flags::{O_ACCMODE, O_APPEND, O_RDONLY, O_WRONLY};
use super::tmpfs::{Kind, Node};
use super::{FileOps, Stat, StatusFlags};
use crate::uaccess::copy_to_user;

pub struct OpenFile {
    node: Node,
    pos: Cell<u64>,
    flags: StatusFlags,
}

impl OpenFile {
    pub fn new(node: Node, oflags: u32) -> OpenFile {
        OpenFile { node, pos: Cell::new(0), flags: StatusFlags::new(oflags) }
    }

    fn readable(&self) -> bool {
        self.flags.get() & O_ACCMODE != O_WRONLY
    }
    fn writable(&self) -> bool {
        self.flags.get() & O_ACCMODE != O_RDONLY
    }
}

/// linux_dirent64 d_type values.
const DT_CHR: u8 = 2;
pub(super) const DT_DIR: u8 = 4;
pub(super) const DT_REG: u8 = 8;
pub(super) const DT_LNK: u8 = 10;

fn dtype(n: &Node) -> u8 {
    match n.kind {
        Kind::Dir(_) => DT_DIR,
        Kind::File(_) => DT_REG,
        Kind::Symlink(_) => DT_LNK,
        Kind::Device(_) => DT_CHR,
    }
}

/// Appends one linux_dirent64 record (u64 ino, i64 offset of the next, u16
/// record length, u8 type, the NUL-terminated name padded to 8 bytes) if it
/// fits in `room`.
pub(super) fn put_dirent(
    out: &mut Vec<u8>,
    room: usize,
    ino: u64,
    next: u64,
    ty: u8,
    name: &str,
) -> bool {
    let reclen = (19 + name.len() + 1).next_multiple_of(8);
    if out.len() + reclen > room {
        return false;
    }
    out.extend_from_slice(&ino.to_be_bytes());
    out.extend_from_slice(&next.to_be_bytes());
    out.extend_from_slice(&(reclen as u16).to_be_bytes());
    out.push(ty);
    out.extend_from_slice(name.as_bytes());
    out.resize(out.len() + reclen - 19 - name.len(), 0);
    true
}

impl FileOps for OpenFile {
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        let n = self.read_at(self.pos.get(), buf, len)?;
        self.pos.set(self.pos.get() + n as u64);
        Ok(n)
    }

    /// With O_APPEND every write goes to the end, and the offset follows.
    fn write(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        if self.flags.get() & O_APPEND != 0 {
            self.pos.set(self.node.size());
        }
        let n = self.write_at(self.pos.get(), buf, len)?;
        self.pos.set(self.pos.get() + n as u64);
        Ok(n)
    }

    fn read_at(&self, off: u64, buf: u32, len: u32) -> Result<u32, Errno> {
        if !self.readable() {
            return Err(Errno::EBADF);
        }
        let Kind::File(d) = &self.node.kind else { return Err(Errno::EISDIR) };
        d.borrow().read(off, buf, len)
    }

    fn write_at(&self, off: u64, buf: u32, len: u32) -> Result<u32, Errno> {
        let Kind::File(d) = &self.node.kind else { return Err(Errno::EBADF) };
        if !self.writable() {
            return Err(Errno::EBADF);
        }
        let n = d.borrow_mut().write(off, buf, len)?;
        self.node.touch(true);
        Ok(n)
    }

    fn stat(&self) -> Stat {
        self.node.stat()
    }

    /// SEEK_SET/CUR/END; past the end is allowed (reads there return 0,
    /// writes leave a hole), a negative result is EINVAL. A directory only
    /// rewinds or seeks to a cookie getdents gave.
    fn seek(&self, off: i64, whence: u32) -> Result<u64, Errno> {
        let base = match whence {
            0 => 0,
            1 => self.pos.get() as i64,
            2 if !self.node.is_dir() => self.node.size() as i64,
            _ => return Err(Errno::EINVAL),
        };
        let new = base.checked_add(off).filter(|&p| p >= 0).ok_or(Errno::EINVAL)?;
        self.pos.set(new as u64);
        Ok(new as u64)
    }

    /// "." and ".." first (positions 0 and 1), as on Linux, then each
    /// entry whose cookie is at least the position; a record's d_off is
    /// where the next read resumes.
    fn getdents(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        let dir = self.node.dir()?.borrow();
        let parent_ino = self.node.parent().map_or(self.node.ino, |p| p.ino) as u64;
        let (mut out, room) = (Vec::new(), len as usize);
        let mut pos = self.pos.get();
        let mut full = false;
        for (off, ino, name) in [(0, self.node.ino as u64, "."), (1, parent_ino, "..")] {
            if pos == off && !full {
                match put_dirent(&mut out, room, ino, off + 1, DT_DIR, name) {
                    true => pos = off + 1,
                    false => full = true,
                }
            }
        }
        if !full {
            let from = pos;
            for e in dir.entries.iter().filter(|e| e.off >= from) {
                let ty = dtype(&e.node);
                if !put_dirent(&mut out, room, e.node.ino as u64, e.off + 1, ty, &e.name) {
                    full = true;
                    break;
                }
                pos = e.off + 1;
            }
        }
        if out.is_empty() && full {
            return Err(Errno::EINVAL);
        }
        copy_to_user(buf, &out)?;
        self.pos.set(pos);
        Ok(out.len() as u32)
    }

    fn status_flags(&self) -> u32 {
        self.flags.get()
    }
    fn set_status_flags(&self, f: u32) {
        self.flags.set(f)
    }
    fn inode(&self) -> Option<&Node> {
        Some(&self.node)
    }
}
