//! Per-process CPU time accounting, sampled the way Linux's tick-based
//! accounting does it, and the two timers that run on it (ITIMER_VIRTUAL,
//! ITIMER_PROF).
//!
//! Nothing is measured on the system call path: a syscall round trip stays
//! as cheap as it was. Instead time is charged in samples:
//! - each timer interrupt (`tick`) charges the time since the previous
//!   sample to the interrupted process, as user time if the interrupt came
//!   from user mode, else as system time (Linux `account_process_tick`), and
//!   then checks the process's CPU timers;
//! - a context switch (`switch_out`) charges the outgoing process, as
//!   system time (it is in the kernel), so no process pays for another;
//! - the idle loop (`idle_begin`/`idle_end`) charges nobody.
//!
//! So utime + stime is exactly the time a process held the CPU; only the
//! split between them is statistical, decided by where each interrupt
//! lands. While a process runs, the decrementer fires at least at the end
//! of its 10 ms slice (`time::timer`), so that is the sampling interval and
//! the granularity of the CPU timers: they expire at the first sample past
//! their expiry, as Linux's do at the first tick.
//!
//! The state (`sigil_core::time::cputime::CpuAccount`) lives in each
//! process (`proc::Group`; each thread also counts its own total): fork starts it from zero, execve keeps it, wait4 adds a
//! reaped child's totals to the parent's children totals.

use sigil_core::signal::{SigInfo, Signal};
use sigil_core::time::cputime::CpuTimer;
use sigil_core::time::ItimerSpec;

use crate::kcell::KCell;
use crate::proc::{self, Thread};
use crate::time::timer;

/// The granularity of sampling while a process runs: its time slice. The
/// CPU timers add it to a first expiry (see `CpuTimer::set`).
pub const SAMPLE_NS: u64 = timer::SLICE_NS;

/// When the last sample was taken (ns since boot); None while idle, when
/// there is nobody to charge.
static LAST: KCell<Option<u64>> = KCell::new(Some(0));

/// The whole machine's CPU time in ns since boot (/proc/stat, /proc/uptime):
/// user and system time as charged to processes, and the idle loop's time.
#[derive(Clone, Copy, Default)]
pub struct Totals {
    pub user: u64,
    pub system: u64,
    pub idle: u64,
}

/// The totals, and when the current idle round began.
static TOTALS: KCell<(Totals, Option<u64>)> =
    KCell::new((Totals { user: 0, system: 0, idle: 0 }, None));

/// The machine's CPU time so far.
pub fn totals() -> Totals {
    TOTALS.get().0
}

fn account(ns: u64, user: bool) {
    let t = &mut TOTALS.get().0;
    if user {
        t.user += ns;
    } else {
        t.system += ns;
    }
}

/// The time from the last sample to `now`, and `now` the last sample; None
/// while idle (an interrupt in the idle loop must not start charging).
fn elapsed(now: u64) -> Option<u64> {
    let last = LAST.get().as_mut()?;
    Some(now.saturating_sub(core::mem::replace(last, now)))
}

/// The timer interrupt at `now`: charges the interrupted process, then sends
/// SIGVTALRM / SIGPROF (SI_KERNEL, as Linux) for the timers that expired.
pub fn tick(from_user: bool, now: u64) {
    let Some(ns) = elapsed(now) else { return };
    let Some(t) = proc::try_current() else { return };
    t.cpu_ns += ns;
    let g = t.group();
    account(ns, from_user);
    let expired = g.cpu.sample(ns, from_user);
    let pid = g.pid;
    if expired.virt {
        let _ = crate::signal::send(pid, SigInfo::kernel(Signal::SIGVTALRM), false);
    }
    if expired.prof {
        let _ = crate::signal::send(pid, SigInfo::kernel(Signal::SIGPROF), false);
    }
}

/// Charges `ns` of system time to thread `t` and its process.
fn charge(t: &mut Thread, ns: u64) {
    t.cpu_ns += ns;
    t.group().cpu.charge(ns, false);
    account(ns, false);
}

/// The scheduler leaves `prev` for another thread: `prev` pays, as system
/// time, up to now (if it was being charged), and charging starts over.
pub fn switch_out(prev: &mut Thread) {
    let now = timer::now_ns();
    if let Some(last) = LAST.get().replace(now) {
        charge(prev, now.saturating_sub(last));
    }
}

/// The scheduler's idle loop goes round (it spins, calling this each time):
/// the process that gave up the CPU pays up to the first round, and nobody
/// for the idle time.
pub fn idle_begin() {
    let now = timer::now_ns();
    if let (Some(ns), Some(p)) = (elapsed(now), proc::try_current()) {
        charge(p, ns);
    }
    *LAST.get() = None;
    TOTALS.get().1 = Some(now);
}

/// A round of the idle loop ends. If an interrupt made the process that
/// gave up the CPU runnable again, the scheduler returns to it without a
/// switch: charging starts again from now. (A switch to another process
/// restarts it in `switch_out`.)
pub fn idle_end() {
    let t = TOTALS.get();
    if let Some(since) = t.1.take() {
        t.0.idle += timer::now_ns().saturating_sub(since);
    }
    if proc::try_current().is_some_and(|p| p.state == proc::State::Runnable) {
        *LAST.get() = Some(timer::now_ns());
    }
}

/// The CPU time the current process (or, with `thread`, the current
/// thread) has used up to now, including the time since the last sample
/// (CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID, which Linux also
/// reads precisely rather than at the last tick).
pub fn runtime(thread: bool) -> u64 {
    let pending = LAST.get().map_or(0, |last| timer::now_ns().saturating_sub(last));
    let used = if thread { proc::current().cpu_ns } else { proc::group().cpu.prof_clock() };
    used + pending
}

/// ITIMER_VIRTUAL or ITIMER_PROF of the current process, and its clock.
fn itimer(prof: bool) -> (&'static mut CpuTimer, u64) {
    let a = &mut proc::group().cpu;
    if prof {
        let now = a.prof_clock();
        (&mut a.prof, now)
    } else {
        let now = a.virt_clock();
        (&mut a.virt, now)
    }
}

/// setitimer(ITIMER_VIRTUAL or ITIMER_PROF): returns the old setting.
pub fn set_itimer(prof: bool, new: ItimerSpec) -> ItimerSpec {
    let (t, now) = itimer(prof);
    t.set(new, now, SAMPLE_NS)
}

/// getitimer(ITIMER_VIRTUAL or ITIMER_PROF).
pub fn get_itimer(prof: bool) -> ItimerSpec {
    let (t, now) = itimer(prof);
    t.get(now, SAMPLE_NS)
}
