//! sigil-core: the portable half of the Sigil kernel.
//!
//! Everything here is plain Rust with no register, SPR or MMIO in sight, so it
//! builds for the PowerPC kernel and for the host, where `cargo test` checks it.
//! The kernel crate (`kernel/src`) glues these pieces to the machine.
#![no_std]
// Pure logic only: every `unsafe` edge (MMIO, user memory, asm) is the kernel crate's.
#![forbid(unsafe_code)]

#[cfg(test)]
extern crate std;

extern crate alloc;

pub use sigil_abi as abi;
pub mod clone;
pub mod cmdline;
pub mod cpio;
pub mod cred;
pub mod devtree;
pub mod elf;
pub mod epoll;
pub mod eventfd;
pub mod exec;
pub mod fpemu;
pub mod futex;
pub mod insn;
pub mod ipic;
pub mod job;
pub mod layout;
pub mod mmu8xx;
pub mod path;
pub mod pcm;
pub mod pic8xx;
pub mod poll;
pub mod procfs;
pub mod rlimit;
pub mod script;
pub mod signal;
pub mod time;
pub mod tty;
pub mod uart16550;
