//! Time, the layer under the scheduler: the kernel clock and the one queue
//! of deadlines (`timer`), the wall clock (`clock`), the wall-clock process
//! timers (`timers`: ITIMER_REAL, POSIX timers), CPU time with the two
//! timers that count it (`cputime`) and the load average (`loadavg`). The values and rules user space sees
//! are `sigil_core::time`'s; this folder mirrors it.

pub mod clock;
pub mod cputime;
pub mod loadavg;
pub mod timer;
pub mod timers;
