//! The few facts about PowerPC instruction encodings the kernel needs when it
//! steps over one of its own loads or stores.
//!
//! A kernel access to user memory inside a `UserWindow` that faults is not
//! retried: the fault handler records it and resumes after the instruction.
//! That is sound only if skipping changes nothing else, and one kind of
//! instruction breaks the rule: the *update* forms (`stbu`, `lwzux`, ...)
//! also write the effective address back into their base register rA. The
//! compiler uses them to walk an array (`stbu r5, 1(r9)` in a copy loop), so
//! a skipped `stbu` must still set rA, or every later store of the loop goes
//! to the wrong place. `update_base` says which register that is. A skipped
//! `lmw` (the signal frames' register copy) leaves its registers half loaded:
//! `load_multiple_first` says from which register on.

/// The base register an update-form load or store writes back, if `insn` is
/// one (D-form: lwzu, lbzu, stwu, stbu, lhzu, lhau, sthu and the FP ones;
/// X-form: their indexed `...ux` versions).
pub fn update_base(insn: u32) -> Option<usize> {
    let ra = ((insn >> 16) & 31) as usize;
    let update = match insn >> 26 {
        // lwzu lbzu stwu stbu lhzu lhau sthu lfsu lfdu stfsu stfdu
        33 | 35 | 37 | 39 | 41 | 43 | 45 | 49 | 51 | 53 | 55 => true,
        // lwzux lbzux stwux stbux lhzux lhaux sthux lfsux lfdux stfsux stfdux
        31 => matches!(
            (insn >> 1) & 0x3ff,
            55 | 119 | 183 | 247 | 311 | 375 | 439 | 567 | 631 | 695 | 759
        ),
        _ => false,
    };
    // rA = 0 is an invalid form for updates; nothing to write back then.
    (update && ra != 0).then_some(ra)
}

/// The first register an `lmw rT, d(rA)` loads (it loads rT..r31), if
/// `insn` is one.
pub fn load_multiple_first(insn: u32) -> Option<usize> {
    (insn >> 26 == 46).then_some(((insn >> 21) & 31) as usize)
}

#[cfg(test)]
mod tests {
    use super::{load_multiple_first, update_base};

    /// Encodes a D-form instruction: opcode, rS/rT, rA, displacement.
    fn d(op: u32, rs: u32, ra: u32, disp: i16) -> u32 {
        (op << 26) | (rs << 21) | (ra << 16) | disp as u16 as u32
    }

    /// Encodes an X-form instruction of primary opcode 31.
    fn x(xo: u32, rs: u32, ra: u32, rb: u32) -> u32 {
        (31 << 26) | (rs << 21) | (ra << 16) | (rb << 11) | (xo << 1)
    }

    #[test]
    fn update_forms_name_their_base_register() {
        assert_eq!(update_base(d(39, 5, 9, 1)), Some(9)); // stbu r5, 1(r9)
        assert_eq!(update_base(d(33, 3, 4, -4)), Some(4)); // lwzu r3, -4(r4)
        assert_eq!(update_base(d(37, 1, 1, -16)), Some(1)); // stwu r1, -16(r1)
        assert_eq!(update_base(x(247, 5, 8, 10)), Some(8)); // stbux r5, r8, r10
        assert_eq!(update_base(x(55, 3, 7, 6)), Some(7)); // lwzux r3, r7, r6
    }

    #[test]
    fn plain_accesses_and_other_instructions_have_none() {
        assert_eq!(update_base(d(38, 5, 9, 1)), None); // stb
        assert_eq!(update_base(d(32, 3, 4, 0)), None); // lwz
        assert_eq!(update_base(x(215, 5, 8, 10)), None); // stbx
        assert_eq!(update_base(x(23, 3, 7, 6)), None); // lwzx
        assert_eq!(update_base(d(14, 3, 3, 1)), None); // addi
        assert_eq!(update_base(d(39, 5, 0, 1)), None); // stbu with rA = 0: invalid form
    }

    #[test]
    fn load_multiple_names_its_first_register() {
        assert_eq!(load_multiple_first(d(46, 14, 4, 0)), Some(14)); // lmw r14, 0(r4)
        assert_eq!(load_multiple_first(d(46, 18, 4, 72)), Some(18)); // lmw r18, 72(r4)
        assert_eq!(load_multiple_first(d(47, 14, 3, 0)), None); // stmw r14, 0(r3)
        assert_eq!(load_multiple_first(d(32, 3, 4, 0)), None); // lwz
        assert_eq!(update_base(d(46, 14, 4, 0)), None); // lmw writes no base back
    }
}
