//! epoll: a set of descriptors to wait on, kept in the kernel between
//! calls (Linux `fs/eventpoll.c`). The reporting rules (level, EPOLLET,
//! EPOLLONESHOT) are sigil-core's (`sigil_core::epoll::Interest`); the
//! wait is poll's (`fs::poll::wait_for`): each epoll_wait scans the set's
//! files with their `poll_ready` and sleeps on their wait queues.
//!
//! Linux keeps a ready list filled by callbacks on the files' wait
//! queues (`ep_poll_callback`), so a wait costs only the ready files, and
//! the callback also wakes whoever polls the epoll descriptor itself.
//! Sigil's scan costs every file in the set, as poll does - simpler, and
//! the same answers. The wake-ups are the same too: a thread that waits on
//! an epoll, in epoll_wait or in poll/select on the descriptor, sleeps on
//! the queue of every file in the set (`fs::poll::wait_for` walks into
//! the set, [`Epoll::files`]) and on the epoll's own, which epoll_ctl
//! wakes; so a file becoming ready wakes it, with no busy polling, and
//! nothing stays on a file's queue once the wait is over.
//!
//! Edge-triggered items tell a new edge by the file's wait-queue change
//! count (`WaitQueue::changes`; an epoll's is its own queue's folded with
//! its set's, [`Epoll::changes`]). A signalfd wakes its queue only while
//! somebody waits on it, so under EPOLLET a signal that arrives between
//! two epoll_waits is reported only if the signalfd had not already been
//! reported readable (Linux would report it again).
//!
//! An entry holds its file weakly, as Linux's epitem holds no reference:
//! when the last descriptor of the open file closes, the entry is dead and
//! the next scan or epoll_ctl drops it (Linux's `eventpoll_release`). A
//! `dup`ed descriptor keeps the file, and so the entry, alive, as on Linux.
//!
//! Nesting: an epoll may watch another, as on Linux; it is readable while
//! the inner one is. epoll_ctl refuses a cycle and a chain of more than
//! `MAX_NESTS` links with ELOOP (`sigil_core::epoll::may_nest`), which
//! needs the chain above an epoll too: each keeps the epolls that watch it
//! (`parents`, weakly, as Linux's `ep->refs`).

use alloc::sync::{Arc, Weak};
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

use sigil_core::abi::Errno;
use sigil_core::epoll::{may_nest, Interest, EPOLL_CTL_ADD, EPOLL_CTL_DEL, EPOLL_CTL_MOD};

use crate::fs::poll::{PollWait, WaitQueue};
use crate::fs::{flags, File, FileOps, StatusFlags, POLLIN};
use crate::mm::heap;

struct Entry {
    fd: u32,
    file: Weak<File>,
    interest: Interest,
}

pub struct Epoll {
    entries: RefCell<Vec<Entry>>,
    /// The epolls that watch this one, once per entry (dead ones are
    /// dropped when met).
    parents: RefCell<Vec<Weak<File>>>,
    /// Where the next scan starts (`scan`).
    next: Cell<usize>,
    flags: StatusFlags,
    /// Threads in epoll_wait (woken by epoll_ctl) and pollers of this fd.
    pollers: WaitQueue,
}

/// epoll_create1's file.
pub fn new() -> Result<Arc<File>, Errno> {
    Ok(heap::arc(Epoll {
        entries: RefCell::new(Vec::new()),
        parents: RefCell::new(Vec::new()),
        next: Cell::new(0),
        flags: StatusFlags::new(flags::O_RDWR),
        pollers: WaitQueue::new(),
    })?)
}

/// A file's change count: its wait queue's wake-ups, an epoll's
/// [`Epoll::changes`] (0 for a file without a queue, whose readiness
/// follows the clock or never changes).
fn changes(f: &File) -> u32 {
    if let Some(e) = f.epoll() {
        return e.changes();
    }
    match f.poll_wait() {
        PollWait::Queue(q) => q.changes(),
        _ => 0,
    }
}

fn same(w: &Weak<File>, f: &Arc<File>) -> bool {
    core::ptr::addr_eq(w.as_ptr(), Arc::as_ptr(f))
}

impl Epoll {
    /// epoll_ctl(op, fd) on `this` (the file of this epoll) with `file`
    /// open at `fd` (already checked: not this epoll, pollable) and the
    /// event mask and data for ADD and MOD. Adding an epoll is checked for
    /// cycles and depth first (ELOOP), as Linux does before EEXIST.
    pub fn ctl(
        &self,
        this: &Arc<File>,
        op: u32,
        fd: u32,
        file: &Arc<File>,
        ev: (u32, u64),
    ) -> Result<(), Errno> {
        let inner = file.epoll();
        if let (EPOLL_CTL_ADD, Some(inner)) = (op, inner) {
            may_nest(inner.height(self), self.depth_above())?;
        }
        let mut entries = self.entries.borrow_mut();
        entries.retain(|e| e.file.strong_count() > 0);
        let at = entries.iter().position(|e| e.fd == fd && same(&e.file, file));
        match (op, at) {
            (EPOLL_CTL_ADD, Some(_)) => return Err(Errno::EEXIST),
            (EPOLL_CTL_ADD, None) => {
                let interest = Interest::new(ev.0, ev.1);
                entries.push(Entry { fd, file: Arc::downgrade(file), interest });
                if let Some(inner) = inner {
                    let mut parents = inner.parents.borrow_mut();
                    parents.retain(|p| p.strong_count() > 0);
                    parents.push(Arc::downgrade(this));
                }
            }
            (EPOLL_CTL_MOD, Some(i)) => entries[i].interest = Interest::new(ev.0, ev.1),
            (EPOLL_CTL_DEL, Some(i)) => {
                entries.remove(i);
                if let Some(inner) = inner {
                    let mut parents = inner.parents.borrow_mut();
                    if let Some(p) = parents.iter().position(|p| same(p, this)) {
                        parents.remove(p);
                    }
                }
            }
            (EPOLL_CTL_MOD | EPOLL_CTL_DEL, None) => return Err(Errno::ENOENT),
            _ => return Err(Errno::EINVAL),
        }
        drop(entries);
        self.pollers.wake();
        Ok(())
    }

    /// The set's live files: what a waiter on this epoll sleeps on, beside
    /// the epoll's own queue.
    pub fn files(&self) -> Vec<Arc<File>> {
        let mut entries = self.entries.borrow_mut();
        entries.retain(|e| e.file.strong_count() > 0);
        entries.iter().filter_map(|e| e.file.upgrade()).collect()
    }

    /// The epolls in the set (live ones).
    fn inner(&self) -> impl Iterator<Item = Arc<File>> {
        let entries = self.entries.borrow();
        let files: Vec<Arc<File>> = entries.iter().filter_map(|e| e.file.upgrade()).collect();
        files.into_iter().filter(|f| f.epoll().is_some())
    }

    /// The longest chain of epolls under this one, in links; None if it
    /// reaches `into` (adding this one there would close a cycle) or goes
    /// deeper than any allowed chain. The depth bound keeps the walk short.
    fn height(&self, into: &Epoll) -> Option<usize> {
        if core::ptr::eq(self, into) {
            return None;
        }
        let mut h = 0;
        for f in self.inner() {
            let below = f.epoll()?.height(into)? + 1;
            if below > sigil_core::epoll::MAX_NESTS {
                return None;
            }
            h = h.max(below);
        }
        Some(h)
    }

    /// The longest chain of epolls over this one, in links.
    fn depth_above(&self) -> usize {
        let mut parents = self.parents.borrow_mut();
        parents.retain(|p| p.strong_count() > 0);
        let live: Vec<Arc<File>> = parents.iter().filter_map(Weak::upgrade).collect();
        drop(parents);
        live.iter().filter_map(|p| p.epoll()).map(|p| p.depth_above() + 1).max().unwrap_or(0)
    }

    /// The change count an outer epoll's EPOLLET item compares: the own
    /// queue's (epoll_ctl) folded with every file's in the set, so any
    /// wake-up inside is a new edge, as Linux's nested `ep_poll_callback`.
    pub fn changes(&self) -> u32 {
        let entries = self.entries.borrow();
        let files = entries.iter().filter_map(|e| e.file.upgrade());
        files.fold(self.pollers.changes(), |h, f| h.wrapping_mul(31).wrapping_add(changes(&*f)))
    }

    /// One scan: up to `max` reports, each handed to `put` (its index and
    /// the events and data), which copies it out and says whether it
    /// could. Returns how many were put, and whether one could not be: that
    /// one is not recorded (an EPOLLET or EPOLLONESHOT item stays due, as
    /// Linux's `ep_send_events` puts it back on the ready list) and the scan
    /// ends there. It starts after the entry last reported, so with more
    /// ready files than `max` each has its turn (Linux moves a reported
    /// level-triggered item to the back of its ready list for the same
    /// reason).
    pub fn scan(&self, max: usize, mut put: impl FnMut(usize, u32, u64) -> bool) -> (usize, bool) {
        let mut done = 0;
        let mut entries = self.entries.borrow_mut();
        let n = entries.len();
        let start = self.next.get() % n.max(1);
        for i in (start..n).chain(0..start) {
            if done == max {
                break;
            }
            let e = &mut entries[i];
            let Some(f) = e.file.upgrade() else { continue };
            let mut after = e.interest;
            if let Some(r) = after.check(f.poll_ready(), changes(&*f)) {
                if !put(done, r, e.interest.data) {
                    return (done, true);
                }
                e.interest = after;
                done += 1;
                self.next.set(i + 1);
            }
        }
        (done, false)
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
