//! What a thread holds that other tasks may share: its descriptor table
//! (Linux's `files_struct`) and its working directory and umask
//! (`fs_struct`), each a separately counted object (`Rc<KCell<..>>`, as the
//! address space's `Space`); and unshare(2), which gives the caller its own
//! copy of either. Both types are fs's, as Linux's are fs/'s, and proc
//! names neither: it declares them, as sched.h declares `struct
//! files_struct;` without defining it, as the associated types of `Held`,
//! and fs says what they are (`impl Held for Kernel` in fs/mod.rs). The
//! compiler resolves the names at build time, so a thread's table is the
//! same `Rc` of the same type as if proc named fs: no indirection, no
//! run-time check. proc only shares, copies and drops them.
//!
//! Linux hangs both off the task, not the thread group: pthread_create
//! shares them (CLONE_FILES | CLONE_FS), but a thread may have its own, and
//! two processes may share them (`sigil_core::clone` has the flag rules).
//! So here too they are `Thread` fields. An open, close or dup in one
//! holder of a table is seen by every other; so is a chdir or umask in one
//! holder of an fs state. A copy is a new object: fork's, a clone without
//! the flag, unshare's, and exec's of a table still shared with another
//! process (`unshare_files`, Linux's, before the close-on-exec pass, so
//! that pass cannot close the other holder's descriptors).
//!
//! # Invariants
//! - A live thread holds one of each (`Some`); `exit` drops both (Linux's
//!   `exit_files`, `exit_fs`), so a table's files close when its last
//!   holder ends, not when the thread's Box is freed later.
//! - The `&mut` a holder hands out is valid until the next context switch,
//!   as every borrow of process state (`proc` invariants): another holder
//!   may change the table meanwhile.
//! - /proc/<pid>/fd shows the process's oldest live thread's table (the
//!   leader's while it lives), as Linux's /proc/<pid> is its leader's.

use alloc::rc::Rc;

use sigil_core::abi::Errno;
use sigil_core::clone::{check_unshare, UnshareCaller};

use super::{current, Group, Thread};
use crate::kcell::KCell;

/// What a thread holds that a higher layer defines: the types are declared
/// here and defined by fs (`impl Held for Kernel`), so proc can hold,
/// share, copy and drop them without naming fs, and the compiler checks
/// that fs defines both.
pub trait Held {
    /// The descriptor table (Linux's `files_struct`).
    type FdTable: TryClone;
    /// The working directory and umask (Linux's `fs_struct`).
    type FsState: TryClone;
}

/// The kernel, whose `Held` types fs defines; no value of it exists.
pub enum Kernel {}

/// fs's descriptor table, by its declared name.
type FdTable = <Kernel as Held>::FdTable;
/// fs's working directory and umask, by their declared name.
type FsState = <Kernel as Held>::FsState;

/// A descriptor table as threads hold it.
pub type Files = Rc<KCell<FdTable>>;

/// An fs state as threads hold it.
pub type Fs = Rc<KCell<FsState>>;

/// A copy that the heap may refuse (ENOMEM): how a holder's own copy of a
/// shared object is made (a descriptor table's entries are a heap list).
pub trait TryClone: Sized {
    fn try_clone(&self) -> Result<Self, Errno>;
}

/// `ours` in a new object of its own, or ENOMEM.
fn copy<T: TryClone>(ours: &Rc<KCell<T>>) -> Result<Rc<KCell<T>>, Errno> {
    crate::mm::heap::rc(KCell::new(ours.get().try_clone()?))
}

/// A new holder's object: `ours` itself if `share`, else a copy of it
/// (ENOMEM if the heap has no room for the copy).
pub fn share_or_copy<T: TryClone>(ours: &Rc<KCell<T>>, share: bool) -> Result<Rc<KCell<T>>, Errno> {
    if share {
        Ok(ours.clone())
    } else {
        copy(ours)
    }
}

/// A private copy of `held` if another holder shares it (None: it is
/// private already), or ENOMEM.
fn private_copy<T: TryClone>(held: &Rc<KCell<T>>) -> Result<Option<Rc<KCell<T>>>, Errno> {
    if Rc::strong_count(held) > 1 {
        copy(held).map(Some)
    } else {
        Ok(None)
    }
}

/// `held` made private: a copy if another holder shares it (ENOMEM, and
/// `held` unchanged, if the heap has no room for the copy).
pub fn unshare<T: TryClone>(held: &mut Rc<KCell<T>>) -> Result<(), Errno> {
    if let Some(copy) = private_copy(held)? {
        *held = copy;
    }
    Ok(())
}

impl Thread {
    /// The thread's descriptor table (a live thread's: see the invariants).
    pub fn files(&self) -> &mut FdTable {
        self.files.as_ref().expect("a live thread has a descriptor table").get()
    }

    /// Is the descriptor table this thread's alone (no other thread or
    /// process holds it)? Then only this thread can close or replace its
    /// descriptors: `syscall::fs::ioctl` borrows the file instead of taking
    /// a reference (Linux's `fdget` on an unshared `files_struct`).
    pub fn files_alone(&self) -> bool {
        self.files.as_ref().is_some_and(|f| Rc::strong_count(f) == 1)
    }

    /// The thread's working directory and umask.
    pub fn fs(&self) -> &mut FsState {
        self.fs.as_ref().expect("a live thread has an fs state").get()
    }

    /// execve's `unshare_files`: the table becomes this thread's alone.
    pub fn unshare_files(&mut self) -> Result<(), Errno> {
        unshare(self.files.as_mut().expect("a live thread has a descriptor table"))
    }

    /// exit: lets go of the table and the fs state; the last holder's
    /// going closes the files.
    pub fn drop_shared(&mut self) {
        self.files = None;
        self.fs = None;
    }
}

/// The running thread's descriptor table.
pub fn files() -> &'static mut FdTable {
    current().files()
}

/// The running thread's working directory and umask.
pub fn fs() -> &'static mut FsState {
    current().fs()
}

/// The thread whose table and fs state /proc/<pid> shows: the oldest live
/// one, the leader while it lives (None for a zombie).
pub fn shown(g: &Group) -> Option<&'static mut Thread> {
    g.members().next()
}

/// unshare(flags): copies of what the caller shares and asks to keep alone
/// (CLONE_FILES, CLONE_FS); the rest only as Linux's checks allow
/// (`sigil_core::clone::check_unshare`).
pub fn unshare_syscall(flags: u32) -> Result<u32, Errno> {
    let t = current();
    let g = t.group();
    let caller = UnshareCaller {
        threads: g.threads.len() > 1,
        sighand_shared: g.sig.handlers_shared(),
        vm_shared: g.space_shared(),
    };
    let what = check_unshare(flags, caller)?;
    let live = "a live thread holds both";
    // Both copies are made before either is installed, so ENOMEM changes
    // nothing (Linux's ksys_unshare).
    let files = if what.files { private_copy(t.files.as_ref().expect(live))? } else { None };
    let fs = if what.fs { private_copy(t.fs.as_ref().expect(live))? } else { None };
    if files.is_some() {
        t.files = files;
    }
    if fs.is_some() {
        t.fs = fs;
    }
    Ok(0)
}
