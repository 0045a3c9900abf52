//! The building blocks of hardware-parameter negotiation: `Mask` (a set of
//! small numbers: access types, formats), `Interval` (a range of u32 with open
//! or closed ends) and `HwParams`, the decoded `struct snd_pcm_hw_params`.
//!
//! The interval arithmetic is a transcription of `sound/core/pcm_lib.c`
//! (`snd_interval_refine`, `_mul`, `_div`, `_muldivk`, `_mulkdiv`). The four
//! operations are one: `a * b / k`, with `mul` and `div` the k = 1 cases, so
//! one helper computes every bound: products saturate at `u32::MAX`, a
//! division that leaves a remainder makes the bound open, and refining never
//! throws away a value that could satisfy the rule.

use super::uapi::{self, get_u32, hw_params as off, put_u32};
use super::PcmError;

/// A 256-bit set, `struct snd_mask`: bit `k` lives in word `k / 32`, bit `k % 32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mask {
    pub bits: [u32; 8],
}

impl Mask {
    /// The set holding exactly the given values (each < 256).
    pub fn of(values: &[u32]) -> Mask {
        let mut m = Mask { bits: [0; 8] };
        for &v in values {
            m.bits[(v / 32) as usize] |= 1 << (v % 32);
        }
        m
    }

    /// Every value: what a program starts from (`snd_mask_any`).
    pub fn any() -> Mask {
        Mask { bits: [u32::MAX; 8] }
    }

    pub fn test(&self, v: u32) -> bool {
        v < 256 && self.bits[(v / 32) as usize] & (1 << (v % 32)) != 0
    }

    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }

    /// The lowest member, if any.
    pub fn min(&self) -> Option<u32> {
        (0..256).find(|&v| self.test(v))
    }

    /// Exactly one member (`snd_mask_single`).
    pub fn is_single(&self) -> bool {
        self.bits.iter().map(|w| w.count_ones()).sum::<u32>() == 1
    }

    /// Intersects with `v`: Ok(true) if something changed, EINVAL if nothing
    /// is left (`snd_mask_refine`).
    pub fn refine(&mut self, v: &Mask) -> Result<bool, PcmError> {
        let old = *self;
        for (w, vw) in self.bits.iter_mut().zip(v.bits.iter()) {
            *w &= vw;
        }
        if self.is_empty() {
            return Err(PcmError::Inval);
        }
        Ok(*self != old)
    }

    /// Keeps only the lowest member (`snd_mask_refine_first`).
    pub fn refine_first(&mut self) -> Result<bool, PcmError> {
        let first = self.min().ok_or(PcmError::Inval)?;
        let changed = !self.is_single();
        *self = Mask::of(&[first]);
        Ok(changed)
    }
}

/// `struct snd_interval`: the values x with min <= x <= max, where an open
/// end excludes the bound itself; `integer` restricts to whole numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    pub min: u32,
    pub max: u32,
    pub openmin: bool,
    pub openmax: bool,
    pub integer: bool,
    pub empty: bool,
}

impl Interval {
    /// `[min, max]`, closed, not restricted to integers.
    pub const fn new(min: u32, max: u32) -> Interval {
        Interval { min, max, openmin: false, openmax: false, integer: false, empty: false }
    }

    /// `[min, max]` restricted to integers.
    pub const fn integer(min: u32, max: u32) -> Interval {
        Interval { min, max, openmin: false, openmax: false, integer: true, empty: false }
    }

    /// Everything (`snd_interval_any`).
    pub const fn any() -> Interval {
        Interval::new(0, u32::MAX)
    }

    fn none() -> Interval {
        Interval { empty: true, ..Interval::any() }
    }

    /// Holds exactly one value (`snd_interval_single`).
    pub fn is_single(&self) -> bool {
        self.min == self.max
            || (self.min.wrapping_add(1) == self.max && (self.openmin || self.openmax))
    }

    /// The value of a single interval (`snd_interval_value`).
    pub fn value(&self) -> u32 {
        if self.openmin && !self.openmax {
            self.max
        } else {
            self.min
        }
    }

    fn check_empty(&self) -> bool {
        self.min > self.max || (self.min == self.max && (self.openmin || self.openmax))
    }

    /// Narrows `self` to its intersection with `v` (`snd_interval_refine`):
    /// Ok(true) if something changed, EINVAL if nothing is left.
    pub fn refine(&mut self, v: &Interval) -> Result<bool, PcmError> {
        if self.empty || v.empty {
            return Err(PcmError::Inval);
        }
        let mut changed = false;
        if self.min < v.min {
            self.min = v.min;
            self.openmin = v.openmin;
            changed = true;
        } else if self.min == v.min && !self.openmin && v.openmin {
            self.openmin = true;
            changed = true;
        }
        if self.max > v.max {
            self.max = v.max;
            self.openmax = v.openmax;
            changed = true;
        } else if self.max == v.max && !self.openmax && v.openmax {
            self.openmax = true;
            changed = true;
        }
        if !self.integer && v.integer {
            self.integer = true;
            changed = true;
        }
        if self.integer {
            // An integer interval with an open end is the closed one a step in.
            if self.openmin {
                self.min = self.min.saturating_add(1);
                self.openmin = false;
            }
            if self.openmax {
                self.max = self.max.saturating_sub(1);
                self.openmax = false;
            }
        } else if !self.openmin && !self.openmax && self.min == self.max {
            self.integer = true;
        }
        if self.check_empty() {
            self.empty = true;
            return Err(PcmError::Inval);
        }
        Ok(changed)
    }

    /// Keeps the smallest value (`snd_interval_refine_first`).
    pub fn refine_first(&mut self) -> Result<bool, PcmError> {
        if self.empty {
            return Err(PcmError::Inval);
        }
        if self.is_single() {
            return Ok(false);
        }
        let last_max = self.max;
        self.max = if self.openmin { self.min.saturating_add(1) } else { self.min };
        self.openmax = self.openmax && self.max >= last_max;
        Ok(true)
    }

    /// Keeps the largest value (`snd_interval_refine_last`).
    pub fn refine_last(&mut self) -> Result<bool, PcmError> {
        if self.empty {
            return Err(PcmError::Inval);
        }
        if self.is_single() {
            return Ok(false);
        }
        let last_min = self.min;
        self.min = if self.openmax { self.max.saturating_sub(1) } else { self.max };
        self.openmin = self.openmin && self.min <= last_min;
        Ok(true)
    }

    /// `a * b` (`snd_interval_mul`): `muldivk` with k = 1, except that the
    /// product of two integer intervals is an integer interval.
    pub fn mul(a: &Interval, b: &Interval) -> Interval {
        Interval {
            integer: a.integer && b.integer && !(a.empty || b.empty),
            ..Interval::muldivk(a, b, 1)
        }
    }

    /// `a / b` (`snd_interval_div`): `mulkdiv` with k = 1.
    pub fn div(a: &Interval, b: &Interval) -> Interval {
        Interval::mulkdiv(a, 1, b)
    }

    /// `a * b / k` (`snd_interval_muldivk`): both ends scale the same way.
    pub fn muldivk(a: &Interval, b: &Interval, k: u32) -> Interval {
        if a.empty || b.empty {
            return Interval::none();
        }
        Interval::quotient(
            muldiv_rem(a.min, b.min, k),
            a.openmin || b.openmin,
            Some(muldiv_rem(a.max, b.max, k)),
            a.openmax || b.openmax,
        )
    }

    /// `a * k / b` (`snd_interval_mulkdiv`): the low end divides by b's
    /// high end and the high end by b's low end, which has none when b can be 0.
    pub fn mulkdiv(a: &Interval, k: u32, b: &Interval) -> Interval {
        if a.empty || b.empty {
            return Interval::none();
        }
        let max = (b.min > 0).then(|| muldiv_rem(a.max, k, b.min));
        Interval::quotient(
            muldiv_rem(a.min, k, b.max),
            a.openmin || b.openmax,
            max,
            a.openmax || b.openmin,
        )
    }

    /// The interval between two (quotient, remainder) ends, as pcm_lib.c
    /// builds it: a remainder at the low end opens it; one at the high end
    /// rounds it up and opens it, so no value that could satisfy the rule is
    /// lost. A missing high end (division by an interval reaching 0) is
    /// unbounded. `openmin`/`openmax` say whether the operands' ends were open.
    fn quotient(
        min: (u32, u32),
        openmin: bool,
        max: Option<(u32, u32)>,
        openmax: bool,
    ) -> Interval {
        let mut c = Interval { min: min.0, openmin: min.1 != 0 || openmin, ..Interval::any() };
        if let Some((q, r)) = max {
            c.max = if r != 0 { q.saturating_add(1) } else { q };
            c.openmax = r != 0 || openmax;
        }
        c
    }
}

/// `a * b / c` in 64 bits with its remainder, saturating to (`u32::MAX`, 0)
/// like `muldiv32` (so also for c = 0).
fn muldiv_rem(a: u32, b: u32, c: u32) -> (u32, u32) {
    if c == 0 {
        return (u32::MAX, 0);
    }
    let n = a as u64 * b as u64;
    let q = n / c as u64;
    if q >= u32::MAX as u64 {
        (u32::MAX, 0)
    } else {
        (q as u32, (n % c as u64) as u32)
    }
}

/// The decoded `struct snd_pcm_hw_params`. Only the fields the kernel reads
/// or writes are held; `write_to` updates them in the user's own 604 bytes so
/// reserved fields go back exactly as they came, as Linux's copy-back does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HwParams {
    pub flags: u32,
    /// access, format, subformat.
    pub masks: [Mask; 3],
    /// `SNDRV_PCM_HW_PARAM_SAMPLE_BITS` (8) .. `TICK_TIME` (19), indexed by param - 8.
    pub intervals: [Interval; 12],
    pub rmask: u32,
    pub cmask: u32,
    pub info: u32,
    pub msbits: u32,
    pub rate_num: u32,
    pub rate_den: u32,
    pub fifo_size: u32,
}

impl HwParams {
    /// What a program sends to ask "what can you do": everything allowed,
    /// every parameter requested (`_snd_pcm_hw_params_any` + rmask ~0).
    pub fn any() -> HwParams {
        HwParams {
            flags: 0,
            masks: [Mask::any(); 3],
            intervals: [Interval::any(); 12],
            rmask: u32::MAX,
            cmask: 0,
            info: 0,
            msbits: 0,
            rate_num: 0,
            rate_den: 0,
            fifo_size: 0,
        }
    }

    /// Decodes the user's struct.
    pub fn read_from(buf: &[u8; off::SIZE]) -> HwParams {
        let mut p = HwParams::any();
        p.flags = get_u32(buf, off::FLAGS);
        for (k, m) in p.masks.iter_mut().enumerate() {
            for (w, word) in m.bits.iter_mut().enumerate() {
                *word = get_u32(buf, off::MASKS + k * off::MASK_SIZE + w * 4);
            }
        }
        for (k, i) in p.intervals.iter_mut().enumerate() {
            let base = off::INTERVALS + k * off::INTERVAL_SIZE;
            let bits = get_u32(buf, base + 8);
            *i = Interval {
                min: get_u32(buf, base),
                max: get_u32(buf, base + 4),
                openmin: bits & off::OPENMIN != 0,
                openmax: bits & off::OPENMAX != 0,
                integer: bits & off::INTEGER != 0,
                empty: bits & off::EMPTY != 0,
            };
        }
        p.rmask = get_u32(buf, off::RMASK);
        p.cmask = get_u32(buf, off::CMASK);
        p.info = get_u32(buf, off::INFO);
        p.msbits = get_u32(buf, off::MSBITS);
        p.rate_num = get_u32(buf, off::RATE_NUM);
        p.rate_den = get_u32(buf, off::RATE_DEN);
        p.fifo_size = get_u32(buf, off::FIFO_SIZE);
        p
    }

    /// Encodes into the user's struct, leaving reserved bytes alone. The rest
    /// of the bit-field word (bits 0-27) is written as zero, as GCC would.
    pub fn write_to(&self, buf: &mut [u8; off::SIZE]) {
        put_u32(buf, off::FLAGS, self.flags);
        for (k, m) in self.masks.iter().enumerate() {
            for (w, word) in m.bits.iter().enumerate() {
                put_u32(buf, off::MASKS + k * off::MASK_SIZE + w * 4, *word);
            }
        }
        for (k, i) in self.intervals.iter().enumerate() {
            let base = off::INTERVALS + k * off::INTERVAL_SIZE;
            let mut bits = 0;
            for (set, bit) in [
                (i.openmin, off::OPENMIN),
                (i.openmax, off::OPENMAX),
                (i.integer, off::INTEGER),
                (i.empty, off::EMPTY),
            ] {
                if set {
                    bits |= bit;
                }
            }
            put_u32(buf, base, i.min);
            put_u32(buf, base + 4, i.max);
            put_u32(buf, base + 8, bits);
        }
        put_u32(buf, off::RMASK, self.rmask);
        put_u32(buf, off::CMASK, self.cmask);
        put_u32(buf, off::INFO, self.info);
        put_u32(buf, off::MSBITS, self.msbits);
        put_u32(buf, off::RATE_NUM, self.rate_num);
        put_u32(buf, off::RATE_DEN, self.rate_den);
        put_u32(buf, off::FIFO_SIZE, self.fifo_size);
    }

    /// The interval of parameter `param` (8..=19).
    pub fn interval(&self, param: usize) -> &Interval {
        &self.intervals[param - uapi::PARAM_FIRST_INTERVAL]
    }

    pub fn interval_mut(&mut self, param: usize) -> &mut Interval {
        &mut self.intervals[param - uapi::PARAM_FIRST_INTERVAL]
    }
}
