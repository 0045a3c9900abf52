//! board: reads a board description (`boards/<name>.mk`) and gives its QEMU command.
//!
//! A board file is a few Make variable assignments (`KEY = value`, also `:=`
//! and `?=`), with `#` comments and backslash line continuations. The runner
//! needs `QEMU_CMD`, and `BOOT_OPTS` (boot options the board always needs,
//! put before the run's own); the whole map is kept so callers can read others.
//! Values are taken literally: Make would expand `$(VAR)` references, but board
//! files do not use them, and a `$` in QEMU_CMD is reported as an error rather
//! than passed to QEMU half-expanded.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// A parsed board file.
#[derive(Debug, Clone)]
pub struct Board {
    /// Where it was read from (for messages).
    pub path: PathBuf,
    /// Every `KEY = value` of the file, values trimmed.
    pub vars: BTreeMap<String, String>,
}

impl Board {
    /// Read `boards/<name>.mk` under `repo_root`, or `name` itself when it is
    /// a path (contains `/` or ends in `.mk`).
    pub fn load(repo_root: &Path, name: &str) -> Result<Board, String> {
        let path = if name.contains('/') || name.ends_with(".mk") {
            PathBuf::from(name)
        } else {
            repo_root.join("boards").join(format!("{name}.mk"))
        };
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read board file {}: {e}", path.display()))?;
        Ok(Board { vars: parse_vars(&text), path })
    }

    /// `QEMU_CMD` split into words: the program and its arguments.
    pub fn qemu_cmd(&self) -> Result<Vec<String>, String> {
        let cmd = self.vars.get("QEMU_CMD").ok_or_else(|| {
            format!("{} has no QEMU_CMD: this board cannot run in QEMU", self.path.display())
        })?;
        if cmd.contains('$') {
            return Err(format!(
                "{}: QEMU_CMD uses a Make reference ($), which the runner does not expand",
                self.path.display()
            ));
        }
        let words: Vec<String> = cmd.split_whitespace().map(str::to_owned).collect();
        if words.is_empty() {
            return Err(format!("{}: QEMU_CMD is empty", self.path.display()));
        }
        Ok(words)
    }

    /// `BOOT_OPTS` split into words (none if the board has no such line).
    pub fn boot_opts(&self) -> Vec<String> {
        self.vars
            .get("BOOT_OPTS")
            .map_or(Vec::new(), |v| v.split_whitespace().map(str::to_owned).collect())
    }
}

/// Parse Make-style `KEY = value` lines. Comments run from an unescaped `#`
/// to the end of the line; a trailing `\` joins the next line with a space.
pub fn parse_vars(text: &str) -> BTreeMap<String, String> {
    let mut vars = BTreeMap::new();
    let mut logical = String::new();
    for raw in text.lines() {
        let line = strip_comment(raw);
        if let Some(head) = line.strip_suffix('\\') {
            logical.push_str(head);
            logical.push(' ');
            continue;
        }
        logical.push_str(&line);
        if let Some((key, value)) = split_assignment(&logical) {
            vars.insert(key, value);
        }
        logical.clear();
    }
    vars
}

/// The line up to its first `#` that is not written `\#`.
fn strip_comment(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'#') => {
                out.push('#');
                chars.next();
            }
            '#' => break,
            _ => out.push(c),
        }
    }
    out.trim_end().to_owned()
}

/// `KEY op value` with op one of `=`, `:=`, `::=`, `?=`; anything else (rules,
/// directives, blank lines) is not an assignment.
fn split_assignment(line: &str) -> Option<(String, String)> {
    let eq = line.find('=')?;
    let key = line[..eq].trim_end_matches([':', '?']).trim();
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((key.to_owned(), line[eq + 1..].trim().to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_assignments_and_skips_comments() {
        let vars = parse_vars(
            "# Board: test\nBOARD_DESC   = a board  # trailing comment\nUSER_CFLAGS  =\n\
             QEMU_CMD := qemu-system-ppc -M g3beige \\\n   -m 256\nX ?= \\# not a comment\nrule: dep\n",
        );
        assert_eq!(vars["BOARD_DESC"], "a board");
        assert_eq!(vars["USER_CFLAGS"], "");
        assert_eq!(vars["QEMU_CMD"], "qemu-system-ppc -M g3beige     -m 256");
        assert_eq!(vars["X"], "# not a comment");
        assert_eq!(vars.len(), 4);
    }

    #[test]
    fn qemu_cmd_is_split_into_words() {
        let board = Board {
            path: "t.mk".into(),
            vars: parse_vars("QEMU_CMD = qemu-system-ppc -M g3beige  -m 256\n"),
        };
        assert_eq!(board.qemu_cmd().unwrap(), ["qemu-system-ppc", "-M", "g3beige", "-m", "256"]);
        let missing = Board { path: "t.mk".into(), vars: parse_vars("A = b\n") };
        assert!(missing.qemu_cmd().is_err());
        assert!(missing.boot_opts().is_empty());
        let opts =
            Board { path: "t.mk".into(), vars: parse_vars("BOOT_OPTS = console=ttyS0  quiet\n") };
        assert_eq!(opts.boot_opts(), ["console=ttyS0", "quiet"]);
    }

    #[test]
    fn the_real_boards_have_a_qemu_command() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        for name in ["g3beige", "g3beige-pci-serial", "qemu-e300"] {
            let cmd = Board::load(root, name).unwrap().qemu_cmd().unwrap();
            assert_eq!(cmd[0], "qemu-system-ppc", "{name}");
        }
    }
}
