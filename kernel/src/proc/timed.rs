//! Timed sleeps: a thread waiting for a deadline on the monotonic clock or
//! on the wall clock, or for a CPU clock to reach a reading. The time layer
//! below keeps the deadline queue (`time::timer`), whose `Event::Wake` the
//! timer interrupt turns back into `make_runnable`; the sleeping and the
//! channels are the scheduler's.
//!
//! A CPU clock has no deadline to queue: it moves only while its process
//! (or thread) runs. So a sleeper on one registers in that process's or
//! thread's `CpuSleepers` and sleeps on the clock's channel; the timer
//! interrupt, after it has sampled a thread (`wake_cpu_sleepers`), wakes
//! that channel once the earliest registered reading has passed, as it
//! fires the CPU-time timers: at the first sample past the target. Each
//! sleeper then reads its clock and either is done or registers again.
//! With no sleeper a sample pays one test per clock.
//!
//! Called by: nanosleep and clock_nanosleep, sigtimedwait, the PCM device,
//! the timer interrupt (`trap`).

use sigil_core::time::cputime::{CpuClockId, CpuClockKind, CpuSleep};

use super::{current, get, read_cpu_clock, sleep, thread, wakeup, Chan, Thread};
use crate::time::clock::{realtime_ns, to_monotonic};
use crate::time::timer::{self, arm, cancel, now_ns, Event};

/// What absolute CLOCK_REALTIME sleepers wait on besides their deadline:
/// a clock change wakes them all.
const CLOCK_WAS_SET: usize = super::Chan::ClockWasSet as usize;

/// Sleeps until `deadline` (ns since boot). Err(()) if a signal interrupted it.
pub fn sleep_until(deadline: u64) -> Result<(), ()> {
    let tid = current().tid;
    let key = arm(deadline, Event::Wake(tid));
    let chan = sleep_chan(tid);
    let r = loop {
        if now_ns() >= deadline {
            break Ok(());
        }
        if sleep(chan).is_err() {
            break Err(());
        }
    };
    cancel(key);
    r
}

/// Sleeps until the wall clock reads `deadline` (clock_nanosleep with
/// TIMER_ABSTIME on CLOCK_REALTIME): the monotonic deadline is worked out
/// again after every clock change. Err(()) if a signal interrupted it.
pub fn sleep_until_realtime(deadline: u64) -> Result<(), ()> {
    loop {
        if realtime_ns() >= deadline {
            return Ok(());
        }
        let tid = current().tid;
        let key = timer::arm(to_monotonic(deadline), Event::Wake(tid));
        let r = sleep(CLOCK_WAS_SET);
        timer::cancel(key);
        r?;
    }
}

/// Sets the wall clock (clock_settime, settimeofday; the caller checked
/// the privilege) and wakes the absolute sleepers to look again.
pub fn set_wall_clock(ns: u64) {
    crate::time::clock::set_realtime(ns);
    wakeup(CLOCK_WAS_SET);
}

/// Sleeps until CPU clock `id` reads `s`'s target; `now` is its reading at
/// the start (the caller read it, so it knows the clock exists; it checked
/// `cputime::may_sleep_on`). Err(left) if a signal interrupted it, with the
/// CPU time then left. A clock whose owner is gone stops (Linux's too: its
/// timer is no longer on any queue): only a signal ends that sleep.
pub fn sleep_on_cpu_clock(id: CpuClockId, s: CpuSleep, mut now: u64) -> Result<(), u64> {
    loop {
        if s.reached(now) {
            return Ok(());
        }
        let chan = register(id, s.left(now)).unwrap_or(sleep_chan(current().tid));
        if sleep(chan).is_err() {
            return Err(s.left(read_cpu_clock(id, false).unwrap_or(now)));
        }
        now = read_cpu_clock(id, false).unwrap_or(now);
    }
}

/// Registers the current thread as a sleeper on clock `id` with `left` to
/// go, and says which channel to sleep on; None if the clock's owner is
/// gone. The wake point is in the summed clock (user + system time, read
/// as a SCHED clock so the caller's own unsampled time counts).
fn register(id: CpuClockId, left: u64) -> Option<usize> {
    let summed = read_cpu_clock(CpuClockId { kind: CpuClockKind::Sched, ..id }, false)?;
    let at = summed.saturating_add(left);
    if id.thread {
        // `may_sleep_on` ruled out pid 0 (the caller's own thread).
        let t = thread(id.pid)?;
        t.cpu_sleepers.wake_at(at);
        return Some(Chan::ThreadCpuClock.of(t.tid));
    }
    let g = if id.pid == 0 { current().group() } else { get(id.pid)? };
    g.cpu.sleepers.wake_at(at);
    Some(Chan::CpuClock.of(g.pid))
}

/// A timer interrupt has just sampled thread `t`: wakes the sleepers on
/// its process's and its own CPU clock whose wake point that passed.
pub fn wake_cpu_sleepers(t: &mut Thread) {
    let g = t.group();
    if g.cpu.sleepers.due(g.cpu.prof_clock()) {
        wakeup(Chan::CpuClock.of(g.pid));
    }
    if t.cpu_sleepers.due(t.cpu_ns) {
        wakeup(Chan::ThreadCpuClock.of(t.tid));
    }
}

fn sleep_chan(tid: u32) -> usize {
    super::Chan::Timed.of(tid)
}
