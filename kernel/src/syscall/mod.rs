//! System calls: the Linux ppc32 convention and the one table of handlers.
//!
//! `sc` with r0 = number, r3..r8 = arguments. The result goes back in r3; on
//! failure r3 = errno and CR0[SO] is set (glibc tests SO, not the sign).
//! Handlers return `Result<u32, Errno>`; the restart codes (ERESTARTSYS...)
//! travel the same way and are resolved in `signal::deliver::restart_syscall`.
//!
//! # From `sc` to the handler
//!
//! Linux ppc32's way, a table of functions indexed by the number
//! (`sys_call_table`), called with the arguments still in registers:
//!
//! 1. `sc` traps to the system call vector (arch/ppc32/vector.h), which
//!    stores the whole trap frame and `rfi`s to `syscall_entry`
//!    (arch/ppc32/entry.S) with translation on, leaving the number and the
//!    six arguments in their registers.
//! 2. `syscall_entry` checks the number against `TABLE`'s length
//!    (`sigil_syscall_count`), loads its handler from `TABLE`
//!    (`sigil_syscall_table`) and calls it with the arguments where they
//!    are and the trap frame as a seventh argument.
//! 3. The handler is the arm for that number in the list below, made a
//!    function of its own by `syscall_table!`: it runs the arm, stores the
//!    result into the frame (`finish`) and returns the running thread's work
//!    flag.
//! 4. If the flag is set, `syscall_entry` calls `trap::work_before_user`
//!    (signals, preemption); then `trap_return` restores the frame and
//!    `rfi`s to user mode.
//!
//! One list, "number => handler", is the whole dispatch: a number without
//! an arm is ENOSYS, through `unknown`.

mod attrs;
mod clock;
mod cred;
mod event;
mod fs;
mod mem;
mod misc;
mod names;
mod poll;
mod process;
mod sig;
mod sysinfo;
mod thread;
mod time;

pub use misc::on_reboot;

use sigil_core::abi::{Errno, Sysno};
use sigil_core::time::Layout;

use crate::arch::TrapFrame;
use crate::kcell::KCell;

pub type SysResult = Result<u32, Errno>;

/// Numbers below this get one console line each when first seen unknown
/// (Linux ppc32 numbers stop near 460); the rest share one line.
const REPORT_BELOW: u32 = 1024;

/// Which unknown numbers were reported: a fixed bitmap, not a heap set, so
/// calling every number there is cannot use kernel memory.
struct Reported {
    seen: [u32; REPORT_BELOW as usize / 32],
    /// Calls with a number of REPORT_BELOW or more (reported once, then counted).
    high: u32,
}

static REPORTED: KCell<Reported> =
    KCell::new(Reported { seen: [0; REPORT_BELOW as usize / 32], high: 0 });

/// The system call for `tf` (its number and arguments), for an arch whose
/// entry code does not call `TABLE` itself (ppc32's `syscall_entry` does):
/// the same handler, through the same table. Its work flag is the caller's
/// to test, as for any other trap (`trap::return_to_user`).
pub fn entry(tf: &mut TrapFrame) {
    let nr = tf.syscall_begin() as usize;
    let handler = TABLE[nr.min(COUNT)];
    handler(tf.arg(0), tf.arg(1), tf.arg(2), tf.arg(3), tf.arg(4), tf.arg(5), tf);
}

/// A table entry: the six argument registers, the trap frame (the few
/// calls that read or change the caller's registers take it), and back
/// the running thread's work flag (nonzero: work before user mode). The
/// flag comes back rather than being acted on here because what it starts,
/// `trap::work_before_user`, is in a layer above this one.
pub type Handler = extern "C" fn(u32, u32, u32, u32, u32, u32, &mut TrapFrame) -> u32;

/// One entry a number, 0 to the highest `Sysno`, and one more for every
/// number past them: `syscall_entry` takes that last one, `unknown`'s, for a
/// number of `COUNT` or more.
const COUNT: usize = Sysno::ALL[Sysno::ALL.len() - 1] as usize + 1;

// The table's length, for `syscall_entry`'s bound check: an absolute
// symbol, so that the check is one compare with an immediate, not a load.
core::arch::global_asm!(
    ".globl sigil_syscall_count",
    ".set sigil_syscall_count, {count}",
    count = const COUNT,
);

/// Every system call's handler by number, the holes `unknown`'s, built at
/// compile time by `syscall_table!` from the list below. `syscall_entry`
/// (arch/ppc32/entry.S) calls `TABLE[nr]`, `TABLE[COUNT]` for a number past
/// it.
#[export_name = "sigil_syscall_table"]
static TABLE: [Handler; COUNT + 1] = handlers::TABLE;

/// Makes each arm of the list a table entry. An arm is what a `match` on
/// the `Sysno` would have, "variants => expression", and reads the same:
/// `a!(i)` is argument i, `tf` the trap frame, `sys` the `Sysno` (one arm
/// serves a call's time32 and time64 numbers), `nr` its number. For each
/// variant it writes a module named after it, `handlers::Kill` say, whose
/// `call` is the entry: `a!(i)` is its register argument i, and `finish`
/// stores what the expression returns. Each variant gets its own copy, so
/// `sys` is a constant there and a test of it folds away.
///
/// As the `match` did, the list must name every `Sysno` once: a new
/// variant does not compile until it gets a decision (`covered` below is
/// that `match`, without a catch-all). One difference from a `match`: an
/// arm whose expression is a block ends with a comma too.
macro_rules! syscall_table {
    (|$tf:ident, $sys:ident, $nr:ident| $($($v:ident)|+ => $body:expr,)+) => {
        mod handlers {
            use super::*;
            $($(
                #[allow(non_snake_case)]
                pub(super) mod $v {
                    #[allow(unused_imports)]
                    use super::*;
                    #[allow(unused_imports)]
                    use Sysno::*;

                    #[allow(unused_variables)]
                    pub(in crate::syscall) extern "C" fn call(
                        a0: u32,
                        a1: u32,
                        a2: u32,
                        a3: u32,
                        a4: u32,
                        a5: u32,
                        $tf: &mut TrapFrame,
                    ) -> u32 {
                        // Inside the function, where a0..a5 are in scope:
                        // a macro's locals are its definition's.
                        #[allow(unused_macros)]
                        macro_rules! a {
                            (0) => { a0 };
                            (1) => { a1 };
                            (2) => { a2 };
                            (3) => { a3 };
                            (4) => { a4 };
                            (5) => { a5 };
                        }
                        let $sys = Sysno::$v;
                        let $nr = $sys as u32;
                        let result = $body;
                        finish($tf, result)
                    }
                }
            )+)+

            #[allow(dead_code)]
            const fn covered(s: Sysno) {
                match s {
                    $($(Sysno::$v)|+ => {})+
                }
            }

            pub(super) const TABLE: [Handler; COUNT + 1] = {
                let mut t = [hole as Handler; COUNT + 1];
                $($(t[Sysno::$v as usize] = $v::call;)+)+
                t
            };
        }
    };
}

// Names the arms use (the handlers' modules import this one's).
use crate::fs::path::AT_FDCWD;
use cred::Family::{Group, User};
use fs::AT_SYMLINK_NOFOLLOW;
const AT_REMOVEDIR: u32 = 0x200;

syscall_table! { |tf, sys, nr|
    Exit => process::exit(a!(0)),
    ExitGroup => process::exit_group(a!(0)),
    Fork => thread::fork(tf),
    Vfork => thread::vfork(tf),
    Clone => thread::clone(tf, [a!(0), a!(1), a!(2), a!(3), a!(4), a!(5)]),
    // glibc falls back to clone when clone3 is ENOSYS (as on older
    // kernels): no console line for it, nor for rseq below.
    Clone3 => Err(Errno::ENOSYS),
    Unshare => crate::proc::share::unshare_syscall(a!(0)),
    Execve => process::execve(tf, a!(0), a!(1), a!(2)),
    Wait4 => process::wait4(a!(0) as i32, a!(1), a!(2), a!(3)),
    Waitpid => process::wait4(a!(0) as i32, a!(1), a!(2), 0),
    Waitid => process::waitid(a!(0), a!(1) as i32, a!(2), a!(3), a!(4)),
    Setpgid => crate::proc::group::setpgid(a!(0) as i32, a!(1) as i32),
    Getpgid => crate::proc::group::getpgid(a!(0) as i32),
    Getpgrp => crate::proc::group::getpgid(0),
    Setsid => crate::proc::group::setsid(),
    Getsid => crate::proc::group::getsid(a!(0) as i32),
    Prctl => process::prctl(a!(0), a!(1)),
    Getpid => Ok(me().group().pid),
    Gettid => Ok(me().tid),
    Getppid => Ok(me().group().ppid),
    SetTidAddress => thread::set_tid_address(a!(0)),
    SetRobustList => thread::set_robust_list(a!(0), a!(1)),
    GetRobustList => thread::get_robust_list(a!(0), a!(1), a!(2)),
    Futex => thread::futex([a!(0), a!(1), a!(2), a!(3), a!(4), a!(5)], false),
    FutexTime64 => thread::futex([a!(0), a!(1), a!(2), a!(3), a!(4), a!(5)], true),
    Getuid => cred::get_real(User),
    Getgid => cred::get_real(Group),
    Geteuid => cred::get_effective(User),
    Getegid => cred::get_effective(Group),
    Setuid => cred::set_id(User, a!(0)),
    Setgid => cred::set_id(Group, a!(0)),
    Setreuid => cred::set_re(User, a!(0), a!(1)),
    Setregid => cred::set_re(Group, a!(0), a!(1)),
    Setresuid => cred::set_res(User, a!(0), a!(1), a!(2)),
    Setresgid => cred::set_res(Group, a!(0), a!(1), a!(2)),
    Getresuid => cred::get_res(User, a!(0), a!(1), a!(2)),
    Getresgid => cred::get_res(Group, a!(0), a!(1), a!(2)),
    Setfsuid => cred::set_fs(User, a!(0)),
    Setfsgid => cred::set_fs(Group, a!(0)),
    Getgroups => cred::getgroups(a!(0), a!(1)),
    Setgroups => cred::setgroups(a!(0), a!(1)),
    SchedYield => {
        crate::proc::yield_now();
        Ok(0)
    },
    Brk => mem::brk(a!(0)),
    Mmap => mem::old_mmap(a!(0)),
    Mmap2 => mem::mmap(a!(0), a!(1), a!(2), a!(3), a!(4) as i32, a!(5)),
    Munmap => mem::munmap(a!(0), a!(1)),
    Mprotect => mem::mprotect(a!(0), a!(1), a!(2)),
    Msync => mem::msync(a!(0), a!(1), a!(2)),
    Madvise => mem::madvise(a!(0), a!(1), a!(2)),
    Read => fs::read(a!(0), a!(1), a!(2)),
    Write => fs::write(a!(0), a!(1), a!(2)),
    Readv => fs::rw_vec(a!(0), a!(1), a!(2), false),
    Writev => fs::rw_vec(a!(0), a!(1), a!(2), true),
    Pread64 => fs::pread64(a!(0), a!(1), a!(2), a!(4), a!(5), false),
    Pwrite64 => fs::pread64(a!(0), a!(1), a!(2), a!(4), a!(5), true),
    Close => fs::close(a!(0)),
    Ioctl => fs::ioctl(me(), a!(0), a!(1), a!(2)),
    Signalfd => event::signalfd4(a!(0), a!(1), a!(2), 0),
    Signalfd4 => event::signalfd4(a!(0), a!(1), a!(2), a!(3)),
    Eventfd => event::eventfd2(a!(0), 0),
    Eventfd2 => event::eventfd2(a!(0), a!(1)),
    PidfdOpen => event::pidfd_open(a!(0), a!(1)),
    TimerfdCreate => event::timerfd_create(a!(0), a!(1)),
    EpollCreate => event::epoll_create(a!(0) as i32),
    EpollCreate1 => event::epoll_create1(a!(0)),
    EpollCtl => event::epoll_ctl(a!(0), a!(1), a!(2), a!(3)),
    EpollWait => event::epoll_pwait(a!(0), a!(1), a!(2) as i32, a!(3) as i32, 0, 0),
    EpollPwait => event::epoll_pwait(a!(0), a!(1), a!(2) as i32, a!(3) as i32, a!(4), a!(5)),
    EpollPwait2 => event::epoll_pwait2(a!(0), a!(1), a!(2) as i32, a!(3), a!(4), a!(5)),
    TimerfdSettime | TimerfdSettime64 => {
        let layout = Layout::new(sys == TimerfdSettime64);
        event::timerfd_settime(a!(0), a!(1), a!(2), a!(3), layout)
    },
    TimerfdGettime | TimerfdGettime64 => {
        event::timerfd_gettime(a!(0), a!(1), Layout::new(sys == TimerfdGettime64))
    },
    PidfdSendSignal => event::pidfd_send_signal(a!(0), a!(1), a!(2), a!(3)),
    Pipe => fs::pipe2(a!(0), 0),
    Pipe2 => fs::pipe2(a!(0), a!(1)),
    Open => fs::open(a!(0), a!(1), a!(2)),
    Openat => fs::openat(a!(0) as i32, a!(1), a!(2), a!(3)),
    Dup => fs::dup(a!(0)),
    Dup2 => fs::dup2(a!(0), a!(1)),
    Dup3 => fs::dup3(a!(0), a!(1), a!(2)),
    Fcntl | Fcntl64 => fs::fcntl(a!(0), a!(1), a!(2)),
    Lseek => fs::lseek(a!(0), a!(1) as i32, a!(2)),
    Llseek => fs::llseek(a!(0), a!(1), a!(2), a!(3), a!(4)),
    Getdents64 => fs::getdents64(a!(0), a!(1), a!(2)),
    Fstat64 => fs::fstat64(a!(0), a!(1)),
    Stat64 => fs::fstatat64(AT_FDCWD, a!(0), a!(1), 0),
    Lstat64 => fs::fstatat64(AT_FDCWD, a!(0), a!(1), AT_SYMLINK_NOFOLLOW),
    Fstatat64 => fs::fstatat64(a!(0) as i32, a!(1), a!(2), a!(3)),
    Statx => fs::statx(a!(0) as i32, a!(1), a!(2), a!(3), a!(4)),
    Access => fs::faccessat(AT_FDCWD, a!(0), a!(1), 0),
    Faccessat => fs::faccessat(a!(0) as i32, a!(1), a!(2), 0),
    Faccessat2 => fs::faccessat(a!(0) as i32, a!(1), a!(2), a!(3)),
    Umask => fs::umask(a!(0)),
    Getcwd => names::getcwd(a!(0), a!(1)),
    Chdir => names::chdir(a!(0)),
    Fchdir => names::fchdir(a!(0)),
    Mkdir => names::mkdirat(AT_FDCWD, a!(0), a!(1)),
    Mkdirat => names::mkdirat(a!(0) as i32, a!(1), a!(2)),
    Mknod => names::mknodat(AT_FDCWD, a!(0), a!(1), a!(2)),
    Mknodat => names::mknodat(a!(0) as i32, a!(1), a!(2), a!(3)),
    Rmdir => names::unlinkat(AT_FDCWD, a!(0), AT_REMOVEDIR),
    Unlink => names::unlinkat(AT_FDCWD, a!(0), 0),
    Unlinkat => names::unlinkat(a!(0) as i32, a!(1), a!(2)),
    Rename => names::renameat2(AT_FDCWD, a!(0), AT_FDCWD, a!(1), 0),
    Renameat => names::renameat2(a!(0) as i32, a!(1), a!(2) as i32, a!(3), 0),
    Renameat2 => names::renameat2(a!(0) as i32, a!(1), a!(2) as i32, a!(3), a!(4)),
    Link => names::linkat(AT_FDCWD, a!(0), AT_FDCWD, a!(1), 0),
    Linkat => names::linkat(a!(0) as i32, a!(1), a!(2) as i32, a!(3), a!(4)),
    Symlink => names::symlinkat(a!(0), AT_FDCWD, a!(1)),
    Symlinkat => names::symlinkat(a!(0), a!(1) as i32, a!(2)),
    Readlink => names::readlinkat(AT_FDCWD, a!(0), a!(1), a!(2)),
    Readlinkat => names::readlinkat(a!(0) as i32, a!(1), a!(2), a!(3)),
    Chmod => attrs::fchmodat(AT_FDCWD, a!(0), a!(1)),
    Fchmodat => attrs::fchmodat(a!(0) as i32, a!(1), a!(2)),
    Fchmod => attrs::fchmod(a!(0), a!(1)),
    Chown => attrs::fchownat(AT_FDCWD, a!(0), a!(1), a!(2), 0),
    Lchown => attrs::fchownat(AT_FDCWD, a!(0), a!(1), a!(2), AT_SYMLINK_NOFOLLOW),
    Fchownat => attrs::fchownat(a!(0) as i32, a!(1), a!(2), a!(3), a!(4)),
    Fchown => attrs::fchown(a!(0), a!(1), a!(2)),
    // ppc32 passes a 64-bit length in an aligned register pair (r5:r6).
    Truncate => attrs::truncate_path(a!(0), a!(1) as i32 as i64),
    Truncate64 => attrs::truncate_path(a!(0), ((a!(2) as u64) << 32 | a!(3) as u64) as i64),
    Ftruncate => attrs::ftruncate(a!(0), a!(1) as i32 as i64),
    Ftruncate64 => attrs::ftruncate(a!(0), ((a!(2) as u64) << 32 | a!(3) as u64) as i64),
    Utimensat | UtimensatTime64 => {
        attrs::utimensat(a!(0) as i32, a!(1), a!(2), a!(3), Layout::new(sys == UtimensatTime64))
    },
    Statfs => attrs::statfs(a!(0), a!(1)),
    Fstatfs => attrs::fstatfs(a!(0), a!(1)),
    Statfs64 => attrs::statfs64(a!(0), a!(1), a!(2)),
    Fstatfs64 => attrs::fstatfs64(a!(0), a!(1), a!(2)),
    Fsync | Fdatasync => attrs::fsync(a!(0)),
    Sync => Ok(0),
    Poll => poll::poll(a!(0), a!(1), a!(2) as i32),
    Ppoll | PpollTime64 => {
        poll::ppoll(a!(0), a!(1), a!(2), a!(3), a!(4), Layout::new(sys == PpollTime64))
    },
    Newselect => poll::select(a!(0) as i32, a!(1), a!(2), a!(3), a!(4)),
    Pselect6 | Pselect6Time64 => poll::pselect6(
        a!(0) as i32,
        [a!(1), a!(2), a!(3)],
        a!(4),
        a!(5),
        Layout::new(sys == Pselect6Time64),
    ),
    Uname => misc::uname(a!(0)),
    Sysinfo => sysinfo::sysinfo(a!(0)),
    SchedGetaffinity => sysinfo::sched_getaffinity(a!(0), a!(1), a!(2)),
    SchedSetaffinity => sysinfo::sched_setaffinity(a!(0), a!(1), a!(2)),
    Ugetrlimit | Getrlimit => misc::getrlimit(a!(0), a!(1)),
    Setrlimit => misc::setrlimit(a!(0), a!(1)),
    Prlimit64 => misc::prlimit64(a!(0), a!(1), a!(2), a!(3)),
    Getrandom => misc::getrandom(a!(0), a!(1), a!(2)),
    ClockGettime | ClockGettime64 => {
        time::clock_gettime(a!(0), a!(1), Layout::new(sys == ClockGettime64))
    },
    ClockGetres | ClockGetresTime64 => {
        time::clock_getres(a!(0), a!(1), Layout::new(sys == ClockGetresTime64))
    },
    ClockSettime | ClockSettime64 => {
        clock::clock_settime(a!(0), a!(1), Layout::new(sys == ClockSettime64))
    },
    Time => clock::time(a!(0)),
    Gettimeofday => clock::gettimeofday(a!(0), a!(1)),
    Settimeofday => clock::settimeofday(a!(0), a!(1)),
    Nanosleep => time::nanosleep(a!(0), a!(1)),
    ClockNanosleep | ClockNanosleepTime64 => time::clock_nanosleep(
        a!(0),
        a!(1),
        a!(2),
        a!(3),
        Layout::new(sys == ClockNanosleepTime64),
    ),
    RestartSyscall => time::restart_syscall(),
    Alarm => time::alarm(a!(0)),
    Setitimer => time::setitimer(a!(0), a!(1), a!(2)),
    Getitimer => time::getitimer(a!(0), a!(1)),
    Times => time::times(a!(0)),
    Getrusage => time::getrusage(a!(0), a!(1)),
    TimerCreate => time::timer_create(a!(0), a!(1), a!(2)),
    TimerSettime | TimerSettime64 => {
        time::timer_settime(a!(0), a!(1), a!(2), a!(3), Layout::new(sys == TimerSettime64))
    },
    TimerGettime | TimerGettime64 => {
        time::timer_gettime(a!(0), a!(1), Layout::new(sys == TimerGettime64))
    },
    TimerGetoverrun => time::timer_getoverrun(a!(0)),
    TimerDelete => time::timer_delete(a!(0)),
    Reboot => misc::reboot(a!(0), a!(1), a!(2)),
    Rseq => Err(Errno::ENOSYS),
    Kill => sig::kill(a!(0) as i32, a!(1)),
    Tkill => sig::tkill(a!(0), a!(1)),
    Tgkill => sig::tgkill(a!(0), a!(1), a!(2)),
    RtSigaction => sig::rt_sigaction(a!(0), a!(1), a!(2), a!(3)),
    RtSigprocmask => sig::rt_sigprocmask(a!(0), a!(1), a!(2), a!(3)),
    RtSigpending => sig::rt_sigpending(a!(0), a!(1)),
    Sigaction => sig::sigaction(a!(0), a!(1), a!(2)),
    Sigprocmask => sig::sigprocmask(a!(0), a!(1), a!(2)),
    Sigpending => sig::sigpending(a!(0)),
    RtSigsuspend => sig::rt_sigsuspend(a!(0), a!(1)),
    Pause => sig::pause(),
    RtSigqueueinfo => sig::rt_sigqueueinfo(a!(0), a!(1), a!(2)),
    RtTgsigqueueinfo => sig::rt_tgsigqueueinfo(a!(0), a!(1), a!(2), a!(3)),
    RtSigtimedwait => sig::rt_sigtimedwait(a!(0), a!(1), a!(2), a!(3), false),
    RtSigtimedwaitTime64 => sig::rt_sigtimedwait(a!(0), a!(1), a!(2), a!(3), true),
    Sigaltstack => sig::sigaltstack(a!(0), a!(1), tf),
    Sigreturn => sig::sigreturn(tf),
    RtSigreturn => sig::rt_sigreturn(tf),
    Swapcontext => crate::signal::context::swapcontext(tf, a!(0), a!(1), a!(2)),
    // Named (so the console line can say which call it was) but not
    // implemented: glibc calls rt_sigsuspend and getdents64 instead, and
    // its realloc copies when mremap fails. This arm and no catch-all:
    // a new `Sysno` variant does not compile until it gets a decision.
    Sigsuspend | Getdents | Mremap => unknown(nr),
}

/// A hole in the table (a number `Sysno` does not know) and every number
/// past it: ENOSYS, reported.
extern "C" fn hole(_: u32, _: u32, _: u32, _: u32, _: u32, _: u32, tf: &mut TrapFrame) -> u32 {
    finish(tf, unknown(tf.syscall_begin()))
}

/// The calling thread, for the arms that only read its ids (getpid,
/// getppid, gettid) and ioctl's lookup of its descriptor. Unchecked: a
/// user system call always has a running thread (`finish` says more); the
/// reference lives for that one read or lookup, with no other access to
/// the thread meanwhile.
#[inline(always)]
fn me() -> &'static crate::proc::Thread {
    // SAFETY: see above.
    unsafe { &*crate::proc::running() }
}

/// The end of every handler: the result into the frame (r3, and CR0[SO] on
/// failure), then the running thread's work flag for `syscall_entry`'s test
/// (Linux's `_TIF_USER_WORK_MASK` test; `trap::return_to_user` is the same
/// test for every other trap).
///
/// The thread is `proc::running()`, without `current()`'s null test: a user
/// `sc` always has a running thread (one that switched away meanwhile came
/// back on its own stack, one that exited did not come back). A load after
/// the handler, not a reference held across it: the handlers reach the same
/// thread through `current()` meanwhile, and a reference kept in a
/// callee-saved register would cost more than the load again.
///
/// No kernel stack guard test on this path, though the stack is this
/// thread's: the guard word can only have been overwritten by an overflow
/// during an earlier kernel entry, which is found anyway, a little later, by
/// the next context switch (`switch_to` checks the whole stack), the next
/// other trap from user mode (the timer's tick at the latest) or the next
/// kernel-mode trap. Found at the next `sc` it would be just as much after
/// the fact, at eight instructions on every call.
#[inline(always)]
fn finish(tf: &mut TrapFrame, result: SysResult) -> u32 {
    match result {
        Ok(v) => tf.set_ret(v),
        Err(e) => failed(tf, e),
    }
    // SAFETY: a user system call has a running thread (see above).
    unsafe { (*crate::proc::running()).sig.work as u32 }
}

/// `finish` for an error, out of line: the error number and its flag, and
/// for a restart code the work flag, so that the return to user mode
/// finishes it (it tests for restarts only when the flag is set).
#[cold]
#[inline(never)]
fn failed(tf: &mut TrapFrame, e: Errno) {
    tf.set_error(e.raw() as u32);
    if e.is_restart() {
        crate::signal::note_restart();
    }
}

/// ENOSYS, and one console line naming the number the first time it is seen:
/// for a number `Sysno` does not know, or one it names but Sigil does not
/// implement. Out of line: the hole and three named calls share one copy.
#[cold]
#[inline(never)]
fn unknown(nr: u32) -> SysResult {
    let r = REPORTED.get();
    let first = if nr < REPORT_BELOW {
        let (word, bit) = ((nr / 32) as usize, 1 << (nr % 32));
        let first = r.seen[word] & bit == 0;
        r.seen[word] |= bit;
        first
    } else {
        r.high = r.high.saturating_add(1);
        r.high == 1
    };
    if first {
        let name = Sysno::from_raw(nr).map_or("?", |s| s.name());
        let more = if nr < REPORT_BELOW { "" } else { " (numbers this high are reported once)" };
        crate::kprintln!("sigil: syscall {} ({}) not implemented: ENOSYS{}", nr, name, more);
    }
    Err(Errno::ENOSYS)
}
