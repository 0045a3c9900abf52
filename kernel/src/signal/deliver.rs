//! Delivery: from a pending signal to a handler running on a Linux ppc32
//! frame, and back through sigreturn.
//!
//! The fast path Sigil teaches (the one docs/signals.md follows step by step):
//! 1. `dequeue` unlinks the sigqueue node and hands back the node itself:
//!    ownership moves, the 32 siginfo bytes never move (Vegard Nossum's
//!    "[RFC][PATCH] signals: don't copy siginfo_t on dequeue", LKML, 26 Feb 2009).
//! 2. `handle_signal` places the frame (sigil-core `place_frame`), then
//!    writes all of it inside ONE user-access window: the back chain, the
//!    saved registers, the mask, and the siginfo straight out of the node (as
//!    Linux since "[PATCH RESEND v3 6/6] powerpc/signal: Use
//!    unsafe_copy_siginfo_to_user()", linuxppc-dev, 13 Sep 2021). The node is
//!    freed when it goes out of scope.
//! 3. The handler returns to its trampoline in the signal page (sigpage.rs),
//!    which calls sigreturn or rt_sigreturn; `restore_frame` reads the frame back in one window and
//!    takes nothing from its MSR word (`sanitize_user_msr`).
//!
//! Boot options keep the old ways for comparison: `signal.dequeue=copy`
//! copies the siginfo out of the node into a kernel-stack buffer (Linux's
//! `dequeue_signal`), and `signal.frame=field` opens one window per store (Linux's
//! `__put_user` per field before user_access_begin existed).
//!
//! `make debug` builds the kernel with `--cfg sigil_stepping` (kernel/build.rs):
//! then the functions of steps 2 and 3 and the frame's stores stay out of
//! line, so gdb's `step` and `next` walk through them one by one; the
//! shipped kernel inlines them into the return-to-user path.

use alloc::boxed::Box;
use core::mem::MaybeUninit;
use core::sync::atomic::Ordering;

use sigil_core::abi::{self, Errno, Sysno};
use sigil_core::signal::frame::{
    frame_has_fp, place_frame, syscall_restart, FrameKind, FramePlacement, MContext, Restart,
    RtSigFrame, SigContext, SigFrame, UContext, PT_MSR,
};
use sigil_core::signal::info::SIGINFO_USER_WORDS;
use sigil_core::signal::{
    handler_mask, SigAction, SigInfo, SigPending, SigQueueNode, SigSet, Signal, StackT,
};

use crate::arch::{self, Arch, Context, TrapFrame};
use crate::proc::{self, Thread};
use crate::static_key::{static_branch, StaticKey};
use crate::uaccess::{self, Read, UserWindow, Write};

/// `signal.dequeue=copy`: copy the siginfo out of the node (the old way).
/// Static keys (`crate::static_key`): the default way pays a `nop` for each.
pub static DEQUEUE_COPY: StaticKey = StaticKey::new();
/// `signal.frame=field`: one user-access window per store (the old way).
pub static FRAME_PER_FIELD: StaticKey = StaticKey::new();

/// A dequeued signal: the node itself (fast path), or the siginfo copied
/// out of it into the caller's buffer (`signal.dequeue=copy`). The copy is
/// held by reference: a `Copied(SigInfo)` payload made the default path read
/// the buffer's words too (LLVM loads both arms' words and picks later, a
/// 7-word stack-to-stack copy on every delivery); a reference is one word.
pub enum Dequeued<'a> {
    Node(Box<SigQueueNode>),
    Copied(&'a SigInfo),
}

impl Dequeued<'_> {
    pub fn info(&self) -> &SigInfo {
        match self {
            Dequeued::Node(n) => &n.info,
            Dequeued::Copied(i) => i,
        }
    }
}

/// Takes the next deliverable signal for thread `t`: from its private set
/// first, then from its group's shared set (Linux `dequeue_signal`).
/// A timer signal has its overrun filled in on the way out, or is dropped
/// if stale (`crate::time::timers::on_dequeue`). `buf` is where
/// `signal.dequeue=copy` puts its copy; the default path never touches it.
/// The usual case is one node taken and kept: the retry after a stale timer
/// signal and the copying way are out of line, so that no loop keeps its
/// invariants (the sets' addresses, the masks) in saved registers here.
#[inline(always)]
pub fn dequeue<'a>(t: &mut Thread, buf: &'a mut MaybeUninit<SigInfo>) -> Option<Dequeued<'a>> {
    if static_branch!(DEQUEUE_COPY) {
        return dequeue_copied(t, buf).map(Dequeued::Copied);
    }
    match dequeue_node(t)? {
        Ok(node) => Some(Dequeued::Node(node)),
        Err(_stale) => dequeue_retry(t).map(Dequeued::Node),
    }
}

/// One try of `dequeue`'s default way: the node, `Err` with it if it is a
/// stale timer signal (to be dropped), `None` if nothing is deliverable.
#[inline(always)]
fn dequeue_node(t: &mut Thread) -> Option<Result<Box<SigQueueNode>, Box<SigQueueNode>>> {
    let blocked = t.sig.blocked;
    let mut node = next_set(t).dequeue(blocked)?;
    // The pid at each use, both out of line (a timer's signal, the trace):
    // looked up once before them, its two loads ran on every delivery.
    if !crate::time::timers::on_dequeue(|| t.group().pid, &mut node.info, &proc::cpu_clock) {
        return Some(Err(node));
    }
    crate::sigtrace!(dequeue(t.group().pid, node.signal(), Some(&node)));
    Some(Ok(node))
}

/// `dequeue` after a stale timer signal was dropped: try again until a
/// signal is kept or none is left.
#[inline(never)]
fn dequeue_retry(t: &mut Thread) -> Option<Box<SigQueueNode>> {
    loop {
        if let Ok(node) = dequeue_node(t)? {
            return Some(node);
        }
    }
}

/// `dequeue` the old way: the siginfo copied out of the node into `buf`
/// (counted in `SIGINFO_BYTES_COPIED`), the node freed at once.
#[cold]
#[inline(never)]
fn dequeue_copied<'a>(t: &mut Thread, buf: &'a mut MaybeUninit<SigInfo>) -> Option<&'a SigInfo> {
    let info = buf.write(SigInfo::kernel(Signal::SIGKILL));
    let blocked = t.sig.blocked;
    let pid = t.group().pid;
    loop {
        next_set(t).dequeue_copy(blocked, info)?;
        if crate::time::timers::on_dequeue(|| pid, info, &proc::cpu_clock) {
            crate::sigtrace!(dequeue(pid, info.signal(), None));
            return Some(info);
        }
    }
}

/// The set the next signal comes from: the thread's own if it holds a
/// deliverable one, else its group's shared set.
#[inline(always)]
fn next_set(t: &mut Thread) -> &mut SigPending {
    let blocked = t.sig.blocked;
    if t.sig.pending.has_deliverable(blocked) {
        &mut t.sig.pending
    } else {
        &mut t.group().sig.shared
    }
}

/// Where the frame's words go: one window (`UserWindow`), or a window per
/// store (`PerField`, the comparison mode). Offsets are from the window base.
pub(crate) trait FrameSink {
    fn put(&mut self, off: u32, v: u32);
    /// Consecutive words from `off`.
    fn put_words(&mut self, off: u32, vals: &[u32]) {
        for (i, &v) in vals.iter().enumerate() {
            self.put(off + 4 * i as u32, v);
        }
    }
    /// mc_gregs: the trap frame's words (`TrapFrame::gregs`, PT_* order)
    /// with `msr` as the MSR word, one store each (the one window copies
    /// the run with `lmw`/`stmw`, then stores `msr` over its word).
    fn put_gregs(&mut self, off: u32, gregs: &[u32; arch::PT_REGS], msr: u32) {
        let after = off + 4 * (PT_MSR as u32 + 1);
        self.put_words(off, &gregs[..PT_MSR]);
        self.put(off + 4 * PT_MSR as u32, msr);
        self.put_words(after, &gregs[PT_MSR + 1..]);
    }
    /// `vals` from `off`, then zero words up to `LEN` words in all, one
    /// store each (the one window copies and pads with `lmw`/`stmw`): a
    /// siginfo (`put_siginfo`).
    fn put_padded<const N: usize, const LEN: usize>(&mut self, off: u32, vals: &[u32; N]) {
        self.put_words(off, vals);
        for i in N..LEN {
            self.put(off + 4 * i as u32, 0);
        }
    }
    /// Consecutive doublewords (FP registers), big-endian: high word first.
    fn put_dwords(&mut self, off: u32, vals: &[u64]) {
        for (i, &v) in vals.iter().enumerate() {
            self.put(off + 8 * i as u32, (v >> 32) as u32);
            self.put(off + 8 * i as u32 + 4, v as u32);
        }
    }
}

/// One window: the runs of words are range-checked once and stored in a loop.
impl FrameSink for UserWindow<Write> {
    #[cfg_attr(not(sigil_stepping), inline(always))]
    fn put(&mut self, off: u32, v: u32) {
        UserWindow::put(self, off, v);
    }
    fn put_words(&mut self, off: u32, vals: &[u32]) {
        self.put_slice(off, vals);
    }
    /// Inline (it is one call to the copy routine): LLVM kept it a call
    /// of its own once `put_mcontext` was inline, 18 instructions a frame.
    /// The MSR word is stored twice, the frame's and then `msr`, which
    /// costs one store where building the 12 words after r31 in registers
    /// cost a store each and the saved registers to hold them.
    #[cfg_attr(not(sigil_stepping), inline(always))]
    fn put_gregs(&mut self, off: u32, gregs: &[u32; arch::PT_REGS], msr: u32) {
        self.put_block(off, gregs);
        UserWindow::put(self, off + 4 * PT_MSR as u32, msr);
    }
    /// Inline, as `put_gregs`: one call to the copy routine.
    #[cfg_attr(not(sigil_stepping), inline(always))]
    fn put_padded<const N: usize, const LEN: usize>(&mut self, off: u32, vals: &[u32; N]) {
        self.put_block_padded::<N, LEN>(off, vals);
    }
    fn put_dwords(&mut self, off: u32, vals: &[u64]) {
        self.put_slice(off, vals);
    }
}

struct PerField {
    base: u32,
    failed: bool,
}

impl FrameSink for PerField {
    fn put(&mut self, off: u32, v: u32) {
        self.failed |= uaccess::put_user(self.base + off, v).is_err();
    }
}

/// Everything a frame holds besides its layout.
struct FrameData<'a> {
    tf: &'a TrapFrame,
    /// None: the thread has not used FP (lazy FP), mc_fregs is not written.
    fp: Option<&'a arch::FpState>,
    mask: SigSet,
    info: &'a SigInfo,
    handler: u32,
    alt: StackT,
}

impl<'a> FrameData<'a> {
    /// What thread `p`, interrupted at `tf`, saves in a frame for `info`
    /// and `handler`; `mask` is the blocked mask the frame restores.
    #[inline(always)]
    fn new(
        tf: &'a TrapFrame,
        p: &'a Thread,
        info: &'a SigInfo,
        handler: u32,
        mask: SigSet,
    ) -> FrameData<'a> {
        FrameData {
            tf,
            fp: p.fp_used.then_some(&p.fp),
            mask,
            info,
            handler,
            alt: p.sig.altstack.saved(),
        }
    }
}

/// Writes the mcontext (registers, and FP if `fp` is given) at `mc` (window
/// offset). Also swapcontext's (`context.rs`). `mc_pad` stays unwritten:
/// the handler returns through the signal page (`sigpage.rs`).
/// mc_gregs goes last, as one run copied from the trap frame (whose words
/// are in pt_regs order): the copy is a call (`lmw`/`stmw`), and only the
/// MSR word stays live across it.
/// Inline into the frame writer: out of line, it saved registers of its
/// own, where the delivery around it has its registers saved already.
#[cfg_attr(not(sigil_stepping), inline(always))]
pub(super) fn put_mcontext(
    w: &mut impl FrameSink,
    mc: u32,
    tf: &TrapFrame,
    fp: Option<&arch::FpState>,
) {
    let fregs = mc + MContext::FREGS;
    if let Some(fp) = fp {
        w.put_dwords(fregs, &fp.fpr);
        w.put_dwords(fregs + 8 * 32, &[fp.fpscr]);
    }
    w.put_gregs(mc + MContext::GREGS, tf.gregs(), tf.frame_msr(fp.is_some()));
}

/// Writes a user siginfo_t at `off` (window offset): the 8 meaningful words
/// straight from the node, then zeroes to its 128 bytes. Also rt_sigtimedwait's.
#[inline(always)]
pub(crate) fn put_siginfo(w: &mut impl FrameSink, off: u32, info: &SigInfo) {
    w.put_padded::<8, SIGINFO_USER_WORDS>(off, info.words());
}

/// An rt frame's siginfo and, in the same run of zeroes, the two words of
/// its ucontext that are always 0 (uc_flags, uc_link): the ucontext follows
/// the siginfo, and uc_stack follows them.
const RT_INFO_RUN: usize = SIGINFO_USER_WORDS + 2;
const _: () = assert!(
    RtSigFrame::UCONTEXT == RtSigFrame::INFO + 4 * SIGINFO_USER_WORDS as u32
        && UContext::FLAGS == 0
        && UContext::LINK == 4
        && UContext::STACK == 8
);

/// Writes a whole frame; `frame` is the frame's offset in the window (whose
/// base, offset 0, is the handler's stack pointer: the back chain goes there).
/// Inline, so that each layout's copy (`write_frame`) keeps only its arm.
#[cfg_attr(sigil_stepping, inline(never))]
#[cfg_attr(not(sigil_stepping), inline(always))]
fn put_frame(w: &mut impl FrameSink, kind: FrameKind, frame: u32, frame_addr: u32, d: &FrameData) {
    w.put(0, d.tf.sp());
    let (m0, m1) = d.mask.words();
    match kind {
        // Fields that sit side by side go as one run of words
        // (`SigContext::RUN`, `RT_INFO_RUN`, `UContext::REGS_RUN`): the
        // window checks a run's bounds once, where each single store checks
        // its own (a compare and a branch).
        FrameKind::Classic => {
            let (sc, regs) = (frame + SigFrame::SIGCONTEXT, frame_addr + SigFrame::MCONTEXT);
            w.put_words(sc + SigContext::RUN, &[m1, d.info.signo(), d.handler, m0, regs]);
            put_mcontext(w, frame + SigFrame::MCONTEXT, d.tf, d.fp);
        }
        FrameKind::Rt => {
            // The siginfo, then uc_flags and uc_link, 0 (`RT_INFO_RUN`),
            // then uc_stack.
            w.put_padded::<8, RT_INFO_RUN>(frame + RtSigFrame::INFO, d.info.words());
            let uc = frame + RtSigFrame::UCONTEXT;
            w.put_words(uc + UContext::STACK, &d.alt.to_words());
            w.put_words(uc + UContext::REGS_RUN, &[frame_addr + RtSigFrame::MCONTEXT, m0, m1]);
            put_mcontext(w, frame + RtSigFrame::MCONTEXT, d.tf, d.fp);
        }
    }
}

/// Writes the frame placed at `place` in one window; `kind` is the
/// placement's, a constant (`setup_frame`). Whether every store
/// worked, and the windows opened (1, or 0 if the range was refused).
#[inline(always)]
fn write_frame(kind: FrameKind, place: &FramePlacement, d: &FrameData) -> (bool, u32) {
    match UserWindow::open(place.new_sp, kind.window_len(), Write) {
        Ok(mut w) => {
            put_frame(&mut w, kind, kind.gap(), place.frame, d);
            (w.finish().is_ok(), 1)
        }
        Err(_) => (false, 0),
    }
}

/// Builds the frame for `sig` and points the user registers at its handler;
/// true if it did. A frame that cannot be written gets the process SIGSEGV.
/// `p` is the running thread, as the caller's loop looked it up: passed down
/// rather than found again (each `proc::current()` is a load, a null test and
/// a branch to its panic). `info` is the dequeued signal's (the node's own,
/// on the fast path), which the caller frees once its siginfo is on the
/// user stack; `sig` is its signal, and `action` the signal's stored
/// action, as the caller found them (a handler): each `info.signal()`
/// checks si_signo's range again, with a register for its result.
#[cfg_attr(sigil_stepping, inline(never))]
pub fn handle_signal(
    tf: &mut TrapFrame,
    p: &mut Thread,
    info: &SigInfo,
    sig: Signal,
    action: &mut SigAction,
) -> bool {
    let act = action.take_for_delivery();
    restart_syscall(tf, Some(act.flags()));
    flush_fp(p, tf);
    // The mask the frame saves: a wait's saved one, else the current one.
    // Tested before clearing, as `finish_return` does: `take()` stored
    // None on every delivery.
    let blocked = p.sig.blocked;
    let mask = match p.sig.saved_mask {
        Some(saved) => {
            p.sig.saved_mask = None;
            saved
        }
        None => blocked,
    };
    // The handler's mask, built from the mask in force now (sigsuspend's,
    // if it ran), as Linux's signal_setup_done: the saved mask only goes
    // into the frame. Built before the frame, set after it: across the
    // window it is two words, where the action's mask, flags and the
    // signal's bit were four saved registers; and from the mask loaded
    // once for both.
    let masks = (mask, handler_mask(blocked, &act));
    // One copy of the rest per layout, the kind a constant in each: the
    // placement's sizes, the window's length and every store's offset are
    // then constants, the bound checks of the frame's runs (back chain,
    // sigcontext, mc_gregs) fold away, and no
    // branch on the kind is left.
    match FrameKind::for_flags(act.flags()) {
        FrameKind::Classic => setup_frame(FrameKind::Classic, tf, p, info, sig, &act, masks),
        FrameKind::Rt => setup_frame(FrameKind::Rt, tf, p, info, sig, &act, masks),
    }
}

/// `handle_signal` from the placement on, for a frame of `kind`, a
/// constant in each copy; `masks` are the one the frame saves and the
/// handler's.
#[inline(always)]
fn setup_frame(
    kind: FrameKind,
    tf: &mut TrapFrame,
    p: &mut Thread,
    info: &SigInfo,
    sig: Signal,
    act: &SigAction,
    (mask, handler_blocked): (SigSet, SigSet),
) -> bool {
    let Some(place) = place_frame(kind, sig, tf.sp(), act.flags(), &p.sig.altstack) else {
        frame_failed(tf, sig);
        return false;
    };
    let (ok, windows) = if static_branch!(FRAME_PER_FIELD) {
        let data = FrameData::new(tf, p, info, act.handler, mask);
        write_frame_per_field(kind, place.new_sp, place.frame, &data)
    } else {
        write_frame(kind, &place, &FrameData::new(tf, p, info, act.handler, mask))
    };
    crate::sigtrace!(frame(
        p.group().pid,
        sig.number(),
        kind,
        place.frame,
        place.window(),
        windows,
        ok
    ));
    if !ok {
        frame_failed(tf, sig);
        return false;
    }
    p.sig.blocked = handler_blocked;
    p.sig.altstack.disarm_if_autodisarm();
    tf.set_sp(place.new_sp);
    tf.set_handler_args([place.r3, place.r4], place.r5.zip(place.r6).map(|(r5, r6)| [r5, r6]));
    tf.set_return_address(place.lr);
    tf.set_pc(act.handler);
    tf.reset_user_mode();
    p.fp.fpscr = 0;
    true
}

/// `signal.frame=field`'s way: a window per store (`PerField`). Whether
/// every store worked, and the windows it opened. Out of line: the
/// comparison's sixty-odd calls would otherwise sit in each layout's copy
/// of the delivery.
/// It takes the placement's two words, not the placement: passed by
/// reference, the struct was stored to the stack on the common way too.
#[inline(never)]
fn write_frame_per_field(kind: FrameKind, new_sp: u32, frame: u32, d: &FrameData) -> (bool, u32) {
    let before = uaccess::WINDOWS.load(Ordering::Relaxed);
    let mut w = PerField { base: new_sp, failed: false };
    put_frame(&mut w, kind, kind.gap(), frame, d);
    (!w.failed, uaccess::WINDOWS.load(Ordering::Relaxed) - before)
}

/// Moves live FP registers into the thread's FP state before a frame or a
/// context is written from it (Linux `flush_fp_to_thread`).
#[inline]
pub(super) fn flush_fp(p: &mut Thread, tf: &mut TrapFrame) {
    if p.fp_live {
        Arch::fp_save(&mut p.fp);
        p.fp_live = false;
        tf.disable_fp();
        p.fp_unchecked = true;
    }
    // glibc's setjmp stores the FP registers without changing them: a
    // state still initial is not "used", and the frame can skip it.
    p.fp_settle();
}

/// Linux `force_sigsegv`: a frame for SIGSEGV itself that fails kills.
fn frame_failed(tf: &TrapFrame, sig: Signal) {
    if sig.number() == abi::SIGSEGV {
        *proc::group().sig.action(sig) = SigAction::DEFAULT;
    }
    super::force_fault(tf, abi::SIGSEGV, abi::SI_KERNEL, 0);
}

/// Finishes a system call that returned a restart code: restart it, or make
/// it fail with EINTR, depending on the handler about to run (`Some(flags)`)
/// or on there being none (`None`). Inline: every return to user mode asks,
/// and the answer is nearly always "not a failed syscall".
#[inline]
pub fn restart_syscall(tf: &mut TrapFrame, handler_flags: Option<u32>) {
    if tf.syscall_failed() {
        restart_failed_syscall(tf, handler_flags);
    }
}

/// `restart_syscall` for a call that failed: a restart code is rewritten,
/// any other error goes back unchanged. Out of line, with nothing it calls:
/// a leaf, its registers need no saving.
#[inline(never)]
fn restart_failed_syscall(tf: &mut TrapFrame, handler_flags: Option<u32>) {
    let Some(err) = Errno::restart_from_raw(tf.ret()) else { return };
    match syscall_restart(err, handler_flags) {
        Restart::Again => tf.restart_same(),
        Restart::ViaRestartSyscall => tf.restart_as(Sysno::RestartSyscall.raw()),
        Restart::Eintr => tf.set_error(Errno::EINTR.raw() as u32),
        Restart::Unchanged => {}
    }
    tf.forget_syscall();
}

/// sigreturn / rt_sigreturn: reads the frame at the user stack pointer back
/// and resumes what the signal interrupted. A bad frame kills with SIGSEGV.
/// Each layout has its own copy, inline in its system call's table entry
/// (`Sigreturn`, `RtSigreturn`), `kind` a constant there: as one function
/// for both, every sigreturn saved the registers of the larger rt layout
/// (its uc_stack, the second run) and tested the kind again at each
/// difference; as a function per layout called from the entry, the call
/// and a second frame cost 16 instructions a sigreturn.
#[inline(always)]
pub fn restore_frame(tf: &mut TrapFrame, kind: FrameKind) -> Result<u32, Errno> {
    // SAFETY: sigreturn is a user system call, and a user system call always
    // has a running thread (`syscall::finish` says why): `current()`'s null
    // test and its panic branch would be paid on every sigreturn for
    // nothing. Nothing else reaches the thread while `p` is in use (the
    // fault path's `force_fault` finds it again after `p`'s last use).
    let p = unsafe { &mut *proc::running() };
    // The call the handler interrupted has failed with EINTR: a later
    // restart_syscall must not resume it (Linux's sigreturn sets
    // `do_no_restart_syscall`).
    p.restart = None;
    let (gap, size) = (kind.gap(), kind.size());
    let frame = tf.sp().wrapping_add(gap);
    match read_frame(tf, p, kind, frame, size) {
        Ok(()) => {
            tf.forget_syscall();
            crate::sigtrace!(sigreturn(p.group().pid, kind, frame, tf.pc()));
            Ok(tf.ret())
        }
        Err(_) => {
            super::force_fault(tf, abi::SIGSEGV, abi::SI_KERNEL, 0);
            Ok(tf.ret())
        }
    }
}

#[cfg_attr(sigil_stepping, inline(never))]
#[cfg_attr(not(sigil_stepping), inline(always))]
fn read_frame(
    tf: &mut TrapFrame,
    p: &mut Thread,
    kind: FrameKind,
    frame: u32,
    size: u32,
) -> Result<(), uaccess::Efault> {
    let w = UserWindow::open(frame, size, Read)?;
    let (mask, mc, alt) = match kind {
        // The rt fields come back as the runs `put_frame` stored: one
        // bound check a run.
        // The classic layout's three words are loaded alone: its run's
        // other two (signal, handler) are not read back, and a run's
        // volatile loads would load them anyway.
        FrameKind::Classic => {
            let sc = SigFrame::SIGCONTEXT;
            let mask_hi = w.get(sc + SigContext::MASK_HI);
            let oldmask = w.get(sc + SigContext::OLDMASK);
            (SigSet::from_user_words(oldmask, mask_hi), w.get(sc + SigContext::REGS), None)
        }
        FrameKind::Rt => {
            // uc_stack alone: uc_flags and uc_link, which nothing uses (nor
            // does Linux's rt_sigreturn), are not loaded.
            let (mut stack, mut regs_run) = ([0u32; 3], [0u32; 3]);
            w.get_slice(RtSigFrame::UCONTEXT + UContext::STACK, &mut stack);
            w.get_slice(RtSigFrame::UCONTEXT + UContext::REGS_RUN, &mut regs_run);
            let [regs, m0, m1] = regs_run;
            (SigSet::from_user_words(m0, m1), regs, Some(StackT::from_words(stack)))
        }
    };
    // The mcontext is normally inside the frame; Linux follows the pointer
    // wherever it goes, so a second window is opened only if it points elsewhere.
    let has_fp = if let Some(off) = mcontext_in(mc, frame, size) {
        let has_fp = read_mcontext(&w, off, tf, &mut p.fp);
        w.finish()?;
        has_fp
    } else {
        w.finish()?;
        let w2 = UserWindow::open(mc, MContext::READ, Read)?;
        let has_fp = read_mcontext(&w2, 0, tf, &mut p.fp);
        w2.finish()?;
        has_fp
    };
    p.fp_live = false;
    p.sig.blocked = mask.blockable();
    // A frame without FP registers was written for a thread that had not
    // used FP: if the handler did, the initial state comes back.
    if !has_fp && p.fp_used {
        reset_fp(p);
    }
    if let Some(alt) = alt {
        // Linux restore_altstack: errors here are ignored.
        let _ = p.sig.altstack.set(alt, tf.sp());
    }
    Ok(())
}

/// The offset of the mcontext at `mc` in the window [start, start + len),
/// if the part sigreturn and setcontext read (`MContext::READ`) lies
/// inside. One unsigned compare of the offset: for `mc` below `start` it
/// wraps past any length (a window ends below 2^32). Stated so, the bound
/// also tells LLVM that `read_mcontext`'s reads need no range checks of
/// their own (10 instructions a sigreturn, where the test was two compares
/// of addresses and a checked add).
#[inline(always)]
pub(super) fn mcontext_in(mc: u32, start: u32, len: u32) -> Option<u32> {
    let off = mc.wrapping_sub(start);
    (len >= MContext::READ && off <= len - MContext::READ).then_some(off)
}

/// The initial FP state back (a memset): out of line, so that the values
/// sigreturn keeps up to its end need no saved registers for this rare call.
#[cold]
#[inline(never)]
fn reset_fp(p: &mut Thread) {
    p.fp = arch::FpState::new();
    p.fp_used = false;
}

/// Reads the mcontext at `mc` (window offset) straight into the saved
/// registers and FP state, as Linux's `restore_user_regs` does: no staging
/// copy. A frame that faults halfway leaves them half-restored (the MSR
/// the kernel's all the same: `TrapFrame::restore_gregs`), and the caller
/// then kills the process with SIGSEGV, as Linux does. mc_fregs is read only
/// if the frame's MSR word says it was written (`frame_has_fp`); returns that.
/// Also swapcontext's (`context.rs`). Inline, as `put_mcontext`: out of
/// line it saved registers of its own, and the call's arguments were set
/// up, where the sigreturn around it has its registers saved already.
#[cfg_attr(not(sigil_stepping), inline(always))]
pub(super) fn read_mcontext(
    w: &UserWindow<Read>,
    mc: u32,
    tf: &mut TrapFrame,
    fp: &mut arch::FpState,
) -> bool {
    // mc_gregs[0 ..= PT_CCR] in one copy (`lmw`/`stmw`) into the frame.
    let msr = tf.restore_gregs(|regs| w.get_block(mc + MContext::GREGS, regs));
    let has_fp = frame_has_fp(msr);
    if has_fp {
        let fregs = mc + MContext::FREGS;
        // Word by word, where `get_slice` is a call: sigreturn's values
        // would then stay in saved registers across it.
        for (i, r) in fp.fpr.iter_mut().enumerate() {
            *r = w.get(fregs + 8 * i as u32);
        }
        fp.fpscr = w.get(fregs + 8 * 32);
    }
    has_fp
}
