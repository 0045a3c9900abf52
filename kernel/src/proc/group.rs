//! Process groups and sessions: the ids each process carries and the system
//! calls that change them. Sending a signal to a whole group (kill()'s
//! broadcast, a terminal's Ctrl-C, the SIGHUP of an orphaned group) is the
//! signal layer's: `signal::kill::send` selects the processes by these ids.
//!
//! The rules are sigil-core's (`sigil_core::job`); this module applies them
//! to the process table. A group or a session is not an object here: it is
//! the set of processes carrying its id, so it lives exactly as long as it
//! has a member (Linux keeps a `struct pid` per group for the same answer).
//!
//! Where job-control state lives:
//! - `JobIds`, in each thread group (`proc::Group`, a process): the group,
//!   the session, and whether the process has exec'd since fork. Linux keeps
//!   pgid and sid in `signal_struct`, shared by the threads, so every thread
//!   reports the same ids and a kill to a group reaches each process once;
//!   the exec mark is the group's too, since an exec from any thread makes
//!   that thread the leader (`exec::de_thread`).
//! - The foreground group of a session's controlling terminal belongs to the
//!   terminal, as in Linux (`tty->pgrp`, `tty->session`): the console's tty
//!   keeps (session, foreground pgrp) and signals the foreground group with
//!   `signal::kill::send(KillTarget::Group(pgrp), ...)`.

use sigil_core::abi::Errno;
use sigil_core::job::group::{check_setpgid, check_setsid, resolve_setpgid, Ids};
use sigil_core::job::Member;

use super::{all, get, group, thread, Group};

/// A process's place in job control (Linux `task_pgrp`, `task_session`,
/// `PF_FORKNOEXEC`). Fork copies it with `execed` clear; exec sets `execed`.
#[derive(Clone, Copy, Debug, Default)]
pub struct JobIds {
    pub pgid: u32,
    pub sid: u32,
    pub execed: bool,
}

impl JobIds {
    /// A forked child's ids: its parent's group and session.
    pub fn fork(&self) -> JobIds {
        JobIds { execed: false, ..*self }
    }
}

impl Group {
    /// This process as the job-control rules see it.
    pub fn member(&self) -> Member {
        Member {
            pid: self.pid,
            ppid: self.ppid,
            pgid: self.job.pgid,
            sid: self.job.sid,
            stopped: self.stop.is_some(),
            zombie: self.zombie,
        }
    }

    fn ids(&self) -> Ids {
        Ids {
            pid: self.pid,
            ppid: self.ppid,
            pgid: self.job.pgid,
            sid: self.job.sid,
            execed: self.job.execed,
        }
    }
}

/// The session of some member of group `pgid`, if the group exists.
fn group_session(pgid: u32) -> Option<u32> {
    all().find(|p| p.job.pgid == pgid).map(|p| p.job.sid)
}

/// setpgid(pid, pgid). A thread's id other than its leader's is EINVAL, as
/// in Linux (`thread_group_leader`): the ids are the whole process's.
pub fn setpgid(pid: i32, pgid: i32) -> Result<u32, Errno> {
    let me = group();
    let (pid, pgid) = resolve_setpgid(me.pid, pid, pgid)?;
    let caller = me.ids();
    let target =
        get(pid).ok_or_else(|| if thread(pid).is_some() { Errno::EINVAL } else { Errno::ESRCH })?;
    check_setpgid(&caller, &target.ids(), pgid, group_session(pgid))?;
    get(pid).ok_or(Errno::ESRCH)?.job.pgid = pgid;
    Ok(0)
}

/// The process `pid` names for getpgid/getsid: 0 is the caller, and any
/// thread's id names its process, as on Linux.
fn lookup(pid: i32) -> Result<&'static mut Group, Errno> {
    match pid {
        0 => Ok(group()),
        p if p < 0 => Err(Errno::ESRCH),
        p => get(p as u32).or_else(|| thread(p as u32).map(|t| t.group())).ok_or(Errno::ESRCH),
    }
}

/// getpgid(pid) (getpgrp is getpgid(0)).
pub fn getpgid(pid: i32) -> Result<u32, Errno> {
    lookup(pid).map(|p| p.job.pgid)
}

/// getsid(pid).
pub fn getsid(pid: i32) -> Result<u32, Errno> {
    lookup(pid).map(|p| p.job.sid)
}

/// setsid(): a new session and group, both with the caller's pid, and no
/// controlling terminal. Returns the new session id.
pub fn setsid() -> Result<u32, Errno> {
    let pid = group().pid;
    check_setsid(all().any(|p| p.job.pgid == pid))?;
    let me = group();
    me.job.pgid = pid;
    me.job.sid = pid;
    Ok(pid)
}
