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

    /// Maps the pages of the user buffer that lie in a mapping of this
    /// file, before the file is borrowed for the copy; `write`: the copy
    /// stores into the buffer (read()).
    fn prefault(&self, buf: u32, len: u32, write: bool) {
        let me = alloc::rc::Rc::as_ptr(&self.node) as *const ();
        if let Some(space) = crate::proc::try_current().and_then(|t| t.group().try_space()) {
            space.prefault(buf, len, me, write);
        }
    }

    fn readable(&self) -> bool {
        self.flags.get() & O_ACCMODE != O_WRONLY
    }
    fn writable(&self) -> bool {
        self.flags.get() & O_ACCMODE != O_RDONLY
    }
}

/// linux_dirent64 d_type values.
const DT_FIFO: u8 = 1;
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
        Kind::Fifo(_) => DT_FIFO,
    }
}

/// getdents64 over a directory's (cookie, inode, type, name) entries, in
/// cookie order: writes the records from cookie `pos` on that fit in `len`
/// bytes at `buf` and moves `pos` past the last one (its d_off, where the
/// next read resumes). A buffer too small for even the first is EINVAL.
/// Each record is a linux_dirent64: u64 ino, i64 offset of the next, u16
/// record length, u8 type, the NUL-terminated name padded to 8 bytes.
pub(super) fn getdents<'a>(
    entries: impl Iterator<Item = (u64, u64, u8, &'a str)>,
    pos: &Cell<u64>,
    buf: u32,
    len: u32,
) -> Result<u32, Errno> {
    let from = pos.get();
    let (mut out, mut next) = (Vec::new(), from);
    for (cookie, ino, ty, name) in entries.filter(|e| e.0 >= from) {
        let reclen = (19 + name.len() + 1).next_multiple_of(8);
        if out.len() + reclen > len as usize {
            if out.is_empty() {
                return Err(Errno::EINVAL);
            }
            break;
        }
        out.extend_from_slice(&ino.to_be_bytes());
        out.extend_from_slice(&(cookie + 1).to_be_bytes());
        out.extend_from_slice(&(reclen as u16).to_be_bytes());
        out.push(ty);
        out.extend_from_slice(name.as_bytes());
        out.resize(out.len() + reclen - 19 - name.len(), 0);
        next = cookie + 1;
    }
    copy_to_user(buf, &out)?;
    pos.set(next);
    Ok(out.len() as u32)
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
        self.prefault(buf, len, true);
        d.borrow().read(off, buf, len)
    }

    fn write_at(&self, off: u64, buf: u32, len: u32) -> Result<u32, Errno> {
        let Kind::File(d) = &self.node.kind else { return Err(Errno::EBADF) };
        if !self.writable() {
            return Err(Errno::EBADF);
        }
        self.prefault(buf, len, false);
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

    /// "." and ".." first (cookies 0 and 1), as on Linux, then the entries
    /// by their cookies.
    fn getdents(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        let dir = self.node.dir()?.borrow();
        let parent_ino = self.node.parent().map_or(self.node.ino, |p| p.ino) as u64;
        let dots = [(0, self.node.ino as u64, DT_DIR, "."), (1, parent_ino, DT_DIR, "..")];
        let entries =
            dir.entries.iter().map(|e| (e.off, e.node.ino as u64, dtype(&e.node), &*e.name));
        getdents(dots.into_iter().chain(entries), &self.pos, buf, len)
    }

    fn status(&self) -> Option<&StatusFlags> {
        Some(&self.flags)
    }
    fn inode(&self) -> Option<&Node> {
        Some(&self.node)
    }
}
