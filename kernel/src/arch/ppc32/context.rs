//! Threads of control: kernel stacks, the context switch, user entry, and the
//! lazy floating-point state.
//!
//! A process's kernel stack holds, at its top, the `TrapFrame` of the user
//! state it entered the kernel with. `switch_context` (entry.S) saves the
//! callee-saved registers of the running thread and resumes another. A brand
//! new thread is given a stack on which `switch_context` "returns" straight
//! into `trap_return`, which restores its TrapFrame and enters user mode.
//!
//! FP (on a core with an FPU): user code gets MSR[FP] only after its first FP
//! instruction traps (0x800).
//! The FP registers then belong to that process until another one needs them
//! or it is switched out, when they are saved (`fp_save`).

use super::frame::{asm_define, TrapFrame, MSR_FP, TF};
use sigil_core::layout::KERNELBASE;

/// Bytes between a kernel stack's top and its TrapFrame's ABI header
/// (vector.h's FRAME, which `frame.rs` checks against the struct).
pub const TRAP_FRAME_BYTES: usize = asm_define("FRAME");
/// switch_context's frame (entry.S's SWITCH_FRAME).
const SWITCH_FRAME_BYTES: usize = asm_define("SWITCH_FRAME");

extern "C" {
    fn switch_context(save_sp: *mut usize, new_sp: usize);
    fn trap_return();
    static boot_stack: u8;
    static boot_stack_top: u8;
}

/// The boot thread's stack (head.S's .bss), as [bottom, top).
fn boot_stack_bounds() -> (usize, usize) {
    // SAFETY: linker symbols; only their addresses are used.
    unsafe { (&boot_stack as *const u8 as usize, &boot_stack_top as *const u8 as usize) }
}

/// The user TrapFrame at the top of the kernel stack ending at `top`.
fn user_frame(top: usize) -> *mut TrapFrame {
    // A const, not `asm_define` here: a const fn called outside a const
    // context runs at run time, and this one scans the assembly's text.
    (top - TRAP_FRAME_BYTES + TF) as *mut TrapFrame
}

/// Prepares the kernel stack ending at `top` so that switching to the returned
/// stack pointer enters user mode with `tf`.
fn new_thread(top: usize, tf: &TrapFrame) -> usize {
    // SAFETY: [top - 288, top) is the unused top of a fresh kernel stack.
    unsafe {
        *user_frame(top) = tf.clone();
        let frame = top - TRAP_FRAME_BYTES;
        let sp = frame - SWITCH_FRAME_BYTES;
        core::ptr::write_bytes(sp as *mut u8, 0, SWITCH_FRAME_BYTES);
        // switch_context pops 96 bytes and returns to the LR saved at 4(r1).
        *((frame + 4) as *mut usize) = trap_return as *const () as usize;
        sp
    }
}

/// Suspends the running thread (its stack pointer goes to `*save`) and runs
/// the thread whose saved stack pointer is `next`.
///
/// # Safety
/// `save` must stay valid until the thread is resumed, and `next` must come
/// from `new_thread` or an earlier `switch`.
unsafe fn switch(save: *mut usize, next: usize) {
    // SAFETY: per the contract above.
    unsafe { switch_context(save, next) }
}

/// SPRG0, the special-purpose register that holds the physical address of
/// the running thread's kernel stack top (vector.h's `SPRG0`, which the
/// build checks it against): the system call vector stores its frame there
/// in real mode, and trap_entry adds KERNELBASE back.
const SPRG0: usize = 272;
const _: () = assert!(super::frame::define_in(include_str!("vector.h"), "SPRG0") == SPRG0);
const _: () =
    assert!(super::frame::define_in(include_str!("vector.h"), "KERNELBASE") == KERNELBASE as usize);

/// vector.h's `MSR_KERNEL`, the MSR each vector's `rfi` enters the kernel
/// with: machine checks on, translation on, nothing else.
const _: () = {
    use sigil_core::signal::frame::{MSR_DR, MSR_IR, MSR_ME};
    let msr = super::frame::define_in(include_str!("vector.h"), "MSR_KERNEL");
    assert!(msr == (MSR_ME | MSR_IR | MSR_DR) as usize);
};

/// Where the next trap from user mode starts its kernel stack (SPRG0). The
/// stack is kernel heap, in the linear map, so its physical address is its
/// virtual one less KERNELBASE.
fn set_kernel_stack(top: usize) {
    // SAFETY: SPRG0 is read only by the system call vector and trap_entry,
    // for exactly this.
    unsafe {
        core::arch::asm!("mtspr {spr}, {0}", in(reg) top - KERNELBASE as usize, spr = const SPRG0, options(nostack))
    };
}

/// A process's floating-point registers, as `stfd`/`mffs` leave them.
#[repr(C, align(8))]
#[derive(Clone)]
pub struct FpState {
    pub fpr: [u64; 32],
    pub fpscr: u64,
}

impl FpState {
    pub const fn new() -> FpState {
        FpState { fpr: [0; 32], fpscr: 0 }
    }

    /// Is this the state a thread starts with (every register and FPSCR zero)?
    pub fn is_initial(&self) -> bool {
        self.fpscr == 0 && self.fpr.iter().all(|&r| r == 0)
    }
}

macro_rules! fp_regs {
    ($op:literal, $base:ident) => {
        concat!(
            $op,
            " 0, 0({b})\n",
            $op,
            " 1, 8({b})\n",
            $op,
            " 2, 16({b})\n",
            $op,
            " 3, 24({b})\n",
            $op,
            " 4, 32({b})\n",
            $op,
            " 5, 40({b})\n",
            $op,
            " 6, 48({b})\n",
            $op,
            " 7, 56({b})\n",
            $op,
            " 8, 64({b})\n",
            $op,
            " 9, 72({b})\n",
            $op,
            " 10, 80({b})\n",
            $op,
            " 11, 88({b})\n",
            $op,
            " 12, 96({b})\n",
            $op,
            " 13, 104({b})\n",
            $op,
            " 14, 112({b})\n",
            $op,
            " 15, 120({b})\n",
            $op,
            " 16, 128({b})\n",
            $op,
            " 17, 136({b})\n",
            $op,
            " 18, 144({b})\n",
            $op,
            " 19, 152({b})\n",
            $op,
            " 20, 160({b})\n",
            $op,
            " 21, 168({b})\n",
            $op,
            " 22, 176({b})\n",
            $op,
            " 23, 184({b})\n",
            $op,
            " 24, 192({b})\n",
            $op,
            " 25, 200({b})\n",
            $op,
            " 26, 208({b})\n",
            $op,
            " 27, 216({b})\n",
            $op,
            " 28, 224({b})\n",
            $op,
            " 29, 232({b})\n",
            $op,
            " 30, 240({b})\n",
            $op,
            " 31, 248({b})\n",
        )
    };
}

fn with_fp<R>(f: impl FnOnce() -> R) -> R {
    let msr: u32;
    // SAFETY: MSR[FP] only enables the FP unit for the kernel for a moment;
    // the kernel itself is built soft-float and never touches FP registers.
    unsafe {
        core::arch::asm!("mfmsr {0}", out(reg) msr, options(nomem, nostack));
        core::arch::asm!("mtmsr {0}", "isync", in(reg) msr | MSR_FP, options(nostack));
    }
    let r = f();
    // SAFETY: as above, back to the kernel's MSR.
    unsafe { core::arch::asm!("mtmsr {0}", "isync", in(reg) msr, options(nostack)) };
    r
}

/// Stores the live FP registers into `st`.
fn fp_save(st: &mut FpState) {
    let base = st as *mut FpState;
    with_fp(|| {
        // SAFETY: `base` points to 264 writable bytes; FP is enabled by with_fp.
        unsafe {
            core::arch::asm!(fp_regs!("stfd", b), "mffs 0", "stfd 0, 256({b})", "lfd 0, 0({b})",
                b = in(reg_nonzero) base, options(nostack));
        }
    });
}

/// Loads `st` into the FP registers.
fn fp_load(st: &FpState) {
    let base = st as *const FpState;
    with_fp(|| {
        // SAFETY: `base` points to 264 readable bytes; FP is enabled by with_fp.
        unsafe {
            core::arch::asm!("lfd 0, 256({b})", "mtfsf 0xff, 0", fp_regs!("lfd", b),
                b = in(reg_nonzero) base, options(nostack));
        }
    });
}

/// Every family switches threads the same way (entry.S).
impl crate::arch::Context for crate::arch::Arch {
    fn boot_stack_bounds() -> (usize, usize) {
        boot_stack_bounds()
    }
    #[inline(always)]
    fn user_frame(top: usize) -> *mut TrapFrame {
        user_frame(top)
    }
    fn new_thread(top: usize, tf: &TrapFrame) -> usize {
        new_thread(top, tf)
    }
    #[inline(always)]
    fn set_kernel_stack(top: usize) {
        set_kernel_stack(top)
    }
    #[inline(always)]
    unsafe fn switch(save: *mut usize, next: usize) {
        // SAFETY: the caller keeps the trait's contract, which is `switch`'s.
        unsafe { switch(save, next) }
    }
    fn fp_save(st: &mut FpState) {
        fp_save(st)
    }
    fn fp_load(st: &FpState) {
        fp_load(st)
    }
}
