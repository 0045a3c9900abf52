//! Devices: the console (a terminal), the pseudo PCM, and
//! the user-access counters the benchmarks read.

pub mod counters;
pub mod pcm;
pub mod tty;

/// An external interrupt: the console's receive is the only device
/// interrupt Sigil enables; anything else is reported and ignored.
pub fn irq() {
    if <crate::arch::Arch as crate::arch::Console>::take_irq() {
        tty::rx_interrupt();
    } else {
        crate::kprintln!("sigil: spurious external interrupt");
    }
}
