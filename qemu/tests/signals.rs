//! Signals: each sig_* program runs as PID 1 on Sigil and under
//! qemu-ppc; output and exit status must be identical. The extra line checks
//! pin the behaviour each program is about, so a test also says what broke.

mod common;

use common::{compare, has_lines};

#[test]
fn sig_basic() {
    let out = compare("sig_basic", &[]);
    has_lines(
        &out,
        &[
            "after 5 raises: count 5",
            "SIGUSR1 blocked inside its handler: 5 of 5",
            "nested order: <2>",
        ],
    );
}

#[test]
fn sig_siginfo() {
    let out = compare("sig_siginfo", &[]);
    has_lines(
        &out,
        &[
            "raise: signo 10, code -6, pid ok, uid ok",
            "kill: signo 10, code 0, pid ok, uid ok",
            "sigqueue: signo 10, code -1, pid ok, uid ok",
            "sigqueue value: 1234",
            "kill from child: signo 12, code 0, pid ok, uid ok",
        ],
    );
}

/// signalfd: blocked signals read as signalfd_siginfo records, each
/// layout's fields, poll/select, a blocking read woken from another
/// process, SIGCHLD and a timer's signal, a new mask in place, the errors.
#[test]
fn sig_signalfd() {
    // qemu-ppc 7.2 drops signalfd4's sizemask argument, so a sizemask of 4
    // makes a descriptor there; Linux's signalfd4 checks it first: EINVAL.
    let size = "signalfd4 sizemask 4:";
    let expected: String = common::linux("sig_signalfd", &[], &[])
        .console
        .lines()
        .map(|l| {
            if l.starts_with(size) {
                format!("{size} -1, Invalid argument\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let got = common::sigil("sig_signalfd", &[], &[]);
    assert_eq!(got.console, expected, "sig_signalfd differs from Linux's behaviour");
    assert_eq!(got.status, Some(0));
    has_lines(
        &got.console,
        &[
            "read, nothing pending: -1, Resource temporarily unavailable",
            "read of three: 384",
            "  signo 34 code -1 pid self uid is getuid 1 int 43 ptr 43 status 0",
            "child read: 128, signo 10 from parent 1",
            "  signo 17 code 1 pid is child 1 status 7",
            "  signo is SIGRTMIN+1 1 code -2 overrun 0 int 99",
            "SIGUSR1 still pending: 1",
            "fd link: anon_inode:[signalfd]",
            "signalfd4 sizemask 4: -1, Invalid argument",
        ],
    );
}

#[test]
fn sig_mask() {
    let out = compare("sig_mask", &[]);
    has_lines(
        &out,
        &[
            "after 3 raises while blocked: count 0, pending yes",
            "after unblock: count 1, pending no",
        ],
    );
}

#[test]
fn sig_rt() {
    let out = compare("sig_rt", &[]);
    has_lines(&out, &["two RT signals: 4 deliveries: RTMIN+1=10 RTMIN+1=11 RTMIN+3=30 RTMIN+3=31"]);
    assert!(out.contains("unblocked: 10 deliveries: RTMIN+2=100 "), "{out}");
}

#[test]
fn sig_default() {
    let out = compare("sig_default", &[]);
    has_lines(
        &out,
        &[
            "NULL write (SIGSEGV): killed by 11 (Segmentation fault), core 0",
            "after SIGCONT: continued",
        ],
    );
}

#[test]
fn sig_kill_rules() {
    let out = compare("sig_kill_rules", &[]);
    has_lines(
        &out,
        &[
            "sigaction(SIGKILL, handler): -1, errno Invalid argument",
            "stubborn child after SIGTERM and SIGKILL: killed by 9",
        ],
    );
}

#[test]
fn sig_flags() {
    let out = compare("sig_flags", &[]);
    has_lines(
        &out,
        &[
            "SA_NODEFER: handler ran 3, max nesting 3",
            "read on a pipe, SA_RESTART: returned 1, errno -, data z, handler ran 1",
            "read on a pipe, no SA_RESTART: returned -1, errno Interrupted system call, data -, handler ran 1",
        ],
    );
}

#[test]
fn sig_altstack() {
    let out = compare("sig_altstack", &[]);
    assert!(out.contains("local on alt stack yes, ss_flags inside 1"), "{out}");
}

#[test]
fn sig_fault() {
    let out = compare("sig_fault", &[]);
    has_lines(&out, &["NULL write: signal 11 (Segmentation fault), code 1, si_addr as expected"]);
    assert!(out.contains("returned 142"), "{out}");
}

/// Open POSIX sigaction/17-*: every catchable signal the suite lists, caught
/// without SA_RESTART, interrupts select with EINTR; with SA_RESTART too
/// (Linux never restarts select after a handler); an ignored or stop/continue
/// signal does not interrupt it.
#[test]
fn sig_select_eintr() {
    let out = compare("sig_select_eintr", &[]);
    has_lines(
        &out,
        &[
            "SIGTTOU, no SA_RESTART: EINTR, handler ran",
            "SIGCONT, no SA_RESTART: EINTR, handler ran",
            "SIGUSR1, SA_RESTART: EINTR, handler ran",
            "SIGCHLD, SIG_DFL: timed out",
            "SIGSTOP, SIGCONT, no handler: timed out",
        ],
    );
    assert_eq!(out.matches("no SA_RESTART: EINTR, handler ran").count(), 26, "{out}");
}

#[test]
fn sig_suspend() {
    let out = compare("sig_suspend", &[]);
    has_lines(&out, &["sigsuspend: -1, errno Interrupted system call, handler ran 1"]);
}

/// Lazy FP: frames of a process that has not used FP carry no FP registers,
/// and sigreturn of such a frame puts the initial FP state back.
#[test]
fn sig_lazyfp() {
    let out = compare("sig_lazyfp", &[]);
    has_lines(
        &out,
        &[
            "plain: f14 0, rounding nearest 1, handler saw nearest 1",
            "nested: f14 0 in the outer handler, rounding nearest 1; main: f14 0, nearest 1",
        ],
    );
}

#[test]
fn sig_forged() {
    let out = compare("sig_forged", &[]);
    has_lines(
        &out,
        &[
            "rt frame, MSR[PR] cleared, then mfmsr: killed by 4 (Illegal instruction)",
            "rt frame, NIP = 0xc0000000: killed by 11 (Segmentation fault)",
            "parent still fine",
        ],
    );
}

#[test]
fn sig_badstack() {
    let out = compare("sig_badstack", &[]);
    assert_eq!(out.lines().count(), 8, "{out}");
    assert!(out.lines().all(|l| l.ends_with("killed by 11 (Segmentation fault)")), "{out}");
}

/// A handler returns through a trampoline outside its frame (Sigil's
/// signal page, qemu-ppc's own page, Linux's vDSO), one per frame kind,
/// read-only; unmapped, the return has nowhere to go.
#[test]
fn sig_trampoline() {
    let out = compare("sig_trampoline", &[]);
    has_lines(
        &out,
        &[
            "classic handler's LR makes sigreturn (li r0,119; sc): yes",
            "SA_SIGINFO handler's LR makes rt_sigreturn (li r0,172; sc): yes",
            "LR on the stack (within 1 MiB of main's frame): no",
            "both in one page: yes",
            "a store to the trampoline: killed by 11 (Segmentation fault)",
            "a handler's return with the page unmapped: killed by 11 (Segmentation fault)",
            "after fork, the child's handlers return too: child: exit 7",
        ],
    );
}

/// The 32-GPR copy (lmw/stmw) faulting in the middle of one multiple-word
/// access, both ways: EFAULT for swapcontext's save, SIGSEGV for sigreturn.
#[test]
fn sig_midcopy() {
    let out = compare("sig_midcopy", &[]);
    has_lines(
        &out,
        &[
            "swapcontext into a straddling ucontext: -1 (Bad address)",
            "sigreturn, mcontext 40 bytes before the boundary: killed by 11 (Segmentation fault)",
            "sigreturn, mcontext 42 bytes before the boundary: killed by 11 (Segmentation fault)",
        ],
    );
}

/// WCOREDUMP follows RLIMIT_CORE. Sigil only: under qemu-ppc a raised limit
/// would write real core files, so the expected output is spelled out here.
#[test]
fn sig_core() {
    let r = common::sigil("sig_core", &[], &[]);
    assert_eq!(
        r.console,
        "initial RLIMIT_CORE: soft 0, hard unlimited\n\
         Aborted with RLIMIT_CORE 0: killed by 6, core 0\n\
         raise to unlimited: 0\n\
         Aborted with RLIMIT_CORE unlimited: killed by 6, core 1\n\
         Segmentation fault with RLIMIT_CORE unlimited: killed by 11, core 1\n\
         Terminated with RLIMIT_CORE unlimited: killed by 15, core 0\n\
         soft above hard: -1, Invalid argument\n\
         unknown resource: -1, Invalid argument\n\
         lower RLIMIT_CORE to 0/0: 0, Success\n\
         Aborted with RLIMIT_CORE 0/0: killed by 6, core 0\n"
    );
    assert_eq!(r.status, Some(0));
}

/// Signals from Rust through ulib, no libc in between.
#[test]
fn rs_signals() {
    let out = compare("rs_signals", &[]);
    has_lines(
        &out,
        &[
            "siginfo handler: code -1 (SI_QUEUE is -1), value 0xfeed",
            "child: Signaled { signo: 15, core: false }",
        ],
    );
}

/// glibc's getcontext, setcontext, swapcontext and makecontext coroutines:
/// the swapcontext system call. Two lines are qemu-ppc's bugs and replaced
/// by Linux's answers before comparing: qemu-ppc does not check that the
/// context's window fits in user space (Linux compares the size unsigned,
/// so -1 passes the size check and fails access_ok: EFAULT), and a uc_regs
/// that leads nowhere gets a SIGSEGV the program's handler catches, where
/// Linux's `force_exit_sig` kills it.
#[test]
fn ctx_coro() {
    let size = "size -1 (unsigned, a window past user space):";
    let bad = "bad uc_regs:";
    let expected = common::linux("ctx_coro", &[], &[])
        .console
        .replace(&format!("{size} 0"), &format!("{size} Bad address"))
        .replace(
            &format!("child: setcontext with a bad uc_regs returned\n{bad} exited 1"),
            &format!("{bad} killed by signal 11"),
        );
    let got = common::sigil("ctx_coro", &[], &[]);
    assert_eq!(got.console, expected, "ctx_coro differs from Linux's behaviour");
    assert_eq!(got.status, Some(0));
    has_lines(
        &got.console,
        &[
            "getcontext: 0, resumed by setcontext 3 times",
            "coroutines took turns: 0 100 1 110 2 120 3 130",
            "fp in the coroutine: 44286.2, main's 1/3 kept: yes",
            "SIGUSR2 blocked again by setcontext: yes",
            "handler ran 1 time(s), on the coroutine's stack: yes",
            "size 1183: Invalid argument",
            "new unmapped: Bad address",
            "bad uc_regs: killed by signal 11",
        ],
    );
}
