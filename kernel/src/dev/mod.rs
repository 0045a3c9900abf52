//! Devices: the console, the timer, the random source, and the pseudo PCM.

pub mod console;
pub mod pcm;
pub mod random;
pub mod timer;

/// An external interrupt. Sigil polls its console and enables no device
/// interrupt in the PIC, so one arriving is reported and otherwise ignored.
pub fn irq() {
    crate::kprintln!("sigil: spurious external interrupt");
}
