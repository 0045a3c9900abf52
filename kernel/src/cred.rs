//! The running process's credentials, and the permission check every
//! signal from user space passes.
//!
//! The rules are sigil-core's (`sigil_core::cred`); the credentials live in
//! each thread group (`proc::Group::cred`): fork copies them, exec keeps
//! them (with the saved ids reset, `Cred::exec`). Other subsystems ask here:
//! the file system's permission checks take [`current`], the signal system
//! calls and `signal::kill::send` take [`may_signal`].
//!
//! Each process also holds its real user's [`UserCounts`], shared by every
//! process of that user, so RLIMIT_SIGPENDING and the POSIX timer budget
//! are per user, as Linux's `ucounts` make them.

use alloc::rc::Rc;
use core::cell::Cell;

use sigil_core::abi::Errno;
use sigil_core::cred::{self, Cred, SignalTarget};
use sigil_core::signal::queue::UserCount;

use crate::proc::{self, Group};

/// The current process's credentials (root during boot, before PID 1).
pub fn current() -> Cred {
    proc::try_current().map_or(Cred::ROOT, |t| t.group().cred)
}

/// What the processes of one real uid count together: the signals queued
/// to them and their POSIX timers (each thing counted holds a
/// `queue::Charge`). Freed with the last process and the last charge.
#[derive(Clone, Default)]
pub struct UserCounts {
    pub sigpending: UserCount,
    pub timers: UserCount,
}

impl UserCounts {
    /// The counts of real uid `uid`: those another process of it holds
    /// (not `except`, the caller changing its uid), else new ones.
    pub fn of(uid: u32, except: u32) -> UserCounts {
        proc::all()
            .find(|g| g.pid != except && g.cred.uid.real == uid)
            .map_or_else(UserCounts::new, |g| g.user.clone())
    }

    pub fn new() -> UserCounts {
        UserCounts { sigpending: Rc::new(Cell::new(0)), timers: Rc::new(Cell::new(0)) }
    }
}

/// May the current process send signal `sig` (0: the existence check) to
/// process `target`? Linux `check_kill_permission` for a signal from user
/// space (kill, tgkill, tkill, rt_sigqueueinfo, rt_tgsigqueueinfo,
/// pidfd_send_signal): EPERM unless allowed.
pub fn may_signal(target: &Group, sig: u32) -> Result<(), Errno> {
    let me = proc::group();
    let t = SignalTarget {
        cred: &target.cred,
        sid: target.job.sid,
        same_process: me.pid == target.pid,
    };
    cred::may_signal(&me.cred, me.job.sid, sig, &t)
}
