//! Physical page frames: a buddy allocator (`buddy_system_allocator`) over the
//! RAM the kernel image and the initrd leave free, plus a share count per frame
//! so fork can share read-only pages and MAP_SHARED ones.
//!
//! Invariant: a frame handed out by `alloc` has count 1; `share` adds one,
//! `release` drops one and frees the frame when it reaches 0. The number of
//! free frames is reported at power-off so tests catch leaks.

use alloc::vec::Vec;
use buddy_system_allocator::FrameAllocator;
use spin::Mutex;

use super::{to_virt, PAGE_SIZE};

struct Frames {
    buddy: FrameAllocator<32>,
    counts: Vec<u16>,
    free: usize,
    /// Frames user memory may ever have (sysinfo's totalram).
    total: usize,
    /// All of RAM, the kernel's part included (/proc/cpuinfo's Memory).
    ram: usize,
}

static FRAMES: Mutex<Option<Frames>> = Mutex::new(None);

/// Gives the kernel heap the first `heap_frames` frames of the first range
/// large enough (the buddy allocator keeps its free lists on the heap, so the
/// heap comes first), then hands every other frame in `ranges` (half-open
/// frame numbers) to the buddy allocator. `ram` is the frames of all RAM.
pub fn init(ranges: &[(usize, usize)], heap_frames: usize, ram: usize) {
    let heap = ranges.iter().find(|r| r.1 - r.0 >= heap_frames).expect("RAM for the kernel heap").0;
    super::heap::init(to_virt(heap * PAGE_SIZE), heap_frames * PAGE_SIZE);
    let mut buddy = FrameAllocator::<32>::new();
    let mut free = 0;
    for &(start, end) in ranges {
        let start = if start == heap { start + heap_frames } else { start };
        if start < end {
            buddy.add_frame(start, end);
            free += end - start;
        }
    }
    // The free lists are heap BTreeSets: each gets its node on its first
    // insert and keeps it when it empties again. Split and merge one block of
    // every order now, so every list has its node before the leak check's
    // baseline and the check measures objects, not allocator bookkeeping.
    for order in 0..32 {
        if let Some(first) = buddy.alloc(1 << order) {
            buddy.dealloc(first, 1 << order);
        }
    }
    let max = ranges.iter().map(|r| r.1).max().unwrap_or(0);
    let counts = alloc::vec![0; max];
    *FRAMES.lock() = Some(Frames { buddy, counts, free, total: free, ram });
}

/// Allocates `1 << order` physically contiguous frames, naturally aligned and
/// zeroed; returns the physical address of the first.
pub fn alloc_order(order: u32) -> Option<usize> {
    let n = 1usize << order;
    let mut guard = FRAMES.lock();
    let f = guard.as_mut()?;
    let first = f.buddy.alloc(n)?;
    f.free -= n;
    for frame in first..first + n {
        f.counts[frame] = 1;
    }
    drop(guard);
    let phys = first * PAGE_SIZE;
    // SAFETY: the frames were free, so nothing else refers to them; they lie in
    // BAT-mapped RAM.
    unsafe { core::ptr::write_bytes(to_virt(phys) as *mut u8, 0, n * PAGE_SIZE) };
    Some(phys)
}

/// One zeroed frame.
pub fn alloc() -> Option<usize> {
    alloc_order(0)
}

/// Another owner for `phys` (a page shared read-only after fork).
pub fn share(phys: usize) {
    let mut guard = FRAMES.lock();
    let f = guard.as_mut().expect("frames");
    f.counts[phys / PAGE_SIZE] += 1;
}

/// Has `phys` more than one owner (so a write through one must not be seen by the others)?
pub fn is_shared(phys: usize) -> bool {
    FRAMES.lock().as_ref().expect("frames").counts[phys / PAGE_SIZE] > 1
}

/// Drops one owner of the `1 << order` frames at `phys`; frees them with the last.
pub fn release_order(phys: usize, order: u32) {
    let mut guard = FRAMES.lock();
    let f = guard.as_mut().expect("frames");
    let first = phys / PAGE_SIZE;
    let c = &mut f.counts[first];
    assert!(*c > 0, "release of a free frame {:#x}", phys);
    *c -= 1;
    if *c == 0 {
        for frame in first + 1..first + (1 << order) {
            f.counts[frame] = 0;
        }
        f.buddy.dealloc(first, 1 << order);
        f.free += 1 << order;
    }
}

pub fn release(phys: usize) {
    release_order(phys, 0)
}

/// Frames the allocator manages, free or not (sysinfo, as Linux's
/// `totalram_pages`: RAM less the kernel, its heap and the initrd).
pub fn total_count() -> usize {
    FRAMES.lock().as_ref().map_or(0, |f| f.total)
}

/// The frames of all RAM, the kernel's included (Linux's `total_memory`).
pub fn ram_count() -> usize {
    FRAMES.lock().as_ref().map_or(0, |f| f.ram)
}

/// Free frames right now (for the leak check at power-off).
pub fn free_count() -> usize {
    FRAMES.lock().as_ref().map_or(0, |f| f.free)
}
