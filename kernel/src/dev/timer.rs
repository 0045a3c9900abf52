//! Time: the tick, the clock, and sleeping until a deadline.
//!
//! The decrementer interrupts `HZ` times a second. Each tick wakes the
//! sleepers whose deadline passed (kept in a BTreeMap ordered by deadline, so a
//! tick looks only at the earliest ones, never at every process) and asks for
//! a reschedule, which preempts user code round-robin.
//! Time is read from the timebase; under `-icount shift=0` one guest
//! instruction is one nanosecond of guest time.

use alloc::collections::BTreeMap;
use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use crate::arch;
use crate::kcell::KCell;

pub const HZ: u32 = 100;

static TB_FREQ: AtomicU32 = AtomicU32::new(16_600_000);
/// Set by the tick: the current process has had its slice.
pub static NEED_RESCHED: AtomicBool = AtomicBool::new(false);
/// (deadline in ns, sequence) -> pid
static SLEEPERS: KCell<BTreeMap<(u64, u32), u32>> = KCell::new(BTreeMap::new());
static SEQ: AtomicU32 = AtomicU32::new(0);

pub fn init(tb_freq: u32) {
    TB_FREQ.store(tb_freq, Ordering::Relaxed);
    arch::set_decrementer(tb_freq / HZ);
}

/// Nanoseconds since boot.
pub fn now_ns() -> u64 {
    let f = TB_FREQ.load(Ordering::Relaxed) as u128;
    (arch::timebase() as u128 * 1_000_000_000 / f) as u64
}

/// The decrementer fired.
pub fn tick() {
    arch::set_decrementer(TB_FREQ.load(Ordering::Relaxed) / HZ);
    let now = now_ns();
    let sleepers = SLEEPERS.get();
    while let Some((&(deadline, seq), &pid)) = sleepers.iter().next() {
        if deadline > now {
            break;
        }
        sleepers.remove(&(deadline, seq));
        crate::proc::make_runnable(pid);
    }
    NEED_RESCHED.store(true, Ordering::Relaxed);
}

/// Sleeps until `deadline` (ns since boot). Err(()) if a signal interrupted it.
pub fn sleep_until(deadline: u64) -> Result<(), ()> {
    let pid = crate::proc::current().pid;
    let key = (deadline, SEQ.fetch_add(1, Ordering::Relaxed));
    SLEEPERS.get().insert(key, pid);
    let chan = sleep_chan(pid);
    let r = loop {
        if now_ns() >= deadline {
            break Ok(());
        }
        if crate::proc::sleep(chan).is_err() {
            break Err(());
        }
    };
    SLEEPERS.get().remove(&key);
    r
}

/// At power-off, with every process gone: an empty map still holds its first
/// node; free it so the leak check sees only real leaks (a sleeper left
/// behind stays, and is reported).
pub fn release_empty_sleepers() {
    let sleepers = SLEEPERS.get();
    if sleepers.is_empty() {
        *sleepers = BTreeMap::new();
    }
}

fn sleep_chan(pid: u32) -> usize {
    0x2000_0000 + pid as usize
}

/// Wakes a process sleeping in `sleep_until` early (a signal arrived).
pub fn kick(pid: u32) {
    crate::proc::wakeup(sleep_chan(pid));
}
