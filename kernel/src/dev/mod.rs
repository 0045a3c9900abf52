//! Devices: the console, the timer, the random source, the pseudo PCM, and
//! the user-access counters the benchmarks read.

pub mod console;
pub mod counters;
pub mod pcm;
pub mod random;
pub mod timer;

/// An external interrupt. Sigil polls its console and enables no device
/// interrupt in the PIC, so one arriving is reported and otherwise ignored.
pub fn irq() {
    crate::kprintln!("sigil: spurious external interrupt");
}
