//! The first Rust code every exception runs: entry.S calls `trap_dispatch`
//! with the saved `TrapFrame`. The vector number and its status registers
//! become a machine-neutral `Exception` for the generic kernel (`crate::trap`).
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

#[no_mangle]
extern "C" fn trap_dispatch(tf: &mut TrapFrame) {
    // SRR1's upper half holds the exception's reason bits, not MSR state
    // (`classify` reads them); QEMU's rfi would copy them into the MSR, so
    // they go before `handle`. The common case first, with no `Exception` at
    // all: `classify` returns one through memory, and `handle` (out of
    // line) saves the registers the rare cases need.
    if tf.is_syscall() && tf.is_user() {
        tf.msr &= 0xffff;
        crate::trap::syscall(tf);
    } else {
        let event = crate::arch::classify(tf);
        tf.msr &= 0xffff;
        crate::trap::handle(tf, event);
    }
}
