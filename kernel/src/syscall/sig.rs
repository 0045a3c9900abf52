//! Signal system calls: sending (kill, tkill, tgkill, rt_sigqueueinfo,
//! rt_tgsigqueueinfo), actions and masks (rt_sigaction, rt_sigprocmask,
//! rt_sigpending), waiting (rt_sigsuspend, pause, rt_sigtimedwait), the
//! alternate stack (sigaltstack), and the way back from a handler
//! (sigreturn, rt_sigreturn).

use alloc::boxed::Box;
use sigil_core::abi::{self, Errno};
use sigil_core::job::kill::kill_target;
use sigil_core::signal::action::check_rt_sigaction;
use sigil_core::signal::frame::FrameKind;
use sigil_core::signal::info::check_queue_code;
use sigil_core::signal::{SigAction, SigInfo, SigQueueNode, SigSet, Signal, StackT};

use super::SysResult;
use crate::arch::TrapFrame;
use crate::proc;
use crate::signal::{self, deliver};
use crate::uaccess::{Access, UserWindow};

fn signal_or_zero(sig: u32) -> Result<Option<Signal>, Errno> {
    if sig == 0 {
        return Ok(None);
    }
    Signal::new(sig).map(Some).ok_or(Errno::EINVAL)
}

/// kill(pid, sig): one process, the caller's group (0), a group (< -1) or
/// everyone but PID 1 and the caller (-1); sigil-core's `job::kill` decodes
/// the target, `proc::group::send` reaches it, each process once (on its
/// shared pending set). A thread's id names its process, as on Linux.
pub fn kill(pid: i32, sig: u32) -> SysResult {
    let sig = signal_or_zero(sig)?;
    let (me, my_pgid) = {
        let g = proc::group();
        (g.pid, g.job.pgid)
    };
    if pid > 0 {
        // One target, the common case (ping-pong): no list to allocate.
        let target = process_of(pid as u32)?;
        return match sig {
            Some(sig) => signal::send_to(target, SigInfo::kill(sig, me, 0), false).map(|_| 0),
            None => Ok(0),
        };
    }
    let target = kill_target(pid, my_pgid)?;
    proc::group::send(target, sig.map(|s| SigInfo::kill(s, me, 0))).map(|_| 0)
}

/// The process `id` names: a process, or one of its threads.
fn process_of(id: u32) -> Result<&'static mut proc::Group, Errno> {
    match proc::get(id) {
        Some(g) => Ok(g),
        None => proc::thread(id).map(|t| t.group()).ok_or(Errno::ESRCH),
    }
}

/// The thread `tid`, checked to be in process `tgid` unless that is 0 (tkill).
fn thread_in(tgid: u32, tid: u32) -> Result<u32, Errno> {
    let t = proc::thread(tid).ok_or(Errno::ESRCH)?;
    if tgid != 0 && t.group().pid != tgid {
        return Err(Errno::ESRCH);
    }
    Ok(tid)
}

/// tgkill(tgid, tid, sig) and tkill(tid, sig) (tgid 0): a signal for one
/// thread, queued on its private set. This is what glibc's raise() and
/// pthread_kill call.
pub fn tgkill(tgid: u32, tid: u32, sig: u32) -> SysResult {
    if tid as i32 <= 0 || (tgid != 0 && tgid as i32 <= 0) {
        return Err(Errno::EINVAL);
    }
    let sig = signal_or_zero(sig)?;
    let tid = thread_in(tgid, tid)?;
    match sig {
        Some(sig) => {
            signal::send_thread(tid, SigInfo::tkill(sig, proc::group().pid, 0), false).map(|_| 0)
        }
        None => Ok(0),
    }
}

/// rt_sigaction(sig, act, oldact, sigsetsize): the 20-byte ppc `struct sigaction`.
pub fn rt_sigaction(sig: u32, act: u32, oldact: u32, sigsetsize: u32) -> SysResult {
    let sig = check_rt_sigaction(sig, sigsetsize, act != 0)?;
    let new = if act != 0 {
        let w = UserWindow::open(act, 20, Access::Read).map_err(|_| Errno::EFAULT)?;
        let words = [w.get(0), w.get(4), w.get(8), w.get(12), w.get(16)];
        w.finish().map_err(|_| Errno::EFAULT)?;
        Some(SigAction::from_words(words))
    } else {
        None
    };
    let g = proc::group();
    let old = *g.sig.action(sig);
    if oldact != 0 {
        let mut w = UserWindow::open(oldact, 20, Access::Write).map_err(|_| Errno::EFAULT)?;
        for (i, v) in old.to_words().iter().enumerate() {
            w.put(4 * i as u32, *v);
        }
        w.finish().map_err(|_| Errno::EFAULT)?;
    }
    if let Some(new) = new {
        *g.sig.action(sig) = new;
        // Setting SIG_IGN (or a default that ignores) discards what is pending.
        if new.is_ignored(sig, SigSet::EMPTY) {
            // ... on the shared set and on every thread's.
            g.sig.shared.flush_signal(sig);
            for t in g.members() {
                t.sig.pending.flush_signal(sig);
            }
        }
    }
    Ok(0)
}

/// rt_sigprocmask(how, set, oldset, sigsetsize): the calling thread's mask.
pub fn rt_sigprocmask(how: u32, set: u32, oldset: u32, sigsetsize: u32) -> SysResult {
    if sigsetsize != abi::SIGSET_SIZE {
        return Err(Errno::EINVAL);
    }
    let p = proc::current();
    let old = p.sig.blocked;
    let new = if set != 0 {
        let w = UserWindow::open(set, 8, Access::Read).map_err(|_| Errno::EFAULT)?;
        let s = SigSet::from_user_words(w.get(0), w.get(4));
        w.finish().map_err(|_| Errno::EFAULT)?;
        Some(old.apply_how(how, s)?)
    } else {
        None
    };
    if oldset != 0 {
        let mut w = UserWindow::open(oldset, 8, Access::Write).map_err(|_| Errno::EFAULT)?;
        let (a, b) = old.words();
        w.put(0, a);
        w.put(4, b);
        w.finish().map_err(|_| Errno::EFAULT)?;
    }
    if let Some(new) = new {
        p.sig.blocked = new.blockable();
        signal::retarget(p.sig.blocked.without(old));
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
/// thread's own set or the process's.
pub fn rt_sigpending(set: u32, sigsetsize: u32) -> SysResult {
    if sigsetsize != abi::SIGSET_SIZE {
        return Err(Errno::EINVAL);
    }
    let p = proc::current();
    let (a, b) = p
        .sig
        .pending
        .pending()
        .union(p.group().sig.shared.pending())
        .intersect(p.sig.blocked)
        .words();
    let mut w = UserWindow::open(set, 8, Access::Write).map_err(|_| Errno::EFAULT)?;
    w.put(0, a);
    w.put(4, b);
    w.finish().map_err(|_| Errno::EFAULT)?;
    Ok(0)
}

fn read_sigset(addr: u32) -> Result<SigSet, Errno> {
    let w = UserWindow::open(addr, 8, Access::Read).map_err(|_| Errno::EFAULT)?;
    let s = SigSet::from_user_words(w.get(0), w.get(4));
    w.finish().map_err(|_| Errno::EFAULT)?;
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

fn suspend(mask: SigSet) -> SysResult {
    let p = proc::current();
    p.sig.saved_mask = Some(p.sig.blocked);
    p.sig.blocked = mask;
    let chan = p as *const _ as usize;
    while proc::sleep(chan).is_ok() {}
    Err(Errno::ERESTARTNOHAND)
}

/// pause(): sleep until a signal is delivered.
pub fn pause() -> SysResult {
    let chan = proc::current() as *const _ as usize;
    while proc::sleep(chan).is_ok() {}
    Err(Errno::ERESTARTNOHAND)
}

/// Reads the 128-byte user siginfo for rt_sigqueueinfo.
fn read_siginfo(uinfo: u32) -> Result<[u32; 32], Errno> {
    let mut words = [0u32; 32];
    let w = UserWindow::open(uinfo, 128, Access::Read).map_err(|_| Errno::EFAULT)?;
    for (i, v) in words.iter_mut().enumerate() {
        *v = w.get(4 * i as u32);
    }
    w.finish().map_err(|_| Errno::EFAULT)?;
    Ok(words)
}

/// rt_sigqueueinfo(pid, sig, uinfo) and rt_tgsigqueueinfo(tgid, tid, sig,
/// uinfo): a signal with a caller-made siginfo (glibc's sigqueue). RT signals
/// count against the queue limit (EAGAIN beyond it).
/// Signal 0 is the existence check, after the same siginfo checks
/// (Linux `do_rt_sigqueueinfo`).
pub fn rt_sigqueueinfo(pid: u32, sig: u32, uinfo: u32) -> SysResult {
    let sig = signal_or_zero(sig)?;
    let words = read_siginfo(uinfo)?;
    let me = proc::group().pid;
    let Some(sig) = sig else {
        check_queue_code(words[2] as i32, me, pid)?;
        return process_of(pid).map(|_| 0);
    };
    let info = SigInfo::from_user(sig, &words)?;
    info.check_queue_sender(me, pid)?;
    signal::send_to(process_of(pid)?, info, true)?;
    Ok(0)
}

pub fn rt_tgsigqueueinfo(tgid: u32, tid: u32, sig: u32, uinfo: u32) -> SysResult {
    let sig = Signal::new(sig).ok_or(Errno::EINVAL)?;
    let info = SigInfo::from_user(sig, &read_siginfo(uinfo)?)?;
    info.check_queue_sender(proc::group().pid, tgid)?;
    signal::send_thread(thread_in(tgid, tid)?, info, true)?;
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
            crate::dev::timer::now_ns()
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

/// Takes a signal of `want` off the thread's own set, else the process's.
fn take_wanted(p: &mut proc::Thread, want: SigSet) -> Option<Box<SigQueueNode>> {
    let others = SigSet::from_bits(!want.bits());
    p.sig.pending.dequeue(others).or_else(|| p.group().sig.shared.dequeue(others))
}

fn wait_for(want: SigSet, uinfo: u32, deadline: Option<u64>) -> SysResult {
    loop {
        // Looked up again after each sleep (the invariants of `proc`).
        let p = proc::current();
        if let Some(mut node) = take_wanted(p, want) {
            if !crate::timers::on_dequeue(p.group().pid, &mut node.info) {
                continue; // a stale timer signal
            }
            if uinfo != 0 {
                let mut w =
                    UserWindow::open(uinfo, 128, Access::Write).map_err(|_| Errno::EFAULT)?;
                for (i, &v) in node.info.words().iter().enumerate() {
                    w.put(4 * i as u32, v);
                }
                for i in 8..32 {
                    w.put(4 * i, 0u32);
                }
                w.finish().map_err(|_| Errno::EFAULT)?;
            }
            return Ok(node.info.signo());
        }
        if signal::interrupt_pending(p) {
            // Another unblocked signal: its handler runs first.
            return Err(Errno::EINTR);
        }
        match deadline {
            Some(d) if crate::dev::timer::now_ns() >= d => return Err(Errno::EAGAIN),
            Some(d) => {
                let _ = crate::dev::timer::sleep_until(d);
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
    let sp = tf.gpr[1];
    if old != 0 {
        let cur = p.sig.altstack.query(sp).to_words();
        let mut w = UserWindow::open(old, 12, Access::Write).map_err(|_| Errno::EFAULT)?;
        for (i, v) in cur.iter().enumerate() {
            w.put(4 * i as u32, *v);
        }
        w.finish().map_err(|_| Errno::EFAULT)?;
    }
    if ss != 0 {
        let w = UserWindow::open(ss, 12, Access::Read).map_err(|_| Errno::EFAULT)?;
        let new = StackT::from_words([w.get(0), w.get(4), w.get(8)]);
        w.finish().map_err(|_| Errno::EFAULT)?;
        p.sig.altstack.set(new, sp)?;
    }
    Ok(0)
}
