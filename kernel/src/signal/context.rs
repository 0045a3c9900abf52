//! swapcontext (ppc32 syscall 249): glibc's getcontext, setcontext and
//! swapcontext, the RT signal frame's ucontext without a signal (Linux
//! `sys_swapcontext`, arch/powerpc/kernel/signal_32.c).
//!
//! swapcontext(old, new, size) saves the caller's registers, FP state and
//! blocked mask in `old` (unless NULL) and then, unless `new` is NULL,
//! resumes the state saved in `new` instead of returning: getcontext is
//! (old, NULL), setcontext (NULL, new). `size` must be at least a
//! `UContext`'s 1184 bytes (EINVAL), compared unsigned as Linux compares
//! its long with a sizeof: -1 passes, and a window that long is EFAULT.
//! Each side is one user-access window, written and read by the frame
//! code's own `put_mcontext` and `read_mcontext`; the MSR comes from the
//! kernel, never from the context (`sanitize_user_msr`), as at sigreturn.
//!
//! Where it differs from sigreturn, as Linux's `do_setcontext`: r2 (the
//! thread pointer) is not taken from the context, and nothing is restarted. A context that cannot be read is EFAULT with
//! the caller's registers untouched; an mcontext pointer (`uc_regs`) that
//! leads nowhere is found only after the registers have been overwritten,
//! and kills the caller with SIGSEGV (Linux `force_exit_sig`).

use sigil_core::abi::{self, Errno};
use sigil_core::signal::frame::{MContext, UContext};
use sigil_core::signal::{SigAction, SigSet, Signal};

use super::deliver::{flush_fp, mcontext_in, put_mcontext, read_mcontext};
use crate::arch::{self, TrapFrame};
use crate::proc::{self, Thread};
use crate::uaccess::{Read, UserWindow, Write};

/// swapcontext(old, new, size). Returns 0 to the caller, or, when a new
/// context was set, r3 as that context saved it (so the dispatcher's write
/// of the result leaves it as it is).
pub fn swapcontext(tf: &mut TrapFrame, old: u32, new: u32, size: u32) -> Result<u32, Errno> {
    if size < UContext::SIZE {
        return Err(Errno::EINVAL);
    }
    let p = proc::current();
    if old != 0 {
        save(tf, p, old, size)?;
    }
    if new == 0 {
        return Ok(0);
    }
    set(tf, p, new, size)?;
    tf.forget_syscall();
    Ok(tf.ret())
}

/// getcontext's half: the mcontext goes at `uc_mcontext` rounded down to 16
/// bytes (Linux: a ucontext need not be 16-aligned, and uc_pad2 leaves the
/// room), `uc_regs` points at it, `uc_sigmask` is the blocked mask.
fn save(tf: &mut TrapFrame, p: &mut Thread, uc: u32, size: u32) -> Result<(), Errno> {
    flush_fp(p, tf);
    let mc = uc.wrapping_add(UContext::MCONTEXT) & !0xf;
    let mut w = UserWindow::open(uc, size, Write)?;
    put_mcontext(&mut w, mc - uc, tf, p.fp_used.then_some(&p.fp));
    let (m0, m1) = p.sig.blocked.words();
    w.put(UContext::SIGMASK, m0);
    w.put(UContext::SIGMASK + 4, m1);
    w.put(UContext::REGS, mc);
    w.finish().map_err(Errno::from)
}

/// setcontext's half: the mask and the registers from the context at `uc`.
fn set(tf: &mut TrapFrame, p: &mut Thread, uc: u32, size: u32) -> Result<(), Errno> {
    let (before, fp_before) = (tf.clone(), p.fp.clone());
    let tls = tf.tls();
    let w = UserWindow::open(uc, size, Read)?;
    let mask = SigSet::from_user_words(w.get(UContext::SIGMASK), w.get(UContext::SIGMASK + 4));
    let mc: u32 = w.get(UContext::REGS);
    let has_fp = if let Some(off) = mcontext_in(mc, uc, size) {
        let has_fp = read_mcontext(&w, off, tf, &mut p.fp);
        if w.finish().is_err() {
            (*tf, p.fp) = (before, fp_before);
            return Err(Errno::EFAULT);
        }
        has_fp
    } else {
        w.finish()?;
        let read = UserWindow::open(mc, MContext::READ, Read).and_then(|w2| {
            let has_fp = read_mcontext(&w2, 0, tf, &mut p.fp);
            w2.finish().map(|_| has_fp)
        });
        let Ok(has_fp) = read else {
            bad_mcontext(tf);
            return Ok(());
        };
        has_fp
    };
    tf.set_tls(tls);
    if !has_fp {
        p.fp = arch::FpState::new();
    }
    p.fp_used = !p.fp.is_initial();
    p.fp_live = false;
    p.sig.blocked = mask.blockable();
    Ok(())
}

/// The registers are half overwritten: the caller cannot go on, and dies
/// of SIGSEGV even if it has a handler for it (Linux `force_exit_sig`).
fn bad_mcontext(tf: &TrapFrame) {
    let segv = Signal::new(abi::SIGSEGV).expect("SIGSEGV is a signal");
    *proc::group().sig.action(segv) = SigAction::DEFAULT;
    super::force_fault(tf, abi::SIGSEGV, abi::SI_KERNEL, 0);
}
