//! `Signal` (a checked signal number) and `SigSet` (a set of signals, the type of
//! every mask and pending set in the kernel).
//!
//! Layout rule (facts 6.1): signal n is bit n-1 of a 64-bit set. User space sees
//! the set as two 32-bit words, word 0 = signals 1..32, word 1 = signals 33..64,
//! each in the machine's byte order - so on big-endian ppc32 the 8 user bytes
//! are NOT the u64 in memory order; always go through `from_user_words` and
//! `words`.
//!
//! The kernel keeps the set as those two words, not as a `u64`: on a 32-bit
//! CPU a `u64` set made every one-signal operation (send, dequeue, the
//! handler's mask, a mask test) a 64-bit shift by a variable amount, about a
//! dozen instructions of paired `slw`/`srw`/`or`, and LLVM rebuilt that shift
//! from any word-picking written over a `u64`. With two words a signal is a
//! word index and a 32-bit mask (`Signal::word`, `Signal::mask`), as Linux's
//! `sigaddset` does on 32-bit machines (`_NSIG_WORDS` = 2).

use crate::abi::{self, Errno};

/// A valid signal number, 1..=64. Holding one proves the number was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Signal(u8);

impl Signal {
    pub const SIGHUP: Signal = Signal(abi::SIGHUP as u8);
    pub const SIGINT: Signal = Signal(abi::SIGINT as u8);
    pub const SIGQUIT: Signal = Signal(abi::SIGQUIT as u8);
    pub const SIGILL: Signal = Signal(abi::SIGILL as u8);
    pub const SIGTRAP: Signal = Signal(abi::SIGTRAP as u8);
    pub const SIGABRT: Signal = Signal(abi::SIGABRT as u8);
    pub const SIGBUS: Signal = Signal(abi::SIGBUS as u8);
    pub const SIGFPE: Signal = Signal(abi::SIGFPE as u8);
    pub const SIGKILL: Signal = Signal(abi::SIGKILL as u8);
    pub const SIGUSR1: Signal = Signal(abi::SIGUSR1 as u8);
    pub const SIGSEGV: Signal = Signal(abi::SIGSEGV as u8);
    pub const SIGUSR2: Signal = Signal(abi::SIGUSR2 as u8);
    pub const SIGPIPE: Signal = Signal(abi::SIGPIPE as u8);
    pub const SIGALRM: Signal = Signal(abi::SIGALRM as u8);
    pub const SIGTERM: Signal = Signal(abi::SIGTERM as u8);
    pub const SIGSTKFLT: Signal = Signal(abi::SIGSTKFLT as u8);
    pub const SIGCHLD: Signal = Signal(abi::SIGCHLD as u8);
    pub const SIGCONT: Signal = Signal(abi::SIGCONT as u8);
    pub const SIGSTOP: Signal = Signal(abi::SIGSTOP as u8);
    pub const SIGTSTP: Signal = Signal(abi::SIGTSTP as u8);
    pub const SIGTTIN: Signal = Signal(abi::SIGTTIN as u8);
    pub const SIGTTOU: Signal = Signal(abi::SIGTTOU as u8);
    pub const SIGURG: Signal = Signal(abi::SIGURG as u8);
    pub const SIGXCPU: Signal = Signal(abi::SIGXCPU as u8);
    pub const SIGXFSZ: Signal = Signal(abi::SIGXFSZ as u8);
    pub const SIGVTALRM: Signal = Signal(abi::SIGVTALRM as u8);
    pub const SIGPROF: Signal = Signal(abi::SIGPROF as u8);
    pub const SIGWINCH: Signal = Signal(abi::SIGWINCH as u8);
    pub const SIGIO: Signal = Signal(abi::SIGIO as u8);
    pub const SIGPWR: Signal = Signal(abi::SIGPWR as u8);
    pub const SIGSYS: Signal = Signal(abi::SIGSYS as u8);
    pub const SIGRTMIN: Signal = Signal(abi::SIGRTMIN as u8);
    pub const SIGRTMAX: Signal = Signal(abi::SIGRTMAX as u8);

    /// Checks a raw number from user space: `None` for 0 and for > 64.
    /// (Callers that accept 0 as "just check permissions", like kill, test for
    /// 0 before calling this.)
    pub const fn new(n: u32) -> Option<Signal> {
        if n >= 1 && n <= abi::SIGRTMAX {
            Some(Signal(n as u8))
        } else {
            None
        }
    }

    /// The signal number, 1..=64.
    pub const fn number(self) -> u32 {
        self.0 as u32
    }

    /// Real-time signals (32..=64) queue one entry per send; standard ones
    /// (1..=31) coalesce.
    pub const fn is_rt(self) -> bool {
        self.0 as u32 >= abi::SIGRTMIN
    }

    /// The index of this signal's word in a `SigSet` (0 for 1..=32, 1 for
    /// 33..=64). Masked to one bit, which the range makes a no-op, so that an
    /// indexed access needs no bounds check.
    const fn word(self) -> usize {
        ((self.0 as u32 - 1) >> 5 & 1) as usize
    }

    /// This signal's bit within its word.
    const fn mask(self) -> u32 {
        1 << ((self.0 as u32 - 1) % 32)
    }

    /// The set holding only this signal: its mask in its word, the other
    /// word zero, chosen with an all-ones-or-zero word.
    pub const fn set(self) -> SigSet {
        let high = 0u32.wrapping_sub(self.word() as u32);
        SigSet([self.mask() & !high, self.mask() & high])
    }
}

/// A set of signals: bit n-1 stands for signal n; word 0 holds signals
/// 1..=32, word 1 signals 33..=64 (the user layout, see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SigSet([u32; 2]);

impl SigSet {
    /// No signals.
    pub const EMPTY: SigSet = SigSet([0, 0]);
    /// The two signals no mask can block and no handler can catch.
    pub const UNBLOCKABLE: SigSet = Signal::SIGKILL.set().union(Signal::SIGSTOP.set());
    /// Signals raised synchronously by the faulting instruction itself. Linux
    /// dequeues these before anything else so the handler sees the fault at
    /// the instruction that caused it, not after some unrelated handler.
    pub const SYNCHRONOUS: SigSet = Signal::SIGSEGV
        .set()
        .union(Signal::SIGBUS.set())
        .union(Signal::SIGILL.set())
        .union(Signal::SIGTRAP.set())
        .union(Signal::SIGFPE.set())
        .union(Signal::SIGSYS.set());
    /// The job-control stop signals, discarded when SIGCONT is sent.
    pub const STOP: SigSet = Signal::SIGSTOP
        .set()
        .union(Signal::SIGTSTP.set())
        .union(Signal::SIGTTIN.set())
        .union(Signal::SIGTTOU.set());

    /// The set as a plain bit pattern (bit n-1 = signal n).
    pub const fn from_bits(bits: u64) -> SigSet {
        SigSet::from_user_words(bits as u32, (bits >> 32) as u32)
    }

    /// The bit pattern (bit n-1 = signal n).
    pub const fn bits(self) -> u64 {
        (self.0[1] as u64) << 32 | self.0[0] as u64
    }

    /// Builds a set from the user layout: word 0 = signals 1..32, word 1 = 33..64.
    pub const fn from_user_words(w0: u32, w1: u32) -> SigSet {
        SigSet([w0, w1])
    }

    /// The user layout: (word 0 = signals 1..32, word 1 = signals 33..64).
    pub const fn words(self) -> (u32, u32) {
        (self.0[0], self.0[1])
    }

    /// Adds `sig` to the set: one word's load, `or` and store.
    pub fn add(&mut self, sig: Signal) {
        self.0[sig.word()] |= sig.mask();
    }

    /// Removes `sig` from the set.
    pub fn remove(&mut self, sig: Signal) {
        self.0[sig.word()] &= !sig.mask();
    }

    /// True if `sig` is in the set: its word and its mask. By reference:
    /// the sets asked are fields (a mask, a pending set), and the word is
    /// then one indexed load from the field.
    pub const fn contains(&self, sig: Signal) -> bool {
        self.0[sig.word()] & sig.mask() != 0
    }

    /// Signals in either set.
    pub const fn union(self, other: SigSet) -> SigSet {
        SigSet([self.0[0] | other.0[0], self.0[1] | other.0[1]])
    }

    /// Signals in both sets.
    pub const fn intersect(self, other: SigSet) -> SigSet {
        SigSet([self.0[0] & other.0[0], self.0[1] & other.0[1]])
    }

    /// `self` minus every signal in `other`.
    pub const fn without(self, other: SigSet) -> SigSet {
        SigSet([self.0[0] & !other.0[0], self.0[1] & !other.0[1]])
    }

    /// True if no signal is in the set.
    pub const fn is_empty(self) -> bool {
        self.0[0] | self.0[1] == 0
    }

    /// The lowest-numbered signal in the set: the first word that has one.
    pub const fn lowest(self) -> Option<Signal> {
        let (word, base) = match self.0 {
            [0, 0] => return None,
            [0, w1] => (w1, 33),
            [w0, _] => (w0, 1),
        };
        Some(Signal(word.trailing_zeros() as u8 + base))
    }

    /// The set with SIGKILL and SIGSTOP removed: what every mask the kernel
    /// stores as "blocked" must look like (Linux `set_current_blocked`).
    pub const fn blockable(self) -> SigSet {
        self.without(SigSet::UNBLOCKABLE)
    }

    /// The new blocked mask for sigprocmask/rt_sigprocmask (`how` = SIG_BLOCK,
    /// SIG_UNBLOCK or SIG_SETMASK, anything else EINVAL); SIGKILL and SIGSTOP
    /// are silently dropped, as Linux does.
    pub fn apply_how(self, how: u32, set: SigSet) -> Result<SigSet, Errno> {
        let new = match how {
            abi::SIG_BLOCK => self.union(set),
            abi::SIG_UNBLOCK => self.without(set),
            abi::SIG_SETMASK => set,
            _ => return Err(Errno::EINVAL),
        };
        Ok(new.blockable())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_checked_constructor() {
        assert_eq!(Signal::new(0), None);
        assert_eq!(Signal::new(65), None);
        assert_eq!(Signal::new(1), Some(Signal::SIGHUP));
        assert_eq!(Signal::new(64), Some(Signal::SIGRTMAX));
        assert_eq!(Signal::SIGSEGV.number(), 11);
        assert!(!Signal::SIGSYS.is_rt());
        assert!(Signal::SIGRTMIN.is_rt());
        assert!(Signal::new(40).unwrap().is_rt());
    }

    #[test]
    fn bit_n_minus_one_and_user_words() {
        assert_eq!(Signal::SIGHUP.set().bits(), 1);
        assert_eq!(Signal::SIGUSR1.set().bits(), 1 << 9);
        assert_eq!(Signal::SIGRTMAX.set().bits(), 1 << 63);
        let mut s = SigSet::EMPTY;
        s.add(Signal::SIGUSR1);
        s.add(Signal::new(33).unwrap());
        s.add(Signal::SIGRTMAX);
        assert_eq!(s.words(), (0x200, 0x8000_0001));
        assert_eq!(SigSet::from_user_words(0x200, 0x8000_0001), s);
        assert_eq!(SigSet::from_user_words(0x8000_0000, 0).lowest(), Signal::new(32));
    }

    #[test]
    fn every_signal_is_bit_n_minus_one_of_its_word() {
        for n in 1..=64 {
            let sig = Signal::new(n).unwrap();
            let bit = 1u64 << (n - 1);
            assert_eq!(sig.set().bits(), bit, "signal {n}");
            let mut s = SigSet::from_bits(!0 ^ bit);
            assert!(!s.contains(sig) && s.union(sig.set()).bits() == !0);
            s.add(sig);
            assert!(s.contains(sig) && s.bits() == !0);
            s.remove(sig);
            assert_eq!(s.bits(), !0 ^ bit);
            assert_eq!(sig.set().lowest(), Some(sig));
            assert_eq!(SigSet::from_bits(!0 << (n - 1)).lowest(), Some(sig));
            assert!(!SigSet::EMPTY.contains(sig) && !sig.set().is_empty());
        }
    }

    #[test]
    fn set_algebra() {
        let a = SigSet::from_bits(0b1011);
        let b = SigSet::from_bits(0b0110);
        assert_eq!(a.union(b).bits(), 0b1111);
        assert_eq!(a.intersect(b).bits(), 0b0010);
        assert_eq!(a.without(b).bits(), 0b1001);
        assert!(a.contains(Signal::SIGHUP) && !a.contains(Signal::SIGQUIT));
        let mut c = a;
        c.remove(Signal::SIGHUP);
        assert_eq!(c.lowest(), Some(Signal::SIGINT));
        assert!(SigSet::EMPTY.is_empty() && SigSet::EMPTY.lowest().is_none());
        assert_eq!(SigSet::STOP.lowest(), Some(Signal::SIGSTOP));
        assert_eq!(SigSet::SYNCHRONOUS.lowest(), Some(Signal::SIGILL));
    }

    #[test]
    fn sigprocmask_how() {
        let cur = Signal::SIGUSR1.set();
        let set = Signal::SIGUSR2.set().union(SigSet::UNBLOCKABLE);
        let both = cur.union(Signal::SIGUSR2.set());
        assert_eq!(cur.apply_how(abi::SIG_BLOCK, set), Ok(both));
        assert_eq!(
            both.apply_how(abi::SIG_UNBLOCK, Signal::SIGUSR1.set()),
            Ok(Signal::SIGUSR2.set())
        );
        assert_eq!(cur.apply_how(abi::SIG_SETMASK, set), Ok(Signal::SIGUSR2.set()));
        assert_eq!(cur.apply_how(3, set), Err(Errno::EINVAL));
        assert_eq!(SigSet::from_bits(!0).blockable().bits(), !((1 << 8) | (1 << 18)));
    }
}
