//! Shared helpers of the QEMU integration tests: where things are, how to run
//! one program on Sigil and under qemu-ppc, and how to compare the two.
//!
//! Paths: the kernel is `target/kernel/<board>/sigil.elf` (board from
//! `SIGIL_BOARD`, default g3beige), the programs are `target/user/<name>`.
//! Anything missing fails the test with a message to run `make test`: these
//! tests must never pass by not running.

#![allow(dead_code)] // each test file uses a different subset

use std::path::PathBuf;
use std::time::Duration;

use sigil_qemu::{reference, repo_root, ExtraFile, RunConfig, RunResult};

/// Sigil boots under icount: every guest instruction advances guest time by
/// 8 ns (shift=3, about a real 750's pace), whatever the host is doing, so a
/// program's timers, sleeps and time slices come out the same on an idle or a
/// loaded machine and a test passes or fails the same way on both.
pub const ICOUNT: [&str; 2] = ["-icount", "shift=3,sleep=off"];
/// Host-time limits are backstops against a hung QEMU only, never a
/// measurement: generous enough for a 2-core machine running two suites.
pub const SIGIL_TIMEOUT: Duration = Duration::from_secs(300);
/// qemu-ppc's backstop per run.
pub const REFERENCE_TIMEOUT: Duration = Duration::from_secs(120);

pub fn board() -> String {
    std::env::var("SIGIL_BOARD").unwrap_or_else(|_| "g3beige".into())
}

/// The kernel image; fails the test if it has not been built.
pub fn kernel() -> PathBuf {
    let path = repo_root().join("target/kernel").join(board()).join("sigil.elf");
    assert!(
        path.is_file(),
        "{} is missing: run `make test` (it builds the kernel and the user programs first)",
        path.display()
    );
    path
}

/// A user program; fails the test if it has not been built.
pub fn program(name: &str) -> PathBuf {
    let path = repo_root().join("target/user").join(name);
    assert!(
        path.is_file(),
        "{} is missing: run `make test` (it builds the user programs first)",
        path.display()
    );
    path
}

/// A boot of this board's kernel under [`ICOUNT`] with the [`SIGIL_TIMEOUT`]
/// backstop; the test fills in init, options and the rest.
pub fn config() -> RunConfig {
    let mut cfg = RunConfig::new(&board(), kernel());
    cfg.qemu_flags = strings(&ICOUNT);
    cfg.timeout = SIGIL_TIMEOUT;
    cfg
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// Boot Sigil (quiet) with `name` as /init and `files` in the initramfs.
pub fn sigil(name: &str, args: &[&str], files: &[ExtraFile]) -> RunResult {
    sigil_booted(name, args, files, &[])
}

/// `sigil` with kernel boot options (`fpu=emulate`, ...).
pub fn sigil_booted(
    name: &str,
    args: &[&str],
    files: &[ExtraFile],
    boot_opts: &[&str],
) -> RunResult {
    let mut cfg = config();
    cfg.boot_opts = strings(boot_opts);
    cfg.init = Some(program(name));
    cfg.quiet = true;
    cfg.init_args = strings(args);
    cfg.extra_files = files.to_vec();
    let r = sigil_qemu::run(&cfg);
    assert!(
        !r.timed_out,
        "{name} on Sigil: timeout after {SIGIL_TIMEOUT:?}\nconsole:\n{}\nqemu stderr:\n{}",
        r.console, r.stderr
    );
    assert!(!r.oopsed(), "{name} on Sigil: kernel oops\nconsole:\n{}", r.console);
    assert!(
        !r.console.contains("sigil: leak check: LEAK"),
        "{name} on Sigil: kernel memory leaked\nconsole:\n{}",
        r.console
    );
    assert!(
        r.status.is_some(),
        "{name} on Sigil: no exit marker\nconsole:\n{}\nqemu stderr:\n{}",
        r.console,
        r.stderr
    );
    r
}

/// Run `name` under qemu-ppc with `files` in its working directory.
pub fn linux(name: &str, args: &[&str], files: &[ExtraFile]) -> RunResult {
    let r = reference::run(&program(name), &strings(args), files, REFERENCE_TIMEOUT);
    assert!(!r.timed_out, "{name} under qemu-ppc: timeout\noutput:\n{}", r.console);
    assert!(r.status.is_some(), "{name} under qemu-ppc did not run: {}", r.stderr);
    r
}

/// The first line where `a` and `b` differ, for failure messages.
fn first_difference(a: &str, b: &str) -> String {
    let (al, bl): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    for i in 0..al.len().max(bl.len()) {
        if al.get(i) != bl.get(i) {
            return format!(
                "line {}:\n  sigil:   {:?}\n  qemu-ppc: {:?}",
                i + 1,
                al.get(i),
                bl.get(i)
            );
        }
    }
    "only in line endings or a missing final newline".into()
}

/// Run on both with the same arguments and files; assert identical output and
/// status. Returns the output for extra checks.
pub fn compare(name: &str, args: &[&str]) -> String {
    compare_with(name, args, args, &[])
}

/// `compare` with different arguments for each side (paths differ: /bin/x on
/// Sigil, bin/x in qemu-ppc's working directory) and extra files.
pub fn compare_with(
    name: &str,
    sigil_args: &[&str],
    linux_args: &[&str],
    files: &[ExtraFile],
) -> String {
    compare_booted(name, sigil_args, linux_args, files, &[])
}

/// `compare_with`, Sigil booted with `boot_opts`.
pub fn compare_booted(
    name: &str,
    sigil_args: &[&str],
    linux_args: &[&str],
    files: &[ExtraFile],
    boot_opts: &[&str],
) -> String {
    let got = sigil_booted(name, sigil_args, files, boot_opts);
    // Sigil runs under -icount, the same every time; qemu-ppc runs in the
    // host's real time, so on a loaded host a program that measures time
    // (timer_cpu's "CPU time used >= 150 ms yes") can say "no" there. The
    // reference gets three tries to agree; Sigil's side gets one.
    let mut expected = linux(name, linux_args, files);
    for _ in 1..3 {
        if got.console == expected.console {
            break;
        }
        expected = linux(name, linux_args, files);
    }
    assert!(
        got.console == expected.console,
        "{name}: output differs from qemu-ppc at {}\n--- sigil ---\n{}\n--- qemu-ppc ---\n{}",
        first_difference(&got.console, &expected.console),
        got.console,
        expected.console
    );
    assert_eq!(
        got.status, expected.status,
        "{name}: exit status differs (sigil vs qemu-ppc)\noutput:\n{}",
        got.console
    );
    got.console
}

/// `compare` for a program that drops root and uses absolute paths, or Sigil
/// alone where the host's "/" is not searchable by other users: in a chroot
/// whose root `mktemp -d` made 0700 (as the fresh-machine check's), qemu-ppc's
/// non-root process gets EACCES for every absolute path, where Linux with a
/// usual root (and Sigil) answer the question asked. The caller's
/// `has_lines` then are the check.
pub fn compare_as_user(name: &str, args: &[&str]) -> String {
    use std::os::unix::fs::PermissionsExt;
    let searchable = std::fs::metadata("/").map_or(true, |m| m.permissions().mode() & 0o001 != 0);
    if searchable {
        compare(name, args)
    } else {
        sigil(name, args, &[]).console
    }
}

/// Assert `output` has each of `lines` as a whole line.
pub fn has_lines(output: &str, lines: &[&str]) {
    for line in lines {
        assert!(output.lines().any(|l| l == *line), "expected the line {line:?} in:\n{output}");
    }
}
