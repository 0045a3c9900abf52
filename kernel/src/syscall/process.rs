//! Process system calls: exit, fork/clone, execve, wait4.

use sigil_core::abi::{wait_status, Errno};

use super::SysResult;
use crate::proc;
use crate::uaccess::put_user;

pub fn exit(code: u32) -> SysResult {
    proc::wait::exit(wait_status::exited(code & 0xff))
}

pub fn fork() -> SysResult {
    proc::fork()
}

/// CSIGNAL: the low byte of clone's flags is the exit signal.
const CSIGNAL: u32 = 0xff;
/// What glibc's fork() passes besides SIGCHLD; Sigil can honour these two
/// for a single-threaded process (the tid pointers are the only effect).
const CLONE_CHILD_SETTID: u32 = 0x0100_0000;
const CLONE_CHILD_CLEARTID: u32 = 0x0020_0000;

/// clone(flags, newsp, ...): only the fork form (a new process, SIGCHLD) is
/// supported; threads (CLONE_VM and friends) get EINVAL.
pub fn clone(flags: u32, newsp: u32) -> SysResult {
    let extra = flags & !CSIGNAL & !(CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID);
    if extra != 0 || newsp != 0 {
        return Err(Errno::EINVAL);
    }
    proc::fork()
}

pub fn execve(path: u32, argv: u32, envp: u32) -> SysResult {
    proc::exec::execve(path, argv, envp)
}

/// wait4(pid, &status, options, &rusage): the rusage holds the child's CPU
/// time and its reaped children's (Linux `getrusage(RUSAGE_BOTH)`), written
/// only when a child is reported.
pub fn wait4(pid: i32, status: u32, options: u32, rusage: u32) -> SysResult {
    let (cpid, st, cpu) = proc::wait::wait4(pid, options)?;
    if cpid != 0 && status != 0 {
        put_user(status, st).map_err(|_| Errno::EFAULT)?;
    }
    if cpid != 0 && rusage != 0 {
        let ru = sigil_core::time::cputime::encode_rusage(cpu);
        crate::uaccess::copy_to_user(rusage, &ru).map_err(|_| Errno::EFAULT)?;
    }
    Ok(cpid)
}
