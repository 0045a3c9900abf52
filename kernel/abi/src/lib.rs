//! The Linux ppc32 user ABI as numbers: system call numbers, errno values and
//! the signal constants.
//!
//! Everything user space can see as a raw number is named here once, so the
//! rest of the kernel never writes a magic number, and Sigil's user runtime
//! (`user/ulib`) speaks the same numbers as the kernel. This crate is plain
//! `core`: no allocation, so user programs can link it. The kernel reaches it
//! as `sigil_core::abi`. Values are Linux's
//! (checked against the powerpc-linux-gnu cross headers by host tests).
//!
//! - [`Sysno`]: r0 at `sc`, decoded for the one dispatch `match`.
//! - [`Errno`]: what a failing call returns in r3 (with CR0[SO] set), plus the
//!   kernel-internal restart codes.
//! - signal constants (`SIGSEGV`, `SA_SIGINFO`, `SI_QUEUE`, ...) and the wait
//!   status encoding ([`wait_status`]).
//! - [`mode`]: the file type bits of a mode (`S_IFDIR`, ...).

#![no_std]
#![forbid(unsafe_code)]

#[cfg(test)]
extern crate std;

mod errno;
pub mod mode;
pub mod sig;
mod sysno;

pub use errno::Errno;
pub use sig::*;
pub use sysno::Sysno;
