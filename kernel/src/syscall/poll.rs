//! poll, ppoll, select (`_newselect`) and pselect6: their user arguments,
//! in and out, around `fs::poll::wait`.
//!
//! ppoll and pselect6 wait with a signal mask swapped in atomically: the
//! caller's mask comes back when the call returns, or - when a signal
//! interrupted it - after that signal's handler (`saved_mask`, as
//! sigsuspend), so a signal unblocked only for the wait is handled.
//! select, pselect6 and ppoll write the time left back into their timeout,
//! as Linux does, whatever they return (`finish`). An interrupted call is EINTR if a handler runs, whatever
//! its SA_RESTART. If none runs (a stop and SIGCONT), select, pselect6 and
//! ppoll are ERESTARTNOHAND: the same call again, with the time left already
//! written back; poll, whose timeout is a value, leaves a restart block
//! holding its deadline and goes on through restart_syscall (Linux's
//! `do_restart_poll`), so it too waits only for the time that was left.

use alloc::vec::Vec;

use sigil_core::abi::{self, Errno};
use sigil_core::poll::{select_events, select_marks, Sets};
use sigil_core::signal::restart::RestartBlock;
use sigil_core::signal::SigSet;
use sigil_core::time::{decode_timeval, encode_timespec, encode_timeval, Layout};

use super::SysResult;
use crate::fs::poll::{wait, Waited, Watch};
use crate::fs::MAX_FDS;
use crate::proc;
use crate::time::timer;
use crate::uaccess::{copy_from_user, copy_to_user, get_user, put_user};

/// The file open at `fd`, if it is one.
fn open_file(fd: i32) -> Option<alloc::sync::Arc<crate::fs::File>> {
    u32::try_from(fd).ok().and_then(|fd| proc::share::files().get(fd).ok().cloned())
}

/// Reads the `n` pollfds at `fds` and waits; writes revents back. A
/// negative fd is skipped (revents 0, never counted); an unopened one is
/// POLLNVAL.
fn do_poll(fds: u32, n: u32, deadline: Option<u64>) -> Result<Waited, Errno> {
    if n as usize > crate::proc::group().limits.nofile() {
        return Err(Errno::EINVAL);
    }
    let mut watch = Vec::with_capacity(n as usize);
    let mut skipped = Vec::with_capacity(n as usize);
    for i in 0..n {
        let fd: i32 = get_user(fds + i * 8)?;
        let events: u16 = get_user(fds + i * 8 + 4)?;
        skipped.push(fd < 0);
        watch.push(Watch { file: open_file(fd), events, revents: 0 });
    }
    // A skipped descriptor must not count as ready (POLLNVAL).
    let mut live: Vec<Watch> = Vec::new();
    for (w, &skip) in watch.into_iter().zip(&skipped) {
        if !skip {
            live.push(w);
        }
    }
    let r = wait(&mut live, deadline);
    let mut ready = live.iter().map(|w| w.revents);
    for (i, &skip) in skipped.iter().enumerate() {
        let revents = if skip { 0 } else { ready.next().unwrap_or(0) };
        put_user(fds + i as u32 * 8 + 6, revents)?;
    }
    Ok(r)
}

/// poll(fds, n, timeout_ms): a negative timeout waits for ever.
pub fn poll(fds: u32, n: u32, timeout_ms: i32) -> SysResult {
    let deadline = (timeout_ms >= 0).then(|| timer::now_ns() + timeout_ms as u64 * 1_000_000);
    poll_until(fds, n, deadline)
}

/// poll toward an absolute deadline; restart_syscall calls it to go on.
pub fn poll_until(fds: u32, n: u32, deadline: Option<u64>) -> SysResult {
    match do_poll(fds, n, deadline)? {
        Waited::Ready(k) => Ok(k),
        Waited::Interrupted => {
            proc::current().restart = Some(RestartBlock::Poll { fds, n, deadline });
            Err(Errno::ERESTART_RESTARTBLOCK)
        }
    }
}

/// A timeout argument read as a deadline: (deadline, the user address to
/// write the time left to). NULL is no limit; a zero timeout is not written back.
fn deadline_from(addr: u32, ns: impl FnOnce() -> Result<u64, Errno>) -> Result<Option<u64>, Errno> {
    if addr == 0 {
        return Ok(None);
    }
    Ok(Some(timer::now_ns() + ns()?))
}

/// Linux `poll_select_finish`: whatever the call's result `r`, writes the
/// time left until `deadline` to the timeout at `addr` with `put` (not for a
/// zero timeout). A timeout that cannot be written (read-only memory) is no
/// error, but an interrupted call cannot restart with it: EINTR then.
fn finish(
    addr: u32,
    timeout_ns: u64,
    deadline: Option<u64>,
    put: impl FnOnce(u32, u64) -> Result<(), Errno>,
    r: SysResult,
) -> SysResult {
    let written = match deadline {
        Some(d) if addr != 0 && timeout_ns != 0 => {
            put(addr, d.saturating_sub(timer::now_ns())).is_ok()
        }
        _ => true,
    };
    match r {
        Err(Errno::ERESTARTNOHAND) if !written => Err(Errno::EINTR),
        r => r,
    }
}

/// Runs `f` with `mask` (if any) as the blocked set; the old mask is
/// restored now, or after the handler if `f` was interrupted (it returned
/// `interrupted`: ERESTARTNOHAND here, EINTR for epoll_pwait).
pub(super) fn with_mask(
    mask: Option<SigSet>,
    interrupted: Errno,
    f: impl FnOnce() -> SysResult,
) -> SysResult {
    let Some(mask) = mask else { return f() };
    let p = proc::current();
    p.sig.save_mask(mask.blockable());
    let r = f();
    let p = proc::current();
    if r != Err(interrupted) {
        if let Some(old) = p.sig.saved_mask.take() {
            p.sig.blocked = old;
        }
    } else {
        // The saved mask's restore is the return's work (`save_mask`): an
        // EINTR, unlike a restart code, does not set the flag.
        p.sig.work = true;
    }
    r
}

/// A signal mask argument (NULL: none; a size other than 8: EINVAL).
pub(super) fn read_mask(addr: u32, size: u32) -> Result<Option<SigSet>, Errno> {
    if addr == 0 {
        return Ok(None);
    }
    if size != abi::SIGSET_SIZE {
        return Err(Errno::EINVAL);
    }
    let (a, b): (u32, u32) = (get_user(addr)?, get_user(addr + 4)?);
    Ok(Some(SigSet::from_user_words(a, b)))
}

fn put_timespec(layout: Layout) -> impl FnOnce(u32, u64) -> Result<(), Errno> {
    move |addr, ns| {
        let mut b = [0u8; 16];
        encode_timespec(ns, layout, &mut b);
        copy_to_user(addr, &b[..layout.timespec_size()]).map_err(Errno::from)
    }
}

fn interrupted_or(r: Waited) -> SysResult {
    match r {
        Waited::Ready(k) => Ok(k),
        Waited::Interrupted => Err(Errno::ERESTARTNOHAND),
    }
}

/// ppoll(fds, n, tsp, sigmask, sigsetsize) and ppoll_time64.
pub fn ppoll(
    fds: u32,
    n: u32,
    tsp: u32,
    sigmask: u32,
    sigsetsize: u32,
    layout: Layout,
) -> SysResult {
    let timeout = if tsp != 0 { super::time::get_timespec(tsp, layout)? } else { 0 };
    let deadline = deadline_from(tsp, || Ok(timeout))?;
    let mask = read_mask(sigmask, sigsetsize)?;
    let r = with_mask(mask, Errno::ERESTARTNOHAND, || interrupted_or(do_poll(fds, n, deadline)?));
    finish(tsp, timeout, deadline, put_timespec(layout), r)
}

/// The fd_set words for `n` descriptors at `addr` (NULL: none).
fn read_set(addr: u32, n: u32) -> Result<Option<Vec<u32>>, Errno> {
    if addr == 0 {
        return Ok(None);
    }
    let mut words = alloc::vec![0u32; n.div_ceil(32) as usize];
    for (i, w) in words.iter_mut().enumerate() {
        *w = get_user(addr + 4 * i as u32)?;
    }
    Ok(Some(words))
}

/// select's core: the three sets as poll watches, the wait, the sets back.
fn do_select(n: i32, addrs: [u32; 3], deadline: Option<u64>) -> Result<Waited, Errno> {
    if n < 0 {
        return Err(Errno::EINVAL);
    }
    // Linux clamps nfds to the descriptor table's size (FD_SETSIZE is 1024).
    let n = (n as u32).min(MAX_FDS as u32);
    let sets = [read_set(addrs[0], n)?, read_set(addrs[1], n)?, read_set(addrs[2], n)?];
    let member = |fd: u32| -> Sets {
        core::array::from_fn(|s| {
            sets[s].as_ref().is_some_and(|w| w[fd as usize / 32] & (1 << (fd % 32)) != 0)
        })
    };
    let mut fds = Vec::new();
    let mut watch = Vec::new();
    for fd in 0..n {
        let m = member(fd);
        if m == [false; 3] {
            continue;
        }
        let file = open_file(fd as i32).ok_or(Errno::EBADF)?;
        fds.push((fd, m));
        watch.push(Watch { file: Some(file), events: select_events(m), revents: 0 });
    }
    let r = wait(&mut watch, deadline);
    let mut out: [Vec<u32>; 3] =
        core::array::from_fn(|s| alloc::vec![0u32; sets[s].as_ref().map_or(0, |w| w.len())]);
    let mut count = 0;
    for ((fd, m), w) in fds.iter().zip(&watch) {
        for (s, marked) in select_marks(*m, w.revents).iter().enumerate() {
            if *marked {
                out[s][*fd as usize / 32] |= 1 << (fd % 32);
                count += 1;
            }
        }
    }
    for (s, words) in out.iter().enumerate() {
        if addrs[s] != 0 {
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
            copy_to_user(addrs[s], &bytes)?;
        }
    }
    Ok(match r {
        Waited::Ready(_) => Waited::Ready(count),
        other => other,
    })
}

/// _newselect(n, readfds, writefds, exceptfds, timeval).
pub fn select(n: i32, r: u32, w: u32, e: u32, tvp: u32) -> SysResult {
    let timeout = if tvp != 0 {
        let mut b = [0u8; 8];
        copy_from_user(&mut b, tvp)?;
        decode_timeval(&b)?
    } else {
        0
    };
    let deadline = deadline_from(tvp, || Ok(timeout))?;
    let res = do_select(n, [r, w, e], deadline).and_then(interrupted_or);
    let put = |addr, ns| copy_to_user(addr, &encode_timeval(ns)).map_err(Errno::from);
    finish(tvp, timeout, deadline, put, res)
}

/// pselect6(n, readfds, writefds, exceptfds, timespec, {sigmask, size})
/// and pselect6_time64.
pub fn pselect6(n: i32, sets: [u32; 3], tsp: u32, sig: u32, layout: Layout) -> SysResult {
    let timeout = if tsp != 0 { super::time::get_timespec(tsp, layout)? } else { 0 };
    let deadline = deadline_from(tsp, || Ok(timeout))?;
    let mask = if sig != 0 {
        let ss: u32 = get_user(sig)?;
        let len: u32 = get_user(sig + 4)?;
        read_mask(ss, len)?
    } else {
        None
    };
    let r =
        with_mask(mask, Errno::ERESTARTNOHAND, || interrupted_or(do_select(n, sets, deadline)?));
    finish(tsp, timeout, deadline, put_timespec(layout), r)
}
