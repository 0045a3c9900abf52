//! The signal state a thread and a process carry (`ThreadSignals`,
//! `GroupSignals`, the shared `Handlers`), and the questions about it that
//! need no generation: is there work for the way back to user mode
//! (`work_pending`), is the thread's group ending (`doomed`), should a sleep
//! end (`interrupt_pending`, which `sleep` asks).
//!
//! The state lives with the processes, below the signal code that uses it,
//! as Linux keeps `sighand_struct`, `signal_struct`'s pending set and the
//! task's `blocked`/`pending` in include/linux/sched/signal.h, under
//! kernel/signal.c: `Thread` and `Group` hold it as fields, so the process
//! layer must know its types, while generating, queueing rules, delivery
//! and sigreturn stay in the signal layer above (signal/), which reads and
//! writes these fields. It is not in sigil-core: the handlers are a kernel-shared object
//! (`Rc<KCell<..>>`, like the address space), and fork and exec share or
//! copy them the way `share.rs` does the files. The pure parts (sets, the
//! sigqueue, actions, the alternate stack) are sigil-core's already.

use sigil_core::abi::Errno;
use sigil_core::signal::{AltStack, Disposition, SigAction, SigPending, SigSet, Signal};

use super::{Group, Thread};
use crate::kcell::KCell;

/// A thread's own signal state.
pub struct ThreadSignals {
    /// Signals sent to this thread (tgkill, faults).
    pub pending: SigPending,
    pub blocked: SigSet,
    pub altstack: AltStack,
    /// The mask to restore after the handler that ended a wait with a
    /// temporary mask (rt_sigsuspend, ppoll, pselect6; Linux's `saved_sigmask`).
    pub saved_mask: Option<SigSet>,
    /// The signals a sigtimedwait in this thread is taking (Linux's
    /// real_blocked trick): such a signal is not fatal to the group.
    pub waiting: SigSet,
    /// "Maybe something to do" on the way back to user mode (Linux's
    /// TIF_SIGPENDING and TIF_RESTORE_SIGMASK, coarser): set when a signal is
    /// queued on `pending`, when a system call returns a restart code
    /// (`signal::note_restart`) and when a wait leaves a saved mask for it
    /// (`save_mask` says when); cleared by `signal::recalc` only when
    /// `pending` is empty; and set on every member whenever the group's
    /// flag is (`group_work`), kept by `recalc` while that holds. So a
    /// return to user mode tests this one flag, and with it clear skips the
    /// signal code, the restart and the mask restore; mask changes need not
    /// touch it (a blocked signal keeps it set). The tick sets it too when the slice is over
    /// (`trap::timer_tick`), so the same test covers the reschedule.
    pub work: bool,
}

impl ThreadSignals {
    pub fn new() -> ThreadSignals {
        ThreadSignals {
            pending: SigPending::new(),
            blocked: SigSet::EMPTY,
            altstack: AltStack::default(),
            saved_mask: None,
            waiting: SigSet::EMPTY,
            work: false,
        }
    }

    /// A new task's (fork, vfork, clone): the creator's mask, nothing
    /// pending, and its alternate stack unless the task runs beside the
    /// creator in the same memory (CLONE_VM without CLONE_VFORK, as Linux's
    /// copy_process clears it): two tasks must not take signals on one stack.
    pub fn for_child(&self, share_vm: bool, vfork: bool) -> ThreadSignals {
        let altstack = if share_vm && !vfork { AltStack::default() } else { self.altstack };
        ThreadSignals { blocked: self.blocked, altstack, ..ThreadSignals::new() }
    }

    /// A wait with a temporary mask (rt_sigsuspend, ppoll, pselect6): the
    /// current mask is kept for the return to user mode, which puts it back
    /// after the handler's frame has recorded it. The work flag is not set
    /// here but by the wait's interrupted return (the restart code's
    /// `signal::note_restart`, or `syscall::poll::with_mask`): set before the
    /// sleep, it would send the sleep's `interrupt_pending` through the full
    /// test of both sets, where a clear flag alone says that nothing is
    /// pending, whatever the mask. Between the two, nothing returns to user
    /// mode, so nothing looks at the saved mask.
    pub fn save_mask(&mut self, temporary: SigSet) {
        self.saved_mask = Some(self.blocked);
        self.blocked = temporary;
    }

    /// execve: the alt stack is gone.
    pub fn exec(&mut self) {
        self.altstack = AltStack::default();
    }

    /// The thread exited: drop what was pending (frees the nodes).
    pub fn flush(&mut self) {
        self.pending.flush_all();
    }
}

/// The signal handlers, shared by the threads of a group and by processes
/// made with CLONE_VM | CLONE_SIGHAND (Linux's `sighand_struct`). Linux
/// hangs it off each task, but CLONE_THREAD needs CLONE_SIGHAND, so every
/// thread of a group holds the same one, and holding it once per group is
/// the same thing (one load less on delivery than going through the thread).
pub type Handlers = alloc::rc::Rc<KCell<[SigAction; 64]>>;

/// A process's own copy of the actions (fork without CLONE_SIGHAND, exec
/// of a process that shared them): plain data, so only the `Rc` can fail.
impl super::share::TryClone for [SigAction; 64] {
    fn try_clone(&self) -> Result<Self, Errno> {
        Ok(*self)
    }
}

/// What a thread group shares.
pub struct GroupSignals {
    /// Signals sent to the process (Linux's `signal_struct` pending set).
    pub shared: SigPending,
    pub actions: Handlers,
    /// The group's half of `ThreadSignals::work`: set when a signal is
    /// queued on `shared` and when the group starts stopping or ending
    /// (`Group::stop`, `Group::exit`), always with every member's flag
    /// (`group_work`, which generation's `complete_process` calls too);
    /// cleared by `signal::recalc` when none holds.
    pub work: bool,
}

impl GroupSignals {
    pub fn new() -> GroupSignals {
        let actions = alloc::rc::Rc::new(KCell::new([SigAction::default(); 64]));
        GroupSignals { shared: SigPending::new(), actions, work: false }
    }

    #[inline(always)]
    pub fn action(&mut self, sig: Signal) -> &mut SigAction {
        &mut self.actions.get()[sig.number() as usize - 1]
    }

    /// A new process's: the same handlers if `share` (CLONE_SIGHAND), else
    /// a copy (ENOMEM if the heap has no room for it); nothing pending.
    pub fn fork(&self, share: bool) -> Result<GroupSignals, Errno> {
        Ok(GroupSignals {
            shared: SigPending::new(),
            actions: super::share::share_or_copy(&self.actions, share)?,
            work: false,
        })
    }

    /// Does another process hold these handlers (CLONE_SIGHAND)?
    pub fn handlers_shared(&self) -> bool {
        alloc::rc::Rc::strong_count(&self.actions) > 1
    }

    /// execve: handlers reset to default (ignored stay ignored), in a copy
    /// of their own first if another process shared them (Linux's
    /// `de_thread`), so the reset is not the other's; ENOMEM, and nothing
    /// reset, if the heap has no room for that copy.
    pub fn exec(&mut self) -> Result<(), Errno> {
        super::share::unshare(&mut self.actions)?;
        for a in self.actions.get().iter_mut() {
            if a.disposition() != Disposition::Ignore {
                *a = SigAction::default();
            }
        }
        Ok(())
    }

    /// The process ended: drop what was pending (frees the nodes).
    pub fn flush(&mut self) {
        self.shared.flush_all();
    }
}

/// The group has work for its threads' way back to user mode (a signal on
/// `shared`, a stop, an exit): its flag, and every member's, so that the
/// return tests one flag, the thread's, with no load of the group (Linux
/// tests one word of thread flags there too). A thread another one made
/// later takes the group's flag at `clone`. A member whose own `recalc`
/// finds nothing for it after another took the signal clears it there: a
/// spurious visit to `check_pending`, once.
pub fn group_work(g: &mut Group) {
    g.sig.work = true;
    for t in g.members() {
        t.sig.work = true;
    }
}

/// Is something for `t` to act on at the next return to user mode: a
/// deliverable signal on either set, or its group ending or stopping?
/// (`sleep` asks it, through `interrupt_pending`, before and after
/// blocking; the way out to user mode finds the same answer by trying:
/// `signal::check_pending`.)
#[inline]
pub fn work_pending(t: &Thread, g: &Group) -> bool {
    let pending = t.sig.pending.pending().union(g.sig.shared.pending());
    !pending.without(t.sig.blocked).is_empty() || g.stop.is_some() || doomed(t, g)
}

/// Is `t` to leave because its group is ending (exit_group, a fatal signal,
/// another thread's exec)?
pub fn doomed(t: &Thread, g: &Group) -> bool {
    g.exit.is_some() && g.exec_tid != Some(t.tid)
}

/// Should an interruptible sleep end (Linux `signal_pending` as
/// `schedule`'s callers ask it)? The work flag first: clear, it says that
/// nothing is pending on either set and the group neither stops nor ends
/// (`ThreadSignals::work`: `recalc` clears it only then, and whatever
/// changes that sets it), the same promise the return to user mode relies
/// on. So a sleep with no signal about (a futex wait, a pipe read) pays a
/// byte's test, not the sets' union and the group's loads, before and
/// after it blocks.
#[inline]
pub fn interrupt_pending(t: &mut Thread) -> bool {
    t.sig.work && work_pending(t, t.group())
}
