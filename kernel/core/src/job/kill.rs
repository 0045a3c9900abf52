//! kill(pid, sig): whom it reaches, and what it returns when it reaches many.
//!
//! Linux `kill_something_info`:
//! - `pid > 0`: that process.
//! - `pid == 0`: every member of the caller's process group.
//! - `pid == -1`: every process except PID 1 and the caller.
//! - `pid < -1`: every member of group `-pid`.
//! - `pid == INT_MIN`: ESRCH (its negation overflows; Linux refuses it).
//!
//! A broadcast that reaches nobody is ESRCH. To a group, it succeeds if any
//! one send succeeded; if all failed, the last error is returned
//! (`__kill_pgrp_info`). To everyone, the result is the last send's that was
//! not refused for permission (EPERM), or 0: an unprivileged kill(-1) that
//! may signal none of the processes it selects returns 0, as Linux's
//! `kill_something_info` does. Signal 0 sends
//! nothing but runs the same selection: the existence check.

use super::Member;
use crate::abi::Errno;

/// The processes one kill() call selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KillTarget {
    /// One process (pid > 0).
    Pid(u32),
    /// A process group (pid 0: the caller's; pid < -1: group -pid).
    Group(u32),
    /// Everyone but PID 1 and the caller (pid -1).
    Everyone,
}

/// Decodes kill's pid argument for a caller in group `caller_pgid`.
pub fn kill_target(pid: i32, caller_pgid: u32) -> Result<KillTarget, Errno> {
    Ok(match pid {
        i32::MIN => return Err(Errno::ESRCH),
        p if p > 0 => KillTarget::Pid(p as u32),
        0 => KillTarget::Group(caller_pgid),
        -1 => KillTarget::Everyone,
        p => KillTarget::Group(p.unsigned_abs()),
    })
}

impl KillTarget {
    /// Does this target include process `m`, for a kill() from `caller`?
    pub fn selects(self, m: &Member, caller: u32) -> bool {
        match self {
            KillTarget::Pid(pid) => m.pid == pid,
            KillTarget::Group(g) => m.pgid == g,
            KillTarget::Everyone => m.pid > 1 && m.pid != caller,
        }
    }
}

/// Folds the results of the sends of one broadcast into kill's result.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outcome {
    reached: bool,
    succeeded: bool,
    last_err: Option<Errno>,
    /// kill(-1): EPERM is not an error, and the last other result wins.
    ignore_eperm: bool,
}

impl Outcome {
    /// The fold for the sends of one kill() to `target`.
    pub fn for_target(target: KillTarget) -> Outcome {
        Outcome { ignore_eperm: target == KillTarget::Everyone, ..Outcome::default() }
    }

    /// Records one send's result.
    pub fn add(&mut self, r: Result<(), Errno>) {
        self.reached = true;
        match r {
            Err(Errno::EPERM) if self.ignore_eperm => {}
            Ok(()) if self.ignore_eperm => self.last_err = None,
            Ok(()) => self.succeeded = true,
            Err(e) => self.last_err = Some(e),
        }
    }

    /// kill's return: ESRCH if nothing was selected, success if one send
    /// succeeded, else the last error.
    pub fn result(self) -> Result<(), Errno> {
        match (self.reached, self.succeeded, self.last_err) {
            (false, _, _) => Err(Errno::ESRCH),
            (true, true, _) | (true, false, None) => Ok(()),
            (true, false, Some(e)) => Err(e),
        }
    }
}
