//! Sigil: a small kernel for 32-bit PowerPC that shows how Linux delivers signals.
//!
//! Boot order: the family's head.S (real mode: BATs or TLB set-up, then
//! translation on) -> start_virt (arch/ppc32/entry.S: .bss, boot stack) ->
//! kmain() here: console and boot information, memory, MMU, timer, initramfs
//! -> PID 1 (`/sbin/init`, which runs the program `/init` as its child) ->
//! leak check and power-off (`shutdown`).
//! Read docs/signals.md to follow one signal from kill() to the handler and back.
//!
//! # Layers
//! The modules form layers, and a module uses only its own layer and the
//! ones below it, so the kernel reads bottom-up. Where a lower layer must
//! reach one above (a timer that wakes a thread), the upper one passes it a
//! callback or acts on what the lower one returns. qemu/tests/layers.rs
//! (`make layers`) checks every `crate::` path against this block, and no
//! upward edge remains (its `ALLOWED` list is empty). Where a lower layer
//! holds a type an upper one defines, it declares the type, as C's
//! `struct files_struct;` does: a thread holds a descriptor table and an fs
//! state that proc names only as `Held`'s associated types, and fs says
//! what they are (`proc/share.rs`).
//! ```text
//! kcell arch static_key console random devtree | the CPU, MMU, exceptions; boot-patched branches; console; random; FDT
//! mm                       | frames, heap, address spaces
//! uaccess                  | user memory through a checked window
//! time                     | the clock, deadlines, itimers, POSIX timers, CPU time
//! trace                    | the signal trace points
//! cred proc                | credentials, processes, threads (their signal state), the scheduler
//! signal                   | generation (kill's broadcast, exit's notices), queues, delivery, sigreturn
//! fs event dev             | files, exec, pipes, eventfd/pidfd, the devices
//! syscall                  | the system calls
//! fpemu trap               | the trap handlers
//! cmdline selftest main    | boot: options, self-tests, kmain, shutdown
//! ```
#![no_std]
#![no_main]
#![deny(unsafe_op_in_unsafe_fn)]
// `Box::try_new` and friends: a kernel object a user program asks for is
// allocated fallibly, so a full heap is ENOMEM, not a panic (as
// Rust-for-Linux does). build-std already needs RUSTC_BOOTSTRAP.
#![feature(allocator_api)]
// Files and devices are shared as `Arc<File>` trait objects whose insides are
// `RefCell`s: the kernel runs on one CPU with interrupts off while it touches
// them, so nothing is ever shared across threads and `Send`/`Sync` would
// promise what nobody needs.
#![allow(clippy::arc_with_non_send_sync)]

extern crate alloc;

mod arch;
mod cmdline;
mod console;
mod cred;
mod dev;
mod devtree;
mod event;
mod fpemu;
mod fs;
mod kcell;
mod mm;
mod proc;
mod random;
mod selftest;
mod signal;
mod static_key;
mod syscall;
mod time;
mod trace;
mod trap;
mod uaccess;

use core::panic::PanicInfo;
use core::sync::atomic::Ordering;

extern "C" {
    static __kernel_start: u8;
    static __kernel_end: u8;
}

/// Heap: 16 MiB of the RAM, unless `heap=` says otherwise.
const HEAP_FRAMES: usize = 4096;
/// What `heap=` may ask for: the boot itself needs about 1 MiB; the budgets
/// (docs/threat-model.md) are sized for the default.
const HEAP_MIN: usize = 1 << 20;
const HEAP_MAX: usize = 64 << 20;

/// The heap's size in frames: `heap=<size>` (Linux's memparse syntax, as
/// `heap=2M`) if it is in range, else the default. A small heap is for
/// testing what the kernel does when its heap runs out: every object a
/// user program asks for past that point is an errno.
fn heap_frames(cmdline: &[u8]) -> Result<usize, &[u8]> {
    let Some(value) = sigil_core::cmdline::early_value(cmdline, b"heap=") else {
        return Ok(HEAP_FRAMES);
    };
    match sigil_core::cmdline::memparse(value) {
        Some(n) if (HEAP_MIN..=HEAP_MAX).contains(&n) => Ok(n / mm::PAGE_SIZE),
        _ => Err(value),
    }
}

#[no_mangle]
extern "C" fn kmain() -> ! {
    let Some(boot) = arch::early_init() else { arch::power_off() };
    // SAFETY: linker symbols; only their addresses are used.
    let (kstart, kend) =
        unsafe { (&__kernel_start as *const u8 as usize, &__kernel_end as *const u8 as usize) };
    let (initrd, initrd_len) = (boot.initrd.0 as usize, boot.initrd.1 as usize);
    let cmdline = command_line(boot.cmdline as usize);
    let fdt_addr = if boot.fdt != 0 { Some(boot.fdt) } else { devtree::option(cmdline) };
    let fdt = fdt_addr.and_then(|a| devtree::at(a, boot.ram_size));
    // Keep the initrd, the command line QEMU put after it, and the device
    // tree out of the allocator.
    let first = mm::to_phys(kend).div_ceil(mm::PAGE_SIZE);
    let last = boot.ram_size as usize / mm::PAGE_SIZE;
    let kept = [
        (initrd, initrd_len),
        (boot.cmdline as usize, mm::PAGE_SIZE),
        (fdt_addr.unwrap_or(0) as usize, fdt.map_or(0, |b| b.len())),
    ];
    let (ranges, n) = free_ranges(first, last, kept);
    let heap = heap_frames(cmdline);
    let heap_frames = heap.unwrap_or(HEAP_FRAMES);
    mm::frames::init(&ranges[..n], heap_frames, last);
    let opts = cmdline::parse(cmdline);
    kprintln!(
        "Sigil on {}: CPU PVR {:#010x} ({}), RAM {} MiB, kernel {} KiB, timebase {} Hz",
        arch::MACHINE,
        arch::pvr(),
        arch::platform(),
        boot.ram_size >> 20,
        (kend - kstart) >> 10,
        boot.tb_freq
    );

    match (fdt_addr, fdt.map(sigil_core::devtree::parse)) {
        (Some(a), Some(Ok(facts))) => kprintln!("sigil: device tree at {:#x}: {}", a, facts),
        (Some(a), Some(Err(e))) => kprintln!("sigil: device tree at {:#x}: {:?}", a, e),
        (Some(a), None) => kprintln!("sigil: no device tree at {:#x}", a),
        (None, _) => {}
    }

    let tlb_reload = <arch::Arch as arch::Mmu>::init(mm::frames::alloc_order);
    time::timer::init(boot.tb_freq);
    time::clock::init();
    dev::tty::init();
    signal::sigpage::init();
    kprintln!("sigil: boot options: {}", core::str::from_utf8(cmdline).unwrap_or("?"));
    if let Err(bad) = heap {
        kprintln!(
            "sigil: heap={}: not a size from 1M to 64M; the heap keeps its default",
            core::str::from_utf8(bad).unwrap_or("?")
        );
    }
    kprintln!(
        "sigil: {} free frames, heap {} KiB, {} TLB reload",
        mm::frames::free_count(),
        heap_frames * 4,
        tlb_reload
    );
    kprintln!("sigil: boot took {} timebase ticks", <arch::Arch as arch::Clock>::now());

    if let Some(test) = opts.selftest {
        selftest::run(test);
    }
    if initrd_len == 0 {
        kprintln!("sigil: no initramfs (-initrd): nothing to run");
        shutdown(0);
    }
    // SAFETY: the initrd frames were kept out of the allocator above.
    let data = unsafe { core::slice::from_raw_parts(mm::to_virt(initrd) as *const u8, initrd_len) };
    let argv: alloc::vec::Vec<&[u8]> =
        core::iter::once(&b"/sbin/init"[..]).chain(opts.init_args.iter().copied()).collect();
    // The baseline comes before the file tree exists: the leak check frees
    // the tree (with whatever files the run left in it) and then expects
    // every frame and heap byte back.
    let baseline = Usage::now();
    fs::tmpfs::init();
    match fs::initramfs::init(data) {
        Ok(n) => kprintln!("sigil: initramfs: {} entries, {} KiB", n, initrd_len >> 10),
        Err(e) => {
            console::print_always(format_args!("sigil: bad initramfs: {:?}\n", e));
            shutdown(1);
        }
    }
    syscall::on_reboot(shutdown);
    // PID 1's stdin, stdout and stderr are /dev/console, its cwd the root.
    let (files, cwd) = (fs::FdTable::console(), fs::FsState::boot());
    match fs::exec::run_init("/sbin/init", &argv, files, cwd) {
        Ok(status) => {
            leak_check(&baseline);
            shutdown(status)
        }
        Err(e) => {
            console::print_always(format_args!("sigil: cannot run /sbin/init: {}\n", e.name()));
            shutdown(127 << 8)
        }
    }
}

/// What a run can leak: free frames, kernel heap bytes, sigqueue nodes.
struct Usage {
    free_frames: usize,
    heap: usize,
    nodes: usize,
}

impl Usage {
    fn now() -> Usage {
        Usage {
            free_frames: mm::frames::free_count(),
            heap: mm::heap::used(),
            nodes: sigil_core::signal::queue::LIVE_NODES.load(Ordering::Relaxed),
        }
    }
}

/// After PID 1 and every other process are gone (`run_init` returned), all
/// they held must be back: frees the file tree (files left in it are not
/// leaks, an inode nothing can reach any more is), compares with `before`
/// (taken just before the initramfs was unpacked) and says so. A leak is printed even under `quiet`, and the
/// integration tests fail on that line.
fn leak_check(before: &Usage) {
    time::timer::release_empty_events();
    dev::tty::release();
    time::timers::release_empty_table();
    proc::futex::release_empty_queues();
    fs::tmpfs::release();
    let after = Usage::now();
    let frames = before.free_frames as isize - after.free_frames as isize;
    let heap = after.heap as isize - before.heap as isize;
    let nodes = after.nodes as isize - before.nodes as isize;
    if frames == 0 && heap == 0 && nodes == 0 {
        kprintln!(
            "sigil: leak check: ok ({} free frames, heap {} bytes, as before the initramfs)",
            after.free_frames,
            after.heap
        );
    } else {
        console::print_always(format_args!(
            "sigil: leak check: LEAK frames {:+} heap {:+} bytes sigqueue nodes {:+}\n",
            frames, heap, nodes
        ));
    }
    let refused = mm::heap::REFUSED.load(Ordering::Relaxed);
    if refused > 0 {
        kprintln!("sigil: heap full {} times, each answered with an errno", refused);
    }
}

/// The frames [first, last) without the `kept` regions (physical start and
/// length in bytes; length 0: nothing kept), as half-open frame ranges.
fn free_ranges(
    first: usize,
    last: usize,
    mut kept: [(usize, usize); 3],
) -> ([(usize, usize); 4], usize) {
    kept.sort_unstable();
    let (mut ranges, mut n, mut from) = ([(0, 0); 4], 0, first);
    for (start, len) in kept.into_iter().filter(|&(s, l)| s > 0 && l > 0) {
        let (lo, hi) = (start / mm::PAGE_SIZE, (start + len).div_ceil(mm::PAGE_SIZE) + 1);
        if lo > from {
            ranges[n] = (from, lo.min(last));
            n += 1;
        }
        from = from.max(hi);
    }
    if from < last {
        ranges[n] = (from, last);
        n += 1;
    }
    (ranges, n)
}

/// The NUL-terminated command line QEMU left at physical `addr` (at most 4 KiB).
fn command_line(addr: usize) -> &'static [u8] {
    if addr == 0 {
        return &[];
    }
    // SAFETY: QEMU put the command line there (fw_cfg); head.S maps all RAM
    // and the frame allocator is told to keep the initrd and what follows.
    let max = unsafe { core::slice::from_raw_parts(mm::to_virt(addr) as *const u8, 4096) };
    &max[..max.iter().position(|&b| b == 0).unwrap_or(0)]
}

/// PID 1 ended (or reboot was called): report and power off with `status`
/// (a Linux wait status: exit code, or 128 + signal number when killed).
pub fn shutdown(wait_status: u32) -> ! {
    let code =
        sigil_core::abi::wait_status::decode_exit(wait_status).unwrap_or_else(|(sig, _)| 128 + sig);
    // The time and the counters are what `make bench` (qemu/src/bench.rs) reads:
    // under `-icount shift=0` guest nanoseconds are guest instructions.
    kprintln!(
        "sigil: init exited ({}) at {} ns; windows {}, window bytes {}, siginfo bytes copied {}, free frames {}, heap {} bytes, sigqueue nodes {}, timers {}, deadlines {}, timer interrupts {}, fp emulated {}",
        code,
        time::timer::now_ns(),
        uaccess::WINDOWS.load(Ordering::Relaxed),
        uaccess::BYTES.load(Ordering::Relaxed),
        sigil_core::signal::queue::SIGINFO_BYTES_COPIED.load(Ordering::Relaxed),
        mm::frames::free_count(),
        mm::heap::used(),
        sigil_core::signal::queue::LIVE_NODES.load(Ordering::Relaxed),
        time::timers::LIVE.load(Ordering::Relaxed),
        time::timer::queued(),
        time::timer::INTERRUPTS.load(Ordering::Relaxed),
        fpemu::EMULATED.load(Ordering::Relaxed)
    );
    console::exit(code as i32)
}

#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    console::print_always(format_args!("\nSIGIL OOPS: kernel panic: {}\n", info));
    arch::backtrace(arch::stack_pointer());
    console::exit(255)
}
