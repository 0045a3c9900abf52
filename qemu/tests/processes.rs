//! Processes and the ABI: each user/c program runs as PID 1 on Sigil
//! and under qemu-ppc; output and exit status must be identical.

mod common;

use common::{compare, compare_with, has_lines, program, sigil};
use sigil_qemu::initramfs::MODE_EXEC;
use sigil_qemu::ExtraFile;

#[test]
fn hello() {
    let out = compare("hello", &["one", "two", "3"]);
    has_lines(&out, &["argc=4", "argv[1]=one", "argv[2]=two", "argv[3]=3", "HOME=/", "TERM=linux"]);
}

#[test]
fn hello_without_arguments_exits_7() {
    let r = sigil("hello", &[], &[]);
    assert_eq!(r.status, Some(7));
    has_lines(&r.console, &["argc=1"]);
}

#[test]
fn fork_wait() {
    let out = compare("fork_wait", &[]);
    has_lines(
        &out,
        &[
            "raise(SIGTERM): killed by signal 15 (Terminated), core 0",
            "waitpid with no children: -1, errno No child processes",
        ],
    );
}

/// Resource limits: RLIMIT_NOFILE lowered stops open, dup2 and F_DUPFD;
/// fork inherits; prlimit64 of other processes; Linux's EINVAL and EPERM,
/// and a user's RLIMIT_NPROC stopping fork.
#[test]
fn rlimits() {
    let out = compare("rlimits", &[]);
    has_lines(
        &out,
        &[
            "open until failure: Too many open files, last fd below 8: yes",
            "dup2 to 8: -1, Bad file descriptor",
            "F_DUPFD from 8: -1, Invalid argument",
            "child: NOFILE 16/16",
            "prlimit of no process: -1, No such process",
            "NOFILE past the kernel's table: -1, Operation not permitted",
            "the user raises NOFILE's hard limit: -1, Operation not permitted",
            "fork at the NPROC limit: -1, Resource temporarily unavailable",
            "prlimit of root's parent: -1, Operation not permitted",
        ],
    );
}

#[test]
fn pipes() {
    let out = compare("pipes", &[]);
    has_lines(
        &out,
        &["block: 65536 bytes, checksum ok", "write with SIGPIPE ignored: -1, errno Broken pipe"],
    );
}

#[test]
fn mem() {
    let out = compare("mem", &[]);
    has_lines(&out, &["write to the read-only page: killed by signal 11 (Segmentation fault)"]);
}

#[test]
fn fork1000() {
    let out = compare("fork1000", &[]);
    has_lines(&out, &["forks: 1000, sum of statuses: 2997"]);
}

#[test]
fn badptr() {
    let out = compare("badptr", &[]);
    has_lines(
        &out,
        &[
            "read(kernel address 0xc0000000): -1, errno 14 (Bad address)",
            "pipe still holds: abc",
            "still alive",
        ],
    );
}

#[test]
fn badexec() {
    let elf = std::fs::read(program("badexec")).expect("read badexec");
    let files = [
        ExtraFile::new("bin/bad-elf-text", "this is not an ELF file\n", MODE_EXEC),
        ExtraFile::new("bin/bad-elf-empty", "", MODE_EXEC),
        ExtraFile::new("bin/bad-elf-header-only", &elf[..52], MODE_EXEC),
        ExtraFile::new("bin/bad-elf-cut", &elf[..1000], MODE_EXEC),
    ];
    let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let on_sigil: Vec<String> = names.iter().map(|n| format!("/{n}")).collect();
    let on_sigil: Vec<&str> = on_sigil.iter().map(String::as_str).collect();
    let out = compare_with("badexec", &on_sigil, &names, &files);
    has_lines(
        &out,
        &[
            "execve(bad-elf-header-only): -1, errno 8 (Exec format error)",
            "still running after 7 failed execs",
        ],
    );
}

/// Not compared with qemu-ppc: the tests run as root there, and Linux lets
/// root ignore RLIMIT_NPROC, so the reference would fork until the host's
/// limits. Sigil must honour the limit (or its own smaller process table).
#[test]
fn proclimit() {
    let r = sigil("proclimit", &[], &[]);
    assert_eq!(
        r.console,
        "fork failed with EAGAIN: yes\nall children killed and reaped: yes\nfork and wait work again: yes\n"
    );
    assert_eq!(r.status, Some(0));
}

/// Boot with no initramfs: the kernel runs its built-in self-test, exit 0.
#[test]
fn kernel_selftest() {
    let mut cfg = common::config();
    cfg.quiet = true;
    let r = sigil_qemu::run(&cfg);
    assert!(!r.oopsed(), "kernel oops:\n{}", r.console);
    assert_eq!(
        r.exit_code(),
        0,
        "self-test failed\nconsole:\n{}\nqemu stderr:\n{}",
        r.console,
        r.stderr
    );
}

/// The `sigil-run` command itself: arguments after `--`, `--quiet`, `--output`
/// and the exit status.
#[test]
fn sigil_run_command_line() {
    let out_file = std::env::temp_dir().join(format!("sigil-run-cli-{}.txt", std::process::id()));
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_sigil-run"))
        .args(["--board", &common::board(), "--kernel"])
        .arg(common::kernel())
        .arg("--init")
        .arg(program("hello"))
        .args(["--quiet", "--timeout", "60", "--output"])
        .arg(&out_file)
        .args(["--", "cli-arg"])
        .output()
        .expect("run sigil-run");
    let stdout = String::from_utf8_lossy(&run.stdout).replace("\r\n", "\n");
    let saved = std::fs::read_to_string(&out_file).unwrap_or_default();
    let _ = std::fs::remove_file(&out_file);
    assert_eq!(
        run.status.code(),
        Some(7),
        "stdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    has_lines(&stdout, &["argc=2", "argv[1]=cli-arg"]);
    assert!(!stdout.contains("@@SIGIL-EXIT"), "--quiet must hide the marker:\n{stdout}");
    assert_eq!(saved.replace("\r\n", "\n"), stdout);
}

/// Sigil's own Rust runtime (user/ulib): entry, arguments (a quoted one with
/// a space and an empty one cross the kernel command line intact), fork, wait4.
#[test]
fn rs_hello() {
    let out = compare("rs_hello", &["a", "b c", ""]);
    has_lines(
        &out,
        &[
            "hello from Rust: 4 arguments",
            "  argv[2] = b c",
            "  argv[3] = ",
            "child reaped: Exited(7)",
        ],
    );
}
