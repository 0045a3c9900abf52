//! Wait queues: the threads waiting for one object to change (Linux
//! `wait_queue_head_t`). A file keeps one for its pollers (`fs::poll`), and
//! a few objects of the layers above keep a static one: signalfd's readers
//! (`signal::SIGNALFD_READERS`), every pidfd's pollers (`wait::EXITED`).
//! The object calls `wake` when it changes; nothing here knows what it is,
//! so the layers above wake their waiters without a call back up.
//!
//! # Invariants
//! A `WaitQueue` holds the ids of threads waiting on it, each once: at most
//! MAX_THREADS entries, so the queue is bounded without a drop policy. A
//! waiter removes itself before it returns. The storage is freed when the
//! last waiter leaves, so a static queue holds no heap at power-off (the
//! leak check) and an idle one costs nothing.

use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

/// The threads waiting on one object.
pub struct WaitQueue {
    waiters: RefCell<Vec<u32>>,
    /// Wake-ups so far: an edge-triggered epoll reports a file again only
    /// after one (`changes`).
    woken: Cell<u32>,
}

impl WaitQueue {
    pub const fn new() -> WaitQueue {
        WaitQueue { waiters: RefCell::new(Vec::new()), woken: Cell::new(0) }
    }

    /// How many times the object has changed (wrapping).
    pub fn changes(&self) -> u32 {
        self.woken.get()
    }

    /// Thread `tid` waits here (once, however often it is added).
    pub fn add(&self, tid: u32) {
        let mut w = self.waiters.borrow_mut();
        if !w.contains(&tid) {
            w.push(tid);
        }
    }

    /// Thread `tid` waits here no more; the last one out frees the storage.
    pub fn remove(&self, tid: u32) {
        let mut w = self.waiters.borrow_mut();
        w.retain(|&p| p != tid);
        if w.is_empty() {
            *w = Vec::new();
        }
    }

    /// Sleeps the current thread until the queue is woken or a signal
    /// interrupts (Err): a blocking read's wait on the object its pollers
    /// watch (Linux `wait_event_interruptible`).
    pub fn sleep(&self) -> Result<(), ()> {
        let tid = super::current().tid;
        self.add(tid);
        let r = super::sleep(chan(tid));
        self.remove(tid);
        r
    }

    /// Is nobody waiting? (A cheap test before `wake` on a hot path.)
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.waiters.borrow().is_empty()
    }

    /// The object changed: every thread waiting on it looks again.
    pub fn wake(&self) {
        self.woken.set(self.woken.get().wrapping_add(1));
        for &tid in self.waiters.borrow().iter() {
            super::wake_sleeper(tid, chan(tid));
        }
    }
}

/// The channel a thread sleeps on while it waits on queues (`sleep`, and
/// `fs::poll::wait` for several at once): its own, so a wake-up reaches
/// exactly the waiters of the object that changed.
pub fn chan(tid: u32) -> usize {
    super::Chan::Queue.of(tid)
}
