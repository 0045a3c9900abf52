//! Path names as system calls take them: a directory descriptor (or
//! AT_FDCWD, the working directory) and a user string, turned into tmpfs
//! inodes by `walk`.

use alloc::string::String;

use sigil_core::abi::Errno;
use sigil_core::path::PATH_MAX;

use super::tmpfs::Node;
use super::walk;
use crate::proc;
use crate::uaccess::{read_cstr, CstrError};

pub const AT_FDCWD: i32 = -100;

/// Reads the user string at `addr`. An empty string is returned as such: the
/// caller decides (ENOENT, or AT_EMPTY_PATH). Longer than PATH_MAX with its
/// NUL: ENAMETOOLONG.
pub fn read_path(addr: u32) -> Result<String, Errno> {
    let bytes = read_cstr(addr, PATH_MAX as u32 - 1).map_err(|e| match e {
        CstrError::Fault => Errno::EFAULT,
        CstrError::TooLong => Errno::ENAMETOOLONG,
        CstrError::NoMemory => Errno::ENOMEM,
    })?;
    String::from_utf8(bytes).map_err(|_| Errno::ENOENT)
}

/// The directory a relative path starts from: the working directory for
/// AT_FDCWD, else the directory open at `dirfd` (EBADF, ENOTDIR).
pub fn start(dirfd: i32) -> Result<Node, Errno> {
    if dirfd == AT_FDCWD {
        return Ok(proc::share::fs().cwd.clone());
    }
    let f = proc::share::files().get(dirfd as u32)?.clone();
    let node = f.inode().filter(|n| n.is_dir()).ok_or(Errno::ENOTDIR)?;
    Ok(node.clone())
}

/// Where the walk of `path` from `dirfd` starts: the root for an absolute
/// path (`dirfd` is not looked at then, as on Linux), else `start`. An
/// empty path is ENOENT before `dirfd` is looked at (Linux `getname`).
pub fn base(dirfd: i32, path: &str) -> Result<Node, Errno> {
    if path.is_empty() {
        return Err(Errno::ENOENT);
    }
    if path.starts_with('/') {
        return Ok(super::tmpfs::root());
    }
    start(dirfd)
}

/// What `path` names from `dirfd`; `follow`: whether a last-component
/// symbolic link is followed.
pub fn lookup(dirfd: i32, path: &str, follow: bool) -> Result<Node, Errno> {
    walk::lookup(&base(dirfd, path)?, path, follow)
}

/// The directory that would hold `path`'s last component, and the component.
pub fn parent(dirfd: i32, path: &str) -> Result<(Node, &str), Errno> {
    walk::parent(&base(dirfd, path)?, path)
}

/// The absolute path of the file `path` names, with every symbolic link
/// resolved: what /proc/<pid>/exe shows (glibc's `_dl_get_origin` needs it
/// absolute).
pub fn real_path(path: &str) -> Result<String, Errno> {
    let mut p = String::from(path);
    for _ in 0..=walk::MAX_LINKS {
        let (dir, last) = parent(AT_FDCWD, &p)?;
        let mut dir_path = super::tmpfs::path_of(&dir)?;
        if !dir_path.ends_with('/') {
            dir_path.push('/');
        }
        let node = walk::child(&dir, last).ok_or(Errno::ENOENT)?;
        match &node.kind {
            super::tmpfs::Kind::Symlink(t) if t.starts_with('/') => p = t.clone(),
            super::tmpfs::Kind::Symlink(t) => p = alloc::format!("{dir_path}{t}"),
            _ => return Ok(dir_path + last),
        }
    }
    Err(Errno::ELOOP)
}
