//! The timer state machines: ITIMER_REAL (alarm, setitimer) and POSIX
//! timers, as Linux's `itimer.c` and `posix-timers.c` (6.13 and later) run
//! them, minus the hardware: the kernel tells them the time and arms the
//! deadlines they ask for.
//!
//! # The life of a periodic POSIX timer
//! ```text
//!  set(value, interval) --> Armed(expires) --deadline--> expire():
//!       ^                                 status RequeuePending, signal queued
//!       |                                 with the timer's sequence number
//!       +-- deliver(seq, now): the signal is being dequeued; forward
//!           `expires` past `now`, counting the periods missed meanwhile
//!           as the overrun, and arm again
//! ```
//! The timer is not re-armed while its signal waits in the queue, so a
//! blocked or slow receiver never piles up signals: the missed periods are
//! counted once, at delivery (Linux `posixtimer_deliver_signal`), and come
//! out as `si_overrun` and timer_getoverrun(). Every set() bumps the sequence
//! number: a signal queued before it is stale and is dropped at delivery.

use super::{ItimerSpec, Notify, NSEC_PER_USEC};

/// Linux `hrtimer_forward`: moves `expires` forward by whole `interval`s
/// until it lies after `now`; returns how many were added (0 if `expires`
/// is already in the future).
pub fn forward(expires: &mut u64, now: u64, interval: u64) -> u64 {
    if now < *expires {
        return 0;
    }
    let interval = interval.max(1);
    let orun = (now - *expires) / interval + 1;
    *expires = expires.saturating_add(orun.saturating_mul(interval));
    orun
}

/// The process's real-time interval timer (ITIMER_REAL; alarm shares it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RealTimer {
    /// The deadline while armed.
    expires: Option<u64>,
    /// When it last was (or is) due: where a re-arm forwards from.
    last: u64,
    interval: u64,
}

impl RealTimer {
    /// What getitimer reports (Linux `itimer_get_remtime`): an armed timer
    /// whose deadline passed but which has not fired yet shows 1 us.
    pub fn get(&self, now: u64) -> ItimerSpec {
        let value = self.expires.map_or(0, |e| if e > now { e - now } else { NSEC_PER_USEC });
        ItimerSpec { interval: self.interval, value }
    }

    /// setitimer/alarm: returns the old setting and the deadline to arm
    /// (None: disarmed). A zero value disarms and forgets the interval.
    pub fn set(&mut self, new: ItimerSpec, now: u64) -> (ItimerSpec, Option<u64>) {
        let old = self.get(now);
        if new.value == 0 {
            *self = RealTimer::default();
        } else {
            let e = now.saturating_add(new.value);
            *self = RealTimer { expires: Some(e), last: e, interval: new.interval };
        }
        (old, self.expires)
    }

    /// The deadline passed: SIGALRM is to be sent. The timer stays disarmed
    /// until that SIGALRM is dequeued (`dequeued`).
    pub fn expire(&mut self) {
        self.expires = None;
    }

    /// A SIGALRM was dequeued (Linux `posixtimer_rearm_itimer`): a periodic
    /// timer that is not armed forwards past `now` and returns its new deadline.
    pub fn dequeued(&mut self, now: u64) -> Option<u64> {
        if self.expires.is_some() || self.interval == 0 {
            return None;
        }
        forward(&mut self.last, now, self.interval);
        self.expires = Some(self.last);
        self.expires
    }

    /// Is a deadline pending (for tests and the fork/exec rules)?
    pub const fn armed(&self) -> bool {
        self.expires.is_some()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Disarmed,
    Armed,
    /// Fired with an interval; re-armed when its signal is delivered.
    RequeuePending,
}

/// One POSIX timer (timer_create). Ids, clocks and the owner are the
/// kernel's business; this is the arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PosixTimer {
    pub notify: Notify,
    status: Status,
    expires: u64,
    interval: u64,
    /// Periods missed since the last delivery, -1 based as Linux's
    /// `it_overrun` (the forward at delivery adds at least one).
    overrun: i64,
    /// What timer_getoverrun reports: the overrun of the last delivery.
    overrun_last: i64,
    /// Tags the signal in flight; bumped by `set` and by each delivery.
    seq: u32,
}

impl PosixTimer {
    pub const fn new(notify: Notify) -> PosixTimer {
        PosixTimer {
            notify,
            status: Status::Disarmed,
            expires: 0,
            interval: 0,
            overrun: -1,
            overrun_last: 0,
            seq: 1,
        }
    }

    fn sig_none(&self) -> bool {
        self.notify == Notify::None
    }

    /// timer_gettime (Linux `common_timer_get`). A periodic timer whose
    /// signal waits (or a SIGEV_NONE one, never armed in hardware) is
    /// forwarded first, so the value shown is the next expiry; the periods
    /// skipped count as overruns. A fired one-shot shows 0.
    pub fn get(&mut self, now: u64) -> ItimerSpec {
        let mut cur = ItimerSpec { interval: self.interval, value: 0 };
        if self.status == Status::Disarmed {
            return cur;
        }
        if self.interval != 0 && (self.status == Status::RequeuePending || self.sig_none()) {
            self.overrun += forward(&mut self.expires, now, self.interval) as i64;
        }
        if self.expires > now {
            cur.value = self.expires - now;
        } else if !self.sig_none() {
            cur.value = 1; // expired, signal not yet sent: "still pending"
        }
        cur
    }

    /// timer_settime (Linux `common_timer_set`): `new.value` is relative to
    /// `now` unless `abs`. Returns the old setting and the deadline to arm
    /// in the kernel's timer queue (None: nothing to arm, including every
    /// SIGEV_NONE timer, whose expiry is only ever computed by `get`).
    pub fn set(&mut self, new: ItimerSpec, abs: bool, now: u64) -> (ItimerSpec, Option<u64>) {
        let old = self.get(now);
        self.seq = self.seq.wrapping_add(1).max(1);
        self.overrun = -1;
        self.overrun_last = 0;
        if new.value == 0 {
            self.status = Status::Disarmed;
            self.interval = 0;
            return (old, None);
        }
        self.interval = new.interval;
        self.expires = if abs { new.value } else { now.saturating_add(new.value) };
        self.status = Status::Armed;
        if self.sig_none() {
            return (old, None);
        }
        (old, Some(self.expires))
    }

    /// The armed deadline passed. Returns the sequence number the queued
    /// signal must carry.
    pub fn expire(&mut self) -> u32 {
        self.status = if self.interval != 0 { Status::RequeuePending } else { Status::Disarmed };
        self.seq
    }

    /// The signal tagged `seq` is being dequeued. None: it is stale (the
    /// timer was set again since) and must be dropped. Otherwise the
    /// si_overrun to report and, for a periodic timer, the next deadline.
    pub fn deliver(&mut self, seq: u32, now: u64) -> Option<(i32, Option<u64>)> {
        if seq != self.seq {
            return None;
        }
        if self.interval == 0 || self.status != Status::RequeuePending {
            return Some((self.getoverrun(), None));
        }
        self.overrun += forward(&mut self.expires, now, self.interval) as i64;
        self.status = Status::Armed;
        self.overrun_last = self.overrun;
        self.overrun = -1;
        self.seq = self.seq.wrapping_add(1).max(1);
        Some((self.getoverrun(), Some(self.expires)))
    }

    /// The sequence number of the signal a periodic timer expired for and
    /// has not seen delivered (it waits in the queue, or it was dropped as
    /// ignored: Linux 6.13's "ignored" list), else None.
    pub fn awaiting_delivery(&self) -> Option<u32> {
        (self.status == Status::RequeuePending).then_some(self.seq)
    }

    /// timer_getoverrun: the last delivery's overrun, clamped to INT_MAX
    /// (Linux `timer_overrun_to_int`).
    pub fn getoverrun(&self) -> i32 {
        self.overrun_last.clamp(0, i32::MAX as i64) as i32
    }
}

/// Timer ids per process, as Linux hands them out: counting up from 0 and
/// wrapping at INT_MAX, skipping ids still in use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IdAllocator {
    next: u32,
}

impl IdAllocator {
    /// The next free id, or None if every id is taken.
    pub fn alloc(&mut self, in_use: impl Fn(u32) -> bool) -> Option<u32> {
        for _ in 0..=i32::MAX as u32 {
            let id = self.next;
            self.next = if id == i32::MAX as u32 { 0 } else { id + 1 };
            if !in_use(id) {
                return Some(id);
            }
        }
        None
    }
}
