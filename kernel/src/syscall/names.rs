//! System calls that change or read the file tree's names: mkdirat,
//! unlinkat, renameat2, linkat, symlinkat, readlinkat, and the working
//! directory (chdir, fchdir, getcwd). The tree is `crate::fs::tmpfs`; the
//! rules are `crate::fs::walk`'s.

use alloc::string::String;

use sigil_core::abi::mode::{
    S_IFBLK, S_IFCHR, S_IFDIR, S_IFIFO, S_IFLNK, S_IFMT, S_IFREG, S_IFSOCK,
};
use sigil_core::abi::Errno;
use sigil_core::path::MAY_EXEC;

use super::fs::{tmpfs_mode, AT_EMPTY_PATH};
use super::SysResult;
use crate::fs::path::{self, AT_FDCWD};
use crate::fs::procfs;
use crate::fs::tmpfs::{self, Kind, Node};
use crate::fs::walk;
use crate::proc;
use crate::uaccess::copy_to_user;

const AT_REMOVEDIR: u32 = 0x200;
const RENAME_NOREPLACE: u32 = 1;

/// The directory that holds `path`'s last component, and the component:
/// the walk checked search permission; write permission is checked later,
/// after the name's existence, as Linux does (`walk::may_create`,
/// `walk::may_delete`).
fn parent(dirfd: i32, path: &str) -> Result<(Node, String), Errno> {
    let (dir, last) = path::parent(dirfd, path)?;
    Ok((dir, String::from(last)))
}

/// Where mkdir, symlink and link make `spelled`: its directory and name,
/// once `walk::may_create` agrees. A trailing '/' asks for a directory, so
/// only mkdir takes one (Linux `filename_create`: EEXIST if the name
/// exists, else ENOENT).
fn create_at(dirfd: i32, spelled: &str, mkdir: bool) -> Result<(Node, String), Errno> {
    let (dir, last) = parent(dirfd, spelled)?;
    walk::may_create(&dir, &last)?;
    if spelled.ends_with('/') && !mkdir {
        return Err(Errno::ENOENT);
    }
    Ok((dir, last))
}

pub fn mkdirat(dirfd: i32, p: u32, mode: u32) -> SysResult {
    let name = path::read_path(p)?;
    let (dir, last) = create_at(dirfd, &name, true)?;
    let node = tmpfs::new_dir(tmpfs_mode(S_IFDIR, mode) & 0o7777, &dir)?;
    walk::create(&dir, &last, node).map(|_| 0)
}

/// mknodat(dirfd, path, mode, dev): a regular file (type S_IFREG or 0), a
/// FIFO (mkfifo), or, for root, a character device this kernel has a
/// driver for (a node like those in /dev). In Linux's order: a bad type is
/// EINVAL (a directory EPERM), then the name (`create_at`), then a device
/// by a non-root caller EPERM; a socket, a block device or an unknown
/// device number is EPERM too, Linux's answer for a node type the file
/// system does not support (there are no Unix sockets to bind one to).
pub fn mknodat(dirfd: i32, p: u32, mode: u32, dev: u32) -> SysResult {
    let ty = mode & S_IFMT;
    match ty {
        0 | S_IFREG | S_IFCHR | S_IFBLK | S_IFIFO | S_IFSOCK => {}
        S_IFDIR => return Err(Errno::EPERM),
        _ => return Err(Errno::EINVAL),
    }
    let name = path::read_path(p)?;
    let (dir, last) = create_at(dirfd, &name, false)?;
    let kind = match ty {
        0 | S_IFREG => tmpfs::empty_file(),
        S_IFIFO => Kind::Fifo(Default::default()),
        S_IFCHR if crate::cred::current().uid.fs == 0 => {
            // Linux `new_decode_dev`: the 32-bit dev_t.
            let rdev = ((dev & 0xfff00) >> 8, (dev & 0xff) | ((dev >> 12) & 0xfff00));
            Kind::Device(crate::fs::devices::path_of(rdev).ok_or(Errno::EPERM)?)
        }
        _ => return Err(Errno::EPERM),
    };
    let ty = if ty == 0 { S_IFREG } else { ty };
    let node = tmpfs::new_inode(tmpfs_mode(ty, mode), kind)?;
    walk::create(&dir, &last, node).map(|_| 0)
}

pub fn unlinkat(dirfd: i32, p: u32, flags: u32) -> SysResult {
    if flags & !AT_REMOVEDIR != 0 {
        return Err(Errno::EINVAL);
    }
    let name = path::read_path(p)?;
    let (dir, last) = parent(dirfd, &name)?;
    let rmdir = flags & AT_REMOVEDIR != 0;
    // unlink("file/"): the slash asks for a directory (Linux checks it
    // right after the lookup, before any permission).
    if !rmdir && name.ends_with('/') && !matches!(last.as_str(), "" | "." | "..") {
        return Err(match walk::child(&dir, &last) {
            Some(n) if n.is_dir() => Errno::EISDIR,
            Some(_) => Errno::ENOTDIR,
            None => Errno::ENOENT,
        });
    }
    walk::remove(&dir, &last, rmdir).map(|_| 0)
}

pub fn renameat2(odirfd: i32, old: u32, ndirfd: i32, new: u32, flags: u32) -> SysResult {
    if flags & !RENAME_NOREPLACE != 0 {
        return Err(Errno::EINVAL);
    }
    let (oname, nname) = (path::read_path(old)?, path::read_path(new)?);
    let (odir, olast) = parent(odirfd, &oname)?;
    let (ndir, nlast) = parent(ndirfd, &nname)?;
    let old = walk::Side { dir: &odir, name: &olast, slash: oname.ends_with('/') };
    let new = walk::Side { dir: &ndir, name: &nlast, slash: nname.ends_with('/') };
    walk::rename(old, new, flags & RENAME_NOREPLACE != 0).map(|_| 0)
}

pub fn linkat(odirfd: i32, old: u32, ndirfd: i32, new: u32, flags: u32) -> SysResult {
    const AT_SYMLINK_FOLLOW: u32 = 0x400;
    if flags & !(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH) != 0 {
        return Err(Errno::EINVAL);
    }
    let oname = path::read_path(old)?;
    let node = if oname.is_empty() && flags & AT_EMPTY_PATH != 0 {
        let f = proc::share::files().get(odirfd as u32)?.clone();
        f.inode().cloned().ok_or(Errno::ENOENT)?
    } else {
        path::lookup(odirfd, &oname, flags & AT_SYMLINK_FOLLOW != 0)?
    };
    let nname = path::read_path(new)?;
    let (dir, last) = create_at(ndirfd, &nname, false)?;
    walk::link(&node, &dir, &last).map(|_| 0)
}

pub fn symlinkat(target: u32, dirfd: i32, p: u32) -> SysResult {
    let target = path::read_path(target)?;
    if target.is_empty() {
        return Err(Errno::ENOENT);
    }
    let name = path::read_path(p)?;
    let (dir, last) = create_at(dirfd, &name, false)?;
    let node = tmpfs::new_inode(S_IFLNK | 0o777, Kind::Symlink(target))?;
    walk::create(&dir, &last, node).map(|_| 0)
}

/// readlinkat: the target, not NUL-terminated, cut to `size`. A name that
/// is not a link is EINVAL; /proc's links are `procfs::readlink`'s.
pub fn readlinkat(dirfd: i32, p: u32, buf: u32, size: u32) -> SysResult {
    if size as i32 <= 0 {
        return Err(Errno::EINVAL);
    }
    let name = path::read_path(p)?;
    let target = match procfs::claim(dirfd, &name, false) {
        Some(entry) => procfs::readlink(entry?)?,
        None => match &path::lookup(dirfd, &name, false)?.kind {
            Kind::Symlink(t) => t.clone(),
            _ => return Err(Errno::EINVAL),
        },
    };
    let n = (target.len() as u32).min(size);
    copy_to_user(buf, &target.as_bytes()[..n as usize])?;
    Ok(n)
}

pub fn chdir(p: u32) -> SysResult {
    let name = path::read_path(p)?;
    let node = path::lookup(AT_FDCWD, &name, true)?;
    set_cwd(node)
}

pub fn fchdir(fd: u32) -> SysResult {
    let f = proc::share::files().get(fd)?.clone();
    let node = f.inode().cloned().ok_or(Errno::ENOTDIR)?;
    set_cwd(node)
}

fn set_cwd(node: Node) -> SysResult {
    node.dir()?;
    walk::permitted(&node, MAY_EXEC)?;
    let old = core::mem::replace(&mut proc::share::fs().cwd, node);
    drop(old);
    Ok(0)
}

/// getcwd: the path with its NUL; returns its length (the syscall's
/// convention, glibc's getcwd returns the buffer). ERANGE if it does not fit.
pub fn getcwd(buf: u32, size: u32) -> SysResult {
    let cwd = proc::share::fs().cwd.clone();
    let mut path = tmpfs::path_of(&cwd)?;
    path.push('\0');
    if path.len() > size as usize {
        return Err(Errno::ERANGE);
    }
    copy_to_user(buf, path.as_bytes()).map(|_| path.len() as u32).map_err(Errno::from)
}
