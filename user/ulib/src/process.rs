//! Processes: exit, fork, execve, wait4 and the Linux wait status word,
//! pids, process groups and sessions, sleep.

use crate::sys::{syscall, syscall_plain, Error, Sysno};

/// Ends the whole process (exit_group, as glibc's `exit` does).
pub fn exit(status: i32) -> ! {
    let _ = syscall_plain(Sysno::ExitGroup, [status as u32, 0, 0, 0, 0, 0]);
    // exit_group never returns; the old exit call is the belt and braces.
    let _ = syscall_plain(Sysno::Exit, [status as u32, 0, 0, 0, 0, 0]);
    unreachable!("exit returned")
}

/// What fork returned: in the parent, the child's pid.
pub enum Fork {
    Parent(u32),
    Child,
}

pub fn fork() -> Result<Fork, Error> {
    match syscall_plain(Sysno::Fork, [0; 6])? {
        0 => Ok(Fork::Child),
        pid => Ok(Fork::Parent(pid)),
    }
}

/// execve(path, argv, envp); returns only on failure.
///
/// # Safety
/// `path` is NUL-terminated; `argv` and `envp` are NULL-terminated arrays of
/// NUL-terminated strings.
pub unsafe fn execve(path: &[u8], argv: *const *const u8, envp: *const *const u8) -> Error {
    // SAFETY: the caller vouches for the three pointers.
    match unsafe {
        syscall(Sysno::Execve, [path.as_ptr() as u32, argv as u32, envp as u32, 0, 0, 0])
    } {
        Ok(_) => unreachable!("execve returned success"),
        Err(e) => e,
    }
}

/// setsid(): a new session; returns its id.
pub fn setsid() -> Result<u32, Error> {
    syscall_plain(Sysno::Setsid, [0; 6])
}

/// setpgid(pid, pgid).
pub fn setpgid(pid: u32, pgid: u32) -> Result<(), Error> {
    syscall_plain(Sysno::Setpgid, [pid, pgid, 0, 0, 0, 0]).map(|_| ())
}

pub fn getpid() -> u32 {
    syscall_plain(Sysno::Getpid, [0; 6]).unwrap_or(0)
}

pub fn getppid() -> u32 {
    syscall_plain(Sysno::Getppid, [0; 6]).unwrap_or(0)
}

pub fn gettid() -> u32 {
    syscall_plain(Sysno::Gettid, [0; 6]).unwrap_or(0)
}

/// How a child ended (or changed state), decoded from the wait status word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Exited(u32),
    Signaled { signo: u32, core: bool },
    Stopped(u32),
    Continued,
}

impl Status {
    /// Decodes a Linux wait status (the layout `WIFEXITED` & co. read).
    pub fn from_raw(w: u32) -> Status {
        match w & 0x7f {
            0 => Status::Exited((w >> 8) & 0xff),
            0x7f => Status::Stopped((w >> 8) & 0xff),
            _ if w == 0xffff => Status::Continued,
            sig => Status::Signaled { signo: sig, core: w & 0x80 != 0 },
        }
    }
}

/// wait4(pid, &status, options, NULL): the pid that changed and how.
pub fn wait4(pid: i32, options: u32) -> Result<(u32, Status), Error> {
    let mut w = 0u32;
    // SAFETY: w is ours to write.
    let got = unsafe {
        syscall(Sysno::Wait4, [pid as u32, &mut w as *mut u32 as u32, options, 0, 0, 0])
    }?;
    Ok((got, Status::from_raw(w)))
}

/// Sleeps; returns the time left if a signal handler interrupted the sleep.
pub fn nanosleep(sec: u32, nsec: u32) -> Result<(), (Error, u32, u32)> {
    let req = [sec, nsec];
    let mut rem = [0u32; 2];
    // SAFETY: req is read, rem written; both live on our stack.
    unsafe { syscall(Sysno::Nanosleep, [req.as_ptr() as u32, rem.as_mut_ptr() as u32, 0, 0, 0, 0]) }
        .map(|_| ())
        .map_err(|e| (e, rem[0], rem[1]))
}
