//! Signals, as the Linux ppc32 kernel ABI defines them (not glibc's view):
//! a 64-bit `sigset_t`, `struct sigaction` {handler, flags, restorer, mask},
//! and the 128-byte `siginfo_t`. No restorer is needed: the kernel puts the
//! sigreturn trampoline in the signal frame itself.

use crate::process::{getpid, gettid};
use crate::sys::{syscall, syscall_plain, Error, Sysno};

// The numbers (SIGUSR1, SA_SIGINFO, SIG_BLOCK, SI_QUEUE, ...) are the kernel's own.
pub use sigil_abi::sig::*;

/// The first real-time signal a program may use: glibc keeps the kernel's
/// first two (32 and 33) for itself, so its SIGRTMIN is 34.
pub const SIGRTMIN_USER: u32 = SIGRTMIN + 2;

/// A set of the 64 signals: bit `n - 1` is signal `n`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct SigSet(pub [u32; 2]);

impl SigSet {
    pub const EMPTY: SigSet = SigSet([0, 0]);

    pub fn of(signals: &[u32]) -> SigSet {
        let mut s = SigSet::EMPTY;
        for &sig in signals {
            s.0[((sig - 1) / 32) as usize] |= 1 << ((sig - 1) % 32);
        }
        s
    }

    pub fn contains(&self, sig: u32) -> bool {
        self.0[((sig - 1) / 32) as usize] & (1 << ((sig - 1) % 32)) != 0
    }
}

/// The kernel's siginfo_t: the first three words are common to every
/// signal; the rest is a union whose first words we name for the kill and
/// sigqueue forms (pid, uid, value).
#[derive(Clone, Copy)]
#[repr(C)]
pub struct SigInfo {
    pub signo: i32,
    pub errno: i32,
    pub code: i32,
    pub pid: i32,
    pub uid: u32,
    pub value: u32,
    pad: [u32; 26],
}

impl SigInfo {
    /// A siginfo as `sigqueue()` builds it: SI_QUEUE, our pid and uid, `value`.
    pub fn queue(signo: u32, value: u32) -> SigInfo {
        SigInfo {
            signo: signo as i32,
            errno: 0,
            code: SI_QUEUE,
            pid: getpid() as i32,
            uid: 0,
            value,
            pad: [0; 26],
        }
    }
}

/// What to do with a signal.
#[derive(Clone, Copy)]
pub enum Handler {
    Default,
    Ignore,
    /// `fn(signo)`.
    Plain(extern "C" fn(i32)),
    /// `fn(signo, &siginfo, ucontext)`: installed with SA_SIGINFO.
    Info(extern "C" fn(i32, &SigInfo, *mut u8)),
}

#[repr(C)]
struct KSigAction {
    handler: usize,
    flags: u32,
    restorer: usize,
    mask: SigSet,
}

/// rt_sigaction: installs `handler` for `sig` with `flags` (SA_SIGINFO is
/// added for `Handler::Info`) and `mask` blocked while it runs.
pub fn sigaction(sig: u32, handler: Handler, flags: u32, mask: SigSet) -> Result<(), Error> {
    let (h, extra) = match handler {
        Handler::Default => (0, 0),
        Handler::Ignore => (1, 0),
        Handler::Plain(f) => (f as usize, 0),
        Handler::Info(f) => (f as usize, SA_SIGINFO),
    };
    let act = KSigAction { handler: h, flags: flags | extra, restorer: 0, mask };
    // SAFETY: act is read by the kernel; no old action is asked for.
    unsafe {
        syscall(Sysno::RtSigaction, [sig, &act as *const KSigAction as u32, 0, SIGSET_SIZE, 0, 0])
    }
    .map(|_| ())
}

/// rt_sigprocmask: changes the blocked set, returns the old one.
pub fn sigprocmask(how: u32, set: &SigSet) -> Result<SigSet, Error> {
    let mut old = SigSet::EMPTY;
    // SAFETY: set is read, old written; both ours.
    unsafe {
        syscall(
            Sysno::RtSigprocmask,
            [how, set as *const SigSet as u32, &mut old as *mut SigSet as u32, SIGSET_SIZE, 0, 0],
        )
    }?;
    Ok(old)
}

/// rt_sigpending: the signals waiting because they are blocked.
pub fn sigpending() -> Result<SigSet, Error> {
    let mut set = SigSet::EMPTY;
    // SAFETY: set is ours to write.
    unsafe {
        syscall(Sysno::RtSigpending, [&mut set as *mut SigSet as u32, SIGSET_SIZE, 0, 0, 0, 0])
    }?;
    Ok(set)
}

pub fn kill(pid: i32, sig: u32) -> Result<(), Error> {
    syscall_plain(Sysno::Kill, [pid as u32, sig, 0, 0, 0, 0]).map(|_| ())
}

/// raise: to this thread, as glibc does (tgkill).
pub fn raise(sig: u32) -> Result<(), Error> {
    syscall_plain(Sysno::Tgkill, [getpid(), gettid(), sig, 0, 0, 0]).map(|_| ())
}

/// sigqueue: a signal with a value (rt_sigqueueinfo).
pub fn sigqueue(pid: u32, sig: u32, value: u32) -> Result<(), Error> {
    let info = SigInfo::queue(sig, value);
    // SAFETY: info is read by the kernel.
    unsafe { syscall(Sysno::RtSigqueueinfo, [pid, sig, &info as *const SigInfo as u32, 0, 0, 0]) }
        .map(|_| ())
}
