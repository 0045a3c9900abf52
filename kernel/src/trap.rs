//! Generic trap handling: what each kind of exception means to the kernel.
//!
//! The arch's entry code calls `trap_dispatch` with the saved `TrapFrame`
//! (a symbol, so the layer below names nothing above it). A system call from
//! user mode does not come here: the entry code calls its handler from the
//! system call table (kernel/src/syscall/mod.rs says how), and comes here
//! only for the work a set work flag asks for (`work_before_user`). Anything
//! else the arch decodes into an `Exception` for `handle`. User faults
//! become signals; kernel faults on user memory are resolved (page reload,
//! demand-zero) or fixed up inside an open `UserWindow`; anything else in
//! kernel mode is an oops: registers, fault address, backtrace, and a
//! non-zero exit so no test ever hangs on a dead kernel.

use core::sync::atomic::Ordering;

use sigil_core::abi;

use crate::arch::{self, Arch, Context, Exception, TrapFrame, UserAccess};
use crate::mm::space::Fault;
use crate::mm::TASK_SIZE;
use crate::time::{cputime, timer, timers};
use crate::{proc, signal, syscall, uaccess};

/// The first Rust code of every exception but a user system call
/// (entry.S: `bl trap_dispatch`): the arch decodes it, `handle` (out of
/// line) saves the registers the rare cases need.
#[no_mangle]
extern "C" fn trap_dispatch(tf: &mut TrapFrame) {
    let event = arch::exception(tf, |a| uaccess::get_user::<u32>(a).ok());
    handle(tf, event);
}

/// Every other exception, from user or kernel mode (a user `sc` too, if an
/// arch's entry code does not call the system call table itself).
#[inline(never)]
fn handle(tf: &mut TrapFrame, event: Exception) {
    // The stack check: whole in kernel mode, where a nested trap finds a deep
    // stack; from user mode the stack is empty and only the guard can be hit.
    if tf.is_user() {
        proc::check_kernel_stack_guard();
        // No KUAP save/lock/restore: user mode always runs locked (a
        // UserWindow lives inside one kernel call and closes before the
        // return to user mode), so there is nothing to save. Linux's ppc32
        // `interrupt_enter_prepare` likewise only saves for kernel-mode
        // interrupts.
        user_exception(tf, event);
        return_to_user(tf, proc::current());
    } else {
        proc::check_kernel_stack(arch::stack_pointer() as usize);
        // A kernel trap can land inside an open window (a fault on the user
        // page it touches, a timer tick): lock for the handler, reopen after.
        let kuap = Arch::save_and_close();
        kernel_trap(tf, event);
        Arch::restore(kuap);
    }
}

#[inline(never)]
fn user_exception(tf: &mut TrapFrame, event: Exception) {
    match event {
        Exception::Syscall => syscall::entry(tf),
        Exception::Timer => timer_tick(true),
        Exception::External => crate::dev::irq(),
        Exception::PageFault { ea, write, missing, .. } => {
            match if missing { fault_in(proc::group(), ea, write) } else { Err(Fault::Bad) } {
                Ok(()) => {}
                // No frame left for a legal access: what Linux's OOM killer
                // does, aimed at the process that asked.
                Err(Fault::NoMem) => signal::out_of_memory(ea),
                Err(Fault::Bad) => segv(tf, ea),
                // A shared file mapping's page past the end of the file.
                Err(Fault::Bus) => signal::force_fault(tf, abi::SIGBUS, abi::BUS_ADRERR, ea),
            }
        }
        Exception::FpUnavailable if crate::fpemu::active() => {
            // The emulated registers live in `fp` itself. What the
            // instruction does may leave them initial (glibc's setjmp
            // stores all 32 unchanged), so `fp_settle` checks before a
            // frame, as it does after a real FPU's state is saved.
            let p = proc::current();
            p.fp_used = true;
            p.fp_unchecked = true;
            crate::fpemu::emulate(tf)
        }
        Exception::FpUnavailable => {
            let p = proc::current();
            Arch::fp_load(&p.fp);
            p.fp_live = true;
            p.fp_used = true;
            tf.enable_fp();
        }
        Exception::IllegalInstruction => {
            signal::force_fault(tf, abi::SIGILL, abi::ILL_ILLOPC, tf.pc())
        }
        Exception::PrivilegedInstruction => {
            let insn = uaccess::get_user::<u32>(tf.pc()).unwrap_or(0);
            if !arch::emulate_privileged(tf, insn) {
                signal::force_fault(tf, abi::SIGILL, abi::ILL_PRVOPC, tf.pc());
            }
        }
        Exception::TrapInstruction => {
            signal::force_fault(tf, abi::SIGTRAP, abi::TRAP_BRKPT, tf.pc())
        }
        Exception::FpEnabled => signal::force_fault(tf, abi::SIGFPE, abi::FPE_FLTINV, tf.pc()),
        Exception::Alignment { ea } => signal::force_fault(tf, abi::SIGBUS, abi::BUS_ADRALN, ea),
        Exception::Trace => signal::force_fault(tf, abi::SIGTRAP, abi::TRAP_TRACE, tf.pc()),
        Exception::Unexpected => signal::force_fault(tf, abi::SIGILL, abi::ILL_ILLOPC, tf.pc()),
    }
}

/// Resolves process `g`'s fault at `ea` (`AddressSpace::fault`), taken in
/// user mode or by the kernel inside a window on its behalf. A fresh page
/// put in counts as a minor fault (/proc/<pid>/stat, getrusage), as Linux's
/// `min_flt`. A process that has ended has no memory to fault in: Bad.
fn fault_in(g: &mut proc::Group, ea: u32, write: bool) -> Result<(), Fault> {
    let filled = g.try_space().ok_or(Fault::Bad)?.fault(ea, write)?;
    g.cpu.own.minflt += filled as u64;
    Ok(())
}

/// A user access to `ea` the MMU refused for good: SIGSEGV, with the code
/// saying whether anything is mapped there.
pub fn segv(tf: &TrapFrame, ea: u32) {
    let code =
        if proc::group().space().area(ea).is_some() { abi::SEGV_ACCERR } else { abi::SEGV_MAPERR };
    signal::force_fault(tf, abi::SIGSEGV, code, ea);
}

/// The decrementer fired (in user mode if `from_user`). The time layer
/// samples the running thread's CPU time and runs the deadline queue; it
/// says what expired, and here, above the scheduler and the signal code,
/// the sleeper is woken and the timer's signal sent.
fn timer_tick(from_user: bool) {
    let ticks = timer::now_ticks();
    let now = timer::ns_at(ticks);
    // Before the wake-ups below: a sample point passed while idle saw none.
    crate::time::loadavg::sample(now, proc::runnable_count);
    let cur = proc::try_current();
    let pid = cur.as_ref().map(|t| t.group().pid);
    let expired = cputime::tick(from_user, ticks, cur.map(proc::Thread::charged));
    if let (Some(pid), Some(e)) = (pid, expired) {
        signal::timer::cpu_timers_expired(pid, e);
        // Only a sampled thread's clocks moved: its process's CPU-time
        // POSIX timers, and sleepers on its CPU clocks, are due now or not
        // at all.
        if let Some(t) = proc::try_current() {
            let g = t.group();
            for ts in timers::cpu_sample(g.pid, t.tid, g.cpu.prof_clock(), t.cpu_ns) {
                signal::timer::queue_timer_signal(g.pid, ts);
            }
            proc::wake_cpu_sleepers(t);
        }
    }
    timer::tick(now, |due| match due {
        timer::Event::Wake(tid) => proc::make_runnable(tid),
        timer::Event::Timer(pid, which) => {
            if let Some(e) = timers::expire(pid, which) {
                signal::timer::timer_expired(pid, e);
            }
        }
        timer::Event::TimerFd(id) => crate::event::timerfd::expired(id),
    });
    // The slice is over: the running thread's way back to user mode looks
    // (`return_to_user` tests only its work flag). The kernel runs with
    // interrupts off, so this cannot land between a test and a store of
    // the flag. A request whose thread switched away before it reached
    // user mode goes to whichever runs at the next tick; one from a tick
    // taken while idle is dropped when idle ends (`timer::idle`).
    if timer::NEED_RESCHED.load(Ordering::Relaxed) {
        if let Some(t) = proc::try_current() {
            t.sig.work = true;
        }
    }
}

/// The last thing before user mode from any trap but a system call, whose
/// handler hands the same flag to the entry code for the same test
/// (`syscall::finish`; entry.S's `syscall_entry` then calls
/// `work_before_user`): one test of one flag, the thread's work flag
/// (`ThreadSignals::work`, Linux's `_TIF_USER_WORK_MASK` test): a signal
/// to look at, a restart code, a saved mask, the group's work and the
/// tick's reschedule all set it. Everything else is behind it.
#[inline(always)]
fn return_to_user(tf: &mut TrapFrame, t: &proc::Thread) {
    if t.sig.work {
        work_before_user(tf);
    }
}

/// `return_to_user` with work: take the CPU's turn (preemption) if the tick
/// asked for it, then deliver pending signals, finish an interrupted
/// syscall's restart and put a saved mask back (`signal::check_pending`,
/// which clears the flag when nothing is left). Out of line: its registers
/// are not saved by every return. A symbol: a system call's entry code
/// calls it when the handler returned the flag set.
///
/// The thread is `proc::running()`, without `current()`'s null test: a trap
/// from user mode always has a running thread (kernel/src/syscall/mod.rs,
/// `finish`, says why that holds across a system call too).
#[no_mangle]
extern "C" fn work_before_user(tf: &mut TrapFrame) {
    // SAFETY: a running thread, as above; no other reference to it is live
    // here (`return_to_user`'s ended with its test).
    let t = unsafe { &mut *proc::running() };
    // A plain load first: an atomic swap is a lwarx/stwcx. loop.
    let t = if timer::NEED_RESCHED.load(Ordering::Relaxed) {
        timer::NEED_RESCHED.store(false, Ordering::Relaxed);
        proc::yield_now();
        // What ran meanwhile changed the thread through its own reference.
        proc::current()
    } else {
        t
    };
    signal::check_pending(tf, t);
}

#[inline(never)]
fn kernel_trap(tf: &mut TrapFrame, event: Exception) {
    match event {
        Exception::Timer => timer_tick(false),
        Exception::External => crate::dev::irq(),
        Exception::PageFault { ea, write, missing, .. } if ea < TASK_SIZE => {
            // A user page the kernel touches inside a window, on the
            // process's behalf: its fault counts as the process's.
            if let Some(g) = proc::try_current().map(|p| p.group()).filter(|_| missing) {
                if fault_in(g, ea, write).is_ok() {
                    return;
                }
            }
            if uaccess::fixup(ea) {
                arch::skip_faulted_access(tf, ea);
                return;
            }
            if write && !Arch::write_allowed(ea) {
                oops("KUAP violation: kernel write to user memory outside a UserWindow", tf);
            }
            oops("kernel access to a bad user address", tf);
        }
        _ => oops("unexpected exception in kernel mode", tf),
    }
}

/// A kernel bug: print everything and stop the machine with status 255.
pub fn oops(what: &str, tf: &TrapFrame) -> ! {
    crate::console::print_always(format_args!("\nSIGIL OOPS: {}\n", what));
    arch::dump(tf);
    crate::console::exit(255)
}
