//! The FP emulator in a real kernel: with the boot option `fpu=emulate`
//! Sigil never gives user code the FPU, so every FP instruction traps and is
//! computed by `sigil_core::fpemu`, as on an FPU-less MPC8xx. Each program's
//! output and status must still be identical to qemu-ppc's (which runs them
//! on its FPU model): fp_math checks results bit for bit (%a), rounding
//! modes, flags, FP state across a signal and a fork, and faulting FP loads
//! and stores; the others are ordinary glibc programs, which need the
//! emulator from their first instructions (setjmp, printf).

mod common;

use common::{compare_booted, has_lines};

const EMULATE: &[&str] = &["fpu=emulate"];

fn compare_emulated(name: &str) -> String {
    compare_booted(name, &[], &[], &[], EMULATE)
}

/// The shutdown line's "fp emulated N" after a verbose boot of `name`.
fn emulated_count(name: &str, boot_opts: &[&str]) -> u32 {
    let mut cfg = common::config();
    cfg.init = Some(common::program(name));
    cfg.boot_opts = boot_opts.iter().map(|s| s.to_string()).collect();
    let r = sigil_qemu::run(&cfg);
    assert!(!r.timed_out && !r.oopsed(), "{name}: timeout or oops\n{}", r.console);
    let line =
        r.console.lines().find(|l| l.contains("sigil: init exited")).expect("a shutdown line");
    line.split("fp emulated ")
        .nth(1)
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no count in {line}"))
}

#[test]
fn fp_math() {
    let out = compare_emulated("fp_math");
    has_lines(
        &out,
        &[
            "1/3            0.33333333333333331 0x1.5555555555555p-2",
            "fma(.1,10,-1)  5.5511151231257827e-17 0x1p-54",
            "signal: handled 1, f13 1.25, f31 3.5, rounding still up: 1, handler's was nearest: 1",
            "fork parent: f20 2.71828, child status 0",
            "fault: signal 11, code 1, addr 0x10",
            "done",
        ],
    );
    assert!(out.contains("round up      get 1: 1/3 0x1.5555555555556p-2"), "{out}");
}

#[test]
fn glibc_programs_run_on_the_emulator() {
    has_lines(&compare_emulated("hello"), &["hello from sigil test"]);
    has_lines(&compare_emulated("sig_basic"), &["after 5 raises: count 5"]);
    has_lines(&compare_emulated("sig_siginfo"), &["sigqueue value: 1234"]);
    compare_emulated("mem");
    compare_emulated("fork_wait");
    // siglongjmp restores f14-f31 through the emulator; SIGILL stays SIGILL.
    compare_emulated("sig_fault");
}

/// The emulator runs when asked to, and by itself exactly on a core without
/// an FPU: the 750 (g3beige) uses its FPU; the e300c2 (qemu-e300) has none,
/// whatever QEMU's model of it can do, so Sigil emulates there unasked.
#[test]
fn emulation_follows_the_core() {
    let n = emulated_count("hello", EMULATE);
    assert!(n > 0, "hello emulated no FP instruction");
    let unasked = emulated_count("hello", &[]);
    if common::board() == "qemu-e300" {
        assert_eq!(unasked, n, "the e300c2 has no FPU: every FP instruction is emulated");
    } else {
        assert_eq!(unasked, 0, "the FPU was not used without fpu=emulate");
    }
}
