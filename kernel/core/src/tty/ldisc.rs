//! The line discipline: what a terminal does between the wire and read(2) /
//! write(2), as Linux's n_tty does it.
//!
//! `receive` takes each byte from the UART: input mapping (ICRNL, INLCR,
//! IGNCR), flow control (IXON: VSTOP/VSTART), signal characters (ISIG: VINTR,
//! VQUIT, VSUSP, returned for the caller to send to the foreground group),
//! then in canonical mode (ICANON) line editing (VERASE, VWERASE, VKILL,
//! VEOF, VEOL) and in raw mode straight queueing, echoing (ECHO, ECHOCTL,
//! ECHOE, ECHOK, ECHOKE, ECHONL) through `output`. A read asks `poll_read`
//! what it may return now: a canonical read takes at most one line, an empty
//! line (VEOF at its start) being an end of file; a raw read follows
//! VMIN/VTIME. `output` is OPOST's processing (ONLCR, OCRNL).
//!
//! The buffer is bounded (BUF_SIZE, Linux's N_TTY_BUF_SIZE): the driver
//! stops taking bytes from the UART while `can_receive` is false, so a fast
//! sender is held back, never dropped. Only a canonical line longer than the
//! buffer loses bytes (counted in `dropped`), as on Linux, since no reader
//! can take part of a line.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

use super::termios::*;
use crate::signal::Signal;

/// Bytes the discipline holds at most (completed lines plus the edited one).
pub const BUF_SIZE: usize = 4096;

pub struct Ldisc {
    pub termios: Termios,
    /// What reads can take: completed lines (canonical), every byte (raw).
    ready: VecDeque<u8>,
    /// Canonical mode: the length of each completed line in `ready`, oldest
    /// first. A line ended by VEOF keeps no terminator; an empty one is an
    /// end of file for one read.
    lines: VecDeque<usize>,
    /// Canonical mode: the line being edited.
    edit: Vec<u8>,
    /// The input stream ended for good (a host pipe's end, `link::Rx::End`):
    /// once `ready` is empty, reads return 0.
    ended: bool,
    /// Output is stopped (VSTOP with IXON, or TCXONC TCOOFF).
    pub stopped: bool,
    /// Bytes dropped because a canonical line was full.
    pub dropped: u32,
}

/// What a read may do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadNow {
    /// Take this many bytes (`consume`), possibly 0 (raw VMIN=0 read).
    Bytes(usize),
    /// Return 0: end of file (`consume(0)` takes the empty line).
    EndOfFile,
    /// Sleep until input comes (or the VTIME timer runs out).
    Wait,
}

impl Default for Ldisc {
    fn default() -> Ldisc {
        Ldisc::new(Termios::linux_default())
    }
}

impl Ldisc {
    pub fn new(termios: Termios) -> Ldisc {
        Ldisc {
            termios,
            ready: VecDeque::new(),
            lines: VecDeque::new(),
            edit: Vec::new(),
            ended: false,
            stopped: false,
            dropped: 0,
        }
    }

    fn canonical(&self) -> bool {
        self.termios.c_lflag.contains(Lflag::ICANON)
    }

    /// May the driver hand over another byte? False while the buffer is
    /// full, unless a canonical reader waits for a line that cannot
    /// complete otherwise (the byte may be its newline).
    pub fn can_receive(&self) -> bool {
        // A canonical line keeps its last byte for the newline (`edit_line`):
        // handing over another byte with one free would drop it.
        let room = if self.canonical() { BUF_SIZE - 1 } else { BUF_SIZE };
        self.ready.len() + self.edit.len() < room || (self.canonical() && self.lines.is_empty())
    }

    /// Bytes a read could take (FIONREAD).
    pub fn available(&self) -> usize {
        self.ready.len()
    }

    /// The input stream has ended (see `ended`).
    pub fn end_input(&mut self) {
        // A last line without its newline is still input: readable, then
        // the end (as if VEOF had been typed after it).
        if self.canonical() && !self.edit.is_empty() {
            self.complete_line();
        }
        self.ended = true;
    }

    /// Takes a received byte; echo goes to `out`. Returns the signal a
    /// signal character asks for.
    pub fn receive(&mut self, byte: u8, out: &mut impl FnMut(u8)) -> Option<Signal> {
        let t = self.termios;
        let mut b = if t.c_iflag.contains(Iflag::ISTRIP) { byte & 0x7f } else { byte };
        if b == b'\r' {
            if t.c_iflag.contains(Iflag::IGNCR) {
                return None;
            }
            if t.c_iflag.contains(Iflag::ICRNL) {
                b = b'\n';
            }
        } else if b == b'\n' && t.c_iflag.contains(Iflag::INLCR) {
            b = b'\r';
        }
        if t.c_iflag.contains(Iflag::IXON) {
            if t.is(VSTOP, b) {
                self.stopped = true;
                return None;
            }
            if t.is(VSTART, b) || (self.stopped && t.c_iflag.contains(Iflag::IXANY)) {
                let start = t.is(VSTART, b);
                self.stopped = false;
                if start {
                    return None;
                }
            }
        }
        if t.c_lflag.contains(Lflag::ISIG) {
            let sig = if t.is(VINTR, b) {
                Some(Signal::SIGINT)
            } else if t.is(VQUIT, b) {
                Some(Signal::SIGQUIT)
            } else if t.is(VSUSP, b) {
                Some(Signal::SIGTSTP)
            } else {
                None
            };
            if sig.is_some() {
                if !t.c_lflag.contains(Lflag::NOFLSH) {
                    self.flush_input();
                }
                self.echo(b, out);
                return sig;
            }
        }
        if self.canonical() {
            self.edit_line(b, out);
        } else if self.ready.len() < BUF_SIZE {
            self.ready.push_back(b);
            self.echo(b, out);
        } else {
            self.dropped += 1;
        }
        None
    }

    /// Canonical mode's editing of one (mapped) byte.
    fn edit_line(&mut self, b: u8, out: &mut impl FnMut(u8)) {
        let t = self.termios;
        if t.is(VERASE, b) {
            self.erase(1, out);
        } else if t.is(VWERASE, b) && t.c_lflag.contains(Lflag::IEXTEN) {
            let trailing = self.edit.iter().rev().take_while(|c| c.is_ascii_whitespace()).count();
            let word = self.edit[..self.edit.len() - trailing]
                .iter()
                .rev()
                .take_while(|c| !c.is_ascii_whitespace())
                .count();
            self.erase(trailing + word, out);
        } else if t.is(VKILL, b) {
            if t.c_lflag.contains(Lflag::ECHO)
                && t.c_lflag.contains(Lflag::ECHOK)
                && !t.c_lflag.contains(Lflag::ECHOKE)
            {
                self.echo(b, out);
                self.output(b'\n', out);
                self.edit.clear();
            } else {
                self.erase(self.edit.len(), out);
            }
        } else if t.is(VEOF, b) {
            self.complete_line();
        } else if b == b'\n' || t.is(VEOL, b) || t.is(VEOL2, b) {
            self.edit.push(b);
            if t.c_lflag.contains(Lflag::ECHO) || (b == b'\n' && t.c_lflag.contains(Lflag::ECHONL))
            {
                self.output(b, out);
            }
            self.complete_line();
        } else if self.ready.len() + self.edit.len() < BUF_SIZE - 1 {
            // One byte stays free for the newline that ends the line.
            self.edit.push(b);
            self.echo(b, out);
        } else {
            self.dropped += 1;
        }
    }

    /// Removes the last `n` edited bytes, rubbing them out on the screen
    /// with ECHOE (a control character echoed as ^X takes two columns).
    fn erase(&mut self, n: usize, out: &mut impl FnMut(u8)) {
        let t = self.termios;
        for _ in 0..n {
            let Some(c) = self.edit.pop() else { break };
            if t.c_lflag.contains(Lflag::ECHO) && t.c_lflag.contains(Lflag::ECHOE) {
                let cols = if t.c_lflag.contains(Lflag::ECHOCTL) && is_ctl(c) { 2 } else { 1 };
                for _ in 0..cols {
                    out(8);
                    out(b' ');
                    out(8);
                }
            } else if t.c_lflag.contains(Lflag::ECHO) {
                self.echo(t.c_cc[VERASE], out);
            }
        }
    }

    fn complete_line(&mut self) {
        self.lines.push_back(self.edit.len());
        self.ready.extend(self.edit.drain(..));
    }

    /// Echoes one input byte (ECHO), control characters as ^X (ECHOCTL).
    fn echo(&self, b: u8, out: &mut impl FnMut(u8)) {
        let t = self.termios;
        if !t.c_lflag.contains(Lflag::ECHO) {
            return;
        }
        if t.c_lflag.contains(Lflag::ECHOCTL) && is_ctl(b) {
            out(b'^');
            out(b ^ 0x40);
        } else {
            self.output(b, out);
        }
    }

    /// Output processing of one byte (OPOST: ONLCR, OCRNL).
    pub fn output(&self, b: u8, out: &mut impl FnMut(u8)) {
        let t = self.termios;
        if t.c_oflag.contains(Oflag::OPOST) {
            if b == b'\n' && t.c_oflag.contains(Oflag::ONLCR) {
                out(b'\r');
            } else if b == b'\r' && t.c_oflag.contains(Oflag::OCRNL) {
                out(b'\n');
                return;
            }
        }
        out(b)
    }

    /// What a read of up to `len` bytes may do now. `timed_out`: the VTIME
    /// timer of this read has run out.
    pub fn poll_read(&self, len: usize, timed_out: bool) -> ReadNow {
        let avail = self.ready.len();
        if self.canonical() {
            return match self.lines.front() {
                Some(0) => ReadNow::EndOfFile,
                Some(&l) => ReadNow::Bytes(l.min(len)),
                None if self.ended => ReadNow::EndOfFile,
                None => ReadNow::Wait,
            };
        }
        let vmin = self.termios.c_cc[VMIN] as usize;
        let vtime = self.termios.c_cc[VTIME];
        if avail == 0 && self.ended {
            ReadNow::EndOfFile
        } else if (vmin == 0 && vtime == 0) || timed_out || (avail > 0 && avail >= vmin.min(len)) {
            ReadNow::Bytes(avail.min(len))
        } else {
            ReadNow::Wait
        }
    }

    /// Raw mode's VTIME in nanoseconds, if a read has a timer: with VMIN 0
    /// it runs from the start of the read, otherwise from the last byte.
    pub fn read_timer_ns(&self) -> Option<u64> {
        let vtime = self.termios.c_cc[VTIME];
        (!self.canonical() && vtime > 0).then_some(vtime as u64 * 100_000_000)
    }

    /// The bytes a read takes: the first `n` of `ready`, as two slices.
    pub fn peek(&self, n: usize) -> (&[u8], &[u8]) {
        let (a, b) = self.ready.as_slices();
        if n <= a.len() {
            (&a[..n], &b[..0])
        } else {
            (a, &b[..n - a.len()])
        }
    }

    /// Removes what a read took (`n` from `poll_read`, 0 for an end of file).
    pub fn consume(&mut self, n: usize) {
        self.ready.drain(..n);
        if self.canonical() {
            if let Some(front) = self.lines.front_mut() {
                *front -= n;
                if *front == 0 {
                    self.lines.pop_front();
                }
            }
        }
    }

    /// Discards all input (TCFLSH, a signal character without NOFLSH).
    pub fn flush_input(&mut self) {
        self.ready.clear();
        self.lines.clear();
        self.edit.clear();
    }

    /// New settings (TCSETS*). Leaving canonical mode makes the edited line
    /// readable; entering it makes what is queued one line.
    pub fn set_termios(&mut self, t: Termios) {
        let was = self.canonical();
        self.termios = t;
        match (was, self.canonical()) {
            (true, false) => {
                self.ready.extend(self.edit.drain(..));
                self.lines.clear();
            }
            (false, true) if !self.ready.is_empty() => {
                self.lines.clear();
                self.lines.push_back(self.ready.len());
            }
            _ => {}
        }
    }
}

/// A control character ECHOCTL shows as ^X (not TAB or NL; DEL is ^?).
fn is_ctl(b: u8) -> bool {
    (b < 0x20 && b != b'\t' && b != b'\n') || b == 0x7f
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;

    /// Feeds `input`; returns (echo, signals).
    fn feed(ld: &mut Ldisc, input: &[u8]) -> (String, Vec<Signal>) {
        let mut echo = Vec::new();
        let mut sigs = Vec::new();
        for &b in input {
            if let Some(s) = ld.receive(b, &mut |c| echo.push(c)) {
                sigs.push(s);
            }
        }
        (String::from_utf8(echo).unwrap(), sigs)
    }

    /// One read of up to `len` bytes, if it would not wait.
    fn read(ld: &mut Ldisc, len: usize) -> Option<Vec<u8>> {
        match ld.poll_read(len, false) {
            ReadNow::Wait => None,
            ReadNow::EndOfFile => {
                ld.consume(0);
                Some(Vec::new())
            }
            ReadNow::Bytes(n) => {
                let (a, b) = ld.peek(n);
                let v = [a, b].concat();
                ld.consume(n);
                Some(v)
            }
        }
    }

    #[test]
    fn canonical_lines_cr_mapped_and_echoed_with_onlcr() {
        let mut ld = Ldisc::default();
        let (echo, _) = feed(&mut ld, b"ab\rcd");
        assert_eq!(echo, "ab\r\ncd");
        assert_eq!(read(&mut ld, 100).unwrap(), b"ab\n");
        assert_eq!(read(&mut ld, 100), None, "cd is not a line yet");
        feed(&mut ld, b"\n");
        assert_eq!(read(&mut ld, 1).unwrap(), b"c", "a short read takes part of a line");
        assert_eq!(read(&mut ld, 100).unwrap(), b"d\n");
    }

    #[test]
    fn erase_kill_werase_and_their_echo() {
        let mut ld = Ldisc::default();
        let (echo, _) = feed(&mut ld, b"abx\x7f\x03");
        assert!(echo.ends_with("\x08 \x08^C"), "{echo:?}");
        assert_eq!(read(&mut ld, 100), None, "^C flushed the line");
        feed(&mut ld, b"one two\x17three\x15four\n");
        assert_eq!(read(&mut ld, 100).unwrap(), b"four\n");
        feed(&mut ld, b"x\x01\x7fy\n");
        assert_eq!(read(&mut ld, 100).unwrap(), b"xy\n");
    }

    #[test]
    fn eof_ends_a_line_and_alone_is_end_of_file() {
        let mut ld = Ldisc::default();
        feed(&mut ld, b"abc\x04\x04");
        assert_eq!(read(&mut ld, 100).unwrap(), b"abc");
        assert_eq!(read(&mut ld, 100).unwrap(), b"", "empty line: EOF");
        assert_eq!(read(&mut ld, 100), None, "one EOF each");
    }

    #[test]
    fn signal_characters_and_isig_off() {
        let mut ld = Ldisc::default();
        assert_eq!(
            feed(&mut ld, b"\x03\x1c\x1a").1,
            [Signal::SIGINT, Signal::SIGQUIT, Signal::SIGTSTP]
        );
        let mut t = ld.termios;
        t.c_lflag.remove(Lflag::ISIG);
        ld.set_termios(t);
        assert!(feed(&mut ld, b"\x03\n").1.is_empty());
        assert_eq!(read(&mut ld, 100).unwrap(), b"\x03\n");
        let mut t = ld.termios;
        t.c_lflag.insert(Lflag::ISIG);
        t.c_cc[VINTR] = VDISABLE;
        ld.set_termios(t);
        assert!(feed(&mut ld, b"\x03").1.is_empty(), "a disabled character is data");
    }

    #[test]
    fn raw_mode_vmin_vtime() {
        let mut ld = Ldisc::default();
        let mut t = ld.termios;
        t.c_lflag.remove(Lflag::ICANON | Lflag::ECHO);
        t.c_cc[VMIN] = 3;
        ld.set_termios(t);
        feed(&mut ld, b"ab");
        assert_eq!(ld.poll_read(10, false), ReadNow::Wait);
        assert_eq!(
            ld.poll_read(2, false),
            ReadNow::Bytes(2),
            "VMIN is capped by the read's length"
        );
        assert_eq!(ld.poll_read(10, true), ReadNow::Bytes(2), "VTIME ran out");
        feed(&mut ld, b"c\x04");
        assert_eq!(read(&mut ld, 10).unwrap(), b"abc\x04", "no line editing in raw mode");
        t.c_cc[VMIN] = 0;
        ld.set_termios(t);
        assert_eq!(ld.poll_read(10, false), ReadNow::Bytes(0), "VMIN=VTIME=0 polls");
        t.c_cc[VTIME] = 5;
        ld.set_termios(t);
        assert_eq!(ld.read_timer_ns(), Some(500_000_000));
        assert_eq!(ld.poll_read(10, false), ReadNow::Wait);
    }

    #[test]
    fn mode_switch_keeps_input() {
        let mut ld = Ldisc::default();
        feed(&mut ld, b"half");
        let mut t = ld.termios;
        t.c_lflag.remove(Lflag::ICANON);
        ld.set_termios(t);
        assert_eq!(read(&mut ld, 100).unwrap(), b"half");
        feed(&mut ld, b"raw");
        t.c_lflag.insert(Lflag::ICANON);
        ld.set_termios(t);
        assert_eq!(read(&mut ld, 100).unwrap(), b"raw");
    }

    #[test]
    fn full_buffer_holds_back_raw_input_and_a_long_line_drops() {
        let mut ld = Ldisc::default();
        let mut t = ld.termios;
        t.c_lflag.remove(Lflag::ICANON | Lflag::ECHO);
        ld.set_termios(t);
        let mut n = 0;
        while ld.can_receive() {
            feed(&mut ld, b"x");
            n += 1;
        }
        assert_eq!((n, ld.dropped), (BUF_SIZE, 0));
        let mut ld = Ldisc::default();
        for _ in 0..BUF_SIZE + 10 {
            assert!(ld.can_receive(), "a canonical reader needs the newline");
            feed(&mut ld, b"y");
        }
        feed(&mut ld, b"\n");
        assert_eq!(read(&mut ld, 1 << 20).unwrap().len(), BUF_SIZE);
        assert_eq!(ld.dropped, 11);
    }

    /// Lines streamed in while a reader is slow: the driver stops at the
    /// byte a canonical line would have to drop, never loses one.
    #[test]
    fn full_buffer_holds_back_complete_lines_without_a_drop() {
        let mut ld = Ldisc::default();
        let line = b"0123456789abcdef\n";
        let mut sent = 0;
        while ld.can_receive() {
            feed(&mut ld, &line[sent % line.len()..][..1]);
            sent += 1;
        }
        assert_eq!(ld.dropped, 0, "after {sent} bytes");
        assert_eq!(sent, BUF_SIZE - 1);
    }

    #[test]
    fn the_end_of_input_keeps_an_unterminated_last_line() {
        let mut ld = Ldisc::default();
        feed(&mut ld, b"one\ntwo");
        ld.end_input();
        assert_eq!(read(&mut ld, 100).unwrap(), b"one\n");
        assert_eq!(read(&mut ld, 100).unwrap(), b"two");
        assert_eq!(read(&mut ld, 100).unwrap(), b"");
    }

    #[test]
    fn ixon_stops_and_starts_output_and_end_of_input() {
        let mut ld = Ldisc::default();
        feed(&mut ld, b"\x13");
        assert!(ld.stopped);
        feed(&mut ld, b"\x11");
        assert!(!ld.stopped);
        feed(&mut ld, b"last\n");
        ld.end_input();
        assert_eq!(read(&mut ld, 100).unwrap(), b"last\n");
        assert_eq!(read(&mut ld, 100).unwrap(), b"");
        assert_eq!(read(&mut ld, 100).unwrap(), b"", "ended input stays at EOF");
    }
}
