//! The boundary between the generic kernel and the machine.
//!
//! Generic code calls only what this module re-exports. Each MMU family has its
//! own directory implementing the same names: book3s32 (QEMU g3beige with a
//! 750 or an e300c2) and mpc8xx (MPC885 boards booted by U-Boot). The board
//! file's KERNEL_ARCH picks one; build.rs turns it into `cfg(sigil_arch)`.
//! What every 32-bit PowerPC shares (trap frame, entry code, context switch)
//! lives in ppc32/.

mod ppc32;

#[cfg(not(sigil_arch = "mpc8xx"))]
mod book3s32;
#[cfg(not(sigil_arch = "mpc8xx"))]
pub use book3s32::*;

#[cfg(sigil_arch = "mpc8xx")]
mod mpc8xx;
#[cfg(sigil_arch = "mpc8xx")]
pub use mpc8xx::*;
