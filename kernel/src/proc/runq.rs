//! The run queue (`TABLE.runq`): the threads waiting for the CPU, in turn,
//! linked through the threads themselves (`Thread::runq_next`), as Linux
//! links a run queue through each task's own `list_head`. A push or a pop
//! is a few loads and stores: no capacity test, no ring wrap-around, and
//! no allocation, so nothing to reserve when a thread is made.
//!
//! It holds pointers into threads' Boxes; why they stay valid is in
//! `proc`'s module invariants (a queued thread is Runnable, and it leaves
//! the queue before it is marked Dead, so before its Box may be freed). A
//! thread is in the queue at most once, which the links need: it goes in
//! when it becomes Runnable (`wake`, `wakeup`, a new thread) or as the
//! running thread giving the CPU up (`yield_now`), and a running thread is
//! not queued.

use core::ptr::NonNull;

use super::Thread;

pub(super) struct RunQueue {
    head: Option<NonNull<Thread>>,
    /// The last thread while the queue is not empty; stale (or dangling,
    /// before the first push) once it is: `pop_front` leaves it, since
    /// `push_back` tests `head` for an empty queue, so the pop of the last
    /// thread, once per context switch in a ping-pong, stores nothing more.
    tail: NonNull<Thread>,
}

impl RunQueue {
    pub(super) const fn new() -> RunQueue {
        RunQueue { head: None, tail: NonNull::dangling() }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.head.is_none()
    }

    /// Queues `t` last (it is not queued: module comment).
    pub(super) fn push_back(&mut self, t: &mut Thread) {
        t.runq_next = None;
        let t = NonNull::from(t);
        // The link to set: the last thread's, or the head of an empty
        // queue. Chosen as a place, then one store: with a store on each
        // arm, LLVM rebuilt the table's address for the `tail` store after
        // the head's.
        let link = match self.head {
            // SAFETY: the queue is not empty, so `tail` is its last thread,
            // and a queued thread is live (module comment).
            Some(_) => unsafe { &mut self.tail.as_mut().runq_next },
            None => &mut self.head,
        };
        *link = Some(t);
        self.tail = t;
    }

    /// Takes the first thread out.
    pub(super) fn pop_front(&mut self) -> Option<NonNull<Thread>> {
        let first = self.head?;
        // SAFETY: a queued thread is live (module comment).
        self.head = unsafe { first.as_ref() }.runq_next;
        Some(first)
    }

    /// Takes `t` out if it is queued: an exiting thread, once, so a walk.
    pub(super) fn remove(&mut self, t: &Thread) {
        let me = NonNull::from(t);
        let mut prev: Option<NonNull<Thread>> = None;
        let mut cur = self.head;
        while let Some(c) = cur {
            // SAFETY: a queued thread is live (module comment).
            let next = unsafe { c.as_ref() }.runq_next;
            if c == me {
                match prev {
                    // SAFETY: as above.
                    Some(mut p) => unsafe { p.as_mut() }.runq_next = next,
                    None => self.head = next,
                }
                // The last one out: its predecessor is last now, if any
                // (an empty queue's `tail` is not read).
                if let (None, Some(p)) = (next, prev) {
                    self.tail = p;
                }
                return;
            }
            prev = cur;
            cur = next;
        }
    }
}
