//! Random bytes for AT_RANDOM and getrandom: xorshift seeded from the timebase.
//! Not cryptographic; good enough for stack-protector canaries in a teaching kernel.

use crate::kcell::KCell;

static STATE: KCell<u64> = KCell::new(0);

fn next() -> u64 {
    let mut x = *STATE.get();
    if x == 0 {
        x = <crate::arch::Arch as crate::arch::Clock>::now() | 1;
    }
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *STATE.get() = x;
    x
}

pub fn bytes16() -> [u8; 16] {
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&next().to_be_bytes());
    out[8..].copy_from_slice(&next().to_be_bytes());
    out
}

pub fn fill(buf: &mut [u8]) {
    for chunk in buf.chunks_mut(8) {
        let v = next().to_be_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
}
