//! System information: uname, rlimits, getrandom, reboot.

use sigil_core::abi::Errno;

use super::SysResult;
use crate::arch;
use crate::kcell::KCell;
use crate::uaccess::{copy_to_user, get_user, put_user};

/// uname: six 65-byte fields.
pub fn uname(buf: u32) -> SysResult {
    let mut u = [0u8; 65 * 6];
    for (i, s) in ["Linux", "sigil", "6.1.0-sigil", "#1 Sigil", "ppc"].iter().enumerate() {
        u[i * 65..i * 65 + s.len()].copy_from_slice(s.as_bytes());
    }
    copy_to_user(buf, &u)?;
    Ok(0)
}

const RLIM_INFINITY: u32 = 0xffff_ffff;

const RLIMIT_CORE: u32 = 4;

/// A resource limit as (soft, hard), in the 64-bit form of prlimit64.
/// Sigil keeps only RLIMIT_CORE per process (it decides WCOREDUMP); the others
/// are properties of the kernel build and read as such.
fn limit(resource: u32) -> Result<(u64, u64), Errno> {
    Ok(match resource {
        3 => (8 << 20, u64::MAX), // STACK
        RLIMIT_CORE => crate::proc::group().sig.core_limit,
        6 => (crate::proc::MAX_PROCS as u64, crate::proc::MAX_PROCS as u64), // NPROC
        7 => (crate::fs::MAX_FDS as u64, crate::fs::MAX_FDS as u64),         // NOFILE
        11 => (crate::signal::SIGQUEUE_MAX as u64, crate::signal::SIGQUEUE_MAX as u64), // SIGPENDING
        0..=15 => (u64::MAX, u64::MAX),
        _ => return Err(Errno::EINVAL),
    })
}

/// Sets a limit. Sigil's processes run as root, so raising a hard limit is
/// allowed (as for root on Linux); a fixed limit accepts only its own value.
fn set_limit(resource: u32, new: (u64, u64)) -> Result<(), Errno> {
    let old = limit(resource)?;
    if new.0 > new.1 {
        return Err(Errno::EINVAL);
    }
    match resource {
        RLIMIT_CORE => crate::proc::group().sig.core_limit = new,
        _ if new != old => return Err(Errno::EPERM),
        _ => {}
    }
    Ok(())
}

/// The 32-bit `struct rlimit` of getrlimit/setrlimit: RLIM_INFINITY is ~0.
fn widen(v: u32) -> u64 {
    if v == RLIM_INFINITY {
        u64::MAX
    } else {
        v as u64
    }
}

fn narrow(v: u64) -> u32 {
    v.min(RLIM_INFINITY as u64) as u32
}

/// ugetrlimit/getrlimit: two 32-bit words.
pub fn getrlimit(resource: u32, rlim: u32) -> SysResult {
    let (cur, max) = limit(resource)?;
    put_user(rlim, [narrow(cur), narrow(max)])?;
    Ok(0)
}

/// setrlimit: two 32-bit words.
pub fn setrlimit(resource: u32, rlim: u32) -> SysResult {
    let [cur, max]: [u32; 2] = get_user(rlim)?;
    set_limit(resource, (widen(cur), widen(max)))?;
    Ok(0)
}

/// prlimit64(pid, resource, new, old): only the caller's own limits.
pub fn prlimit64(pid: u32, resource: u32, new: u32, old: u32) -> SysResult {
    if pid != 0 && pid != crate::proc::group().pid {
        return Err(Errno::ESRCH);
    }
    let prev = limit(resource)?;
    if new != 0 {
        let [cur, max]: [u64; 2] = get_user(new)?;
        set_limit(resource, (cur, max))?;
    }
    if old != 0 {
        put_user(old, [prev.0, prev.1])?;
    }
    Ok(0)
}

pub fn getrandom(buf: u32, len: u32, flags: u32) -> SysResult {
    // GRND_NONBLOCK 1, GRND_RANDOM 2, GRND_INSECURE 4; the last two exclude each other.
    if flags & !7 != 0 || flags & 6 == 6 {
        return Err(Errno::EINVAL);
    }
    let len = len.min(256);
    let mut b = [0u8; 256];
    crate::random::fill(&mut b[..len as usize]);
    copy_to_user(buf, &b[..len as usize])?;
    Ok(len)
}

const REBOOT_MAGIC1: u32 = 0xfee1_dead;
const REBOOT_CMD_POWER_OFF: u32 = 0x4321_fedc;
const REBOOT_CMD_HALT: u32 = 0xcdef_0123;
const REBOOT_CMD_RESTART: u32 = 0x0123_4567;

/// How reboot(2) ends the machine: kmain's `shutdown` (the leak report and
/// the figures `make bench` reads), registered at boot. A hook, not a call,
/// as the boot code is the layer above the system calls.
static SHUTDOWN: KCell<fn(u32) -> !> = KCell::new(|_| arch::power_off());

/// Registers reboot's way to end the machine (once, at boot).
pub fn on_reboot(shutdown: fn(u32) -> !) {
    *SHUTDOWN.get() = shutdown;
}

/// reboot(magic1, magic2, cmd): power-off/halt/restart end the machine with
/// status 0, as if PID 1 had exited normally.
pub fn reboot(magic1: u32, magic2: u32, cmd: u32) -> SysResult {
    if magic1 != REBOOT_MAGIC1
        || !matches!(magic2, 0x2812_1969 | 0x0512_1996 | 0x1604_1998 | 0x2011_2000)
    {
        return Err(Errno::EINVAL);
    }
    match cmd {
        REBOOT_CMD_POWER_OFF | REBOOT_CMD_HALT | REBOOT_CMD_RESTART => (*SHUTDOWN.get())(0),
        _ => Err(Errno::EINVAL),
    }
}
