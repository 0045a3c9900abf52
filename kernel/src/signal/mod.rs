//! Signals in the kernel: sending, and what happens on the way back to
//! user mode.
//!
//! The rules live in sigil-core (`sigil_core::signal`): sets, actions, the
//! sigqueue, frame layouts. The state they act on is the processes'
//! (`proc::sigstate`: each thread's mask and pending set, each group's
//! shared set and handlers), one layer down, as Linux's
//! include/linux/sched/signal.h is below kernel/signal.c. This module
//! applies the rules to that state, the Linux way:
//! - a signal sent to a *process* (kill, rt_sigqueueinfo, a timer, a child's
//!   exit) is queued on the group's shared set, and `complete` picks the
//!   thread that will take it (Linux `complete_signal`): the main thread if
//!   it does not block it, else the first other thread that does not, which
//!   is woken; if every thread blocks it, it waits on the shared set;
//! - a signal sent to a *thread* (tgkill, tkill, rt_tgsigqueueinfo, a
//!   fault) is queued on that thread's private set;
//! - delivery takes the private set first, then the shared one (Linux
//!   `dequeue_signal`), still by pointer (deliver.rs);
//! - SIGKILL and every fatal default action end the whole group; a stop
//!   signal stops every thread (group stop) and SIGCONT resumes them.
//!
//! `check_pending` runs on every return to user mode whose thread has its
//! work flag set (`trap::return_to_user` tests it); for each deliverable
//! signal it performs the default action or builds the handler frame
//! (deliver.rs). swapcontext reuses the frame's
//! mcontext code for glibc's ucontext calls (context.rs). kill()'s
//! broadcast to a process group or to everyone is kill.rs; the exit path,
//! with the signals an exit sends (SIGCHLD, an orphaned group's SIGHUP and
//! SIGCONT), is exit.rs.

pub mod context;
pub mod deliver;
pub mod exit;
pub mod kill;
pub mod sigpage;
pub mod timer;

use sigil_core::abi::{self, wait_status, Errno};
use sigil_core::job::wait::ChildEvent;
use sigil_core::signal::{
    default_action, init_drops_default, DefaultAction, Disposition, SigAction, SigInfo, SigSet,
    Signal,
};

use core::mem::MaybeUninit;
use core::sync::atomic::Ordering;

use sigil_core::signal::queue::{queue_room, Enqueued, SigQueueNode, LIVE_NODES};

use crate::arch::TrapFrame;
use crate::kcell::KCell;
use crate::proc::sigstate::{doomed, group_work};
use crate::proc::waitq::WaitQueue;
use crate::proc::{self, Group, State, Thread};
use deliver::Dequeued;

/// RLIMIT_SIGPENDING, per user (`queue::SIGQUEUE_MAX`, with the whole
/// kernel's bound and `queue_room`; the timer layer bounds POSIX timers by
/// it too).
pub use sigil_core::signal::queue::SIGQUEUE_MAX;

/// Would `sig` be ignored or held back by thread `t` (the terminal's
/// SIGTTIN/SIGTTOU choice between stopping a job and failing its call;
/// Linux `is_ignored`: blocked, or SIG_IGN)?
pub fn ignored_or_blocked(t: &mut Thread, sig: Signal) -> bool {
    t.sig.blocked.contains(sig) || t.group().sig.action(sig).disposition() == Disposition::Ignore
}

/// Generates `info` for process `pid` (a process-directed signal).
pub fn send(pid: u32, info: SigInfo, rt_limit: bool) -> Result<(), Errno> {
    send_to(proc::get(pid).ok_or(Errno::ESRCH)?, info, rt_limit)
}

/// `send` for a caller that already holds the process. Every sender that
/// holds a finished `SigInfo` comes through here (or `send_to_thread`):
/// `generate` is generic over its description, a copy per closure type,
/// so these two keep it to one copy for all of them, and only the senders
/// that describe their info (`send_to_with`, `send_to_thread_with`) get
/// one each.
pub fn send_to(g: &mut Group, info: SigInfo, rt_limit: bool) -> Result<(), Errno> {
    generate(g, None, || info, rt_limit)
}

/// `send_to` for a sender that describes its info (kill): see
/// `send_to_thread_with`.
pub fn send_to_with(
    g: &mut Group,
    info: impl Fn() -> SigInfo,
    rt_limit: bool,
) -> Result<(), Errno> {
    generate(g, None, info, rt_limit)
}

/// Generates `info` for thread `tid` (a thread-directed signal).
pub fn send_thread(tid: u32, info: SigInfo, rt_limit: bool) -> Result<(), Errno> {
    send_to_thread(proc::thread(tid).ok_or(Errno::ESRCH)?, info, rt_limit)
}

/// `send_thread` for a caller that already holds the thread (one copy of
/// `generate` for them all: see `send_to`).
pub fn send_to_thread(t: &mut Thread, info: SigInfo, rt_limit: bool) -> Result<(), Errno> {
    generate(t.group(), Some(t), || info, rt_limit)
}

/// `send_to_thread` for a sender that describes its info (tkill/tgkill):
/// `info` is called for the checks and, last, to build the words into the
/// queue node once it is allocated (`SigPending::enqueue`), rather than
/// building them on the sender's stack and copying them into the node.
pub fn send_to_thread_with(
    t: &mut Thread,
    info: impl Fn() -> SigInfo,
    rt_limit: bool,
) -> Result<(), Errno> {
    generate(t.group(), Some(t), info, rt_limit)
}

/// Linux `send_signal` + `complete_signal`: SIGCONT and stop signals cancel
/// each other, ignored signals are dropped unless blocked, SIGKILL ends the
/// group at once, and the thread chosen to take the signal is woken so its
/// interruptible sleep can end. `info` describes the siginfo: called for
/// what the checks read, and last to build it into the queue node, so that
/// a sender's words are stored once (`SigPending::enqueue`).
fn generate(
    g: &mut Group,
    mut target: Option<&mut Thread>,
    info: impl Fn() -> SigInfo,
    rt_limit: bool,
) -> Result<(), Errno> {
    if g.zombie || g.exit.is_some() && g.exec_tid.is_none() {
        return Ok(());
    }
    let sig = info().signal();
    prepare(g, sig);
    crate::sigtrace!(generate(receiver_id(g, target.as_deref()), &info()));
    // A signal with a handler is never dropped: one compare of the handler
    // word, the usual case, before the rules for SIG_DFL and SIG_IGN.
    // PID 1 (init) drops what it has no handler for, as Linux's init does
    // (`init_drops_default`), whichever of its threads it is sent to.
    // SIG_DFL SIGCONT counts as ignored here too (Linux `sig_task_ignored`):
    // its effect was applied above (`prepare`).
    let action = g.sig.action(sig);
    if !matches!(action.disposition(), Disposition::Handler(_)) {
        let init_drops = g.pid == 1
            && action.disposition() == Disposition::Default
            && init_drops_default(&info());
        if (init_drops || action.is_ignored(sig, &SigSet::EMPTY))
            && dropped(g, target.as_deref(), sig)
        {
            return Ok(());
        }
    }
    // RT signals always count against the receiver's user limit
    // (SIGQUEUE_MAX) and the system-wide one, even from kill() (Linux
    // overrides it only for standard signals, which coalesce anyway): an
    // unbounded queue would let one process fill the kernel heap. A POSIX
    // timer's signal is never refused: the timer was charged when it was
    // made (timers::create) and queues at most one signal at a time, as a
    // Linux timer owns a preallocated sigqueue entry: no charge either.
    // A user's rt_sigqueueinfo may claim SI_TIMER (to itself), but only the
    // kernel's timer signals carry a tag (`timer_seq`): the forgery is
    // charged and limited like any other signal.
    let kernel_timer = info().code() == abi::SI_TIMER && info().timer_seq() != 0;
    let user = (!kernel_timer).then_some(&g.user.sigpending);
    let pending = match target.as_deref_mut() {
        Some(t) => {
            t.sig.work = true;
            &mut t.sig.pending
        }
        None => &mut g.sig.shared,
    };
    let room = match user {
        Some(count) if rt_limit || sig.is_rt() => {
            queue_room(count.get(), LIVE_NODES.load(Ordering::Relaxed))
        }
        _ => true,
    };
    // The outcome is tested before it is traced: tested after the trace's
    // call, it had to outlive that call, and its enum went through the
    // stack on every signal (a store, a load and a mask).
    let queued = pending.enqueue(info, room, user);
    if let Err(e) = queued {
        trace_queue(g, target.as_deref(), sig, queued);
        return Err(e);
    }
    trace_queue(g, target.as_deref(), sig, queued);
    complete(g, target, sig);
    Ok(())
}

/// The signal trace's line for `generate`'s queueing: its outcome and what
/// the receiver has pending after it.
#[inline(always)]
fn trace_queue(g: &Group, target: Option<&Thread>, sig: Signal, queued: Result<Enqueued, Errno>) {
    crate::sigtrace!(queue(
        receiver_id(g, target),
        sig,
        queued.ok(),
        target.map_or(&g.sig.shared, |t| &t.sig.pending)
    ));
}

/// The id the signal trace gives a signal's receiver: the thread's for a
/// thread-directed signal, the process's for a process-directed one.
/// Computed in each trace, so that `generate` keeps no register for it.
fn receiver_id(g: &Group, target: Option<&Thread>) -> u32 {
    target.map_or(g.pid, |t| t.tid)
}

/// An ignored signal is dropped unless blocked: Linux `sig_ignored` looks
/// at the mask of the thread it was sent to, the main thread for a process
/// (or the oldest left). Out of line, as `prepare`'s halves and
/// `kill_group`: asked only for a signal that would be ignored, and the
/// registers its lookups need would be saved by every `generate`.
#[cold]
#[inline(never)]
fn dropped(g: &mut Group, target: Option<&Thread>, sig: Signal) -> bool {
    let blocked = match target {
        Some(t) => t.sig.blocked,
        None => g.members().next().map_or(SigSet::EMPTY, |t| t.sig.blocked),
    };
    if blocked.contains(sig) {
        return false;
    }
    crate::sigtrace!(ignored(receiver_id(g, target), sig));
    true
}

/// The side effects of generating `sig`, whatever happens to it (Linux
/// `prepare_signal`): SIGCONT resumes a stopped group and discards pending
/// stop signals; a stop signal discards a pending SIGCONT. Only the test is
/// inline: the two halves are out of line, so that their loops' registers
/// are not saved by every `generate`.
#[inline(always)]
fn prepare(g: &mut Group, sig: Signal) {
    match sig.number() {
        abi::SIGCONT => prepare_cont(g),
        abi::SIGSTOP | abi::SIGTSTP | abi::SIGTTIN | abi::SIGTTOU => prepare_stop(g),
        _ => {}
    }
}

#[cold]
#[inline(never)]
fn prepare_cont(g: &mut Group) {
    g.sig.shared.flush_stop();
    for t in g.members() {
        t.sig.pending.flush_stop();
    }
    if g.stop.take().is_some() {
        g.report = Some(ChildEvent::Continued);
        for t in g.members().filter(|t| t.state == State::Stopped) {
            proc::wake(t);
        }
        notify_parent_stop(g);
    }
}

#[cold]
#[inline(never)]
fn prepare_stop(g: &mut Group) {
    g.sig.shared.flush_cont();
    for t in g.members() {
        t.sig.pending.flush_cont();
    }
}

/// SIGKILL that was not dropped ends the group now (Linux
/// `complete_signal`'s fatal path, which for SIGKILL is unconditional),
/// also during another thread's exec: that thread dies too. Every member is
/// woken, whatever it blocks and wherever it sleeps or stopped.
#[cold]
#[inline(never)]
fn kill_group(g: &mut Group) {
    g.exit = Some(wait_status::signaled(abi::SIGKILL, false));
    group_work(g);
    g.exec_tid = None;
    g.stop = None;
    for t in g.members() {
        proc::wake(t);
    }
}

/// Does `t` take `sig` now? (Linux `wants_signal`; SIGKILL, which a
/// stopped thread takes too, never asks: `complete` has woken every member.)
fn wants(t: &Thread, sig: Signal) -> bool {
    !t.sig.blocked.contains(sig) && t.state != State::Stopped
}

/// Picks the thread that takes `sig` and wakes it (Linux `complete_signal`):
/// SIGKILL, once queued, ends the group (`kill_group`, Linux's fatal path
/// there); otherwise the target of a thread-directed signal, and for a
/// process-directed one the main thread if it wants it, else the first
/// other thread that does. The SIGKILL test is here, after the queueing,
/// not before it: the queue's own SIGKILL test (no node) came after the
/// `kill_group` call then, and LLVM kept the one compare's result in a
/// non-volatile CR field across it, which tgkill's sender paid for by
/// saving CR (and a register more) on every signal.
/// The thread-directed half is inline into `generate`: it needs only the
/// target's mask and state, and as a call of its own it saved and restored
/// five registers for the search (38 -> ~15 a raise).
#[inline(always)]
fn complete(g: &mut Group, target: Option<&mut Thread>, sig: Signal) {
    if sig.number() == abi::SIGKILL {
        return kill_group(g);
    }
    match target {
        Some(t) => wake_taker(t, sig),
        None => complete_process(g, sig),
    }
}

/// `complete` for a process-directed signal, just queued on the shared set:
/// the group's work (`proc::sigstate::group_work`), then the taker, as
/// Linux's `complete_signal` picks it: the main thread (the oldest member)
/// if it wants the signal, else the first other thread that does; with none,
/// it waits on the shared set (and a signalfd reader may take it). The
/// members are reached by pointer, so the second walk costs a few loads.
/// Inline: its callers are process-directed senders (kill's own copy of
/// `generate`, `send_to`'s) and `retarget`'s out-of-line loop, none of
/// which a thread-directed signal runs, and the call and its frame cost
/// kill more than the loops' registers.
#[inline(always)]
fn complete_process(g: &mut Group, sig: Signal) {
    group_work(g);
    match g.members().find(|t| wants(t, sig)) {
        Some(t) => wake_sleeping(t),
        None => notify_signalfd(),
    }
}

/// Wakes `t` if it takes `sig` now (a thread-directed signal's target); if
/// it blocks it, a signalfd reader or poller may be waiting for it (Linux
/// `signalfd_notify`). A thread that takes the signal needs no such
/// wake-up: a signalfd read it sleeps in is interrupted.
#[inline(always)]
fn wake_taker(t: &mut Thread, sig: Signal) {
    if !t.sig.blocked.contains(sig) {
        wake_sleeping(t);
    } else {
        notify_signalfd();
    }
}

/// The taker of a signal ends an interruptible sleep (a stopped thread
/// stays stopped: SIGCONT or SIGKILL wakes it).
#[inline(always)]
fn wake_sleeping(t: &mut Thread) {
    if let State::Sleeping(_) = t.state {
        proc::wake(t);
    }
}

/// Every thread blocked reading, or polling, any signalfd (event/signalfd.rs
/// sleeps and polls on it; the queue is here so that generation wakes it
/// without a call up into the files).
pub static SIGNALFD_READERS: KCell<WaitQueue> = KCell::new(WaitQueue::new());

/// A signal was generated, or a signalfd's mask changed: signalfd readers
/// and pollers look again.
#[inline(always)]
pub fn notify_signalfd() {
    let readers = SIGNALFD_READERS.get();
    if !readers.is_empty() {
        readers.wake();
    }
}

/// The current thread has just blocked `newly`: process-directed signals
/// pending among them go to a thread that still takes them, which is woken
/// (Linux `retarget_shared_pending`). Only the test is inline (every
/// sigprocmask that sets the mask runs it); the loop, with
/// `complete_process` inline in it, is out of line, so that its registers
/// are not saved by every mask change.
#[inline(always)]
pub fn retarget(newly: SigSet) {
    let g = proc::group();
    let left = g.sig.shared.pending().intersect(newly);
    if !left.is_empty() {
        retarget_each(g, left);
    }
}

/// `retarget` for the signals `left` that wait on the shared set.
#[cold]
#[inline(never)]
fn retarget_each(g: &mut Group, mut left: SigSet) {
    while let Some(sig) = left.lowest() {
        left.remove(sig);
        complete(g, None, sig);
    }
}

/// A fault in user mode (SIGSEGV, SIGILL, ...), sent to the faulting
/// thread: if the signal is blocked or ignored, the default action is
/// forced, as Linux `force_sig_fault` does.
pub fn force_fault(tf: &TrapFrame, signo: u32, code: i32, addr: u32) {
    let t = proc::current();
    let g = t.group();
    crate::kprintln!(
        "sigil: pid {} ({}): signal {} code {} at {:#x}, nip {:#x}",
        g.pid,
        g.name,
        signo,
        code,
        addr,
        tf.pc()
    );
    let sig = Signal::new(signo).expect("valid fault signal");
    if t.sig.blocked.contains(sig) || g.sig.action(sig).disposition() == Disposition::Ignore {
        t.sig.blocked.remove(sig);
        *g.sig.action(sig) = SigAction::default();
    }
    let _ = send_thread(t.tid, SigInfo::fault(sig, code, addr), false);
}

/// A legal page fault found no free frame: the current process gets SIGKILL
/// (Linux's OOM killer would pick the biggest process; Sigil picks the one
/// asking, which cannot catch it or loop on a handler) and a console line.
pub fn out_of_memory(ea: u32) {
    let g = proc::group();
    crate::kprintln!("sigil: out of memory at {:#x}: killing pid {} ({})", ea, g.pid, g.name);
    let _ = send(g.pid, SigInfo::kernel(Signal::SIGKILL), false);
}

/// Takes the next signal of `want` off `t`'s own queue, else its
/// process's, for a taker that is not a handler (sigtimedwait, a signalfd
/// read); a stale timer signal is dropped and the next one taken (Linux
/// `dequeue_signal`). Inlined into its two callers: as a call of its own
/// it made sigwait's ping-pong 80 instructions dearer (thread_pingpong
/// 2627 -> 2707). The work flags are recalculated after a take, as Linux's
/// `dequeue_signal` calls `recalc_sigpending`: the taken signal set them,
/// and left set they would send the way back to user mode into
/// `check_pending` for nothing.
#[inline(always)]
pub fn take(t: &mut Thread, want: SigSet) -> Option<alloc::boxed::Box<SigQueueNode>> {
    let others = SigSet::from_bits(!want.bits());
    loop {
        let mut node =
            t.sig.pending.dequeue(others).or_else(|| t.group().sig.shared.dequeue(others))?;
        if crate::time::timers::on_dequeue(|| t.group().pid, &mut node.info, &proc::cpu_clock) {
            recalc(t, t.group());
            return Some(node);
        }
    }
}

/// SIGCHLD (CLD_STOPPED or CLD_CONTINUED, unless the parent set
/// SA_NOCLDSTOP) for the stop or continue `g.report` holds, and a wake-up
/// of the parent's waits.
fn notify_parent_stop(g: &mut Group) {
    let ppid = g.ppid;
    let nocldstop = proc::get(ppid)
        .map(|pp| pp.sig.action(Signal::SIGCHLD).flags() & abi::SA_NOCLDSTOP != 0)
        .unwrap_or(true);
    if let Some(event) = g.report.filter(|_| !nocldstop) {
        let _ = send(ppid, event.siginfo(g.pid, 0), false);
    }
    proc::wakeup(proc::wait::wait_chan(ppid));
}

/// Clears the work flags that no longer hold (Linux `recalc_sigpending`,
/// which also looks at the mask; these flags do not, so mask changes never
/// touch them). The price: while a blocked signal stays pending, every
/// return to user mode takes the out-of-line `check_pending` and finds
/// nothing to deliver.
fn recalc(t: &mut Thread, g: &mut Group) {
    g.sig.work = !g.sig.shared.pending().is_empty() || g.stop.is_some() || g.exit.is_some();
    t.sig.work = g.sig.work || !t.sig.pending.pending().is_empty();
}

/// A system call is returning a restart code: the way back to user mode
/// restarts it or turns it into EINTR (`deliver::restart_syscall`). Inline:
/// it is two stores on the error path, a call would cost more. The thread
/// is `proc::running()`, unchecked: only a system call returns a restart
/// code, and a user system call always has a running thread
/// (kernel/src/syscall/mod.rs, `finish`).
#[inline]
pub fn note_restart() {
    // SAFETY: a running thread, as above; the reference lives for one store.
    unsafe { (*proc::running()).sig.work = true };
}

/// A return to user mode whose thread has its work flag set (Linux
/// `do_signal` in its exit-to-user loop): deliver what is deliverable, or
/// clear the flags; then finish an interrupted system call and put a wait's
/// saved mask back. The flag's test is the caller's, inline on every return
/// (`trap::return_to_user`, as Linux tests its `_TIF_WORK_MASK` before
/// calling anything): a queued signal, a restart code, a saved mask, the
/// group's work (`proc::sigstate::group_work`) and the tick's reschedule
/// all set it, so the common return tests nothing else. `t` is the running
/// thread, as the caller looked it up: passed down, not found again (each
/// `proc::current()` is a load, a null test and a branch to its panic).
/// Inline into that caller's out-of-line slow half.
///
/// Each round is `deliver_next`, until it finds nothing more to do (Linux
/// calls `get_signal` from its exit-to-user loop the same way). There is
/// no "anything deliverable?" test before the first round: the round asks
/// it anyway (the group's end or stop, then the dequeue), and the usual
/// reason for the flag is a signal to deliver, which paid for both (15
/// instructions a delivery). A flag set for a restart code or a saved mask
/// alone, or by a signal that stays blocked, costs that round's empty
/// dequeue instead.
/// The round is inline in the loop. LLVM hoists its constants (the MSR
/// masks, static addresses) out of the loop into saved registers and stack
/// slots, which every return with work pays for before the first round
/// (about 20 instructions); but a round of its own was a second prologue
/// and epilogue with its saved registers, and the loop's test of its
/// result, which cost more (13 a raise, 14 a ping-pong). A round that found nothing
/// more ends with `finish_return`, on the thread as it then is; the usual
/// last round, a handler entered with nothing left, does not need it: the
/// handler's frame finished the restart and took the saved mask
/// (`deliver::handle_signal`), so its tests could only fail, as Linux's
/// `arch_do_signal_or_restart` returns after `handle_signal`.
#[inline]
pub fn check_pending(tf: &mut TrapFrame, mut t: &'static mut Thread) {
    // The handler whose frame was set up last: it is the one user mode
    // enters. A number, 0 for none: an `Option<Signal>` took two registers.
    let mut entered = 0;
    loop {
        match deliver_next(tf, t) {
            Round::EnteredLast(sig) => {
                entered = sig.number();
                break;
            }
            Round::Entered(sig) => entered = sig.number(),
            Round::Again => t = again(),
            Round::Done => {
                finish_return(tf, t);
                break;
            }
        }
    }
    crate::sigtrace!(handler(
        t.group().pid,
        Signal::new(entered),
        tf.pc(),
        tf.sp(),
        tf.return_address()
    ));
}

/// The end of a `check_pending` that entered no handler (a handler's frame
/// does both itself: `deliver::handle_signal`): finish an interrupted system
/// call and put a wait's saved mask back. Inlined where each such return
/// ends, so that after a delivery `check_pending` does nothing but return
/// (the restart and mask tests after the call cost it a saved register and
/// 4 instructions a signal; ppc32 has no tail call to make the call itself
/// go).
#[inline(always)]
fn finish_return(tf: &mut TrapFrame, t: &mut Thread) {
    deliver::restart_syscall(tf, None);
    // Test before clearing: `take()` would store None every time (a handler
    // frame has taken the mask already).
    if let Some(mask) = t.sig.saved_mask {
        t.sig.saved_mask = None;
        t.sig.blocked = mask;
    }
}

/// The running thread for the next round after `Round::Again`: after a
/// stop, what ran meanwhile changed the thread through its own reference,
/// so the one held from before is not used again. Out of line and cold:
/// in line, LLVM hoisted the lookup's static address out of the loop into
/// a saved register, which every return with work paid for (sigwait's too).
#[cold]
#[inline(never)]
fn again() -> &'static mut Thread {
    proc::current()
}

/// What one round of `deliver_next` did: the loop keeps the running thread
/// and the entered handler itself, where a pointer to each (written through
/// by the round) put them in stack slots and made the round load the thread
/// again after every store. (Its tag was a word while the round was a call
/// of its own, as a byte cleared after every call; inline, its size made no
/// difference.)
enum Round {
    /// `sig`'s handler frame was set up, and the work flags are clear.
    EnteredLast(Signal),
    /// `sig`'s handler frame was set up; more may be pending.
    Entered(Signal),
    /// A default action was performed, a frame failed, or the thread
    /// stopped and ran again: look the running thread up and look again.
    Again,
    /// Nothing left to deliver: the work flags are clear.
    Done,
}

/// One round of `check_pending`: end or stop the group, or take the next
/// deliverable signal and build its handler's frame (or perform its default
/// action). Inline in `check_pending`'s loop (which says why). The rare
/// arms (exit, stop, SIG_IGN and SIG_DFL) are out of line, so that the
/// common one, a handled signal, saves only the registers the frame writer
/// needs. `t` is the running thread.
#[inline(always)]
fn deliver_next(tf: &mut TrapFrame, t: &mut Thread) -> Round {
    let g = t.group();
    if doomed(t, g) || g.stop.is_some() {
        exit_or_stop(t, g);
        return Round::Again;
    }
    let mut copy = MaybeUninit::uninit(); // `signal.dequeue=copy`'s buffer
    let Some(node) = deliver::dequeue(t, &mut copy) else {
        // Nothing left to deliver: the flags can go now, so the sigreturn
        // that ends the handler finds them clear.
        recalc(t, g);
        return Round::Done;
    };
    let sig = node.info().signal();
    // The action is looked up once, here, and handed down.
    let action = g.sig.action(sig);
    if !matches!(action.disposition(), Disposition::Handler(_)) {
        no_handler(g, sig, node);
        return Round::Again;
    }
    // Every deliverable signal gets its frame now, each stacked on the last
    // (as Linux's exit-to-user loop does): the last one set up runs first,
    // and each handler's mask applies to the ones after it.
    let entered = deliver::handle_signal(tf, t, node.info(), sig, action);
    // The node's last moment: its siginfo is on the user stack now.
    drop(node);
    // Usually that was the only signal: with both sets empty and nothing
    // stopping or ending, the flags go now, without another round's
    // lookups and a dequeue that finds nothing.
    recalc(t, g);
    match (entered, t.sig.work) {
        (true, true) => Round::Entered(sig),
        (true, false) => Round::EnteredLast(sig),
        (false, true) => Round::Again,
        (false, false) => Round::Done,
    }
}

/// The group is ending (the thread leaves now) or stopping: the thread
/// stops until SIGCONT, and the caller looks the running thread up again.
#[cold]
#[inline(never)]
fn exit_or_stop(t: &mut Thread, g: &mut Group) {
    if doomed(t, g) {
        exit::exit(g.exit.expect("doomed"));
    }
    t.state = State::Stopped;
    proc::schedule();
}

/// A dequeued signal whose action is SIG_IGN or SIG_DFL: its default action
/// (which may stop the group, or end it and never return).
#[cold]
#[inline(never)]
fn no_handler(g: &mut Group, sig: Signal, node: Dequeued) {
    if g.sig.action(sig).disposition() == Disposition::Ignore {
        crate::sigtrace!(default_action(g.pid, sig.number(), DefaultAction::Ignore));
        return;
    }
    // Free the node first: a terminating action never returns here, so a
    // node still owned by this frame would leak.
    drop(node);
    let action = default_action(sig);
    crate::sigtrace!(default_action(g.pid, sig.number(), action));
    match action {
        DefaultAction::Ignore | DefaultAction::Continue => {}
        DefaultAction::Stop => group_stop(g, sig),
        DefaultAction::Terminate => exit::exit_group(wait_status::signaled(sig.number(), false)),
        DefaultAction::CoreDump => core_dump(sig),
    }
}

/// A core-dump signal's default action. Linux writes a core only if the
/// RLIMIT_CORE soft limit allows it, and the WCOREDUMP bit of the wait status
/// says whether it did. Sigil has no filesystem to write one to: with a
/// non-zero limit it reports the dump as done (the bit is set) and says on
/// the console that the image was not kept; with the default limit 0 it
/// behaves exactly as Linux does.
fn core_dump(sig: Signal) -> ! {
    let g = proc::group();
    let core = g.limits.cur(sigil_core::rlimit::RLIMIT_CORE) > 0;
    if core {
        crate::kprintln!(
            "sigil: pid {} ({}) killed by signal {}: core dumped (no image kept)",
            g.pid,
            g.name,
            sig.number()
        );
    }
    exit::exit_group(wait_status::signaled(sig.number(), core))
}

/// SIGSTOP & co: the whole group stops until SIGCONT (or SIGKILL), and the
/// parent is told. Each thread stops itself on its way to user mode
/// (`check_pending`); the sleeping ones are woken to do so.
fn group_stop(g: &mut Group, sig: Signal) {
    g.stop = Some(sig.number());
    group_work(g);
    g.report = Some(ChildEvent::Stopped(sig.number()));
    for t in g.members() {
        if let State::Sleeping(_) = t.state {
            proc::wake(t);
        }
    }
    notify_parent_stop(g);
}
