//! Linux error numbers as the ppc32 kernel returns them, plus the kernel-internal
//! "restart" codes that must never reach user space.
//!
//! Convention at the syscall boundary (facts 5.1): a handler returns
//! `Result<u32, Errno>`; the exit path turns `Err(e)` into r3 = `e.raw()` (a
//! positive number) with CR0[SO] set, which glibc turns into `errno = r3` and a
//! return of -1. The restart codes (512..516) are only ever returned by a call
//! that was interrupted by a signal: the signal-delivery path rewrites them (see
//! `signal::frame::syscall_restart`) before user mode runs again.

/// Declares the enum, its decoder and its name table from one list.
macro_rules! errnos {
    ($($variant:ident = $nr:literal, $what:literal;)*) => {
        /// A Linux errno value (generic numbering; ppc32 differs only in
        /// EDEADLOCK 58, which Sigil never returns).
        #[repr(i32)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Errno {
            $(
                #[doc = $what]
                $variant = $nr,
            )*
        }

        impl Errno {
            /// Every errno Sigil knows, in ascending order.
            pub const ALL: &'static [Errno] = &[$(Errno::$variant,)*];

            /// Decodes a positive errno value.
            pub const fn from_raw(nr: i32) -> Option<Errno> {
                match nr {
                    $($nr => Some(Errno::$variant),)*
                    _ => None,
                }
            }

            /// The C name ("ENOENT"), for traces.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Errno::$variant => stringify!($variant),)*
                }
            }
        }
    };
}

errnos! {
    EPERM = 1, "Operation not permitted";
    ENOENT = 2, "No such file or directory";
    ESRCH = 3, "No such process";
    EINTR = 4, "Interrupted system call";
    EIO = 5, "I/O error";
    ENXIO = 6, "No such device or address";
    E2BIG = 7, "Argument list too long (also: unknown siginfo layout with a non-zero tail)";
    ENOEXEC = 8, "Exec format error";
    EBADF = 9, "Bad file number";
    ECHILD = 10, "No child processes";
    EAGAIN = 11, "Try again (also: RT signal queue full)";
    ENOMEM = 12, "Out of memory (also: sigaltstack smaller than MINSIGSTKSZ)";
    EACCES = 13, "Permission denied";
    EFAULT = 14, "Bad address";
    EBUSY = 16, "Device or resource busy";
    EEXIST = 17, "File exists";
    EXDEV = 18, "Cross-device link";
    ENODEV = 19, "No such device";
    ENOTDIR = 20, "Not a directory";
    EISDIR = 21, "Is a directory";
    EINVAL = 22, "Invalid argument";
    ENFILE = 23, "File table overflow";
    EMFILE = 24, "Too many open files";
    ENOTTY = 25, "Not a typewriter (isatty() expects it)";
    EFBIG = 27, "File too large";
    ENOSPC = 28, "No space left on device";
    ESPIPE = 29, "Illegal seek";
    EROFS = 30, "Read-only file system";
    EMLINK = 31, "Too many links";
    EPIPE = 32, "Broken pipe (also: PCM xrun)";
    EDOM = 33, "Math argument out of domain";
    ERANGE = 34, "Math result not representable";
    EDEADLK = 35, "Resource deadlock would occur";
    ENAMETOOLONG = 36, "File name too long";
    ENOLCK = 37, "No record locks available";
    ENOSYS = 38, "Invalid system call number";
    ENOTEMPTY = 39, "Directory not empty";
    ELOOP = 40, "Too many symbolic links encountered";
    EOVERFLOW = 75, "Value too large for defined data type";
    EBADFD = 77, "File descriptor in bad state (also: PCM in the wrong state)";
    EILSEQ = 84, "Illegal byte sequence";
    ESTRPIPE = 86, "Streams pipe error (also: PCM suspended)";
    ENOTSOCK = 88, "Socket operation on non-socket";
    EOPNOTSUPP = 95, "Operation not supported";
    ETIMEDOUT = 110, "Connection timed out";
    ECANCELED = 125, "Operation canceled";
    ERESTARTSYS = 512, "Kernel-internal: restart if no handler runs or it has SA_RESTART";
    ERESTARTNOINTR = 513, "Kernel-internal: always restart";
    ERESTARTNOHAND = 514, "Kernel-internal: restart only if no handler runs";
    ERESTART_RESTARTBLOCK = 516, "Kernel-internal: restart through restart_syscall (0) if no handler runs";
}

impl Errno {
    /// The positive errno value (what r3 holds on the error return).
    pub const fn raw(self) -> i32 {
        self as i32
    }

    /// True for the four kernel-internal restart codes, which user space must
    /// never see.
    pub const fn is_restart(self) -> bool {
        matches!(
            self,
            Errno::ERESTARTSYS
                | Errno::ERESTARTNOINTR
                | Errno::ERESTARTNOHAND
                | Errno::ERESTART_RESTARTBLOCK
        )
    }

    /// Decodes `nr` if it is one of the four restart codes, else None: what
    /// the way back to user mode asks of a failed system call's r3
    /// (`signal::deliver::restart_failed_syscall`). Four compares where
    /// `from_raw`'s search of every errno was a call of its own.
    #[inline]
    pub const fn restart_from_raw(nr: u32) -> Option<Errno> {
        match nr {
            512 => Some(Errno::ERESTARTSYS),
            513 => Some(Errno::ERESTARTNOINTR),
            514 => Some(Errno::ERESTARTNOHAND),
            516 => Some(Errno::ERESTART_RESTARTBLOCK),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Errno;

    #[test]
    fn values_and_names() {
        assert_eq!(Errno::ENOSYS.raw(), 38);
        assert_eq!(Errno::ENOTTY.raw(), 25);
        assert_eq!(Errno::EBADFD.raw(), 77);
        assert_eq!(Errno::ERESTART_RESTARTBLOCK.raw(), 516);
        assert_eq!(Errno::EAGAIN.name(), "EAGAIN");
        for &e in Errno::ALL {
            assert_eq!(Errno::from_raw(e.raw()), Some(e));
            assert_eq!(e.is_restart(), e.raw() >= 512);
            let restart = Errno::restart_from_raw(e.raw() as u32);
            assert_eq!(restart, Some(e).filter(|e| e.is_restart()));
        }
        assert!(Errno::ALL.windows(2).all(|w| w[0].raw() < w[1].raw()));
        assert_eq!(Errno::from_raw(515), None); // ENOIOCTLCMD: never used by Sigil
        assert_eq!(Errno::restart_from_raw(515), None);
        assert_eq!(Errno::restart_from_raw(0), None);
    }
}
