//! sigil-docs: `make docs`. Makes again the parts of docs/ that are program
//! output (the sig_demo trace and its picture, the gdb session, the bench
//! table and chart, the frame drawings; `sigil_qemu::docgen` says which and how) and writes them
//! into the docs (a prose quote of an address a block shows follows the
//! block), or with `--check` only says which are stale.
//!
//! ```text
//! sigil-docs [--check] [--only trace,gdb,bench,frame]
//! ```
//! Exit status: 0, 1 if `--check` found a stale part or a run failed, 2 for
//! bad usage. The kernel and user programs must be built (`make docs` does it).

use std::process::exit;

use sigil_qemu::docgen::{self, Inputs, Source, SOURCES};

const USAGE: &str = "usage: sigil-docs [--check] [--only trace,gdb,bench,frame]";

fn source_named(name: &str) -> Option<Source> {
    SOURCES.into_iter().find(|s| format!("{s:?}").eq_ignore_ascii_case(name))
}

fn main() {
    let (mut check, mut only) = (false, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--only" => {
                let names = args.next().unwrap_or_default();
                let picked: Option<Vec<Source>> = names.split(',').map(source_named).collect();
                only = Some(picked.unwrap_or_else(|| {
                    eprintln!("sigil-docs: --only takes trace, gdb, bench, frame\n{USAGE}");
                    exit(2)
                }));
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            other => {
                eprintln!("sigil-docs: unexpected argument {other:?}\n{USAGE}");
                exit(2);
            }
        }
    }
    let inputs = Inputs::built().unwrap_or_else(|e| {
        eprintln!("sigil-docs: {e}");
        exit(1)
    });
    let mut failed = false;
    for source in only.unwrap_or_else(|| SOURCES.to_vec()) {
        eprintln!("sigil-docs: {source:?}...");
        let parts = match docgen::generate(source, &inputs) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("sigil-docs: {source:?}: {e}");
                failed = true;
                continue;
            }
        };
        for (part, text) in parts {
            match docgen::difference(&part, &text) {
                None => println!("up to date: {part}"),
                Some(why) if check => {
                    println!("{why}");
                    failed = true;
                }
                Some(_) => match docgen::write(&part, &text) {
                    Ok(()) => println!("rewrote: {part}"),
                    Err(e) => {
                        eprintln!("sigil-docs: {e}");
                        failed = true;
                    }
                },
            }
        }
    }
    exit(i32::from(failed));
}
