//! pidfd: a descriptor naming a process (Linux `kernel/pid.c`), so that a
//! signal reaches the process it was opened for (pidfd_send_signal), a
//! poll learns when it ends, and waitid(P_PIDFD) waits for it.
//!
//! The descriptor keeps the pid number. Linux keeps a reference to the
//! `struct pid`, so its pidfd can never reach a later process that reuses
//! the number; Sigil's pids wrap only after 32767 ids, and until then the
//! number names one process. Poll reports POLLIN once the process has
//! ended (a zombie, or reaped): every process end wakes the pollers of
//! all pidfds (`proc::wait::EXITED`), and each looks at its own.

use alloc::sync::Arc;

use sigil_core::abi::Errno;

use crate::fs::poll::PollWait;
use crate::fs::{flags, File, FileOps, StatusFlags, POLLIN};
use crate::mm::heap;
use crate::proc;

pub struct PidFd {
    pub pid: u32,
    /// O_RDWR, and O_NONBLOCK from PIDFD_NONBLOCK (waitid then does not wait).
    flags: StatusFlags,
}

/// pidfd_open's file for `pid`, O_NONBLOCK from `oflags`.
pub fn new(pid: u32, oflags: u32) -> Result<Arc<File>, Errno> {
    let flags = StatusFlags::new(flags::O_RDWR | oflags & flags::O_NONBLOCK);
    Ok(heap::arc(PidFd { pid, flags })?)
}

/// The pid the caller's descriptor `fd` names, and whether the descriptor
/// is O_NONBLOCK: EBADF if `fd` is not open or is not a pidfd (Linux
/// `pidfd_get_pid`, which pidfd_send_signal and waitid(P_PIDFD) share).
pub fn target(fd: u32) -> Result<(u32, bool), Errno> {
    let f = proc::share::files().get(fd)?;
    let pid = f.pidfd().ok_or(Errno::EBADF)?;
    Ok((pid, f.status_flags() & flags::O_NONBLOCK != 0))
}

impl FileOps for PidFd {
    fn status(&self) -> Option<&StatusFlags> {
        Some(&self.flags)
    }
    fn poll_ready(&self) -> u16 {
        match proc::get(self.pid) {
            Some(g) if !g.zombie => 0,
            _ => POLLIN,
        }
    }
    fn poll_wait(&self) -> PollWait<'_> {
        PollWait::Queue(proc::wait::EXITED.get())
    }
    fn pidfd(&self) -> Option<u32> {
        Some(self.pid)
    }
    fn anon_name(&self) -> Option<&'static str> {
        Some("[pidfd]")
    }
}
