//! Event descriptors: files that stand for something other than data -
//! a counter (eventfd), a process (pidfd), the caller's pending signals
//! (signalfd), a timer's expirations (timerfd), a set of other descriptors
//! to wait on (epoll). Each kind is a `FileOps` of its own, in its own file; the
//! system calls that make them are in `syscall/event.rs`.
//!
//! They block and poll as pipes do: a reader sleeps on the object's own
//! channel, every change wakes it and the object's `WaitQueue` of pollers.

pub mod epoll;
pub mod eventfd;
pub mod pidfd;
pub mod signalfd;
pub mod timerfd;
