//! The values /proc prints, gathered from the process table, the address
//! spaces, the allocators and the clocks into `sigil_core::procfs`'s
//! structs, which make the text. Called by `ProcFile` at read time.
//!
//! A file shows a process, or one thread of it ([`View`]): a thread's
//! stat and status have its own id, state, pending and blocked sets and
//! (in task/<tid>) CPU time, the rest is the process's, as Linux's
//! `do_task_stat` and `proc_pid_status` print a task's.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use sigil_core::abi::{self, Errno};
use sigil_core::procfs::{self as fmt, Entry, Global, PidFile, State};
use sigil_core::time::cputime::USER_HZ;

use crate::fs::tmpfs;
use crate::mm::{PAGE_SIZE, STACK_TOP};
use crate::proc::{self, Group, Thread};
use crate::time::timer::now_ns;

/// The console's device as stat's tty_nr (4:64, ttyS0, `new_encode_dev`).
const CONSOLE_TTY_NR: u32 = 4 << 8 | 64;
/// Linux PF_FORKNOEXEC: forked and not exec'd since.
const PF_FORKNOEXEC: u32 = 0x40;

/// The process /proc/<id> shows: the one with pid `id`, or, for the id of
/// a thread that is not a leader, that thread's (`proc_pid_lookup`).
pub(super) fn group_of(id: u32) -> Option<&'static mut Group> {
    proc::get(id).or_else(|| proc::thread(id).map(|t| t.group()))
}

/// Thread `tid` if it is one of the threads of /proc/<id>'s process
/// (`proc_task_lookup`'s `same_thread_group`).
pub(super) fn member(id: u32, tid: u32) -> Option<&'static mut Thread> {
    let pid = group_of(id)?.pid;
    proc::thread(tid).filter(|t| t.group().pid == pid)
}

/// What a stat or status shows: a process, or one of its threads with
/// the process's CPU totals (`whole`, /proc/<tid>) or its own.
struct View<'a> {
    g: &'a Group,
    thread: Option<&'a Thread>,
    whole: bool,
}

/// A file's text now; ESRCH if its process (or thread) is gone.
pub(super) fn generate(e: Entry) -> Result<Vec<u8>, Errno> {
    let (view, f) = match e {
        Entry::Global(g) => return Ok(global(g).into_bytes()),
        Entry::File(id, f) => {
            let g = group_of(id).ok_or(Errno::ESRCH)?;
            let thread = if id == g.pid { None } else { proc::thread(id) };
            (View { g, thread: thread.map(|t| &*t), whole: true }, f)
        }
        Entry::TaskFile(id, tid, f) => {
            let t = member(id, tid).ok_or(Errno::ESRCH)?;
            (View { g: t.group(), thread: Some(t), whole: false }, f)
        }
        _ => return Err(Errno::EISDIR),
    };
    let g = group_of(view.g.pid).ok_or(Errno::ESRCH)?;
    Ok(match f {
        PidFile::Stat => fmt::stat_line(&task_stat(&view)).into_bytes(),
        PidFile::Status => task_status(&view).into_bytes(),
        PidFile::Cmdline => {
            let mem = user_bytes(g, g.shown.args.start..g.shown.env.end);
            fmt::cmdline(&mem, g.shown.args.len()).to_vec()
        }
        PidFile::Environ => user_bytes(g, g.shown.env.clone()),
        PidFile::Limits => fmt::limits(&g.limits).into_bytes(),
        PidFile::Comm => format!("{}\n", g.shown.comm).into_bytes(),
        PidFile::Maps => maps(g).into_bytes(),
        PidFile::Exe => return Err(Errno::EINVAL),
    })
}

/// The bytes of `range` in `g`'s memory as they are now (Linux's
/// `access_remote_vm`), at most FILE_MAX of them; nothing for a zombie,
/// which has no memory left, and only up to a page the process unmapped.
fn user_bytes(g: &mut Group, range: core::ops::Range<u32>) -> Vec<u8> {
    let len = range.len().min(super::FILE_MAX);
    let zombie = g.zombie;
    match g.try_space() {
        Some(space) if !zombie => space.read_bytes(range.start, len),
        _ => Vec::new(),
    }
}

fn ticks(ns: u64) -> u64 {
    ns / (1_000_000_000 / USER_HZ)
}

/// A process is running if any thread is; a thread's state is its own.
fn state(v: &View) -> State {
    let running = |t: &Thread| t.state == proc::State::Runnable;
    if v.g.zombie {
        State::Zombie
    } else if v.g.stop.is_some() {
        State::Stopped
    } else if v.thread.map_or_else(|| v.g.members().any(|t| running(t)), running) {
        State::Running
    } else {
        State::Sleeping
    }
}

/// The signal sets /proc shows: the thread's (a process's: its leader's or
/// first live thread's) private pending and blocked sets, the shared
/// pending set, and the ignored and caught signals.
fn sig_lines(v: &View) -> fmt::SigLines {
    let g = v.g;
    let shown = v.thread.or_else(|| proc::share::shown(g).map(|t| &*t));
    let (pending, blocked) =
        shown.map_or((0, 0), |t| (t.sig.pending.pending().bits(), t.sig.blocked.bits()));
    let (mut ignored, mut caught) = (0u64, 0u64);
    for (i, a) in g.sig.actions.get().iter().enumerate() {
        match a.handler {
            abi::SIG_DFL => {}
            abi::SIG_IGN => ignored |= 1 << i,
            _ => caught |= 1 << i,
        }
    }
    fmt::SigLines {
        queued: g.user.sigpending.get(),
        queue_limit: crate::signal::SIGQUEUE_MAX,
        pending,
        shared: g.sig.shared.pending().bits(),
        blocked,
        ignored,
        caught,
    }
}

/// The address space's sizes: (areas' bytes, resident pages, page-table
/// pages, writable non-stack bytes, stack bytes, the first code area).
struct Mem {
    size: u64,
    rss: u64,
    tables: u64,
    data: u64,
    stack: u64,
    code: (u32, u32),
    brk_start: u32,
}

fn mem(g: &Group) -> Option<Mem> {
    let space = g.space.as_ref().filter(|_| !g.zombie)?.get();
    let (rss, tables) = space.resident();
    let mut m = Mem {
        size: 0,
        rss: rss as u64,
        tables: tables as u64,
        data: 0,
        stack: 0,
        code: (0, 0),
        brk_start: space.brk_start,
    };
    for a in space.areas() {
        let len = (a.end - a.start) as u64;
        m.size += len;
        if a.end == STACK_TOP {
            m.stack += len;
        } else if a.prot.write {
            m.data += len;
        } else if a.prot.exec && m.code == (0, 0) {
            m.code = (a.start, a.end);
        }
    }
    Some(m)
}

/// /proc/<pid>/maps: the areas in address order, the stack and the area
/// the program break starts named as Linux names them. A zombie has none.
fn maps(g: &Group) -> String {
    let Some(space) = g.space.as_ref().filter(|_| !g.zombie).map(|s| s.get()) else {
        return String::new();
    };
    let mut areas: Vec<_> = space.areas().iter().collect();
    areas.sort_by_key(|a| a.start);
    let mut out = String::new();
    for a in areas {
        let ((dev, ino, path), offset) = match &a.file {
            Some(f) => (f.pager.identity(), f.index(a.start) as u64 * PAGE_SIZE as u64),
            None => (((0, 0), 0, String::new()), 0),
        };
        let name = if a.file.is_some() {
            Some(path.as_str())
        } else if a.end == STACK_TOP {
            Some("[stack]")
        } else if a.start == space.brk_start && space.brk > space.brk_start {
            Some("[heap]")
        } else {
            None
        };
        out += &fmt::maps_line(&fmt::Mapping {
            start: a.start,
            end: a.end,
            read: a.prot.read,
            write: a.prot.write,
            exec: a.prot.exec,
            shared: a.shared,
            offset,
            dev,
            ino,
            name,
        });
    }
    out
}

/// The user and system time a stat shows: the process's, or a thread's
/// own. Sigil keeps one CPU total per thread, not split into user and
/// system time: a thread's is split in its process's proportion.
fn cpu_times(v: &View) -> (u64, u64) {
    let own = &v.g.cpu.own;
    let Some(t) = v.thread.filter(|_| !v.whole) else { return (own.utime, own.stime) };
    let total = own.utime + own.stime;
    let user = if total == 0 {
        t.cpu_ns
    } else {
        (t.cpu_ns as u128 * own.utime as u128 / total as u128) as u64
    };
    (user, t.cpu_ns - user)
}

fn task_stat<'a>(v: &View<'a>) -> fmt::TaskStat<'a> {
    let g = v.g;
    let s = state(v);
    let m = mem(g);
    let fg = crate::dev::tty::foreground_of(g);
    let sig = sig_lines(v);
    let low = |set: u64| set as u32 & 0x7fff_ffff;
    let (utime, stime) = cpu_times(v);
    fmt::TaskStat {
        pid: v.thread.map_or(g.pid, |t| t.tid),
        comm: &g.shown.comm,
        state: Some(s),
        ppid: g.ppid,
        pgrp: g.job.pgid,
        session: g.job.sid,
        tty_nr: fg.map_or(0, |_| CONSOLE_TTY_NR),
        tpgid: fg.map_or(-1, |p| p as i32),
        flags: if g.job.execed { 0 } else { PF_FORKNOEXEC },
        utime: ticks(utime),
        stime: ticks(stime),
        cutime: ticks(g.cpu.children.utime),
        cstime: ticks(g.cpu.children.stime),
        minflt: g.cpu.own.minflt,
        cminflt: g.cpu.children.minflt,
        num_threads: g.threads.len().max(1) as u32,
        start_time: ticks(g.shown.start_ns),
        vsize: m.as_ref().map_or(0, |m| m.size),
        rss: m.as_ref().map_or(0, |m| m.rss),
        start_code: m.as_ref().map_or(0, |m| m.code.0),
        end_code: m.as_ref().map_or(0, |m| m.code.1),
        start_stack: 0,
        signal: low(sig.pending),
        blocked: low(sig.blocked),
        sigignore: low(sig.ignored),
        sigcatch: low(sig.caught),
        sleeping: s != State::Running,
        start_brk: m.as_ref().map_or(0, |m| m.brk_start),
        exit_code: if g.zombie { g.wait_status } else { 0 },
    }
}

fn task_status(v: &View) -> String {
    let g = v.g;
    let kb = |pages: u64| pages * (PAGE_SIZE as u64 / 1024);
    let c = &g.cred;
    let vm = mem(g).map(|m| fmt::VmSizes {
        size: m.size / 1024,
        rss: kb(m.rss),
        data: m.data / 1024,
        stack: m.stack / 1024,
    });
    fmt::status(&fmt::TaskStatus {
        name: &g.shown.comm,
        umask: v.thread.or_else(|| proc::share::shown(g).map(|t| &*t)).map_or(0, |t| t.fs().umask),
        state: Some(state(v)),
        tgid: g.pid,
        pid: v.thread.map_or(g.pid, |t| t.tid),
        ppid: g.ppid,
        uid: [c.uid.real, c.uid.effective, c.uid.saved, c.uid.fs],
        gid: [c.gid.real, c.gid.effective, c.gid.saved, c.gid.fs],
        // The table's bound (it grows as needed up to it).
        fd_size: crate::fs::MAX_FDS as u32,
        groups: c.groups(),
        pgid: g.job.pgid,
        sid: g.job.sid,
        vm,
        threads: g.threads.len() as u32,
        sig: sig_lines(v),
    })
}

/// The machine-wide files.
fn global(which: Global) -> String {
    use crate::mm::frames;
    let kb = |pages: usize| (pages * PAGE_SIZE / 1024) as u64;
    let threads: usize = proc::all().map(|g| g.threads.len()).sum();
    let running = proc::runnable_count();
    match which {
        Global::Meminfo => {
            let ((_, tmpfs_pages), _) = tmpfs::usage();
            let tables: u64 = proc::all().filter_map(|g| mem(g)).map(|m| m.tables).sum();
            fmt::meminfo(&fmt::MemInfo {
                total: kb(frames::total_count()),
                free: kb(frames::free_count()),
                available: kb(frames::free_count()),
                cached: kb(tmpfs_pages),
                shmem: kb(tmpfs_pages),
                slab: (crate::mm::heap::used() / 1024) as u64,
                kernel_stack: (threads * proc::KSTACK_SIZE / 1024) as u64,
                page_tables: tables * (PAGE_SIZE as u64 / 1024),
            })
        }
        Global::Cpuinfo => {
            let mb = ((frames::ram_count() * PAGE_SIZE) >> 20) as u32;
            fmt::cpuinfo(
                crate::arch::pvr(),
                crate::time::timer::tb_freq(),
                crate::arch::MACHINE,
                mb,
            )
        }
        Global::Uptime => fmt::uptime(now_ns(), proc::cpu_totals().idle),
        Global::Loadavg => {
            fmt::loadavg(&crate::time::loadavg::show(), running, threads as u32, proc::last_id())
        }
        Global::Stat => {
            let t = proc::cpu_totals();
            let boot_ns = crate::time::clock::realtime_ns().saturating_sub(now_ns());
            fmt::sys_stat(&fmt::SysStat {
                user: ticks(t.user),
                system: ticks(t.system),
                idle: ticks(t.idle),
                ctxt: proc::context_switches(),
                btime: boot_ns / 1_000_000_000,
                processes: proc::last_id() as u64,
                running,
                blocked: 0,
            })
        }
    }
}
