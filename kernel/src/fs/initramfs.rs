//! The initramfs: a cpio "newc" archive QEMU loads with `-initrd`, read in
//! place (zero-copy) with sigil-core's parser. It is the only filesystem,
//! and it is read-only: `RamFile` is an open entry.

use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;

use sigil_core::abi::Errno;
use sigil_core::cpio::Archive;

use super::{stat, FileOps, Stat, StatusFlags};
use crate::kcell::KCell;
use crate::uaccess::copy_to_user;

static ARCHIVE: KCell<Option<Archive<'static>>> = KCell::new(None);

/// Takes the archive at `data` (checked once, here).
pub fn init(data: &'static [u8]) -> Result<usize, sigil_core::cpio::CpioError> {
    let a = Archive::new(data)?;
    let n = a.entries().count();
    *ARCHIVE.get() = Some(a);
    Ok(n)
}

/// A file or directory in the archive.
#[derive(Clone, Copy)]
pub struct Node {
    pub data: &'static [u8],
    pub mode: u32,
    pub is_file: bool,
    pub is_dir: bool,
    pub ino: u32,
}

/// Finds `path` ("/bin/x", "bin/x", "./bin/x").
pub fn lookup(path: &str) -> Option<Node> {
    let a = ARCHIVE.get().as_ref()?;
    let path = path.trim_start_matches("./").trim_start_matches('/');
    if path.is_empty() {
        return Some(Node { data: &[], mode: 0o040755, is_file: false, is_dir: true, ino: 1 });
    }
    a.entries().enumerate().find(|(_, e)| e.name == path).map(|(i, e)| Node {
        data: e.data,
        mode: e.mode,
        is_file: e.is_file(),
        is_dir: e.is_dir(),
        ino: i as u32 + 2,
    })
}

/// The entries directly inside directory `dir` ("" is the root), in archive
/// order: (name, node).
pub fn children(dir: &str) -> Vec<(&'static str, Node)> {
    let Some(a) = ARCHIVE.get().as_ref() else { return Vec::new() };
    a.entries()
        .enumerate()
        .filter_map(|(i, e)| {
            let rest = if dir.is_empty() {
                Some(e.name)
            } else {
                e.name.strip_prefix(dir).and_then(|r| r.strip_prefix('/'))
            }?;
            if rest.is_empty() || rest.contains('/') || rest == "." {
                return None;
            }
            let node = Node {
                data: e.data,
                mode: e.mode,
                is_file: e.is_file(),
                is_dir: e.is_dir(),
                ino: i as u32 + 2,
            };
            Some((rest, node))
        })
        .collect()
}

/// An open initramfs file or directory: read-only, with its own offset (for
/// a directory, the index of the next entry getdents returns).
pub struct RamFile {
    path: String,
    node: Node,
    pos: Cell<u64>,
    flags: StatusFlags,
}

impl RamFile {
    pub fn new(path: String, node: Node, oflags: u32) -> RamFile {
        RamFile { path, node, pos: Cell::new(0), flags: StatusFlags::new(oflags) }
    }
}

/// linux_dirent64 d_type values.
const DT_DIR: u8 = 4;
const DT_REG: u8 = 8;
const DT_LNK: u8 = 10;

fn dtype(n: &Node) -> u8 {
    match n.mode & stat::S_IFMT {
        stat::S_IFDIR => DT_DIR,
        stat::S_IFREG => DT_REG,
        0o120000 => DT_LNK,
        _ => 0,
    }
}

impl FileOps for RamFile {
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        if self.node.is_dir {
            return Err(Errno::EISDIR);
        }
        let pos = self.pos.get().min(self.node.data.len() as u64) as usize;
        let n = (len as usize).min(self.node.data.len() - pos);
        copy_to_user(buf, &self.node.data[pos..pos + n]).map_err(|_| Errno::EFAULT)?;
        self.pos.set((pos + n) as u64);
        Ok(n as u32)
    }

    /// Opened read-only (openat refuses write access), so: EBADF.
    fn write(&self, _buf: u32, _len: u32) -> Result<u32, Errno> {
        Err(Errno::EBADF)
    }

    fn stat(&self) -> Stat {
        Stat::ramfs(self.node.ino as u64, self.node.mode, self.node.data.len() as u64)
    }

    /// SEEK_SET/CUR/END; past the end is allowed (reads there return 0), a
    /// negative result is EINVAL. A directory only rewinds or seeks to an
    /// entry index.
    fn seek(&self, off: i64, whence: u32) -> Result<u64, Errno> {
        let base = match whence {
            0 => 0,
            1 => self.pos.get() as i64,
            2 if !self.node.is_dir => self.node.data.len() as i64,
            _ => return Err(Errno::EINVAL),
        };
        let new = base.checked_add(off).filter(|&p| p >= 0).ok_or(Errno::EINVAL)?;
        self.pos.set(new as u64);
        Ok(new as u64)
    }

    /// linux_dirent64 records: u64 ino, i64 next offset, u16 record length,
    /// u8 type, the NUL-terminated name, padded to 8 bytes. "." and ".."
    /// come first, as on Linux; the offset is the entry index.
    fn getdents(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        if !self.node.is_dir {
            return Err(Errno::ENOTDIR);
        }
        let mut entries: Vec<(&str, u64, u8)> =
            alloc::vec![(".", self.node.ino as u64, DT_DIR), ("..", 1, DT_DIR)];
        entries
            .extend(children(&self.path).iter().map(|(name, n)| (*name, n.ino as u64, dtype(n))));
        let mut out: Vec<u8> = Vec::new();
        let mut i = self.pos.get() as usize;
        while let Some(&(name, ino, ty)) = entries.get(i) {
            let reclen = (19 + name.len() + 1).next_multiple_of(8);
            if out.len() + reclen > len as usize {
                break;
            }
            out.extend_from_slice(&ino.to_be_bytes());
            out.extend_from_slice(&(i as u64 + 1).to_be_bytes());
            out.extend_from_slice(&(reclen as u16).to_be_bytes());
            out.push(ty);
            out.extend_from_slice(name.as_bytes());
            out.resize(out.len() + reclen - 19 - name.len(), 0);
            i += 1;
        }
        if out.is_empty() && i < entries.len() {
            return Err(Errno::EINVAL);
        }
        copy_to_user(buf, &out).map_err(|_| Errno::EFAULT)?;
        self.pos.set(i as u64);
        Ok(out.len() as u32)
    }

    fn status_flags(&self) -> u32 {
        self.flags.get()
    }
    fn set_status_flags(&self, f: u32) {
        self.flags.set(f)
    }
    fn dir_path(&self) -> Option<&str> {
        self.node.is_dir.then_some(self.path.as_str())
    }
}
