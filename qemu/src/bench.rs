//! bench: the mailing-list experiments, measured in guest instructions (`make bench`).
//!
//! Method. QEMU runs with `-icount shift=0,sleep=off` and the docs' fixed
//! wall clock (`docgen::DOCS_CLOCK`): every guest instruction
//! advances guest time by exactly one nanosecond, whatever the host is doing,
//! so guest time is an instruction count and runs repeat exactly. When PID 1
//! exits, the kernel prints one line with the guest time and its counters
//! (kernel/src/main.rs `shutdown`):
//!
//! ```text
//! sigil: init exited (0) at 51017710 ns; windows 6, window bytes 365, siginfo bytes copied 0, ...
//! ```
//!
//! Each benchmark program takes its iteration count in argv[1]. We boot it
//! twice, with N and with 2N iterations, and divide the difference by N: boot,
//! exec, program start-up and exit cancel out, and what remains is exactly N
//! iterations of the loop - user code, kernel, timer ticks, everything the
//! machine did (the "whole machine" figure the Linux mailing-list numbers are).
//! The counters are differenced the same way, so "windows per op" covers the
//! loop only.
//!
//! Variants are boot options (kernel/src/cmdline.rs): the old ways the threads
//! replaced (siginfo copied at dequeue, one window per frame field, SYNC_PTR
//! per field or by copy) next to the shipped default. Nothing is rebuilt.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;

use crate::RunConfig;

/// One benchmark program and what it is compared with.
pub struct Benchmark {
    /// The name in results.json.
    pub name: &'static str,
    /// target/user/<program>; argv[1] is the iteration count.
    pub program: &'static str,
    /// Operations per run at full size (docs/benchmarks.md says where each comes from).
    pub iterations: u32,
    /// What one operation is, for the table's legend.
    pub op: &'static str,
    /// Sigil's target for the default configuration (instructions per op),
    /// if one was set: issue 19's, about Linux / 4 on the signal paths and
    /// Linux / 3 on SYNC_PTR.
    pub target: Option<u32>,
    /// Linux 6.1 (book3s/32, KUAP on) on the same QEMU machine
    /// ([`LINUX_BOARD`]), measured the same way once and recorded here: the
    /// Linux column of `make bench` on that board (`make bench-linux`
    /// measures it afresh, [`crate::linux`]); None where no Linux figure was
    /// recorded.
    pub linux: Option<u32>,
    pub variants: &'static [Variant],
}

/// The one board Linux's figures come from: OpenBIOS boots Linux there.
/// On qemu-e300 it cannot (OpenBIOS does not run on 603-class cores, and
/// Linux's PowerMac platform starts through Open Firmware), so that board's
/// table has no Linux column.
pub const LINUX_BOARD: &str = "g3beige";

/// One configuration of the kernel, chosen by boot options.
pub struct Variant {
    pub name: &'static str,
    pub boot_opts: &'static [&'static str],
    /// The shipped configuration (no option): the baseline of the ratios.
    pub default: bool,
}

const SIGNAL_VARIANTS: &[Variant] = &[
    Variant { name: "default", boot_opts: &[], default: true },
    Variant { name: "dequeue=copy", boot_opts: &["signal.dequeue=copy"], default: false },
    Variant { name: "frame=field", boot_opts: &["signal.frame=field"], default: false },
    Variant {
        name: "copy+field",
        boot_opts: &["signal.dequeue=copy", "signal.frame=field"],
        default: false,
    },
];

/// Everything `make bench` measures, in table order.
pub const BENCHMARKS: &[Benchmark] = &[
    Benchmark {
        name: "null_syscall",
        program: "getppid_bench",
        iterations: 100_000,
        op: "getppid() through syscall()",
        target: Some(80),
        linux: Some(245),
        variants: &[Variant { name: "default", boot_opts: &[], default: true }],
    },
    Benchmark {
        name: "raise_signal",
        program: "sig_raise_bench",
        iterations: 100_000,
        op: "raise(SIGUSR1) with a signal() handler: gettid, getpid, tgkill, delivery, sigreturn",
        target: Some(880),
        linux: Some(3550),
        variants: SIGNAL_VARIANTS,
    },
    Benchmark {
        name: "raise_siginfo",
        program: "sig_siginfo_bench",
        iterations: 100_000,
        op: "raise(SIGUSR1) with an SA_SIGINFO handler (rt frame)",
        target: Some(950),
        linux: Some(3815),
        variants: SIGNAL_VARIANTS,
    },
    Benchmark {
        name: "pingpong",
        program: "sig_pingpong_bench",
        iterations: 65_536,
        op: "one signal between two processes: kill, sigsuspend, switch, delivery, sigreturn",
        target: Some(1160),
        linux: Some(4650),
        variants: SIGNAL_VARIANTS,
    },
    Benchmark {
        name: "sync_ptr",
        program: "pcm_syncptr_bench",
        iterations: 100_000,
        op: "ioctl(SNDRV_PCM_IOCTL_SYNC_PTR)",
        target: Some(270),
        linux: Some(805),
        variants: &[
            Variant { name: "window", boot_opts: &["pcm.sync_ptr=window"], default: true },
            Variant { name: "copy", boot_opts: &["pcm.sync_ptr=copy"], default: false },
            Variant { name: "field", boot_opts: &["pcm.sync_ptr=field"], default: false },
        ],
    },
    Benchmark {
        name: "thread_pingpong",
        program: "thr_pingpong_bench",
        iterations: 65_536,
        op: "one signal between two threads: pthread_kill (tgkill), sigwait, switch",
        target: None,
        linux: None,
        // sigwait builds no frame and dequeues no copy: the signal variants
        // would all measure the same path.
        variants: &[Variant { name: "default", boot_opts: &[], default: true }],
    },
    Benchmark {
        name: "futex_pingpong",
        program: "futex_pingpong_bench",
        iterations: 65_536,
        op: "one round trip between two threads: 2 x (FUTEX_WAKE, FUTEX_WAIT, switch)",
        target: None,
        linux: None,
        variants: &[Variant { name: "default", boot_opts: &[], default: true }],
    },
];

/// What the kernel's exit line says about one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitStats {
    /// Guest nanoseconds since boot = guest instructions under icount shift=0.
    pub ns: u64,
    pub windows: u64,
    pub window_bytes: u64,
    pub siginfo_bytes: u64,
}

/// Finds the kernel's exit line in `console` and reads it.
pub fn parse_exit_stats(console: &str) -> Result<ExitStats, String> {
    let line = console
        .lines()
        .find(|l| l.starts_with("sigil: init exited"))
        .ok_or("no `sigil: init exited` line on the console (was the boot quiet?)")?;
    // The number after `word` (`at 123 ns`, `windows 6,`).
    let after = |word: &str| -> Result<u64, String> {
        let rest =
            line.split(word).nth(1).ok_or_else(|| format!("no `{}` in {line:?}", word.trim()))?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().map_err(|_| format!("no number after `{}` in {line:?}", word.trim()))
    };
    Ok(ExitStats {
        ns: after(") at ")?,
        windows: after("; windows ")?,
        window_bytes: after(", window bytes ")?,
        siginfo_bytes: after(", siginfo bytes copied ")?,
    })
}

/// One row of the results.
#[derive(Debug, Clone)]
pub struct Measurement {
    pub benchmark: &'static str,
    pub variant: &'static str,
    pub default: bool,
    pub boot_options: String,
    pub program: &'static str,
    /// N: the difference between the two runs (N and 2N operations).
    pub iterations: u32,
    pub instructions_per_op: f64,
    pub windows_per_op: f64,
    pub window_bytes_per_op: f64,
    pub siginfo_bytes_per_op: f64,
    /// instructions_per_op / the default variant's (1.0 for the default).
    pub ratio_to_default: f64,
    pub target: Option<u32>,
    /// Linux's instructions per op: the recorded figure ([`Benchmark::linux`])
    /// or, after [`set_linux`], the one measured this run.
    pub linux: Option<f64>,
    /// `linux` was measured this run (`make bench-linux`), not recorded.
    pub linux_measured: bool,
    /// Linux with KUAP off (`nosmap`), measured this run.
    pub linux_kuap_off: Option<f64>,
}

/// Boots `b` under `v` with `n` and `2n` operations and returns the per-op figures.
/// `base` gives the board, kernel and timeout; its init, options and flags are replaced.
pub fn measure(
    base: &RunConfig,
    user_dir: &std::path::Path,
    b: &Benchmark,
    v: &Variant,
    n: u32,
) -> Result<Measurement, String> {
    let run = |count: u32| -> Result<ExitStats, String> {
        let mut cfg = base.clone();
        cfg.init = Some(user_dir.join(b.program));
        cfg.boot_opts = v.boot_opts.iter().map(|s| s.to_string()).collect();
        cfg.init_args = vec![count.to_string()];
        // Instructions as time, and a fixed wall clock: the count depends a
        // little on the date the RTC gives (converting wall-clock time costs
        // more or less with its value), so a run at another moment could
        // differ by a tick's worth and the docs' table would not repeat.
        cfg.qemu_flags.extend(crate::docgen::DOCS_CLOCK.iter().map(|s| s.to_string()));
        let r = crate::run(&cfg);
        let what = format!("{} ({}) with {count}", b.program, v.name);
        if r.oopsed() || r.status != Some(0) {
            return Err(format!(
                "{what}: exit {} (want 0)\n{}{}",
                r.exit_code(),
                r.console,
                r.stderr
            ));
        }
        parse_exit_stats(&r.console).map_err(|e| format!("{what}: {e}"))
    };
    let (one, two) = (run(n)?, run(2 * n)?);
    let per_op = |a: u64, b: u64| b.saturating_sub(a) as f64 / n as f64;
    Ok(Measurement {
        benchmark: b.name,
        variant: v.name,
        default: v.default,
        boot_options: v.boot_opts.join(" "),
        program: b.program,
        iterations: n,
        instructions_per_op: per_op(one.ns, two.ns),
        windows_per_op: per_op(one.windows, two.windows),
        window_bytes_per_op: per_op(one.window_bytes, two.window_bytes),
        siginfo_bytes_per_op: per_op(one.siginfo_bytes, two.siginfo_bytes),
        ratio_to_default: 1.0,
        target: b.target,
        linux: b.linux.filter(|_| base.board == LINUX_BOARD).map(f64::from),
        linux_measured: false,
        linux_kuap_off: None,
    })
}

/// The old-way variants run a tenth of the operations: their user-access
/// windows rewrite segment registers, which makes QEMU flush its TLB, so they
/// cost the host several times more per guest instruction. The per-op figure
/// does not depend on N (two runs differenced, icount is exact), and 10000
/// operations still put any start-up noise far below 0.1 instruction per op.
pub const OLD_WAY_DIVISOR: u32 = 10;

pub fn iterations(b: &Benchmark, v: &Variant, scale: u32) -> u32 {
    let n = if v.default { b.iterations } else { b.iterations / OLD_WAY_DIVISOR };
    (n / scale).max(1)
}

/// Measures `work` on `jobs` threads, each count divided by `scale`
/// ([`iterations`]); results in the order of `work`, progress on stderr.
pub fn measure_all(
    base: &RunConfig,
    user_dir: &std::path::Path,
    work: &[(&'static Benchmark, &'static Variant)],
    jobs: usize,
    scale: u32,
) -> Result<Vec<Measurement>, String> {
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<Option<Result<Measurement, String>>>> =
        Mutex::new((0..work.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.min(work.len()) {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(&(b, v)) = work.get(i) else { break };
                let n = iterations(b, v, scale);
                let r = measure(base, user_dir, b, v, n);
                if let Ok(m) = &r {
                    eprintln!(
                        "  {:<14} {:<13} {:>9.1} instructions/op",
                        m.benchmark, m.variant, m.instructions_per_op
                    );
                }
                results.lock().unwrap()[i] = Some(r);
            });
        }
    });
    results.into_inner().unwrap().into_iter().map(|r| r.expect("every item measured")).collect()
}

/// Every benchmark x variant at full size, ratios filled in: the table of
/// `make bench` and of docs/benchmarks.md.
pub fn measure_everything(
    base: &RunConfig,
    user_dir: &std::path::Path,
    jobs: usize,
) -> Result<Vec<Measurement>, String> {
    let work: Vec<(&'static Benchmark, &'static Variant)> =
        BENCHMARKS.iter().flat_map(|b| b.variants.iter().map(move |v| (b, v))).collect();
    let mut rows = measure_all(base, user_dir, &work, jobs, 1)?;
    set_ratios(&mut rows);
    Ok(rows)
}

/// Fills in `ratio_to_default` from each benchmark's default row.
pub fn set_ratios(rows: &mut [Measurement]) {
    let defaults: Vec<(&str, f64)> =
        rows.iter().filter(|m| m.default).map(|m| (m.benchmark, m.instructions_per_op)).collect();
    for m in rows.iter_mut() {
        if let Some(&(_, d)) = defaults.iter().find(|(b, _)| *b == m.benchmark) {
            m.ratio_to_default = if d > 0.0 { m.instructions_per_op / d } else { 0.0 };
        }
    }
}

/// Puts the Linux figures measured this run into `rows` (every variant of
/// a benchmark carries its Linux figure, as the recorded ones do).
pub fn set_linux(rows: &mut [Measurement], figures: &[crate::linux::Figure]) {
    for m in rows.iter_mut() {
        if let Some(f) = figures.iter().find(|f| f.benchmark == m.benchmark) {
            m.linux = Some(f.instructions_per_op);
            m.linux_measured = true;
            m.linux_kuap_off = f.kuap_off_per_op;
        }
    }
}

/// What the Linux column is, for the line under a table and the chart's legend.
pub fn linux_source(rows: &[Measurement]) -> &'static str {
    if rows.iter().any(|m| m.linux_measured) {
        "measured this run"
    } else if rows.iter().any(|m| m.linux.is_some()) {
        "recorded"
    } else {
        "none: Linux is measured on g3beige only"
    }
}

/// `make bench-linux`'s table: the default variant of each benchmark next
/// to Linux, and their ratio.
pub fn side_by_side(rows: &[Measurement]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| benchmark       | Sigil  | Linux 6.1 | Linux / Sigil | Linux, KUAP off | target |"
    );
    let _ = writeln!(
        s,
        "|-----------------|-------:|----------:|--------------:|----------------:|-------:|"
    );
    let figure = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
    for m in rows.iter().filter(|m| m.default) {
        let ratio = m
            .linux
            .filter(|_| m.instructions_per_op > 0.0)
            .map_or("-".to_string(), |l| format!("{:.2}", l / m.instructions_per_op));
        let _ = writeln!(
            s,
            "| {:<15} | {:>6.1} | {:>9} | {:>13} | {:>15} | {:>6} |",
            m.benchmark,
            m.instructions_per_op,
            figure(m.linux),
            ratio,
            figure(m.linux_kuap_off),
            m.target.map_or("-".to_string(), |t| t.to_string())
        );
    }
    s
}

/// The table `make bench` prints (and docs/benchmarks.md quotes).
pub fn table(rows: &[Measurement]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| benchmark       | variant      | instructions/op | windows/op | siginfo bytes/op | x default | target | Linux 6.1 |"
    );
    let _ = writeln!(s, "|-----------------|--------------|----------------:|-----------:|-----------------:|----------:|-------:|----------:|");
    for m in rows {
        let figure = |v: Option<u32>| v.map_or("-".to_string(), |v| v.to_string());
        // A recorded figure is a whole number; a measured one has its decimal.
        let linux = m.linux.map_or("-".to_string(), |v| {
            if m.linux_measured {
                format!("{v:.1}")
            } else {
                format!("{v:.0}")
            }
        });
        let (target, linux) =
            if m.default { (figure(m.target), linux) } else { (String::new(), String::new()) };
        let _ = writeln!(
            s,
            "| {:<15} | {:<12} | {:>15.1} | {:>10.2} | {:>16.1} | {:>9.2} | {:>6} | {:>9} |",
            m.benchmark,
            m.variant,
            m.instructions_per_op,
            m.windows_per_op,
            m.siginfo_bytes_per_op,
            m.ratio_to_default,
            target,
            linux
        );
    }
    s
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// results.json: an array with one object per measurement.
pub fn json(rows: &[Measurement]) -> String {
    let mut s = String::from("[\n");
    for (i, m) in rows.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {{\"benchmark\": {}, \"variant\": {}, \"default\": {}, \"boot_options\": {}, \"program\": {}, \
             \"iterations\": {}, \"instructions_per_op\": {:.1}, \"windows_per_op\": {:.3}, \
             \"window_bytes_per_op\": {:.1}, \"siginfo_bytes_per_op\": {:.1}, \"ratio_to_default\": {:.3}, \
             \"target_instructions_per_op\": {}, \"linux_instructions_per_op\": {}, \"linux_measured\": {}, \"linux_kuap_off_instructions_per_op\": {}}}{}",
            json_str(m.benchmark),
            json_str(m.variant),
            m.default,
            json_str(&m.boot_options),
            json_str(m.program),
            m.iterations,
            m.instructions_per_op,
            m.windows_per_op,
            m.window_bytes_per_op,
            m.siginfo_bytes_per_op,
            m.ratio_to_default,
            m.target.map_or("null".to_string(), |v| v.to_string()),
            m.linux.map_or("null".to_string(), |v| format!("{v:.1}")),
            m.linux_measured,
            m.linux_kuap_off.map_or("null".to_string(), |v| format!("{v:.1}")),
            if i + 1 < rows.len() { "," } else { "" }
        );
    }
    s.push_str("]\n");
    s
}

/// The smallest 1, 2 or 5 times a power of ten that is at least `v`: the
/// end of a benchmark's linear axis.
fn nice_ceiling(v: f64) -> f64 {
    let decade = 10f64.powf(v.max(1.0).log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * decade).find(|&c| c >= v).unwrap_or(10.0 * decade)
}

/// The chart of `rows`: per benchmark, one bar per variant and one for
/// Linux 6.1, on a linear axis of its own (0 to a round number above the
/// largest bar), so a 5x gap looks 5x long; the target is a red line.
pub fn svg(rows: &[Measurement]) -> String {
    const LEFT: f64 = 250.0;
    const PLOT: f64 = 600.0;
    const BAR: f64 = 16.0;
    let mut body = String::new();
    let mut y = 58.0;
    let mut benches: Vec<&str> = rows.iter().map(|m| m.benchmark).collect();
    benches.dedup();
    for bench in benches {
        let group: Vec<&Measurement> = rows.iter().filter(|m| m.benchmark == bench).collect();
        let largest = group
            .iter()
            .map(|m| m.instructions_per_op)
            .chain(group[0].linux)
            .chain(group[0].linux_kuap_off)
            .chain(group[0].target.map(|v| v as f64))
            .fold(0.0, f64::max);
        let end = nice_ceiling(largest);
        let x = |v: f64| LEFT + PLOT * (v / end).min(1.0);
        let _ =
            writeln!(body, r#"<text x="10" y="{:.0}" font-weight="bold">{bench}</text>"#, y + 12.0);
        // The axis of this benchmark: 0, a quarter, a half, ... of `end`.
        for q in 0..=4 {
            let v = end * q as f64 / 4.0;
            let _ = writeln!(
                body,
                r##"<text x="{:.1}" y="{:.0}" text-anchor="middle" fill="#777">{v:.0}</text>"##,
                x(v),
                y + 12.0
            );
        }
        y += 18.0;
        let top = y;
        let mut bar = |label: &str, value: f64, fill: &str, body: &mut String| {
            let _ = writeln!(
                body,
                r#"<text x="{:.0}" y="{:.0}" text-anchor="end">{label}</text>"#,
                LEFT - 6.0,
                y + 12.0
            );
            let _ = writeln!(
                body,
                r#"<rect x="{LEFT}" y="{y:.0}" width="{:.1}" height="{BAR}" fill="{fill}"/><text x="{:.1}" y="{:.0}">{value:.0}</text>"#,
                x(value) - LEFT,
                x(value) + 4.0,
                y + 12.0
            );
            y += BAR + 4.0;
        };
        for m in &group {
            bar(
                m.variant,
                m.instructions_per_op,
                if m.default { "#1f4e9c" } else { "#8fb0e0" },
                &mut body,
            );
        }
        if let Some(linux) = group[0].linux {
            bar("Linux 6.1", linux, "#b0b0b0", &mut body);
        }
        if let Some(off) = group[0].linux_kuap_off {
            bar("Linux 6.1, KUAP off", off, "#d8d8d8", &mut body);
        }
        for q in 0..=4 {
            let gx = x(end * q as f64 / 4.0);
            let _ = writeln!(
                body,
                r##"<line x1="{gx:.1}" y1="{:.0}" x2="{gx:.1}" y2="{:.0}" stroke="#dddddd"/>"##,
                top - 2.0,
                y - 2.0
            );
        }
        if let Some(target) = group[0].target {
            let t = x(target as f64);
            let _ = writeln!(
                body,
                r#"<line x1="{t:.1}" y1="{:.0}" x2="{t:.1}" y2="{:.0}" stroke="red" stroke-width="2"/>"#,
                top - 2.0,
                y - 2.0
            );
        }
        y += 10.0;
    }
    format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" font-family="sans-serif" font-size="12">"#,
            "\n",
            r#"<rect width="100%" height="100%" fill="white"/>"#,
            "\n",
            r#"<text x="10" y="14" font-weight="bold">Sigil make bench: guest instructions per operation (linear, each benchmark on its own axis)</text>"#,
            "\n",
            r##"<rect x="10" y="26" width="12" height="10" fill="#1f4e9c"/><text x="26" y="35">Sigil as shipped (no boot option)</text><rect x="250" y="26" width="12" height="10" fill="#8fb0e0"/><text x="266" y="35">Sigil with a boot option (the old way)</text><rect x="510" y="26" width="12" height="10" fill="#b0b0b0"/><text x="526" y="35">Linux 6.1, same QEMU machine ({linux})</text><line x1="10" y1="48" x2="22" y2="48" stroke="red" stroke-width="2"/><text x="26" y="52">red line: the target for Sigil as shipped</text>"##,
            "\n{body}</svg>\n"
        ),
        w = LEFT + PLOT + 80.0,
        h = y + 10.0,
        body = body,
        linux = linux_source(rows)
    )
}

/// Where `make bench` writes: target/bench under the repository.
pub fn out_dir() -> PathBuf {
    crate::repo_root().join("target/bench")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_line_is_read() {
        let console = "boot\nsigil: init exited (0) at 51017710 ns; windows 6, window bytes 365, siginfo bytes copied 32, free frames 1, heap 2 bytes, sigqueue nodes 0\n";
        let s = parse_exit_stats(console).unwrap();
        assert_eq!(s, ExitStats { ns: 51017710, windows: 6, window_bytes: 365, siginfo_bytes: 32 });
        assert!(parse_exit_stats("no such line").is_err());
        assert!(parse_exit_stats("sigil: init exited (0); windows 6").is_err());
    }

    fn row(bench: &'static str, variant: &'static str, default: bool, ipo: f64) -> Measurement {
        Measurement {
            benchmark: bench,
            variant,
            default,
            boot_options: String::new(),
            program: "p",
            iterations: 10,
            instructions_per_op: ipo,
            windows_per_op: 1.0,
            window_bytes_per_op: 8.0,
            siginfo_bytes_per_op: 0.0,
            ratio_to_default: 1.0,
            target: Some(100),
            linux: Some(245.0),
            linux_measured: false,
            linux_kuap_off: None,
        }
    }

    #[test]
    fn ratios_table_json_svg() {
        let mut rows = vec![
            row("a", "default", true, 200.0),
            row("a", "old \"way\"", false, 500.0),
            row("b", "default", true, 50.0),
        ];
        set_ratios(&mut rows);
        assert_eq!(rows[1].ratio_to_default, 2.5);
        assert_eq!(rows[2].ratio_to_default, 1.0);
        assert_eq!(table(&rows).lines().count(), 5);
        let j = json(&rows);
        assert!(
            j.starts_with(
                "[\n  {\"benchmark\": \"a\", \"variant\": \"default\", \"default\": true,"
            ),
            "{j}"
        );
        assert!(j.contains(r#""variant": "old \"way\"""#));
        assert_eq!(j.matches("\"instructions_per_op\": ").count(), 3);
        assert!(j.ends_with("}\n]\n"), "{j}");
        let s = svg(&rows);
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert_eq!(
            s.matches(r#"<rect x="250" y="#).count() - 1,
            3 + 2,
            "one bar per row, one Linux bar per benchmark (and a legend swatch)"
        );
        // Linear, per benchmark: a's axis ends at 500 (its largest bar), so
        // its 200-instruction default is 2/5 of the 600-pixel plot.
        assert_eq!(nice_ceiling(500.0), 500.0);
        assert_eq!(nice_ceiling(245.0), 500.0);
        assert_eq!(nice_ceiling(50.0), 50.0);
        assert_eq!(nice_ceiling(1010.0), 2000.0);
        assert!(s.contains(r##"width="240.0" height="16" fill="#1f4e9c""##), "{s}");
        assert!(s.contains("red line: the target"));
    }
}
