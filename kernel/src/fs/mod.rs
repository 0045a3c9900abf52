//! Files: what a file descriptor can refer to, the per-process table and
//! working directory (`FdTable`, `FsState`: threads hold them, `proc::share`),
//! and execve, which reads the program through the file tree (`exec.rs`).
//!
//! Sigil has no disk: files are the console terminal, pipes, tmpfs files and
//! directories (`tmpfs.rs`, filled from the initramfs at boot, `file.rs` for
//! an open one; `walk.rs` resolves paths), and device nodes (`devices.rs`:
//! /dev/null, /dev/snd/pcmC0D0p, /dev/sigil/uaccess), and /proc's generated
//! files (`procfs/`).
//! Each kind implements `FileOps`. An open file is shared (`Arc`) between the
//! descriptors dup and fork make, with one offset and one set of status flags
//! (O_NONBLOCK...), as POSIX says; only the close-on-exec flag belongs to the
//! descriptor itself (`Fd`).

pub mod devices;
pub mod exec;
pub mod file;
pub mod initramfs;
pub mod path;
pub mod pipe;
pub mod poll;
pub mod procfs;
pub mod stat;
pub mod tmpfs;
pub mod walk;

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::cell::Cell;
use core::ptr::NonNull;

use sigil_core::abi::Errno;

use crate::proc::share::{Held, Kernel, TryClone};

pub use stat::Stat;

/// open(2) flags, with powerpc's values (its O_DIRECTORY, O_NOFOLLOW and
/// O_LARGEFILE differ from x86's).
pub mod flags {
    pub const O_ACCMODE: u32 = 3;
    pub const O_RDONLY: u32 = 0;
    pub const O_WRONLY: u32 = 1;
    pub const O_RDWR: u32 = 2;
    pub const O_CREAT: u32 = 0o100;
    pub const O_EXCL: u32 = 0o200;
    pub const O_NOCTTY: u32 = 0o400;
    pub const O_TRUNC: u32 = 0o1000;
    pub const O_APPEND: u32 = 0o2000;
    pub const O_NONBLOCK: u32 = 0o4000;
    pub const O_DIRECTORY: u32 = 0o40000;
    pub const O_LARGEFILE: u32 = 0o200000;
    pub const O_CLOEXEC: u32 = 0o2000000;
    /// The flags F_SETFL may change (Linux `SETFL_MASK`, minus what Sigil
    /// has no use for: O_ASYNC, O_DIRECT, O_NOATIME).
    pub const SETFL_MASK: u32 = O_APPEND | O_NONBLOCK;
}

pub use sigil_core::poll::{POLLERR, POLLHUP, POLLIN, POLLNVAL, POLLOUT};

/// The status flags of an open file (F_GETFL/F_SETFL), kept by each file
/// kind that has any: the access mode and O_NONBLOCK / O_APPEND.
pub struct StatusFlags(Cell<u32>);

impl StatusFlags {
    pub fn new(open_flags: u32) -> StatusFlags {
        use flags::*;
        StatusFlags(Cell::new(open_flags & (O_ACCMODE | O_LARGEFILE | SETFL_MASK)))
    }
    pub fn get(&self) -> u32 {
        self.0.get()
    }
    pub fn set(&self, new: u32) {
        let keep = self.0.get() & !flags::SETFL_MASK;
        self.0.set(keep | (new & flags::SETFL_MASK));
    }
    pub fn nonblocking(&self) -> bool {
        self.0.get() & flags::O_NONBLOCK != 0
    }
}

/// What an open file can do. Buffers are user addresses: implementations move
/// data with `crate::uaccess` and return EFAULT for bad ones. The defaults are
/// Linux's answers for a file that does not support the operation.
pub trait FileOps {
    /// Reads into user memory at [buf, buf + len); returns the bytes read.
    fn read(&self, _buf: u32, _len: u32) -> Result<u32, Errno> {
        Err(Errno::EINVAL)
    }
    /// Writes user bytes at [buf, buf + len); returns the bytes written.
    fn write(&self, _buf: u32, _len: u32) -> Result<u32, Errno> {
        Err(Errno::EINVAL)
    }
    /// A device-specific request; `arg` is usually a user pointer.
    fn ioctl(&self, _req: u32, _arg: u32) -> Result<u32, Errno> {
        Err(Errno::ENOTTY)
    }
    /// What fstat reports. The default suits an anonymous-inode file (one
    /// with an `anon_name`, as Linux's `anon_inode_getfile` makes) or else a
    /// character device with no identity of its own.
    fn stat(&self) -> Stat {
        if self.anon_name().is_some() {
            Stat::anon()
        } else {
            Stat::chr(0, 0)
        }
    }
    /// lseek: moves the offset and returns the new one. Pipes, terminals and
    /// devices cannot seek.
    fn seek(&self, _off: i64, _whence: u32) -> Result<u64, Errno> {
        Err(Errno::ESPIPE)
    }
    /// pread64/pwrite64: a read or write at `off`, the file offset left as
    /// it is. Only files that can seek have offsets (ESPIPE).
    fn read_at(&self, _off: u64, _buf: u32, _len: u32) -> Result<u32, Errno> {
        Err(Errno::ESPIPE)
    }
    fn write_at(&self, _off: u64, _buf: u32, _len: u32) -> Result<u32, Errno> {
        Err(Errno::ESPIPE)
    }
    /// getdents64 into [buf, buf + len); only directories have entries.
    fn getdents(&self, _buf: u32, _len: u32) -> Result<u32, Errno> {
        Err(Errno::ENOTDIR)
    }
    /// The open file's status flags, for a kind that keeps its own (most
    /// do): F_GETFL and F_SETFL then need nothing more from it.
    fn status(&self) -> Option<&StatusFlags> {
        None
    }
    /// F_GETFL: the access mode and status flags (O_RDWR for a file without
    /// flags of its own).
    fn status_flags(&self) -> u32 {
        self.status().map_or(flags::O_RDWR, StatusFlags::get)
    }
    /// F_SETFL: a file without status flags of its own ignores it.
    fn set_status_flags(&self, f: u32) {
        if let Some(s) = self.status() {
            s.set(f)
        }
    }
    /// poll: the events (POLLIN, POLLOUT, POLLHUP...) that would not block
    /// now. Files that never block are always ready.
    fn poll_ready(&self) -> u16 {
        POLLIN | POLLOUT
    }
    /// openat opened this file with `open_flags`: a terminal's chance to
    /// refuse (/dev/tty without one) or become a controlling terminal.
    fn opened(&self, _open_flags: u32) -> Result<(), Errno> {
        Ok(())
    }
    /// poll: how a poller learns that `poll_ready` may have changed (a wait
    /// queue the file wakes, or a time to look again). The default suits a
    /// file whose readiness never changes.
    fn poll_wait(&self) -> poll::PollWait<'_> {
        poll::PollWait::Never
    }
    /// The tmpfs inode, for a file opened by name (fchdir, *at calls
    /// relative to a directory descriptor, fchmod, ftruncate...).
    fn inode(&self) -> Option<&tmpfs::Node> {
        None
    }
    /// The process a pidfd names (`event::pidfd`); None for other files.
    fn pidfd(&self) -> Option<u32> {
        None
    }
    /// An anonymous-inode file's kind as /proc/<pid>/fd links name it
    /// ("[eventfd]", "[pidfd]", "[signalfd]"); None for other files.
    fn anon_name(&self) -> Option<&'static str> {
        None
    }
    /// signalfd4 on an existing descriptor: a signalfd takes the new mask;
    /// any other file is EINVAL.
    fn set_signal_mask(&self, _mask: sigil_core::signal::SigSet) -> Result<(), Errno> {
        Err(Errno::EINVAL)
    }
    /// timerfd_settime/gettime: the timerfd behind the descriptor, if it
    /// is one (else EINVAL, as Linux's `timerfd_fget`).
    fn timerfd(&self) -> Option<&crate::event::timerfd::TimerFd> {
        None
    }
    /// epoll_ctl/epoll_wait: the epoll set behind the descriptor, if any.
    fn epoll(&self) -> Option<&crate::event::epoll::Epoll> {
        None
    }
    /// Can epoll watch this file (Linux `file_can_poll`)? A file that never
    /// says its readiness changes has no poll: regular files, directories,
    /// /dev/null, /proc files (epoll_ctl says EPERM).
    fn can_poll(&self) -> bool {
        !matches!(self.poll_wait(), poll::PollWait::Never)
    }
}

/// The console terminal (`dev::tty`), opened under one of its names:
/// PID 1's fd 0-2 and /dev/console are 5:1, /dev/tty 5:0, /dev/ttyS0 4:64.
/// Every open shares the one terminal; each has its own status flags. It is
/// always opened through its node (`devices::DeviceFile`), which stat reports.
pub struct Console {
    flags: StatusFlags,
    rdev: (u32, u32),
}

impl Console {
    pub fn new(open_flags: u32, rdev: (u32, u32)) -> Console {
        Console { flags: StatusFlags::new(open_flags), rdev }
    }
}

impl FileOps for Console {
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        crate::dev::tty::read_user(buf, len, self.flags.nonblocking())
    }
    fn write(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        crate::dev::tty::write_user(buf, len)
    }
    fn ioctl(&self, req: u32, arg: u32) -> Result<u32, Errno> {
        crate::dev::tty::ioctl(req, arg)
    }
    fn status(&self) -> Option<&StatusFlags> {
        Some(&self.flags)
    }
    fn poll_ready(&self) -> u16 {
        crate::dev::tty::poll_ready()
    }
    fn poll_wait(&self) -> poll::PollWait<'_> {
        crate::dev::tty::poll_wait()
    }
    fn opened(&self, open_flags: u32) -> Result<(), Errno> {
        crate::dev::tty::opened(self.rdev, open_flags & flags::O_NOCTTY != 0)
    }
}

pub type File = dyn FileOps;

/// A descriptor: the open file and the close-on-exec flag.
#[derive(Clone)]
pub struct Fd {
    file: Arc<File>,
    /// `Arc::as_ptr(&file)`, kept beside it: reaching the object through
    /// the `Arc` of a `dyn FileOps` computes its offset in the allocation
    /// from the vtable's alignment on every call (a load and four
    /// instructions), and `ioctl` pays that on every SYNC_PTR.
    ops: NonNull<File>,
    pub cloexec: bool,
}

impl Fd {
    pub fn new(file: Arc<File>, cloexec: bool) -> Fd {
        let ops = NonNull::from(&*file);
        Fd { file, ops, cloexec }
    }

    pub fn into_file(self) -> Arc<File> {
        self.file
    }

    /// The open file's operations, borrowed for as long as the descriptor.
    #[inline(always)]
    pub fn ops(&self) -> &File {
        // SAFETY: `ops` points at the object `file` holds (set from it in
        // `new`, and `file` is never replaced), and `file` keeps it alive
        // for as long as `self` is borrowed.
        unsafe { self.ops.as_ref() }
    }
}

/// A descriptor table, held by the threads and processes that share it
/// (`proc::share`): index = fd number. New ones are made below
/// a `limit` the caller passes: the process's RLIMIT_NOFILE soft limit
/// (`Limits::nofile`); those already open stay when it is lowered, as on
/// Linux.
pub struct FdTable {
    fds: Vec<Option<Fd>>,
}

/// The table's size: RLIMIT_NOFILE can be no higher.
pub const MAX_FDS: usize = sigil_core::rlimit::NR_OPEN;

impl FdTable {
    /// stdin, stdout and stderr on /dev/console (PID 1's table, as Linux's
    /// init gets it).
    pub fn console() -> FdTable {
        let dev = walk::child(&tmpfs::root(), "dev");
        let node = dev.and_then(|d| walk::child(&d, "console")).expect("devices::populate at boot");
        let c = devices::open("/dev/console", &node, flags::O_RDWR).expect("heap at boot");
        let fd = || Some(Fd::new(c.clone(), false));
        FdTable { fds: alloc::vec![fd(), fd(), fd()] }
    }

    pub fn get(&self, fd: u32) -> Result<&Arc<File>, Errno> {
        self.entry(fd).map(|f| &f.file)
    }

    /// The file at `fd`, borrowed from the table (`Fd::ops`).
    #[inline(always)]
    pub fn ops(&self, fd: u32) -> Result<&File, Errno> {
        self.entry(fd).map(|f| f.ops())
    }

    /// The descriptor itself (file and close-on-exec flag).
    pub fn entry(&self, fd: u32) -> Result<&Fd, Errno> {
        self.fds.get(fd as usize).and_then(|f| f.as_ref()).ok_or(Errno::EBADF)
    }

    /// F_SETFD.
    pub fn set_cloexec(&mut self, fd: u32, on: bool) -> Result<(), Errno> {
        let e = self.fds.get_mut(fd as usize).and_then(|f| f.as_mut()).ok_or(Errno::EBADF)?;
        e.cloexec = on;
        Ok(())
    }

    /// Installs `file` at the lowest free descriptor >= `min` and < `limit`.
    pub fn install(
        &mut self,
        file: Arc<File>,
        min: usize,
        cloexec: bool,
        limit: usize,
    ) -> Result<u32, Errno> {
        let slot = (min..limit)
            .find(|&i| self.fds.get(i).is_none_or(|f| f.is_none()))
            .ok_or(Errno::EMFILE)?;
        if slot >= self.fds.len() {
            self.fds.resize(slot + 1, None);
        }
        self.fds[slot] = Some(Fd::new(file, cloexec));
        Ok(slot as u32)
    }

    /// Puts `file` at exactly `fd` (dup2) and hands back what was there, for
    /// the caller to drop once it no longer holds the table (closing a pipe
    /// end wakes processes).
    pub fn install_at(
        &mut self,
        fd: u32,
        file: Arc<File>,
        cloexec: bool,
        limit: usize,
    ) -> Result<Option<Fd>, Errno> {
        let i = fd as usize;
        if i >= limit {
            return Err(Errno::EBADF);
        }
        if i >= self.fds.len() {
            self.fds.resize(i + 1, None);
        }
        Ok(self.fds[i].replace(Fd::new(file, cloexec)))
    }

    /// Removes `fd` and returns it (to be dropped outside the table, as above).
    pub fn close(&mut self, fd: u32) -> Result<Fd, Errno> {
        self.fds.get_mut(fd as usize).and_then(|f| f.take()).ok_or(Errno::EBADF)
    }

    pub fn close_on_exec(&mut self) {
        for f in self.fds.iter_mut() {
            if f.as_ref().is_some_and(|d| d.cloexec) {
                *f = None;
            }
        }
    }
}

/// Where relative paths start and which mode bits new files lose (Linux's
/// `fs_struct`), held as the table is (`proc::share`).
#[derive(Clone)]
pub struct FsState {
    pub cwd: tmpfs::Node,
    pub umask: u32,
}

/// The types a thread holds, which `proc::share` declares but leaves to fs
/// (as sched.h declares `struct files_struct;`): proc holds, shares,
/// copies and drops them and calls nothing else of them.
impl Held for Kernel {
    type FdTable = FdTable;
    type FsState = FsState;
}

/// fork's and unshare's copies (`proc::share`): the table's entries are
/// a heap list, copied fallibly.
impl TryClone for FdTable {
    fn try_clone(&self) -> Result<FdTable, Errno> {
        let mut fds = Vec::new();
        fds.try_reserve_exact(self.fds.len()).map_err(|_| Errno::ENOMEM)?;
        fds.extend(self.fds.iter().cloned());
        Ok(FdTable { fds })
    }
}

impl TryClone for FsState {
    fn try_clone(&self) -> Result<FsState, Errno> {
        Ok(self.clone())
    }
}

impl FsState {
    /// PID 1's: the root, and the umask Linux's init starts with.
    pub fn boot() -> FsState {
        FsState { cwd: tmpfs::root(), umask: 0o022 }
    }
}
