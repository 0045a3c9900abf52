//! Event descriptors' system calls: eventfd2 (and the old eventfd),
//! signalfd4 (and the old signalfd), pidfd_open and pidfd_send_signal,
//! timerfd_create/settime/gettime (settime and gettime in both the 32-bit
//! and the time64 layout), epoll_create/epoll_create1, epoll_ctl,
//! epoll_wait, epoll_pwait and epoll_pwait2. The files are
//! `crate::event`'s.

use sigil_core::abi::Errno;
use sigil_core::epoll::{self as ep, EPOLL_CLOEXEC, EPOLL_CTL_DEL};
use sigil_core::eventfd::{Counter, EFD_CLOEXEC, EFD_NONBLOCK};
use sigil_core::signal::SigInfo;
use sigil_core::time::{timerfd, Layout};

use super::fs::install;
use super::SysResult;
use crate::event::{epoll, eventfd, pidfd, signalfd, timerfd as tfd};
use crate::proc;

/// eventfd2(initval, flags): EFD_SEMAPHORE, EFD_NONBLOCK, EFD_CLOEXEC.
pub fn eventfd2(initval: u32, flags: u32) -> SysResult {
    let counter = Counter::new(initval, flags)?;
    let file = eventfd::new(counter, flags & EFD_NONBLOCK)?;
    install(file, flags & EFD_CLOEXEC != 0)
}

/// signalfd4(fd, mask, sizemask, flags): a new signalfd for `mask` (fd -1)
/// or a new mask for signalfd `fd`. In Linux's order: a sizemask other
/// than the kernel sigset's 8 bytes is EINVAL, a bad mask pointer EFAULT,
/// unknown flags EINVAL, then `fd` (EBADF if not open, EINVAL if not a
/// signalfd). SIGKILL and SIGSTOP are dropped from the mask.
pub fn signalfd4(fd: u32, mask: u32, sizemask: u32, flags: u32) -> SysResult {
    const SFD_CLOEXEC: u32 = crate::fs::flags::O_CLOEXEC;
    const SFD_NONBLOCK: u32 = crate::fs::flags::O_NONBLOCK;
    if sizemask != sigil_core::abi::SIGSET_SIZE {
        return Err(Errno::EINVAL);
    }
    let mask = super::sig::read_sigset(mask)?.blockable();
    if flags & !(SFD_CLOEXEC | SFD_NONBLOCK) != 0 {
        return Err(Errno::EINVAL);
    }
    if fd as i32 == -1 {
        let file = signalfd::new(mask, flags & SFD_NONBLOCK)?;
        return install(file, flags & SFD_CLOEXEC != 0);
    }
    proc::share::files().get(fd)?.set_signal_mask(mask)?;
    Ok(fd)
}

/// PIDFD_NONBLOCK is O_NONBLOCK; a pidfd is always close-on-exec.
const PIDFD_NONBLOCK: u32 = crate::fs::flags::O_NONBLOCK;

/// pidfd_open(pid, flags): a descriptor for process `pid` (a thread that
/// is not its process's leader is EINVAL, as Linux without PIDFD_THREAD).
pub fn pidfd_open(pid: u32, flags: u32) -> SysResult {
    if flags & !PIDFD_NONBLOCK != 0 || pid as i32 <= 0 {
        return Err(Errno::EINVAL);
    }
    if proc::get(pid).is_none() {
        return Err(if proc::thread(pid).is_some() { Errno::EINVAL } else { Errno::ESRCH });
    }
    install(pidfd::new(pid, flags)?, true)
}

/// pidfd_send_signal(pidfd, sig, info, flags): kill() to the process the
/// descriptor names (no flags: Linux 6.9's PIDFD_SIGNAL_THREAD and friends
/// are EINVAL here), or rt_sigqueueinfo() with `info`; the same checks
/// (si_signo must be `sig`, a forged si_code only to oneself, the
/// permission rule of `cred::may_signal`).
pub fn pidfd_send_signal(fd: u32, sig: u32, uinfo: u32, flags: u32) -> SysResult {
    if flags != 0 {
        return Err(Errno::EINVAL);
    }
    let (pid, _) = pidfd::target(fd)?;
    let me = proc::group();
    let (my_pid, uid) = (me.pid, me.cred.uid.real);
    let signal = super::sig::signal_or_zero(sig)?;
    let info = if uinfo != 0 {
        let words = super::sig::read_siginfo(uinfo)?;
        if words[0] != sig {
            return Err(Errno::EINVAL);
        }
        super::sig::user_info(signal, &words, my_pid, pid)?
    } else {
        signal.map(|s| SigInfo::kill(s, my_pid, uid))
    };
    let target = proc::get(pid).ok_or(Errno::ESRCH)?;
    crate::cred::may_signal(target, sig)?;
    match info {
        Some(info) => crate::signal::send_to(target, info, uinfo != 0).map(|_| 0),
        None => Ok(0),
    }
}

/// timerfd_create(clockid, flags): CLOCK_REALTIME, CLOCK_MONOTONIC or
/// CLOCK_BOOTTIME; TFD_NONBLOCK, TFD_CLOEXEC. Anything else is EINVAL.
pub fn timerfd_create(clockid: u32, flags: u32) -> SysResult {
    timerfd::check_create(clockid, flags)?;
    let file = tfd::new(clockid, flags)?;
    install(file, flags & timerfd::TFD_CLOEXEC != 0)
}

/// timerfd_settime(fd, flags, new, old) and timerfd_settime64, in Linux's
/// order: a bad `new` is EFAULT, unknown flags or an invalid time EINVAL,
/// then `fd` (EBADF if not open, EINVAL if not a timerfd); the old setting
/// is written last (EFAULT then, with the new one in force, as Linux).
pub fn timerfd_settime(fd: u32, flags: u32, new: u32, old: u32, layout: Layout) -> SysResult {
    let spec = super::time::get_itimerspec(new, layout)?;
    timerfd::check_settime(flags, false)?;
    let file = proc::share::files().get(fd)?.clone();
    let prev = file.timerfd().ok_or(Errno::EINVAL)?.settime(spec, flags);
    if old != 0 {
        super::time::put_itimerspec(old, prev, layout)?;
    }
    Ok(0)
}

/// timerfd_gettime(fd, cur) and timerfd_gettime64.
pub fn timerfd_gettime(fd: u32, cur: u32, layout: Layout) -> SysResult {
    let spec = proc::share::files().get(fd)?.timerfd().ok_or(Errno::EINVAL)?.gettime();
    super::time::put_itimerspec(cur, spec, layout)?;
    Ok(0)
}

/// epoll_create(size): the size is only a hint, but must be positive.
pub fn epoll_create(size: i32) -> SysResult {
    if size <= 0 {
        return Err(Errno::EINVAL);
    }
    epoll_create1(0)
}

/// epoll_create1(flags): EPOLL_CLOEXEC, nothing else.
pub fn epoll_create1(flags: u32) -> SysResult {
    if flags & !EPOLL_CLOEXEC != 0 {
        return Err(Errno::EINVAL);
    }
    install(epoll::new()?, flags != 0)
}

/// epoll_ctl(epfd, op, fd, event), in Linux's order: a bad `event` (not
/// read for DEL) is EFAULT; either descriptor not open EBADF; a file epoll
/// cannot watch EPERM; `fd` == `epfd`, `epfd` not an epoll, or
/// EPOLLEXCLUSIVE on an epoll EINVAL; an epoll that would nest in a cycle
/// or too deep ELOOP (`Epoll::ctl`); then EEXIST / ENOENT by the operation.
pub fn epoll_ctl(epfd: u32, op: u32, fd: u32, event: u32) -> SysResult {
    let ev = if op != EPOLL_CTL_DEL {
        let mut b = [0u8; ep::EVENT_SIZE as usize];
        crate::uaccess::copy_from_user(&mut b, event)?;
        ep::decode(&b)
    } else {
        (0, 0)
    };
    let files = &proc::share::files();
    let (set, target) = (files.get(epfd)?.clone(), files.get(fd)?.clone());
    if !target.can_poll() {
        return Err(Errno::EPERM);
    }
    let set_ref = set.epoll().ok_or(Errno::EINVAL)?;
    let exclusive = op != EPOLL_CTL_DEL && ev.0 & ep::EPOLLEXCLUSIVE != 0;
    if alloc::sync::Arc::ptr_eq(&set, &target) || exclusive && target.epoll().is_some() {
        return Err(Errno::EINVAL);
    }
    ep::check_ctl(op, ev.0)?;
    set_ref.ctl(&set, op, fd, &target, ev).map(|_| 0)
}

/// epoll_wait and epoll_pwait(epfd, events, maxevents, timeout_ms, sigmask,
/// sigsetsize): waits until a file of the set reports, the timeout
/// passes (negative: no limit; 0: one scan) or a signal comes (EINTR, never
/// restarted, whatever SA_RESTART says, as Linux). epoll_pwait's mask is
/// swapped in for the wait as ppoll's, and comes back after the handler.
/// Linux's order: the mask, maxevents (EINVAL unless 1..=EP_MAX_EVENTS),
/// the buffer's range (EFAULT), `epfd` (EBADF, EINVAL if not an epoll).
pub fn epoll_pwait(
    epfd: u32,
    buf: u32,
    max: i32,
    timeout_ms: i32,
    mask: u32,
    size: u32,
) -> SysResult {
    let deadline =
        (timeout_ms >= 0).then(|| crate::time::timer::now_ns() + timeout_ms as u64 * 1_000_000);
    epoll_wait_until(epfd, buf, max, deadline, mask, size)
}

/// epoll_pwait2(epfd, events, maxevents, timeout, sigmask, sigsetsize):
/// epoll_pwait with a `struct __kernel_timespec` timeout (64-bit seconds
/// even on ppc32; NULL: no limit), read first as Linux does: EFAULT for a
/// bad pointer, EINVAL for a negative time or tv_nsec out of range. The
/// time left is not written back (the timeout is const).
pub fn epoll_pwait2(epfd: u32, buf: u32, max: i32, tsp: u32, mask: u32, size: u32) -> SysResult {
    let deadline = match tsp {
        0 => None,
        _ => {
            Some(crate::time::timer::now_ns() + super::time::get_timespec(tsp, Layout::new(true))?)
        }
    };
    epoll_wait_until(epfd, buf, max, deadline, mask, size)
}

/// The wait of both, until `deadline` (ns since boot; None: no limit).
fn epoll_wait_until(
    epfd: u32,
    buf: u32,
    max: i32,
    deadline: Option<u64>,
    mask: u32,
    size: u32,
) -> SysResult {
    let mask = super::poll::read_mask(mask, size)?;
    if max <= 0 || max > ep::MAX_EVENTS {
        return Err(Errno::EINVAL);
    }
    let len = max as u32 * ep::EVENT_SIZE;
    if buf.checked_add(len).is_none_or(|end| end > crate::mm::TASK_SIZE) {
        return Err(Errno::EFAULT);
    }
    let file = proc::share::files().get(epfd)?.clone();
    let set = file.epoll().ok_or(Errno::EINVAL)?;
    super::poll::with_mask(mask, Errno::EINTR, || {
        // The wait sleeps on the epoll's queue (epoll_ctl wakes it) and
        // on those of its set's files, looked up again after each wake-up.
        // Each report is copied out as it is found: one that faults is
        // not consumed, and the call returns those before it, or EFAULT if
        // none (Linux `ep_send_events`).
        let put = |i: usize, events, data| {
            let at = buf + i as u32 * ep::EVENT_SIZE;
            crate::uaccess::copy_to_user(at, &ep::encode(events, data)).is_ok()
        };
        let scan = || match set.scan(max as usize, put) {
            (0, false) => None,
            (0, true) => Some(Err(Errno::EFAULT)),
            (n, _) => Some(Ok(n as u32)),
        };
        match crate::fs::poll::wait_for(core::slice::from_ref(&file), deadline, scan) {
            Err(()) => Err(Errno::EINTR),
            Ok(r) => r.unwrap_or(Ok(0)),
        }
    })
}
