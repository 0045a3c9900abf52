/* head.S: the first instructions Sigil runs, and the exception vectors.
 *
 * QEMU's `-device loader` starts the CPU at _start_phys in real mode with
 * MSR = IP (vectors at 0xfff00000). We:
 *   1. set up the BATs: kernel RAM at KERNELBASE (0xc0000000) -> physical 0,
 *      and the MMIO windows (mac-io, PCI config, fw_cfg) cache-inhibited;
 *   2. rfi to the kernel's virtual address with IR/DR on and IP off;
 *   3. clear .bss, set the boot stack and call kmain().
 *
 * Every vector saves r11 and r12 in SPRG1-2 and SRR0/SRR1 in trap_scratch
 * (still in real mode, so through its physical address), then rfi's straight to
 * trap_entry's virtual address with IR/DR on and the vector number in r12.
 * trap_entry builds a TrapFrame on the kernel stack (SPRG0 holds the current
 * thread's kernel stack top when coming from user mode) and calls
 * trap_dispatch() in Rust.
 *
 * Why rfi and not "mtmsr IR|DR, then branch": that would fetch a few
 * instructions at the vector's low address with translation on, which needs an
 * identity mapping of page 0 for the kernel - and user page 0 lives at the very
 * same effective addresses. QEMU caches the fetch's translation for data reads
 * too, so a kernel read of a user NULL pointer then returned the vectors
 * instead of faulting. Never running low addresses translated avoids it.
 */
#define KERNELBASE 0xc0000000
#define FRAME      192          /* 16-byte ABI header + struct TrapFrame */
#define MSR_PR     0x4000
#define SPRG0      272          /* current thread's kernel stack top */
#define SPRG1      273          /* scratch: r11 */
#define SPRG2      274          /* scratch: r12 */
#define SCRATCH_PHYS (trap_scratch - KERNELBASE)

    .section .vectors, "ax"
    .globl __vectors
__vectors:

.macro VECTOR num
    . = \num
    mtspr   SPRG1, r11
    mtspr   SPRG2, r12
    lis     r12, SCRATCH_PHYS@ha
    mfsrr0  r11
    stw     r11, SCRATCH_PHYS@l+8(r12)
    mfsrr1  r11
    stw     r11, SCRATCH_PHYS@l+12(r12)
    lis     r11, trap_entry@h
    ori     r11, r11, trap_entry@l
    mtsrr0  r11
    mfmsr   r11
    ori     r11, r11, 0x30          /* IR | DR */
    mtsrr1  r11
    li      r12, \num
    rfi
.endm

    VECTOR 0x100    /* system reset */
    VECTOR 0x200    /* machine check */
    VECTOR 0x300    /* DSI */
    VECTOR 0x400    /* ISI */
    VECTOR 0x500    /* external */
    VECTOR 0x600    /* alignment */
    VECTOR 0x700    /* program */
    VECTOR 0x800    /* FP unavailable */
    VECTOR 0x900    /* decrementer */
    VECTOR 0xa00
    VECTOR 0xb00
    VECTOR 0xc00    /* system call */
    VECTOR 0xd00    /* trace */
    VECTOR 0xe00
    VECTOR 0xf00

/* 0x1000-0x1200: 603/e300 software TLB reload. The CPU enters in real mode with
 * MSR[TGPR] set, so r0-r3 are four shadow registers and need no saving. We walk
 * Sigil's two-level table (its physical address is at PGDIR_SLOT), load the PTE
 * into the TLB and return; a missing or forbidden page becomes an ISI/DSI. */
#define PGDIR_SLOT 0xf0
#define IMISS 980
#define DMISS 976
#define RPA   982
#define PTE_PRESENT 0x800
#define PTE_WRITE   0x400

.macro TLBMISS missspr, need, load, fault
    mfspr   r0, \missspr
    lwz     r2, PGDIR_SLOT(0)
    rlwinm  r1, r0, 12, 20, 29      /* (EA >> 22) * 4: L1 index */
    lwzx    r2, r2, r1
    cmpwi   r2, 0
    beq     \fault
    rlwinm  r1, r0, 22, 20, 29      /* ((EA >> 12) & 0x3ff) * 4: L2 index */
    lwzx    r3, r2, r1
    andi.   r1, r3, \need
    cmpwi   r1, \need
    bne     \fault
    li      r1, 0xe04               /* drop the software bits */
    andc    r3, r3, r1
    mtspr   RPA, r3
    mfsrr1  r1
    mtcrf   0x80, r1                /* CR0 as it was (SRR1 bits 0-3) */
    \load   r0
    rlwinm  r1, r1, 0, 16, 31       /* QEMU: rfi would copy SRR1's upper half into MSR */
    mtsrr1  r1
    rfi
.endm

    . = 0x1000
    TLBMISS IMISS, PTE_PRESENT, tlbli, itlb_fault
    . = 0x1100
    TLBMISS DMISS, PTE_PRESENT, tlbld, dtlb_fault
    . = 0x1200
    TLBMISS DMISS, (PTE_PRESENT | PTE_WRITE), tlbld, dtlb_store_fault

/* A miss the table cannot satisfy: leave TGPR and enter the ordinary
 * ISI/DSI path with the registers those vectors expect. */
itlb_fault:
    mfsrr1  r1
    mtcrf   0x80, r1
    rlwinm  r1, r1, 0, 16, 31
    oris    r1, r1, 0x4000          /* SRR1: no translation found */
    mtsrr1  r1
    mfmsr   r0
    xoris   r0, r0, 0x0002          /* TGPR off: r0-r3 are the real ones again */
    mtmsr   r0
    ba      0x400
dtlb_store_fault:
    lis     r2, 0x4200              /* DSISR: no translation | store */
    b       1f
dtlb_fault:
    lis     r2, 0x4000              /* DSISR: no translation */
1:  mtdsisr r2
    mtdar   r0
    mfsrr1  r1
    mtcrf   0x80, r1
    rlwinm  r1, r1, 0, 16, 31
    mtsrr1  r1
    mfmsr   r0
    xoris   r0, r0, 0x0002
    mtmsr   r0
    ba      0x300

    .section .text.head, "ax"
    .globl _start
_start:
    /* Real mode. Clear every BAT first: stale entries would shadow ours. */
    li      r0, 0
    mtspr   528, r0; mtspr 529, r0; mtspr 530, r0; mtspr 531, r0
    mtspr   532, r0; mtspr 533, r0; mtspr 534, r0; mtspr 535, r0
    mtspr   536, r0; mtspr 537, r0; mtspr 538, r0; mtspr 539, r0
    mtspr   540, r0; mtspr 541, r0; mtspr 542, r0; mtspr 543, r0
    isync
    /* IBAT0/DBAT0: 0xc0000000 -> 0, 256 MiB, supervisor only, RW, cacheable. */
    lis     r3, KERNELBASE@h
    ori     r3, r3, (0x7ff << 2) | 2
    li      r4, 2
    mtspr   529, r4
    mtspr   528, r3
    mtspr   537, r4
    mtspr   536, r3
    /* DBAT1: 0xf1000000 -> 0x81000000, 1 MiB, I|G: the mac-io BAR (ESCC, CUDA, PIC). */
    lis     r3, 0xf100
    ori     r3, r3, (7 << 2) | 2
    lis     r4, 0x8100
    ori     r4, r4, 0x28 | 2
    mtspr   539, r4
    mtspr   538, r3
    /* DBAT2: 0xfe000000 -> same, 32 MiB, I|G: Grackle PCI config registers. */
    lis     r3, 0xfe00
    ori     r3, r3, (0xff << 2) | 2
    lis     r4, 0xfe00
    ori     r4, r4, 0x28 | 2
    mtspr   541, r4
    mtspr   540, r3
    /* DBAT3: 0xf0000000 -> same, 128 KiB, I|G: fw_cfg. */
    lis     r3, 0xf000
    ori     r3, r3, 2
    lis     r4, 0xf000
    ori     r4, r4, 0x28 | 2
    mtspr   543, r4
    mtspr   542, r3
    isync
    /* Segment registers: all invalid-looking until the MMU code sets them. */
    li      r3, 0
    li      r4, 16
    mtctr   r4
    li      r5, 0
1:  mtsrin  r3, r5
    addis   r5, r5, 0x1000
    bdnz    1b
    sync
    isync
    /* Translation on, IP off: continue at the virtual address of start_virt. */
    lis     r3, start_virt@h
    ori     r3, r3, start_virt@l
    mtsrr0  r3
    li      r4, 0x1032              /* ME | IR | DR | RI */
    mtsrr1  r4
    rfi

start_virt:
    /* Clear .bss (the boot stack lives there too). */
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
 * trap_scratch holds r10 and CR (saved here: no other free register) and the
 * vector's SRR0/SRR1; interrupts are off, so nothing can reuse it meanwhile. */
    .text
    .globl trap_entry
trap_entry:
    lis     r11, trap_scratch@ha
    addi    r11, r11, trap_scratch@l
    stw     r10, 0(r11)
    mfcr    r10
    stw     r10, 4(r11)
    lwz     r10, 12(r11)            /* SRR1 */
    andi.   r10, r10, MSR_PR
    mr      r10, r1
    beq     1f
    mfspr   r1, SPRG0                      /* from user: this thread's kernel stack */
1:  stwu    r10, -FRAME(r1)
    stw     r0, 16(r1)
    stw     r10, 20(r1)             /* r1 as it was */
    stmw    r2, 24(r1)              /* r2..r31; r10-r12 fixed just below */
    lwz     r10, 0(r11)
    stw     r10, 56(r1)
    mfspr   r10, SPRG1
    stw     r10, 60(r1)
    mfspr   r10, SPRG2
    stw     r10, 64(r1)
    lwz     r10, 8(r11)
    stw     r10, 144(r1)            /* nip */
    lwz     r10, 12(r11)
    stw     r10, 148(r1)            /* msr */
    mfctr   r10
    stw     r10, 152(r1)            /* ctr */
    mflr    r10
    stw     r10, 156(r1)            /* lr */
    mfxer   r10
    stw     r10, 160(r1)            /* xer */
    lwz     r10, 4(r11)
    stw     r10, 164(r1)            /* cr */
    stw     r12, 168(r1)            /* trap (vector) */
    mfdar   r10
    stw     r10, 172(r1)
    mfdsisr r10
    stw     r10, 176(r1)
    stw     r3, 180(r1)             /* orig_r3, for syscall restart */
    addi    r3, r1, 16
    bl      trap_dispatch
    .globl trap_return
trap_return:
    /* r1 points at a trap frame: restore it all and rfi. */
    lwz     r10, 152(r1)
    mtctr   r10
    lwz     r10, 156(r1)
    mtlr    r10
    lwz     r10, 160(r1)
    mtxer   r10
    lwz     r10, 164(r1)
    mtcr    r10
    lwz     r10, 144(r1)
    mtsrr0  r10
    lwz     r10, 148(r1)
    mtsrr1  r10
    lwz     r0, 16(r1)
    lmw     r2, 24(r1)
    lwz     r1, 20(r1)
    rfi

/* switch_context(save_sp: *mut u32, new_sp: u32): the kernel half of a
 * context switch. Saves the callee-saved state (r13-r31, CR, LR) on the current
 * kernel stack, stores the stack pointer in *save_sp, and resumes the thread
 * whose stack pointer is new_sp the same way. A new thread's stack is built so
 * that this "returns" into trap_return with its TrapFrame (proc/mod.rs). */
    .globl switch_context
switch_context:
    stwu    r1, -96(r1)
    mflr    r0
    stw     r0, 100(r1)
    mfcr    r0
    stw     r0, 8(r1)
    stmw    r13, 12(r1)
    stw     r1, 0(r3)
    mr      r1, r4
    lwz     r0, 8(r1)
    mtcr    r0
    lmw     r13, 12(r1)
    lwz     r0, 100(r1)
    mtlr    r0
    addi    r1, r1, 96
    blr

    .section .bss
    .balign 16
trap_scratch:
    .space 16
    .balign 16
    .globl boot_stack
boot_stack:
    .space 16384
    .globl boot_stack_top
boot_stack_top:
