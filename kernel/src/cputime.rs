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
//! of its 10 ms slice (`dev::timer`), so that is the sampling interval and
//! the granularity of the CPU timers: they expire at the first sample past
//! their expiry, as Linux's do at the first tick.
//!
//! The state (`sigil_core::time::cputime::CpuAccount`) lives in each
//! `Process`: fork starts it from zero, execve keeps it, wait4 adds a
//! reaped child's totals to the parent's children totals.

use sigil_core::signal::{SigInfo, Signal};
use sigil_core::time::cputime::CpuTimer;
use sigil_core::time::ItimerSpec;

use crate::dev::timer;
use crate::kcell::KCell;
use crate::proc::{self, Process};

/// The granularity of sampling while a process runs: its time slice. The
/// CPU timers add it to a first expiry (see `CpuTimer::set`).
pub const SAMPLE_NS: u64 = timer::SLICE_NS;

/// When the last sample was taken (ns since boot); None while idle, when
/// there is nobody to charge.
static LAST: KCell<Option<u64>> = KCell::new(Some(0));

/// The time since the last sample, and now the last sample.
fn elapsed() -> Option<u64> {
    let now = timer::now_ns();
    LAST.get().replace(now).map(|last| now.saturating_sub(last))
}

/// The timer interrupt: charges the interrupted process, then sends
/// SIGVTALRM / SIGPROF (SI_KERNEL, as Linux) for the timers that expired.
pub fn tick(from_user: bool) {
    let Some(ns) = elapsed() else { return };
    let Some(p) = proc::try_current() else { return };
    let expired = p.cpu.sample(ns, from_user);
    let pid = p.pid;
    if expired.virt {
        let _ = crate::signal::send(pid, SigInfo::kernel(Signal::SIGVTALRM), false);
    }
    if expired.prof {
        let _ = crate::signal::send(pid, SigInfo::kernel(Signal::SIGPROF), false);
    }
}

/// The scheduler leaves `prev`: it pays, as system time, up to now.
pub fn switch_out(prev: &mut Process) {
    if let Some(ns) = elapsed() {
        prev.cpu.charge(ns, false);
    }
}

/// The CPU goes idle: the process that gave it up pays up to now, and
/// nobody pays for the idle time.
pub fn idle_begin() {
    if let Some(p) = proc::try_current() {
        switch_out(p);
    }
    *LAST.get() = None;
}

/// The CPU leaves the idle loop: charging starts again from now.
pub fn idle_end() {
    *LAST.get() = Some(timer::now_ns());
}

/// ITIMER_VIRTUAL or ITIMER_PROF of the current process, and its clock.
fn itimer(prof: bool) -> (&'static mut CpuTimer, u64) {
    let a = &mut proc::current().cpu;
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
