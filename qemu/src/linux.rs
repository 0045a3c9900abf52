//! linux: the Linux side of `make bench-linux` - Sigil's benchmark programs
//! on Linux 6.1, on the same QEMU machine, measured the same way.
//!
//! The kernel is the one qemu/linux/build.sh builds (tinyconfig plus
//! qemu/linux/g3beige.config: book3s/32, KUAP and KUEP on, pmac, no SMP,
//! -O2). It boots the way a PowerMac boots it: the board's QEMU command
//! (boards/g3beige.mk) with OpenBIOS, `-kernel vmlinux -initrd <cpio>`,
//! under the same `-icount shift=0,sleep=off` as Sigil's runs, so a guest
//! nanosecond is a guest instruction on both sides, and the docs' fixed
//! wall clock (`docgen::DOCS_CLOCK`). The initramfs
//! ([`crate::initramfs::archive`]) holds `/init` (user/c/linux_bench_init.c)
//! and the benchmark programs under `/bin`. The command line gives init one
//! `PROG:N` word per benchmark; init runs each program with N and 2N
//! operations and prints a line per run (its header says the format),
//! which [`parse`] reads. Differencing the two runs cancels fork, exec and
//! exit, as sigil-bench's two boots cancel Sigil's boot.
//!
//! One boot measures every benchmark. A second boot with `nosmap` (Linux's
//! boot option that turns KUAP off, `arch/powerpc/mm/init-common.c`)
//! gives the KUAP-off column: same kernel, nothing rebuilt.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::bench::Benchmark;
use crate::initramfs::{self, ExtraFile, MODE_EXEC};

/// One boot of Linux: which kernel, which init, where the programs are.
#[derive(Debug, Clone)]
pub struct LinuxConfig {
    /// The board whose QEMU_CMD boots it (its firmware, OpenBIOS, runs).
    pub board: String,
    /// target/linux/vmlinux (qemu/linux/build.sh).
    pub vmlinux: PathBuf,
    /// target/user/linux_bench_init, the /init of the boot.
    pub init: PathBuf,
    /// Where the benchmark programs are (target/user).
    pub user_dir: PathBuf,
    /// Extra kernel command-line words (`nosmap`).
    pub boot_opts: Vec<String>,
    /// Wall-clock limit of the whole boot.
    pub timeout: Duration,
}

/// One line `linux-bench: run PROG COUNT NS STATUS` of init.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub program: String,
    pub count: u64,
    pub ns: u64,
    /// The wait status (0: exited 0).
    pub status: i32,
}

/// What one boot's console says.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// `linux-bench: calibrate INSNS NS`: guest ns per instruction of a
    /// known loop, 1.00 (plus timer ticks) when the clock follows icount.
    pub ns_per_instruction: f64,
    pub runs: Vec<Run>,
}

const PREFIX: &str = "linux-bench: ";

/// Reads init's lines out of a console (`\r\n` or `\n`; the kernel's and
/// the programs' own lines in between are skipped). Err if the boot did not
/// reach `linux-bench: done` or a line of ours is malformed.
pub fn parse(console: &str) -> Result<Report, String> {
    let mut ns_per_instruction = None;
    let mut runs = Vec::new();
    let mut done = false;
    // pmac_zilog ends lines with "\r\n", OpenBIOS and early output with
    // "\n\r": a line may start with the previous one's carriage return.
    for line in console.lines().map(|l| l.trim_matches('\r')) {
        let Some(rest) = line.strip_prefix(PREFIX) else { continue };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let num = |w: &str| -> Result<u64, String> {
            w.parse().map_err(|_| format!("not a number: {w:?} in {line:?}"))
        };
        match words.as_slice() {
            ["calibrate", insns, ns] => {
                ns_per_instruction = Some(num(ns)? as f64 / num(insns)?.max(1) as f64)
            }
            ["run", program, count, ns, status] => runs.push(Run {
                program: program.to_string(),
                count: num(count)?,
                ns: num(ns)?,
                status: status.parse().map_err(|_| format!("bad status in {line:?}"))?,
            }),
            ["done"] => done = true,
            _ => return Err(format!("Linux's init said: {line:?}")),
        }
    }
    if !done {
        return Err("Linux's init never printed `linux-bench: done`".into());
    }
    let ns_per_instruction =
        ns_per_instruction.ok_or("no `linux-bench: calibrate` line on the console")?;
    Ok(Report { ns_per_instruction, runs })
}

impl Report {
    /// Instructions per operation of `program`: its 2N run minus its N run,
    /// over N. Err if either run is missing or did not exit 0.
    pub fn per_op(&self, program: &str, n: u32) -> Result<f64, String> {
        let find = |count: u64| {
            self.runs
                .iter()
                .find(|r| r.program == program && r.count == count)
                .ok_or_else(|| format!("no run of {program} with {count} on Linux"))
                .and_then(|r| {
                    if r.status == 0 {
                        Ok(r.ns)
                    } else {
                        Err(format!("{program} {count} on Linux: wait status {}", r.status))
                    }
                })
        };
        let (one, two) = (find(n.into())?, find(2 * u64::from(n))?);
        Ok(two.saturating_sub(one) as f64 / f64::from(n))
    }
}

/// The command line init reads: `console=ttyS0 quiet`, the options, then
/// `--` and one `PROG:N` per benchmark (Linux hands what follows `--` to
/// init as its arguments).
pub fn cmdline(boot_opts: &[String], work: &[(&Benchmark, u32)]) -> String {
    let mut s = String::from("console=ttyS0 quiet");
    for o in boot_opts {
        let _ = write!(s, " {o}");
    }
    s.push_str(" --");
    for (b, n) in work {
        let _ = write!(s, " {}:{n}", b.program);
    }
    s
}

/// Boots Linux once and measures `work` (benchmark, N); returns the report
/// and the console (for the error message of a caller that finds a run
/// missing).
pub fn boot(cfg: &LinuxConfig, work: &[(&Benchmark, u32)]) -> Result<(Report, String), String> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    let mut files = vec![ExtraFile::new("init", read(&cfg.init)?, MODE_EXEC)];
    for (b, _) in work {
        let data = read(&cfg.user_dir.join(b.program))?;
        files.push(ExtraFile::new(&format!("bin/{}", b.program), data, MODE_EXEC));
    }
    let scratch = initramfs::ScratchDir::new("sigil-linux")?;
    let cpio = scratch.path().join("initramfs.cpio");
    std::fs::write(&cpio, initramfs::archive(files)?)
        .map_err(|e| format!("cannot write {}: {e}", cpio.display()))?;
    if !cfg.vmlinux.is_file() {
        return Err(format!(
            "{} not found (make bench-linux builds it: qemu/linux/build.sh)",
            cfg.vmlinux.display()
        ));
    }
    // The board's own QEMU command, with its firmware: OpenBIOS loads the
    // ELF and hands Linux the device tree, the initrd and the command line.
    let words = crate::board::Board::load(&crate::repo_root(), &cfg.board)?.qemu_cmd()?;
    let mut cmd = Command::new(&words[0]);
    cmd.args(&words[1..]);
    cmd.arg("-kernel").arg(&cfg.vmlinux).arg("-initrd").arg(&cpio);
    cmd.arg("-append").arg(cmdline(&cfg.boot_opts, work));
    // The docs' clocks: icount, and a fixed wall clock. Linux reads the RTC
    // at boot, and with the host's time there two boots of the same command
    // differed by up to 37 instructions per signal.
    cmd.args(crate::docgen::DOCS_CLOCK);
    let mut console = Vec::new();
    let mut shown = 0;
    let tag = cfg.boot_opts.join(" ");
    let finished = crate::process::run(cmd, cfg.timeout, None, |chunk| {
        console.extend_from_slice(chunk);
        // Progress on stderr: init's lines as they complete (a full run is
        // minutes of host time).
        while let Some(end) = console[shown..].iter().position(|&b| b == b'\n') {
            let line = String::from_utf8_lossy(&console[shown..shown + end]);
            if let Some(at) = line.find(PREFIX) {
                eprintln!("  Linux {tag:<7} {}", line[at + PREFIX.len()..].trim_end());
            }
            shown += end + 1;
        }
        // After `done` init powers off; CUDA's power-off ends QEMU.
        if String::from_utf8_lossy(&console).contains("linux-bench: done") {
            crate::process::Next::Finish { grace: Duration::from_secs(5) }
        } else {
            crate::process::Next::More
        }
    })?;
    let console = String::from_utf8_lossy(&console).into_owned();
    match parse(&console) {
        Ok(r) => Ok((r, console)),
        Err(e) => Err(format!(
            "{e}{}\nconsole:\n{console}\nQEMU stderr:\n{}",
            if finished.timed_out { " (the boot timed out)" } else { "" },
            finished.stderr
        )),
    }
}

/// One benchmark's Linux figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub benchmark: &'static str,
    pub program: &'static str,
    pub iterations: u32,
    /// KUAP on (the kernel as built).
    pub instructions_per_op: f64,
    /// The same kernel booted with `nosmap`, if measured.
    pub kuap_off_per_op: Option<f64>,
}

/// Measures `work` on Linux with KUAP on, and if `kuap_off` also with
/// `nosmap`: the two boots run side by side. Returns the figures and the
/// calibration (ns per instruction) of the KUAP-on boot.
pub fn measure(
    cfg: &LinuxConfig,
    work: &[(&'static Benchmark, u32)],
    kuap_off: bool,
) -> Result<(Vec<Figure>, f64), String> {
    let mut off_cfg = cfg.clone();
    off_cfg.boot_opts.push("nosmap".into());
    let (on, off) = std::thread::scope(|s| {
        let off = kuap_off.then(|| s.spawn(|| boot(&off_cfg, work)));
        let on = boot(cfg, work);
        (on, off.map(|h| h.join().expect("the KUAP-off boot's thread")))
    });
    let (on, console) = on?;
    let off = off.transpose().map_err(|e| format!("with nosmap: {e}"))?;
    let mut figures = Vec::new();
    for &(b, n) in work {
        let with_console = |e: String| format!("{e}\nconsole:\n{console}");
        figures.push(Figure {
            benchmark: b.name,
            program: b.program,
            iterations: n,
            instructions_per_op: on.per_op(b.program, n).map_err(with_console)?,
            kuap_off_per_op: match &off {
                Some((r, _)) => Some(r.per_op(b.program, n).map_err(with_console)?),
                None => None,
            },
        });
    }
    Ok((figures, on.ns_per_instruction))
}

/// target/bench/linux.json: the kernel, the calibration and one object per
/// benchmark.
pub fn json(figures: &[Figure], ns_per_instruction: f64) -> String {
    let mut s = format!(
        "{{\"kernel\": \"Linux 6.1, qemu/linux/g3beige.config\", \"ns_per_instruction\": {ns_per_instruction:.4}, \"benchmarks\": [\n"
    );
    for (i, f) in figures.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {{\"benchmark\": \"{}\", \"program\": \"{}\", \"iterations\": {}, \"instructions_per_op\": {:.1}, \"kuap_off_instructions_per_op\": {}}}{}",
            f.benchmark,
            f.program,
            f.iterations,
            f.instructions_per_op,
            f.kuap_off_per_op.map_or("null".to_string(), |v| format!("{v:.1}")),
            if i + 1 < figures.len() { "," } else { "" }
        );
    }
    s.push_str("]}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONSOLE: &str = "OpenBIOS\n\rlinux-bench: calibrate 100000000 100100000\r\n\
        linux-bench: run getppid_bench 100 5000 0\r\n\
        pcm_syncptr_bench: 100 SYNC_PTR ioctls, 800 ns each, 0.00 windows each\r\n\
        linux-bench: run getppid_bench 200 29500 0\r\n\
        linux-bench: run sig_raise_bench 10 100 256\r\n\
        linux-bench: run sig_raise_bench 20 200 0\r\n\
        linux-bench: done\r\n";

    #[test]
    fn init_lines_are_read() {
        let r = parse(CONSOLE).unwrap();
        assert_eq!(r.ns_per_instruction, 1.001);
        assert_eq!(r.runs.len(), 4);
        assert_eq!(
            r.runs[1],
            Run { program: "getppid_bench".into(), count: 200, ns: 29500, status: 0 }
        );
        assert_eq!(r.per_op("getppid_bench", 100).unwrap(), 245.0);
        let failed = r.per_op("sig_raise_bench", 10).unwrap_err();
        assert!(failed.contains("wait status 256"), "{failed}");
        assert!(r.per_op("getppid_bench", 50).is_err());
    }

    #[test]
    fn an_unfinished_or_garbled_boot_is_an_error() {
        assert!(parse(&CONSOLE.replace("linux-bench: done", "")).is_err());
        assert!(parse(&CONSOLE.replace("calibrate 100000000", "calibrate")).is_err());
        let bad = CONSOLE.replace("run getppid_bench 100 5000 0", "run getppid_bench x 5000 0");
        assert!(parse(&bad).unwrap_err().contains("not a number"));
        let said = parse(&CONSOLE.replace("done", "cannot exec /bin/x: ENOENT")).unwrap_err();
        assert!(said.contains("cannot exec"), "{said}");
    }

    #[test]
    fn command_line_and_json() {
        let b = &crate::bench::BENCHMARKS[0];
        assert_eq!(
            cmdline(&["nosmap".into()], &[(b, 100)]),
            "console=ttyS0 quiet nosmap -- getppid_bench:100"
        );
        let f = Figure {
            benchmark: b.name,
            program: b.program,
            iterations: 100,
            instructions_per_op: 245.04,
            kuap_off_per_op: None,
        };
        let j = json(&[f], 1.0);
        assert!(
            j.contains(
                "\"instructions_per_op\": 245.0, \"kuap_off_instructions_per_op\": null}\n]}"
            ),
            "{j}"
        );
    }
}
