//! The kernel heap: `linked_list_allocator` over one contiguous block of frames.
//!
//! Kernel objects (processes, sigqueue nodes, pipes, page tables' bookkeeping)
//! live here. `used()` is reported at power-off so tests catch leaks.

use linked_list_allocator::LockedHeap;

#[global_allocator]
static HEAP: LockedHeap = LockedHeap::empty();

/// Gives the allocator its memory; called once, by `frames::init`.
pub fn init(start: usize, size: usize) {
    // SAFETY: [start, start + size) is RAM that the frame allocator just gave
    // away for good and that nothing else uses.
    unsafe { HEAP.lock().init(start as *mut u8, size) };
}

/// Bytes in use on the kernel heap.
pub fn used() -> usize {
    HEAP.lock().used()
}
