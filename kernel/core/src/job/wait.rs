//! wait4 and waitid: which children a call selects, which of their events
//! it reports, and the siginfo waitid fills in.
//!
//! Linux `kernel/exit.c` (`do_wait`, `wait_consider_task`):
//! - wait4(pid): `pid > 0` that child, `-1` any child, `0` any child in the
//!   caller's group, `< -1` any child in group `-pid`. waitid(idtype, id):
//!   P_PID, P_PGID (id 0: the caller's group), P_ALL, and P_PIDFD once the
//!   caller has resolved the descriptor to a pid.
//! - Events: an exit (WEXITED, always on for wait4), a stop (WSTOPPED, which
//!   wait4 spells WUNTRACED), a continue (WCONTINUED). Each is reported once,
//!   unless WNOWAIT (waitid only) leaves it to be reported again.
//! - No selected child at all is ECHILD; selected children with nothing to
//!   report block, or return 0 with WNOHANG.
//! - A parent whose SIGCHLD is SIG_IGN, or has SA_NOCLDWAIT, gets no zombies:
//!   its children are reaped as they exit (`autoreap`).

use super::Member;
use crate::abi::{self, wait_status, Errno};
use crate::signal::{Disposition, SigAction, SigInfo};

/// Linux's internal wait flags, accepted by both calls.
pub const WNOTHREAD: u32 = 0x2000_0000;
pub const WALL: u32 = 0x4000_0000;
pub const WCLONE: u32 = 0x8000_0000;
const INTERNAL: u32 = WNOTHREAD | WALL | WCLONE;

/// waitid's idtype.
pub const P_ALL: u32 = 0;
pub const P_PID: u32 = 1;
pub const P_PGID: u32 = 2;
/// The child a pidfd names: the caller resolves the descriptor, then
/// waits for `WaitFor::Pid` (`from_waitid` alone cannot).
pub const P_PIDFD: u32 = 3;

/// The children one wait call selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitFor {
    Pid(u32),
    Group(u32),
    Any,
}

impl WaitFor {
    /// wait4's pid argument, for a caller in group `caller_pgid`.
    pub fn from_wait4(pid: i32, caller_pgid: u32) -> WaitFor {
        match pid {
            -1 => WaitFor::Any,
            0 => WaitFor::Group(caller_pgid),
            p if p > 0 => WaitFor::Pid(p as u32),
            p => WaitFor::Group(p.unsigned_abs()),
        }
    }

    /// waitid's (idtype, id); EINVAL for an unknown type or a negative id.
    /// P_PID 0 selects nothing (ECHILD later), as in Linux.
    pub fn from_waitid(idtype: u32, id: i32, caller_pgid: u32) -> Result<WaitFor, Errno> {
        match idtype {
            P_ALL => Ok(WaitFor::Any),
            P_PID if id >= 0 => Ok(WaitFor::Pid(id as u32)),
            P_PGID if id == 0 => Ok(WaitFor::Group(caller_pgid)),
            P_PGID if id > 0 => Ok(WaitFor::Group(id as u32)),
            _ => Err(Errno::EINVAL),
        }
    }

    /// Does this call select child `c`?
    pub fn selects(self, c: &Member) -> bool {
        match self {
            WaitFor::Pid(p) => c.pid == p,
            WaitFor::Group(g) => c.pgid == g,
            WaitFor::Any => true,
        }
    }
}

/// wait4's options, checked, as waitid flags (WEXITED added, WUNTRACED is
/// WSTOPPED).
pub fn wait4_options(options: u32) -> Result<u32, Errno> {
    if options & !(abi::WNOHANG | abi::WUNTRACED | abi::WCONTINUED | INTERNAL) != 0 {
        return Err(Errno::EINVAL);
    }
    Ok(options | abi::WEXITED)
}

/// waitid's options, checked: at least one of WEXITED, WSTOPPED, WCONTINUED.
pub fn waitid_options(options: u32) -> Result<u32, Errno> {
    let events = abi::WEXITED | abi::WUNTRACED | abi::WCONTINUED;
    if options & !(abi::WNOHANG | abi::WNOWAIT | events | INTERNAL) != 0 || options & events == 0 {
        return Err(Errno::EINVAL);
    }
    Ok(options)
}

/// Something a child has to tell its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildEvent {
    /// It ended: a wait status word (exited or killed).
    Exited(u32),
    /// It was stopped by this signal.
    Stopped(u32),
    /// SIGCONT resumed it.
    Continued,
}

impl ChildEvent {
    /// Does a wait with `options` (waitid flags) report this event?
    pub fn wanted(self, options: u32) -> bool {
        let bit = match self {
            ChildEvent::Exited(_) => abi::WEXITED,
            ChildEvent::Stopped(_) => abi::WUNTRACED,
            ChildEvent::Continued => abi::WCONTINUED,
        };
        options & bit != 0
    }

    /// The status word wait4 stores.
    pub fn status(self) -> u32 {
        match self {
            ChildEvent::Exited(st) => st,
            ChildEvent::Stopped(sig) => wait_status::stopped(sig),
            ChildEvent::Continued => wait_status::CONTINUED,
        }
    }

    /// The SIGCHLD siginfo for this event of child `pid` (what the parent's
    /// signal carries and waitid stores): CLD_* and the exit code or signal.
    pub fn siginfo(self, pid: u32, uid: u32) -> SigInfo {
        let (code, st) = match self {
            ChildEvent::Exited(st) => match wait_status::decode_exit(st) {
                Ok(code) => (abi::CLD_EXITED, code),
                Err((sig, true)) => (abi::CLD_DUMPED, sig),
                Err((sig, false)) => (abi::CLD_KILLED, sig),
            },
            ChildEvent::Stopped(sig) => (abi::CLD_STOPPED, sig),
            ChildEvent::Continued => (abi::CLD_CONTINUED, abi::SIGCONT),
        };
        SigInfo::chld(code, pid, uid, st)
    }
}

/// The first words of the siginfo waitid writes: si_signo, si_errno,
/// si_code, si_pid, si_uid, si_status (Linux writes exactly these six; all
/// zero when WNOHANG found nothing).
pub const WAITID_WORDS: usize = 6;

/// What a child's exit does, by its parent's SIGCHLD action: (reap it at
/// once instead of leaving a zombie, send SIGCHLD). SIG_IGN reaps and sends
/// nothing; SA_NOCLDWAIT reaps and still sends the signal (Linux
/// `do_notify_parent`).
pub fn autoreap(parent_chld: &SigAction) -> (bool, bool) {
    let ignored = parent_chld.disposition() == Disposition::Ignore;
    (ignored || parent_chld.flags() & abi::SA_NOCLDWAIT != 0, !ignored)
}
