//! The labs of docs/labs/: each lab's check, and proof that the check means
//! something. `make lab-check N=<n>` runs `check_lab<n>` alone.
//!
//! - `check_lab<n>`: the lab's check on this tree. The shipped tree is every
//!   lab's solution, so all pass here; after `make lab N=<n>` the one for lab
//!   n fails until the exercise is done.
//! - `patches_apply`: every docs/labs/<n>/start.patch applies to this tree
//!   and only edits files that exist (cheap: `git apply --check`).
//! - `lab<n>_fails_at_its_start`: copies the tree to target/labs/tree/,
//!   applies the patch there and runs the check, which must fail - for the
//!   lab's reason: the starting point builds, and only the check's assertions
//!   fail. The labs take the copy in turn, and it persists between runs, so
//!   each build after the first recompiles only what a patch touched.
//!
//! Cost of the `fails_at_its_start` tests, measured on a loaded 2-core
//! machine: a host lab (1-3) builds sigil-core's unit tests in the copy; a
//! boot lab (4-6) builds a kernel there. The copy's first kernel build
//! starts from this checkout's build directory (`seed_build_dir`), so core
//! and alloc are not compiled again: a cold build in a fresh copy took 6.0
//! minutes without that, and the whole file now takes 5.9 minutes from a
//! cold copy, compiling it, the nested builds and the boots included. Later
//! runs rebuild only what the patches touch.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

use sigil_qemu::trace::{self, Kind};
use sigil_qemu::{repo_root, RunConfig, RunResult};

/// How a lab is checked.
enum Check {
    /// sigil-core's host unit tests whose path contains this filter must pass.
    Host(&'static str),
    /// A boot of the lab's kernel (the ELF given), asserted by the function.
    Boot(fn(&Path) -> Result<(), String>),
}

/// The labs, by number (docs/labs/<n>/).
const LABS: [Check; 6] = [
    Check::Host("signal::action::tests"),
    Check::Host("signal::altstack::tests"),
    Check::Host("signal::frame::tests"),
    Check::Boot(sync_ptr_in_one_window),
    Check::Boot(default_actions_traced),
    Check::Boot(alarm_handler_runs),
];

/// Runs lab `n`'s check on the tree at `root` (its kernel already built).
fn check(n: usize, root: &Path) -> Result<(), String> {
    match LABS[n - 1] {
        Check::Host(filter) => host_tests(root, filter),
        Check::Boot(f) => f(&root.join("target/kernel").join(common::board()).join("sigil.elf")),
    }
}

/// `cargo test -p sigil-core --lib <filter>` in `root`, in the debug
/// profile: not the host one, whose build directory the cargo running this
/// file holds locked.
fn host_tests(root: &Path, filter: &str) -> Result<(), String> {
    let out = run_in(
        root,
        Command::new("/usr/bin/cargo").args(["test", "-q", "-p", "sigil-core", "--lib", filter]),
    );
    let text = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    if out.status.success() {
        return Ok(());
    }
    if text.contains("test result: FAILED") {
        Err(format!("sigil-core's tests {filter} fail:\n{text}"))
    } else {
        panic!("sigil-core's tests did not build in {}:\n{text}", root.display())
    }
}

fn run_in(dir: &Path, cmd: &mut Command) -> Output {
    cmd.current_dir(dir).output().unwrap_or_else(|e| panic!("{cmd:?} in {}: {e}", dir.display()))
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A boot of `kernel` with `prog` as /init and `opts`, as `common::config`
/// sets one up, checked for a timeout and an oops.
fn boot(kernel: &Path, prog: &str, opts: &[&str], args: &[&str]) -> RunResult {
    let mut cfg = RunConfig::new(&common::board(), kernel);
    cfg.qemu_flags = common::ICOUNT.iter().map(|s| s.to_string()).collect();
    cfg.timeout = common::SIGIL_TIMEOUT;
    cfg.init = Some(common::program(prog));
    cfg.quiet = true;
    cfg.boot_opts = opts.iter().map(|s| s.to_string()).collect();
    cfg.init_args = args.iter().map(|s| s.to_string()).collect();
    let r = sigil_qemu::run(&cfg);
    assert!(!r.timed_out, "{prog}: timeout\n{}", r.console);
    assert!(!r.oopsed(), "{prog}: kernel oops\n{}", r.console);
    r
}

/// Lab 4: under `pcm.sync_ptr=window`, SYNC_PTR opens two windows (one to
/// read the inputs, one to write the answer), and playback still passes all
/// its checks.
fn sync_ptr_in_one_window(kernel: &Path) -> Result<(), String> {
    let r = boot(kernel, "pcm_syncptr_bench", &["pcm.sync_ptr=window"], &["2000"]);
    let line = r.console.lines().find(|l| l.starts_with("pcm_syncptr_bench: ")).unwrap_or("");
    if r.status != Some(0) || !line.ends_with(" 2.00 windows each") {
        return Err(format!("expected 2.00 windows per SYNC_PTR, got {line:?}\n{}", r.console));
    }
    let r = boot(kernel, "pcm_play", &["pcm.sync_ptr=window"], &[]);
    let last = r.console.lines().last().unwrap_or("");
    if r.status != Some(0) || !last.ends_with(" passed, 0 failed") {
        return Err(format!("pcm_play fails under pcm.sync_ptr=window:\n{}", r.console));
    }
    Ok(())
}

/// Lab 5: sig_default's children are killed, dumped (no core: RLIMIT_CORE
/// is 0) and stopped by default actions; the trace shows each as a `default`
/// event, and the SVG labels it. (The ignored ones, and SIGCONT, are dropped
/// when generated: the trace shows them as `queue result=ignored`.)
fn default_actions_traced(kernel: &Path) -> Result<(), String> {
    let r = boot(kernel, "sig_default", &["trace=signal"], &[]);
    let events = trace::parse(&r.console)?;
    let defaults: BTreeSet<(u32, &str)> = events
        .iter()
        .filter(|e| e.kind == Kind::Default)
        .filter_map(|e| Some((e.signo()?, e.get("action")?)))
        .collect();
    for want in [(15, "terminate"), (11, "core"), (19, "stop")] {
        if !defaults.contains(&want) {
            return Err(format!(
                "no `@sig default signo={} action={}` in:\n{}",
                want.0, want.1, r.console
            ));
        }
    }
    let svg = trace::svg(&events, "sig_default");
    if !svg.contains("SIGTERM: terminate") {
        return Err("the SVG has no \"SIGTERM: terminate\" label".into());
    }
    Ok(())
}

/// Lab 6: alarmtest (xv6's alarm lab on ITIMER_VIRTUAL and SIGVTALRM)
/// passes its four tests; at the lab's start no alarm ever comes.
fn alarm_handler_runs(kernel: &Path) -> Result<(), String> {
    let r = boot(kernel, "alarmtest", &[], &[]);
    if r.status != Some(0) || !r.console.contains("alarmtest: all passed") {
        return Err(format!("alarmtest fails:\n{}", r.console));
    }
    Ok(())
}

#[test]
fn check_lab1() {
    check(1, &repo_root()).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn check_lab2() {
    check(2, &repo_root()).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn check_lab3() {
    check(3, &repo_root()).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn check_lab4() {
    check(4, &repo_root()).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn check_lab5() {
    check(5, &repo_root()).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn check_lab6() {
    check(6, &repo_root()).unwrap_or_else(|e| panic!("{e}"));
}

fn patch(n: usize) -> PathBuf {
    repo_root().join(format!("docs/labs/{n}/start.patch"))
}

#[test]
fn patches_apply() {
    for n in 1..=LABS.len() {
        let p = patch(n);
        let text = fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(!text.contains("\n--- /dev/null"), "lab {n}: the patch creates a file");
        assert!(!text.contains("\n+++ /dev/null"), "lab {n}: the patch deletes a file");
        let out = run_in(&repo_root(), Command::new("git").arg("apply").arg("--check").arg(&p));
        assert!(
            out.status.success(),
            "lab {n}: {} no longer applies (docs/labs/README.md says how to refresh it):\n{}",
            p.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The files of the tree as git sees them (tracked, and new ones not ignored).
fn tree_files(root: &Path) -> BTreeSet<PathBuf> {
    let out =
        run_in(root, Command::new("git").args(["ls-files", "-co", "--exclude-standard", "-z"]));
    assert!(out.status.success(), "git ls-files failed");
    stdout(&out).split('\0').filter(|f| !f.is_empty()).map(PathBuf::from).collect()
}

/// Makes `dest` hold the tree's files: a file is written only if its bytes
/// differ (so cargo, which compares times, rebuilds exactly what changed),
/// and a file the tree no longer has is removed (build output is kept).
fn sync_copy(root: &Path, dest: &Path) {
    let files = tree_files(root);
    for f in &files {
        let (src, dst) = (root.join(f), dest.join(f));
        let Ok(bytes) = fs::read(&src) else { continue }; // deleted, not yet committed
        if fs::read(&dst).ok().as_deref() != Some(&bytes[..]) {
            fs::create_dir_all(dst.parent().unwrap()).unwrap();
            fs::write(&dst, &bytes).unwrap_or_else(|e| panic!("{}: {e}", dst.display()));
        }
    }
    prune(dest, Path::new(""), &files);
}

fn prune(dest: &Path, rel: &Path, keep: &BTreeSet<PathBuf>) {
    let Ok(entries) = fs::read_dir(dest.join(rel)) else { return };
    for e in entries.flatten() {
        let r = rel.join(e.file_name());
        if r == Path::new("target") {
            continue;
        }
        if e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            prune(dest, &r, keep);
        } else if !keep.contains(&r) {
            fs::remove_file(dest.join(&r)).unwrap();
        }
    }
}

/// The copy's first kernel build starts from this checkout's build
/// directory, minus Sigil's own crates: core, alloc and compiler_builtins
/// (built from source for the kernel target, most of a cold build) are
/// then fresh, since nothing in their build depends on where the tree is
/// (kernel/build.rs gives the linker script to the kernel's link alone).
/// Sigil's crates must go: cargo names a workspace crate's build by its
/// path inside the workspace, so the copy's would look like this tree's
/// and be judged by file times; the copy builds its own from scratch.
fn seed_build_dir(from: &Path, to: &Path) {
    let Ok(entries) = fs::read_dir(from) else { return }; // not built: the copy builds all
    fs::create_dir_all(to).unwrap();
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("sigil") || name.starts_with("libsigil") {
            continue;
        }
        let (src, dst) = (e.path(), to.join(&*name));
        if e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            seed_build_dir(&src, &dst);
        } else {
            fs::copy(&src, &dst).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
        }
    }
}

/// The one copy of the tree the labs' starting points are built in, one lab
/// at a time: a kernel lab after another rebuilds only what the patches touch.
static COPY: Mutex<()> = Mutex::new(());

/// Lab `n` at its starting point, in target/labs/tree/: its check must fail.
fn fails_at_its_start(n: usize) {
    let _one_at_a_time = COPY.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let root = repo_root();
    let labs = root.join("target/labs");
    let copy = labs.join("tree");
    sync_copy(&root, &copy);
    let build = Path::new("target/kernel-build").join(common::board());
    if !copy.join(&build).exists() {
        seed_build_dir(&root.join(&build), &copy.join(&build));
    }
    // The ceiling keeps git from finding this repository above the copy, so
    // `git apply` patches the copy's files, as it would a checkout's.
    let out = run_in(
        &copy,
        Command::new("git").env("GIT_CEILING_DIRECTORIES", &labs).arg("apply").arg(patch(n)),
    );
    assert!(out.status.success(), "lab {n}: {}", String::from_utf8_lossy(&out.stderr));
    if let Check::Boot(_) = LABS[n - 1] {
        let board = format!("BOARD={}", common::board());
        let out = run_in(&copy, Command::new("make").args(["-s", "kernel", &board]));
        assert!(
            out.status.success(),
            "lab {n}: the starting point's kernel does not build:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let result = check(n, &copy);
    assert!(result.is_err(), "lab {n}: the check passes at the lab's starting point");
}

#[test]
fn lab1_fails_at_its_start() {
    fails_at_its_start(1);
}

#[test]
fn lab2_fails_at_its_start() {
    fails_at_its_start(2);
}

#[test]
fn lab3_fails_at_its_start() {
    fails_at_its_start(3);
}

#[test]
fn lab4_fails_at_its_start() {
    fails_at_its_start(4);
}

#[test]
fn lab5_fails_at_its_start() {
    fails_at_its_start(5);
}

#[test]
fn lab6_fails_at_its_start() {
    fails_at_its_start(6);
}
