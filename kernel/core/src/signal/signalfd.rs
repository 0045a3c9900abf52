//! signalfd's record: the 128-byte `struct signalfd_siginfo` that a read
//! of a signalfd returns for each signal it takes, filled from the
//! kernel's siginfo as Linux's `signalfd_copyinfo` does: the fields a
//! signal carries depend on its layout, which its number and si_code
//! select (`siginfo_layout`), and pointers and clock ticks are widened to
//! 64 bits as a 32-bit `long` (sign-extended).
//!
//! ```text
//!  byte  field          byte  field           byte  field
//!     0  ssi_signo        32  ssi_overrun       72  ssi_addr (u64)
//!     4  ssi_errno        36  ssi_trapno        80  ssi_addr_lsb (u16)
//!     8  ssi_code         40  ssi_status        84  ssi_syscall
//!    12  ssi_pid          44  ssi_int           88  ssi_call_addr (u64)
//!    16  ssi_uid          48  ssi_ptr (u64)     96  ssi_arch
//!    20  ssi_fd           56  ssi_utime (u64)  100  padding to 128
//!    24  ssi_tid          64  ssi_stime (u64)
//!    28  ssi_band
//! ```

use super::info::SigInfo;
use crate::abi;

/// Bytes of one `struct signalfd_siginfo`.
pub const SIGNALFD_INFO_SIZE: u32 = 128;

/// Which union member of the siginfo holds the signal's details (Linux's
/// `enum siginfo_layout`, less the layouts ppc32 never has).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    Kill,
    Timer,
    Poll,
    Fault,
    FaultMceErr,
    Chld,
    Rt,
    Sys,
}

/// Linux `siginfo_layout`: a code between SI_USER and SI_KERNEL is the
/// signal's own (up to that signal's last code, Linux 6.1's NSIG* limits),
/// or a SIGPOLL-style band code; the negative codes are the senders'.
fn layout(sig: u32, code: i32) -> Layout {
    if code > abi::SI_USER && code < abi::SI_KERNEL {
        let specific = match sig {
            abi::SIGILL => Some((11, Layout::Fault)),
            abi::SIGFPE => Some((15, Layout::Fault)),
            abi::SIGSEGV => Some((9, Layout::Fault)),
            abi::SIGBUS => Some((5, Layout::Fault)),
            abi::SIGTRAP => Some((6, Layout::Fault)),
            abi::SIGCHLD => Some((6, Layout::Chld)),
            abi::SIGSYS => Some((2, Layout::Sys)),
            _ => None,
        };
        match specific {
            // BUS_MCEERR_AR and BUS_MCEERR_AO carry the address's lsb too.
            Some(_) if sig == abi::SIGBUS && (4..=5).contains(&code) => Layout::FaultMceErr,
            Some((limit, l)) if code <= limit => l,
            _ if code <= 6 => Layout::Poll,
            _ => Layout::Kill,
        }
    } else {
        match code {
            abi::SI_TIMER => Layout::Timer,
            abi::SI_SIGIO => Layout::Poll,
            c if c < 0 => Layout::Rt,
            _ => Layout::Kill,
        }
    }
}

/// A 32-bit `long` widened into a u64 field, as C's conversion does it.
fn long(w: u32) -> u64 {
    w as i32 as i64 as u64
}

/// Stores a u64 field at word `at`: high word first (ppc32 is big-endian).
fn put64(r: &mut [u32; 32], at: usize, v: u64) {
    r[at] = (v >> 32) as u32;
    r[at + 1] = v as u32;
}

/// The `signalfd_siginfo` for `info`, as 32 words in the target's order.
/// Word indexes below are byte offsets / 4 in both structures.
pub fn record(info: &SigInfo) -> [u32; 32] {
    let w = info.words();
    let mut r = [0u32; 32];
    r[..3].copy_from_slice(&w[..3]); // signo, errno, code
    match layout(w[0], w[2] as i32) {
        Layout::Kill => (r[3], r[4]) = (w[3], w[4]), // pid, uid
        Layout::Rt => {
            (r[3], r[4], r[11]) = (w[3], w[4], w[5]); // pid, uid, int
            put64(&mut r, 12, long(w[5])); // ptr: the same sigval
        }
        Layout::Timer => {
            (r[6], r[8], r[11]) = (w[3], w[4], w[5]); // tid (timer id), overrun, int
            put64(&mut r, 12, long(w[5]));
        }
        Layout::Poll => (r[7], r[5]) = (w[3], w[4]), // band, fd
        Layout::Fault => put64(&mut r, 18, long(w[3])), // addr
        Layout::FaultMceErr => {
            put64(&mut r, 18, long(w[3]));
            r[20] = w[4] & 0xffff_0000; // addr_lsb: the short at byte 16
        }
        Layout::Chld => {
            (r[3], r[4], r[10]) = (w[3], w[4], w[5]); // pid, uid, status
            put64(&mut r, 14, long(w[6])); // utime
            put64(&mut r, 16, long(w[7])); // stime
        }
        Layout::Sys => {
            put64(&mut r, 22, long(w[3])); // call_addr
            (r[21], r[24]) = (w[4], w[5]); // syscall, arch
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signal::sigset::Signal;

    fn sig(n: u32) -> Signal {
        Signal::new(n).unwrap()
    }

    #[test]
    fn layouts_follow_signal_and_code() {
        assert_eq!(layout(abi::SIGUSR1, abi::SI_USER), Layout::Kill);
        assert_eq!(layout(abi::SIGUSR1, abi::SI_KERNEL), Layout::Kill);
        assert_eq!(layout(abi::SIGUSR1, abi::SI_QUEUE), Layout::Rt);
        assert_eq!(layout(abi::SIGUSR1, abi::SI_TKILL), Layout::Rt);
        assert_eq!(layout(abi::SIGALRM, abi::SI_TIMER), Layout::Timer);
        assert_eq!(layout(abi::SIGSEGV, 1), Layout::Fault);
        assert_eq!(layout(abi::SIGSEGV, 10), Layout::Kill); // past SEGV's codes and SIGPOLL's
        assert_eq!(layout(abi::SIGBUS, 4), Layout::FaultMceErr);
        assert_eq!(layout(abi::SIGCHLD, 1), Layout::Chld);
        assert_eq!(layout(abi::SIGSYS, 1), Layout::Sys);
        assert_eq!(layout(abi::SIGUSR1, 3), Layout::Poll);
        assert_eq!(layout(abi::SIGIO, abi::SI_SIGIO), Layout::Poll);
    }

    #[test]
    fn records_carry_each_layouts_fields() {
        let k = record(&SigInfo::kill(sig(abi::SIGUSR1), 42, 1000));
        assert_eq!(&k[..5], &[abi::SIGUSR1, 0, 0, 42, 1000]);
        assert!(k[5..].iter().all(|&w| w == 0));

        let q = record(&SigInfo::queue(sig(40), 7, 0, 0x8000_0001));
        assert_eq!((q[3], q[11]), (7, 0x8000_0001));
        assert_eq!((q[12], q[13]), (0xffff_ffff, 0x8000_0001)); // ssi_ptr sign-extended

        let t = record(&SigInfo::timer(sig(abi::SIGALRM), 3, 2, 9));
        assert_eq!((t[3], t[6], t[8], t[11], t[13]), (0, 3, 2, 9, 9));

        let f = record(&SigInfo::fault(sig(abi::SIGSEGV), 1, 0x1000));
        assert_eq!((f[3], f[18], f[19]), (0, 0, 0x1000));

        let c = record(&SigInfo::chld(1, 5, 1000, 3).with_child_times(10, 20));
        assert_eq!((c[3], c[4], c[10], c[15], c[17]), (5, 1000, 3, 10, 20));
    }
}
