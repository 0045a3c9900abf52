//! clone's and unshare's flags: which combinations Linux refuses
//! (`copy_process`'s and `check_unshare_flags`' EINVAL rules) and what Sigil
//! makes of the rest.
//!
//! A task holds four things another may share, each a separately counted
//! object in the kernel as in Linux: the address space (`mm_struct`,
//! CLONE_VM), the descriptor table (`files_struct`, CLONE_FILES), the working
//! directory and umask (`fs_struct`, CLONE_FS) and the signal handlers
//! (`sighand_struct`, CLONE_SIGHAND). The flags pick, for each, "the same
//! object" or "a copy", independently, within Linux's rules: CLONE_THREAD
//! needs CLONE_SIGHAND, which needs CLONE_VM. So a thread may have its own
//! descriptors or directory (CLONE_THREAD without CLONE_FILES or CLONE_FS),
//! and two processes may share any of the four (a posix_spawn child shares
//! the memory, a CLONE_FILES child the descriptors...). CLONE_THREAD adds
//! the thread group: the PID, the shared pending signals, the parent.
//!
//! CLONE_VFORK is separate from the kind: the caller sleeps until the new
//! task execs or exits, whether it is a process (vfork, posix_spawn) or a
//! thread (Linux allows that too; its exit is what wakes the caller).
//!
//! What Sigil refuses where Linux accepts: namespaces, pidfds and
//! CLONE_PARENT; EINVAL, with the flag named by the caller.

use crate::abi::Errno;

pub const CSIGNAL: u32 = 0x0000_00ff;
pub const CLONE_VM: u32 = 0x0000_0100;
pub const CLONE_FS: u32 = 0x0000_0200;
pub const CLONE_FILES: u32 = 0x0000_0400;
pub const CLONE_SIGHAND: u32 = 0x0000_0800;
pub const CLONE_PIDFD: u32 = 0x0000_1000;
pub const CLONE_PTRACE: u32 = 0x0000_2000;
pub const CLONE_VFORK: u32 = 0x0000_4000;
pub const CLONE_PARENT: u32 = 0x0000_8000;
pub const CLONE_THREAD: u32 = 0x0001_0000;
pub const CLONE_NEWNS: u32 = 0x0002_0000;
pub const CLONE_SYSVSEM: u32 = 0x0004_0000;
pub const CLONE_SETTLS: u32 = 0x0008_0000;
pub const CLONE_PARENT_SETTID: u32 = 0x0010_0000;
pub const CLONE_CHILD_CLEARTID: u32 = 0x0020_0000;
pub const CLONE_DETACHED: u32 = 0x0040_0000;
pub const CLONE_UNTRACED: u32 = 0x0080_0000;
pub const CLONE_CHILD_SETTID: u32 = 0x0100_0000;
pub const CLONE_NEWCGROUP: u32 = 0x0200_0000;
pub const CLONE_NEWUTS: u32 = 0x0400_0000;
pub const CLONE_NEWIPC: u32 = 0x0800_0000;
pub const CLONE_NEWUSER: u32 = 0x1000_0000;
pub const CLONE_NEWPID: u32 = 0x2000_0000;
pub const CLONE_NEWNET: u32 = 0x4000_0000;
pub const CLONE_IO: u32 = 0x8000_0000;

const NAMESPACES: u32 = CLONE_NEWNS
    | CLONE_NEWCGROUP
    | CLONE_NEWUTS
    | CLONE_NEWIPC
    | CLONE_NEWUSER
    | CLONE_NEWPID
    | CLONE_NEWNET;

/// What the checked flags ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloneKind {
    /// A thread of the caller's group (in its memory, with its handlers).
    Thread,
    /// A new process. `share_vm`: it runs in the caller's address space
    /// (CLONE_VM) instead of a copy.
    Process { share_vm: bool, exit_signal: u32 },
}

/// Which of the caller's objects the new task shares rather than copies
/// (for a thread `sighand` is always true: CLONE_THREAD needs it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shares {
    pub files: bool,
    pub fs: bool,
    pub sighand: bool,
}

impl Shares {
    fn of(flags: u32) -> Shares {
        Shares {
            files: flags & CLONE_FILES != 0,
            fs: flags & CLONE_FS != 0,
            sighand: flags & CLONE_SIGHAND != 0,
        }
    }
}

/// A checked clone: the kind of task, what it shares, and whether the
/// caller waits for its exec or exit (CLONE_VFORK).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub kind: CloneKind,
    pub shares: Shares,
    pub vfork: bool,
}

/// Checks `flags` as Linux's `copy_process` does (the first failing rule
/// wins, in Linux's order), then against what Sigil supports. `is_init`: the
/// caller is PID 1, which may not make a sibling (CLONE_PARENT).
pub fn check(flags: u32, is_init: bool) -> Result<Plan, Errno> {
    let has = |f: u32| flags & f != 0;
    if has(CLONE_NEWNS) && has(CLONE_FS) {
        return Err(Errno::EINVAL);
    }
    if has(CLONE_NEWUSER) && has(CLONE_FS) {
        return Err(Errno::EINVAL);
    }
    if has(CLONE_THREAD) && !has(CLONE_SIGHAND) {
        return Err(Errno::EINVAL);
    }
    if has(CLONE_SIGHAND) && !has(CLONE_VM) {
        return Err(Errno::EINVAL);
    }
    if has(CLONE_PARENT) && is_init {
        return Err(Errno::EINVAL);
    }
    if has(CLONE_THREAD) && has(CLONE_NEWUSER | CLONE_NEWPID) {
        return Err(Errno::EINVAL);
    }
    if has(CLONE_PIDFD) && (has(CLONE_DETACHED) || has(CLONE_PARENT_SETTID)) {
        // Legacy clone passes the pidfd through parent_tid: both is EINVAL.
        return Err(Errno::EINVAL);
    }
    // Linux accepts the rest; these Sigil cannot do.
    if has(NAMESPACES) || has(CLONE_PIDFD) || has(CLONE_PARENT) {
        return Err(Errno::EINVAL);
    }
    // CLONE_SYSVSEM, CLONE_PTRACE, CLONE_UNTRACED, CLONE_DETACHED and
    // CLONE_IO have no effect in Sigil (no System V semaphores, ptrace or
    // I/O contexts): accepted, as Linux accepts them.
    let kind = if has(CLONE_THREAD) {
        // A thread's exit signal is ignored by Linux.
        CloneKind::Thread
    } else {
        CloneKind::Process { share_vm: has(CLONE_VM), exit_signal: flags & CSIGNAL }
    };
    Ok(Plan { kind, shares: Shares::of(flags), vfork: has(CLONE_VFORK) })
}

/// CLONE_NEWTIME: a namespace flag unshare takes (clone cannot: it is in
/// the exit-signal byte there).
pub const CLONE_NEWTIME: u32 = 0x0000_0080;

/// What unshare's checks need to know of the caller (Linux's
/// `check_unshare_flags`).
#[derive(Clone, Copy, Debug, Default)]
pub struct UnshareCaller {
    /// Other threads in its group.
    pub threads: bool,
    /// Another process shares its handlers (CLONE_VM | CLONE_SIGHAND).
    pub sighand_shared: bool,
    /// Another task shares its address space.
    pub vm_shared: bool,
}

/// What unshare is to give the caller a copy of (if it shares it now).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unshare {
    pub files: bool,
    pub fs: bool,
}

/// unshare(flags) checked as Linux's `ksys_unshare`: the implied flags
/// first (CLONE_VM brings CLONE_SIGHAND, which brings CLONE_THREAD;
/// CLONE_NEWNS and CLONE_NEWUSER bring CLONE_FS), then the unknown flags
/// and the ones that cannot be undone. The memory, the handlers and the
/// thread group cannot be unshared: Linux "pretends it works if there is
/// nothing to unshare", so those are accepted only when the caller shares
/// none of them, and change nothing. Returns what to copy: the descriptor
/// table, the fs state.
/// Namespaces are Sigil's EINVAL, as for clone.
pub fn check_unshare(flags: u32, caller: UnshareCaller) -> Result<Unshare, Errno> {
    let mut flags = flags;
    if flags & CLONE_NEWUSER != 0 {
        flags |= CLONE_THREAD | CLONE_FS;
    }
    if flags & CLONE_VM != 0 {
        flags |= CLONE_SIGHAND;
    }
    if flags & CLONE_SIGHAND != 0 {
        flags |= CLONE_THREAD;
    }
    if flags & CLONE_NEWNS != 0 {
        flags |= CLONE_FS;
    }
    let known = CLONE_THREAD
        | CLONE_FS
        | CLONE_SIGHAND
        | CLONE_VM
        | CLONE_FILES
        | CLONE_SYSVSEM
        | NAMESPACES
        | CLONE_NEWTIME;
    let has = |f: u32| flags & f != 0;
    if flags & !known != 0 {
        return Err(Errno::EINVAL);
    }
    if has(CLONE_THREAD | CLONE_SIGHAND | CLONE_VM) && caller.threads {
        return Err(Errno::EINVAL);
    }
    if has(CLONE_SIGHAND | CLONE_VM) && caller.sighand_shared {
        return Err(Errno::EINVAL);
    }
    if has(CLONE_VM) && caller.vm_shared {
        return Err(Errno::EINVAL);
    }
    if has(NAMESPACES | CLONE_NEWTIME) {
        return Err(Errno::EINVAL);
    }
    Ok(Unshare { files: has(CLONE_FILES), fs: has(CLONE_FS) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// glibc 2.36's pthread_create (sysdeps/unix/sysv/linux/createthread.c).
    const PTHREAD: u32 = CLONE_VM
        | CLONE_FS
        | CLONE_FILES
        | CLONE_SIGHAND
        | CLONE_THREAD
        | CLONE_SYSVSEM
        | CLONE_SETTLS
        | CLONE_PARENT_SETTID
        | CLONE_CHILD_CLEARTID;

    const NONE: Shares = Shares { files: false, fs: false, sighand: false };
    const ALL: Shares = Shares { files: true, fs: true, sighand: true };

    fn process(share_vm: bool, vfork: bool, shares: Shares) -> Result<Plan, Errno> {
        Ok(Plan { kind: CloneKind::Process { share_vm, exit_signal: 17 }, shares, vfork })
    }

    fn thread(shares: Shares) -> Result<Plan, Errno> {
        Ok(Plan { kind: CloneKind::Thread, shares, vfork: false })
    }

    #[test]
    fn glibc_forms() {
        assert_eq!(check(PTHREAD, false), thread(ALL));
        assert_eq!(check(PTHREAD, true), thread(ALL));
        // fork(): SIGCHLD | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID.
        let fork = 17 | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID;
        assert_eq!(check(fork, true), process(false, false, NONE));
        // posix_spawn and vfork(): CLONE_VM | CLONE_VFORK | SIGCHLD, the
        // child in the caller's memory while the caller sleeps.
        assert_eq!(check(CLONE_VM | CLONE_VFORK | 17, true), process(true, true, NONE));
    }

    #[test]
    fn linux_einval_rules() {
        assert_eq!(check(CLONE_THREAD | CLONE_VM, false), Err(Errno::EINVAL));
        assert_eq!(check(CLONE_SIGHAND, false), Err(Errno::EINVAL));
        assert_eq!(check(CLONE_SIGHAND | CLONE_VFORK | 17, false), Err(Errno::EINVAL));
        assert_eq!(check(CLONE_NEWNS | CLONE_FS, false), Err(Errno::EINVAL));
        assert_eq!(check(CLONE_NEWUSER | CLONE_FS, false), Err(Errno::EINVAL));
        assert_eq!(check(CLONE_PARENT | 17, true), Err(Errno::EINVAL));
        assert_eq!(check(PTHREAD | CLONE_NEWPID, false), Err(Errno::EINVAL));
        assert_eq!(check(CLONE_PIDFD | CLONE_PARENT_SETTID, false), Err(Errno::EINVAL));
    }

    #[test]
    fn a_process_may_share_the_memory_only() {
        assert_eq!(check(CLONE_VM | 17, false), process(true, false, NONE));
        let settid = CLONE_VM | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | 17;
        assert_eq!(check(settid, false), process(true, false, NONE));
        assert_eq!(check(CLONE_VFORK | 17, false), process(false, true, NONE));
        assert_eq!(
            check(CLONE_VM, false),
            Ok(Plan {
                kind: CloneKind::Process { share_vm: true, exit_signal: 0 },
                shares: NONE,
                vfork: false
            })
        );
    }

    /// Linux's other partial sharing: each object is counted apart, so any
    /// of them may be shared by two processes, and a thread may keep its
    /// own descriptors or directory.
    #[test]
    fn partial_sharing() {
        let files = Shares { files: true, ..NONE };
        let fs = Shares { fs: true, ..NONE };
        let sighand = Shares { sighand: true, ..NONE };
        assert_eq!(check(CLONE_FILES | 17, false), process(false, false, files));
        assert_eq!(check(CLONE_FS | 17, false), process(false, false, fs));
        assert_eq!(check(CLONE_VM | CLONE_FILES | 17, false), process(true, false, files));
        assert_eq!(check(CLONE_VM | CLONE_SIGHAND | 17, false), process(true, false, sighand));
        assert_eq!(check(CLONE_VM | CLONE_VFORK | CLONE_FS | 17, false), process(true, true, fs));
        let t = CLONE_VM | CLONE_SIGHAND | CLONE_THREAD;
        assert_eq!(check(t, false), thread(sighand));
        assert_eq!(check(t | CLONE_FS, false), thread(Shares { fs: true, ..sighand }));
        assert_eq!(check(t | CLONE_FILES, false), thread(Shares { files: true, ..sighand }));
    }

    /// A vfork thread, as Linux allows: the caller waits for its exit.
    #[test]
    fn a_vfork_thread() {
        let plan = Plan { kind: CloneKind::Thread, shares: ALL, vfork: true };
        assert_eq!(check(PTHREAD | CLONE_VFORK, false), Ok(plan));
    }

    #[test]
    fn unshare_rules() {
        let alone = UnshareCaller::default();
        let files = Unshare { files: true, fs: false };
        let fs = Unshare { files: false, fs: true };
        assert_eq!(check_unshare(CLONE_FILES, alone), Ok(files));
        assert_eq!(check_unshare(CLONE_FS, alone), Ok(fs));
        assert_eq!(check_unshare(0, alone), Ok(Unshare::default()));
        // Nothing to unshare: accepted, as Linux pretends.
        assert_eq!(
            check_unshare(CLONE_VM | CLONE_SIGHAND | CLONE_THREAD, alone),
            Ok(Unshare::default())
        );
        assert_eq!(check_unshare(CLONE_SYSVSEM, alone), Ok(Unshare::default()));
        // In a threaded process the thread flags cannot be undone, but a
        // thread may take its own descriptors or directory.
        let threaded = UnshareCaller { threads: true, ..alone };
        assert_eq!(
            check_unshare(CLONE_FILES | CLONE_FS, threaded),
            Ok(Unshare { files: true, fs: true })
        );
        assert_eq!(check_unshare(CLONE_THREAD, threaded), Err(Errno::EINVAL));
        assert_eq!(check_unshare(CLONE_SIGHAND, threaded), Err(Errno::EINVAL));
        // CLONE_VM implies CLONE_SIGHAND and so CLONE_THREAD.
        assert_eq!(check_unshare(CLONE_VM, threaded), Err(Errno::EINVAL));
        let sighand = UnshareCaller { sighand_shared: true, ..alone };
        assert_eq!(check_unshare(CLONE_SIGHAND, sighand), Err(Errno::EINVAL));
        assert_eq!(check_unshare(CLONE_FILES, sighand), Ok(files));
        let vm = UnshareCaller { vm_shared: true, ..alone };
        assert_eq!(check_unshare(CLONE_VM, vm), Err(Errno::EINVAL));
        assert_eq!(check_unshare(CLONE_SIGHAND, vm), Ok(Unshare::default()));
        // Unknown flags and (Sigil) namespaces.
        assert_eq!(check_unshare(CLONE_SETTLS, alone), Err(Errno::EINVAL));
        assert_eq!(check_unshare(CLONE_NEWNS, alone), Err(Errno::EINVAL));
        assert_eq!(check_unshare(CLONE_NEWTIME, alone), Err(Errno::EINVAL));
    }
}
