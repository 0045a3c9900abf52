//! Readiness: how a file tells its pollers of a change, and the wait at
//! the heart of poll, ppoll, select and pselect6 (syscall/poll.rs reads and
//! writes their user arguments) and of epoll_wait (`wait_for`, with
//! epoll's own scan: `event::epoll`).
//!
//! A poll scans its descriptors (`FileOps::poll_ready`); if none is ready
//! it sleeps on its own channel until a file it watches changes or its
//! deadline passes. Each file says how it will tell (`FileOps::poll_wait`):
//! - `PollWait::Queue(q)`: the file owns a `WaitQueue` and calls `q.wake()`
//!   when its state changes (a pipe on every transfer and close). The
//!   console tty's receive path does the same for its input: it keeps a
//!   `WaitQueue`, returns it from `poll_wait`, and wakes it when a byte
//!   arrives.
//! - `PollWait::At(t)`: readiness follows the clock (the PCM device's
//!   pseudo DAC): look again at time t.
//! - `PollWait::Never`: readiness never changes (always-ready files).
//!
//! An epoll's readiness is its set's: a waiter on an epoll (epoll_wait, or
//! poll/select on its descriptor) also waits on every file in the set,
//! nested epolls' sets included (the walk in `wait_for`, looked at again
//! after each wake-up, so files epoll_ctl adds meanwhile count too). That
//! is what Linux's `ep_poll_callback` achieves by waking the epoll's own
//! waiters from the files' queues.
//!
//! No busy polling: between changes the poller sleeps. The kernel runs with
//! interrupts off, so nothing can change between the scan and the sleep.
//!
//! # Invariants
//! `wait` adds the caller to each queue it watches once, and removes it
//! from all of them before returning (`proc::waitq`'s invariants).

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::{File, POLLERR, POLLHUP, POLLNVAL};
use crate::proc;
use crate::proc::waitq::chan;

/// The queue a `PollWait::Queue` names: proc's, since waking is the
/// scheduler's; named here beside `PollWait` for the files that return one.
pub use crate::proc::waitq::WaitQueue;
use crate::time::timer;

/// How a poller learns that a file's readiness may have changed.
pub enum PollWait<'a> {
    Never,
    Queue(&'a WaitQueue),
    At(u64),
}

/// One descriptor being watched: its file (None: a negative fd, or one that
/// is not open: POLLNVAL), the events asked for, and those found.
pub struct Watch {
    pub file: Option<Arc<File>>,
    pub events: u16,
    pub revents: u16,
}

/// How `wait` ended without an error: the number of ready descriptors
/// (0 if the deadline passed), or interrupted by a signal.
pub enum Waited {
    Ready(u32),
    Interrupted,
}

/// Scans `watch` until a descriptor is ready, `deadline` (ns since boot;
/// None = no limit) passes, or a signal is pending. A deadline of 0 or in
/// the past scans once.
pub fn wait(watch: &mut [Watch], deadline: Option<u64>) -> Waited {
    let files: Vec<Arc<File>> = watch.iter().filter_map(|w| w.file.clone()).collect();
    let scan = || {
        let mut ready = 0;
        for w in watch.iter_mut() {
            w.revents = match &w.file {
                None => POLLNVAL,
                Some(f) => f.poll_ready() & (w.events | POLLERR | POLLHUP),
            };
            ready += (w.revents != 0) as u32;
        }
        (ready > 0).then_some(ready)
    };
    match wait_for(&files, deadline, scan) {
        Ok(found) => Waited::Ready(found.unwrap_or(0)),
        Err(()) => Waited::Interrupted,
    }
}

/// The wait itself, for poll and epoll: calls `scan` until it finds
/// something (`Ok(Some)`), `deadline` passes (`Ok(None)`, after a last
/// scan) or a signal interrupts (`Err`). Between scans the thread sleeps
/// until one of `files` (or of the files in an epoll among them) wakes
/// its queue or asks to be looked at again. The files whose queues it
/// joined are held until it leaves them, so each is left exactly once.
pub fn wait_for<T>(
    files: &[Arc<File>],
    deadline: Option<u64>,
    mut scan: impl FnMut() -> Option<T>,
) -> Result<Option<T>, ()> {
    let tid = proc::current().tid;
    let mut queues: Vec<Arc<File>> = Vec::new();
    let mut alarm = None;
    let result = loop {
        let found = scan();
        let now = timer::now_ns();
        if found.is_some() || deadline.is_some_and(|d| now >= d) {
            break Ok(found);
        }
        let mut next = deadline;
        // epoll_ctl's ELOOP check keeps the epolls a tree of bounded depth,
        // so the walk ends.
        let mut todo = files.to_vec();
        while let Some(f) = todo.pop() {
            if let Some(set) = f.epoll() {
                todo.extend(set.files());
            }
            match f.poll_wait() {
                PollWait::Never => {}
                PollWait::Queue(q) => {
                    if !queues.iter().any(|g| Arc::ptr_eq(g, &f)) {
                        q.add(tid);
                        queues.push(f);
                    }
                }
                PollWait::At(t) => next = Some(next.map_or(t, |n| n.min(t))),
            }
        }
        if let Some(k) = alarm.take() {
            timer::cancel(k);
        }
        alarm = next.map(|t| timer::arm(t, timer::Event::Wake(tid)));
        if proc::sleep(chan(tid)).is_err() {
            break Err(());
        }
    };
    if let Some(k) = alarm {
        timer::cancel(k);
    }
    for f in queues {
        if let PollWait::Queue(q) = f.poll_wait() {
            q.remove(tid);
        }
    }
    result
}
