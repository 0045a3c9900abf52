//! The load average's state (`sigil_core::time::loadavg` has the
//! arithmetic). Only the scheduler knows how many threads want the CPU, so
//! it feeds the samples: the timer tick when a sample point is due
//! (`trap::timer_tick`), and the idle loop on waking, with 0 for the points
//! it slept through (nothing was runnable then).

use alloc::string::String;

use sigil_core::time::loadavg::LoadAvg;

use crate::kcell::KCell;

static LOAD: KCell<LoadAvg> = KCell::new(LoadAvg::new());

/// Folds the sample points passed by `now`; `active` (the threads running
/// or runnable) is counted only if one has.
pub fn sample(now: u64, active: impl FnOnce() -> u32) {
    let l = LOAD.get();
    if l.due(now) {
        l.fold(now, active());
    }
}

/// The three averages, as /proc/loadavg starts.
pub fn show() -> String {
    LOAD.get().show()
}
