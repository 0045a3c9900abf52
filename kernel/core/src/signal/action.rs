//! Signal dispositions: the ppc32 `struct sigaction` rt_sigaction passes, the
//! default action of each signal, and the rules that decide which mask a
//! handler runs with and whether a signal is worth queueing at all.
//!
//! Who calls it: the rt_sigaction/sigaction syscalls (decode, validate, store),
//! signal generation (`disposition` and `default_action`: ignored signals
//! are not queued), setting SIG_IGN (`is_ignored`: rt_sigaction discards what
//! is pending) and delivery (`handler_mask`, `take_for_delivery`).

use super::info::SigInfo;
use super::sigset::{SigSet, Signal};
use crate::abi::{self, Errno};

/// A signal action, as the kernel stores one per signal per process.
///
/// User layout of the ppc kernel `struct sigaction` (20 bytes, rt_sigaction):
/// ```text
///  0 sa_handler   SIG_DFL (0), SIG_IGN (1) or the handler address
///  4 sa_flags     SA_*
///  8 sa_restorer  stored and handed back, never used by the ppc kernel
/// 12 sa_mask      8 bytes: word 0 = signals 1..32, word 1 = 33..64
/// ```
/// The old `sigaction` (67) uses `struct old_sigaction` (16 bytes): handler 0,
/// mask 4 (one word), flags 8, restorer 12.
///
/// Beside what the user passed, an action keeps what a delivery of its
/// signal adds to the blocked mask (`adds`), worked out once when it is
/// installed (`SigAction::new`), so that a delivery is one union
/// (`handler_mask`). That is why the fields other than the handler are
/// private: a changed flag or mask would leave `adds` behind. The handler
/// may change (SA_RESETHAND), since `adds` does not depend on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SigAction {
    pub handler: u32,
    flags: u32,
    /// Kept only so oldact reads back what was set (glibc leaves it garbage).
    restorer: u32,
    /// `sa_mask` as Linux stores it: without SIGKILL and SIGSTOP, and
    /// without the signal unless the user put it there (oldact shows it).
    mask: SigSet,
    /// `mask`, plus the action's signal unless SA_NODEFER: what a delivery
    /// blocks on top of the interrupted mask (Linux `signal_delivered`).
    /// Never SIGKILL or SIGSTOP. Empty in `DEFAULT`, whose handler is never
    /// run.
    adds: SigSet,
}

/// What a `SigAction` says to do with its signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disposition {
    Default,
    Ignore,
    Handler(u32),
}

/// What SIG_DFL means for each signal (Linux `sig_kernel_*` masks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultAction {
    Terminate,
    CoreDump,
    Ignore,
    Stop,
    /// SIGCONT: resuming happens when it is *sent*; at delivery it is ignored.
    Continue,
}

/// SIG_DFL's meaning for `sig`, as Linux: RT signals and the unlisted ones
/// terminate.
pub const fn default_action(sig: Signal) -> DefaultAction {
    match sig.number() {
        abi::SIGQUIT
        | abi::SIGILL
        | abi::SIGTRAP
        | abi::SIGABRT
        | abi::SIGBUS
        | abi::SIGFPE
        | abi::SIGSEGV
        | abi::SIGXCPU
        | abi::SIGXFSZ
        | abi::SIGSYS => DefaultAction::CoreDump,
        abi::SIGCHLD | abi::SIGURG | abi::SIGWINCH => DefaultAction::Ignore,
        abi::SIGSTOP | abi::SIGTSTP | abi::SIGTTIN | abi::SIGTTOU => DefaultAction::Stop,
        abi::SIGCONT => DefaultAction::Continue,
        _ => DefaultAction::Terminate,
    }
}

/// Checks the arguments of rt_sigaction before anything is read or written:
/// `sigsetsize` must be 8, `sig` 1..=64, and SIGKILL/SIGSTOP may be queried
/// but not changed (`setting` = a new action was passed). All failures EINVAL.
pub fn check_rt_sigaction(sig: u32, sigsetsize: u32, setting: bool) -> Result<Signal, Errno> {
    if sigsetsize != abi::SIGSET_SIZE {
        return Err(Errno::EINVAL);
    }
    let sig = Signal::new(sig).ok_or(Errno::EINVAL)?;
    if setting && SigSet::UNBLOCKABLE.contains(sig) {
        return Err(Errno::EINVAL);
    }
    Ok(sig)
}

/// The signals whose SIG_DFL does nothing (`default_action` Ignore or
/// Continue: Linux `SIG_KERNEL_IGNORE_MASK`, and SIGCONT), as a set built
/// from `default_action` at compile time: `is_ignored`, which every sender
/// of a SIG_DFL signal asks, tests one word's bit instead of calling the
/// `match`.
const IGNORED_BY_DEFAULT: SigSet = {
    let mut set = SigSet::EMPTY;
    let mut n = 1;
    while n <= abi::SIGRTMAX {
        if let Some(sig) = Signal::new(n) {
            if matches!(default_action(sig), DefaultAction::Ignore | DefaultAction::Continue) {
                set = set.union(sig.set());
            }
        }
        n += 1;
    }
    set
};

impl SigAction {
    /// The default action (SIG_DFL, no flags, empty mask).
    pub const DEFAULT: SigAction = SigAction {
        handler: abi::SIG_DFL,
        flags: 0,
        restorer: 0,
        mask: SigSet::EMPTY,
        adds: SigSet::EMPTY,
    };

    /// The action for `sig` that the user's words describe. SIGKILL and
    /// SIGSTOP are dropped from the mask here, as Linux `do_sigaction` does,
    /// so a stored action never names them; and what a delivery of `sig`
    /// adds to the blocked mask is worked out now, once, rather than on every
    /// delivery (the union, the SA_NODEFER test, the signal's bit in its word
    /// and the two signals' removal cost a delivery about 20 instructions).
    pub const fn new(
        sig: Signal,
        handler: u32,
        flags: u32,
        restorer: u32,
        mask: SigSet,
    ) -> SigAction {
        let mask = mask.blockable();
        let adds = if flags & abi::SA_NODEFER == 0 { mask.union(sig.set()) } else { mask };
        SigAction { handler, flags, restorer, mask, adds: adds.blockable() }
    }

    /// Decodes the 5 words of the user `struct sigaction`, an action for `sig`.
    pub const fn from_words(sig: Signal, w: [u32; 5]) -> SigAction {
        SigAction::new(sig, w[0], w[1], w[2], SigSet::from_user_words(w[3], w[4]))
    }

    /// Encodes as the 5 words of the user `struct sigaction` (for oldact).
    pub const fn to_words(self) -> [u32; 5] {
        let (m0, m1) = self.mask.words();
        [self.handler, self.flags, self.restorer, m0, m1]
    }

    /// Decodes the 4 words of `struct old_sigaction` (syscall 67), an action
    /// for `sig`: the mask covers signals 1..32 only, so the stored mask's
    /// high word is 0.
    pub const fn from_old_words(sig: Signal, w: [u32; 4]) -> SigAction {
        SigAction::new(sig, w[0], w[2], w[3], SigSet::from_user_words(w[1], 0))
    }

    /// Encodes as `struct old_sigaction` (signals 33..64 of the mask are lost).
    pub const fn to_old_words(self) -> [u32; 4] {
        [self.handler, self.mask.words().0, self.flags, self.restorer]
    }

    /// The SA_* flags, as the user passed them.
    pub const fn flags(&self) -> u32 {
        self.flags
    }

    /// `sa_mask`, as stored (without SIGKILL and SIGSTOP).
    pub const fn mask(&self) -> SigSet {
        self.mask
    }

    /// Decodes the handler word: SIG_DFL, SIG_IGN or an address.
    pub const fn disposition(&self) -> Disposition {
        match self.handler {
            abi::SIG_DFL => Disposition::Default,
            abi::SIG_IGN => Disposition::Ignore,
            h => Disposition::Handler(h),
        }
    }

    /// True if the handler wants the RT frame (siginfo + ucontext).
    pub const fn wants_siginfo(&self) -> bool {
        self.flags & abi::SA_SIGINFO != 0
    }

    /// True if `sig` with this action does nothing at all, so generation may
    /// drop it instead of queueing (Linux `sig_task_ignored`): explicit SIG_IGN,
    /// or SIG_DFL whose default is Ignore or Continue (SIGCONT's effect is
    /// applied when it is sent, before this check).
    ///
    /// A blocked signal is never ignored: the handler may change before it is
    /// unblocked (Linux `sig_ignored`). Init's protection (PID 1 drops
    /// default-action signals from user space) is a separate rule,
    /// `init_drops_default`, which the kernel checks beside this one.
    ///
    /// Inline: every sender runs it, and out of line its call cost more than
    /// its body once the disposition is known at the call site.
    #[inline]
    pub const fn is_ignored(&self, sig: Signal, blocked: &SigSet) -> bool {
        if blocked.contains(sig) {
            return false;
        }
        match self.disposition() {
            Disposition::Ignore => true,
            Disposition::Default => IGNORED_BY_DEFAULT.contains(sig),
            Disposition::Handler(_) => false,
        }
    }

    /// Returns the action to deliver `sig` with now, and applies SA_RESETHAND to
    /// the stored one: a one-shot handler reverts to SIG_DFL (only the handler;
    /// flags and mask stay, as in Linux `get_signal`).
    pub fn take_for_delivery(&mut self) -> SigAction {
        let now = *self;
        if self.flags & abi::SA_RESETHAND != 0 {
            self.handler = abi::SIG_DFL;
        }
        now
    }
}

/// The blocked mask the handler runs with (Linux `signal_delivered`): the
/// interrupted mask, plus `sa_mask`, plus the signal itself unless
/// SA_NODEFER; never SIGKILL or SIGSTOP. `act` is the delivered signal's
/// action, whose `adds` holds all but the first, so this is one union: the
/// interrupted mask is blockable already (every store of a thread's mask
/// strips the two signals, as Linux `set_current_blocked`). The interrupted
/// mask is saved in the frame and restored by sigreturn.
#[inline]
pub const fn handler_mask(old_blocked: SigSet, act: &SigAction) -> SigSet {
    old_blocked.union(act.adds)
}

/// Linux's protection of init (`SIGNAL_UNKILLABLE` in `sig_task_ignored`):
/// does PID 1 drop `info` when its action for the signal is SIG_DFL? It
/// does, unless the kernel itself sends SIGKILL or SIGSTOP (si_code > 0:
/// not from user space) or forces a fault on it (`force_sig_fault` clears
/// the protection, so a faulting init dies instead of looping).
pub const fn init_drops_default(info: &SigInfo) -> bool {
    let from_kernel = info.code() > 0;
    let forced = matches!(
        info.signo(),
        abi::SIGKILL
            | abi::SIGSTOP
            | abi::SIGSEGV
            | abi::SIGBUS
            | abi::SIGILL
            | abi::SIGFPE
            | abi::SIGTRAP
    );
    !(from_kernel && forced)
}

#[cfg(test)]
mod tests {
    #[test]
    fn init_keeps_only_kernel_kills_and_faults() {
        let user = |sig| SigInfo::kill(sig, 2, 0);
        assert!(init_drops_default(&user(Signal::SIGKILL)));
        assert!(init_drops_default(&user(Signal::SIGTERM)));
        assert!(init_drops_default(&SigInfo::queue(Signal::SIGSEGV, 2, 0, 0)));
        assert!(!init_drops_default(&SigInfo::kernel(Signal::SIGKILL)));
        assert!(!init_drops_default(&SigInfo::fault(Signal::SIGSEGV, abi::SEGV_MAPERR, 0)));
        assert!(init_drops_default(&SigInfo::kernel(Signal::SIGHUP)));
    }

    use super::*;

    #[test]
    fn default_actions_as_linux() {
        use DefaultAction::*;
        assert_eq!(default_action(Signal::SIGSEGV), CoreDump);
        assert_eq!(default_action(Signal::SIGABRT), CoreDump);
        assert_eq!(default_action(Signal::SIGSYS), CoreDump);
        assert_eq!(default_action(Signal::SIGKILL), Terminate);
        assert_eq!(default_action(Signal::SIGTERM), Terminate);
        assert_eq!(default_action(Signal::SIGUSR1), Terminate);
        assert_eq!(default_action(Signal::SIGPWR), Terminate);
        assert_eq!(default_action(Signal::SIGRTMIN), Terminate);
        assert_eq!(default_action(Signal::SIGRTMAX), Terminate);
        assert_eq!(default_action(Signal::SIGCHLD), Ignore);
        assert_eq!(default_action(Signal::SIGWINCH), Ignore);
        assert_eq!(default_action(Signal::SIGURG), Ignore);
        assert_eq!(default_action(Signal::SIGTSTP), Stop);
        assert_eq!(default_action(Signal::SIGSTOP), Stop);
        assert_eq!(default_action(Signal::SIGCONT), Continue);
    }

    #[test]
    fn rt_sigaction_validation() {
        assert_eq!(check_rt_sigaction(10, 8, true), Ok(Signal::SIGUSR1));
        assert_eq!(check_rt_sigaction(10, 4, true), Err(Errno::EINVAL));
        assert_eq!(check_rt_sigaction(10, 128, false), Err(Errno::EINVAL));
        assert_eq!(check_rt_sigaction(0, 8, false), Err(Errno::EINVAL));
        assert_eq!(check_rt_sigaction(65, 8, false), Err(Errno::EINVAL));
        assert_eq!(check_rt_sigaction(9, 8, true), Err(Errno::EINVAL));
        assert_eq!(check_rt_sigaction(19, 8, true), Err(Errno::EINVAL));
        // Querying SIGKILL's action is allowed.
        assert_eq!(check_rt_sigaction(9, 8, false), Ok(Signal::SIGKILL));
    }

    #[test]
    fn word_layouts() {
        let usr1 = Signal::SIGUSR1;
        // What glibc's signal(SIGUSR1, h) passes: SA_RESTART, mask = {SIGUSR1}.
        let a = SigAction::from_words(usr1, [0x1000_0440, abi::SA_RESTART, 0xdead_beef, 1 << 9, 0]);
        assert_eq!(a.disposition(), Disposition::Handler(0x1000_0440));
        assert!(!a.wants_siginfo());
        assert_eq!(a.to_words(), [0x1000_0440, abi::SA_RESTART, 0xdead_beef, 1 << 9, 0]);
        // SIGKILL and SIGSTOP never survive into a stored mask.
        let b = SigAction::from_words(usr1, [1, 0, 0, !0, !0]);
        assert_eq!(b.disposition(), Disposition::Ignore);
        assert_eq!(b.mask(), SigSet::from_bits(!0).blockable());
        let c = SigAction::from_old_words(usr1, [0x1000_0000, 0x600, abi::SA_SIGINFO, 0]);
        assert!(c.wants_siginfo());
        assert_eq!(c.mask().words(), (0x600, 0));
        assert_eq!(c.to_old_words(), [0x1000_0000, 0x600, abi::SA_SIGINFO, 0]);
        // Bit 8 is SIGKILL: dropped from the old-style mask too.
        assert_eq!(SigAction::from_old_words(usr1, [0, 0x300, 0, 0]).mask().words(), (0x200, 0));
        assert_eq!(SigAction::DEFAULT.disposition(), Disposition::Default);
        assert_eq!(SigAction::default(), SigAction::DEFAULT);
    }

    #[test]
    fn oldact_is_what_was_set() {
        // The signal a delivery adds is the kernel's, never shown: oldact
        // gives back sa_mask as passed, less SIGKILL and SIGSTOP (Linux).
        let words =
            [0x1000_0440, abi::SA_SIGINFO, 0x1234_5678, Signal::SIGALRM.set().bits() as u32, 0];
        for sig in [Signal::SIGUSR1, Signal::SIGALRM, Signal::SIGRTMIN] {
            assert_eq!(SigAction::from_words(sig, words).to_words(), words);
        }
        let old = [0x1000_0440, 1 << 13, abi::SA_NODEFER, 0];
        assert_eq!(SigAction::from_old_words(Signal::SIGUSR2, old).to_old_words(), old);
    }

    #[test]
    fn handler_mask_rules() {
        let old = Signal::SIGUSR2.set();
        let (h, alrm) = (0x1000_0000, Signal::SIGALRM.set());
        let act = SigAction::new(Signal::SIGUSR1, h, 0, 0, alrm);
        let m = handler_mask(old, &act);
        assert_eq!(m, old.union(Signal::SIGALRM.set()).union(Signal::SIGUSR1.set()));
        let act = SigAction::new(Signal::SIGUSR1, h, abi::SA_NODEFER, 0, alrm);
        let m = handler_mask(old, &act);
        assert!(!m.contains(Signal::SIGUSR1));
        assert_eq!(m, old.union(alrm));
        // An RT signal's bit is in the second word.
        let rt = SigAction::new(Signal::SIGRTMAX, h, 0, 0, SigSet::EMPTY);
        assert_eq!(handler_mask(old, &rt), old.union(Signal::SIGRTMAX.set()));
        // Even a forged mask cannot make SIGKILL/SIGSTOP blockable.
        let all = SigAction::new(Signal::SIGUSR1, h, 0, 0, SigSet::from_bits(!0));
        assert!(handler_mask(old, &all).intersect(SigSet::UNBLOCKABLE).is_empty());
        assert_eq!(handler_mask(SigSet::EMPTY, &all), SigSet::from_bits(!0).blockable());
        // Nor can an action made for one of them (rt_sigaction refuses it).
        let kill = SigAction::new(Signal::SIGKILL, h, 0, 0, SigSet::EMPTY);
        assert!(handler_mask(old, &kill).intersect(SigSet::UNBLOCKABLE).is_empty());
    }

    #[test]
    fn resethand_reverts_only_the_handler() {
        let flags = abi::SA_RESETHAND | abi::SA_SIGINFO;
        let mut stored =
            SigAction::new(Signal::SIGUSR1, 0x1000_0000, flags, 0, Signal::SIGINT.set());
        let used = stored.take_for_delivery();
        assert_eq!(used.handler, 0x1000_0000);
        assert_eq!(
            handler_mask(SigSet::EMPTY, &used),
            Signal::SIGINT.set().union(Signal::SIGUSR1.set())
        );
        assert_eq!(stored.handler, abi::SIG_DFL);
        assert_eq!(stored.flags(), flags);
        assert_eq!(stored.mask(), Signal::SIGINT.set());
        let mut keep = SigAction { handler: 0x1000_0000, ..SigAction::DEFAULT };
        keep.take_for_delivery();
        assert_eq!(keep.handler, 0x1000_0000);
    }

    #[test]
    fn ignored_signals() {
        let none = &SigSet::EMPTY;
        let dfl = SigAction::DEFAULT;
        let ign = SigAction { handler: abi::SIG_IGN, ..SigAction::DEFAULT };
        let h = SigAction { handler: 0x1000_0000, ..SigAction::DEFAULT };
        assert!(dfl.is_ignored(Signal::SIGCHLD, none));
        assert!(dfl.is_ignored(Signal::SIGWINCH, none));
        assert!(dfl.is_ignored(Signal::SIGCONT, none));
        assert!(!dfl.is_ignored(Signal::SIGUSR1, none));
        assert!(ign.is_ignored(Signal::SIGUSR1, none));
        assert!(!h.is_ignored(Signal::SIGCHLD, none));
        // Blocked: kept, the disposition may change before unblocking.
        assert!(!ign.is_ignored(Signal::SIGUSR1, &Signal::SIGUSR1.set()));
    }
}
