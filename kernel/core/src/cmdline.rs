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

#[cfg(test)]
mod tests {
    use super::words;
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
}
