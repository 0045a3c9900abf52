//! System calls that change or read the file tree's names: mkdirat,
//! unlinkat, renameat2, linkat, symlinkat, readlinkat, and the working
//! directory (chdir, fchdir, getcwd). The tree is `crate::fs::tmpfs`; the
//! rules are `crate::fs::walk`'s.

use alloc::string::String;

use sigil_core::abi::Errno;
use sigil_core::path::{MAY_EXEC, MAY_WRITE};

use super::fs::{tmpfs_mode, AT_EMPTY_PATH};
use super::SysResult;
use crate::fs::path::{self, AT_FDCWD};
use crate::fs::procfs;
use crate::fs::stat::{S_IFDIR, S_IFLNK};
use crate::fs::tmpfs::{self, Kind, Node};
use crate::fs::walk;
use crate::proc;
use crate::uaccess::copy_to_user;

const AT_REMOVEDIR: u32 = 0x200;
const RENAME_NOREPLACE: u32 = 1;

/// The parent directory of `path`, which the caller is about to change.
fn writable_parent(dirfd: i32, path: &str) -> Result<(Node, String), Errno> {
    let (dir, last) = path::parent(dirfd, path)?;
    walk::permitted(&dir, MAY_WRITE | MAY_EXEC)?;
    Ok((dir, String::from(last)))
}

pub fn mkdirat(dirfd: i32, p: u32, mode: u32) -> SysResult {
    let name = path::read_path(p)?;
    let (dir, last) = writable_parent(dirfd, &name)?;
    let node = tmpfs::new_dir(tmpfs_mode(S_IFDIR, mode) & 0o7777, &dir);
    walk::create(&dir, &last, node).map(|_| 0)
}

pub fn unlinkat(dirfd: i32, p: u32, flags: u32) -> SysResult {
    if flags & !AT_REMOVEDIR != 0 {
        return Err(Errno::EINVAL);
    }
    let name = path::read_path(p)?;
    let (dir, last) = writable_parent(dirfd, &name)?;
    let rmdir = flags & AT_REMOVEDIR != 0;
    // unlink("file/"): the slash asks for a directory.
    if !rmdir && name.ends_with('/') {
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
    let (odir, olast) = writable_parent(odirfd, &oname)?;
    let (ndir, nlast) = writable_parent(ndirfd, &nname)?;
    // "a/" must name a directory, on either side.
    for (dir, last, spelled) in [(&odir, &olast, &oname), (&ndir, &nlast, &nname)] {
        if spelled.ends_with('/') && walk::child(dir, last).is_some_and(|n| !n.is_dir()) {
            return Err(Errno::ENOTDIR);
        }
    }
    walk::rename(&odir, &olast, &ndir, &nlast, flags & RENAME_NOREPLACE != 0).map(|_| 0)
}

pub fn linkat(odirfd: i32, old: u32, ndirfd: i32, new: u32, flags: u32) -> SysResult {
    const AT_SYMLINK_FOLLOW: u32 = 0x400;
    if flags & !(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH) != 0 {
        return Err(Errno::EINVAL);
    }
    let oname = path::read_path(old)?;
    let node = if oname.is_empty() && flags & AT_EMPTY_PATH != 0 {
        let f = proc::group().files.get(odirfd as u32)?.clone();
        f.inode().cloned().ok_or(Errno::ENOENT)?
    } else {
        path::lookup(odirfd, &oname, flags & AT_SYMLINK_FOLLOW != 0)?
    };
    let nname = path::read_path(new)?;
    let (dir, last) = writable_parent(ndirfd, &nname)?;
    if nname.ends_with('/') {
        return Err(if walk::child(&dir, &last).is_some() { Errno::EEXIST } else { Errno::ENOENT });
    }
    walk::link(&node, &dir, &last).map(|_| 0)
}

pub fn symlinkat(target: u32, dirfd: i32, p: u32) -> SysResult {
    let target = path::read_path(target)?;
    if target.is_empty() {
        return Err(Errno::ENOENT);
    }
    let name = path::read_path(p)?;
    let (dir, last) = writable_parent(dirfd, &name)?;
    let node = tmpfs::new_inode(S_IFLNK | 0o777, Kind::Symlink(target));
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
    copy_to_user(buf, &target.as_bytes()[..n as usize]).map_err(|_| Errno::EFAULT)?;
    Ok(n)
}

pub fn chdir(p: u32) -> SysResult {
    let name = path::read_path(p)?;
    let node = path::lookup(AT_FDCWD, &name, true)?;
    set_cwd(node)
}

pub fn fchdir(fd: u32) -> SysResult {
    let f = proc::group().files.get(fd)?.clone();
    let node = f.inode().cloned().ok_or(Errno::ENOTDIR)?;
    set_cwd(node)
}

fn set_cwd(node: Node) -> SysResult {
    node.dir()?;
    walk::permitted(&node, MAY_EXEC)?;
    let old = core::mem::replace(&mut proc::group().cwd, node);
    drop(old);
    Ok(0)
}

/// getcwd: the path with its NUL; returns its length (the syscall's
/// convention, glibc's getcwd returns the buffer). ERANGE if it does not fit.
pub fn getcwd(buf: u32, size: u32) -> SysResult {
    let cwd = proc::group().cwd.clone();
    let mut path = tmpfs::path_of(&cwd)?;
    path.push('\0');
    if path.len() > size as usize {
        return Err(Errno::ERANGE);
    }
    copy_to_user(buf, path.as_bytes()).map(|_| path.len() as u32).map_err(|_| Errno::EFAULT)
}
