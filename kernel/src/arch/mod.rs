//! The boundary between the generic kernel and the machine.
//!
//! Generic code calls only what this module re-exports. Each MMU family has its
//! own directory implementing the same names: book3s32 (QEMU g3beige with a
//! 750 or an e300c2) and mpc8xx (MPC885 boards booted by U-Boot). The board
//! file's KERNEL_ARCH picks one; build.rs turns it into `cfg(sigil_arch)`.
//! What every 32-bit PowerPC shares (trap frame, entry code, context switch)
//! lives in ppc32/.
//!
//! The interface a family must provide is written down as traits below, in
//! the shape of Linux's `asm/kup.h` (one generic interface, one small
//! implementation per MMU family): each family names a zero-sized type
//! (`Book3s32`, `Mpc8xx`) and implements them for it, and `Arch` is the one
//! this build uses. Generic code calls `Arch::open_write(..)` and so on with
//! the trait in scope, so a family that lacks a method, or has it with
//! another signature, does not compile (`make lint` builds every family).
//! What both families share (the timebase) is implemented once, in ppc32/.

mod ppc32;

#[cfg(not(sigil_arch = "mpc8xx"))]
mod book3s32;
#[cfg(not(sigil_arch = "mpc8xx"))]
pub use book3s32::*;

#[cfg(sigil_arch = "mpc8xx")]
mod mpc8xx;
#[cfg(sigil_arch = "mpc8xx")]
pub use mpc8xx::*;

#[cfg(not(sigil_arch = "mpc8xx"))]
pub use book3s32::Book3s32 as Arch;
#[cfg(sigil_arch = "mpc8xx")]
pub use mpc8xx::Mpc8xx as Arch;

/// Kernel Userspace Access Protection: when the kernel may touch user memory.
///
/// # Invariants
/// - User access is closed (locked) whenever the kernel is not inside a
///   `uaccess::UserWindow`: at every syscall entry and exit and at every
///   context switch. Only `UserWindow` opens and closes it; one window is
///   open at a time. Every context switch checks that none is open, in
///   running builds (`uaccess::assert_closed`).
/// - A window covers one range and one direction. A family may open more
///   than asked (book3s/32 unlocks whole 256 MiB segments, the 8xx all of
///   user memory) but never less.
/// - A trap taken in kernel mode saves the state and closes
///   (`save_and_close`), and restores it on the way out, so an interrupt
///   never runs with a window it did not open.
pub trait UserAccess {
    /// What `save_and_close` hands back to `restore`.
    type State: Copy;
    /// Opens [start, end) (non-empty, below TASK_SIZE) for kernel reads.
    fn open_read(start: u32, end: u32);
    /// Opens [start, end) (non-empty, below TASK_SIZE) for kernel writes.
    fn open_write(start: u32, end: u32);
    /// Closes every window; `start` is where the write window being closed
    /// begins (what it opened, as Linux's `prevent_user_access` is given
    /// the range: a family may lock just that in line).
    fn close(start: u32);
    /// Closes a window `open_read` opened (nothing on a family whose read
    /// open did nothing, so a read window costs no lock there).
    fn close_read();
    /// Entry of a kernel-mode trap: the open state, then closed.
    fn save_and_close() -> Self::State;
    /// Exit of that trap: the state `save_and_close` returned.
    fn restore(state: Self::State);
    /// Is a kernel write to user address `ea` allowed now? (The fault
    /// handler's question: a refused write outside a window is a kernel bug.)
    fn write_allowed(ea: u32) -> bool;
}

/// The time base and the one-shot timer interrupt.
///
/// # Invariants
/// - `now` never goes backwards and counts at the frequency the boot
///   information gives (`BootInfo::tb_freq`).
/// - `arm(t)` raises one timer interrupt (`Exception::Timer`) about `t` ticks
///   later; `t` is at most `TIMER_MAX_TICKS` (the caller clamps).
pub trait Clock {
    /// The longest delay one `arm` can express.
    const TIMER_MAX_TICKS: u64;
    /// The time base, in ticks since boot.
    fn now() -> u64;
    /// Arms the timer interrupt `ticks` ticks from now.
    fn arm(ticks: u32);
}

/// The boot console: a polled UART whose receive side may interrupt.
///
/// # Invariants
/// - `putc` works from the first line of `kmain` on (panics print through
///   it), with interrupts off, and returns once the byte is on its way.
/// - `getc` never blocks.
/// - With the receive interrupt enabled, `take_irq` is true after a
///   receive interrupt came from the console (and acknowledges it).
pub trait Console {
    fn putc(b: u8);
    fn getc() -> Option<u8>;
    /// Enables or disables the receive interrupt.
    fn irq(enable: bool);
    /// Did the pending external interrupt come from the console? Clears it.
    fn take_irq() -> bool;
    /// `console=<name>` on the command line: true if this family has such a
    /// console and now uses it.
    fn select(name: &[u8]) -> bool;
}

/// Threads of control: kernel stacks, the context switch, and the user FP
/// registers, which are switched lazily.
///
/// # Invariants
/// - A thread's kernel stack ends at `top` (16-aligned); its user
///   `TrapFrame` lives at `user_frame(top)` while it is in the kernel.
/// - `set_kernel_stack(top)` is called for the thread about to run before
///   it can next trap from user mode.
/// - `switch` runs with interrupts off and user access closed, and returns
///   when some other thread switches back to this one.
/// - The FP registers belong to one thread at a time: `fp_save` stores the
///   live registers into that thread's state before anyone else gets them.
pub trait Context {
    /// The boot thread's stack, as [bottom, top).
    fn boot_stack_bounds() -> (usize, usize);
    /// Where the user TrapFrame sits on the kernel stack ending at `top`.
    fn user_frame(top: usize) -> *mut TrapFrame;
    /// Prepares the fresh kernel stack ending at `top` so that switching to
    /// the returned stack pointer enters user mode with `tf`.
    fn new_thread(top: usize, tf: &TrapFrame) -> usize;
    /// Where the next trap from user mode starts its kernel stack.
    fn set_kernel_stack(top: usize);
    /// Suspends the running thread (its stack pointer goes to `*save`) and
    /// runs the thread whose saved stack pointer is `next`.
    ///
    /// # Safety
    /// `save` must stay valid until the thread is resumed, and `next` must
    /// come from `new_thread` or an earlier `switch`.
    unsafe fn switch(save: *mut usize, next: usize);
    /// Stores the live FP registers into `st`.
    fn fp_save(st: &mut FpState);
    /// Loads `st` into the FP registers.
    fn fp_load(st: &FpState);
}

/// User address translation: page-table entries in the family's format,
/// and the hardware's view of them.
///
/// # Invariants
/// - The page tables are the kernel's (`mm::space`, two levels of 1024
///   entries); a PTE is what `make_pte` returns, and only the pte_*
///   functions look inside it.
/// - After any change to a present PTE the kernel calls `flush_page` before
///   returning to user mode; `activate` makes a context and its page
///   directory the current translation.
pub trait Mmu {
    /// How many context numbers (`activate`'s `ctx`, from 0) the family
    /// tells apart, None for any number: mm hands out no more (`proc`
    /// checks it).
    const CONTEXTS: Option<usize>;
    /// Sets up user translation for this CPU; says how the TLB is reloaded.
    /// `alloc(order)` gives `1 << order` zeroed, naturally aligned frames
    /// (a physical address) for the family's own tables: the caller owns
    /// the RAM (book3s/32's hash table; the 8xx needs none).
    fn init(alloc: fn(u32) -> Option<usize>) -> &'static str;
    fn make_pte(phys: usize, write: bool, exec: bool) -> u32;
    fn pte_present(p: u32) -> bool;
    fn pte_writable(p: u32) -> bool;
    fn pte_phys(p: u32) -> usize;
    /// Switches user translation to context `ctx` with page directory `pgdir_phys`.
    fn activate(ctx: u32, pgdir_phys: usize);
    /// Loads the translation of page `ea` (PTE `pte`) after a miss.
    fn reload(ctx: u32, ea: u32, pte: u32);
    /// Drops any cached translation of page `ea` in context `ctx`.
    fn flush_page(ctx: u32, ea: u32);
}
