//! Futex wait queues: the kernel half of `futex(2)` (the decoding is
//! `sigil_core::futex`), and the two things thread exit does with futexes
//! (the robust-list walk and the `clear_child_tid` wake). Keys: a private
//! futex by (MMU context, address), a shared one on a MAP_SHARED page by
//! the physical address (`key`).
//!
//! A waiter is queued under its `FutexKey` and records the key in its
//! `Thread::futex`; a waker takes it off the queue, clears that field and
//! makes it runnable. So a waiter that runs again knows why: field cleared
//! = woken (or its requeue target woken), field still set = a timeout or a
//! signal, and it takes itself off the queue. The queues are bounded by the
//! number of threads (each waits on at most one futex).
//!
//! A queue entry holds the thread itself, a pointer into its Box, so a wake
//! reaches it without a search of the thread table. The pointer is live
//! because the entry is there only while its thread is inside `wait` (the
//! field set = on a list): a killed waiter, or one whose group execs, is
//! woken like any signalled one and takes itself off before it returns to
//! exit; and the exit path takes the thread off anyway before it can be
//! freed (`proc::unqueue_exiting`, the module invariants of `proc`).
//!
//! As Linux's `futex_queues`, the waiters live in a fixed table of lists
//! picked by a hash of the key (`FutexKey::bucket`), each list in arrival
//! order, so a key's waiters wake first come, first served. A list keeps
//! its storage when it empties: a wait allocates nothing once its list
//! has grown (a map of per-key queues, as before, allocated and freed a
//! node and a queue for every wait).

use alloc::vec::Vec;
use core::ptr::NonNull;

use sigil_core::abi::Errno;
use sigil_core::futex::{self as rules, FutexKey, WakeOp, FUTEX_BUCKETS};
use sigil_core::signal::restart::RestartBlock;

use super::{current, group, Thread};
use crate::kcell::KCell;
use crate::uaccess::{get_user, put_user};

struct Waiter {
    key: FutexKey,
    /// Live while queued (module doc).
    thread: NonNull<Thread>,
    bitset: u32,
}

static QUEUES: KCell<[Vec<Waiter>; FUTEX_BUCKETS]> =
    KCell::new([const { Vec::new() }; FUTEX_BUCKETS]);

/// The list `k`'s waiters are in (with other keys' of the same hash);
/// callers borrow it only until they next sleep or switch.
fn list(k: FutexKey) -> &'static mut Vec<Waiter> {
    &mut QUEUES.get()[k.bucket()]
}

/// Every list is empty at power-off; free their storage for the leak check.
pub fn release_empty_queues() {
    for l in QUEUES.get().iter_mut().filter(|l| l.is_empty()) {
        *l = Vec::new();
    }
}

/// The key of `addr` for the caller. A private futex (`private`:
/// FUTEX_PRIVATE_FLAG, what glibc uses for process-private locks) is
/// named by the caller's MMU context number and the address, at once:
/// unique among live spaces, and the same for every thread and CLONE_VM
/// process running in it (Linux keys a private futex by its `mm`); a
/// number is reused only after its space is gone, and with it every
/// thread that could wait in it. A shared one on a MAP_SHARED page is
/// named by the word's physical address, the page faulted in first (a
/// pshared mutex or semaphore between processes); elsewhere as a private
/// one. (A waiter whose page is unmapped meanwhile keeps its key; a frame
/// reused for another futex can then only wake it spuriously, which
/// every futex caller must allow for.)
#[inline(always)]
fn key(addr: u32, private: bool) -> Result<FutexKey, Errno> {
    let space = group().space();
    if !private {
        if let Some(phys) = space.shared_phys(addr)? {
            return FutexKey::shared(phys as u32);
        }
    }
    FutexKey::new(space.ctx, addr)
}

fn chan(tid: u32) -> usize {
    super::Chan::Futex.of(tid)
}

/// FUTEX_WAIT(_BITSET): sleeps if `*addr == val` until woken, `deadline`
/// (ns since boot) or a signal. Interrupted, an untimed wait is ERESTARTSYS
/// (SA_RESTART decides) and a timed one ERESTART_RESTARTBLOCK: EINTR if a
/// handler runs, else restart_syscall waits again until the same deadline
/// (Linux `futex_wait` and `futex_wait_restart`). Inlined into both of its
/// callers (futex and restart_syscall): as a call of its own it made the
/// futex ping-pong 88 instructions per round trip dearer.
#[inline(always)]
pub fn wait(
    addr: u32,
    val: u32,
    bitset: u32,
    deadline: Option<u64>,
    private: bool,
) -> Result<u32, Errno> {
    let k = key(addr, private)?;
    let word: u32 = get_user(addr)?;
    if word != val {
        return Err(Errno::EAGAIN);
    }
    let me = current();
    let tid = me.tid;
    me.futex = Some(k);
    list(k).push(Waiter { key: k, thread: NonNull::from(me), bitset });
    let timer = deadline.map(|d| crate::time::timer::arm(d, crate::time::timer::Event::Wake(tid)));
    let r = loop {
        let me = current();
        if me.futex.is_none() {
            break Ok(0);
        }
        if deadline.is_some_and(|d| crate::time::timer::now_ns() >= d) {
            break Err(Errno::ETIMEDOUT);
        }
        if super::sleep(chan(tid)).is_err() && current().futex.is_some() {
            let Some(deadline) = deadline else { break Err(Errno::ERESTARTSYS) };
            current().restart =
                Some(RestartBlock::Futex { addr, val, bitset, deadline, private: !k.is_shared() });
            break Err(Errno::ERESTART_RESTARTBLOCK);
        }
    };
    if let Some(t) = timer {
        crate::time::timer::cancel(t);
    }
    unqueue(current());
    r
}

/// Takes `t` off the list it waits on, if any: the end of its own `wait`
/// when no waker did, and its exit (`proc::unqueue_exiting`).
pub fn unqueue(t: &mut Thread) {
    if let Some(k) = t.futex.take() {
        let me = NonNull::from(t);
        let l = list(k);
        if let Some(i) = l.iter().position(|w| w.thread == me) {
            l.remove(i);
        }
    }
}

/// Wakes up to `n` waiters on `k` whose bitset meets `bitset`; returns how many.
fn wake_key(k: FutexKey, n: u32, bitset: u32) -> u32 {
    let mut woken = 0;
    list(k).retain(|w| {
        if woken >= n || w.key != k || w.bitset & bitset == 0 {
            return true;
        }
        woken += 1;
        // SAFETY: a queued waiter's thread is live (module doc).
        let t = unsafe { &mut *w.thread.as_ptr() };
        t.futex = None;
        super::wake(t);
        false
    });
    woken
}

/// FUTEX_WAKE(_BITSET).
pub fn wake_bitset(addr: u32, n: u32, bitset: u32, private: bool) -> Result<u32, Errno> {
    Ok(wake_key(key(addr, private)?, n, bitset))
}

/// Wakes up to `n` waiters on `addr` in the caller's memory (thread exit),
/// as a shared futex, as Linux's `clear_child_tid` and robust-list wakes
/// are: a pshared robust mutex's waiter may be in another process.
pub fn wake(addr: u32, n: u32) {
    if let Ok(k) = key(addr, false) {
        wake_key(k, n, rules::FUTEX_BITSET_MATCH_ANY);
    }
}

/// FUTEX_(CMP_)REQUEUE: wakes `n` on `addr`, moves up to `move_max` of the
/// rest to `addr2`; returns woken + moved.
pub fn requeue(
    addr: u32,
    addr2: u32,
    n: u32,
    move_max: u32,
    cmp: Option<u32>,
    private: bool,
) -> Result<u32, Errno> {
    let (k1, k2) = (key(addr, private)?, key(addr2, private)?);
    if let Some(expected) = cmp {
        let word: u32 = get_user(addr)?;
        if word != expected {
            return Err(Errno::EAGAIN);
        }
    }
    let woken = wake_key(k1, n, rules::FUTEX_BITSET_MATCH_ANY);
    if k1 == k2 {
        return Ok(woken);
    }
    // Take the first `move_max` of k1's waiters, in order, and append them
    // to k2's (Linux `requeue_futex`).
    let from = list(k1);
    let mut moved = Vec::new();
    let mut i = 0;
    while i < from.len() && moved.len() < move_max as usize {
        if from[i].key == k1 {
            moved.push(from.remove(i));
        } else {
            i += 1;
        }
    }
    let count = moved.len() as u32;
    for mut w in moved {
        // SAFETY: as in `wake_key`: still queued, only on another list.
        unsafe { w.thread.as_mut() }.futex = Some(k2);
        w.key = k2;
        list(k2).push(w);
    }
    Ok(woken + count)
}

/// FUTEX_WAKE_OP: `*addr2 = op(*addr2)`, wake `n` on `addr`, and `n2` on
/// `addr2` if the old value passes the comparison. The read-modify-write is
/// atomic: one CPU, and the kernel is not preempted between the two accesses.
pub fn wake_op(
    addr: u32,
    addr2: u32,
    n: u32,
    n2: u32,
    op: WakeOp,
    private: bool,
) -> Result<u32, Errno> {
    let (k1, k2) = (key(addr, private)?, key(addr2, private)?);
    let old: u32 = get_user(addr2)?;
    put_user(addr2, op.apply(old))?;
    let mut woken = wake_key(k1, n, rules::FUTEX_BITSET_MATCH_ANY);
    if op.compare(old) {
        woken += wake_key(k2, n2, rules::FUTEX_BITSET_MATCH_ANY);
    }
    Ok(woken)
}

/// A thread is exiting with robust list `head`: every robust mutex it still
/// holds gets FUTEX_OWNER_DIED and one waiter woken (Linux
/// `exit_robust_list`). A bad list just ends the walk.
pub fn exit_robust_list(head: u32, tid: u32) {
    if head == 0 {
        return;
    }
    let Ok([first, offset, pending]) = get_user::<[u32; 3]>(head) else { return };
    let mut entry = first & !1;
    let pending = pending & !1;
    for _ in 0..rules::ROBUST_LIST_LIMIT {
        if entry == head || entry == 0 {
            break;
        }
        let Ok(next) = get_user::<u32>(entry) else { return };
        if entry != pending {
            owner_died(entry.wrapping_add(offset), tid);
        }
        entry = next & !1;
    }
    if pending != 0 {
        owner_died(pending.wrapping_add(offset), tid);
    }
}

/// Linux `handle_futex_death` for the futex word at `addr`.
fn owner_died(addr: u32, tid: u32) {
    if !addr.is_multiple_of(4) {
        return;
    }
    let Ok(word) = get_user::<u32>(addr) else { return };
    if let Some((new, wake_one)) = rules::owner_died(word, tid) {
        if put_user(addr, new).is_ok() && wake_one {
            wake(addr, 1);
        }
    }
}
