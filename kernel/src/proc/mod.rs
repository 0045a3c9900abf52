//! Processes: the table, the scheduler, and the life cycle (spawn, fork,
//! exec, exit, wait).
//!
//! Each process has one thread: a kernel stack whose top holds its user
//! `TrapFrame`, and an address space. Scheduling is round-robin: the
//! decrementer preempts user code at the end of its 10 ms time slice
//! (`dev::timer`); kernel code runs until it blocks
//! (`sleep`) or returns to user mode. See `kcell.rs` for why the table needs no
//! lock.

pub mod exec;
pub mod group;
pub mod wait;

use alloc::boxed::Box;
use alloc::collections::{BTreeMap, VecDeque};
use alloc::string::String;
use alloc::vec::Vec;

use crate::arch::{self, FpState, TrapFrame};
use crate::fs::FdTable;
use crate::kcell::KCell;
use crate::mm::space::AddressSpace;
use crate::signal::SignalState;
use group::JobIds;
use sigil_core::job::wait::Event;
use sigil_core::time::cputime::CpuAccount;

pub const KSTACK_SIZE: usize = 16 * 1024;
/// The most processes that may exist at once (fork beyond it: EAGAIN).
pub const MAX_PROCS: usize = 64;

/// A kernel stack. Its lowest word holds STACK_GUARD: a stack that grew
/// past its bottom overwrites it before it overwrites the heap object below,
/// and the next check (`check_kernel_stack`, or the guard-only check on the
/// next entry from user mode) turns that into an oops.
#[repr(C, align(16))]
struct KernelStack([u8; KSTACK_SIZE]);

const STACK_GUARD: u32 = 0x5157_ac6d;
/// Less room than this below the stack pointer at a check is an oops before
/// anything is overwritten: a trap frame and the Rust frames of a nested
/// page fault fit in it.
const STACK_MARGIN: usize = 1024;

impl KernelStack {
    fn new() -> Box<KernelStack> {
        let mut s = Box::new(KernelStack([0; KSTACK_SIZE]));
        s.0[..4].copy_from_slice(&STACK_GUARD.to_ne_bytes());
        s
    }

    fn guard_intact(&self) -> bool {
        self.0[..4] == STACK_GUARD.to_ne_bytes()
    }
}

/// Checks the stack the kernel runs on, given its stack pointer `sp`: the
/// current process's kernel stack (guard word intact, `sp` inside with
/// STACK_MARGIN to spare) or, before PID 1 and after it, the boot stack.
/// Called on every context switch and every trap taken in kernel mode (where
/// a deep kernel path shows up); a failure is a kernel bug, so an oops
/// (panic), never silent corruption of the heap.
pub fn check_kernel_stack(sp: usize) {
    let (bottom, top, guard_ok, pid) = match try_current() {
        Some(p) => (p.kstack.0.as_ptr() as usize, p.kstack_top(), p.kstack.guard_intact(), p.pid),
        None => {
            let (bottom, top) = arch::boot_stack_bounds();
            (bottom, top, true, 0)
        }
    };
    if !guard_ok || sp < bottom + STACK_MARGIN || sp > top {
        stack_overflow(pid, bottom, top, sp, guard_ok);
    }
}

/// `check_kernel_stack` for a trap from user mode, on every system call:
/// the stack pointer there is the top of the current process's kernel stack
/// less one trap frame, by construction (the entry code takes it from the
/// CPU's per-thread slot), so only the guard word can be wrong - overwritten
/// by an overflow during an earlier kernel entry that no check caught. One
/// load and a compare, where the full check costs ~25 instructions per trap.
#[inline(always)]
pub fn check_kernel_stack_guard() {
    if let Some(p) = try_current() {
        if !p.kstack.guard_intact() {
            let bottom = p.kstack.0.as_ptr() as usize;
            stack_overflow(p.pid, bottom, p.kstack_top(), arch::stack_pointer() as usize, false);
        }
    }
}

#[cold]
#[inline(never)]
fn stack_overflow(pid: u32, bottom: usize, top: usize, sp: usize, guard_ok: bool) -> ! {
    panic!(
        "kernel stack overflow: pid {} stack [{:#x}, {:#x}) sp {:#x}, guard word {}",
        pid,
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
    /// Stopped by SIGSTOP & co until SIGCONT.
    Stopped,
    /// Exited; the wait status waits for the parent.
    Zombie,
}

pub struct Process {
    pub pid: u32,
    pub ppid: u32,
    pub state: State,
    pub name: String,
    pub space: Option<AddressSpace>,
    pub files: FdTable,
    pub sig: SignalState,
    pub fp: FpState,
    /// Does this process's user state have live FP registers (MSR[FP])?
    pub fp_live: bool,
    /// Linux wait status word, valid once Zombie (or for stop/continue reports).
    pub wait_status: u32,
    /// A stop or continue not yet reported to the parent by a wait.
    pub report: Option<Event>,
    /// Process group, session, exec'd since fork (`group.rs`).
    pub job: JobIds,
    /// CPU time used and the timers counting it (see `crate::cputime`).
    pub cpu: CpuAccount,
    kstack: Box<KernelStack>,
    ksp: usize,
}

impl Process {
    fn kstack_top(&self) -> usize {
        self.kstack.0.as_ptr() as usize + KSTACK_SIZE
    }

    /// The user state saved when this process last entered the kernel.
    pub fn frame(&mut self) -> &mut TrapFrame {
        // SAFETY: the top of our own kernel stack always holds our user frame
        // while we are in the kernel or switched out.
        unsafe { &mut *arch::user_frame(self.kstack_top()) }
    }

    pub fn space(&mut self) -> &mut AddressSpace {
        self.space.as_mut().expect("a live process has an address space")
    }
}

struct Table {
    procs: BTreeMap<u32, Box<Process>>,
    runq: VecDeque<u32>,
    /// The running process (null during boot): a pointer into its Box in
    /// `procs`, so `current()` - called several times by every syscall - is
    /// one load instead of a tree search. The Box never moves, and a process
    /// is removed from `procs` only when another one reaps it, never while
    /// it runs.
    current: *mut Process,
    /// Zombies nobody will wait for (their parent ignores SIGCHLD): out of
    /// `procs`, so no lookup finds them, and freed by the next `schedule`
    /// that does not run on their kernel stack. Boxed, because `current`
    /// may still point at one: a process never moves.
    #[allow(clippy::vec_box)]
    detached: Vec<Box<Process>>,
    next_pid: u32,
    /// Where the boot thread's stack pointer goes when PID 1 starts.
    boot_ksp: usize,
}

static TABLE: KCell<Table> = KCell::new(Table {
    procs: BTreeMap::new(),
    runq: VecDeque::new(),
    current: core::ptr::null_mut(),
    detached: Vec::new(),
    next_pid: 1,
    boot_ksp: 0,
});

/// The running process.
pub fn current() -> &'static mut Process {
    try_current().expect("no current process")
}

/// The running process, if one has started (not during boot).
pub fn try_current() -> Option<&'static mut Process> {
    // SAFETY: null or a live boxed process (see `Table::current`).
    unsafe { TABLE.get().current.as_mut() }
}

pub fn get(pid: u32) -> Option<&'static mut Process> {
    // The caller itself (raise, getpid-style lookups) needs no tree search.
    if let Some(p) = try_current().filter(|p| p.pid == pid) {
        return Some(p);
    }
    TABLE.get().procs.get_mut(&pid).map(|b| &mut **b)
}

/// Every process, for signal broadcast and orphan re-parenting.
pub fn all() -> impl Iterator<Item = &'static mut Process> {
    TABLE.get().procs.values_mut().map(|b| &mut **b)
}

pub fn count() -> usize {
    TABLE.get().procs.len()
}

/// Creates a process around `space` that will enter user mode with `tf`.
fn create(
    ppid: u32,
    job: JobIds,
    name: String,
    space: AddressSpace,
    files: FdTable,
    sig: SignalState,
    tf: &TrapFrame,
) -> Result<u32, ()> {
    let t = TABLE.get();
    if t.procs.len() >= MAX_PROCS {
        return Err(());
    }
    let pid = loop {
        let p = t.next_pid;
        t.next_pid = if p >= 32767 { 2 } else { p + 1 };
        if !t.procs.contains_key(&p) {
            break p;
        }
    };
    let kstack = KernelStack::new();
    let mut p = Box::new(Process {
        pid,
        ppid,
        state: State::Runnable,
        name,
        space: Some(space),
        files,
        sig,
        fp: FpState::new(),
        fp_live: false,
        wait_status: 0,
        report: None,
        job,
        cpu: CpuAccount::default(),
        kstack,
        ksp: 0,
    });
    p.ksp = arch::new_thread(p.kstack_top(), tf);
    t.procs.insert(pid, p);
    t.runq.push_back(pid);
    Ok(pid)
}

/// Runs PID 1 from the initramfs on behalf of the boot thread, which sleeps
/// until `wait::exit` has ended PID 1 and every other process and switched
/// back here. Returns PID 1's wait status, with the process table empty.
pub fn run_init(path: &str, argv: &[&[u8]]) -> Result<u32, sigil_core::abi::Errno> {
    let envp: [&[u8]; 2] = [b"HOME=/", b"TERM=linux"];
    let (space, tf) = exec::load(path, argv, &envp)?;
    // Group and session 0, as Linux's init starts; it calls setsid itself.
    let job = JobIds::default();
    let pid =
        create(0, job, String::from(path), space, FdTable::console(), SignalState::new(), &tf)
            .map_err(|_| sigil_core::abi::Errno::EAGAIN)?;
    let t = TABLE.get();
    t.runq.clear();
    let p = get(pid).expect("just created");
    t.current = p;
    p.space().activate();
    arch::set_kernel_stack(p.kstack_top());
    // SAFETY: boot_ksp is a static slot; p.ksp came from new_thread.
    unsafe { arch::switch(&mut t.boot_ksp, p.ksp) };
    // Back from `back_to_boot`: PID 1's kernel stack is idle now, so it can go.
    let t = TABLE.get();
    t.current = core::ptr::null_mut();
    let init = t.procs.remove(&pid).expect("PID 1 in the table");
    // Empty containers keep their storage; give it back for the leak check.
    t.procs = BTreeMap::new();
    t.runq = VecDeque::new();
    t.detached = Vec::new();
    Ok(init.wait_status)
}

/// The end of PID 1 (called by `wait::exit` once everything else is gone):
/// resumes the boot thread in `run_init`. Never returns.
fn back_to_boot() -> ! {
    let t = TABLE.get();
    let p = current();
    // SAFETY: p.ksp lives in PID 1's Box, which run_init frees only after this
    // switch has saved into it; boot_ksp was saved by run_init's switch.
    unsafe { arch::switch(&mut p.ksp, t.boot_ksp) };
    unreachable!("PID 1 resumed after its end")
}

/// Makes `pid` runnable (if it still exists and is not a zombie).
pub fn make_runnable(pid: u32) {
    if let Some(p) = get(pid) {
        wake(p);
    }
}

/// Makes `p` runnable unless it is a zombie: `make_runnable` for a caller
/// that already holds the process (a signal's sender), saving a lookup.
pub fn wake(p: &mut Process) {
    if p.state != State::Zombie && p.state != State::Runnable {
        p.state = State::Runnable;
        TABLE.get().runq.push_back(p.pid);
    }
}

/// Wakes `pid` if it sleeps on `chan` (a poller's own channel: one lookup
/// instead of a pass over the table).
pub fn wake_sleeper(pid: u32, chan: usize) {
    if let Some(p) = get(pid).filter(|p| p.state == State::Sleeping(chan)) {
        wake(p);
    }
}

/// Wakes every process sleeping on `chan`: one pass over the table and no
/// allocation, since it runs on every pipe transfer and child exit.
pub fn wakeup(chan: usize) {
    let t = TABLE.get();
    for p in t.procs.values_mut() {
        if p.state == State::Sleeping(chan) {
            p.state = State::Runnable;
            t.runq.push_back(p.pid);
        }
    }
}

/// Blocks the current process on `chan` until woken. Returns early, with
/// `Err(())`, if a signal is pending that should interrupt the sleep.
pub fn sleep(chan: usize) -> Result<(), ()> {
    if crate::signal::interrupt_pending(current()) {
        return Err(());
    }
    current().state = State::Sleeping(chan);
    schedule();
    if crate::signal::interrupt_pending(current()) {
        Err(())
    } else {
        Ok(())
    }
}

/// Gives up the CPU but stays runnable (preemption, sched_yield).
pub fn yield_now() {
    let t = TABLE.get();
    if !t.runq.is_empty() {
        t.runq.push_back(current().pid);
        schedule();
    }
}

/// Takes zombie `pid` out of the table for good (auto-reaping): it can no
/// longer be found or waited for, and its memory goes once it is not running.
pub fn detach(pid: u32) {
    let t = TABLE.get();
    if let Some(p) = t.procs.remove(&pid) {
        t.detached.push(p);
    }
}

/// Runs the next runnable process. Returns when the current one runs again.
/// If nothing can run, waits for an interrupt (timer, console) to change that.
pub fn schedule() {
    let t = TABLE.get();
    if !t.detached.is_empty() {
        let me = t.current as *const Process;
        t.detached.retain(|p| core::ptr::eq(&**p, me));
    }
    loop {
        let t = TABLE.get();
        while let Some(pid) = t.runq.pop_front() {
            let Some(next) = get(pid).filter(|p| p.state == State::Runnable) else { continue };
            if pid != current().pid {
                switch_to(next);
            }
            return;
        }
        if current().state == State::Runnable {
            return;
        }
        crate::dev::timer::idle();
    }
}

fn switch_to(next: &'static mut Process) {
    check_kernel_stack(arch::stack_pointer() as usize);
    let t = TABLE.get();
    let prev = current();
    crate::cputime::switch_out(prev);
    if prev.fp_live {
        arch::fp_save(&mut prev.fp);
        prev.frame().msr &= !arch::MSR_FP;
        prev.fp_live = false;
    }
    t.current = &mut *next;
    if let Some(s) = next.space.as_ref() {
        s.activate();
    }
    arch::set_kernel_stack(next.kstack_top());
    // SAFETY: prev.ksp lives in prev's Box, valid until prev is reaped;
    // next.ksp came from new_thread or an earlier switch.
    unsafe { arch::switch(&mut prev.ksp, next.ksp) };
}

/// fork/clone(SIGCHLD): a copy of the current process. Returns the child's pid.
pub fn fork() -> Result<u32, sigil_core::abi::Errno> {
    use sigil_core::abi::Errno;
    let parent = current();
    if count() >= MAX_PROCS {
        return Err(Errno::EAGAIN);
    }
    let space = parent.space().fork().map_err(|_| Errno::ENOMEM)?;
    let mut tf = parent.frame().clone();
    tf.gpr[3] = 0;
    tf.cr &= !arch::CR0_SO;
    if parent.fp_live {
        arch::fp_save(&mut parent.fp);
    }
    tf.msr &= !arch::MSR_FP;
    let fp = parent.fp.clone();
    let files = parent.files.clone();
    let sig = parent.sig.fork();
    let name = parent.name.clone();
    let job = parent.job.fork();
    let pid = create(parent.pid, job, name, space, files, sig, &tf).map_err(|_| Errno::EAGAIN)?;
    get(pid).expect("just created").fp = fp;
    Ok(pid)
}
