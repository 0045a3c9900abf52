//! Splitting the kernel command line into words, as Linux's `next_arg` does:
//! words are separated by spaces, and a word in double quotes may contain
//! spaces or be empty (`-- "b c" ""` gives PID 1 the arguments `b c` and
//! an empty one). Words are slices of the line itself: nothing is copied.

/// The words of `line`, quotes removed. An unterminated quote runs to the end.
pub fn words(line: &[u8]) -> Words<'_> {
    Words { rest: line }
}

pub struct Words<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let start = self.rest.iter().position(|&b| b != b' ')?;
        let line = &self.rest[start..];
        let (word, next) = if line[0] == b'"' {
            let end = line[1..].iter().position(|&b| b == b'"').map_or(line.len(), |i| i + 1);
            (&line[1..end], (end + 1).min(line.len()))
        } else {
            let end = line.iter().position(|&b| b == b' ').unwrap_or(line.len());
            (&line[..end], end)
        };
        self.rest = &line[next..];
        Some(word)
    }
}

/// The value of the first `key=value` option before `--`, for the options
/// the kernel reads before it has a heap (`fdt=`, `heap=`). `key` includes
/// the `=`.
pub fn early_value<'a>(line: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
    let w = words(line).take_while(|w| *w != b"--").find(|w| w.starts_with(key))?;
    Some(&w[key.len()..])
}

/// A size as Linux's `memparse` reads one: decimal digits and an optional
/// K, M or G (either case), which multiplies by 2^10, 2^20 or 2^30. None
/// for anything else, or a size that does not fit.
pub fn memparse(s: &[u8]) -> Option<usize> {
    let (digits, shift) = match s.last()? {
        b'k' | b'K' => (&s[..s.len() - 1], 10),
        b'm' | b'M' => (&s[..s.len() - 1], 20),
        b'g' | b'G' => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = core::str::from_utf8(digits).ok()?.parse::<usize>().ok()?;
    n.checked_mul(1 << shift)
}

#[cfg(test)]
mod tests {
    use super::{early_value, memparse, words};
    use alloc::vec::Vec;

    fn split(s: &str) -> Vec<&[u8]> {
        words(s.as_bytes()).collect()
    }

    #[test]
    fn plain_words_and_extra_spaces() {
        assert_eq!(
            split("  quiet  trace=signal -- a "),
            [&b"quiet"[..], b"trace=signal", b"--", b"a"]
        );
        assert!(split("").is_empty());
        assert!(split("   ").is_empty());
    }

    #[test]
    fn quoted_words_keep_spaces_and_may_be_empty() {
        assert_eq!(split(r#"-- "b c" "" x"#), [&b"--"[..], b"b c", b"", b"x"]);
    }

    #[test]
    fn unterminated_quote_runs_to_the_end() {
        assert_eq!(split(r#"a "b c"#), [&b"a"[..], b"b c"]);
        assert_eq!(split(r#"""#), [&b""[..]]);
    }

    #[test]
    fn early_values_come_before_the_separator() {
        let line = b"quiet heap=2M fdt=0x1000 -- heap=9M";
        assert_eq!(early_value(line, b"heap="), Some(&b"2M"[..]));
        assert_eq!(early_value(line, b"fdt="), Some(&b"0x1000"[..]));
        assert_eq!(early_value(b"-- heap=9M", b"heap="), None);
        assert_eq!(early_value(b"heapx=1", b"heap="), None);
    }

    #[test]
    fn memparse_reads_suffixes_and_refuses_the_rest() {
        assert_eq!(memparse(b"4096"), Some(4096));
        assert_eq!(memparse(b"512k"), Some(512 << 10));
        assert_eq!(memparse(b"2M"), Some(2 << 20));
        assert_eq!(memparse(b"1G"), Some(1 << 30));
        for bad in [&b""[..], b"M", b"2 M", b"-1", b"0x10", b"2MB", b"99999999999999999999"] {
            assert_eq!(memparse(bad), None, "{:?}", core::str::from_utf8(bad));
        }
    }
}
