//! sigil-qemu: boots Sigil in QEMU with a program as PID 1 and reports how it ended.
//!
//! The boot protocol (the kernel implements the other half):
//! - the command is the board's `QEMU_CMD` + `-kernel K -device loader,file=K,cpu-num=0`
//!   + `-initrd <cpio>` (only when there is an init) + `-append "<cmdline>"` + extra flags;
//! - the initramfs ([`initramfs`]) holds Sigil's init as `/sbin/init` (PID 1,
//!   user/ulib/src/bin/sigil_init.rs), the program as `/init` (init's child),
//!   the test programs under `/bin/` and any extra files;
//! - the command line is the boot options, then ` -- ` and the program's
//!   arguments (its argv[0] is always "/init"); `quiet` is one of the boot options;
//! - the kernel's last output is `@@SIGIL-EXIT <n>@@` ([`console`]), after which QEMU
//!   powers off; QEMU's own exit status means nothing.
//!
//! [`run`] is the library entry the integration tests use; `sigil-run` (main.rs) is
//! the command-line face of the same call. [`run_fed`] also gives the guest's
//! console an [`Input`] (QEMU's stdin, which is the serial line); [`session`]
//! drives a console from a test the way `expect` does. [`reference::run`] runs a program under
//! qemu-ppc, Linux's behaviour, for comparison. [`trace`] reads the signal trace
//! a console holds (`sigil-trace`, src/bin/, draws it). [`linux`] boots
//! Linux 6.1 on the same machine with the benchmark programs (`make bench-linux`).

pub mod bench;
pub mod board;
pub mod console;
pub mod docgen;
pub mod framedoc;
pub mod initramfs;
pub mod linux;
pub mod process;
pub mod reference;
pub mod session;
pub mod symbols;
pub mod trace;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command};
use std::time::Duration;

pub use initramfs::ExtraFile;

/// Exit status of `sigil-run` when the run timed out.
pub const EXIT_TIMEOUT: i32 = 124;
/// Exit status of `sigil-run` when QEMU ended without an exit marker.
pub const EXIT_NO_MARKER: i32 = 125;

/// After the marker, how long QEMU may take to power off before it is killed.
const POWER_OFF_GRACE: Duration = Duration::from_secs(2);

/// Everything one boot needs.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// Board name (`boards/<name>.mk`) or a path to a board file.
    pub board: String,
    /// The kernel ELF.
    pub kernel: PathBuf,
    /// The program to run (as `/init`, the child of Sigil's init); `None`
    /// boots without an initramfs (the kernel then runs its built-in self-test).
    pub init: Option<PathBuf>,
    /// Sigil's init, PID 1 (`/sbin/init`): by default the one `make user`
    /// builds, target/user/sigil_init.
    pub sigil_init: PathBuf,
    /// Every file of this directory goes into the initramfs as `/bin/<name>`.
    pub bin_dir: Option<PathBuf>,
    /// More files for the initramfs.
    pub extra_files: Vec<ExtraFile>,
    /// Boot options (`signal.dequeue=copy`...), one word each. `quiet` is added
    /// by `quiet`, no need to list it.
    pub boot_opts: Vec<String>,
    /// init's argv[1..].
    pub init_args: Vec<String>,
    /// Boot with `quiet` and leave the marker out of what is shown.
    pub quiet: bool,
    /// Wall-clock limit for the whole boot.
    pub timeout: Duration,
    /// Extra QEMU arguments, appended last.
    pub qemu_flags: Vec<String>,
}

impl RunConfig {
    /// A configuration with the defaults: no init, not quiet, 60 s.
    pub fn new(board: &str, kernel: impl Into<PathBuf>) -> RunConfig {
        RunConfig {
            board: board.to_owned(),
            kernel: kernel.into(),
            init: None,
            sigil_init: repo_root().join("target/user/sigil_init"),
            bin_dir: None,
            extra_files: Vec::new(),
            boot_opts: Vec::new(),
            init_args: Vec::new(),
            quiet: false,
            timeout: Duration::from_secs(60),
            qemu_flags: Vec::new(),
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone)]
pub struct RunResult {
    /// The console before the exit marker (`\r\n` folded to `\n`).
    pub console: String,
    /// The status from the exit marker: PID 1's exit status, 128 + signo if a
    /// signal killed it, 255 after a kernel oops. `None` without a marker.
    pub status: Option<i32>,
    /// The deadline passed before the marker arrived.
    pub timed_out: bool,
    /// What QEMU printed on stderr, or why it could not be started.
    pub stderr: String,
}

impl RunResult {
    /// The exit status `sigil-run` reports: the marker's, or 124 on timeout,
    /// or 125 when QEMU ended (or could not start) without a marker.
    pub fn exit_code(&self) -> i32 {
        match (self.status, self.timed_out) {
            (Some(n), _) => n,
            (None, true) => EXIT_TIMEOUT,
            (None, false) => EXIT_NO_MARKER,
        }
    }

    /// True if the kernel reported an oops.
    pub fn oopsed(&self) -> bool {
        self.console.lines().any(|l| l.starts_with("SIGIL OOPS"))
    }
}

/// The repository root: the parent of this crate.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("qemu/ has a parent").to_path_buf()
}

/// The kernel command line: boot options, then `--` and init's arguments.
pub fn cmdline(cfg: &RunConfig) -> Result<String, String> {
    let mut words: Vec<&str> = Vec::new();
    if cfg.quiet && !cfg.boot_opts.iter().any(|o| o == "quiet") {
        words.push("quiet");
    }
    words.extend(cfg.boot_opts.iter().map(String::as_str));
    if !cfg.init_args.is_empty() {
        words.push("--");
        words.extend(cfg.init_args.iter().map(String::as_str));
    }
    if let Some(bad) = words
        .iter()
        .find(|w| w.contains('"') || w.contains(|c: char| c.is_whitespace() && c != ' '))
    {
        return Err(format!("kernel command line word {bad:?} has a double quote or a tab/newline, which the command line cannot carry"));
    }
    // The kernel splits at spaces; a word that has one, or is empty, goes in
    // double quotes (Linux's rule, parsed by sigil_core::cmdline).
    let quoted: Vec<String> = words
        .iter()
        .map(|w| if w.is_empty() || w.contains(' ') { format!("\"{w}\"") } else { w.to_string() })
        .collect();
    Ok(quoted.join(" "))
}

/// What the guest's console receives: QEMU's stdin is its serial line.
pub enum Input {
    /// Nothing: programs that read the console wait.
    Nothing,
    /// Keys, as a terminal sends them: passed on unchanged, with no end (a
    /// terminal's user types ^D). The runner's own terminal, or a test's
    /// [`session::Session`].
    Keys(Box<dyn Read + Send>),
    /// A stream that ends (a pipe or a file): framed by
    /// `sigil_core::tty::link`, the kernel booted with `console=pipe`, so
    /// the guest reads every byte and then end of file, never earlier.
    Stream(Box<dyn Read + Send>),
}

/// Boot and wait, without showing anything.
pub fn run(cfg: &RunConfig) -> RunResult {
    run_with(cfg, |_| {})
}

/// Boot and wait, handing `show` the console bytes as they arrive: all of
/// them, or with `quiet` only those before the exit marker.
pub fn run_with(cfg: &RunConfig, show: impl FnMut(&[u8])) -> RunResult {
    run_fed(cfg, Input::Nothing, |_| {}, show)
}

/// `run_with`, the console reading `input`. `started` gets QEMU's pid (the
/// id of the process group it leads), for a runner that must stop it.
pub fn run_fed(
    cfg: &RunConfig,
    input: Input,
    started: impl FnOnce(u32) + Send + 'static,
    mut show: impl FnMut(&[u8]),
) -> RunResult {
    let failed = |msg: String| RunResult {
        console: String::new(),
        status: None,
        timed_out: false,
        stderr: format!("sigil-run: {msg}\n"),
    };
    let scratch = match initramfs::ScratchDir::new("sigil-run") {
        Ok(d) => d,
        Err(e) => return failed(e),
    };
    let mut cfg = cfg.clone();
    if matches!(input, Input::Stream(_)) {
        cfg.boot_opts.push("console=pipe".into());
    }
    let cmd = match qemu_command(&cfg, &scratch) {
        Ok(c) => c,
        Err(e) => return failed(e),
    };
    let feed: process::Feed = Box::new(move |stdin, pid| {
        started(pid);
        feed_console(input, stdin)
    });
    let mut console = console::Console::new();
    let finished = process::run(cmd, cfg.timeout, Some(feed), |chunk| {
        let before_marker = console.push(chunk);
        show(if cfg.quiet { &before_marker } else { chunk });
        match console.status() {
            Some(_) => process::Next::Finish { grace: POWER_OFF_GRACE },
            None => process::Next::More,
        }
    });
    let status = console.status();
    let console = console.finish();
    match finished {
        Ok(f) => RunResult {
            console,
            status,
            timed_out: f.timed_out && status.is_none(),
            stderr: f.stderr,
        },
        Err(e) => RunResult { console, status, timed_out: false, stderr: e },
    }
}

/// Copies `input` to QEMU's stdin, framed if it is a stream. A write blocks
/// while QEMU does not read, and QEMU reads only while the UART has room,
/// which the kernel frees only as it has buffer space: so the sender is held
/// back at every stage and nothing is dropped. Returns when the input ends
/// or QEMU is gone.
fn feed_console(input: Input, mut stdin: ChildStdin) {
    let (mut src, framed): (Box<dyn Read + Send>, bool) = match input {
        Input::Nothing => return,
        Input::Keys(r) => (r, false),
        Input::Stream(r) => (r, true),
    };
    let mut buf = [0u8; 4096];
    let mut wire = Vec::with_capacity(2 * buf.len() + 2);
    loop {
        wire.clear();
        let n = match src.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => 0,
        };
        if n == 0 && !framed {
            // A terminal that went away: leave the line open, as unplugging
            // a serial cable does.
            return;
        }
        if framed {
            sigil_core::tty::link::encode(&buf[..n], &mut wire);
            if n == 0 {
                wire.extend([sigil_core::tty::link::ESC, sigil_core::tty::link::END]);
            }
        } else {
            wire.extend_from_slice(&buf[..n]);
        }
        if stdin.write_all(&wire).and_then(|()| stdin.flush()).is_err() || n == 0 {
            return;
        }
    }
}

/// The full QEMU command for `cfg`; the initramfs is written into `scratch`.
/// Writes to `path` the initramfs a boot of `cfg` with `init` as the
/// program gets (what QEMU loads with -initrd, or U-Boot as a ramdisk).
pub fn write_initramfs(cfg: &RunConfig, init: &Path, path: &Path) -> Result<(), String> {
    let cpio = initramfs::build(&cfg.sigil_init, init, cfg.bin_dir.as_deref(), &cfg.extra_files)?;
    std::fs::write(path, cpio).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

pub fn qemu_command(cfg: &RunConfig, scratch: &initramfs::ScratchDir) -> Result<Command, String> {
    let board = board::Board::load(&repo_root(), &cfg.board)?;
    let words = board.qemu_cmd()?;
    if !cfg.kernel.is_file() {
        return Err(format!("kernel {} not found", cfg.kernel.display()));
    }
    let kernel = cfg.kernel.display().to_string();
    if kernel.contains(',') {
        return Err(format!(
            "kernel path {kernel} contains a comma, which -device loader cannot take"
        ));
    }
    let mut cmd = Command::new(&words[0]);
    cmd.args(&words[1..]);
    cmd.arg("-kernel").arg(&cfg.kernel);
    cmd.arg("-device").arg(format!("loader,file={kernel},cpu-num=0"));
    match &cfg.init {
        Some(init) => {
            let path = scratch.path().join("initramfs.cpio");
            write_initramfs(cfg, init, &path)?;
            cmd.arg("-initrd").arg(path);
        }
        None if cfg.bin_dir.is_some() || !cfg.extra_files.is_empty() => {
            return Err(
                "--bin-dir and extra files need --init: without an init there is no initramfs"
                    .into(),
            );
        }
        None => {}
    }
    let mut booted = cfg.clone();
    booted.boot_opts.splice(0..0, board.boot_opts());
    cmd.arg("-append").arg(cmdline(&booted)?);
    cmd.args(&cfg.qemu_flags);
    Ok(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmdline_layout() {
        let mut cfg = RunConfig::new("g3beige", "k");
        assert_eq!(cmdline(&cfg).unwrap(), "");
        cfg.quiet = true;
        cfg.boot_opts = vec!["signal.dequeue=copy".into()];
        assert_eq!(cmdline(&cfg).unwrap(), "quiet signal.dequeue=copy");
        cfg.init_args = vec!["a".into(), "10".into()];
        assert_eq!(cmdline(&cfg).unwrap(), "quiet signal.dequeue=copy -- a 10");
        cfg.init_args.push("two words".into());
        cfg.init_args.push(String::new());
        assert_eq!(cmdline(&cfg).unwrap(), "quiet signal.dequeue=copy -- a 10 \"two words\" \"\"");
        cfg.init_args.push("say \"hi\"".into());
        assert!(cmdline(&cfg).is_err());
    }

    #[test]
    fn exit_codes() {
        let r = |status, timed_out| RunResult {
            console: String::new(),
            status,
            timed_out,
            stderr: String::new(),
        };
        assert_eq!(r(Some(7), false).exit_code(), 7);
        assert_eq!(r(None, true).exit_code(), EXIT_TIMEOUT);
        assert_eq!(r(None, false).exit_code(), EXIT_NO_MARKER);
    }

    /// A stand-in for QEMU: a script that prints its arguments the way a kernel
    /// would print a console, then the marker, then lingers like a QEMU that
    /// did not power off. Checks the command line, the initramfs flag, the
    /// marker handling and that the run does not wait for the lingering.
    #[test]
    fn whole_run_against_a_fake_qemu() {
        use std::os::unix::fs::PermissionsExt;
        let scratch = initramfs::ScratchDir::new("sigil-fake-qemu").unwrap();
        let fake = scratch.path().join("fake-qemu");
        std::fs::write(&fake, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\r\\n' \"$a\"; done\nprintf 'out@@SIGIL-EX'\nprintf 'IT 42@@\\r\\n'\nexec sleep 30\n").unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let board = scratch.path().join("fake.mk");
        std::fs::write(&board, format!("# fake board\nQEMU_CMD = {} -M test\n", fake.display()))
            .unwrap();
        let init = scratch.path().join("init");
        std::fs::write(&init, b"\x7fELF").unwrap();

        let mut cfg = RunConfig::new(board.to_str().unwrap(), &init);
        cfg.init = Some(init.clone());
        cfg.sigil_init = init.clone();
        cfg.quiet = true;
        cfg.init_args = vec!["x".into()];
        cfg.qemu_flags = vec!["-S".into()];
        let mut shown = Vec::new();
        let start = std::time::Instant::now();
        let r = run_with(&cfg, |b| shown.extend_from_slice(b));
        assert!(start.elapsed() < POWER_OFF_GRACE + Duration::from_secs(3));
        assert_eq!(r.status, Some(42), "{r:?}");
        assert!(!r.timed_out);
        let args: Vec<&str> = r.console.lines().collect();
        let k = init.display().to_string();
        let loader = format!("loader,file={k},cpu-num=0");
        assert_eq!(&args[..7], ["-M", "test", "-kernel", &k, "-device", &loader, "-initrd"]);
        assert!(args[7].ends_with("initramfs.cpio"));
        assert_eq!(&args[8..], ["-append", "quiet -- x", "-S", "out"]);
        assert_eq!(String::from_utf8(shown).unwrap(), r.console);
    }

    #[test]
    fn missing_kernel_is_reported_not_run() {
        let r = run(&RunConfig::new("g3beige", "/nonexistent/sigil.elf"));
        assert_eq!(r.exit_code(), EXIT_NO_MARKER);
        assert!(r.stderr.contains("not found"), "{}", r.stderr);
    }
}
