//! clone's flags: which combinations Linux refuses (`copy_process`'s EINVAL
//! rules) and what Sigil makes of the rest.
//!
//! Sigil creates two kinds of task: a thread in the caller's thread group
//! (the `pthread_create` set: CLONE_VM | CLONE_FS | CLONE_FILES |
//! CLONE_SIGHAND | CLONE_THREAD, with or without CLONE_SYSVSEM), and a new
//! process with copies of the files, handlers and working directory, which
//! either copies the address space (fork) or shares it (CLONE_VM: vfork,
//! posix_spawn's CLONE_VM | CLONE_VFORK, and CLONE_VM | SIGCHLD, a process
//! running in its parent's memory). The address space is the one thing two
//! processes can share, because it is a separately counted object of its
//! own (Linux's `mm_struct`); the file table, `fs_struct` and handlers are
//! the thread group's, so a new process that would share one of them
//! (CLONE_FILES alone...), a thread that would not share them (CLONE_THREAD
//! without CLONE_FS or CLONE_FILES), and the namespaces are not supported:
//! EINVAL, with the flag named by the caller.

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
/// What a thread shares with its group; Sigil wants all of it or none.
const SHARED: u32 = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND;
/// Flags with no effect in Sigil (no System V semaphores, no ptrace, no
/// I/O contexts); accepted as Linux accepts them.
const IGNORED: u32 = CLONE_SYSVSEM | CLONE_PTRACE | CLONE_UNTRACED | CLONE_DETACHED | CLONE_IO;

/// What the checked flags ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloneKind {
    /// A thread of the caller's group.
    Thread,
    /// A new process. `share_vm`: it runs in the caller's address space
    /// (CLONE_VM) instead of a copy; `vfork`: the caller sleeps until it
    /// execs or exits.
    Process { share_vm: bool, vfork: bool, exit_signal: u32 },
}

/// Checks `flags` as Linux's `copy_process` does (the first failing rule
/// wins, in Linux's order), then against what Sigil supports. `is_init`: the
/// caller is PID 1, which may not make a sibling (CLONE_PARENT).
pub fn check(flags: u32, is_init: bool) -> Result<CloneKind, Errno> {
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
    let rest = flags
        & !(CSIGNAL
            | IGNORED
            | CLONE_SETTLS
            | CLONE_PARENT_SETTID
            | CLONE_CHILD_SETTID
            | CLONE_CHILD_CLEARTID);
    if has(CLONE_THREAD) {
        // A thread's exit signal is ignored by Linux; the group must be whole.
        return if rest & !CLONE_THREAD == SHARED {
            Ok(CloneKind::Thread)
        } else {
            Err(Errno::EINVAL)
        };
    }
    // A new process may share the caller's memory (CLONE_VM, with or
    // without CLONE_VFORK), and nothing else.
    if rest & !(CLONE_VM | CLONE_VFORK) != 0 {
        return Err(Errno::EINVAL);
    }
    Ok(CloneKind::Process {
        share_vm: has(CLONE_VM),
        vfork: has(CLONE_VFORK),
        exit_signal: flags & CSIGNAL,
    })
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

    fn process(share_vm: bool, vfork: bool) -> Result<CloneKind, Errno> {
        Ok(CloneKind::Process { share_vm, vfork, exit_signal: 17 })
    }

    #[test]
    fn glibc_forms() {
        assert_eq!(check(PTHREAD, false), Ok(CloneKind::Thread));
        assert_eq!(check(PTHREAD, true), Ok(CloneKind::Thread));
        // fork(): SIGCHLD | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID.
        let fork = 17 | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID;
        assert_eq!(check(fork, true), process(false, false));
        // posix_spawn and vfork(): CLONE_VM | CLONE_VFORK | SIGCHLD, the
        // child in the caller's memory while the caller sleeps.
        assert_eq!(check(CLONE_VM | CLONE_VFORK | 17, true), process(true, true));
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

    /// A process sharing only the memory: Linux allows it, and so does
    /// Sigil (the address space is counted apart from the group).
    #[test]
    fn a_process_may_share_the_memory_only() {
        assert_eq!(check(CLONE_VM | 17, false), process(true, false));
        let settid = CLONE_VM | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | 17;
        assert_eq!(check(settid, false), process(true, false));
        assert_eq!(check(CLONE_VFORK | 17, false), process(false, true));
        assert_eq!(
            check(CLONE_VM, false),
            Ok(CloneKind::Process { share_vm: true, vfork: false, exit_signal: 0 })
        );
    }

    /// Linux accepts these, Sigil does not: the files, the working
    /// directory and the handlers belong to the thread group, so they are
    /// shared by exactly its threads.
    #[test]
    fn other_partial_sharing_is_refused() {
        assert_eq!(check(CLONE_FILES | 17, false), Err(Errno::EINVAL));
        assert_eq!(check(CLONE_FS | 17, false), Err(Errno::EINVAL));
        assert_eq!(check(CLONE_VM | CLONE_FILES | 17, false), Err(Errno::EINVAL));
        assert_eq!(check(CLONE_VM | CLONE_SIGHAND | 17, false), Err(Errno::EINVAL));
        assert_eq!(check(CLONE_VM | CLONE_VFORK | CLONE_FS | 17, false), Err(Errno::EINVAL));
        // A thread with its own file table or working directory.
        let thread = CLONE_VM | CLONE_SIGHAND | CLONE_THREAD;
        assert_eq!(check(thread, false), Err(Errno::EINVAL));
        assert_eq!(check(thread | CLONE_FS, false), Err(Errno::EINVAL));
        assert_eq!(check(thread | CLONE_FILES, false), Err(Errno::EINVAL));
    }
}
