//! The MPC8xx's two interrupt controllers as register maps, for the one
//! interrupt Sigil takes there: SMC1's receive (the console).
//!
//! The chain: SMC1 sets its event register (SMCE) and, where the mask SMCM
//! lets it, raises CPM interrupt vector 4 (CPMVEC_SMC1). The CPM interrupt
//! controller (CIPR pending, CIMR mask, CISR in service) drives one SIU
//! interrupt level, chosen in CICR[IRL]. The SIU (SIPEND, SIMASK) raises
//! the core's external interrupt (vector 0x500), and SIVEC names the
//! highest-priority source pending. Acknowledging goes the other way: CIVR
//! gives the CPM vector, the device's event is cleared, and a 1 written to
//! the vector's CISR bit ends it (Linux arch/powerpc/platforms/8xx/pic.c and
//! cpm1-ic.c; MPC885 reference manual, "System Interface Unit" and "CPM
//! Interrupt Controller"). IMMR offsets; big-endian registers.
//!
//! SIU numbering: sources alternate IRQ0, LVL0, IRQ1, LVL1, ... so level n
//! is source 2n + 1, masked by bit 0x8000_0000 >> (2n + 1), and SIVEC's top
//! six bits hold the source number. With nothing pending SIVEC says 15
//! (LVL7), so Sigil never routes the CPM to level 7.

/// SIU mask: a 1 lets the source interrupt the core.
pub const SIMASK: usize = 0x014;
/// SIU vector: the pending source's number in bits 0-5 (IBM numbering).
pub const SIVEC: usize = 0x01c;
/// CPM interrupt vector register (u16): write IACK, then read the vector.
pub const CIVR: usize = 0x930;
/// CPM interrupt configuration: SCC priorities, IRL, HP, IEN.
pub const CICR: usize = 0x940;
/// CPM mask: bit 1 << vector.
pub const CIMR: usize = 0x948;
/// CPM in-service: writing 1 << vector ends that vector's interrupt.
pub const CISR: usize = 0x94c;

/// SMC1's CPM interrupt vector (Linux cpm1.h CPMVEC_SMC1).
pub const CPMVEC_SMC1: u32 = 4;
/// The SIU level the CPM is routed to: Linux's mpc885ads device tree uses
/// level 2 (source 5) as well.
pub const CPM_LEVEL: u32 = 2;

/// The SIU source number of interrupt level `level` (0-7).
pub const fn level_source(level: u32) -> u32 {
    2 * level + 1
}

/// The SIMASK bit of interrupt level `level`.
pub const fn level_bit(level: u32) -> u32 {
    0x8000_0000 >> level_source(level)
}

/// SIVEC's source number; None when it reports nothing pending (15, LVL7).
pub fn siu_source(sivec: u32) -> Option<u32> {
    Some(sivec >> 26).filter(|&s| s != level_source(7))
}

/// CICR for a CPM routed to `level`: Linux's default SCC order (SCC1-4 at
/// SCCa-d), that level in IRL, HP = 0x1f (no vector promoted), IEN set.
pub const fn cicr(level: u32) -> u32 {
    const SCC_ORDER: u32 = 0x00c0_0000 | 0x0020_0000 | 0x0004_0000;
    const HP_NONE: u32 = 0x1f << 8;
    const IEN: u32 = 0x80;
    SCC_ORDER | (level << 13) | HP_NONE | IEN
}

/// CIVR's IACK bit: writing it latches the highest-priority vector.
pub const CIVR_IACK: u16 = 1;

/// The CPM vector CIVR holds after IACK (its top five bits).
pub fn cpm_vector(civr: u16) -> u32 {
    (civr >> 11) as u32
}

/// The CIMR / CISR bit of a CPM vector.
pub const fn cpm_bit(vector: u32) -> u32 {
    1 << vector
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn siu_levels_interleave_with_irq_pins() {
        assert_eq!(level_source(0), 1);
        assert_eq!(level_bit(0), 0x4000_0000);
        assert_eq!(level_source(CPM_LEVEL), 5);
        assert_eq!(level_bit(CPM_LEVEL), 0x0400_0000);
        assert_eq!(level_bit(7), 0x0001_0000);
    }

    #[test]
    fn sivec_names_the_source_or_nothing() {
        assert_eq!(siu_source(5 << 26), Some(5));
        assert_eq!(siu_source((5 << 26) | 0x00ff_ffff), Some(5)); // low bits ignored
        assert_eq!(siu_source(15 << 26), None);
    }

    #[test]
    fn cicr_as_linux_writes_it() {
        // cpm1-ic.c: SCD_SCC4 | SCC_SCC3 | SCB_SCC2 | SCA_SCC1 | (hwirq / 2) << 13
        // | HP_MASK, then IEN; hwirq 5 is level 2.
        assert_eq!(cicr(CPM_LEVEL), 0x00e4_5f80);
    }

    #[test]
    fn cpm_vector_and_bits() {
        assert_eq!(cpm_vector((CPMVEC_SMC1 as u16) << 11), CPMVEC_SMC1);
        assert_eq!(cpm_vector(0xffff), 31);
        assert_eq!(cpm_bit(CPMVEC_SMC1), 0x10);
    }
}
