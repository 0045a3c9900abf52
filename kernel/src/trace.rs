//! The signal trace (`trace=signal` on the command line): one compact line per
//! step of a signal's life, so a student can watch one travel. Printed even
//! under `quiet`, because the trace is the point of booting with it.
//!
//! Line format (parsed by `sigil-trace`, qemu/src/trace.rs): `@sig <event>`
//! then `key=value` words. `pid` is always the process the event happens to;
//! the last word, `t=`, is the guest time in nanoseconds since boot (under
//! QEMU's `-icount`, a count of instructions: the same on every run). It is
//! read as the line is printed, and printing on the serial console takes
//! guest time too: a gap between two events includes the trace's own cost.
//!
//! | event       | where                         | what it says                                  |
//! |-------------|-------------------------------|-----------------------------------------------|
//! | `generate`  | signal::send                  | sender (si_pid; 0 = the kernel), signo, si_code |
//! | `queue`     | signal::send                  | what the sigqueue did, the node's address     |
//! | `dequeue`   | deliver::dequeue              | the node handed to delivery (by pointer)      |
//! | `frame`     | deliver::handle_signal        | frame address and size, the window opened     |
//! | `handler`   | signal::check_pending         | the user registers the handler starts with    |
//! | `sigreturn` | deliver::restore_frame        | the frame read back, where user mode resumes  |
//! | `default`   | signal::no_handler            | a default (or SIG_IGN) action instead of a handler |
//!
//! # Cost when off
//! Call sites write `sigtrace!(event(args))`, which expands to
//! `if static_branch!(trace::ENABLED) { trace::event(args) }`: the arguments
//! are evaluated only inside the branch, and the test is one `nop` that
//! `trace=signal` patches into a branch at boot (a static key,
//! `crate::static_key`). The printers are `#[cold]`, so the compiler lays
//! them out of line. Check with `powerpc-linux-gnu-objdump -d`: the `nop`
//! is the only trace code on the path (docs/signals.md).

use core::fmt;

use sigil_core::signal::frame::FrameKind;
use sigil_core::signal::{DefaultAction, Enqueued, SigInfo, SigPending, SigQueueNode, Signal};

use crate::static_key::StaticKey;

/// Enabled by `trace=signal` (cmdline.rs) before any process exists.
/// Exported under a name of its own, for a debugger (`print
/// sigil_trace_enabled`).
#[export_name = "sigil_trace_enabled"]
pub static ENABLED: StaticKey = StaticKey::new();

/// `sigtrace!(event(args))`: prints trace event `event` if the trace is on;
/// the arguments are not even evaluated when it is off.
#[macro_export]
macro_rules! sigtrace {
    ($event:ident($($arg:expr),* $(,)?)) => {
        if $crate::static_key::static_branch!($crate::trace::ENABLED) {
            $crate::trace::$event($($arg),*)
        }
    };
}

#[inline(never)]
fn emit(args: fmt::Arguments) {
    let t = crate::time::timer::now_ns();
    crate::console::print_always(format_args!("@sig {} t={}\n", args, t));
}

/// A signal was generated for `target` (before the sigqueue sees it).
#[cold]
pub fn generate(target: u32, info: &SigInfo) {
    emit(format_args!(
        "generate pid={} sender={} signo={} code={}",
        target,
        info.pid(),
        info.signo(),
        info.code()
    ));
}

/// What the sigqueue did with it (`SigPending::enqueue`): `queued` (a node
/// was linked; its address is printed), `coalesced`, `nodeless` (pending
/// without info), or `eagain` (RT queue full: `outcome` None, the error's
/// only kind). An `Option` of a one-byte enum is one register: a `Result`
/// with the `Errno` went through the stack, stored on every send.
#[cold]
pub fn queue(target: u32, sig: Signal, outcome: Option<Enqueued>, pending: &SigPending) {
    let result = match outcome {
        Some(Enqueued::Queued) => "queued",
        Some(Enqueued::Coalesced) => "coalesced",
        Some(Enqueued::PendingWithoutInfo) => "nodeless",
        None => "eagain",
    };
    match (outcome, pending.newest(sig)) {
        (Some(Enqueued::Queued), Some(n)) => emit(format_args!(
            "queue pid={} signo={} result={} node={:#x}",
            target,
            sig.number(),
            result,
            n as *const SigQueueNode as usize
        )),
        _ => emit(format_args!("queue pid={} signo={} result={}", target, sig.number(), result)),
    }
}

/// The target ignores the signal: it is dropped before the sigqueue.
#[cold]
pub fn ignored(target: u32, sig: Signal) {
    emit(format_args!("queue pid={} signo={} result=ignored", target, sig.number()));
}

/// A signal left the queue for delivery: `node` is the node itself, moved
/// out by pointer, or `None` when `signal.dequeue=copy` copied its siginfo out.
#[cold]
pub fn dequeue(pid: u32, sig: Signal, node: Option<&SigQueueNode>) {
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

/// The frame was written: `frame` is the SigFrame/RtSigFrame's address,
/// `window` the user range KUAP was opened for (from the back chain at the
/// handler's r1 to the frame's end), `windows` how many windows that took (1,
/// or one per store with `signal.frame=field`), `ok` whether every store
/// landed (false: the process gets SIGSEGV instead of the handler).
#[cold]
pub fn frame(
    pid: u32,
    signo: u32,
    kind: FrameKind,
    frame: u32,
    window: (u32, u32),
    windows: u32,
    ok: bool,
) {
    let size = kind.size();
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

fn kind_name(kind: FrameKind) -> &'static str {
    match kind {
        FrameKind::Classic => "classic",
        FrameKind::Rt => "rt",
    }
}

/// The end of `check_pending`: if a handler frame was set up (`entered`, the last
/// one when several were stacked), user mode now starts in that handler with
/// these nip, r1 and lr (lr = the frame's trampoline in the signal page).
#[cold]
pub fn handler(pid: u32, entered: Option<Signal>, nip: u32, sp: u32, lr: u32) {
    if let Some(sig) = entered {
        emit(format_args!(
            "handler pid={} signo={} nip={:#x} sp={:#x} lr={:#x}",
            pid,
            sig.number(),
            nip,
            sp,
            lr
        ));
    }
}

/// sigreturn/rt_sigreturn read the frame at `frame` back; user mode resumes at `nip`.
#[cold]
pub fn sigreturn(pid: u32, kind: FrameKind, frame: u32, nip: u32) {
    emit(format_args!(
        "sigreturn pid={} kind={} frame={:#x} nip={:#x}",
        pid,
        kind_name(kind),
        frame,
        nip
    ));
}

/// No handler: the default action is taken (SIG_IGN is traced as `ignore`).
#[cold]
pub fn default_action(pid: u32, signo: u32, action: DefaultAction) {
    let name = match action {
        DefaultAction::Terminate => "terminate",
        DefaultAction::CoreDump => "core",
        DefaultAction::Ignore => "ignore",
        DefaultAction::Stop => "stop",
        DefaultAction::Continue => "continue",
    };
    emit(format_args!("default pid={} signo={} action={}", pid, signo, name));
}
