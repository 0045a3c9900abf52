//! `#!` interpreter scripts: parsing the first line as Linux's
//! `binfmt_script` does. The kernel's execve (`kernel/src/fs/exec.rs`)
//! runs the interpreter with argv [interp, arg?, script path, argv[1]...].

/// Linux BINPRM_BUF_SIZE: how much of the file the kernel looks at.
pub const BUF_SIZE: usize = 256;
/// Linux's `exec_binprm` gives up with ELOOP past this many interpreters
/// (`if (depth > 5) return -ELOOP`).
pub const MAX_DEPTH: usize = 5;

/// What a `#!` line names.
#[derive(Debug, PartialEq, Eq)]
pub struct Interp<'a> {
    pub path: &'a [u8],
    /// Everything after the interpreter, blanks trimmed at both ends: one
    /// argument, spaces and all, as Linux passes it.
    pub arg: Option<&'a [u8]>,
}

/// Why a file is not a script Linux would run.
#[derive(Debug, PartialEq, Eq)]
pub enum ScriptError {
    /// Not `#!` at all: another format's business (ENOEXEC if none takes it).
    NotScript,
    /// `#!` with no interpreter, or one that does not fit in BUF_SIZE: ENOEXEC.
    NoInterp,
}

fn blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

/// Parses the start of a file (at most BUF_SIZE bytes are looked at).
pub fn parse(head: &[u8]) -> Result<Interp<'_>, ScriptError> {
    let head = &head[..head.len().min(BUF_SIZE)];
    let line = head.strip_prefix(b"#!").ok_or(ScriptError::NotScript)?;
    let end = line.iter().position(|&c| c == b'\n');
    let line = &line[..end.unwrap_or(line.len())];
    let line = match line.iter().position(|&c| c == 0) {
        Some(i) => &line[..i],
        None => line,
    };
    let start = line.iter().position(|&c| !blank(c)).ok_or(ScriptError::NoInterp)?;
    let line = &line[start..];
    let name_end = line.iter().position(|&c| blank(c)).unwrap_or(line.len());
    // A line cut by the buffer end with the name running to it: the name may
    // be truncated, so Linux refuses (ENOEXEC) rather than run a wrong program.
    if end.is_none() && name_end == line.len() && head.len() == BUF_SIZE {
        return Err(ScriptError::NoInterp);
    }
    let rest = &line[name_end..];
    let arg = match (rest.iter().position(|&c| !blank(c)), rest.iter().rposition(|&c| !blank(c))) {
        (Some(a), Some(b)) => Some(&rest[a..=b]),
        _ => None,
    };
    Ok(Interp { path: &line[..name_end], arg })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpreter_and_one_argument() {
        let i = parse(b"#!/bin/sh\necho hi\n").unwrap();
        assert_eq!(i, Interp { path: b"/bin/sh", arg: None });
        let i = parse(b"#! /bin/busybox  sh -x  \n").unwrap();
        assert_eq!(i, Interp { path: b"/bin/busybox", arg: Some(b"sh -x") });
        let i = parse(b"#!/bin/sh\t-e").unwrap();
        assert_eq!(i.arg, Some(&b"-e"[..]));
    }

    #[test]
    fn what_linux_refuses() {
        assert_eq!(parse(b"\x7fELF"), Err(ScriptError::NotScript));
        assert_eq!(parse(b"#!   \n"), Err(ScriptError::NoInterp));
        assert_eq!(parse(b"#!"), Err(ScriptError::NoInterp));
        let mut long = std::vec![b'#', b'!'];
        long.resize(300, b'a');
        assert_eq!(parse(&long), Err(ScriptError::NoInterp));
        // A long argument is only cut, the interpreter still runs.
        let mut cut = std::vec::Vec::from(&b"#!/bin/sh "[..]);
        cut.resize(300, b'x');
        assert_eq!(parse(&cut).unwrap().arg.unwrap().len(), BUF_SIZE - 10);
    }
}
