//! Timers as signal sources: each timer_* program runs as PID 1 on
//! Sigil and under qemu-ppc with identical output and status (the programs
//! print facts about times, never raw times). Two checks are Sigil's alone:
//! execve's timer rules (qemu-ppc cannot execve a ppc32 binary) and 1000
//! timers in flight (qemu-ppc keeps at most 32), where the kernel's shutdown
//! line must report no timer objects and no deadlines left behind.
//! timer_cpu checks the CPU-time side: ITIMER_VIRTUAL/PROF, times,
//! getrusage and wait4's rusage; timer_cputime the POSIX timers on the
//! CPU-time clocks; cpu_clockids the clocks of other processes and
//! threads, by the ids glibc makes; cpu_nanosleep clock_nanosleep on
//! those clocks.

mod common;

use common::{compare, has_lines, program};

/// Boots Sigil with `name` as /init, kernel messages included (the
/// shutdown line is one), and returns the console.
fn sigil_verbose(name: &str, args: &[&str]) -> String {
    let mut cfg = common::config();
    cfg.init = Some(program(name));
    cfg.init_args = args.iter().map(|s| s.to_string()).collect();
    let r = sigil_qemu::run(&cfg);
    assert!(
        !r.timed_out && !r.oopsed(),
        "{name} on Sigil: timeout or oops\nconsole:\n{}",
        r.console
    );
    assert_eq!(r.status, Some(0), "{name} on Sigil: exit status\nconsole:\n{}", r.console);
    r.console
}

/// The shutdown line's "timers N, deadlines N" must both be 0.
fn assert_no_leaks(console: &str) {
    let line = console.lines().find(|l| l.contains("sigil: init exited")).expect("a shutdown line");
    assert!(line.contains(", timers 0, deadlines 0,"), "leaked timers or deadlines: {line}");
}

#[test]
fn timer_alarm() {
    let out = compare("timer_alarm", &[]);
    has_lines(
        &out,
        &[
            "alarm(3) right after alarm(5): 5",
            "alarm(0) 0.7 s after alarm(3): 2",
            "alarm(0) 0.6 s after alarm(1): 1",
            "pause until alarm(1): returned -1 (Interrupted system call), alarms 1, si_code 128 (SI_KERNEL), after 1 s: yes",
            "after 300 ms blocked: SIGALRMs delivered 1",
            "child: getitimer 0.000000, alarm(0) 0",
        ],
    );
}

#[test]
fn timer_cpu() {
    let out = compare("timer_cpu", &[]);
    has_lines(
        &out,
        &[
            "ITIMER_VIRTUAL 50 ms periodic: 4 SIGVTALRM, si_code 128 (SI_KERNEL), CPU time used >= 150 ms yes",
            "ITIMER_VIRTUAL disarmed: old interval 0.050000, value in (0, 60] ms yes",
            "ITIMER_PROF 50 ms periodic: 4 SIGPROF, si_code 128 (SI_KERNEL), CPU time used >= 150 ms yes",
            "getitimer right after arming 10 s: in (9.9, 10.06] s yes",
            "after 300 ms of busy work: moved by [100, 1000] ms yes",
            "after 300 ms of sleep: moved by < 50 ms yes",
            "sleeping 300 ms with ITIMER_VIRTUAL 50 ms: SIGVTALRM 0, user time grew < 50 ms yes",
            "times: clock ticks 100/s, utime grew by >= 15 ticks with 250 ms busy yes, < 5 with sleep yes",
            "CLOCK_PROCESS_CPUTIME_ID: grew by >= 200 ms with busy work yes, < 50 ms with sleep yes",
            "child: utime at start < 10 ms yes, ITIMER_PROF inherited no",
            "children totals: 0 before the child is reaped yes, >= 250 ms after yes",
            "wait4 rusage: ru_utime >= 250 ms yes; times: cutime >= 25 ticks yes",
        ],
    );
}

/// POSIX timers on CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID:
/// they fire after the process (or that thread) has spun for their time,
/// not while it sleeps, periodic ones count their overruns, and a thread's
/// timer ignores the other threads' time; compared with qemu-ppc (which
/// passes the calls to the host's Linux).
#[test]
fn timer_cputime() {
    let out = compare("timer_cputime", &[]);
    has_lines(
        &out,
        &[
            "timer_create(process): ok",
            "after 100 ms asleep: fired 0",
            "spun: fired 1 after >= 40 ms of CPU time 1",
            "periodic 20 ms over 200 ms: signals > 1 1, expirations in 8..11 1",
            "thread timer, 30 ms: fired 1 after >= 30 ms of the thread's time 1",
            "main thread's timer while another spun: still armed 1",
            "main thread's timer once it spins: fired 1",
        ],
    );
}

/// clock_getcpuclockid and pthread_getcpuclockid: another process's and
/// another thread's CPU clock read by id, Linux's `pid_for_clock` rules
/// (no thread clock of another process, ESRCH once reaped); compared with
/// qemu-ppc, which passes the ids to the host's Linux.
#[test]
fn cpu_clockids() {
    let out = compare("cpu_clockids", &[]);
    has_lines(
        &out,
        &[
            "clock_getcpuclockid(0): 0, id -6",
            "clock_getcpuclockid(getpid()): 0, reads 1",
            "own SCHED, PROF, VIRT clocks after 20 ms: 1 1 1",
            "no fourth kind: -22",
            "clock_getcpuclockid(child): 0",
            "child's clock read by the parent: >= 50 ms 1",
            "child's VIRT clock: > 0 1",
            "a thread clock of another process: -22",
            "clock_getcpuclockid(reaped child): ESRCH",
            "pthread_getcpuclockid: 0, the thread's clock reached 30 ms: 1",
            "by tid: 1",
            "in the thread: clock_getcpuclockid(0) 0, (gettid()) ESRCH, read by tid 1",
            "the ended thread's clock: -22",
        ],
    );
}

/// clock_nanosleep on CPU-time clocks (Linux `posix_cpu_nsleep`): the own
/// process's while another thread spins, a child's while it spins,
/// relative and TIMER_ABSTIME; EINVAL on the caller's own thread clock, a
/// bad timespec, another process's thread clock and a reaped child's
/// clock; EINTR with a handler (rem the CPU time left), on through a stop
/// and SIGCONT. Compared with qemu-ppc (the host's Linux sleeps); then on
/// Sigil alone, sleepers killed or ended by exit_group must leave no
/// deadline behind.
#[test]
fn cpu_nanosleep() {
    let out = compare("cpu_nanosleep", &[]);
    has_lines(
        &out,
        &[
            "process clock, 100 ms with a thread spinning: 0, clock moved >= 100 ms 1",
            "TIMER_ABSTIME now + 50 ms: 0, clock reached the target 1",
            "CLOCK_THREAD_CPUTIME_ID: EINVAL",
            "pthread_getcpuclockid(self): EINVAL",
            "tv_nsec 1e9: EINVAL",
            "SIGALRM, handler: EINTR, alarms 1, rem in (0, 1 s] 1",
            "SIGALRM, SA_RESTART handler: EINTR, alarms 2",
            "TIMER_ABSTIME, SA_RESTART handler: EINTR, alarms 3, rem untouched 1",
            "child's clock, 80 ms: 0, child's clock moved >= 80 ms 1, parent's own < 40 ms 1",
            "the reaped child's clock: EINVAL",
            "child: 300 ms across SIGSTOP/SIGCONT: 0, clock moved >= 300 ms 1",
            "a process exiting while its main thread sleeps on its clock: 1",
        ],
    );
    assert_no_leaks(&sigil_verbose("cpu_nanosleep", &[]));
}

#[test]
fn timer_posix() {
    let out = compare("timer_posix", &[]);
    has_lines(
        &out,
        &[
            "expiry: signal RTMIN+0, si_code -2 (SI_TIMER), si_timerid 0, si_overrun 0, value 4242",
            "one signal: si_overrun >= 4 yes, timer_getoverrun matches yes",
            "no second signal queued: yes",
            "SIGEV_NONE expired: value 0.000000000, nothing pending yes",
            "timer_gettime64: in (0.5, 1] s yes (r 0)",
            "child: timer_gettime(parent's timer): Invalid argument",
        ],
    );
}

#[test]
fn timer_sleep() {
    let out = compare("timer_sleep", &[]);
    has_lines(
        &out,
        &[
            "same with SA_RESTART: -1 Interrupted system call, handler 2",
            "clock_nanosleep TIMER_ABSTIME, SA_RESTART: returns Interrupted system call, rem untouched yes",
            "clock_nanosleep_time64: -1 Interrupted system call, rem in [100, 280] ms yes",
            "child: nanosleep 300 ms across SIGSTOP/SIGCONT: 0, slept >= 300 ms yes",
        ],
    );
}

#[test]
fn timer_many_matches_linux() {
    let out = compare("timer_many", &["30"]);
    has_lines(&out, &["one-shot: 30 of 30 timers delivered exactly once, bad 0, min overrun 0"]);
}

#[test]
fn timer_many_1000_without_leaks() {
    let out = sigil_verbose("timer_many", &["1000"]);
    has_lines(
        &out,
        &[
            "1000 timers created",
            "one-shot: 1000 of 1000 timers delivered exactly once, bad 0, min overrun 0",
            "nothing more: yes",
            "periodic, blocked 100 ms: 1000 of 1000 timers delivered exactly once, bad 0, overruns >= 5 yes",
            "deleted 500, exiting with 500 armed",
            "child exited 0",
        ],
    );
    assert_no_leaks(&out);
}

#[test]
fn timer_exec_keeps_the_alarm_and_deletes_posix_timers() {
    let out = sigil_verbose("timer_exec", &[]);
    has_lines(
        &out,
        &["after exec: timer_gettime(old timer): Invalid argument", "after exec: alarm left 10"],
    );
    assert_no_leaks(&out);
}

#[test]
fn timer_idle_sleeps_without_ticking() {
    let out = compare("timer_idle", &[]);
    has_lines(&out, &["slept 2 s: 0"]);
    let out = sigil_verbose("timer_idle", &[]);
    let line = out.lines().find(|l| l.contains("sigil: init exited")).expect("a shutdown line");
    let n: u32 = line
        .split("timer interrupts ")
        .nth(1)
        .and_then(|v| v.split(',').next()?.trim().parse().ok())
        .expect("an interrupt count");
    // A 100 Hz tick would take 200 in those 2 s. Start-up and exit take a
    // few (one per 10 ms slice of running user code: more on a busy host).
    assert!(n < 100, "{n} timer interrupts during a 2 s idle sleep: {line}");
}
