//! `KCell`: a global the kernel mutates without a lock.
//!
//! Sigil runs on one CPU and the kernel is not preemptible: interrupts are off
//! whenever kernel code runs, except in the idle loop, where no `KCell`
//! reference is held. So at most one kernel thread is ever inside these
//! structures, and it leaves them before it switches away (`proc::schedule`).
//! `get` is the one place that invariant is relied on.

use core::cell::UnsafeCell;

pub struct KCell<T>(UnsafeCell<T>);

// SAFETY: see the module comment: one CPU, no kernel preemption.
unsafe impl<T> Sync for KCell<T> {}

impl<T> KCell<T> {
    pub const fn new(v: T) -> KCell<T> {
        KCell(UnsafeCell::new(v))
    }

    /// The contents. Callers must not keep the reference across a context switch.
    #[allow(clippy::mut_from_ref)]
    pub fn get(&self) -> &mut T {
        // SAFETY: one CPU, interrupts off in the kernel (module comment).
        unsafe { &mut *self.0.get() }
    }
}
