//! Signal system calls: sending (kill, tkill, tgkill), actions and masks
//! (rt_sigaction, rt_sigprocmask), and the way back from a handler
//! (sigreturn, rt_sigreturn).

use sigil_core::abi::{self, Errno};
use sigil_core::signal::action::check_rt_sigaction;
use sigil_core::signal::frame::FrameKind;
use sigil_core::signal::{SigAction, SigInfo, SigSet, Signal};

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

/// kill(pid, sig): pid > 0 one process; 0 or -1 every process but PID 1 and
/// (for -1) the caller, as Linux; < -1 a process group (Sigil has one group).
pub fn kill(pid: i32, sig: u32) -> SysResult {
    let sig = signal_or_zero(sig)?;
    let me = proc::current().pid;
    let targets: alloc::vec::Vec<u32> = match pid {
        p if p > 0 => alloc::vec![p as u32],
        -1 => proc::all().map(|p| p.pid).filter(|&p| p != 1 && p != me).collect(),
        _ => proc::all().map(|p| p.pid).filter(|&p| p != 1 || me == 1).collect(),
    };
    if targets.is_empty() || (pid > 0 && proc::get(pid as u32).is_none()) {
        return Err(Errno::ESRCH);
    }
    if let Some(sig) = sig {
        for t in targets {
            signal::send(t, SigInfo::kill(sig, me, 0), false)?;
        }
    }
    Ok(0)
}

/// tgkill(tgid, tid, sig) and tkill(tid, sig) (tgid 0): one thread = one
/// process in Sigil. This is what glibc's raise() calls.
pub fn tgkill(tgid: u32, tid: u32, sig: u32) -> SysResult {
    if tid as i32 <= 0 || (tgid != 0 && tgid as i32 <= 0) {
        return Err(Errno::EINVAL);
    }
    let sig = signal_or_zero(sig)?;
    if tgid != 0 && tgid != tid || proc::get(tid).is_none() {
        return Err(Errno::ESRCH);
    }
    if let Some(sig) = sig {
        signal::send(tid, SigInfo::tkill(sig, proc::current().pid, 0), false)?;
    }
    Ok(0)
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
    let p = proc::current();
    let old = *p.sig.action(sig);
    if oldact != 0 {
        let mut w = UserWindow::open(oldact, 20, Access::Write).map_err(|_| Errno::EFAULT)?;
        for (i, v) in old.to_words().iter().enumerate() {
            w.put(4 * i as u32, *v);
        }
        w.finish().map_err(|_| Errno::EFAULT)?;
    }
    if let Some(new) = new {
        *p.sig.action(sig) = new;
        // Setting SIG_IGN (or a default that ignores) discards what is pending.
        if new.is_ignored(sig, SigSet::EMPTY) {
            p.sig.pending.flush_signal(sig);
        }
    }
    Ok(0)
}

/// rt_sigprocmask(how, set, oldset, sigsetsize).
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
    }
    Ok(0)
}

pub fn sigreturn(tf: &mut TrapFrame) -> SysResult {
    deliver::restore_frame(tf, FrameKind::Classic)
}

pub fn rt_sigreturn(tf: &mut TrapFrame) -> SysResult {
    deliver::restore_frame(tf, FrameKind::Rt)
}
