//! The MPC83xx IPIC (integrated programmable interrupt controller) as a
//! register map: for an interrupt number (the `interrupts` cell of a device
//! tree node), which mask register holds it and at which bit; and which
//! source SIVCR says is pending. Big-endian 32-bit registers; bit n in the
//! manuals is 1 << (31 - n), IBM style.
//!
//! The numbering, from the MPC8323E reference manual's interrupt table (and
//! Linux's arch/powerpc/sysdev/ipic.c): internal sources 1-16 and 32-47
//! are in SIMSR_H, 64-94 in SIMSR_L; external IRQ1-7 (17-23) and IRQ0 (48)
//! in SEMSR. The DUART's two ports are 9 and 10.

/// SIVCR: the highest-priority pending source in its low 7 bits (0: none).
pub const SIVCR: usize = 0x04;
pub const SIMSR_H: usize = 0x20;
pub const SIMSR_L: usize = 0x24;
/// SICNR: internal interrupts' routing (0: all to the core's int line).
pub const SICNR: usize = 0x28;
pub const SEMSR: usize = 0x38;

/// Where an interrupt number is masked: register offset and bit value.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub struct Source {
    pub mask_reg: usize,
    pub bit: u32,
}

/// The mask register and bit of interrupt `irq`, None for a reserved number.
pub fn source(irq: u32) -> Option<Source> {
    let (mask_reg, n) = match irq {
        1..=16 => (SIMSR_H, irq + 15),
        32..=47 => (SIMSR_H, irq - 32),
        64..=94 => (SIMSR_L, irq - 64),
        17..=23 => (SEMSR, irq - 16),
        48 => (SEMSR, 0),
        _ => return None,
    };
    Some(Source { mask_reg, bit: 1 << (31 - n) })
}

/// The pending source SIVCR reports, if any.
pub fn pending(sivcr: u32) -> Option<u32> {
    Some(sivcr & 0x7f).filter(|&v| v != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_duart_and_its_neighbours() {
        assert_eq!(source(9), Some(Source { mask_reg: SIMSR_H, bit: 0x0000_0080 }));
        assert_eq!(source(10), Some(Source { mask_reg: SIMSR_H, bit: 0x0000_0040 }));
        assert_eq!(source(1), Some(Source { mask_reg: SIMSR_H, bit: 0x0000_8000 }));
        assert_eq!(source(32), Some(Source { mask_reg: SIMSR_H, bit: 0x8000_0000 }));
        assert_eq!(source(66), Some(Source { mask_reg: SIMSR_L, bit: 0x2000_0000 }));
        assert_eq!(source(17), Some(Source { mask_reg: SEMSR, bit: 0x4000_0000 }));
        assert_eq!(source(48), Some(Source { mask_reg: SEMSR, bit: 0x8000_0000 }));
        for reserved in [0, 24, 31, 49, 63, 95, 127] {
            assert_eq!(source(reserved), None, "{reserved}");
        }
    }

    #[test]
    fn sivcr_vector() {
        assert_eq!(pending(0x0000_0009), Some(9));
        assert_eq!(pending(0xfc00_0089), Some(9)); // other fields ignored
        assert_eq!(pending(0), None);
    }
}
