//! Linux ppc32 system call numbers: the `Sysno` enum the syscall table is indexed by.
//!
//! The numbers are Linux's, from `arch/powerpc/kernel/syscalls/syscall.tbl` as
//! exported in `/usr/powerpc-linux-gnu/include/asm/unistd_32.h`; a host test
//! reads that header and checks every entry here. Only the calls Sigil may
//! implement are listed: anything else decodes to `None`, and the dispatcher
//! answers it with ENOSYS, exactly what glibc expects of an older kernel (it
//! then falls back, e.g. statx -> fstatat64, clock_gettime64 -> clock_gettime).
//!
//! Two ppc32 quirks worth knowing: `uname` (122) is Linux's `newuname` (ppc32
//! has no separate number for it), and `ugetrlimit` (190) is the getrlimit
//! glibc actually calls; the old `getrlimit` (76) clamps to 0x7fffffff.

/// Declares the enum, its `from_raw` decoder, its name table and `ALL`, from one
/// list so the four can never disagree.
macro_rules! sysnos {
    ($($variant:ident = $nr:literal => $name:literal,)*) => {
        /// A Linux ppc32 system call number (the value user space puts in r0).
        #[repr(u32)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Sysno {
            $(
                #[doc = concat!("`", $name, "` (", stringify!($nr), ")")]
                $variant = $nr,
            )*
        }

        impl Sysno {
            /// Every number Sigil knows, in ascending order.
            pub const ALL: &'static [Sysno] = &[$(Sysno::$variant,)*];

            /// Decodes a system call number; `None` means "not implemented
            /// here" (ENOSYS). The kernel's dispatch does not decode: it
            /// indexes its table of handlers by the number itself
            /// (kernel/src/syscall/mod.rs); this names a number for its
            /// console line.
            #[inline(always)]
            pub const fn from_raw(nr: u32) -> Option<Sysno> {
                match nr {
                    $($nr => Some(Sysno::$variant),)*
                    _ => None,
                }
            }

            /// The Linux name (as in `unistd_32.h` without `__NR_`), for traces.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Sysno::$variant => $name,)*
                }
            }
        }
    };
}

sysnos! {
    RestartSyscall = 0 => "restart_syscall",
    Exit = 1 => "exit",
    Fork = 2 => "fork",
    Read = 3 => "read",
    Write = 4 => "write",
    Open = 5 => "open",
    Close = 6 => "close",
    Waitpid = 7 => "waitpid",
    Link = 9 => "link",
    Unlink = 10 => "unlink",
    Execve = 11 => "execve",
    Chdir = 12 => "chdir",
    Time = 13 => "time",
    Mknod = 14 => "mknod",
    Chmod = 15 => "chmod",
    Lchown = 16 => "lchown",
    Lseek = 19 => "lseek",
    Getpid = 20 => "getpid",
    Setuid = 23 => "setuid",
    Getuid = 24 => "getuid",
    Alarm = 27 => "alarm",
    Pause = 29 => "pause",
    Access = 33 => "access",
    Sync = 36 => "sync",
    Kill = 37 => "kill",
    Rename = 38 => "rename",
    Mkdir = 39 => "mkdir",
    Rmdir = 40 => "rmdir",
    Dup = 41 => "dup",
    Pipe = 42 => "pipe",
    Times = 43 => "times",
    Brk = 45 => "brk",
    Setgid = 46 => "setgid",
    Getgid = 47 => "getgid",
    Geteuid = 49 => "geteuid",
    Getegid = 50 => "getegid",
    Ioctl = 54 => "ioctl",
    Fcntl = 55 => "fcntl",
    Setpgid = 57 => "setpgid",
    Umask = 60 => "umask",
    Dup2 = 63 => "dup2",
    Getppid = 64 => "getppid",
    Getpgrp = 65 => "getpgrp",
    Setsid = 66 => "setsid",
    Sigaction = 67 => "sigaction",
    Setreuid = 70 => "setreuid",
    Setregid = 71 => "setregid",
    Sigsuspend = 72 => "sigsuspend",
    Sigpending = 73 => "sigpending",
    Setrlimit = 75 => "setrlimit",
    Getrlimit = 76 => "getrlimit",
    Getrusage = 77 => "getrusage",
    Gettimeofday = 78 => "gettimeofday",
    Settimeofday = 79 => "settimeofday",
    Getgroups = 80 => "getgroups",
    Setgroups = 81 => "setgroups",
    Symlink = 83 => "symlink",
    Readlink = 85 => "readlink",
    Reboot = 88 => "reboot",
    Mmap = 90 => "mmap",
    Munmap = 91 => "munmap",
    Truncate = 92 => "truncate",
    Ftruncate = 93 => "ftruncate",
    Fchmod = 94 => "fchmod",
    Fchown = 95 => "fchown",
    Statfs = 99 => "statfs",
    Fstatfs = 100 => "fstatfs",
    Setitimer = 104 => "setitimer",
    Getitimer = 105 => "getitimer",
    Wait4 = 114 => "wait4",
    Sysinfo = 116 => "sysinfo",
    Fsync = 118 => "fsync",
    Sigreturn = 119 => "sigreturn",
    Clone = 120 => "clone",
    Uname = 122 => "uname",
    Mprotect = 125 => "mprotect",
    Sigprocmask = 126 => "sigprocmask",
    Getpgid = 132 => "getpgid",
    Fchdir = 133 => "fchdir",
    Setfsuid = 138 => "setfsuid",
    Setfsgid = 139 => "setfsgid",
    Llseek = 140 => "_llseek",
    Getdents = 141 => "getdents",
    Newselect = 142 => "_newselect",
    Msync = 144 => "msync",
    Readv = 145 => "readv",
    Writev = 146 => "writev",
    Getsid = 147 => "getsid",
    Fdatasync = 148 => "fdatasync",
    SchedYield = 158 => "sched_yield",
    Nanosleep = 162 => "nanosleep",
    Mremap = 163 => "mremap",
    Setresuid = 164 => "setresuid",
    Getresuid = 165 => "getresuid",
    Poll = 167 => "poll",
    Setresgid = 169 => "setresgid",
    Getresgid = 170 => "getresgid",
    Prctl = 171 => "prctl",
    RtSigreturn = 172 => "rt_sigreturn",
    RtSigaction = 173 => "rt_sigaction",
    RtSigprocmask = 174 => "rt_sigprocmask",
    RtSigpending = 175 => "rt_sigpending",
    RtSigtimedwait = 176 => "rt_sigtimedwait",
    RtSigqueueinfo = 177 => "rt_sigqueueinfo",
    RtSigsuspend = 178 => "rt_sigsuspend",
    Pread64 = 179 => "pread64",
    Pwrite64 = 180 => "pwrite64",
    Chown = 181 => "chown",
    Getcwd = 182 => "getcwd",
    Sigaltstack = 185 => "sigaltstack",
    Vfork = 189 => "vfork",
    Ugetrlimit = 190 => "ugetrlimit",
    Mmap2 = 192 => "mmap2",
    Truncate64 = 193 => "truncate64",
    Ftruncate64 = 194 => "ftruncate64",
    Stat64 = 195 => "stat64",
    Lstat64 = 196 => "lstat64",
    Fstat64 = 197 => "fstat64",
    Getdents64 = 202 => "getdents64",
    Fcntl64 = 204 => "fcntl64",
    Madvise = 205 => "madvise",
    Gettid = 207 => "gettid",
    Tkill = 208 => "tkill",
    Futex = 221 => "futex",
    SchedSetaffinity = 222 => "sched_setaffinity",
    SchedGetaffinity = 223 => "sched_getaffinity",
    SetTidAddress = 232 => "set_tid_address",
    ExitGroup = 234 => "exit_group",
    EpollCreate = 236 => "epoll_create",
    EpollCtl = 237 => "epoll_ctl",
    EpollWait = 238 => "epoll_wait",
    TimerCreate = 240 => "timer_create",
    TimerSettime = 241 => "timer_settime",
    TimerGettime = 242 => "timer_gettime",
    TimerGetoverrun = 243 => "timer_getoverrun",
    TimerDelete = 244 => "timer_delete",
    ClockSettime = 245 => "clock_settime",
    ClockGettime = 246 => "clock_gettime",
    ClockGetres = 247 => "clock_getres",
    ClockNanosleep = 248 => "clock_nanosleep",
    Swapcontext = 249 => "swapcontext",
    Tgkill = 250 => "tgkill",
    Statfs64 = 252 => "statfs64",
    Fstatfs64 = 253 => "fstatfs64",
    Waitid = 272 => "waitid",
    Pselect6 = 280 => "pselect6",
    Ppoll = 281 => "ppoll",
    Unshare = 282 => "unshare",
    Openat = 286 => "openat",
    Mkdirat = 287 => "mkdirat",
    Mknodat = 288 => "mknodat",
    Fchownat = 289 => "fchownat",
    Fstatat64 = 291 => "fstatat64",
    Unlinkat = 292 => "unlinkat",
    Renameat = 293 => "renameat",
    Linkat = 294 => "linkat",
    Symlinkat = 295 => "symlinkat",
    Readlinkat = 296 => "readlinkat",
    Fchmodat = 297 => "fchmodat",
    Faccessat = 298 => "faccessat",
    GetRobustList = 299 => "get_robust_list",
    SetRobustList = 300 => "set_robust_list",
    EpollPwait = 303 => "epoll_pwait",
    Utimensat = 304 => "utimensat",
    Signalfd = 305 => "signalfd",
    TimerfdCreate = 306 => "timerfd_create",
    Eventfd = 307 => "eventfd",
    TimerfdSettime = 311 => "timerfd_settime",
    TimerfdGettime = 312 => "timerfd_gettime",
    Signalfd4 = 313 => "signalfd4",
    Eventfd2 = 314 => "eventfd2",
    EpollCreate1 = 315 => "epoll_create1",
    Dup3 = 316 => "dup3",
    Pipe2 = 317 => "pipe2",
    RtTgsigqueueinfo = 322 => "rt_tgsigqueueinfo",
    Prlimit64 = 325 => "prlimit64",
    Renameat2 = 357 => "renameat2",
    Getrandom = 359 => "getrandom",
    Statx = 383 => "statx",
    Rseq = 387 => "rseq",
    ClockGettime64 = 403 => "clock_gettime64",
    ClockSettime64 = 404 => "clock_settime64",
    ClockGetresTime64 = 406 => "clock_getres_time64",
    ClockNanosleepTime64 = 407 => "clock_nanosleep_time64",
    TimerGettime64 = 408 => "timer_gettime64",
    TimerSettime64 = 409 => "timer_settime64",
    TimerfdGettime64 = 410 => "timerfd_gettime64",
    TimerfdSettime64 = 411 => "timerfd_settime64",
    UtimensatTime64 = 412 => "utimensat_time64",
    Pselect6Time64 = 413 => "pselect6_time64",
    PpollTime64 = 414 => "ppoll_time64",
    RtSigtimedwaitTime64 = 421 => "rt_sigtimedwait_time64",
    FutexTime64 = 422 => "futex_time64",
    PidfdSendSignal = 424 => "pidfd_send_signal",
    PidfdOpen = 434 => "pidfd_open",
    Clone3 = 435 => "clone3",
    Faccessat2 = 439 => "faccessat2",
    EpollPwait2 = 441 => "epoll_pwait2",
}

impl Sysno {
    /// The raw number, as user space passes it in r0.
    pub const fn raw(self) -> u32 {
        self as u32
    }
}

#[cfg(test)]
mod tests {
    use super::Sysno;
    use std::collections::HashMap;
    use std::string::ToString;

    /// Every entry must carry the number the cross toolchain's header gives its
    /// name; a typo here would send glibc's calls to the wrong handler.
    #[test]
    fn numbers_match_the_cross_header() {
        let path = "/usr/powerpc-linux-gnu/include/asm/unistd_32.h";
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            panic!("cannot read {path} ({e}): install the powerpc-linux-gnu cross toolchain (make test does)")
        });
        let mut header = HashMap::new();
        for line in text.lines() {
            let mut words = line.split_whitespace();
            if let (Some("#define"), Some(name), Some(value)) =
                (words.next(), words.next(), words.next())
            {
                if let (Some(name), Ok(nr)) = (name.strip_prefix("__NR_"), value.parse::<u32>()) {
                    header.insert(name.to_string(), nr);
                }
            }
        }
        for &s in Sysno::ALL {
            assert_eq!(header.get(s.name()), Some(&s.raw()), "{}", s.name());
        }
    }

    #[test]
    fn from_raw_round_trips_and_rejects_unknown() {
        for &s in Sysno::ALL {
            assert_eq!(Sysno::from_raw(s.raw()), Some(s));
        }
        assert!(Sysno::ALL.windows(2).all(|w| w[0].raw() < w[1].raw()));
        assert_eq!(Sysno::from_raw(119), Some(Sysno::Sigreturn));
        assert_eq!(Sysno::from_raw(172), Some(Sysno::RtSigreturn));
        assert_eq!(Sysno::from_raw(17), None); // "break", never implemented
        assert_eq!(Sysno::from_raw(9999), None);
    }
}
