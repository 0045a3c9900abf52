//! The load average: how many threads wanted the CPU, averaged over the
//! last 1, 5 and 15 minutes, as Linux's `kernel/sched/loadavg.c` computes it
//! and /proc/loadavg shows it.
//!
//! Every LOAD_FREQ (5 s) the count of active threads is folded into three
//! exponentially decaying averages, in 11-bit fixed point:
//! `load = load * e + active * (1 - e)` with `e = exp(-5 s / 1 min)`,
//! `exp(-5 s / 5 min)`, `exp(-5 s / 15 min)` (Linux's EXP_1, EXP_5, EXP_15).
//! A kernel that does not tick while idle folds the sample points it slept
//! through when it wakes, each with the count it had meanwhile (Linux's
//! `calc_global_nohz`): the caller says what that count was.

use alloc::string::String;

/// Bits of fraction (Linux FSHIFT) and 1.0 in that fixed point.
const FSHIFT: u32 = 11;
const FIXED_1: u64 = 1 << FSHIFT;
/// exp(-5/60), exp(-5/300), exp(-5/900), times FIXED_1.
const EXP: [u64; 3] = [1884, 2014, 2037];
/// Linux's LOAD_FREQ is 5 * HZ + 1 ticks: 5.01 s at HZ = 100.
pub const LOAD_FREQ_NS: u64 = 5_010_000_000;

/// The three averages and the next sample point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadAvg {
    avg: [u64; 3],
    next: u64,
}

impl Default for LoadAvg {
    fn default() -> Self {
        LoadAvg::new()
    }
}

impl LoadAvg {
    /// At boot: no load, the first sample one LOAD_FREQ in.
    pub const fn new() -> LoadAvg {
        LoadAvg { avg: [0; 3], next: LOAD_FREQ_NS }
    }

    /// Has a sample point passed by `now` (ns since boot)? Cheap enough for
    /// every timer tick, so the caller counts the active threads only then.
    pub fn due(&self, now: u64) -> bool {
        now >= self.next
    }

    /// Folds every sample point up to `now`, each with `active` threads
    /// (those running or waiting to run).
    pub fn fold(&mut self, now: u64, active: u32) {
        while now >= self.next {
            for (avg, e) in self.avg.iter_mut().zip(EXP) {
                *avg = calc_load(*avg, e, active as u64 * FIXED_1);
            }
            self.next += LOAD_FREQ_NS;
        }
    }

    /// The first three fields of /proc/loadavg: "0.52 0.34 0.11", rounded
    /// to the hundredth as Linux's `loadavg_proc_show`.
    pub fn show(&self) -> String {
        let two = |x: u64| {
            let x = x + FIXED_1 / 200;
            alloc::format!("{}.{:02}", x >> FSHIFT, ((x & (FIXED_1 - 1)) * 100) >> FSHIFT)
        };
        alloc::format!("{} {} {}", two(self.avg[0]), two(self.avg[1]), two(self.avg[2]))
    }
}

/// One step of the average (Linux `calc_load`): a rising load rounds up,
/// so a constant load of n converges to n instead of stopping just below.
fn calc_load(load: u64, exp: u64, active: u64) -> u64 {
    let mut new = load * exp + active * (FIXED_1 - exp);
    if active >= load {
        new += FIXED_1 - 1;
    }
    new / FIXED_1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_sampled_before_the_first_point() {
        let mut l = LoadAvg::new();
        assert!(!l.due(LOAD_FREQ_NS - 1));
        l.fold(LOAD_FREQ_NS - 1, 5);
        assert_eq!(l.show(), "0.00 0.00 0.00");
        assert!(l.due(LOAD_FREQ_NS));
    }

    #[test]
    fn one_busy_thread_for_a_minute() {
        // 12 samples of 1 active thread: 1 - exp(-1) = 0.63 for the 1-minute
        // average, 1 - exp(-1/5) = 0.18 and 1 - exp(-1/15) = 0.06.
        let mut l = LoadAvg::new();
        l.fold(12 * LOAD_FREQ_NS, 1);
        assert_eq!(l.show(), "0.63 0.18 0.06");
        assert!(!l.due(12 * LOAD_FREQ_NS + 1));
    }

    #[test]
    fn a_constant_load_converges_to_itself_and_decays_when_idle() {
        let mut l = LoadAvg::new();
        l.fold(2000 * LOAD_FREQ_NS, 2);
        assert_eq!(l.show(), "2.00 2.00 2.00");
        // Five minutes asleep, folded at once on waking: 2 * exp(-5),
        // 2 * exp(-1), 2 * exp(-1/3), give or take the fixed point's
        // truncation (a falling load rounds down at every step, as Linux's).
        l.fold(2060 * LOAD_FREQ_NS, 0);
        assert_eq!(l.show(), "0.01 0.72 1.44");
    }

    #[test]
    fn each_step_is_linuxs_fixed_point() {
        // One sample of one thread from zero: 2048 * (2048 - 1884), plus
        // 2047 for a rising load, over 2048: 164, that is 0.08.
        assert_eq!(calc_load(0, EXP[0], FIXED_1), 164);
        // A falling load truncates.
        assert_eq!(calc_load(FIXED_1, EXP[0], 0), 1884);
    }
}
