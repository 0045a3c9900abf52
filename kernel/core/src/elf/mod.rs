//! ELF: turn a static ppc32 executable into a [`LoadPlan`] the kernel can map.
//!
//! Owns the validation of untrusted ELF bytes. The exec path calls [`parse`] on
//! the file found in the initramfs, then maps each [`Segment`], sets the program
//! break to [`LoadPlan::brk_start`] and builds the initial stack (`exec.rs`)
//! from the `phdr_*` fields. Nothing here touches memory outside the byte slice.
//!
//! # What is read
//! Only two fixed structures of the System V ABI, both big-endian on ppc32:
//!
//! ```text
//!  file offset 0            e_phoff                      (sections: ignored)
//!  +--------------------+---+----------------------------+------ ... ------+
//!  | ELF header (52 B)  |   | program headers, 32 B each | segment bytes   |
//!  +--------------------+---+----------------------------+------ ... ------+
//!    e_ident[16] type machine version entry phoff ... phentsize phnum
//! ```
//!
//! A program header says "bytes `[p_offset, p_offset + p_filesz)` of the file
//! belong at `[p_vaddr, p_vaddr + p_memsz)`; the rest up to `p_memsz` is zero
//! (that is `.bss`)". Section headers are for linkers and debuggers: the loader,
//! like Linux's `binfmt_elf`, never looks at them.
//!
//! # Invariants of a returned plan
//! Every check is done here, once, so the mapper can trust the plan:
//! - each segment's file bytes lie inside the file and `filesz <= memsz`;
//! - each segment's memory range lies below `user_limit` without wrapping;
//! - `vaddr % PAGE_SIZE == file_offset % PAGE_SIZE`, so a page-granular mapper
//!   can copy (or map) whole file pages;
//! - segments are in ascending, non-overlapping order (the ELF spec demands
//!   ascending order); two segments may still share one page, so the mapper
//!   must merge their permissions for that page;
//! - the entry point lies in an executable segment.
//!
//! Any violation is [`ExecError::NoExec`] (`ENOEXEC`); no input can panic.
//!
//! # Why hand-written
//! The `elf` crate (no_std, zero dependencies) and `xmas-elf` were evaluated.
//! We read two fixed-layout records and ~15 fields, so a crate would save
//! ~40 lines of byte reading while the validation below is needed either way;
//! and `elf::ElfBytes::minimal_parse` also rejects files whose *section*
//! table is out of bounds, which a loader must ignore. Reading the fields by
//! hand also shows a student exactly where each one lives.

use alloc::vec::Vec;

use crate::exec::{ExecError, PAGE_SIZE};

/// Size of the ELF32 header and of one ELF32 program header.
const EHDR_SIZE: usize = 52;
const PHDR_SIZE: usize = 32;
/// Linux refuses a program header table larger than a page (128 headers);
/// 64 is plenty for a static binary (a glibc hello has 6) and bounds the
/// work done on junk.
const MAX_PHNUM: usize = 64;

/// `e_ident` values: 32-bit objects, big-endian ("MSB"), version 1.
const ELFCLASS32: u8 = 1;
const ELFDATA2MSB: u8 = 2;
const EV_CURRENT: u8 = 1;
/// `e_type` ET_EXEC: linked at fixed addresses (static-pie would be ET_DYN).
const ET_EXEC: u16 = 2;
const EM_PPC: u16 = 20;

/// Program header types the loader cares about.
const PT_LOAD: u32 = 1;
const PT_INTERP: u32 = 3;
const PT_PHDR: u32 = 6;
const PT_TLS: u32 = 7;
const PT_GNU_STACK: u32 = 0x6474_e551;

/// `p_flags` permission bits.
const PF_X: u32 = 1;
const PF_W: u32 = 2;
const PF_R: u32 = 4;

/// One PT_LOAD segment: copy `filesz` bytes from `file_offset` to `vaddr`,
/// zero the rest up to `memsz`. Addresses are the raw ELF values, not rounded
/// to pages: the mapper rounds `vaddr` down and `vaddr + memsz` up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub vaddr: u32,
    pub memsz: u32,
    pub file_offset: u32,
    pub filesz: u32,
    pub read: bool,
    pub write: bool,
    pub exec: bool,
}

/// The PT_TLS template. The kernel does not need it (static glibc finds it
/// through AT_PHDR and sets r2 itself); it is reported for tools and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tls {
    pub vaddr: u32,
    pub filesz: u32,
    pub memsz: u32,
    pub align: u32,
}

/// Everything exec needs from the file, already validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadPlan {
    /// `e_entry`: the first user instruction (glibc's `_start`).
    pub entry: u32,
    /// Non-empty PT_LOAD segments in ascending address order.
    pub segments: Vec<Segment>,
    /// AT_PHDR: where the program headers are visible in user memory, or 0 if
    /// no loaded segment contains them (Linux passes 0 too; static glibc then
    /// falls back to `__ehdr_start`).
    pub phdr_vaddr: u32,
    /// AT_PHNUM and AT_PHENT (always 32).
    pub phnum: u32,
    pub phent: u32,
    /// Initial program break: end of the highest segment, rounded up to a page.
    pub brk_start: u32,
    /// PT_GNU_STACK's PF_X; without PT_GNU_STACK Linux ppc32 makes the stack
    /// executable (old toolchains put signal trampolines there).
    pub stack_executable: bool,
    pub tls: Option<Tls>,
}

/// One raw program header, fields in file order minus `p_paddr`.
#[derive(Clone, Copy)]
struct Phdr {
    p_type: u32,
    offset: u32,
    vaddr: u32,
    filesz: u32,
    memsz: u32,
    flags: u32,
    align: u32,
}

/// Big-endian reads at fixed offsets of a record already cut to size; the
/// callers pass constant offsets inside the record, so these cannot fail.
fn be16<const N: usize>(rec: &[u8; N], off: usize) -> u16 {
    u16::from_be_bytes([rec[off], rec[off + 1]])
}

fn be32<const N: usize>(rec: &[u8; N], off: usize) -> u32 {
    u32::from_be_bytes([rec[off], rec[off + 1], rec[off + 2], rec[off + 3]])
}

/// `&file[start..start + len]` as a fixed-size record, or NoExec if it runs
/// past the end of the file (or `start + len` overflows).
fn record<const N: usize>(file: &[u8], start: usize) -> Result<&[u8; N], ExecError> {
    let end = start.checked_add(N).ok_or(ExecError::NoExec)?;
    let bytes = file.get(start..end).ok_or(ExecError::NoExec)?;
    bytes.try_into().map_err(|_| ExecError::NoExec)
}

/// True if `[start, start + len)` fits inside `[0, limit)` without wrapping.
fn fits(start: u32, len: u32, limit: u64) -> bool {
    u64::from(start) + u64::from(len) <= limit
}

/// Validate `file` as a static ppc32 executable whose segments all lie below
/// `user_limit` (Sigil passes TASK_SIZE, 0xb000_0000), and describe how to
/// load it. Called by the kernel's execve; never panics.
pub fn parse(file: &[u8], user_limit: u32) -> Result<LoadPlan, ExecError> {
    let ehdr: &[u8; EHDR_SIZE] = record(file, 0)?;
    // e_ident: "\x7fELF", class, data (byte order), version; OS ABI ignored
    // as Linux does.
    if ehdr[..4] != *b"\x7fELF"
        || ehdr[4] != ELFCLASS32
        || ehdr[5] != ELFDATA2MSB
        || ehdr[6] != EV_CURRENT
        || be16(ehdr, 16) != ET_EXEC
        || be16(ehdr, 18) != EM_PPC
        || be32(ehdr, 20) != u32::from(EV_CURRENT)
        || usize::from(be16(ehdr, 42)) != PHDR_SIZE
    {
        return Err(ExecError::NoExec);
    }
    let entry = be32(ehdr, 24);
    let phoff = be32(ehdr, 28);
    let phnum = usize::from(be16(ehdr, 44));
    if !(1..=MAX_PHNUM).contains(&phnum) {
        return Err(ExecError::NoExec);
    }

    let table = usize::try_from(phoff).map_err(|_| ExecError::NoExec)?;
    let mut phdrs = Vec::with_capacity(phnum);
    for i in 0..phnum {
        let start = table.checked_add(i * PHDR_SIZE).ok_or(ExecError::NoExec)?;
        let rec: &[u8; PHDR_SIZE] = record(file, start)?;
        phdrs.push(Phdr {
            p_type: be32(rec, 0),
            offset: be32(rec, 4),
            vaddr: be32(rec, 8),
            // p_paddr at 12 is for firmware loaders, not for exec.
            filesz: be32(rec, 16),
            memsz: be32(rec, 20),
            flags: be32(rec, 24),
            align: be32(rec, 28),
        });
    }
    let table_len = (phnum * PHDR_SIZE) as u32; // <= 64 * 32
    build_plan(file.len(), &phdrs, entry, phoff, table_len, user_limit)
}

/// Check the program headers against each other and the file, and collect
/// the plan. Split from [`parse`] so that one reads bytes and one reasons.
fn build_plan(
    file_len: usize,
    phdrs: &[Phdr],
    entry: u32,
    phoff: u32,
    table_len: u32,
    user_limit: u32,
) -> Result<LoadPlan, ExecError> {
    let file_len = file_len as u64;
    let mut segments: Vec<Segment> = Vec::new();
    let mut phdr_from_load = None;
    let mut phdr_from_pt_phdr = None;
    let mut stack_executable = true;
    let mut tls = None;

    for ph in phdrs {
        match ph.p_type {
            // A PT_INTERP asks for ld.so: Sigil runs static binaries only.
            PT_INTERP => return Err(ExecError::NoExec),
            PT_LOAD => {
                if !fits(ph.offset, ph.filesz, file_len)
                    || ph.filesz > ph.memsz
                    || !fits(ph.vaddr, ph.memsz, u64::from(user_limit))
                    || ph.vaddr % PAGE_SIZE != ph.offset % PAGE_SIZE
                {
                    return Err(ExecError::NoExec);
                }
                if ph.memsz == 0 {
                    continue; // maps nothing; Linux skips it too
                }
                if let Some(prev) = segments.last() {
                    if ph.vaddr < prev.vaddr + prev.memsz {
                        return Err(ExecError::NoExec);
                    }
                }
                // AT_PHDR the way Linux >= 5.18 computes it: the address at
                // which this segment makes the program header table visible.
                if ph.offset <= phoff
                    && u64::from(phoff) + u64::from(table_len)
                        <= u64::from(ph.offset) + u64::from(ph.filesz)
                {
                    phdr_from_load.get_or_insert(phoff - ph.offset + ph.vaddr);
                }
                segments.push(Segment {
                    vaddr: ph.vaddr,
                    memsz: ph.memsz,
                    file_offset: ph.offset,
                    filesz: ph.filesz,
                    read: ph.flags & PF_R != 0,
                    write: ph.flags & PF_W != 0,
                    exec: ph.flags & PF_X != 0,
                });
            }
            PT_PHDR => phdr_from_pt_phdr = Some(ph.vaddr),
            PT_GNU_STACK => stack_executable = ph.flags & PF_X != 0,
            PT_TLS if tls.is_none() => {
                if !fits(ph.offset, ph.filesz, file_len)
                    || ph.filesz > ph.memsz
                    || !fits(ph.vaddr, ph.memsz, u64::from(user_limit))
                {
                    return Err(ExecError::NoExec);
                }
                tls = Some(Tls {
                    vaddr: ph.vaddr,
                    filesz: ph.filesz,
                    memsz: ph.memsz,
                    align: ph.align,
                });
            }
            _ => {} // PT_NOTE, PT_GNU_RELRO, ...: for glibc and tools, not for exec
        }
    }

    let last = segments.last().ok_or(ExecError::NoExec)?;
    // Cannot overflow: the segment ends at or below user_limit <= u32::MAX, and
    // rounding up to a page only fails within the last page of the 4 GiB.
    let brk_start =
        (last.vaddr + last.memsz).checked_next_multiple_of(PAGE_SIZE).ok_or(ExecError::NoExec)?;
    let entry_ok = segments.iter().any(|s| s.exec && entry >= s.vaddr && entry - s.vaddr < s.memsz);
    if !entry_ok {
        return Err(ExecError::NoExec);
    }
    Ok(LoadPlan {
        entry,
        phdr_vaddr: phdr_from_load.or(phdr_from_pt_phdr).unwrap_or(0),
        phnum: phdrs.len() as u32,
        phent: PHDR_SIZE as u32,
        segments,
        brk_start,
        stack_executable,
        tls,
    })
}

#[cfg(test)]
mod tests;
