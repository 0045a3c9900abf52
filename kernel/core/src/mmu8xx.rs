//! The MPC8xx MMU as numbers: TLB entry encodings, the access-protection
//! groups behind KUAP (MD_AP), and the page-table walk the TLB-miss handlers
//! do - written as plain Rust so the host can test what QEMU cannot run.
//!
//! The 8xx has no hashed page table and no BATs. Each TLB entry is written
//! through three registers: xx_EPN (effective page, valid, ASID), xx_TWC
//! (page size, access-protection group APG, guarded, valid; taken from the
//! level-1 entry) and xx_RPN (real page, protection PP, changed C, shared SH,
//! cache-inhibit CI, valid; taken from the PTE). Writing xx_RPN creates the
//! entry. The miss handlers (kernel/src/arch/mpc8xx/head.S) compute exactly
//! what `dtlb_load` / `itlb_load` compute here; the `asm_agrees` test reads the
//! constants head.S defines and checks them against these.
//!
//! Sigil's user PTEs are already in MD_RPN format, with Linux's bit choices
//! (`pte-8xx.h`), so the handler only forces the four "must be one" bits:
//!
//! ```text
//!  0             19 20 21 22 23 24   27 28  29 30 31
//! | real page no.  | U? | RO/NA | C | sw: X/.. | SPS| SH| CI| V |
//! ```
//! Protection uses the extended PP encoding (Linux: Mx_CTR.PPM = 0):
//! PP 000 = supervisor read/write, 011 (`RO`) = supervisor read-only,
//! 001 (`NA`) = no access; users never get access through PP. Users reach
//! their pages because the APG group of a user level-1 entry tells the MMU to
//! apply the *supervisor* column to user accesses - and KUAP is the same group
//! switched to "swapped", so the kernel is then held to the user column: none.

/// PTE / RPN bits (Linux `pte-8xx.h`).
pub mod pte {
    /// V: the translation is valid.
    pub const PRESENT: u32 = 0x001;
    /// CI: cache-inhibited.
    pub const NO_CACHE: u32 = 0x002;
    /// SH: shared, no ASID compare (kernel mappings).
    pub const SH: u32 = 0x004;
    /// SPS: large page (with TWC PS = 8M).
    pub const SPS: u32 = 0x008;
    /// Software bit: user code may execute the page (copied to PP bit 21 in the ITLB).
    pub const EXEC: u32 = 0x040;
    /// C: changed. With C = 0 a store takes a DTLB error; Sigil sets it on
    /// every writable page up front.
    pub const DIRTY: u32 = 0x100;
    /// PP 001: no access at all.
    pub const NA: u32 = 0x200;
    /// PP 011: supervisor read-only.
    pub const RO: u32 = 0x600;
    /// Bits 24-27 must be ones in the RPN; they hold software bits in the PTE.
    /// Linux also tags DAR with this value on a DTLB miss (see `dcbx_ea`).
    pub const RPN_PATTERN: u32 = 0x0f0;
    pub const RPN_MASK: u32 = 0xffff_f000;
}

/// Level-1 / TWC bits (Linux `mmu-8xx.h`).
pub mod twc {
    /// V: the level-1 entry (segment) is valid.
    pub const VALID: u32 = 0x001;
    pub const GUARDED: u32 = 0x010;
    pub const PS_8M: u32 = 0x00c;
    /// APG field: bits 0x1e0, group number = (twc >> 5) & 0xf.
    pub const APG_SHIFT: u32 = 5;
    pub const APG_MASK: u32 = 0x1e0;
}

/// EPN register bit: the entry is valid.
pub const EPN_VALID: u32 = 0x200;

/// Access-protection groups Sigil uses (Linux's numbering: bit 0 = accessed,
/// bit 1 = user). Sigil marks every mapping accessed, so only 1 and 3 occur.
pub const APG_KERNEL: u32 = 1;
pub const APG_USER: u32 = 3;

/// MD_AP with user access open (Linux MD_APG_INIT): groups 11 01 11 00.
pub const MD_AP_OPEN: u32 = 0xdc00_0000;
/// MD_AP with user access locked (Linux MD_APG_KUAP): group 3 becomes 10.
pub const MD_AP_LOCKED: u32 = 0xde00_0000;
/// MI_AP (Linux MI_APG_INIT): group 3 swapped, so the kernel can never
/// execute user pages (KUEP).
pub const MI_AP: u32 = 0xde00_0000;

pub use crate::layout::KERNELBASE;
/// From here up, the kernel's I/O window: identity-mapped, cache-inhibited.
pub const IO_BASE: u32 = 0xf000_0000;
const PAGE_8M: u32 = 0x0080_0000;

/// How an access-protection group field in MI_AP/MD_AP makes the MMU treat
/// accesses to pages of that group (PowerPC mode, Linux's reading of the
/// MPC8xx manual: the two bits are Ks, Kp).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupMode {
    /// 00: every access is checked as a supervisor access.
    AllSupervisor,
    /// 01: the page's PP, supervisor and user columns as they are.
    PageRules,
    /// 10: swapped: supervisor accesses get the user column and vice versa.
    Swapped,
    /// 11: every access is checked as a user access.
    AllUser,
}

/// The mode `ap` (MI_AP or MD_AP) gives to `group` (0 = the top two bits).
pub fn group_mode(ap: u32, group: u32) -> GroupMode {
    match (ap >> (30 - 2 * group)) & 3 {
        0 => GroupMode::AllSupervisor,
        1 => GroupMode::PageRules,
        2 => GroupMode::Swapped,
        _ => GroupMode::AllUser,
    }
}

/// What a data access may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    None,
    Read,
    ReadWrite,
}

/// The data access a supervisor (`kernel`) or user access gets to a page with
/// DTLB entry (`twc`, `rpn`) under `md_ap`.
pub fn data_access(md_ap: u32, twc_val: u32, rpn: u32, kernel: bool) -> Access {
    let group = (twc_val & twc::APG_MASK) >> twc::APG_SHIFT;
    let as_supervisor = match group_mode(md_ap, group) {
        GroupMode::AllSupervisor => true,
        GroupMode::PageRules => kernel,
        GroupMode::Swapped => !kernel,
        GroupMode::AllUser => false,
    };
    if !as_supervisor {
        return Access::None; // the user column is "no access" for every PP Sigil uses
    }
    match rpn & pte::RO {
        0 => Access::ReadWrite,
        pte::RO => Access::Read,
        _ => Access::None,
    }
}

/// The PTE of a user page at `phys` (read is implied).
pub fn user_pte(phys: u32, write: bool, exec: bool) -> u32 {
    let mut v = (phys & pte::RPN_MASK) | pte::PRESENT;
    v |= if write { pte::DIRTY } else { pte::RO };
    if exec {
        v |= pte::EXEC;
    }
    v
}

/// A level-1 entry as the TWC wants it: Sigil's table holds the bare physical
/// address of the level-2 table (or 0); the handler adds valid and the user
/// group. An empty entry stays invalid, so the access ends in a TLB error.
pub fn user_twc(l1: u32) -> u32 {
    if l1 == 0 {
        0
    } else {
        l1 | (APG_USER << twc::APG_SHIFT) | twc::VALID
    }
}

/// The DTLB's RPN for a PTE: software bits 24-27 replaced by ones.
pub fn dtlb_rpn(pte_val: u32) -> u32 {
    pte_val | pte::RPN_PATTERN
}

/// The ITLB's RPN for a PTE: PP becomes 011 (supervisor execute) if EXEC,
/// else 001 (no execute); the swapped user group lends users that column.
pub fn itlb_rpn(pte_val: u32) -> u32 {
    (pte_val & !0xf00) | ((pte_val & pte::EXEC) << 4) | pte::NA | pte::RPN_PATTERN
}

/// One TLB entry as the handlers write it: (EPN, TWC, RPN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TlbEntry {
    pub epn: u32,
    pub twc: u32,
    pub rpn: u32,
}

/// The 8 MiB kernel entry for `ea` (>= KERNELBASE): RAM linearly mapped and
/// cacheable, or, from IO_BASE up, identity-mapped, cache-inhibited and guarded.
pub fn kernel_entry(ea: u32, instruction: bool) -> TlbEntry {
    let epn = (ea & !(PAGE_8M - 1)) | EPN_VALID;
    let twc_val = twc::PS_8M | (APG_KERNEL << twc::APG_SHIFT) | twc::VALID;
    let rw = if instruction { pte::RO } else { pte::DIRTY };
    let base = pte::RPN_PATTERN | pte::SPS | pte::SH | pte::PRESENT | rw;
    if ea >= IO_BASE {
        TlbEntry {
            epn,
            twc: twc_val | twc::GUARDED,
            rpn: (ea & !(PAGE_8M - 1)) | base | pte::NO_CACHE,
        }
    } else {
        TlbEntry { epn, twc: twc_val, rpn: ((ea - KERNELBASE) & !(PAGE_8M - 1)) | base }
    }
}

/// The hardware assist of the walk: M_TWB read = L1 base + EA[0:9] * 4.
pub fn l1_entry_addr(l1_base: u32, ea: u32) -> u32 {
    (l1_base & pte::RPN_MASK) | ((ea >> 20) & 0xffc)
}

/// MD_TWC read after writing the level-1 entry = L2 base + EA[10:19] * 4.
pub fn pte_addr(l1: u32, ea: u32) -> u32 {
    (l1 & pte::RPN_MASK) | ((ea >> 10) & 0xffc)
}

/// What the DTLB (`instruction` false) or ITLB miss handler loads for `ea`,
/// reading physical memory through `read` and the L1 table at `l1_base`.
/// An empty level-1 entry or PTE yields an invalid entry: the retried access
/// then raises a TLB *error*, which the kernel handles as a page fault.
pub fn miss(ea: u32, l1_base: u32, instruction: bool, read: impl Fn(u32) -> u32) -> TlbEntry {
    if ea >= KERNELBASE {
        return kernel_entry(ea, instruction);
    }
    let epn = (ea & pte::RPN_MASK) | EPN_VALID;
    let l1 = read(l1_entry_addr(l1_base, ea));
    let twc_val = user_twc(l1);
    let pte_val = if l1 == 0 { 0 } else { read(pte_addr(l1, ea)) };
    let rpn = if instruction { itlb_rpn(pte_val) } else { dtlb_rpn(pte_val) };
    TlbEntry { epn, twc: twc_val, rpn }
}

/// Is this entry usable at all (both the level-1 and the page valid)?
pub fn entry_valid(e: &TlbEntry) -> bool {
    e.twc & twc::VALID != 0 && e.rpn & pte::PRESENT != 0
}

/// MPC8xx erratum (Linux `FixupDAR`): a DTLB error caused by dcbz, dcbi,
/// dcbf, dcbst or icbi leaves DAR unchanged - still the tag the miss handler
/// put there. Decode the instruction and compute its effective address from
/// the saved registers. Returns (EA, is the DSISR store bit wrong) or None
/// if `insn` is not one of them. (dcbst reports a store but only reads.)
pub fn dcbx_ea(insn: u32, gpr: &[u32; 32]) -> Option<(u32, bool)> {
    if insn >> 26 != 31 {
        return None;
    }
    let dcbst = match (insn >> 1) & 0x3ff {
        1014 | 470 | 86 | 982 => false, // dcbz, dcbi, dcbf, icbi
        54 => true,                     // dcbst
        _ => return None,
    };
    let ra = ((insn >> 16) & 31) as usize;
    let rb = ((insn >> 11) & 31) as usize;
    let base = if ra == 0 { 0 } else { gpr[ra] };
    Some((base.wrapping_add(gpr[rb]), dcbst))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn md_ap_values_match_linux() {
        // Linux mmu-8xx.h: MD_APG_INIT 0xdc000000, MD_APG_KUAP 0xde000000.
        assert_eq!(group_mode(MD_AP_OPEN, 0), GroupMode::AllUser);
        assert_eq!(group_mode(MD_AP_OPEN, 1), GroupMode::PageRules);
        assert_eq!(group_mode(MD_AP_OPEN, 2), GroupMode::AllUser);
        assert_eq!(group_mode(MD_AP_OPEN, 3), GroupMode::AllSupervisor);
        assert_eq!(group_mode(MD_AP_LOCKED, 3), GroupMode::Swapped);
        // Only group 3 differs: locking cannot disturb kernel mappings.
        for g in 0..3 {
            assert_eq!(group_mode(MD_AP_OPEN, g), group_mode(MD_AP_LOCKED, g));
        }
        assert_eq!(MD_AP_OPEN ^ MD_AP_LOCKED, 0x0200_0000);
    }

    fn user_entry(write: bool) -> TlbEntry {
        let pte_val = user_pte(0x0123_4000, write, false);
        let mut mem = HashMap::new();
        mem.insert(l1_entry_addr(0x0010_0000, 0x1000_0000), 0x0020_0000);
        mem.insert(pte_addr(0x0020_0000, 0x1000_0000), pte_val);
        miss(0x1000_0000, 0x0010_0000, false, |a| *mem.get(&a).unwrap_or(&0xdead_beef))
    }

    #[test]
    fn kuap_blocks_kernel_reads_and_writes_of_user_pages_only() {
        let rw = user_entry(true);
        assert_eq!(data_access(MD_AP_OPEN, rw.twc, rw.rpn, true), Access::ReadWrite);
        assert_eq!(data_access(MD_AP_LOCKED, rw.twc, rw.rpn, true), Access::None);
        // Users keep their access either way.
        assert_eq!(data_access(MD_AP_OPEN, rw.twc, rw.rpn, false), Access::ReadWrite);
        assert_eq!(data_access(MD_AP_LOCKED, rw.twc, rw.rpn, false), Access::ReadWrite);
        let ro = user_entry(false);
        assert_eq!(data_access(MD_AP_LOCKED, ro.twc, ro.rpn, false), Access::Read);
        assert_eq!(data_access(MD_AP_OPEN, ro.twc, ro.rpn, true), Access::Read);
        // Kernel RAM: the kernel always, users never.
        let k = kernel_entry(0xc012_3456, false);
        for ap in [MD_AP_OPEN, MD_AP_LOCKED] {
            assert_eq!(data_access(ap, k.twc, k.rpn, true), Access::ReadWrite);
            assert_eq!(data_access(ap, k.twc, k.rpn, false), Access::None);
        }
    }

    #[test]
    fn walk_uses_the_hardware_assist_addresses() {
        // EA 0x1000_0000: L1 index 0x40 (offset 0x100), L2 index 0.
        assert_eq!(l1_entry_addr(0x0010_0000, 0x1000_0000), 0x0010_0100);
        assert_eq!(pte_addr(0x0020_0000, 0x1040_5abc), 0x0020_0014);
        assert_eq!(pte_addr(0x0020_0000, 0x003f_f000), 0x0020_0ffc);
        let e = user_entry(true);
        assert_eq!(e.epn, 0x1000_0000 | EPN_VALID);
        assert_eq!(e.twc, 0x0020_0000 | 0x60 | twc::VALID);
        assert_eq!(e.rpn, 0x0123_4000 | pte::DIRTY | pte::RPN_PATTERN | pte::PRESENT);
        assert!(entry_valid(&e));
    }

    #[test]
    fn empty_tables_load_invalid_entries() {
        let no_l2 = miss(0x2000_0000, 0x0010_0000, false, |_| 0);
        assert!(!entry_valid(&no_l2));
        let mem =
            |a: u32| if a == l1_entry_addr(0x0010_0000, 0x2000_0000) { 0x0030_0000 } else { 0 };
        let no_pte = miss(0x2000_0000, 0x0010_0000, true, mem);
        assert_eq!(no_pte.twc & twc::VALID, twc::VALID);
        assert!(!entry_valid(&no_pte));
    }

    #[test]
    fn itlb_protection_follows_exec() {
        let x = itlb_rpn(user_pte(0x5000, false, true));
        let nx = itlb_rpn(user_pte(0x5000, true, false));
        assert_eq!(x & 0xf00, 0x600); // supervisor execute, lent to users by group 3
        assert_eq!(nx & 0xf00, 0x200); // no access
        assert_eq!(x & 0xf0, 0xf0);
        // KUEP: with MI_AP the kernel (user column) cannot run user code.
        assert_eq!(group_mode(MI_AP, APG_USER), GroupMode::Swapped);
    }

    #[test]
    fn kernel_entries_are_8m_linear_or_io() {
        let k = kernel_entry(0xc0a1_2345, false);
        assert_eq!(k.epn, 0xc080_0000 | EPN_VALID);
        assert_eq!(k.rpn & pte::RPN_MASK, 0x0080_0000);
        assert_eq!(k.rpn & 0xfff, 0x1fd); // Linux MI_BOOTINIT: C, pattern, SPS, SH, V
        let io = kernel_entry(0xff00_0a82, false);
        assert_eq!(io.rpn & pte::RPN_MASK, 0xff00_0000);
        assert_ne!(io.rpn & pte::NO_CACHE, 0);
        assert_ne!(io.twc & twc::GUARDED, 0);
        let i = kernel_entry(0xc000_3000, true);
        assert_eq!(i.rpn & 0xfff, 0x6fd); // Linux mmu_pin_tlb text: RO (supervisor X)
    }

    #[test]
    fn dcbz_fault_address_is_recomputed() {
        let mut gpr = [0u32; 32];
        gpr[9] = 0x1000_0000;
        gpr[10] = 0x40;
        let dcbz = 0x7c00_07ec | (9 << 16) | (10 << 11); // dcbz r9, r10
        assert_eq!(dcbx_ea(dcbz, &gpr), Some((0x1000_0040, false)));
        let dcbz_r0 = 0x7c00_07ec | (10 << 11); // dcbz 0, r10
        assert_eq!(dcbx_ea(dcbz_r0, &gpr), Some((0x40, false)));
        let dcbst = 0x7c00_006c | (9 << 16) | (10 << 11);
        assert_eq!(dcbx_ea(dcbst, &gpr), Some((0x1000_0040, true)));
        assert_eq!(dcbx_ea(0x7c00_002e | (9 << 16), &gpr), None); // lwzx
    }

    /// The `#define NAME value` lines of head.S (and of the vector header it
    /// includes) must say what this file says.
    #[test]
    fn asm_agrees() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../src/arch");
        let text = ["mpc8xx/head.S", "ppc32/vector.h"]
            .map(|f| std::fs::read_to_string(std::format!("{dir}/{f}")).expect(f))
            .concat();
        let mut defs = HashMap::new();
        for line in text.lines() {
            let mut w = line.split_whitespace();
            if let (Some("#define"), Some(name), Some(val)) = (w.next(), w.next(), w.next()) {
                let v = val
                    .strip_prefix("0x")
                    .map(|h| u32::from_str_radix(h, 16))
                    .unwrap_or_else(|| val.parse());
                if let Ok(v) = v {
                    defs.insert(std::string::String::from(name), v);
                }
            }
        }
        let want = [
            ("KERNELBASE", KERNELBASE),
            ("IO_BASE_HI", IO_BASE >> 16),
            ("MD_AP_LOCKED_HI", MD_AP_LOCKED >> 16),
            ("MI_AP_HI", MI_AP >> 16),
            ("RPN_PATTERN", pte::RPN_PATTERN),
            ("PTE_EXEC", pte::EXEC),
            ("PTE_NA", pte::NA),
            ("TWC_USER", (APG_USER << twc::APG_SHIFT) | twc::VALID),
            ("TWC_KERNEL_8M", kernel_entry(KERNELBASE, false).twc),
            ("TWC_GUARDED", twc::GUARDED),
            ("RPN_KERNEL_DATA", kernel_entry(KERNELBASE, false).rpn),
            ("RPN_KERNEL_TEXT", kernel_entry(KERNELBASE, true).rpn),
            ("RPN_NO_CACHE", pte::NO_CACHE),
        ];
        for (name, v) in want {
            assert_eq!(defs.get(name), Some(&v), "head.S {name}");
        }
    }
}
