//! exit, exit_group, wait4 and waitid: how threads and processes end and
//! how a parent learns of it.
//!
//! `exit` ends one thread: its robust mutexes are marked OWNER_DIED, its
//! `clear_child_tid` word is zeroed and woken (pthread_join waits on it), it
//! lets go of its descriptor table and fs state (the last holder's going
//! closes the files: `share.rs`), and it leaves its group. `exit_group` (and a fatal signal) marks the group as
//! ending and wakes every thread, each of which leaves on its way back to
//! user mode. The last thread out ends the process: it lets go of the
//! address space (freed unless a CLONE_VM relative still runs in it), hangs up the process groups its exit orphans
//! (`group::hangup_orphaned`), hands its children to PID 1 (or to the
//! nearest child subreaper, `new_parent`), leaves the group
//! a zombie holding its Linux wait status, and tells its parent
//! (`notify_parent`). So a leader that exits before its threads is waited
//! for only once the last of them is gone, as on Linux. A parent that
//! ignores SIGCHLD or set SA_NOCLDWAIT gets no zombie: the group leaves the
//! table at once, and is freed with its last thread's Box (`reap_dead`).
//! Waits reap zombies (adding the child's CPU time to the parent's children
//! totals) and report stops/continues when asked; which children and events
//! a wait selects is sigil-core's `job::wait`. Any thread of the parent may
//! wait for its children.
//! When PID 1 ends, every other process is killed and reaped, and the boot
//! thread takes over (`run_init`) to check for leaks and power off.

use sigil_core::abi::Errno;
use sigil_core::job::wait::{autoreap, ChildEvent, WaitFor};
use sigil_core::signal::{SigInfo, Signal};
use sigil_core::time::cputime::CpuTimes;

use super::waitq::WaitQueue;
use super::{current, get, group, schedule, sleep, Group, State, TABLE};
use crate::kcell::KCell;

/// Told of every process that ends, before its parent hears of it: the
/// terminal (`dev::tty` registers at boot), which hangs up the foreground
/// group when the session leader exits. A hook, not a call, as the devices
/// are a layer above the processes.
static EXIT_HOOK: KCell<fn(&Group)> = KCell::new(|_| {});

/// Registers the exit hook (once, at boot).
pub fn on_exit(hook: fn(&Group)) {
    *EXIT_HOOK.get() = hook;
}

/// The pollers of every pidfd: a process that ends wakes them, and each
/// looks whether its process was the one (Linux wakes `pid->wait_pidfd`).
pub static EXITED: KCell<WaitQueue> = KCell::new(WaitQueue::new());

/// exit_group(status), or a fatal signal: the whole process ends with wait
/// status `status` (the first reason wins). Never returns.
pub fn exit_group(status: u32) -> ! {
    let g = group();
    if g.exit.is_none() {
        g.exit = Some(status);
        g.sig.work = true;
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
    if t.clear_child_tid != 0 && (g.threads.len() > 1 || g.space_shared()) {
        // Linux zeroes it only if others share the memory (mm_users > 1):
        // other threads, or another process (a CLONE_VM child or parent).
        let _ = crate::uaccess::put_user(t.clear_child_tid, 0u32);
        super::futex::wake(t.clear_child_tid, 1);
    }
    t.sig.flush();
    // Before it leaves the group's list, so that exec's de_thread, seeing
    // one thread left, finds the table no longer held by the others.
    t.drop_shared();
    super::clone::vfork_done(t);
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
    crate::time::timers::exit(g.pid);
    // Freed unless another process runs in it (a vfork parent, say).
    g.space = None;
    if g.pid == 1 {
        end_of_init(status);
    }
    g.wait_status = status;
    g.zombie = true;
    EXITED.get().wake();
    let pid = g.pid;
    (*EXIT_HOOK.get())(g);
    let reaper = new_parent(g.ppid);
    super::group::hangup_orphaned(pid, reaper);
    let mut zombies = alloc::vec::Vec::new();
    for c in super::all().filter(|c| c.ppid == pid) {
        c.ppid = reaper;
        if c.zombie {
            zombies.push(c.pid);
        }
    }
    // The new parent inherits the zombies: it is told, as their parent was.
    for z in zombies {
        notify_parent(z);
    }
    notify_parent(pid);
}

/// Who adopts the children of a process whose parent is `ppid` (Linux
/// `find_new_reaper`): the nearest ancestor that made itself a child
/// subreaper and is not ending itself, else PID 1. A session runner uses
/// it to wait for the jobs its shell leaves behind (user/c/tty_session.c).
fn new_parent(mut ppid: u32) -> u32 {
    // Bounded: a parent chain holds each process at most once.
    for _ in 0..super::MAX_PROCS {
        let Some(a) = get(ppid).filter(|_| ppid > 1) else { break };
        if a.child_subreaper && !a.zombie && a.exit.is_none() {
            return ppid;
        }
        ppid = a.ppid;
    }
    1
}

/// Zombie `pid` tells its parent it exited: SIGCHLD (unless the parent
/// ignores it) and a wake-up of its waits; with SIGCHLD ignored or
/// SA_NOCLDWAIT the zombie is detached instead of kept for a wait.
fn notify_parent(pid: u32) {
    let Some(child) = get(pid) else { return };
    let (ppid, event) = (child.ppid, ChildEvent::Exited(child.wait_status));
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
/// survivor. PID 1's last thread stays runnable meanwhile, to get the CPU back.
fn end_of_init(status: u32) -> ! {
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

/// The channel a parent sleeps on in wait4/waitid.
pub fn wait_chan(parent: u32) -> usize {
    super::Chan::Wait.of(parent)
}

/// What a wait found: the child, its event, and its CPU time with its
/// reaped children's (for the rusage).
pub struct Found {
    pub pid: u32,
    pub event: ChildEvent,
    pub cpu: CpuTimes,
}

/// The common core of wait4 and waitid: waits for an event that `options`
/// (checked waitid flags) wants from a child `sel` selects. Reports it once
/// (consumes it, reaping a zombie) unless WNOWAIT. `None` for WNOHANG with
/// nothing to report; ECHILD when no child is selected at all.
pub fn wait(sel: WaitFor, options: u32) -> Result<Option<Found>, Errno> {
    use sigil_core::abi::{WNOHANG, WNOWAIT};
    let me = group().pid;
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
            let event = if c.zombie { Some(ChildEvent::Exited(c.wait_status)) } else { c.report };
            if let Some(event) = event.filter(|e| e.wanted(options)) {
                if !keep && !c.zombie {
                    c.report = None;
                }
                found = Some(Found { pid: c.pid, event, cpu: c.cpu.total() });
                break;
            }
        }
        if let Some(f) = found {
            if !keep && matches!(f.event, ChildEvent::Exited(_)) {
                let child = TABLE.get().groups.remove(&f.pid).expect("zombie");
                group().cpu.reap(&child.get().cpu);
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
