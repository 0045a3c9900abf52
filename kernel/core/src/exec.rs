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
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    const TOP: u32 = crate::layout::TASK_SIZE;
    /// The argument limit at the default 8 MiB stack limit: 2 MiB.
    const ARG_LIMIT: usize = 2 << 20;

    /// The stack as glibc's `__libc_start_main` walks it from r1.
    struct Seen {
        argv: Vec<Vec<u8>>,
        envp: Vec<Vec<u8>>,
        auxv: Vec<(u32, u32)>,
    }

    /// Read the image back the way a C program would, checking that every
    /// pointer lands inside the image.
    fn walk(img: &StackImage, top: u32) -> Seen {
        assert_eq!(img.sp % 16, 0, "sp must be 16-byte aligned");
        assert_eq!(img.sp as usize + img.bytes.len(), top as usize);
        let word = |addr: u32| {
            let off = (addr - img.sp) as usize;
            u32::from_be_bytes(img.bytes[off..off + 4].try_into().unwrap())
        };
        let string = |addr: u32| {
            assert!(addr >= img.sp && addr < top, "string pointer {addr:#x} outside the stack");
            let off = (addr - img.sp) as usize;
            let len = img.bytes[off..].iter().position(|&b| b == 0).expect("NUL");
            img.bytes[off..off + len].to_vec()
        };
        let argc = word(img.sp);
        let mut at = img.sp + 4;
        let vector = |at: &mut u32| {
            let mut v = Vec::new();
            while word(*at) != 0 {
                v.push(string(word(*at)));
                *at += 4;
            }
            *at += 4;
            v
        };
        let argv = vector(&mut at);
        assert_eq!(argv.len(), argc as usize);
        let envp = vector(&mut at);
        let mut auxv = Vec::new();
        loop {
            let pair = (word(at), word(at + 4));
            auxv.push(pair);
            at += 8;
            if pair.0 == AT_NULL {
                break;
            }
        }
        Seen { argv, envp, auxv }
    }

    fn spec<'a>(argv: &'a [&'a [u8]], envp: &'a [&'a [u8]]) -> StackSpec<'a> {
        StackSpec {
            argv,
            envp,
            arg_limit: ARG_LIMIT,
            execfn: b"/bin/hello",
            platform: b"ppc750",
            ids: [1000, 1001, 100, 101],
            secure: true,
            random: *b"0123456789abcdef",
            phdr: 0x1000_0034,
            phent: 32,
            phnum: 6,
            entry: 0x1000_03e0,
            hwcap: 0x8c00_0001,
            hwcap2: 0,
            dcache_bsize: 32,
            icache_bsize: 32,
        }
    }

    fn aux(seen: &Seen, kind: u32) -> u32 {
        seen.auxv.iter().find(|p| p.0 == kind).expect("aux entry").1
    }

    #[test]
    fn layout_reads_back() {
        let argv: &[&[u8]] = &[b"hello", b"-v", b""];
        let envp: &[&[u8]] = &[b"HOME=/", b"TERM=vt100"];
        let s = spec(argv, envp);
        let img = build_stack(&s, TOP).unwrap();
        let seen = walk(&img, TOP);
        assert_eq!(seen.argv, argv);
        assert_eq!(seen.envp, envp);
        // The string areas /proc reads: argv's then envp's, NULs included.
        let area = |r: &core::ops::Range<u32>| {
            &img.bytes[(r.start - img.sp) as usize..(r.end - img.sp) as usize]
        };
        assert_eq!(area(&img.args), b"hello\0-v\0\0");
        assert_eq!(area(&img.env), b"HOME=/\0TERM=vt100\0");

        let order: Vec<u32> = seen.auxv.iter().map(|p| p.0).collect();
        assert_eq!(
            order,
            [
                22, 22, 19, 20, 21, 51, 16, 6, 17, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 23, 25, 26,
                31, 15, 0
            ]
        );
        let expect = [
            (AT_IGNOREPPC, 22),
            (AT_DCACHEBSIZE, 32),
            (AT_ICACHEBSIZE, 32),
            (AT_UCACHEBSIZE, 0),
            (AT_MINSIGSTKSZ, 1616),
            (AT_HWCAP, 0x8c00_0001),
            (AT_PAGESZ, 4096),
            (AT_CLKTCK, 100),
            (AT_PHDR, 0x1000_0034),
            (AT_PHENT, 32),
            (AT_PHNUM, 6),
            (AT_BASE, 0),
            (AT_FLAGS, 0),
            (AT_ENTRY, 0x1000_03e0),
            (AT_UID, 1000),
            (AT_EUID, 1001),
            (AT_GID, 100),
            (AT_EGID, 101),
            (AT_SECURE, 1),
            (AT_HWCAP2, 0),
        ];
        for (kind, value) in expect {
            assert_eq!(aux(&seen, kind), value, "auxv type {kind}");
        }

        // Strings and blobs, at the heights the picture shows.
        let off = |addr: u32| (addr - img.sp) as usize;
        let execfn = aux(&seen, AT_EXECFN);
        assert_eq!(&img.bytes[off(execfn)..off(TOP - 4)], b"/bin/hello\0");
        assert_eq!(&img.bytes[off(TOP - 4)..], [0; 4]);
        let platform = aux(&seen, AT_PLATFORM);
        assert_eq!(&img.bytes[off(platform)..off(platform) + 7], b"ppc750\0");
        let random = aux(&seen, AT_RANDOM);
        assert_eq!(random + 16, platform);
        assert_eq!(&img.bytes[off(random)..off(random) + 16], b"0123456789abcdef");

        // argv[0] is the lowest string; the strings are contiguous and end
        // where the execfn starts; the platform sits below their 16-aligned base.
        let word =
            |addr: u32| u32::from_be_bytes(img.bytes[off(addr)..off(addr) + 4].try_into().unwrap());
        let argv0 = word(img.sp + 4);
        let arg_bytes = (6 + 3 + 1 + 7 + 11) as u32;
        assert_eq!(argv0 + arg_bytes, execfn);
        assert_eq!(platform + 7, argv0 & !15);
        // Padding between the AT_NULL pair and the random bytes is < 16.
        let auxv_end = img.sp + 4 * (1 + 4 + 3) + 8 * 25;
        assert!(auxv_end <= random && random - auxv_end < 16);
    }

    #[test]
    fn alignment_and_glibc_compat_hold_for_all_shapes() {
        let pool: [&[u8]; 5] = [b"a", b"bb", b"ccc", b"dddd", b"eeeee"];
        for argc in 0..6 {
            for envc in 0..6 {
                for skew in 0..5 {
                    let argv: Vec<&[u8]> =
                        pool.iter().cycle().skip(skew).take(argc).copied().collect();
                    let envp: Vec<&[u8]> =
                        pool.iter().cycle().skip(skew + 1).take(envc).copied().collect();
                    let top = TOP - 4 * skew as u32;
                    let img = build_stack(&spec(&argv, &envp), top).unwrap();
                    let seen = walk(&img, top);
                    let want: Vec<&[u8]> = if argc == 0 { vec![&b""[..]] } else { argv.clone() };
                    assert_eq!(seen.argv, want);
                    assert_eq!(seen.envp, envp);
                    // Old glibc's check: the first 16-aligned word of auxv is > 16.
                    let auxv_at = img.sp + 4 * (1 + want.len() as u32 + 1 + envc as u32 + 1);
                    let first = auxv_at.next_multiple_of(16);
                    let off = (first - img.sp) as usize;
                    let w = u32::from_be_bytes(img.bytes[off..off + 4].try_into().unwrap());
                    assert!(w > 16, "argc {argc} envc {envc}: first aligned auxv word {w}");
                }
            }
        }
    }

    #[test]
    fn empty_argv_becomes_one_empty_string() {
        let img = build_stack(&spec(&[], &[]), TOP).unwrap();
        let seen = walk(&img, TOP);
        assert_eq!(seen.argv, [b""]);
        assert!(seen.envp.is_empty());
    }

    #[test]
    fn too_big_is_e2big() {
        // One string: MAX_ARG_STRLEN with its NUL fits, one byte more fails.
        let longest = vec![b'x'; MAX_ARG_STRLEN - 1];
        assert!(build_stack(&spec(&[&longest], &[]), TOP).is_ok());
        let longer = vec![b'x'; MAX_ARG_STRLEN];
        assert_eq!(build_stack(&spec(&[&longer], &[]), TOP), Err(ExecError::TooBig));
        // Strings + pointers + execfn exactly at ARG_LIMIT fit; one byte more
        // fails (16 strings of 128 KiB with their pointers, and one that
        // fills the rest).
        let fixed = c_len(b"/bin/hello") + 4 * 2; // execfn, argv NULL, envp NULL
        let full = 15 * (MAX_ARG_STRLEN + 4);
        let rest = vec![b'x'; ARG_LIMIT - fixed - full - 4 - 1];
        let mut args: Vec<&[u8]> = vec![longest.as_slice(); 15];
        args.push(rest.as_slice());
        assert!(build_stack(&spec(&args, &[]), TOP).is_ok());
        let more = vec![b'x'; rest.len() + 1];
        *args.last_mut().unwrap() = more.as_slice();
        assert_eq!(build_stack(&spec(&args, &[]), TOP), Err(ExecError::TooBig));
        // Many small arguments count their pointers too.
        let many: Vec<&[u8]> = vec![b""; ARG_LIMIT / 5];
        assert_eq!(build_stack(&spec(&many, &[]), TOP), Err(ExecError::TooBig));
    }

    #[test]
    fn stack_top_too_low_is_an_error_not_a_wrap() {
        for top in [0, 4, 64, 200] {
            assert_eq!(build_stack(&spec(&[b"x"], &[]), top), Err(ExecError::TooBig));
        }
    }
}
