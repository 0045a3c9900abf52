//! Static keys: a boot option tested on a hot path for the cost of one
//! `nop` (Linux's jump labels, include/linux/jump_label.h).
//!
//! A flag the command line sets once, before any process exists, and that
//! the signal paths then test on every delivery (the signal trace, the
//! comparison modes `signal.dequeue=copy` and `signal.frame=field`), cost
//! a load, a compare and a branch at each test, plus the register that held
//! the answer where it was needed twice. A static key costs a `nop` per test:
//! `static_branch!(KEY)` marks its place in the code and records it in a
//! table, and enabling the key (`enable`) rewrites each of its places into a
//! branch to the enabled way. The arch half (`crate::arch::static_branch!`)
//! is the instruction and the patch.
//!
//! Keys are only enabled while the command line is parsed: nothing runs the
//! patched code then, and nothing ever disables one.

use core::sync::atomic::{AtomicBool, Ordering};

pub(crate) use crate::arch::static_branch;

/// A boot option's switch; its `static_branch!` sites read no memory.
#[derive(Default)]
pub struct StaticKey {
    /// Whether `enable` ran (a second `enable` patches nothing). Also what
    /// gives the key an address of its own, which its sites record.
    on: AtomicBool,
}

impl StaticKey {
    pub const fn new() -> StaticKey {
        StaticKey { on: AtomicBool::new(false) }
    }

    /// Turns every `static_branch!(self)` to its enabled way. At boot only
    /// (`cmdline::parse`).
    pub fn enable(&'static self) {
        if self.on.swap(true, Ordering::Relaxed) {
            return;
        }
        let me = self as *const StaticKey as usize;
        for site in crate::arch::static_key_sites().iter().filter(|s| s.key() == me) {
            site.enable();
        }
    }
}
