//! A PowerPC floating-point emulator: the FPU an FPU-less core lacks.
//!
//! Why: the MPC8xx has no FPU, yet Debian's ppc32 glibc is built hard-float,
//! so every static binary runs FP instructions from its first steps
//! (`__sigsetjmp` saves f14-f31 with `stfd`; `printf("%f")` does FP
//! arithmetic). On the 8xx each such instruction traps to the "software
//! emulation" vector (0x1000). Linux answers with CONFIG_MATH_EMULATION
//! (arch/powerpc/math-emu/): the trap handler decodes the instruction,
//! computes its result on the FP registers saved in the thread, and steps
//! over it. Sigil does the same, here: `emulate` executes one instruction on
//! a `Cpu` (the process's FPRs and FPSCR, plus the GPRs and CR of its trap
//! frame) and memory reached through the `Memory` trait (the kernel's user
//! access, or a byte vector in host tests). The kernel glue is
//! kernel/src/fpemu.rs; with the boot option `fpu=emulate` it also serves
//! the FP-unavailable trap of a core that has an FPU, so QEMU can test it.
//!
//! Covered: every FP instruction of the 750 and the 603e - loads and stores
//! (single, double, with update and indexed, `stfiwx`), moves, add, subtract,
//! multiply, divide, the four multiply-adds (each also single precision),
//! `fsqrt(s)`, `fres`, `frsqrte`, `frsp`, `fctiw(z)`, `fcmpu`/`fcmpo`, `fsel`,
//! and the FPSCR instructions; the Rc=1 forms copy FPSCR[0:3] to CR1.
//!
//! What the FPSCR gets (`ieee` computes it exactly, as the hardware does):
//! all rounding modes (RN) for every arithmetic instruction; the sticky
//! exception bits, FX, VX and FEX; FR and FI of the last rounding; FPRF for
//! arithmetic results and FPCC for compares. Not modelled: non-IEEE mode
//! (NI), and the exponent wrapping of an overflow or underflow when OE/UE is
//! enabled (like Linux's math-emu, the rounded result is written).
//!
//! An enabled exception (FEX set after the instruction) is a trap, as in
//! Linux's `do_mathemu`: the instruction is not stepped over and the kernel
//! sends SIGFPE; as the architecture says, an enabled invalid-operation or
//! zero-divide exception leaves the target register unchanged.

pub mod fpscr;
pub mod ieee;
#[cfg(test)]
mod tests;

use fpscr::*;
use ieee::{Prec, Res, Round};

/// User memory as the emulator sees it: bytes in memory order (big-endian).
pub trait Memory {
    /// Reads `buf.len()` bytes at `ea`; false if the access faults.
    fn read(&mut self, ea: u32, buf: &mut [u8]) -> bool;
    /// Writes `data` at `ea`; false if the access faults.
    fn write(&mut self, ea: u32, data: &[u8]) -> bool;
}

/// The registers an FP instruction reads or writes.
pub struct Cpu<'a> {
    pub gpr: &'a mut [u32; 32],
    pub cr: &'a mut u32,
    pub fpr: &'a mut [u64; 32],
    pub fpscr: &'a mut u32,
}

/// What became of one instruction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Executed: the caller steps NIP over it.
    Done,
    /// Not an FP instruction (or an invalid form): SIGILL.
    Unknown,
    /// The load or store at this address faulted: SIGSEGV.
    Fault(u32),
    /// An enabled FP exception: SIGFPE with this si_code, NIP unchanged.
    Trap(i32),
}

const SIGN: u64 = 1 << 63;

/// Executes the FP instruction `insn`.
pub fn emulate(insn: u32, cpu: &mut Cpu, mem: &mut impl Memory) -> Outcome {
    let outcome = match insn >> 26 {
        48..=55 => load_store_d(insn, cpu, mem),
        31 => load_store_x(insn, cpu, mem),
        59 => arith(insn, cpu, Prec::Single),
        63 if insn & 0x20 != 0 => arith(insn, cpu, Prec::Double),
        63 => misc(insn, cpu),
        _ => Outcome::Unknown,
    };
    if outcome != Outcome::Done {
        return outcome;
    }
    if insn & 1 == 1 && matches!(insn >> 26, 59 | 63) {
        // Rc=1: CR1 <- FX, FEX, VX, OX.
        *cpu.cr = (*cpu.cr & !0x0f00_0000) | ((*cpu.fpscr >> 4) & 0x0f00_0000);
    }
    if *cpu.fpscr & FEX != 0 {
        return Outcome::Trap(sigfpe_code(*cpu.fpscr));
    }
    Outcome::Done
}

fn field(insn: u32, shift: u32) -> usize {
    ((insn >> shift) & 31) as usize
}

/// How an FP load or store moves its register.
#[derive(Clone, Copy)]
enum Access {
    LoadSingle,
    LoadDouble,
    StoreSingle,
    StoreDouble,
    /// stfiwx: the low word of the register, as an integer.
    StoreWord,
}

/// lfs, lfsu, lfd, lfdu, stfs, stfsu, stfd, stfdu: EA = (rA|0) + d.
fn load_store_d(insn: u32, cpu: &mut Cpu, mem: &mut impl Memory) -> Outcome {
    let op = insn >> 26;
    let access = [Access::LoadSingle, Access::LoadDouble, Access::StoreSingle, Access::StoreDouble]
        [((op - 48) / 2) as usize];
    let update = op & 1 == 1;
    let disp = insn as u16 as i16 as i32 as u32;
    transfer(cpu, mem, access, field(insn, 21), field(insn, 16), disp, update)
}

/// The indexed forms (primary opcode 31): EA = (rA|0) + rB.
fn load_store_x(insn: u32, cpu: &mut Cpu, mem: &mut impl Memory) -> Outcome {
    let (access, update) = match (insn >> 1) & 0x3ff {
        535 => (Access::LoadSingle, false),
        567 => (Access::LoadSingle, true),
        599 => (Access::LoadDouble, false),
        631 => (Access::LoadDouble, true),
        663 => (Access::StoreSingle, false),
        695 => (Access::StoreSingle, true),
        727 => (Access::StoreDouble, false),
        759 => (Access::StoreDouble, true),
        983 => (Access::StoreWord, false),
        _ => return Outcome::Unknown,
    };
    let rb = cpu.gpr[field(insn, 11)];
    transfer(cpu, mem, access, field(insn, 21), field(insn, 16), rb, update)
}

/// One load or store; the update forms write EA back to rA (rA = 0 is an
/// invalid form).
fn transfer(
    cpu: &mut Cpu,
    mem: &mut impl Memory,
    access: Access,
    frt: usize,
    ra: usize,
    offset: u32,
    update: bool,
) -> Outcome {
    if update && ra == 0 {
        return Outcome::Unknown;
    }
    let base = if ra == 0 { 0 } else { cpu.gpr[ra] };
    let ea = base.wrapping_add(offset);
    let ok = match access {
        Access::LoadSingle => {
            let mut b = [0; 4];
            let ok = mem.read(ea, &mut b);
            if ok {
                cpu.fpr[frt] = single_to_double(u32::from_be_bytes(b));
            }
            ok
        }
        Access::LoadDouble => {
            let mut b = [0; 8];
            let ok = mem.read(ea, &mut b);
            if ok {
                cpu.fpr[frt] = u64::from_be_bytes(b);
            }
            ok
        }
        Access::StoreSingle => mem.write(ea, &double_to_single(cpu.fpr[frt]).to_be_bytes()),
        Access::StoreDouble => mem.write(ea, &cpu.fpr[frt].to_be_bytes()),
        Access::StoreWord => mem.write(ea, &(cpu.fpr[frt] as u32).to_be_bytes()),
    };
    if !ok {
        return Outcome::Fault(ea);
    }
    if update {
        cpu.gpr[ra] = ea;
    }
    Outcome::Done
}

/// A float as the double a load puts in an FPR: exact, NaNs unchanged
/// (a signalling NaN stays signalling), subnormals normalised.
pub fn single_to_double(w: u32) -> u64 {
    let sign = ((w >> 31) as u64) << 63;
    let e = (w >> 23) & 0xff;
    let f = (w & 0x7f_ffff) as u64;
    match (e, f) {
        (0, 0) => sign,
        (0, _) => {
            // Subnormal: shift the leading one up to the implicit position.
            let shift = f.leading_zeros() - 40;
            let exp = (1023 - 126 - shift as u64) << 52;
            sign | exp | ((f << shift) & 0x7f_ffff) << 29
        }
        (0xff, _) => sign | 0x7ff0_0000_0000_0000 | f << 29,
        _ => sign | ((e as u64 + 1023 - 127) << 52) | f << 29,
    }
}

/// A double as stfs stores it: the architecture's bit selection, no
/// rounding; values in the float subnormal range are shifted into it.
pub fn double_to_single(d: u64) -> u32 {
    let e = ((d >> 52) & 0x7ff) as u32;
    if (874..=896).contains(&e) {
        let frac = (d & ((1 << 52) - 1)) | 1 << 52;
        let sign = ((d >> 63) as u32) << 31;
        return sign | (((frac >> (897 - e)) >> 29) as u32 & 0x7f_ffff);
    }
    ((d >> 32) as u32 & 0xc000_0000) | ((d >> 29) as u32 & 0x3fff_ffff)
}

/// A-form arithmetic: opcode 59 (single precision) or 63 with bit 0x20.
fn arith(insn: u32, cpu: &mut Cpu, prec: Prec) -> Outcome {
    let (frt, a, b, c) = (
        field(insn, 21),
        cpu.fpr[field(insn, 16)],
        cpu.fpr[field(insn, 11)],
        cpu.fpr[field(insn, 6)],
    );
    let mode = Round::from_fpscr(*cpu.fpscr);
    let negated =
        |r: Res| if ieee::is_nan(r.bits) { r } else { Res { bits: r.bits ^ SIGN, flags: r.flags } };
    let sub_b = if ieee::is_nan(b) { b } else { b ^ SIGN };
    let r = match ((insn >> 1) & 0x1f, prec) {
        (18, _) => ieee::div(a, b, prec, mode),
        (20, _) => ieee::add(a, sub_b, prec, mode),
        (21, _) => ieee::add(a, b, prec, mode),
        (22, _) => ieee::sqrt(b, prec, mode),
        (23, Prec::Double) => {
            // fsel: frC if frA >= 0 (-0 included), else frB; no status change.
            let ge = !ieee::is_nan(a) && (a & SIGN == 0 || a << 1 == 0);
            cpu.fpr[frt] = if ge { c } else { b };
            return Outcome::Done;
        }
        (24, Prec::Single) => ieee::div(1.0f64.to_bits(), b, prec, mode), // fres
        (25, _) => ieee::mul(a, c, prec, mode),
        (26, Prec::Double) => {
            // frsqrte: an estimate; computed as QEMU does, 1 / sqrt(b).
            let root = ieee::sqrt(b, prec, mode);
            let r = ieee::div(1.0f64.to_bits(), root.bits, prec, mode);
            Res { bits: r.bits, flags: r.flags | root.flags }
        }
        (28, _) => ieee::fma(a, c, b, true, prec, mode),
        (29, _) => ieee::fma(a, c, b, false, prec, mode),
        (30, _) => negated(ieee::fma(a, c, b, true, prec, mode)),
        (31, _) => negated(ieee::fma(a, c, b, false, prec, mode)),
        _ => return Outcome::Unknown,
    };
    write_result(cpu, frt, r, true);
    Outcome::Done
}

/// Merges the flags of `r` into the FPSCR and writes its value (and FPRF),
/// unless an enabled invalid-operation or zero-divide exception forbids it.
fn write_result(cpu: &mut Cpu, frt: usize, r: Res, set_fprf: bool) {
    let f = raise(*cpu.fpscr, r.flags);
    let suppressed =
        (r.flags & VX_CAUSES != 0 && f & VE != 0) || (r.flags & ZX != 0 && f & ZE != 0);
    *cpu.fpscr = f;
    if suppressed {
        return;
    }
    cpu.fpr[frt] = r.bits;
    if set_fprf {
        *cpu.fpscr = (*cpu.fpscr & !FPRF) | ieee::fprf(r.bits);
    }
}

/// The X-form instructions of opcode 63: moves, compares, conversions, FPSCR.
fn misc(insn: u32, cpu: &mut Cpu) -> Outcome {
    let (frt, fb) = (field(insn, 21), cpu.fpr[field(insn, 11)]);
    let mode = Round::from_fpscr(*cpu.fpscr);
    match (insn >> 1) & 0x3ff {
        0 => compare(insn, cpu, false),
        32 => compare(insn, cpu, true),
        12 => write_result(cpu, frt, ieee::to_prec(fb, Prec::Single, mode), true), // frsp
        14 => write_result(cpu, frt, ieee::to_int32(fb, mode), false),             // fctiw
        15 => write_result(cpu, frt, ieee::to_int32(fb, Round::Zero), false),      // fctiwz
        40 => cpu.fpr[frt] = fb ^ SIGN,                                            // fneg
        72 => cpu.fpr[frt] = fb,                                                   // fmr
        136 => cpu.fpr[frt] = fb | SIGN,                                           // fnabs
        264 => cpu.fpr[frt] = fb & !SIGN,                                          // fabs
        583 => cpu.fpr[frt] = *cpu.fpscr as u64,                                   // mffs
        38 => mtfsb(cpu, field(insn, 21), true),
        70 => mtfsb(cpu, field(insn, 21), false),
        64 => {
            // mcrfs BF, BFA: copy a field to CR, clearing its exception bits.
            let shift = 28 - 4 * ((insn >> 18) & 7);
            let bits = (*cpu.fpscr >> shift) & 0xf;
            set_cr_field(cpu, (insn >> 23) & 7, bits);
            *cpu.fpscr = summarize(*cpu.fpscr & !((0xf << shift) & EXCEPTIONS));
        }
        134 => {
            // mtfsfi BF, U
            let shift = 28 - 4 * ((insn >> 23) & 7);
            let u = (insn >> 12) & 0xf;
            *cpu.fpscr = summarize((*cpu.fpscr & !(0xf << shift)) | u << shift);
        }
        711 => {
            // mtfsf FLM, frB: FLM's leftmost bit selects field 0.
            let flm = (insn >> 17) & 0xff;
            let mask = (0..8)
                .filter(|i| flm & (0x80 >> i) != 0)
                .fold(0u32, |m, i| m | 0xf << (28 - 4 * i));
            *cpu.fpscr = summarize((*cpu.fpscr & !mask) | (fb as u32 & mask));
        }
        _ => return Outcome::Unknown,
    }
    Outcome::Done
}

/// mtfsb1 / mtfsb0 BT. FEX and VX (bits 1 and 2) are computed, never set;
/// setting a clear exception bit also sets FX.
fn mtfsb(cpu: &mut Cpu, bt: usize, set: bool) {
    let bit = (1u32 << (31 - bt)) & !(FEX | VX);
    let f = *cpu.fpscr;
    let f = if set { f | bit | if bit & EXCEPTIONS & !f != 0 { FX } else { 0 } } else { f & !bit };
    *cpu.fpscr = summarize(f);
}

fn set_cr_field(cpu: &mut Cpu, bf: u32, bits: u32) {
    let shift = 28 - 4 * bf;
    *cpu.cr = (*cpu.cr & !(0xf << shift)) | bits << shift;
}

/// fcmpu / fcmpo BF, frA, frB: CR field BF and FPCC get FL, FG, FE or FU.
/// Any NaN is "unordered"; a signalling one is invalid (VXSNAN), and for the
/// ordered compare so is any NaN (VXVC, unless VE traps on the VXSNAN).
fn compare(insn: u32, cpu: &mut Cpu, ordered: bool) {
    let (a, b) = (cpu.fpr[field(insn, 16)], cpu.fpr[field(insn, 11)]);
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    let c = if x < y {
        FPCC_FL
    } else if x > y {
        FPCC_FG
    } else if x == y {
        FPCC_FE
    } else {
        FPCC_FU
    };
    let snan = ieee::is_snan(a) || ieee::is_snan(b);
    let mut flags = if snan { VXSNAN } else { 0 };
    if ordered && c == FPCC_FU && !(snan && *cpu.fpscr & VE != 0) {
        flags |= VXVC;
    }
    // A compare rounds nothing: FR and FI keep their values.
    let f = raise(*cpu.fpscr, flags | (*cpu.fpscr & (FR | FI)));
    *cpu.fpscr = (f & !FPCC) | c;
    set_cr_field(cpu, (insn >> 23) & 7, c >> 12);
}
