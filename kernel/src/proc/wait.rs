//! exit, exit_group and wait4: how threads and processes end and how a
//! parent learns of it.
//!
//! `exit` ends one thread: its robust mutexes are marked OWNER_DIED, its
//! `clear_child_tid` word is zeroed and woken (pthread_join waits on it), and
//! it leaves its group. `exit_group` (and a fatal signal) marks the group as
//! ending and wakes every thread, each of which leaves on its way back to
//! user mode. The last thread out ends the process: it frees the address
//! space and files, hands the children to PID 1, leaves the group a zombie
//! holding its Linux wait status, and sends SIGCHLD to the parent. `wait4`
//! reaps zombies (adding the child's CPU time to the parent's children
//! totals) and reports stops/continues when asked (WUNTRACED/WCONTINUED).
//! When PID 1 ends, every other process is killed and reaped, and the boot
//! thread takes over (`run_init`) to check for leaks and power off.

use sigil_core::abi::{wait_status, Errno};
use sigil_core::time::cputime::CpuTimes;

use super::{current, group, schedule, sleep, State, TABLE};

pub const WNOHANG: u32 = 1;
pub const WUNTRACED: u32 = 2;
pub const WCONTINUED: u32 = 8;

/// exit_group(status), or a fatal signal: the whole process ends with wait
/// status `status` (the first reason wins). Never returns.
pub fn exit_group(status: u32) -> ! {
    let g = group();
    if g.exit.is_none() {
        g.exit = Some(status);
        g.stop = None;
        for t in g.members() {
            super::wake(t);
        }
    }
    exit(g.exit.expect("just set"))
}

/// exit(status): ends the calling thread; the last one ends the process.
/// Never returns.
pub fn exit(status: u32) -> ! {
    let t = current();
    let g = t.group();
    super::futex::exit_robust_list(t.robust_list, t.tid);
    if t.clear_child_tid != 0 && g.threads.len() > 1 {
        // Linux zeroes it only if others share the memory (mm_users > 1).
        let _ = crate::uaccess::put_user(t.clear_child_tid, 0u32);
        super::futex::wake(g.pid, t.clear_child_tid, 1);
    }
    t.sig.flush();
    g.threads.retain(|&x| x != t.tid);
    if t.tid == g.pid {
        g.leader_status = status;
    }
    if g.threads.is_empty() {
        process_end();
    }
    if let Some(waiter) = g.exec_tid.filter(|_| g.threads.len() == 1) {
        super::make_runnable(waiter);
    }
    t.state = State::Dead;
    t.fp_live = false;
    TABLE.get().dead.push(t.tid);
    schedule();
    unreachable!("a dead thread ran again");
}

/// The last thread of the current process is leaving: the process ends.
fn process_end() {
    let g = group();
    let status = g.exit.unwrap_or(g.leader_status);
    g.sig.flush();
    crate::timers::exit(g.pid);
    g.files.close_all();
    g.space = None;
    super::clone::vfork_done(g);
    if g.pid == 1 {
        end_of_init(status);
    }
    g.wait_status = status;
    g.zombie = true;
    let (pid, ppid) = (g.pid, g.ppid);
    let mut orphans = false;
    for c in super::all().filter(|c| c.ppid == pid) {
        c.ppid = 1;
        orphans |= c.zombie;
    }
    if orphans {
        super::wakeup(wait_chan(1));
    }
    crate::signal::notify_parent_exit(pid, ppid, status);
    super::wakeup(wait_chan(ppid));
}

/// PID 1 exited, so the machine goes down: every other process is killed
/// and reaped first (each frees what it holds on its own way out), so that
/// what is still allocated after `run_init` returns is a leak, not a
/// survivor. PID 1's last thread stays runnable meanwhile, to get the CPU back.
fn end_of_init(status: u32) -> ! {
    use sigil_core::signal::{SigInfo, Signal};
    group().wait_status = status;
    for _ in 0..MAX_KILL_ROUNDS {
        let t = TABLE.get();
        t.groups.retain(|&pid, g| pid == 1 || !g.get().zombie);
        let alive: alloc::vec::Vec<u32> =
            t.groups.keys().copied().filter(|&pid| pid != 1).collect();
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
    group().sig.flush();
    current().sig.flush();
    super::reap_dead();
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
/// with nothing to report. Any thread of the parent may wait for its children.
pub fn wait4(pid: i32, options: u32) -> Result<(u32, u32, CpuTimes), Errno> {
    if options & !(WNOHANG | WUNTRACED | WCONTINUED | 0x4000_0000 | 0x8000_0000) != 0 {
        return Err(Errno::EINVAL);
    }
    let me = group().pid;
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
            if c.zombie {
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
            let child = TABLE.get().groups.remove(&cpid).expect("zombie");
            let child = child.get();
            group().cpu.reap(&child.cpu);
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
