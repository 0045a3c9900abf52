//! Host tests of the ELF loader: plans checked against binutils' readelf on a
//! real static glibc binary, and the rejections of malformed or mutated files.

use super::*;
use std::process::Command;
use std::string::String;
use std::sync::OnceLock;
use std::vec::Vec;
use std::{format, fs, vec};

use crate::layout::TASK_SIZE;

/// A static glibc hello compiled once per test run, and its path.
fn hello() -> &'static (std::path::PathBuf, Vec<u8>) {
    static HELLO: OnceLock<(std::path::PathBuf, Vec<u8>)> = OnceLock::new();
    HELLO.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("sigil-elf-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let src = dir.join("hello.c");
        let exe = dir.join("hello");
        fs::write(&src, "#include <stdio.h>\nint main(void){puts(\"hello\");return 0;}\n").unwrap();
        let status = Command::new("powerpc-linux-gnu-gcc")
            .args(["-O2", "-static", "-o"])
            .arg(&exe)
            .arg(&src)
            .status()
            .expect("powerpc-linux-gnu-gcc not found: install gcc-powerpc-linux-gnu");
        assert!(status.success(), "powerpc-linux-gnu-gcc failed");
        let bytes = fs::read(&exe).unwrap();
        (exe, bytes)
    })
}

/// One `readelf -lW` program header row.
struct Row {
    kind: String,
    offset: u32,
    vaddr: u32,
    filesz: u32,
    memsz: u32,
    flags: String,
    align: u32,
}

/// The entry point and program headers as binutils reads them.
fn readelf(path: &std::path::Path) -> (u32, Vec<Row>) {
    let out = Command::new("powerpc-linux-gnu-readelf")
        .arg("-lW")
        .arg(path)
        .output()
        .expect("powerpc-linux-gnu-readelf not found: install binutils-powerpc-linux-gnu");
    let text = String::from_utf8(out.stdout).unwrap();
    let hex = |s: &str| u32::from_str_radix(s.trim_start_matches("0x"), 16).unwrap();
    let mut entry = None;
    let mut rows = Vec::new();
    for line in text.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        if line.starts_with("Entry point") {
            entry = Some(hex(t[2]));
        } else if t.len() >= 8
            && t[1].starts_with("0x")
            && t[0].chars().all(|c| c.is_ascii_uppercase() || c == '_')
        {
            rows.push(Row {
                kind: t[0].into(),
                offset: hex(t[1]),
                vaddr: hex(t[2]),
                filesz: hex(t[4]),
                memsz: hex(t[5]),
                flags: t[6..t.len() - 1].concat(), // "R E" is two words
                align: hex(t[t.len() - 1]),
            });
        }
    }
    (entry.expect("readelf printed no entry point"), rows)
}

#[test]
fn plan_matches_readelf() {
    let (path, bytes) = hello();
    let plan = parse(bytes, TASK_SIZE).unwrap();
    let (entry, rows) = readelf(path);
    assert_eq!(plan.entry, entry);
    assert_eq!(plan.phnum as usize, rows.len());
    assert_eq!(plan.phent, 32);

    let loads: Vec<_> = rows.iter().filter(|r| r.kind == "LOAD").collect();
    assert_eq!(plan.segments.len(), loads.len());
    for (seg, row) in plan.segments.iter().zip(&loads) {
        assert_eq!(
            (seg.file_offset, seg.vaddr, seg.filesz, seg.memsz),
            (row.offset, row.vaddr, row.filesz, row.memsz)
        );
        let flags = format!(
            "{}{}{}",
            if seg.read { "R" } else { "" },
            if seg.write { "W" } else { "" },
            if seg.exec { "E" } else { "" }
        );
        assert_eq!(flags, row.flags);
    }
    let top = loads.iter().map(|r| r.vaddr + r.memsz).max().unwrap();
    assert_eq!(plan.brk_start, top.next_multiple_of(4096));

    let stack = rows.iter().find(|r| r.kind == "GNU_STACK").expect("GNU_STACK");
    assert_eq!(plan.stack_executable, stack.flags.contains('E'));
    let tls = rows.iter().find(|r| r.kind == "TLS").expect("TLS");
    let want = Tls { vaddr: tls.vaddr, filesz: tls.filesz, memsz: tls.memsz, align: tls.align };
    assert_eq!(plan.tls, Some(want));
}

/// Load the plan into a simulated address space and check that AT_PHDR
/// shows the program headers: that is what static glibc will read.
#[test]
fn phdr_vaddr_shows_the_program_headers() {
    let (_, bytes) = hello();
    let plan = parse(bytes, TASK_SIZE).unwrap();
    let seg = plan
        .segments
        .iter()
        .find(|s| {
            plan.phdr_vaddr >= s.vaddr && plan.phdr_vaddr + 32 * plan.phnum <= s.vaddr + s.filesz
        })
        .expect("program headers inside a loaded segment");
    let mut mem = vec![0u8; seg.memsz as usize];
    let file = seg.file_offset as usize;
    mem[..seg.filesz as usize].copy_from_slice(&bytes[file..file + seg.filesz as usize]);
    let at = (plan.phdr_vaddr - seg.vaddr) as usize;
    let phoff = u32::from_be_bytes(bytes[28..32].try_into().unwrap()) as usize;
    let len = 32 * plan.phnum as usize;
    assert_eq!(mem[at..at + len], bytes[phoff..phoff + len]);
}

/// Overwrite a big-endian u32 or u16 field in a copy of the binary.
fn patched(bytes: &[u8], off: usize, value: &[u8]) -> Vec<u8> {
    let mut v = bytes.to_vec();
    v[off..off + value.len()].copy_from_slice(value);
    v
}

#[test]
fn rejects_what_sigil_cannot_run() {
    let (_, bytes) = hello();
    let phoff = u32::from_be_bytes(bytes[28..32].try_into().unwrap()) as usize;
    let first_load = |field: usize| phoff + field; // program header 0 is the text PT_LOAD
    let note = (0..6)
        .map(|i| phoff + 32 * i)
        .find(|&at| bytes[at..at + 4] == [0, 0, 0, 4])
        .expect("PT_NOTE");
    let cases: &[(&str, usize, &[u8])] = &[
        ("magic", 1, b"X"),
        ("ELFCLASS64", 4, &[2]),
        ("little-endian", 5, &[1]),
        ("EI_VERSION", 6, &[0]),
        ("ET_DYN (static-pie)", 16, &[0, 3]),
        ("EM_X86_64", 18, &[0, 62]),
        ("e_version", 20, &[0, 0, 0, 2]),
        ("e_phentsize", 42, &[0, 40]),
        ("phnum 0", 44, &[0, 0]),
        ("phnum 65", 44, &[0, 65]),
        ("phoff past the end", 28, &[0xff, 0xff, 0xff, 0xf0]),
        ("PT_INTERP", note, &[0, 0, 0, 3]),
        ("filesz > memsz", first_load(20), &[0, 0, 0, 1]),
        ("file bytes past the end", first_load(4), &[0x10, 0, 0, 0]),
        ("above TASK_SIZE", first_load(8), &[0xb0, 0, 0, 0]),
        ("wraps", first_load(8), &[0xff, 0xff, 0xf0, 0]),
        ("vaddr/offset page skew", first_load(8), &[0x10, 0, 0, 8]),
        ("entry outside exec segments", 24, &[0x20, 0, 0, 0]),
    ];
    for (what, off, value) in cases {
        let bad = patched(bytes, *off, value);
        assert_eq!(parse(&bad, TASK_SIZE), Err(ExecError::NoExec), "{what}");
    }
    // A lower user limit (8xx's 0x8000_0000) still takes this binary;
    // one just below its data segment does not.
    assert!(parse(bytes, 0x8000_0000).is_ok());
    assert_eq!(parse(bytes, 0x1001_0000), Err(ExecError::NoExec));
}

#[test]
fn no_gnu_stack_means_executable_stack() {
    let (_, bytes) = hello();
    let phoff = u32::from_be_bytes(bytes[28..32].try_into().unwrap()) as usize;
    let plan = parse(bytes, TASK_SIZE).unwrap();
    let mut v = bytes.to_vec();
    for i in 0..plan.phnum as usize {
        let at = phoff + 32 * i;
        if v[at..at + 4] == PT_GNU_STACK.to_be_bytes() {
            v[at..at + 4].copy_from_slice(&0x6000_0000u32.to_be_bytes()); // PT_LOOS: ignored
        }
    }
    assert!(parse(&v, TASK_SIZE).unwrap().stack_executable);
}

/// Every truncation and many single- and multi-byte mutations of the
/// headers must give Ok or NoExec, never a panic.
#[test]
fn survives_truncation_and_mutation() {
    let (_, bytes) = hello();
    let plan = parse(bytes, TASK_SIZE).unwrap();
    let tls = plan.tls.unwrap();
    let tls_end =
        (tls.vaddr - plan.segments[1].vaddr + plan.segments[1].file_offset + tls.filesz) as usize;
    let needed = plan
        .segments
        .iter()
        .map(|s| (s.file_offset + s.filesz) as usize)
        .max()
        .unwrap()
        .max(tls_end);
    for len in 0..bytes.len() {
        let ok = parse(&bytes[..len], TASK_SIZE).is_ok();
        assert_eq!(ok, len >= needed, "truncated to {len} bytes (segments end at {needed})");
    }
    let phoff = u32::from_be_bytes(bytes[28..32].try_into().unwrap()) as usize;
    let headers = phoff + 32 * usize::from(u16::from_be_bytes([bytes[44], bytes[45]]));
    let mut v = bytes.to_vec();
    for i in 0..headers {
        let keep = v[i];
        for x in [0u8, 0xff, keep ^ 1, keep ^ 0x80, keep.wrapping_add(1), 0x7f] {
            v[i] = x;
            let _ = parse(&v, TASK_SIZE);
        }
        v[i] = keep;
    }
    // xorshift-driven bursts of random bytes in the headers.
    let mut seed = 0x9e37_79b9_u32;
    for _ in 0..20_000 {
        let mut w = bytes[..headers + 64].to_vec();
        for _ in 0..4 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            w[seed as usize % headers] = (seed >> 24) as u8;
        }
        let _ = parse(&w, TASK_SIZE);
    }
}
