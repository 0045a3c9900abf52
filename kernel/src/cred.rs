//! The running process's credentials, and the permission check every
//! signal from user space passes.
//!
//! The rules are sigil-core's (`sigil_core::cred`); the credentials live in
//! each thread group (`proc::Group::cred`): fork copies them, exec keeps
//! them (with the saved ids reset, `Cred::exec`). Other subsystems ask here:
//! the file system's permission checks take [`current`], the signal system
//! calls and `proc::group::send` take [`may_signal`].

use sigil_core::abi::Errno;
use sigil_core::cred::{self, Cred, SignalTarget};

use crate::proc::{self, Group};

/// The current process's credentials (root during boot, before PID 1).
pub fn current() -> Cred {
    proc::try_current().map_or(Cred::ROOT, |t| t.group().cred)
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
