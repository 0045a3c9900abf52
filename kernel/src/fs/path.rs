//! Path names: turning what openat/fstatat/access were given (a directory
//! descriptor and a string) into an absolute, normalised path, and looking
//! it up in /dev and the initramfs.
//!
//! The working directory is always "/" (chdir only checks its argument), so
//! a relative path with AT_FDCWD starts there.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use sigil_core::abi::Errno;

use super::initramfs::{self, Node};
use super::{devices, File};
use crate::proc;
use crate::uaccess::read_cstr;

pub const AT_FDCWD: i32 = -100;
/// Linux PATH_MAX, the NUL included.
const PATH_MAX: u32 = 4096;

/// What a path names.
pub enum Found {
    /// A device node: opening it is the device's business.
    Device(Arc<File>),
    /// An initramfs entry, with its normalised path ("" is the root).
    Node(String, Node),
}

/// Reads the user string at `addr`. An empty string is returned as such: the
/// caller decides (ENOENT, or AT_EMPTY_PATH).
pub fn read_path(addr: u32) -> Result<String, Errno> {
    let bytes = read_cstr(addr, PATH_MAX).map_err(|_| Errno::EFAULT)?;
    String::from_utf8(bytes).map_err(|_| Errno::ENOENT)
}

/// The directory a relative path starts from: "" (root) for AT_FDCWD, or
/// the path of the directory open at `dirfd`.
fn base(dirfd: i32) -> Result<String, Errno> {
    if dirfd == AT_FDCWD {
        return Ok(String::new());
    }
    let f = proc::group().files.get(dirfd as u32)?.clone();
    f.dir_path().map(String::from).ok_or(Errno::ENOTDIR)
}

/// Joins and normalises: "." and empty components vanish, ".." climbs (not
/// above the root). The result has no leading '/': "" is the root.
pub fn absolute(dirfd: i32, path: &str) -> Result<String, Errno> {
    let mut parts: Vec<&str> = Vec::new();
    let start = if path.starts_with('/') { String::new() } else { base(dirfd)? };
    for c in start.split('/').chain(path.split('/')) {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    Ok(parts.join("/"))
}

/// Looks `path` (relative to `dirfd`) up. A missing entry is ENOENT, a
/// path through a non-directory ENOTDIR, as Linux's path walk says.
pub fn resolve(dirfd: i32, path: &str) -> Result<Found, Errno> {
    if path.is_empty() {
        return Err(Errno::ENOENT);
    }
    let abs = initramfs::follow_links(&absolute(dirfd, path)?)?;
    if let Some(dev) = devices::open(&alloc::format!("/{abs}")) {
        return Ok(Found::Device(dev));
    }
    // Every proper prefix must be a directory.
    for (i, _) in abs.match_indices('/') {
        match initramfs::lookup(&abs[..i]) {
            Some(n) if n.is_dir => {}
            Some(_) => return Err(Errno::ENOTDIR),
            None => return Err(Errno::ENOENT),
        }
    }
    let node = initramfs::lookup(&abs).ok_or(Errno::ENOENT)?;
    // "file/" or "file/." names a directory that is not one.
    if !node.is_dir && (path.ends_with('/') || path.ends_with("/.")) {
        return Err(Errno::ENOTDIR);
    }
    Ok(Found::Node(abs, node))
}
