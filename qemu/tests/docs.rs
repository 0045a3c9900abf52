//! The docs tell no lies about the code: every source path that README.md and
//! docs/*.md name exists, every `path:item` names an item defined in that
//! file, the frame table of docs/signals.md has the offsets of the real
//! structs, and every part of the docs that is program output (the trace, the
//! gdb session, the bench table, the pictures: `sigil_qemu::docgen`) is what a
//! fresh run prints now, addresses and figures included (`make docs` rewrites
//! them). The last needs the built kernel and programs, on g3beige whatever
//! SIGIL_BOARD says: the docs describe that board.
//!
//! What counts as a reference (so writers know how to be checked):
//! - a path starting with one of `ROOTS` (`kernel/src/uaccess.rs`,
//!   `qemu/tests/`), or `Makefile`: the file or directory must exist;
//! - such a path followed by `:item` or `:Type::item`
//!   (`kernel/src/signal/deliver.rs:handle_signal`): the file must define
//!   `item` (and `Type`), in the way its language defines things (see `defines`).
//!   A `:` followed by a digit (a line number, as in a gdb transcript) is not
//!   an item.
//!
//! Anything else (`target/...` build output, `<name>` placeholders, wildcards,
//! relative links) is not checked.

use std::path::Path;

use sigil_core::signal::frame::{
    MContext, RtSigFrame, SigFrame, UContext, PT_NIP, RT_EXTRA_GAP, SIGNAL_FRAMESIZE,
};
use sigil_qemu::docgen::{self, Inputs, Source};
use sigil_qemu::repo_root;

const ROOTS: [&str; 6] = ["kernel/", "qemu/", "user/", "boards/", "linker/", "docs/"];

/// The documents checked: README.md and every docs/*.md.
fn documents() -> Vec<(String, String)> {
    let root = repo_root();
    let mut names = vec!["README.md".to_owned()];
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|n| (std::fs::read_to_string(root.join(&n)).expect("readable doc"), n))
        .map(|(t, n)| (n, t))
        .collect()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every reference in `text`: (path, optional item).
fn references(text: &str) -> Vec<(String, Option<String>)> {
    let mut refs = Vec::new();
    for token in text.split(|c: char| !(is_ident(c) || "./:-".contains(c))) {
        let token = token.trim_end_matches(['.', ',', ':', '-']);
        if !(ROOTS.iter().any(|r| token.starts_with(r)) || token.starts_with("Makefile")) {
            continue;
        }
        match token.split_once(':') {
            Some((path, item))
                if item.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') =>
            {
                refs.push((path.to_owned(), Some(item.to_owned())))
            }
            Some((path, _)) => refs.push((path.to_owned(), None)),
            None => refs.push((token.to_owned(), None)),
        }
    }
    refs
}

/// Does `source` contain `keyword name` with `name` ending at a word boundary?
fn has_word_after(source: &str, keyword: &str, name: &str) -> bool {
    let needle = format!("{keyword}{name}");
    source.match_indices(&needle).any(|(i, _)| {
        let before_ok = i == 0 || !source[..i].ends_with(is_ident);
        let after_ok = !source[i + needle.len()..].starts_with(is_ident);
        before_ok && after_ok
    })
}

/// Does the file `path` (its text `source`) define `name`?
fn defines(path: &str, source: &str, name: &str) -> Result<bool, String> {
    let line_starts = |suffix: &str| {
        source.lines().any(|l| l.trim_start().starts_with(&format!("{name}{suffix}")))
    };
    Ok(if path.ends_with(".rs") {
        ["fn ", "struct ", "enum ", "trait ", "type ", "const ", "static ", "mod ", "macro_rules! "]
            .iter()
            .any(|k| has_word_after(source, k, name))
    } else if path.ends_with(".S") {
        line_starts(":")
    } else if path.ends_with(".c") || path.ends_with(".h") {
        has_word_after(source, "", &format!("{name}("))
    } else if path.ends_with("gdbinit") || path.ends_with(".gdb") {
        has_word_after(source, "define ", name)
    } else if path.ends_with(".mk") || path.ends_with("Makefile") {
        line_starts(":") || line_starts(" ?=") || line_starts(" :=") || line_starts(" =")
    } else {
        return Err(format!("cannot look for items in {path}"));
    })
}

/// Checks one `path:item` (item may be `Type::name`); None if fine.
fn check_item(path: &str, item: &str) -> Option<String> {
    let source = match std::fs::read_to_string(repo_root().join(path)) {
        Ok(s) => s,
        Err(e) => return Some(format!("{path}: {e}")),
    };
    let mut parts: Vec<&str> = item.split("::").collect();
    let name = parts.pop().expect("split yields one part");
    for owner in parts {
        let owner_defined = ["struct ", "enum ", "trait ", "impl ", "for "]
            .iter()
            .any(|k| has_word_after(&source, k, owner));
        if !owner_defined {
            return Some(format!("{path}:{item}: no type {owner} in {path}"));
        }
    }
    match defines(path, &source, name) {
        Ok(true) => None,
        Ok(false) => Some(format!("{path}:{item}: {name} is not defined in {path}")),
        Err(e) => Some(e),
    }
}

#[test]
fn every_code_reference_in_the_docs_exists() {
    let root = repo_root();
    let mut broken = Vec::new();
    let mut items = 0;
    for (doc, text) in documents() {
        for (path, item) in references(&text) {
            if !Path::new(&root.join(&path)).exists() {
                broken.push(format!("{doc}: {path} does not exist"));
            } else if let Some(item) = item {
                items += 1;
                if let Some(e) = check_item(&path, &item) {
                    broken.push(format!("{doc}: {e}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken references to code:\n  {}", broken.join("\n  "));
    assert!(
        items >= 30,
        "only {items} file:item references found: is the checker still finding them?"
    );
}

/// Fresh runs of `source` produce exactly what the docs show.
fn generated_parts_are_current(source: Source) {
    let inputs = Inputs::built().unwrap_or_else(|e| panic!("{e}"));
    let parts = docgen::generate(source, &inputs).unwrap_or_else(|e| panic!("{source:?}: {e}"));
    let stale: Vec<String> = parts.iter().filter_map(|(p, t)| docgen::difference(p, t)).collect();
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

#[test]
fn quoted_trace_and_its_picture_match_a_fresh_boot() {
    generated_parts_are_current(Source::Trace);
}

#[test]
fn gdb_transcript_matches_a_fresh_session() {
    generated_parts_are_current(Source::Gdb);
}

#[test]
fn bench_table_and_chart_match_a_fresh_make_bench() {
    generated_parts_are_current(Source::Bench);
}

/// docs/frame.md's drawings are the structs' layouts now (no run: cheap).
#[test]
fn frame_drawings_match_the_structs() {
    generated_parts_are_current(Source::Frame);
}

#[test]
fn prose_names_only_addresses_the_generated_parts_show() {
    let stray = docgen::stray_addresses(&documents());
    assert!(stray.is_empty(), "addresses copied from an older run:\n  {}", stray.join("\n  "));
}

#[test]
fn the_reference_parser() {
    let text = "see `kernel/src/a.rs:f`, kernel/src/b.rs, `qemu/src/c.rs:T::g`. At deliver.rs:174 \
                or kernel/src/d.rs:174; target/user/x and user/c/<name>.c, Makefile:trace.";
    let refs = references(text);
    let want: Vec<(String, Option<String>)> = [
        ("kernel/src/a.rs", Some("f")),
        ("kernel/src/b.rs", None),
        ("qemu/src/c.rs", Some("T::g")),
        ("kernel/src/d.rs", None),
        ("user/c/", None),
        ("Makefile", Some("trace")),
    ]
    .iter()
    .map(|(p, i)| (p.to_string(), i.map(str::to_owned)))
    .collect();
    assert_eq!(refs, want);
    assert!(has_word_after("pub fn send(x)", "fn ", "send"));
    assert!(!has_word_after("pub fn sender(x)", "fn ", "send"));
    assert!(!has_word_after("fn resend()", "", "send("));
    assert_eq!(defines("x.S", "  .globl trap_entry\ntrap_entry:\n", "trap_entry"), Ok(true));
    assert_eq!(defines("x.S", "    bl trap_entry\n", "trap_entry"), Ok(false));
    assert!(defines("x.txt", "", "a").is_err());
}

/// The RT frame table and the classic-frame sentence of docs/signals.md,
/// against `sigil-core`'s structs (which compile-time asserts tie to Linux).
#[test]
fn the_frame_table_has_the_real_offsets() {
    use std::mem::offset_of;
    let doc =
        std::fs::read_to_string(repo_root().join("docs/signals.md")).expect("docs/signals.md");
    let gap = SIGNAL_FRAMESIZE + RT_EXTRA_GAP;
    let mc = RtSigFrame::MCONTEXT;
    let uc = RtSigFrame::UCONTEXT;
    let off = |o: usize| o as u32;
    let rows: [(&str, u32); 12] = [
        ("`info`", off(offset_of!(RtSigFrame, info))),
        ("`uc`", uc),
        ("`uc_stack`", uc + off(offset_of!(UContext, uc_stack))),
        ("`uc_regs`", uc + off(offset_of!(UContext, uc_regs))),
        ("`uc_sigmask`", uc + off(offset_of!(UContext, uc_sigmask))),
        ("`uc_mcontext`", uc + off(offset_of!(UContext, uc_mcontext))),
        ("`mc_gregs[PT_NIP]`", mc + 4 * PT_NIP as u32),
        ("`mc_fregs[33]`", mc + off(offset_of!(MContext, mc_fregs))),
        ("`mc_pad[2]`", RtSigFrame::MC_PAD),
        ("`mc_vregs`", mc + off(offset_of!(MContext, mc_vregs))),
        ("`abigap`", off(offset_of!(RtSigFrame, abigap))),
        ("end of frame", RtSigFrame::SIZE),
    ];
    for (name, frame_off) in rows {
        let cells = format!("| r1 + {} | frame + {} | {name}", gap + frame_off, frame_off);
        assert!(doc.contains(&cells), "docs/signals.md should have the row `{cells}`");
    }
    assert!(doc.contains(&format!("| r1 + 0 | frame - {gap} | back chain")));
    let classic = [
        format!("r1 + {SIGNAL_FRAMESIZE} = frame + 0 `sctx`"),
        format!("frame + {} `mctx`", SigFrame::MCONTEXT),
        format!("at frame + {}\n(`mc_pad`)", SigFrame::MC_PAD),
        format!("abigap at frame + {}", offset_of!(SigFrame, abigap)),
        format!("{} bytes in all", SigFrame::SIZE),
    ];
    for words in classic {
        assert!(doc.contains(&words), "docs/signals.md should say `{words}`");
    }
}
