/* entry.S: the exception entry and exit, the context switch, and the
 * register-set copies of the signal frames (copy_words44/39) and their
 * siginfo (copy_words8_pad32/34), shared by every 32-bit PowerPC family
 * (book3s32, mpc8xx).
 *
 * A family's vectors (its head.S) save r11/r12 in SPRG1/SPRG2 and SRR0, SRR1,
 * DAR and DSISR in trap_scratch (offsets 8, 12, 16, 20) while still in real
 * mode, then rfi to trap_entry with translation on and r12 = vector number.
 * trap_entry builds a TrapFrame (../ppc32/frame.rs) on the kernel stack
 * (SPRG0 holds the physical address of the current thread's kernel stack
 * top, for a trap from user mode) and calls trap_dispatch() in Rust (the
 * generic kernel/src/trap.rs, which asks ../ppc32/trap.rs and the family's
 * classify to decode it). A system call from user mode has its frame
 * stored by its vector itself (vector.h's SYSCALL_VECTOR), which rfi's to
 * syscall_entry here: straight to the number's handler in the system call
 * table, undecoded.
 */
#define SWITCH_FRAME 96         /* switch_context's frame: back chain, LR slot, CR, r13-r31 */
#include "vector.h"

/* start_virt: where each family's _start lands (by rfi) once translation is
 * on. Clears .bss (the boot stack lives there too), sets the boot stack and
 * calls kmain(), which never returns. */
    .text
    .globl start_virt
start_virt:
    lis     r3, __bss_start@h
    ori     r3, r3, __bss_start@l
    lis     r4, __bss_end@h
    ori     r4, r4, __bss_end@l
    li      r0, 0
2:  cmplw   r3, r4
    bge     3f
    stw     r0, 0(r3)
    addi    r3, r3, 4
    b       2b
3:  lis     r1, boot_stack_top@h
    ori     r1, r1, boot_stack_top@l
    li      r0, 0
    stwu    r0, -16(r1)
    bl      kmain
4:  b       4b

/* trap_entry: r11/r12 are in SPRG1/2, r12 = vector, translation is on.
 * trap_scratch holds r10 and CR (saved here: no other free register) and
 * the vector's SRR0/SRR1/DAR/DSISR, saved in real mode by the vector: on
 * the 8xx a TLB miss taken here (kernel stack) would overwrite all four.
 * Interrupts are off, so nothing can reuse the scratch meanwhile. */
    .globl trap_entry
trap_entry:
    /* trap_scratch's words are addressed as trap_scratch@l+n from one lis
     * (no addi): its alignment keeps every @l+n on the same side of a
     * 64 KiB half as trap_scratch@l itself (see its .balign below). */
    lis     r11, trap_scratch@ha
    stw     r10, trap_scratch@l(r11)
    mfcr    r10
    stw     r10, trap_scratch@l+4(r11)
    lwz     r10, trap_scratch@l+12(r11) /* SRR1 */
    andi.   r10, r10, MSR_PR
    mr      r10, r1
    beq     1f
    mfspr   r1, SPRG0               /* from user: this thread's kernel stack, */
    addis   r1, r1, KERNELBASE@h    /* at its virtual address */
1:  stwu    r10, -FRAME(r1)
    stw     r0, TF_GPR(r1)
    stw     r10, TF_GPR+4(r1)       /* r1 as it was */
    stmw    r2, TF_GPR+8(r1)        /* r2..r31; r10-r12 fixed just below */
    /* Every register but r1 is saved now, so the rest is gathered into
     * r21..r31 and stored by stmw: two runs (r10-r12 fixed up, then nip ..
     * dsisr) in two stores instead of fourteen. Fewer instructions, not
     * fewer cycles: a 750 or e300 stmw stores about one word a cycle. */
    lwz     r29, trap_scratch@l(r11)   /* r10 */
    mfspr   r30, SPRG1              /* r11 */
    mfspr   r31, SPRG2              /* r12 */
    stmw    r29, TF_GPR+40(r1)
    lwz     r21, trap_scratch@l+8(r11) /* nip */
    lwz     r22, trap_scratch@l+12(r11) /* msr */
    mr      r23, r3                 /* orig_r3, for syscall restart */
    mfctr   r24
    mflr    r25
    mfxer   r26
    lwz     r27, trap_scratch@l+4(r11) /* cr */
    li      r28, 0                  /* mq */
    mr      r29, r12                /* trap (vector) */
    lwz     r30, trap_scratch@l+16(r11) /* dar */
    lwz     r31, trap_scratch@l+20(r11) /* dsisr */
    stmw    r21, TF_NIP(r1)         /* TrapFrame.nip .. dsisr (result stays 0) */
    addi    r3, r1, TF
    bl      trap_dispatch
    /* The fault is handled (a signal frame written for it has its DAR and
     * DSISR): the frame's words go back to 0, so that a user frame always
     * holds 0 there when a system call enters, which then need not store
     * them (vector.h's SYSCALL_VECTOR). */
    li      r0, 0
    stw     r0, TF_DAR(r1)
    stw     r0, TF_DSISR(r1)
    b       trap_return

/* syscall_entry's two ways off its straight path, kept ahead of it so
 * that it falls through into trap_return. Named, so that a backtrace
 * through work_before_user says where it was called from (a numeric label
 * makes no symbol, and gdb would name trap_entry, the one before). */
syscall_past_table:
    li      r12, sigil_syscall_count@l  /* a number past the table: its */
    slwi    r12, r12, 2                 /* last entry, unknown's (ENOSYS) */
    b       6f
syscall_work:
    addi    r3, r1, TF                  /* the work flag was set: */
    bl      work_before_user            /* signals, preemption (trap.rs) */
    b       trap_return

/* syscall_entry: where a user `sc` continues with translation on, its
 * frame complete (SYSCALL_VECTOR), and the number (r0) and six arguments
 * (r3..r8) still in their registers: Linux ppc32's sys_call_table call.
 * It calls the number's handler from the system call table
 * (kernel/src/syscall/mod.rs: sigil_syscall_table, sigil_syscall_count
 * entries and one for any number past them) as an ordinary function: the
 * arguments where they are, the trap frame's address a seventh (r9). The
 * handler stores the result into the frame and returns the thread's work
 * flag; with the flag clear, trap_return follows at once. */
    .globl syscall_entry
syscall_entry:
    cmplwi  r0, sigil_syscall_count@l
    slwi    r12, r0, 2                  /* the entry's offset */
    addi    r9, r1, TF
    bge-    syscall_past_table
6:  addis   r12, r12, sigil_syscall_table@ha
    lwz     r12, sigil_syscall_table@l(r12)
    mtctr   r12
    bctrl
    cmpwi   r3, 0
    bne-    syscall_work
    .globl trap_return
trap_return:
    /* r1 points at a trap frame: restore it all and rfi. lmw brings nip ..
     * cr into r25..r31 first (one instruction for seven loads, orig_r3 in
     * r27 unused); those registers are reloaded with the user's values by
     * the lmw after. */
    lmw     r25, TF_NIP(r1)
    mtsrr0  r25
    mtsrr1  r26
    mtctr   r28
    mtlr    r29
    mtxer   r30
    mtcr    r31
    lwz     r0, TF_GPR(r1)
    lmw     r2, TF_GPR+8(r1)
    lwz     r1, TF_GPR+4(r1)
    rfi

/* switch_context(save_sp: *mut u32, new_sp: u32): the kernel half of a
 * context switch. Saves the callee-saved state (r13-r31, CR, LR) on the current
 * kernel stack, stores the stack pointer in *save_sp, and resumes the thread
 * whose stack pointer is new_sp the same way. A new thread's stack is built so
 * that this "returns" into trap_return with its TrapFrame (proc/mod.rs). */
    .globl switch_context
switch_context:
    stwu    r1, -SWITCH_FRAME(r1)
    mflr    r0
    stw     r0, SWITCH_FRAME+4(r1)
    mfcr    r0
    stw     r0, 8(r1)
    stmw    r13, 12(r1)
    stw     r1, 0(r3)
    mr      r1, r4
    lwz     r0, 8(r1)
    mtcr    r0
    lmw     r13, 12(r1)
    lwz     r0, SWITCH_FRAME+4(r1)
    mtlr    r0
    addi    r1, r1, SWITCH_FRAME
    blr

/* copy_words44 and copy_words39 (dst: *mut u32, src: *const u32): copy a
 * signal frame's mc_gregs, 44 words, between a TrapFrame (pt_regs order,
 * ../ppc32/frame.rs) and user memory, or the 39 that sigreturn reads back
 * (r0 .. CCR), with three lmw/stmw pairs through r14-r31, which are
 * callee-saved and so saved around it (one stmw, one lmw). Eleven
 * instructions where a load/store loop takes about 90.
 * Both addresses must be word-aligned (an unaligned lmw/stmw is an
 * alignment interrupt even where lwz/stw would not be: the caller,
 * uaccess.rs, checks) and the CPU big-endian (in little-endian mode they
 * are illegal; Sigil never runs little-endian).
 *
 * One side is user memory inside an open UserWindow. A fault in the middle
 * of a multiple-word access is safe: the architecture makes lmw/stmw
 * restartable, so a DSI (DAR = the faulting word, inside the window) either
 * fills the page in and re-executes the whole instruction, or is recorded by
 * the window and skipped (uaccess::fixup, cpu.rs's skip_faulted_access,
 * which zeroes the registers a skipped lmw was loading, so no kernel value
 * can reach a frame); finish() then answers EFAULT. Some words of a skipped
 * stmw may have been stored: the frame is bad either way. */
.macro COPY_WORDS name, n
    .globl \name
\name:
    stwu    r1, -80(r1)
    stmw    r14, 8(r1)
    lmw     r14, 0(r4)          /* words 0..17 */
    stmw    r14, 0(r3)
    lmw     r14, 72(r4)         /* words 18..35 */
    stmw    r14, 72(r3)
    lmw     68-\n, 144(r4)      /* words 36 .. n-1, into r(68-n) .. r31 */
    stmw    68-\n, 144(r3)
    lmw     r14, 8(r1)
    addi    r1, r1, 80
    blr
.endm
COPY_WORDS copy_words44, 44
COPY_WORDS copy_words39, 39

/* copy_words8_pad32 and copy_words8_pad34 (dst: *mut u32, src: *const
 * u32): a user siginfo_t, 32 words: the 8 at src (a SigInfo's), then 24
 * zeroes; pad34 also zeroes the two words after it (an rt frame's
 * uc_flags and uc_link). An lmw of zero_words puts the zeroes in r14-r31
 * (18), and two stmw store them (r14-r31, then r26-r31 or r24-r31 again).
 * Eleven instructions where the stores one by one took 41 (a load and a
 * store per word, one li, a store per zero). The same rules as
 * COPY_WORDS: dst word-aligned, user memory inside an open write
 * UserWindow, a fault in one of the stmw recorded and skipped (zero_words
 * is kernel data: the lmw of it cannot fault on a user address). r4 is
 * the zeroes' base once src is read: an lmw's base must not be among the
 * registers it loads. */
.macro COPY_PADDED name, n
    .globl \name
\name:
    stwu    r1, -80(r1)
    stmw    r14, 8(r1)
    lmw     r24, 0(r4)          /* words 0..7, src's */
    stmw    r24, 0(r3)
    lis     r4, zero_words@ha
    lmw     r14, zero_words@l(r4)
    stmw    r14, 32(r3)         /* words 8..25 */
    stmw    58-\n, 104(r3)      /* words 26 .. n-1, from r(58-n) */
    lmw     r14, 8(r1)
    addi    r1, r1, 80
    blr
.endm
COPY_PADDED copy_words8_pad32, 32
COPY_PADDED copy_words8_pad34, 34

    .section .rodata
    .balign 4
zero_words:
    .space 72                   /* r14-r31's worth of zeroes */

    .section .bss
    /* 32-aligned, and 32 bytes: trap_scratch@l+n (n < 32), as trap_entry and
     * the vectors address it after a lis of trap_scratch@ha, then never
     * crosses a 0x8000 boundary, where the low half's sign would flip and
     * @ha would no longer match. */
    .balign 32
    .globl trap_scratch
trap_scratch:
    .space 32
    .balign 16
    .globl boot_stack
boot_stack:
    .space 16384
    .globl boot_stack_top
boot_stack_top:
