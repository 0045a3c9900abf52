//! ulib: the whole runtime a Rust program needs on Sigil (or on Linux ppc32,
//! since Sigil speaks its ABI): the entry point, system calls, printing, and
//! signals. No libc: every call goes straight to the kernel with `sc`.
//!
//! A program is `#![no_std] #![no_main]`, writes `fn main(args: ulib::Args) -> i32`
//! and names it with `ulib::entry!(main);`. Modules:
//! - [`sys`]: the `sc` instruction and the ppc32 error convention (CR0[SO]);
//! - [`io`]: `print!`/`println!`/`eprintln!` on file descriptors 1 and 2;
//! - [`process`]: exit, fork, exec, wait, pids, groups and sessions, sleeping;
//! - [`signal`]: sigaction, masks, kill/raise/sigqueue, siginfo.

#![no_std]

pub mod io;
pub mod process;
pub mod signal;
pub mod sys;

pub use sys::Error;

/// The program's arguments, as the kernel left them on the initial stack.
#[derive(Clone, Copy)]
pub struct Args {
    argc: usize,
    argv: *const *const u8,
}

impl Args {
    pub fn len(&self) -> usize {
        self.argc
    }

    pub fn is_empty(&self) -> bool {
        self.argc == 0
    }

    /// The argv array itself (argc pointers, then NULL), for execve.
    pub fn argv(&self) -> *const *const u8 {
        self.argv
    }

    /// The environment array (pointers, then NULL) that follows argv.
    pub fn envp(&self) -> *const *const u8 {
        // SAFETY: the kernel's stack has argc pointers, a NULL, then envp.
        unsafe { self.argv.add(self.argc + 1) }
    }

    /// Argument `i` as bytes (without its NUL), if there is one.
    pub fn get(&self, i: usize) -> Option<&'static [u8]> {
        if i >= self.argc {
            return None;
        }
        // SAFETY: the kernel put argc valid, NUL-terminated strings behind argv,
        // and they live as long as the process.
        unsafe {
            let s = *self.argv.add(i);
            let mut n = 0;
            while *s.add(n) != 0 {
                n += 1;
            }
            Some(core::slice::from_raw_parts(s, n))
        }
    }
}

// The ELF entry point. Linux ppc32 starts a process with r1 pointing at argc,
// followed by argv[], NULL, envp[], NULL, auxv (Sigil builds the same stack).
// We hand that pointer to `ulib_start`, after aligning r1 to 16 bytes and
// pushing a zeroed back chain, as the SysV ABI wants for the first frame.
core::arch::global_asm!(
    ".globl _start",
    "_start:",
    "mr 3, 1",
    "clrrwi 1, 1, 4",
    "li 0, 0",
    "stwu 0, -16(1)",
    "bl ulib_start",
    "b .",
);

extern "Rust" {
    /// The program's `main`, named by `entry!`.
    fn ulib_main(args: Args) -> i32;
}

#[no_mangle]
extern "C" fn ulib_start(sp: *const usize) -> ! {
    // SAFETY: `_start` passes the initial stack pointer: argc, then argv.
    let args = unsafe { Args { argc: *sp, argv: sp.add(1) as *const *const u8 } };
    // SAFETY: `entry!` defines ulib_main with exactly this signature.
    let status = unsafe { ulib_main(args) };
    process::exit(status)
}

/// Names the program's main function: `ulib::entry!(main);`.
#[macro_export]
macro_rules! entry {
    ($main:path) => {
        #[no_mangle]
        fn ulib_main(args: $crate::Args) -> i32 {
            $main(args)
        }
    };
}

/// A panic prints its message on stderr and exits with status 101, the
/// status a Rust program with std gives.
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    eprintln!("panic: {}", info);
    process::exit(101)
}
