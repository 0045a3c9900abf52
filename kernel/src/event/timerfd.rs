//! timerfd: a timer whose expirations are read as a u64 count (Linux
//! `fs/timerfd.c`), so a program can wait for time in the same poll or
//! epoll as for its other descriptors. The arithmetic is sigil-core's
//! (`sigil_core::time::timerfd`); this file arms the deadline, blocks and
//! wakes.
//!
//! An armed timerfd has one entry in the deadline queue, `Event::TimerFd`
//! with the timerfd's id. When it fires, the decrementer interrupt calls
//! [`expired`]: a look-up in [`ALL`] and a wake-up of the readers and
//! pollers, nothing allocated. The timer is not re-armed there (Linux's
//! `timerfd_tmrproc` returns HRTIMER_NORESTART too): a periodic timer's
//! further expirations are counted arithmetically, and the next deadline
//! is armed by the read that consumes them.
//!
//! The file is shared by fork and kept across execve (unless TFD_CLOEXEC)
//! as any open file; its timer goes when the last descriptor closes
//! (`Drop`), so nothing outlives the file.
//!
//! Clocks: CLOCK_BOOTTIME is CLOCK_MONOTONIC (Sigil never suspends). An
//! absolute CLOCK_REALTIME time becomes the monotonic instant the wall
//! clock reads it at timerfd_settime; a later clock change does not move it
//! (Linux's would), the same rule as the POSIX timers (`time::timers`).
//! With TFD_TIMER_CANCEL_ON_SET it is cancelled instead: setting the wall
//! clock ([`clock_was_set`]) makes the file readable and its next read
//! fail with ECANCELED, dropping the expirations counted so far (Linux
//! `timerfd_clock_was_set`, `timerfd_canceled`).

use alloc::collections::BTreeMap;
use alloc::sync::{Arc, Weak};
use core::cell::Cell;
use core::sync::atomic::{AtomicU32, Ordering};

use sigil_core::abi::Errno;
use sigil_core::time::timerfd::{check_settime, TimerFd as State, TFD_NONBLOCK};
use sigil_core::time::ItimerSpec;
use sigil_core::time::CLOCK_REALTIME;

use crate::fs::poll::{PollWait, WaitQueue};
use crate::fs::{flags, File, FileOps, StatusFlags, POLLIN};
use crate::kcell::KCell;
use crate::mm::heap;
use crate::time::timer::{self, Event, Key};
use crate::uaccess::put_user;

pub struct TimerFd {
    id: u32,
    realtime: bool,
    state: Cell<State>,
    /// The deadline queue's entry while a future expiry is armed.
    key: Cell<Option<Key>>,
    /// Set with TFD_TIMER_CANCEL_ON_SET: a clock change cancels it.
    might_cancel: Cell<bool>,
    /// The wall clock was set since: the next read is ECANCELED.
    canceled: Cell<bool>,
    flags: StatusFlags,
    /// Readers and pollers: woken by an expiry and by a new setting.
    pollers: WaitQueue,
}

/// Every timerfd, by id: how an expiry finds its file. An entry lives as
/// long as its file (`new` inserts it, `Drop` removes it).
static ALL: KCell<BTreeMap<u32, Weak<TimerFd>>> = KCell::new(BTreeMap::new());
static NEXT_ID: AtomicU32 = AtomicU32::new(1);

/// timerfd_create's file (the clock and flags already checked).
pub fn new(clockid: u32, oflags: u32) -> Result<Arc<File>, Errno> {
    let all = ALL.get();
    let mut id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    while all.contains_key(&id) {
        id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    }
    let t = heap::arc(TimerFd {
        id,
        realtime: clockid == CLOCK_REALTIME,
        state: Cell::new(State::default()),
        key: Cell::new(None),
        might_cancel: Cell::new(false),
        canceled: Cell::new(false),
        flags: StatusFlags::new(flags::O_RDWR | oflags & TFD_NONBLOCK),
        pollers: WaitQueue::new(),
    })?;
    all.insert(id, Arc::downgrade(&t));
    Ok(t)
}

/// The timerfd's deadline passed (the decrementer interrupt, through
/// `trap::timer_tick`): wake whoever waits for it.
pub fn expired(id: u32) {
    if let Some(t) = ALL.get().get(&id).and_then(Weak::upgrade) {
        t.key.set(None);
        t.pollers.wake();
    }
}

/// The wall clock was set (clock_settime, settimeofday): every timerfd
/// armed with TFD_TIMER_CANCEL_ON_SET is cancelled and its readers woken.
pub fn clock_was_set() {
    for t in ALL.get().values().filter_map(Weak::upgrade) {
        if t.might_cancel.get() {
            t.canceled.set(true);
            t.pollers.wake();
        }
    }
}

impl TimerFd {
    /// Puts the deadline queue's entry where the state says.
    fn rearm(&self, now: u64) {
        if let Some(k) = self.key.take() {
            timer::cancel(k);
        }
        let at = self.state.get().deadline(now);
        self.key.set(at.map(|d| timer::arm(d, Event::TimerFd(self.id))));
    }

    /// timerfd_settime on this file with its (checked) flags: returns the
    /// old setting.
    pub fn settime(&self, mut new: ItimerSpec, flags: u32) -> ItimerSpec {
        let (abs, might_cancel) = check_settime(flags, self.realtime).unwrap_or_default();
        self.might_cancel.set(might_cancel);
        self.canceled.set(false);
        let now = timer::now_ns();
        let mut s = self.state.get();
        let mut before_boot = None;
        if abs && self.realtime && new.value != 0 {
            match crate::time::clock::to_monotonic_signed(new.value) {
                m if m >= 1 => new.value = m as u64,
                m => before_boot = Some(m.unsigned_abs()),
            }
        }
        let old = match before_boot {
            Some(ago) => s.set_before_boot(new.interval, ago, now),
            None => s.set(new, abs, now),
        };
        self.state.set(s);
        self.rearm(now);
        self.pollers.wake();
        old
    }

    /// timerfd_gettime on this file.
    pub fn gettime(&self) -> ItimerSpec {
        self.state.get().get(timer::now_ns())
    }
}

impl Drop for TimerFd {
    fn drop(&mut self) {
        if let Some(k) = self.key.take() {
            timer::cancel(k);
        }
        let all = ALL.get();
        all.remove(&self.id);
        // An emptied BTreeMap keeps its root node: the last timerfd's close
        // frees it, so no timerfd costs heap once all are gone (the leak
        // check at power-off).
        if all.is_empty() {
            *all = BTreeMap::new();
        }
    }
}

impl FileOps for TimerFd {
    /// The expirations since the last read, as a u64 (EINVAL for a buffer
    /// under 8 bytes), waiting for the first unless O_NONBLOCK (EAGAIN). A
    /// signal interrupts the wait with ERESTARTSYS, as Linux's
    /// `timerfd_read`: SA_RESTART restarts it. A bad buffer is EFAULT and
    /// consumes nothing.
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        if len < 8 {
            return Err(Errno::EINVAL);
        }
        loop {
            let now = timer::now_ns();
            let mut s = self.state.get();
            let n = s.read(now);
            if self.canceled.take() {
                self.state.set(s);
                self.rearm(now);
                return Err(Errno::ECANCELED);
            }
            if n > 0 {
                put_user(buf, n)?;
                self.state.set(s);
                self.rearm(now);
                return Ok(8);
            }
            if self.flags.nonblocking() {
                return Err(Errno::EAGAIN);
            }
            self.pollers.sleep().map_err(|_| Errno::ERESTARTSYS)?;
        }
    }

    fn status(&self) -> Option<&StatusFlags> {
        Some(&self.flags)
    }
    /// Readable once an expiration waits to be read.
    fn poll_ready(&self) -> u16 {
        if self.canceled.get() || self.state.get().ticks(timer::now_ns()) > 0 {
            POLLIN
        } else {
            0
        }
    }
    fn poll_wait(&self) -> PollWait<'_> {
        PollWait::Queue(&self.pollers)
    }
    fn anon_name(&self) -> Option<&'static str> {
        Some("[timerfd]")
    }
    fn timerfd(&self) -> Option<&TimerFd> {
        Some(self)
    }
}
