//! Names for the addresses of a kernel oops. The kernel prints bare
//! addresses (nip, lr, the back chain's return addresses); the runner, which
//! knows the ELF it booted, looks them up with binutils' addr2line for the
//! kernel's target, so the report names each function, with file:line and
//! the functions inlined into it, from the ELF's debug info.
//!
//! Why here and not a symbol table in the kernel: a table would need a
//! second link (the table's own size moves the addresses it lists) and
//! bytes in every image, and could name only whole functions; the debug
//! info the ELF already carries also says which inlined function, at which
//! line. The cost: a console captured without the runner (a board booted by
//! U-Boot) is symbolized by hand, with the same addr2line command.

use std::path::Path;
use std::process::Command;

/// The cross addr2line (binutils-powerpc-linux-gnu, installed with the cross gcc).
pub const ADDR2LINE: &str = "powerpc-linux-gnu-addr2line";

/// The addresses an oops or panic report prints after its `SIGIL OOPS`
/// line: nip and lr from the register dump (the trapping instruction and the
/// return address), then the back chain's return addresses. A return
/// address is looked up one instruction back, at the call.
pub fn oops_addresses(console: &str) -> Vec<(&'static str, u32)> {
    let Some(start) = console.find("SIGIL OOPS") else { return Vec::new() };
    let hex = |w: &str| u32::from_str_radix(w.trim_start_matches("0x"), 16).ok();
    let mut out = Vec::new();
    for line in console[start..].lines().skip(1).take(12) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            match pair[0] {
                "nip" => out.extend(hex(pair[1]).map(|a| ("nip", a))),
                "lr" => out.extend(hex(pair[1]).map(|a| ("lr", a))),
                _ => {}
            }
        }
        if words.first() == Some(&"backtrace:") {
            out.extend(words[1..].iter().filter_map(|w| hex(w)).map(|a| ("call", a)));
        }
    }
    out
}

/// The oops's addresses, each with its function (and the ones inlined at
/// that point) and file:line, looked up in `kernel`; None without an oops
/// or without addr2line.
pub fn symbolize_oops(console: &str, kernel: &Path) -> Option<String> {
    let addrs = oops_addresses(console);
    if addrs.is_empty() {
        return None;
    }
    let at: Vec<u32> =
        addrs.iter().map(|&(what, a)| if what == "nip" { a } else { a.wrapping_sub(4) }).collect();
    let out = Command::new(ADDR2LINE)
        .args(["-p", "-f", "-i", "-C", "-e"])
        .arg(kernel)
        .args(at.iter().map(|a| format!("{a:#x}")))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let root = format!("{}/", crate::repo_root().display());
    let text = String::from_utf8_lossy(&out.stdout).replace(&root, "");
    // One answer per address: a first line, then its " (inlined by)" lines.
    let mut answers: Vec<Vec<&str>> = Vec::new();
    for line in text.lines() {
        match answers.last_mut() {
            Some(a) if line.starts_with(" (inlined by)") => a.push(line.trim_start()),
            _ => answers.push(vec![line]),
        }
    }
    let mut s = format!("oops addresses in {}:\n", kernel.display());
    for ((what, addr), lines) in addrs.iter().zip(&answers) {
        s.push_str(&format!("  {what:<4} {addr:#010x}  {}\n", lines[0]));
        for l in &lines[1..] {
            s.push_str(&format!("                     {l}\n"));
        }
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_addresses_of_an_oops_in_order() {
        let console = "boot\n\nSIGIL OOPS: kernel access to a bad user address\n  trap 0x300  nip 0xc00361f8  msr 0x00009032  lr 0xc0036300\n  dar 0x00000000  dsisr 0x40000000  cr 0x22000044  ctr 0x00000000\n  r0  00000000 c00b1000 00000000 00000000\n  backtrace: 0xc0036300 0xc0012344\n";
        assert_eq!(
            oops_addresses(console),
            [("nip", 0xc00361f8), ("lr", 0xc0036300), ("call", 0xc0036300), ("call", 0xc0012344)]
        );
        assert!(oops_addresses("no oops here\n  backtrace: 0xc0000000\n").is_empty());
    }
}
