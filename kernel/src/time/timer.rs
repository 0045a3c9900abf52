//! Time: the clock, the one queue of deadlines, and the decrementer that
//! serves both the queue and the scheduler's time slice.
//!
//! Each interrupt is also the CPU-time sample point (`crate::time::cputime`).
//! This layer is below the scheduler: `tick` hands each due event to its
//! caller (the trap handler), which wakes the thread or sends the timer's
//! signal; the timed sleeps themselves are the scheduler's (`proc::sleep`).
//!
//! Every deadline in the kernel (a sleeping process, an armed alarm or POSIX
//! timer) is one entry in `EVENTS`, a BTreeMap ordered by (deadline,
//! sequence). The decrementer is a one-shot countdown: after each interrupt
//! it is programmed for the earliest of the next deadline and, while a
//! process runs, the end of its time slice. So an interrupt looks only at
//! the entries that are due, never at every process or timer, and an idle
//! system (`idle`) sleeps until the next deadline instead of ticking.
//!
//! Time is read from the timebase; under `-icount shift=0` one guest
//! instruction is one nanosecond of guest time.

use alloc::collections::BTreeMap;
use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use crate::arch::{self, Arch, Clock};
use crate::kcell::KCell;
use crate::time::timers::Which;

/// How long a process runs before the scheduler may preempt it (10 ms,
/// Linux's HZ=100 tick).
pub const SLICE_NS: u64 = 10_000_000;
/// The decrementer is a signed 32-bit count: the furthest it can be set.
const DEC_MAX: u64 = <Arch as Clock>::TIMER_MAX_TICKS;
/// A delay past which the decrementer is set to DEC_MAX anyway (2^40 ns is
/// 18 minutes, more than DEC_MAX ticks at any timebase above 2 MHz), and
/// below which the ns -> ticks product cannot overflow.
const DEC_MAX_NS: u64 = 1 << 40;

static TB_FREQ: AtomicU32 = AtomicU32::new(16_600_000);
/// Set by the tick: the current process has had its slice. Exported out of
/// LLVM's global merge, as `proc::CURRENT_THREAD` is: `work_before_user` tests it
/// on every return with work from one `lis`, not a `lis`/`addi` pair.
#[export_name = "sigil_need_resched"]
pub static NEED_RESCHED: AtomicBool = AtomicBool::new(false);
/// Decrementer interrupts taken: the shutdown line reports it, so a test
/// can see that an idle system is not woken every tick.
pub static INTERRUPTS: AtomicU32 = AtomicU32::new(0);
/// When the running process's slice ends (ns since boot).
static SLICE_END: KCell<u64> = KCell::new(0);
static SEQ: AtomicU32 = AtomicU32::new(0);

/// What happens when a deadline passes.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// Wake the thread sleeping in `sleep_until` or a timed futex wait.
    Wake(u32),
    /// A process timer expired (see `crate::time::timers`).
    Timer(u32, Which),
    /// A timerfd's expiry (see `crate::event::timerfd`), by its id.
    TimerFd(u32),
}

/// An entry's place in the queue; `cancel` takes it back out.
pub type Key = (u64, u32);

static EVENTS: KCell<BTreeMap<Key, Event>> = KCell::new(BTreeMap::new());

/// Nanoseconds per timebase tick as a 32.32 fixed-point number, so that
/// `now_ns` multiplies instead of dividing: a 128-bit division is a library
/// call of a hundred-odd instructions on ppc32, and clocks are read often.
/// (ppc32 has no 64-bit atomics; set once at boot.) Exported out of LLVM's
/// global merge, as `NEED_RESCHED` is: every context switch's charge loads
/// it from one `lis`.
#[export_name = "sigil_ns_per_tick"]
static NS_PER_TICK_32_32: KCell<u64> = KCell::new((1_000_000_000u64 << 32) / 16_600_000);
/// The other way, for programming the decrementer, rounded up (a deadline
/// may pass a tick late, never early).
static TICKS_PER_NS_32_32: KCell<u64> = KCell::new((16_600_000u64 << 32).div_ceil(1_000_000_000));

/// The timebase's frequency in Hz (/proc/cpuinfo's "timebase").
pub fn tb_freq() -> u32 {
    TB_FREQ.load(Ordering::Relaxed)
}

pub fn init(tb_freq: u32) {
    TB_FREQ.store(tb_freq, Ordering::Relaxed);
    *NS_PER_TICK_32_32.get() = (1_000_000_000u64 << 32) / tb_freq as u64;
    *TICKS_PER_NS_32_32.get() = ((tb_freq as u64) << 32).div_ceil(1_000_000_000);
    let now = now_ns();
    *SLICE_END.get() = now + SLICE_NS;
    program(now, true);
}

/// Nanoseconds since boot. The fixed-point factor is rounded down by less
/// than 2^-32 ns per tick: after a day of 16.6 MHz timebase, under 0.4 us.
pub fn now_ns() -> u64 {
    ns_at(now_ticks())
}

/// The timebase: ticks since boot. The CPU-time accounting keeps its last
/// sample in ticks, so a context switch converts only the interval it
/// charges (`interval_ns`), not two absolute times.
pub fn now_ticks() -> u64 {
    Arch::now()
}

/// Nanoseconds since boot at timebase count `ticks` (see `now_ns`).
pub fn ns_at(ticks: u64) -> u64 {
    sigil_core::time::scale_32_32(ticks, *NS_PER_TICK_32_32.get())
}

/// The nanoseconds from timebase count `last` to `now` (none if `now` is
/// earlier), rounded down.
pub fn interval_ns(last: u64, now: u64) -> u64 {
    sigil_core::time::scale_since_32_32(last, now, *NS_PER_TICK_32_32.get())
}

/// The clock's resolution: one timebase tick, rounded up to a nanosecond.
pub fn resolution_ns() -> u64 {
    1_000_000_000u64.div_ceil(TB_FREQ.load(Ordering::Relaxed) as u64)
}

/// Queues `event` for `deadline` (ns since boot).
pub fn arm(deadline: u64, event: Event) -> Key {
    let key = (deadline, SEQ.fetch_add(1, Ordering::Relaxed));
    EVENTS.get().insert(key, event);
    program(now_ns(), true);
    key
}

/// Takes an event back out (it may have fired already: then nothing happens).
pub fn cancel(key: Key) {
    EVENTS.get().remove(&key);
}

/// Deadlines queued (sleepers and armed timers), for the shutdown report.
pub fn queued() -> usize {
    EVENTS.get().len()
}

/// Programs the decrementer, at `now`, for the next deadline, or for the end
/// of the slice if that comes first and `slice` (a process is running) is set.
fn program(now: u64, slice: bool) {
    let mut next = EVENTS.get().keys().next().map_or(u64::MAX, |k| k.0);
    if slice {
        next = next.min(*SLICE_END.get());
    }
    // Far deadlines clamp first: the product must not overflow.
    let delta = next.saturating_sub(now).min(DEC_MAX_NS);
    let ticks = sigil_core::time::scale_32_32(delta, *TICKS_PER_NS_32_32.get()) + 1;
    Arch::arm(ticks.min(DEC_MAX) as u32);
}

/// The decrementer fired at `now`: hand each event that is due to `due`
/// (the trap handler's: it wakes the thread or sends the timer's signal),
/// then end the slice if it is over.
pub fn tick(now: u64, mut due: impl FnMut(Event)) {
    INTERRUPTS.fetch_add(1, Ordering::Relaxed);
    let events = EVENTS.get();
    while let Some(entry) = events.first_entry() {
        if entry.key().0 > now {
            break;
        }
        due(entry.remove());
    }
    if now >= *SLICE_END.get() {
        NEED_RESCHED.store(true, Ordering::Relaxed);
        *SLICE_END.get() = now + SLICE_NS;
    }
    program(now, true);
}

/// Nothing can run: sleep until the next deadline or another interrupt,
/// without a slice to end. Called by the scheduler's idle loop, between
/// `cputime::idle_begin` and `idle_end`. Whatever runs next starts a whole
/// slice, so a reschedule asked for by a tick taken while idle (the old
/// slice's end had passed) is void: cleared, it cannot cut the next
/// thread's first slice short (Linux's `__schedule` clears the picked
/// task's need-resched flag likewise).
pub fn idle() {
    program(now_ns(), false);
    arch::idle();
    let now = now_ns();
    *SLICE_END.get() = now + SLICE_NS;
    NEED_RESCHED.store(false, Ordering::Relaxed);
    program(now, true);
}

/// At power-off, with every process gone: an empty map still holds its first
/// node; free it so the leak check sees only real leaks (a deadline left
/// behind stays, and is reported).
pub fn release_empty_events() {
    let events = EVENTS.get();
    if events.is_empty() {
        *events = BTreeMap::new();
    }
}
