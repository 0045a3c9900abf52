//! The restart block: what an interrupted system call leaves behind so that
//! `restart_syscall` (number 0) can carry it on (Linux's `struct
//! restart_block`, one per thread in `current->restart_block`).
//!
//! A call that returns ERESTART_RESTARTBLOCK stores one of these in its
//! thread first. If a handler runs, the call fails with EINTR and the
//! handler's sigreturn forgets the block; if none runs (a stop and SIGCONT),
//! the thread re-enters the kernel through `restart_syscall`, which takes the
//! block and resumes the call toward the same absolute deadline, so the
//! restarted call waits only for the time that was left. The kernel crate
//! keeps it in `Thread::restart` and dispatches on it in
//! `syscall::time::restart_syscall`.

use crate::time::cputime::{CpuClockId, CpuSleep};
use crate::time::Layout;

/// One interrupted call, with every argument its continuation needs.
/// Deadlines are ns since boot on the monotonic clock (a CPU-clock
/// sleep's target is a reading of its clock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RestartBlock {
    /// A relative nanosleep / clock_nanosleep (Linux
    /// `hrtimer_nanosleep_restart`): the time left goes to `rem` (if not
    /// NULL) in `layout` when it is interrupted again.
    Sleep { deadline: u64, rem: u32, layout: Layout },
    /// A relative clock_nanosleep on a CPU clock (Linux
    /// `posix_cpu_nsleep_restart`): the clock and its target reading, not a
    /// monotonic deadline, since CPU time moves only while `clock`'s owner
    /// runs; the CPU time left goes to `rem` as for `Sleep`.
    CpuSleep { clock: CpuClockId, sleep: CpuSleep, rem: u32, layout: Layout },
    /// A timed FUTEX_WAIT(_BITSET) (Linux `futex_wait_restart`);
    /// `private`: FUTEX_PRIVATE_FLAG was set.
    Futex { addr: u32, val: u32, bitset: u32, deadline: u64, private: bool },
    /// poll(fds, n, timeout) (Linux `do_restart_poll`); `None` waits for ever.
    Poll { fds: u32, n: u32, deadline: Option<u64> },
}
