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
//!
//! This layer is below the scheduler: its callers (the trap handler, the
//! scheduler, the time system calls) hand it the thread's count and the
//! process's account, and send the signals of the timers that expired.

use sigil_core::time::cputime::{CpuAccount, CpuTimer, CpuTimes, Expired};
use sigil_core::time::ItimerSpec;

use crate::kcell::KCell;
use crate::time::timer;

/// The granularity of sampling while a process runs: its time slice. The
/// CPU timers add it to a first expiry (see `CpuTimer::set`).
pub const SAMPLE_NS: u64 = timer::SLICE_NS;

/// When the last sample was taken, in timebase ticks since boot (a switch
/// then scales only the interval it charges: `timer::interval_ns`); IDLE
/// while idle, when there is nobody to charge. Exported under a name of
/// its own, as `TOTALS` is, out of LLVM's global merge: each switch then
/// addresses it from one `lis`, where the merged block's base took a
/// `lis`/`addi` pair (`proc::CURRENT_THREAD` says more).
#[export_name = "sigil_cputime_last"]
static LAST: KCell<u64> = KCell::new(0);

/// LAST while idle. No timebase count is past it, so the time "since" it
/// saturates to zero: a switch out of the idle loop charges nothing without
/// a test of its own, and so does `unsampled`.
const IDLE: u64 = u64::MAX;

/// The whole machine's CPU time in ns since boot (/proc/stat, /proc/uptime):
/// user and system time as charged to processes, and the idle loop's time.
#[derive(Clone, Copy, Default)]
pub struct Totals {
    pub user: u64,
    pub system: u64,
    pub idle: u64,
}

/// The idle loop's time, the user and system time of the processes that
/// are gone (`retire`), and when the current idle round began (exported
/// under a name of its own, as `LAST` is). Every sample is charged to one
/// process's account (`CpuAccount::own`) and nowhere else: the machine's
/// user and system time are these sums, taken when read (`totals`), so a
/// switch or a tick adds to two counts, the thread's and its process's,
/// not three.
#[export_name = "sigil_cputime_totals"]
static TOTALS: KCell<(Totals, Option<u64>)> =
    KCell::new((Totals { user: 0, system: 0, idle: 0 }, None));

/// The machine's CPU time so far, given `live`, the sum of the own times
/// of the processes that exist (`proc::cpu_totals` adds them up).
pub fn totals(live: CpuTimes) -> Totals {
    let t = TOTALS.get().0;
    Totals { user: t.user + live.utime, system: t.system + live.stime, idle: t.idle }
}

/// A process is freed: its own time (`CpuAccount::own`, final: nothing
/// charges a freed process) stays in the machine's totals. Nothing runs
/// between its leaving the process table and this, so `totals` never
/// misses it: a reaped zombie is freed by the reap, and an auto-reaped
/// one with its last thread, at the switch away from it.
pub fn retire(own: CpuTimes) {
    let t = &mut TOTALS.get().0;
    t.user += own.utime;
    t.system += own.stime;
}

/// The time (ns) from the last sample to `now` (timebase ticks), and `now`
/// the last sample; None while idle (an interrupt in the idle loop must not
/// start charging).
fn elapsed(now: u64) -> Option<u64> {
    let last = LAST.get();
    if *last == IDLE {
        return None;
    }
    Some(timer::interval_ns(core::mem::replace(last, now), now))
}

/// What a sample charges: the running thread's own count and its process's
/// account (`Thread::cpu_ns`, `Group::cpu`).
pub type Charged<'a> = (&'a mut u64, &'a mut CpuAccount);

/// The timer interrupt at `now` (timebase ticks): charges the interrupted thread `cur`, if
/// any, and says which of its process's CPU timers expired (the caller sends
/// SIGVTALRM / SIGPROF: `signal::timer::cpu_timers_expired`).
pub fn tick(from_user: bool, now: u64, cur: Option<Charged>) -> Option<Expired> {
    let ns = elapsed(now)?;
    let (cpu_ns, acct) = cur?;
    *cpu_ns += ns;
    Some(acct.sample(ns, from_user))
}

/// Charges `ns` of system time to a thread and its process.
fn charge((cpu_ns, acct): Charged, ns: u64) {
    *cpu_ns += ns;
    acct.charge(ns, false);
}

/// The scheduler leaves a thread for another: it pays (`prev`), as system
/// time, up to now (if it was being charged), and charging starts over.
pub fn switch_out(prev: Charged) {
    let now = timer::now_ticks();
    charge(prev, timer::interval_ns(core::mem::replace(LAST.get(), now), now));
}

/// The scheduler's idle loop goes round (it spins, calling this each time):
/// the thread that gave up the CPU (`cur`) pays up to the first round, and
/// nobody for the idle time.
pub fn idle_begin(cur: Option<Charged>) {
    let now = timer::now_ticks();
    if let (Some(ns), Some(p)) = (elapsed(now), cur) {
        charge(p, ns);
    }
    *LAST.get() = IDLE;
    TOTALS.get().1 = Some(timer::ns_at(now));
}

/// A round of the idle loop ends. If an interrupt made the thread that
/// gave up the CPU runnable again (`resumes`), the scheduler returns to it
/// without a switch: charging starts again from now. (A switch to another
/// thread restarts it in `switch_out`.)
pub fn idle_end(resumes: bool) {
    let t = TOTALS.get();
    if let Some(since) = t.1.take() {
        t.0.idle += timer::now_ns().saturating_sub(since);
    }
    if resumes {
        *LAST.get() = timer::now_ticks();
    }
}

/// The CPU time not yet charged: since the last sample. The CPU clocks
/// (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID) add it to what is
/// charged, reading precisely rather than at the last tick, as Linux does.
pub fn unsampled() -> u64 {
    timer::interval_ns(*LAST.get(), timer::now_ticks())
}

/// ITIMER_VIRTUAL or ITIMER_PROF of account `a`, and its clock.
fn itimer(a: &mut CpuAccount, prof: bool) -> (&mut CpuTimer, u64) {
    if prof {
        let now = a.prof_clock();
        (&mut a.prof, now)
    } else {
        let now = a.virt_clock();
        (&mut a.virt, now)
    }
}

/// setitimer(ITIMER_VIRTUAL or ITIMER_PROF): returns the old setting.
pub fn set_itimer(a: &mut CpuAccount, prof: bool, new: ItimerSpec) -> ItimerSpec {
    let (t, now) = itimer(a, prof);
    t.set(new, now, SAMPLE_NS)
}

/// getitimer(ITIMER_VIRTUAL or ITIMER_PROF).
pub fn get_itimer(a: &mut CpuAccount, prof: bool) -> ItimerSpec {
    let (t, now) = itimer(a, prof);
    t.get(now, SAMPLE_NS)
}
