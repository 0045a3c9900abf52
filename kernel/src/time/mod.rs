//! Time, the layer under the scheduler: the kernel clock and the one queue
//! of deadlines (`timer`), the wall clock (`clock`), the wall-clock process
//! timers (`timers`: ITIMER_REAL, POSIX timers) and CPU time with the two
//! timers that count it (`cputime`). The values and rules user space sees
//! are `sigil_core::time`'s; this folder mirrors it.

pub mod clock;
pub mod cputime;
pub mod timer;
pub mod timers;
