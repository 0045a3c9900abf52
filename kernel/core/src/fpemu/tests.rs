//! Host tests of the FP emulator. The host's own f64/f32 arithmetic is
//! IEEE-754 round-to-nearest, so it is the reference for bit-exact results;
//! directed rounding is checked against the exact error of the nearest
//! result (computed with the host's fused multiply-add), and the PowerPC
//! rules (NaN choice, saturating conversions, FPSCR bits) against the
//! architecture's tables.

use super::fpscr::*;
use super::ieee::{self, Prec, Round, DEFAULT_NAN};
use super::*;
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

/// Big-endian memory at address 0x1000.
struct Mem(Vec<u8>);

impl Memory for Mem {
    fn read(&mut self, ea: u32, buf: &mut [u8]) -> bool {
        let Some(off) = (ea as usize).checked_sub(0x1000).filter(|o| o + buf.len() <= self.0.len())
        else {
            return false;
        };
        buf.copy_from_slice(&self.0[off..off + buf.len()]);
        true
    }
    fn write(&mut self, ea: u32, data: &[u8]) -> bool {
        let Some(off) =
            (ea as usize).checked_sub(0x1000).filter(|o| o + data.len() <= self.0.len())
        else {
            return false;
        };
        self.0[off..off + data.len()].copy_from_slice(data);
        true
    }
}

struct Machine {
    gpr: [u32; 32],
    cr: u32,
    fpr: [u64; 32],
    fpscr: u32,
    mem: Mem,
}

impl Machine {
    fn new() -> Machine {
        Machine { gpr: [0; 32], cr: 0, fpr: [0; 32], fpscr: 0, mem: Mem(vec![0; 64]) }
    }
    fn run(&mut self, insn: u32) -> Outcome {
        let mut cpu = Cpu {
            gpr: &mut self.gpr,
            cr: &mut self.cr,
            fpr: &mut self.fpr,
            fpscr: &mut self.fpscr,
        };
        emulate(insn, &mut cpu, &mut self.mem)
    }
    fn f(&self, r: usize) -> f64 {
        f64::from_bits(self.fpr[r])
    }
}

// Instruction encoders (primary opcode, registers, extended opcode).
fn a_form(op: u32, t: u32, a: u32, b: u32, c: u32, xo: u32) -> u32 {
    op << 26 | t << 21 | a << 16 | b << 11 | c << 6 | xo << 1
}
fn x_form(op: u32, t: u32, a: u32, b: u32, xo: u32) -> u32 {
    op << 26 | t << 21 | a << 16 | b << 11 | xo << 1
}
fn d_form(op: u32, t: u32, a: u32, d: i16) -> u32 {
    op << 26 | t << 21 | a << 16 | d as u16 as u32
}

/// A deterministic stream of doubles rich in edge cases.
struct Gen(u64);

impl Gen {
    fn bits(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn value(&mut self) -> f64 {
        const SPECIAL: [f64; 12] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            3.0,
            0.1,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e308,
        ];
        let r = self.bits();
        match r % 8 {
            0 => SPECIAL[(r >> 8) as usize % SPECIAL.len()],
            1 => f64::from_bits(self.bits() & !(0x7ffu64 << 52)), // subnormal
            2 => f64::from_bits(self.bits()),                     // anything, NaNs included
            _ => {
                // Moderate exponents, where cancellation and rounding happen.
                let e = 1023 - 30 + (r >> 20) % 60;
                f64::from_bits((r & (1 << 63)) | e << 52 | (self.bits() & ((1 << 52) - 1)))
            }
        }
    }
}

/// Our result equals the host's, NaN for NaN.
fn same(ours: u64, host: f64, what: impl Fn() -> String) {
    if host.is_nan() {
        assert!(ieee::is_nan(ours), "{}: expected a NaN, got {ours:#018x}", what());
    } else if ours != host.to_bits() {
        panic!("{}: got {} expected {host}", what(), f64::from_bits(ours));
    }
}

#[test]
fn nearest_matches_host_double_arithmetic() {
    let mut g = Gen(0x1234_5678_9abc_def1);
    let n = Round::Nearest;
    for _ in 0..100_000 {
        let (a, b, c) = (g.value(), g.value(), g.value());
        let (x, y, z) = (a.to_bits(), b.to_bits(), c.to_bits());
        same(ieee::add(x, y, Prec::Double, n).bits, a + b, || format!("{a:e} + {b:e}"));
        same(ieee::mul(x, y, Prec::Double, n).bits, a * b, || format!("{a:e} * {b:e}"));
        same(ieee::div(x, y, Prec::Double, n).bits, a / b, || format!("{a:e} / {b:e}"));
        same(ieee::sqrt(x, Prec::Double, n).bits, a.sqrt(), || format!("sqrt {a:e}"));
        same(ieee::fma(x, z, y, false, Prec::Double, n).bits, a.mul_add(c, b), || {
            format!("{a:e} * {c:e} + {b:e}")
        });
        same(ieee::fma(x, z, y, true, Prec::Double, n).bits, a.mul_add(c, -b), || {
            format!("{a:e} * {c:e} - {b:e}")
        });
    }
}

#[test]
fn single_precision_matches_host_float_arithmetic() {
    let mut g = Gen(0x0bad_cafe_dead_beef);
    let n = Round::Nearest;
    for _ in 0..50_000 {
        let (a, b) = (g.value() as f32, g.value() as f32);
        let (x, y) = ((a as f64).to_bits(), (b as f64).to_bits());
        let single = |v: f32| v as f64;
        same(ieee::add(x, y, Prec::Single, n).bits, single(a + b), || format!("{a:e} +s {b:e}"));
        same(ieee::mul(x, y, Prec::Single, n).bits, single(a * b), || format!("{a:e} *s {b:e}"));
        same(ieee::div(x, y, Prec::Single, n).bits, single(a / b), || format!("{a:e} /s {b:e}"));
        same(ieee::sqrt(x, Prec::Single, n).bits, single(a.sqrt()), || format!("sqrts {a:e}"));
        // frsp of any double is Rust's `as f32` (round to nearest).
        let d = g.value();
        same(ieee::to_prec(d.to_bits(), Prec::Single, n).bits, single(d as f32), || {
            format!("frsp {d:e}")
        });
    }
}

fn next_up(x: f64) -> f64 {
    match x {
        _ if x == 0.0 => f64::from_bits(1),
        _ if x > 0.0 => f64::from_bits(x.to_bits() + 1),
        _ => f64::from_bits(x.to_bits() - 1),
    }
}

fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

/// The directed result from the nearest one and the sign of the exact error.
fn directed(nearest: f64, err: f64, mode: Round) -> f64 {
    match mode {
        Round::Nearest => nearest,
        Round::Up if err > 0.0 => next_up(nearest),
        Round::Down if err < 0.0 => next_down(nearest),
        Round::Zero if err > 0.0 && nearest < 0.0 => next_up(nearest),
        Round::Zero if err < 0.0 && nearest > 0.0 => next_down(nearest),
        _ => nearest,
    }
}

#[test]
fn directed_rounding_is_exact() {
    let mut g = Gen(0x5eed_5eed_5eed_5eed);
    for _ in 0..50_000 {
        let (a, b) = (g.value(), g.value());
        if !(a.is_normal() && b.is_normal())
            || a.abs() > 1e150
            || b.abs() > 1e150
            || a.abs() < 1e-150
            || b.abs() < 1e-150
        {
            continue;
        }
        let (x, y) = (a.to_bits(), b.to_bits());
        let s = a + b;
        let bb = s - a;
        let sum_err = (a - (s - bb)) + (b - bb); // TwoSum: exact
        let p = a * b;
        let mul_err = a.mul_add(b, -p);
        let q = a / b;
        let div_err = -q.mul_add(b, -a) * b.signum(); // sign of a/b - q
        let r = a.abs().sqrt();
        let sqrt_err = (-r).mul_add(r, a.abs());
        for mode in [Round::Zero, Round::Up, Round::Down] {
            let what = |op: &str| format!("{a:e} {op} {b:e} in {mode:?}");
            assert_eq!(
                ieee::add(x, y, Prec::Double, mode).bits,
                directed(s, sum_err, mode).to_bits(),
                "{}",
                what("+")
            );
            assert_eq!(
                ieee::mul(x, y, Prec::Double, mode).bits,
                directed(p, mul_err, mode).to_bits(),
                "{}",
                what("*")
            );
            assert_eq!(
                ieee::div(x, y, Prec::Double, mode).bits,
                directed(q, div_err, mode).to_bits(),
                "{}",
                what("/")
            );
            let got = ieee::sqrt(a.abs().to_bits(), Prec::Double, mode).bits;
            assert_eq!(got, directed(r, sqrt_err, mode).to_bits(), "sqrt {a:e} in {mode:?}");
            let inexact = ieee::add(x, y, Prec::Double, mode).flags & XX != 0;
            assert_eq!(inexact, sum_err != 0.0, "{}", what("+ XX"));
        }
    }
}

#[test]
fn special_values_follow_the_architecture() {
    let n = Round::Nearest;
    let (inf, ninf, one) = (f64::INFINITY.to_bits(), f64::NEG_INFINITY.to_bits(), 1.0f64.to_bits());
    let (zero, nzero) = (0.0f64.to_bits(), (-0.0f64).to_bits());
    assert_eq!(
        ieee::add(inf, ninf, Prec::Double, n),
        ieee::Res { bits: DEFAULT_NAN, flags: VXISI }
    );
    assert_eq!(ieee::mul(inf, zero, Prec::Double, n).flags, VXIMZ);
    assert_eq!(ieee::div(zero, zero, Prec::Double, n).flags, VXZDZ);
    assert_eq!(ieee::div(inf, inf, Prec::Double, n).flags, VXIDI);
    assert_eq!(ieee::div(one, nzero, Prec::Double, n), ieee::Res { bits: ninf, flags: ZX });
    assert_eq!(ieee::sqrt((-1.0f64).to_bits(), Prec::Double, n).flags, VXSQRT);
    assert_eq!(ieee::sqrt(nzero, Prec::Double, n).bits, nzero);
    // x - x is +0, except when rounding toward minus infinity.
    assert_eq!(ieee::add(one, (-1.0f64).to_bits(), Prec::Double, n).bits, zero);
    assert_eq!(ieee::add(one, (-1.0f64).to_bits(), Prec::Double, Round::Down).bits, nzero);
    // The first NaN operand wins, quieted, and an SNaN raises VXSNAN.
    let (qnan_a, snan_b) = (0x7ff8_0000_0000_00aa, 0xfff0_0000_0000_00bb);
    assert_eq!(
        ieee::add(qnan_a, snan_b, Prec::Double, n),
        ieee::Res { bits: qnan_a, flags: VXSNAN }
    );
    assert_eq!(
        ieee::add(one, snan_b, Prec::Double, n),
        ieee::Res { bits: snan_b | 1 << 51, flags: VXSNAN }
    );
    // fmadd picks frA, then frB, then frC; inf * 0 + NaN still says VXIMZ.
    let r = ieee::fma(inf, zero, qnan_a, false, Prec::Double, n);
    assert_eq!(r, ieee::Res { bits: qnan_a, flags: VXIMZ });
    // Overflow, underflow and inexact.
    let big = f64::MAX.to_bits();
    assert_eq!(ieee::add(big, big, Prec::Double, n).flags & (OX | XX), OX | XX);
    assert_eq!(ieee::add(big, big, Prec::Double, Round::Zero).bits, big);
    let tiny = ieee::mul(f64::MIN_POSITIVE.to_bits(), 0.3f64.to_bits(), Prec::Double, n);
    assert_eq!(tiny.flags & (UX | XX), UX | XX);
    assert_eq!(f64::from_bits(tiny.bits), f64::MIN_POSITIVE * 0.3);
    // An exact subnormal result is not an underflow.
    assert_eq!(ieee::mul(f64::MIN_POSITIVE.to_bits(), 0.5f64.to_bits(), Prec::Double, n).flags, 0);
}

#[test]
fn fctiw_rounds_and_saturates() {
    let conv = |x: f64, mode| {
        let r = ieee::to_int32(x.to_bits(), mode);
        (r.bits as u32, r.flags & (VXCVI | VXSNAN | XX))
    };
    assert_eq!(conv(2.5, Round::Nearest), (2, XX));
    assert_eq!(conv(3.5, Round::Nearest), (4, XX));
    assert_eq!(conv(-2.7, Round::Zero), (-2i32 as u32, XX));
    assert_eq!(conv(-2.2, Round::Down), (-3i32 as u32, XX));
    assert_eq!(conv(2.2, Round::Up), (3, XX));
    assert_eq!(conv(-0.0, Round::Nearest), (0, 0));
    assert_eq!(conv(2147483647.0, Round::Nearest), (0x7fff_ffff, 0));
    assert_eq!(conv(2147483647.6, Round::Nearest), (0x7fff_ffff, VXCVI));
    assert_eq!(conv(-2147483648.9, Round::Zero), (0x8000_0000, XX));
    assert_eq!(conv(-2147483649.0, Round::Zero), (0x8000_0000, VXCVI));
    assert_eq!(conv(1e300, Round::Zero), (0x7fff_ffff, VXCVI));
    assert_eq!(conv(f64::NEG_INFINITY, Round::Zero), (0x8000_0000, VXCVI));
    assert_eq!(conv(f64::NAN, Round::Zero), (0x8000_0000, VXCVI));
    assert_eq!(
        conv(f64::from_bits(0x7ff0_0000_0000_0001), Round::Zero),
        (0x8000_0000, VXCVI | VXSNAN)
    );
    assert_eq!(conv(5e-324, Round::Up), (1, XX));
}

#[test]
fn float_loads_and_stores_convert_exactly() {
    for w in [
        0u32,
        0x8000_0000,
        0x3f80_0000,
        0x0000_0001,
        0x807f_ffff,
        0x7f80_0000,
        0x7fc0_0001,
        0x7f80_0001,
        0x7f7f_ffff,
    ] {
        let d = single_to_double(w);
        let f = f32::from_bits(w);
        if f.is_nan() {
            assert_eq!(
                d,
                (w as u64 & 0x8000_0000) << 32
                    | 0x7ff0_0000_0000_0000
                    | (w as u64 & 0x7f_ffff) << 29
            );
        } else {
            assert_eq!(d, (f as f64).to_bits(), "lfs {w:#x}");
        }
        assert_eq!(double_to_single(d), w, "stfs of lfs {w:#x}");
    }
}

#[test]
fn loads_stores_and_update_forms() {
    let mut m = Machine::new();
    m.mem.0[8..16].copy_from_slice(&2.5f64.to_bits().to_be_bytes());
    m.mem.0[16..20].copy_from_slice(&1.5f32.to_bits().to_be_bytes());
    m.gpr[3] = 0x1000;
    assert_eq!(m.run(d_form(50, 1, 3, 8)), Outcome::Done); // lfd f1, 8(r3)
    assert_eq!(m.f(1), 2.5);
    assert_eq!(m.run(d_form(49, 2, 3, 16)), Outcome::Done); // lfsu f2, 16(r3)
    assert_eq!((m.f(2), m.gpr[3]), (1.5, 0x1010));
    m.gpr[4] = 0x10;
    assert_eq!(m.run(x_form(31, 1, 4, 3, 759)), Outcome::Done); // stfdux f1, r4, r3
    assert_eq!((&m.mem.0[0x20..0x28], m.gpr[4]), (&2.5f64.to_bits().to_be_bytes()[..], 0x1020));
    m.fpr[5] = 0xfff8_0000_dead_beef;
    assert_eq!(m.run(x_form(31, 5, 0, 4, 983)), Outcome::Done); // stfiwx f5, 0, r4
    assert_eq!(&m.mem.0[0x20..0x24], &0xdead_beefu32.to_be_bytes());
    m.gpr[6] = 0x2000;
    assert_eq!(m.run(d_form(54, 1, 6, -8)), Outcome::Fault(0x1ff8)); // stfd f1, -8(r6)
    assert_eq!(m.run(d_form(51, 1, 0, 0)), Outcome::Unknown); // lfdu with rA = 0
    assert_eq!(m.run(x_form(31, 1, 3, 4, 266)), Outcome::Unknown); // add: not FP
}

#[test]
fn arithmetic_through_the_decoder() {
    let mut m = Machine::new();
    m.fpr[1] = 1.0f64.to_bits();
    m.fpr[2] = 3.0f64.to_bits();
    m.fpr[3] = 0.25f64.to_bits();
    assert_eq!(m.run(a_form(63, 4, 1, 2, 0, 18)), Outcome::Done); // fdiv f4, f1, f2
    assert_eq!(m.f(4), 1.0 / 3.0);
    assert_eq!(m.fpscr & (XX | FI | FPRF), XX | FI | FPCC_FG);
    assert_eq!(m.run(a_form(59, 5, 1, 2, 0, 18)), Outcome::Done); // fdivs
    assert_eq!(m.f(5), (1.0f32 / 3.0) as f64);
    assert_eq!(m.run(a_form(63, 6, 2, 3, 3, 29)), Outcome::Done); // fmadd f6 = f2*f3 + f3
    assert_eq!(m.f(6), 1.0);
    assert_eq!(m.run(a_form(63, 6, 2, 3, 3, 31)), Outcome::Done); // fnmadd
    assert_eq!(m.f(6), -1.0);
    assert_eq!(m.run(a_form(63, 7, 1, 2, 3, 23)), Outcome::Done); // fsel f7 = f1 >= 0 ? f3 : f2
    assert_eq!(m.f(7), 0.25);
    assert_eq!(m.run(x_form(63, 8, 0, 4, 12)), Outcome::Done); // frsp f8, f4
    assert_eq!(m.f(8), (1.0f64 / 3.0) as f32 as f64);
    m.fpr[9] = (-7.9f64).to_bits();
    assert_eq!(m.run(x_form(63, 10, 0, 9, 15)), Outcome::Done); // fctiwz
    assert_eq!(m.fpr[10] as u32, -7i32 as u32);
    assert_eq!(m.run(x_form(63, 10, 0, 9, 264)), Outcome::Done); // fabs
    assert_eq!(m.f(10), 7.9);
    // fsub with Rc=1: CR1 gets FX FEX VX OX.
    m.fpscr = 0;
    m.fpr[11] = f64::INFINITY.to_bits();
    assert_eq!(m.run(a_form(63, 12, 11, 11, 0, 20) | 1), Outcome::Done);
    assert_eq!(m.fpr[12], DEFAULT_NAN);
    assert_eq!(m.fpscr & (FX | VX | VXISI | FPRF), FX | VX | VXISI | FPRF_C | FPCC_FU);
    assert_eq!(m.cr, 0x0a00_0000);
}

#[test]
fn compares_set_the_cr_field_and_fpcc() {
    let mut m = Machine::new();
    m.fpr[1] = 1.0f64.to_bits();
    m.fpr[2] = 2.0f64.to_bits();
    m.fpr[3] = f64::NAN.to_bits();
    assert_eq!(m.run(x_form(63, 7 << 2, 1, 2, 0)), Outcome::Done); // fcmpu cr7, f1, f2
    assert_eq!((m.cr & 0xf, m.fpscr & FPCC), (8, FPCC_FL));
    assert_eq!(m.run(x_form(63, 0, 2, 1, 0)), Outcome::Done); // fcmpu cr0, f2, f1
    assert_eq!(m.cr >> 28, 4);
    assert_eq!(m.run(x_form(63, 1 << 2, 1, 3, 0)), Outcome::Done); // fcmpu cr1: unordered, no VX
    assert_eq!(((m.cr >> 24) & 0xf, m.fpscr & VX), (1, 0));
    assert_eq!(m.run(x_form(63, 1 << 2, 1, 3, 32)), Outcome::Done); // fcmpo: VXVC
    assert_eq!(m.fpscr & (FX | VX | VXVC), FX | VX | VXVC);
}

#[test]
fn fpscr_instructions() {
    let mut m = Machine::new();
    assert_eq!(m.run(x_form(63, 30, 0, 0, 38)), Outcome::Done); // mtfsb1 30: RN = 2 (up)
    assert_eq!(m.run(x_form(63, 31, 0, 0, 70)), Outcome::Done); // mtfsb0 31
    assert_eq!(m.fpscr, 2);
    m.fpr[1] = 1.0f64.to_bits();
    m.fpr[2] = 3.0f64.to_bits();
    m.run(a_form(63, 3, 1, 2, 0, 18)); // fdiv rounds up now
    assert_eq!(m.fpr[3], (1.0f64 / 3.0).to_bits() + 1);
    assert_eq!(m.run(x_form(63, 4, 0, 0, 583)), Outcome::Done); // mffs f4
    assert_eq!(m.fpr[4] as u32, m.fpscr);
    assert_eq!(m.fpscr & (FX | XX | FR | FI | RN), FX | XX | FR | FI | 2);
    assert_eq!(m.run(x_form(63, 0, 0, 0, 134) | 3 << 23 | 1 << 12), Outcome::Done); // mtfsfi 3, 1
    assert_eq!(m.fpscr & (VXVC | FR | FI | FPRF_C), FPRF_C, "field 3 is VXVC FR FI C");
    m.run(x_form(63, 5 << 2, 1 << 2, 0, 64)); // mcrfs cr5, 1 (UX ZX XX VXSNAN): clears them
    assert_eq!(m.fpscr & XX, 0);
    m.fpr[6] = (VE | VXSNAN | 1) as u64;
    m.run(x_form(63, 0, 0xff << 1, 6, 711)); // mtfsf 0xff, f6: VX and FEX computed
    assert_eq!(m.fpscr, VE | VXSNAN | VX | FEX | 1);
}

#[test]
fn enabled_exceptions_trap_and_keep_the_target() {
    let mut m = Machine::new();
    m.fpscr = ZE;
    m.fpr[1] = 1.0f64.to_bits();
    m.fpr[3] = 42.0f64.to_bits();
    assert_eq!(m.run(a_form(63, 3, 1, 2, 0, 18)), Outcome::Trap(crate::abi::FPE_FLTDIV)); // 1 / 0
    assert_eq!(m.f(3), 42.0);
    assert_eq!(m.fpscr & (FX | FEX | ZX), FX | FEX | ZX);
    let mut m = Machine::new();
    m.fpscr = XE;
    m.fpr[1] = 1.0f64.to_bits();
    m.fpr[2] = 3.0f64.to_bits();
    assert_eq!(m.run(a_form(63, 3, 1, 2, 0, 18)), Outcome::Trap(crate::abi::FPE_FLTRES));
    assert_eq!(m.f(3), 1.0 / 3.0, "an inexact trap still writes the result");
}
