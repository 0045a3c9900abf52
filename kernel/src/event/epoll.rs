//! epoll: a set of descriptors to wait on, kept in the kernel between
//! calls (Linux `fs/eventpoll.c`). The reporting rules (level, EPOLLET,
//! EPOLLONESHOT) are sigil-core's (`sigil_core::epoll::Interest`); the
//! wait is poll's (`fs::poll::wait_for`): each epoll_wait scans the set's
//! files with their `poll_ready` and sleeps on their wait queues.
//!
//! Linux keeps a ready list filled by callbacks on the files' wait
//! queues, so a wait costs only the ready files; Sigil's scan costs every
//! file in the set, as poll does - simpler, and the same answers.
//! Edge-triggered items tell a new edge by the file's wait-queue change
//! count (`WaitQueue::changes`). A signalfd wakes its queue only while
//! somebody waits on it, so under EPOLLET a signal that arrives between
//! two epoll_waits is reported only if the signalfd had not already been
//! reported readable (Linux would report it again).
//!
//! An entry holds its file weakly, as Linux's epitem holds no reference:
//! when the last descriptor of the open file closes, the entry is dead and
//! the next scan or epoll_ctl drops it (Linux's `eventpoll_release`). A
//! `dup`ed descriptor keeps the file, and so the entry, alive, as on Linux.
//!
//! Not supported: an epoll inside an epoll (epoll_ctl says EINVAL; Linux
//! allows nesting and says ELOOP for a cycle), and polling an epoll
//! descriptor itself with poll/select: its readiness is right when
//! looked at, but the poller is woken only by epoll_ctl, not by the files
//! in the set.

use alloc::sync::{Arc, Weak};
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

use sigil_core::abi::Errno;
use sigil_core::epoll::{Interest, EPOLL_CTL_ADD, EPOLL_CTL_DEL, EPOLL_CTL_MOD};

use crate::fs::poll::{PollWait, WaitQueue};
use crate::fs::{flags, File, FileOps, StatusFlags, POLLIN};

struct Entry {
    fd: u32,
    file: Weak<File>,
    interest: Interest,
}

pub struct Epoll {
    entries: RefCell<Vec<Entry>>,
    /// Bumped by every epoll_ctl: a waiter looks at the set again.
    version: Cell<u32>,
    /// Where the next scan starts (`scan`).
    next: Cell<usize>,
    flags: StatusFlags,
    /// Threads in epoll_wait (woken by epoll_ctl) and pollers of this fd.
    pollers: WaitQueue,
}

/// epoll_create1's file.
pub fn new() -> Arc<File> {
    Arc::new(Epoll {
        entries: RefCell::new(Vec::new()),
        version: Cell::new(0),
        next: Cell::new(0),
        flags: StatusFlags::new(flags::O_RDWR),
        pollers: WaitQueue::new(),
    })
}

/// A file's change count: its wait queue's wake-ups (0 for a file without
/// one, whose readiness follows the clock or never changes).
fn changes(f: &File) -> u32 {
    match f.poll_wait() {
        PollWait::Queue(q) => q.changes(),
        _ => 0,
    }
}

fn same(w: &Weak<File>, f: &Arc<File>) -> bool {
    core::ptr::addr_eq(w.as_ptr(), Arc::as_ptr(f))
}

impl Epoll {
    /// epoll_ctl(op, fd) with `file` open at `fd` (already checked: not
    /// this epoll, pollable) and the event mask and data for ADD and MOD.
    pub fn ctl(&self, op: u32, fd: u32, file: &Arc<File>, ev: (u32, u64)) -> Result<(), Errno> {
        let mut entries = self.entries.borrow_mut();
        entries.retain(|e| e.file.strong_count() > 0);
        let at = entries.iter().position(|e| e.fd == fd && same(&e.file, file));
        match (op, at) {
            (EPOLL_CTL_ADD, Some(_)) => return Err(Errno::EEXIST),
            (EPOLL_CTL_ADD, None) => {
                let interest = Interest::new(ev.0, ev.1);
                entries.push(Entry { fd, file: Arc::downgrade(file), interest });
            }
            (EPOLL_CTL_MOD, Some(i)) => entries[i].interest = Interest::new(ev.0, ev.1),
            (EPOLL_CTL_DEL, Some(i)) => {
                entries.remove(i);
            }
            (EPOLL_CTL_MOD | EPOLL_CTL_DEL, None) => return Err(Errno::ENOENT),
            _ => return Err(Errno::EINVAL),
        }
        drop(entries);
        self.version.set(self.version.get().wrapping_add(1));
        self.pollers.wake();
        Ok(())
    }

    /// The set's live files, and the version they are of: what a wait
    /// sleeps on.
    pub fn files(&self) -> (Vec<Arc<File>>, u32) {
        let mut entries = self.entries.borrow_mut();
        entries.retain(|e| e.file.strong_count() > 0);
        (entries.iter().filter_map(|e| e.file.upgrade()).collect(), self.version.get())
    }

    /// Has epoll_ctl changed the set since `version`?
    pub fn changed_since(&self, version: u32) -> bool {
        self.version.get() != version
    }

    /// One scan: up to `max` (events, data) reports. It starts after the
    /// entry last reported, so with more ready files than `max` each has
    /// its turn (Linux moves a reported level-triggered item to the back
    /// of its ready list for the same reason).
    pub fn scan(&self, max: usize) -> Vec<(u32, u64)> {
        let mut out = Vec::new();
        let mut entries = self.entries.borrow_mut();
        let n = entries.len();
        let start = self.next.get() % n.max(1);
        for i in (start..n).chain(0..start) {
            if out.len() == max {
                break;
            }
            let e = &mut entries[i];
            let Some(f) = e.file.upgrade() else { continue };
            if let Some(r) = e.interest.check(f.poll_ready(), changes(&*f)) {
                out.push((r, e.interest.data));
                self.next.set(i + 1);
            }
        }
        out
    }
}

impl FileOps for Epoll {
    fn status(&self) -> Option<&StatusFlags> {
        Some(&self.flags)
    }
    /// Readable while an epoll_wait would report something.
    fn poll_ready(&self) -> u16 {
        let entries = self.entries.borrow();
        let ready = entries.iter().any(|e| {
            e.file.upgrade().is_some_and(|f| e.interest.ready(f.poll_ready(), changes(&*f)))
        });
        if ready {
            POLLIN
        } else {
            0
        }
    }
    fn poll_wait(&self) -> PollWait<'_> {
        PollWait::Queue(&self.pollers)
    }
    fn anon_name(&self) -> Option<&'static str> {
        Some("[eventpoll]")
    }
    fn epoll(&self) -> Option<&Epoll> {
        Some(self)
    }
}
