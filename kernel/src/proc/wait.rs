//! exit, wait4 and waitid: how a process ends and how its parent learns of it.
//!
//! An exiting process frees its address space and files at once, hangs up
//! the process groups its exit orphans (`group::hangup_orphaned`), hands its
//! children to PID 1, becomes a Zombie holding its Linux wait status, and
//! tells its parent (`notify_parent`). A parent that ignores SIGCHLD or set
//! SA_NOCLDWAIT gets no zombie: the child is detached from the table at once
//! and freed by the next `schedule` that runs on another stack. Waits reap
//! zombies (freeing the kernel stack last, adding the child's CPU time to the
//! parent's children totals) and report stops/continues when asked; which
//! children and events a wait selects is sigil-core's `job::wait`.
//! When PID 1 exits, every other process is killed and reaped, and the boot
//! thread takes over (`run_init`) to check for leaks and power off.

use sigil_core::abi::Errno;
use sigil_core::job::wait::{autoreap, Event, WaitFor};
use sigil_core::signal::{SigInfo, Signal};
use sigil_core::time::cputime::CpuTimes;

use super::{current, get, schedule, sleep, State, TABLE};

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
    let pid = p.pid;
    super::group::hangup_orphaned(pid);
    let mut zombies = alloc::vec::Vec::new();
    for c in super::all().filter(|c| c.ppid == pid) {
        c.ppid = 1;
        if c.state == State::Zombie {
            zombies.push(c.pid);
        }
    }
    // PID 1 inherits the zombies: it is told, as their parent was.
    for z in zombies {
        notify_parent(z);
    }
    notify_parent(pid);
    schedule();
    unreachable!("a zombie ran again");
}

/// Zombie `pid` tells its parent it exited: SIGCHLD (unless the parent
/// ignores it) and a wake-up of its waits; with SIGCHLD ignored or
/// SA_NOCLDWAIT the zombie is detached instead of kept for a wait.
fn notify_parent(pid: u32) {
    let Some(child) = get(pid) else { return };
    let (ppid, event) = (child.ppid, Event::Exited(child.wait_status));
    let (reap, signal) = match get(ppid) {
        Some(parent) => autoreap(parent.sig.action(Signal::SIGCHLD)),
        None => (true, false),
    };
    if signal {
        let _ = crate::signal::send(ppid, event.siginfo(pid, 0), false);
    }
    if reap {
        super::detach(pid);
    }
    super::wakeup(wait_chan(ppid));
}

/// PID 1 exited, so the machine goes down: every other process is killed
/// and reaped first (each frees what it holds on its own way out), so that
/// what is still allocated after `run_init` returns is a leak, not a
/// survivor. PID 1 stays runnable meanwhile, to get the CPU back.
fn end_of_init(status: u32) -> ! {
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

/// The channel a parent sleeps on in wait4/waitid.
pub fn wait_chan(parent: u32) -> usize {
    0x1000_0000 + parent as usize
}

/// What a wait found: the child, its event, and its CPU time with its
/// reaped children's (for the rusage).
pub struct Found {
    pub pid: u32,
    pub event: Event,
    pub cpu: CpuTimes,
}

/// The common core of wait4 and waitid: waits for an event that `options`
/// (checked waitid flags) wants from a child `sel` selects. Reports it once
/// (consumes it, reaping a zombie) unless WNOWAIT. `None` for WNOHANG with
/// nothing to report; ECHILD when no child is selected at all.
pub fn wait(sel: WaitFor, options: u32) -> Result<Option<Found>, Errno> {
    use sigil_core::abi::{WNOHANG, WNOWAIT};
    let me = current().pid;
    let keep = options & WNOWAIT != 0;
    // Linux `do_wait`'s order: a signal ends the wait only after a scan
    // that found nothing to report (so ECHILD wins over EINTR when the
    // last child is auto-reaped and its SIGCHLD interrupts the sleep).
    let mut interrupted = false;
    loop {
        let mut selected = false;
        let mut found = None;
        for c in super::all().filter(|c| c.ppid == me && sel.selects(&c.member())) {
            selected = true;
            let event = if c.state == State::Zombie {
                Some(Event::Exited(c.wait_status))
            } else {
                c.report
            };
            if let Some(event) = event.filter(|e| e.wanted(options)) {
                if !keep && c.state != State::Zombie {
                    c.report = None;
                }
                found = Some(Found { pid: c.pid, event, cpu: c.cpu.total() });
                break;
            }
        }
        if let Some(f) = found {
            if !keep && matches!(f.event, Event::Exited(_)) {
                let child = TABLE.get().procs.remove(&f.pid).expect("zombie");
                current().cpu.reap(&child.cpu);
            }
            return Ok(Some(f));
        }
        if !selected {
            return Err(Errno::ECHILD);
        }
        if options & WNOHANG != 0 {
            return Ok(None);
        }
        if interrupted {
            return Err(Errno::ERESTARTSYS);
        }
        interrupted = sleep(wait_chan(me)).is_err();
    }
}
