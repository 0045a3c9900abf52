//! The kernel's siginfo: the 32 meaningful bytes of the user's 128-byte
//! `siginfo_t`, built when a signal is generated and written into the RT frame
//! (or rt_sigtimedwait's buffer) when it is delivered.
//!
//! Layout (Linux ppc32 `siginfo_t`, facts 6.1), word index = byte offset / 4:
//! ```text
//!  byte  word  kill/tkill/queue  SIGCHLD     fault     timer
//!     0     0  si_signo          si_signo    si_signo  si_signo
//!     4     1  si_errno          si_errno    si_errno  si_errno
//!     8     2  si_code           si_code     si_code   si_code
//!    12     3  si_pid            si_pid      si_addr   si_tid
//!    16     4  si_uid            si_uid      -         si_overrun
//!    20     5  si_value          si_status   -         si_value
//!    24     6  -                 si_utime    -         -
//!    28     7  -                 si_stime    -         -
//!    32..127   always zero when the kernel writes a siginfo to user space
//! ```
//! The words are kept in host order. On the big-endian target that array is
//! byte-for-byte the user layout, so delivery writes the 8 words and then 24
//! zero words: exactly Linux's `copy_siginfo_to_user` (32 bytes + clear 96).

use super::sigset::Signal;
use crate::abi::{self, Errno};

/// Size of the user `siginfo_t`.
pub const SIGINFO_USER_SIZE: usize = 128;
/// Words of the user `siginfo_t`.
pub const SIGINFO_USER_WORDS: usize = SIGINFO_USER_SIZE / 4;

/// The first 32 bytes of a `siginfo_t`, as host-order words (see module doc).
///
/// # Invariants
/// Word 0 (si_signo) is a valid signal number: every constructor takes a
/// `Signal`, and `from_user` overwrites the user's word 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SigInfo([u32; 8]);

impl SigInfo {
    const fn with(sig: Signal, code: i32, w3: u32, w4: u32, w5: u32) -> SigInfo {
        SigInfo([sig.number(), 0, code as u32, w3, w4, w5, 0, 0])
    }

    /// kill(): SI_USER with the sender's pid and uid.
    pub const fn kill(sig: Signal, pid: u32, uid: u32) -> SigInfo {
        SigInfo::with(sig, abi::SI_USER, pid, uid, 0)
    }

    /// tkill()/tgkill() (and so glibc's raise()): SI_TKILL.
    pub const fn tkill(sig: Signal, pid: u32, uid: u32) -> SigInfo {
        SigInfo::with(sig, abi::SI_TKILL, pid, uid, 0)
    }

    /// sigqueue() as the kernel would build it: SI_QUEUE with a value.
    pub const fn queue(sig: Signal, pid: u32, uid: u32, value: u32) -> SigInfo {
        SigInfo::with(sig, abi::SI_QUEUE, pid, uid, value)
    }

    /// A fault (SIGSEGV/SIGBUS/SIGILL/SIGFPE/SIGTRAP) at `addr` with a
    /// signal-specific code such as SEGV_MAPERR.
    pub const fn fault(sig: Signal, code: i32, addr: u32) -> SigInfo {
        SigInfo::with(sig, code, addr, 0, 0)
    }

    /// SIGCHLD to a parent: `code` is CLD_*, `status` the exit code or signal.
    /// The CPU times start at 0; see `with_child_times`.
    pub const fn chld(code: i32, pid: u32, uid: u32, status: u32) -> SigInfo {
        SigInfo::with(Signal::SIGCHLD, code, pid, uid, status)
    }

    /// Sets si_utime/si_stime (clock ticks) of a SIGCHLD siginfo.
    pub const fn with_child_times(mut self, utime: u32, stime: u32) -> SigInfo {
        self.0[6] = utime;
        self.0[7] = stime;
        self
    }

    /// A POSIX timer expiry: SI_TIMER with timer id, overrun count and value.
    pub const fn timer(sig: Signal, id: u32, overrun: u32, value: u32) -> SigInfo {
        SigInfo::with(sig, abi::SI_TIMER, id, overrun, value)
    }

    /// A POSIX timer's signal as the kernel queues it: `seq` goes in the
    /// kernel-private word (Linux `si_sys_private`) and ties the signal to
    /// the timer setting that queued it; `for_delivery` clears it.
    pub const fn timer_queued(sig: Signal, id: u32, value: u32, seq: u32) -> SigInfo {
        let mut info = SigInfo::timer(sig, id, 0, value);
        info.0[6] = seq;
        info
    }

    /// The sequence number of a kernel-queued timer signal (0: not one).
    pub const fn timer_seq(&self) -> u32 {
        if self.code() == abi::SI_TIMER {
            self.0[6]
        } else {
            0
        }
    }

    /// A timer that expired again while its signal waits re-tags it.
    pub fn set_timer_seq(&mut self, seq: u32) {
        self.0[6] = seq;
    }

    /// si_timerid of a timer signal.
    pub const fn timer_id(&self) -> u32 {
        self.0[3]
    }

    /// A timer signal leaving the queue: si_overrun filled in, the private
    /// word cleared so user space never sees it.
    pub fn for_delivery(&mut self, overrun: i32) {
        self.0[4] = overrun as u32;
        self.0[6] = 0;
    }

    /// A signal the kernel sends on its own behalf (SI_KERNEL, no sender).
    pub const fn kernel(sig: Signal) -> SigInfo {
        SigInfo::with(sig, abi::SI_KERNEL, 0, 0, 0)
    }

    /// What a signal that lost its queue entry reports (Linux `collect_signal`
    /// on a node-less pending bit): SI_USER, everything else zero.
    pub const fn lost(sig: Signal) -> SigInfo {
        SigInfo::with(sig, abi::SI_USER, 0, 0, 0)
    }

    /// The 8 words to write at the start of the user `siginfo_t` (follow them
    /// with 24 zero words).
    pub const fn words(&self) -> &[u32; 8] {
        &self.0
    }

    /// si_signo.
    pub const fn signo(&self) -> u32 {
        self.0[0]
    }

    /// si_signo as a `Signal` (valid by the type's invariant).
    pub const fn signal(&self) -> Signal {
        match Signal::new(self.0[0]) {
            Some(sig) => sig,
            None => panic!("SigInfo invariant: si_signo is 1..=64"),
        }
    }

    /// si_code (negative: sent from user space).
    pub const fn code(&self) -> i32 {
        self.0[2] as i32
    }

    /// si_pid (kill, tkill, queue, SIGCHLD).
    pub const fn pid(&self) -> u32 {
        self.0[3]
    }

    /// si_addr (faults).
    pub const fn addr(&self) -> u32 {
        self.0[3]
    }

    /// si_value (queue, timer) or si_status (SIGCHLD).
    pub const fn value(&self) -> u32 {
        self.0[5]
    }

    /// Takes a siginfo user space passed to rt_sigqueueinfo/rt_tgsigqueueinfo
    /// (all 128 bytes, already read as words). si_signo is forced to `sig`, the
    /// syscall argument, as Linux `__copy_siginfo_from_user`. If the (sig,
    /// si_code) pair has no layout the kernel knows, the 96 bytes beyond the
    /// kernel siginfo must be zero, else E2BIG (Linux
    /// `post_copy_siginfo_from_user`): the kernel would silently drop them.
    pub fn from_user(sig: Signal, user: &[u32; SIGINFO_USER_WORDS]) -> Result<SigInfo, Errno> {
        let mut words = [0u32; 8];
        words.copy_from_slice(&user[..8]);
        words[0] = sig.number();
        if words[2] as i32 == abi::SI_TIMER {
            words[6] = 0; // the kernel-private word: no forging a timer's tag
        }
        let info = SigInfo(words);
        if !known_layout(sig, info.code()) && user[8..].iter().any(|&w| w != 0) {
            return Err(Errno::E2BIG);
        }
        Ok(info)
    }

    /// Who may queue this user-made siginfo (Linux `do_rt_sigqueueinfo` and
    /// `do_rt_tgsigqueueinfo`): toward another process (or thread) si_code
    /// must be negative and not SI_TKILL, so nobody can impersonate the kernel
    /// (si_code >= 0 includes SI_USER and SI_KERNEL) or kill()/tgkill(), whose
    /// sender pid/uid the kernel vouches for. To itself anything goes.
    pub const fn check_queue_sender(&self, sender: u32, target: u32) -> Result<(), Errno> {
        let code = self.code();
        if (code >= 0 || code == abi::SI_TKILL) && sender != target {
            Err(Errno::EPERM)
        } else {
            Ok(())
        }
    }
}

/// Linux `known_siginfo_layout`: the si_code values whose union member the
/// kernel understands for `sig`.
fn known_layout(sig: Signal, code: i32) -> bool {
    if code == abi::SI_KERNEL {
        return true;
    }
    if code > abi::SI_USER {
        // Signal-specific codes: 1..=N where N is the signal's NSIG* limit;
        // signals without their own codes accept the SIGPOLL range.
        let limit = match sig.number() {
            abi::SIGILL => 11,
            abi::SIGFPE => 15,
            abi::SIGSEGV => 9,
            abi::SIGBUS => 5,
            abi::SIGTRAP => 6,
            abi::SIGCHLD => 6,
            abi::SIGIO => 6,
            abi::SIGSYS => 2,
            _ => 6, // NSIGPOLL
        };
        return code <= limit;
    }
    code >= abi::SI_DETHREAD || code == abi::SI_ASYNCNL
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_place_fields_like_linux() {
        let k = SigInfo::kill(Signal::SIGUSR1, 42, 1000);
        assert_eq!(k.0, [10, 0, 0, 42, 1000, 0, 0, 0]);
        assert_eq!(SigInfo::tkill(Signal::SIGABRT, 7, 0).code(), -6);
        let q = SigInfo::queue(Signal::SIGRTMIN, 3, 0, 0xabcd);
        assert_eq!((q.code(), q.pid(), q.value()), (-1, 3, 0xabcd));
        let f = SigInfo::fault(Signal::SIGSEGV, abi::SEGV_MAPERR, 0xdead_0000);
        assert_eq!(f.0, [11, 0, 1, 0xdead_0000, 0, 0, 0, 0]);
        assert_eq!(f.addr(), 0xdead_0000);
        let c = SigInfo::chld(abi::CLD_EXITED, 5, 0, 3).with_child_times(7, 8);
        assert_eq!(c.0, [17, 0, 1, 5, 0, 3, 7, 8]);
        let t = SigInfo::timer(Signal::SIGALRM, 1, 2, 3);
        assert_eq!(t.0, [14, 0, (-2i32) as u32, 1, 2, 3, 0, 0]);
        assert_eq!(SigInfo::kernel(Signal::SIGKILL).0, [9, 0, 0x80, 0, 0, 0, 0, 0]);
        assert_eq!(SigInfo::lost(Signal::SIGRTMIN).0, [32, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(SigInfo::kill(Signal::SIGHUP, 1, 2).signo(), 1);
    }

    #[test]
    fn queue_sender_rules() {
        let q = SigInfo::queue(Signal::SIGUSR1, 5, 0, 1);
        assert_eq!(q.check_queue_sender(5, 9), Ok(()));
        let mut forged = q;
        forged.0[2] = abi::SI_USER as u32;
        assert_eq!(forged.check_queue_sender(5, 9), Err(Errno::EPERM));
        assert_eq!(forged.check_queue_sender(5, 5), Ok(()));
        forged.0[2] = abi::SI_KERNEL as u32;
        assert_eq!(forged.check_queue_sender(5, 9), Err(Errno::EPERM));
        forged.0[2] = abi::SI_TKILL as u32;
        assert_eq!(forged.check_queue_sender(5, 9), Err(Errno::EPERM));
        assert_eq!(forged.check_queue_sender(9, 9), Ok(()));
    }

    #[test]
    fn from_user_forces_signo_and_checks_the_tail() {
        let mut user = [0u32; SIGINFO_USER_WORDS];
        user[0] = 99; // lies about the signal: replaced by the syscall argument
        user[2] = abi::SI_QUEUE as u32;
        user[3] = 77;
        user[5] = 0x1234;
        let info = SigInfo::from_user(Signal::SIGUSR2, &user).unwrap();
        assert_eq!(info.0, [12, 0, (-1i32) as u32, 77, 0, 0x1234, 0, 0]);
        // Known layout: a dirty tail is ignored (Linux copies 32 bytes only).
        user[20] = 1;
        assert!(SigInfo::from_user(Signal::SIGUSR2, &user).is_ok());
        // Unknown si_code: the tail must be clean.
        user[2] = (-8i32) as u32;
        assert_eq!(SigInfo::from_user(Signal::SIGUSR2, &user), Err(Errno::E2BIG));
        user[20] = 0;
        assert!(SigInfo::from_user(Signal::SIGUSR2, &user).is_ok());
        user[20] = 1;
        user[2] = abi::SI_ASYNCNL as u32;
        assert!(SigInfo::from_user(Signal::SIGUSR2, &user).is_ok());
        user[2] = 12; // past NSIGILL (11) for SIGILL
        assert_eq!(SigInfo::from_user(Signal::SIGILL, &user), Err(Errno::E2BIG));
        user[2] = 11;
        assert!(SigInfo::from_user(Signal::SIGILL, &user).is_ok());
        user[2] = 7; // past NSIGPOLL for a signal without its own codes
        assert_eq!(SigInfo::from_user(Signal::SIGUSR1, &user), Err(Errno::E2BIG));
    }
}
