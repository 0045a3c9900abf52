//! Path names and file permissions: the pure rules the kernel's path walk
//! (`kernel/src/fs/walk.rs`) applies, host-tested here.
//!
//! - `split` (and `check`) checks a path's length limits as Linux does (PATH_MAX, NAME_MAX)
//!   and yields its components, "." and empty ones dropped;
//! - `may_access` is Linux's `generic_permission` for one set of credentials;
//! - `sticky_forbids` is Linux's `check_sticky` (who may delete in /tmp);
//! - `follow_forbidden` is Linux's `may_follow_link` with
//!   fs.protected_symlinks = 1 (who may follow a link in /tmp).

use crate::abi::Errno;
use crate::cred::Cred;

/// Linux PATH_MAX: a path with its NUL must fit in it.
pub const PATH_MAX: usize = 4096;
/// Linux NAME_MAX (one component).
pub const NAME_MAX: usize = 255;

/// Checks `path` against PATH_MAX and NAME_MAX (ENAMETOOLONG) and returns its
/// components, with "." and empty ones (from "//" or a trailing '/') left out.
/// ".." stays: only the walk knows what it climbs to.
pub fn split(path: &str) -> Result<impl Iterator<Item = &str>, Errno> {
    if path.len() >= PATH_MAX {
        return Err(Errno::ENAMETOOLONG);
    }
    let parts = path.split('/').filter(|c| !c.is_empty() && *c != ".");
    if parts.clone().any(|c| c.len() > NAME_MAX) {
        return Err(Errno::ENAMETOOLONG);
    }
    Ok(parts)
}

/// `split`'s length checks alone (the walk takes components itself).
pub fn check(path: &str) -> Result<(), Errno> {
    split(path).map(|_| ())
}

/// Does `path` name a directory by its spelling ("x/", "x/.", "x/..")?
/// Such a path must resolve to one (ENOTDIR otherwise).
pub fn wants_dir(path: &str) -> bool {
    path.ends_with('/')
        || path.ends_with("/.")
        || path.ends_with("/..")
        || path == "."
        || path == ".."
}

/// The rwx bits asked for (`mask`, MAY_READ 4 | MAY_WRITE 2 | MAY_EXEC 1).
pub const MAY_READ: u32 = 4;
pub const MAY_WRITE: u32 = 2;
pub const MAY_EXEC: u32 = 1;

/// Linux `generic_permission`: the owner's, the group's or the others' bits
/// decide (the first class the caller is in, not the most generous); root
/// passes every read and write check (CAP_DAC_OVERRIDE) and an execute check
/// if anyone may execute the file or it is a directory.
pub fn may_access(mode: u32, uid: u32, gid: u32, cred: &Cred, mask: u32) -> bool {
    let is_dir = mode & 0o170000 == 0o040000;
    if cred.uid.fs == 0 {
        return mask & MAY_EXEC == 0 || is_dir || mode & 0o111 != 0;
    }
    let bits = if cred.uid.fs == uid {
        mode >> 6
    } else if cred.in_group(gid) {
        mode >> 3
    } else {
        mode
    };
    mask & !bits & 7 == 0
}

/// The sticky bit (S_ISVTX) on a directory.
pub const S_ISVTX: u32 = 0o1000;

/// Linux `check_sticky`: in a sticky directory (mode `dir_mode`, owner
/// `dir_uid`) only the owner of the entry (`victim_uid`), the owner of the
/// directory or root may unlink, rmdir or rename it away (EPERM otherwise),
/// so users of a shared /tmp cannot remove each other's files.
pub fn sticky_forbids(dir_mode: u32, dir_uid: u32, victim_uid: u32, cred: &Cred) -> bool {
    let me = cred.uid.fs;
    dir_mode & S_ISVTX != 0 && me != 0 && me != victim_uid && me != dir_uid
}

/// Linux `may_follow_link` with fs.protected_symlinks = 1, the setting a
/// Debian system boots with (systemd's 50-default.conf): a symbolic link in
/// a sticky, world-writable directory (mode `dir_mode`, owner `dir_uid`) is
/// followed only by its owner (`link_uid`), or if the directory's owner owns
/// it too; anyone else, root included, gets EACCES. This closes the /tmp
/// race where a user plants a link for a privileged program to follow.
pub fn follow_forbidden(dir_mode: u32, dir_uid: u32, link_uid: u32, cred: &Cred) -> bool {
    const WORLD_WRITABLE: u32 = 0o002;
    cred.uid.fs != link_uid
        && dir_mode & (S_ISVTX | WORLD_WRITABLE) == S_ISVTX | WORLD_WRITABLE
        && dir_uid != link_uid
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;
    use std::vec::Vec;

    #[test]
    fn split_drops_dots_and_empty_components() {
        let v: Vec<&str> = split("//a/./b//../c/").unwrap().collect();
        assert_eq!(v, ["a", "b", "..", "c"]);
        assert_eq!(split("/").unwrap().count(), 0);
    }

    #[test]
    fn limits_are_linux_path_max_and_name_max() {
        let name = "x".repeat(255);
        assert!(split(&name).is_ok());
        assert_eq!(split(&(name.clone() + "y")).err(), Some(Errno::ENAMETOOLONG));
        let mut long = String::new();
        while long.len() < 4095 {
            long.push_str("/a");
        }
        long.truncate(4095);
        assert!(split(&long).is_ok());
        long.push('a');
        assert_eq!(split(&long).err(), Some(Errno::ENAMETOOLONG));
    }

    #[test]
    fn trailing_slash_or_dot_asks_for_a_directory() {
        for p in ["a/", "a/.", "a/..", ".", ".."] {
            assert!(wants_dir(p), "{p}");
        }
        assert!(!wants_dir("a") && !wants_dir("a/.b"));
    }

    #[test]
    fn root_reads_and_writes_anything_and_executes_what_someone_may() {
        let r = &Cred::ROOT;
        assert!(may_access(0o100000, 5, 5, r, MAY_READ | MAY_WRITE));
        assert!(!may_access(0o100644, 5, 5, r, MAY_EXEC));
        assert!(may_access(0o100001, 5, 5, r, MAY_EXEC));
        assert!(may_access(0o040000, 5, 5, r, MAY_EXEC));
    }

    #[test]
    fn in_a_sticky_directory_only_owners_and_root_delete() {
        let (tmp, plain) = (0o041777, 0o040777);
        let user = &Cred::new(1000, 1000);
        assert!(sticky_forbids(tmp, 0, 0, user));
        assert!(!sticky_forbids(plain, 0, 0, user));
        assert!(!sticky_forbids(tmp, 0, 1000, user), "its own file");
        assert!(!sticky_forbids(tmp, 1000, 0, user), "its own directory");
        assert!(!sticky_forbids(tmp, 5, 5, &Cred::ROOT));
    }

    #[test]
    fn in_a_sticky_world_writable_directory_only_owned_links_are_followed() {
        let (tmp, sticky_only, plain) = (0o041777, 0o041755, 0o040777);
        let user = &Cred::new(1000, 1000);
        assert!(follow_forbidden(tmp, 0, 1001, user), "another user's link");
        assert!(follow_forbidden(tmp, 0, 1000, &Cred::ROOT), "root is not exempt");
        assert!(!follow_forbidden(tmp, 0, 1000, user), "its own link");
        assert!(!follow_forbidden(tmp, 1001, 1001, user), "the directory owner's link");
        assert!(!follow_forbidden(sticky_only, 0, 1001, user));
        assert!(!follow_forbidden(plain, 0, 1001, user));
    }

    #[test]
    fn the_first_matching_class_decides() {
        let owner = &Cred::new(1000, 1000);
        // The owner without read bits is refused even if others may read.
        assert!(!may_access(0o100044, 1000, 1000, owner, MAY_READ));
        assert!(may_access(0o100600, 1000, 0, owner, MAY_READ | MAY_WRITE));
        // Root sets a user's groups, then becomes that user (as login does).
        let mut member = Cred::ROOT;
        member.set_groups(&[1000]).unwrap();
        member.uid = Cred::new(1001, 7).uid;
        member.gid = Cred::new(1001, 7).gid;
        let member = &member;
        assert!(may_access(0o100640, 1000, 1000, member, MAY_READ));
        assert!(!may_access(0o100640, 1000, 1000, member, MAY_WRITE));
        let other = &Cred::new(1002, 1002);
        assert!(!may_access(0o100600, 1000, 1000, other, MAY_READ));
        assert!(may_access(0o100604, 1000, 1000, other, MAY_READ));
    }
}
