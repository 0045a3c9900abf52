//! The kernel heap: `linked_list_allocator` over one contiguous block of frames,
//! with a free list of small blocks in front of it.
//!
//! Kernel objects (processes, sigqueue nodes, pipes, page tables' bookkeeping)
//! live here. `used()` is reported at power-off so tests catch leaks.
//!
//! The small-block list is Linux's slab cache in its simplest form: every
//! request of at most `SMALL` bytes (alignment at most `SMALL`) gets a
//! `SMALL`-byte block, and a freed one goes on a LIFO list instead of back
//! into the linked list. A sigqueue node (32 bytes) is allocated and freed for
//! every signal; first-fit search and coalescing in the linked list cost about
//! 160 instructions per pair, the list push and pop a handful. Cached blocks
//! are never returned to the linked list: the cache only holds as many as
//! were ever live at once.

use core::alloc::{GlobalAlloc, Layout};

use linked_list_allocator::LockedHeap;

use crate::kcell::KCell;

/// The size (and alignment) of every small block.
const SMALL: usize = 32;

/// A free small block: its first word links to the next one.
struct FreeBlock {
    next: *mut FreeBlock,
}

struct KernelHeap {
    list: LockedHeap,
    /// Free small blocks (top of the LIFO) and how many there are.
    small: KCell<(*mut FreeBlock, usize)>,
}

const fn is_small(layout: Layout) -> bool {
    layout.size() <= SMALL && layout.align() <= SMALL
}

const SMALL_LAYOUT: Layout = match Layout::from_size_align(SMALL, SMALL) {
    Ok(l) => l,
    Err(_) => panic!("SMALL is a power of two"),
};

// SAFETY: small blocks are handed out once and taken back once (the list
// holds only blocks nobody uses); everything else is `linked_list_allocator`'s.
// One CPU and no kernel preemption (kcell.rs) make the KCell access exclusive.
unsafe impl GlobalAlloc for KernelHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !is_small(layout) {
            // SAFETY: the caller's contract, passed on.
            return unsafe { self.list.alloc(layout) };
        }
        let (top, count) = self.small.get();
        if top.is_null() {
            // SAFETY: SMALL_LAYOUT has a non-zero size.
            return unsafe { self.list.alloc(SMALL_LAYOUT) };
        }
        let block = *top;
        // SAFETY: a block on the list is a free, SMALL-aligned SMALL-byte block.
        *top = unsafe { (*block).next };
        *count -= 1;
        block as *mut u8
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if !is_small(layout) {
            // SAFETY: the caller's contract, passed on.
            return unsafe { self.list.dealloc(ptr, layout) };
        }
        let (top, count) = self.small.get();
        let block = ptr as *mut FreeBlock;
        // SAFETY: ptr came from `alloc` with a small layout, so it is a
        // SMALL-byte, SMALL-aligned block, and the caller no longer uses it.
        unsafe { (*block).next = *top };
        *top = block;
        *count += 1;
    }
}

#[global_allocator]
static HEAP: KernelHeap =
    KernelHeap { list: LockedHeap::empty(), small: KCell::new((core::ptr::null_mut(), 0)) };

/// Gives the allocator its memory; called once, by `frames::init`.
pub fn init(start: usize, size: usize) {
    // SAFETY: [start, start + size) is RAM that the frame allocator just gave
    // away for good and that nothing else uses.
    unsafe { HEAP.list.lock().init(start as *mut u8, size) };
}

/// Bytes in use on the kernel heap (cached free small blocks are not in use).
pub fn used() -> usize {
    HEAP.list.lock().used() - HEAP.small.get().1 * SMALL
}
