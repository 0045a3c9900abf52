//! The sigqueue: a process's pending signals, each queued signal carried by one
//! heap node that holds its siginfo.
//!
//! # How a signal travels
//! `kill`/`tgkill`/`rt_sigqueueinfo` or a fault builds a [`SigInfo`] and calls
//! [`SigPending::enqueue`], which allocates one [`SigQueueNode`] (a `Box`) and
//! links it: a standard signal's in its signal's slot, an RT signal's at the
//! tail of the RT queue. On the way back to user mode the kernel calls
//! [`SigPending::dequeue`], which picks a signal, unlinks its node and returns
//! the `Box` itself. The frame builder writes `node.info` straight into the
//! user's frame, then drops the node.
//!
//! # A slot per standard signal
//! A standard signal coalesces, so a pending set never holds more than one
//! node of it (Linux's `legacy_queue` test, before `__send_signal`
//! allocates): its node has a slot of its own, indexed by the signal, and
//! linking or unlinking it is a store. Only RT signals, which queue one node
//! per send, need a FIFO. Linux keeps one list for both and searches it at
//! dequeue (`collect_signal`); the order between different signals is
//! `next_signal`'s anyway (faults first, then the lowest number), never the
//! order they were sent in, so splitting the list changes no delivery. The
//! usual signal (SIGUSR1 from kill or raise) no longer pays a ring buffer's
//! push and pop with their capacity and wrap tests, nor the search for a
//! second node of its signal at dequeue: about 25 instructions a signal.
//!
//! # By pointer, not by copy
//! Linux's `dequeue_signal` used to take a `siginfo_t *info` from the caller,
//! copy the queued siginfo into it (`copy_siginfo`) and free the node; the
//! delivery code then copied that buffer again into the user frame. Vegard
//! Nossum's "[RFC][PATCH] signals: don't copy siginfo_t on dequeue" (LKML,
//! 26 February 2009) proposed handing
//! back the `struct sigqueue *` instead and letting the caller free it after
//! delivery: one copy fewer and no 128-byte siginfo on the kernel stack. In
//! Rust that is simply moving a `Box` out of the list: ownership travels with
//! an 8-byte pointer (4 on ppc32), the 32 info bytes never move, and the
//! compiler guarantees the node is freed exactly once, wherever delivery ends.
//! [`SigPending::dequeue_copy`] keeps the old way for the comparison boot
//! option, and counts the bytes it copies in [`SIGINFO_BYTES_COPIED`].
//!
//! # Rules (Linux `__send_signal`, `next_signal`, `collect_signal`)
//! - A standard signal (1..31) that is already pending is not queued again:
//!   the second send is lost (coalesced). RT signals (32..64) queue one node per
//!   send, FIFO per signal.
//! - The queue is bounded by a per-process limit (Linux: RLIMIT_SIGPENDING).
//!   Overflow policy: kill()-style senders (si_code SI_USER or SI_KERNEL) and
//!   standard signals from sigqueue still make the signal pending, but without
//!   a node: the info is lost and dequeue reports a zeroed SI_USER siginfo.
//!   An RT signal from sigqueue/timers fails with EAGAIN. Standard signals from
//!   kill or the kernel ignore the limit (at most 31 of them can be queued).
//! - SIGKILL never gets a node: nobody can catch it, so nobody reads its info.
//! - Dequeue order: synchronous fault signals first (SIGILL, SIGTRAP, SIGBUS,
//!   SIGFPE, SIGSEGV, SIGSYS, lowest number first), then the lowest number.
//!   The pending bit is cleared only when no node of that signal remains.
//!
//! # Invariants
//! Every node in `standard` or `rt` has its signal's bit set in `pending`;
//! `standard[n - 1]` holds only signal n's node, `rt` only RT signals'. A
//! bit may be set without a node (lost info, SIGKILL). `LIVE_NODES` = nodes
//! allocated and not yet dropped, anywhere in the kernel; leak tests compare
//! it before and after. A queued node's user charge is held by its queue
//! entry, beside the node: it is given back exactly once, when the node
//! leaves the queue (dequeued or flushed), as Linux's `collect_signal` frees
//! the sigqueue and its `ucounts` charge at dequeue.

use alloc::boxed::Box;
use alloc::collections::VecDeque;
use alloc::rc::Rc;
use core::cell::Cell;
use core::sync::atomic::{AtomicUsize, Ordering};

use super::info::SigInfo;
use super::sigset::{SigSet, Signal};
use crate::abi::{self, Errno};

/// Queue nodes currently alive (allocated by `SigQueueNode::new`, not dropped).
pub static LIVE_NODES: AtomicUsize = AtomicUsize::new(0);

/// Adds `delta` (1 or -1) to `LIVE_NODES`. In the kernel (`target_os =
/// "none"`) a load and a store, not `fetch_add`'s lwarx/stwcx. loop: Sigil
/// runs on one CPU with interrupts off whenever kernel code runs
/// (kernel/src/kcell.rs), so nothing counts in between and the count stays
/// exact. The host's unit tests run in parallel threads: they keep the
/// atomic add.
#[inline(always)]
fn count_live(delta: isize) {
    if cfg!(target_os = "none") {
        let n = LIVE_NODES.load(Ordering::Relaxed);
        LIVE_NODES.store(n.wrapping_add_signed(delta), Ordering::Relaxed);
    } else {
        LIVE_NODES.fetch_add(delta as usize, Ordering::Relaxed);
    }
}

/// Siginfo bytes copied by `dequeue_copy` (the old way); the by-pointer
/// `dequeue` never adds to it. Benchmarks read it.
pub static SIGINFO_BYTES_COPIED: AtomicUsize = AtomicUsize::new(0);

/// RLIMIT_SIGPENDING: the signals one user may have queued at once, in all
/// its processes together. As Linux does, each queued signal is charged to
/// its receiver's real user (`Group::user`, a `Charge` beside the node)
/// and RT signals are refused beyond this limit. Per process it would let 64
/// processes each queue the limit and fill the kernel heap; per user, one
/// user's flood cannot take another's room (root's, say).
pub const SIGQUEUE_MAX: usize = 1024;
/// All users together: a bound Linux does not have, so that root, which can
/// make any number of users, still cannot fill the fixed kernel heap.
pub const SIGQUEUE_SYSTEM_MAX: usize = 8 * SIGQUEUE_MAX;

/// May a signal that counts against its receiver's user link another node
/// (`SigPending::enqueue`'s `room`)? The user has `user_queued` of its
/// SIGQUEUE_MAX taken, and the whole kernel `live` of its
/// SIGQUEUE_SYSTEM_MAX nodes alive. Which signals count is the sender's
/// rule: every RT signal, and a standard one from sigqueue-style senders
/// (`rt_limit`); a standard signal coalesces anyway, so kill() leaves it
/// unbounded, as Linux does. The answer is a flag, not a queue length: a
/// length compared with the set's own count of nodes asked that count on
/// every send, and the count cancels out of the comparison.
#[inline]
pub fn queue_room(user_queued: usize, live: usize) -> bool {
    user_queued < SIGQUEUE_MAX && live < SIGQUEUE_SYSTEM_MAX
}

/// A count kept per user (Linux `ucounts`): the signals queued to its
/// processes, or their POSIX timers. Every process of the user shares it;
/// each thing counted holds a [`Charge`].
pub type UserCount = Rc<Cell<usize>>;

/// One unit of a [`UserCount`], given back when dropped (a queued signal's
/// charge stays in the queue with its node, Linux's `sigqueue->ucounts`).
#[derive(Debug)]
pub struct Charge(UserCount);

impl Charge {
    pub fn new(count: &UserCount) -> Charge {
        count.set(count.get() + 1);
        Charge(count.clone())
    }
}

impl Drop for Charge {
    #[inline(always)]
    fn drop(&mut self) {
        self.0.set(self.0.get() - 1);
    }
}

/// One queued signal: the siginfo it will be delivered with. Exactly the
/// 32 info bytes, the kernel heap's smallest block class (mm/heap.rs): one
/// is allocated and freed for every signal.
#[derive(Debug)]
pub struct SigQueueNode {
    pub info: SigInfo,
}

const _: () = assert!(core::mem::size_of::<SigQueueNode>() == 32);

impl SigQueueNode {
    /// Allocates a node (counted in `LIVE_NODES` until dropped).
    pub fn new(info: SigInfo) -> Box<SigQueueNode> {
        SigQueueNode::build(|| info)
    }

    /// `new` for an info built only once the node exists: inlined, the
    /// sender's words are stored straight into the block, not built on the
    /// sender's stack and copied (8 stores, then 8 loads and 8 stores).
    #[inline(always)]
    pub fn build(info: impl FnOnce() -> SigInfo) -> Box<SigQueueNode> {
        count_live(1);
        Box::new(SigQueueNode { info: info() })
    }

    /// The signal this node carries.
    pub const fn signal(&self) -> Signal {
        self.info.signal()
    }
}

impl Drop for SigQueueNode {
    fn drop(&mut self) {
        count_live(-1);
    }
}

/// A queue entry: the node and the charge to its receiver's user, if it
/// counts against one (dropped with the entry, when the node leaves).
#[derive(Debug)]
struct Queued {
    node: Box<SigQueueNode>,
    _charge: Option<Charge>,
}

/// What `enqueue` did with a signal it accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enqueued {
    /// A node was linked; the info will be delivered.
    Queued,
    /// A standard signal that was already pending: this send changed nothing.
    Coalesced,
    /// Pending, but without a node (queue full for a kill()-style sender, or
    /// SIGKILL): dequeue will report `SigInfo::lost`.
    PendingWithoutInfo,
}

/// A process's pending signals: the bitmap, each standard signal's node,
/// and the FIFO of RT signals' nodes.
#[derive(Debug, Default)]
pub struct SigPending {
    pending: SigSet,
    /// Signal n's node (1..=31) at index n - 1 (`slot`). 32 slots, not 31,
    /// so that the masked index needs no bounds check; the last (signal 32,
    /// an RT signal) stays empty. 256 bytes a thread and a process.
    standard: [Option<Queued>; 32],
    /// RT signals' nodes, oldest first.
    rt: VecDeque<Queued>,
}

/// The index of standard signal `sig`'s slot in `SigPending::standard`:
/// masked to the array, which the signal's range (1..=31) makes a no-op.
#[inline(always)]
fn slot(sig: Signal) -> usize {
    (sig.number() as usize - 1) & 31
}

impl SigPending {
    /// Nothing pending: a new process (fork does not inherit pending signals).
    pub const fn new() -> SigPending {
        SigPending { pending: SigSet::EMPTY, standard: [const { None }; 32], rt: VecDeque::new() }
    }

    /// Generates a signal (the sender has already dropped ignored signals and
    /// applied SIGCONT/stop side effects). `room` says whether a node may be
    /// linked for a signal that respects the limit (`queue_room`); a node
    /// linked takes a charge on `user`, if given, until it leaves.
    /// Err(EAGAIN) only for an RT signal with a sigqueue-style si_code when the
    /// queue is full. `info` describes the siginfo rather than holding it: it
    /// may be called several times (its signal and code decide before
    /// anything is allocated), and its last call builds the words into the
    /// node, once (`SigQueueNode::build`). A SIGKILL, a coalesced signal or
    /// one refused by the limit allocates nothing.
    #[inline(always)]
    pub fn enqueue(
        &mut self,
        info: impl Fn() -> SigInfo,
        room: bool,
        user: Option<&UserCount>,
    ) -> Result<Enqueued, Errno> {
        let sig = info().signal();
        if sig.is_rt() {
            return self.enqueue_rt(info(), room, user);
        }
        if self.pending.contains(sig) {
            return Ok(Enqueued::Coalesced);
        }
        if sig == Signal::SIGKILL {
            self.pending.add(sig);
            return Ok(Enqueued::PendingWithoutInfo);
        }
        // From kill() or the kernel (si_code >= 0), a standard signal gets
        // its node whatever the limit says: at most 31 can be queued.
        if info().code() >= 0 || room {
            let entry = Queued { node: SigQueueNode::build(info), _charge: user.map(Charge::new) };
            // Empty: the signal was not pending (the invariants). Written
            // without the assignment's drop of the old value, which tested
            // the slot on every send (3 instructions) for a node that cannot
            // be there; a broken invariant would leak that node, which the
            // leak tests' `LIVE_NODES` count shows, never free it twice.
            let old = self.standard[slot(sig)].replace(entry);
            debug_assert!(old.is_none(), "a standard signal's slot held a node");
            core::mem::forget(old);
            self.pending.add(sig);
            return Ok(Enqueued::Queued);
        }
        self.pending.add(sig);
        Ok(Enqueued::PendingWithoutInfo)
    }

    /// `enqueue` for an RT signal: a node at the RT queue's tail while there
    /// is room; without room, pending without info from kill() or the
    /// kernel, EAGAIN from sigqueue-style senders. Out of line: the usual
    /// signal is a standard one, whose sender would otherwise keep the RT
    /// branch's values (the signal's class among them, in a saved CR field
    /// across the node's allocation) in saved registers. It takes the info
    /// built, not its description: a description passed to a call is put
    /// in memory, which every sender paid for, RT or not; an RT signal's
    /// words are copied into its node instead.
    #[inline(never)]
    fn enqueue_rt(
        &mut self,
        info: SigInfo,
        room: bool,
        user: Option<&UserCount>,
    ) -> Result<Enqueued, Errno> {
        let sig = info.signal();
        if room {
            let entry = Queued { node: SigQueueNode::new(info), _charge: user.map(Charge::new) };
            self.rt.push_back(entry);
            self.pending.add(sig);
            return Ok(Enqueued::Queued);
        }
        let code = info.code();
        if code != abi::SI_USER && code != abi::SI_KERNEL {
            return Err(Errno::EAGAIN);
        }
        self.pending.add(sig);
        Ok(Enqueued::PendingWithoutInfo)
    }

    /// Picks, unlinks and returns the next deliverable signal's node: ownership
    /// of the node (and its siginfo) moves to the caller, which writes the info
    /// into the user frame and then drops it. A signal pending without a node
    /// gets a fresh node holding `SigInfo::lost`. `None`: nothing deliverable
    /// outside `blocked`. Always inline (see `collect`): apart from its
    /// caller, `pop_front` too became a call of its own.
    #[inline(always)]
    pub fn dequeue(&mut self, blocked: SigSet) -> Option<Box<SigQueueNode>> {
        let sig = self.next_signal(blocked)?;
        Some(self.collect(sig).unwrap_or_else(|| SigQueueNode::new(SigInfo::lost(sig))))
    }

    /// The old Linux way, kept for comparison: picks like `dequeue`, copies the
    /// siginfo into the caller's buffer, frees the node, returns the signal.
    pub fn dequeue_copy(&mut self, blocked: SigSet, out: &mut SigInfo) -> Option<Signal> {
        let sig = self.next_signal(blocked)?;
        *out = match self.collect(sig) {
            Some(node) => {
                SIGINFO_BYTES_COPIED.fetch_add(core::mem::size_of::<SigInfo>(), Ordering::Relaxed);
                node.info
            }
            None => SigInfo::lost(sig),
        };
        Some(sig)
    }

    /// True if some pending signal is not in `blocked` (checked on every return
    /// to user mode).
    pub const fn has_deliverable(&self, blocked: SigSet) -> bool {
        !self.pending.without(blocked).is_empty()
    }

    /// The pending set (for sigpending/rt_sigpending, and for the sender's
    /// "already pending?" questions).
    pub const fn pending(&self) -> SigSet {
        self.pending
    }

    /// The node of `sig` linked last, if any (the signal trace prints its
    /// address, so the same address can be seen again when `dequeue` hands
    /// it over).
    pub fn newest(&self, sig: Signal) -> Option<&SigQueueNode> {
        if !sig.is_rt() {
            return self.standard[slot(sig)].as_ref().map(|q| &*q.node);
        }
        self.rt.iter().rev().find(|q| q.node.signal() == sig).map(|q| &*q.node)
    }

    /// Every queued entry: the standard signals' by number, then the RT
    /// queue's, oldest first.
    fn entries_mut(&mut self) -> impl Iterator<Item = &mut Queued> {
        self.standard.iter_mut().flatten().chain(self.rt.iter_mut())
    }

    /// The queued siginfo `pred` picks, to update in place: a POSIX timer
    /// that expires while its signal still waits re-tags that signal
    /// instead of queueing a second one (Linux `posixtimer_send_sigqueue`).
    pub fn find_queued_mut(&mut self, pred: impl Fn(&SigInfo) -> bool) -> Option<&mut SigInfo> {
        self.entries_mut().map(|q| &mut q.node.info).find(|i| pred(i))
    }

    /// Nodes currently queued (the tests' view: the limit no longer asks).
    #[cfg(test)]
    pub fn count_queued(&self) -> usize {
        self.standard.iter().flatten().count() + self.rt.len()
    }

    /// Discards every pending instance of `sig` (its action became SIG_IGN,
    /// or it became ignored by default).
    pub fn flush_signal(&mut self, sig: Signal) {
        self.flush_set(sig.set());
    }

    /// Discards pending stop signals (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU):
    /// called when SIGCONT is generated.
    pub fn flush_stop(&mut self) {
        self.flush_set(SigSet::STOP);
    }

    /// Discards a pending SIGCONT: called when a stop signal is generated.
    pub fn flush_cont(&mut self) {
        self.flush_set(Signal::SIGCONT.set());
    }

    /// Discards everything, e.g. at exit (exec, unlike exit, keeps pending signals).
    pub fn flush_all(&mut self) {
        self.flush_set(SigSet::from_bits(u64::MAX));
    }

    /// Discards every pending signal in `set`, nodes included.
    fn flush_set(&mut self, set: SigSet) {
        for entry in &mut self.standard {
            if entry.as_ref().is_some_and(|q| set.contains(q.node.signal())) {
                *entry = None;
            }
        }
        self.rt.retain(|q| !set.contains(q.node.signal()));
        self.pending = self.pending.without(set);
    }

    /// Linux `next_signal`: synchronous faults first, then the lowest number.
    fn next_signal(&self, blocked: SigSet) -> Option<Signal> {
        let ready = self.pending.without(blocked);
        let sync = ready.intersect(SigSet::SYNCHRONOUS);
        if sync.is_empty() {
            ready.lowest()
        } else {
            sync.lowest()
        }
    }

    /// Linux `collect_signal`: unlinks the oldest node of `sig` (if any) and
    /// clears the pending bit unless another node of `sig` is still queued.
    /// The node's charge is given back here, as Linux's `__sigqueue_free`.
    /// A standard signal's node is its slot's, and its bit always goes (it
    /// has no second node). Always inline, as `dequeue` is: with `#[inline]`
    /// LLVM kept it a call with a frame of its own (about 20 instructions, 5
    /// saved registers), where the delivery around it has its registers
    /// saved already.
    #[inline(always)]
    fn collect(&mut self, sig: Signal) -> Option<Box<SigQueueNode>> {
        if sig.is_rt() {
            return self.collect_rt(sig);
        }
        self.pending.remove(sig);
        let Queued { node, _charge } = self.standard[slot(sig)].take()?;
        // The charge is matched here rather than left to the drop glue of
        // `Option<Charge>`: that glue was an out-of-line call, which kept
        // five registers saved across it (this function's frame); a
        // `Charge` dropped by its own glue inlines to two decrements.
        if let Some(charge) = _charge {
            drop(charge);
        }
        Some(node)
    }

    /// `collect` for an RT signal, out of line: the oldest RT node is the
    /// one in the usual case, popped first and compared after (its raw
    /// si_signo, already known valid); otherwise the RT queue is searched.
    /// Its registers are saved only by the RT signals' deliveries.
    #[inline(never)]
    fn collect_rt(&mut self, sig: Signal) -> Option<Box<SigQueueNode>> {
        let node = match self.rt.pop_front() {
            Some(q) if q.node.info.signo() == sig.number() => Some(q.node),
            front => {
                if let Some(q) = front {
                    self.rt.push_front(q);
                }
                let pos = self.rt.iter().position(|q| q.node.signal() == sig);
                pos.and_then(|i| self.rt.remove(i)).map(|q| q.node)
            }
        };
        if !self.rt.iter().any(|q| q.node.signal() == sig) {
            self.pending.remove(sig);
        }
        node
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Mutex, MutexGuard};

    /// Serializes the tests that count live nodes (the counter is global).
    fn counted() -> (MutexGuard<'static, ()>, usize) {
        static LOCK: Mutex<()> = Mutex::new(());
        let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        (guard, LIVE_NODES.load(Ordering::Relaxed))
    }

    fn rt(n: u32) -> Signal {
        Signal::new(32 + n).unwrap()
    }

    #[test]
    fn queue_room_is_the_users_room_bounded_by_the_kernels() {
        // A fresh user has room, a user at its limit none.
        assert!(queue_room(0, 0));
        assert!(queue_room(SIGQUEUE_MAX - 1, 5));
        assert!(!queue_room(SIGQUEUE_MAX, 7));
        assert!(!queue_room(SIGQUEUE_MAX + 3, 7));
        // The kernel full: no user has room.
        assert!(queue_room(0, SIGQUEUE_SYSTEM_MAX - 1));
        assert!(!queue_room(0, SIGQUEUE_SYSTEM_MAX));
        assert!(!queue_room(0, SIGQUEUE_SYSTEM_MAX + 1));
    }

    #[test]
    fn newest_is_the_node_dequeue_hands_back() {
        let mut q = SigPending::new();
        assert!(q.newest(Signal::SIGUSR1).is_none());
        q.enqueue(|| SigInfo::kill(Signal::SIGUSR1, 1, 0), true, None).unwrap();
        let linked = q.newest(Signal::SIGUSR1).unwrap() as *const SigQueueNode;
        let node = q.dequeue(SigSet::EMPTY).unwrap();
        assert_eq!(
            &*node as *const SigQueueNode, linked,
            "dequeue moves the node, it does not copy it"
        );
    }

    #[test]
    fn standard_slots_and_the_rt_queue_hold_their_own_nodes() {
        let (_g, live) = counted();
        let mut p = SigPending::new();
        p.enqueue(|| SigInfo::queue(rt(0), 1, 0, 1), true, None).unwrap();
        p.enqueue(|| SigInfo::kill(Signal::SIGUSR2, 2, 0), true, None).unwrap();
        p.enqueue(|| SigInfo::queue(rt(0), 1, 0, 2), true, None).unwrap();
        p.enqueue(|| SigInfo::kill(Signal::SIGUSR1, 3, 0), true, None).unwrap();
        p.enqueue(|| SigInfo::queue(rt(1), 1, 0, 3), true, None).unwrap();
        assert_eq!(p.count_queued(), 5);
        // Each signal's newest node, wherever it is kept.
        assert_eq!(p.newest(rt(0)).unwrap().info.value(), 2);
        assert_eq!(p.newest(rt(1)).unwrap().info.value(), 3);
        assert_eq!(p.newest(Signal::SIGUSR2).unwrap().info.pid(), 2);
        assert!(p.newest(Signal::SIGHUP).is_none());
        // Found and changed in place in either.
        p.find_queued_mut(|i| i.pid() == 3).unwrap().set_timer_seq(9);
        assert_eq!(p.newest(Signal::SIGUSR1).unwrap().info.words()[6], 9);
        // A flush takes a slot's node and leaves the rest.
        p.flush_signal(Signal::SIGUSR2);
        assert!(p.newest(Signal::SIGUSR2).is_none());
        assert_eq!(p.count_queued(), 4);
        // The lowest number first, each RT signal's nodes in their order.
        let order: std::vec::Vec<(u32, u32)> = core::iter::from_fn(|| {
            let n = p.dequeue(SigSet::EMPTY)?;
            Some((n.signal().number(), n.info.value()))
        })
        .collect();
        assert_eq!(order, [(10, 0), (32, 1), (32, 2), (33, 3)]);
        assert!(p.pending().is_empty());
        // A standard signal sent again after its delivery gets its slot back.
        p.enqueue(|| SigInfo::kill(Signal::SIGUSR1, 4, 0), true, None).unwrap();
        assert_eq!(p.dequeue(SigSet::EMPTY).unwrap().info.pid(), 4);
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
    }

    #[test]
    fn enqueue_builds_only_a_node_it_links() {
        let (_g, live) = counted();
        let mut p = SigPending::new();
        let sent = SigInfo::tkill(Signal::SIGUSR1, 5, 7);
        assert_eq!(p.enqueue(|| sent, true, None), Ok(Enqueued::Queued));
        // Coalesced and SIGKILL: decided from the description, no node.
        let again = || SigInfo::tkill(Signal::SIGUSR1, 6, 0);
        assert_eq!(p.enqueue(again, true, None), Ok(Enqueued::Coalesced));
        let kill = || SigInfo::tkill(Signal::SIGKILL, 6, 0);
        assert_eq!(p.enqueue(kill, true, None), Ok(Enqueued::PendingWithoutInfo));
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live + 1);
        assert_eq!(p.dequeue(SigSet::EMPTY).unwrap().info, SigInfo::lost(Signal::SIGKILL));
        assert_eq!(p.dequeue(SigSet::EMPTY).unwrap().info, sent);
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
    }

    #[test]
    fn standard_signals_coalesce() {
        let (_g, live) = counted();
        let mut p = SigPending::new();
        assert_eq!(
            p.enqueue(|| SigInfo::kill(Signal::SIGUSR1, 5, 0), true, None),
            Ok(Enqueued::Queued)
        );
        assert_eq!(
            p.enqueue(|| SigInfo::kill(Signal::SIGUSR1, 6, 0), true, None),
            Ok(Enqueued::Coalesced)
        );
        assert_eq!(p.count_queued(), 1);
        let n = p.dequeue(SigSet::EMPTY).unwrap();
        assert_eq!(n.info.pid(), 5); // the first sender's info survives
        assert!(p.dequeue(SigSet::EMPTY).is_none());
        drop(n);
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
    }

    #[test]
    fn rt_signals_queue_fifo_and_keep_the_bit_until_the_last() {
        let (_g, live) = counted();
        let mut p = SigPending::new();
        for v in 0..3 {
            p.enqueue(|| SigInfo::queue(rt(1), 1, 0, v), true, None).unwrap();
            p.enqueue(|| SigInfo::queue(rt(0), 1, 0, 10 + v), true, None).unwrap();
        }
        assert_eq!(p.count_queued(), 6);
        let order: std::vec::Vec<(u32, u32)> = core::iter::from_fn(|| {
            let n = p.dequeue(SigSet::EMPTY)?;
            assert_eq!(p.pending().contains(n.signal()), n.info.value() % 10 != 2);
            Some((n.signal().number(), n.info.value()))
        })
        .collect();
        assert_eq!(order, [(32, 10), (32, 11), (32, 12), (33, 0), (33, 1), (33, 2)]);
        assert!(p.pending().is_empty());
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
    }

    #[test]
    fn synchronous_faults_first_then_lowest() {
        let (_g, live) = counted();
        let mut p = SigPending::new();
        for s in [Signal::SIGHUP, Signal::SIGSEGV, rt(0), Signal::SIGINT, Signal::SIGILL] {
            p.enqueue(|| SigInfo::kill(s, 1, 0), true, None).unwrap();
        }
        let mut got = std::vec::Vec::new();
        while let Some(n) = p.dequeue(SigSet::EMPTY) {
            got.push(n.signal().number());
        }
        assert_eq!(got, [4, 11, 1, 2, 32]);
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
    }

    #[test]
    fn blocked_signals_stay_pending() {
        let (_g, live) = counted();
        let mut p = SigPending::new();
        p.enqueue(|| SigInfo::kill(Signal::SIGUSR1, 1, 0), true, None).unwrap();
        let blocked = Signal::SIGUSR1.set();
        assert!(!p.has_deliverable(blocked));
        assert!(p.dequeue(blocked).is_none());
        assert!(p.has_deliverable(SigSet::EMPTY));
        assert_eq!(p.dequeue(SigSet::EMPTY).unwrap().signal(), Signal::SIGUSR1);
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
    }

    #[test]
    fn overflow_policy() {
        let (_g, live) = counted();
        let mut p = SigPending::new();
        p.enqueue(|| SigInfo::queue(rt(0), 1, 0, 1), true, None).unwrap();
        p.enqueue(|| SigInfo::queue(rt(0), 1, 0, 2), true, None).unwrap();
        // The user's room is used up (`queue_room` says no from here on).
        // sigqueue-style RT sender: EAGAIN, nothing changes.
        assert_eq!(p.enqueue(|| SigInfo::queue(rt(1), 1, 0, 3), false, None), Err(Errno::EAGAIN));
        assert_eq!(p.enqueue(|| SigInfo::timer(rt(1), 1, 0, 3), false, None), Err(Errno::EAGAIN));
        assert!(!p.pending().contains(rt(1)));
        // kill()-style RT sender: pending without info.
        assert_eq!(
            p.enqueue(|| SigInfo::kill(rt(1), 9, 0), false, None),
            Ok(Enqueued::PendingWithoutInfo)
        );
        // Standard signal from kill: over the limit anyway, info kept.
        assert_eq!(
            p.enqueue(|| SigInfo::kill(Signal::SIGUSR2, 9, 0), false, None),
            Ok(Enqueued::Queued)
        );
        // Standard signal from sigqueue: pending, info lost.
        assert_eq!(
            p.enqueue(|| SigInfo::queue(Signal::SIGUSR1, 9, 0, 5), false, None),
            Ok(Enqueued::PendingWithoutInfo)
        );
        assert_eq!(p.count_queued(), 3);
        let usr1 = p.dequeue(SigSet::EMPTY).unwrap();
        assert_eq!(usr1.info, SigInfo::lost(Signal::SIGUSR1));
        assert_eq!(p.dequeue(SigSet::EMPTY).unwrap().info.pid(), 9); // SIGUSR2
        assert_eq!(p.dequeue(SigSet::EMPTY).unwrap().info.value(), 1);
        assert_eq!(p.dequeue(SigSet::EMPTY).unwrap().info.value(), 2);
        assert_eq!(p.dequeue(SigSet::EMPTY).unwrap().info, SigInfo::lost(rt(1)));
        assert!(p.dequeue(SigSet::EMPTY).is_none());
        drop(usr1);
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
    }

    #[test]
    fn sigkill_has_no_node() {
        let (_g, live) = counted();
        let mut p = SigPending::new();
        assert_eq!(
            p.enqueue(|| SigInfo::kill(Signal::SIGKILL, 1, 0), true, None),
            Ok(Enqueued::PendingWithoutInfo)
        );
        assert_eq!(p.count_queued(), 0);
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
        assert_eq!(p.dequeue(SigSet::EMPTY).unwrap().info, SigInfo::lost(Signal::SIGKILL));
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
    }

    #[test]
    fn dequeue_copy_matches_dequeue_and_counts_bytes() {
        let (_g, live) = counted();
        let mut a = SigPending::new();
        let mut b = SigPending::new();
        let infos = [
            SigInfo::queue(rt(0), 1, 0, 7),
            SigInfo::kill(Signal::SIGTERM, 2, 3),
            SigInfo::kill(rt(0), 4, 0),
        ];
        for i in infos {
            a.enqueue(|| i, true, None).unwrap();
            b.enqueue(|| i, true, None).unwrap();
        }
        let before = SIGINFO_BYTES_COPIED.load(Ordering::Relaxed);
        let mut out = SigInfo::lost(Signal::SIGHUP);
        for i in 0..3 {
            let node = a.dequeue(SigSet::EMPTY).unwrap();
            // The by-pointer path copied nothing.
            assert_eq!(SIGINFO_BYTES_COPIED.load(Ordering::Relaxed) - before, i * 32);
            let sig = b.dequeue_copy(SigSet::EMPTY, &mut out).unwrap();
            assert_eq!((sig, out), (node.signal(), node.info));
        }
        assert!(b.dequeue_copy(SigSet::EMPTY, &mut out).is_none());
        assert_eq!(SIGINFO_BYTES_COPIED.load(Ordering::Relaxed) - before, 3 * 32);
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
    }

    #[test]
    fn flushes() {
        let (_g, live) = counted();
        let mut p = SigPending::new();
        for s in [Signal::SIGTSTP, Signal::SIGTTIN, Signal::SIGUSR1, rt(3), rt(3)] {
            p.enqueue(|| SigInfo::kill(s, 1, 0), true, None).unwrap();
        }
        p.flush_signal(rt(3));
        assert!(!p.pending().contains(rt(3)));
        assert_eq!(p.count_queued(), 3);
        p.flush_stop(); // SIGCONT was sent
        assert_eq!(p.pending(), Signal::SIGUSR1.set());
        p.enqueue(|| SigInfo::kill(Signal::SIGCONT, 1, 0), true, None).unwrap();
        p.flush_cont(); // a stop signal was sent
        assert_eq!(p.pending(), Signal::SIGUSR1.set());
        assert_eq!(p.count_queued(), 1);
        p.enqueue(|| SigInfo::kill(rt(0), 1, 0), true, None).unwrap();
        p.flush_all();
        assert!(p.pending().is_empty() && p.count_queued() == 0);
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
        // Dropping a SigPending frees its nodes.
        p.enqueue(|| SigInfo::kill(rt(0), 1, 0), true, None).unwrap();
        drop(p);
        assert_eq!(LIVE_NODES.load(Ordering::Relaxed), live);
    }

    #[test]
    fn a_charge_lives_as_long_as_its_node_is_queued() {
        let user: UserCount = Rc::new(Cell::new(0));
        let mut p = SigPending::new();
        p.enqueue(|| SigInfo::queue(rt(0), 1, 0, 1), true, Some(&user)).unwrap();
        p.enqueue(|| SigInfo::queue(rt(0), 1, 0, 2), true, Some(&user)).unwrap();
        // Coalesced and node-less signals take no charge.
        p.enqueue(|| SigInfo::kill(Signal::SIGUSR1, 1, 0), true, Some(&user)).unwrap();
        p.enqueue(|| SigInfo::kill(Signal::SIGUSR1, 1, 0), true, Some(&user)).unwrap();
        p.enqueue(|| SigInfo::kill(Signal::SIGKILL, 1, 0), true, Some(&user)).unwrap();
        assert_eq!(user.get(), 3);
        // Dequeued: the charge is given back once, at once (Linux
        // `collect_signal`), not again when the node is dropped.
        let node = p.dequeue(Signal::SIGKILL.set().union(Signal::SIGUSR1.set())).unwrap();
        assert_eq!(user.get(), 2, "a dequeued node no longer counts");
        drop(node);
        assert_eq!(user.get(), 2);
        // Flushed (and a flushed SigPending's entries dropped): given back.
        p.flush_signal(rt(0));
        assert_eq!(user.get(), 1);
        p.enqueue(|| SigInfo::queue(rt(1), 1, 0, 3), true, Some(&user)).unwrap();
        assert_eq!(user.get(), 2);
        drop(p);
        assert_eq!(user.get(), 0);
        assert_eq!(Rc::strong_count(&user), 1);
    }
}
