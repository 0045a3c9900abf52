//! sigil_init: PID 1. Starts the program (`/init` in the initramfs) as its
//! child, reaps every orphan handed to it, and powers off with the
//! program's status once the program ends.
//!
//! So the program runs as it would on Linux: not as init (PID 1 is immune
//! to signals it has no handler for, and Linux's rules for init would
//! change the program's behaviour), in a process group of its own but not a
//! session leader - what `qemu-ppc` gives a program started by the test
//! runner - with init as its parent and its orphans' reaper.
//!
//! The kernel runs this as `/sbin/init` with the boot command line's
//! arguments after `--`; the program gets the same arguments and
//! environment, with argv[0] = "/init". Exit status: the program's, or
//! 128 + the signal that killed it (the kernel's power-off message and the
//! runner report it as before). If `/init` cannot be executed: 127.
//!
//! What to start is decided in one place, `PROGRAM`: a console shell for a
//! boot without a program would be chosen there.

#![no_std]
#![no_main]

use ulib::process::{self, Fork, Status};
use ulib::{eprintln, Args};

ulib::entry!(main);

/// The program to run, NUL-terminated for execve.
const PROGRAM: &[u8] = b"/init\0";

fn main(args: Args) -> i32 {
    // Session 1, group 1: the program's group is its own, in init's session.
    let _ = process::setsid();
    let child = match process::fork() {
        Ok(Fork::Child) => run(args),
        Ok(Fork::Parent(pid)) => pid,
        Err(e) => {
            eprintln!("sigil_init: fork: {}", e);
            return 1;
        }
    };
    // Both sides set the group, as a shell does, so neither has to wait
    // for the other (EACCES here just means the child has exec'd already).
    let _ = process::setpgid(child, child);
    loop {
        match process::wait4(-1, 0) {
            Ok((pid, status)) if pid == child => return exit_code(status),
            Ok(_) => {} // an orphan, reaped
            Err(e) => {
                eprintln!("sigil_init: wait4: {}", e);
                return 1;
            }
        }
    }
}

/// In the child: its own group, then the program with init's arguments
/// (argv[0] replaced) and environment.
fn run(args: Args) -> ! {
    let _ = process::setpgid(0, 0);
    let argv = args.argv() as *mut *const u8;
    // SAFETY: argv[0] exists (argc >= 1: the kernel passes /sbin/init) and
    // the array lives on this process's own stack; PROGRAM is a static
    // NUL-terminated string, so the array stays NULL-terminated and valid.
    let e = unsafe {
        *argv = PROGRAM.as_ptr();
        process::execve(PROGRAM, argv, args.envp())
    };
    eprintln!("sigil_init: cannot run /init: {}", e);
    process::exit(127)
}

/// The status init exits with: the program's exit code, or 128 + signal.
fn exit_code(status: Status) -> i32 {
    match status {
        Status::Exited(code) => code as i32,
        Status::Signaled { signo, .. } => 128 + signo as i32,
        Status::Stopped(_) | Status::Continued => {
            unreachable!("wait4 without WUNTRACED reported a stop")
        }
    }
}
