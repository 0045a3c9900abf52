//! console: finds the exit marker in the kernel's console stream.
//!
//! The kernel's last console output is `@@SIGIL-EXIT <n>@@`, n being PID 1's
//! exit status (128 + signal number if a signal killed it). In quiet mode it
//! may follow program output on the same line, with no newline before it.
//! Output arrives in arbitrary chunks, so the marker can be split between two
//! reads: [`Console::push`] holds back any tail that could be the start of
//! the marker until the next chunk decides. Carriage returns of `\r\n` line
//! ends are dropped, so the text compares equal to a Linux program's stdout.

/// The text that opens the exit marker.
pub const MARKER: &str = "@@SIGIL-EXIT ";
/// The text that closes it.
const MARKER_END: &str = "@@";

/// Accumulates the console and parses the marker.
#[derive(Debug, Default)]
pub struct Console {
    /// Everything before the marker, `\r\n` folded to `\n`.
    text: Vec<u8>,
    /// Bytes received but not yet classified (a possible marker prefix, or a
    /// trailing `\r` that may start a `\r\n`).
    held: Vec<u8>,
    /// Bytes from the marker on, once it has been seen.
    tail: Option<Vec<u8>>,
}

impl Console {
    pub fn new() -> Console {
        Console::default()
    }

    /// Take a chunk of raw console bytes; returns the bytes now known to be
    /// program/kernel output before the marker (what `--quiet` shows).
    pub fn push(&mut self, chunk: &[u8]) -> Vec<u8> {
        if let Some(tail) = &mut self.tail {
            tail.extend_from_slice(chunk);
            return Vec::new();
        }
        self.held.extend_from_slice(chunk);
        let marker = MARKER.as_bytes();
        let ready = match find(&self.held, marker) {
            Some(at) => {
                self.tail = Some(self.held.split_off(at));
                std::mem::take(&mut self.held)
            }
            None => {
                let keep = longest_suffix_prefix(&self.held, marker)
                    .max(usize::from(self.held.last() == Some(&b'\r')));
                let rest = self.held.split_off(self.held.len() - keep);
                std::mem::replace(&mut self.held, rest)
            }
        };
        let shown = fold_crlf(&ready);
        self.text.extend_from_slice(&shown);
        shown
    }

    /// The exit status from a complete marker, if one has arrived.
    pub fn status(&self) -> Option<i32> {
        let tail = self.tail.as_ref()?;
        let digits = &tail[MARKER.len()..];
        let end = find(digits, MARKER_END.as_bytes())?;
        std::str::from_utf8(&digits[..end]).ok()?.trim().parse().ok()
    }

    /// The console text before the marker (or all of it, without a marker).
    pub fn finish(mut self) -> String {
        let held = std::mem::take(&mut self.held);
        self.text.extend_from_slice(&fold_crlf(&held));
        String::from_utf8_lossy(&self.text).into_owned()
    }
}

/// Position of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Length of the longest proper suffix of `buf` that starts `marker`.
fn longest_suffix_prefix(buf: &[u8], marker: &[u8]) -> usize {
    (1..marker.len().min(buf.len() + 1)).rev().find(|&n| buf.ends_with(&marker[..n])).unwrap_or(0)
}

/// `bytes` with every `\r` that precedes a `\n` removed.
fn fold_crlf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for (i, &b) in bytes.iter().enumerate() {
        if !(b == b'\r' && bytes.get(i + 1) == Some(&b'\n')) {
            out.push(b);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(chunks: &[&str]) -> (String, String, Option<i32>) {
        let mut c = Console::new();
        let mut shown = Vec::new();
        for chunk in chunks {
            shown.extend(c.push(chunk.as_bytes()));
        }
        let status = c.status();
        (String::from_utf8(shown).unwrap(), c.finish(), status)
    }

    #[test]
    fn marker_on_its_own_line() {
        let (shown, text, status) = feed(&["hello\r\n", "@@SIGIL-EXIT 7@@\r\n"]);
        assert_eq!((shown.as_str(), text.as_str(), status), ("hello\n", "hello\n", Some(7)));
    }

    #[test]
    fn marker_after_output_without_newline_and_split_everywhere() {
        let all = "no newline@@SIGIL-EXIT 139@@\n";
        for cut in 0..all.len() {
            let (shown, text, status) = feed(&[&all[..cut], &all[cut..]]);
            assert_eq!(shown, "no newline", "cut at {cut}");
            assert_eq!(text, "no newline");
            assert_eq!(status, Some(139));
        }
        let bytes: Vec<String> = all.chars().map(String::from).collect();
        let refs: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert_eq!(feed(&refs).2, Some(139));
    }

    #[test]
    fn near_misses_are_output() {
        let (shown, text, status) = feed(&["a @@ b @@SIGIL-EXI", "T not a number@@\n"]);
        assert_eq!(shown, "a @@ b ");
        assert_eq!(text, "a @@ b ");
        assert_eq!(status, None);
        let (_, text, status) = feed(&["@@SIGIL-EX", "it 3@@\n"]);
        assert_eq!((text.as_str(), status), ("@@SIGIL-EXit 3@@\n", None));
    }

    #[test]
    fn no_marker_keeps_everything() {
        let (shown, text, status) = feed(&["SIGIL OOPS at 0x0\r", "\nmore\r"]);
        assert_eq!(shown, "SIGIL OOPS at 0x0\nmore");
        assert_eq!(text, "SIGIL OOPS at 0x0\nmore\r");
        assert_eq!(status, None);
    }

    #[test]
    fn incomplete_marker_has_no_status() {
        let (_, _, status) = feed(&["x\n@@SIGIL-EXIT 12"]);
        assert_eq!(status, None);
    }
}
