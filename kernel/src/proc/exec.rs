//! What execve changes in the process itself, for `fs::exec`, which reads
//! the program and builds its `Image`: the other threads end and the
//! caller takes the PID (`de_thread`), then the process runs in the new
//! address space under the new name, its FP state and restart block gone,
//! as Linux's `de_thread`, `exec_mmap` and `__set_task_comm` in
//! begin_new_exec. Exec's changes to the descriptor table and the signal
//! handlers are fs's and signal's, made by `fs::exec` after this.

use alloc::string::String;
use core::ops::Range;

use sigil_core::abi::Errno;

use crate::arch::{FpState, TrapFrame};
use crate::kcell::KCell;
use crate::mm::space::AddressSpace;

/// A program ready to run, as `fs::exec::load` makes it.
pub struct Image {
    pub space: AddressSpace,
    /// The first user registers.
    pub tf: TrapFrame,
    /// The program's absolute path (/proc/<pid>/exe).
    pub exe: String,
    /// Where its argv and envp strings went on the new stack, for /proc:
    /// the argv it runs with (an interpreter's, for a script).
    pub args: Range<u32>,
    pub env: Range<u32>,
}

/// The current process becomes `image`, exec'd as `path` (its name comes
/// from there), once its other threads are gone; on success the caller's
/// live frame `tf_out` holds the new program's first registers. EAGAIN
/// (nothing changed but the other threads' end) if the group is ending.
pub fn become_image(tf_out: &mut TrapFrame, image: Image, path: &str) -> Result<(), Errno> {
    let Image { space, tf, exe, args, env } = image;
    let space = crate::mm::heap::rc(KCell::new(space))?;
    de_thread()?;
    let t = super::current();
    let g = t.group();
    space.get().activate();
    // The old space goes with this process's hold on it: freed here, or
    // kept by the parent of a vfork child (which `clone::vfork_done` wakes
    // at the end of the exec).
    g.space = Some(space);
    g.name = exe;
    g.shown.exec(path, args, env);
    t.fp_live = false;
    t.fp_used = false;
    t.fp_unchecked = false;
    t.fp = FpState::new();
    t.restart = None;
    *tf_out = tf;
    // pgid and sid stay: they are the group's, and the group goes on.
    g.job.execed = true;
    g.cred = g.cred.exec();
    Ok(())
}

/// The point of no return of an exec in a threaded process (Linux
/// `de_thread`): every other thread is killed and waited for, and the caller
/// takes over the leader's id, so the process keeps its PID. If the group is
/// ending (already, or by a SIGKILL meanwhile), the exec fails with EAGAIN
/// as Linux's does, and the caller leaves with the group on its way back to
/// user mode (`sigstate::doomed`); returning, not exiting here, lets execve's
/// buffers and the new address space be dropped.
fn de_thread() -> Result<(), Errno> {
    let me = super::current().tid;
    let g = super::group();
    if g.exit.is_some() {
        return Err(Errno::EAGAIN);
    }
    if g.threads.len() > 1 {
        g.exit = Some(sigil_core::abi::wait_status::signaled(sigil_core::abi::SIGKILL, false));
        g.exec_tid = Some(me);
        super::sigstate::group_work(g);
        g.stop = None;
        for t in g.members().filter(|t| t.tid != me) {
            super::wake(t);
        }
        while super::group().threads.len() > 1 {
            if super::group().exec_tid != Some(me) {
                // SIGKILL arrived meanwhile: the exec dies with the rest.
                return Err(Errno::EAGAIN);
            }
            super::current().state = super::State::Sleeping(exec_chan(me));
            super::schedule();
        }
        let g = super::group();
        g.exit = None;
        g.exec_tid = None;
    }
    super::take_over_pid();
    Ok(())
}

fn exec_chan(tid: u32) -> usize {
    super::Chan::Exec.of(tid)
}
