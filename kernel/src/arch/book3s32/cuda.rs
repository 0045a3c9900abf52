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

use super::io::{self, Block, Reg};

/// The VIA's 16 registers, 0x200 apart.
const VIA: Block = io::MACIO.sub(0x16000, 0x2000);
const B: Reg<u8> = VIA.reg(0);
const DIRB: Reg<u8> = VIA.reg(0x200 * 2);
const SR: Reg<u8> = VIA.reg(0x200 * 10);
const ACR: Reg<u8> = VIA.reg(0x200 * 11);
const IFR: Reg<u8> = VIA.reg(0x200 * 13);

const TREQ: u8 = 0x08;
const TACK: u8 = 0x10;
const TIP: u8 = 0x20;
const ACR_SR_OUT: u8 = 0x10;
const IFR_SR_INT: u8 = 0x04;

/// Polls before a shift interrupt counts as missing: QEMU's CUDA answers
/// within a few tens of microseconds of guest time, a few thousand polls.
const PATIENCE: u32 = 1 << 20;

/// Waits for the shift register's interrupt and acknowledges it; gives up
/// (false) after PATIENCE polls.
fn wait_shift() -> bool {
    for _ in 0..PATIENCE {
        if IFR.read() & IFR_SR_INT != 0 {
            IFR.write(IFR.read() & 0x7f);
            return true;
        }
    }
    false
}

/// Sends a CUDA pseudo-command (packet type 1) with no arguments and reads
/// the reply packet into `reply`; returns its length, or None if CUDA does
/// not answer.
fn pseudo_command(cmd: u8, reply: &mut [u8]) -> Option<usize> {
    DIRB.write((DIRB.read() | TIP | TACK) & !TREQ);
    B.write(B.read() | TIP | TACK);
    ACR.write(ACR.read() | ACR_SR_OUT);
    SR.write(0x01);
    B.write(B.read() & !TIP);
    let sent = wait_shift() && {
        SR.write(cmd);
        B.write(B.read() ^ TACK);
        wait_shift()
    };
    ACR.write(ACR.read() & !ACR_SR_OUT);
    let _ = SR.read();
    B.write(B.read() | TIP | TACK);
    // CUDA asserts TREQ when the reply is ready.
    if !sent || !(0..PATIENCE).any(|_| B.read() & TREQ == 0) {
        return None;
    }
    // The reply: TIP asserted starts it, each TACK toggle asks for the next byte.
    B.write(B.read() & !TIP);
    let mut n = 0;
    let ok = loop {
        if !wait_shift() {
            break false;
        }
        let byte = SR.read();
        if n < reply.len() {
            reply[n] = byte;
            n += 1;
        }
        if B.read() & TREQ != 0 {
            break true; // TREQ negated: that was the last byte
        }
        B.write(B.read() ^ TACK);
    };
    B.write(B.read() | TIP | TACK);
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

const POWERDOWN: u8 = 0x0a;

/// Sends {1, POWERDOWN} to CUDA. QEMU powers off as the packet ends, so no
/// reply comes and nothing is left to do but wait.
pub fn power_off() -> ! {
    let _ = pseudo_command(POWERDOWN, &mut []);
    loop {
        core::hint::spin_loop();
    }
}
