//! Process system calls: exit, exit_group, execve, wait4 (fork and clone
//! are in thread.rs).

use sigil_core::abi::{wait_status, Errno};

use super::SysResult;
use crate::arch::TrapFrame;
use crate::proc;
use crate::uaccess::put_user;

/// exit: ends the calling thread (the process, if it is the last).
pub fn exit(code: u32) -> SysResult {
    proc::wait::exit(wait_status::exited(code & 0xff))
}

/// exit_group: ends every thread of the process.
pub fn exit_group(code: u32) -> SysResult {
    proc::wait::exit_group(wait_status::exited(code & 0xff))
}

pub fn execve(tf: &mut TrapFrame, path: u32, argv: u32, envp: u32) -> SysResult {
    proc::exec::execve(tf, path, argv, envp)
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
