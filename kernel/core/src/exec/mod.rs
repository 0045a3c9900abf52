//! exec: the initial user stack of a new program, built as Linux ppc32 builds it.
//!
//! Owns the byte image the kernel copies to the top of a fresh user stack at
//! execve: argc, argv, envp, the auxiliary vector and the strings they point
//! to (Linux `fs/binfmt_elf.c: create_elf_tables`). The kernel's execve calls
//! [`build_stack`] with the [`crate::elf::LoadPlan`] values, copies
//! [`StackImage::bytes`] to `[sp, stack_top)`, sets r1 = sp, clears r2-r31 and
//! jumps to the entry point. Also owns [`ExecError`], the error of the whole
//! exec path (ELF parsing here, mapping and copying in the kernel).
//!
//! # The picture (addresses grow upward; `stack_top` is the highest)
//!
//! ```text
//!  stack_top -> +---------------------------+
//!               | 0 (4 bytes)               |  end marker, as Linux
//!               | execfn "/bin/sh\0"        |  <- AT_EXECFN
//!               | envp strings "K=V\0" ...  |  (envp[n-1] highest)
//!               | argv strings "sh\0" ...   |  <- argv[0] is the lowest string
//!               | 0-15 bytes padding        |  align down to 16 (Linux also
//!               |                           |  drops 0-4 KiB here for ASLR)
//!               | platform "ppc750\0"       |  <- AT_PLATFORM
//!               | 16 random bytes           |  <- AT_RANDOM (unaligned is fine)
//!               | 0-15 bytes padding        |  so that sp is 16-aligned
//!               | AT_NULL, 0                |
//!               | ... (type, value) pairs   |  auxv: 8 bytes per entry
//!               | AT_IGNOREPPC, 22  (x2)    |  <- auxv starts right after envp's NULL
//!               | NULL                      |
//!               | envp[0..envc]             |  pointers into the strings above
//!               | NULL                      |
//!               | argv[0..argc]             |
//!  sp (r1) ---> | argc                      |  16-byte aligned
//!               +---------------------------+
//! ```
//!
//! What to learn from it:
//! - The program finds everything from one register: glibc's `_start` passes
//!   r1 to `__libc_start_main`, which reads argc at sp, argv at sp+4, envp after
//!   argv's NULL and auxv after envp's NULL. Nothing arrives in r3-r7.
//! - The vectors sit below the strings they point to, so the kernel must know
//!   every string length before it can place the first pointer: it lays out
//!   from the top down, then writes.
//! - The auxv is the kernel's message to libc: the page size, where the
//!   program headers are (so static glibc finds its TLS template), 16 random
//!   bytes for the stack protector, the cache block size that `memset`'s
//!   `dcbz` relies on.
//! - The two AT_IGNOREPPC pairs come first for old glibc, which looked for the
//!   auxv at the first 16-byte boundary after envp and wanted a value > 16
//!   there: 16 bytes of 22s guarantee it whatever the alignment.
//!
//! Everything is big-endian and 32-bit; the builder is pure arithmetic on a
//! byte vector, so the host tests can read the image back and check it.

use alloc::vec::Vec;
use core::ops::Range;

pub use crate::layout::PAGE_SIZE;
/// Linux MAX_ARG_STRLEN: one string with its NUL may take 32 pages at
/// most (E2BIG past it, whatever the total).
pub const MAX_ARG_STRLEN: usize = 32 * PAGE_SIZE as usize;
/// AT_CLKTCK: the unit of `times()` (USER_HZ).
const CLK_TCK: u32 = 100;
/// AT_MINSIGSTKSZ on ppc32: max(rt frame 1536 + 64 + 16, frame 1248 + 64).
const MINSIGSTKSZ: u32 = 1616;

/// Auxiliary vector types (`include/uapi/linux/auxvec.h`, powerpc additions).
const AT_NULL: u32 = 0;
const AT_PHDR: u32 = 3;
const AT_PHENT: u32 = 4;
const AT_PHNUM: u32 = 5;
const AT_PAGESZ: u32 = 6;
const AT_BASE: u32 = 7;
const AT_FLAGS: u32 = 8;
const AT_ENTRY: u32 = 9;
const AT_UID: u32 = 11;
const AT_EUID: u32 = 12;
const AT_GID: u32 = 13;
const AT_EGID: u32 = 14;
const AT_PLATFORM: u32 = 15;
const AT_HWCAP: u32 = 16;
const AT_CLKTCK: u32 = 17;
const AT_DCACHEBSIZE: u32 = 19;
const AT_ICACHEBSIZE: u32 = 20;
const AT_UCACHEBSIZE: u32 = 21;
const AT_IGNOREPPC: u32 = 22;
const AT_SECURE: u32 = 23;
const AT_RANDOM: u32 = 25;
const AT_HWCAP2: u32 = 26;
const AT_EXECFN: u32 = 31;
const AT_MINSIGSTKSZ: u32 = 51;

/// Number of auxv pairs [`build_stack`] writes, AT_NULL included.
const AUXV_PAIRS: usize = 25;

/// Why an exec failed. The kernel maps it to the errno execve returns:
/// NoExec -> ENOEXEC (8), TooBig -> E2BIG (7), Fault -> EFAULT (14),
/// NoMem -> ENOMEM (12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecError {
    /// Not a static ppc32 executable Sigil can run (`elf::parse`).
    NoExec,
    /// Arguments and environment too large for the stack ([`build_stack`]).
    TooBig,
    /// A user pointer (path, argv, envp) was bad; raised by the kernel while
    /// copying the arguments in.
    Fault,
    /// No memory for the new image or stack; raised by the kernel's mapper.
    NoMem,
}

/// What the initial stack must say. Strings are given without their NUL.
/// AT_BASE, AT_FLAGS and AT_UCACHEBSIZE are always 0 in Sigil (no
/// interpreter, no unified cache), and page size,
/// clock tick and MINSIGSTKSZ are fixed, so they are not fields.
#[derive(Debug, Clone, Copy)]
pub struct StackSpec<'a> {
    /// argv; an empty argv becomes `[""]` as in Linux >= 5.18 (argc >= 1).
    pub argv: &'a [&'a [u8]],
    pub envp: &'a [&'a [u8]],
    /// Limit on the argv + envp + execfn strings plus the argv/envp
    /// pointers, from the caller's stack limit (`crate::rlimit::arg_limit`):
    /// past it execve fails with E2BIG.
    pub arg_limit: usize,
    /// The path given to execve (AT_EXECFN).
    pub execfn: &'a [u8],
    /// AT_PLATFORM, e.g. "ppc750" (glibc copies it into the TCB).
    pub platform: &'a [u8],
    /// AT_UID, AT_EUID, AT_GID, AT_EGID: the caller's credentials (exec
    /// keeps them).
    pub ids: [u32; 4],
    /// AT_SECURE: the effective ids differ from the real ones (Linux's
    /// `secureexec`; Sigil has no set-user-ID files to cause it otherwise).
    pub secure: bool,
    /// AT_RANDOM bytes: glibc takes its stack-protector and pointer-guard
    /// canaries from them.
    pub random: [u8; 16],
    /// From the [`crate::elf::LoadPlan`]: AT_PHDR, AT_PHENT, AT_PHNUM, AT_ENTRY.
    pub phdr: u32,
    pub phent: u32,
    pub phnum: u32,
    pub entry: u32,
    /// From the CPU: AT_HWCAP (750: 0x8c00_0001), AT_HWCAP2 (0 on 750), and
    /// the data/instruction cache block sizes (32 on 750 and e300, 16 on 8xx).
    pub hwcap: u32,
    pub hwcap2: u32,
    pub dcache_bsize: u32,
    pub icache_bsize: u32,
}

/// The finished stack: copy `bytes` to `[sp, stack_top)` and start the
/// program with r1 = `sp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackImage {
    /// 16-byte aligned; points at argc.
    pub sp: u32,
    pub bytes: Vec<u8>,
    /// Where the argv strings went, back to back with their NULs, and the
    /// envp strings right after them (Linux's `mm->arg_start`..`arg_end`,
    /// `env_start`..`env_end`): /proc's cmdline and environ read them there.
    pub args: Range<u32>,
    pub env: Range<u32>,
}

/// Size of a string on the stack: its bytes plus the NUL.
fn c_len(s: &[u8]) -> usize {
    s.len() + 1
}

/// Build the initial stack for a stack whose highest byte is `stack_top - 1`.
/// Called once per execve, after the arguments were copied into the kernel.
/// Fails with TooBig past `arg_limit` or [`MAX_ARG_STRLEN`], or if the
/// image would not fit below `stack_top`; with NoMem if the kernel heap
/// has no room for the image.
pub fn build_stack(spec: &StackSpec<'_>, stack_top: u32) -> Result<StackImage, ExecError> {
    const EMPTY_ARGV: &[&[u8]] = &[b""];
    let argv = if spec.argv.is_empty() { EMPTY_ARGV } else { spec.argv };
    let envp = spec.envp;

    // E2BIG check first, on sizes only, before any allocation. Saturating,
    // because on a 32-bit kernel many references to one long string could
    // add up past usize::MAX.
    let arg_bytes = argv.iter().chain(envp).fold(0usize, |n, s| n.saturating_add(c_len(s)));
    let pointers = (argv.len().saturating_add(envp.len()).saturating_add(2)).saturating_mul(4);
    if arg_bytes.saturating_add(c_len(spec.execfn)).saturating_add(pointers) > spec.arg_limit
        || argv.iter().chain(envp).any(|s| c_len(s) > MAX_ARG_STRLEN)
    {
        return Err(ExecError::TooBig);
    }

    // Lay out from the top down (see the picture), in u32 stack addresses.
    // Every size here is bounded by the argument limit or by the kernel's own constants,
    // so only the subtractions from stack_top can go wrong.
    let down = |addr: u32, len: usize| -> Result<u32, ExecError> {
        let len = u32::try_from(len).map_err(|_| ExecError::TooBig)?;
        addr.checked_sub(len).ok_or(ExecError::TooBig)
    };
    let end_marker = down(stack_top, 4)?;
    let execfn_at = down(end_marker, c_len(spec.execfn))?;
    let strings_at = down(execfn_at, arg_bytes)?;
    let platform_at = down(strings_at & !15, c_len(spec.platform))?;
    let random_at = down(platform_at, spec.random.len())?;
    let words = 1 + (argv.len() + 1) + (envp.len() + 1) + 2 * AUXV_PAIRS;
    let sp = down(random_at, 4 * words)? & !15;

    // Up to the argument limit and more: the kernel heap is asked, not told.
    let mut bytes = Vec::new();
    bytes.try_reserve_exact((stack_top - sp) as usize).map_err(|_| ExecError::NoMem)?;
    bytes.resize((stack_top - sp) as usize, 0);
    let mut img = Image { base: sp, bytes };
    // The strings, recording where each one went: argv[0] lowest.
    let mut str_ptrs = Vec::new();
    str_ptrs.try_reserve_exact(argv.len() + envp.len()).map_err(|_| ExecError::NoMem)?;
    let mut at = strings_at;
    let mut args_end = at;
    for (i, s) in argv.iter().chain(envp).enumerate() {
        img.put_bytes(at, s); // the NUL is already there: the image starts zeroed
        str_ptrs.push(at);
        at += c_len(s) as u32;
        if i + 1 == argv.len() {
            args_end = at;
        }
    }
    img.put_bytes(execfn_at, spec.execfn);
    img.put_bytes(platform_at, spec.platform);
    img.put_bytes(random_at, &spec.random);

    // The vectors, from sp upward.
    let (argv_ptrs, envp_ptrs) = str_ptrs.split_at(argv.len());
    let mut w = sp;
    let mut push = |img: &mut Image, v: u32| {
        img.put_bytes(w, &v.to_be_bytes());
        w += 4;
    };
    push(&mut img, argv.len() as u32);
    for &p in argv_ptrs.iter().chain([&0]).chain(envp_ptrs).chain([&0]) {
        push(&mut img, p);
    }
    for (kind, value) in auxv(spec, random_at, execfn_at, platform_at) {
        push(&mut img, kind);
        push(&mut img, value);
    }
    Ok(StackImage { sp, bytes: img.bytes, args: strings_at..args_end, env: args_end..at })
}

/// The auxiliary vector in Linux's order: `ARCH_DLINFO` (powerpc
/// `asm/elf.h`) first, then the generic entries of `create_elf_tables`.
/// No AT_SYSINFO_EHDR (no vDSO: glibc then makes plain syscalls), no
/// AT_RSEQ_* (Sigil's rseq is ENOSYS).
fn auxv(spec: &StackSpec<'_>, random: u32, execfn: u32, platform: u32) -> [(u32, u32); AUXV_PAIRS] {
    [
        (AT_IGNOREPPC, AT_IGNOREPPC),
        (AT_IGNOREPPC, AT_IGNOREPPC),
        (AT_DCACHEBSIZE, spec.dcache_bsize),
        (AT_ICACHEBSIZE, spec.icache_bsize),
        (AT_UCACHEBSIZE, 0),
        (AT_MINSIGSTKSZ, MINSIGSTKSZ),
        (AT_HWCAP, spec.hwcap),
        (AT_PAGESZ, PAGE_SIZE),
        (AT_CLKTCK, CLK_TCK),
        (AT_PHDR, spec.phdr),
        (AT_PHENT, spec.phent),
        (AT_PHNUM, spec.phnum),
        (AT_BASE, 0),
        (AT_FLAGS, 0),
        (AT_ENTRY, spec.entry),
        (AT_UID, spec.ids[0]),
        (AT_EUID, spec.ids[1]),
        (AT_GID, spec.ids[2]),
        (AT_EGID, spec.ids[3]),
        (AT_SECURE, spec.secure as u32),
        (AT_RANDOM, random),
        (AT_HWCAP2, spec.hwcap2),
        (AT_EXECFN, execfn),
        (AT_PLATFORM, platform),
        (AT_NULL, 0),
    ]
}

/// The stack image under construction, addressed by user addresses.
struct Image {
    base: u32,
    bytes: Vec<u8>,
}

impl Image {
    /// Copy `data` to user address `at`; the layout above keeps every write
    /// inside `[base, stack_top)`.
    fn put_bytes(&mut self, at: u32, data: &[u8]) {
        let off = (at - self.base) as usize;
        self.bytes[off..off + data.len()].copy_from_slice(data);
    }
}

#[cfg(test)]
mod tests;
