//! Built-in kernel tests, chosen with `selftest=<name>` (used by `make test`).
//!
//! `kuap-window`: a write to user memory inside a UserWindow works.
//! `kuap-violation`: the same write outside any window must be stopped by the
//! MMU; the expected result is a "KUAP violation" oops. If the write goes
//! through, KUAP is not enforced and the test says so and fails (exit 1).
//! `kstack-overflow`: unbounded recursion on the boot stack must end in a
//! "kernel stack overflow" oops from `proc::check_kernel_stack`.

use crate::mm::frames;
use crate::mm::space::{AddressSpace, Prot};
use crate::uaccess::{UserWindow, Write};

const USER_PAGE: u32 = 0x1000_0000;

pub fn run(name: &[u8]) -> ! {
    let mut space = AddressSpace::new().expect("memory");
    space.add_area(USER_PAGE, USER_PAGE + 4096, Prot::RW, false).expect("memory");
    space.map(USER_PAGE, frames::alloc().expect("memory"), Prot::RW).expect("map");
    space.activate();
    // No process owns this space, so the fault handler cannot load the page:
    // load it into the MMU now.
    space.fault(USER_PAGE, true).expect("page");
    match name {
        b"kuap-window" => {
            let mut w = UserWindow::open(USER_PAGE, 4, Write).expect("window");
            w.put(0, 0x5151_u32);
            w.finish().expect("no fault");
            let back: u32 = crate::uaccess::get_user(USER_PAGE).expect("read");
            crate::console::print_always(format_args!(
                "selftest kuap-window: wrote and read back {:#x}\n",
                back
            ));
            crate::shutdown(if back == 0x5151 { 0 } else { 1 << 8 })
        }
        b"kuap-violation" => {
            crate::console::print_always(format_args!(
                "selftest kuap-violation: writing to user memory outside a window\n"
            ));
            // SAFETY: deliberately wrong: this store must fault (KUAP). The
            // page is mapped and ours, so if it does not fault nothing breaks.
            unsafe { core::ptr::write_volatile(USER_PAGE as *mut u32, 0xbad) };
            crate::console::print_always(format_args!(
                "selftest kuap-violation: FAILED, the write was not caught\n"
            ));
            crate::shutdown(1 << 8)
        }
        b"kstack-overflow" => {
            crate::console::print_always(format_args!(
                "selftest kstack-overflow: recursing on the boot stack\n"
            ));
            let depth = recurse(0);
            crate::console::print_always(format_args!(
                "selftest kstack-overflow: FAILED, {} levels deep and no oops\n",
                depth
            ));
            crate::shutdown(1 << 8)
        }
        _ => {
            crate::console::print_always(format_args!("selftest: unknown test\n"));
            crate::shutdown(2 << 8)
        }
    }
}

/// Calls itself with 256 bytes of locals per level, checking the stack at
/// each level as a trap arriving there would; the check must oops well
/// before 16 KiB are used up.
#[inline(never)]
fn recurse(depth: usize) -> usize {
    let local = core::hint::black_box([depth as u8; 256]);
    crate::proc::check_kernel_stack(crate::arch::stack_pointer() as usize);
    if depth > 1000 {
        return depth;
    }
    core::hint::black_box(recurse(depth + 1)) + local[0] as usize
}
