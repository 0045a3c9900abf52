//! Time as user space hands it to the kernel, and back: `timespec`,
//! `itimerspec`, `timeval`, `sigevent` in the Linux ppc32 layouts, plus the
//! small rules Linux applies to them (validity, saturation, alarm rounding).
//!
//! Kernel time is a `u64` count of nanoseconds (Linux `ktime_t`, never
//! negative here). CLOCK_MONOTONIC counts from boot; CLOCK_REALTIME is it
//! plus the wall clock's offset (`kernel/src/time/clock.rs`), so the kernel turns
//! an absolute CLOCK_REALTIME deadline into a monotonic one before it waits.
//!
//! # Two layouts of `struct timespec` on ppc32 (facts: glibc `__timespec64`)
//! ```text
//!  Old32 (timer_settime, nanosleep...)   Time64 (timer_settime64, ...)
//!  0  tv_sec  (i32)                      0  tv_sec  (i64)
//!  4  tv_nsec (i32)                      8  padding (ignored: Linux reads
//!  8                                    12  tv_nsec (i32)  a 32-bit long)
//!                                       16
//! ```
//! An `itimerspec` is two of them: `it_interval` first, then `it_value`.
//! The kernel never fixed a time64 `timeval`: setitimer/getitimer keep the
//! 8-byte `{i32 tv_sec; i32 tv_usec}`.
//!
//! [`timer`] holds the timer state machines built on these values,
//! [`cputime`] the per-process CPU time and the timers that count it,
//! [`loadavg`] the load average.

pub mod cputime;
pub mod loadavg;
pub mod timer;
pub mod timerfd;

use crate::abi::Errno;

pub const NSEC_PER_SEC: u64 = 1_000_000_000;
pub const NSEC_PER_USEC: u64 = 1_000;
/// Linux `KTIME_MAX`: "never". Larger requests saturate to it.
pub const KTIME_MAX: u64 = i64::MAX as u64;

/// The clock ids (Linux `include/uapi/linux/time.h`), one set for every
/// call that takes one. The timebase is never slewed, so the RAW and
/// COARSE ids (4-6) read their plain clock; negative ids name another
/// process's or thread's CPU clock (`cputime::cpu_clock_of`).
pub const CLOCK_REALTIME: u32 = 0;
pub const CLOCK_MONOTONIC: u32 = 1;
pub const CLOCK_PROCESS_CPUTIME_ID: u32 = 2;
pub const CLOCK_THREAD_CPUTIME_ID: u32 = 3;
pub const CLOCK_REALTIME_COARSE: u32 = 5;
pub const CLOCK_BOOTTIME: u32 = 7;

/// `ns` as whole seconds and the nanoseconds left over: `ns / 1e9` and
/// `ns % 1e9`, exactly, without a 64-bit division.
///
/// A 32-bit core has no 64-bit divide, so `/` and `%` on a `u64` are two
/// calls into compiler_builtins' long division (~70 instructions, on every
/// SYNC_PTR timestamp). Dividing by a constant is a multiply instead, as
/// compilers do on 64-bit cores: 1e9 = 2^9 * 1953125, and for n < 2^55,
/// n / 1953125 = (n * M) >> 75 with M = ceil(2^75 / 1953125), because
/// M * 1953125 - 2^75 = 399807 is below 2^75 / 2^55 = 2^20 (the error
/// stays under one quotient step; Granlund and Montgomery, PLDI 1994).
pub fn split_ns(ns: u64) -> (u64, u32) {
    const M: u128 = 0x44_b82f_a09b_5a53;
    let sec = ((((ns >> 9) as u128) * M) >> 75) as u64;
    (sec, (ns - sec * NSEC_PER_SEC) as u32)
}

/// `x * factor`, `factor` a 32.32 fixed-point number: timebase ticks to ns
/// and back without a division. (LLVM multiplies two zero-extended 64-bit
/// values inline, with four 32x32 multiplies, not a `__multi3` call.)
pub fn scale_32_32(x: u64, factor: u64) -> u64 {
    ((x as u128 * factor as u128) >> 32) as u64
}

/// `scale_32_32(now.saturating_sub(last), factor)`: the interval from
/// timebase count `last` to `now` (none if `now` is earlier), scaled.
/// Exact, and cheap in the common case: both counts share their high word
/// (the interval is short, and does not cross a multiple of 2^32 ticks,
/// which at 16.6 MHz come every 4 minutes). Then the interval is a 32-bit
/// difference `d`, and the product is `d` times the factor's integer part
/// plus the top half of `d` times its fraction: three 32x32 multiplies
/// where the 64-bit product takes seven, and the part the shift drops is
/// the same, so the result is too. The other case is inline, not a call:
/// a call in the context switch, even one never taken, made it save and
/// restore three registers on every switch.
pub fn scale_since_32_32(last: u64, now: u64, factor: u64) -> u64 {
    let (last_hi, last_lo, now_hi, now_lo) =
        ((last >> 32) as u32, last as u32, (now >> 32) as u32, now as u32);
    if now_hi != last_hi || now_lo < last_lo {
        return scale_32_32(now.saturating_sub(last), factor);
    }
    let d = (now_lo - last_lo) as u64;
    d * ((factor >> 32) as u32 as u64) + ((d * (factor as u32 as u64)) >> 32)
}

/// Which `struct timespec` a system call uses (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Old32,
    Time64,
}

impl Layout {
    /// `time64` is how the syscall table names the second set of calls.
    pub const fn new(time64: bool) -> Layout {
        if time64 {
            Layout::Time64
        } else {
            Layout::Old32
        }
    }

    /// Bytes of one `timespec`.
    pub const fn timespec_size(self) -> usize {
        match self {
            Layout::Old32 => 8,
            Layout::Time64 => 16,
        }
    }

    /// Bytes of one `itimerspec`.
    pub const fn itimerspec_size(self) -> usize {
        2 * self.timespec_size()
    }
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Seconds and nanoseconds to kernel time, as Linux `timespec64_valid` then
/// `timespec64_to_ktime`: negative seconds or nanoseconds outside
/// [0, 1e9) are EINVAL; past KTIME_MAX saturates.
fn to_ns(sec: i64, nsec: i32) -> Result<u64, Errno> {
    if sec < 0 || !(0..NSEC_PER_SEC as i32).contains(&nsec) {
        return Err(Errno::EINVAL);
    }
    let ns = (sec as u64).checked_mul(NSEC_PER_SEC).and_then(|v| v.checked_add(nsec as u64));
    Ok(ns.map_or(KTIME_MAX, |v| v.min(KTIME_MAX)))
}

/// Decodes one `timespec` (the first `layout.timespec_size()` bytes of `b`).
pub fn decode_timespec(b: &[u8], layout: Layout) -> Result<u64, Errno> {
    match layout {
        Layout::Old32 => to_ns(be32(b, 0) as i32 as i64, be32(b, 4) as i32),
        Layout::Time64 => {
            to_ns(((be32(b, 0) as u64) << 32 | be32(b, 4) as u64) as i64, be32(b, 12) as i32)
        }
    }
}

/// Encodes `ns` as one `timespec` into `out` (which must be at least
/// `layout.timespec_size()` bytes). The 32-bit layout's seconds saturate at
/// i32::MAX (Linux `put_old_timespec32` truncates; 68 years of uptime is
/// not a case Sigil meets).
/// A `struct timeval` ({i32 tv_sec; i32 tv_usec}, big-endian), select's
/// timeout and the halves of an itimerval, as ns. Microseconds outside
/// [0, 1e6) or negative seconds: EINVAL.
pub fn decode_timeval(b: &[u8]) -> Result<u64, Errno> {
    let (sec, usec) = (be32(b, 0) as i32, be32(b, 4) as i32);
    if !(0..1_000_000).contains(&usec) {
        return Err(Errno::EINVAL);
    }
    to_ns(sec as i64, usec * 1000)
}

/// ns as a `struct timeval`, microseconds truncated (as Linux reports).
pub fn encode_timeval(ns: u64) -> [u8; 8] {
    let sec = (ns / NSEC_PER_SEC).min(i32::MAX as u64) as u32;
    let usec = ((ns % NSEC_PER_SEC) / NSEC_PER_USEC) as u32;
    let mut b = [0u8; 8];
    b[..4].copy_from_slice(&sec.to_be_bytes());
    b[4..].copy_from_slice(&usec.to_be_bytes());
    b
}

pub fn encode_timespec(ns: u64, layout: Layout, out: &mut [u8]) {
    let (sec, nsec) = split_ns(ns);
    match layout {
        Layout::Old32 => {
            out[..4].copy_from_slice(&(sec.min(i32::MAX as u64) as u32).to_be_bytes());
            out[4..8].copy_from_slice(&nsec.to_be_bytes());
        }
        Layout::Time64 => {
            out[..8].copy_from_slice(&sec.to_be_bytes());
            out[8..12].fill(0);
            out[12..16].copy_from_slice(&nsec.to_be_bytes());
        }
    }
}

/// An `itimerspec` (or an `itimerval`) in kernel time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ItimerSpec {
    pub interval: u64,
    pub value: u64,
}

impl ItimerSpec {
    pub fn decode(b: &[u8], layout: Layout) -> Result<ItimerSpec, Errno> {
        let n = layout.timespec_size();
        Ok(ItimerSpec {
            interval: decode_timespec(b, layout)?,
            value: decode_timespec(&b[n..], layout)?,
        })
    }

    /// Encodes into a 32-byte buffer; the first `layout.itimerspec_size()` count.
    pub fn encode(&self, layout: Layout) -> [u8; 32] {
        let mut b = [0u8; 32];
        let n = layout.timespec_size();
        encode_timespec(self.interval, layout, &mut b);
        encode_timespec(self.value, layout, &mut b[n..]);
        b
    }

    /// An `itimerval` (two `{i32 tv_sec; i32 tv_usec}`) for setitimer.
    /// Microseconds outside [0, 1e6) or negative seconds: EINVAL.
    pub fn decode_itimerval(b: &[u8; 16]) -> Result<ItimerSpec, Errno> {
        Ok(ItimerSpec { interval: decode_timeval(&b[..8])?, value: decode_timeval(&b[8..])? })
    }

    /// The `itimerval` Linux reports: microseconds truncated.
    pub fn encode_itimerval(&self) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&encode_timeval(self.interval));
        b[8..].copy_from_slice(&encode_timeval(self.value));
        b
    }
}

/// What alarm(2) returns for an ITIMER_REAL with `left` ns to go (Linux
/// `alarm_setitimer`): whole seconds, rounded to the nearest from the
/// microseconds getitimer would show, and never 0 while an alarm is pending
/// ("better return too much than too little").
pub const fn alarm_seconds(left: u64) -> u32 {
    let sec = left / NSEC_PER_SEC;
    let usec = (left % NSEC_PER_SEC) / NSEC_PER_USEC;
    let up = (sec == 0 && usec != 0) || usec >= 500_000;
    let sec = if up { sec + 1 } else { sec };
    if sec > u32::MAX as u64 {
        u32::MAX
    } else {
        sec as u32
    }
}

/// The ITIMER_REAL value alarm(seconds) sets: 32-bit Linux clamps the count
/// to INT_MAX so the timeval cannot go negative.
pub const fn alarm_ns(seconds: u32) -> u64 {
    let s = if seconds > i32::MAX as u32 { i32::MAX as u32 } else { seconds };
    s as u64 * NSEC_PER_SEC
}

/// `struct sigevent` notify kinds Linux knows (ppc32 numbering).
pub const SIGEV_SIGNAL: u32 = 0;
pub const SIGEV_NONE: u32 = 1;
pub const SIGEV_THREAD: u32 = 2;
pub const SIGEV_THREAD_ID: u32 = 4;
/// Bytes timer_create reads: `sizeof(struct sigevent)` (value, signo,
/// notify, then a 52-byte union whose first word is the thread id).
pub const SIGEVENT_SIZE: usize = 64;

/// How a POSIX timer tells its owner it expired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notify {
    /// Queue `signo` (SI_TIMER, carrying `value`) for the process, or with
    /// SIGEV_THREAD_ID for thread `thread` only.
    Signal { signo: u32, value: u32, thread: Option<u32> },
    /// Nothing: the owner polls timer_gettime.
    None,
}

/// Linux `good_sigevent`: SIGEV_SIGNAL with a valid signal, SIGEV_NONE, or
/// SIGEV_THREAD_ID naming a thread of the caller's process (`in_process`
/// says which ids are). SIGEV_THREAD is glibc's business (a helper thread
/// with SIGEV_THREAD_ID); a raw timer_create that asks for it anyway signals
/// the process as for SIGEV_SIGNAL, as Linux's `good_sigevent` does. `words`
/// are the first four sigevent words: value, signo, notify, tid.
pub fn decode_sigevent(words: [u32; 4], in_process: impl Fn(u32) -> bool) -> Result<Notify, Errno> {
    let [value, signo, notify, tid] = words;
    let signal = |thread| {
        if (1..=64).contains(&signo) {
            Ok(Notify::Signal { signo, value, thread })
        } else {
            Err(Errno::EINVAL)
        }
    };
    match notify {
        SIGEV_NONE => Ok(Notify::None),
        SIGEV_SIGNAL | SIGEV_THREAD => signal(None),
        n if n == SIGEV_SIGNAL | SIGEV_THREAD_ID => {
            if in_process(tid) {
                signal(Some(tid))
            } else {
                Err(Errno::EINVAL)
            }
        }
        _ => Err(Errno::EINVAL),
    }
}

/// The default notification (a NULL sigevent): SIGALRM carrying the id.
pub const fn default_sigevent(id: u32) -> Notify {
    Notify::Signal { signo: crate::abi::SIGALRM, value: id, thread: None }
}

#[cfg(test)]
mod tests;
