/* head.S (mpc8xx): the first instructions Sigil runs on an MPC885 board, the
 * exception vectors, and the software TLB reload.
 *
 * U-Boot's `bootm` copies the image to physical 0 and jumps to _start_phys
 * with the MMU off (MSR = ME|RI) and, for a legacy (non-device-tree) boot,
 * r3 = bd_t, r4/r5 = initrd start/end, r6/r7 = command line start/end. We:
 *   1. keep r3-r7 in boot_regs (boot.rs reads them);
 *   2. empty both TLBs, set the access-protection groups (MI_AP, MD_AP: KUAP
 *      locked), point M_TWB at an empty level-1 table, enable the caches;
 *   3. rfi to start_virt (../ppc32/entry.S) with IR/DR on, which clears .bss
 *      and calls kmain.
 *
 * The 8xx has no BATs: every kernel access goes through the TLB too. The miss
 * handlers map the kernel with 8 MiB pages computed from the address alone
 * (RAM linearly at KERNELBASE, I/O identity-mapped from IO_BASE up) and walk
 * Sigil's two-level table for user addresses, like Linux's head_8xx.S. The
 * numbers below are checked against kernel/core/src/mmu8xx.rs (the Rust model
 * of this code) by its `asm_agrees` test.
 *
 * Invariant: the kernel's 8 MiB entries are only ever loaded by the first
 * touch, so between `mtsrr0`/`mtsrr1` and `rfi` in trap_return (which touch
 * only the trap frame just read) no TLB miss can clobber SRR0/SRR1.
 */
#include "../ppc32/vector.h"
#define IO_BASE_HI      0xf000          /* I/O window from 0xf0000000 */
#define MD_AP_LOCKED_HI 0xde00          /* MD_AP = 0xde000000: KUAP locked */
#define MI_AP_HI        0xde00          /* MI_AP = 0xde000000: KUEP */
#define RPN_PATTERN     0xf0            /* RPN bits 24-27 must be ones; DAR tag */
#define PTE_EXEC        0x40
#define PTE_NA          0x200
#define TWC_USER        0x61            /* APG 3 (user, accessed) | V */
#define TWC_KERNEL_8M   0x2d            /* APG 1 (kernel, accessed) | PS 8M | V */
#define TWC_GUARDED     0x10
#define RPN_KERNEL_DATA 0x1fd           /* C | pattern | SPS | SH | V: supervisor RW */
#define RPN_KERNEL_TEXT 0x6fd           /* PP 011 | pattern | SPS | SH | V: supervisor X */
#define RPN_NO_CACHE    0x2

#define SPRG3     275                   /* TLB miss handlers: r10 */
#define IC_CST    560
#define DC_CST    568
#define MI_CTR    784
#define MI_AP     786
#define MI_TWC    789
#define MI_RPN    790
#define MD_CTR    792
#define M_CASID   793
#define MD_AP     794
#define MD_EPN    795
#define M_TWB     796
#define MD_TWC    797
#define MD_RPN    798
#define M_TW      799                   /* TLB miss handlers: r11 */
#define MD_TWAM_HI   0x0400             /* MD_CTR: 4 KiB table-walk assist */
#define IDC_INVALL_HI 0x0c00            /* IC_CST/DC_CST commands (Linux reg_8xx.h) */
#define IDC_ENABLE_HI 0x0200
#define CR_SLOT   0xf8                  /* physical word: CR during a TLB miss */

    .section .vectors, "ax"
    .globl __vectors
__vectors:

    VECTOR 0x100    /* system reset */
    VECTOR 0x200    /* machine check */
    VECTOR 0x500    /* external (SIU) */
    VECTOR 0x600    /* alignment */
    VECTOR 0x700    /* program */
    VECTOR 0x900    /* decrementer */
    SYSCALL_VECTOR  /* 0xc00, system call */
    VECTOR 0xd00    /* trace */
    VECTOR 0x1000   /* software emulation: every FP and unimplemented instruction */

/* 0x1100 ITLB miss / 0x1200 DTLB miss: real mode, r10 -> SPRG3, r11 -> M_TW,
 * CR -> CR_SLOT. The effective address decides: kernel (>= KERNELBASE) gets an
 * 8 MiB entry; user walks the table: M_TWB (the level-1 base, set by
 * mmu::activate) read back gives the level-1 entry's address, writing that
 * entry to MD_TWC and reading MD_TWC gives the PTE's address. An empty entry
 * or PTE is loaded invalid: the retry takes a TLB error (0x1300/0x1400), the
 * kernel's page fault. */
    . = 0x1100
    mtspr   SPRG3, r10
    mtspr   M_TW, r11
    mfcr    r10
    stw     r10, CR_SLOT(0)
    mfspr   r10, 26                 /* SRR0: the instruction address */
    srwi    r11, r10, 28
    cmplwi  r11, KERNELBASE >> 28
    bge     itlb_kernel
    mtspr   MD_EPN, r10             /* the walk assist lives in the MD registers */
    mfspr   r10, M_TWB
    lwz     r11, 0(r10)             /* level-1 entry: L2 table physical address, or 0 */
    cmpwi   r11, 0
    li      r10, RPN_PATTERN        /* invalid, unless the walk finds a PTE */
    beq     1f
    ori     r11, r11, TWC_USER
    mtspr   MD_TWC, r11
    mfspr   r10, MD_TWC
    lwz     r10, 0(r10)             /* the PTE */
    rlwinm  r10, r10, 0, 24, 19     /* clear PP (bits 20-23) */
    rlwimi  r10, r10, 4, 21, 21     /* PTE_EXEC -> PP bit 21: 011 execute, else 001 */
    ori     r10, r10, RPN_PATTERN | PTE_NA
1:  mtspr   MI_TWC, r11
    mtspr   MI_RPN, r10             /* creates the ITLB entry */
    b       tlb_miss_done
itlb_kernel:
    rlwinm  r10, r10, 0, 0, 8       /* 8 MiB page */
    addis   r10, r10, 0x4000        /* - KERNELBASE: physical */
    ori     r10, r10, RPN_KERNEL_TEXT
    li      r11, TWC_KERNEL_8M
    mtspr   MI_TWC, r11
    mtspr   MI_RPN, r10
    b       tlb_miss_done

    . = 0x1200
    mtspr   SPRG3, r10
    mtspr   M_TW, r11
    mfcr    r10
    stw     r10, CR_SLOT(0)
    mfspr   r10, MD_EPN             /* the data address (set by the miss) */
    srwi    r11, r10, 28
    cmplwi  r11, KERNELBASE >> 28
    bge     dtlb_kernel
    mfspr   r10, M_TWB
    lwz     r11, 0(r10)
    cmpwi   r11, 0
    li      r10, RPN_PATTERN
    beq     1f
    ori     r11, r11, TWC_USER
    mtspr   MD_TWC, r11
    mfspr   r10, MD_TWC
    lwz     r10, 0(r10)
    ori     r10, r10, RPN_PATTERN   /* the PTE is an RPN but for bits 24-27 */
1:  mtspr   MD_TWC, r11
    mtspr   MD_RPN, r10             /* creates the DTLB entry */
    li      r10, RPN_PATTERN
    mtdar   r10                     /* tag DAR: a dcbX error leaves it (trap.rs) */
    b       tlb_miss_done
dtlb_kernel:
    srwi    r11, r10, 16
    rlwinm  r10, r10, 0, 0, 8
    cmplwi  r11, IO_BASE_HI
    bge     2f
    addis   r10, r10, 0x4000        /* RAM: - KERNELBASE */
    ori     r10, r10, RPN_KERNEL_DATA
    li      r11, TWC_KERNEL_8M
    b       3f
2:  ori     r10, r10, RPN_KERNEL_DATA | RPN_NO_CACHE   /* I/O: identity, CI, guarded */
    li      r11, TWC_KERNEL_8M | TWC_GUARDED
3:  mtspr   MD_TWC, r11
    mtspr   MD_RPN, r10
tlb_miss_done:
    lwz     r10, CR_SLOT(0)
    mtcr    r10
    mfspr   r10, SPRG3
    mfspr   r11, M_TW
    rfi

    VECTOR 0x1300   /* ITLB error: no translation or protection (SRR1 says) */
    VECTOR 0x1400   /* DTLB error: DAR/DSISR as for a DSI */
    VECTOR 0x1c00   /* data breakpoint */
    VECTOR 0x1d00   /* instruction breakpoint */
    VECTOR 0x1e00   /* development port */
    VECTOR 0x1f00

    .section .text.head, "ax"
    .globl _start
_start:
    lis     r8, (boot_regs - KERNELBASE)@ha
    addi    r8, r8, (boot_regs - KERNELBASE)@l
    stw     r3, 0(r8)
    stw     r4, 4(r8)
    stw     r5, 8(r8)
    stw     r6, 12(r8)
    stw     r7, 16(r8)
    /* No reserved (pinned) entries, table-walk assist on, both TLBs empty. */
    li      r0, 0
    mtspr   MI_CTR, r0
    lis     r0, MD_TWAM_HI
    mtspr   MD_CTR, r0
    tlbia
    sync
    lis     r0, MI_AP_HI
    mtspr   MI_AP, r0
    lis     r0, MD_AP_LOCKED_HI
    mtspr   MD_AP, r0
    li      r0, 0
    mtspr   M_CASID, r0
    lis     r3, (empty_pgdir - KERNELBASE)@ha
    addi    r3, r3, (empty_pgdir - KERNELBASE)@l
    mtspr   M_TWB, r3
    /* Caching now comes from the TLB entries: start both caches clean, as
     * Linux's initial_mmu does (U-Boot flushed the image it copied). */
    lis     r0, IDC_INVALL_HI
    mtspr   IC_CST, r0
    mtspr   DC_CST, r0
    lis     r0, IDC_ENABLE_HI
    mtspr   IC_CST, r0
    mtspr   DC_CST, r0
    isync
    ENTER_KERNEL

    /* In .data, not .bss: written before .bss is cleared. */
    .section .data
    .balign 4
    .globl boot_regs
boot_regs:
    .space 20

    .section .bss
    .balign 4096
empty_pgdir:
    .space 4096
