//! Files: what a file descriptor can refer to, and the per-process table.
//!
//! Sigil has no disk: files are the console, pipes, initramfs entries opened
//! read-only, and device nodes (`devices.rs`: /dev/null, /dev/snd/pcmC0D0p).
//! Each kind implements `FileOps`. An open file is shared (`Arc`) between the
//! descriptors dup and fork make, with one offset, as POSIX says.

pub mod devices;
pub mod initramfs;

use alloc::sync::Arc;
use alloc::vec::Vec;

use sigil_core::abi::Errno;

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
}

/// The console (fd 0-2 of PID 1).
pub struct Console;

impl FileOps for Console {
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        crate::dev::console::read_user(buf, len)
    }
    fn write(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        crate::dev::console::write_user(buf, len)
    }
}

pub type File = dyn FileOps;

#[derive(Clone)]
pub struct Fd {
    pub file: Arc<File>,
    pub cloexec: bool,
}

/// A process's descriptors: index = fd number.
#[derive(Clone)]
pub struct FdTable {
    fds: Vec<Option<Fd>>,
}

/// RLIMIT_NOFILE.
pub const MAX_FDS: usize = 256;

impl FdTable {
    /// stdin, stdout and stderr on the console (PID 1's table).
    pub fn console() -> FdTable {
        let c: Arc<File> = Arc::new(Console);
        let fd = || Some(Fd { file: c.clone(), cloexec: false });
        FdTable { fds: alloc::vec![fd(), fd(), fd()] }
    }

    pub fn get(&self, fd: u32) -> Result<&Arc<File>, Errno> {
        self.fds.get(fd as usize).and_then(|f| f.as_ref()).map(|f| &f.file).ok_or(Errno::EBADF)
    }

    /// Installs `file` at the lowest free descriptor >= `min`.
    pub fn install(&mut self, file: Arc<File>, min: usize, cloexec: bool) -> Result<u32, Errno> {
        let slot = (min..MAX_FDS).find(|&i| self.fds.get(i).map_or(true, |f| f.is_none())).ok_or(Errno::EMFILE)?;
        if slot >= self.fds.len() {
            self.fds.resize(slot + 1, None);
        }
        self.fds[slot] = Some(Fd { file, cloexec });
        Ok(slot as u32)
    }

    /// Puts `file` at exactly `fd` (dup2), closing what was there.
    pub fn install_at(&mut self, fd: u32, file: Arc<File>, cloexec: bool) -> Result<(), Errno> {
        let i = fd as usize;
        if i >= MAX_FDS {
            return Err(Errno::EBADF);
        }
        if i >= self.fds.len() {
            self.fds.resize(i + 1, None);
        }
        self.fds[i] = Some(Fd { file, cloexec });
        Ok(())
    }

    pub fn close(&mut self, fd: u32) -> Result<(), Errno> {
        self.fds.get_mut(fd as usize).and_then(|f| f.take()).map(|_| ()).ok_or(Errno::EBADF)
    }

    pub fn close_all(&mut self) {
        self.fds.clear();
    }

    pub fn close_on_exec(&mut self) {
        for f in self.fds.iter_mut() {
            if f.as_ref().is_some_and(|d| d.cloexec) {
                *f = None;
            }
        }
    }
}
