//! Floating point without an FPU: the trap side of the emulator in
//! `sigil_core::fpemu`.
//!
//! The MPC8xx has no FPU: each FP instruction of a (hard-float) glibc
//! program traps to the software-emulation vector, and Linux, built with
//! CONFIG_MATH_EMULATION, computes it in `do_mathemu` on the thread's saved
//! FP registers and steps over it. Sigil does the same with `emulate`: the
//! process's `FpState` (the same registers the lazy FP code of an FPU core
//! saves) is the register file, and user memory is reached through uaccess.
//!
//! Who calls it: `trap::user_exception` for an FP-unavailable event, when
//! `active()`: always on a core without an FPU (the 8xx maps its 0x1000
//! vector to that event; the e300c2 raises FP-unavailable, since MSR[FP]
//! is never set for user code here), and on any core with the boot option
//! `fpu=emulate`, which keeps MSR[FP] clear for user code so that every FP
//! instruction traps (0x800) - how QEMU, which has no 8xx, tests this path.
//!
//! Outcomes, as in Linux: an instruction the emulator does not know gets
//! SIGILL (ILL_ILLOPC); a load or store that faults gets SIGSEGV at its data
//! address (Linux's math-emu reports the instruction's; an FPU core, and so
//! Sigil, the data's); an exception enabled in the FPSCR gets SIGFPE with the
//! code Linux's `__parse_fpscr` picks, the instruction not stepped over.

use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use sigil_core::abi;
use sigil_core::fpemu::{self, Cpu, Memory, Outcome};

use crate::arch::{self, TrapFrame};
use crate::{proc, signal, uaccess};

/// PPC_FEATURE_HAS_FPU in AT_HWCAP: the core has an FPU.
const PPC_FEATURE_HAS_FPU: u32 = 0x0800_0000;

/// Boot option `fpu=emulate`: emulate even though the core has an FPU.
pub static FORCED: AtomicBool = AtomicBool::new(false);
/// Instructions emulated since boot (the shutdown line's `fp emulated`).
pub static EMULATED: AtomicU32 = AtomicU32::new(0);

/// Is every user FP instruction emulated rather than run by an FPU?
pub fn active() -> bool {
    arch::hwcap() & PPC_FEATURE_HAS_FPU == 0 || FORCED.load(Ordering::Relaxed)
}

/// User memory for the emulator: each access is one uaccess window.
struct UserMemory;

impl Memory for UserMemory {
    fn read(&mut self, ea: u32, buf: &mut [u8]) -> bool {
        uaccess::copy_from_user(buf, ea).is_ok()
    }
    fn write(&mut self, ea: u32, data: &[u8]) -> bool {
        uaccess::copy_to_user(ea, data).is_ok()
    }
}

/// Emulates the FP instruction at `tf.pc()` of the current process.
pub fn emulate(tf: &mut TrapFrame) {
    let Ok(insn) = uaccess::get_user::<u32>(tf.pc()) else {
        crate::trap::segv(tf, tf.pc());
        return;
    };
    let p = proc::current();
    // The FPSCR lives in the low word of FpState's doubleword (mffs's image).
    let mut fpscr = p.fp.fpscr as u32;
    let (gpr, cr) = tf.gprs_cr_mut();
    let mut cpu = Cpu { gpr, cr, fpr: &mut p.fp.fpr, fpscr: &mut fpscr };
    let outcome = fpemu::emulate(insn, &mut cpu, &mut UserMemory);
    p.fp.fpscr = fpscr as u64;
    match outcome {
        Outcome::Done => {
            tf.skip_insn();
            EMULATED.fetch_add(1, Ordering::Relaxed);
        }
        Outcome::Unknown => signal::force_fault(tf, abi::SIGILL, abi::ILL_ILLOPC, tf.pc()),
        Outcome::Fault(ea) => crate::trap::segv(tf, ea),
        Outcome::Trap(code) => signal::force_fault(tf, abi::SIGFPE, code, tf.pc()),
    }
}
