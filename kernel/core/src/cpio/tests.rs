//! Host tests of the newc archive: the writer's bytes, a round trip through the
//! reader, and truncated, malformed or randomly mutated archives.

use super::*;
use std::format;
use std::vec::Vec;

fn sample() -> Vec<u8> {
    write_newc(&[
        Entry { name: "bin", mode: 0o040_755, data: b"" },
        Entry { name: "bin/hello", mode: 0o100_755, data: b"\x7fELF..." },
        Entry { name: "etc", mode: 0o040_755, data: b"" },
        Entry { name: "etc/motd", mode: 0o100_644, data: b"welcome to sigil\n" },
        Entry { name: "empty", mode: 0o100_644, data: b"" },
        Entry { name: "a", mode: 0o100_644, data: b"1" },
        Entry { name: "ab", mode: 0o100_644, data: b"12" },
        Entry { name: "abc", mode: 0o100_644, data: b"123" },
        Entry { name: "abcd", mode: 0o100_644, data: b"1234" },
        Entry { name: "sh", mode: 0o120_777, data: b"bin/hello" },
    ])
}

#[test]
fn writer_emits_the_documented_bytes() {
    let a = write_newc(&[Entry { name: "init", mode: 0o100_755, data: b"hi" }]);
    let header = "070701\
        00000001000081ED0000000000000000000000010000000000000002\
        0000000000000000000000000000000000000005";
    let mut want = Vec::from(header.as_bytes());
    want.extend_from_slice(b"00000000init\0\0hi\0\0"); // check, name+NUL, pad to 116, data, pad
    assert_eq!(&a[..want.len()], &want[..]);
    assert_eq!(a.len() % 4, 0);
    let trailer = &a[want.len()..];
    assert_eq!(&trailer[..6], b"070701");
    assert_eq!(&trailer[110..121], b"TRAILER!!!\0");
    assert_eq!(trailer.len(), 124);
}

#[test]
fn round_trip() {
    let bytes = sample();
    let archive = Archive::new(&bytes).unwrap();
    let read: Vec<Entry<'_>> = archive.entries().collect();
    let written = sample();
    let again = write_newc(&read);
    assert_eq!(again, written, "read then write gives the same bytes");
    assert_eq!(read.len(), 10);
    assert!(read[0].is_dir() && read[1].is_file() && read[9].is_symlink());
    assert_eq!(archive.find("etc/motd").unwrap().data, b"welcome to sigil\n");
    assert_eq!(archive.find("/bin/hello").unwrap().mode, 0o100_755);
    assert_eq!(archive.find("./abcd").unwrap().data, b"1234");
    assert_eq!(archive.find("empty").unwrap().data, b"");
    assert!(archive.find("nope").is_none());
    assert!(archive.find("bin/").is_none());
}

#[test]
fn reader_strips_prefixes_and_skips_the_root() {
    let bytes = write_newc(&[
        Entry { name: ".", mode: 0o040_755, data: b"" },
        Entry { name: "./init", mode: 0o100_755, data: b"x" },
        Entry { name: "/dev", mode: 0o040_755, data: b"" },
    ]);
    let archive = Archive::new(&bytes).unwrap();
    let names: Vec<&str> = archive.entries().map(|e| e.name).collect();
    assert_eq!(names, ["init", "dev"]);
    assert_eq!(archive.find("/init").unwrap().data, b"x");
}

#[test]
fn ignores_bytes_after_the_trailer_and_refuses_a_missing_one() {
    let mut bytes = sample();
    let len = bytes.len();
    bytes.resize(len.next_multiple_of(512), 0); // cpio's block padding
    assert_eq!(Archive::new(&bytes).unwrap().entries().count(), 10);
    let no_trailer = &bytes[..len - 124];
    assert_eq!(Archive::new(no_trailer).err(), Some(CpioError::Truncated));
    assert_eq!(Archive::new(&[]).err(), Some(CpioError::Truncated));
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = sample();
    // The trailer's 3 bytes of padding may go; anything shorter must fail.
    let min_ok = bytes.len() - 3;
    for len in 0..bytes.len() {
        let r = Archive::new(&bytes[..len]);
        assert_eq!(r.is_ok(), len >= min_ok, "length {len}: {:?}", r.err());
    }
}

/// Replace header field `i` (0 = ino ... 12 = check) of the first record.
fn with_field(i: usize, text: &[u8; 8]) -> Vec<u8> {
    let mut bytes = sample();
    bytes[6 + 8 * i..14 + 8 * i].copy_from_slice(text);
    bytes
}

#[test]
fn malformed_headers_are_errors() {
    let mut bad_magic = sample();
    bad_magic[5] = b'7'; // 070707: the old portable format
    assert_eq!(Archive::new(&bad_magic).err(), Some(CpioError::BadMagic));
    for i in 0..13 {
        assert_eq!(
            Archive::new(&with_field(i, b"0000000g")).err(),
            Some(CpioError::BadHex),
            "field {i}"
        );
        assert_eq!(
            Archive::new(&with_field(i, b" 0000001")).err(),
            Some(CpioError::BadHex),
            "field {i}"
        );
    }
    let huge = |i| Archive::new(&with_field(i, b"FFFFFFFF")).err();
    assert_eq!(huge(6), Some(CpioError::Truncated), "filesize 4 GiB");
    assert_eq!(huge(11), Some(CpioError::Truncated), "namesize 4 GiB");
    assert_eq!(Archive::new(&with_field(11, b"00000000")).err(), Some(CpioError::BadName));
    // namesize 3 makes "bi" + 'n' instead of a NUL terminator.
    assert_eq!(Archive::new(&with_field(11, b"00000003")).err(), Some(CpioError::BadName));
    let mut inner_nul = sample();
    inner_nul[111] = 0; // "b\0n\0"
    assert_eq!(Archive::new(&inner_nul).err(), Some(CpioError::BadName));
    let mut not_utf8 = sample();
    not_utf8[110] = 0xff;
    assert_eq!(Archive::new(&not_utf8).err(), Some(CpioError::BadName));
    // Lower-case hex is valid too.
    let lower = write_newc(&[Entry { name: "x", mode: 0o100_644, data: &[7; 0xab] }]);
    let lower = std::string::String::from_utf8_lossy(&lower).replace("000000AB", "000000ab");
    assert_eq!(Archive::new(lower.as_bytes()).unwrap().find("x").unwrap().data.len(), 0xab);
}

#[test]
fn random_mutations_never_panic() {
    let bytes = sample();
    let mut seed = 0x2545_f491_u32;
    let mut accepted = 0;
    for round in 0..20_000 {
        let mut m = bytes.clone();
        for _ in 0..1 + round % 4 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let at = seed as usize % m.len();
            // Half the time a hex digit, to get past the hex check.
            m[at] = if seed & 1 == 0 {
                b"0123456789abcdefF"[(seed >> 8) as usize % 17]
            } else {
                (seed >> 16) as u8
            };
        }
        let cut = if round % 3 == 0 { m.len() - (seed as usize >> 20) % 64 } else { m.len() };
        if let Ok(a) = Archive::new(&m[..cut]) {
            accepted += 1;
            for e in a.entries() {
                let found = a.find(e.name).unwrap();
                let _ = format!("{found:?}");
            }
        }
    }
    assert!(accepted > 0, "some mutations (e.g. in file data) must still parse");
}
