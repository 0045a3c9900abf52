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

/// Nanoseconds per timebase tick as a 32.32 fixed-point number, so that
/// `now_ns` multiplies instead of dividing: a 128-bit division is a library
/// call of a hundred-odd instructions on ppc32, and clocks are read often.
/// (ppc32 has no 64-bit atomics; set once at boot.)
static NS_PER_TICK_32_32: KCell<u64> = KCell::new((1_000_000_000u64 << 32) / 16_600_000);

pub fn init(tb_freq: u32) {
    TB_FREQ.store(tb_freq, Ordering::Relaxed);
    *NS_PER_TICK_32_32.get() = (1_000_000_000u64 << 32) / tb_freq as u64;
    arch::set_decrementer(tb_freq / HZ);
}

/// Nanoseconds since boot. The fixed-point factor is rounded down by less
/// than 2^-32 ns per tick: after a day of 16.6 MHz timebase, under 0.4 us.
pub fn now_ns() -> u64 {
    let f = *NS_PER_TICK_32_32.get() as u128;
    ((arch::timebase() as u128 * f) >> 32) as u64
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

fn sleep_chan(pid: u32) -> usize {
    0x2000_0000 + pid as usize
}

/// Wakes a process sleeping in `sleep_until` early (a signal arrived).
pub fn kick(pid: u32) {
    crate::proc::wakeup(sleep_chan(pid));
}
