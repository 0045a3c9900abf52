//! IEEE-754 binary64 arithmetic on integers, with PowerPC's four rounding
//! modes and exception flags: what the FPU of a 750 computes, done by the
//! emulator of an FPU-less core.
//!
//! Why not plain Rust `f64` arithmetic? It always rounds to nearest and
//! reports no flags, while PowerPC code sets FPSCR[RN] (glibc's `rint` and
//! `fesetround` tests depend on it) and reads the sticky flags
//! (`fetestexcept`). And `fmadd` must round once, which needs the exact
//! 106-bit product. So each operation here works like a hardware unit:
//!
//! 1. `unpack` a double into sign, class and an integer significand `sig`
//!    with value `sig * 2^exp` (subnormals normalised like normals);
//! 2. compute the *exact* result as a `u128` significand, folding any bits
//!    that would fall off the end into its lowest bit (the "sticky" bit,
//!    which only has to say "something non-zero was below");
//! 3. `round` once to 53 bits (double) or 24 bits (single-precision
//!    instructions, whose results are still stored as doubles), noting
//!    inexact (XX/FI), fraction-rounded-up (FR), overflow (OX) and
//!    underflow (UX: tiny before rounding, and inexact).
//!
//! Special operands (NaN, infinity, zero) are handled first, by the rules of
//! the PowerPC architecture: the first NaN operand (in the order A, B, C) is
//! the result, made quiet; an invalid operation yields the default quiet NaN.
//! Flags are returned as FPSCR masks (`super::fpscr`); the caller merges them.

use super::fpscr::*;

/// FPSCR[RN]: how an inexact result is rounded.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Round {
    Nearest,
    Zero,
    Up,
    Down,
}

impl Round {
    pub fn from_fpscr(fpscr: u32) -> Round {
        [Round::Nearest, Round::Zero, Round::Up, Round::Down][(fpscr & RN) as usize]
    }
}

/// The precision of a result: double, or single stored in double format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Prec {
    Double,
    Single,
}

impl Prec {
    /// Significand bits (with the implicit one) and the smallest normal exponent.
    fn bits_emin(self) -> (i32, i32) {
        match self {
            Prec::Double => (53, -1022),
            Prec::Single => (24, -126),
        }
    }
    fn emax(self) -> i32 {
        match self {
            Prec::Double => 1023,
            Prec::Single => 127,
        }
    }
}

/// A result and the FPSCR bits it raised (exception bits, FR, FI).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Res {
    pub bits: u64,
    pub flags: u32,
}

const SIGN: u64 = 1 << 63;
const QUIET: u64 = 1 << 51;
/// The default quiet NaN an invalid operation produces.
pub const DEFAULT_NAN: u64 = 0x7ff8_0000_0000_0000;

/// A double taken apart. Finite non-zero values are `sig * 2^exp` with bit 52
/// of `sig` set, subnormals included.
#[derive(Clone, Copy, Debug)]
pub enum Num {
    Zero,
    Finite { sig: u64, exp: i32 },
    Inf,
    NaN,
}

pub fn unpack(bits: u64) -> (bool, Num) {
    let neg = bits & SIGN != 0;
    let e = ((bits >> 52) & 0x7ff) as i32;
    let f = bits & ((1 << 52) - 1);
    let num = match (e, f) {
        (0, 0) => Num::Zero,
        (0, _) => {
            let shift = f.leading_zeros() as i32 - 11;
            Num::Finite { sig: f << shift, exp: -1074 - shift }
        }
        (0x7ff, 0) => Num::Inf,
        (0x7ff, _) => Num::NaN,
        _ => Num::Finite { sig: f | 1 << 52, exp: e - 1075 },
    };
    (neg, num)
}

pub fn is_nan(bits: u64) -> bool {
    matches!(unpack(bits).1, Num::NaN)
}

pub fn is_snan(bits: u64) -> bool {
    is_nan(bits) && bits & QUIET == 0
}

fn zero(neg: bool) -> u64 {
    if neg {
        SIGN
    } else {
        0
    }
}

fn inf(neg: bool) -> u64 {
    zero(neg) | 0x7ff0_0000_0000_0000
}

fn exact(bits: u64) -> Res {
    Res { bits, flags: 0 }
}

/// The NaN result when any operand is a NaN: the first NaN, made quiet
/// (VXSNAN if any operand was signalling). `None` if there is no NaN.
fn pick_nan(ops: &[u64]) -> Option<Res> {
    let first = *ops.iter().find(|&&b| is_nan(b))?;
    let flags = if ops.iter().any(|&b| is_snan(b)) { VXSNAN } else { 0 };
    Some(Res { bits: first | QUIET, flags })
}

fn invalid(flag: u32) -> Res {
    Res { bits: DEFAULT_NAN, flags: flag }
}

/// The sign of an exact zero sum of opposite-signed values: minus only when
/// rounding toward minus infinity (IEEE 754 section 6.3).
fn zero_sum(mode: Round) -> u64 {
    zero(mode == Round::Down)
}

/// Shifts right by `n`, folding every bit shifted out into bit 0.
fn shr_sticky(x: u128, n: u32) -> u128 {
    match n {
        0 => x,
        1..=127 => (x >> n) | (x & ((1 << n) - 1) != 0) as u128,
        _ => (x != 0) as u128,
    }
}

/// Rounds the exact non-zero value `sig * 2^exp` (`sig`'s bit 0 may be a
/// sticky bit: then at least two bits must separate it from the rounding
/// position, which every caller guarantees) to `prec` and packs it as a double.
pub fn round(neg: bool, sig: u128, exp: i32, prec: Prec, mode: Round) -> Res {
    let (p, emin) = prec.bits_emin();
    let len = 128 - sig.leading_zeros() as i32;
    let e = exp + len - 1; // the value is 1.xxx * 2^e
    let tiny = e < emin;
    // The exponent of the last kept bit: p bits below e, but never below
    // the subnormal limit.
    let mut q = (e - (p - 1)).max(emin - (p - 1));
    let shift = q - exp;
    let (mut kept, dropped, half) = if shift <= 0 {
        (sig << -shift, 0, 1)
    } else if shift <= 127 {
        (sig >> shift, sig & ((1 << shift) - 1), 1u128 << (shift - 1))
    } else {
        // Everything is below half of the last kept bit.
        (0, 1, 2)
    };
    let inexact = dropped != 0;
    let up = match mode {
        Round::Nearest => dropped > half || (dropped == half && kept & 1 == 1),
        Round::Zero => false,
        Round::Up => inexact && !neg,
        Round::Down => inexact && neg,
    };
    kept += up as u128;
    if kept == 1 << p {
        kept >>= 1;
        q += 1;
    }
    let mut flags = if inexact { XX | FI } else { 0 } | if up { FR } else { 0 };
    if tiny && inexact {
        flags |= UX;
    }
    if kept == 0 {
        return Res { bits: zero(neg), flags };
    }
    let e = q + (128 - kept.leading_zeros() as i32) - 1;
    if e > prec.emax() {
        let to_inf = match mode {
            Round::Nearest => true,
            Round::Zero => false,
            Round::Up => !neg,
            Round::Down => neg,
        };
        let bits = if to_inf { inf(neg) } else { largest(neg, prec) };
        return Res { bits, flags: OX | XX | FI | if to_inf { FR } else { 0 } };
    }
    Res { bits: zero(neg) | pack_magnitude(kept as u64, q), flags }
}

/// The largest finite value of `prec`, as a double.
fn largest(neg: bool, prec: Prec) -> u64 {
    match prec {
        Prec::Double => zero(neg) | 0x7fef_ffff_ffff_ffff,
        Prec::Single => zero(neg) | 0x47ef_ffff_e000_0000,
    }
}

/// The double bits of `kept * 2^q`, which fits (at most 53 bits, in range).
fn pack_magnitude(kept: u64, q: i32) -> u64 {
    let len = 64 - kept.leading_zeros() as i32;
    let e = q + len - 1;
    if e < -1022 {
        kept << (q + 1074)
    } else {
        let frac = (kept << (53 - len)) & ((1 << 52) - 1);
        ((e + 1023) as u64) << 52 | frac
    }
}

/// A double rounded to `prec` (frsp, and single-precision results of exact
/// operations like x + 0). NaNs are quieted; single ones lose their low bits.
pub fn to_prec(b: u64, prec: Prec, mode: Round) -> Res {
    let (neg, n) = unpack(b);
    match n {
        Num::NaN => {
            let r = pick_nan(&[b]).expect("a NaN");
            Res { bits: narrow_nan(r.bits, prec), flags: r.flags }
        }
        Num::Finite { sig, exp } => round(neg, sig as u128, exp, prec, mode),
        _ => exact(b),
    }
}

/// A single-precision NaN result keeps only the fraction bits a float has.
fn narrow_nan(bits: u64, prec: Prec) -> u64 {
    match prec {
        Prec::Double => bits,
        Prec::Single => bits & !((1 << 29) - 1),
    }
}

fn with_nan_prec(r: Res, prec: Prec) -> Res {
    Res { bits: narrow_nan(r.bits, prec), flags: r.flags }
}

/// a + b (fadd; fsub is `add(a, b ^ SIGN)` for non-NaN b).
pub fn add(a: u64, b: u64, prec: Prec, mode: Round) -> Res {
    if let Some(r) = pick_nan(&[a, b]) {
        return with_nan_prec(r, prec);
    }
    let ((na, xa), (nb, xb)) = (unpack(a), unpack(b));
    match (xa, xb) {
        (Num::Inf, Num::Inf) if na != nb => invalid(VXISI),
        (Num::Inf, _) => exact(a),
        (_, Num::Inf) => exact(b),
        (Num::Zero, Num::Zero) => exact(if na == nb { a } else { zero_sum(mode) }),
        (Num::Zero, _) => to_prec(b, prec, mode),
        (_, Num::Zero) => to_prec(a, prec, mode),
        (Num::Finite { sig: sa, exp: ea }, Num::Finite { sig: sb, exp: eb }) => {
            // 64 spare bits below each 53-bit significand: a shift of up to
            // 64 loses nothing, and a longer one leaves the sticky bit far
            // below the rounding position even after one bit of cancellation.
            sum(na, (sa as u128) << 64, ea - 64, nb, (sb as u128) << 64, eb - 64, prec, mode)
        }
        _ => unreachable!("NaNs were picked above"),
    }
}

/// The rounded sum of two exact non-zero values `±sig * 2^exp`, both with
/// their top bit at least 2 bits below bit 127.
#[allow(clippy::too_many_arguments)]
fn sum(na: bool, sa: u128, ea: i32, nb: bool, sb: u128, eb: i32, prec: Prec, mode: Round) -> Res {
    let (e, a, b) = if ea >= eb {
        (ea, sa, shr_sticky(sb, (ea - eb) as u32))
    } else {
        (eb, shr_sticky(sa, (eb - ea) as u32), sb)
    };
    if na == nb {
        return round(na, a + b, e, prec, mode);
    }
    match a.cmp(&b) {
        core::cmp::Ordering::Equal => exact(zero_sum(mode)),
        core::cmp::Ordering::Greater => round(na, a - b, e, prec, mode),
        core::cmp::Ordering::Less => round(nb, b - a, e, prec, mode),
    }
}

/// a * c (fmul: PowerPC names the second factor frC).
pub fn mul(a: u64, c: u64, prec: Prec, mode: Round) -> Res {
    if let Some(r) = pick_nan(&[a, c]) {
        return with_nan_prec(r, prec);
    }
    let ((na, xa), (nc, xc)) = (unpack(a), unpack(c));
    let neg = na != nc;
    match (xa, xc) {
        (Num::Inf, Num::Zero) | (Num::Zero, Num::Inf) => invalid(VXIMZ),
        (Num::Inf, _) | (_, Num::Inf) => exact(inf(neg)),
        (Num::Zero, _) | (_, Num::Zero) => exact(zero(neg)),
        (Num::Finite { sig: sa, exp: ea }, Num::Finite { sig: sc, exp: ec }) => {
            round(neg, sa as u128 * sc as u128, ea + ec, prec, mode)
        }
        _ => unreachable!("NaNs were picked above"),
    }
}

/// a * c + b rounded once (fmadd). `negate_b` gives fmsub; the caller
/// negates a non-NaN result for fnmadd/fnmsub.
pub fn fma(a: u64, c: u64, b: u64, negate_b: bool, prec: Prec, mode: Round) -> Res {
    let ((na, xa), (nc, xc)) = (unpack(a), unpack(c));
    let imz = matches!((xa, xc), (Num::Inf, Num::Zero) | (Num::Zero, Num::Inf));
    if let Some(r) = pick_nan(&[a, b, c]) {
        let flags = r.flags | if imz { VXIMZ } else { 0 };
        return Res { bits: narrow_nan(r.bits, prec), flags };
    }
    if imz {
        return invalid(VXIMZ);
    }
    let b = if negate_b { b ^ SIGN } else { b };
    let (nb, xb) = unpack(b);
    let np = na != nc;
    match (xa, xc, xb) {
        (Num::Inf, _, Num::Inf) | (_, Num::Inf, Num::Inf) if np != nb => invalid(VXISI),
        (Num::Inf, _, _) | (_, Num::Inf, _) => exact(inf(np)),
        (_, _, Num::Inf) => exact(b),
        (Num::Zero, _, Num::Zero) | (_, Num::Zero, Num::Zero) => {
            exact(if np == nb { zero(np) } else { zero_sum(mode) })
        }
        (Num::Zero, _, _) | (_, Num::Zero, _) => to_prec(b, prec, mode),
        (Num::Finite { sig: sa, exp: ea }, Num::Finite { sig: sc, exp: ec }, Num::Zero) => {
            round(np, sa as u128 * sc as u128, ea + ec, prec, mode)
        }
        (
            Num::Finite { sig: sa, exp: ea },
            Num::Finite { sig: sc, exp: ec },
            Num::Finite { sig: sb, exp: eb },
        ) => {
            // Product (105-106 bits) and addend (53 bits) both moved up so
            // their top bit is at 124-125: one bit of headroom for the carry.
            let p = (sa as u128 * sc as u128) << 20;
            sum(np, p, ea + ec - 20, nb, (sb as u128) << 73, eb - 73, prec, mode)
        }
        _ => unreachable!("NaNs were picked above"),
    }
}

/// a / b (fdiv).
pub fn div(a: u64, b: u64, prec: Prec, mode: Round) -> Res {
    if let Some(r) = pick_nan(&[a, b]) {
        return with_nan_prec(r, prec);
    }
    let ((na, xa), (nb, xb)) = (unpack(a), unpack(b));
    let neg = na != nb;
    match (xa, xb) {
        (Num::Inf, Num::Inf) => invalid(VXIDI),
        (Num::Zero, Num::Zero) => invalid(VXZDZ),
        (Num::Inf, _) => exact(inf(neg)),
        (_, Num::Inf) | (Num::Zero, _) => exact(zero(neg)),
        (_, Num::Zero) => Res { bits: inf(neg), flags: ZX },
        (Num::Finite { sig: sa, exp: ea }, Num::Finite { sig: sb, exp: eb }) => {
            // A 128-bit dividend gives a quotient of 74-76 bits; a non-zero
            // remainder becomes the sticky bit.
            let n = (sa as u128) << 75;
            let (q, r) = (n / sb as u128, n % sb as u128);
            round(neg, q << 1 | (r != 0) as u128, ea - 75 - eb - 1, prec, mode)
        }
        _ => unreachable!("NaNs were picked above"),
    }
}

/// The square root (fsqrt).
pub fn sqrt(b: u64, prec: Prec, mode: Round) -> Res {
    if let Some(r) = pick_nan(&[b]) {
        return with_nan_prec(r, prec);
    }
    match unpack(b) {
        (_, Num::Zero) | (false, Num::Inf) => exact(b),
        (true, _) => invalid(VXSQRT),
        (false, Num::Finite { sig, exp }) => {
            // An even exponent halves exactly; 2*36 spare bits give a 63-bit root.
            let (sig, exp) =
                if exp % 2 != 0 { ((sig as u128) << 1, exp - 1) } else { (sig as u128, exp) };
            let (root, rem) = isqrt(sig << 72);
            round(false, root << 1 | (rem != 0) as u128, (exp - 72) / 2 - 1, prec, mode)
        }
        _ => unreachable!("NaNs were picked above"),
    }
}

/// The integer square root of `n` and the remainder, bit by bit.
fn isqrt(n: u128) -> (u128, u128) {
    let mut rem = n;
    let mut root = 0u128;
    let mut bit = 1u128 << 126;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        if rem >= root + bit {
            rem -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    (root, rem)
}

/// fctiw/fctiwz: a double converted to a 32-bit signed integer. NaNs and
/// out-of-range values give VXCVI and the saturated value (NaN: 0x80000000).
/// The integer lands in the low word; the high word, undefined by the
/// architecture, gets the sign extension (as QEMU writes it).
pub fn to_int32(b: u64, mode: Round) -> Res {
    let (neg, n) = unpack(b);
    let (value, flags): (i64, u32) = match n {
        Num::NaN => (i32::MIN as i64, VXCVI | if is_snan(b) { VXSNAN } else { 0 }),
        Num::Inf => (if neg { i32::MIN as i64 } else { i32::MAX as i64 }, VXCVI),
        Num::Zero => (0, 0),
        Num::Finite { sig, exp } => {
            // Round to an integer: the kept bits are those at 2^0 and above.
            let (int, dropped, half) = if exp >= 0 {
                (if exp > 10 { u64::MAX } else { sig << exp }, 0, 1)
            } else if exp > -64 {
                let s = -exp as u32;
                (sig >> s, sig & ((1 << s) - 1), 1u64 << (s - 1))
            } else {
                (0, 1, 2)
            };
            let up = match mode {
                Round::Nearest => dropped > half || (dropped == half && int & 1 == 1),
                Round::Zero => false,
                Round::Up => dropped != 0 && !neg,
                Round::Down => dropped != 0 && neg,
            };
            let mag = int.saturating_add(up as u64) as i128;
            let v = if neg { -mag } else { mag };
            if v > i32::MAX as i128 {
                (i32::MAX as i64, VXCVI)
            } else if v < i32::MIN as i128 {
                (i32::MIN as i64, VXCVI)
            } else {
                let fl = if dropped != 0 { XX | FI } else { 0 } | if up { FR } else { 0 };
                (v as i64, fl)
            }
        }
    };
    // A NaN's 0x80000000 is not sign-extended (QEMU returns it as unsigned).
    let bits = if matches!(n, Num::NaN) { value as u32 as u64 } else { value as u64 };
    Res { bits, flags }
}

/// FPSCR[FPRF] for a result: class (C) and sign/magnitude (FPCC).
pub fn fprf(bits: u64) -> u32 {
    let (neg, n) = unpack(bits);
    match (n, neg) {
        (Num::NaN, _) => FPRF_C | FPCC_FU,
        (Num::Inf, true) => FPCC_FL | FPCC_FU,
        (Num::Inf, false) => FPCC_FG | FPCC_FU,
        (Num::Zero, true) => FPRF_C | FPCC_FE,
        (Num::Zero, false) => FPCC_FE,
        (Num::Finite { exp, .. }, _) => {
            let denormal = if exp < -1074 { FPRF_C } else { 0 };
            denormal | if neg { FPCC_FL } else { FPCC_FG }
        }
    }
}
