//! reference: runs a ppc32 program under qemu-ppc, Linux's behaviour, for comparison.
//!
//! The program gets the same world it has as Sigil's PID 1 as far as a test can
//! see: argv[1..] as given, the environment [`INIT_ENV`] and nothing else, no
//! stdin, and a fresh working directory holding the extra files at the same
//! relative paths they have in the initramfs (so `bin/bad-elf-text` works in
//! both, given as `/bin/...` to Sigil and `bin/...` here). RLIMIT_CORE is 0, so
//! nothing dumps core into that directory. Only stdout is compared; qemu-ppc's
//! own complaints ("qemu: uncaught target signal ...") arrive on stderr.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::initramfs::{ExtraFile, ScratchDir};
use crate::process;
use crate::RunResult;

/// The environment Sigil passes to /init: Linux's default for init
/// (`envp_init` in init/main.c). The reference run gets exactly this.
pub const INIT_ENV: &[(&str, &str)] = &[("HOME", "/"), ("TERM", "linux")];

/// Run `program args...` under qemu-ppc with `files` in its working directory.
/// `console` is its stdout; `status` its exit code or 128 + signo; `timed_out`
/// if it (with all it forked) was killed after `timeout`.
pub fn run(program: &Path, args: &[String], files: &[ExtraFile], timeout: Duration) -> RunResult {
    let failed = |msg: String| RunResult {
        console: String::new(),
        status: None,
        timed_out: false,
        stderr: msg,
    };
    let qemu = match find_in_path("qemu-ppc") {
        Some(q) => q,
        None => return failed("qemu-ppc not found in PATH (Debian package qemu-user)".into()),
    };
    let program = match program.canonicalize() {
        Ok(p) => p,
        Err(e) => return failed(format!("{}: {e}", program.display())),
    };
    let scratch = match ScratchDir::new("sigil-ref").and_then(|d| d.populate(files).map(|()| d)) {
        Ok(d) => d,
        Err(e) => return failed(e),
    };
    // sh sets the core limit and then becomes qemu-ppc (same pid, same group);
    // it unsets the PWD it exports by itself, so the guest sees INIT_ENV only.
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg("ulimit -c 0 && unset PWD && exec \"$0\" \"$@\"")
        .arg(qemu)
        .arg(&program)
        .args(args);
    cmd.current_dir(scratch.path()).env_clear().envs(INIT_ENV.iter().copied());
    let mut out = Vec::new();
    match process::run(cmd, timeout, |chunk| {
        out.extend_from_slice(chunk);
        process::Next::More
    }) {
        Ok(f) => RunResult {
            console: String::from_utf8_lossy(&out).into_owned(),
            status: f.status,
            timed_out: f.timed_out,
            stderr: f.stderr,
        },
        Err(e) => failed(e),
    }
}

/// The first executable `name` in $PATH.
fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_program_is_an_error_not_a_hang() {
        let r = run(Path::new("/nonexistent/prog"), &[], &[], Duration::from_secs(5));
        assert_eq!(r.status, None);
        assert!(!r.stderr.is_empty());
    }
}
