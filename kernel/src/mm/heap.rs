//! The kernel heap: `linked_list_allocator` over one contiguous block of frames,
//! with a free list of small blocks in front of it.
//!
//! Kernel objects (processes, sigqueue nodes, pipes, page tables' bookkeeping)
//! live here. `used()` is reported at power-off so tests catch leaks.
//!
//! The small-block list is Linux's slab cache in its simplest form: a
//! request of at most 32 bytes (alignment at most 32) gets a 32-byte block,
//! and a freed block goes on the LIFO list instead of back into the linked
//! list. A sigqueue node (the 32-byte siginfo, nothing else: its user charge
//! stays in the queue) is allocated and freed for every signal; first-fit
//! search and coalescing in the linked list cost about 500 instructions per
//! pair there (a raise measured 2646 instructions with the node in the
//! linked list, 2124 with it in a small-block class), the list push and pop
//! a handful. Cached blocks are never returned to the linked list: the
//! cache only holds as many as were ever live at once.
//!
//! A request the heap cannot meet returns null. The kernel asks fallibly
//! (`try_reserve`, `Box::try_new`...) wherever a user program makes it
//! allocate, and answers ENOMEM; `REFUSED` counts those refusals, which
//! the boot option `heap=` makes happen (qemu/tests/robustness.rs).

use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::sync::Arc;
use core::alloc::{GlobalAlloc, Layout};
use core::sync::atomic::{AtomicUsize, Ordering};

use sigil_core::abi::Errno;

use linked_list_allocator::LockedHeap;

use crate::kcell::KCell;

/// The sizes (and alignments) of the small-block classes.
const CLASSES: [usize; 1] = [32];

/// A free small block: its first word links to the next one.
struct FreeBlock {
    next: *mut FreeBlock,
}

struct KernelHeap {
    list: LockedHeap,
    /// Per class: the top of its LIFO of free blocks. How many there are is
    /// counted only when asked (`used`), by walking the list: a count kept
    /// here would be a load, an add and a store more on every allocation
    /// and free of a small block, twice for every signal.
    small: KCell<[*mut FreeBlock; CLASSES.len()]>,
}

/// The small-block class serving `layout`, if any.
const fn class(layout: Layout) -> Option<usize> {
    let need = if layout.size() > layout.align() { layout.size() } else { layout.align() };
    let mut c = 0;
    while c < CLASSES.len() {
        if need <= CLASSES[c] {
            return Some(c);
        }
        c += 1;
    }
    None
}

/// The layout of a class's blocks (a power of two, so size = alignment).
const fn class_layout(c: usize) -> Layout {
    match Layout::from_size_align(CLASSES[c], CLASSES[c]) {
        Ok(l) => l,
        Err(_) => panic!("class sizes are powers of two"),
    }
}

/// Requests the heap could not meet since boot.
pub static REFUSED: AtomicUsize = AtomicUsize::new(0);

/// `p`, counted in `REFUSED` if it is null.
fn counted(p: *mut u8) -> *mut u8 {
    if p.is_null() {
        REFUSED.fetch_add(1, Ordering::Relaxed);
    }
    p
}

// SAFETY: small blocks are handed out once and taken back once (the list
// holds only blocks nobody uses); everything else is `linked_list_allocator`'s.
// One CPU and no kernel preemption (kcell.rs) make the KCell access exclusive.
unsafe impl GlobalAlloc for KernelHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(c) = class(layout) else {
            // SAFETY: the caller's contract, passed on.
            return counted(unsafe { self.list.alloc(layout) });
        };
        let top = &mut self.small.get()[c];
        if top.is_null() {
            // SAFETY: a class layout has a non-zero size.
            return counted(unsafe { self.list.alloc(class_layout(c)) });
        }
        let block = *top;
        // SAFETY: a block on a class's list is a free block of that class.
        *top = unsafe { (*block).next };
        block as *mut u8
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let Some(c) = class(layout) else {
            // SAFETY: the caller's contract, passed on.
            return unsafe { self.list.dealloc(ptr, layout) };
        };
        let top = &mut self.small.get()[c];
        let block = ptr as *mut FreeBlock;
        // SAFETY: ptr came from `alloc` with a layout of class c, so it is a
        // block of that class, and the caller no longer uses it.
        unsafe { (*block).next = *top };
        *top = block;
    }
}

#[global_allocator]
static HEAP: KernelHeap = KernelHeap {
    list: LockedHeap::empty(),
    small: KCell::new([core::ptr::null_mut(); CLASSES.len()]),
};

/// Gives the allocator its memory; called once, by `frames::init`.
pub fn init(start: usize, size: usize) {
    // SAFETY: [start, start + size) is RAM that the frame allocator just gave
    // away for good and that nothing else uses.
    unsafe { HEAP.list.lock().init(start as *mut u8, size) };
}

/// Bytes in use on the kernel heap (cached free small blocks are not in use).
pub fn used() -> usize {
    let small = HEAP.small.get();
    let cached: usize = small.iter().zip(CLASSES).map(|(&top, size)| free_blocks(top) * size).sum();
    HEAP.list.lock().used() - cached
}

/// The length of the free list whose top is `top` (for `used`, the only one
/// who asks).
fn free_blocks(mut top: *mut FreeBlock) -> usize {
    let mut n = 0;
    while !top.is_null() {
        n += 1;
        // SAFETY: a block on a class's list is a free block of that class.
        top = unsafe { (*top).next };
    }
    n
}

/// `v` in a new heap block, or ENOMEM: how the kernel makes an object a
/// user program asks for (a process, an open file...).
pub fn boxed<T>(v: T) -> Result<Box<T>, Errno> {
    Box::try_new(v).map_err(|_| Errno::ENOMEM)
}

/// `v` counted (`Rc`), or ENOMEM.
pub fn rc<T>(v: T) -> Result<Rc<T>, Errno> {
    Rc::try_new(v).map_err(|_| Errno::ENOMEM)
}

/// `v` counted (`Arc`, as open files are), or ENOMEM.
pub fn arc<T>(v: T) -> Result<Arc<T>, Errno> {
    Arc::try_new(v).map_err(|_| Errno::ENOMEM)
}
