//! timerfd's arithmetic (Linux `fs/timerfd.c`): a timer read as a count of
//! expirations instead of sent as a signal.
//!
//! Like Linux's, a timerfd is never re-armed by its own expiry: the
//! deadline fires once, wakes the readers, and from then on the count is
//! arithmetic - a periodic timer that nobody reads has expired
//! `1 + (now - expires) / interval` times - until a read (or a new setting)
//! consumes it and asks for the next deadline. So an expiry needs no
//! allocation and a forgotten periodic timerfd costs the timer queue
//! nothing.

use super::timer::forward;
use super::{ItimerSpec, CLOCK_BOOTTIME, CLOCK_MONOTONIC, CLOCK_REALTIME};
use crate::abi::Errno;

/// timerfd_create's flags: TFD_CLOEXEC and TFD_NONBLOCK are O_CLOEXEC and
/// O_NONBLOCK (powerpc's values).
pub const TFD_NONBLOCK: u32 = 0o4000;
pub const TFD_CLOEXEC: u32 = 0o2000000;
/// timerfd_settime's flags.
pub const TFD_TIMER_ABSTIME: u32 = 1;
pub const TFD_TIMER_CANCEL_ON_SET: u32 = 2;

/// timerfd_create(clockid, flags): the clock and flags Linux accepts. The
/// clocks a timerfd may count are REALTIME, MONOTONIC and BOOTTIME
/// (CLOCK_*_ALARM need CAP_WAKE_ALARM and a wake-up source Sigil's boards
/// do not have: EINVAL, as for any other).
pub fn check_create(clockid: u32, flags: u32) -> Result<(), Errno> {
    let clock_ok = matches!(clockid, CLOCK_REALTIME | CLOCK_MONOTONIC | CLOCK_BOOTTIME);
    if !clock_ok || flags & !(TFD_NONBLOCK | TFD_CLOEXEC) != 0 {
        return Err(Errno::EINVAL);
    }
    Ok(())
}

/// timerfd_settime's flags: (absolute, cancel on a clock change). The
/// latter counts only with both flags on a CLOCK_REALTIME timer (Linux
/// `timerfd_setup_cancel`): setting the wall clock then fails the next
/// read with ECANCELED.
pub fn check_settime(flags: u32, realtime: bool) -> Result<(bool, bool), Errno> {
    const BOTH: u32 = TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET;
    if flags & !BOTH != 0 {
        return Err(Errno::EINVAL);
    }
    Ok((flags & TFD_TIMER_ABSTIME != 0, realtime && flags & BOTH == BOTH))
}

/// One timerfd's setting, in monotonic ns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimerFd {
    /// The first expiry not yet read (None: disarmed).
    expires: Option<u64>,
    interval: u64,
    /// Expirations before boot, not yet read (`set_before_boot`).
    carry: u64,
}

impl TimerFd {
    /// Expirations that have passed by `now` and not been read.
    pub fn ticks(&self, now: u64) -> u64 {
        let since = match self.expires {
            Some(e) if now >= e && self.interval == 0 => 1,
            Some(e) if now >= e => (now - e) / self.interval + 1,
            _ => 0,
        };
        self.carry + since
    }

    /// The deadline the timer queue must hold: the next expiry, if it is
    /// still to come (one that passed is counted by `ticks`).
    pub fn deadline(&self, now: u64) -> Option<u64> {
        self.expires.filter(|&e| e > now)
    }

    /// A read: takes the expirations so far (0: none, the reader waits);
    /// a periodic timer moves on to its next expiry after `now`, a one-shot
    /// one is disarmed.
    pub fn read(&mut self, now: u64) -> u64 {
        let n = self.ticks(now);
        self.carry = 0;
        if let Some(e) = self.expires.as_mut().filter(|e| now >= **e) {
            if self.interval != 0 {
                forward(e, now, self.interval);
            } else {
                self.expires = None;
            }
        }
        n
    }

    /// timerfd_gettime: the time to the next expiry (0 once a one-shot
    /// timer has fired, or when disarmed) and the interval, which Linux
    /// keeps even when the timer is disarmed with a zero value.
    pub fn get(&self, now: u64) -> ItimerSpec {
        let value = match self.expires {
            Some(e) if e > now => e - now,
            Some(mut e) if self.interval != 0 => {
                forward(&mut e, now, self.interval);
                e - now
            }
            _ => 0,
        };
        ItimerSpec { interval: self.interval, value }
    }

    /// timerfd_settime: `new.value` is relative to `now` unless `abs`; a
    /// zero value disarms. Unread expirations are forgotten. Returns the
    /// old setting.
    pub fn set(&mut self, new: ItimerSpec, abs: bool, now: u64) -> ItimerSpec {
        let old = self.get(now);
        self.interval = new.interval;
        self.carry = 0;
        self.expires = match new.value {
            0 => None,
            v if abs => Some(v),
            v => Some(now.saturating_add(v)),
        };
        old
    }

    /// timerfd_settime with an absolute first expiry `ago` ns before boot
    /// (a CLOCK_REALTIME time earlier than the wall clock at boot): the
    /// monotonic clock cannot name it, so the periods before boot are
    /// counted now and the first expiry moves to the first one after boot
    /// (a one-shot timer has simply expired once).
    pub fn set_before_boot(&mut self, interval: u64, ago: u64, now: u64) -> ItimerSpec {
        let old = self.set(ItimerSpec { interval, value: 1 }, true, now);
        if interval != 0 {
            // Periods from the first expiry to the first instant >= 1 ns.
            let k = (ago + 1).div_ceil(interval);
            self.carry = k;
            self.expires = Some(k * interval - ago);
        }
        old
    }
}
