//! sigil-trace: turn a captured Sigil console (booted with `trace=signal`)
//! into a timeline picture of its signals.
//!
//! ```text
//! sigil-trace [--svg <out.svg>] [--title <text>] [<console file>|-]
//! ```
//! Reads the console (a file, or stdin), prints the `@sig` events as a table
//! with each delivery's generate -> dequeue pairing, and with `--svg` writes
//! the picture (qemu/src/trace.rs draws it). It does not boot anything:
//! `make trace` captures the console with `sigil-run --output` first, so QEMU
//! is launched in one place only. Exit status: 0, 1 if the console holds no
//! trace event (was the kernel booted with `trace=signal`?), 2 for bad usage
//! or an unreadable file or trace.

use std::io::Read;
use std::process::exit;

use sigil_qemu::trace::{self, signal_name};

const USAGE: &str = "usage: sigil-trace [--svg <out.svg>] [--title <text>] [<console file>|-]";

fn fail(msg: String) -> ! {
    eprintln!("sigil-trace: {msg}");
    exit(2);
}

fn main() {
    let (mut svg, mut title, mut input) = (None, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next().unwrap_or_else(|| fail(format!("{name} needs a value\n{USAGE}")))
        };
        match arg.as_str() {
            "--svg" => svg = Some(value("--svg")),
            "--title" => title = Some(value("--title")),
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            _ if input.is_none() => input = Some(arg),
            other => fail(format!("unexpected argument {other:?}\n{USAGE}")),
        }
    }
    let source = input.unwrap_or_else(|| "-".into());
    let mut console = String::new();
    let read = if source == "-" {
        std::io::stdin().read_to_string(&mut console).map(|_| ())
    } else {
        std::fs::read(&source).map(|b| console = String::from_utf8_lossy(&b).into_owned())
    };
    if let Err(e) = read {
        fail(format!("cannot read {source}: {e}"));
    }
    let events = trace::parse(&console).unwrap_or_else(|e| fail(format!("{source}: {e}")));
    if events.is_empty() {
        eprintln!("sigil-trace: no @sig lines in {source} (boot with trace=signal)");
        exit(1);
    }
    println!("{:>3}  {:<5} {:<10} {:<9} rest", "#", "pid", "event", "signal");
    for (i, e) in events.iter().enumerate() {
        let rest: Vec<String> = e
            .fields
            .iter()
            .filter(|(k, _)| k != "pid" && k != "signo")
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let sig = e.signo().map(signal_name).unwrap_or_default();
        println!("{i:>3}  {:<5} {:<10} {:<9} {}", e.pid, e.kind.name(), sig, rest.join(" "));
    }
    for (g, d) in trace::deliveries(&events) {
        let sig = events[d].signo().map(signal_name).unwrap_or_default();
        println!("delivery: #{g} generate -> #{d} dequeue ({sig} to pid {})", events[d].pid);
    }
    if let Some(path) = svg {
        let title = title.unwrap_or_else(|| format!("Sigil signal trace: {source}"));
        if let Err(e) = std::fs::write(&path, trace::svg(&events, &title)) {
            fail(format!("cannot write {path}: {e}"));
        }
        println!("wrote {path}");
    }
}
