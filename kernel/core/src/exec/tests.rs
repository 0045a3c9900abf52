//! Host tests of the initial user stack: layout, alignment, auxv and the
//! limits on arguments and environment.

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
            22, 22, 19, 20, 21, 51, 16, 6, 17, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 23, 25, 26, 31,
            15, 0
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
                let argv: Vec<&[u8]> = pool.iter().cycle().skip(skew).take(argc).copied().collect();
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
