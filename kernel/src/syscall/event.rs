//! Event descriptors' system calls: eventfd2 (and the old eventfd),
//! signalfd4 (and the old signalfd), pidfd_open and pidfd_send_signal.
//! The files are `crate::event`'s.

use sigil_core::abi::Errno;
use sigil_core::eventfd::{Counter, EFD_CLOEXEC, EFD_NONBLOCK};
use sigil_core::signal::SigInfo;

use super::SysResult;
use crate::event::{eventfd, pidfd, signalfd};
use crate::proc;

/// eventfd2(initval, flags): EFD_SEMAPHORE, EFD_NONBLOCK, EFD_CLOEXEC.
pub fn eventfd2(initval: u32, flags: u32) -> SysResult {
    let counter = Counter::new(initval, flags)?;
    let file = eventfd::new(counter, flags & EFD_NONBLOCK);
    proc::group().files.install(file, 0, flags & EFD_CLOEXEC != 0)
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
        let file = signalfd::new(mask, flags & SFD_NONBLOCK);
        return proc::group().files.install(file, 0, flags & SFD_CLOEXEC != 0);
    }
    proc::group().files.get(fd)?.set_signal_mask(mask)?;
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
    proc::group().files.install(pidfd::new(pid, flags), 0, true)
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
