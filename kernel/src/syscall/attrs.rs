//! System calls that change or report one inode: chmod, chown, truncate,
//! utimensat, statfs, and fsync (a no-op: tmpfs data is already where it
//! will stay). The inode is named by path (`*at` with AT_FDCWD or a
//! directory descriptor) or by descriptor (`f*`).

use sigil_core::abi::Errno;
use sigil_core::time::{decode_timespec, Layout};

use super::fs::{AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW};
use super::SysResult;
use crate::fs::path::{self, AT_FDCWD};
use crate::fs::tmpfs::{self, Kind, Node};
use crate::proc;
use crate::uaccess::{copy_from_user, copy_to_user};

/// The inode open at `fd` (a pipe or a terminal has none: EINVAL for the
/// attribute calls, as Linux answers for pipes' ftruncate).
fn fd_inode(fd: u32) -> Result<Node, Errno> {
    let f = proc::share::files().get(fd)?.clone();
    f.inode().cloned().ok_or(Errno::EINVAL)
}

/// The inode `p` names from `dirfd` (or `dirfd`'s own with AT_EMPTY_PATH and "").
fn at_inode(dirfd: i32, p: u32, flags: u32) -> Result<Node, Errno> {
    let name = path::read_path(p)?;
    if name.is_empty() && flags & AT_EMPTY_PATH != 0 {
        return if dirfd == AT_FDCWD { path::start(dirfd) } else { fd_inode(dirfd as u32) };
    }
    path::lookup(dirfd, &name, flags & AT_SYMLINK_NOFOLLOW == 0)
}

/// chmod: the owner or root only (Linux `inode_owner_or_capable`); a
/// non-member's chmod of a group file drops set-group-id, as Linux's.
fn chmod(node: &Node, mode: u32) -> SysResult {
    let c = crate::cred::current();
    let mut m = node.meta.borrow_mut();
    if c.uid.fs != 0 && c.uid.fs != m.uid {
        return Err(Errno::EPERM);
    }
    let mode = if c.uid.fs != 0 && !c.in_group(m.gid) { mode & !0o2000 } else { mode };
    m.mode = m.mode & crate::fs::stat::S_IFMT | mode & 0o7777;
    drop(m);
    node.touch(false);
    Ok(0)
}

pub fn fchmodat(dirfd: i32, p: u32, mode: u32) -> SysResult {
    chmod(&at_inode(dirfd, p, 0)?, mode)
}

pub fn fchmod(fd: u32, mode: u32) -> SysResult {
    chmod(&fd_inode(fd)?, mode)
}

/// chown: -1 (as u32) leaves an id as it is. Root may give a file to
/// anyone; the owner may only change its group to one of its own groups
/// (Linux `chown_ok`/`chgrp_ok`), else EPERM.
fn chown(node: &Node, uid: u32, gid: u32) -> SysResult {
    let c = crate::cred::current();
    let mut m = node.meta.borrow_mut();
    if c.uid.fs != 0 {
        let uid_ok = uid == u32::MAX || uid == m.uid && c.uid.fs == m.uid;
        let gid_ok = gid == u32::MAX || c.uid.fs == m.uid && (gid == m.gid || c.in_group(gid));
        if !uid_ok || !gid_ok {
            return Err(Errno::EPERM);
        }
    }
    if uid != u32::MAX {
        m.uid = uid;
    }
    if gid != u32::MAX {
        m.gid = gid;
    }
    drop(m);
    node.touch(false);
    Ok(0)
}

pub fn fchownat(dirfd: i32, p: u32, uid: u32, gid: u32, flags: u32) -> SysResult {
    if flags & !(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH) != 0 {
        return Err(Errno::EINVAL);
    }
    chown(&at_inode(dirfd, p, flags)?, uid, gid)
}

pub fn fchown(fd: u32, uid: u32, gid: u32) -> SysResult {
    chown(&fd_inode(fd)?, uid, gid)
}

fn truncate(node: &Node, len: i64) -> SysResult {
    if len < 0 {
        return Err(Errno::EINVAL);
    }
    match &node.kind {
        Kind::File(_) => node.truncate(len as u64)?,
        Kind::Dir(_) => return Err(Errno::EISDIR),
        _ => return Err(Errno::EINVAL),
    }
    node.touch(true);
    Ok(0)
}

/// truncate(path, len); truncate64 passes the length in r5:r6 (ppc32 puts
/// a 64-bit argument in an aligned register pair).
pub fn truncate_path(p: u32, len: i64) -> SysResult {
    let name = path::read_path(p)?;
    let node = path::lookup(AT_FDCWD, &name, true)?;
    crate::fs::walk::permitted(&node, sigil_core::path::MAY_WRITE)?;
    truncate(&node, len)
}

/// ftruncate: the descriptor must be open for writing (EINVAL otherwise,
/// as Linux's do_sys_ftruncate says).
pub fn ftruncate(fd: u32, len: i64) -> SysResult {
    let f = proc::share::files().get(fd)?.clone();
    if f.status_flags() & crate::fs::flags::O_ACCMODE == crate::fs::flags::O_RDONLY {
        return Err(Errno::EINVAL);
    }
    truncate(f.inode().ok_or(Errno::EINVAL)?, len)
}

/// utimensat(dirfd, path, times, flags): times NULL is now for both;
/// UTIME_NOW and UTIME_OMIT in a tv_nsec mean now and leave as is. A NULL
/// path sets `dirfd`'s own times (futimens).
pub fn utimensat(dirfd: i32, p: u32, times: u32, flags: u32, layout: Layout) -> SysResult {
    const UTIME_NOW: u32 = (1 << 30) - 1;
    const UTIME_OMIT: u32 = (1 << 30) - 2;
    if flags & !(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH) != 0 {
        return Err(Errno::EINVAL);
    }
    let now = tmpfs::now();
    let mut new = [Some(now), Some(now)];
    // A time given explicitly (not NULL, not UTIME_NOW/OMIT) needs the owner.
    let mut explicit = false;
    if times != 0 {
        let size = layout.timespec_size();
        let mut b = [0u8; 32];
        copy_from_user(&mut b[..2 * size], times)?;
        for (i, t) in new.iter_mut().enumerate() {
            let ts = &b[i * size..(i + 1) * size];
            let nsec = u32::from_be_bytes(ts[size - 4..].try_into().expect("4 bytes"));
            *t = match nsec {
                UTIME_NOW => Some(now),
                UTIME_OMIT => None,
                _ => {
                    explicit = true;
                    Some(decode_timespec(ts, layout)?)
                }
            };
        }
    }
    let node = if p == 0 { fd_inode(dirfd as u32)? } else { at_inode(dirfd, p, flags)? };
    if new == [None, None] {
        return Ok(0);
    }
    // Linux's rule: the owner or root may set any times; anyone else only
    // "now", and only with write permission (EPERM / EACCES otherwise).
    let c = crate::cred::current();
    if c.uid.fs != 0 && c.uid.fs != node.meta.borrow().uid {
        if explicit {
            return Err(Errno::EPERM);
        }
        crate::fs::walk::permitted(&node, sigil_core::path::MAY_WRITE)?;
    }
    let mut m = node.meta.borrow_mut();
    if let Some(a) = new[0] {
        m.atime = a;
    }
    if let Some(t) = new[1] {
        m.mtime = t;
    }
    m.ctime = now;
    Ok(0)
}

/// The one file system's statfs: tmpfs's magic, its size limit and use.
/// `wide`: struct statfs64 (88 bytes on ppc32) rather than struct statfs (64).
fn put_statfs(buf: u32, wide: bool) -> SysResult {
    const TMPFS_MAGIC: u32 = 0x0102_1994;
    const NAME_MAX: u32 = 255;
    let ((limit, used), (files, inodes)) = tmpfs::usage();
    let free = (limit - used.min(limit)) as u64;
    let ffree = (files - inodes.min(files)) as u64;
    let mut b = [0u8; 88];
    let mut at = 0;
    let mut put = |v: u64, wide_field: bool| {
        if wide && wide_field {
            b[at..at + 8].copy_from_slice(&v.to_be_bytes());
            at += 8;
        } else {
            b[at..at + 4].copy_from_slice(&(v as u32).to_be_bytes());
            at += 4;
        }
    };
    put(TMPFS_MAGIC as u64, false); // f_type
    put(crate::mm::PAGE_SIZE as u64, false); // f_bsize
    for v in [limit as u64, free, free, files as u64, ffree] {
        put(v, true); // f_blocks, f_bfree, f_bavail, f_files, f_ffree
    }
    put(0, false); // f_fsid
    put(0, false);
    put(NAME_MAX as u64, false); // f_namelen
    put(crate::mm::PAGE_SIZE as u64, false); // f_frsize
    let len = if wide { 88 } else { 64 };
    copy_to_user(buf, &b[..len]).map(|_| 0).map_err(Errno::from)
}

pub fn statfs(p: u32, buf: u32) -> SysResult {
    path::lookup(AT_FDCWD, &path::read_path(p)?, true)?;
    put_statfs(buf, false)
}

pub fn fstatfs(fd: u32, buf: u32) -> SysResult {
    proc::share::files().get(fd)?;
    put_statfs(buf, false)
}

/// statfs64(path, size, buf): `size` must be the struct's (EINVAL otherwise).
pub fn statfs64(p: u32, size: u32, buf: u32) -> SysResult {
    if size != 88 {
        return Err(Errno::EINVAL);
    }
    path::lookup(AT_FDCWD, &path::read_path(p)?, true)?;
    put_statfs(buf, true)
}

pub fn fstatfs64(fd: u32, size: u32, buf: u32) -> SysResult {
    if size != 88 {
        return Err(Errno::EINVAL);
    }
    proc::share::files().get(fd)?;
    put_statfs(buf, true)
}

/// fsync, fdatasync: nothing to write back; EBADF for a bad descriptor,
/// EINVAL for one that cannot sync (a pipe, a device), as Linux.
pub fn fsync(fd: u32) -> SysResult {
    let f = proc::share::files().get(fd)?.clone();
    match f.inode().map(|n| &n.kind) {
        Some(Kind::File(_) | Kind::Dir(_)) => Ok(0),
        _ => Err(Errno::EINVAL),
    }
}
