//! exit and wait4: how a process ends and how its parent learns of it.
//!
//! An exiting process frees its address space and files at once, hands its
//! children to PID 1, becomes a Zombie holding its Linux wait status, and
//! sends SIGCHLD to its parent. `wait4` reaps zombies (freeing the kernel
//! stack last, adding the child's CPU time to the parent's children totals)
//! and reports stops/continues when asked (WUNTRACED/WCONTINUED).
//! When PID 1 exits, every other process is killed and reaped, and the boot
//! thread takes over (`run_init`) to check for leaks and power off.

use sigil_core::abi::{wait_status, Errno};
use sigil_core::time::cputime::CpuTimes;

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
    p.space = None;
    if p.pid == 1 {
        end_of_init(status);
    }
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

/// PID 1 exited, so the machine goes down: every other process is killed
/// and reaped first (each frees what it holds on its own way out), so that
/// what is still allocated after `run_init` returns is a leak, not a
/// survivor. PID 1 stays runnable meanwhile, to get the CPU back.
fn end_of_init(status: u32) -> ! {
    use sigil_core::signal::{SigInfo, Signal};
    let me = current();
    me.wait_status = status;
    for _ in 0..MAX_KILL_ROUNDS {
        let t = TABLE.get();
        let zombies: alloc::vec::Vec<u32> = t
            .procs
            .values()
            .filter(|p| p.pid != 1 && p.state == State::Zombie)
            .map(|p| p.pid)
            .collect();
        for pid in zombies {
            t.procs.remove(&pid);
        }
        let alive: alloc::vec::Vec<u32> = t.procs.keys().copied().filter(|&pid| pid != 1).collect();
        if alive.is_empty() {
            break;
        }
        for pid in alive {
            let _ = crate::signal::send(pid, SigInfo::kernel(Signal::SIGKILL), false);
        }
        super::yield_now();
    }
    if super::count() > 1 {
        crate::console::print_always(format_args!(
            "SIGIL OOPS: {} processes survived SIGKILL at shutdown\n",
            super::count() - 1
        ));
    }
    // The dying children sent SIGCHLD: drop those nodes too.
    me.sig.flush();
    super::back_to_boot()
}

/// Rounds of "SIGKILL everyone, let them run, reap" before giving up.
const MAX_KILL_ROUNDS: usize = 10_000;

/// The channel a parent sleeps on in wait4.
pub fn wait_chan(parent: u32) -> usize {
    0x1000_0000 + parent as usize
}

/// wait4(pid, options): returns (child pid, status word, the child's CPU time
/// with its reaped children's, for the rusage), or (0, 0, 0) for WNOHANG
/// with nothing to report.
pub fn wait4(pid: i32, options: u32) -> Result<(u32, u32, CpuTimes), Errno> {
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
                let wanted = if r == wait_status::CONTINUED {
                    options & WCONTINUED != 0
                } else {
                    options & WUNTRACED != 0
                };
                if wanted {
                    c.report = None;
                    return Ok((c.pid, r, c.cpu.total()));
                }
            }
        }
        if let Some(cpid) = reap {
            let child = TABLE.get().procs.remove(&cpid).expect("zombie");
            current().cpu.reap(&child.cpu);
            return Ok((cpid, child.wait_status, child.cpu.total()));
        }
        if !found {
            return Err(Errno::ECHILD);
        }
        if options & WNOHANG != 0 {
            return Ok((0, 0, CpuTimes::default()));
        }
        if sleep(wait_chan(me)).is_err() {
            return Err(Errno::ERESTARTSYS);
        }
    }
}
