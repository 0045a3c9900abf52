//! The process side of exit, and wait4 and waitid: how threads and
//! processes end and how a parent finds out.
//!
//! An exit is entered from above, by `signal::exit::exit` (for the exit
//! system calls; `exit_group` and a fatal signal first mark the group as
//! ending and wake every thread, each of which leaves on its way back to
//! user mode): ending a process sends signals, and this layer generates none.
//! So the exit here comes in halves with the sends between them. `leave`
//! ends one thread: its robust mutexes are marked OWNER_DIED, its
//! `clear_child_tid` word is zeroed and woken (pthread_join waits on it),
//! it lets go of its descriptor table and fs state (the last holder's
//! going closes the files: `share.rs`), and it leaves its group. The last
//! thread out ends the process: it lets go of the address space (freed
//! unless a CLONE_VM relative still runs in it), leaves the group a zombie
//! holding its Linux wait status, picks who adopts its children (PID 1 or
//! the nearest child subreaper, `new_parent`), and returns that (`Left`).
//! The signal layer then hangs up the process groups the exit orphans,
//! hands the children over (`reparent`) and tells the new parent of the
//! zombies among them and the parent of this one (SIGCHLD, then the
//! wake-up of its waits); `finish` leaves the CPU. So a leader that exits
//! before its threads is waited for only once the last of them is gone, as
//! on Linux. A parent that ignores SIGCHLD or set SA_NOCLDWAIT gets no
//! zombie: the group leaves the table at once (`detach`), and is
//! freed with its last thread's Box (`reap_dead`).
//! Waits reap zombies (adding the child's CPU time to the parent's children
//! totals) and report stops/continues when asked; which children and events
//! a wait selects is sigil-core's `job::wait`. Any thread of the parent may
//! wait for its children.
//! When PID 1 ends, every other process is killed (the signal layer sends
//! SIGKILL to the `survivors` until none is left) and reaped, and the boot
//! thread takes over (`shut_down`, `run_init`) to check for leaks and power
//! off.

use sigil_core::abi::Errno;
use sigil_core::job::wait::{ChildEvent, WaitFor};
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

/// How the current thread's end left its process (`leave`): what is still
/// to be told, by signals, which this layer does not generate.
pub enum Left {
    /// Other threads of the process still run.
    Thread,
    /// It was the last thread: the process is a zombie now, told of by its
    /// wait status, and `reaper` adopts its children (`reparent`).
    Process { pid: u32, reaper: u32 },
    /// It was PID 1's last thread: every other process is to be killed
    /// (`survivors`), then the machine goes down (`shut_down`).
    Init,
}

/// The first half of exit(status) (`signal::exit::exit` calls it): ends
/// the calling thread, and with the last one the process; returns what is
/// left to tell. `finish` is the second half.
pub fn leave(status: u32) -> Left {
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
    g.threads.retain(|&x| x != core::ptr::NonNull::from(&mut *t));
    if t.tid == g.pid {
        g.leader_status = status;
    }
    if g.threads.is_empty() {
        process_end()
    } else {
        Left::Thread
    }
}

/// The second half of exit: wakes an exec waiting for this thread to go,
/// and leaves the CPU for good. Never returns. Forced inline into its one
/// caller (a call that never returns is left out of line otherwise), so
/// exit's code is what it was before the sends moved up a layer.
#[inline(always)]
pub fn finish() -> ! {
    let t = current();
    let g = t.group();
    if let Some(waiter) = g.exec_tid.filter(|_| g.threads.len() == 1) {
        super::make_runnable(waiter);
    }
    super::unqueue_exiting(t);
    t.state = State::Dead;
    t.fp_live = false;
    TABLE.get().dead.push(t.tid);
    schedule();
    unreachable!("a dead thread ran again");
}

/// The last thread of the current process is leaving: the process ends.
fn process_end() -> Left {
    let g = group();
    g.wait_status = g.exit.unwrap_or(g.leader_status);
    g.sig.flush();
    crate::time::timers::exit(g.pid);
    // Freed unless another process runs in it (a vfork parent, say).
    g.space = None;
    if g.pid == 1 {
        return Left::Init;
    }
    g.zombie = true;
    EXITED.get().wake();
    (*EXIT_HOOK.get())(g);
    Left::Process { pid: g.pid, reaper: new_parent(g.ppid) }
}

/// Hands the children of ended process `pid` to `reaper`; returns those
/// that are zombies already, whose new parent is to be told of them.
pub fn reparent(pid: u32, reaper: u32) -> alloc::vec::Vec<u32> {
    let mut zombies = alloc::vec::Vec::new();
    for c in super::all().filter(|c| c.ppid == pid) {
        c.ppid = reaper;
        if c.zombie {
            zombies.push(c.pid);
        }
    }
    zombies
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

/// PID 1 is ending: the processes still to be killed (`signal::exit`
/// sends each SIGKILL, and lets them run, until none is left). Zombies
/// leave the table first, since nobody is left to reap them.
pub fn survivors() -> alloc::vec::Vec<u32> {
    let t = TABLE.get();
    t.groups.retain(|pid, g| pid == 1 || !g.get().zombie);
    t.groups.keys().filter(|&pid| pid != 1).collect()
}

/// PID 1 has ended and every other process with it (each freed what it
/// held on its own way out), so that what is still allocated after
/// `run_init` returns is a leak, not a survivor: the boot thread takes
/// over. PID 1's last thread stayed runnable meanwhile, to get the CPU
/// back. Never returns.
pub fn shut_down() -> ! {
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
                let child = TABLE.get().groups.remove(f.pid).expect("zombie");
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
