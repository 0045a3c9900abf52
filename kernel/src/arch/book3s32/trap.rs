//! The book3s/32 vectors that differ from other 32-bit PowerPCs: page faults
//! arrive as DSI (0x300, address in DAR) and ISI (0x400), and FP-unavailable
//! at 0x800. Everything else: `ppc32::trap::classify_common`.

use crate::arch::ppc32::frame::{Exception, TrapFrame};
use crate::arch::ppc32::trap::{classify_common, ReadUser};

const DSISR_NOTFOUND: u32 = 0x4000_0000;
const DSISR_STORE: u32 = 0x0200_0000;

/// Decodes the vector and its status registers (`ppc32::trap::ReadUser`:
/// this family never needs to read the faulting instruction).
#[inline(never)]
pub fn classify(tf: &TrapFrame, _read_user: ReadUser) -> Exception {
    match tf.trap {
        0x300 => Exception::PageFault {
            ea: tf.dar,
            write: tf.dsisr & DSISR_STORE != 0,
            missing: tf.dsisr & DSISR_NOTFOUND != 0,
        },
        0x400 => {
            Exception::PageFault { ea: tf.nip, write: false, missing: tf.msr & DSISR_NOTFOUND != 0 }
        }
        0x800 => Exception::FpUnavailable,
        _ => classify_common(tf),
    }
}
