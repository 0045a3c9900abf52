//! /proc: the files ps, free, uptime, top and glibc read, from a C program
//! (`proc_files`) compared with qemu-ppc, and its values on Sigil.
//!
//! qemu-ppc passes the host's /proc through (and makes up /proc/self/stat
//! and cmdline itself), so the comparison is of formats and relations
//! ("the stat line's ppid is getppid()"), not of values; the values a
//! program should see of itself are checked on Sigil alone. BusyBox's
//! `ps`, `free` and `uptime` are in console.rs.

mod common;

use common::{compare, has_lines};

/// Formats, listings, lseek/pread and a reaped child's ESRCH and ENOENT,
/// as Linux gives them.
#[test]
fn proc_files_match_linux() {
    let out = compare("proc_files", &[]);
    has_lines(
        &out,
        &[
            "stat: pid is getpid() 1, comm is argv[0]'s last component 1, ppid is getppid() 1",
            "maps: Linux's columns 1, in address order 1, [stack] named 1",
            "/proc lists my pid as a directory 1, self as a link 1, pids as directories 1",
            "fd: a pipe's link is pipe:[...] 1, modes 120500 and 120300, stat follows to a FIFO 1, both ends listed 1",
            "limits: 17 lines, header \"Limit                     Soft Limit           Hard Limit           Units     \"",
            "limits: \"Max open files            64                   128                  files     \"",
            "a zombie's state: Z",
            "after the reap, the open file reads: -1 No such process",
            "open again: -1 No such file or directory",
        ],
    );
}

/// The load average as Linux computes it (`sigil_core::time::loadavg`):
/// after 5.2 s of guest time with one thread running, one sample of 1 has
/// been folded in: 1 - exp(-5/60), exp(-5/300), exp(-5/900) in 11-bit fixed
/// point are 0.08, 0.02, 0.01. And /proc/stat's ctxt counts switches, and
/// a first touch of a fresh page is one minor fault (getrusage, stat).
#[test]
fn load_average_context_switches_and_faults() {
    let r = common::sigil("proc_files", &["load"], &[]);
    has_lines(
        &r.console,
        &[
            "loadavg after 5.2 s busy: 0.08 0.02 0.01",
            "ctxt grows across a fork and wait: 1",
            "minflt: 16 new pages add 16 to getrusage and 16 to stat",
        ],
    );
}

/// What the program's own entries say, field by field, as Linux 6.1 would
/// print them for it (it runs as /init, so that is its name): 52 stat
/// fields, no controlling terminal, its signal sets in status (bit n-1 for
/// signal n) and in stat (decimal), one signal queued for its user.
#[test]
fn proc_files_values_on_sigil() {
    let r = common::sigil("proc_files", &["values"], &[]);
    has_lines(
        &r.console,
        &[
            "meminfo: MemTotal is sysinfo's total: 1",
            "stat: 52 fields, state R, pgrp and session are getpgrp(), getsid(0): 1 1",
            "status Name:\tinit",
            "status State:\tR (running)",
            "status Uid:\t0\t0\t0\t0",
            "status Threads:\t1",
            "status SigQ:\t2/1024",
            "status SigPnd:\t0000000000000200",
            "status ShdPnd:\t0000000000000200",
            "status SigBlk:\t0000000000000200",
            "status SigIgn:\t0000000000001000",
            "status SigCgt:\t0000000000000800",
            "status VmSize and VmRSS in kB: 1 1",
            "comm: init",
            "cmdline: /init|values|",
            "stat: tty_nr 0, tpgid -1",
            "stat: threads 1, priority 20, exit_signal 17",
            "stat: vsize > 0 1, rss > 0 1, pending 512, blocked 512, ignored 4096, caught 2048",
            "exe: /init, argv[0] /init",
            "open /proc/self/exe reads an ELF: 1",
            "open /proc/self/stat for writing: 3 Success",
            "fd 0 links to /dev/console, a new file's to /tmp/proc_files",
            "an open /proc file's link: /proc/uptime",
            "cpuinfo: processor 0 1, a cpu name 1, bogomips is timebase / 500000: 1, Memory is RAM: 1",
            "chdir /proc, then ls-style open of \"self/stat\": 1",
            "environ: HOME=/|TERM=linux|",
            "cmdline after argv[0][1] = 'I': /Init|values|",
            "cmdline after a title over the last NUL: -------------HOME=/",
        ],
    );
}

/// A process's threads (`proc_task`): /proc/<pid>/task lists the thread
/// ids; task/<tid>/status and stat show the thread's own id, state,
/// private pending and blocked sets and CPU time; /proc/<tid> of a thread
/// that is not a leader is found though not listed (Linux's
/// `proc_pid_lookup`); a thread that unshared its files and fs state
/// shows its own table under task/<tid>/fd and /proc/<tid>/fd and its own
/// Umask, as Linux's tid_base_stuff does; another process's id under
/// task/ is not (`proc_task_lookup`); and openat, fstatat and readlinkat take names
/// relative to descriptors of /proc directories. qemu-ppc shows the
/// host's /proc, with the emulator's own threads, so this is Linux's
/// documented behaviour checked on Sigil alone.
#[test]
fn proc_task_threads_and_dirfds() {
    let r = common::sigil("proc_task", &[], &[]);
    has_lines(
        &r.console,
        &[
            "task lists me 1, the thread 1, 2 threads",
            "/proc lists the thread id: 0",
            "thread status: 1 bytes",
            "thread: Pid is its tid 1, Tgid 1, State S (sleeping)",
            "thread: SigPnd 0000000000000800 ShdPnd 0000000000000000",
            "thread: SigBlk 0000000000000800 Threads 2",
            "main: Pid is my pid 1, State R (running), SigPnd 0000000000000000 SigBlk 0000000000000000",
            "thread stat: pid is its tid 1, state S, CPU ticks >= 4: 1",
            "process stat: at least both threads' ticks 1",
            "/proc/<tid>/status: 1, Pid is the tid 1, Tgid my pid 1",
            "/proc/<tid>/task/<tid>/comm: 1",
            "task/<tid> lists fd: 1",
            "the thread's own descriptor: 1",
            "task/<tid>/fd/<its fd>: /dev/null",
            "/proc/<tid>/fd/<its fd>: /dev/null",
            "/proc/self/fd/<its fd>: No such file or directory",
            "thread Umask 0077, main's 0022",
            "another process's id in my task/: No such file or directory",
            "its own task/<pid>: found",
            "task/99999: No such file or directory",
            "task/<tid>/nope: No such file or directory",
            "dirfds: 1 1",
            "openat(/proc/self, status): Pid is my pid 1",
            "openat(/proc/self/task, <tid>/stat): the thread's 1",
            "fstatat(exe): 1, the program 1",
            "fstatat(exe, NOFOLLOW) a link: 1",
            "readlinkat(exe): absolute 1",
            "openat(/proc/self, ../meminfo): 1",
            "a file is no directory: Not a directory",
            "openat(task/<tid> dirfd, status): Pid is the tid 1",
            "openat(/proc/self, nope): No such file or directory",
            "done",
        ],
    );
}
