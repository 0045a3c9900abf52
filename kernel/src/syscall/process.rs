//! Process system calls: exit, exit_group, execve, wait4/waitid, and the
//! process-group and session calls (setpgid, getpgid, getpgrp, setsid,
//! getsid), and prctl's child-subreaper pair; fork and clone are in thread.rs.

use sigil_core::abi::{self, wait_status, Errno};
use sigil_core::job::wait::{self, WaitFor};
use sigil_core::time::cputime::CpuTimes;

use super::SysResult;
use crate::arch::TrapFrame;
use crate::event::pidfd;
use crate::proc;
use crate::uaccess::{put_user, UserWindow, Write};

/// exit: ends the calling thread (the process, if it is the last).
pub fn exit(code: u32) -> SysResult {
    crate::signal::exit::exit(wait_status::exited(code & 0xff))
}

/// exit_group: ends every thread of the process.
pub fn exit_group(code: u32) -> SysResult {
    crate::signal::exit::exit_group(wait_status::exited(code & 0xff))
}

pub fn execve(tf: &mut TrapFrame, path: u32, argv: u32, envp: u32) -> SysResult {
    crate::fs::exec::execve(tf, path, argv, envp)
}

/// wait4(pid, &status, options, &rusage): the rusage holds the child's CPU
/// time and its reaped children's (Linux `getrusage(RUSAGE_BOTH)`), written
/// only when a child is reported.
pub fn wait4(pid: i32, status: u32, options: u32, rusage: u32) -> SysResult {
    let options = wait::wait4_options(options)?;
    let sel = WaitFor::from_wait4(pid, proc::group().job.pgid);
    let Some(found) = proc::wait::wait(sel, options)? else { return Ok(0) };
    if status != 0 {
        put_user(status, found.event.status())?;
    }
    put_rusage(rusage, found.cpu)?;
    Ok(found.pid)
}

/// waitid(idtype, id, &info, options, &rusage): the event as a SIGCHLD
/// siginfo (all zero when WNOHANG finds nothing); returns 0.
pub fn waitid(idtype: u32, id: i32, info: u32, options: u32, rusage: u32) -> SysResult {
    let mut options = wait::waitid_options(options)?;
    let mut nonblock = false;
    let sel = if idtype == wait::P_PIDFD {
        // Linux `kernel_waitid`: EINVAL for a negative descriptor, then
        // `pidfd_get_pid`'s EBADF; a PIDFD_NONBLOCK one makes the wait
        // WNOHANG and "nothing yet" EAGAIN.
        let (pid, nb) = pidfd::target(u32::try_from(id).map_err(|_| Errno::EINVAL)?)?;
        nonblock = nb;
        WaitFor::Pid(pid)
    } else {
        WaitFor::from_waitid(idtype, id, proc::group().job.pgid)?
    };
    let asked_wnohang = options & abi::WNOHANG != 0;
    if nonblock {
        options |= abi::WNOHANG;
    }
    let found = proc::wait::wait(sel, options)?;
    if found.is_none() && nonblock && !asked_wnohang {
        return Err(Errno::EAGAIN);
    }
    if info != 0 {
        let words = found.as_ref().map_or([0; 8], |f| *f.event.siginfo(f.pid, 0).words());
        let mut w = UserWindow::open(info, 4 * wait::WAITID_WORDS as u32, Write)?;
        w.put_slice(0, &words[..wait::WAITID_WORDS]);
        w.finish()?;
    }
    if let Some(f) = found {
        put_rusage(rusage, f.cpu)?;
    }
    Ok(0)
}

fn put_rusage(rusage: u32, cpu: CpuTimes) -> Result<(), Errno> {
    if rusage != 0 {
        let ru = sigil_core::time::cputime::encode_rusage(cpu);
        crate::uaccess::copy_to_user(rusage, &ru)?;
    }
    Ok(())
}

/// prctl(option, arg2): PR_SET_CHILD_SUBREAPER and PR_GET_CHILD_SUBREAPER
/// (orphaned descendants come to this process: `proc::wait::new_parent`).
/// Every other option is EINVAL, what Linux answers for an option it does
/// not know.
pub fn prctl(option: u32, arg2: u32) -> SysResult {
    let g = proc::group();
    match option {
        abi::PR_SET_CHILD_SUBREAPER => {
            g.child_subreaper = arg2 != 0;
            Ok(0)
        }
        abi::PR_GET_CHILD_SUBREAPER => {
            put_user(arg2, g.child_subreaper as u32).map(|_| 0).map_err(Errno::from)
        }
        _ => Err(Errno::EINVAL),
    }
}
