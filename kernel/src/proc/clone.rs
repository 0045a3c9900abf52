//! fork, vfork and clone: a new process or a new thread of the caller's
//! group, which shares or copies each of the caller's address space,
//! descriptor table, fs state and handlers as the flags say (a thread has
//! its own registers, stack, mask and pending set whatever they say). Which
//! one the flags ask for, and which combinations are refused, is
//! `sigil_core::clone::check`.
//!
//! vfork is Linux's: the child runs in its parent's memory (one `Space`,
//! two holders) while the parent sleeps in `vfork_wait`, so what the child
//! stores before it execs or exits - glibc's posix_spawn child stores its
//! exec error in the parent's `args.err` - the parent then reads. The
//! child's exec gives it a new space and drops its hold on the old one,
//! which the parent keeps; its exit drops it too. Either wakes the parent
//! (`vfork_done`), a fatal signal or fault included, since those end the
//! child through the same exit. The wait is per task, as Linux's
//! `vfork_done` is: a thread made with CLONE_VFORK holds its caller until
//! that thread exits, even if its process goes on.
//!
//! Called from the syscall layer with the caller's live `TrapFrame`: the
//! child starts as a copy of it, with r3 = 0.

use sigil_core::abi::Errno;
use sigil_core::clone::{self as rules, CloneKind, Shares};

use alloc::rc::Rc;

use super::share::{self, share_or_copy};
use super::{alloc_id, create, current, group, spawn_thread, State, TABLE};
use crate::arch::{self, Arch, Context, TrapFrame};
use crate::kcell::KCell;
use crate::uaccess::put_user;

/// clone's pointer arguments (ppc32 order: flags, newsp, ptid, tls, ctid).
pub struct CloneArgs {
    pub flags: u32,
    pub newsp: u32,
    pub ptid: u32,
    pub tls: u32,
    pub ctid: u32,
}

/// The child's first registers: the caller's, returning 0 from the call,
/// on `newsp` if one was given.
fn child_frame(tf: &TrapFrame, newsp: u32) -> TrapFrame {
    let mut c = tf.clone();
    c.set_success(0);
    c.disable_fp();
    if newsp != 0 {
        c.set_sp(newsp);
    }
    c
}

/// The caller's FP registers, saved if they are live in the FPU.
fn caller_fp() -> arch::FpState {
    let me = current();
    if me.fp_live {
        Arch::fp_save(&mut me.fp);
    }
    me.fp.clone()
}

/// fork(), vfork() and clone(): returns the child's id to the caller.
pub fn clone(tf: &TrapFrame, a: CloneArgs) -> Result<u32, Errno> {
    let rules::Plan { kind, shares, vfork } = rules::check(a.flags, group().pid == 1)?;
    let mut ctf = child_frame(tf, a.newsp);
    if a.flags & rules::CLONE_SETTLS != 0 {
        ctf.set_tls(a.tls);
    }
    let id = match kind {
        CloneKind::Thread => new_thread(&ctf, shares, vfork)?,
        CloneKind::Process { share_vm, .. } => new_process(&ctf, share_vm, vfork, shares)?,
    };
    // The new task has not run yet: its memory is ours (a thread, CLONE_VM)
    // or a copy taken before these stores (fork), as Linux's order has it:
    // CHILD_SETTID is written in the child's memory, PARENT_SETTID in ours.
    // Linux ignores a bad pointer here (the child exists by then).
    if a.flags & rules::CLONE_PARENT_SETTID != 0 {
        let _ = put_user(a.ptid, id);
    }
    let child = super::thread(id).expect("just created");
    if a.flags & rules::CLONE_CHILD_CLEARTID != 0 {
        child.clear_child_tid = a.ctid;
    }
    if a.flags & rules::CLONE_CHILD_SETTID != 0 {
        write_child_tid(child.group(), a.ctid, id);
    }
    if vfork {
        vfork_wait(id);
    }
    Ok(id)
}

/// CLONE_CHILD_SETTID: the child's id at `ctid` in the child's memory
/// (ours, for a thread or a CLONE_VM child). A bad pointer is ignored, as in
/// Linux (the child would fault on it).
///
/// Linux's child stores the id itself (`schedule_tail`'s `put_user`), so
/// memory the child may not write stays as it is. `write_bytes` writes
/// whatever the protection, so the store is made only where the child's
/// areas allow it: a read-only page's frame may be the parent's, which
/// fork shared, or a file's opened read-only and mapped shared.
fn write_child_tid(g: &mut super::Group, ctid: u32, id: u32) {
    let ours = group().space.as_ref();
    if g.space.as_ref().zip(ours).is_some_and(|(a, b)| Rc::ptr_eq(a, b)) {
        let _ = put_user(ctid, id);
    } else if let Some(space) = g.try_space() {
        let writable =
            |ea: Option<u32>| ea.and_then(|ea| space.area(ea)).is_some_and(|a| a.prot.write);
        if writable(Some(ctid)) && writable(ctid.checked_add(3)) {
            let _ = space.write_bytes(ctid, &id.to_be_bytes());
        }
    }
}

/// The descriptor table and fs state of a new task: the caller's own, or
/// copies, as `shares` says (ENOMEM if the heap has no room for them).
fn held(shares: Shares) -> Result<(share::Files, share::Fs), Errno> {
    let me = current();
    let files = me.files.as_ref().expect("a live thread has a descriptor table");
    let fs = me.fs.as_ref().expect("a live thread has an fs state");
    Ok((share_or_copy(files, shares.files)?, share_or_copy(fs, shares.fs)?))
}

/// A thread of the caller's group.
fn new_thread(tf: &TrapFrame, shares: Shares, vfork: bool) -> Result<u32, Errno> {
    let t = TABLE.get();
    if t.threads.len() >= super::MAX_THREADS {
        return Err(Errno::EAGAIN);
    }
    let me = current();
    let g = me.group();
    if g.exit.is_some() {
        // The group is dying: Linux's copy_process answers EINTR.
        return Err(Errno::EINTR);
    }
    let fp = caller_fp();
    let tid = alloc_id();
    let mut sig = me.sig.for_child(true, vfork);
    // What the group has pending is the new thread's to look at too
    // (`sigstate::group_work`).
    sig.work = g.sig.work;
    spawn_thread(tid, me.group.clone(), held(shares)?, sig, fp, tf)?;
    Ok(tid)
}

/// A new process: the address space, descriptors, fs state and handlers
/// shared (one more holder of ours) or copied, as `share_vm` and `shares`
/// say; only the calling thread is copied (POSIX fork in a threaded process).
fn new_process(tf: &TrapFrame, share_vm: bool, vfork: bool, shares: Shares) -> Result<u32, Errno> {
    let g = group();
    if super::count() >= super::MAX_PROCS {
        return Err(Errno::EAGAIN);
    }
    let space = match &g.space {
        Some(ours) if share_vm => ours.clone(),
        _ => crate::mm::heap::rc(KCell::new(g.space().fork()?))?,
    };
    let fp = caller_fp();
    let sig = (g.sig.fork(shares.sighand)?, current().sig.for_child(share_vm, vfork));
    create(Some(g), g.name.clone(), space, held(shares)?, sig, fp, tf)
}

/// CLONE_VFORK: the caller sleeps until the child execs or exits
/// (`vfork_done`), signals held off as Linux does (the sleep is killable only).
fn vfork_wait(child: u32) {
    let me = current().tid;
    let Some(t) = super::thread(child) else { return };
    t.vfork_parent = Some(me);
    while super::thread(child).is_some_and(|t| t.vfork_parent == Some(me)) {
        if group().exit.is_some() {
            break;
        }
        current().state = State::Sleeping(vfork_chan(me));
        super::schedule();
    }
}

fn vfork_chan(tid: u32) -> usize {
    super::Chan::Vfork.of(tid)
}

/// The child of a vfork has exec'd or exited: its parent runs again.
pub fn vfork_done(t: &mut super::Thread) {
    if let Some(tid) = t.vfork_parent.take() {
        super::wakeup(vfork_chan(tid));
    }
}
