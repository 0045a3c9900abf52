//! Job control, the portable half: process groups and sessions (setpgid,
//! setsid), whom a kill() reaches, which groups an exit orphans, and what a
//! wait reports.
//!
//! Linux's model (`kernel/sys.c`, `kernel/signal.c`, `kernel/exit.c`): every
//! process is in one process group, every group in one session. A session
//! leader's pid is its session id, a group leader's pid its group id; a group
//! lives while it has a member, whether or not its leader is alive. The kernel
//! crate owns the process table and asks these functions what to do; each
//! takes plain ids, so the rules are tested here on the host.
//!
//! - [`group`]: setpgid's and setsid's permission rules.
//! - [`kill`]: the targets of kill(pid) and how their errors combine.
//! - [`orphan`]: the groups an exit leaves orphaned with a stopped member
//!   (they get SIGHUP then SIGCONT).
//! - [`wait`]: which children a wait4/waitid selects and what it reports.

pub mod group;
pub mod kill;
pub mod orphan;
pub mod wait;

#[cfg(test)]
mod tests;

/// A process as job control sees it: a snapshot the kernel takes from its
/// table for the decisions below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    pub pid: u32,
    pub ppid: u32,
    pub pgid: u32,
    pub sid: u32,
    /// Stopped by SIGSTOP & co (Linux `SIGNAL_STOP_STOPPED`).
    pub stopped: bool,
    /// Exited (a zombie): no longer links its group to anything.
    pub zombie: bool,
}
