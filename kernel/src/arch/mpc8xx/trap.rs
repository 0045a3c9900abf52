//! The 8xx vectors that differ from other 32-bit PowerPCs (the rest:
//! `ppc32::trap::classify_common`).
//!
//! Differences from book3s32: page faults arrive as TLB *errors* (0x1300
//! instruction, 0x1400 data) after the miss handler loaded an invalid or
//! forbidding entry; FP and unimplemented instructions arrive at 0x1000
//! (software emulation) and become `FpUnavailable`, which the generic kernel
//! hands to the FP emulator (`crate::fpemu`: anything not FP is SIGILL); and
//! a dcbX/icbi data TLB error does not set DAR (erratum): DAR still holds the
//! miss handler's tag, so the address is recomputed from the instruction
//! (`sigil_core::mmu8xx::dcbx_ea`).

use sigil_core::mmu8xx::{dcbx_ea, pte::RPN_PATTERN};

use crate::arch::ppc32::frame::{Exception, TrapFrame};
use crate::arch::ppc32::trap::{classify_common, ReadUser};

const DSISR_NOTFOUND: u32 = 0x4000_0000;
const DSISR_STORE: u32 = 0x0200_0000;
const SRR1_NOTFOUND: u32 = 0x4000_0000;

/// The data address of a DTLB error, and whether it really was a store.
fn data_fault(tf: &TrapFrame, read_user: ReadUser) -> (u32, bool) {
    let store = tf.dsisr & DSISR_STORE != 0;
    if tf.dar != RPN_PATTERN {
        return (tf.dar, store);
    }
    let insn = if tf.is_user() {
        read_user(tf.nip).unwrap_or(0)
    } else {
        // SAFETY: a kernel nip is an address of kernel text, mapped and readable.
        unsafe { core::ptr::read_volatile(tf.nip as *const u32) }
    };
    match dcbx_ea(insn, &tf.gpr) {
        Some((ea, dcbst)) => (ea, store && !dcbst),
        None => (tf.dar, store),
    }
}

/// Decodes the vector and its status registers.
#[inline(never)]
pub fn classify(tf: &TrapFrame, read_user: ReadUser) -> Exception {
    match tf.trap {
        0x1400 => {
            let (ea, write) = data_fault(tf, read_user);
            Exception::PageFault { ea, write, missing: tf.dsisr & DSISR_NOTFOUND != 0 }
        }
        0x1300 => {
            Exception::PageFault { ea: tf.nip, write: false, missing: tf.msr & SRR1_NOTFOUND != 0 }
        }
        0x1000 => Exception::FpUnavailable,
        _ => classify_common(tf),
    }
}
