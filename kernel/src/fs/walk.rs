//! The path walk and the namespace operations on the tmpfs tree: what
//! openat, mkdirat, unlinkat, renameat2, linkat and symlinkat share.
//!
//! A walk starts at the root (absolute path) or at a directory (the working
//! directory or a directory descriptor, `path::start`), goes one component
//! at a time and splices in each symbolic link it meets: every link but the
//! last component's is followed, that one only if the caller asks (or the
//! path ends in '/'). 40 links in one walk is ELOOP (Linux MAXSYMLINKS).
//! Directory search permission is checked with `sigil_core::path::may_access`.

use alloc::rc::Rc;
use alloc::string::String;

use sigil_core::abi::Errno;
use sigil_core::cred::Cred;
use sigil_core::path::{self as rules, MAY_EXEC};

use super::tmpfs::{self, Kind, Node};

/// Linux MAXSYMLINKS.
pub const MAX_LINKS: usize = 40;

/// May the current process `mask` (MAY_READ/WRITE/EXEC) `node`? Checked
/// with its fs ids, as every file operation is.
pub fn permitted(node: &Node, mask: u32) -> Result<(), Errno> {
    permitted_as(node, mask, &crate::cred::current())
}

/// `permitted` for credentials `cred` (access(2) checks with the real ids).
pub fn permitted_as(node: &Node, mask: u32, cred: &Cred) -> Result<(), Errno> {
    let m = *node.meta.borrow();
    if rules::may_access(m.mode, m.uid, m.gid, cred, mask) {
        Ok(())
    } else {
        Err(Errno::EACCES)
    }
}

/// The next component of `s` at `pos`: (start, end), or None at the end.
fn next(s: &str, pos: usize) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let start = pos + b[pos..].iter().position(|&c| c != b'/')?;
    let end = b[start..].iter().position(|&c| c == b'/').map_or(b.len(), |i| start + i);
    Some((start, end))
}

/// Is everything after `end` only slashes and "." components?
fn is_last(s: &str, end: usize) -> bool {
    s[end..].split('/').all(|c| c.is_empty() || c == ".")
}

/// Resolves `path` from directory `start`. `follow` says whether a link
/// that is the last component is followed (lstat, O_NOFOLLOW, unlink: no).
pub fn lookup(start: &Node, path: &str, follow: bool) -> Result<Node, Errno> {
    if path.is_empty() {
        return Err(Errno::ENOENT);
    }
    rules::check(path)?;
    let dir_wanted = rules::wants_dir(path);
    let mut cur = if path.starts_with('/') { tmpfs::root() } else { start.clone() };
    let mut rest = String::from(path);
    let mut pos = 0;
    let mut links = 0;
    while let Some((s, e)) = next(&rest, pos) {
        pos = e;
        let name = &rest[s..e];
        if name == "." {
            continue;
        }
        cur.dir()?;
        permitted(&cur, MAY_EXEC)?;
        if name == ".." {
            let up = cur.parent().ok_or(Errno::ENOENT)?;
            cur = up;
            continue;
        }
        let child = cur.dir()?.borrow().find(name).map(|e| e.node.clone()).ok_or(Errno::ENOENT)?;
        if let Kind::Symlink(target) = &child.kind {
            if follow || dir_wanted || !is_last(&rest, e) {
                links += 1;
                if links > MAX_LINKS {
                    return Err(Errno::ELOOP);
                }
                if target.is_empty() {
                    return Err(Errno::ENOENT);
                }
                if target.starts_with('/') {
                    cur = tmpfs::root();
                }
                rest = alloc::format!("{target}/{}", &rest[e..]);
                pos = 0;
                continue;
            }
        }
        cur = child;
    }
    if dir_wanted && !cur.is_dir() {
        return Err(Errno::ENOTDIR);
    }
    Ok(cur)
}

/// The directory that would hold `path`'s last component, and that
/// component ("" for "/", "." or ".." as spelled: each caller has its errno
/// for those). A trailing '/' is dropped from the name.
pub fn parent<'p>(start: &Node, path: &'p str) -> Result<(Node, &'p str), Errno> {
    if path.is_empty() {
        return Err(Errno::ENOENT);
    }
    rules::check(path)?;
    let trimmed = path.trim_end_matches('/');
    let (dir_path, name) = match trimmed.rfind('/') {
        Some(i) => (&trimmed[..=i], &trimmed[i + 1..]),
        None => ("", trimmed),
    };
    let dir = if dir_path.is_empty() { start.clone() } else { lookup(start, dir_path, true)? };
    dir.dir()?;
    permitted(&dir, MAY_EXEC)?;
    Ok((dir, name))
}

/// The entry `name` in `dir`, if any.
pub fn child(dir: &Node, name: &str) -> Option<Node> {
    dir.dir().ok()?.borrow().find(name).map(|e| e.node.clone())
}

/// A removed directory (a working directory or descriptor may still hold
/// it) takes no new entries: ENOENT, as Linux's `IS_DEADDIR`. So it stays
/// empty, and no chain of directories can hang off no path (dropping one
/// would recurse through the kernel stack, one frame per level).
fn alive(dir: &Node) -> Result<(), Errno> {
    if dir.meta.borrow().nlink == 0 {
        return Err(Errno::ENOENT);
    }
    Ok(())
}

/// Links a new inode under `name` in `dir` (EEXIST if taken).
pub fn create(dir: &Node, name: &str, node: Node) -> Result<Node, Errno> {
    if name.is_empty() || name == "." || name == ".." {
        return Err(Errno::EEXIST);
    }
    alive(dir)?;
    let d = dir.dir()?;
    if d.borrow().find(name).is_some() {
        return Err(Errno::EEXIST);
    }
    d.borrow_mut().insert(name, node.clone())?;
    dir.touch(true);
    Ok(node)
}

/// unlink (`rmdir` false) or rmdir (true) of `name` in `dir`.
pub fn remove(dir: &Node, name: &str, rmdir: bool) -> Result<(), Errno> {
    match name {
        "." if rmdir => return Err(Errno::EINVAL),
        ".." if rmdir => return Err(Errno::ENOTEMPTY),
        "" | "." | ".." => return Err(if rmdir { Errno::EBUSY } else { Errno::EISDIR }),
        _ => {}
    }
    let node = child(dir, name).ok_or(Errno::ENOENT)?;
    match (&node.kind, rmdir) {
        (Kind::Dir(_), false) => return Err(Errno::EISDIR),
        (Kind::Dir(d), true) if !d.borrow().entries.is_empty() => return Err(Errno::ENOTEMPTY),
        (Kind::Dir(_), true) => {}
        (_, true) => return Err(Errno::ENOTDIR),
        (_, false) => {}
    }
    if Rc::ptr_eq(&node, &tmpfs::root()) {
        return Err(Errno::EBUSY);
    }
    let gone = dir.dir()?.borrow_mut().remove(name);
    dir.touch(true);
    drop(gone); // the frames go here if nothing else holds the file
    Ok(())
}

/// renameat2 with flags 0 or RENAME_NOREPLACE, with Linux's checks.
pub fn rename(
    odir: &Node,
    oname: &str,
    ndir: &Node,
    nname: &str,
    noreplace: bool,
) -> Result<(), Errno> {
    for n in [oname, nname] {
        if n.is_empty() || n == "." || n == ".." {
            return Err(Errno::EBUSY);
        }
    }
    let src = child(odir, oname).ok_or(Errno::ENOENT)?;
    alive(ndir)?;
    let dst = child(ndir, nname);
    if let Some(d) = &dst {
        if noreplace {
            return Err(Errno::EEXIST);
        }
        // Two links to one inode: POSIX says do nothing.
        if Rc::ptr_eq(d, &src) {
            return Ok(());
        }
    }
    if src.is_dir() {
        if tmpfs::is_ancestor(&src, ndir) {
            return Err(Errno::EINVAL);
        }
        match &dst {
            Some(d) if !d.is_dir() => return Err(Errno::ENOTDIR),
            Some(d) if !d.dir()?.borrow().entries.is_empty() => return Err(Errno::ENOTEMPTY),
            _ => {}
        }
    } else if dst.as_ref().is_some_and(|d| d.is_dir()) {
        return Err(Errno::EISDIR);
    }
    // Make room first, so a failure leaves both names as they were.
    ndir.dir()?.borrow_mut().entries.try_reserve(1).map_err(|_| Errno::ENOMEM)?;
    let replaced = dst.and_then(|_| ndir.dir().ok()?.borrow_mut().remove(nname));
    let moved = odir.dir()?.borrow_mut().remove(oname).ok_or(Errno::ENOENT)?;
    if let Kind::Dir(d) = &moved.kind {
        d.borrow_mut().parent = Rc::downgrade(ndir);
    }
    ndir.dir()?.borrow_mut().insert(nname, moved)?;
    odir.touch(true);
    ndir.touch(true);
    drop(replaced);
    Ok(())
}

/// link: another name for `node` (not a directory: EPERM, as Linux says).
pub fn link(node: &Node, dir: &Node, name: &str) -> Result<(), Errno> {
    if node.is_dir() {
        return Err(Errno::EPERM);
    }
    create(dir, name, node.clone()).map(|_| ())
}
