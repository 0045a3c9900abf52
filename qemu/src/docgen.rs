//! docgen: the parts of docs/ that are program output, made again from real runs.
//!
//! Some of what the docs show is not prose but what a command printed: the
//! signal trace of sig_demo (docs/signals.md), the gdb session
//! (docs/debugging.md), the bench tables (docs/benchmarks.md), the two
//! pictures, and the signal frames drawn to scale (docs/frame.md, from
//! sigil-core's structs: no run needed). Each is a [`Part`]: a block of a Markdown file between
//!
//! ```text
//! <!-- generated: NAME -->
//! ...
//! <!-- end generated -->
//! ```
//!
//! or a whole file. `make docs` (`sigil-docs --write`) rewrites them from
//! fresh runs; qemu/tests/docs.rs makes the same runs and fails on any
//! difference, addresses and figures included, so a change that moves them
//! fails until the docs are regenerated. Prose may quote an address only if a
//! generated part of the docs shows it too ([`stray_addresses`]).
//!
//! The runs are deterministic: QEMU counts instructions (`-icount shift=0`),
//! so the same kernel and programs give the same addresses and figures on any
//! host, at any load. The docs describe the default board, g3beige; the
//! bench has a second table for qemu-e300 ([`E300_BOARD`]).

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::{bench, trace, RunConfig};

/// The board the docs were made on.
pub const BOARD: &str = "g3beige";

/// The bench's second board: the same kernel image (book3s/32 reads the
/// PVR at boot) on an e300c2 core, whose software TLB reload and missing
/// FPU take other paths (and the MPC8321 the mailing-list figures came
/// from is an e300c2).
pub const E300_BOARD: &str = "qemu-e300";

/// The clocks of the docs' runs, QEMU flags that `sigil-run --docs-clock`
/// (`make trace`) passes too, so a reader's `t=` values are the docs' own:
/// guest time counted in instructions (`-icount`, one per ns), and the wall
/// clock the runs start from. QEMU's RTC is otherwise the host's time, and
/// the boot's conversion of it (64-bit divisions done in software on ppc32)
/// costs a few instructions more or less with its value: enough to move
/// every `t=` of the trace by a timebase tick.
pub const DOCS_CLOCK: [&str; 4] =
    ["-icount", "shift=0,sleep=off", "-rtc", "base=2026-01-01T00:00:00"];

/// The ELF qemu/gdbinit loads: `make debug`'s stepping build.
const GDB_ELF: &str = "target/kernel/g3beige/sigil-stepping.elf";

/// Where a piece of generated text goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// The block named `name` in the Markdown file `doc`.
    Block { doc: &'static str, name: String },
    /// A whole file.
    File(&'static str),
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Part::Block { doc, name } => write!(f, "{doc} (block {name})"),
            Part::File(path) => write!(f, "{path}"),
        }
    }
}

/// The groups of parts, each made by one kind of run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// sig_demo booted with trace=signal: the console and its picture.
    Trace,
    /// qemu/debug-session.gdb against the same boot.
    Gdb,
    /// `make bench`: the table and the chart, and the table on qemu-e300.
    Bench,
    /// No run: the signal frames drawn from sigil-core's structs (framedoc).
    Frame,
}

pub const SOURCES: [Source; 4] = [Source::Trace, Source::Gdb, Source::Bench, Source::Frame];

/// What the runs need: the built kernel and user programs.
pub struct Inputs {
    pub kernel: PathBuf,
    pub user_dir: PathBuf,
}

impl Inputs {
    /// The Makefile's outputs for [`BOARD`] under the repository root.
    pub fn built() -> Result<Inputs, String> {
        let root = crate::repo_root();
        let kernel = root.join("target/kernel").join(BOARD).join("sigil.elf");
        let user_dir = root.join("target/user");
        if !kernel.is_file() || !user_dir.join("sig_demo").is_file() {
            return Err(format!(
                "{} or target/user/sig_demo is missing: run `make kernel user` first",
                kernel.display()
            ));
        }
        Ok(Inputs { kernel, user_dir })
    }

    fn config(&self, boot_opts: &[&str]) -> RunConfig {
        let mut cfg = RunConfig::new(BOARD, &self.kernel);
        cfg.init = Some(self.user_dir.join("sig_demo"));
        cfg.bin_dir = Some(self.user_dir.clone());
        cfg.quiet = true;
        cfg.boot_opts = boot_opts.iter().map(|s| s.to_string()).collect();
        cfg.qemu_flags = DOCS_CLOCK.iter().map(|s| s.to_string()).collect();
        cfg.timeout = Duration::from_secs(120);
        cfg
    }
}

/// Runs what `source` needs and returns each part's text.
pub fn generate(source: Source, inputs: &Inputs) -> Result<Vec<(Part, String)>, String> {
    match source {
        Source::Trace => trace_parts(inputs),
        Source::Gdb => gdb_parts(inputs),
        Source::Bench => bench_parts(inputs),
        Source::Frame => Ok(vec![
            (block("docs/frame.md", "frame-classic"), fenced(&crate::framedoc::classic_drawing())),
            (block("docs/frame.md", "frame-rt"), fenced(&crate::framedoc::rt_drawing())),
        ]),
    }
}

fn block(doc: &'static str, name: &str) -> Part {
    Part::Block { doc, name: name.to_owned() }
}

fn fenced(text: &str) -> String {
    format!("```text\n{}```\n", text)
}

fn trace_parts(inputs: &Inputs) -> Result<Vec<(Part, String)>, String> {
    let r = crate::run(&inputs.config(&["trace=signal"]));
    if r.status != Some(0) {
        return Err(format!("sig_demo with trace=signal: exit {}\n{}", r.exit_code(), r.console));
    }
    let events = trace::parse(&r.console)?;
    let title = "sig_demo on g3beige, trace=signal";
    Ok(vec![
        (block("docs/signals.md", "sig_demo-trace"), fenced(&r.console)),
        (Part::File("docs/sig_demo-trace.svg"), trace::svg(&events, title)),
    ])
}

fn bench_parts(inputs: &Inputs) -> Result<Vec<(Part, String)>, String> {
    let measure = |board: &str| {
        let mut base = RunConfig::new(board, &inputs.kernel);
        base.timeout = Duration::from_secs(300);
        bench::measure_everything(&base, &inputs.user_dir, 2)
    };
    let rows = measure(BOARD)?;
    let e300 = measure(E300_BOARD)?;
    Ok(vec![
        (block("docs/benchmarks.md", "bench-table"), bench::table(&rows)),
        (Part::File("docs/benchmarks.svg"), bench::svg(&rows)),
        (block("docs/benchmarks.md", "bench-table-e300"), bench::table(&e300)),
    ])
}

/// The session file splits itself into the docs' steps with this `echo`.
const STEP_MARK: &str = "@@step ";

/// Boots sig_demo halted with a gdb stub, runs qemu/debug-session.gdb in
/// gdb-multiarch against it, and turns gdb's output into one transcript per
/// step: each command as `(gdb) command` (gdb's `trace-commands` echo), then
/// what it printed. gdbinit's own start-up output (it names the port) and the
/// commands nested inside Sigil's gdb helpers are left out.
fn gdb_parts(inputs: &Inputs) -> Result<Vec<(Part, String)>, String> {
    let root = crate::repo_root();
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("no free port for the gdb stub: {e}"))?
        .port();
    let scratch = crate::initramfs::ScratchDir::new("sigil-docgen")?;
    let gdbinit = std::fs::read_to_string(root.join("qemu/gdbinit"))
        .map_err(|e| format!("qemu/gdbinit: {e}"))?;
    // The session runs against the test kernel (the one this boot uses),
    // not the stepping build `make debug` boots, and on its own port.
    let mut patched = gdbinit.clone();
    for (from, to) in [
        ("target remote 127.0.0.1:1234".to_owned(), format!("target remote 127.0.0.1:{port}")),
        (format!("file {}", GDB_ELF), format!("file {}", inputs.kernel.display())),
    ] {
        if !patched.contains(&from) {
            return Err(format!("qemu/gdbinit no longer says `{from}`"));
        }
        patched = patched.replace(&from, &to);
    }
    let init_path = scratch.path().join("gdbinit");
    std::fs::write(&init_path, patched).map_err(|e| format!("{}: {e}", init_path.display()))?;

    let mut cfg = inputs.config(&[]);
    cfg.qemu_flags.extend(["-S".into(), "-gdb".into(), format!("tcp:127.0.0.1:{port}")]);
    let qemu = std::thread::spawn(move || crate::run(&cfg));
    wait_for_listener(port, Duration::from_secs(30))?;
    let out = Command::new("gdb-multiarch")
        .current_dir(&root)
        .args(["-batch", "-nx", "-x"])
        .arg(&init_path)
        .args(["-ex", "set trace-commands on", "-x", "qemu/debug-session.gdb"])
        .output()
        .map_err(|e| format!("cannot run gdb-multiarch: {e}"))?;
    let booted = qemu.join().map_err(|_| "the QEMU thread panicked".to_string())?;
    if booted.status != Some(0) {
        return Err(format!(
            "sig_demo under gdb: exit {}\n{}\ngdb:\n{}{}",
            booted.exit_code(),
            booted.console,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let steps = transcript_steps(&String::from_utf8_lossy(&out.stdout))?;
    Ok(steps
        .into_iter()
        .enumerate()
        .map(|(i, text)| (block("docs/debugging.md", &format!("gdb-{}", i + 1)), fenced(&text)))
        .collect())
}

/// QEMU opens the stub's socket a moment after it starts; gdb must not try
/// before (its `target remote` fails at once), and a probe connection would
/// take the stub's only client slot. So look for the socket in LISTEN state
/// in /proc/net/tcp (local address 0100007F:PORT, state 0A).
fn wait_for_listener(port: u16, limit: Duration) -> Result<(), String> {
    let needle = format!("0100007F:{port:04X} 00000000:0000 0A");
    let start = Instant::now();
    while start.elapsed() < limit {
        let tcp = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
        if tcp.contains(&needle) {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Err(format!("QEMU's gdb stub did not listen on port {port} within {limit:?}"))
}

/// gdb's batch output with `trace-commands` on, cut into the session's steps.
/// `+cmd` lines are commands of the session file, `++cmd` the ones inside a
/// user-defined command; an `echo @@step N` starts step N.
pub fn transcript_steps(output: &str) -> Result<Vec<String>, String> {
    let mut steps: Vec<String> = Vec::new();
    let mut skip_echo_output = false;
    for line in output.lines() {
        if skip_echo_output {
            skip_echo_output = false;
            if line.starts_with(STEP_MARK) {
                continue;
            }
        }
        if let Some(cmd) = line.strip_prefix('+') {
            if cmd.starts_with('+') {
                continue;
            }
            if cmd.starts_with(&format!("echo {STEP_MARK}")) {
                steps.push(String::new());
                skip_echo_output = true;
                continue;
            }
            if cmd == "set trace-commands on" {
                continue;
            }
            if let Some(step) = steps.last_mut() {
                step.push_str(&format!("(gdb) {cmd}\n"));
            }
            continue;
        }
        if let Some(step) = steps.last_mut() {
            step.push_str(line);
            step.push('\n');
        }
    }
    if steps.is_empty() {
        return Err(format!("no `echo {STEP_MARK}N` step in gdb's output:\n{output}"));
    }
    Ok(steps)
}

const BEGIN: &str = "<!-- generated: ";
const END: &str = "<!-- end generated -->";

/// The byte range of block `name`'s contents in `doc` (between the lines).
fn block_range(text: &str, name: &str) -> Result<std::ops::Range<usize>, String> {
    let open = format!("{BEGIN}{name} -->\n");
    let start =
        text.find(&open).ok_or_else(|| format!("no `{BEGIN}{name} -->` line"))? + open.len();
    let len = text[start..].find(END).ok_or_else(|| format!("block {name} has no `{END}`"))?;
    Ok(start..start + len)
}

/// What the docs hold now for `part`.
pub fn current(part: &Part) -> Result<String, String> {
    let root = crate::repo_root();
    match part {
        Part::File(path) => {
            std::fs::read_to_string(root.join(path)).map_err(|e| format!("{path}: {e}"))
        }
        Part::Block { doc, name } => {
            let text =
                std::fs::read_to_string(root.join(doc)).map_err(|e| format!("{doc}: {e}"))?;
            let range = block_range(&text, name).map_err(|e| format!("{doc}: {e}"))?;
            Ok(text[range].to_owned())
        }
    }
}

/// Replaces what the docs hold for `part` with `new`.
pub fn write(part: &Part, new: &str) -> Result<(), String> {
    let root = crate::repo_root();
    let (path, text) = match part {
        Part::File(path) => (root.join(path), new.to_owned()),
        Part::Block { doc, name } => {
            let path = root.join(doc);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{doc}: {e}"))?;
            let range = block_range(&text, name).map_err(|e| format!("{doc}: {e}"))?;
            let (before, old, after) =
                (&text[..range.start], &text[range.clone()], &text[range.end..]);
            let renamed = renamed_addresses(old, new);
            let text = format!("{}{new}{}", follow(before, &renamed), follow(after, &renamed));
            (path, text)
        }
    };
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `None` if the docs hold `new` for `part`, else what differs first.
pub fn difference(part: &Part, new: &str) -> Option<String> {
    let old = match current(part) {
        Ok(t) => t,
        Err(e) => return Some(e),
    };
    if old == new {
        return None;
    }
    let (o, n): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let i = (0..o.len().max(n.len())).find(|&i| o.get(i) != n.get(i)).unwrap_or(0);
    Some(format!(
        "{part} is stale (run `make docs`), first at line {}:\n  docs: {:?}\n  now:  {:?}",
        i + 1,
        o.get(i).unwrap_or(&"<end>"),
        n.get(i).unwrap_or(&"<end>")
    ))
}

/// Every generated block of a Markdown text, concatenated.
fn generated_text(text: &str) -> String {
    let mut all = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(BEGIN) {
        let after = &rest[i..];
        let end = after.find(END).unwrap_or(after.len());
        all.push_str(&after[..end]);
        rest = &after[end..];
        if rest.is_empty() {
            break;
        }
        rest = &rest[END.len().min(rest.len())..];
    }
    all
}

/// The prose of a Markdown text: everything outside its generated blocks.
fn prose(text: &str) -> String {
    let generated = generated_text(text);
    let mut out = text.to_owned();
    for piece in generated.split(BEGIN).filter(|p| !p.is_empty()) {
        out = out.replacen(&format!("{BEGIN}{piece}"), "", 1);
    }
    out
}

/// The distinct addresses of `text` in order of first appearance: words of
/// 8 hex digits after `0x`, not a round 64 KiB boundary such as 0xc0000000
/// (those are layout constants, not numbers of one run).
fn addresses(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let Some(hex) = word.strip_prefix("0x") else { continue };
        let run_number =
            hex.len() == 8 && hex.bytes().all(|b| b.is_ascii_hexdigit()) && !hex.ends_with("0000");
        if run_number && !found.contains(&word) {
            found.push(word);
        }
    }
    found
}

/// How a block's addresses moved between two runs: the k-th distinct address
/// of `old` became the k-th of `new`. Only when both show as many; otherwise
/// the run differs in shape and a person must read the prose again (the docs
/// test then names the stray address).
fn renamed_addresses(old: &str, new: &str) -> Vec<(String, String)> {
    let (old, new) = (addresses(old), addresses(new));
    if old.len() != new.len() {
        return Vec::new();
    }
    old.iter()
        .zip(&new)
        .filter(|(o, n)| o != n)
        .map(|(o, n)| (o.to_string(), n.to_string()))
        .collect()
}

/// `text` with the prose's quotes of a block's addresses following the block
/// (so `make docs` keeps "the node at 0x..." sentences true); other
/// generated blocks are left alone, they are made by their own source.
fn follow(text: &str, renamed: &[(String, String)]) -> String {
    if renamed.is_empty() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let (prose, block) = match rest.find(BEGIN) {
            Some(i) => rest.split_at(i),
            None => (rest, ""),
        };
        let mut prose = prose.to_owned();
        for (old, new) in renamed {
            prose = prose.replace(old.as_str(), new);
        }
        out.push_str(&prose);
        if block.is_empty() {
            return out;
        }
        let end = block.find(END).map_or(block.len(), |e| e + END.len());
        out.push_str(&block[..end]);
        rest = &block[end..];
    }
}

/// Addresses that the prose of `docs` names but no generated block of `docs`
/// shows: numbers copied from a run that the docs no longer hold.
pub fn stray_addresses(docs: &[(String, String)]) -> Vec<String> {
    let shown: String = docs.iter().map(|(_, t)| generated_text(t)).collect();
    let mut stray = Vec::new();
    for (name, text) in docs {
        for word in addresses(&prose(text)) {
            let line = format!("{name}: {word} is in no generated block");
            if !shown.contains(word) && !stray.contains(&line) {
                stray.push(line);
            }
        }
    }
    stray
}

/// The parts of every source, made and compared; the problems found.
pub fn check_all(inputs: &Inputs) -> Vec<String> {
    let mut problems = Vec::new();
    for source in SOURCES {
        match generate(source, inputs) {
            Ok(parts) => {
                problems.extend(parts.iter().filter_map(|(p, t)| difference(p, t)));
            }
            Err(e) => problems.push(format!("{source:?}: {e}")),
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_is_cut_at_the_steps() {
        let gdb = "Remote debugging using :4321\n0x00000000 in ?? ()\n+set trace-commands on\n\
                   +echo @@step 1\\n\n@@step 1\n+break f\nBreakpoint 1 at 0x1\n+sigil-node $n\n\
                   ++set language c\nnode at 0x2\n+echo @@step 2\\n\n@@step 2\n+detach\n";
        let steps = transcript_steps(gdb).unwrap();
        assert_eq!(
            steps,
            [
                "(gdb) break f\nBreakpoint 1 at 0x1\n(gdb) sigil-node $n\nnode at 0x2\n",
                "(gdb) detach\n"
            ]
        );
        assert!(transcript_steps("+break f\n").is_err());
    }

    #[test]
    fn blocks_and_prose() {
        let doc = "intro 0xc0012345 and 0xc0000000\n<!-- generated: a -->\n```text\nnode=0xc0012345\n```\n\
                   <!-- end generated -->\nthen 0xaffff460.\n";
        assert_eq!(&doc[block_range(doc, "a").unwrap()], "```text\nnode=0xc0012345\n```\n");
        assert!(block_range(doc, "b").is_err());
        assert!(!prose(doc).contains("node="));
        let stray = stray_addresses(&[("d.md".into(), doc.into())]);
        assert_eq!(stray, ["d.md: 0xaffff460 is in no generated block"]);
    }

    #[test]
    fn prose_follows_a_rewritten_block() {
        let old = "node=0xc0012345 frame=0xaffff460 again 0xc0012345 base 0xc0000000";
        let new = "node=0xc0054321 frame=0xaffff460 again 0xc0054321 base 0xc0000000";
        let renamed = renamed_addresses(old, new);
        assert_eq!(renamed, [("0xc0012345".to_string(), "0xc0054321".to_string())]);
        let text =
            "the node 0xc0012345.\n<!-- generated: b -->\n0xc0012345\n<!-- end generated -->\n\
                    at 0xc0012345 again";
        assert_eq!(
            follow(text, &renamed),
            "the node 0xc0054321.\n<!-- generated: b -->\n0xc0012345\n<!-- end generated -->\n\
             at 0xc0054321 again"
        );
        assert!(renamed_addresses("0xc0012345", "0xc0054321 0xc0054329").is_empty());
    }
}
