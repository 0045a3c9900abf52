//! pidfd: a descriptor naming a process (Linux `kernel/pid.c`), so that a
//! signal reaches the process it was opened for (pidfd_send_signal).
//!
//! The descriptor keeps the pid number. Linux keeps a reference to the
//! `struct pid`, so its pidfd can never reach a later process that reuses
//! the number; Sigil's pids wrap only after 32767 ids, and until then the
//! number names one process. Poll on a pidfd (readable when the process
//! exits) is not implemented: it never reports ready.

use alloc::sync::Arc;

use crate::fs::{File, FileOps, Stat};

pub struct PidFd {
    pub pid: u32,
}

pub fn new(pid: u32) -> Arc<File> {
    Arc::new(PidFd { pid })
}

impl FileOps for PidFd {
    fn stat(&self) -> Stat {
        crate::fs::Stat::anon()
    }
    fn poll_ready(&self) -> u16 {
        0
    }
    fn pidfd(&self) -> Option<u32> {
        Some(self.pid)
    }
    fn anon_name(&self) -> Option<&'static str> {
        Some("[pidfd]")
    }
}
