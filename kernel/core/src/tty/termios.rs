//! `struct termios` as the Linux ppc32 kernel has it, its flag bits, and the
//! tty ioctl numbers.
//!
//! powerpc is not x86: NCCS is 19, c_line comes after c_cc, the c_cc indices
//! differ (VMIN is 5, VSUSP 12...), the lflag bits differ (ICANON is 0x100,
//! ECHO 0x8, TOSTOP 0x400000), the speeds live in c_cflag's low byte, and the
//! ioctl numbers carry the structure size (`_IOR('t', 19, struct termios)`).
//! The values are checked against the cross compiler's `asm/termbits.h` and
//! `asm/ioctls.h` by `signal::cross_check`.
//!
//! ```text
//!  0 c_iflag   4 c_oflag   8 c_cflag  12 c_lflag
//! 16 c_cc[19]             35 c_line   36 c_ispeed  40 c_ospeed   (44 bytes)
//! ```

use core::mem::{offset_of, size_of};

/// Control characters.
pub const NCCS: usize = 19;

/// The kernel's `struct termios` (TCGETS/TCSETS copy it whole).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Termios {
    pub c_iflag: Iflag,
    pub c_oflag: Oflag,
    pub c_cflag: Cflag,
    pub c_lflag: Lflag,
    pub c_cc: [u8; NCCS],
    pub c_line: u8,
    pub c_ispeed: u32,
    pub c_ospeed: u32,
}

const _: () = assert!(size_of::<Termios>() == 44);
const _: () = assert!(offset_of!(Termios, c_cc) == 16);
const _: () = assert!(offset_of!(Termios, c_line) == 35);
const _: () = assert!(offset_of!(Termios, c_ispeed) == 36);

/// `struct winsize` (TIOCGWINSZ/TIOCSWINSZ).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Winsize {
    pub ws_row: u16,
    pub ws_col: u16,
    pub ws_xpixel: u16,
    pub ws_ypixel: u16,
}

const _: () = assert!(size_of::<Winsize>() == 8);

// c_cc indices.
pub const VINTR: usize = 0;
pub const VQUIT: usize = 1;
pub const VERASE: usize = 2;
pub const VKILL: usize = 3;
pub const VEOF: usize = 4;
pub const VMIN: usize = 5;
pub const VEOL: usize = 6;
pub const VTIME: usize = 7;
pub const VEOL2: usize = 8;
pub const VWERASE: usize = 10;
pub const VREPRINT: usize = 11;
pub const VSUSP: usize = 12;
pub const VSTART: usize = 13;
pub const VSTOP: usize = 14;
pub const VLNEXT: usize = 15;
pub const VDISCARD: usize = 16;
/// A c_cc entry equal to this is disabled (Linux's _POSIX_VDISABLE).
pub const VDISABLE: u8 = 0;

bitflags::bitflags! {
    /// c_iflag: input processing. Each flag word has its own type: on
    /// powerpc ICRNL and ICANON are both 0x100, so a flag tested in the
    /// wrong word would otherwise pass unnoticed. Bits Sigil does not
    /// name are kept as user space set them (`from_bits_retain`), as
    /// Linux returns them from TCGETS.
    #[repr(transparent)]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Iflag: u32 {
        const BRKINT = 0x002;
        const ISTRIP = 0x020;
        const INLCR = 0x040;
        const IGNCR = 0x080;
        const ICRNL = 0x100;
        const IXON = 0x200;
        const IXANY = 0x800;
        const IUTF8 = 0x4000;
    }

    /// c_oflag: output processing.
    #[repr(transparent)]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Oflag: u32 {
        const OPOST = 0x01;
        const ONLCR = 0x02;
        const OCRNL = 0x08;
    }

    /// c_cflag: the line (the speed is its low byte on powerpc).
    #[repr(transparent)]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Cflag: u32 {
        const B38400 = 0x0f;
        const CS8 = 0x300;
        const CREAD = 0x800;
        const HUPCL = 0x4000;
    }

    /// c_lflag: the line discipline's "local" modes.
    #[repr(transparent)]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Lflag: u32 {
        const ECHOKE = 0x01;
        const ECHOE = 0x02;
        const ECHOK = 0x04;
        const ECHO = 0x08;
        const ECHONL = 0x10;
        const ECHOCTL = 0x40;
        const ISIG = 0x80;
        const ICANON = 0x100;
        const IEXTEN = 0x400;
        const TOSTOP = 0x0040_0000;
        const NOFLSH = 0x8000_0000;
    }
}

// ioctl requests: powerpc's _IOC puts the direction in bits 29-31 (none 1,
// read 2, write 4) and the size in bits 16-28.
pub const TCGETS: u32 = 0x402c_7413;
pub const TCSETS: u32 = 0x802c_7414;
pub const TCSETSW: u32 = 0x802c_7415;
pub const TCSETSF: u32 = 0x802c_7416;
pub const TCSBRK: u32 = 0x2000_741d;
pub const TCXONC: u32 = 0x2000_741e;
pub const TCFLSH: u32 = 0x2000_741f;
pub const TIOCSWINSZ: u32 = 0x8008_7467;
pub const TIOCGWINSZ: u32 = 0x4008_7468;
pub const TIOCOUTQ: u32 = 0x4004_7473;
pub const TIOCSPGRP: u32 = 0x8004_7476;
pub const TIOCGPGRP: u32 = 0x4004_7477;
pub const TIOCSCTTY: u32 = 0x540e;
pub const TIOCNOTTY: u32 = 0x5422;
pub const TIOCGSID: u32 = 0x5429;
pub const FIONREAD: u32 = 0x4004_667f;

// TCFLSH and TCXONC arguments.
pub const TCIFLUSH: u32 = 0;
pub const TCOFLUSH: u32 = 1;
pub const TCIOFLUSH: u32 = 2;
pub const TCOOFF: u32 = 0;
pub const TCOON: u32 = 1;
pub const TCIOFF: u32 = 2;
pub const TCION: u32 = 3;

impl Termios {
    /// A new terminal's settings: Linux's `tty_std_termios` with powerpc's
    /// INIT_C_CC (^C ^\ DEL ^U ^D, VMIN 1, ^W ^R ^Z ^Q ^S ^V ^O), 38400 baud.
    pub const fn linux_default() -> Termios {
        Termios {
            c_iflag: Iflag::ICRNL.union(Iflag::IXON),
            c_oflag: Oflag::OPOST.union(Oflag::ONLCR),
            c_cflag: Cflag::B38400.union(Cflag::CS8).union(Cflag::CREAD).union(Cflag::HUPCL),
            c_lflag: Lflag::ISIG
                .union(Lflag::ICANON)
                .union(Lflag::ECHO)
                .union(Lflag::ECHOE)
                .union(Lflag::ECHOK)
                .union(Lflag::ECHOCTL)
                .union(Lflag::ECHOKE)
                .union(Lflag::IEXTEN),
            c_cc: [
                3, 0o34, 0o177, 0o25, 4, 1, 0, 0, 0, 0, 0o27, 0o22, 0o32, 0o21, 0o23, 0o26, 0o17,
                0, 0,
            ],
            c_line: 0,
            c_ispeed: 38400,
            c_ospeed: 38400,
        }
    }

    /// The bytes TCGETS copies out.
    pub fn to_bytes(&self) -> [u8; 44] {
        let mut b = [0u8; 44];
        let words =
            [self.c_iflag.bits(), self.c_oflag.bits(), self.c_cflag.bits(), self.c_lflag.bits()];
        for (i, w) in words.iter().enumerate() {
            b[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
        }
        b[16..35].copy_from_slice(&self.c_cc);
        b[35] = self.c_line;
        b[36..40].copy_from_slice(&self.c_ispeed.to_be_bytes());
        b[40..44].copy_from_slice(&self.c_ospeed.to_be_bytes());
        b
    }

    /// The settings TCSETS copies in.
    pub fn from_bytes(b: &[u8; 44]) -> Termios {
        let w = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let mut c_cc = [0u8; NCCS];
        c_cc.copy_from_slice(&b[16..35]);
        Termios {
            c_iflag: Iflag::from_bits_retain(w(0)),
            c_oflag: Oflag::from_bits_retain(w(4)),
            c_cflag: Cflag::from_bits_retain(w(8)),
            c_lflag: Lflag::from_bits_retain(w(12)),
            c_cc,
            c_line: b[35],
            c_ispeed: w(36),
            c_ospeed: w(40),
        }
    }

    /// Is `b` the (enabled) control character at index `v`?
    pub const fn is(&self, v: usize, b: u8) -> bool {
        self.c_cc[v] != VDISABLE && self.c_cc[v] == b
    }
}

impl Winsize {
    pub fn to_bytes(self) -> [u8; 8] {
        let mut b = [0u8; 8];
        for (i, v) in [self.ws_row, self.ws_col, self.ws_xpixel, self.ws_ypixel].iter().enumerate()
        {
            b[2 * i..2 * i + 2].copy_from_slice(&v.to_be_bytes());
        }
        b
    }
    pub fn from_bytes(b: &[u8; 8]) -> Winsize {
        let h = |i: usize| u16::from_be_bytes([b[i], b[i + 1]]);
        Winsize { ws_row: h(0), ws_col: h(2), ws_xpixel: h(4), ws_ypixel: h(6) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_big_endian() {
        let t = Termios::linux_default();
        let b = t.to_bytes();
        assert_eq!(
            &b[12..16],
            &0x5cfu32.to_be_bytes(),
            "ISIG ICANON ECHO ECHOE ECHOK ECHOCTL ECHOKE IEXTEN"
        );
        let mut unnamed = b;
        unnamed[12] |= 0x20; // PENDIN (0x2000_0000), which Sigil does not name
        assert_eq!(Termios::from_bytes(&unnamed).to_bytes(), unnamed);
        assert_eq!(b[16 + VMIN], 1);
        assert_eq!(b[16 + VSUSP], 0o32);
        assert_eq!(Termios::from_bytes(&b), t);
        let w = Winsize { ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0 };
        assert_eq!(w.to_bytes(), [0, 24, 0, 80, 0, 0, 0, 0]);
        assert_eq!(Winsize::from_bytes(&w.to_bytes()), w);
    }
}
