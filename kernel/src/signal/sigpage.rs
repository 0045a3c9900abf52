//! The signal trampolines' page, `[sigpage]` in /proc's maps: one frame,
//! made once, holding sigil-core's `SIGPAGE_CODE` (`li r0,119; sc` for
//! sigreturn, `li r0,172; sc` for rt_sigreturn), which exec maps read-only
//! and executable into every program at `SIGPAGE`.
//!
//! A handler returns with `blr` to the LR delivery gave it: the trampoline
//! of its frame's kind here (`FrameKind::trampoline`), which makes the
//! sigreturn call. Linux ppc32 does the same with its vDSO's
//! `__kernel_sigtramp32` (ARM with a page it calls `[sigpage]`, QEMU's user
//! mode with one of its own). The alternative, Linux's fallback without a
//! vDSO, writes the two words into each frame's `mc_pad` and must then make
//! them visible to instruction fetch (`dcbst; sync; icbi; isync` on the
//! user's stack, and on the 8xx inside a KUAP window): on every delivery,
//! for code that never changes.
//!
//! The page is a shared mapping whose "file" is this frame (the `Pager`
//! below), so the address-space code needs almost nothing new: fork
//! shares it, munmap and MAP_FIXED
//! remove it as they would a file's page (a handler then returns to
//! nothing and the program gets SIGSEGV, as on Linux after unmapping the
//! vDSO), and mprotect cannot make it writable (EACCES: the "file" is not
//! open for writing).

use alloc::rc::Rc;
use alloc::string::String;
use core::sync::atomic::{AtomicUsize, Ordering};

use sigil_core::layout::{to_virt, PAGE_SIZE, SIGPAGE};
use sigil_core::signal::frame::SIGPAGE_CODE;

use crate::mm::frames;
use crate::mm::space::{AddressSpace, Fault, FileMap, Pager, Prot};

/// The page's frame, physical address; 0 until boot makes it (`init`).
/// It keeps the share it was allocated with, so it is never freed.
static FRAME: AtomicUsize = AtomicUsize::new(0);

/// Makes the page at boot, before the first program: a zeroed frame with
/// the code at its start. Made then, not at the first exec, it is not one
/// of the run's frames that the leak check expects back.
pub fn init() {
    let phys = frames::alloc().expect("a frame for the signal page at boot");
    // SAFETY: a fresh frame no one else refers to yet, in the linear map.
    unsafe { (to_virt(phys) as *mut [u32; 4]).write(SIGPAGE_CODE) };
    FRAME.store(phys, Ordering::Relaxed);
}

/// Maps the page into `space` (exec, before the program's segments, so a
/// program whose segments would cover it is refused as overlapping ones
/// are), and faults it in at once (which makes it visible to instruction
/// fetch: `first_frame` syncs an executable area's new page) rather than at
/// the first handler's return: a debugger then finds the trampoline at a
/// handler's first instruction (gdb through QEMU reads user memory only
/// through translations the MMU already holds). Fork copies the mapping
/// and loads it for the child too (`AddressSpace::fork`).
pub fn map(space: &mut AddressSpace) -> Result<(), Fault> {
    let pager = Rc::try_new(SigPage).map_err(|_| Fault::NoMem)?;
    let map = FileMap::new(pager, SIGPAGE, 0, false);
    let prot = Prot { read: true, write: false, exec: true };
    space.add_file_area(SIGPAGE, SIGPAGE + PAGE_SIZE, prot, true, map)?;
    space.fault(SIGPAGE, false).map(|_| ())
}

/// The "file" of the page's mapping: one page, the frame.
struct SigPage;

impl Pager for SigPage {
    fn frame(&self, index: u32) -> Result<usize, Fault> {
        match index {
            0 => Ok(FRAME.load(Ordering::Relaxed)),
            _ => Err(Fault::Bus),
        }
    }

    /// Only a private mapping's first touch asks, and the page is only
    /// ever mapped shared.
    fn copy_page(&self, _index: u32, _phys: usize) -> Result<(), Fault> {
        Err(Fault::Bus)
    }

    /// Never called: the mapping is read-only and cannot be made writable.
    fn written(&self) {}

    fn identity(&self) -> ((u32, u32), u32, String) {
        ((0, 0), 0, String::from("[sigpage]"))
    }
}
