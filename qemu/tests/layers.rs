//! The kernel's layer order is obeyed: every `crate::` path in a top-level
//! module of kernel/src names a module of its own layer or of a lower one.
//! The order is the `# Layers` block at the top of kernel/src/main.rs (one
//! layer a line, the lowest first); this test reads it from there, so the
//! header and the check cannot drift apart.
//!
//! `ALLOWED` lists the upward edges that remain, each with its reason: it is
//! the honest status of the layering, and it only shrinks (an entry that is
//! no longer needed fails the test too). Run it with `make layers` to print
//! the module graph.
//!
//! What counts as a reference: `crate::a`, the items of `use crate::{a, b::c}`
//! and the exported macros (`kprintln!`/`kprint!` are `console`'s,
//! `sigtrace!` is `trace`'s). Comments and string literals are skipped. A
//! `super::` that stays inside a top-level module is no edge; one that
//! climbs to the crate root counts as `crate::`. A name that is no
//! module is an item of main.rs (`crate::shutdown`), the top layer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use sigil_qemu::repo_root;

/// Upward edges still in the tree: (from, to, why).
const ALLOWED: &[(&str, &str, &str)] = &[
    ("proc", "fs", "a process owns its file table, cwd and /proc view; exec reads the binary through the file tree"),
];

/// The layers in main.rs's `# Layers` block, lowest first.
fn layers(main_rs: &str) -> Vec<Vec<String>> {
    let mut lines = main_rs.lines().skip_while(|l| l.trim() != "//! # Layers");
    let block = lines.by_ref().skip_while(|l| l.trim() != "//! ```text").skip(1);
    block
        .take_while(|l| l.trim() != "//! ```")
        .map(|l| {
            let body = l.trim_start_matches("//!");
            let mods = body.split('|').next().unwrap_or("");
            mods.split_whitespace().map(str::to_owned).collect()
        })
        .collect()
}

/// The source without comments and with empty string literals.
fn strip(src: &str) -> String {
    let (b, mut out, mut i) = (src.as_bytes(), String::new(), 0);
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'"' && (i == 0 || b[i - 1] != b'\'') {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The first names of `crate::` paths in `src`, and of exported macros used.
fn references(src: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in src.match_indices("crate::") {
        if at > 0 && src[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &src[at + 7..];
        if let Some(group) = rest.strip_prefix('{') {
            // The items of `use crate::{a, b::{c, d}}` at depth 0.
            let (mut depth, mut start) = (0, 0);
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.insert(ident(group[start..j].trim()).to_owned());
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.insert(ident(group[start..j].trim()).to_owned());
                        start = j + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident(rest).to_owned());
        }
    }
    for (mac, module) in [("kprintln!", "console"), ("kprint!", "console"), ("sigtrace!", "trace")]
    {
        if src.match_indices(mac).any(|(at, _)| {
            at == 0 || !src[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
        }) {
            out.insert(module.to_owned());
        }
    }
    for (mac, module) in [("kprintln", "console"), ("kprint", "console"), ("sigtrace", "trace")] {
        if out.remove(mac) {
            out.insert(module.to_owned());
        }
    }
    out.remove("");
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable directory") {
        let p = e.expect("directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// module -> module it references -> the files that do.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

fn graph(src: &Path, modules: &BTreeSet<String>) -> Graph {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut g = Graph::new();
    for f in files {
        let rel = f.strip_prefix(src).unwrap().to_string_lossy().into_owned();
        let top = match rel.split('/').next().unwrap() {
            "main.rs" => "main".to_owned(),
            t => t.trim_end_matches(".rs").to_owned(),
        };
        // `super::` climbs to the crate root from a top-level module's own
        // file (`a.rs`, `a/mod.rs`), `super::super::` from `a/b.rs`, ...
        let depth = rel.trim_end_matches("/mod.rs").trim_end_matches(".rs").split('/').count();
        let text = std::fs::read_to_string(&f).expect("readable source");
        let text = strip(&text).replace(&"super::".repeat(depth), "crate::");
        for r in references(&text) {
            let to = if modules.contains(&r) { r } else { "main".to_owned() };
            if to != top {
                g.entry(top.clone()).or_default().entry(to).or_default().insert(rel.clone());
            }
        }
    }
    g
}

#[test]
fn imports_obey_the_layer_order() {
    let src = repo_root().join("kernel/src");
    let main_rs = std::fs::read_to_string(src.join("main.rs")).expect("kernel/src/main.rs");
    let order = layers(&main_rs);
    assert!(order.len() > 3, "no `# Layers` block in kernel/src/main.rs");
    let level: BTreeMap<&str, usize> = order
        .iter()
        .enumerate()
        .flat_map(|(i, l)| l.iter().map(move |m| (m.as_str(), i)))
        .collect();

    // Every top-level module (a file or a folder of kernel/src) has a layer.
    let mut modules = BTreeSet::new();
    for e in std::fs::read_dir(&src).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        let m = name.trim_end_matches(".rs").to_owned();
        assert!(level.contains_key(m.as_str()), "kernel/src/{name} is in no layer of main.rs");
        modules.insert(m);
    }
    modules.remove("main");
    for m in level.keys() {
        assert!(
            *m == "main" || modules.contains(*m),
            "main.rs's layers name `{m}`: no such module"
        );
    }

    let g = graph(&src, &modules);
    let (mut report, mut wrong, mut used) = (String::new(), Vec::new(), BTreeSet::new());
    for layer in &order {
        for from in layer {
            let Some(to) = g.get(from) else { continue };
            let names: Vec<String> = to
                .keys()
                .map(|t| {
                    if level[t.as_str()] > level[from.as_str()] {
                        format!("{t}(up)")
                    } else {
                        t.clone()
                    }
                })
                .collect();
            report += &format!("{from:>8} -> {}\n", names.join(" "));
            for (t, files) in to.iter().filter(|(t, _)| level[t.as_str()] > level[from.as_str()]) {
                match ALLOWED.iter().position(|(a, b, _)| a == from && b == t) {
                    Some(i) => {
                        used.insert(i);
                    }
                    None => wrong.push(format!("{from} -> {t}")),
                }
                let files: Vec<&str> = files.iter().map(String::as_str).collect();
                report += &format!("{:>12} {t}: {}\n", "up to", files.join(" "));
            }
        }
    }
    println!("kernel module graph (lowest layer first; `(up)` goes against the order):\n{report}");
    let stale: Vec<_> =
        ALLOWED.iter().enumerate().filter(|(i, _)| !used.contains(i)).map(|(_, e)| e).collect();
    assert!(wrong.is_empty(), "imports against main.rs's layer order: {wrong:?}\n{report}");
    assert!(stale.is_empty(), "ALLOWED lists edges the code no longer has: {stale:?}");
}
