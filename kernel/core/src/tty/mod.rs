//! The terminal's portable half: the Linux ppc32 `struct termios` and the tty
//! ioctl numbers (`termios`), the line discipline (`ldisc`), and the framing
//! of the serial input when it carries a host pipe (`link`).
//!
//! The kernel's console driver (`kernel/src/dev/tty.rs`) feeds received bytes
//! to an `Ldisc`, asks it what a read may return, and passes user output
//! through it; everything else about the terminal lives there (process
//! groups, sleeping, signals).

pub mod ldisc;
pub mod link;
pub mod termios;

pub use ldisc::Ldisc;
pub use termios::{Termios, Winsize};
