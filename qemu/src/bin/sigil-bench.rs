//! sigil-bench: `make bench`. Measures every benchmark x variant of
//! `sigil_qemu::bench` in guest instructions, prints the table and writes
//! results.json, table.md and instructions.svg.
//!
//! ```text
//! sigil-bench --board <name> --kernel <elf> --user-dir <dir> [--out <dir>]
//!             [--scale D] [--only name,name] [--jobs J] [--no-repeat]
//!             [--linux <vmlinux> [--linux-append WORDS]]
//! ```
//! `--linux` (`make bench-linux`) first measures the same programs on Linux
//! 6.1 (`sigil_qemu::linux`: KUAP on, and KUAP off with `nosmap`), writes
//! linux.json, and then prints one table, Sigil next to Linux, instead of
//! the variants' table (still written to table.md); `--linux-append` adds
//! words to Linux's command line (`GLIBC_TUNABLES=glibc.pthread.rseq=0`
//! reaches init's environment, and the programs'). Without `--linux` the Linux
//! column holds the figures recorded in bench.rs, and the line under the
//! table says so.
//! `--scale D` divides every iteration count by D (a quick look; the figures
//! stay per operation). After the main pass the default variants are measured
//! again and the largest difference is printed: under icount the two runs
//! should agree to the instruction.

use std::path::PathBuf;
use std::process::exit;
use std::time::{Duration, Instant};

use sigil_qemu::bench::{self, Benchmark, Variant, BENCHMARKS};
use sigil_qemu::RunConfig;

const USAGE: &str =
    "usage: sigil-bench --board <name> --kernel <elf> --user-dir <dir> [--out <dir>]
                   [--scale D] [--only name,name] [--jobs J] [--no-repeat]
                   [--linux <vmlinux> [--linux-append WORDS]]";

struct Cli {
    base: RunConfig,
    user_dir: PathBuf,
    out: PathBuf,
    scale: u32,
    only: Option<Vec<String>>,
    jobs: usize,
    repeat: bool,
    /// Linux's kernel (target/linux/vmlinux): measure the Linux side too.
    linux: Option<PathBuf>,
    /// More words for Linux's command line.
    linux_append: Vec<String>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Cli, String> {
    let (mut board, mut kernel, mut user_dir) = (None, None, None);
    let mut cli = Cli {
        base: RunConfig::new("", PathBuf::new()),
        user_dir: PathBuf::new(),
        out: bench::out_dir(),
        scale: 1,
        only: None,
        jobs: 2,
        repeat: true,
        linux: None,
        linux_append: Vec::new(),
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--board" => board = Some(value("--board")?),
            "--kernel" => kernel = Some(PathBuf::from(value("--kernel")?)),
            "--user-dir" => user_dir = Some(PathBuf::from(value("--user-dir")?)),
            "--out" => cli.out = PathBuf::from(value("--out")?),
            "--scale" => {
                cli.scale = value("--scale")?
                    .parse()
                    .ok()
                    .filter(|&d| d > 0)
                    .ok_or("--scale wants a positive integer")?
            }
            "--jobs" => {
                cli.jobs = value("--jobs")?
                    .parse()
                    .ok()
                    .filter(|&j| j > 0)
                    .ok_or("--jobs wants a positive integer")?
            }
            "--only" => cli.only = Some(value("--only")?.split(',').map(str::to_owned).collect()),
            "--no-repeat" => cli.repeat = false,
            "--linux" => cli.linux = Some(PathBuf::from(value("--linux")?)),
            "--linux-append" => {
                cli.linux_append =
                    value("--linux-append")?.split_whitespace().map(str::to_owned).collect()
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                exit(0);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    cli.base.board = board.ok_or("--board is required")?;
    cli.base.kernel = kernel.ok_or("--kernel is required")?;
    cli.user_dir = user_dir.ok_or("--user-dir is required")?;
    cli.base.timeout = Duration::from_secs(300);
    if let Some(only) = &cli.only {
        if let Some(bad) = only.iter().find(|n| !BENCHMARKS.iter().any(|b| b.name == n.as_str())) {
            return Err(format!("--only: no benchmark {bad:?}"));
        }
    }
    Ok(cli)
}

fn main() {
    let cli = match parse(std::env::args().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sigil-bench: {e}\n{USAGE}");
            exit(2);
        }
    };
    let work: Vec<(&'static Benchmark, &'static Variant)> = BENCHMARKS
        .iter()
        .filter(|b| cli.only.as_ref().is_none_or(|o| o.iter().any(|n| n == b.name)))
        .flat_map(|b| b.variants.iter().map(move |v| (b, v)))
        .collect();
    let start = Instant::now();
    let linux = cli.linux.as_ref().map(|vmlinux| measure_linux(&cli, vmlinux, &work));
    eprintln!(
        "sigil-bench: {} configurations, each booted with N and 2N operations, {} at a time",
        work.len(),
        cli.jobs
    );
    let mut rows = bench::measure_all(&cli.base, &cli.user_dir, &work, cli.jobs, cli.scale)
        .unwrap_or_else(|e| {
            eprintln!("sigil-bench: {e}");
            exit(1);
        });
    bench::set_ratios(&mut rows);
    if let Some(figures) = &linux {
        bench::set_linux(&mut rows, figures);
    }
    let table = bench::table(&rows);
    let side_by_side = bench::side_by_side(&rows);
    if linux.is_some() {
        println!("\n{side_by_side}");
    } else {
        println!("\n{table}");
    }
    println!(
        "  Linux 6.1 column: {}{}",
        bench::linux_source(&rows),
        if linux.is_none() { " (qemu/src/bench.rs; make bench-linux measures it)" } else { "" }
    );
    for b in BENCHMARKS.iter().filter(|b| rows.iter().any(|m| m.benchmark == b.name)) {
        println!("  {:<14} one op = {}", b.name, b.op);
    }
    if cli.repeat {
        let defaults: Vec<_> = work.iter().copied().filter(|(_, v)| v.default).collect();
        let again = bench::measure_all(&cli.base, &cli.user_dir, &defaults, cli.jobs, cli.scale)
            .unwrap_or_else(|e| {
                eprintln!("sigil-bench: repeat: {e}");
                exit(1);
            });
        let worst = again
            .iter()
            .filter_map(|a| {
                rows.iter()
                    .find(|m| m.benchmark == a.benchmark && m.variant == a.variant)
                    .map(|m| (a, m))
            })
            .map(|(a, m)| (a.instructions_per_op - m.instructions_per_op).abs())
            .fold(0.0, f64::max);
        println!("\nrepeatability: the default variants measured twice differ by at most {worst:.2} instructions/op");
    }
    if let Err(e) = std::fs::create_dir_all(&cli.out)
        .and_then(|()| std::fs::write(cli.out.join("results.json"), bench::json(&rows)))
        .and_then(|()| std::fs::write(cli.out.join("table.md"), &table))
        .and_then(|()| match linux {
            Some(_) => std::fs::write(cli.out.join("side-by-side.md"), &side_by_side),
            None => Ok(()),
        })
        .and_then(|()| std::fs::write(cli.out.join("instructions.svg"), bench::svg(&rows)))
    {
        eprintln!("sigil-bench: cannot write to {}: {e}", cli.out.display());
        exit(1);
    }
    println!(
        "wrote {0}/results.json, {0}/table.md, {0}/instructions.svg ({1:.0} s)",
        cli.out.display(),
        start.elapsed().as_secs_f64()
    );
}

/// The Linux side of `--linux`: the default variant's N of every benchmark
/// in `work`, KUAP on and off, written to linux.json. Exits on failure: a
/// side-by-side table without its Linux half is not what was asked for.
fn measure_linux(
    cli: &Cli,
    vmlinux: &std::path::Path,
    work: &[(&'static Benchmark, &'static Variant)],
) -> Vec<sigil_qemu::linux::Figure> {
    let cfg = sigil_qemu::linux::LinuxConfig {
        board: bench::LINUX_BOARD.into(),
        vmlinux: vmlinux.to_path_buf(),
        init: cli.user_dir.join("linux_bench_init"),
        user_dir: cli.user_dir.clone(),
        boot_opts: cli.linux_append.clone(),
        timeout: Duration::from_secs(1800),
    };
    let linux_work: Vec<(&'static Benchmark, u32)> = work
        .iter()
        .filter(|(_, v)| v.default)
        .map(|&(b, v)| (b, bench::iterations(b, v, cli.scale)))
        .collect();
    eprintln!(
        "sigil-bench: Linux 6.1 ({}): {} benchmarks in one boot, KUAP on and off side by side",
        vmlinux.display(),
        linux_work.len()
    );
    let (figures, ns_per_insn) = sigil_qemu::linux::measure(&cfg, &linux_work, true)
        .unwrap_or_else(|e| {
            eprintln!("sigil-bench: Linux: {e}");
            exit(1);
        });
    for f in &figures {
        eprintln!(
            "  {:<14} Linux         {:>9.1} instructions/op",
            f.benchmark, f.instructions_per_op
        );
    }
    eprintln!(
        "  Linux's clock: {ns_per_insn:.4} ns per instruction of a known loop (1 = the timebase follows icount)"
    );
    let path = cli.out.join("linux.json");
    if let Err(e) = std::fs::create_dir_all(&cli.out)
        .and_then(|()| std::fs::write(&path, sigil_qemu::linux::json(&figures, ns_per_insn)))
    {
        eprintln!("sigil-bench: cannot write {}: {e}", path.display());
        exit(1);
    }
    figures
}
