/* vector.h: the exception vector every 32-bit PowerPC family uses, the
 * constants it shares with entry.S, and the end of every family's _start.
 * Included by each family's head.S (and by entry.S); a .h, so build.rs does
 * not assemble it on its own.
 *
 * VECTOR n, placed at offset n of the vector page, runs in real mode (the CPU
 * turned translation off to take the exception). It saves r11 and r12 in
 * SPRG1-2 and SRR0/SRR1/DAR/DSISR in trap_scratch at offsets 8/12/16/20
 * (through its physical address: still real mode), then rfi's straight to
 * trap_entry's virtual address (entry.S) with IR/DR on and r12 = n. DAR and
 * DSISR are saved here because on the 8xx a TLB miss between here and
 * trap_entry would overwrite them. The system call vector skips those two
 * (4 instructions of every syscall) and the r12 = n (syscall_entry stores
 * its trap number as a constant), and enters at syscall_entry instead,
 * which puts zeroes in its frame's dar/dsisr: the scratch words are those of
 * the last other exception, maybe another process's (entry.S).
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
#define SPRG0        272          /* current thread's kernel stack top */
#define SPRG1        273          /* vectors: r11 */
#define SPRG2        274          /* vectors: r12 */
#define SCRATCH_PHYS (trap_scratch - KERNELBASE)
/* The MSR the kernel runs with, ENTER_KERNEL's without RI: ME, IR, DR;
 * EE off (the kernel is never interrupted), FP off (the kernel uses none).
 * A constant, as Linux's MSR_KERNEL: reading the MSR the exception left
 * and setting IR|DR in it took one instruction more on every exception. */
#define MSR_KERNEL   0x1030

.macro VECTOR num
    . = \num
    mtspr   SPRG1, r11
    mtspr   SPRG2, r12
    lis     r12, SCRATCH_PHYS@ha
    mfsrr0  r11
    stw     r11, SCRATCH_PHYS@l+8(r12)
    mfsrr1  r11
    stw     r11, SCRATCH_PHYS@l+12(r12)
    .if \num != 0xc00              /* a system call has no fault to describe */
    mfdar   r11
    stw     r11, SCRATCH_PHYS@l+16(r12)
    mfdsisr r11
    stw     r11, SCRATCH_PHYS@l+20(r12)
    .endif
    .if \num == 0xc00
    lis     r11, syscall_entry@h
    ori     r11, r11, syscall_entry@l
    .else
    lis     r11, trap_entry@h
    ori     r11, r11, trap_entry@l
    .endif
    mtsrr0  r11
    li      r11, MSR_KERNEL
    mtsrr1  r11
    .if \num != 0xc00              /* syscall_entry knows its number */
    li      r12, \num
    .endif
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
