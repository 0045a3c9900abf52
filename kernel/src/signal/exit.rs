//! exit and exit_group as the system calls and the fatal signals enter
//! them, with the signals an exit sends: the parent's SIGCHLD (Linux
//! `do_notify_parent`), SIGHUP then SIGCONT to each process group the exit
//! orphans with a stopped member (`kill_orphaned_pgrp`), and, when PID 1
//! ends, SIGKILL to every other process.
//!
//! The process layer ends the thread and the process (`proc::wait::leave`,
//! `finish`: the robust list, the files, the zombie, the wait status) but
//! generates no signal, as it sits below this layer; it returns what is
//! still to be told (`proc::wait::Left`), and this module tells it, in
//! Linux's `exit_notify` order: the orphaned groups are hung up while the
//! children still name the exiting process as their parent, then they go to
//! their reaper, which hears of those already zombies, and last the parent
//! hears of this one. Each SIGCHLD is queued before the wait-queue wake-up,
//! so a woken wait4 finds both. Linux keeps this in kernel/exit.c, which
//! calls into kernel/signal.c; the path is short enough to live next to the
//! stop notice (`notify_parent_stop`) it mirrors.

use sigil_core::job::kill::KillTarget;
use sigil_core::job::orphan;
use sigil_core::job::wait::{autoreap, ChildEvent};
use sigil_core::job::Member;
use sigil_core::signal::{SigInfo, Signal};

use crate::proc;
use crate::proc::wait::{self, Left};

/// exit_group(status), or a fatal signal: the whole process ends with wait
/// status `status` (the first reason wins): every thread is woken, and
/// each leaves on its way back to user mode. Never returns.
pub fn exit_group(status: u32) -> ! {
    let g = proc::group();
    if g.exit.is_none() {
        g.exit = Some(status);
        proc::sigstate::group_work(g);
        g.stop = None;
        for t in g.members() {
            proc::wake(t);
        }
    }
    exit(g.exit.expect("just set"))
}

/// exit(status): ends the calling thread; the last one ends the process,
/// whose parent, orphaned groups and reaper are told. Never returns.
pub fn exit(status: u32) -> ! {
    match wait::leave(status) {
        Left::Thread => {}
        Left::Process { pid, reaper } => {
            hangup_orphaned(pid, reaper);
            // The new parent inherits the zombies: it is told, as their
            // parent was.
            for z in wait::reparent(pid, reaper) {
                notify_parent(z);
            }
            notify_parent(pid);
        }
        Left::Init => end_of_init(),
    }
    wait::finish()
}

/// Process `gone` is exiting (its children not yet handed to `reaper`, their
/// new parent): each group this orphans with a stopped member gets SIGHUP,
/// then SIGCONT.
fn hangup_orphaned(gone: u32, reaper: u32) {
    // Almost no exit has a stopped process anywhere: skip the snapshot.
    if !proc::all().any(|p| p.stop.is_some()) {
        return;
    }
    let procs: alloc::vec::Vec<Member> = proc::all().map(|p| p.member()).collect();
    for pgid in orphan::hangup_on_exit(&procs, gone, reaper) {
        for sig in [Signal::SIGHUP, Signal::SIGCONT] {
            let _ = super::kill::send(KillTarget::Group(pgid), Some(SigInfo::kernel(sig)));
        }
    }
}

/// Zombie `pid` tells its parent it exited: SIGCHLD (unless the parent
/// ignores it) and a wake-up of its waits; with SIGCHLD ignored or
/// SA_NOCLDWAIT the zombie is detached instead of kept for a wait.
fn notify_parent(pid: u32) {
    let Some(child) = proc::get(pid) else { return };
    let (ppid, event) = (child.ppid, ChildEvent::Exited(child.wait_status));
    let (reap, signal) = match proc::get(ppid) {
        Some(parent) => autoreap(parent.sig.action(Signal::SIGCHLD)),
        None => (true, false),
    };
    if signal {
        let _ = super::send(ppid, event.siginfo(pid, 0), false);
    }
    if reap {
        proc::detach(pid);
    }
    proc::wakeup(wait::wait_chan(ppid));
}

/// PID 1 exited, so the machine goes down: every other process is killed
/// and reaped first (each frees what it holds on its own way out), then
/// the boot thread takes over (`proc::wait::shut_down`). PID 1's last
/// thread stays runnable meanwhile, to get the CPU back.
fn end_of_init() -> ! {
    for _ in 0..MAX_KILL_ROUNDS {
        let alive = wait::survivors();
        if alive.is_empty() {
            break;
        }
        for pid in alive {
            let _ = super::send(pid, SigInfo::kernel(Signal::SIGKILL), false);
        }
        proc::yield_now();
    }
    wait::shut_down()
}

/// Rounds of "SIGKILL everyone, let them run, reap" before giving up.
const MAX_KILL_ROUNDS: usize = 10_000;
