//! Power-off through CUDA, the mac's power-management microcontroller.
//!
//! CUDA sits behind a VIA 6522 shift register. A packet is shifted out one byte
//! at a time with a TIP/TACK handshake; QEMU exits when it sees the POWERDOWN
//! packet {CUDA_PACKET = 1, POWERDOWN = 0x0a}. Firmware-less, port B starts at 0,
//! which looks like "transfer in progress", so it is first set idle.

use super::io;

const VIA: usize = io::MACIO + 0x16000;
const B: usize = VIA;
const DIRB: usize = VIA + 0x200 * 2;
const SR: usize = VIA + 0x200 * 10;
const ACR: usize = VIA + 0x200 * 11;
const IFR: usize = VIA + 0x200 * 13;

const TACK: u8 = 0x10;
const TIP: u8 = 0x20;
const ACR_SR_OUT: u8 = 0x10;
const IFR_SR_INT: u8 = 0x04;

fn wait_shift() {
    while io::read8(IFR) & IFR_SR_INT == 0 {}
    io::write8(IFR, io::read8(IFR) & 0x7f);
}

/// Sends {1, 0x0a} to CUDA; QEMU powers off and does not return.
pub fn power_off() -> ! {
    io::write8(DIRB, io::read8(DIRB) | TIP | TACK);
    io::write8(B, io::read8(B) | TIP | TACK);
    io::write8(ACR, io::read8(ACR) | ACR_SR_OUT);
    io::write8(SR, 0x01);
    io::write8(B, io::read8(B) & !TIP);
    wait_shift();
    io::write8(SR, 0x0a);
    io::write8(B, io::read8(B) ^ TACK);
    wait_shift();
    io::write8(ACR, io::read8(ACR) & !ACR_SR_OUT);
    let _ = io::read8(SR);
    io::write8(B, io::read8(B) | TIP | TACK);
    // The power goes off a few CUDA cycles later; nothing is left to do.
    loop {
        core::hint::spin_loop();
    }
}
