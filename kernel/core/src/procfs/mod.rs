//! /proc's names and file formats, as Linux 6.1 prints them.
//!
//! The kernel's `fs::procfs` gathers a process's or the machine's values
//! into the plain structs here; these functions turn them into the exact
//! text Linux's `fs/proc/array.c` (`do_task_stat`, `proc_pid_status`),
//! `fs/proc/meminfo.c`, `uptime.c`, `loadavg.c` and `stat.c` make, so
//! BusyBox `ps`, `free`, `top` and glibc parse them unchanged. [`parse`]
//! says which /proc entry an absolute path names.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::abi::Errno;

/// A file in a process's directory (`/proc/<pid>/...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PidFile {
    Cmdline,
    /// The environment strings, as the process's memory holds them now.
    Environ,
    /// The resource limits, one line each.
    Limits,
    Comm,
    Stat,
    Status,
    /// A symbolic link to the program's absolute path.
    Exe,
    Maps,
}

/// Each process directory's files, in Linux's order (`tgid_base_stuff`
/// lists these in this order too, among many more); its `fd` directory
/// is listed before them.
pub const PID_FILES: [(&str, PidFile); 8] = [
    ("environ", PidFile::Environ),
    ("status", PidFile::Status),
    ("limits", PidFile::Limits),
    ("cmdline", PidFile::Cmdline),
    ("comm", PidFile::Comm),
    ("exe", PidFile::Exe),
    ("maps", PidFile::Maps),
    ("stat", PidFile::Stat),
];

/// A machine-wide file in /proc itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Global {
    Meminfo,
    Uptime,
    Loadavg,
    Stat,
    Cpuinfo,
}

/// /proc's fixed entries: "self" first, then the files (a listing shows
/// them before the process directories, as Linux's does).
pub const GLOBALS: [(&str, Global); 5] = [
    ("cpuinfo", Global::Cpuinfo),
    ("meminfo", Global::Meminfo),
    ("uptime", Global::Uptime),
    ("loadavg", Global::Loadavg),
    ("stat", Global::Stat),
];

/// What a path under /proc names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// /proc itself.
    Root,
    /// /proc/self as a link (not followed: readlink, lstat).
    SelfLink,
    Global(Global),
    /// /proc/<pid>, a directory.
    Pid(u32),
    File(u32, PidFile),
    /// /proc/<pid>/fd or /proc/<pid>/task/<tid>/fd: the descriptors of
    /// thread `tid` of process `pid` (threads made without CLONE_FILES have
    /// tables of their own); for /proc/<pid>/fd, `tid` is the `<pid>` given.
    FdDir(u32, u32),
    /// fd/<n> in such a directory, a link to what descriptor n has open.
    Fd(u32, u32, u32),
    /// /proc/<pid>/task, the directory of the process's threads.
    TaskDir(u32),
    /// /proc/<pid>/task/<tid>, a thread's directory (Linux's
    /// `tid_base_stuff`: the same files, with the thread's own values).
    Task(u32, u32),
    TaskFile(u32, u32, PidFile),
}

/// The entry an absolute `path` names: None if it is not under /proc (the
/// tmpfs walk handles it), Some(Err(ENOENT)) for a name /proc does not have
/// (or ENOTDIR below a file). `self` resolves to `me`; a last component
/// that is the `self` link is followed only if `follow`. "." and ".." are
/// taken lexically, as /proc has no links that would make that differ.
/// Whether a `<pid>` exists (or, as Linux's `proc_pid_lookup` allows, is
/// a thread id: /proc/<tid> is looked up though not listed) and whether a
/// `<tid>` is a thread of it is the caller's to check.
pub fn parse(path: &str, me: u32, follow: bool) -> Option<Result<Entry, Errno>> {
    if !path.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    if parts.first() != Some(&"proc") {
        return None;
    }
    let last_follows = follow || path.ends_with('/');
    Some(entry(&parts[1..], me, last_follows))
}

fn entry(parts: &[&str], me: u32, follow: bool) -> Result<Entry, Errno> {
    let Some(&first) = parts.first() else { return Ok(Entry::Root) };
    let rest = &parts[1..];
    let pid = match first {
        "self" if rest.is_empty() && !follow => return Ok(Entry::SelfLink),
        "self" => me,
        name => match GLOBALS.iter().find(|g| g.0 == name) {
            Some(&(_, g)) if rest.is_empty() => return Ok(Entry::Global(g)),
            Some(_) => return Err(Errno::ENOTDIR),
            None => pid_name(name).ok_or(Errno::ENOENT)?,
        },
    };
    match rest {
        [] => Ok(Entry::Pid(pid)),
        ["task"] => Ok(Entry::TaskDir(pid)),
        ["task", tid, files @ ..] => {
            let tid = pid_name(tid).ok_or(Errno::ENOENT)?;
            match files {
                [] => Ok(Entry::Task(pid, tid)),
                ["fd", fd @ ..] => fd_entry(pid, tid, fd),
                [name] => pid_file(name).map(|f| Entry::TaskFile(pid, tid, f)),
                [name, ..] if pid_file(name).is_ok() => Err(Errno::ENOTDIR),
                _ => Err(Errno::ENOENT),
            }
        }
        ["fd", fd @ ..] => fd_entry(pid, pid, fd),
        [name] => pid_file(name).map(|f| Entry::File(pid, f)),
        [name, ..] if pid_file(name).is_ok() => Err(Errno::ENOTDIR),
        _ => Err(Errno::ENOENT),
    }
}

/// What `fd/...` names: the directory, one descriptor's link, or ENOTDIR
/// below a link.
fn fd_entry(pid: u32, tid: u32, rest: &[&str]) -> Result<Entry, Errno> {
    match rest {
        [] => Ok(Entry::FdDir(pid, tid)),
        [n] => number(n).map(|fd| Entry::Fd(pid, tid, fd)).ok_or(Errno::ENOENT),
        _ => Err(Errno::ENOTDIR),
    }
}

/// The file of a process (or thread) directory called `name`.
fn pid_file(name: &str) -> Result<PidFile, Errno> {
    PID_FILES.iter().find(|f| f.0 == name).map(|&(_, f)| f).ok_or(Errno::ENOENT)
}

/// A decimal pid as /proc spells it (no sign, no leading zero, not 0).
fn pid_name(s: &str) -> Option<u32> {
    number(s).filter(|&n| n != 0)
}

/// A number as /proc spells it: decimal digits, no leading zero but "0".
fn number(s: &str) -> Option<u32> {
    if (s.starts_with('0') && s != "0") || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The task name Linux keeps (`task->comm`): the last component of the
/// path execve was given, cut to 15 bytes (TASK_COMM_LEN 16 with the NUL).
pub fn comm(exec_path: &str) -> String {
    let base = exec_path.rsplit('/').next().unwrap_or(exec_path);
    let mut end = base.len().min(15);
    while !base.is_char_boundary(end) {
        end -= 1;
    }
    String::from(&base[..end])
}

/// /proc/<pid>/cmdline from `mem`, the process's memory from the start of
/// its argument strings to the end of its environment strings, of which
/// the first `args` bytes are the argument area (Linux 6.1's
/// `get_mm_cmdline`): the argument area as it is now, each string with its
/// NUL; but if the program wrote over the area's last NUL (setproctitle),
/// the text up to the first NUL from the start, which may run on into the
/// environment area.
pub fn cmdline(mem: &[u8], args: usize) -> &[u8] {
    let args = args.min(mem.len());
    match mem[..args].last() {
        None => &[],
        Some(0) => &mem[..args],
        Some(_) => &mem[..mem.iter().position(|&b| b == 0).unwrap_or(mem.len())],
    }
}

/// Each resource's name and unit in /proc/<pid>/limits (Linux's `lnames`).
const LIMIT_NAMES: [(&str, &str); crate::rlimit::RLIM_NLIMITS as usize] = [
    ("Max cpu time", "seconds"),
    ("Max file size", "bytes"),
    ("Max data size", "bytes"),
    ("Max stack size", "bytes"),
    ("Max core file size", "bytes"),
    ("Max resident set", "bytes"),
    ("Max processes", "processes"),
    ("Max open files", "files"),
    ("Max locked memory", "bytes"),
    ("Max address space", "bytes"),
    ("Max file locks", "locks"),
    ("Max pending signals", "signals"),
    ("Max msgqueue size", "bytes"),
    ("Max nice priority", ""),
    ("Max realtime priority", ""),
    ("Max realtime timeout", "us"),
];

/// /proc/<pid>/limits, in Linux's columns (`proc_pid_limits`).
pub fn limits(l: &crate::rlimit::Limits) -> String {
    let mut s = String::new();
    let _ =
        writeln!(s, "{:<25} {:<20} {:<20} {:<10}", "Limit", "Soft Limit", "Hard Limit", "Units");
    for (r, (name, unit)) in LIMIT_NAMES.iter().enumerate() {
        let l = l.get(r as u32).expect("every resource");
        let value = |v: u64| match v {
            crate::rlimit::RLIM_INFINITY => String::from("unlimited"),
            v => alloc::format!("{v}"),
        };
        let _ = write!(s, "{:<25} {:<20} {:<20} ", name, value(l.cur), value(l.max));
        let _ = match *unit {
            "" => writeln!(s),
            u => writeln!(s, "{u:<10}"),
        };
    }
    s
}

/// A process's state as /proc shows it (Linux `task_state_array`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Running,
    Sleeping,
    Stopped,
    Zombie,
}

impl State {
    fn letter(self) -> char {
        match self {
            State::Running => 'R',
            State::Sleeping => 'S',
            State::Stopped => 'T',
            State::Zombie => 'Z',
        }
    }
    fn name(self) -> &'static str {
        match self {
            State::Running => "R (running)",
            State::Sleeping => "S (sleeping)",
            State::Stopped => "T (stopped)",
            State::Zombie => "Z (zombie)",
        }
    }
}

/// What /proc/<pid>/stat shows of a process. Times are clock ticks
/// (USER_HZ), `vsize` bytes, `rss` pages; signal sets are the low 32
/// signals. Fields Sigil does not keep (page fault counts, rsslim, the
/// kernel stack pointer, delay accounting...) print as 0.
#[derive(Clone, Debug, Default)]
pub struct TaskStat<'a> {
    pub pid: u32,
    pub comm: &'a str,
    pub state: Option<State>,
    pub ppid: u32,
    pub pgrp: u32,
    pub session: u32,
    /// The controlling terminal's device (Linux `new_encode_dev`), 0 if none.
    pub tty_nr: u32,
    /// Its foreground group, -1 if none.
    pub tpgid: i32,
    /// Linux `PF_*` task flags.
    pub flags: u32,
    pub utime: u64,
    pub stime: u64,
    pub cutime: u64,
    pub cstime: u64,
    /// Page faults of the process and of its reaped children (Linux
    /// min_flt, cmin_flt; no fault is major in a RAM-only kernel).
    pub minflt: u64,
    pub cminflt: u64,
    pub num_threads: u32,
    /// When the process started, ticks since boot.
    pub start_time: u64,
    pub vsize: u64,
    pub rss: u64,
    pub start_code: u32,
    pub end_code: u32,
    pub start_stack: u32,
    pub signal: u32,
    pub blocked: u32,
    pub sigignore: u32,
    pub sigcatch: u32,
    /// Not running: Linux 6.1 prints wchan as 1 then, else 0.
    pub sleeping: bool,
    pub start_brk: u32,
    /// The wait status once a zombie.
    pub exit_code: u32,
}

/// Linux's scheduling priority and nice for a SCHED_OTHER task at nice 0
/// (`task_prio`: prio 120 - MAX_RT_PRIO).
const PRIORITY: i32 = 20;

/// The one line of /proc/<pid>/stat: Linux 6.1's 52 fields, in
/// `do_task_stat`'s order, separated by single spaces.
pub fn stat_line(t: &TaskStat) -> String {
    let state = t.state.unwrap_or(State::Running).letter();
    let mut s = String::new();
    let _ = write!(s, "{} ({}) {} {} {} {}", t.pid, t.comm, state, t.ppid, t.pgrp, t.session);
    let _ = write!(s, " {} {} {} {} {} 0 0", t.tty_nr, t.tpgid, t.flags, t.minflt, t.cminflt);
    let _ = write!(s, " {} {} {} {}", t.utime, t.stime, t.cutime, t.cstime);
    // priority, nice, threads, itrealvalue (always 0 since 2.6.17).
    let _ = write!(s, " {PRIORITY} 0 {} 0 {}", t.num_threads, t.start_time);
    // vsize, rss, rsslim (RLIM_INFINITY), code, stack, esp, eip.
    let _ = write!(s, " {} {} {}", t.vsize, t.rss, u32::MAX);
    let _ = write!(s, " {} {} {} 0 0", t.start_code, t.end_code, t.start_stack);
    let _ = write!(s, " {} {} {} {}", t.signal, t.blocked, t.sigignore, t.sigcatch);
    // wchan, nswap, cnswap, exit_signal (SIGCHLD), cpu, rt_priority,
    // policy, blkio ticks, guest times.
    let _ = write!(s, " {} 0 0 17 0 0 0 0 0 0", t.sleeping as u32);
    // start_data, end_data, start_brk, arg/env bounds (not kept), exit code.
    let _ = writeln!(s, " 0 0 {} 0 0 0 0 {}", t.start_brk, t.exit_code);
    s
}

/// One mapping as /proc/<pid>/maps shows it.
#[derive(Clone, Copy, Debug)]
pub struct Mapping<'a> {
    pub start: u32,
    pub end: u32,
    pub read: bool,
    pub write: bool,
    pub exec: bool,
    pub shared: bool,
    /// A mapped file's offset (bytes), device and inode; zeros for
    /// anonymous memory.
    pub offset: u64,
    pub dev: (u32, u32),
    pub ino: u32,
    /// A file's path, "[stack]", "[heap]", or None for anonymous memory.
    pub name: Option<&'a str>,
}

/// A line of /proc/<pid>/maps (Linux `show_map_vma`): range, permissions
/// (s or p for shared or private), offset, device and inode (zeros for
/// anonymous memory, which the program's segments are too: exec copies
/// them in), then a name padded to column 49 (`seq_pad` to 25 + 6 * 4 - 1).
pub fn maps_line(m: &Mapping) -> String {
    let flag = |on: bool, c: char| if on { c } else { '-' };
    let mut s = alloc::format!(
        "{:08x}-{:08x} {}{}{}{} {:08x} {:02x}:{:02x} {} ",
        m.start,
        m.end,
        flag(m.read, 'r'),
        flag(m.write, 'w'),
        flag(m.exec, 'x'),
        if m.shared { 's' } else { 'p' },
        m.offset,
        m.dev.0,
        m.dev.1,
        m.ino
    );
    if let Some(name) = m.name {
        let _ = write!(s, "{:pad$}{name}", "", pad = 48usize.saturating_sub(s.len()));
    }
    s.push('\n');
    s
}

/// Signal sets of /proc/<pid>/status, bit n-1 for signal n.
#[derive(Clone, Copy, Debug, Default)]
pub struct SigLines {
    pub queued: usize,
    pub queue_limit: usize,
    pub pending: u64,
    pub shared: u64,
    pub blocked: u64,
    pub ignored: u64,
    pub caught: u64,
}

/// What /proc/<pid>/status shows. Memory sizes in kB.
#[derive(Clone, Debug, Default)]
pub struct TaskStatus<'a> {
    pub name: &'a str,
    pub umask: u32,
    pub state: Option<State>,
    /// The process (thread group) id and the thread's own id.
    pub tgid: u32,
    pub pid: u32,
    pub ppid: u32,
    /// Real, effective, saved, fs.
    pub uid: [u32; 4],
    pub gid: [u32; 4],
    pub fd_size: u32,
    pub groups: &'a [u32],
    pub pgid: u32,
    pub sid: u32,
    /// None for a zombie (no address space: Linux omits the Vm lines).
    pub vm: Option<VmSizes>,
    pub threads: u32,
    pub sig: SigLines,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct VmSizes {
    pub size: u64,
    pub rss: u64,
    pub data: u64,
    pub stack: u64,
}

/// /proc/<pid>/status: Linux 6.1's lines in its order, with the ones
/// about hardware and features Sigil lacks (NUMA, seccomp, speculation,
/// huge pages, locked memory) left out; `Cap*` say root's full set for
/// euid 0, else none (Sigil has no capabilities apart from uid 0).
pub fn status(t: &TaskStatus) -> String {
    let mut s = String::new();
    let state = t.state.unwrap_or(State::Running).name();
    let _ = writeln!(s, "Name:\t{}\nUmask:\t{:04o}\nState:\t{state}", t.name, t.umask);
    let _ = writeln!(s, "Tgid:\t{}\nNgid:\t0\nPid:\t{}", t.tgid, t.pid);
    let _ = writeln!(s, "PPid:\t{}\nTracerPid:\t0", t.ppid);
    for (label, ids) in [("Uid", t.uid), ("Gid", t.gid)] {
        let _ = writeln!(s, "{label}:\t{}\t{}\t{}\t{}", ids[0], ids[1], ids[2], ids[3]);
    }
    let _ = write!(s, "FDSize:\t{}\nGroups:\t", t.fd_size);
    for g in t.groups {
        let _ = write!(s, "{g} ");
    }
    let _ = writeln!(s, "\nNStgid:\t{}\nNSpid:\t{}", t.tgid, t.pid);
    let _ = writeln!(s, "NSpgid:\t{}\nNSsid:\t{}", t.pgid, t.sid);
    if let Some(vm) = t.vm {
        let kb = |s: &mut String, label: &str, v: u64| {
            let _ = writeln!(s, "{label}:\t{v:8} kB");
        };
        kb(&mut s, "VmSize", vm.size);
        kb(&mut s, "VmRSS", vm.rss);
        kb(&mut s, "VmData", vm.data);
        kb(&mut s, "VmStk", vm.stack);
    }
    let _ = writeln!(s, "Threads:\t{}", t.threads);
    let g = t.sig;
    let _ = writeln!(s, "SigQ:\t{}/{}", g.queued, g.queue_limit);
    for (label, set) in [
        ("SigPnd", g.pending),
        ("ShdPnd", g.shared),
        ("SigBlk", g.blocked),
        ("SigIgn", g.ignored),
        ("SigCgt", g.caught),
    ] {
        let _ = writeln!(s, "{label}:\t{set:016x}");
    }
    let caps: u64 = if t.uid[1] == 0 { 0x1ff_ffff_ffff } else { 0 };
    let _ = writeln!(s, "CapInh:\t{:016x}\nCapPrm:\t{caps:016x}\nCapEff:\t{caps:016x}", 0);
    let _ = writeln!(s, "CapBnd:\t{:016x}\nCapAmb:\t{:016x}", 0x1ff_ffff_ffffu64, 0);
    let _ = writeln!(s, "NoNewPrivs:\t0\nCpus_allowed:\t1\nCpus_allowed_list:\t0");
    s
}

/// /proc/meminfo's values, in kB.
#[derive(Clone, Copy, Debug, Default)]
pub struct MemInfo {
    pub total: u64,
    pub free: u64,
    pub available: u64,
    /// Page-cache pages: for Sigil, tmpfs file data (Linux counts shmem
    /// and tmpfs pages in Cached and Shmem both).
    pub cached: u64,
    pub shmem: u64,
    /// Kernel heap in use (Linux: slab).
    pub slab: u64,
    pub kernel_stack: u64,
    pub page_tables: u64,
}

/// /proc/meminfo: Linux 6.1's lines (`meminfo_proc_show`, each name
/// padded to 16 columns and the value right-aligned in 8, then " kB"), up
/// to VmallocChunk; those for memory Sigil has none of (swap, high memory,
/// writeback) read 0, as on a Linux machine without it.
pub fn meminfo(m: &MemInfo) -> String {
    let lines: [(&str, u64); 35] = [
        ("MemTotal", m.total),
        ("MemFree", m.free),
        ("MemAvailable", m.available),
        ("Buffers", 0),
        ("Cached", m.cached),
        ("SwapCached", 0),
        ("Active", m.cached),
        ("Inactive", 0),
        ("Active(anon)", 0),
        ("Inactive(anon)", 0),
        ("Active(file)", m.cached),
        ("Inactive(file)", 0),
        ("Unevictable", 0),
        ("Mlocked", 0),
        ("SwapTotal", 0),
        ("SwapFree", 0),
        ("Dirty", 0),
        ("Writeback", 0),
        ("AnonPages", 0),
        ("Mapped", 0),
        ("Shmem", m.shmem),
        ("KReclaimable", 0),
        ("Slab", m.slab),
        ("SReclaimable", 0),
        ("SUnreclaim", m.slab),
        ("KernelStack", m.kernel_stack),
        ("PageTables", m.page_tables),
        ("NFS_Unstable", 0),
        ("Bounce", 0),
        ("WritebackTmp", 0),
        ("CommitLimit", m.total / 2),
        ("Committed_AS", 0),
        ("VmallocTotal", 0),
        ("VmallocUsed", 0),
        ("VmallocChunk", 0),
    ];
    let mut s = String::new();
    for (name, kb) in lines {
        let label = alloc::format!("{name}:");
        let _ = writeln!(s, "{label:<16}{kb:>8} kB");
    }
    s
}

/// Seconds with two decimals, as Linux prints them (truncated).
fn centi(ns: u64) -> String {
    alloc::format!("{}.{:02}", ns / 1_000_000_000, ns % 1_000_000_000 / 10_000_000)
}

/// /proc/uptime: time since boot and the idle time, in seconds.
pub fn uptime(up_ns: u64, idle_ns: u64) -> String {
    alloc::format!("{} {}\n", centi(up_ns), centi(idle_ns))
}

/// /proc/loadavg: the three averages (`time::loadavg::LoadAvg::show`), the
/// runnable and all threads, and the last pid handed out.
pub fn loadavg(averages: &str, running: u32, threads: u32, last_pid: u32) -> String {
    alloc::format!("{averages} {running}/{threads} {last_pid}\n")
}

/// What /proc/stat shows: CPU times in ticks, the boot time (s since the
/// epoch) and process counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct SysStat {
    pub user: u64,
    pub system: u64,
    pub idle: u64,
    pub ctxt: u64,
    pub btime: u64,
    pub processes: u64,
    pub running: u32,
    pub blocked: u32,
}

/// /proc/stat for one CPU: the "cpu" and "cpu0" lines (user nice system
/// idle iowait irq softirq steal guest guest_nice), the interrupt total
/// (Sigil counts none per line: 0), context switches, boot time,
/// processes forked, running and blocked, and the softirq line.
pub fn sys_stat(t: &SysStat) -> String {
    let mut s = String::new();
    for name in ["cpu ", "cpu0"] {
        let _ = writeln!(s, "{name} {} 0 {} {} 0 0 0 0 0 0", t.user, t.system, t.idle);
    }
    let _ = writeln!(s, "intr 0\nctxt {}\nbtime {}\nprocesses {}", t.ctxt, t.btime, t.processes);
    let _ = writeln!(s, "procs_running {}\nprocs_blocked {}", t.running, t.blocked);
    let _ = writeln!(s, "softirq 0 0 0 0 0 0 0 0 0 0 0");
    s
}

/// The name Linux's cputable gives a 32-bit PowerPC of this PVR (the
/// cores Sigil runs on; others print as Linux prints an unknown one).
fn cpu_name(pvr: u32) -> Option<&'static str> {
    match pvr >> 16 {
        0x0008 => Some("740/750"),
        0x0083 => Some("e300c1"),
        0x0084 => Some("e300c2"),
        0x0085 => Some("e300c3"),
        0x0006 => Some("603e"),
        0x0007 => Some("603ev"),
        0x0050 => Some("8xx"),
        _ => None,
    }
}

/// /proc/cpuinfo for one 32-bit PowerPC, as Linux's `show_cpuinfo` prints
/// it: the processor's name, revision (major.minor from the PVR's low
/// half) and bogomips, then the summary: timebase, platform and memory.
/// With the timebase as the delay loop (ppc's `loops_per_jiffy` is the
/// timebase ticks per jiffy), bogomips is timebase / 500000.
pub fn cpuinfo(pvr: u32, tb_hz: u32, platform: &str, mem_mb: u32) -> String {
    let mut s = String::new();
    let _ = write!(s, "processor\t: 0\ncpu\t\t: ");
    match cpu_name(pvr) {
        Some(name) => s.push_str(name),
        None => {
            let _ = write!(s, "unknown ({pvr:08x})");
        }
    }
    let (maj, min) = ((pvr >> 8) & 0xff, pvr & 0xff);
    let _ = writeln!(s, "\nrevision\t: {maj}.{min} (pvr {:04x} {:04x})", pvr >> 16, pvr & 0xffff);
    let _ = writeln!(s, "bogomips\t: {}.{:02}\n", tb_hz / 500_000, tb_hz / 5_000 % 100);
    let _ = writeln!(s, "timebase\t: {tb_hz}\nplatform\t: {platform}\nMemory\t\t: {mem_mb} MB");
    s
}

#[cfg(test)]
mod tests;
