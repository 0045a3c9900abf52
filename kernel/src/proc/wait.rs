//! exit and wait4: how a process ends and how its parent learns of it.
//!
//! An exiting process frees its address space and files at once, hands its
//! children to PID 1, becomes a Zombie holding its Linux wait status, and
//! sends SIGCHLD to its parent. `wait4` reaps zombies (freeing the kernel
//! stack last) and reports stops/continues when asked (WUNTRACED/WCONTINUED).
//! When PID 1 exits, the machine powers off with its status.

use sigil_core::abi::{wait_status, Errno};

use super::{current, schedule, sleep, State, TABLE};

pub const WNOHANG: u32 = 1;
pub const WUNTRACED: u32 = 2;
pub const WCONTINUED: u32 = 8;

/// Ends the current process with Linux wait status `status`. Never returns.
pub fn exit(status: u32) -> ! {
    let p = current();
    p.sig.flush();
    crate::timers::exit(p.pid);
    p.files.close_all();
    if p.pid == 1 {
        crate::shutdown(status);
    }
    p.space = None;
    p.fp_live = false;
    p.wait_status = status;
    p.state = State::Zombie;
    let (pid, ppid) = (p.pid, p.ppid);
    let mut orphans = false;
    for c in super::all().filter(|c| c.ppid == pid) {
        c.ppid = 1;
        orphans |= c.state == State::Zombie;
    }
    if orphans {
        super::wakeup(wait_chan(1));
    }
    crate::signal::notify_parent_exit(pid, ppid, status);
    super::wakeup(wait_chan(ppid));
    schedule();
    unreachable!("a zombie ran again");
}

/// The channel a parent sleeps on in wait4.
pub fn wait_chan(parent: u32) -> usize {
    0x1000_0000 + parent as usize
}

/// wait4(pid, options): returns (child pid, status word), or (0, 0) for WNOHANG
/// with nothing to report.
pub fn wait4(pid: i32, options: u32) -> Result<(u32, u32), Errno> {
    if options & !(WNOHANG | WUNTRACED | WCONTINUED | 0x4000_0000 | 0x8000_0000) != 0 {
        return Err(Errno::EINVAL);
    }
    let me = current().pid;
    loop {
        let mut found = false;
        let mut reap = None;
        for c in super::all().filter(|c| c.ppid == me) {
            let matches = match pid {
                -1 => true,
                p if p > 0 => c.pid == p as u32,
                // Process groups are one group in Sigil: 0 and < -1 match all.
                _ => true,
            };
            if !matches {
                continue;
            }
            found = true;
            if c.state == State::Zombie {
                reap = Some(c.pid);
                break;
            }
            if let Some(r) = c.report {
                let wanted = if r == wait_status::CONTINUED { options & WCONTINUED != 0 } else { options & WUNTRACED != 0 };
                if wanted {
                    c.report = None;
                    return Ok((c.pid, r));
                }
            }
        }
        if let Some(cpid) = reap {
            let child = TABLE.get().procs.remove(&cpid).expect("zombie");
            return Ok((cpid, child.wait_status));
        }
        if !found {
            return Err(Errno::ECHILD);
        }
        if options & WNOHANG != 0 {
            return Ok((0, 0));
        }
        if sleep(wait_chan(me)).is_err() {
            return Err(Errno::ERESTARTSYS);
        }
    }
}
