//! The boundary between the generic kernel and the machine.
//!
//! Generic code calls only what this module re-exports. Each MMU family has its
//! own directory (book3s32 today; mpc8xx for the 8xx boards) implementing the
//! same names.

mod book3s32;
pub use book3s32::*;
