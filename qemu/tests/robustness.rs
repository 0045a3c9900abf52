//! Robustness: hostile and heavy programs cannot crash, wedge or
//! leak the kernel. Sigil only (no qemu-ppc comparison): a fuzzer and a fork
//! bomb have no place on the host, and these programs refuse to run unless
//! they are PID 1.
//!
//! Every boot here is verbose (not `quiet`), so the kernel's own leak check
//! at power-off must be seen to say "ok": after PID 1 and everything else
//! have exited, free frames, heap bytes and sigqueue nodes are back where
//! they were before PID 1 was created.

mod common;

use std::time::{Duration, Instant};

use common::{has_lines, program};
use sigil_qemu::RunResult;

/// A backstop only (guest time runs under icount): these boots do a lot of
/// work and share the machine with the other test threads. Measured alone:
/// fuzz ~10 s, stress_rt ~12 s, exhaust ~9 s.
const TIMEOUT: Duration = Duration::from_secs(600);

/// Boots `name` verbose; asserts no oops, a clean leak check and exit 0.
/// Returns the console with the program's lines.
fn run(name: &str, args: &[&str]) -> String {
    run_with(name, args, &[])
}

/// `run` with boot options.
fn run_with(name: &str, args: &[&str], boot_opts: &[&str]) -> String {
    let mut cfg = common::config();
    cfg.boot_opts = boot_opts.iter().map(|s| s.to_string()).collect();
    cfg.init = Some(program(name));
    cfg.init_args = args.iter().map(|s| s.to_string()).collect();
    cfg.timeout = TIMEOUT;
    let started = Instant::now();
    let r: RunResult = sigil_qemu::run(&cfg);
    eprintln!("{name}: {:.1} s wall", started.elapsed().as_secs_f64());
    assert!(!r.timed_out, "{name}: timeout after {TIMEOUT:?}\nconsole:\n{}", r.console);
    assert!(!r.oopsed(), "{name}: kernel oops\nconsole:\n{}", r.console);
    assert!(
        r.console.lines().any(|l| l.starts_with("sigil: leak check: ok")),
        "{name}: no clean leak check\nconsole:\n{}",
        r.console
    );
    assert_eq!(r.status, Some(0), "{name}: exit status\nconsole:\n{}", r.console);
    r.console
}

/// The seeded fuzzer: at least 100000 calls, the kernel still up, nothing leaked.
#[test]
fn fuzz_100000_calls() {
    let out = run("fuzz", &["20261130", "100000"]);
    let summary = out
        .lines()
        .find(|l| l.starts_with("fuzz: ") && l.contains(" calls in "))
        .expect("summary line");
    eprintln!("{summary}");
    let calls: u64 =
        summary.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("call count");
    assert!(calls >= 100_000, "only {calls} calls:\n{out}");
    has_lines(&out, &["fuzz: the kernel is still up"]);
}

/// 32 processes, 100000 RT signals: none lost, duplicated or reordered;
/// the queue limit was met (EAGAIN) and handled; standard signals coalesce.
#[test]
fn stress_rt_100000_signals() {
    let out = run("stress_rt", &[]);
    has_lines(
        &out,
        &[
            "stress_rt: 32 processes, 100000 RT signals sent, 100000 received, 100000 planned",
            "stress_rt: lost 0, duplicated or out of order 0, workers reporting 32, clean exits 32",
            "coalescing: SIGUSR1 sent 1000 times while blocked: 1 delivery; SIGRTMIN+2 sent 5 times: 5 deliveries",
            "stress_rt: ok",
        ],
    );
}

/// Fork bomb, address space, physical memory, RT queue, pipe buffers, every
/// limit in 60 processes at once, unknown syscalls: an error (or SIGKILL for
/// touched memory) each time, no kernel panic, and the system usable afterwards.
#[test]
fn exhaustion() {
    let out = run("exhaust", &[]);
    has_lines(
        &out,
        &[
            "fork bomb: fork failed with EAGAIN: yes; all processes killed and reaped",
            "fork bomb: system usable afterwards: yes",
            "mmap 1 MiB until failure: ENOMEM: yes (after over 1000 MiB)",
            "malloc 1 MiB until NULL: ENOMEM: yes",
            "unmergeable 4 KiB mappings until failure: ENOMEM: yes",
            "mprotect splitting one mapping page by page: ENOMEM: yes",
            "address space: system usable afterwards: yes",
            "touching 1.5 GiB: killed by SIGKILL: yes",
            "physical memory: system usable afterwards: yes",
            "sigqueue until failure: EAGAIN: yes, at RLIMIT_SIGPENDING: yes",
            "all queued delivered on unblocking: yes",
            "kill of a blocked RT signal 2 x RLIMIT_SIGPENDING times: never fails: yes, delivered at most the limit: yes",
            "rt queue: system usable afterwards: yes",
            "pipe buffers: 8 processes filled pipes until pipe() failed (EMFILE or ENFILE): yes",
            "pipe buffers: system usable afterwards: yes",
            "every limit: 60 or more processes, each stopped by an errno at every limit: yes (first other: none)",
            "every limit: system usable afterwards: yes",
            "2 million distinct unknown syscall numbers: all ENOSYS: yes",
            "unknown syscalls: system usable afterwards: yes",
        ],
    );
}

/// More address spaces created and destroyed than there are MMU context
/// numbers: each recycled number starts clean (no stale translation of a dead
/// space) and a live space's page never changes.
#[test]
fn mmu_context_churn() {
    let out = run("ctxchurn", &["2500"]);
    has_lines(
        &out,
        &[
            "ctxchurn: 2500 address spaces created and destroyed: failed 0, saw stale data 0",
            "ctxchurn: long-lived child's page: intact",
        ],
    );
}

/// Children still alive when PID 1 exits are killed and reaped by the
/// kernel before the leak check, so the check still balances.
#[test]
fn leak_check_with_survivors() {
    let out = run("orphans", &[]);
    has_lines(&out, &["orphans: PID 1 exits with 7 processes left behind"]);
}

/// A kernel stack running out is an oops naming it, not silent corruption.
#[test]
fn kernel_stack_overflow_is_an_oops() {
    let mut cfg = common::config();
    cfg.boot_opts = vec!["selftest=kstack-overflow".into()];
    let r = sigil_qemu::run(&cfg);
    assert!(r.oopsed(), "no oops:\n{}", r.console);
    assert!(r.console.contains("kernel stack overflow: tid 0"), "{}", r.console);
    assert!(!r.console.contains("FAILED"), "{}", r.console);
    // The runner names the oops's addresses from the ELF it booted.
    let names = sigil_qemu::symbols::symbolize_oops(&r.console, &cfg.kernel)
        .unwrap_or_else(|| panic!("no symbols for the oops:\n{}", r.console));
    assert!(names.contains(" sigil::"), "{names}\n{}", r.console);
}

/// The exhaustion program again with the heap cut to 2 and 5 MiB (the boot
/// option `heap=`), below what the budgets of docs/threat-model.md are
/// sized for, so that the heap runs out before the budgets do: whatever a
/// program asks for past that point is an errno (ENOMEM from fork, mmap,
/// pipe writes...), the kernel does not panic, every part leaves the
/// system usable, and nothing leaks.
#[test]
fn exhaustion_with_a_small_heap() {
    for heap in ["heap=2M", "heap=5M"] {
        let out = run_with("exhaust", &[], &[heap]);
        let full = out.lines().any(|l| {
            l.starts_with("sigil: heap full ") && l.ends_with(" times, each answered with an errno")
        });
        assert!(full, "{heap}: the heap never ran out:\n{out}");
        has_lines(
            &out,
            &[
                "fork bomb: system usable afterwards: yes",
                "address space: system usable afterwards: yes",
                "physical memory: system usable afterwards: yes",
                "rt queue: system usable afterwards: yes",
                "pipe buffers: system usable afterwards: yes",
                "every limit: system usable afterwards: yes",
                "unknown syscalls: system usable afterwards: yes",
            ],
        );
    }
}
