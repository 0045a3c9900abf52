//! Resource limits (getrlimit, setrlimit, prlimit64): the table each process
//! carries, the rules a change must pass, and the one limit exec derives
//! from another (how many bytes of arguments the stack limit allows).
//!
//! The rules are Linux 6.1's `do_prlimit`: an unknown resource or a soft
//! limit above the hard one is EINVAL; raising a hard limit needs privilege
//! (CAP_SYS_RESOURCE; root here), and RLIMIT_NOFILE's hard limit can never
//! pass the kernel's descriptor table (`nr_open`), root or not: EPERM.
//! Which limits the kernel then enforces is the kernel's business; this
//! table only holds them, inherited by fork and kept by exec.

use crate::abi::Errno;
use crate::cred::Cred;

pub const RLIMIT_CPU: u32 = 0;
pub const RLIMIT_FSIZE: u32 = 1;
pub const RLIMIT_DATA: u32 = 2;
pub const RLIMIT_STACK: u32 = 3;
pub const RLIMIT_CORE: u32 = 4;
pub const RLIMIT_NPROC: u32 = 6;
pub const RLIMIT_NOFILE: u32 = 7;
pub const RLIMIT_MEMLOCK: u32 = 8;
pub const RLIMIT_SIGPENDING: u32 = 11;
pub const RLIMIT_MSGQUEUE: u32 = 12;
pub const RLIMIT_NICE: u32 = 13;
pub const RLIMIT_RTPRIO: u32 = 14;
/// How many resources there are (RLIM_NLIMITS).
pub const RLIM_NLIMITS: u32 = 16;
/// No limit, in the 64-bit form prlimit64 uses.
pub const RLIM_INFINITY: u64 = u64::MAX;

/// One resource's (soft, hard) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub cur: u64,
    pub max: u64,
}

/// Descriptors per process: the size of the kernel's descriptor table, the
/// most RLIMIT_NOFILE can be (Linux's `nr_open`).
pub const NR_OPEN: usize = 256;

/// A process's limits, indexed by resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits([Limit; RLIM_NLIMITS as usize]);

impl Limits {
    /// The limits PID 1 starts with: Linux's `INIT_RLIMITS`, with the
    /// kernel's own sizes where Linux derives a value from the machine
    /// (`procs`, the process table's size, for RLIMIT_NPROC).
    pub fn boot(procs: u64) -> Limits {
        let inf = Limit { cur: RLIM_INFINITY, max: RLIM_INFINITY };
        let mut l = [inf; RLIM_NLIMITS as usize];
        let set =
            |l: &mut [Limit; 16], r: u32, cur: u64, max: u64| l[r as usize] = Limit { cur, max };
        set(&mut l, RLIMIT_STACK, 8 << 20, RLIM_INFINITY);
        set(&mut l, RLIMIT_CORE, 0, RLIM_INFINITY);
        set(&mut l, RLIMIT_NPROC, procs, procs);
        let files = NR_OPEN as u64;
        set(&mut l, RLIMIT_NOFILE, files.min(1024), files);
        set(&mut l, RLIMIT_MEMLOCK, 8 << 20, 8 << 20);
        let queued = crate::signal::queue::SIGQUEUE_MAX as u64;
        set(&mut l, RLIMIT_SIGPENDING, queued, queued);
        set(&mut l, RLIMIT_MSGQUEUE, 819_200, 819_200);
        set(&mut l, RLIMIT_NICE, 0, 0);
        set(&mut l, RLIMIT_RTPRIO, 0, 0);
        Limits(l)
    }

    pub fn get(&self, resource: u32) -> Result<Limit, Errno> {
        self.0.get(resource as usize).copied().ok_or(Errno::EINVAL)
    }

    /// The soft limit of a resource the kernel knows.
    pub fn cur(&self, resource: u32) -> u64 {
        self.0[resource as usize].cur
    }

    /// How many descriptors the process may have: RLIMIT_NOFILE's soft
    /// limit (`set` keeps it at most NR_OPEN).
    pub fn nofile(&self) -> usize {
        self.cur(RLIMIT_NOFILE) as usize
    }

    /// setrlimit: `privileged` may raise a hard limit; nobody may raise
    /// RLIMIT_NOFILE's past NR_OPEN.
    pub fn set(&mut self, resource: u32, new: Limit, privileged: bool) -> Result<(), Errno> {
        let old = self.get(resource)?;
        if new.cur > new.max {
            return Err(Errno::EINVAL);
        }
        if resource == RLIMIT_NOFILE && new.max > NR_OPEN as u64 {
            return Err(Errno::EPERM);
        }
        if new.max > old.max && !privileged {
            return Err(Errno::EPERM);
        }
        self.0[resource as usize] = new;
        Ok(())
    }
}

/// prlimit64 of another process: allowed when the caller's real ids are
/// all of the target's ids (real, effective, saved), user and group, or the
/// caller is privileged (Linux's `check_prlimit_permission`).
pub fn may_access(caller: &Cred, target: &Cred) -> bool {
    let same = |c: u32, t: &crate::cred::Ids| c == t.real && c == t.effective && c == t.saved;
    caller.privileged()
        || (same(caller.uid.real, &target.uid) && same(caller.gid.real, &target.gid))
}

/// Linux's ARG_MAX: 32 pages of arguments are allowed whatever the stack limit.
const ARG_MAX: u64 = 32 * 4096;

/// Sigil's cap on execve's argument bytes: Linux's value at the default
/// stack limit. An exec holds its arguments twice for a moment (copied in,
/// then laid out), and the kernel heap's budget (docs/threat-model.md)
/// allows that for 2 MiB; Linux would allow up to 6 MiB with a larger stack
/// limit.
const ARG_CAP: u64 = 2 << 20;

/// How many bytes execve's argument and environment strings, with their
/// pointers, may take: a quarter of the soft stack limit, but no less than
/// ARG_MAX (Linux 6.1's `prepare_arg_pages`), and no more than ARG_CAP
/// (where Linux stops at three quarters of _STK_LIM). 2 MiB at the
/// default 8 MiB.
pub fn arg_limit(stack_cur: u64) -> usize {
    (stack_cur / 4).clamp(ARG_MAX, ARG_CAP) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROCS: u64 = 64;

    #[test]
    fn boot_limits_are_linuxs_within_the_kernels_sizes() {
        let l = Limits::boot(PROCS);
        assert_eq!(l.get(RLIMIT_STACK), Ok(Limit { cur: 8 << 20, max: RLIM_INFINITY }));
        assert_eq!(l.get(RLIMIT_CORE), Ok(Limit { cur: 0, max: RLIM_INFINITY }));
        assert_eq!(l.get(RLIMIT_NOFILE), Ok(Limit { cur: 256, max: 256 }));
        assert_eq!(l.get(RLIMIT_CPU), Ok(Limit { cur: RLIM_INFINITY, max: RLIM_INFINITY }));
        assert_eq!(l.get(RLIM_NLIMITS), Err(Errno::EINVAL));
    }

    #[test]
    fn lowering_is_free_raising_the_hard_limit_is_privileged() {
        let mut l = Limits::boot(PROCS);
        let low = Limit { cur: 16, max: 32 };
        assert_eq!(l.set(RLIMIT_NOFILE, low, false), Ok(()));
        assert_eq!((l.cur(RLIMIT_NOFILE), l.nofile()), (16, 16));
        // The soft limit may move up to the hard one, by anyone.
        assert_eq!(l.set(RLIMIT_NOFILE, Limit { cur: 32, max: 32 }, false), Ok(()));
        let up = Limit { cur: 32, max: 64 };
        assert_eq!(l.set(RLIMIT_NOFILE, up, false), Err(Errno::EPERM));
        assert_eq!(l.set(RLIMIT_NOFILE, up, true), Ok(()));
    }

    #[test]
    fn bad_requests() {
        let mut l = Limits::boot(PROCS);
        let inverted = Limit { cur: 10, max: 5 };
        assert_eq!(l.set(RLIMIT_CORE, inverted, true), Err(Errno::EINVAL));
        assert_eq!(l.set(RLIM_NLIMITS, Limit { cur: 0, max: 0 }, true), Err(Errno::EINVAL));
        // Past the descriptor table: EPERM even for root (nr_open).
        let huge = Limit { cur: 512, max: 512 };
        assert_eq!(l.set(RLIMIT_NOFILE, huge, true), Err(Errno::EPERM));
        assert_eq!(l, Limits::boot(PROCS));
    }

    #[test]
    fn another_process_needs_the_same_ids_or_privilege() {
        let user = Cred::new(1000, 1000);
        assert!(may_access(&user, &Cred::new(1000, 1000)));
        assert!(!may_access(&user, &Cred::new(1001, 1000)));
        assert!(!may_access(&user, &Cred::ROOT));
        // A target that changed only its saved uid is out of reach too.
        let mut setuid = Cred::new(1000, 1000);
        setuid.uid.saved = 0;
        assert!(!may_access(&user, &setuid));
        assert!(may_access(&Cred::ROOT, &user));
    }

    #[test]
    fn argument_bytes_follow_the_stack_limit() {
        assert_eq!(arg_limit(8 << 20), 2 << 20);
        // Sigil's cap, where Linux allows 6 MiB.
        assert_eq!(arg_limit(RLIM_INFINITY), 2 << 20);
        assert_eq!(arg_limit(1 << 20), 256 << 10);
        // Never below the historical 32 pages.
        assert_eq!(arg_limit(64 << 10), 128 << 10);
    }
}
