//! The wall clock: CLOCK_REALTIME, as an offset from the monotonic clock.
//!
//! The monotonic clock is the timebase since boot (`time::timer`); the wall
//! clock adds `OFFSET_NS`, set at boot from the board's real-time clock
//! (`arch::rtc_seconds`: CUDA on g3beige, the SIU RTC on the MPC8xx) and by
//! clock_settime/settimeofday. Changing it never moves the monotonic clock,
//! so relative sleeps and timers are untouched, as on Linux; sleeps on an
//! absolute CLOCK_REALTIME deadline are woken to look again (Linux
//! `clock_was_set`, which retriggers the realtime hrtimer base): those
//! sleeps are the scheduler's (`proc::timed`), and the clock is set through
//! `proc::set_wall_clock`, which wakes them.
//!
//! Called by: `main` (init), the time system calls, `proc::timed`.

use crate::kcell::KCell;
use crate::time::timer;

/// Wall clock minus monotonic clock, in ns (the realtime clock before 1970
/// reads as 0).
static OFFSET_NS: KCell<i64> = KCell::new(0);

/// Reads the board's real-time clock, once at boot. Without one the wall
/// clock starts at 1970, as before.
pub fn init() {
    match crate::arch::rtc_seconds() {
        Some(s) => {
            set_offset(s.saturating_mul(1_000_000_000));
            crate::kprintln!("sigil: wall clock from the RTC: {} s since 1970", s);
        }
        None => {
            crate::kprintln!("sigil: no real-time clock answered: the wall clock starts at 1970")
        }
    }
}

fn set_offset(realtime_ns: u64) {
    *OFFSET_NS.get() = realtime_ns as i64 - timer::now_ns() as i64;
}

/// CLOCK_REALTIME now, in ns since 1970.
pub fn realtime_ns() -> u64 {
    (timer::now_ns() as i64).saturating_add(*OFFSET_NS.get()).max(0) as u64
}

/// The monotonic instant at which the wall clock will read `realtime`, if
/// nobody sets it meanwhile (0 if it already has).
pub fn to_monotonic(realtime: u64) -> u64 {
    to_monotonic_signed(realtime).max(0) as u64
}

/// `to_monotonic` without the clamp: negative for a wall-clock time before
/// boot (a timerfd counts the periods it missed from there).
pub fn to_monotonic_signed(realtime: u64) -> i64 {
    (realtime as i64).saturating_sub(*OFFSET_NS.get())
}

/// Sets the wall clock (`proc::set_wall_clock`, which also wakes the
/// absolute sleepers).
pub fn set_realtime(ns: u64) {
    set_offset(ns);
}
