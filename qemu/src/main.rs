//! sigil-run: boot Sigil in QEMU with a program as PID 1; exit with its status.
//!
//! ```text
//! sigil-run --board <name> --kernel <elf> [--init <elf>] [--bin-dir <dir>] [--busybox <dir>] [--quiet]
//!           [--append "<boot options>"] [--timeout S] [--qemu-flags "<flags>"] [--docs-clock]
//!           [--output <file>] [--write-initramfs <file>] [-- args for init...]
//! ```
//! The console is copied to stdout as it arrives (without the exit marker with
//! `--quiet`) and, with `--output`, to a file. Exit status: PID 1's (128 + signo
//! if a signal killed it, 255 after a kernel oops), 124 on timeout, 125 if QEMU
//! ended without the exit marker, 130 after the quit key, 2 for a usage error.
//! After an oops it names the reported addresses from the kernel ELF's debug
//! info (symbols.rs).
//! `--docs-clock` boots with the clocks of the docs' runs (`docgen::DOCS_CLOCK`:
//! guest time in instructions, a fixed wall clock), so a trace's `t=` values
//! are the ones docs/signals.md shows. `--write-initramfs` writes the archive a boot would get (for a board that
//! U-Boot boots: `make initrd`) and exits without booting.
//!
//! The console's input is stdin: a terminal is put in raw mode and its keys
//! go to the guest as typed (Ctrl-A x quits, see terminal.rs); a pipe or a
//! file is read to its end, which the guest then sees as end of file.

use std::io::Write;
use std::path::PathBuf;
use std::process::exit;
use std::time::Duration;

use sigil_qemu::{run_fed, Input, RunConfig, EXIT_NO_MARKER, EXIT_TIMEOUT};

mod terminal;

const USAGE: &str =
    "usage: sigil-run --board <name> --kernel <elf> [--init <elf>] [--bin-dir <dir>] [--busybox <dir>] [--quiet]
                 [--append \"<boot options>\"] [--timeout S] [--qemu-flags \"<flags>\"] [--docs-clock]
                 [--output <file>] [--write-initramfs <file>] [-- args for init...]";

/// Exit status after the quit key (Ctrl-A x), as for a Ctrl-C'd program.
const EXIT_QUIT: i32 = 130;

/// The limit of a run from a terminal without --timeout: a day.
const INTERACTIVE_TIMEOUT: Duration = Duration::from_secs(86_400);

/// The parsed command line.
struct Cli {
    cfg: RunConfig,
    output: Option<PathBuf>,
    /// --timeout was given (else an interactive run has no limit).
    timeout_given: bool,
    /// --write-initramfs: write the archive there instead of booting.
    write_initramfs: Option<PathBuf>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Cli, String> {
    let mut cfg = RunConfig::new("", PathBuf::new());
    let (mut board, mut kernel, mut output, mut busybox) = (None, None, None, None);
    let mut write_initramfs = None;
    let mut timeout_given = false;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--board" => board = Some(value("--board")?),
            "--kernel" => kernel = Some(PathBuf::from(value("--kernel")?)),
            "--init" => cfg.init = Some(PathBuf::from(value("--init")?)),
            "--bin-dir" => cfg.bin_dir = Some(PathBuf::from(value("--bin-dir")?)),
            "--busybox" => busybox = Some(PathBuf::from(value("--busybox")?)),
            "--quiet" => cfg.quiet = true,
            "--append" => {
                cfg.boot_opts.extend(value("--append")?.split_whitespace().map(str::to_owned))
            }
            "--qemu-flags" => {
                cfg.qemu_flags.extend(value("--qemu-flags")?.split_whitespace().map(str::to_owned))
            }
            "--docs-clock" => {
                cfg.qemu_flags.extend(sigil_qemu::docgen::DOCS_CLOCK.iter().map(|s| s.to_string()))
            }
            "--output" => output = Some(PathBuf::from(value("--output")?)),
            "--write-initramfs" => {
                write_initramfs = Some(PathBuf::from(value("--write-initramfs")?))
            }
            "--timeout" => {
                let v = value("--timeout")?;
                let secs: f64 =
                    v.parse().map_err(|_| format!("--timeout {v}: not a number of seconds"))?;
                cfg.timeout = Duration::try_from_secs_f64(secs)
                    .map_err(|_| format!("--timeout {v}: out of range"))?;
                timeout_given = true;
            }
            "--" => cfg.init_args.extend(args.by_ref()),
            "-h" | "--help" => {
                println!("{USAGE}");
                exit(0);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    cfg.board = board.ok_or("--board is required")?;
    cfg.kernel = kernel.ok_or("--kernel is required")?;
    if !cfg.init_args.is_empty() && cfg.init.is_none() {
        return Err("arguments after -- are for --init, which is missing".into());
    }
    if let Some(dir) = busybox {
        let files = sigil_qemu::initramfs::busybox(&dir, cfg.bin_dir.as_deref())?;
        cfg.extra_files.extend(files);
    }
    if write_initramfs.is_some() && cfg.init.is_none() {
        return Err("--write-initramfs needs --init".into());
    }
    Ok(Cli { cfg, output, timeout_given, write_initramfs })
}

fn main() {
    let mut cli = match parse(std::env::args().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sigil-run: {e}\n{USAGE}");
            exit(2);
        }
    };
    if let Some(path) = &cli.write_initramfs {
        let cfg = &cli.cfg;
        let init = cfg.init.as_deref().expect("parse checked --init");
        if let Err(e) = sigil_qemu::write_initramfs(cfg, init, path) {
            eprintln!("sigil-run: {e}");
            exit(1);
        }
        exit(0);
    }
    let mut shown = Vec::new();
    let stdout = std::io::stdout();
    // A terminal's keys go to the guest raw (Ctrl-A x quits); a pipe or a
    // file is a stream the guest reads to its end.
    let raw = terminal::stdin_is_terminal().then(terminal::Raw::enter).flatten();
    if raw.is_some() && !cli.timeout_given {
        // Someone at the keyboard: the session lasts as long as they like.
        cli.cfg.timeout = INTERACTIVE_TIMEOUT;
    }
    let input = match raw {
        Some(_) => Input::Keys(Box::new(terminal::Keys::new())),
        None => Input::Stream(Box::new(std::io::stdin())),
    };
    let result = run_fed(&cli.cfg, input, terminal::qemu_started, |bytes| {
        let mut out = stdout.lock();
        // A closed stdout (`sigil-run ... | head`) must not stop the run.
        let _ = out.write_all(bytes).and_then(|()| out.flush());
        shown.extend_from_slice(bytes);
    });
    drop(raw);
    if terminal::QUIT.load(std::sync::atomic::Ordering::Relaxed) {
        eprintln!("\r\nsigil-run: quit (Ctrl-A x)");
        exit(EXIT_QUIT);
    }
    if let Some(path) = &cli.output {
        if let Err(e) = std::fs::write(path, &shown) {
            eprintln!("sigil-run: cannot write {}: {e}", path.display());
        }
    }
    let code = result.exit_code();
    if code == EXIT_TIMEOUT {
        eprint!("{}", result.stderr);
        eprintln!("sigil-run: timeout after {} s", cli.cfg.timeout.as_secs_f64());
    } else if code == EXIT_NO_MARKER && result.status.is_none() {
        eprint!("{}", result.stderr);
        eprintln!("sigil-run: QEMU ended without the @@SIGIL-EXIT marker (kernel crashed or never started)");
    } else if result.oopsed() {
        eprintln!("sigil-run: kernel oops (see the console above)");
        match sigil_qemu::symbols::symbolize_oops(&result.console, &cli.cfg.kernel) {
            Some(names) => eprint!("{names}"),
            None => eprintln!(
                "sigil-run: no names for the oops's addresses ({} failed)",
                sigil_qemu::symbols::ADDR2LINE
            ),
        }
    }
    exit(code);
}
