//! The signal trace (`trace=signal` on the command line): one compact line per
//! step of a signal's life, so a student can watch one travel. Printed even
//! under `quiet`, because the trace is the point of booting with it.
//!
//! Line format (parsed by `sigil-trace`, qemu/src/trace.rs): `@sig <event>`
//! then `key=value` words. `pid` is always the process the event happens to.
//!
//! | event       | where                         | what it says                                  |
//! |-------------|-------------------------------|-----------------------------------------------|
//! | `generate`  | signal::send                  | sender (si_pid; 0 = the kernel), signo, si_code |
//! | `queue`     | signal::send                  | what the sigqueue did, the node's address     |
//! | `dequeue`   | deliver::dequeue              | the node handed to delivery (by pointer)      |
//! | `frame`     | deliver::handle_signal        | frame address and size, the window opened     |
//! | `handler`   | signal::do_signal             | the user registers the handler starts with    |
//! | `sigreturn` | deliver::restore_frame        | the frame read back, where user mode resumes  |
//! | `default`   | signal::do_signal             | a default (or SIG_IGN) action instead of a handler |
//!
//! # Cost when off
//! Each hook is `#[inline(always)]` and is only `if ENABLED { cold_call() }`:
//! one byte load and one conditional branch that is never taken. The printing
//! lives in `#[cold] #[inline(never)]` functions, so the compiler moves the
//! argument set-up into the untaken path and the hot path carries no call.

use core::fmt;
use core::sync::atomic::{AtomicBool, Ordering};

use sigil_core::abi::Errno;
use sigil_core::signal::frame::{FrameKind, RtSigFrame, SigFrame};
use sigil_core::signal::{DefaultAction, Enqueued, SigInfo, SigPending, SigQueueNode, Signal};

/// Set by `trace=signal` (cmdline.rs) before any process exists.
pub static ENABLED: AtomicBool = AtomicBool::new(false);

#[inline(always)]
fn on() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

#[cold]
#[inline(never)]
fn emit(args: fmt::Arguments) {
    crate::console::print_always(format_args!("@sig {}\n", args));
}

/// A signal was generated for `target` (before the sigqueue sees it).
#[inline(always)]
pub fn generate(target: u32, info: &SigInfo) {
    if on() {
        emit(format_args!(
            "generate pid={} sender={} signo={} code={}",
            target,
            info.pid(),
            info.signo(),
            info.code()
        ));
    }
}

/// What the sigqueue did with it (`SigPending::enqueue`): `queued` (a node
/// was linked; its address is printed), `coalesced`, `nodeless` (pending
/// without info), or `eagain` (RT queue full).
#[inline(always)]
pub fn queue(target: u32, sig: Signal, outcome: Result<Enqueued, Errno>, pending: &SigPending) {
    if on() {
        let result = match outcome {
            Ok(Enqueued::Queued) => "queued",
            Ok(Enqueued::Coalesced) => "coalesced",
            Ok(Enqueued::PendingWithoutInfo) => "nodeless",
            Err(_) => "eagain",
        };
        match (outcome, pending.newest()) {
            (Ok(Enqueued::Queued), Some(n)) => emit(format_args!(
                "queue pid={} signo={} result={} node={:#x}",
                target,
                sig.number(),
                result,
                n as *const SigQueueNode as usize
            )),
            _ => emit(format_args!("queue pid={} signo={} result={}", target, sig.number(), result)),
        }
    }
}

/// The target ignores the signal: it is dropped before the sigqueue.
#[inline(always)]
pub fn ignored(target: u32, sig: Signal) {
    if on() {
        emit(format_args!("queue pid={} signo={} result=ignored", target, sig.number()));
    }
}

/// A signal left the queue for delivery: `node` is the node itself, moved
/// out by pointer, or `None` when `signal.dequeue=copy` copied its siginfo out.
#[inline(always)]
pub fn dequeue(pid: u32, sig: Signal, node: Option<&SigQueueNode>) {
    if on() {
        match node {
            Some(n) => emit(format_args!(
                "dequeue pid={} signo={} node={:#x}",
                pid,
                sig.number(),
                n as *const SigQueueNode as usize
            )),
            None => emit(format_args!("dequeue pid={} signo={} node=copied", pid, sig.number())),
        }
    }
}

/// The frame was written: `frame` is the SigFrame/RtSigFrame's address,
/// `window` the user range KUAP was opened for (from the back chain at the
/// handler's r1 to the frame's end), `windows` how many windows that took (1,
/// or one per store with `signal.frame=field`), `ok` whether every store
/// landed (false: the process gets SIGSEGV instead of the handler).
#[inline(always)]
pub fn frame(pid: u32, signo: u32, kind: FrameKind, frame: u32, window: (u32, u32), windows: u32, ok: bool) {
    if on() {
        let size = match kind {
            FrameKind::Classic => SigFrame::SIZE,
            FrameKind::Rt => RtSigFrame::SIZE,
        };
        emit(format_args!(
            "frame pid={} signo={} kind={} frame={:#x} size={} window={:#x}+{} windows={} result={}",
            pid,
            signo,
            kind_name(kind),
            frame,
            size,
            window.0,
            window.1,
            windows,
            if ok { "ok" } else { "fault" }
        ));
    }
}

fn kind_name(kind: FrameKind) -> &'static str {
    match kind {
        FrameKind::Classic => "classic",
        FrameKind::Rt => "rt",
    }
}

/// Back to user mode at a handler: nip, r1 and lr (the trampoline in the frame).
#[inline(always)]
pub fn handler(pid: u32, signo: u32, nip: u32, sp: u32, lr: u32) {
    if on() {
        emit(format_args!("handler pid={} signo={} nip={:#x} sp={:#x} lr={:#x}", pid, signo, nip, sp, lr));
    }
}

/// sigreturn/rt_sigreturn read the frame at `frame` back; user mode resumes at `nip`.
#[inline(always)]
pub fn sigreturn(pid: u32, kind: FrameKind, frame: u32, nip: u32) {
    if on() {
        emit(format_args!("sigreturn pid={} kind={} frame={:#x} nip={:#x}", pid, kind_name(kind), frame, nip));
    }
}

/// No handler: the default action is taken (SIG_IGN is traced as `ignore`).
#[inline(always)]
pub fn default_action(pid: u32, signo: u32, action: DefaultAction) {
    if on() {
        let name = match action {
            DefaultAction::Terminate => "terminate",
            DefaultAction::CoreDump => "core",
            DefaultAction::Ignore => "ignore",
            DefaultAction::Stop => "stop",
            DefaultAction::Continue => "continue",
        };
        emit(format_args!("default pid={} signo={} action={}", pid, signo, name));
    }
}
