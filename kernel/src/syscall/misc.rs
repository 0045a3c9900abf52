//! System information: uname, rlimits, getrandom, reboot.

use sigil_core::abi::Errno;
use sigil_core::rlimit::{self, Limit};

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

/// The process whose limits a call names: the caller for pid 0, another
/// only with `rlimit::may_access` (EPERM), ESRCH if there is none.
fn target(pid: u32) -> Result<&'static mut crate::proc::Group, Errno> {
    let me = crate::proc::group();
    if pid == 0 || pid == me.pid {
        return Ok(me);
    }
    let caller = me.cred;
    let g = crate::proc::get(pid).filter(|g| !g.zombie).ok_or(Errno::ESRCH)?;
    if !rlimit::may_access(&caller, &g.cred) {
        return Err(Errno::EPERM);
    }
    Ok(g)
}

/// Sets a limit of `g`, as the caller may (`Limits::set`). Each process
/// keeps all sixteen, inherited by fork and kept by exec. Sigil enforces
/// RLIMIT_NOFILE (new descriptors), RLIMIT_STACK (execve's argument
/// bytes; the stack itself is always the 8 MiB reserved below TASK_SIZE),
/// RLIMIT_CORE (WCOREDUMP) and RLIMIT_NPROC (fork, for users other than
/// root); the others are kept and reported but limit nothing, and queued
/// signals stay capped at SIGQUEUE_MAX per user whatever RLIMIT_SIGPENDING
/// says.
fn set_limit(g: &mut crate::proc::Group, resource: u32, new: Limit) -> Result<(), Errno> {
    let privileged = crate::cred::current().privileged();
    g.limits.set(resource, new, privileged)
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
    let l = crate::proc::group().limits.get(resource)?;
    put_user(rlim, [narrow(l.cur), narrow(l.max)])?;
    Ok(0)
}

/// setrlimit: two 32-bit words.
pub fn setrlimit(resource: u32, rlim: u32) -> SysResult {
    let [cur, max]: [u32; 2] = get_user(rlim)?;
    set_limit(crate::proc::group(), resource, Limit { cur: widen(cur), max: widen(max) })?;
    Ok(0)
}

/// prlimit64(pid, resource, new, old), in Linux's order: the new limit is
/// read first (EFAULT), then the process found (ESRCH, EPERM); the old
/// limit is taken before the new one is set, and written back only if
/// setting succeeded.
pub fn prlimit64(pid: u32, resource: u32, new: u32, old: u32) -> SysResult {
    let new = match new {
        0 => None,
        at => get_user::<[u64; 2]>(at).map(|[cur, max]| Some(Limit { cur, max }))?,
    };
    let g = target(pid)?;
    let prev = g.limits.get(resource)?;
    if let Some(l) = new {
        set_limit(g, resource, l)?;
    }
    if old != 0 {
        put_user(old, [prev.cur, prev.max])?;
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
