//! CPU time: what one process has used in user and in system mode, what its
//! reaped children used, the two interval timers that count it down
//! (ITIMER_VIRTUAL on user time, ITIMER_PROF on user + system time), and
//! the user layouts that report it (`struct tms`, `struct rusage`).
//!
//! The kernel charges time in samples (see `kernel/src/time/cputime.rs`): each
//! sample adds the time since the previous one to either `utime` or
//! `stime`. The timers work as Linux's `cpu_itimer` does: an armed timer
//! holds the reading of its clock (utime, or utime + stime) at which it
//! expires, checked at each sample; a periodic one then moves on by one
//! interval. So a timer fires at the first sample at or past its expiry,
//! up to one sampling interval late, never early.

use super::{
    split_ns, ItimerSpec, CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID, NSEC_PER_USEC,
};

/// The unit of `clock_t` in `times()`: Linux's USER_HZ, 100 on every arch.
pub const USER_HZ: u64 = 100;
const NSEC_PER_CLOCK_TICK: u64 = super::NSEC_PER_SEC / USER_HZ;

/// Size of the ppc32 `struct rusage`: two `{i32 sec; i32 usec}` timevals,
/// then 14 longs (maxrss ... nivcsw).
pub const RUSAGE_SIZE: usize = 72;
/// Size of `struct tms`: four 32-bit `clock_t`.
pub const TMS_SIZE: usize = 16;

/// User and system time, in ns, and the page faults taken meanwhile: what
/// getrusage and wait4 report, and /proc/<pid>/stat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuTimes {
    pub utime: u64,
    pub stime: u64,
    /// Faults that put a page in (Linux's min_flt: Sigil reads no page
    /// from a disk, so none is major). Reloading the MMU's cache of a page
    /// already in the table is not a fault here, as Linux's hash_page and
    /// TLB-miss handlers are not.
    pub minflt: u64,
}

impl CpuTimes {
    pub fn add(&mut self, o: CpuTimes) {
        self.utime += o.utime;
        self.stime += o.stime;
        self.minflt += o.minflt;
    }
}

/// One CPU-time interval timer (Linux `struct cpu_itimer`): `expires` is a
/// reading of its clock (0: disarmed), `incr` the period (0: one-shot).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuTimer {
    expires: u64,
    incr: u64,
}

impl CpuTimer {
    /// What is left until expiry at clock reading `now`. A timer due but
    /// not yet seen by a sample reports one `slack`, as Linux reports one
    /// tick ("about to fire"), never 0, which would read as disarmed.
    fn left(&self, now: u64, slack: u64) -> u64 {
        match self.expires {
            0 => 0,
            e if e <= now => slack,
            e => e - now,
        }
    }

    /// setitimer: arms for `new` (value 0 disarms) at clock reading `now`,
    /// returning the old setting. The first expiry is pushed out by one
    /// sampling interval `slack` (Linux adds TICK_NSEC): the next sample
    /// charges time spent before this call too, and must not fire early.
    pub fn set(&mut self, new: ItimerSpec, now: u64, slack: u64) -> ItimerSpec {
        let old = self.get(now, slack);
        self.expires = if new.value == 0 { 0 } else { now + new.value + slack };
        self.incr = new.interval;
        old
    }

    /// getitimer at clock reading `now`.
    pub fn get(&self, now: u64, slack: u64) -> ItimerSpec {
        ItimerSpec { interval: self.incr, value: self.left(now, slack) }
    }

    /// A sample moved the clock to `now`: true if the timer expired (the
    /// caller sends the signal). A periodic timer moves on by one period,
    /// not to the next one after `now`: like Linux, one signal per sample.
    pub fn check(&mut self, now: u64) -> bool {
        if self.expires == 0 || now < self.expires {
            return false;
        }
        self.expires = if self.incr == 0 { 0 } else { self.expires + self.incr };
        true
    }
}

/// Which timers a sample found expired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expired {
    pub virt: bool,
    pub prof: bool,
}

/// A process's CPU-time state. A fork child starts from `default()`: no
/// time used, no timers (Linux: itimers are not inherited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuAccount {
    /// Used by the process itself.
    pub own: CpuTimes,
    /// Used by its reaped children and their reaped children (cutime, cstime).
    pub children: CpuTimes,
    pub virt: CpuTimer,
    pub prof: CpuTimer,
    /// When a clock_nanosleep on this process's CPU clock may be done.
    pub sleepers: CpuSleepers,
}

impl CpuAccount {
    /// ITIMER_VIRTUAL's clock: user time.
    pub fn virt_clock(&self) -> u64 {
        self.own.utime
    }

    /// ITIMER_PROF's clock: user + system time.
    pub fn prof_clock(&self) -> u64 {
        self.own.utime + self.own.stime
    }

    /// Charges `ns` of user (`user`) or system time, without looking at
    /// the timers (a context switch: they are checked at the next sample).
    pub fn charge(&mut self, ns: u64, user: bool) {
        if user {
            self.own.utime += ns;
        } else {
            self.own.stime += ns;
        }
    }

    /// A timer-interrupt sample: charges `ns`, then checks both timers.
    pub fn sample(&mut self, ns: u64, user: bool) -> Expired {
        self.charge(ns, user);
        let (v, p) = (self.virt_clock(), self.prof_clock());
        Expired { virt: self.virt.check(v), prof: self.prof.check(p) }
    }

    /// What wait4's rusage and the parent's children totals get from a
    /// reaped child: its own time and everything it reaped.
    pub fn total(&self) -> CpuTimes {
        let mut t = self.own;
        t.add(self.children);
        t
    }

    /// The parent reaps `child` (Linux `wait_task_zombie`).
    pub fn reap(&mut self, child: &CpuAccount) {
        self.children.add(child.total());
    }
}

/// ns as `clock_t` ticks of 1/USER_HZ s, truncated (Linux `nsec_to_clock_t`).
pub fn clock_ticks(ns: u64) -> u32 {
    (ns / NSEC_PER_CLOCK_TICK) as u32
}

/// `struct tms` for times(): utime, stime, cutime, cstime.
pub fn encode_tms(a: &CpuAccount) -> [u8; TMS_SIZE] {
    let mut b = [0u8; TMS_SIZE];
    let v = [a.own.utime, a.own.stime, a.children.utime, a.children.stime];
    for (i, ns) in v.into_iter().enumerate() {
        b[4 * i..4 * i + 4].copy_from_slice(&clock_ticks(ns).to_be_bytes());
    }
    b
}

/// `struct rusage` for getrusage/wait4: ru_utime and ru_stime as timevals
/// (microseconds truncated, Linux `ns_to_kernel_old_timeval`), and
/// ru_minflt (the fifth long after them, offset 32); Sigil keeps none of
/// the other counters, so they are 0.
pub fn encode_rusage(t: CpuTimes) -> [u8; RUSAGE_SIZE] {
    const RU_MINFLT: usize = 32;
    let mut b = [0u8; RUSAGE_SIZE];
    for (at, ns) in [(0, t.utime), (8, t.stime)] {
        let (sec, nsec) = split_ns(ns);
        b[at..at + 4].copy_from_slice(&(sec as u32).to_be_bytes());
        b[at + 4..at + 8].copy_from_slice(&(nsec / NSEC_PER_USEC as u32).to_be_bytes());
    }
    b[RU_MINFLT..RU_MINFLT + 4].copy_from_slice(&(t.minflt as u32).to_be_bytes());
    b
}

/// What a CPU-time clock counts (Linux `CPUCLOCK_WHICH`): user + system
/// time (PROF), user time (VIRT) or the time run, which Sigil measures as
/// user + system time too (SCHED, Linux's `sum_exec_runtime`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuClockKind {
    Prof,
    Virt,
    Sched,
}

/// A CPU-time clock id taken apart: `pid` 0 is the caller (its process,
/// or with `thread` the calling thread), else the process or thread `pid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuClockId {
    pub pid: u32,
    pub thread: bool,
    pub kind: CpuClockKind,
}

/// Which CPU-time clock a clock id names, if any: CLOCK_PROCESS_CPUTIME_ID
/// and CLOCK_THREAD_CPUTIME_ID, or an id encoded as Linux's
/// `MAKE_PROCESS_CPUCLOCK(pid, which)` / `MAKE_THREAD_CPUCLOCK(tid, which)`
/// build them, which glibc's clock_getcpuclockid, pthread_getcpuclockid and
/// timer_create pass: negative, the pid in ~(id >> 3), bit 2 per-thread,
/// the low two bits the kind (3 is no kind: None, Linux's EINVAL).
pub fn cpu_clock_of(clock: u32) -> Option<CpuClockId> {
    const PER_THREAD: u32 = 4;
    let c = clock as i32;
    let kind = match clock {
        CLOCK_PROCESS_CPUTIME_ID | CLOCK_THREAD_CPUTIME_ID => {
            let thread = clock == CLOCK_THREAD_CPUTIME_ID;
            return Some(CpuClockId { pid: 0, thread, kind: CpuClockKind::Sched });
        }
        _ if c >= 0 => return None,
        _ => match clock & 3 {
            0 => CpuClockKind::Prof,
            1 => CpuClockKind::Virt,
            2 => CpuClockKind::Sched,
            _ => return None,
        },
    };
    Some(CpuClockId { pid: !(c >> 3) as u32, thread: clock & PER_THREAD != 0, kind })
}

/// Whether clock_nanosleep may sleep on CPU clock `id`, as Linux's
/// `posix_cpu_nsleep` decides first: not on the calling thread's own
/// thread clock, named as CLOCK_THREAD_CPUTIME_ID (pid 0) or by its tid
/// `self_tid` (EINVAL: the clock could only move while the thread runs, and
/// it is asleep). Another thread's clock and any process's are allowed;
/// whether that thread or process exists is the caller's lookup (Linux
/// says EINVAL for that too: `pid_for_clock` finds nothing).
pub fn may_sleep_on(id: CpuClockId, self_tid: u32) -> bool {
    !(id.thread && (id.pid == 0 || id.pid == self_tid))
}

/// One sleep on a CPU clock (Linux `do_cpu_nanosleep`): the clock reading
/// at which it ends. A restart after a signal keeps the same target, as
/// Linux's `posix_cpu_nsleep_restart` sleeps to the saved expiry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuSleep {
    pub target: u64,
}

impl CpuSleep {
    /// A sleep of `req` ns from clock reading `now`, or (`absolute`,
    /// TIMER_ABSTIME) until the clock reads `req`.
    pub fn new(req: u64, absolute: bool, now: u64) -> CpuSleep {
        CpuSleep { target: if absolute { req } else { now.saturating_add(req) } }
    }

    /// Whether the clock, reading `now`, has got there.
    pub fn reached(self, now: u64) -> bool {
        now >= self.target
    }

    /// The CPU time still to go at reading `now` (what `rem` gets).
    pub fn left(self, now: u64) -> u64 {
        self.target.saturating_sub(now)
    }
}

/// The sleepers on one process's or thread's CPU clock, as the kernel's
/// sampling sees them: the earliest reading of the summed clock (user +
/// system time) at which one of them may be done, or None when nobody
/// sleeps, so a sample costs one test. A sleeper registers the summed
/// reading plus what its own clock has left: no clock runs faster than the
/// summed one, so this never wakes it late (a VIRT sleeper may wake early,
/// looks, and registers again for what is left, which is progress, never a
/// spin). A sample past that point wakes every sleeper on the clock, and
/// those not done register again, so nothing is kept per sleeper and a
/// sleeper that leaves (a signal, its death) leaves nothing to free: at
/// worst one wake-up that finds nobody.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuSleepers {
    next: Option<u64>,
}

impl CpuSleepers {
    /// A sleeper is to be woken once the summed clock reads `at`.
    pub fn wake_at(&mut self, at: u64) {
        self.next = Some(self.next.map_or(at, |n| n.min(at)));
    }

    /// A sample: the summed clock reads `now`. True if the sleepers are to
    /// be woken now (they are then forgotten until they register again).
    pub fn due(&mut self, now: u64) -> bool {
        let due = self.next.is_some_and(|n| now >= n);
        if due {
            self.next = None;
        }
        due
    }
}

#[cfg(test)]
mod clock_tests {
    use super::CpuClockKind::*;
    use super::{cpu_clock_of, CpuClockId};

    #[test]
    fn cpu_clock_ids_plain_and_as_glibc_encodes_them() {
        let id = |pid, thread, kind| Some(CpuClockId { pid, thread, kind });
        assert_eq!(cpu_clock_of(2), id(0, false, Sched));
        assert_eq!(cpu_clock_of(3), id(0, true, Sched));
        // MAKE_PROCESS_CPUCLOCK(0, SCHED) and MAKE_THREAD_CPUCLOCK(0, SCHED).
        assert_eq!(cpu_clock_of(-6i32 as u32), id(0, false, Sched));
        assert_eq!(cpu_clock_of(-2i32 as u32), id(0, true, Sched));
        assert_eq!(cpu_clock_of(0), None);
        assert_eq!(cpu_clock_of(1), None);
        // Process 1's SCHED clock, ~1 << 3 | 2; thread 7's VIRT clock; the
        // caller's PROF clock; no fourth kind.
        assert_eq!(cpu_clock_of(((!1i32) << 3 | 2) as u32), id(1, false, Sched));
        assert_eq!(cpu_clock_of(((!7i32) << 3 | 4 | 1) as u32), id(7, true, Virt));
        assert_eq!(cpu_clock_of(-8i32 as u32), id(0, false, Prof));
        assert_eq!(cpu_clock_of(-5i32 as u32), None);
    }
}
