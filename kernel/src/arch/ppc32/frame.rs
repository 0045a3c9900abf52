//! The trap frame every 32-bit PowerPC family builds, and the words the
//! generic kernel uses for exceptions.
//!
//! The entry code (entry.S) saves all user-visible state into a `TrapFrame`
//! on the kernel stack; `trap_dispatch` (trap.rs, with the family's
//! `classify` for the vectors that differ) decodes the vector into an `Event`
//! and hands both to the generic kernel (`crate::trap`).

/// Everything an exception saves; `#[repr(C)]` because head.S writes it at
/// fixed offsets (r1 + 16 + offset).
#[repr(C)]
#[derive(Clone, Default)]
pub struct TrapFrame {
    pub gpr: [u32; 32],
    pub nip: u32,
    pub msr: u32,
    pub ctr: u32,
    pub lr: u32,
    pub xer: u32,
    pub cr: u32,
    /// The vector the exception came through (0x300 DSI, 0xc00 syscall, ...).
    pub trap: u32,
    pub dar: u32,
    pub dsisr: u32,
    /// r3 at entry: a restarted syscall needs its first argument back.
    pub orig_r3: u32,
    pub _pad: [u32; 2],
}

const _: () = assert!(core::mem::size_of::<TrapFrame>() == 176);
const _: () = assert!(core::mem::offset_of!(TrapFrame, nip) == 128);
const _: () = assert!(core::mem::offset_of!(TrapFrame, orig_r3) == 164);

// entry.S's offsets (its `#define`s, read here at compile time) agree with
// the struct: the header, r0.., and the ten words from nip that one stmw
// stores and one lmw loads in this order.
const TF: usize = asm_define("TF");
const _: () = assert!(asm_define("FRAME") == TF + core::mem::size_of::<TrapFrame>());
const _: () = assert!(asm_define("TF_GPR") == TF + core::mem::offset_of!(TrapFrame, gpr));
const _: () = {
    use core::mem::offset_of;
    let nip = asm_define("TF_NIP") - TF;
    assert!(nip == offset_of!(TrapFrame, nip));
    let order = [
        offset_of!(TrapFrame, msr),
        offset_of!(TrapFrame, ctr),
        offset_of!(TrapFrame, lr),
        offset_of!(TrapFrame, xer),
        offset_of!(TrapFrame, cr),
        offset_of!(TrapFrame, trap),
        offset_of!(TrapFrame, dar),
        offset_of!(TrapFrame, dsisr),
        offset_of!(TrapFrame, orig_r3),
    ];
    let mut i = 0;
    while i < order.len() {
        assert!(order[i] == nip + 4 * (i + 1));
        i += 1;
    }
};

/// The value of entry.S's `#define NAME <decimal>`, at compile time (a
/// missing name fails the build).
pub(super) const fn asm_define(name: &str) -> usize {
    const TEXT: &[u8] = include_str!("entry.S").as_bytes();
    const DEFINE: &[u8] = b"#define ";
    let name = name.as_bytes();
    let mut at = 0;
    while at + DEFINE.len() + name.len() < TEXT.len() {
        let n = at + DEFINE.len();
        if starts_with(TEXT, at, DEFINE)
            && starts_with(TEXT, n, name)
            && TEXT[n + name.len()] == b' '
        {
            let mut i = n + name.len();
            while TEXT[i] == b' ' {
                i += 1;
            }
            let mut v = 0;
            while TEXT[i].is_ascii_digit() {
                v = v * 10 + (TEXT[i] - b'0') as usize;
                i += 1;
            }
            return v;
        }
        at += 1;
    }
    panic!("entry.S has no such #define");
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
pub use sigil_core::signal::frame::{MSR_FP, MSR_PR, MSR_USER};

/// CR0[SO]: set in the saved CR when a syscall fails (r3 then holds errno).
const CR0_SO: u32 = 0x1000_0000;

/// The system call vector: `sc` traps here (the trap word of such a frame).
pub const VEC_SYSCALL: u32 = 0xc00;

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

    /// Syscall entry: the number (r0). Clears the error flag first, so a
    /// call that succeeds leaves it clear unless the call itself set the
    /// registers (sigreturn restores CR whole).
    #[inline(always)]
    pub fn syscall_begin(&mut self) -> u32 {
        let nr = self.gpr[0];
        self.cr &= !CR0_SO;
        nr
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
/// emulated, and never produces `FpException`.)
#[derive(Clone, Copy, Debug)]
#[cfg_attr(sigil_arch = "mpc8xx", allow(dead_code))]
pub enum Event {
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
    FpException,
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
