//! The Linux ppc32 signal frames, binary compatible, and the pure rules around
//! them: where a frame goes, which registers the handler starts with, what
//! sigreturn may restore, and whether an interrupted syscall restarts.
//!
//! The layouts are Linux's (`arch/powerpc/kernel/signal_32.c`, uapi
//! `asm/sigcontext.h`, `asm/ucontext.h`), so glibc, gdb and libgcc's unwinder
//! understand Sigil's frames: they recognise a signal frame by the two
//! trampoline words at LR (in the signal page, `SIGPAGE_CODE`) and then read
//! the sigcontext at r1+64 or the siginfo/ucontext at r1+80/r1+208. All fields are host-order `u32`/`u64`
//! (pointers too: user pointers are 32 bits), so on the big-endian target each
//! struct is exactly the user bytes; the host tests check offsets only.
//!
//! ```text
//!  non-RT frame (no SA_SIGINFO), 1248 bytes      RT frame (SA_SIGINFO), 1536 bytes
//!
//!  new r1 ─► +-----------------------+            new r1 ─► +------------------------+
//!            | back chain = old r1   | 64                   | back chain = old r1    | 80
//!            | (caller's save area)  |                      | (64 + 16, as Linux 2.4)|
//!  frame ──► +-----------------------+ 0          frame ──► +------------------------+ 0
//!   = r4     | SigContext       32   |             = r4, r6 | siginfo          128   |
//!            |  regs ──────────────┐ |                      +------------------------+ 128
//!            +---------------------|-+ 32          r5 ────► | UContext        1184   |
//!            | MContext        992 ◄ |                      |  uc_stack    +8        |
//!            |  mc_gregs    +0       |                      |  uc_regs ──┐ +48       |
//!            |  mc_fregs    +192     |                      |  uc_sigmask| +52       |
//!            |  mc_pad[2]   +456     | unwritten            |  uc_mcontext ◄ +192    |
//!            |  mc_vregs    +464     |   frame+488          |   mc_pad at frame+776  |
//!            +-----------------------+ 1024                 +------------------------+ 1312
//!            | abigap           224  |                      | abigap           224   |
//!            +-----------------------+ 1248 <= old r1       +------------------------+ 1536
//! ```
//! LR is the kind's trampoline in the signal page (`FrameKind::trampoline`),
//! not a word of the frame.
//! The abigap keeps the handler's frame clear of the 224 bytes just below the
//! interrupted r1, which the old rs6000/AIX ABI let leaf functions use.

use core::mem::{offset_of, size_of};

use super::altstack::{AltStack, StackT};
use super::sigset::Signal;
use crate::abi::{self, Errno, Sysno};
use crate::layout::{SIGPAGE, TASK_SIZE};

/// Bytes between a frame's r1 and its data: the minimal stack frame a called
/// function may use (back chain, LR save, ...). Linux `__SIGNAL_FRAMESIZE`.
pub const SIGNAL_FRAMESIZE: u32 = 64;
/// The RT frame leaves 16 more bytes (r1 = frame - 80), keeping Linux 2.4's
/// offsets that gdb and libgcc still expect.
pub const RT_EXTRA_GAP: u32 = 16;

// Indices into mc_gregs (Linux `PT_*`); indices 0..=31 are r0..r31.
pub const PT_R1: usize = 1;
pub const PT_R3: usize = 3;
pub const PT_NIP: usize = 32;
pub const PT_MSR: usize = 33;
pub const PT_ORIG_R3: usize = 34;
pub const PT_CTR: usize = 35;
pub const PT_LNK: usize = 36;
pub const PT_XER: usize = 37;
pub const PT_CCR: usize = 38;
pub const PT_MQ: usize = 39;
pub const PT_TRAP: usize = 40;
pub const PT_DAR: usize = 41;
pub const PT_DSISR: usize = 42;
pub const PT_RESULT: usize = 43;
/// mc_gregs entries: 44 PT_* values and 4 kernel-private words.
pub const NGREG: usize = 48;

/// `li r0, nr` (addi r0, 0, nr): the first trampoline word.
const fn li_r0(nr: Sysno) -> u32 {
    0x3800_0000 | nr.raw()
}
/// `sc`: the second trampoline word.
pub const SC: u32 = 0x4400_0002;
/// The signal trampolines' page (`SIGPAGE`) begins with these words: at
/// offset 0 the classic frame's `li r0,119; sc` (0x38000077 0x44000002), at
/// offset 8 the RT frame's `li r0,172; sc` (0x380000AC 0x44000002). A
/// handler's LR points at its frame's (`FrameKind::trampoline`), so its
/// `blr` makes the sigreturn call. Linux ppc32 returns the same way, to the
/// vDSO's `__kernel_sigtramp32` and `__kernel_sigtramp_rt32`; only without a
/// vDSO does it write the two words into the frame's `mc_pad`, which Sigil
/// leaves unwritten, as Linux does then.
pub const SIGPAGE_CODE: [u32; 4] = [li_r0(Sysno::Sigreturn), SC, li_r0(Sysno::RtSigreturn), SC];

/// `struct sigcontext` (non-RT frames), 32 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SigContext {
    /// Linux reuses `_unused[3]` for the high word of the saved mask.
    pub _unused: [u32; 4],
    pub signal: u32,
    pub handler: u32,
    /// The interrupted blocked mask, word 0 (signals 1..32).
    pub oldmask: u32,
    /// User address of the frame's MContext (sigreturn reads registers there).
    pub regs: u32,
}

/// `struct mcontext`, 992 bytes, 16-aligned: the saved user registers.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug)]
pub struct MContext {
    /// r0..r31, NIP, MSR, ... indexed by `PT_*`.
    pub mc_gregs: [u32; NGREG],
    /// f0..f31, then FPSCR as a double (value in its low word).
    pub mc_fregs: [u64; 33],
    /// Where Linux without a vDSO writes the trampoline; Sigil leaves it
    /// unwritten (its handlers return through the signal page).
    pub mc_pad: [u32; 2],
    /// AltiVec registers (unused on 750/e300/8xx; left zero).
    pub mc_vregs: [u32; 132],
}

/// `struct ucontext` (the RT frame's), 1184 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct UContext {
    pub uc_flags: u32,
    pub uc_link: u32,
    /// The sigaltstack state at delivery; rt_sigreturn restores it.
    pub uc_stack: StackT,
    pub uc_pad: [u32; 7],
    /// User address of `uc_mcontext` (rt_sigreturn follows this pointer).
    pub uc_regs: u32,
    /// The interrupted blocked mask, (word 0, word 1).
    pub uc_sigmask: [u32; 2],
    pub uc_maskext: [u32; 30],
    pub uc_pad2: [u32; 3],
    pub uc_mcontext: MContext,
}

/// Linux `struct sigframe` (non-RT), 1248 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SigFrame {
    pub sctx: SigContext,
    pub mctx: MContext,
    pub abigap: [u32; 56],
}

/// Linux `struct rt_sigframe`, 1536 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RtSigFrame {
    /// The 128-byte user siginfo_t: `SigInfo::words()` then 24 zero words.
    pub info: [u32; 32],
    pub uc: UContext,
    pub abigap: [u32; 56],
}

const _: () = assert!(size_of::<SigContext>() == 32);
const _: () = assert!(offset_of!(SigContext, signal) == 16);
const _: () = assert!(offset_of!(SigContext, handler) == 20);
const _: () = assert!(offset_of!(SigContext, oldmask) == 24);
const _: () = assert!(offset_of!(SigContext, regs) == 28);
const _: () = assert!(size_of::<MContext>() == 992);
const _: () = assert!(core::mem::align_of::<MContext>() == 16);
const _: () = assert!(offset_of!(MContext, mc_gregs) == 0);
const _: () = assert!(offset_of!(MContext, mc_fregs) == 192);
const _: () = assert!(offset_of!(MContext, mc_pad) == 456);
const _: () = assert!(offset_of!(MContext, mc_vregs) == 464);
const _: () = assert!(size_of::<UContext>() == 1184);
const _: () = assert!(offset_of!(UContext, uc_flags) == 0);
const _: () = assert!(offset_of!(UContext, uc_link) == 4);
const _: () = assert!(offset_of!(UContext, uc_stack) == 8);
const _: () = assert!(offset_of!(UContext, uc_pad) == 20);
const _: () = assert!(offset_of!(UContext, uc_regs) == 48);
const _: () = assert!(offset_of!(UContext, uc_sigmask) == 52);
const _: () = assert!(offset_of!(UContext, uc_maskext) == 60);
const _: () = assert!(offset_of!(UContext, uc_pad2) == 180);
const _: () = assert!(offset_of!(UContext, uc_mcontext) == 192);
const _: () = assert!(size_of::<SigFrame>() == 1248);
const _: () = assert!(offset_of!(SigFrame, sctx) == 0);
const _: () = assert!(offset_of!(SigFrame, mctx) == 32);
const _: () = assert!(offset_of!(SigFrame, abigap) == 1024);
const _: () = assert!(size_of::<RtSigFrame>() == 1536);
const _: () = assert!(offset_of!(RtSigFrame, info) == 0);
const _: () = assert!(offset_of!(RtSigFrame, uc) == 128);
const _: () = assert!(offset_of!(RtSigFrame, abigap) == 1312);

// Byte offsets of the fields the kernel's frame writer and reader
// (kernel/src/signal/deliver.rs, context.rs) touch, from the structs above.

impl SigContext {
    /// `_unused[3]`: the saved mask's word 1 (signals 33..64).
    pub const MASK_HI: u32 = offset_of!(SigContext, _unused) as u32 + 12;
    pub const SIGNAL: u32 = offset_of!(SigContext, signal) as u32;
    pub const HANDLER: u32 = offset_of!(SigContext, handler) as u32;
    pub const OLDMASK: u32 = offset_of!(SigContext, oldmask) as u32;
    pub const REGS: u32 = offset_of!(SigContext, regs) as u32;
    /// MASK_HI, SIGNAL, HANDLER, OLDMASK and REGS are five words side by
    /// side from here: the frame writer and reader move them as one run.
    pub const RUN: u32 = Self::MASK_HI;
}

const _: () = assert!(SigContext::REGS == SigContext::RUN + 16);

impl MContext {
    pub const GREGS: u32 = offset_of!(MContext, mc_gregs) as u32;
    pub const FREGS: u32 = offset_of!(MContext, mc_fregs) as u32;
    /// What sigreturn and setcontext read back: gregs, fregs and the pad
    /// (the AltiVec registers are not used).
    pub const READ: u32 = offset_of!(MContext, mc_vregs) as u32;
}

impl UContext {
    pub const SIZE: u32 = size_of::<UContext>() as u32;
    pub const FLAGS: u32 = offset_of!(UContext, uc_flags) as u32;
    pub const LINK: u32 = offset_of!(UContext, uc_link) as u32;
    pub const STACK: u32 = offset_of!(UContext, uc_stack) as u32;
    pub const REGS: u32 = offset_of!(UContext, uc_regs) as u32;
    pub const SIGMASK: u32 = offset_of!(UContext, uc_sigmask) as u32;
    pub const MCONTEXT: u32 = offset_of!(UContext, uc_mcontext) as u32;
    /// uc_regs and the 2 words of uc_sigmask, side by side: one run.
    pub const REGS_RUN: u32 = Self::REGS;
}

const _: () = assert!(UContext::SIGMASK == UContext::REGS_RUN + 4);

impl SigFrame {
    pub const SIZE: u32 = size_of::<SigFrame>() as u32;
    /// Frame offset of the sigcontext (0: it opens the frame).
    pub const SIGCONTEXT: u32 = offset_of!(SigFrame, sctx) as u32;
    /// Frame offset of the MContext (sigcontext.regs points here).
    pub const MCONTEXT: u32 = offset_of!(SigFrame, mctx) as u32;
    /// Frame offset of `mc_pad`, where Linux without a vDSO writes the
    /// trampoline: 488.
    pub const MC_PAD: u32 = Self::MCONTEXT + offset_of!(MContext, mc_pad) as u32;
}

impl RtSigFrame {
    pub const SIZE: u32 = size_of::<RtSigFrame>() as u32;
    /// Frame offset of the siginfo (0: it opens the frame).
    pub const INFO: u32 = offset_of!(RtSigFrame, info) as u32;
    /// Frame offset of the ucontext (r5 for the handler).
    pub const UCONTEXT: u32 = offset_of!(RtSigFrame, uc) as u32;
    /// Frame offset of the MContext (uc_regs points here): 320.
    pub const MCONTEXT: u32 = Self::UCONTEXT + offset_of!(UContext, uc_mcontext) as u32;
    /// Frame offset of `mc_pad` (see `SigFrame::MC_PAD`): 776.
    pub const MC_PAD: u32 = Self::MCONTEXT + offset_of!(MContext, mc_pad) as u32;
}

/// Which frame a delivery builds: RT (SA_SIGINFO) or the classic one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    Classic,
    Rt,
}

impl FrameKind {
    /// The frame for a handler installed with `sa_flags`.
    pub const fn for_flags(sa_flags: u32) -> FrameKind {
        if sa_flags & abi::SA_SIGINFO != 0 {
            FrameKind::Rt
        } else {
            FrameKind::Classic
        }
    }

    /// The frame's size in bytes.
    pub const fn size(self) -> u32 {
        match self {
            FrameKind::Classic => SigFrame::SIZE,
            FrameKind::Rt => RtSigFrame::SIZE,
        }
    }

    /// The room left below the frame for the handler's own frame (the
    /// back chain at its bottom): the frame sits this far above `new_sp`.
    pub const fn gap(self) -> u32 {
        match self {
            FrameKind::Classic => SIGNAL_FRAMESIZE,
            FrameKind::Rt => SIGNAL_FRAMESIZE + RT_EXTRA_GAP,
        }
    }

    /// Where a handler for this kind of frame returns: its trampoline in
    /// the signal page (`SIGPAGE_CODE`).
    pub const fn trampoline(self) -> u32 {
        match self {
            FrameKind::Classic => SIGPAGE,
            FrameKind::Rt => SIGPAGE + 8,
        }
    }

    /// The length of the window a frame of this kind is written through,
    /// back chain to frame end (`FramePlacement::window`): a constant per
    /// kind, so a writer that knows its kind knows every store is inside.
    pub const fn window_len(self) -> u32 {
        self.gap() + self.size()
    }
}

// `place_frame` aligns before it subtracts: each kind's size a multiple of 16.
const _: () = assert!(SigFrame::SIZE.is_multiple_of(16) && RtSigFrame::SIZE.is_multiple_of(16));

/// Where a frame goes and how the handler starts (Linux `get_sigframe` plus
/// the register setup of `handle_signal32`/`handle_rt_signal32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramePlacement {
    pub kind: FrameKind,
    /// User address of the SigFrame/RtSigFrame (16-aligned).
    pub frame: u32,
    /// The handler's r1; the word there gets the interrupted r1 (back chain).
    pub new_sp: u32,
    /// r3 = the signal number.
    pub r3: u32,
    /// r4 = &sigcontext (classic) or &siginfo (RT); both equal `frame`.
    pub r4: u32,
    /// RT only: r5 = &ucontext, r6 = &siginfo. `None`: keep the interrupted
    /// values (classic frames leave r5 and up alone).
    pub r5: Option<u32>,
    pub r6: Option<u32>,
    /// LR = the kind's trampoline in the signal page (`FrameKind::trampoline`).
    pub lr: u32,
}

impl FramePlacement {
    /// The one user range the frame builder must open a window on:
    /// from the back-chain word at `new_sp` to the end of the frame.
    pub const fn window(&self) -> (u32, u32) {
        (self.new_sp, self.kind.window_len())
    }
}

/// Places a frame for `sig` below the interrupted stack pointer `sp` (or at
/// the top of the alternate stack, if the action has SA_ONSTACK and it is
/// usable). `None` if the frame would wrap below address 0 or end above user
/// space (`TASK_SIZE`): the caller treats that like a fault writing the
/// frame (SIGSEGV).
pub fn place_frame(
    kind: FrameKind,
    sig: Signal,
    sp: u32,
    sa_flags: u32,
    alt: &AltStack,
) -> Option<FramePlacement> {
    // Linux's `(sp - size) & ~15`, aligned first: the sizes are multiples
    // of 16 (asserted below), so it is the same frame, and the low end is
    // one compare (the frame not below 0, new_sp neither below nor at 0),
    // where the subtractions' own overflow tests took two. The high end is
    // the user-access window's own test (the frame's window ends at `top`),
    // made here too: tested on `top` with the low end, as one range
    // compare, it lets LLVM fold the window's test on new_sp away, which
    // took its own constant (three instructions) and compare.
    let top = alt.signal_sp(sp, sa_flags) & !15;
    if top <= kind.window_len() || top > TASK_SIZE {
        return None;
    }
    let frame = top - kind.size();
    let new_sp = frame - kind.gap();
    let (r5, r6) = match kind {
        FrameKind::Classic => (None, None),
        FrameKind::Rt => (Some(frame + RtSigFrame::UCONTEXT), Some(frame)),
    };
    Some(FramePlacement {
        kind,
        frame,
        new_sp,
        r3: sig.number(),
        r4: frame,
        r5,
        r6,
        lr: kind.trampoline(),
    })
}

// MSR bits (user-visible state of the 32-bit PowerPC machine state register).
pub const MSR_EE: u32 = 0x8000;
pub const MSR_PR: u32 = 0x4000;
pub const MSR_FP: u32 = 0x2000;
pub const MSR_ME: u32 = 0x1000;
pub const MSR_FE0: u32 = 0x0800;
pub const MSR_FE1: u32 = 0x0100;
pub const MSR_IP: u32 = 0x0040;
pub const MSR_IR: u32 = 0x0020;
pub const MSR_DR: u32 = 0x0010;
pub const MSR_RI: u32 = 0x0002;
pub const MSR_LE: u32 = 0x0001;
/// The MSR every user thread runs with: PR|EE|ME|IR|DR|RI, FP off (lazy FP).
pub const MSR_USER: u32 = MSR_EE | MSR_PR | MSR_ME | MSR_IR | MSR_DR | MSR_RI;

/// The MSR sigreturn/rt_sigreturn restores, given the MSR word found in the
/// user's frame: always `MSR_USER`, whatever the frame says.
///
/// The frame lives in user memory, so a program can forge it. Trusting its MSR
/// would let user code return to itself with PR=0 (supervisor mode), IR/DR=0
/// (real mode: physical memory unprotected), EE=0 (no more timer interrupts),
/// IP=1 (exceptions vectored to the ROM) or reserved bits set. Linux keeps only
/// LE from the frame, and clears FP/FE0/FE1 so the FP registers just restored
/// from mc_fregs are reloaded lazily on first use. Sigil runs big-endian only,
/// so not even LE is taken: the frame's MSR is read and ignored.
pub const fn sanitize_user_msr(frame_msr: u32) -> u32 {
    const TAKEN_FROM_FRAME: u32 = 0; // Linux: MSR_LE
    (frame_msr & TAKEN_FROM_FRAME) | MSR_USER
}

/// The frame's MSR word with MSR[FP] set says "no FP registers in this frame"
/// (lazy FP): the thread had not used FP since exec, so its FP state was the
/// initial all-zero one, and the frame writer skipped mc_fregs (66 words)
/// instead of storing zeroes. sigreturn then puts the initial state back
/// instead of reading mc_fregs. The marker is the one value Linux never
/// writes: its frame writer flushes the FPU first (`flush_fp_to_thread`
/// clears MSR[FP] in the saved MSR) and always fills mc_fregs, so a frame
/// written by Linux, or by Sigil with FP state, has MSR[FP] clear and is
/// read whole. (Linux's VMX and VSX areas are flagged the other way round,
/// MSR_VEC/MSR_VSX set when present; FP has no such bit because Linux ppc32
/// always carries it.)
pub const FRAME_MSR_NO_FP: u32 = MSR_FP;

/// The MSR word a frame stores for saved state `msr`: `fp_saved` false marks
/// the frame as carrying no FP registers (`FRAME_MSR_NO_FP`).
pub const fn frame_msr(msr: u32, fp_saved: bool) -> u32 {
    if fp_saved {
        msr & !MSR_FP
    } else {
        msr | FRAME_MSR_NO_FP
    }
}

/// Does the frame whose MSR word is `frame_msr` carry FP registers?
pub const fn frame_has_fp(frame_msr: u32) -> bool {
    frame_msr & FRAME_MSR_NO_FP == 0
}

/// What to do with an interrupted system call's return, once the kernel knows
/// whether a handler will run (Linux `check_syscall_restart`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restart {
    /// Run the same call again: r3 = orig_r3, NIP -= 4 (back onto `sc`).
    Again,
    /// Run `restart_syscall` (0) instead: r0 = 0, NIP -= 4; it continues the
    /// call from the state saved in the thread's restart block.
    ViaRestartSyscall,
    /// Fail the call with EINTR: r3 = 4, CR0[SO] set.
    Eintr,
    /// Not a restartable error: leave the return as it is.
    Unchanged,
}

/// Decides a syscall restart. `err` is the call's error return (only consult
/// this for a syscall trap whose return had CR0[SO] set); `handler_flags` is
/// `Some(sa_flags)` when a handler is about to run, `None` when no handler
/// runs (no signal, or one ignored or handled by default).
pub const fn syscall_restart(err: Errno, handler_flags: Option<u32>) -> Restart {
    let restart = match (err, handler_flags) {
        (Errno::ERESTARTNOINTR, _) => true,
        (Errno::ERESTARTSYS, Some(flags)) => flags & abi::SA_RESTART != 0,
        (Errno::ERESTARTSYS | Errno::ERESTARTNOHAND | Errno::ERESTART_RESTARTBLOCK, h) => {
            h.is_none()
        }
        _ => return Restart::Unchanged,
    };
    match (restart, err) {
        (false, _) => Restart::Eintr,
        (true, Errno::ERESTART_RESTARTBLOCK) => Restart::ViaRestartSyscall,
        (true, _) => Restart::Again,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lazy_fp_marker() {
        // A frame with FP state, and every frame Linux writes: MSR[FP] clear.
        assert!(frame_has_fp(frame_msr(MSR_USER | MSR_FP, true)));
        assert!(frame_has_fp(MSR_USER));
        // Without: the marker, whatever the saved MSR had.
        assert!(!frame_has_fp(frame_msr(MSR_USER, false)));
        // sigreturn's MSR never takes the marker back.
        assert_eq!(sanitize_user_msr(frame_msr(MSR_USER, false)), MSR_USER);
    }

    #[test]
    fn trampoline_words_and_offsets() {
        assert_eq!(SIGPAGE_CODE, [0x3800_0077, 0x4400_0002, 0x3800_00AC, 0x4400_0002]);
        // Each kind's LR is its own pair of words.
        let word = |kind: FrameKind| SIGPAGE_CODE[((kind.trampoline() - SIGPAGE) / 4) as usize];
        assert_eq!(word(FrameKind::Classic), 0x3800_0000 | Sysno::Sigreturn.raw());
        assert_eq!(word(FrameKind::Rt), 0x3800_0000 | Sysno::RtSigreturn.raw());
        assert_eq!(SigFrame::MC_PAD, 488);
        assert_eq!(RtSigFrame::MCONTEXT, 320);
        assert_eq!(RtSigFrame::MC_PAD, 776);
        assert_eq!(
            (PT_NIP, PT_MSR, PT_ORIG_R3, PT_CCR, PT_TRAP, PT_RESULT),
            (32, 33, 34, 38, 40, 43)
        );
    }

    /// Offsets measured under qemu-ppc (facts 6.2): classic r1 = oldsp -
    /// 0x4e0 - 0x40; RT r4 = r1+80, r5 = r1+208, mcontext at r1+400.
    #[test]
    fn placement_matches_linux() {
        let alt = AltStack::DISABLED;
        let sp = 0x7fff_f000;
        let c = place_frame(FrameKind::Classic, Signal::SIGUSR1, sp, 0, &alt).unwrap();
        assert_eq!(c.new_sp, sp - 0x4e0 - 0x40);
        assert_eq!((c.r3, c.r4, c.r5, c.r6), (10, c.new_sp + 64, None, None));
        assert_eq!(c.lr, SIGPAGE);
        assert_eq!(c.window(), (c.new_sp, 64 + 1248));
        let r = place_frame(FrameKind::Rt, Signal::SIGRTMIN, sp, abi::SA_SIGINFO, &alt).unwrap();
        assert_eq!(r.frame, (sp - 1536) & !15);
        assert_eq!(r.r4, r.new_sp + 80);
        assert_eq!(r.r5, Some(r.new_sp + 208));
        assert_eq!(r.r6, Some(r.r4));
        assert_eq!(r.frame + RtSigFrame::MCONTEXT, r.new_sp + 400);
        assert_eq!(r.lr, SIGPAGE + 8);
        assert_eq!(r.window(), (r.new_sp, 80 + 1536));
    }

    #[test]
    fn placement_aligns_and_uses_the_alt_stack() {
        let sp = 0x7fff_f00b; // misaligned interrupted r1
        let c =
            place_frame(FrameKind::Classic, Signal::SIGINT, sp, 0, &AltStack::DISABLED).unwrap();
        assert_eq!(c.frame % 16, 0);
        assert!(c.frame + SigFrame::SIZE <= sp);
        let mut alt = AltStack::DISABLED;
        alt.set(StackT { ss_sp: 0x3000_0000, ss_flags: 0, ss_size: 0x2000 }, sp).unwrap();
        let on = place_frame(FrameKind::Rt, Signal::SIGSEGV, sp, abi::SA_ONSTACK, &alt).unwrap();
        assert_eq!(on.frame, (0x3000_2000 - 1536) & !15);
        let off = place_frame(FrameKind::Rt, Signal::SIGSEGV, sp, 0, &alt).unwrap();
        assert_eq!(off.frame, (sp - 1536) & !15);
        assert_eq!(FrameKind::for_flags(abi::SA_SIGINFO | abi::SA_RESTART), FrameKind::Rt);
        assert_eq!(FrameKind::for_flags(abi::SA_RESTART), FrameKind::Classic);
    }

    #[test]
    fn placement_rejects_wraparound() {
        let alt = AltStack::DISABLED;
        assert_eq!(place_frame(FrameKind::Classic, Signal::SIGINT, 1000, 0, &alt), None);
        assert_eq!(place_frame(FrameKind::Rt, Signal::SIGINT, 1536 + 79, 0, &alt), None);
        assert_eq!(place_frame(FrameKind::Rt, Signal::SIGINT, 1536 + 80, 0, &alt), None); // r1 would be 0
        assert!(place_frame(FrameKind::Rt, Signal::SIGINT, 1536 + 96, 0, &alt).is_some());
    }

    /// The compares of the aligned top refuse exactly what Linux's order
    /// (subtract, align, subtract the gap, each checked, then the window's
    /// bound) refuses, and place the rest at the same addresses.
    #[test]
    fn placement_matches_the_checked_subtractions() {
        let alt = AltStack::DISABLED;
        let low = 0..4096u32;
        let high = (u32::MAX - 4096..=u32::MAX).chain(TASK_SIZE - 4096..=TASK_SIZE + 4096);
        for kind in [FrameKind::Classic, FrameKind::Rt] {
            for sp in low.clone().chain(high.clone()).chain([0x7fff_f00b]) {
                let old = sp
                    .checked_sub(kind.size())
                    .map(|f| f & !15)
                    .and_then(|f| Some((f, f.checked_sub(kind.gap())?)))
                    .filter(|&(_, new_sp)| new_sp != 0)
                    .filter(|&(f, _)| f + kind.size() <= TASK_SIZE);
                let new =
                    place_frame(kind, Signal::SIGINT, sp, 0, &alt).map(|p| (p.frame, p.new_sp));
                assert_eq!(new, old, "{kind:?} sp {sp:#x}");
            }
        }
    }

    #[test]
    fn msr_from_a_forged_frame_is_ignored() {
        assert_eq!(MSR_USER, 0xD032);
        for forged in [
            0,
            !0,
            MSR_USER & !MSR_PR,
            MSR_USER | MSR_IP | MSR_FP | MSR_LE,
            MSR_USER & !(MSR_IR | MSR_DR),
        ] {
            assert_eq!(sanitize_user_msr(forged), MSR_USER);
        }
        assert_eq!(MSR_USER & (MSR_FP | MSR_FE0 | MSR_FE1), 0);
    }

    #[test]
    fn restart_rules() {
        use Errno::*;
        use Restart::*;
        let restart = Some(abi::SA_RESTART);
        let plain = Some(0);
        assert_eq!(syscall_restart(ERESTARTSYS, None), Again);
        assert_eq!(syscall_restart(ERESTARTSYS, restart), Again);
        assert_eq!(syscall_restart(ERESTARTSYS, plain), Eintr);
        assert_eq!(syscall_restart(ERESTARTNOINTR, plain), Again);
        assert_eq!(syscall_restart(ERESTARTNOINTR, None), Again);
        assert_eq!(syscall_restart(ERESTARTNOHAND, None), Again);
        assert_eq!(syscall_restart(ERESTARTNOHAND, restart), Eintr);
        assert_eq!(syscall_restart(ERESTART_RESTARTBLOCK, None), ViaRestartSyscall);
        assert_eq!(syscall_restart(ERESTART_RESTARTBLOCK, restart), Eintr);
        assert_eq!(syscall_restart(EAGAIN, None), Unchanged);
        assert_eq!(syscall_restart(EINTR, restart), Unchanged);
    }
}
