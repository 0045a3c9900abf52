//! The kernel's layer order is obeyed: every `crate::` path in a top-level
//! module of kernel/src names a module of its own layer or of a lower one.
//! The order is the `# Layers` block at the top of kernel/src/main.rs (one
//! layer a line, the lowest first); this test reads it from there, so the
//! header and the check cannot drift apart.
//!
//! `ALLOWED` lists the upward edges that remain, each with its reason: it is
//! the honest status of the layering, and it only shrinks (an entry that is
//! no longer needed fails the test too). It is empty now: where a lower
//! layer holds a type an upper one defines, the lower one declares it as a
//! trait's associated type and the upper one implements the trait
//! (`proc::share::Held`, defined by fs). An entry lists the paths it
//! permits (`fs::FdTable`): the edge may name those and nothing else of the
//! module above, and a listed path the code no longer names fails the test
//! as a stale entry does. Run it with `make layers` to
//! print the module graph.
//!
//! What counts as a reference: `crate::a::b`, each path of a use tree
//! (`use crate::{a, b::{c, d}}` names `a`, `b::c`, `b::d`) and the exported
//! macros (`kprintln!`/`kprint!` are `console`'s, `sigtrace!` is
//! `trace`'s); a path's first name is the module it reaches. Comments and
//! string literals are skipped. A `super::` that stays inside a top-level
//! module is no edge; one that climbs to the crate root counts as
//! `crate::`. A name that is no module is an item of main.rs
//! (`crate::shutdown`), the top layer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use sigil_qemu::repo_root;

/// An upward edge still in the tree: from, to, the only paths it may name,
/// why.
type Allowed = (&'static str, &'static str, &'static [&'static str], &'static str);

/// Upward edges still in the tree: none. The last one, proc -> fs for the
/// types a thread holds, became a declaration in proc that fs defines
/// (`proc::share::Held`). A new entry needs its reason and the only paths
/// it may name.
const ALLOWED: &[Allowed] = &[];

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

/// The items of a use tree's `{...}` group (`group` is its text after the
/// `{`), split at its own commas.
fn items(group: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    for (j, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                out.push(&group[start..j]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&group[start..j]);
                start = j + 1;
            }
            _ => {}
        }
    }
    out
}

/// Adds the paths the path or use tree at the start of `s` names, each
/// after `prefix`: `a::{b, c::d}` after `x` is `x::a::b` and `x::a::c::d`.
/// A `self` item names the module itself; a glob (`a::*`) names `a`.
fn paths(s: &str, prefix: &str, out: &mut BTreeSet<String>) {
    let (mut path, mut rest) = (prefix.to_owned(), s.trim_start());
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            for item in items(group).into_iter().filter(|i| !i.trim().is_empty()) {
                paths(item, &path, out);
            }
            return;
        }
        let id = ident(rest);
        if id.is_empty() {
            break;
        }
        if id != "self" {
            path = if path.is_empty() { id.to_owned() } else { format!("{path}::{id}") };
        }
        rest = &rest[id.len()..];
        match rest.strip_prefix("::") {
            Some(r) => rest = r.trim_start(),
            None => break,
        }
    }
    if !path.is_empty() {
        out.insert(path);
    }
}

/// The exported macros and the modules that define them.
const MACROS: [(&str, &str); 3] =
    [("kprintln", "console"), ("kprint", "console"), ("sigtrace", "trace")];

/// The `crate::` paths in `src`, and the modules of exported macros used.
fn references(src: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in src.match_indices("crate::") {
        if at > 0 && src[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        paths(&src[at + 7..], "", &mut out);
    }
    // `crate::kprintln!` is a macro, which the scan below finds, not a module.
    out.retain(|p| !MACROS.iter().any(|(mac, _)| p == mac));
    for (mac, module) in MACROS {
        let call = format!("{mac}!");
        if src.match_indices(&call).any(|(at, _)| {
            at == 0 || !src[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
        }) {
            out.insert(module.to_owned());
        }
    }
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

/// What one module references in another: from which files, by which paths.
#[derive(Default)]
struct Edge {
    files: BTreeSet<String>,
    paths: BTreeSet<String>,
}

/// module -> module it references -> how.
type Graph = BTreeMap<String, BTreeMap<String, Edge>>;

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
        for path in references(&text) {
            let first = path.split("::").next().unwrap_or("");
            let to = if modules.contains(first) { first.to_owned() } else { "main".to_owned() };
            if to != top {
                let edge = g.entry(top.clone()).or_default().entry(to).or_default();
                edge.files.insert(rel.clone());
                edge.paths.insert(path);
            }
        }
    }
    g
}

/// What `check` finds.
#[derive(Debug, Default, PartialEq)]
struct Verdict {
    /// Upward edges no entry allows, and paths a narrowed entry does not list.
    wrong: Vec<String>,
    /// Entries no edge needs, and listed paths no code names any more.
    stale: Vec<String>,
}

/// `g`'s upward edges against the layer numbers in `level` and the
/// exceptions in `allowed`.
fn check(level: &BTreeMap<&str, usize>, g: &Graph, allowed: &[Allowed]) -> Verdict {
    let mut v = Verdict::default();
    let mut used = BTreeSet::new();
    for (from, to) in g {
        for (t, edge) in to.iter().filter(|(t, _)| level[t.as_str()] > level[from.as_str()]) {
            let Some(i) = allowed.iter().position(|(a, b, _, _)| a == from && b == t) else {
                v.wrong.push(format!("{from} -> {t}"));
                continue;
            };
            used.insert(i);
            let only = allowed[i].2;
            for p in edge.paths.iter().filter(|p| !only.contains(&p.as_str())) {
                v.wrong.push(format!("{from} -> {p}"));
            }
            for p in only.iter().filter(|p| !edge.paths.contains(**p)) {
                v.stale.push(format!("{from} -> {p}"));
            }
        }
    }
    for (i, (a, b, _, _)) in allowed.iter().enumerate() {
        if !used.contains(&i) {
            v.stale.push(format!("{a} -> {b}"));
        }
    }
    v
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
    let mut report = String::new();
    for layer in &order {
        for from in layer {
            let Some(to) = g.get(from) else { continue };
            let up = |t: &str| level[t] > level[from.as_str()];
            let names: Vec<String> =
                to.keys().map(|t| if up(t) { format!("{t}(up)") } else { t.clone() }).collect();
            report += &format!("{from:>8} -> {}\n", names.join(" "));
            for (t, edge) in to.iter().filter(|(t, _)| up(t)) {
                let files: Vec<&str> = edge.files.iter().map(String::as_str).collect();
                let paths: Vec<&str> = edge.paths.iter().map(String::as_str).collect();
                report +=
                    &format!("{:>12} {t}: {} ({})\n", "up to", files.join(" "), paths.join(" "));
            }
        }
    }
    println!("kernel module graph (lowest layer first; `(up)` goes against the order):\n{report}");
    let v = check(&level, &g, ALLOWED);
    assert!(v.wrong.is_empty(), "imports against main.rs's layer order: {:?}\n{report}", v.wrong);
    assert!(
        v.stale.is_empty(),
        "ALLOWED lists edges or paths the code no longer has: {:?}",
        v.stale
    );
}

#[test]
fn a_use_tree_names_each_path() {
    let src = "use crate::fs::{FdTable, tmpfs::{self, Node}, };\n\
               let t = crate::mm::STACK_TOP; crate::kprintln!(); sigtrace!(x); \
               $crate::arch::x(); use crate::{proc, dev::tty::*};";
    let got: Vec<String> = references(src).into_iter().collect();
    let want = [
        "console",
        "dev::tty",
        "fs::FdTable",
        "fs::tmpfs",
        "fs::tmpfs::Node",
        "mm::STACK_TOP",
        "proc",
        "trace",
    ];
    assert_eq!(got, want);
}

#[test]
fn a_narrowed_edge_permits_only_its_paths() {
    let level: BTreeMap<&str, usize> = [("low", 0), ("high", 1)].into_iter().collect();
    let edge = |paths: &[&str]| {
        let mut e = Edge::default();
        e.files.insert("low/a.rs".to_owned());
        e.paths.extend(paths.iter().map(|p| p.to_string()));
        let mut to = BTreeMap::new();
        to.insert("high".to_owned(), e);
        let mut g = Graph::new();
        g.insert("low".to_owned(), to);
        g
    };
    let narrow: &[Allowed] = &[("low", "high", &["high::A", "high::b::C"], "")];
    let verdict = |wrong: &[&str], stale: &[&str]| Verdict {
        wrong: wrong.iter().map(|s| s.to_string()).collect(),
        stale: stale.iter().map(|s| s.to_string()).collect(),
    };
    // Exactly the listed paths: fine.
    assert_eq!(check(&level, &edge(&["high::A", "high::b::C"]), narrow), verdict(&[], &[]));
    // One more, even of a listed path's module: wrong.
    assert_eq!(
        check(&level, &edge(&["high::A", "high::b::C", "high::b::f"]), narrow),
        verdict(&["low -> high::b::f"], &[])
    );
    // A listed path no longer named: stale.
    assert_eq!(check(&level, &edge(&["high::A"]), narrow), verdict(&[], &["low -> high::b::C"]));
    // No entry permits nothing; an unused entry is stale.
    assert_eq!(check(&level, &edge(&["high::A"]), &[]), verdict(&["low -> high"], &[]));
    assert_eq!(check(&level, &Graph::new(), narrow), verdict(&[], &["low -> high"]));
}
