//! Users, permissions, the wall clock, event descriptors (eventfd, pidfd,
//! timerfd, epoll) and system info: credentials and the kill
//! permission rule, compared with qemu-ppc (which runs the program as the
//! host's root, so its setuid calls are real Linux's); CLOCK_REALTIME from
//! the board's RTC, and setting it, on Sigil (a test must never set the
//! host's clock), with the unprivileged half compared.

mod common;

use common::{compare, has_lines, linux, program, SIGIL_TIMEOUT};

#[test]
fn cred_kill() {
    let out = compare("cred_kill", &[]);
    has_lines(
        &out,
        &[
            "worker: uid 1000/1000/1000 gid 1000/1000/1000, 1 groups 1000",
            "kill(root victim, 15): Operation not permitted",
            "kill(root victim's group, 15): Operation not permitted",
            "tgkill(root victim): Operation not permitted",
            "sigqueue(root victim): Operation not permitted",
            "pidfd_send_signal(root victim): Operation not permitted",
            "pidfd_send_signal(own child, 0): ok",
            "kill(root victim, 18): ok",
            "kill(root in another session, 18): Operation not permitted",
            "kill(root with euid 1000, 15): Operation not permitted",
            "own child: killed by 15",
            "kill(root victim, real uid 0, 0): ok",
            "back: uid 0/0/0 gid 0/0/0, 0 groups",
        ],
    );
}

/// File permissions on the tmpfs: a user cannot read root's 0600 file, write
/// its 0644 one, create in its directory or chmod/chown its files; its own
/// file in /tmp is its own (Linux's generic_permission, chown_ok, chgrp_ok).
#[test]
fn cred_files() {
    let out = common::compare_as_user("cred_files", &[]);
    has_lines(
        &out,
        &[
            "open(secret, read): Permission denied",
            "open(public, write): Permission denied",
            "open(root's directory, create): Permission denied",
            "chmod(public): Operation not permitted",
            "own file: uid 1000 gid 1000 mode 644",
            "own pipe: uid 1000 gid 1000 mode 600",
            "chown(own file, -1, 0): Operation not permitted",
            "open(secret as root, read): ok",
        ],
    );
}

/// Linux's protected_symlinks in /tmp (user/c/cred_symlinks.c). Checked on
/// Sigil alone: qemu-ppc follows the host kernel's fs.protected_symlinks,
/// which is 0 on the machines the tests run on (a container's default),
/// where a Debian system boots with 1; these are Linux's answers with 1.
#[test]
fn protected_symlinks() {
    let expected = "\
user opens root's link in /tmp: ok
user opens its own link in /tmp: ok
root opens the user's link in /tmp: Permission denied
root stats the user's link as a middle component: Permission denied
root lstats the user's link: ok
root reads the user's link: ok
root opens the user's link in a non-sticky directory: ok
cleanup: ok ok ok ok ok ok
";
    let got = common::sigil("cred_symlinks", &[], &[]);
    assert_eq!(got.console, expected, "cred_symlinks differs from Linux's behaviour");
    assert_eq!(got.status, Some(0));
}

/// Lines only Sigil prints: the part of clock_wall that sets the clock.
const SIGIL_ONLY: [&str; 7] = [
    "booted:",
    "clock_settime as root:",
    "now:",
    "settimeofday as root:",
    "clock_settime(CLOCK_MONOTONIC):",
    "absolute sleep",
    "relative sleep",
];

#[test]
fn clock_wall() {
    let mut cfg = common::config();
    cfg.qemu_flags.extend(["-rtc".to_string(), "base=2024-01-02T03:04:05".to_string()]);
    cfg.init = Some(program("clock_wall"));
    cfg.quiet = true;
    let r = sigil_qemu::run(&cfg);
    assert!(
        !r.timed_out && !r.oopsed(),
        "clock_wall: no clean run in {SIGIL_TIMEOUT:?}:\n{}",
        r.console
    );
    assert_eq!(r.status, Some(0), "clock_wall on Sigil:\n{}", r.console);
    let out = &r.console;
    // The boot takes well under a second of guest time.
    assert!(
        out.lines().any(|l| l.starts_with("booted: Tue Jan  2 03:04:0")),
        "the RTC's date is not the clock's:\n{out}"
    );
    has_lines(
        out,
        &[
            "clock_settime as root: ok",
            "now: Thu Jun 13 12:00:00 UTC 2030",
            "settimeofday as root: ok",
            "now: Sun Sep  9 01:46:40 UTC 2001",
            "clock_settime(CLOCK_MONOTONIC): Invalid argument",
            "absolute sleep 100 s ahead, clock set 200 s on: returned 0, slept under 0.5 s",
            "relative sleep of 1 s, clock set 1 h on: returned 0, slept 0.5 to 5 s",
            "clock_settime as uid 1000: Operation not permitted",
        ],
    );
    let shared: Vec<&str> =
        out.lines().filter(|l| !SIGIL_ONLY.iter().any(|p| l.starts_with(p))).collect();
    let reference = linux("clock_wall", &[], &[]);
    let expected: Vec<&str> = reference.console.lines().collect();
    assert_eq!(shared, expected, "clock_wall: the unprivileged part differs from qemu-ppc");
}

/// uname, sysinfo and the affinity calls: the machine's own values, so
/// checked on Sigil only (qemu-ppc reports the host's CPUs and memory).
#[test]
fn sysinfo() {
    let r = common::sigil("sysinfo", &[], &[]);
    assert_eq!(r.status, Some(0), "sysinfo on Sigil:\n{}", r.console);
    has_lines(
        &r.console,
        &[
            "uname: Linux ppc",
            "get_nprocs: 1",
            "sched_getaffinity: 0, 1 CPU, CPU 0 set",
            "sched_getaffinity, 2 bytes: Invalid argument",
            "sched_getaffinity, no such pid: No such process",
            "sched_setaffinity CPU 0: 0",
            "sched_setaffinity, no CPU: Invalid argument",
        ],
    );
    let line = r.console.lines().find(|l| l.starts_with("sysinfo:")).expect("a sysinfo line");
    assert!(
        line.starts_with("sysinfo: uptime >= 1 s, mem_unit 1, total RAM 2")
            && line.contains("free below total yes, 2 threads"),
        "sysinfo: {line}"
    );
}

/// eventfd (both modes, blocking and poll wake-ups) and pidfds.
#[test]
fn event_fds() {
    let out = compare("event_fds", &[]);
    has_lines(
        &out,
        &[
            "eventfd(3): write 4 -> 8, read -> 7",
            "blocking read woke with 5",
            "poll woke: 1, POLLIN, then read 6",
            "child: killed by 15",
            "pidfd_send_signal after the reap: No such process",
            "pidfd poll while it runs: 0",
            "waitid(P_PIDFD, nonblocking pidfd): Resource temporarily unavailable",
            "pidfd poll until it ends: 1, revents 0x1",
            "waitid(P_PIDFD): ok, si_pid is the child 1, code 1, status 3",
            "waitid(P_PIDFD, an eventfd): Bad file descriptor",
        ],
    );
}

/// timerfd: errors, counting, both layouts, poll, a signal during a
/// blocking read, fork. Compared with qemu-ppc where it agrees with Linux;
/// one line does not: qemu-ppc 7.2 skips a NULL timerfd_gettime buffer
/// and says ok, where Linux's copy_to_user gives EFAULT.
#[test]
fn timerfd() {
    let fix = |l: &str| match l {
        "gettime(NULL): ok" => "gettime(NULL): Bad address".to_string(),
        l => l.to_string(),
    };
    let got = common::sigil("timerfd", &[], &[]);
    assert_eq!(got.status, Some(0), "timerfd on Sigil:\n{}", got.console);
    // qemu-ppc runs in the host's real time: three tries to agree.
    let mut expected = String::new();
    for _ in 0..3 {
        let l = linux("timerfd", &[], &[]).console;
        expected = l.lines().map(|l| fix(l) + "\n").collect();
        if expected == got.console {
            break;
        }
    }
    assert_eq!(got.console, expected, "timerfd differs from Linux's behaviour");
    has_lines(
        &got.console,
        &[
            "read, none: -1, Resource temporarily unavailable",
            "fd link: anon_inode:[timerfd]",
            "blocking read: 1",
            "expirations missed: 4",
            "time64: set ok, get ok: interval 2 s, value within 9 s 1",
            "read interrupted, no SA_RESTART: -1, Interrupted system call",
            "read interrupted, SA_RESTART: 1",
            "parent after the child's read: -1, Resource temporarily unavailable",
        ],
    );
    // execve keeps a timerfd (qemu-ppc cannot execve a ppc32 program);
    // TFD_TIMER_CANCEL_ON_SET (a test must not set the host's clock);
    // timers left armed at exit go with their files (the leak check).
    let r = common::sigil("timerfd", &["exec"], &[]);
    assert_eq!(r.status, Some(0), "timerfd exec on Sigil:\n{}", r.console);
    has_lines(
        &r.console,
        &[
            "after exec: timerfd kept ok, interval 4 s",
            "after exec: TFD_CLOEXEC one: Bad file descriptor",
            "cancel on set: poll before 0",
            "cancel on set: poll after the clock change 1",
            "cancel on set: read -1, Operation canceled",
            "cancel on set: read again -1, Resource temporarily unavailable",
            "without the flag: read -1, Resource temporarily unavailable",
        ],
    );
}

/// epoll: epoll_ctl's errors, level/edge/oneshot reports, EPOLLOUT, ERR
/// and HUP, a descriptor closed while registered, a signal in the wait and
/// epoll_pwait's mask, epolls nested (wake-ups through them, ELOOP for a
/// cycle and past EPOLL_MAX_NESTS), poll() on an epoll woken by a file in
/// its set, and one loop over a timerfd, a pipe and a signalfd, compared
/// with qemu-ppc. Two lines differ: with room for one report before an
/// unmapped page, Linux copies one and keeps the other for the next call
/// (`ep_send_events`), qemu-ppc checks the whole buffer first (EFAULT,
/// nothing consumed). epoll_pwait2's lines are not compared: qemu-ppc 7.2 does not
/// emulate it (ENOSYS), so they are checked against what Linux's
/// `do_epoll_pwait` returns (its timeout read first: EFAULT, then EINVAL
/// for a negative or unnormalised time).
#[test]
fn epoll() {
    let got = common::sigil("epoll", &[], &[]);
    assert_eq!(got.status, Some(0), "epoll on Sigil:\n{}", got.console);
    let (pwait2, rest): (Vec<&str>, Vec<&str>) =
        got.console.lines().partition(|l| l.starts_with("epoll_pwait2"));
    // qemu-ppc runs in the host's real time: three tries to agree.
    let mut expected = Vec::new();
    for _ in 0..3 {
        let l = linux("epoll", &[], &[]).console;
        let fix = |l: &str| match l {
            "fault: second report faults: -1 Bad address, first 0" => {
                "fault: second report faults: 1, first 1".to_string()
            }
            "fault: after the partial copy: 2 [0x1 1] [0x1 2]" => {
                "fault: after the partial copy: 1 [0x1 2]".to_string()
            }
            l => l.to_string(),
        };
        expected = l.lines().filter(|l| !l.starts_with("epoll_pwait2")).map(fix).collect();
        if expected == rest {
            break;
        }
    }
    assert_eq!(rest, expected, "epoll differs from Linux's behaviour");
    has_lines(
        &got.console,
        &[
            "regular file: Operation not permitted",
            "edge: no new data: 0",
            "edge: more data: 1 [0x1 20]",
            "oneshot, spent: 0",
            "write end, reader gone: 1 [0xc 11]",
            "registered pipe closed: 0",
            "epoll_pwait, mask swapped in: -1 Interrupted system call, SIGUSR1 blocked again 1",
            "event loop: timer, 1 expiration",
            "maxevents 1, four calls: 50 51 52 50",
            "nest: cycle: Too many levels of symbolic links",
            "nest: blocking wait, woken by a child's write: 1 [0x1 70]",
            "poll(outer epoll fd), woken by a child's write: 1 revents 0x1",
            "nest: bottom up: ok ok ok ok Too many levels of symbolic links ok",
            "nest: top down: ok ok ok ok Too many levels of symbolic links ok",
            "fault: events at 0x1000: Bad address",
            "fault: then: 2 [0x1 1] [0x1 2]",
            "fault: second report faults: 1, first 1",
            "fault: after the partial copy: 1 [0x1 2]",
        ],
    );
    assert_eq!(
        pwait2,
        [
            "epoll_pwait2, nothing ready, 0: 0",
            "epoll_pwait2, nothing ready, 30 ms: 0, waited >= 30 ms 1",
            "epoll_pwait2, tv_sec -1: Invalid argument",
            "epoll_pwait2, tv_nsec 1e9: Invalid argument",
            "epoll_pwait2, timeout at 0x1000: Bad address",
            "epoll_pwait2, 1 s, woken by a child's write: 1 [0x1 9]",
            "epoll_pwait2, NULL timeout, data: 1",
        ],
        "epoll_pwait2 differs from Linux's"
    );
}

/// RLIMIT_SIGPENDING and the timer budget are per user: uid 1000 filling
/// its own leaves root its room. Sigil only (the host's limits differ).
#[test]
fn cred_budget() {
    let r = common::sigil("cred_budget", &[], &[]);
    assert_eq!(r.status, Some(0), "cred_budget on Sigil:\n{}", r.console);
    has_lines(
        &r.console,
        &[
            "uid 1000: 1024 RT signals queued, then Resource temporarily unavailable",
            "uid 1000: one more with si_code SI_TIMER: Resource temporarily unavailable",
            "uid 1000: 1024 timers, then Resource temporarily unavailable",
            "root queues a signal: ok",
            "root makes a timer: ok",
            "uid 0: 1023 RT signals queued, then Resource temporarily unavailable",
            "after the child: root fills 1023 more",
        ],
    );
}
