//! Boot options: the kernel command line QEMU passes (`-append`).
//!
//! Words before `--` are options; words after it are PID 1's arguments
//! (split as Linux does, double quotes keeping spaces: `sigil_core::cmdline`).
//!   quiet                 no kernel messages (program output stays exact)
//!   signal.dequeue=copy   copy the siginfo out of the sigqueue node (old way)
//!   signal.frame=field    one user-access window per frame store (old way)
//!   pcm.sync_ptr=<way>    SNDRV_PCM_IOCTL_SYNC_PTR's user access: window
//!                         (default), field (one get/put_user each) or copy
//!   trace=signal          print the signal trace
//!   fpu=emulate           never give user code the FPU: every FP instruction
//!                         traps and is emulated (`fpemu`), as on an FPU-less
//!                         8xx; for testing the emulator in QEMU
//!   selftest=<name>       run a built-in kernel test instead of /init
//!   fdt=<hex address>     a flattened device tree is in RAM there (put by
//!                         QEMU's -device loader): the kernel prints what it
//!                         says (`devtree`); fw_cfg still describes the machine
//!   heap=<size>           the kernel heap's size (1M to 64M, default 16M), to
//!                         test what happens when it runs out: every object a
//!                         program asks for past that point is an errno
//!   console=pipe          the console's input is a host pipe, framed with
//!                         its end of file (`dev::tty`); the runner adds it
//!   console=<uart>        the console's UART, where a board has a choice:
//!                         ttyS0 is a PCI 16550 on g3beige (arch `Console::select`)

use alloc::vec::Vec;
use core::sync::atomic::Ordering;

pub struct Options {
    pub init_args: Vec<&'static [u8]>,
    pub selftest: Option<&'static [u8]>,
}

pub fn parse(line: &'static [u8]) -> Options {
    let mut opts = Options { init_args: Vec::new(), selftest: None };
    let mut words = sigil_core::cmdline::words(line);
    for w in words.by_ref() {
        match w {
            b"--" => break,
            b"quiet" => crate::console::QUIET.store(true, Ordering::Relaxed),
            b"signal.dequeue=copy" => crate::signal::deliver::DEQUEUE_COPY.enable(),
            b"signal.frame=field" => crate::signal::deliver::FRAME_PER_FIELD.enable(),
            _ if w.starts_with(b"pcm.sync_ptr=") => crate::dev::pcm::set_sync_ptr_way(&w[13..]),
            b"fpu=emulate" => crate::fpemu::FORCED.store(true, Ordering::Relaxed),
            b"console=pipe" => crate::dev::tty::PIPE_INPUT.store(true, Ordering::Relaxed),
            _ if w.starts_with(b"console=") => {
                if !<crate::arch::Arch as crate::arch::Console>::select(&w[8..]) {
                    crate::kprintln!(
                        "sigil: {}: no such console UART",
                        core::str::from_utf8(w).unwrap_or("?")
                    );
                }
            }
            b"trace=signal" => crate::trace::ENABLED.enable(),
            _ if w.starts_with(b"selftest=") => opts.selftest = Some(&w[9..]),
            // Read before the allocator starts (kmain).
            _ if w.starts_with(b"fdt=") || w.starts_with(b"heap=") => {}
            _ => crate::kprintln!(
                "sigil: unknown boot option {}",
                core::str::from_utf8(w).unwrap_or("?")
            ),
        }
    }
    opts.init_args.extend(words);
    opts
}
