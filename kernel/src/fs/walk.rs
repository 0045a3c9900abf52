//! The path walk and the namespace operations on the tmpfs tree: what
//! openat, mkdirat, unlinkat, renameat2, linkat and symlinkat share.
//!
//! A walk starts at the root (absolute path) or at a directory (the working
//! directory or a directory descriptor, `path::start`), goes one component
//! at a time and splices in each symbolic link it meets: every link but the
//! last component's is followed, that one only if the caller asks (or the
//! path ends in '/'). 40 links in one walk is ELOOP (Linux MAXSYMLINKS).
//! Directory search permission is checked with `sigil_core::path::may_access`,
//! and each link followed with `sigil_core::path::follow_forbidden` (Linux's
//! protected_symlinks, on as Debian sets it: EACCES for another user's link in
//! a sticky, world-writable directory such as /tmp).

use alloc::rc::Rc;
use alloc::string::String;

use sigil_core::abi::Errno;
use sigil_core::path::{self as rules, MAY_EXEC, MAY_WRITE};

use super::tmpfs::{self, Kind, Node};

/// Linux MAXSYMLINKS.
pub const MAX_LINKS: usize = 40;

/// May the current process `mask` (MAY_READ/WRITE/EXEC) `node`? Checked
/// with its fs ids, as every file operation is.
pub fn permitted(node: &Node, mask: u32) -> Result<(), Errno> {
    let m = *node.meta.borrow();
    if rules::may_access(m.mode, m.uid, m.gid, &crate::cred::current(), mask) {
        Ok(())
    } else {
        Err(Errno::EACCES)
    }
}

/// May the current process follow `link`, found in `dir`
/// (`sigil_core::path::follow_forbidden`)?
fn may_follow(dir: &Node, link: &Node) -> Result<(), Errno> {
    let (d, l) = (*dir.meta.borrow(), link.meta.borrow().uid);
    if rules::follow_forbidden(d.mode, d.uid, l, &crate::cred::current()) {
        Err(Errno::EACCES)
    } else {
        Ok(())
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
                may_follow(&cur, &child)?;
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

/// May the caller make `name` in `dir`? Linux's order (`filename_create`,
/// `may_create`): a name that exists is EEXIST even in a directory the
/// caller may not write (so `mkdir -p /tmp` works as a user), then a removed
/// directory is ENOENT, then write and search permission (EACCES). The path
/// walk already checked search permission on the way.
pub fn may_create(dir: &Node, name: &str) -> Result<(), Errno> {
    if name.is_empty() || name == "." || name == ".." || child(dir, name).is_some() {
        return Err(Errno::EEXIST);
    }
    alive(dir)?;
    permitted(dir, MAY_WRITE | MAY_EXEC)
}

/// May the caller remove `victim` (a directory if `isdir`) from `dir`?
/// Linux `may_delete`, in its order: write and search permission on the
/// directory (EACCES), the sticky bit (EPERM), then the kinds (ENOTDIR,
/// EBUSY for the root, EISDIR). The caller looked the name up (ENOENT).
pub fn may_delete(dir: &Node, victim: &Node, isdir: bool) -> Result<(), Errno> {
    permitted(dir, MAY_WRITE | MAY_EXEC)?;
    let (d, v) = (*dir.meta.borrow(), victim.meta.borrow().uid);
    if rules::sticky_forbids(d.mode, d.uid, v, &crate::cred::current()) {
        return Err(Errno::EPERM);
    }
    match (isdir, victim.is_dir()) {
        (true, false) => Err(Errno::ENOTDIR),
        (true, true) if Rc::ptr_eq(victim, &tmpfs::root()) => Err(Errno::EBUSY),
        (false, true) => Err(Errno::EISDIR),
        _ => Ok(()),
    }
}

/// Links `node` under `name` in `dir`: EEXIST if taken, no permission
/// check (the boot's /dev and initramfs; system calls ask `may_create` first).
pub fn create(dir: &Node, name: &str, node: Node) -> Result<Node, Errno> {
    if name.is_empty() || name == "." || name == ".." || child(dir, name).is_some() {
        return Err(Errno::EEXIST);
    }
    alive(dir)?;
    dir.dir()?.borrow_mut().insert(name, node.clone())?;
    dir.touch(true);
    Ok(node)
}

/// unlink (`rmdir` false) or rmdir (true) of `name` in `dir`, with Linux's
/// errnos in Linux's order: the name's spelling, ENOENT, `may_delete`,
/// then ENOTEMPTY.
pub fn remove(dir: &Node, name: &str, rmdir: bool) -> Result<(), Errno> {
    match name {
        "." if rmdir => return Err(Errno::EINVAL),
        ".." if rmdir => return Err(Errno::ENOTEMPTY),
        "" | "." | ".." => return Err(if rmdir { Errno::EBUSY } else { Errno::EISDIR }),
        _ => {}
    }
    let node = child(dir, name).ok_or(Errno::ENOENT)?;
    may_delete(dir, &node, rmdir)?;
    if let Kind::Dir(d) = &node.kind {
        if !d.borrow().entries.is_empty() {
            return Err(Errno::ENOTEMPTY);
        }
    }
    let gone = dir.dir()?.borrow_mut().remove(name);
    dir.touch(true);
    drop(gone); // the frames go here if nothing else holds the file
    Ok(())
}

/// One side of a rename: the directory, the last component, and whether
/// the path was spelled with a trailing '/' (which asks for a directory).
pub struct Side<'a> {
    pub dir: &'a Node,
    pub name: &'a str,
    pub slash: bool,
}

/// renameat2 with flags 0 or RENAME_NOREPLACE, with Linux's checks in the
/// order `do_renameat2` and `vfs_rename` make them.
pub fn rename(old: Side<'_>, new: Side<'_>, noreplace: bool) -> Result<(), Errno> {
    let dots = |n: &str| n.is_empty() || n == "." || n == "..";
    if dots(old.name) {
        return Err(Errno::EBUSY);
    }
    if dots(new.name) {
        return Err(if noreplace { Errno::EEXIST } else { Errno::EBUSY });
    }
    let src = child(old.dir, old.name).ok_or(Errno::ENOENT)?;
    let dst = child(new.dir, new.name);
    if noreplace && dst.is_some() {
        return Err(Errno::EEXIST);
    }
    let isdir = src.is_dir();
    if !isdir && (old.slash || new.slash) {
        return Err(Errno::ENOTDIR);
    }
    // A directory into itself, or over one of the source's ancestors.
    if isdir && tmpfs::is_ancestor(&src, new.dir) {
        return Err(Errno::EINVAL);
    }
    if dst.as_ref().is_some_and(|d| !Rc::ptr_eq(d, &src) && tmpfs::is_ancestor(d, old.dir)) {
        return Err(Errno::ENOTEMPTY);
    }
    // Two links to one inode: POSIX says do nothing.
    if dst.as_ref().is_some_and(|d| Rc::ptr_eq(d, &src)) {
        return Ok(());
    }
    may_delete(old.dir, &src, isdir)?;
    match &dst {
        Some(d) => may_delete(new.dir, d, isdir)?,
        None => may_create(new.dir, new.name)?,
    }
    // A directory changing parent gets a new "..": it must be writable.
    if isdir && !Rc::ptr_eq(old.dir, new.dir) {
        permitted(&src, MAY_WRITE)?;
    }
    if let Some(Kind::Dir(d)) = dst.as_ref().map(|d| &d.kind) {
        if !d.borrow().entries.is_empty() {
            return Err(Errno::ENOTEMPTY);
        }
    }
    // Everything that can fail comes before the first change: the new
    // name's copy and one more slot in the new directory. `take` does not
    // shrink the vectors, so that slot is still there for `put`.
    let name = tmpfs::Dir::name(new.name)?;
    new.dir.dir()?.borrow_mut().entries.try_reserve(1).map_err(|_| Errno::ENOMEM)?;
    let replaced = dst.and_then(|_| new.dir.dir().ok()?.borrow_mut().take(new.name));
    let moved = old.dir.dir()?.borrow_mut().take(old.name).ok_or(Errno::ENOENT)?;
    if let Kind::Dir(d) = &moved.kind {
        d.borrow_mut().parent = Rc::downgrade(new.dir);
    }
    new.dir.dir()?.borrow_mut().put(name, moved);
    for dir in [old.dir, new.dir] {
        dir.dir()?.borrow_mut().entries.shrink_to_fit();
        dir.touch(true);
    }
    drop(replaced);
    Ok(())
}

/// link: another name for `node`, after `may_create`; a directory is EPERM,
/// as Linux's `vfs_link` says (after the permission check).
pub fn link(node: &Node, dir: &Node, name: &str) -> Result<(), Errno> {
    may_create(dir, name)?;
    if node.is_dir() {
        return Err(Errno::EPERM);
    }
    create(dir, name, node.clone()).map(|_| ())
}

/// What the last component of an O_CREAT open names.
pub enum Last {
    /// An inode (a link that was not followed included).
    Found(Node),
    /// Nothing: `name` may be made in `dir`.
    Missing(Node, String),
}

/// Resolves `path` for open(O_CREAT): its parent is walked as usual; a last
/// component that is a symbolic link is followed (`follow`) even when its
/// target does not exist, so the open creates the target, as Linux's does.
pub fn lookup_create(start: &Node, path: &str, follow: bool) -> Result<Last, Errno> {
    let (mut base, mut path) = (start.clone(), String::from(path));
    for _ in 0..=MAX_LINKS {
        let (dir, name) = parent(&base, &path)?;
        if path.ends_with('/') {
            return Err(Errno::EISDIR);
        }
        if name.is_empty() || name == "." || name == ".." {
            return lookup(&base, &path, true).map(Last::Found);
        }
        let node = match child(&dir, name) {
            None => return Ok(Last::Missing(dir, String::from(name))),
            Some(n) => n,
        };
        match &node.kind {
            Kind::Symlink(t) if follow => {
                may_follow(&dir, &node)?;
                if t.is_empty() {
                    return Err(Errno::ENOENT);
                }
                path = t.clone();
                base = dir;
            }
            _ => return Ok(Last::Found(node)),
        }
    }
    Err(Errno::ELOOP)
}
