//! Timed sleeps: a thread waiting for a deadline on the monotonic clock or
//! on the wall clock. The time layer below keeps the deadline queue
//! (`time::timer`), whose `Event::Wake` the timer interrupt turns back into
//! `make_runnable`; the sleeping and the channels are the scheduler's.
//!
//! Called by: nanosleep and clock_nanosleep, sigtimedwait, the PCM device.

use super::{current, sleep, wakeup};
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

fn sleep_chan(tid: u32) -> usize {
    super::Chan::Timed.of(tid)
}
