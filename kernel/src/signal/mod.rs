//! Signals in the kernel: per-process state, sending, and what happens on
//! the way back to user mode.
//!
//! The rules live in sigil-core (`sigil_core::signal`): sets, actions, the
//! sigqueue, frame layouts. This module applies them to processes:
//! `send` generates a signal (kill, tgkill, a fault, a child's exit),
//! `do_signal` runs on every return to user mode; when something is
//! deliverable, `deliver_pending` performs each signal's default action or
//! builds its handler frame (deliver.rs).

pub mod deliver;

use sigil_core::abi::{self, wait_status, Errno};
use sigil_core::job::wait::Event;
use sigil_core::signal::{
    default_action, AltStack, DefaultAction, Disposition, SigAction, SigInfo, SigPending, SigSet,
    Signal,
};

use crate::arch::TrapFrame;
use crate::proc::{self, Process, State};

/// Queued RT signals per process (Linux: RLIMIT_SIGPENDING).
pub const SIGQUEUE_MAX: usize = 1024;

pub struct SignalState {
    pub pending: SigPending,
    pub blocked: SigSet,
    pub actions: [SigAction; 64],
    pub altstack: AltStack,
    /// The mask to restore after the handler that ended a wait with a
    /// temporary mask (rt_sigsuspend; Linux's `saved_sigmask`).
    pub saved_mask: Option<SigSet>,
    /// RLIMIT_CORE (soft, hard): whether a core-dump signal's death reports
    /// a core (WCOREDUMP). Linux's initial value is (0, unlimited).
    pub core_limit: (u64, u64),
}

impl SignalState {
    pub fn new() -> SignalState {
        SignalState {
            pending: SigPending::new(),
            blocked: SigSet::EMPTY,
            actions: [SigAction::default(); 64],
            altstack: AltStack::default(),
            saved_mask: None,
            core_limit: (0, u64::MAX),
        }
    }

    pub fn action(&mut self, sig: Signal) -> &mut SigAction {
        &mut self.actions[sig.number() as usize - 1]
    }

    /// fork: same actions, mask and alt stack; nothing pending.
    pub fn fork(&self) -> SignalState {
        SignalState { pending: SigPending::new(), saved_mask: None, ..*self }
    }

    /// execve: handlers reset to default (ignored stay ignored), alt stack gone.
    pub fn exec(&mut self) {
        for a in self.actions.iter_mut() {
            if a.disposition() != Disposition::Ignore {
                *a = SigAction::default();
            }
        }
        self.altstack = AltStack::default();
    }

    /// The process exited: drop what was pending (frees the nodes).
    pub fn flush(&mut self) {
        self.pending.flush_all();
    }
}

/// Would `sig` be ignored or held back by `p` (the terminal's SIGTTIN/SIGTTOU
/// choice between stopping a job and failing its call)?
pub fn ignored_or_blocked(p: &mut Process, sig: Signal) -> bool {
    is_ignored(p, sig) || p.sig.blocked.contains(sig)
}

fn is_ignored(p: &mut Process, sig: Signal) -> bool {
    match p.sig.action(sig).disposition() {
        Disposition::Ignore => true,
        Disposition::Default => default_action(sig) == DefaultAction::Ignore,
        Disposition::Handler(_) => false,
    }
}

/// Generates `info` for process `pid` (Linux `send_signal`): SIGCONT and stop
/// signals cancel each other, ignored signals are dropped unless blocked,
/// SIGKILL and SIGCONT wake a stopped process, and a sleeping target is woken
/// so its interruptible sleep can end.
pub fn send(pid: u32, info: SigInfo, rt_limit: bool) -> Result<(), Errno> {
    let p = proc::get(pid).ok_or(Errno::ESRCH)?;
    if p.state == State::Zombie {
        return Ok(());
    }
    let sig = info.signal();
    match sig.number() {
        abi::SIGCONT => {
            p.sig.pending.flush_stop();
            if p.state == State::Stopped {
                p.report = Some(Event::Continued);
                proc::make_runnable(pid);
                notify_parent_stop(p);
            }
        }
        abi::SIGSTOP | abi::SIGTSTP | abi::SIGTTIN | abi::SIGTTOU => p.sig.pending.flush_cont(),
        abi::SIGKILL if p.state == State::Stopped => proc::make_runnable(pid),
        _ => {}
    }
    crate::sigtrace!(generate(pid, &info));
    if is_ignored(p, sig) && !p.sig.blocked.contains(sig) {
        crate::sigtrace!(ignored(pid, sig));
        return Ok(());
    }
    // RT signals always count against the limit, even from kill() (Linux
    // overrides it only for standard signals, which coalesce anyway): an
    // unbounded queue would let one process fill the kernel heap.
    let limit = if rt_limit || sig.is_rt() { SIGQUEUE_MAX } else { usize::MAX };
    let queued = p.sig.pending.enqueue(info, limit);
    crate::sigtrace!(queue(pid, sig, queued, &p.sig.pending));
    queued?;
    if !p.sig.blocked.contains(sig) || sig.number() == abi::SIGKILL {
        if let State::Sleeping(_) = p.state {
            proc::wake(p);
        }
    }
    Ok(())
}

/// A fault in user mode (SIGSEGV, SIGILL, ...): if the signal is blocked or
/// ignored, the default action is forced, as Linux `force_sig_fault` does.
pub fn force_fault(signo: u32, code: i32, addr: u32) {
    let p = proc::current();
    let nip = p.frame().nip;
    crate::kprintln!(
        "sigil: pid {} ({}): signal {} code {} at {:#x}, nip {:#x}",
        p.pid,
        p.name,
        signo,
        code,
        addr,
        nip
    );
    let sig = Signal::new(signo).expect("valid fault signal");
    if p.sig.blocked.contains(sig) || is_ignored(p, sig) {
        p.sig.blocked.remove(sig);
        *p.sig.action(sig) = SigAction::default();
    }
    let _ = send(p.pid, SigInfo::fault(sig, code, addr), false);
}

/// A legal page fault found no free frame: the current process gets SIGKILL
/// (Linux's OOM killer would pick the biggest process; Sigil picks the one
/// asking, which cannot catch it or loop on a handler) and a console line.
pub fn out_of_memory(ea: u32) {
    let p = proc::current();
    crate::kprintln!("sigil: out of memory at {:#x}: killing pid {} ({})", ea, p.pid, p.name);
    let _ = send(p.pid, SigInfo::kernel(Signal::SIGKILL), false);
}

/// Should an interruptible sleep end? (A signal is pending and not blocked.)
pub fn interrupt_pending(p: &mut Process) -> bool {
    p.sig.pending.has_deliverable(p.sig.blocked)
}

/// SIGCHLD (CLD_STOPPED or CLD_CONTINUED, unless the parent set
/// SA_NOCLDSTOP) for the stop or continue `p.report` holds, and a wake-up
/// of the parent's waits.
fn notify_parent_stop(p: &mut Process) {
    let ppid = p.ppid;
    let nocldstop = proc::get(ppid)
        .map(|pp| pp.sig.action(Signal::SIGCHLD).flags & abi::SA_NOCLDSTOP != 0)
        .unwrap_or(true);
    if let Some(event) = p.report.filter(|_| !nocldstop) {
        let _ = send(ppid, event.siginfo(p.pid, 0), false);
    }
    proc::wakeup(proc::wait::wait_chan(ppid));
}

/// Runs on every return to user mode: deliver what is deliverable (Linux
/// `do_signal` in its exit-to-user loop), then finish an interrupted system call.
/// Almost every return has nothing to do, so that test comes first and inline
/// (Linux tests `_TIF_SIGPENDING` the same way before calling anything).
#[inline]
pub fn do_signal(tf: &mut TrapFrame) {
    let p = proc::current();
    if p.sig.pending.has_deliverable(p.sig.blocked) {
        deliver_pending(tf);
    }
    deliver::restart_syscall(tf, None);
    // Test before clearing: `take()` would store None on every return.
    if let Some(mask) = p.sig.saved_mask {
        p.sig.saved_mask = None;
        p.sig.blocked = mask;
    }
}

/// The slow half of `do_signal`: a signal is deliverable.
#[inline(never)]
fn deliver_pending(tf: &mut TrapFrame) {
    // The handler whose frame was set up last: it is the one user mode enters.
    let mut entered = None;
    loop {
        let p = proc::current();
        let Some(node) = deliver::dequeue(p) else { break };
        let sig = node.info().signal();
        match p.sig.action(sig).disposition() {
            // Every deliverable signal gets its frame now, each stacked on the
            // last (as Linux's exit-to-user loop does): the last one set up
            // runs first, and each handler's mask applies to the ones after it.
            Disposition::Handler(_) => {
                if deliver::handle_signal(tf, node) {
                    entered = Some(sig);
                }
            }
            Disposition::Ignore => {
                crate::sigtrace!(default_action(p.pid, sig.number(), DefaultAction::Ignore))
            }
            Disposition::Default => {
                // Free the node first: a terminating action never returns
                // here, so a node still owned by this frame would leak.
                drop(node);
                let action = default_action(sig);
                crate::sigtrace!(default_action(p.pid, sig.number(), action));
                match action {
                    DefaultAction::Ignore | DefaultAction::Continue => {}
                    DefaultAction::Stop => stop(p, sig),
                    DefaultAction::Terminate => {
                        proc::wait::exit(wait_status::signaled(sig.number(), false))
                    }
                    DefaultAction::CoreDump => core_dump(sig),
                }
            }
        }
    }
    crate::sigtrace!(handler(proc::current().pid, entered, tf.nip, tf.gpr[1], tf.lr));
}

/// A core-dump signal's default action. Linux writes a core only if the
/// RLIMIT_CORE soft limit allows it, and the WCOREDUMP bit of the wait status
/// says whether it did. Sigil has no filesystem to write one to: with a
/// non-zero limit it reports the dump as done (the bit is set) and says on
/// the console that the image was not kept; with the default limit 0 it
/// behaves exactly as Linux does.
fn core_dump(sig: Signal) -> ! {
    let p = proc::current();
    let core = p.sig.core_limit.0 > 0;
    if core {
        crate::kprintln!(
            "sigil: pid {} ({}) killed by signal {}: core dumped (no image kept)",
            p.pid,
            p.name,
            sig.number()
        );
    }
    proc::wait::exit(wait_status::signaled(sig.number(), core))
}

/// SIGSTOP & co: stop until SIGCONT (or SIGKILL), telling the parent.
fn stop(p: &mut Process, sig: Signal) {
    p.state = State::Stopped;
    p.report = Some(Event::Stopped(sig.number()));
    notify_parent_stop(p);
    proc::schedule();
}
