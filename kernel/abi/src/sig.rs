//! Linux ppc32 signal constants: numbers, `sa_flags`, `si_code`s, sigaltstack
//! flags, sigprocmask `how`, wait options and the wait status word.
//!
//! These are raw ABI numbers as user space passes them; typed wrappers
//! (`signal::Signal`, `signal::SigSet`, ...) build on them. The values come from
//! the cross headers (`asm/signal.h`, `asm-generic/siginfo.h`,
//! `asm-generic/signal-defs.h`, `linux/wait.h`); the host cross-check test in
//! `signal::cross_check` compiles a C program against those headers and
//! compares.

// Signal numbers (ppc32 uses the classic i386 numbering).
pub const SIGHUP: u32 = 1;
pub const SIGINT: u32 = 2;
pub const SIGQUIT: u32 = 3;
pub const SIGILL: u32 = 4;
pub const SIGTRAP: u32 = 5;
pub const SIGABRT: u32 = 6;
pub const SIGBUS: u32 = 7;
pub const SIGFPE: u32 = 8;
pub const SIGKILL: u32 = 9;
pub const SIGUSR1: u32 = 10;
pub const SIGSEGV: u32 = 11;
pub const SIGUSR2: u32 = 12;
pub const SIGPIPE: u32 = 13;
pub const SIGALRM: u32 = 14;
pub const SIGTERM: u32 = 15;
pub const SIGSTKFLT: u32 = 16;
pub const SIGCHLD: u32 = 17;
pub const SIGCONT: u32 = 18;
pub const SIGSTOP: u32 = 19;
pub const SIGTSTP: u32 = 20;
pub const SIGTTIN: u32 = 21;
pub const SIGTTOU: u32 = 22;
pub const SIGURG: u32 = 23;
pub const SIGXCPU: u32 = 24;
pub const SIGXFSZ: u32 = 25;
pub const SIGVTALRM: u32 = 26;
pub const SIGPROF: u32 = 27;
pub const SIGWINCH: u32 = 28;
pub const SIGIO: u32 = 29;
pub const SIGPWR: u32 = 30;
pub const SIGSYS: u32 = 31;
/// First real-time signal as the kernel counts (glibc reserves 32 and 33 for
/// itself and reports SIGRTMIN = 34 to programs).
pub const SIGRTMIN: u32 = 32;
/// Last real-time signal; also `_NSIG`, the number of signals.
pub const SIGRTMAX: u32 = 64;
/// Bytes of a kernel sigset (the `sigsetsize` argument of every rt_sig* call).
pub const SIGSET_SIZE: u32 = 8;

// Special handler values (`sa_handler`).
pub const SIG_DFL: u32 = 0;
pub const SIG_IGN: u32 = 1;

// `sa_flags` (asm/signal.h, ppc values).
pub const SA_NOCLDSTOP: u32 = 0x0000_0001;
pub const SA_NOCLDWAIT: u32 = 0x0000_0002;
pub const SA_SIGINFO: u32 = 0x0000_0004;
/// Accepted and stored, never used: the ppc kernel always returns through its
/// own trampoline, whatever `sa_restorer` says.
pub const SA_RESTORER: u32 = 0x0400_0000;
pub const SA_ONSTACK: u32 = 0x0800_0000;
pub const SA_RESTART: u32 = 0x1000_0000;
pub const SA_NODEFER: u32 = 0x4000_0000;
pub const SA_RESETHAND: u32 = 0x8000_0000;

// sigprocmask / rt_sigprocmask `how`.
pub const SIG_BLOCK: u32 = 0;
pub const SIG_UNBLOCK: u32 = 1;
pub const SIG_SETMASK: u32 = 2;

// `si_code` values that say who sent the signal (negative = from user space).
pub const SI_USER: i32 = 0;
pub const SI_KERNEL: i32 = 0x80;
pub const SI_QUEUE: i32 = -1;
pub const SI_TIMER: i32 = -2;
pub const SI_MESGQ: i32 = -3;
pub const SI_ASYNCIO: i32 = -4;
pub const SI_SIGIO: i32 = -5;
pub const SI_TKILL: i32 = -6;
pub const SI_DETHREAD: i32 = -7;
pub const SI_ASYNCNL: i32 = -60;

// Signal-specific `si_code`s for the synchronous (fault) signals and SIGCHLD.
pub const ILL_ILLOPC: i32 = 1;
pub const ILL_ILLOPN: i32 = 2;
pub const ILL_ILLADR: i32 = 3;
pub const ILL_ILLTRP: i32 = 4;
pub const ILL_PRVOPC: i32 = 5;
pub const ILL_PRVREG: i32 = 6;
pub const ILL_COPROC: i32 = 7;
pub const ILL_BADSTK: i32 = 8;
pub const FPE_INTDIV: i32 = 1;
pub const FPE_INTOVF: i32 = 2;
pub const FPE_FLTDIV: i32 = 3;
pub const FPE_FLTOVF: i32 = 4;
pub const FPE_FLTUND: i32 = 5;
pub const FPE_FLTRES: i32 = 6;
pub const FPE_FLTINV: i32 = 7;
pub const FPE_FLTSUB: i32 = 8;
/// A floating-point trap whose cause is not known (Linux 4.17+).
pub const FPE_FLTUNK: i32 = 14;
pub const SEGV_MAPERR: i32 = 1;
pub const SEGV_ACCERR: i32 = 2;
pub const BUS_ADRALN: i32 = 1;
pub const BUS_ADRERR: i32 = 2;
pub const BUS_OBJERR: i32 = 3;
pub const TRAP_BRKPT: i32 = 1;
pub const TRAP_TRACE: i32 = 2;
pub const CLD_EXITED: i32 = 1;
pub const CLD_KILLED: i32 = 2;
pub const CLD_DUMPED: i32 = 3;
pub const CLD_TRAPPED: i32 = 4;
pub const CLD_STOPPED: i32 = 5;
pub const CLD_CONTINUED: i32 = 6;

// sigaltstack `ss_flags` and sizes.
/// Reported by sigaltstack when the caller runs on the alternate stack; as an
/// input it means the same as 0 (enable).
pub const SS_ONSTACK: u32 = 1;
pub const SS_DISABLE: u32 = 2;
/// Disarm the alternate stack while a handler runs on it (restored by
/// rt_sigreturn from `uc_stack`).
pub const SS_AUTODISARM: u32 = 1 << 31;
pub const MINSIGSTKSZ: u32 = 2048;
pub const SIGSTKSZ: u32 = 8192;

// prctl options (linux/prctl.h): the child-subreaper pair.
pub const PR_SET_CHILD_SUBREAPER: u32 = 36;
pub const PR_GET_CHILD_SUBREAPER: u32 = 37;

// wait4/waitpid/waitid options.
pub const WNOHANG: u32 = 0x0000_0001;
pub const WUNTRACED: u32 = 0x0000_0002;
pub const WEXITED: u32 = 0x0000_0004;
pub const WCONTINUED: u32 = 0x0000_0008;
pub const WNOWAIT: u32 = 0x0100_0000;

/// The status word wait4/waitpid store for the parent; glibc's W* macros
/// (`bits/waitstatus.h`) decode it.
pub mod wait_status {
    /// Normal exit: `WIFEXITED`, `WEXITSTATUS` = low 8 bits of the exit code.
    pub const fn exited(code: u32) -> u32 {
        (code & 0xff) << 8
    }
    /// Killed by `sig`; bit 7 (`WCOREDUMP`) if a core dump was due.
    pub const fn signaled(sig: u32, core: bool) -> u32 {
        (sig & 0x7f) | if core { 0x80 } else { 0 }
    }
    /// Stopped by `sig` (`WIFSTOPPED`: low byte 0x7f).
    pub const fn stopped(sig: u32) -> u32 {
        ((sig & 0xff) << 8) | 0x7f
    }
    /// Resumed by SIGCONT (`WIFCONTINUED`).
    pub const CONTINUED: u32 = 0xffff;

    /// What an exit status (`exited` or `signaled`) says, decoded as the
    /// W* macros do: `Ok(exit code)` (`WEXITSTATUS`), or `Err((signal,
    /// core dumped))` (`WTERMSIG`, `WCOREDUMP`).
    pub const fn decode_exit(status: u32) -> Result<u32, (u32, bool)> {
        if status & 0x7f == 0 {
            Ok((status >> 8) & 0xff)
        } else {
            Err((status & 0x7f, status & 0x80 != 0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::wait_status::*;
    use super::*;

    /// The encodings glibc's W* macros expect.
    #[test]
    fn wait_status_words() {
        assert_eq!(exited(3), 0x0300);
        assert_eq!(exited(0x1ff), 0xff00); // only the low 8 bits survive
        assert_eq!(signaled(SIGKILL, false), 9);
        assert_eq!(signaled(SIGSEGV, true), 0x8b);
        assert_eq!(stopped(SIGTSTP), 0x147f);
        assert_eq!(CONTINUED, 0xffff);
        assert_eq!(decode_exit(exited(3)), Ok(3));
        assert_eq!(decode_exit(signaled(SIGKILL, false)), Err((SIGKILL, false)));
        assert_eq!(decode_exit(signaled(SIGSEGV, true)), Err((SIGSEGV, true)));
    }
}
