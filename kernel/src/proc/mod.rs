//! Processes and threads: the two tables, the scheduler, and the life cycle
//! (spawn, fork, clone, exec, exit, wait). Exec reads its program through
//! the file tree, so it lives above, in `fs::exec`; `exec.rs` here is what
//! it changes in the process. PID 1's descriptor table and cwd come from
//! the boot code too (`run_init`).
//!
//! A process is a thread *group* (`Group`): the address space (counted
//! apart, so a vfork or CLONE_VM child can share it: `Space`), the signal
//! handlers (counted apart too, for CLONE_VM | CLONE_SIGHAND processes:
//! `sigstate::Handlers`) and the shared pending set, the itimers and CPU
//! accounting, the parent and the wait status, the process group and
//! session (`group.rs`: process groups and sessions are sets of these thread
//! groups, and a terminal signals each member once). Its threads (`Thread`)
//! each have a kernel stack whose top holds the thread's user `TrapFrame`,
//! FP registers, a signal mask, a private pending set, a sigaltstack, the
//! `clear_child_tid` and robust-list pointers, a CPU clock, and a hold on
//! a descriptor table and an fs state (cwd, umask), which it may share with
//! other threads and processes (`share.rs`, Linux's `task->files` and
//! `task->fs`). The group's id (the PID) is its first thread's id (the TID
//! of the leader), as on Linux. The signal state of both is their field
//! `sig` (`sigstate.rs`): held here, generated and delivered by the
//! signal layer above (signal/), as Linux's include/linux/sched/signal.h
//! sits below kernel/signal.c.
//!
//! Scheduling is round-robin over threads: the decrementer preempts user
//! code at the end of its 10 ms time slice (`time::timer`); kernel code runs
//! until it blocks (`sleep`) or returns to user mode.
//!
//! # Invariants (who owns what, and how long a borrow lives)
//! - `TABLE.threads` owns every `Thread` (boxed, so it never moves);
//!   `TABLE.groups` owns one reference to each `Group` (both are maps
//!   with a direct slot per id beside them: `pids.rs`), and every thread of
//!   the group holds another (`Rc`): a group lives until its last thread is
//!   freed *and* its parent has reaped it (or it was auto-reaped: `detach`,
//!   for a parent ignoring SIGCHLD). Group state has that one owner;
//!   nothing else keeps a pointer to it but the table's PID slots.
//! - An address space (`Space`) is owned by the groups that run in it, one
//!   `Rc` each (Linux's `mm_users`, counted per process here since the
//!   threads of a group share its reference): the group's own after fork or
//!   exec, its parent's too for a CLONE_VM child until the child execs or
//!   ends. It is freed (pages, page tables, MMU context) when the last of
//!   them lets go: at exec or at the end of its last process.
//! - A descriptor table (`share::Files`) and an fs state (`share::Fs`) are
//!   owned by the live threads holding them, one `Rc` each (Linux's
//!   `files_struct.count`, `fs_struct.users`): a thread lets go at exit,
//!   so the files close with the last holder. The handlers
//!   (`sigstate::Handlers`) are owned by the groups holding them, one `Rc`
//!   per group (every thread of a group has the same ones: CLONE_THREAD
//!   needs CLONE_SIGHAND), and go with the last such group.
//! - `Group::threads` lists the live threads, by pointer into their Boxes;
//!   a thread that has exited is `State::Dead` and off that list
//!   (`wait::leave` takes it off before `finish` marks it Dead), and its
//!   Box is freed by the next thread that resumes from a context switch
//!   (`reap_dead`): never by itself, since it is still running on the
//!   stack being freed. So a listed pointer is always live.
//! - The run queue (`TABLE.runq`) and the futex wait lists (`futex.rs`)
//!   hold pointers into threads' Boxes, not ids: the scheduler and a futex
//!   wake reach the thread without a search of `TABLE.threads`. A queued
//!   pointer is always live because a Box is freed only once its thread is
//!   Dead (`reap_dead`), and a thread is off both before it is marked Dead:
//!   the exit path takes it out (`unqueue_exiting`, called by
//!   `wait::finish`), as Linux dequeues an exiting task. Moreover a queued
//!   thread is Runnable: only the running thread makes itself anything
//!   else (sleep, stop, exit), and it is in the run queue only inside
//!   `schedule`, when an interrupt in the idle loop woke it. A futex
//!   waiter is on a list only while its thread is inside `futex::wait`,
//!   which takes it off (if no waker did) before it returns.
//! - One CPU, no kernel preemption (`kcell.rs`): a `&mut Thread` or
//!   `&mut Group` obtained from this module is valid until the next context
//!   switch (`schedule`, `sleep`, `yield_now`), and must not be used after
//!   one: code that sleeps looks its thread and group up again afterwards
//!   (`current()`, `group()`), because another thread of the same group may
//!   have changed the group meanwhile, or ended it.
//! - `CURRENT_THREAD` is the running thread; its group is `group()`. The
//!   trap handler's live `TrapFrame` is passed down by reference; the only
//!   other way to reach a thread's frame (`Thread::frame`) is private to
//!   the scheduler, for the thread it switches out; clone, fork and the
//!   signal code take the caller's frame from the trap handler instead.

pub mod clone;
pub mod exec;
pub mod futex;
pub mod group;
mod pids;
mod runq;
pub mod share;
pub mod shown;
pub mod sigstate;
pub mod timed;
pub mod wait;
pub mod waitq;

pub use timed::{
    set_wall_clock, sleep_on_cpu_clock, sleep_until, sleep_until_realtime, wake_cpu_sleepers,
};

use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::ptr::NonNull;

use crate::arch::{self, Arch, Context, FpState, TrapFrame};
use crate::kcell::KCell;
use crate::mm::heap;
use crate::mm::space::AddressSpace;
use crate::time::cputime;
use group::JobIds;
use shown::Shown;
use sigil_core::abi::Errno;
use sigil_core::cred::Cred;
use sigil_core::job::wait::ChildEvent;
use sigil_core::rlimit::{Limits, RLIMIT_NPROC};
use sigil_core::signal::restart::RestartBlock;
use sigil_core::time::cputime::{CpuAccount, CpuClockId, CpuClockKind, CpuSleepers, CpuTimes};
use sigstate::{GroupSignals, ThreadSignals};

pub const KSTACK_SIZE: usize = 16 * 1024;
/// The most processes that may exist at once (fork beyond it: EAGAIN).
pub const MAX_PROCS: usize = 64;
// Each process has an address space, and one more while execve builds the
// next: MMU context numbers can never run out.
const _: () = assert!(2 * MAX_PROCS < crate::mm::context::NR_CONTEXTS);
// And the MMU tells every context number mm hands out apart (book3s/32's
// `activate` steps its segments' VSIDs without a mask up to a bound).
const _: () = if let Some(n) = <Arch as arch::Mmu>::CONTEXTS {
    assert!(crate::mm::context::NR_CONTEXTS <= n);
};
/// The most threads, all processes together (clone beyond it: EAGAIN):
/// each holds a 16 KiB kernel stack.
pub const MAX_THREADS: usize = 160;
/// A kernel stack. Its lowest word holds STACK_GUARD: a stack that grew
/// past its bottom overwrites it before it overwrites the heap object below,
/// and the next check (`check_kernel_stack`, or the guard-only check on the
/// next trap from user mode that is not a system call) turns that into an
/// oops.
#[repr(C, align(16))]
struct KernelStack([u8; KSTACK_SIZE]);

const STACK_GUARD: u32 = 0x5157_ac6d;
/// Less room than this below the stack pointer at a check is an oops before
/// anything is overwritten: a trap frame and the Rust frames of a nested
/// page fault fit in it.
const STACK_MARGIN: usize = 1024;

impl KernelStack {
    /// A new stack, or Err(ENOMEM) if the heap has no room for it.
    fn new() -> Result<Box<KernelStack>, Errno> {
        let mut s = heap::boxed(KernelStack([0; KSTACK_SIZE]))?;
        s.0[..4].copy_from_slice(&STACK_GUARD.to_ne_bytes());
        Ok(s)
    }

    fn guard_intact(&self) -> bool {
        self.0[..4] == STACK_GUARD.to_ne_bytes()
    }
}

/// Checks the stack the kernel runs on, given its stack pointer `sp`: the
/// current thread's kernel stack (guard word intact, `sp` inside with
/// STACK_MARGIN to spare) or, before PID 1 and after it, the boot stack.
/// Called on every context switch and every trap taken in kernel mode (where
/// a deep kernel path shows up); a failure is a kernel bug, so an oops
/// (panic), never silent corruption of the heap.
pub fn check_kernel_stack(sp: usize) {
    match try_current() {
        Some(p) => check_thread_stack(p, sp),
        None => {
            let (bottom, top) = Arch::boot_stack_bounds();
            check_stack(bottom, top, true, None, sp);
        }
    }
}

/// `check_kernel_stack` when the running thread `p` is known (a context
/// switch: its caller has it already, so the boot stack's case and its
/// test are left out).
#[inline(always)]
fn check_thread_stack(p: &Thread, sp: usize) {
    check_stack(p.kstack.0.as_ptr() as usize, p.kstack_top(), p.kstack.guard_intact(), Some(p), sp);
}

/// The test itself, on stack [bottom, top] of thread `owner` (None: the
/// boot stack's). The two bounds are one unsigned compare: below `bottom +
/// STACK_MARGIN` the difference wraps to a huge value. On a thread's stack,
/// whose size is a constant, that is a subtract, an add and a compare with
/// an immediate, where two compares each took their own branch.
#[inline(always)]
fn check_stack(bottom: usize, top: usize, guard_ok: bool, owner: Option<&Thread>, sp: usize) {
    let low = bottom + STACK_MARGIN;
    if !guard_ok || sp.wrapping_sub(low) > top - low {
        stack_overflow(owner, bottom, top, sp, guard_ok);
    }
}

/// `check_kernel_stack` for a trap from user mode other than a system call
/// (whose path skips it: `syscall::finish` says why):
/// the stack pointer there is the top of the current thread's kernel stack
/// less one trap frame, by construction (the entry code takes it from the
/// CPU's per-thread slot), so only the guard word can be wrong - overwritten
/// by an overflow during an earlier kernel entry that no check caught. One
/// load and a compare, where the full check costs ~25 instructions per trap.
#[inline(always)]
pub fn check_kernel_stack_guard() {
    if let Some(p) = try_current() {
        if !p.kstack.guard_intact() {
            let bottom = p.kstack.0.as_ptr() as usize;
            stack_overflow(Some(p), bottom, p.kstack_top(), arch::stack_pointer() as usize, false);
        }
    }
}

/// The oops, given the stack's thread (None: the boot stack), whose id is
/// read here: read by the caller, LLVM loaded it on every switch, beside
/// the stack's address, for a panic that never comes.
#[cold]
#[inline(never)]
fn stack_overflow(
    owner: Option<&Thread>,
    bottom: usize,
    top: usize,
    sp: usize,
    guard_ok: bool,
) -> ! {
    let tid = owner.map_or(0, |p| p.tid);
    panic!(
        "kernel stack overflow: tid {} stack [{:#x}, {:#x}) sp {:#x}, guard word {}",
        tid,
        bottom,
        top,
        sp,
        if guard_ok { "intact" } else { "overwritten" }
    );
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum State {
    Runnable,
    /// Blocked until `wakeup(chan)` (or a signal, if interruptible).
    Sleeping(usize),
    /// Stopped with its group (SIGSTOP & co) until SIGCONT.
    Stopped,
    /// Exited; the Box waits for `reap_dead`.
    Dead,
}

/// An address space as processes hold it: shared by the groups that run in
/// it (see the module invariants).
pub type Space = Rc<KCell<AddressSpace>>;

/// What the threads of a group share: a process.
pub struct Group {
    /// The process id: the leader thread's id.
    pub pid: u32,
    pub ppid: u32,
    pub name: String,
    /// None once the process has ended.
    pub space: Option<Space>,
    pub sig: GroupSignals,
    /// Live threads, oldest first: pointers into their Boxes, so that a
    /// group's members are reached without a search of `TABLE.threads`
    /// (see the module invariants for why each stays live).
    pub threads: Vec<NonNull<Thread>>,
    /// Set when the group is ending (exit_group, a fatal signal, or exec
    /// killing the other threads): the wait status; every thread but
    /// `exec_tid` leaves on its way back to user mode.
    pub exit: Option<u32>,
    /// The thread whose execve is waiting for the others to end.
    pub exec_tid: Option<u32>,
    /// The stop signal while the group is stopped (group stop).
    pub stop: Option<u32>,
    /// The leader's own exit status (Linux reports it unless the group exited
    /// as a whole).
    pub leader_status: u32,
    /// Every thread has ended; the wait status waits for the parent.
    pub zombie: bool,
    /// Linux wait status word, valid once zombie.
    pub wait_status: u32,
    /// A stop or continue not yet reported to the parent by a wait.
    pub report: Option<ChildEvent>,
    /// Process group, session, exec'd since fork (`group.rs`): the thread
    /// group's, as Linux keeps them in `signal_struct`.
    pub job: JobIds,
    /// prctl(PR_SET_CHILD_SUBREAPER): the orphans of this process's
    /// descendants come here rather than to PID 1 (`wait::new_parent`).
    /// Kept across exec, not inherited by fork, as Linux's `is_child_subreaper`.
    pub child_subreaper: bool,
    /// CPU time used and the timers counting it (see `crate::time::cputime`).
    pub cpu: CpuAccount,
    /// Who the process is (`crate::cred`): copied by fork, kept by exec.
    pub cred: Cred,
    /// Its real user's counts of queued signals and timers (shared).
    pub user: crate::cred::UserCounts,
    /// Resource limits (`syscall::misc`): copied by fork, kept by exec.
    pub limits: Limits,
    /// The name, the argument areas and the start time (`shown.rs`), which
    /// /proc shows.
    pub shown: Shown,
}

impl Group {
    /// The address space. Valid until the next context switch, as every
    /// borrow of group state (module invariants).
    pub fn space(&mut self) -> &mut AddressSpace {
        self.try_space().expect("a live process has an address space")
    }

    /// The address space, None once the process has ended.
    pub fn try_space(&mut self) -> Option<&mut AddressSpace> {
        self.space.as_ref().map(|s| s.get())
    }

    /// Does another process run in this one's memory too (a CLONE_VM
    /// child, or the parent of one)?
    pub fn space_shared(&self) -> bool {
        self.space.as_ref().is_some_and(|s| Rc::strong_count(s) > 1)
    }

    /// The group's threads, for signal targeting and group-wide wake-ups.
    /// Walked by index: LLVM counts the loop from the length itself, where
    /// a slice iterator's end pointer made it shift the byte distance back
    /// into a trip count on every walk (a signal's `group_work` and taker
    /// search each paid it).
    pub fn members(&self) -> impl Iterator<Item = &'static mut Thread> + '_ {
        // SAFETY: a thread is on `threads` only while it is live, and its
        // Box is freed only after it is off (the module invariants).
        (0..self.threads.len()).map(|i| unsafe { &mut *self.threads[i].as_ptr() })
    }
}

/// A freed process's time stays in the machine's totals
/// (`cputime::retire`, which says why none is missed meanwhile).
impl Drop for Group {
    fn drop(&mut self) {
        cputime::retire(self.cpu.own);
    }
}

/// One thread of control.
pub struct Thread {
    pub tid: u32,
    group: Rc<KCell<Group>>,
    /// The descriptor table and the working directory and umask, shared
    /// with the tasks made with CLONE_FILES / CLONE_FS (`share.rs`); None
    /// once the thread has exited.
    files: Option<share::Files>,
    fs: Option<share::Fs>,
    pub state: State,
    pub sig: ThreadSignals,
    pub fp: FpState,
    /// Does this thread's user state have live FP registers (MSR[FP])?
    pub fp_live: bool,
    /// Has it used FP (real or emulated) since exec? If not, `fp` is the
    /// initial all-zero state and its signal frames carry no FP registers
    /// (deliver.rs, `FRAME_MSR_NO_FP`).
    pub fp_used: bool,
    /// `fp` was saved since it was last compared with the initial state, so
    /// `fp_used` may be stale-true (glibc's setjmp stores the FP registers
    /// without changing them). Compared only when a frame needs the answer
    /// (`fp_settle`), not at each context switch: the 33-register scan is
    /// paid once per signal, by threads that touched FP.
    pub fp_unchecked: bool,
    /// set_tid_address / CLONE_CHILD_CLEARTID: zeroed and woken at exit.
    pub clear_child_tid: u32,
    /// The thread sleeping in vfork until this one execs or exits (Linux's
    /// per-task `vfork_done`: a CLONE_VFORK child, process or thread).
    pub vfork_parent: Option<u32>,
    /// set_robust_list: the head of the robust mutexes this thread holds.
    pub robust_list: u32,
    /// CPU time this thread has used (CLOCK_THREAD_CPUTIME_ID), in ns.
    pub cpu_ns: u64,
    /// When a clock_nanosleep on this thread's CPU clock (by another thread
    /// of its process) may be done (`timed.rs`).
    pub cpu_sleepers: CpuSleepers,
    /// The futex this thread waits on, while queued (`futex.rs`).
    pub futex: Option<sigil_core::futex::FutexKey>,
    /// The next thread in the run queue, while this one is queued (`runq.rs`).
    runq_next: Option<NonNull<Thread>>,
    /// What an interrupted call left for `restart_syscall` (Linux's
    /// `current->restart_block`); forgotten at sigreturn and exec.
    pub restart: Option<RestartBlock>,
    kstack: Box<KernelStack>,
    ksp: usize,
}

impl Thread {
    fn kstack_top(&self) -> usize {
        self.kstack.0.as_ptr() as usize + KSTACK_SIZE
    }

    /// Makes `fp_used` exact: a saved state still all zero is not "used",
    /// and a signal frame can leave it out (handle_signal, deliver.rs).
    pub fn fp_settle(&mut self) {
        if self.fp_unchecked {
            self.fp_unchecked = false;
            self.fp_used = !self.fp.is_initial();
        }
    }

    /// What CPU time is charged to while it runs: its own count and its
    /// process's account (`time::cputime`).
    #[inline(always)]
    pub fn charged(&mut self) -> cputime::Charged<'_> {
        let g = self.group();
        (&mut self.cpu_ns, &mut g.cpu)
    }

    /// The thread's group. Valid until the next context switch (see the
    /// module invariants).
    #[allow(clippy::mut_from_ref)]
    pub fn group(&self) -> &'static mut Group {
        // SAFETY: the Rc keeps the group alive as long as this thread, and
        // threads live in their Box until reaped; one CPU, no preemption.
        unsafe { &mut *(self.group.get() as *mut Group) }
    }

    /// The user state saved when this thread last entered the kernel: for
    /// the scheduler, switching it out. Code handling a trap uses the
    /// handler's `&mut TrapFrame` instead, which is this same memory.
    fn frame(&mut self) -> &mut TrapFrame {
        // SAFETY: the top of our own kernel stack always holds our user frame
        // while we are in the kernel or switched out.
        unsafe { &mut *Arch::user_frame(self.kstack_top()) }
    }
}

struct Table {
    threads: pids::IdTable<Box<Thread>>,
    groups: pids::IdTable<Rc<KCell<Group>>>,
    /// The threads waiting for the CPU, in turn: linked through their
    /// Boxes, so the scheduler reaches the next one without searching
    /// `threads` (`runq.rs`; the module invariants say why they stay valid).
    runq: runq::RunQueue,
    /// Threads that have exited, to be freed once off the CPU.
    dead: Vec<u32>,
    next_id: u32,
    /// Where the boot thread's stack pointer goes when PID 1 starts.
    boot_ksp: usize,
}

static TABLE: KCell<Table> = KCell::new(Table {
    threads: pids::IdTable::new(),
    groups: pids::IdTable::new(),
    runq: runq::RunQueue::new(),
    dead: Vec::new(),
    next_id: 1,
    boot_ksp: 0,
});

/// The running thread (null during boot): a pointer into its Box in
/// `TABLE.threads`, so `current()`, called several times by every syscall,
/// is one load instead of a tree search. The Box never moves, and a thread
/// is freed only by another one (`reap_dead`). A static of its own, not a
/// field of `TABLE`: its address is then one `lis` and the load's offset,
/// where a field took a `lis`, an `addi` and the load. Not mangled so that
/// LLVM's global merge, which folds internal statics into one block
/// addressed as a field again, leaves it alone.
#[no_mangle]
static CURRENT_THREAD: KCell<*mut Thread> = KCell::new(core::ptr::null_mut());

/// The running thread.
pub fn current() -> &'static mut Thread {
    try_current().expect("no current thread")
}

/// The running thread, unchecked: null during boot. For the system call's
/// round trip (`syscall::finish`), where a user thread always runs
/// and `current()`'s null test would be paid on every call for nothing.
#[inline(always)]
pub fn running() -> *mut Thread {
    *CURRENT_THREAD.get()
}

/// The running thread, if one has started (not during boot).
pub fn try_current() -> Option<&'static mut Thread> {
    // SAFETY: null or a live boxed thread (see `CURRENT_THREAD`).
    unsafe { CURRENT_THREAD.get().as_mut() }
}

/// The running thread's group: the current process.
pub fn group() -> &'static mut Group {
    current().group()
}

/// A CPU-time clock read now from the running thread: its process's total
/// (CLOCK_PROCESS_CPUTIME_ID) or thread `tid`'s own (0 once it has exited),
/// with the time since the last sample for the running thread, so the
/// reading is exact rather than as of the last tick, as Linux's.
pub fn cpu_clock(clock: crate::time::timers::Clock) -> u64 {
    match clock {
        crate::time::timers::Clock::ThreadCpu(tid) => thread(tid).map_or(0, thread_cpu_ns),
        _ => current().group().cpu.prof_clock() + cputime::unsampled(),
    }
}

/// The machine's CPU time so far (/proc/stat, /proc/uptime): the idle
/// time and what processes now gone used, which `time::cputime` keeps, and
/// the own time of every process that exists, zombies too (a group is in
/// the table until it is freed or detached: `Group`'s drop retires its
/// time).
pub fn cpu_totals() -> cputime::Totals {
    let mut live = CpuTimes::default();
    for g in all() {
        live.add(g.cpu.own);
    }
    cputime::totals(live)
}

/// Thread `t`'s CPU time now: the running thread's includes the stretch
/// since the last sample.
fn thread_cpu_ns(t: &mut Thread) -> u64 {
    if t.tid == current().tid {
        t.cpu_ns + cputime::unsampled()
    } else {
        t.cpu_ns
    }
}

/// CPU-time clock `id` read now (clock_gettime and clock_getres on an id
/// glibc's clock_getcpuclockid or pthread_getcpuclockid made), resolved as
/// Linux's `pid_for_clock`: a thread clock names the caller or another
/// thread of its process; a process clock names a process, or, for
/// `gettime`, the caller by its own thread id. None: no such clock
/// (EINVAL). Sigil keeps no user/system split per thread, so a thread's
/// VIRT clock is None too. A VIRT clock reads the samples alone: the
/// stretch since the last one is not yet split into user and system time
/// (Linux's tick-based VIRT clock is as coarse).
pub fn read_cpu_clock(id: CpuClockId, gettime: bool) -> Option<u64> {
    use crate::time::timers::Clock;
    let cur = current();
    if id.thread {
        let tid = if id.pid == 0 { cur.tid } else { id.pid };
        let t = thread(tid).filter(|t| t.group().pid == cur.group().pid)?;
        return (id.kind != CpuClockKind::Virt).then(|| thread_cpu_ns(t));
    }
    let own = id.pid == 0 || id.pid == cur.group().pid || (gettime && id.pid == cur.tid);
    let g = if own { cur.group() } else { get(id.pid)? };
    Some(match id.kind {
        CpuClockKind::Virt => g.cpu.virt_clock(),
        _ if own => cpu_clock(Clock::ProcessCpu),
        _ => g.cpu.prof_clock(),
    })
}

/// The thread `tid`, if it exists and has not exited.
pub fn thread(tid: u32) -> Option<&'static mut Thread> {
    if let Some(t) = try_current().filter(|t| t.tid == tid) {
        return Some(t);
    }
    // SAFETY: the table owns the thread (module invariants).
    TABLE
        .get()
        .threads
        .get(tid)
        .map(|t| unsafe { &mut *t.as_ptr() })
        .filter(|t| t.state != State::Dead)
}

/// The process `pid` (a zombie too).
pub fn get(pid: u32) -> Option<&'static mut Group> {
    // SAFETY: as `Thread::group`: the table holds a reference.
    TABLE.get().groups.get(pid).map(|g| unsafe { g.as_ref() }.get())
}

/// Every process, for signal broadcast and orphan re-parenting.
pub fn all() -> impl Iterator<Item = &'static mut Group> {
    TABLE.get().groups.values().map(|g| g.get())
}

/// Threads running or waiting for the CPU: the load average's count and
/// /proc's `procs_running`.
pub fn runnable_count() -> u32 {
    all().flat_map(|g| g.members()).filter(|t| t.state == State::Runnable).count() as u32
}

/// The id handed out last (/proc/loadavg's last field).
pub fn last_id() -> u32 {
    TABLE.get().next_id.saturating_sub(1).max(1)
}

/// Processes that exist (zombies too).
pub fn count() -> usize {
    TABLE.get().groups.len()
}

/// A free id for a thread or process: neither a live thread's nor a
/// group's (a zombie's PID, or a group whose leader has exited, stays taken).
fn alloc_id() -> u32 {
    let t = TABLE.get();
    loop {
        let id = t.next_id;
        t.next_id = if id >= 32767 { 2 } else { id + 1 };
        if !t.threads.contains_key(id) && !t.groups.contains_key(id) {
            return id;
        }
    }
}

/// Creates a thread of `group` that will enter user mode with `tf`, or
/// changes nothing and says ENOMEM if the heap has no room for it.
fn spawn_thread(
    tid: u32,
    group: Rc<KCell<Group>>,
    held: (share::Files, share::Fs),
    sig: ThreadSignals,
    fp: FpState,
    tf: &TrapFrame,
) -> Result<(), Errno> {
    let table = TABLE.get();
    group.get().threads.try_reserve(1).map_err(|_| Errno::ENOMEM)?;
    let kstack = KernelStack::new()?;
    let mut t = heap::boxed(Thread {
        tid,
        group,
        files: Some(held.0),
        fs: Some(held.1),
        state: State::Runnable,
        sig,
        fp_used: !fp.is_initial(),
        fp,
        fp_live: false,
        fp_unchecked: false,
        clear_child_tid: 0,
        vfork_parent: None,
        robust_list: 0,
        cpu_ns: 0,
        cpu_sleepers: CpuSleepers::default(),
        futex: None,
        runq_next: None,
        restart: None,
        kstack,
        ksp: 0,
    })?;
    t.ksp = Arch::new_thread(t.kstack_top(), tf);
    // The Box's heap address, which the insert below does not move.
    t.group().threads.push(NonNull::from(&mut *t));
    table.runq.push_back(&mut t);
    table.threads.insert(tid, t);
    Ok(())
}

/// Creates a process around `space` whose one thread, holding `held` (its
/// descriptors and fs state), enters user mode with `tf`: the child of
/// `parent` (its pid, and its process group and session per
/// `JobIds::fork`), or of no one (PID 1). Returns its pid.
fn create(
    parent: Option<&Group>,
    name: String,
    space: Space,
    held: (share::Files, share::Fs),
    sig: (GroupSignals, ThreadSignals),
    fp: FpState,
    tf: &TrapFrame,
) -> Result<u32, Errno> {
    let t = TABLE.get();
    if t.groups.len() >= MAX_PROCS || t.threads.len() >= MAX_THREADS {
        return Err(Errno::EAGAIN);
    }
    let pid = alloc_id();
    // Group and session 0 for PID 1, as Linux's init starts; it calls setsid itself.
    let (ppid, job) = parent.map_or((0, JobIds::default()), |p| (p.pid, p.job.fork()));
    let cred = parent.map_or(Cred::ROOT, |p| p.cred);
    let limits = parent.map_or_else(boot_limits, |p| p.limits);
    // RLIMIT_NPROC counts the processes of the caller's real user; root is
    // not held to it (Linux exempts CAP_SYS_RESOURCE and the init user).
    let uid = cred.uid.real;
    if parent.is_some() && uid != 0 {
        let mine = all().filter(|g| g.cred.uid.real == uid).count();
        if mine as u64 >= limits.cur(RLIMIT_NPROC) {
            return Err(Errno::EAGAIN);
        }
    }
    let user = parent.map_or_else(crate::cred::UserCounts::new, |p| p.user.clone());
    let g = heap::rc(KCell::new(Group {
        pid,
        ppid,
        name,
        space: Some(space),
        sig: sig.0,
        threads: Vec::new(),
        exit: None,
        exec_tid: None,
        stop: None,
        leader_status: 0,
        zombie: false,
        wait_status: 0,
        report: None,
        job,
        child_subreaper: false,
        cpu: CpuAccount::default(),
        cred,
        user,
        limits,
        shown: Shown::fork(parent.map(|p| &p.shown)),
    }))?;
    spawn_thread(pid, g.clone(), held, sig.1, fp, tf)?;
    t.groups.insert(pid, g);
    Ok(pid)
}

/// Frees the threads that have exited, except the running one. The test
/// inline, the freeing out of line: it runs after every context switch,
/// and almost always finds nothing, where the whole function's prologue
/// and epilogue (nine callee-saved registers and CR) cost 32 instructions
/// for that answer.
#[inline(always)]
fn reap_dead() {
    if !TABLE.get().dead.is_empty() {
        free_dead();
    }
}

#[inline(never)]
fn free_dead() {
    let t = TABLE.get();
    let me = try_current().map(|c| c.tid);
    let dead = core::mem::take(&mut t.dead);
    for tid in dead {
        if Some(tid) == me {
            t.dead.push(tid);
        } else {
            t.threads.remove(tid);
        }
    }
}

/// The limits PID 1 starts with, the process table's size for RLIMIT_NPROC.
pub fn boot_limits() -> Limits {
    Limits::boot(MAX_PROCS as u64)
}

/// Runs PID 1, `image` exec'd as `path`, holding the descriptor table and
/// fs state its caller (`fs::exec::run_init`, for kmain) made for it, on
/// behalf of the boot thread, which sleeps until the exit path
/// (`signal::exit`) has ended PID 1 and every other process and switched
/// back here. Returns PID 1's wait status, with the process table empty.
pub fn run_init(
    image: exec::Image,
    path: &str,
    held: (share::Files, share::Fs),
) -> Result<u32, Errno> {
    let exec::Image { space, tf, exe, args, env } = image;
    let sig = (GroupSignals::new(), ThreadSignals::new());
    let space = Rc::new(KCell::new(space));
    let pid = create(None, exe, space, held, sig, FpState::new(), &tf)?;
    get(pid).expect("just created").shown.exec(path, args, env);
    let t = TABLE.get();
    t.runq = runq::RunQueue::new();
    let p = thread(pid).expect("just created");
    *CURRENT_THREAD.get() = p;
    p.group().space().activate();
    Arch::set_kernel_stack(p.kstack_top());
    // SAFETY: boot_ksp is a static slot; p.ksp came from new_thread.
    unsafe { Arch::switch(&mut t.boot_ksp, p.ksp) };
    // Back from `back_to_boot`: PID 1's last thread is idle now, so it can go.
    let t = TABLE.get();
    *CURRENT_THREAD.get() = core::ptr::null_mut();
    let init = t.groups.remove(1).expect("PID 1 in the table");
    let status = init.get().wait_status;
    // Empty containers keep their storage; give it back for the leak check.
    t.threads = pids::IdTable::new();
    t.groups = pids::IdTable::new();
    t.dead = Vec::new();
    drop(init);
    Ok(status)
}

/// The end of PID 1 (called by `wait::shut_down` once everything else is gone):
/// resumes the boot thread in `run_init`. Never returns.
fn back_to_boot() -> ! {
    let t = TABLE.get();
    let p = current();
    // SAFETY: p.ksp lives in the thread's Box, which run_init frees only after
    // this switch has saved into it; boot_ksp was saved by run_init's switch.
    unsafe { Arch::switch(&mut p.ksp, t.boot_ksp) };
    unreachable!("PID 1 resumed after its end")
}

/// Makes thread `tid` runnable (if it still exists and has not exited).
pub fn make_runnable(tid: u32) {
    if let Some(t) = thread(tid) {
        wake(t);
    }
}

/// Makes `t` runnable unless it has exited: `make_runnable` for a caller
/// that already holds the thread (a signal's sender), saving a lookup.
pub fn wake(t: &mut Thread) {
    if t.state != State::Dead && t.state != State::Runnable {
        t.state = State::Runnable;
        TABLE.get().runq.push_back(t);
    }
}

/// Wakes thread `tid` if it sleeps on `chan` (a poller's own channel: one
/// lookup instead of a pass over the table).
pub fn wake_sleeper(tid: u32, chan: usize) {
    if let Some(t) = thread(tid).filter(|t| t.state == State::Sleeping(chan)) {
        wake(t);
    }
}

/// Wakes every thread sleeping on `chan`: one pass over the table and no
/// allocation, since it runs on every pipe transfer and child exit.
pub fn wakeup(chan: usize) {
    let t = TABLE.get();
    for p in t.threads.values() {
        if p.state == State::Sleeping(chan) {
            p.state = State::Runnable;
            t.runq.push_back(p);
        }
    }
}

/// The sleep channels that are not an object's address. A pipe or an
/// eventfd sleeps on its own kernel address (at KERNELBASE and up); these
/// are a kind in the top bits plus a thread id (`of`; ids stay below
/// 32768), so no two kinds, and no kind and an object, ever share a channel.
#[derive(Clone, Copy)]
#[repr(u32)]
pub enum Chan {
    /// A parent in wait4/waitid, by its own tid (wait.rs).
    Wait = 0x1000_0000,
    /// A timed sleep: nanosleep, clock_nanosleep (timed.rs).
    Timed = 0x2000_0000,
    /// A waiter on wait queues: a poller, a signalfd reader (waitq.rs).
    Queue = 0x3000_0000,
    /// A thread waiting for execve to end the others of its group (exec.rs).
    Exec = 0x4000_0000,
    /// A futex waiter (futex.rs).
    Futex = 0x5000_0000,
    /// Every absolute CLOCK_REALTIME sleeper: a clock change wakes them all
    /// (timed.rs; one channel, no thread id).
    ClockWasSet = 0x6000_0000,
    /// A vfork parent until its child execs or exits (clone.rs).
    Vfork = 0x7000_0000,
    /// Sleepers on process `pid`'s CPU clock, by the pid (timed.rs; pids
    /// are thread ids, the kind keeps them apart from the next).
    CpuClock = 0x8000_0000,
    /// Sleepers on thread `tid`'s CPU clock (timed.rs).
    ThreadCpuClock = 0x9000_0000,
}

impl Chan {
    /// The channel of this kind for thread `tid`.
    #[inline(always)]
    pub const fn of(self, tid: u32) -> usize {
        self as usize + tid as usize
    }
}

/// Blocks the current thread on `chan` until woken. Returns early, with
/// `Err(())`, if a signal is pending that should interrupt the sleep.
/// Only a thread sleeps (a system call, or a fault on a thread's behalf),
/// so the running thread is taken unchecked, as the system call's round
/// trip takes it: `current()`'s null test and branch, twice a sleep, would
/// test what cannot happen.
pub fn sleep(chan: usize) -> Result<(), ()> {
    // SAFETY: a thread is running (above), and CURRENT_THREAD then points
    // at its live Box; the reference is not used after the switch.
    let me = unsafe { &mut *running() };
    if sigstate::interrupt_pending(me) {
        return Err(());
    }
    me.state = State::Sleeping(chan);
    schedule();
    // SAFETY: as above: the same thread runs again, looked up afresh after
    // the switch (module invariants).
    if sigstate::interrupt_pending(unsafe { &mut *running() }) {
        Err(())
    } else {
        Ok(())
    }
}

/// The sleep of a wait that only a signal ends (rt_sigsuspend), which
/// returns a restart code whatever woke it: blocks the running thread
/// until it is woken with its work flag set, or returns at once if a
/// signal would interrupt it already. After a wake the flag alone decides,
/// as Linux's `sigsuspend` loops on `signal_pending`: the full test of
/// both sets, which `sleep` makes there, is the one the way back to user
/// mode makes anyway (`signal::check_pending`), and this wait's caller
/// returns straight to it. A flag set with nothing deliverable (a blocked
/// signal on the group's set) costs a round trip: the return finds no
/// handler, puts the saved mask back and restarts the call, which sleeps
/// again after its own full test. A wake that left the flag clear is no
/// signal: the thread sleeps again at once. The running thread is taken
/// unchecked, as `sleep` takes it.
pub fn sleep_until_signal() {
    // SAFETY: a thread is running (above), and CURRENT_THREAD then points
    // at its live Box; the reference is not used after the switch.
    let me = unsafe { &mut *running() };
    if sigstate::interrupt_pending(me) {
        return;
    }
    let chan = me as *const Thread as usize;
    loop {
        // SAFETY: as above, looked up afresh on each round: the flag is
        // read after the switch through a new reference, which the
        // waker's store then reaches (module invariants).
        unsafe { (*running()).state = State::Sleeping(chan) };
        schedule();
        // SAFETY: as above.
        if unsafe { (*running()).sig.work } {
            return;
        }
    }
}

/// Gives up the CPU but stays runnable (preemption, sched_yield).
pub fn yield_now() {
    let t = TABLE.get();
    if !t.runq.is_empty() {
        t.runq.push_back(current());
        schedule();
    }
}

/// The exiting thread `t` leaves every queue that holds a pointer to it
/// (`wait::finish`, before it is marked Dead and so may be freed: module
/// invariants). It is in neither as it runs its exit: it ran, so it left
/// the run queue, and its futex wait returned before the exit began. The
/// removal, a pass over a short queue once per exit, is what makes the
/// pointers' validity hold by construction rather than by that argument.
pub fn unqueue_exiting(t: &mut Thread) {
    TABLE.get().runq.remove(t);
    futex::unqueue(t);
}

/// Takes zombie `pid` out of the table for good (auto-reaping): it can no
/// longer be found or waited for. Its last thread still holds the group, so
/// it is freed with that thread's Box, once off the CPU (`reap_dead`).
pub fn detach(pid: u32) {
    TABLE.get().groups.remove(pid);
}

/// Runs the next runnable thread. Returns when the current one runs again.
/// If nothing can run, waits for an interrupt (timer, console) to change that.
pub fn schedule() {
    loop {
        let t = TABLE.get();
        if let Some(mut next) = t.runq.pop_front() {
            // Queued threads are Runnable (module invariants). The running
            // thread is among them only if an interrupt in the idle loop
            // below woke it in its own sleep: it just goes on.
            if next.as_ptr() != running() {
                // SAFETY: a queued thread is live (module invariants).
                switch_to(unsafe { next.as_mut() });
            }
            return;
        }
        if idle_round() {
            return;
        }
    }
}

/// Nothing is queued: true if the running thread can go on (it is
/// runnable: it yielded, or an interrupt woke it), else one round of the
/// idle loop, which waits for an interrupt and charges nobody for the wait,
/// and false: the scheduler looks at its queue again. Out of line and cold:
/// inlined, its calls' registers were saved and restored by every
/// `schedule`, at every context switch; and the running thread's test is
/// in here too, or its address was kept in a saved register of every
/// sleep.
#[cold]
#[inline(never)]
fn idle_round() -> bool {
    if current().state == State::Runnable {
        return true;
    }
    cputime::idle_begin(try_current().map(Thread::charged));
    crate::time::timer::idle();
    cputime::idle_end(try_current().is_some_and(|p| p.state == State::Runnable));
    crate::time::loadavg::sample(crate::time::timer::now_ns(), || 0);
    false
}

/// Context switches since boot (/proc/stat's `ctxt`).
static SWITCHES: KCell<u64> = KCell::new(0);

pub fn context_switches() -> u64 {
    *SWITCHES.get()
}

/// Called by `schedule` only, which runs on a thread (it sleeps, yields or
/// exits one), so the thread switched out is taken unchecked, as `sleep`
/// takes it.
fn switch_to(next: &'static mut Thread) {
    // SAFETY: a thread is running (above): CURRENT_THREAD points at its
    // live Box, which stays allocated across the switch (`reap_dead` frees
    // only another thread's).
    let prev = unsafe { &mut *running() };
    check_thread_stack(prev, arch::stack_pointer() as usize);
    crate::uaccess::assert_closed();
    *SWITCHES.get() += 1;
    cputime::switch_out(prev.charged());
    if prev.fp_live {
        Arch::fp_save(&mut prev.fp);
        prev.frame().disable_fp();
        prev.fp_live = false;
        prev.fp_unchecked = true;
    }
    *CURRENT_THREAD.get() = &mut *next;
    // Threads of one group share the space: no MMU switch between them.
    // (A vfork child and its parent share one too, but the parent sleeps.)
    if !Rc::ptr_eq(&prev.group, &next.group) {
        if let Some(s) = next.group().try_space() {
            s.activate();
        }
    }
    Arch::set_kernel_stack(next.kstack_top());
    // SAFETY: prev.ksp lives in prev's Box, valid until prev is reaped (by
    // another thread, after this switch); next.ksp came from new_thread or
    // an earlier switch.
    unsafe { Arch::switch(&mut prev.ksp, next.ksp) };
    reap_dead();
}

/// execve from a thread other than the leader, once it is the only one
/// left (`exec::de_thread`): it takes over the process's id, as Linux's
/// `de_thread` exchanges the leader's PID with the caller's.
fn take_over_pid() {
    let me = current();
    let g = me.group();
    if me.tid == g.pid {
        return;
    }
    // The old leader has exited: free its Box so its id is free to take.
    reap_dead();
    let t = TABLE.get();
    let mut b = t.threads.remove(me.tid).expect("the current thread is in the table");
    // The group's list already holds this thread alone, by its Box.
    b.tid = g.pid;
    t.threads.insert(g.pid, b);
}
