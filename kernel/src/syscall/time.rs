//! Clocks, sleeping and timers: clock_gettime/getres, nanosleep,
//! clock_nanosleep, restart_syscall, alarm, setitimer/getitimer (all three
//! timers), the POSIX timer calls, each in the 32-bit and (where Linux has
//! one) the time64 layout glibc uses on ppc32, and the CPU-time reports
//! times and getrusage.
//!
//! The handlers here only move values across the user boundary and check
//! arguments; layouts and rules come from `sigil_core::time`, timer state
//! from `crate::time::timers` and (CPU time) `crate::time::cputime`.
//!
//! Sleeps interrupted by a signal end as Linux's do: a relative sleep writes
//! the time left and returns ERESTART_RESTARTBLOCK (EINTR if a handler runs,
//! else restart_syscall resumes it toward the same deadline); an absolute
//! clock_nanosleep returns ERESTARTNOHAND (EINTR, or the same call again).
//! clock_nanosleep on a CPU clock (Linux `posix_cpu_nsleep`) follows the
//! same rules, with CPU time: `rem` gets the CPU time left, and the restart
//! block keeps the clock's target reading.
//! restart_syscall is here too: it carries on whichever call (sleep, timed
//! futex wait, poll) left its thread's restart block.

use sigil_core::abi::Errno;
use sigil_core::signal::restart::RestartBlock;
use sigil_core::time::cputime::{self, CpuClockId, CpuClockKind, CpuSleep, CpuTimes};
use sigil_core::time::{
    self, decode_timespec, encode_timespec, ItimerSpec, Layout, CLOCK_BOOTTIME, CLOCK_MONOTONIC,
    CLOCK_REALTIME, CLOCK_REALTIME_COARSE, SIGEVENT_SIZE,
};

use super::SysResult;
use crate::proc;
use crate::time::timer;
use crate::time::timers::{self, Clock};
use crate::uaccess::{copy_from_user, copy_to_user, put_user};

const TIMER_ABSTIME: u32 = 1;
const ITIMER_REAL: u32 = 0;
const ITIMER_VIRTUAL: u32 = 1;
const ITIMER_PROF: u32 = 2;

/// The clocks other than CPU time that clock_gettime/getres know:
/// REALTIME, MONOTONIC, RAW, the COARSE ones and BOOTTIME. The realtime
/// ones read the wall clock (`crate::time::clock`), the others the
/// timebase since boot. CPU-time clocks (`cputime::cpu_clock_of`) read a
/// process's or thread's CPU time (`proc::read_cpu_clock`).
fn readable_clock(clock: u32) -> Result<(), Errno> {
    if clock <= CLOCK_BOOTTIME {
        Ok(())
    } else {
        Err(Errno::EINVAL)
    }
}

/// The clocks other than CPU time that clock_nanosleep may use: those that
/// run with time. (CPU clocks: `cpu_nanosleep`.)
fn sleep_clock(clock: u32) -> Result<(), Errno> {
    match clock {
        CLOCK_REALTIME | CLOCK_MONOTONIC | CLOCK_BOOTTIME => Ok(()),
        _ => Err(Errno::EINVAL),
    }
}

/// timer_create's clocks: those, and the CPU time of the process or of the
/// calling thread (`cputime::cpu_clock_of`: glibc passes encoded ids).
/// Timers on another process's or thread's CPU clock, or on a PROF or VIRT
/// one, Linux has; Sigil says EINVAL.
fn timer_clock(clock: u32) -> Result<Clock, Errno> {
    match (clock, cputime::cpu_clock_of(clock)) {
        (CLOCK_REALTIME, _) => Ok(Clock::Realtime),
        (_, Some(CpuClockId { pid: 0, thread, kind: CpuClockKind::Sched })) => {
            Ok(if thread { Clock::ThreadCpu(proc::current().tid) } else { Clock::ProcessCpu })
        }
        (_, Some(_)) => Err(Errno::EINVAL),
        (c, None) => sleep_clock(c).map(|_| Clock::Monotonic),
    }
}

fn put_timespec(addr: u32, ns: u64, layout: Layout) -> Result<(), Errno> {
    let mut b = [0u8; 16];
    encode_timespec(ns, layout, &mut b);
    copy_to_user(addr, &b[..layout.timespec_size()]).map_err(Errno::from)
}

/// Reads a user `timespec` as kernel time (EINVAL if invalid).
pub fn get_timespec(addr: u32, layout: Layout) -> Result<u64, Errno> {
    let mut b = [0u8; 16];
    copy_from_user(&mut b[..layout.timespec_size()], addr)?;
    decode_timespec(&b, layout)
}

pub fn clock_gettime(clock: u32, ts: u32, layout: Layout) -> SysResult {
    let ns = match cputime::cpu_clock_of(clock) {
        Some(id) => proc::read_cpu_clock(id, true).ok_or(Errno::EINVAL)?,
        None => {
            readable_clock(clock)?;
            match clock {
                CLOCK_REALTIME | CLOCK_REALTIME_COARSE => crate::time::clock::realtime_ns(),
                _ => timer::now_ns(),
            }
        }
    };
    put_timespec(ts, ns, layout)?;
    Ok(0)
}

/// clock_getres: one timebase tick, for every clock (`res` may be NULL).
/// On a CPU clock it is also glibc's clock_getcpuclockid's check that the
/// process exists (EINVAL, which glibc turns into ESRCH).
pub fn clock_getres(clock: u32, res: u32, layout: Layout) -> SysResult {
    match cputime::cpu_clock_of(clock) {
        Some(id) => proc::read_cpu_clock(id, false).map(|_| ()).ok_or(Errno::EINVAL)?,
        None => readable_clock(clock)?,
    }
    if res != 0 {
        put_timespec(res, timer::resolution_ns(), layout)?;
    }
    Ok(0)
}

/// Sleeps until `deadline`. Interrupted: the time left goes to `rem` (if
/// not NULL) and the call returns ERESTART_RESTARTBLOCK, leaving the restart
/// block in the thread for restart_syscall (Linux `do_nanosleep`).
fn sleep_relative(deadline: u64, rem: u32, layout: Layout) -> SysResult {
    if crate::proc::sleep_until(deadline).is_ok() {
        return Ok(0);
    }
    if rem != 0 {
        put_timespec(rem, deadline.saturating_sub(timer::now_ns()), layout)?;
    }
    crate::proc::current().restart = Some(RestartBlock::Sleep { deadline, rem, layout });
    Err(Errno::ERESTART_RESTARTBLOCK)
}

pub fn nanosleep(req: u32, rem: u32) -> SysResult {
    let ns = get_timespec(req, Layout::Old32)?;
    sleep_relative(timer::now_ns().saturating_add(ns), rem, Layout::Old32)
}

pub fn clock_nanosleep(clock: u32, flags: u32, req: u32, rem: u32, layout: Layout) -> SysResult {
    if let Some(id) = cputime::cpu_clock_of(clock) {
        return cpu_nanosleep(id, flags, get_timespec(req, layout)?, rem, layout);
    }
    sleep_clock(clock)?;
    let ns = get_timespec(req, layout)?;
    if flags & TIMER_ABSTIME != 0 {
        let slept = match clock {
            CLOCK_REALTIME => crate::proc::sleep_until_realtime(ns),
            _ => crate::proc::sleep_until(ns),
        };
        return slept.map(|_| 0).map_err(|_| Errno::ERESTARTNOHAND);
    }
    sleep_relative(timer::now_ns().saturating_add(ns), rem, layout)
}

/// clock_nanosleep on CPU clock `id` for `ns` (Linux `posix_cpu_nsleep`):
/// EINVAL on the calling thread's own clock, and on a clock whose process
/// or thread does not exist (glibc's clock_nanosleep returns that EINVAL;
/// it turns CLOCK_PROCESS_CPUTIME_ID into the encoded clock of process 0
/// and refuses CLOCK_THREAD_CPUTIME_ID itself). The process clock of
/// another thread's tid is no clock here, as in Linux's `pid_for_clock`
/// for anything but clock_gettime.
fn cpu_nanosleep(id: CpuClockId, flags: u32, ns: u64, rem: u32, layout: Layout) -> SysResult {
    if !cputime::may_sleep_on(id, proc::current().tid) {
        return Err(Errno::EINVAL);
    }
    let now = proc::read_cpu_clock(id, false).ok_or(Errno::EINVAL)?;
    let sleep = CpuSleep::new(ns, flags & TIMER_ABSTIME != 0, now);
    if flags & TIMER_ABSTIME != 0 {
        return proc::sleep_on_cpu_clock(id, sleep, now)
            .map(|_| 0)
            .map_err(|_| Errno::ERESTARTNOHAND);
    }
    cpu_sleep_relative(id, sleep, now, rem, layout)
}

/// A relative CPU-clock sleep, first or restarted: as `sleep_relative`,
/// with the CPU time left in `rem` and the clock's target in the block.
fn cpu_sleep_relative(
    id: CpuClockId,
    sleep: CpuSleep,
    now: u64,
    rem: u32,
    layout: Layout,
) -> SysResult {
    let Err(left) = proc::sleep_on_cpu_clock(id, sleep, now) else { return Ok(0) };
    if rem != 0 {
        put_timespec(rem, left, layout)?;
    }
    proc::current().restart = Some(RestartBlock::CpuSleep { clock: id, sleep, rem, layout });
    Err(Errno::ERESTART_RESTARTBLOCK)
}

/// restart_syscall (number 0): what a call that returned
/// ERESTART_RESTARTBLOCK becomes when no handler ran. It takes the block,
/// so a second restart_syscall, or one after a handler's sigreturn, finds
/// nothing and is EINTR (Linux's `do_no_restart_syscall`).
pub fn restart_syscall() -> SysResult {
    match crate::proc::current().restart.take() {
        Some(RestartBlock::Sleep { deadline, rem, layout }) => {
            sleep_relative(deadline, rem, layout)
        }
        // The clock's owner may have gone meanwhile: EINVAL, as Linux's
        // restart, which looks the clock up again.
        Some(RestartBlock::CpuSleep { clock, sleep, rem, layout }) => {
            let now = proc::read_cpu_clock(clock, false).ok_or(Errno::EINVAL)?;
            cpu_sleep_relative(clock, sleep, now, rem, layout)
        }
        Some(RestartBlock::Futex { addr, val, bitset, deadline, private }) => {
            crate::proc::futex::wait(addr, val, bitset, Some(deadline), private)
        }
        Some(RestartBlock::Poll { fds, n, deadline }) => super::poll::poll_until(fds, n, deadline),
        None => Err(Errno::EINTR),
    }
}

/// alarm(seconds): returns the seconds the previous alarm had left.
pub fn alarm(seconds: u32) -> SysResult {
    let old = timers::set_real(
        crate::proc::group().pid,
        ItimerSpec { interval: 0, value: time::alarm_ns(seconds) },
    );
    Ok(time::alarm_seconds(old.value))
}

/// setitimer(which, new, old): a NULL `new` disarms, as Linux does.
pub fn setitimer(which: u32, new: u32, old: u32) -> SysResult {
    if which > ITIMER_PROF {
        return Err(Errno::EINVAL);
    }
    let spec = if new != 0 {
        let mut b = [0u8; 16];
        copy_from_user(&mut b, new)?;
        ItimerSpec::decode_itimerval(&b)?
    } else {
        ItimerSpec::default()
    };
    let prev = match which {
        ITIMER_REAL => timers::set_real(crate::proc::group().pid, spec),
        _ => crate::time::cputime::set_itimer(
            &mut crate::proc::group().cpu,
            which == ITIMER_PROF,
            spec,
        ),
    };
    if old != 0 {
        copy_to_user(old, &prev.encode_itimerval())?;
    }
    Ok(0)
}

pub fn getitimer(which: u32, value: u32) -> SysResult {
    let spec = match which {
        ITIMER_REAL => timers::get_real(crate::proc::group().pid),
        ITIMER_VIRTUAL | ITIMER_PROF => {
            crate::time::cputime::get_itimer(&mut crate::proc::group().cpu, which == ITIMER_PROF)
        }
        _ => return Err(Errno::EINVAL),
    };
    copy_to_user(value, &spec.encode_itimerval())?;
    Ok(0)
}

/// times(buf): the CPU time of the caller and its reaped children in
/// 1/100 s (`buf` may be NULL); returns the clock ticks since boot (Linux
/// counts from an arbitrary point too; only differences mean anything).
pub fn times(buf: u32) -> SysResult {
    if buf != 0 {
        copy_to_user(buf, &cputime::encode_tms(&crate::proc::group().cpu))?;
    }
    Ok(cputime::clock_ticks(timer::now_ns()))
}

const RUSAGE_SELF: i32 = 0;
const RUSAGE_CHILDREN: i32 = -1;
const RUSAGE_THREAD: i32 = 1;

/// getrusage(who, ru): the old 72-byte layout with 32-bit timevals (glibc
/// on ppc32 converts it to its time64 struct). A process is its one thread.
pub fn getrusage(who: u32, ru: u32) -> SysResult {
    let a = &crate::proc::group().cpu;
    let t: CpuTimes = match who as i32 {
        RUSAGE_SELF | RUSAGE_THREAD => a.own,
        RUSAGE_CHILDREN => a.children,
        _ => return Err(Errno::EINVAL),
    };
    copy_to_user(ru, &cputime::encode_rusage(t))?;
    Ok(0)
}

/// timer_create(clock, sigevent, &id): NULL sigevent means SIGALRM with the
/// id as value. If the id cannot be written the timer is deleted again.
pub fn timer_create(clock: u32, sev: u32, id_out: u32) -> SysResult {
    let clock = timer_clock(clock)?;
    let notify = if sev != 0 {
        let mut b = [0u8; SIGEVENT_SIZE];
        copy_from_user(&mut b, sev)?;
        let w = |i: usize| u32::from_be_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
        let pid = crate::proc::group().pid;
        let in_process = |tid| crate::proc::thread(tid).is_some_and(|t| t.group().pid == pid);
        Some(time::decode_sigevent([w(0), w(1), w(2), w(3)], in_process)?)
    } else {
        None
    };
    let g = crate::proc::group();
    let id = timers::create(g.pid, &g.user.timers, notify, clock)?;
    if put_user(id_out, id).is_err() {
        timers::delete(g.pid, id)?;
        return Err(Errno::EFAULT);
    }
    Ok(0)
}

/// Writes an `itimerspec` (timer_gettime, timerfd_gettime, the old value).
pub(super) fn put_itimerspec(addr: u32, spec: ItimerSpec, layout: Layout) -> Result<(), Errno> {
    copy_to_user(addr, &spec.encode(layout)[..layout.itimerspec_size()]).map_err(Errno::from)
}

/// Reads an `itimerspec`: EFAULT, or EINVAL for an invalid time.
pub(super) fn get_itimerspec(addr: u32, layout: Layout) -> Result<ItimerSpec, Errno> {
    let mut b = [0u8; 32];
    copy_from_user(&mut b[..layout.itimerspec_size()], addr)?;
    ItimerSpec::decode(&b, layout)
}

/// timer_settime / timer_settime64(id, flags, new, old).
pub fn timer_settime(id: u32, flags: u32, new: u32, old: u32, layout: Layout) -> SysResult {
    if new == 0 {
        return Err(Errno::EINVAL);
    }
    let spec = get_itimerspec(new, layout)?;
    let prev =
        timers::settime(proc::group().pid, id, spec, flags & TIMER_ABSTIME != 0, &proc::cpu_clock)?;
    if old != 0 {
        put_itimerspec(old, prev, layout)?;
    }
    Ok(0)
}

/// timer_gettime / timer_gettime64(id, cur).
pub fn timer_gettime(id: u32, cur: u32, layout: Layout) -> SysResult {
    let spec = timers::gettime(proc::group().pid, id, &proc::cpu_clock)?;
    put_itimerspec(cur, spec, layout)?;
    Ok(0)
}

pub fn timer_getoverrun(id: u32) -> SysResult {
    timers::getoverrun(crate::proc::group().pid, id).map(|v| v as u32)
}

pub fn timer_delete(id: u32) -> SysResult {
    timers::delete(crate::proc::group().pid, id).map(|_| 0)
}
