//! Threads: static glibc programs using pthreads, C++ threads, posix_spawn,
//! and the thread-group signal rules, each booted on Sigil as PID 1 and,
//! where qemu-ppc can run it faithfully, compared with it.
//!
//! qemu-ppc is not the reference for two of them, and those assert Linux's
//! documented behaviour on Sigil alone:
//! - robust mutexes: qemu-ppc answers set_robust_list with ENOSYS (it cannot
//!   walk guest memory at a thread's death), so a robust mutex whose owner
//!   dies is never released and the program hangs there;
//! - execve: qemu-ppc hands execve to the host kernel, which cannot run a
//!   ppc32 binary (ENOEXEC) without binfmt_misc.
//!
//! And one line of `thr_futex` is qemu-ppc's bug: FUTEX_WAKE_OP is handed to
//! the host kernel, which does the arithmetic on the big-endian guest word in
//! little-endian order (0 + 5 reads back as 0x05000000). That line is
//! replaced by Linux's answer before comparing.
//!
//! qemu-ppc runs vfork and posix_spawn's CLONE_VM | CLONE_VFORK as a
//! fork, and refuses CLONE_VM without the thread flags, so in `vfork_mem`
//! Linux's answers replace its lines: a vfork child's stores are the
//! parent's, posix_spawn returns the child's exec error (glibc's child
//! stores it in the parent's memory) having reaped the child, and
//! clone(CLONE_VM | SIGCHLD) makes a process in the parent's memory.
//!
//! So are two lines of `thr_restart`. qemu-ppc restarts a guest poll from its
//! full timeout when a stopped process is continued (its host SIGCONT
//! handler interrupts the host call, and the guest call is issued afresh),
//! where Linux's `do_restart_poll` waits only for the time left; and it
//! answers restart_syscall with ENOSYS, where Linux's sigreturn has left
//! `do_no_restart_syscall` behind, which is EINTR.

mod common;

use common::{compare, compare_with, has_lines, linux, program, sigil};
use sigil_qemu::initramfs::MODE_EXEC;
use sigil_qemu::ExtraFile;

#[test]
fn sixteen_threads_on_a_mutex_and_a_condvar() {
    let out = compare("thr_mutex", &[]);
    has_lines(
        &out,
        &[
            "threads: 16, counter: 32000 (expected 32000)",
            "return values summed: 360",
            "gettid != getpid in every thread: yes",
        ],
    );
}

/// Process-shared (pshared = 1) semaphores, mutex and condition variable
/// in MAP_SHARED memory across fork: glibc's futexes without
/// FUTEX_PRIVATE_FLAG, keyed by the shared page, so a wait in one process
/// is woken from the other, in anonymous memory and in a file each process
/// maps at its own address.
#[test]
fn pshared_sync_across_fork() {
    let out = compare("futex_pshared", &[]);
    has_lines(
        &out,
        &[
            "semaphore ping-pong: 200 rounds",
            "mutex: count 4000 of 4000",
            "condvar: child exited 0",
            "file semaphore: 200 posts taken, child at another address 1",
        ],
    );
}

/// glibc's absolute CLOCK_REALTIME timeouts (sem_timedwait, the default
/// condvar) time out on time, now that the wall clock starts at the RTC's
/// date rather than at boot.
#[test]
fn realtime_timeouts_of_sem_and_condvar() {
    let out = compare("thr_timedwait", &[]);
    has_lines(
        &out,
        &[
            "sem_timedwait: Connection timed out, waited >= 0.1 s: 1, < 5 s: 1",
            "pthread_cond_timedwait (realtime): Connection timed out",
            "pthread_cond_timedwait (monotonic): Connection timed out",
        ],
    );
}

#[test]
fn thread_group_signals() {
    let out = compare("thr_signals", &[]);
    has_lines(
        &out,
        &[
            "pthread_kill to each of 4 threads: handled by its target: yes",
            "kill() with all threads but one blocking SIGUSR2: taken by that one: yes",
            "raise then kill of a blocked SIGUSR1: 2 deliveries",
            "signal thread: sigwait took 3 SIGUSR1 and then SIGTERM",
        ],
    );
}

#[test]
fn group_stop_continue_and_kill() {
    let out = compare("thr_stop", &[]);
    has_lines(
        &out,
        &[
            "SIGSTOP, waitpid(WUNTRACED): stopped by signal 19",
            "SIGCONT, waitpid(WCONTINUED): continued",
            "SIGKILL of the 4-thread child: killed by signal 9",
            "SIGTERM of the 4-thread child: killed by signal 15",
        ],
    );
}

#[test]
fn timer_sigev_thread_and_thread_id() {
    let out = compare("thr_timer", &[]);
    has_lines(
        &out,
        &[
            "notified: value 77, in another thread: yes",
            "SIGEV_THREAD_ID signal taken by the worker: yes",
        ],
    );
}

/// system() and popen() run /bin/sh: mini_sh on Sigil, the host's sh
/// under qemu-ppc (its execve runs host binaries).
#[test]
fn system_popen_posix_spawn_vfork() {
    let sh = std::fs::read(program("mini_sh")).expect("read mini_sh");
    let files = [ExtraFile::new("bin/sh", sh, MODE_EXEC)];
    let out = compare_with("thr_spawn", &[], &[], &files);
    has_lines(
        &out,
        &[
            "clone3(NULL, 0): -1 (Function not implemented)",
            "hello from system",
            "system(exit 3): exited 3",
            "popen read: one line through popen",
            "posix_spawn: 0, child exited 9",
            "vfork child: exited 4",
        ],
    );
}

/// A child in its parent's memory: vfork, posix_spawn's error path,
/// clone(CLONE_VM | SIGCHLD). qemu-ppc's lines where it forks instead are
/// replaced by Linux's (module comment).
#[test]
fn vfork_and_clone_vm_share_the_memory() {
    let linux_lines = [
        (
            "vfork: the parent sees the child's store: no",
            "vfork: the parent sees the child's store: yes",
        ),
        (
            "vfork child forks: grandchild exited -1 (seen through the vfork child)",
            "vfork child forks: grandchild exited 5 (seen through the vfork child)",
        ),
        (
            "posix_spawn(/nonexistent): Success",
            "posix_spawn(/nonexistent): No such file or directory",
        ),
        (
            "posix_spawnp(no-such-program): Success",
            "posix_spawnp(no-such-program): No such file or directory",
        ),
        (
            "posix_spawn with a failing open action: Success",
            "posix_spawn with a failing open action: No such file or directory",
        ),
        ("failed children already reaped: no", "failed children already reaped: yes"),
        (
            "clone(CLONE_VM | SIGCHLD): Invalid argument",
            "clone(CLONE_VM | SIGCHLD): CHILD_SETTID stored the child's id: yes\n\
             clone(CLONE_VM | SIGCHLD): CHILD_CLEARTID zeroed and woke: yes\n\
             clone(CLONE_VM | SIGCHLD): waitpid: exited 3\n\
             clone(CLONE_VM | SIGCHLD): the child's store 42, its mmap read back 7",
        ),
    ];
    let mut expected = linux("vfork_mem", &[], &[]).console;
    for (qemu, linux) in linux_lines {
        assert!(expected.contains(qemu), "qemu-ppc's known line {qemu:?} missing:\n{expected}");
        expected = expected.replace(qemu, linux);
    }
    let got = sigil("vfork_mem", &[], &[]);
    assert_eq!(got.console, expected, "vfork_mem differs from Linux's behaviour");
    assert_eq!(got.status, Some(0));
    has_lines(
        &got.console,
        &[
            "vfork child faults: the parent runs again, waitpid: killed by signal 11",
            "vfork child raises SIGTERM: the parent runs again, waitpid: killed by signal 15",
            "vfork child forks: the grandchild's store stayed its own: yes",
            "clone(CLONE_SIGHAND without CLONE_VM): Invalid argument",
            "clone(CLONE_THREAD without CLONE_SIGHAND): Invalid argument",
        ],
    );
}

/// Linux's behaviour (see the module comment for why not qemu-ppc's).
#[test]
fn robust_mutex_owner_dies() {
    let r = sigil("thr_robust", &[], &[]);
    assert_eq!(
        r.console,
        "lock after the owner died: EOWNERDEAD\npthread_mutex_consistent: 0\nunlock: 0\n\
         lock again: 0\nwaiter blocked when the owner died: EOWNERDEAD\n"
    );
    assert_eq!(r.status, Some(0));
}

/// Linux's behaviour (see the module comment for why not qemu-ppc's).
#[test]
fn execve_from_a_thread_and_exit_group() {
    let r = sigil("thr_exec", &[], &[]);
    assert_eq!(
        r.console,
        "after exec: same pid: yes\nafter exec: gettid == getpid: yes\n\
         exit(5) from main with a sleeping thread: exited 5\n\
         leader gone, process still there: yes\nthen SIGTERM: killed by signal 15\n"
    );
    assert_eq!(r.status, Some(0));
}

#[test]
fn cxx_cout_thread_call_once() {
    let out = compare("thr_cxx", &[]);
    has_lines(
        &out,
        &[
            "hello from std::cout",
            "8 std::threads joined, sum 28",
            "std::call_once ran 1 time(s)",
            "std::async: 42",
        ],
    );
}

#[test]
fn futex_operations_and_errors() {
    let wrong = "word2 after WAKE_OP: 83886080";
    let expected = linux("thr_futex", &[], &[]).console.replace(wrong, "word2 after WAKE_OP: 5");
    let got = sigil("thr_futex", &[], &[]);
    assert_eq!(got.console, expected, "thr_futex differs from Linux's behaviour");
    assert_eq!(got.status, Some(0));
    has_lines(
        &got.console,
        &[
            "WAIT, word changed: -1 Resource temporarily unavailable",
            "WAIT_BITSET, absolute MONOTONIC deadline: -1 Connection timed out",
            "WAIT, a handler runs: -1 Interrupted system call",
            "CMP_REQUEUE wake 1, move 2: 3",
            "word2 after WAKE_OP: 5",
            "waiters woken in all: 11 of 11",
        ],
    );
}

/// Restart blocks are per thread: waits in several threads interrupted at
/// once each go on from their own block (see the module doc for qemu-ppc's
/// two wrong lines).
#[test]
fn interrupted_waits_restart_per_thread() {
    let poll = "  poll 700 ms: 0 ok, ended at its own deadline (in [700, 800) ms)";
    let restart = "restart_syscall after the handler: -1";
    let expected = linux("thr_restart", &[], &[])
        .console
        .replace(&format!("{poll} no"), &format!("{poll} yes"))
        .replace(
            &format!("{restart} Function not implemented"),
            &format!("{restart} Interrupted system call"),
        );
    let got = sigil("thr_restart", &[], &[]);
    assert_eq!(got.console, expected, "thr_restart differs from Linux's behaviour");
    assert_eq!(got.status, Some(0));
    has_lines(
        &got.console,
        &[
            "futex wait 400 ms, SA_RESTART: -1 Interrupted system call",
            "poll 400 ms, SA_RESTART: -1 Interrupted system call",
            "  nanosleep 400 ms: 0 ok, ended at its own deadline (in [400, 500) ms) yes",
            "  nanosleep 600 ms: 0 ok, ended at its own deadline (in [600, 700) ms) yes",
            "  futex wait 500 ms: -1 Connection timed out, ended at its own deadline (in [500, 600) ms) yes",
            "  poll 700 ms: 0 ok, ended at its own deadline (in [700, 800) ms) yes",
            "restart_syscall after the handler: -1 Interrupted system call, returned at once yes",
        ],
    );
}

/// clone's sharing flags (user/c/clone_share.c): the descriptor table, the
/// working directory and umask, and the handlers are each shared or copied
/// on their own, by threads and processes alike; exec in a sharer takes
/// copies first; unshare(2) as Linux's `ksys_unshare`; a CLONE_VFORK thread
/// holds its caller until it exits. qemu-ppc 7.2 is not the reference here:
/// it refuses (EINVAL) CLONE_VM without every thread flag, and CLONE_FILES
/// or CLONE_FS without CLONE_VM, so these are Linux's documented answers,
/// checked on Sigil alone.
#[test]
fn clone_sharing_flags() {
    let expected = "\
thread without CLONE_FILES: its close and dup2 are its own: yes
thread with CLONE_FILES: its close and dup2 are the parent's: yes
CLONE_FILES process: its close and dup2 are the parent's: yes
fork: its close and dup2 are its own: yes
thread without CLONE_FS: its chdir and umask are its own: yes
thread with CLONE_FS: its chdir and umask are the parent's: yes
CLONE_FS process: its chdir and umask are the parent's: yes
CLONE_VM process: its chdir and umask are its own: yes
CLONE_VM | CLONE_SIGHAND process: the parent sees its handler: yes, it sees the parent's: yes
exec'd sharer: its close-on-exec fd is closed: yes, SIGUSR1 is SIG_DFL: yes
after the sharer's exec: the parent's close-on-exec fd is open: yes, its handler kept: yes
unshare(CLONE_FILES) in a thread: 0, its close is its own: yes
unshare(CLONE_FS) in a CLONE_VM | CLONE_FS child: 0, its chdir is its own: yes
unshare(CLONE_THREAD | CLONE_VM | CLONE_SIGHAND) alone: Success
unshare(CLONE_SETTLS): Invalid argument
unshare(CLONE_SIGHAND) with the handlers shared: Invalid argument
unshare(CLONE_VM) with the memory shared: Invalid argument
unshare(CLONE_FILES) with the memory shared: Success
CLONE_THREAD | CLONE_VFORK: ok, the caller resumed after the thread's exit: yes
";
    let got = sigil("clone_share", &[], &[]);
    assert_eq!(got.console, expected, "clone_share differs from Linux's behaviour");
    assert_eq!(got.status, Some(0));
}
