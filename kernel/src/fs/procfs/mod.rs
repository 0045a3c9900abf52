//! /proc: a read-only view of the processes and the machine, made when it
//! is read (Linux's procfs), for ps, free, uptime, top and glibc.
//!
//! How it is reached: [`mount`] makes an empty tmpfs directory /proc at
//! boot (what `ls /` shows), and the system calls that take a path
//! (openat, fstatat64, statx, faccessat, readlinkat) ask [`claim`] first:
//! a path under /proc, absolute, relative to the root, or relative to a
//! descriptor of /proc or of a directory in it (openat(fd of /proc/self,
//! "status")), is answered here instead of by the tmpfs walk. Not reached:
//! a cwd inside /proc (chdir cannot enter one).
//!
//! Threads: /proc/<pid>/task lists the group's thread ids, and each
//! /proc/<pid>/task/<tid> has the process's files, with the thread's own
//! state, signal sets, umask and CPU time in stat and status, and an fd/
//! of the thread's own descriptor table. As Linux's
//! `proc_pid_lookup`, /proc/<tid> of a thread that is not a leader is
//! found though /proc's listing shows only processes; it shows that
//! thread (its id, state and signal sets) with the process's totals.
//!
//! Files are generated into a kernel buffer (at most `FILE_MAX` bytes) by
//! the first read and again by every read at offset 0, as Linux's
//! seq_file does, so lseek(0) and pread see fresh values; a read after the
//! process was reaped is ESRCH, an open then is ENOENT (a zombie still has
//! its directory, in state Z). Files are 0444 and directories 0555,
//! readable by all as Linux's are, but environ, which may hold secrets, is
//! 0400 and fd/ 0500, its owner's. Formats are `sigil_core::procfs`'s; `gather.rs` collects the
//! values they print. /proc/<pid>/fd/<n> links say what descriptor n has
//! open (a path, a device node, `pipe:[ino]`, `anon_inode:[...]`).

mod gather;

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

use sigil_core::abi::Errno;
use sigil_core::path::{may_access, MAY_READ, MAY_WRITE};
use sigil_core::procfs::{self as fmt, Entry, PidFile};

use super::file::{OpenFile, DT_DIR, DT_LNK, DT_REG};
use super::flags::{O_ACCMODE, O_CREAT, O_DIRECTORY, O_EXCL, O_RDONLY, O_TRUNC, O_WRONLY};
use super::stat::{Stat, S_IFDIR, S_IFLNK, S_IFREG};
use super::{tmpfs, walk, File, FileOps, StatusFlags};
use crate::kcell::KCell;
use crate::mm::heap;
use crate::proc::{self, Thread};
use crate::uaccess::copy_to_user;

/// The most a generated file holds (a maps of more areas than fit is cut
/// short, where Linux would go on).
pub(super) const FILE_MAX: usize = 16 * 1024;
/// The anonymous device /proc's inodes are on.
const PROC_DEV: (u32, u32) = (0, 4);

/// The inode number of the tmpfs directory /proc is mounted on (0: none).
static MOUNT_INO: KCell<u32> = KCell::new(0);

/// Makes the mount point /proc in the tmpfs root (at boot, after the
/// initramfs; kept if the archive has one). A root with no room left for
/// one directory gets no /proc.
pub fn mount(root: &tmpfs::Node) {
    let dir = walk::child(root, "proc")
        .or_else(|| tmpfs::new_dir(0o555, root).and_then(|d| walk::create(root, "proc", d)).ok());
    if let Some(dir) = dir {
        *MOUNT_INO.get() = dir.ino;
    }
}

/// The /proc entry `name` names from `dirfd`, if it is one (None: the
/// tmpfs walk's business). `follow`: whether a last-component link
/// (/proc/self) is followed. A pid that does not exist is ENOENT.
pub fn claim(dirfd: i32, name: &str, follow: bool) -> Option<Result<Entry, Errno>> {
    if name.is_empty() {
        return None;
    }
    let me = proc::group().pid;
    let parsed = if name.starts_with('/') {
        fmt::parse(name, me, follow)?
    } else if let Some(dir) = proc_dir(dirfd) {
        // Relative to a directory of ours: the path its inode stands for.
        fmt::parse(&format!("{dir}/{name}"), me, follow)?
    } else {
        // Relative to the root ("proc/1/stat") or to /proc ("1/stat").
        let base = super::path::start(dirfd).ok()?;
        let first = name.split('/').find(|c| !c.is_empty() && *c != ".");
        let prefix = if base.ino == *MOUNT_INO.get() {
            "/proc/"
        } else if first == Some("proc") && alloc::rc::Rc::ptr_eq(&base, &tmpfs::root()) {
            "/"
        } else {
            return None;
        };
        fmt::parse(&format!("{prefix}{name}"), me, follow)?
    };
    Some(parsed.and_then(|e| match e {
        Entry::Pid(p) | Entry::File(p, _) | Entry::TaskDir(p) if gather::group_of(p).is_none() => {
            Err(Errno::ENOENT)
        }
        // A thread of another process (or none) is not in this task/.
        Entry::Task(p, tid) | Entry::TaskFile(p, tid, _) if gather::member(p, tid).is_none() => {
            Err(Errno::ENOENT)
        }
        Entry::FdDir(p, tid) => fd_owner(p, tid).map(|_| e),
        Entry::Fd(p, tid, n) => fd_file(p, tid, n).map(|_| e),
        e => Ok(e),
    }))
}

/// The path of the /proc directory descriptor `dirfd` has open (one whose
/// stat is on /proc's device), if it is one.
fn proc_dir(dirfd: i32) -> Option<String> {
    if dirfd == super::path::AT_FDCWD {
        return None;
    }
    let st = proc::share::files().get(dirfd as u32).ok()?.stat();
    (st.dev == PROC_DEV && st.mode & super::stat::S_IFMT == S_IFDIR).then(|| entry_path(st.ino))
}

fn is_dir(e: Entry) -> bool {
    matches!(
        e,
        Entry::Root | Entry::Pid(_) | Entry::FdDir(..) | Entry::TaskDir(_) | Entry::Task(..)
    )
}

/// The thread whose descriptor table an fd/ directory shows: thread `tid`
/// of `pid`'s process (its own table if it was made without CLONE_FILES);
/// for /proc/<pid>/fd of a process whose leader has gone, the thread /proc
/// shows for it (`proc::share::shown`), and none for a zombie: an empty
/// directory. ENOENT if there is no such process, or no such thread in it.
fn fd_owner(pid: u32, tid: u32) -> Result<Option<&'static mut Thread>, Errno> {
    if let Some(t) = gather::member(pid, tid) {
        return Ok(Some(t));
    }
    match gather::group_of(pid) {
        Some(g) if pid == tid => Ok(proc::share::shown(g)),
        _ => Err(Errno::ENOENT),
    }
}

/// The file thread `tid` of process `pid` has open at descriptor `n`
/// (ENOENT if none).
fn fd_file(pid: u32, tid: u32, n: u32) -> Result<Arc<File>, Errno> {
    let t = fd_owner(pid, tid)?.ok_or(Errno::ENOENT)?;
    t.files().get(n).cloned().map_err(|_| Errno::ENOENT)
}

/// Where an fd link points, as Linux spells it: a tmpfs file's path, a
/// device node's, "pipe:[inode]", or "anon_inode:[kind]".
fn fd_target(f: &File) -> String {
    if let Some(node) = f.inode() {
        return node_path(node).unwrap_or_else(|| String::from("(deleted)"));
    }
    let st = f.stat();
    if st.dev == PROC_DEV {
        return entry_path(st.ino);
    }
    match st.mode & super::stat::S_IFMT {
        super::stat::S_IFIFO => format!("pipe:[{}]", st.ino),
        super::stat::S_IFCHR => String::from(super::devices::path_of(st.rdev).unwrap_or("/dev/?")),
        _ => format!("anon_inode:{}", f.anon_name().unwrap_or("[?]")),
    }
}

/// The path of tmpfs inode `node`; None once unlinked.
fn node_path(node: &tmpfs::Node) -> Option<String> {
    if node.is_dir() {
        return tmpfs::path_of(node).ok();
    }
    tmpfs::file_path(node)
}

/// openat of entry `e`, checked against its mode as a tmpfs inode's is:
/// so root may open a file for writing, as on Linux, and then a write is
/// EINVAL (no write operation). A directory for writing is EISDIR.
/// /proc/<pid>/exe followed opens the program's tmpfs file.
pub fn open(e: Entry, flags: u32, follow: bool) -> Result<Arc<File>, Errno> {
    if flags & (O_CREAT | O_EXCL) == O_CREAT | O_EXCL {
        return Err(Errno::EEXIST);
    }
    let write = flags & O_ACCMODE != O_RDONLY || flags & O_TRUNC != 0;
    if write && is_dir(e) {
        return Err(Errno::EISDIR);
    }
    if flags & O_DIRECTORY != 0 && !is_dir(e) {
        return Err(Errno::ENOTDIR);
    }
    let mask = if write { MAY_WRITE } else { MAY_READ };
    access(e, mask, &crate::cred::current())?;
    if let (Entry::Fd(pid, tid, n), true) = (e, follow) {
        if let Some(node) = fd_file(pid, tid, n)?.inode() {
            walk::permitted(node, mask)?;
        }
    }
    Ok(match e {
        Entry::SelfLink => return Err(Errno::ELOOP),
        Entry::File(_, PidFile::Exe) | Entry::TaskFile(_, _, PidFile::Exe) | Entry::Fd(..)
            if !follow =>
        {
            return Err(Errno::ELOOP)
        }
        // Linux opens the file anew; Sigil does for a tmpfs file, and
        // shares the open file (and its offset) for the others.
        Entry::Fd(pid, tid, n) => {
            let f = fd_file(pid, tid, n)?;
            match f.inode() {
                Some(node) => heap::arc(OpenFile::new(node.clone(), flags))?,
                None => f,
            }
        }
        Entry::File(_, PidFile::Exe) | Entry::TaskFile(_, _, PidFile::Exe) => {
            let node = super::path::lookup(super::path::AT_FDCWD, &readlink(e)?, true)?;
            walk::permitted(&node, MAY_READ)?;
            heap::arc(OpenFile::new(node, flags))?
        }
        _ => heap::arc(ProcFile::new(e, flags))?,
    })
}

/// readlink of `e`: /proc/self is the caller's pid, exe the absolute path
/// of the program (ENOENT for a zombie, which has none); others EINVAL.
pub fn readlink(e: Entry) -> Result<String, Errno> {
    match e {
        Entry::SelfLink => Ok(format!("{}", proc::group().pid)),
        Entry::File(pid, PidFile::Exe) | Entry::TaskFile(pid, _, PidFile::Exe) => {
            match gather::group_of(pid) {
                Some(g) if !g.zombie => Ok(g.name.clone()),
                _ => Err(Errno::ENOENT),
            }
        }
        Entry::Fd(pid, tid, n) => Ok(fd_target(&*fd_file(pid, tid, n)?)),
        _ => Err(Errno::EINVAL),
    }
}

/// May `cred` open `e` for `mask`: the mode bits of its own (unfollowed)
/// stat, checked as a tmpfs inode's are.
fn access(e: Entry, mask: u32, cred: &sigil_core::cred::Cred) -> Result<(), Errno> {
    let s = link_stat(e);
    may_access(s.mode, s.uid, s.gid, cred, mask).then_some(()).ok_or(Errno::EACCES)
}

/// An inode number per entry: 1 the root, then the fixed entries, then 16
/// per pid (its directory, files, task/ and fd/), 256 per thread id for
/// the descriptors of its table (/proc/<pid>/fd's are the id given's), and
/// 16 per thread id for a task/<tid> directory, files and fd/.
fn ino(e: Entry) -> u64 {
    let pid_base = |pid: u32| 0x1_0000 + 16 * pid as u64;
    let tid_base = |tid: u32| TASK_INO + 16 * tid as u64;
    let file_index = |f| fmt::PID_FILES.iter().position(|p| p.1 == f).unwrap_or(0) as u64;
    match e {
        Entry::Root => 1,
        Entry::SelfLink => 2,
        Entry::Global(g) => 3 + fmt::GLOBALS.iter().position(|p| p.1 == g).unwrap_or(0) as u64,
        Entry::Pid(p) => pid_base(p),
        Entry::File(p, f) => pid_base(p) + 1 + file_index(f),
        Entry::TaskDir(p) => pid_base(p) + 14,
        Entry::FdDir(p, tid) if p == tid => pid_base(p) + 15,
        Entry::FdDir(_, tid) => tid_base(tid) + 15,
        Entry::Fd(_, tid, n) => FD_INO + 256 * tid as u64 + n as u64,
        Entry::Task(_, tid) => tid_base(tid),
        Entry::TaskFile(_, tid, f) => tid_base(tid) + 1 + file_index(f),
    }
}

/// Where the descriptors' and the threads' inode numbers start.
const FD_INO: u64 = 0x100_0000;
const TASK_INO: u64 = 0x4000_0000;

/// The path of the /proc entry with inode number `ino` (`ino`'s inverse).
fn entry_path(ino: u64) -> String {
    match ino {
        1 => String::from("/proc"),
        2 => String::from("/proc/self"),
        TASK_INO.. => {
            let (tid, k) = (((ino - TASK_INO) / 16) as u32, (ino % 16) as usize);
            let pid = gather::group_of(tid).map_or(tid, |g| g.pid);
            match k {
                0 => format!("/proc/{pid}/task/{tid}"),
                15 => format!("/proc/{pid}/task/{tid}/fd"),
                k => format!("/proc/{pid}/task/{tid}/{}", file_name(k)),
            }
        }
        FD_INO.. => format!("/proc/{}/fd/{}", (ino - FD_INO) / 256, ino % 256),
        0x1_0000.. => {
            let (pid, k) = ((ino - 0x1_0000) / 16, (ino % 16) as usize);
            match k {
                0 => format!("/proc/{pid}"),
                14 => format!("/proc/{pid}/task"),
                15 => format!("/proc/{pid}/fd"),
                k => format!("/proc/{pid}/{}", file_name(k)),
            }
        }
        g => format!("/proc/{}", fmt::GLOBALS.get(g as usize - 3).map_or("?", |f| f.0)),
    }
}

/// The name of a process directory's file at inode offset `k` (1 on).
fn file_name(k: usize) -> &'static str {
    fmt::PID_FILES.get(k - 1).map_or("?", |f| f.0)
}

/// stat of `e`, `follow`ing a last link: the exe link leads to the
/// program's tmpfs file, an fd link to the open file (what fstat on it
/// says); /proc/self is followed by `claim` already.
pub fn stat(e: Entry, follow: bool) -> Stat {
    let target = match e {
        Entry::File(_, PidFile::Exe) | Entry::TaskFile(_, _, PidFile::Exe) if follow => readlink(e)
            .and_then(|p| super::path::lookup(super::path::AT_FDCWD, &p, true))
            .map(|n| n.stat())
            .ok(),
        Entry::Fd(pid, tid, n) if follow => fd_file(pid, tid, n).map(|f| f.stat()).ok(),
        _ => None,
    };
    target.unwrap_or_else(|| link_stat(e))
}

/// An fd link's mode says how the descriptor is open, as Linux's does
/// (lr-x------ read-only, l-wx------ write-only, lrwx------ both).
fn fd_mode(pid: u32, tid: u32, n: u32) -> u32 {
    let acc = fd_file(pid, tid, n).map_or(O_RDONLY, |f| f.status_flags() & O_ACCMODE);
    let r = if acc != O_WRONLY { 0o500 } else { 0 };
    let w = if acc != O_RDONLY { 0o300 } else { 0 };
    S_IFLNK | r | w
}

/// stat of `e` itself: a process's entries belong to its effective user
/// and group, as Linux's do; the rest to root. Sizes are 0, as Linux's.
fn link_stat(e: Entry) -> Stat {
    let mode = match e {
        Entry::Root | Entry::Pid(_) | Entry::TaskDir(_) | Entry::Task(..) => S_IFDIR | 0o555,
        Entry::FdDir(..) => S_IFDIR | 0o500,
        Entry::Fd(p, tid, n) => fd_mode(p, tid, n),
        Entry::SelfLink | Entry::File(_, PidFile::Exe) | Entry::TaskFile(_, _, PidFile::Exe) => {
            S_IFLNK | 0o777
        }
        // The environment may hold secrets: its owner's (and root's) only.
        Entry::File(_, PidFile::Environ) | Entry::TaskFile(_, _, PidFile::Environ) => {
            S_IFREG | 0o400
        }
        Entry::Global(_) | Entry::File(..) | Entry::TaskFile(..) => S_IFREG | 0o444,
    };
    let owner = match e {
        Entry::Root | Entry::SelfLink | Entry::Global(_) => None,
        Entry::Pid(p)
        | Entry::File(p, _)
        | Entry::FdDir(p, _)
        | Entry::Fd(p, ..)
        | Entry::TaskDir(p)
        | Entry::Task(p, _)
        | Entry::TaskFile(p, ..) => {
            gather::group_of(p).map(|g| (g.cred.uid.effective, g.cred.gid.effective))
        }
    };
    let (uid, gid) = owner.unwrap_or((0, 0));
    let t = tmpfs::now();
    Stat {
        dev: PROC_DEV,
        ino: ino(e),
        mode,
        nlink: if is_dir(e) { 2 } else { 1 },
        rdev: (0, 0),
        size: 0,
        blksize: 1024,
        uid,
        gid,
        times: [t; 3],
    }
}

/// An open /proc file or directory.
struct ProcFile {
    entry: Entry,
    /// The generated text (`made` once generated).
    text: RefCell<Vec<u8>>,
    made: Cell<bool>,
    /// The file offset; a directory's is the getdents cookie.
    pos: Cell<u64>,
    flags: StatusFlags,
}

impl ProcFile {
    fn new(entry: Entry, flags: u32) -> ProcFile {
        ProcFile {
            entry,
            text: RefCell::new(Vec::new()),
            made: Cell::new(false),
            pos: Cell::new(0),
            flags: StatusFlags::new(flags),
        }
    }
}

impl FileOps for ProcFile {
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        let n = self.read_at(self.pos.get(), buf, len)?;
        self.pos.set(self.pos.get() + n as u64);
        Ok(n)
    }

    fn read_at(&self, off: u64, buf: u32, len: u32) -> Result<u32, Errno> {
        if is_dir(self.entry) {
            return Err(Errno::EISDIR);
        }
        if self.flags.get() & O_ACCMODE == O_WRONLY {
            return Err(Errno::EBADF);
        }
        if off == 0 || !self.made.get() {
            let mut text = gather::generate(self.entry)?;
            text.truncate(FILE_MAX);
            *self.text.borrow_mut() = text;
            self.made.set(true);
        }
        let text = self.text.borrow();
        let start = (off as usize).min(text.len());
        let n = (text.len() - start).min(len as usize);
        copy_to_user(buf, &text[start..start + n])?;
        Ok(n as u32)
    }

    /// Nothing here is writable: EBADF if not opened for writing (as for
    /// any file), else Linux's EINVAL for a file without a write operation.
    fn write(&self, _buf: u32, _len: u32) -> Result<u32, Errno> {
        match self.flags.get() & O_ACCMODE {
            O_RDONLY => Err(Errno::EBADF),
            _ => Err(Errno::EINVAL),
        }
    }

    fn stat(&self) -> Stat {
        link_stat(self.entry)
    }

    /// SEEK_SET and SEEK_CUR only (Linux `seq_lseek`: SEEK_END is EINVAL).
    fn seek(&self, off: i64, whence: u32) -> Result<u64, Errno> {
        let base = match whence {
            0 => 0,
            1 => self.pos.get() as i64,
            _ => return Err(Errno::EINVAL),
        };
        let new = base.checked_add(off).filter(|&p| p >= 0).ok_or(Errno::EINVAL)?;
        self.pos.set(new as u64);
        Ok(new as u64)
    }

    fn getdents(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        let entries = listing(self.entry)?;
        let entries =
            entries.iter().map(|(cookie, ino, ty, name)| (*cookie, *ino, *ty, name.as_str()));
        super::file::getdents(entries, &self.pos, buf, len)
    }

    fn status_flags(&self) -> u32 {
        self.flags.get()
    }
    fn set_status_flags(&self, f: u32) {
        self.flags.set(f)
    }
}

/// A process directory's cookies start past those of the fixed entries.
const PID_COOKIE: u64 = 16;

/// A directory's entries as (cookie, inode, type, name): "." and "..",
/// then /proc's fixed entries and each process in pid order, or a
/// process's files.
fn listing(e: Entry) -> Result<Vec<(u64, u64, u8, String)>, Errno> {
    let mut v = Vec::new();
    v.push((0, ino(e), DT_DIR, String::from(".")));
    v.push((1, 1, DT_DIR, String::from("..")));
    match e {
        Entry::Root => {
            v.push((2, 2, DT_LNK, String::from("self")));
            for (i, (name, g)) in fmt::GLOBALS.iter().enumerate() {
                v.push((3 + i as u64, ino(Entry::Global(*g)), DT_REG, String::from(*name)));
            }
            for g in proc::all() {
                let cookie = PID_COOKIE + g.pid as u64;
                v.push((cookie, ino(Entry::Pid(g.pid)), DT_DIR, format!("{}", g.pid)));
            }
        }
        Entry::Pid(pid) => {
            gather::group_of(pid).ok_or(Errno::ENOENT)?;
            v.push((2, ino(Entry::TaskDir(pid)), DT_DIR, String::from("task")));
            v.push((3, ino(Entry::FdDir(pid, pid)), DT_DIR, String::from("fd")));
            push_files(&mut v, 4, |f| Entry::File(pid, f));
        }
        Entry::Task(pid, tid) => {
            gather::member(pid, tid).ok_or(Errno::ENOENT)?;
            v.push((2, ino(Entry::FdDir(pid, tid)), DT_DIR, String::from("fd")));
            push_files(&mut v, 3, |f| Entry::TaskFile(pid, tid, f));
        }
        // Each thread, oldest first; a thread's cookie is past its id, so
        // a listing read in pieces neither skips nor repeats one.
        Entry::TaskDir(pid) => {
            let g = gather::group_of(pid).ok_or(Errno::ENOENT)?;
            for tid in g.members().map(|t| t.tid) {
                v.push((2 + tid as u64, ino(Entry::Task(pid, tid)), DT_DIR, format!("{tid}")));
            }
        }
        Entry::FdDir(pid, tid) => {
            // A zombie has no table: an empty directory.
            if let Some(files) = fd_owner(pid, tid)?.map(|t| t.files()) {
                for n in (0..super::MAX_FDS as u32).filter(|&n| files.get(n).is_ok()) {
                    v.push((2 + n as u64, ino(Entry::Fd(pid, tid, n)), DT_LNK, format!("{n}")));
                }
            }
        }
        _ => return Err(Errno::ENOTDIR),
    }
    Ok(v)
}

/// A process's (or thread's) files, from cookie `first` on.
fn push_files(v: &mut Vec<(u64, u64, u8, String)>, first: u64, entry: impl Fn(PidFile) -> Entry) {
    for (i, (name, f)) in fmt::PID_FILES.iter().enumerate() {
        let ty = if *f == PidFile::Exe { DT_LNK } else { DT_REG };
        v.push((first + i as u64, ino(entry(*f)), ty, String::from(*name)));
    }
}
