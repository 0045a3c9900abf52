//! Wall-clock process timers: ITIMER_REAL (alarm, setitimer) and POSIX timers
//! (timer_create), as signal sources.
//!
//! The arithmetic lives in `sigil_core::time::timer`; this module keeps one
//! `ProcTimers` per process that has used a timer, arms their deadlines in
//! the one deadline queue (`time::timer`), and says which signal an expiry
//! sends (`TimerSignal`; `signal::timer_expired` sends it, as this layer is
//! below the signal code and the process table, so the caller names the
//! process):
//! - ITIMER_REAL sends SIGALRM (SI_KERNEL); a periodic one re-arms when that
//!   SIGALRM is dequeued.
//! - A POSIX timer queues its signal with si_code SI_TIMER, its id and its
//!   sigval, tagged with the timer's sequence number. If the signal still
//!   waits when the timer expires again, the queued one is re-tagged, never
//!   queued twice. At dequeue (`on_dequeue`) the overrun is computed and a
//!   periodic timer re-armed; a signal whose tag is stale (the timer was
//!   set again or deleted meanwhile) is dropped there.
//!
//! Life cycle (Linux's rules): fork gives the child no timers (the table is
//! keyed by pid and a new pid has no entry); execve deletes the POSIX timers
//! and keeps ITIMER_REAL; exit deletes everything. `LIVE` counts timer
//! objects; the shutdown line reports it so tests catch leaks.
//!
//! ITIMER_VIRTUAL and ITIMER_PROF count CPU time, not wall time: they live
//! with the CPU-time accounting in `crate::time::cputime`, not in this table.
//!
//! POSIX timers on CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID
//! ([`Clock`]) are in this table but not in the deadline queue: CPU time
//! advances only while the process (or thread) runs, so each timer interrupt
//! that samples a thread (`cputime::tick`) then asks [`cpu_sample`] which of
//! its process's CPU timers have passed their CPU-time deadline, as Linux's
//! `run_posix_cpu_timers` does at each tick: they fire at the first sample
//! past expiry. Their time is read through the caller's `cpu` function,
//! since the threads are the scheduler's, above this layer.

use alloc::collections::BTreeMap;
use core::sync::atomic::{AtomicUsize, Ordering};

use sigil_core::abi::{self, Errno};
use sigil_core::signal::queue::{Charge, UserCount, SIGQUEUE_MAX};
use sigil_core::signal::{SigInfo, Signal};
use sigil_core::time::timer::{IdAllocator, PosixTimer, RealTimer};
use sigil_core::time::{ItimerSpec, Notify};

use crate::kcell::KCell;
use crate::time::timer::{self, Event, Key};

/// Which of a process's timers a deadline belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Real,
    Posix(u32),
}

/// POSIX timers of one user, in all its processes together (Linux bounds
/// them by RLIMIT_SIGPENDING, since each owns a preallocated sigqueue entry
/// charged to its user; here each timer holds a charge on its creator's
/// `Group::user.timers`): beyond it, EAGAIN. Linux charges timers and queued
/// signals to one count; Sigil gives each its own limit of the same size.
pub const MAX_TIMERS: usize = SIGQUEUE_MAX;
/// All users together (`LIVE`), as `queue::SIGQUEUE_SYSTEM_MAX` bounds
/// queued signals: the fixed heap holds this many.
pub const MAX_TIMERS_SYSTEM: usize = 8 * MAX_TIMERS;

/// POSIX timer objects alive in the whole kernel.
pub static LIVE: AtomicUsize = AtomicUsize::new(0);

/// What a POSIX timer's time counts: timer_create's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// CLOCK_MONOTONIC and CLOCK_BOOTTIME (and ITIMER_REAL).
    Monotonic,
    /// CLOCK_REALTIME: an absolute time is a wall-clock one.
    Realtime,
    /// CLOCK_PROCESS_CPUTIME_ID: the CPU time of all the process's threads.
    ProcessCpu,
    /// CLOCK_THREAD_CPUTIME_ID: the CPU time of thread `tid` alone.
    ThreadCpu(u32),
}

impl Clock {
    fn is_cpu(self) -> bool {
        matches!(self, Clock::ProcessCpu | Clock::ThreadCpu(_))
    }
}

/// A CPU clock's reading now (given by the caller: see the top).
pub type CpuNow<'a> = &'a dyn Fn(Clock) -> u64;

/// Where an armed timer's deadline is kept: in the deadline queue (a
/// clock that runs on its own), or here, for the CPU-time sample to compare
/// (a CPU clock only advances while its process runs).
#[derive(Clone, Copy)]
enum Armed {
    Queue(Key),
    Cpu(u64),
}

/// A timer and its deadline if armed; a POSIX timer also holds its charge
/// to its user's timer count.
struct Slot<T> {
    t: T,
    armed: Option<Armed>,
    _charge: Option<Charge>,
    clock: Clock,
}

impl<T> Slot<T> {
    fn new(t: T, clock: Clock, charge: Option<Charge>) -> Slot<T> {
        Slot { t, armed: None, _charge: charge, clock }
    }

    fn disarm(&mut self) {
        if let Some(Armed::Queue(k)) = self.armed.take() {
            timer::cancel(k);
        }
    }

    fn arm(&mut self, deadline: Option<u64>, pid: u32, which: Which) {
        self.disarm();
        self.armed = deadline.map(|d| {
            if self.clock.is_cpu() {
                Armed::Cpu(d)
            } else {
                Armed::Queue(timer::arm(d, Event::Timer(pid, which)))
            }
        });
    }

    /// The timer's clock now.
    fn now(&self, cpu: CpuNow) -> u64 {
        if self.clock.is_cpu() {
            cpu(self.clock)
        } else {
            timer::now_ns()
        }
    }
}

struct ProcTimers {
    real: Slot<RealTimer>,
    posix: BTreeMap<u32, Slot<PosixTimer>>,
    ids: IdAllocator,
}

static TABLE: KCell<BTreeMap<u32, ProcTimers>> = KCell::new(BTreeMap::new());

/// At power-off, with every process gone: an emptied map still holds its
/// first node; free it so the leak check sees only real leaks.
pub fn release_empty_table() {
    let t = TABLE.get();
    if t.is_empty() {
        *t = BTreeMap::new();
    }
}

/// A POSIX timer's signal, due to be queued on process `pid` or, with
/// SIGEV_THREAD_ID, on its thread `thread`; `seq` tags it (see the top).
#[derive(Clone, Copy, Debug)]
pub struct TimerSignal {
    pub thread: Option<u32>,
    pub id: u32,
    pub signo: u32,
    pub value: u32,
    pub seq: u32,
}

/// What an expiry sends: ITIMER_REAL's SIGALRM, or a POSIX timer's signal.
pub enum Expired {
    Alarm,
    Posix(TimerSignal),
}

/// Process `pid`'s timers (created empty on first use).
fn mine(pid: u32) -> (u32, &'static mut ProcTimers) {
    let t = TABLE.get().entry(pid).or_insert_with(|| ProcTimers {
        real: Slot::new(RealTimer::default(), Clock::Monotonic, None),
        posix: BTreeMap::new(),
        ids: IdAllocator::default(),
    });
    (pid, t)
}

/// setitimer(ITIMER_REAL) and alarm: returns the old setting.
pub fn set_real(pid: u32, new: ItimerSpec) -> ItimerSpec {
    let (pid, t) = mine(pid);
    let (old, deadline) = t.real.t.set(new, timer::now_ns());
    t.real.arm(deadline, pid, Which::Real);
    old
}

/// getitimer(ITIMER_REAL).
pub fn get_real(pid: u32) -> ItimerSpec {
    mine(pid).1.real.t.get(timer::now_ns())
}

/// timer_create: a new disarmed timer on `clock`; `notify` None means the
/// default (SIGALRM carrying the id); `user` is the creator's real user's
/// timer count. Returns the id.
pub fn create(
    pid: u32,
    user: &UserCount,
    notify: Option<Notify>,
    clock: Clock,
) -> Result<u32, Errno> {
    let (_, t) = mine(pid);
    if user.get() >= MAX_TIMERS || LIVE.load(Ordering::Relaxed) >= MAX_TIMERS_SYSTEM {
        return Err(Errno::EAGAIN);
    }
    let posix = &t.posix;
    let id = t.ids.alloc(|id| posix.contains_key(&id)).ok_or(Errno::EAGAIN)?;
    let notify = notify.unwrap_or(sigil_core::time::default_sigevent(id));
    t.posix.insert(id, Slot::new(PosixTimer::new(notify), clock, Some(Charge::new(user))));
    LIVE.fetch_add(1, Ordering::Relaxed);
    Ok(id)
}

fn posix(pid: u32, id: u32) -> Result<(u32, &'static mut Slot<PosixTimer>), Errno> {
    let (pid, t) = mine(pid);
    t.posix.get_mut(&id).map(|s| (pid, s)).ok_or(Errno::EINVAL)
}

/// timer_settime: returns the old setting.
/// An absolute time on CLOCK_REALTIME becomes the monotonic instant the
/// wall clock reads it (a past one fires at once); a later clock change
/// does not move it (Linux would). On a CPU clock it is a CPU time.
pub fn settime(
    pid: u32,
    id: u32,
    mut new: ItimerSpec,
    abs: bool,
    cpu: CpuNow,
) -> Result<ItimerSpec, Errno> {
    let (pid, s) = posix(pid, id)?;
    if abs && s.clock == Clock::Realtime && new.value != 0 {
        new.value = crate::time::clock::to_monotonic(new.value).max(1);
    }
    let (old, deadline) = s.t.set(new, abs, s.now(cpu));
    s.arm(deadline, pid, Which::Posix(id));
    Ok(old)
}

/// timer_gettime.
pub fn gettime(pid: u32, id: u32, cpu: CpuNow) -> Result<ItimerSpec, Errno> {
    let s = posix(pid, id)?.1;
    Ok(s.t.get(s.now(cpu)))
}

/// timer_getoverrun.
pub fn getoverrun(pid: u32, id: u32) -> Result<i32, Errno> {
    Ok(posix(pid, id)?.1.t.getoverrun())
}

/// timer_delete. A signal it queued becomes stale and is never delivered.
pub fn delete(pid: u32, id: u32) -> Result<(), Errno> {
    let (_, t) = mine(pid);
    let mut s = t.posix.remove(&id).ok_or(Errno::EINVAL)?;
    s.disarm();
    LIVE.fetch_sub(1, Ordering::Relaxed);
    Ok(())
}

/// A deadline passed (from the decrementer interrupt): the signal to send,
/// if any (`signal::timer_expired` sends it).
pub fn expire(pid: u32, which: Which) -> Option<Expired> {
    let t = TABLE.get().get_mut(&pid)?;
    match which {
        Which::Real => {
            t.real.armed = None;
            t.real.t.expire();
            Some(Expired::Alarm)
        }
        Which::Posix(id) => {
            let s = t.posix.get_mut(&id)?;
            s.armed = None;
            let seq = s.t.expire();
            match s.t.notify {
                Notify::Signal { signo, value, thread } => {
                    Some(Expired::Posix(TimerSignal { thread, id, signo, value, seq }))
                }
                Notify::None => None,
            }
        }
    }
}

/// A timer interrupt sampled thread `tid` of process `pid`, whose CPU
/// clocks now read `process_ns` and `thread_ns`: the signals of the CPU
/// timers that expired (the caller queues them, as `expire`'s). Nothing is
/// allocated unless one did.
pub fn cpu_sample(
    pid: u32,
    tid: u32,
    process_ns: u64,
    thread_ns: u64,
) -> alloc::vec::Vec<TimerSignal> {
    let mut out = alloc::vec::Vec::new();
    let Some(t) = TABLE.get().get_mut(&pid) else { return out };
    for (&id, s) in t.posix.iter_mut() {
        let now = match s.clock {
            Clock::ProcessCpu => process_ns,
            Clock::ThreadCpu(t) if t == tid => thread_ns,
            _ => continue,
        };
        match s.armed {
            Some(Armed::Cpu(d)) if now >= d => s.armed = None,
            _ => continue,
        }
        let seq = s.t.expire();
        if let Notify::Signal { signo, value, thread } = s.t.notify {
            out.push(TimerSignal { thread, id, signo, value, seq });
        }
    }
    out
}

/// `pid` stopped ignoring `sig` (sigaction): the signals its periodic
/// timers are to queue now, those whose signal was dropped as ignored (the
/// caller queues them with `signal::queue_timer_signal`), so they run on,
/// with the periods missed meanwhile counted as the overrun at delivery
/// (Linux `posixtimer_sig_unignore`). A timer whose signal still waits is
/// only re-tagged, never queued twice.
pub fn sig_unignore(pid: u32, sig: Signal) -> alloc::vec::Vec<TimerSignal> {
    let Some(t) = TABLE.get().get_mut(&pid) else { return alloc::vec::Vec::new() };
    t.posix
        .iter()
        .filter_map(|(&id, s)| match (s.t.notify, s.t.awaiting_delivery()) {
            (Notify::Signal { signo, value, thread }, Some(seq)) if signo == sig.number() => {
                Some(TimerSignal { thread, id, signo, value, seq })
            }
            _ => None,
        })
        .collect()
}

/// A signal is leaving the queue of process `pid()` for delivery (a handler
/// frame or sigtimedwait). Fills in a timer signal's overrun and re-arms
/// periodic timers. false: a stale timer signal, to be dropped.
/// Every delivery passes here, so the test for a signal no timer can have
/// sent (most of them) is inline: the rest, out of line, saves registers
/// that the common case does not need. The test is si_code alone, not the
/// sequence number `timer_seq` reads after it (one load and compare less):
/// an SI_TIMER signal without one (sent by rt_sigqueueinfo) goes the long
/// way and is kept there, as before. `pid` is asked on the long way only:
/// passed as a number, its two loads (the thread's group, the group's pid)
/// were hoisted above the test and ran on every delivery.
#[inline]
pub fn on_dequeue(pid: impl FnOnce() -> u32, info: &mut SigInfo, cpu: CpuNow) -> bool {
    if info.code() != abi::SI_TIMER && info.signo() != abi::SIGALRM {
        return true;
    }
    on_timer_dequeue(pid(), info, cpu)
}

#[inline(never)]
fn on_timer_dequeue(pid: u32, info: &mut SigInfo, cpu: CpuNow) -> bool {
    let seq = info.timer_seq();
    let Some(t) = TABLE.get().get_mut(&pid) else { return seq == 0 };
    let now = timer::now_ns();
    if seq != 0 {
        let id = info.timer_id();
        let Some(s) = t.posix.get_mut(&id) else { return false };
        let Some((overrun, rearm)) = s.t.deliver(seq, s.now(cpu)) else { return false };
        info.for_delivery(overrun);
        if rearm.is_some() {
            s.arm(rearm, pid, Which::Posix(id));
        }
    } else if info.signo() == abi::SIGALRM {
        if let Some(d) = t.real.t.dequeued(now) {
            t.real.arm(Some(d), pid, Which::Real);
        }
    }
    true
}

fn delete_posix(t: &mut ProcTimers) {
    for (_, mut s) in core::mem::take(&mut t.posix) {
        s.disarm();
        LIVE.fetch_sub(1, Ordering::Relaxed);
    }
}

/// execve: POSIX timers are deleted, the alarm (ITIMER_REAL) carries on.
pub fn exec(pid: u32) {
    if let Some(t) = TABLE.get().get_mut(&pid) {
        delete_posix(t);
    }
}

/// exit: every timer goes.
pub fn exit(pid: u32) {
    if let Some(mut t) = TABLE.get().remove(&pid) {
        delete_posix(&mut t);
        t.real.disarm();
    }
}
