//! File system calls: descriptors (read, write, close, dup*, fcntl, lseek,
//! ioctl, pipe2), opening and stat-ing by path (openat, fstatat64, statx,
//! faccessat) and directories (getdents64), with Linux ppc32's numbers
//! and error choices. Calls that change the tree are in `names.rs`, those
//! that change an inode in `attrs.rs`; the files live in `crate::fs`.

use alloc::sync::Arc;

use sigil_core::abi::Errno;

use super::SysResult;
use crate::fs::flags::*;
use crate::fs::path::{self, AT_FDCWD};
use crate::fs::tmpfs::{self, Kind, Node};
use crate::fs::{devices, file::OpenFile, pipe, procfs, walk, File, Stat};
use crate::mm::heap;
use crate::proc;
use crate::uaccess::{put_user, Read, UserWindow, Write};
use sigil_core::path::{MAY_READ, MAY_WRITE};

pub const AT_SYMLINK_NOFOLLOW: u32 = 0x100;
const AT_EACCESS: u32 = 0x200;
const AT_NO_AUTOMOUNT: u32 = 0x800;
pub const AT_EMPTY_PATH: u32 = 0x1000;
const O_NOFOLLOW: u32 = 0o100000;
/// statx's AT_STATX_SYNC_TYPE bits (sync hints, meaningless here).
const AT_STATX_SYNC_TYPE: u32 = 0x6000;

/// Linux MAX_RW_COUNT (INT_MAX & PAGE_MASK): the most one read, write or
/// vector of them moves; a longer request is cut to it, so a count always
/// fits the ssize_t the caller gets back.
const MAX_RW_COUNT: u32 = 0x7fff_f000;
/// Linux UIO_MAXIOV: the most iovec entries one readv/writev takes.
const IOV_MAX: u32 = 1024;

/// Linux `vfs_read`/`vfs_write`'s checks, in their order: EBADF if `f` is
/// not open for this direction (a pipe's other end), EFAULT if [buf, buf +
/// len) is not user memory, even when nothing would be copied.
fn may_rw(f: &Arc<File>, write: bool, buf: u32, len: u32) -> Result<(), Errno> {
    let denied = if write { O_RDONLY } else { O_WRONLY };
    if f.status_flags() & O_ACCMODE == denied {
        return Err(Errno::EBADF);
    }
    if buf.checked_add(len).is_none_or(|end| end > crate::mm::TASK_SIZE) {
        return Err(Errno::EFAULT);
    }
    Ok(())
}

pub fn read(fd: u32, buf: u32, len: u32) -> SysResult {
    let f = file(fd)?;
    may_rw(&f, false, buf, len)?;
    f.read(buf, len.min(MAX_RW_COUNT))
}

pub fn write(fd: u32, buf: u32, len: u32) -> SysResult {
    let f = file(fd)?;
    may_rw(&f, true, buf, len)?;
    f.write(buf, len.min(MAX_RW_COUNT))
}

/// pread64(fd, buf, len, pad, hi, lo) and pwrite64: the 64-bit offset in
/// an aligned register pair (r7:r8); negative is EINVAL.
pub fn pread64(fd: u32, buf: u32, len: u32, hi: u32, lo: u32, write: bool) -> SysResult {
    let off = ((hi as u64) << 32 | lo as u64) as i64;
    if off < 0 {
        return Err(Errno::EINVAL);
    }
    let f = file(fd)?;
    if write {
        f.write_at(off as u64, buf, len)
    } else {
        f.read_at(off as u64, buf, len)
    }
}

/// readv and writev (`write`) of `n` iovecs at `iov`, read in one window
/// and checked as Linux's `import_iovec` does: more than IOV_MAX is EINVAL,
/// so is a length negative as an ssize_t; a segment outside user memory is
/// EFAULT; the total is cut to MAX_RW_COUNT. Then one read or write per
/// segment, until one comes up short or fails (an error only if nothing
/// moved before it).
pub fn rw_vec(fd: u32, iov: u32, n: u32, write: bool) -> SysResult {
    let f = file(fd)?;
    may_rw(&f, write, 0, 0)?;
    if n > IOV_MAX {
        return Err(Errno::EINVAL);
    }
    let mut vecs = alloc::vec::Vec::new();
    vecs.try_reserve_exact(n as usize).map_err(|_| Errno::ENOMEM)?;
    let w = UserWindow::open(iov, n * 8, Read)?;
    for i in 0..n {
        vecs.push((w.get::<u32>(i * 8), w.get::<u32>(i * 8 + 4)));
    }
    w.finish()?;
    if vecs.iter().any(|&(_, len)| (len as i32) < 0) {
        return Err(Errno::EINVAL);
    }
    let mut total = 0u32;
    for (base, len) in vecs.iter_mut() {
        may_rw(&f, write, *base, *len)?;
        *len = (*len).min(MAX_RW_COUNT - total);
        total += *len;
    }
    let mut done = 0u32;
    for &(base, len) in vecs.iter().filter(|v| v.1 > 0) {
        let r = if write { f.write(base, len) } else { f.read(base, len) };
        match r {
            Ok(k) => {
                done += k;
                if k < len {
                    break;
                }
            }
            Err(e) if done == 0 => return Err(e),
            Err(_) => break,
        }
    }
    Ok(done)
}

/// close: the descriptor is dropped after the table is let go (the last
/// close of a pipe end wakes the other side).
pub fn close(fd: u32) -> SysResult {
    let old = proc::share::files().close(fd)?;
    drop(old);
    Ok(0)
}

fn file(fd: u32) -> Result<Arc<File>, Errno> {
    proc::share::files().get(fd).cloned()
}

/// A new descriptor for `file`: the lowest free one, below the caller's
/// RLIMIT_NOFILE (EMFILE when there is none).
pub fn install(file: Arc<File>, cloexec: bool) -> SysResult {
    proc::share::files().install(file, 0, cloexec, proc::group().limits.nofile())
}

/// dup2/dup3's half: `file` at exactly `new`, below RLIMIT_NOFILE (EBADF
/// past it, as Linux). What was there is dropped after the table is let go.
fn install_at(new: u32, file: Arc<File>, cloexec: bool) -> SysResult {
    let limit = proc::group().limits.nofile();
    let replaced = proc::share::files().install_at(new, file, cloexec, limit)?;
    drop(replaced);
    Ok(new)
}

/// pipe2(fds, flags): fds[0] the read end, fds[1] the write end.
pub fn pipe2(fds: u32, flags: u32) -> SysResult {
    if flags & !(O_CLOEXEC | O_NONBLOCK) != 0 {
        return Err(Errno::EINVAL);
    }
    let (r, w) = pipe::new(flags)?;
    let cloexec = flags & O_CLOEXEC != 0;
    let rfd = install(r, cloexec)?;
    let wfd = match install(w, cloexec) {
        Ok(fd) => fd,
        Err(e) => {
            let old = proc::share::files().close(rfd);
            drop(old);
            return Err(e);
        }
    };
    let mut win = UserWindow::open(fds, 8, Write)?;
    win.put(0, rfd);
    win.put(4, wfd);
    if win.finish().is_err() {
        let t = &mut proc::share::files();
        let (a, b) = (t.close(rfd), t.close(wfd));
        drop((a, b));
        return Err(Errno::EFAULT);
    }
    Ok(0)
}

/// openat: finds or (O_CREAT) makes the inode, checks the access asked
/// for, truncates (O_TRUNC) and installs an open file or the device.
pub fn openat(dirfd: i32, path: u32, flags: u32, mode: u32) -> SysResult {
    let name = path::read_path(path)?;
    let follow = flags & O_NOFOLLOW == 0;
    if let Some(entry) = procfs::claim(dirfd, &name, follow) {
        let file = procfs::open(entry?, flags, follow)?;
        return install(file, flags & O_CLOEXEC != 0);
    }
    let (node, created) = open_node(dirfd, &name, flags, mode)?;
    let accmode = flags & O_ACCMODE;
    if node.is_dir() && (accmode != O_RDONLY || flags & (O_TRUNC | O_CREAT) != 0) {
        return Err(Errno::EISDIR);
    }
    if accmode == 3 {
        return Err(Errno::EINVAL);
    }
    let want = match accmode {
        O_RDONLY => MAY_READ,
        O_WRONLY => MAY_WRITE,
        _ => MAY_READ | MAY_WRITE,
    };
    // The creator may open what it made whatever the new mode says (Linux:
    // `open("f", O_CREAT|O_WRONLY, 0444)` succeeds, as cp and tar rely on).
    if !created {
        walk::permitted(&node, want)?;
    }
    let file: Arc<File> = match &node.kind {
        Kind::Device(dev) => {
            let dev = devices::open(dev, &node, flags)?;
            dev.opened(flags)?;
            dev
        }
        Kind::File(_) => {
            if flags & O_TRUNC != 0 && accmode != O_RDONLY {
                node.truncate(0)?;
                node.touch(true);
            }
            heap::arc(OpenFile::new(node.clone(), flags))?
        }
        Kind::Dir(_) => heap::arc(OpenFile::new(node.clone(), flags))?,
        Kind::Fifo(fifo) => pipe::open_fifo(fifo, &node, flags)?,
        Kind::Symlink(_) => return Err(Errno::ELOOP),
    };
    install(file, flags & O_CLOEXEC != 0)
}

/// The inode openat opens, and whether this call made it: looked up, or
/// with O_CREAT found or created (`walk::lookup_create`: a last link is
/// followed even when dangling, and its target made, as on Linux; O_EXCL
/// follows no link and any name that exists is EEXIST; a trailing '/' is
/// EISDIR).
fn open_node(dirfd: i32, name: &str, flags: u32, mode: u32) -> Result<(Node, bool), Errno> {
    let excl = flags & (O_CREAT | O_EXCL) == O_CREAT | O_EXCL;
    let follow = flags & O_NOFOLLOW == 0 && !excl;
    let (node, created) = if flags & O_CREAT == 0 {
        (path::lookup(dirfd, name, follow)?, false)
    } else {
        match walk::lookup_create(&path::base(dirfd, name)?, name, follow)? {
            walk::Last::Found(_) if excl => return Err(Errno::EEXIST),
            walk::Last::Found(n) => (n, false),
            walk::Last::Missing(dir, last) => {
                walk::may_create(&dir, &last)?;
                // An invalid access mode must not leave a new file behind.
                if flags & O_ACCMODE == 3 {
                    return Err(Errno::EINVAL);
                }
                let mode = tmpfs_mode(crate::fs::stat::S_IFREG, mode);
                (walk::create(&dir, &last, tmpfs::new_inode(mode, tmpfs::empty_file())?)?, true)
            }
        }
    };
    if flags & O_DIRECTORY != 0 && !node.is_dir() {
        return Err(Errno::ENOTDIR);
    }
    if matches!(node.kind, Kind::Symlink(_)) && flags & O_NOFOLLOW != 0 {
        return Err(Errno::ELOOP);
    }
    Ok((node, created))
}

/// A new inode's mode: `ty` and the permission bits asked for, less the umask.
pub fn tmpfs_mode(ty: u32, mode: u32) -> u32 {
    ty | mode & 0o7777 & !proc::share::fs().umask
}

pub fn open(path: u32, flags: u32, mode: u32) -> SysResult {
    openat(AT_FDCWD, path, flags, mode)
}

pub fn dup(fd: u32) -> SysResult {
    let f = file(fd)?;
    install(f, false)
}

/// dup2: newfd == oldfd is a no-op once oldfd is known to be valid.
pub fn dup2(old: u32, new: u32) -> SysResult {
    let f = file(old)?;
    if old == new {
        return Ok(new);
    }
    install_at(new, f, false)
}

/// dup3: like dup2, but equal descriptors are EINVAL and O_CLOEXEC is the
/// only flag.
pub fn dup3(old: u32, new: u32, flags: u32) -> SysResult {
    if flags & !O_CLOEXEC != 0 || old == new {
        return Err(Errno::EINVAL);
    }
    let f = file(old)?;
    install_at(new, f, flags & O_CLOEXEC != 0)
}

/// fcntl64 (and fcntl): descriptor and status flags, F_DUPFD. Locks and the
/// rest: EINVAL, as Linux answers an unknown command.
pub fn fcntl(fd: u32, cmd: u32, arg: u32) -> SysResult {
    const F_DUPFD: u32 = 0;
    const F_GETFD: u32 = 1;
    const F_SETFD: u32 = 2;
    const F_GETFL: u32 = 3;
    const F_SETFL: u32 = 4;
    const F_DUPFD_CLOEXEC: u32 = 1030;
    const FD_CLOEXEC: u32 = 1;
    let limit = proc::group().limits.nofile();
    let t = proc::share::files();
    let e = t.entry(fd)?.clone();
    match cmd {
        F_DUPFD | F_DUPFD_CLOEXEC => {
            if arg as usize >= limit {
                return Err(Errno::EINVAL);
            }
            t.install(e.into_file(), arg as usize, cmd == F_DUPFD_CLOEXEC, limit)
        }
        F_GETFD => Ok(if e.cloexec { FD_CLOEXEC } else { 0 }),
        F_SETFD => t.set_cloexec(fd, arg & FD_CLOEXEC != 0).map(|_| 0),
        F_GETFL => Ok(e.ops().status_flags()),
        F_SETFL => {
            e.ops().set_status_flags(arg);
            Ok(0)
        }
        _ => Err(Errno::EINVAL),
    }
}

/// lseek with a 32-bit offset: a result that does not fit is EOVERFLOW.
pub fn lseek(fd: u32, off: i32, whence: u32) -> SysResult {
    let f = file(fd)?;
    let pos = f.seek(off as i64, whence)?;
    u32::try_from(pos).ok().filter(|&p| p <= i32::MAX as u32).ok_or(Errno::EOVERFLOW)
}

/// _llseek(fd, high, low, result, whence): the 64-bit offset is high:low,
/// the new position goes to *result.
pub fn llseek(fd: u32, hi: u32, lo: u32, result: u32, whence: u32) -> SysResult {
    let f = file(fd)?;
    let pos = f.seek(((hi as u64) << 32 | lo as u64) as i64, whence)?;
    put_user(result, pos).map(|_| 0).map_err(Errno::from)
}

pub fn getdents64(fd: u32, buf: u32, len: u32) -> SysResult {
    file(fd)?.getdents(buf, len)
}

/// What a path (or, with AT_EMPTY_PATH and "", `dirfd` itself) names.
fn stat_at(dirfd: i32, path: u32, flags: u32) -> Result<Stat, Errno> {
    let name = path::read_path(path)?;
    if name.is_empty() && flags & AT_EMPTY_PATH != 0 {
        if dirfd == AT_FDCWD {
            return Ok(proc::share::fs().cwd.stat());
        }
        return Ok(file(dirfd as u32)?.stat());
    }
    let follow = flags & AT_SYMLINK_NOFOLLOW == 0;
    if let Some(entry) = procfs::claim(dirfd, &name, follow) {
        return Ok(procfs::stat(entry?, follow));
    }
    Ok(path::lookup(dirfd, &name, follow)?.stat())
}

pub fn fstat64(fd: u32, buf: u32) -> SysResult {
    file(fd)?.stat().put_stat64(buf)
}

pub fn fstatat64(dirfd: i32, path: u32, buf: u32, flags: u32) -> SysResult {
    if flags & !(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH) != 0 {
        return Err(Errno::EINVAL);
    }
    stat_at(dirfd, path, flags)?.put_stat64(buf)
}

/// statx(dirfd, path, flags, mask, buf): every basic field, whatever `mask`.
pub fn statx(dirfd: i32, path: u32, flags: u32, _mask: u32, buf: u32) -> SysResult {
    if flags & !(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE) != 0 {
        return Err(Errno::EINVAL);
    }
    stat_at(dirfd, path, flags)?.put_statx(buf)
}

/// faccessat2: the mode bits checked as `walk::permitted` checks them, but
/// with the real uid and gid unless AT_EACCESS (Linux's access_override_creds:
/// a set-uid program asks what its invoker may do).
pub fn faccessat(dirfd: i32, path: u32, mode: u32, flags: u32) -> SysResult {
    if mode & !7 != 0 || flags & !(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH) != 0 {
        return Err(Errno::EINVAL);
    }
    // With AT_EMPTY_PATH and "", `dirfd` itself: any open file (a pipe or
    // a device too), checked by what fstat reports of it.
    let st = stat_at(dirfd, path, flags)?;
    // F_OK (0) only asks whether the name resolves; R_OK 4, W_OK 2, X_OK 1
    // are MAY_READ, MAY_WRITE, MAY_EXEC.
    let mut cred = crate::cred::current();
    if flags & AT_EACCESS == 0 {
        cred.uid.fs = cred.uid.real;
        cred.gid.fs = cred.gid.real;
    }
    if !sigil_core::path::may_access(st.mode, st.uid, st.gid, &cred, mode) {
        return Err(Errno::EACCES);
    }
    Ok(0)
}

pub fn umask(mask: u32) -> SysResult {
    Ok(core::mem::replace(&mut proc::share::fs().umask, mask & 0o777))
}

/// ioctl: the file decides. (The console is not a terminal, like a pipe under
/// qemu-ppc, so glibc buffers stdout the same way on both.)
///
/// The file is borrowed from the table, not cloned, when the table is the
/// caller's alone: only this thread could then close or replace the
/// descriptor (a thread drops its table only itself, at exit), it is busy
/// in the call, and no ioctl touches the descriptor table, so the file
/// outlives the call even if it sleeps. The `Arc`'s count up and down is
/// two `lwarx`/`stwcx.` loops and a `lwsync` (~14 instructions on every
/// SYNC_PTR). A shared table takes a reference as before: another thread
/// may close the descriptor while this one sleeps in DRAIN or a terminal
/// stop. That path is a function of its own: inline, its registers (the
/// clone kept live across the call) were saved on the borrowing path too.
///
/// Inlined into the dispatch's arm: out of line it was a frame of its own
/// (7 instructions and the call) around one indirect call. A descriptor
/// that is not open goes the shared way too, which answers EBADF: an
/// error returned here had its two result words set up ahead of the
/// lookup's test, moving the arguments out of their registers (4
/// instructions of every call). The dispatch passes the calling thread
/// `t` without `current()`'s null test (a user system call has one).
#[inline(always)]
pub fn ioctl(t: &proc::Thread, fd: u32, req: u32, arg: u32) -> SysResult {
    if t.files_alone() {
        if let Ok(f) = t.files().ops(fd) {
            return f.ioctl(req, arg);
        }
    }
    ioctl_shared(fd, req, arg)
}

/// `ioctl` on a shared descriptor table: the call holds its own reference.
/// (Also a descriptor that is not open: EBADF.)
#[inline(never)]
fn ioctl_shared(fd: u32, req: u32, arg: u32) -> SysResult {
    let f = file(fd)?;
    f.ioctl(req, arg)
}
