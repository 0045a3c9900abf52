//! Signals in the kernel: per-process state, sending, and what happens on
//! the way back to user mode.
//!
//! The rules live in sigil-core (`sigil_core::signal`): sets, actions, the
//! sigqueue, frame layouts. This module applies them to processes:
//! `send` generates a signal (kill, tgkill, a fault, a child's exit),
//! `do_signal` runs on every return to user mode and either performs the
//! default action or builds a handler frame (deliver.rs).

pub mod deliver;

use sigil_core::abi::{self, wait_status, Errno};
use sigil_core::signal::{
    default_action, AltStack, DefaultAction, Disposition, SigAction, SigInfo, SigPending, SigSet, Signal,
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
    /// The mask to restore after a handler that sigsuspend/pselect ran.
    pub saved_mask: Option<SigSet>,
}

impl SignalState {
    pub fn new() -> SignalState {
        SignalState {
            pending: SigPending::new(),
            blocked: SigSet::EMPTY,
            actions: [SigAction::default(); 64],
            altstack: AltStack::default(),
            saved_mask: None,
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
                p.report = Some(wait_status::CONTINUED);
                proc::make_runnable(pid);
                notify_parent_stop(p, abi::CLD_CONTINUED, abi::SIGCONT);
            }
        }
        abi::SIGSTOP | abi::SIGTSTP | abi::SIGTTIN | abi::SIGTTOU => p.sig.pending.flush_cont(),
        abi::SIGKILL => {
            if p.state == State::Stopped {
                proc::make_runnable(pid);
            }
        }
        _ => {}
    }
    if is_ignored(p, sig) && !p.sig.blocked.contains(sig) {
        return Ok(());
    }
    let limit = if rt_limit { SIGQUEUE_MAX } else { usize::MAX };
    p.sig.pending.enqueue(info, limit)?;
    crate::trace::generate(pid, &info);
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
    crate::kprintln!("sigil: pid {} ({}): signal {} code {} at {:#x}, nip {:#x}", p.pid, p.name, signo, code, addr, nip);
    let sig = Signal::new(signo).expect("valid fault signal");
    if p.sig.blocked.contains(sig) || is_ignored(p, sig) {
        p.sig.blocked.remove(sig);
        *p.sig.action(sig) = SigAction::default();
    }
    let _ = send(p.pid, SigInfo::fault(sig, code, addr), false);
}

/// Should an interruptible sleep end? (A signal is pending and not blocked.)
pub fn interrupt_pending(p: &mut Process) -> bool {
    p.sig.pending.has_deliverable(p.sig.blocked)
}

/// SIGCHLD to the parent of an exiting child (unless the parent ignores it).
pub fn notify_parent_exit(pid: u32, ppid: u32, status: u32) {
    let (code, st) = if status & 0x7f == 0 {
        (abi::CLD_EXITED, (status >> 8) & 0xff)
    } else if status & 0x80 != 0 {
        (abi::CLD_DUMPED, status & 0x7f)
    } else {
        (abi::CLD_KILLED, status & 0x7f)
    };
    let _ = send(ppid, SigInfo::chld(code, pid, 0, st), false);
}

fn notify_parent_stop(p: &mut Process, code: i32, st: u32) {
    let ppid = p.ppid;
    let pid = p.pid;
    let nocldstop = proc::get(ppid)
        .map(|pp| pp.sig.action(Signal::new(abi::SIGCHLD).expect("SIGCHLD")).flags & abi::SA_NOCLDSTOP != 0)
        .unwrap_or(true);
    if !nocldstop {
        let _ = send(ppid, SigInfo::chld(code, pid, 0, st), false);
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
    if let Some(mask) = p.sig.saved_mask.take() {
        p.sig.blocked = mask;
    }
}

/// The slow half of `do_signal`: a signal is deliverable.
#[inline(never)]
fn deliver_pending(tf: &mut TrapFrame) {
    loop {
        let p = proc::current();
        let Some(node) = deliver::dequeue(p) else { break };
        let sig = node.info().signal();
        match p.sig.action(sig).disposition() {
            // Every deliverable signal gets its frame now, each stacked on the
            // last (as Linux's exit-to-user loop does): the last one set up
            // runs first, and each handler's mask applies to the ones after it.
            Disposition::Handler(_) => deliver::handle_signal(tf, node),
            Disposition::Ignore => continue,
            Disposition::Default => match default_action(sig) {
                DefaultAction::Ignore | DefaultAction::Continue => continue,
                DefaultAction::Stop => {
                    stop(p, sig);
                    continue;
                }
                DefaultAction::Terminate => proc::wait::exit(wait_status::signaled(sig.number(), false)),
                // The core flag means "a core file was written". Sigil has no
                // filesystem to write one to, so it reports what Linux does with
                // RLIMIT_CORE = 0 (Debian's default): killed, no core.
                DefaultAction::CoreDump => proc::wait::exit(wait_status::signaled(sig.number(), false)),
            },
        }
    }
}

/// SIGSTOP & co: stop until SIGCONT (or SIGKILL), telling the parent.
fn stop(p: &mut Process, sig: Signal) {
    p.state = State::Stopped;
    p.report = Some(wait_status::stopped(sig.number()));
    notify_parent_stop(p, abi::CLD_STOPPED, sig.number());
    proc::schedule();
}
