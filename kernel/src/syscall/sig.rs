//! Signal system calls: sending (kill, tkill, tgkill, rt_sigqueueinfo,
//! rt_tgsigqueueinfo), actions and masks (rt_sigaction, rt_sigprocmask,
//! rt_sigpending), waiting (rt_sigsuspend, pause, rt_sigtimedwait), the
//! alternate stack (sigaltstack), and the way back from a handler
//! (sigreturn, rt_sigreturn).

use sigil_core::abi::{self, Errno};
use sigil_core::job::kill::kill_target;
use sigil_core::signal::action::check_rt_sigaction;
use sigil_core::signal::frame::FrameKind;
use sigil_core::signal::info::{check_queue_code, SIGINFO_USER_SIZE};
use sigil_core::signal::{SigAction, SigInfo, SigSet, Signal, StackT};

use super::SysResult;
use crate::arch::TrapFrame;
use crate::proc;
use crate::signal::{self, deliver};
use crate::uaccess::{Read, UserWindow, Write};

pub(super) fn signal_or_zero(sig: u32) -> Result<Option<Signal>, Errno> {
    if sig == 0 {
        return Ok(None);
    }
    Signal::new(sig).map(Some).ok_or(Errno::EINVAL)
}

/// kill(pid, sig): one process, the caller's group (0), a group (< -1) or
/// everyone but PID 1 and the caller (-1); sigil-core's `job::kill` decodes
/// the target, `signal::kill::send` reaches it, each process once (on its
/// shared pending set). A thread's id names its process, as on Linux.
/// Each target must pass the permission check (`cred::may_signal`).
pub fn kill(pid: i32, sig: u32) -> SysResult {
    let sig = signal_or_zero(sig)?;
    let (me, my_pgid, uid) = {
        let g = proc::group();
        (g.pid, g.job.pgid, g.cred.uid.real)
    };
    if pid > 0 {
        // One target, the common case (ping-pong): no list to allocate.
        let target = process_of(pid as u32)?;
        crate::cred::may_signal(target, sig.map_or(0, |s| s.number()))?;
        return match sig {
            Some(sig) => {
                signal::send_to_with(target, || SigInfo::kill(sig, me, uid), false).map(|_| 0)
            }
            None => Ok(0),
        };
    }
    let target = kill_target(pid, my_pgid)?;
    signal::kill::send(target, sig.map(|s| SigInfo::kill(s, me, uid))).map(|_| 0)
}

/// The process `id` names: a process, or one of its threads. Inline into
/// kill, where the call and its frame cost more than the slot lookup.
#[inline(always)]
fn process_of(id: u32) -> Result<&'static mut proc::Group, Errno> {
    match proc::get(id) {
        Some(g) => Ok(g),
        None => proc::thread(id).map(|t| t.group()).ok_or(Errno::ESRCH),
    }
}

/// The thread `tid`, checked to be in process `tgid` unless that is 0
/// (tkill), and to be one the caller may send `sig` (0: the existence
/// check) to: its process's permission check. Looked up once, for the
/// checks and the send. Inline into its two callers (tgkill and
/// rt_tgsigqueueinfo): as a call it had a prologue of its own.
#[inline(always)]
fn signal_target(tgid: u32, tid: u32, sig: u32) -> Result<&'static mut proc::Thread, Errno> {
    let t = proc::thread(tid).ok_or(Errno::ESRCH)?;
    if tgid != 0 && t.group().pid != tgid {
        return Err(Errno::ESRCH);
    }
    crate::cred::may_signal(t.group(), sig)?;
    Ok(t)
}

/// tgkill(tgid, tid, sig): a signal for one thread of process `tgid`, queued
/// on its private set. This is what glibc's raise() and pthread_kill call.
pub fn tgkill(tgid: u32, tid: u32, sig: u32) -> SysResult {
    thread_kill::<true>(tgid, tid, sig)
}

/// tkill(tid, sig): tgkill without the thread group check.
pub fn tkill(tid: u32, sig: u32) -> SysResult {
    thread_kill::<false>(0, tid, sig)
}

/// tgkill (`TGKILL`) and tkill (tgid 0): tgid and tid must be positive
/// (Linux: EINVAL), and the signal number is checked before the thread is
/// looked up, as Linux does. Inline in both table entries, a copy each:
/// called from the entry, its frame, saved registers and the `Result`
/// handed back through two registers cost tgkill 19 instructions. Generic,
/// so that each copy has its own closure building the siginfo, and so its
/// own generation (`generate` is generic over it) with one caller, inlined
/// into it; a generation shared by both entries was a call of its own
/// (+33 a raise).
#[inline(always)]
fn thread_kill<const TGKILL: bool>(tgid: u32, tid: u32, sig: u32) -> SysResult {
    if (TGKILL && tgid as i32 <= 0) || tid as i32 <= 0 {
        return Err(Errno::EINVAL);
    }
    let sig = signal_or_zero(sig)?;
    let t = signal_target(tgid, tid, sig.map_or(0, |s| s.number()))?;
    let me = proc::group();
    match sig {
        Some(sig) => {
            let (pid, uid) = (me.pid, me.cred.uid.real);
            signal::send_to_thread_with(t, || SigInfo::tkill(sig, pid, uid), false).map(|_| 0)
        }
        None => Ok(0),
    }
}

/// rt_sigaction(sig, act, oldact, sigsetsize): the 20-byte ppc `struct sigaction`.
pub fn rt_sigaction(sig: u32, act: u32, oldact: u32, sigsetsize: u32) -> SysResult {
    let sig = check_rt_sigaction(sig, sigsetsize, act != 0)?;
    let new = if act != 0 { Some(SigAction::from_words(sig, read_words(act)?)) } else { None };
    if oldact != 0 {
        write_words(oldact, &proc::group().sig.action(sig).to_words())?;
    }
    new.map_or(Ok(0), |new| set_action(sig, new))
}

/// sigaction(sig, act, oldact): the old 16-byte `struct old_sigaction`,
/// whose mask covers signals 1..32.
pub fn sigaction(sig: u32, act: u32, oldact: u32) -> SysResult {
    let sig = check_rt_sigaction(sig, abi::SIGSET_SIZE, act != 0)?;
    let new = if act != 0 { Some(SigAction::from_old_words(sig, read_words(act)?)) } else { None };
    if oldact != 0 {
        write_words(oldact, &proc::group().sig.action(sig).to_old_words())?;
    }
    new.map_or(Ok(0), |new| set_action(sig, new))
}

/// Installs `new` for `sig`, for every thread of the process. Setting
/// SIG_IGN (or a default that ignores) discards what is pending, on the
/// shared set and on every thread's; no longer ignoring it restarts the
/// periodic timers that stopped while it was ignored (timers::sig_unignore).
fn set_action(sig: Signal, new: SigAction) -> SysResult {
    let g = proc::group();
    let was_ignored = g.sig.action(sig).is_ignored(sig, &SigSet::EMPTY);
    *g.sig.action(sig) = new;
    if new.is_ignored(sig, &SigSet::EMPTY) {
        g.sig.shared.flush_signal(sig);
        for t in g.members() {
            t.sig.pending.flush_signal(sig);
        }
    } else if was_ignored {
        for ts in crate::time::timers::sig_unignore(g.pid, sig) {
            crate::signal::timer::queue_timer_signal(g.pid, ts);
        }
    }
    Ok(0)
}

fn read_words<const N: usize>(addr: u32) -> Result<[u32; N], Errno> {
    let w = UserWindow::open(addr, 4 * N as u32, Read)?;
    let words = core::array::from_fn(|i| w.get(4 * i as u32));
    w.finish()?;
    Ok(words)
}

fn write_words(addr: u32, words: &[u32]) -> Result<(), Errno> {
    let mut w = UserWindow::open(addr, 4 * words.len() as u32, Write)?;
    for (i, v) in words.iter().enumerate() {
        w.put(4 * i as u32, *v);
    }
    w.finish().map_err(Errno::from)
}

/// rt_sigprocmask(how, set, oldset, sigsetsize): the calling thread's mask.
pub fn rt_sigprocmask(how: u32, set: u32, oldset: u32, sigsetsize: u32) -> SysResult {
    if sigsetsize != abi::SIGSET_SIZE {
        return Err(Errno::EINVAL);
    }
    let old = proc::current().sig.blocked;
    let new = if set != 0 { Some(read_sigset(set)?) } else { None };
    let (a, b) = old.words();
    change_mask(how, new, old, oldset, &[a, b])
}

/// sigprocmask(how, set, oldset): the old call, on signals 1..32 only;
/// SIG_SETMASK keeps the mask of 33..64, as Linux's.
pub fn sigprocmask(how: u32, set: u32, oldset: u32) -> SysResult {
    let old = proc::current().sig.blocked;
    let new = if set != 0 {
        let [low] = read_words(set)?;
        let high = if how == abi::SIG_SETMASK { old.words().1 } else { 0 };
        Some(SigSet::from_user_words(low, high))
    } else {
        None
    };
    change_mask(how, new, old, oldset, &[old.words().0])
}

/// Applies `new` with `how` (if given) after writing `old_words` to `oldset`.
fn change_mask(
    how: u32,
    new: Option<SigSet>,
    old: SigSet,
    oldset: u32,
    old_words: &[u32],
) -> SysResult {
    let new = new.map(|s| old.apply_how(how, s)).transpose()?;
    if oldset != 0 {
        write_words(oldset, old_words)?;
    }
    if let Some(new) = new {
        let t = proc::current();
        t.sig.blocked = new.blockable();
        signal::retarget(t.sig.blocked.without(old));
    }
    Ok(0)
}

pub fn sigreturn(tf: &mut TrapFrame) -> SysResult {
    deliver::restore_frame(tf, FrameKind::Classic)
}

pub fn rt_sigreturn(tf: &mut TrapFrame) -> SysResult {
    deliver::restore_frame(tf, FrameKind::Rt)
}

/// rt_sigpending(set, sigsetsize): pending signals that are blocked, on the
/// thread's own set or the process's. Linux accepts any size up to a
/// sigset_t's and writes that many bytes.
pub fn rt_sigpending(set: u32, sigsetsize: u32) -> SysResult {
    if sigsetsize > abi::SIGSET_SIZE {
        return Err(Errno::EINVAL);
    }
    let (a, b) = blocked_pending().words();
    let mut bytes = [0u8; 8];
    bytes[..4].copy_from_slice(&a.to_be_bytes());
    bytes[4..].copy_from_slice(&b.to_be_bytes());
    crate::uaccess::copy_to_user(set, &bytes[..sigsetsize as usize])?;
    Ok(0)
}

/// sigpending(set): the old call, signals 1..32.
pub fn sigpending(set: u32) -> SysResult {
    write_words(set, &[blocked_pending().words().0])?;
    Ok(0)
}

/// The calling thread's blocked signals pending on its own set or the
/// process's.
fn blocked_pending() -> SigSet {
    let t = proc::current();
    t.sig.pending.pending().union(t.group().sig.shared.pending()).intersect(t.sig.blocked)
}

pub(super) fn read_sigset(addr: u32) -> Result<SigSet, Errno> {
    let w = UserWindow::open(addr, 8, Read)?;
    let s = SigSet::from_user_words(w.get(0), w.get(4));
    w.finish()?;
    Ok(s)
}

/// rt_sigsuspend(mask, sigsetsize): sleep with `mask` until a handler runs;
/// the old mask comes back after the handler (saved_mask), and the call
/// returns EINTR (ERESTARTNOHAND: restarted if no handler runs).
pub fn rt_sigsuspend(mask: u32, sigsetsize: u32) -> SysResult {
    if sigsetsize != abi::SIGSET_SIZE {
        return Err(Errno::EINVAL);
    }
    let new = read_sigset(mask)?;
    suspend(new.blockable())
}

/// rt_sigsuspend's wait. The restart code it always returns sets the work
/// flag (`signal::note_restart`), which the saved mask needs for its
/// restore; the way back to user mode then finds the signal that woke it
/// (`proc::sleep_until_signal` leaves that test to it). The running thread
/// is taken unchecked: a system call always has one.
fn suspend(mask: SigSet) -> SysResult {
    // SAFETY: a thread is running (above), and CURRENT_THREAD then points
    // at its live Box; the reference is not used after the sleep.
    unsafe { &mut *proc::running() }.sig.save_mask(mask);
    proc::sleep_until_signal();
    Err(Errno::ERESTARTNOHAND)
}

/// pause(): sleep until a signal is delivered.
pub fn pause() -> SysResult {
    let chan = proc::current() as *const _ as usize;
    while proc::sleep(chan).is_ok() {}
    Err(Errno::ERESTARTNOHAND)
}

/// Reads the 128-byte user siginfo for rt_sigqueueinfo.
pub(super) fn read_siginfo(uinfo: u32) -> Result<[u32; 32], Errno> {
    let mut words = [0u32; 32];
    let w = UserWindow::open(uinfo, 128, Read)?;
    for (i, v) in words.iter_mut().enumerate() {
        *v = w.get(4 * i as u32);
    }
    w.finish()?;
    Ok(words)
}

/// rt_sigqueueinfo(pid, sig, uinfo) and rt_tgsigqueueinfo(tgid, tid, sig,
/// uinfo): a signal with a caller-made siginfo (glibc's sigqueue). RT signals
/// count against the queue limit (EAGAIN beyond it).
pub fn rt_sigqueueinfo(pid: u32, sig: u32, uinfo: u32) -> SysResult {
    let sig = signal_or_zero(sig)?;
    let info = user_info(sig, &read_siginfo(uinfo)?, proc::group().pid, pid)?;
    let target = process_of(pid)?;
    crate::cred::may_signal(target, sig.map_or(0, Signal::number))?;
    if let Some(info) = info {
        signal::send_to(target, info, true)?;
    }
    Ok(0)
}

/// The siginfo a caller made (`words`) for a signal from `sender` to
/// `target`, checked: nobody may pretend to be the kernel or kill() to
/// another process. Signal 0 builds none; it is the existence check after the
/// same code check (Linux `do_rt_sigqueueinfo`, `pidfd_send_signal`).
pub(super) fn user_info(
    sig: Option<Signal>,
    words: &[u32; 32],
    sender: u32,
    target: u32,
) -> Result<Option<SigInfo>, Errno> {
    let Some(sig) = sig else {
        check_queue_code(words[2] as i32, sender, target)?;
        return Ok(None);
    };
    let info = SigInfo::from_user(sig, words)?;
    info.check_queue_sender(sender, target)?;
    Ok(Some(info))
}

pub fn rt_tgsigqueueinfo(tgid: u32, tid: u32, sig: u32, uinfo: u32) -> SysResult {
    let sig = Signal::new(sig).ok_or(Errno::EINVAL)?;
    let info = SigInfo::from_user(sig, &read_siginfo(uinfo)?)?;
    info.check_queue_sender(proc::group().pid, tgid)?;
    let t = signal_target(tgid, tid, sig.number())?;
    signal::send_to_thread(t, info, true)?;
    Ok(0)
}

/// rt_sigtimedwait(set, info, timeout, sigsetsize): takes a pending signal
/// from `set` without running a handler (sigwaitinfo, sigtimedwait).
pub fn rt_sigtimedwait(
    set: u32,
    uinfo: u32,
    timeout: u32,
    sigsetsize: u32,
    time64: bool,
) -> SysResult {
    if sigsetsize != abi::SIGSET_SIZE {
        return Err(Errno::EINVAL);
    }
    let want = read_sigset(set)?.blockable();
    let deadline = if timeout != 0 {
        Some(
            crate::time::timer::now_ns()
                + super::time::get_timespec(timeout, sigil_core::time::Layout::new(time64))?,
        )
    } else {
        None
    };
    let p = proc::current();
    // While waiting, the wanted signals count as unblocked (so sending one
    // wakes us), as Linux does with real_blocked.
    let saved = p.sig.blocked;
    p.sig.blocked = saved.without(want);
    p.sig.waiting = want;
    let r = wait_for(want, uinfo, deadline);
    let p = proc::current();
    p.sig.blocked = saved;
    p.sig.waiting = SigSet::EMPTY;
    r
}

fn wait_for(want: SigSet, uinfo: u32, deadline: Option<u64>) -> SysResult {
    loop {
        // Looked up again after each sleep (the invariants of `proc`).
        let p = proc::current();
        if let Some(node) = signal::take(p, want) {
            if uinfo != 0 {
                let mut w = UserWindow::open(uinfo, SIGINFO_USER_SIZE as u32, Write)?;
                deliver::put_siginfo(&mut w, 0, &node.info);
                w.finish()?;
            }
            return Ok(node.info.signo());
        }
        if proc::sigstate::interrupt_pending(p) {
            // Another unblocked signal: its handler runs first.
            return Err(Errno::EINTR);
        }
        match deadline {
            Some(d) if crate::time::timer::now_ns() >= d => return Err(Errno::EAGAIN),
            Some(d) => {
                let _ = proc::sleep_until(d);
            }
            None => {
                let _ = proc::sleep(p as *const proc::Thread as usize);
            }
        }
    }
}

/// sigaltstack(ss, old_ss).
pub fn sigaltstack(ss: u32, old: u32, tf: &TrapFrame) -> SysResult {
    let p = proc::current();
    let sp = tf.sp();
    if old != 0 {
        let cur = p.sig.altstack.query(sp).to_words();
        let mut w = UserWindow::open(old, 12, Write)?;
        for (i, v) in cur.iter().enumerate() {
            w.put(4 * i as u32, *v);
        }
        w.finish()?;
    }
    if ss != 0 {
        let w = UserWindow::open(ss, 12, Read)?;
        let new = StackT::from_words([w.get(0), w.get(4), w.get(8)]);
        w.finish()?;
        p.sig.altstack.set(new, sp)?;
    }
    Ok(0)
}
