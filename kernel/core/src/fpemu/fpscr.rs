//! The Floating-Point Status and Control Register: its bits and the rules
//! that tie them together (summary bits, sticky bits, enabled exceptions).
//!
//! ```text
//!  IBM bit: 0  1   2  3  4  5  6  7      8-12          13 14 15-19 21-23          24-28        30-31
//!          FX FEX VX OX UX ZX XX VXSNAN VXISI..VXVC    FR FI FPRF  VXSOFT..VXCVI  VE OE UE ZE XE  RN
//! ```
//! Exception bits are sticky: an operation only sets them, software clears
//! them. FX records that one went from 0 to 1; VX is the OR of the VX*
//! causes and FEX says an exception is both set and enabled - both are
//! computed, never written. FR/FI describe the last rounding; FPRF the class
//! of the last result.

pub const FX: u32 = 1 << 31;
pub const FEX: u32 = 1 << 30;
pub const VX: u32 = 1 << 29;
pub const OX: u32 = 1 << 28;
pub const UX: u32 = 1 << 27;
pub const ZX: u32 = 1 << 26;
pub const XX: u32 = 1 << 25;
pub const VXSNAN: u32 = 1 << 24;
pub const VXISI: u32 = 1 << 23;
pub const VXIDI: u32 = 1 << 22;
pub const VXZDZ: u32 = 1 << 21;
pub const VXIMZ: u32 = 1 << 20;
pub const VXVC: u32 = 1 << 19;
pub const FR: u32 = 1 << 18;
pub const FI: u32 = 1 << 17;
pub const FPRF_C: u32 = 1 << 16;
pub const FPCC_FL: u32 = 1 << 15;
pub const FPCC_FG: u32 = 1 << 14;
pub const FPCC_FE: u32 = 1 << 13;
pub const FPCC_FU: u32 = 1 << 12;
pub const FPRF: u32 = FPRF_C | FPCC;
pub const FPCC: u32 = FPCC_FL | FPCC_FG | FPCC_FE | FPCC_FU;
pub const VXSOFT: u32 = 1 << 10;
pub const VXSQRT: u32 = 1 << 9;
pub const VXCVI: u32 = 1 << 8;
pub const VE: u32 = 1 << 7;
pub const OE: u32 = 1 << 6;
pub const UE: u32 = 1 << 5;
pub const ZE: u32 = 1 << 4;
pub const XE: u32 = 1 << 3;
pub const RN: u32 = 3;

/// The invalid-operation causes whose OR is VX.
pub const VX_CAUSES: u32 = VXSNAN | VXISI | VXIDI | VXZDZ | VXIMZ | VXVC | VXSOFT | VXSQRT | VXCVI;
/// Every sticky exception bit (FX itself included).
pub const EXCEPTIONS: u32 = FX | OX | UX | ZX | XX | VX_CAUSES;

/// Recomputes the two summary bits VX and FEX from the others.
pub fn summarize(fpscr: u32) -> u32 {
    let mut f = fpscr & !(VX | FEX);
    if f & VX_CAUSES != 0 {
        f |= VX;
    }
    let enabled = [(VX, VE), (OX, OE), (UX, UE), (ZX, ZE), (XX, XE)];
    if enabled.iter().any(|&(bit, en)| f & bit != 0 && f & en != 0) {
        f |= FEX;
    }
    f
}

/// `fpscr` after an operation raised `flags` (exception bits plus this
/// rounding's FR/FI): sticky bits OR-ed in, FX if one is new, FR/FI replaced.
pub fn raise(fpscr: u32, flags: u32) -> u32 {
    let new = flags & EXCEPTIONS & !fpscr;
    let mut f = (fpscr & !(FR | FI)) | flags;
    if new != 0 {
        f |= FX;
    }
    summarize(f)
}

/// The SIGFPE si_code for an enabled exception, in Linux's order of
/// precedence (`__parse_fpscr`: invalid, overflow, underflow, divide, inexact).
pub fn sigfpe_code(fpscr: u32) -> i32 {
    use crate::abi::{FPE_FLTDIV, FPE_FLTINV, FPE_FLTOVF, FPE_FLTRES, FPE_FLTUND, FPE_FLTUNK};
    let causes = [
        (VX, VE, FPE_FLTINV),
        (OX, OE, FPE_FLTOVF),
        (UX, UE, FPE_FLTUND),
        (ZX, ZE, FPE_FLTDIV),
        (XX, XE, FPE_FLTRES),
    ];
    causes
        .iter()
        .find(|&&(bit, en, _)| fpscr & bit != 0 && fpscr & en != 0)
        .map_or(FPE_FLTUNK, |&(_, _, code)| code)
}
