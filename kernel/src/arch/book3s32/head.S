/* head.S: the first instructions Sigil runs, and the exception vectors.
 *
 * QEMU's `-device loader` starts the CPU at _start_phys in real mode with
 * MSR = IP (vectors at 0xfff00000); on an MPC83xx board U-Boot's bootm
 * jumps there with r3 = the device tree (SIGIL_PLATFORM_MPC83XX, from the
 * board file, keeps r3 and maps IMMR instead of the g3beige windows). We:
 *   1. set up the BATs: kernel RAM at KERNELBASE (0xc0000000) -> physical 0,
 *      and the MMIO windows (mac-io, PCI config, fw_cfg) cache-inhibited;
 *   2. rfi to start_virt (../ppc32/entry.S) with IR/DR on and IP off, which
 *      clears .bss, sets the boot stack and calls kmain().
 *
 * The vectors are VECTOR (../ppc32/vector.h): save a few registers, rfi to
 * trap_entry in ../ppc32/entry.S.
 */
#define SPRG_SYSCALL_ENTRY 275     /* SPRG3: syscall_entry's address (vector.h) */
#include "../ppc32/vector.h"

    .section .vectors, "ax"
    .globl __vectors
__vectors:

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
    SYSCALL_VECTOR  /* 0xc00, system call */
    VECTOR 0xd00    /* trace */
    VECTOR 0xe00
    VECTOR 0xf00

/* 0x1000-0x1200: 603/e300 software TLB reload. The CPU enters in real mode with
 * MSR[TGPR] set, so r0-r3 are four shadow registers and need no saving. We walk
 * Sigil's two-level table (its physical address is at PGDIR_SLOT), load the PTE
 * into the TLB and return; a missing or forbidden page becomes an ISI/DSI.
 *
 * One bit of the PTE says whether the access may go on: PRESENT for a fetch or
 * a load, WRITE for a store. WRITE alone is enough for a store because a PTE
 * is either 0 or what `make_pte` built (mmu.rs), and `make_pte` sets WRITE
 * only beside PRESENT; `andi.`'s zero test then is the whole check (a two-bit
 * test took a `cmpwi` more, one instruction of each reload). For the same
 * reason the software bits are 0xe00 alone (PRESENT, WRITE, EXEC: SW_MASK's
 * 0x004 is never set), one contiguous run that a single rlwinm clears
 * (`li` + `andc` of 0xe04 before).
 *
 * QEMU's model of this TLB holds one entry per effective address: its tlbld
 * invalidates whatever the set's other way holds for the same page, whatever
 * the VSID (target/ppc, `ppc6xx_tlb_store`). Two processes of one program
 * (fork: the same addresses, other VSIDs) therefore evict each other's entry
 * for every page both touch, at each switch between them, where a real
 * e300's two ways keep both: the signal ping-pong pays six reloads a signal
 * on qemu-e300 that way (docs/benchmarks.md, the twelfth pass). */
#define PGDIR_SLOT 0xf0
#define IMISS 980
#define DMISS 976
#define RPA   982
#define PTE_PRESENT 0x800
#define PTE_WRITE   0x400

.macro TLBMISS missspr, bit, load, fault
    mfspr   r0, \missspr
    lwz     r2, PGDIR_SLOT(0)
    rlwinm  r1, r0, 12, 20, 29      /* (EA >> 22) * 4: L1 index */
    lwzx    r2, r2, r1
    cmpwi   r2, 0
    beq     \fault
    rlwinm  r1, r0, 22, 20, 29      /* ((EA >> 12) & 0x3ff) * 4: L2 index */
    lwzx    r3, r2, r1
    andi.   r1, r3, \bit
    beq     \fault
    rlwinm  r3, r3, 0, 23, 19       /* drop the software bits 0xe00 */
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
    TLBMISS DMISS, PTE_WRITE, tlbld, dtlb_store_fault

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
#ifdef SIGIL_PLATFORM_MPC83XX
    /* U-Boot's bootm: r3 = the device tree; U-Boot may have left
     * translation on (its BATs map RAM one-to-one), so keep r3 where
     * mpc83xx.rs finds it and turn translation off before the BATs change. */
    lis     r8, (boot_regs - KERNELBASE)@ha
    stw     r3, (boot_regs - KERNELBASE)@l(r8)
    mfmsr   r0
    andi.   r4, r0, 0x30            /* IR | DR */
    beq     2f
    andc    r0, r0, r4
    mtsrr1  r0
    lis     r4, (2f - KERNELBASE)@h
    ori     r4, r4, (2f - KERNELBASE)@l
    mtsrr0  r4
    rfi
2:
#endif
    /* Real mode. Clear every BAT first: stale entries would shadow ours. */
    li      r0, 0
    mtspr   528, r0; mtspr 529, r0; mtspr 530, r0; mtspr 531, r0
    mtspr   532, r0; mtspr 533, r0; mtspr 534, r0; mtspr 535, r0
    mtspr   536, r0; mtspr 537, r0; mtspr 538, r0; mtspr 539, r0
    mtspr   540, r0; mtspr 541, r0; mtspr 542, r0; mtspr 543, r0
#ifdef SIGIL_PLATFORM_MPC83XX
    /* U-Boot turns on the e300's high BATs (HID2[HBE]) and maps its init RAM
       and the PCI windows with BATs 4-7; left valid, they would shadow the
       page table for user addresses too. Clear them as Linux's clear_bats. */
    mtspr   560, r0; mtspr 561, r0; mtspr 562, r0; mtspr 563, r0
    mtspr   564, r0; mtspr 565, r0; mtspr 566, r0; mtspr 567, r0
    mtspr   568, r0; mtspr 569, r0; mtspr 570, r0; mtspr 571, r0
    mtspr   572, r0; mtspr 573, r0; mtspr 574, r0; mtspr 575, r0
#endif
    isync
    /* IBAT0/DBAT0: 0xc0000000 -> 0, 256 MiB, supervisor only, RW, cacheable. */
    lis     r3, KERNELBASE@h
    ori     r3, r3, (0x7ff << 2) | 2
    li      r4, 2
    mtspr   529, r4
    mtspr   528, r3
    mtspr   537, r4
    mtspr   536, r3
#ifdef SIGIL_PLATFORM_MPC83XX
    /* DBAT1: 0xe0000000 -> same, 1 MiB, I|G: IMMR (DUART, IPIC). */
    lis     r3, 0xe000
    ori     r3, r3, (7 << 2) | 2
    lis     r4, 0xe000
    ori     r4, r4, 0x28 | 2
    mtspr   539, r4
    mtspr   538, r3
#else
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
#endif
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
    /* For the system call vector, which rfi's there (vector.h). */
    lis     r3, syscall_entry@h
    ori     r3, r3, syscall_entry@l
    mtspr   SPRG_SYSCALL_ENTRY, r3
    ENTER_KERNEL


#ifdef SIGIL_PLATFORM_MPC83XX
    /* In .data, not .bss: written before .bss is cleared. */
    .section .data
    .balign 4
    .globl boot_regs
boot_regs:
    .space 4
#endif
