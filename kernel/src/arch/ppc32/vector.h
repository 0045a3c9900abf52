/* vector.h: the exception vectors every 32-bit PowerPC family uses, the
 * constants they share with entry.S (the trap frame's layout among them),
 * and the end of every family's _start. Included by each family's head.S
 * (and by entry.S); a .h, so build.rs does not assemble it on its own.
 *
 * VECTOR n, placed at offset n of the vector page, runs in real mode (the CPU
 * turned translation off to take the exception). It saves r11 and r12 in
 * SPRG1-2 and SRR0/SRR1/DAR/DSISR in trap_scratch at offsets 8/12/16/20
 * (through its physical address: still real mode), then rfi's straight to
 * trap_entry's virtual address (entry.S) with IR/DR on and r12 = n. DAR and
 * DSISR are saved here because on the 8xx a TLB miss between here and
 * trap_entry would overwrite them.
 *
 * SYSCALL_VECTOR, at 0xc00, is the system call's own: a user `sc` has its
 * whole trap frame stored here, still in real mode, straight into the
 * thread's kernel stack through its physical address (SPRG0 holds it), as
 * Linux's book3s/32 and 8xx prologues did before VMAP_STACK (tophys). No
 * word goes through trap_scratch and back: the vector is 29 instructions
 * (30 on the 8xx), where VECTOR and trap_entry's way took 43 to the same
 * point. The rfi then enters syscall_entry (entry.S), the frame complete,
 * with the number and the arguments still in their registers for the
 * handler it calls from the system call table.
 *
 * Why rfi and not "mtmsr IR|DR, then branch": that would fetch a few
 * instructions at the vector's low address with translation on, which needs
 * an identity mapping of page 0 for the kernel - and user page 0 lives at the
 * very same effective addresses. QEMU caches the fetch's translation for data
 * reads too, so a kernel read of a user NULL pointer then returned the
 * vectors instead of faulting. Never running low addresses translated avoids
 * it.
 */
#define KERNELBASE   0xc0000000
#define SPRG0        272          /* current thread's kernel stack top, physical */
#define SPRG1        273          /* vectors: r11 */
#define SPRG2        274          /* vectors: r12 */
/* SPRG_SYSCALL_ENTRY: a family whose SPRG3 is free (book3s32: the 603/e300
 * TLB reload runs on the shadow GPRs) #defines it, before including this
 * file, and puts syscall_entry's address there at boot (its _start); the
 * system call vector then loads SRR0 with one mfspr instead of lis/ori.
 * The 8xx's TLB miss handlers use SPRG3 as their scratch: it keeps lis/ori. */
#define SCRATCH_PHYS (trap_scratch - KERNELBASE)
/* The MSR the kernel runs with, ENTER_KERNEL's without RI: ME, IR, DR;
 * EE off (the kernel is never interrupted), FP off (the kernel uses none).
 * A constant, as Linux's MSR_KERNEL: reading the MSR the exception left
 * and setting IR|DR in it took one instruction more on every exception. */
#define MSR_KERNEL   0x1030
#define MSR_PR       0x4000
/* The trap frame's offsets from r1; ../ppc32/frame.rs reads these #defines
 * at compile time and asserts them against struct TrapFrame (offset_of!). */
#define FRAME        192          /* 16-byte ABI header + struct TrapFrame */
#define TF           16           /* the TrapFrame, above the ABI header */
#define TF_GPR       16           /* TrapFrame.gpr: r0 .. r31 */
#define TF_NIP       144          /* TrapFrame.nip: nip msr orig_r3 ctr lr xer cr mq trap dar dsisr result */
#define TF_DAR       180          /* TrapFrame.dar, then dsisr */
#define TF_DSISR     184
#define VEC_SYSCALL  3072         /* 0xc00, the system call vector (frame.rs: VEC_SYSCALL) */

.macro VECTOR num
    . = \num
    mtspr   SPRG1, r11
    mtspr   SPRG2, r12
    TO_TRAP_ENTRY \num
.endm

/* The rest of VECTOR, once r11 and r12 are in SPRG1-2. */
.macro TO_TRAP_ENTRY num
    lis     r12, SCRATCH_PHYS@ha
    mfsrr0  r11
    stw     r11, SCRATCH_PHYS@l+8(r12)
    mfsrr1  r11
    stw     r11, SCRATCH_PHYS@l+12(r12)
    /* DAR and DSISR describe the data faults alone (DSI, alignment, the
     * 8xx's DTLB error). After any other exception they still hold the
     * last data fault's, maybe another process's, which a signal frame
     * written on this trap's way out (a timer's SIGALRM, say) would hand
     * over in mc_gregs[PT_DAR]: such a trap's frame gets zeroes. */
    .if (\num == 0x300) || (\num == 0x600) || (\num == 0x1400)
    mfdar   r11
    stw     r11, SCRATCH_PHYS@l+16(r12)
    mfdsisr r11
    stw     r11, SCRATCH_PHYS@l+20(r12)
    .else
    li      r11, 0
    stw     r11, SCRATCH_PHYS@l+16(r12)
    stw     r11, SCRATCH_PHYS@l+20(r12)
    .endif
    lis     r11, trap_entry@h
    ori     r11, r11, trap_entry@l
    mtsrr0  r11
    li      r11, MSR_KERNEL
    mtsrr1  r11
    li      r12, \num
    rfi
.endm

/* SYSCALL_VECTOR: a system call from user mode stores its trap frame here,
 * in real mode, in the same layout and with the same values entry.S's
 * trap_entry gives any other trap, except what a system call does not
 * have or Rust would otherwise do:
 *   - dar = dsisr = 0: a system call has no fault address (trap_scratch's
 *     words would be the last other exception's, maybe another process's,
 *     which a signal frame would hand to this process's mcontext). They
 *     are not stored here: the frame's words are 0 already, as trap_entry
 *     clears them after every other trap, and so is the result word,
 *     which nothing writes (frame.rs);
 *   - mq = 0 (pt_regs' 601-only word) and trap = 0xc00, constants;
 *   - msr = SRR1 without its upper half, which holds the exception's
 *     reason bits, not MSR state (QEMU's rfi would copy them into the MSR);
 *   - CR0[SO] cleared: it is the error flag, so a call that succeeds
 *     returns it clear (set_error sets it; sigreturn and the like restore
 *     CR whole).
 * An `sc` in kernel mode is a kernel bug: it takes the generic path
 * (TO_TRAP_ENTRY) to trap_dispatch's oops, on the kernel stack it was on. */
.macro SYSCALL_VECTOR
    . = 0xc00
    mtspr   SPRG1, r11
    mtspr   SPRG2, r12
    mfcr    r12                     /* CR, before the mode test below */
    mfsrr1  r11
    andi.   r11, r11, MSR_PR
    bne     1f
    mtcr    r12                     /* from kernel mode */
    TO_TRAP_ENTRY 0xc00
    /* The frame is addressed through r11, not r1: r1 stays the user's
     * until the frame is stored, so stwu puts it in the back chain and
     * stmw in its own word, and only r11 (the frame) and r12 (CR) need
     * putting right. */
1:  mfspr   r11, SPRG0              /* this thread's kernel stack top, physical */
    stwu    r1, -FRAME(r11)         /* the frame, and its back chain */
    stmw    r0, TF_GPR(r11)         /* r0..r31 */
    mfspr   r30, SPRG1              /* r11 */
    mfspr   r31, SPRG2              /* r12 */
    stmw    r30, TF_GPR+44(r11)
    /* TrapFrame.nip .. trap gathered in r23..r31, stored by one stmw.
     * SRR1 is read again: the mode test's copy was spent on the andi.,
     * and keeping it would need a third free register. */
    mfsrr0  r23                     /* nip */
    mfsrr1  r24
    clrlwi  r24, r24, 16            /* msr: SRR1 without its reason bits */
    mr      r25, r3                 /* orig_r3, for syscall restart */
    mfctr   r26
    mflr    r27
    mfxer   r28
    rlwinm  r29, r12, 0, 4, 2       /* cr: CR0[SO] (bit 3) cleared */
    li      r30, 0                  /* mq */
    li      r31, VEC_SYSCALL        /* trap */
    stmw    r23, TF_NIP(r11)
    addis   r1, r11, KERNELBASE@h   /* the frame's virtual address */
#ifdef SPRG_SYSCALL_ENTRY
    mfspr   r11, SPRG_SYSCALL_ENTRY
#else
    lis     r11, syscall_entry@h
    ori     r11, r11, syscall_entry@l
#endif
    mtsrr0  r11
    li      r11, MSR_KERNEL
    mtsrr1  r11
    rfi
.endm

/* ENTER_KERNEL: the last step of a family's _start, still in real mode:
 * translation on, exception prefix off, and continue at start_virt
 * (entry.S) at its virtual address, both at once through rfi. */
.macro ENTER_KERNEL
    lis     r3, start_virt@h
    ori     r3, r3, start_virt@l
    mtsrr0  r3
    li      r4, 0x1032              /* ME | IR | DR | RI */
    mtsrr1  r4
    rfi
.endm
