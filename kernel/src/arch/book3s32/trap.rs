//! The first Rust code every exception runs on book3s/32: the vector number
//! and its status registers become a machine-neutral `Event` for the generic
//! kernel (`crate::trap`).

use crate::arch::ppc32::frame::{Event, TrapFrame};

const DSISR_NOTFOUND: u32 = 0x4000_0000;
const DSISR_STORE: u32 = 0x0200_0000;
const SRR1_PROGRAM_FP: u32 = 0x0010_0000;
const SRR1_PROGRAM_ILLEGAL: u32 = 0x0008_0000;
const SRR1_PROGRAM_PRIV: u32 = 0x0004_0000;
const SRR1_PROGRAM_TRAP: u32 = 0x0002_0000;

/// Decodes the vector and its status registers.
#[inline(never)]
pub fn classify(tf: &TrapFrame) -> Event {
    match tf.trap {
        0x300 => Event::PageFault {
            ea: tf.dar,
            write: tf.dsisr & DSISR_STORE != 0,
            missing: tf.dsisr & DSISR_NOTFOUND != 0,
        },
        0x400 => Event::PageFault { ea: tf.nip, write: false, missing: tf.msr & DSISR_NOTFOUND != 0 },
        0x500 => Event::External,
        0x600 => Event::Alignment { ea: tf.dar },
        0x700 if tf.msr & SRR1_PROGRAM_FP != 0 => Event::FpException,
        0x700 if tf.msr & SRR1_PROGRAM_ILLEGAL != 0 => Event::IllegalInstruction,
        0x700 if tf.msr & SRR1_PROGRAM_PRIV != 0 => Event::PrivilegedInstruction,
        0x700 if tf.msr & SRR1_PROGRAM_TRAP != 0 => Event::TrapInstruction,
        0x800 => Event::FpUnavailable,
        0x900 => Event::Timer,
        0xc00 => Event::Syscall,
        0xd00 => Event::Trace,
        _ => Event::Unexpected,
    }
}

#[no_mangle]
extern "C" fn trap_dispatch(tf: &mut TrapFrame) {
    // The common case first, and `classify` out of line: inlined, its match
    // becomes a compare tree that reaches 0xc00 only after several branches.
    let event = if tf.trap == 0xc00 { Event::Syscall } else { classify(tf) };
    // SRR1's upper half holds the exception's reason bits, not MSR state;
    // QEMU's rfi would copy them into the MSR, so drop them now.
    tf.msr &= 0xffff;
    crate::trap::handle(tf, event);
}
