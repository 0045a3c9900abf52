//! setpgid and setsid: who may move which process into which group.
//!
//! Linux `sys_setpgid` / `ksys_setsid`, rule by rule (the order decides
//! which errno a call that breaks several rules gets):
//! - pid 0 means the caller, pgid 0 means "the target's own pid"; a negative
//!   pgid is EINVAL, a pid that names no process ESRCH.
//! - The target is the caller or one of its children; anyone else is ESRCH.
//!   A child in another session is EPERM; a child that has called execve
//!   since fork is EACCES (a shell must place its children before exec).
//! - A session leader cannot change group (EPERM).
//! - Joining an existing group needs a member of it in the caller's session
//!   (EPERM otherwise); pgid = target's pid makes a new group.
//! - setsid fails (EPERM) for a group leader - more exactly, whenever a group
//!   with the caller's pid as its id exists - since the new session's group
//!   would collide with it.

use crate::abi::Errno;

/// setpgid's arguments with the zeros resolved: (target pid, new pgid).
/// pgid 0 becomes the pid *as given*, so `setpgid(-5, 0)` is EINVAL like a
/// negative pgid (Linux checks the pgid first); another negative pid names
/// no process (ESRCH).
pub fn resolve_setpgid(caller: u32, pid: i32, pgid: i32) -> Result<(u32, u32), Errno> {
    let pid = if pid == 0 { caller as i32 } else { pid };
    let pgid = if pgid == 0 { pid } else { pgid };
    if pgid < 0 {
        return Err(Errno::EINVAL);
    }
    if pid < 0 {
        return Err(Errno::ESRCH);
    }
    Ok((pid as u32, pgid as u32))
}

/// The job-control ids of the caller or the target of setpgid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ids {
    pub pid: u32,
    pub ppid: u32,
    pub pgid: u32,
    pub sid: u32,
    /// Has called execve since it was forked (Linux: `PF_FORKNOEXEC` clear).
    pub execed: bool,
}

/// May `caller` move `target` into group `pgid`? `group_sid` is the session
/// of an existing group `pgid` (any member's), `None` if there is none.
pub fn check_setpgid(
    caller: &Ids,
    target: &Ids,
    pgid: u32,
    group_sid: Option<u32>,
) -> Result<(), Errno> {
    if target.pid != caller.pid {
        if target.ppid != caller.pid {
            return Err(Errno::ESRCH);
        }
        if target.sid != caller.sid {
            return Err(Errno::EPERM);
        }
        if target.execed {
            return Err(Errno::EACCES);
        }
    }
    if target.sid == target.pid {
        return Err(Errno::EPERM);
    }
    if pgid != target.pid && group_sid != Some(caller.sid) {
        return Err(Errno::EPERM);
    }
    Ok(())
}

/// May `caller` start a session? `group_exists` says whether some process
/// has the caller's pid as its group id.
pub fn check_setsid(group_exists: bool) -> Result<(), Errno> {
    if group_exists {
        Err(Errno::EPERM)
    } else {
        Ok(())
    }
}
