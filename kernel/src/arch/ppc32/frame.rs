//! The trap frame every 32-bit PowerPC family builds, and the words the
//! generic kernel uses for exceptions.
//!
//! The entry code (vector.h's system call vector, entry.S's trap_entry)
//! saves all user-visible state into a `TrapFrame` on the kernel stack and
//! hands it to the generic kernel: a system call to its handler in the
//! system call table (`crate::syscall`), any other trap to
//! `crate::trap::trap_dispatch`, which asks trap.rs (with the family's
//! `classify` for the vectors that differ) to decode the vector into an
//! `Exception`.

/// Everything an exception saves; `#[repr(C)]` because the system call
/// vector and trap_entry write it at fixed offsets (r1 + 16 + offset).
///
/// The words are Linux ppc32's `struct pt_regs`, in its order, which is
/// also a signal frame's mc_gregs (`PT_*` indices, asserted below): a frame
/// write copies the 44 words as one run and then fixes the MSR word
/// (`gregs`, `frame_msr`), and sigreturn copies r0 ..= CCR straight back
/// (`restore_gregs`), with no register tail gathered word by word.
#[repr(C)]
#[derive(Clone, Default)]
pub struct TrapFrame {
    pub gpr: [u32; 32],
    pub nip: u32,
    pub msr: u32,
    /// r3 at entry: a restarted syscall needs its first argument back.
    pub orig_r3: u32,
    pub ctr: u32,
    pub lr: u32,
    pub xer: u32,
    pub cr: u32,
    /// The 601's MQ register in Linux; always 0 here, as on every other
    /// Linux ppc32 (the entry code stores 0, nothing else writes it).
    pub mq: u32,
    /// The vector the exception came through (0x300 DSI, 0xc00 syscall, ...).
    pub trap: u32,
    /// The fault address and status of a DSI or alignment trap. 0 in a
    /// system call's frame (it has no fault): the user frame's words are
    /// kept 0 outside a fault's handling (entry.S's trap_entry clears them
    /// after each trap), so that the system call vector need not store them.
    pub dar: u32,
    pub dsisr: u32,
    /// Linux's word for a system call's result (tracing); always 0 here:
    /// nothing writes it, and a new thread's frame starts zeroed or copied.
    pub result: u32,
}

/// The words of a `TrapFrame`, all of them a signal frame's mc_gregs.
pub const PT_REGS: usize = PT_RESULT + 1;
/// The words sigreturn takes back from mc_gregs: r0 ..= PT_CCR.
pub const PT_RESTORED: usize = PT_CCR + 1;

// The struct is pt_regs: each field at its PT_* word, nothing between.
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(size_of::<TrapFrame>() == 4 * PT_REGS);
    assert!(offset_of!(TrapFrame, gpr) == 0);
    let order = [
        (PT_NIP, offset_of!(TrapFrame, nip)),
        (PT_MSR, offset_of!(TrapFrame, msr)),
        (PT_ORIG_R3, offset_of!(TrapFrame, orig_r3)),
        (PT_CTR, offset_of!(TrapFrame, ctr)),
        (PT_LNK, offset_of!(TrapFrame, lr)),
        (PT_XER, offset_of!(TrapFrame, xer)),
        (PT_CCR, offset_of!(TrapFrame, cr)),
        (PT_MQ, offset_of!(TrapFrame, mq)),
        (PT_TRAP, offset_of!(TrapFrame, trap)),
        (PT_DAR, offset_of!(TrapFrame, dar)),
        (PT_DSISR, offset_of!(TrapFrame, dsisr)),
        (PT_RESULT, offset_of!(TrapFrame, result)),
    ];
    let mut i = 0;
    while i < order.len() {
        assert!(order[i].1 == 4 * order[i].0);
        i += 1;
    }
};

/// The TrapFrame's offset in the trap's stack frame (above the ABI header).
pub(super) const TF: usize = asm_define("TF");
// vector.h's offsets (its `#define`s, read here at compile time) agree with
// the struct: the header, r0.., the words from nip that one stmw stores in
// pt_regs order, and the fault words trap_entry clears.
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(asm_define("FRAME") == TF + size_of::<TrapFrame>());
    assert!(asm_define("TF_GPR") == TF + offset_of!(TrapFrame, gpr));
    assert!(asm_define("TF_NIP") == TF + offset_of!(TrapFrame, nip));
    assert!(asm_define("TF_DAR") == TF + offset_of!(TrapFrame, dar));
    assert!(asm_define("TF_DSISR") == TF + offset_of!(TrapFrame, dsisr));
};

/// The value of `#define NAME <number>` in vector.h or entry.S (the frame's
/// layout is in vector.h, which both the vectors and entry.S include), at
/// compile time (a missing name fails the build).
pub(super) const fn asm_define(name: &str) -> usize {
    define_in(concat!(include_str!("vector.h"), include_str!("entry.S")), name)
}

/// The value of `#define NAME <number>` (decimal or 0x hex) in an assembly
/// source, at compile time: how Rust constants that the assembly repeats
/// are asserted equal to it (a missing name fails the build).
pub(in crate::arch) const fn define_in(text: &str, name: &str) -> usize {
    const DEFINE: &[u8] = b"#define ";
    let (text, name) = (text.as_bytes(), name.as_bytes());
    let mut at = 0;
    while at + DEFINE.len() + name.len() < text.len() {
        let n = at + DEFINE.len();
        if starts_with(text, at, DEFINE)
            && starts_with(text, n, name)
            && text[n + name.len()] == b' '
        {
            let mut i = n + name.len();
            while text[i] == b' ' {
                i += 1;
            }
            let hex = starts_with(text, i, b"0x");
            let (base, mut v) = if hex { (16, 0) } else { (10, 0) };
            if hex {
                i += 2;
            }
            loop {
                let d = match text[i] {
                    c @ b'0'..=b'9' => c - b'0',
                    c @ b'a'..=b'f' if hex => c - b'a' + 10,
                    _ => break,
                };
                v = v * base + d as usize;
                i += 1;
            }
            return v;
        }
        at += 1;
    }
    panic!("the assembly has no such #define");
}

const fn starts_with(text: &[u8], at: usize, prefix: &[u8]) -> bool {
    let mut i = 0;
    while i < prefix.len() {
        if text[at + i] != prefix[i] {
            return false;
        }
        i += 1;
    }
    true
}

// The MSR bits are the signal frame's too (its saved MSR word): defined once,
// in sigil-core, next to the rules sigreturn applies to them.
use sigil_core::layout::KERNELBASE;
use sigil_core::signal::frame::{
    frame_msr, sanitize_user_msr, PT_CCR, PT_CTR, PT_DAR, PT_DSISR, PT_LNK, PT_MQ, PT_MSR, PT_NIP,
    PT_ORIG_R3, PT_RESULT, PT_TRAP, PT_XER,
};
pub use sigil_core::signal::frame::{MSR_FP, MSR_PR, MSR_USER};
// vector.h and entry.S test MSR[PR] of the interrupted context with their own
// copy.
const _: () = assert!(asm_define("MSR_PR") == MSR_PR as usize);

/// CR0[SO]: set in the saved CR when a syscall fails (r3 then holds errno).
const CR0_SO: u32 = 0x1000_0000;

/// The system call vector: `sc` traps here (the trap word of such a frame,
/// which vector.h's SYSCALL_VECTOR stores as a constant).
pub const VEC_SYSCALL: u32 = asm_define("VEC_SYSCALL") as u32;
const _: () = assert!(VEC_SYSCALL == 0xc00);

/// The Linux ppc32 calling conventions in words, so that generic code names
/// no register: a system call passes its number in r0 and its arguments in
/// r3..r8 and returns in r3, with CR0[SO] set on failure (r3 = errno); the
/// stack pointer is r1, the thread pointer r2, and a signal handler gets its
/// arguments in r3..r6. Each is one load or store: the syscall round trip
/// uses them.
impl TrapFrame {
    pub fn is_user(&self) -> bool {
        self.msr & MSR_PR != 0
    }

    /// Did this frame come from `sc`, with its system call not yet finished
    /// (`forget_syscall` not called)?
    #[inline(always)]
    pub fn is_syscall(&self) -> bool {
        self.trap == VEC_SYSCALL
    }

    /// Syscall entry: the number (r0). The error flag is clear already: the
    /// system call vector (vector.h) cleared it in the saved CR, so a call
    /// that succeeds leaves it clear unless the call itself set the
    /// registers (sigreturn restores CR whole).
    #[inline(always)]
    pub fn syscall_begin(&self) -> u32 {
        self.gpr[0]
    }

    /// System call argument `i` (0..6): r3..r8.
    #[inline(always)]
    pub fn arg(&self, i: usize) -> u32 {
        self.gpr[3 + i]
    }

    /// The value a syscall returns in r3 (or, with the error flag set, its errno).
    #[inline(always)]
    pub fn ret(&self) -> u32 {
        self.gpr[3]
    }

    /// A successful return value in r3; the error flag is left as it is.
    #[inline(always)]
    pub fn set_ret(&mut self, v: u32) {
        self.gpr[3] = v;
    }

    /// A failed return: errno in r3, CR0[SO] set (glibc tests SO, not the sign).
    #[inline(always)]
    pub fn set_error(&mut self, errno: u32) {
        self.gpr[3] = errno;
        self.cr |= CR0_SO;
    }

    /// A successful return `v` with the error flag cleared (a clone child's 0).
    #[inline(always)]
    pub fn set_success(&mut self, v: u32) {
        self.gpr[3] = v;
        self.cr &= !CR0_SO;
    }

    /// Did the system call this frame came through fail (CR0[SO] set)?
    #[inline(always)]
    pub fn syscall_failed(&self) -> bool {
        self.is_syscall() && self.cr & CR0_SO != 0
    }

    /// Restart: back to the `sc` with the first argument as it was at entry.
    pub fn restart_same(&mut self) {
        self.gpr[3] = self.orig_r3;
        self.nip -= 4;
    }

    /// Restart as syscall `nr` instead (restart_syscall, whose number is 0).
    pub fn restart_as(&mut self, nr: u32) {
        self.gpr[0] = nr;
        self.nip -= 4;
    }

    /// The call is over: nothing left for a restart to look at (Linux's
    /// trap word cleared after sigreturn and after a restart decision).
    #[inline(always)]
    pub fn forget_syscall(&mut self) {
        self.trap = 0;
    }

    /// The stack pointer (r1).
    #[inline(always)]
    pub fn sp(&self) -> u32 {
        self.gpr[1]
    }

    #[inline(always)]
    pub fn set_sp(&mut self, sp: u32) {
        self.gpr[1] = sp;
    }

    /// The thread pointer (TLS): r2 in the ppc32 ABI.
    pub fn tls(&self) -> u32 {
        self.gpr[2]
    }

    /// Sets the thread pointer (CLONE_SETTLS, setcontext keeping it).
    pub fn set_tls(&mut self, tls: u32) {
        self.gpr[2] = tls;
    }

    /// The user program counter (NIP): the instruction that trapped, or the
    /// one after `sc`.
    #[inline(always)]
    pub fn pc(&self) -> u32 {
        self.nip
    }

    /// Where the thread resumes in user mode (exec's entry, a handler).
    #[inline(always)]
    pub fn set_pc(&mut self, pc: u32) {
        self.nip = pc;
    }

    /// Steps past the instruction at `pc` (one the kernel emulated).
    pub fn skip_insn(&mut self) {
        self.nip += 4;
    }

    /// The return address (LR): where a handler's `blr` goes.
    pub fn return_address(&self) -> u32 {
        self.lr
    }

    #[inline(always)]
    pub fn set_return_address(&mut self, lr: u32) {
        self.lr = lr;
    }

    /// Fresh user state, as exec starts it: user mode, interrupts and
    /// translation on, FP off (`MSR_USER`).
    pub fn set_user_mode(&mut self) {
        self.msr = MSR_USER;
    }

    /// A handler runs in the kernel's user mode, whatever the interrupted
    /// code had (`sanitize_user_msr`), with FP off until it uses FP.
    #[inline(always)]
    pub fn reset_user_mode(&mut self) {
        self.msr = sanitize_user_msr(self.msr);
    }

    /// The FP unit is on for the user thread (MSR[FP]): its FP registers
    /// are live in the CPU (lazy FP, `FpUnavailable`).
    pub fn enable_fp(&mut self) {
        self.msr |= MSR_FP;
    }

    /// The FP unit is off for the user thread: its next FP instruction traps
    /// (its FP registers were saved, or a new thread has none live).
    #[inline(always)]
    pub fn disable_fp(&mut self) {
        self.msr &= !MSR_FP;
    }

    /// The general registers and CR, for the FP emulator's loads, stores
    /// and compares.
    pub fn gprs_cr_mut(&mut self) -> (&mut [u32; 32], &mut u32) {
        (&mut self.gpr, &mut self.cr)
    }

    /// The whole frame as a signal frame's mc_gregs, PT_* order: one run
    /// of words to copy. The MSR word is the one to store differently
    /// (`frame_msr`).
    #[inline(always)]
    pub fn gregs(&self) -> &[u32; PT_REGS] {
        // SAFETY: `repr(C)`, every field a u32 (alignment 4) and the size
        // 44 words (asserted above): the struct is exactly that array.
        unsafe { &*(self as *const TrapFrame as *const [u32; PT_REGS]) }
    }

    /// The MSR word a signal frame or context stores (`frame_msr`): it
    /// says whether mc_fregs was written (`fp_saved`).
    #[inline(always)]
    pub fn frame_msr(&self, fp_saved: bool) -> u32 {
        frame_msr(self.msr, fp_saved)
    }

    /// sigreturn: `load` copies a frame's mc_gregs[0 ..= PT_CCR] straight
    /// into this frame (r0..r31, NIP, MSR, orig_r3, CTR, LR, XER, CR: Linux
    /// `restore_user_regs`); the MSR is then the kernel's, never the
    /// frame's (`sanitize_user_msr`), whatever the copy did, one that
    /// faulted half way included. Returns the frame's MSR word as it was
    /// read (`frame_has_fp` asks it whether mc_fregs was written).
    #[inline(always)]
    pub fn restore_gregs(&mut self, load: impl FnOnce(&mut [u32; PT_RESTORED])) -> u32 {
        // SAFETY: as in `gregs`: the first 39 words of the struct, all u32.
        load(unsafe { &mut *(self as *mut TrapFrame as *mut [u32; PT_RESTORED]) });
        let word = self.msr;
        self.msr = sanitize_user_msr(word);
        word
    }

    /// A signal handler's arguments: r3 = signal, r4 = siginfo or sigcontext,
    /// and for an SA_SIGINFO handler r5 = ucontext, r6 = siginfo again.
    pub fn set_handler_args(&mut self, args: [u32; 2], rt: Option<[u32; 2]>) {
        self.gpr[3] = args[0];
        self.gpr[4] = args[1];
        if let Some([r5, r6]) = rt {
            self.gpr[5] = r5;
            self.gpr[6] = r6;
        }
    }
}

/// What an exception means, in words the generic kernel understands.
/// (The 8xx, having no FPU, reports FP instructions as `FpUnavailable`, to be
/// emulated, and never produces `FpEnabled`.)
#[derive(Clone, Copy, Debug)]
#[cfg_attr(sigil_arch = "mpc8xx", allow(dead_code))]
pub enum Exception {
    Syscall,
    /// A data or instruction access that the MMU refused. `missing`: no
    /// translation (a reload may fix it); otherwise a protection violation.
    PageFault {
        ea: u32,
        write: bool,
        missing: bool,
    },
    Timer,
    External,
    FpUnavailable,
    IllegalInstruction,
    PrivilegedInstruction,
    TrapInstruction,
    /// A floating-point enabled exception (a program check with SRR1[FP]).
    FpEnabled,
    Alignment {
        ea: u32,
    },
    Trace,
    Unexpected,
}

/// Prints the machine state of a fatal kernel fault: registers, the fault
/// address, and the backtrace.
pub fn dump(tf: &TrapFrame) {
    use crate::console::print_always as p;
    p(format_args!(
        "  trap {:#x}  nip {:#010x}  msr {:#010x}  lr {:#010x}\n",
        tf.trap, tf.nip, tf.msr, tf.lr
    ));
    p(format_args!(
        "  dar {:#010x}  dsisr {:#010x}  cr {:#010x}  ctr {:#010x}\n",
        tf.dar, tf.dsisr, tf.cr, tf.ctr
    ));
    for row in 0..8 {
        let r = &tf.gpr[row * 4..row * 4 + 4];
        p(format_args!("  r{:<2} {:08x} {:08x} {:08x} {:08x}\n", row * 4, r[0], r[1], r[2], r[3]));
    }
    backtrace(tf.gpr[1]);
}

/// The stack pointer of the caller (for a backtrace of a kernel panic).
#[inline(always)]
pub fn stack_pointer() -> u32 {
    let sp: u32;
    // SAFETY: reads r1 only.
    unsafe { core::arch::asm!("mr {0}, 1", out(reg) sp, options(nomem, nostack)) };
    sp
}

/// Prints the return addresses found by walking the back chain from `sp`.
pub fn backtrace(mut sp: u32) {
    use crate::console::print_always as p;
    p(format_args!("  backtrace:"));
    for _ in 0..16 {
        // Only follow frames inside kernel memory, 16-byte aligned.
        if !(KERNELBASE..KERNELBASE + 0x1000_0000).contains(&sp) || !sp.is_multiple_of(16) {
            break;
        }
        // SAFETY: sp lies in the BAT-mapped kernel RAM (checked above); the
        // words at sp and sp+4 are the back chain and the saved LR of a frame.
        let (next, lr) = unsafe { (*(sp as *const u32), *((sp + 4) as *const u32)) };
        if next == 0 {
            break;
        }
        p(format_args!(" {:#010x}", lr));
        sp = next;
    }
    p(format_args!("\n"));
}
