//! CUDA, the mac's power-management microcontroller: its real-time clock
//! (read once at boot) and power-off.
//!
//! CUDA sits behind a VIA 6522 shift register. A packet is shifted out one byte
//! at a time with a TIP/TACK handshake; QEMU exits when it sees the POWERDOWN
//! packet {CUDA_PACKET = 1, POWERDOWN = 0x0a}. Firmware-less, port B starts at 0,
//! which looks like "transfer in progress", so it is first set idle.
//!
//! A reply comes back the same way in the other direction (Linux
//! `via-cuda.c`): CUDA asserts TREQ (active low) when it has a packet; the
//! host switches the shift register to input, asserts TIP, and after each
//! byte's shift interrupt reads it and toggles TACK. CUDA negates TREQ as it
//! shifts the last byte, which ends the transfer.

use super::io;

const VIA: usize = io::MACIO + 0x16000;
const B: usize = VIA;
const DIRB: usize = VIA + 0x200 * 2;
const SR: usize = VIA + 0x200 * 10;
const ACR: usize = VIA + 0x200 * 11;
const IFR: usize = VIA + 0x200 * 13;

const TREQ: u8 = 0x08;
const TACK: u8 = 0x10;
const TIP: u8 = 0x20;
const ACR_SR_OUT: u8 = 0x10;
const IFR_SR_INT: u8 = 0x04;

fn wait_shift() {
    while io::read8(IFR) & IFR_SR_INT == 0 {}
    io::write8(IFR, io::read8(IFR) & 0x7f);
}

/// Polls before a shift interrupt counts as missing: QEMU's CUDA answers
/// within a few tens of microseconds of guest time, a few thousand polls.
const PATIENCE: u32 = 1 << 20;

/// `wait_shift`, giving up (false) after PATIENCE polls.
fn wait_shift_bounded() -> bool {
    for _ in 0..PATIENCE {
        if io::read8(IFR) & IFR_SR_INT != 0 {
            io::write8(IFR, io::read8(IFR) & 0x7f);
            return true;
        }
    }
    false
}

/// Sends a CUDA pseudo-command (packet type 1) with no arguments and reads
/// the reply packet into `reply`; returns its length, or None if CUDA does
/// not answer.
fn pseudo_command(cmd: u8, reply: &mut [u8]) -> Option<usize> {
    io::write8(DIRB, (io::read8(DIRB) | TIP | TACK) & !TREQ);
    io::write8(B, io::read8(B) | TIP | TACK);
    io::write8(ACR, io::read8(ACR) | ACR_SR_OUT);
    io::write8(SR, 0x01);
    io::write8(B, io::read8(B) & !TIP);
    let sent = wait_shift_bounded() && {
        io::write8(SR, cmd);
        io::write8(B, io::read8(B) ^ TACK);
        wait_shift_bounded()
    };
    io::write8(ACR, io::read8(ACR) & !ACR_SR_OUT);
    let _ = io::read8(SR);
    io::write8(B, io::read8(B) | TIP | TACK);
    // CUDA asserts TREQ when the reply is ready.
    if !sent || !(0..PATIENCE).any(|_| io::read8(B) & TREQ == 0) {
        return None;
    }
    // The reply: TIP asserted starts it, each TACK toggle asks for the next byte.
    io::write8(B, io::read8(B) & !TIP);
    let mut n = 0;
    let ok = loop {
        if !wait_shift_bounded() {
            break false;
        }
        let byte = io::read8(SR);
        if n < reply.len() {
            reply[n] = byte;
            n += 1;
        }
        if io::read8(B) & TREQ != 0 {
            break true; // TREQ negated: that was the last byte
        }
        io::write8(B, io::read8(B) ^ TACK);
    };
    io::write8(B, io::read8(B) | TIP | TACK);
    ok.then_some(n)
}

const GET_TIME: u8 = 0x03;
/// Seconds from 1904-01-01 (the Mac epoch CUDA counts from) to 1970-01-01.
const MAC_EPOCH_TO_UNIX: u32 = 2_082_844_800;

/// The real-time clock, in seconds since 1970: CUDA's GET_TIME reply is
/// {1, 0, GET_TIME, t31..24, t23..16, t15..8, t7..0}, Mac-epoch seconds (QEMU
/// starts it at the host's time or at `-rtc base=`). None if CUDA did not
/// answer as expected.
pub fn rtc_seconds() -> Option<u64> {
    let mut reply = [0u8; 8];
    let n = pseudo_command(GET_TIME, &mut reply)?;
    if n < 7 || reply[0] != 0x01 {
        return None;
    }
    let mac = u32::from_be_bytes([reply[n - 4], reply[n - 3], reply[n - 2], reply[n - 1]]);
    Some(mac.wrapping_sub(MAC_EPOCH_TO_UNIX) as u64)
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
