//! How a trap's saved `TrapFrame` becomes what the generic kernel handles:
//! entry.S calls `crate::trap::trap_dispatch`, which asks `exception` (a user
//! `sc` never comes here: the system call vector and syscall_entry call its
//! handler from the system call table with no decoding at all). The vector
//! number and its status registers become a machine-neutral `Exception`.
//! The vectors every 32-bit PowerPC shares are decoded here; those a family
//! does its own way (page faults, FP unavailable) by its `classify`, which
//! hands the rest to `classify_common`.

use super::frame::{Exception, TrapFrame, VEC_SYSCALL};

const SRR1_PROGRAM_FP: u32 = 0x0010_0000;
const SRR1_PROGRAM_ILLEGAL: u32 = 0x0008_0000;
const SRR1_PROGRAM_PRIV: u32 = 0x0004_0000;
const SRR1_PROGRAM_TRAP: u32 = 0x0002_0000;

/// Decodes the vectors every family has, at the same offsets.
pub fn classify_common(tf: &TrapFrame) -> Exception {
    match tf.trap {
        0x500 => Exception::External,
        0x600 => Exception::Alignment { ea: tf.dar },
        0x700 if tf.msr & SRR1_PROGRAM_FP != 0 => Exception::FpEnabled,
        0x700 if tf.msr & SRR1_PROGRAM_ILLEGAL != 0 => Exception::IllegalInstruction,
        0x700 if tf.msr & SRR1_PROGRAM_PRIV != 0 => Exception::PrivilegedInstruction,
        0x700 if tf.msr & SRR1_PROGRAM_TRAP != 0 => Exception::TrapInstruction,
        0x900 => Exception::Timer,
        VEC_SYSCALL => Exception::Syscall,
        0xd00 => Exception::Trace,
        _ => Exception::Unexpected,
    }
}

/// How a family's `classify` reads a user word it needs (the 8xx: the
/// instruction of a dcbX fault, whose address DAR does not hold). The
/// caller passes its checked user access (`crate::uaccess`), which sits
/// above this layer.
pub type ReadUser = fn(u32) -> Option<u32>;

/// Any other trap, decoded; SRR1's reason bits go once `classify` has read
/// them.
#[inline(always)]
pub fn exception(tf: &mut TrapFrame, read_user: ReadUser) -> Exception {
    let event = crate::arch::classify(tf, read_user);
    tf.msr &= 0xffff;
    event
}
