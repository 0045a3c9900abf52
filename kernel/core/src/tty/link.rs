//! The serial input's framing when it carries a host pipe or file.
//!
//! A serial line has no end of file, but `seq 1 100000 | make run ...` has
//! one, and the guest must see it after the last byte and not before. So
//! when the host runner feeds a stream (it boots the kernel with
//! `console=pipe`), it frames it: byte ESC is sent as ESC ESC, and the end
//! of the stream as ESC END. Being in band, the end cannot overtake data
//! still queued in the pipe, in QEMU or in the UART. Keys typed at a
//! terminal are sent as they are (no framing, and no end).

use alloc::vec::Vec;

/// The escape byte (never in UTF-8 text).
pub const ESC: u8 = 0xff;
/// After ESC: the stream ended.
pub const END: u8 = 0x04;

/// Appends `data`, framed, to `out`.
pub fn encode(data: &[u8], out: &mut Vec<u8>) {
    for &b in data {
        out.push(b);
        if b == ESC {
            out.push(ESC);
        }
    }
}

/// What a received byte means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rx {
    /// A data byte.
    Byte(u8),
    /// The end of the stream.
    End,
    /// Nothing yet (the first half of an escape).
    Pending,
}

/// Undoes `encode` one byte at a time.
#[derive(Debug, Default)]
pub struct Decoder {
    escaped: bool,
}

impl Decoder {
    pub const fn new() -> Decoder {
        Decoder { escaped: false }
    }

    /// Takes one received byte. An escape followed by anything but ESC or END
    /// (no encoder sends it) is dropped.
    pub fn feed(&mut self, b: u8) -> Rx {
        match (core::mem::replace(&mut self.escaped, false), b) {
            (false, ESC) => {
                self.escaped = true;
                Rx::Pending
            }
            (false, b) => Rx::Byte(b),
            (true, ESC) => Rx::Byte(ESC),
            (true, END) => Rx::End,
            (true, _) => Rx::Pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_every_byte_and_the_end() {
        let data: Vec<u8> = (0..=255u8).chain([ESC, ESC, END, 0]).collect();
        let mut wire = Vec::new();
        encode(&data, &mut wire);
        wire.extend([ESC, END]);
        let mut d = Decoder::new();
        let mut got = Vec::new();
        let mut ended = false;
        for b in wire {
            match d.feed(b) {
                Rx::Byte(b) => {
                    assert!(!ended);
                    got.push(b)
                }
                Rx::End => ended = true,
                Rx::Pending => {}
            }
        }
        assert!(ended);
        assert_eq!(got, data);
    }
}
