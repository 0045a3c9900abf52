//! Hardware-parameter refinement and choice for Sigil's one fixed device,
//! following `snd_pcm_hw_refine` / `snd_pcm_hw_params_choose` in Linux's
//! `sound/core/pcm_native.c`.
//!
//! The device: RW interleaved access; S16_LE, S16_BE or S32_BE; 1-2 channels;
//! any rate from 8000 to 48000 Hz; periods of 64 B .. 32 KiB, 2..256 of them,
//! at most 128 KiB of buffer. Refining intersects the program's sets with
//! these, then runs the core's rules (frame_bits = sample_bits * channels,
//! buffer_size = period_size * periods, period_bytes = period_size *
//! frame_bits / 8, period_time = period_size * 1e6 / rate, ...) until no
//! interval shrinks any more. Who calls: the PCM ioctl glue (HW_REFINE,
//! HW_PARAMS) and `Stream::choose_hw_params`.

use super::hw::{HwParams, Interval, Mask};
use super::uapi::*;
use super::PcmError;

/// `runtime->hw.info` of the device: what `params.info` reports.
pub const DEVICE_INFO: u32 = INFO_INTERLEAVED | INFO_PAUSE;

/// The device's own limits, one per parameter (`snd_pcm_hw_constraints_init`
/// and `_complete`). Period size and periods are whole numbers here, as most
/// drivers require with `snd_pcm_hw_constraint_integer`.
fn device_masks() -> [Mask; 3] {
    [
        Mask::of(&[ACCESS_RW_INTERLEAVED]),
        Mask::of(&[FORMAT_S16_LE, FORMAT_S16_BE, FORMAT_S32_BE]),
        Mask::of(&[SUBFORMAT_STD]),
    ]
}

const DEVICE_INTERVALS: [Interval; 12] = [
    Interval::integer(0, u32::MAX),    // sample_bits
    Interval::integer(0, u32::MAX),    // frame_bits
    Interval::integer(1, 2),           // channels
    Interval::new(8000, 48000),        // rate
    Interval::any(),                   // period_time (us)
    Interval::integer(0, u32::MAX),    // period_size (frames)
    Interval::new(64, 32 * 1024),      // period_bytes
    Interval::integer(2, 256),         // periods
    Interval::any(),                   // buffer_time (us)
    Interval::integer(0, u32::MAX),    // buffer_size (frames)
    Interval::integer(64, 128 * 1024), // buffer_bytes
    Interval::any(),                   // tick_time
];

/// Physical width in bits of `SNDRV_PCM_FORMAT_*` 0..=52 (`pcm_formats[]` in
/// `sound/core/pcm_misc.c`), 0 for unused numbers and formats without one.
/// The format rule needs every format, not just ours: a program that leaves
/// FORMAT out of rmask keeps its full mask through the rules.
const FORMAT_PHYS_BITS: [u8; 53] = [
    8, 8, 16, 16, 16, 16, 32, 32, 32, 32, // S8 U8 S16 U16 S24 U24
    32, 32, 32, 32, 32, 32, 64, 64, 32, 32, // S32 U32 FLOAT FLOAT64 IEC958
    8, 8, 4, 0, 0, 32, 32, 32, 32, 0, // MU_LAW A_LAW IMA_ADPCM MPEG GSM S20 U20 (29)
    0, 0, 24, 24, 24, 24, 24, 24, 24, 24, // (30) SPECIAL S24_3 U24_3 S20_3 U20_3
    24, 24, 24, 24, 3, 8, 5, 8, 8, 16, // S18_3 U18_3 G723_24 G723_40 DSD_U8 DSD_U16_LE
    32, 16, 32, // DSD_U32_LE DSD_U16_BE DSD_U32_BE
];

/// How a rule computes its parameter from its dependencies.
#[derive(Clone, Copy)]
enum Op {
    /// Formats whose width lies in the sample_bits interval (`snd_pcm_hw_rule_format`).
    FormatFromBits,
    /// Width range of the formats still allowed (`snd_pcm_hw_rule_sample_bits`).
    BitsFromFormat,
    Mul(usize, usize),
    Div(usize, usize),
    MulDivK(usize, usize, u32),
    MulKDiv(usize, u32, usize),
}

/// One `snd_pcm_hw_rule`: `var` is refined by `op` over `deps`.
struct Rule {
    var: usize,
    op: Op,
    deps: [usize; 2],
}

const fn rule(var: usize, op: Op) -> Rule {
    let deps = match op {
        Op::FormatFromBits => [PARAM_SAMPLE_BITS, PARAM_SAMPLE_BITS],
        Op::BitsFromFormat => [PARAM_FORMAT, PARAM_FORMAT],
        Op::Mul(a, b) | Op::Div(a, b) | Op::MulDivK(a, b, _) | Op::MulKDiv(a, _, b) => [a, b],
    };
    Rule { var, op, deps }
}

/// The core rules, in the order `snd_pcm_hw_constraints_init` adds them.
const RULES: [Rule; 20] = [
    rule(PARAM_FORMAT, Op::FormatFromBits),
    rule(PARAM_SAMPLE_BITS, Op::BitsFromFormat),
    rule(PARAM_SAMPLE_BITS, Op::Div(PARAM_FRAME_BITS, PARAM_CHANNELS)),
    rule(PARAM_FRAME_BITS, Op::Mul(PARAM_SAMPLE_BITS, PARAM_CHANNELS)),
    rule(PARAM_FRAME_BITS, Op::MulKDiv(PARAM_PERIOD_BYTES, 8, PARAM_PERIOD_SIZE)),
    rule(PARAM_FRAME_BITS, Op::MulKDiv(PARAM_BUFFER_BYTES, 8, PARAM_BUFFER_SIZE)),
    rule(PARAM_CHANNELS, Op::Div(PARAM_FRAME_BITS, PARAM_SAMPLE_BITS)),
    rule(PARAM_RATE, Op::MulKDiv(PARAM_PERIOD_SIZE, 1_000_000, PARAM_PERIOD_TIME)),
    rule(PARAM_RATE, Op::MulKDiv(PARAM_BUFFER_SIZE, 1_000_000, PARAM_BUFFER_TIME)),
    rule(PARAM_PERIODS, Op::Div(PARAM_BUFFER_SIZE, PARAM_PERIOD_SIZE)),
    rule(PARAM_PERIOD_SIZE, Op::Div(PARAM_BUFFER_SIZE, PARAM_PERIODS)),
    rule(PARAM_PERIOD_SIZE, Op::MulKDiv(PARAM_PERIOD_BYTES, 8, PARAM_FRAME_BITS)),
    rule(PARAM_PERIOD_SIZE, Op::MulDivK(PARAM_PERIOD_TIME, PARAM_RATE, 1_000_000)),
    rule(PARAM_BUFFER_SIZE, Op::Mul(PARAM_PERIOD_SIZE, PARAM_PERIODS)),
    rule(PARAM_BUFFER_SIZE, Op::MulKDiv(PARAM_BUFFER_BYTES, 8, PARAM_FRAME_BITS)),
    rule(PARAM_BUFFER_SIZE, Op::MulDivK(PARAM_BUFFER_TIME, PARAM_RATE, 1_000_000)),
    rule(PARAM_PERIOD_BYTES, Op::MulDivK(PARAM_PERIOD_SIZE, PARAM_FRAME_BITS, 8)),
    rule(PARAM_BUFFER_BYTES, Op::MulDivK(PARAM_BUFFER_SIZE, PARAM_FRAME_BITS, 8)),
    rule(PARAM_PERIOD_TIME, Op::MulKDiv(PARAM_PERIOD_SIZE, 1_000_000, PARAM_RATE)),
    rule(PARAM_BUFFER_TIME, Op::MulKDiv(PARAM_BUFFER_SIZE, 1_000_000, PARAM_RATE)),
];

/// Applies one rule; Ok(true) if its parameter shrank.
fn apply(p: &mut HwParams, r: &Rule) -> Result<bool, PcmError> {
    let iv = |k: usize| *p.interval(k);
    let t = match r.op {
        Op::FormatFromBits => {
            let bits = iv(PARAM_SAMPLE_BITS);
            let fmt = &p.masks[PARAM_FORMAT];
            let mut keep = Mask::any();
            for (f, &w) in FORMAT_PHYS_BITS.iter().enumerate() {
                let w = w as u32;
                if fmt.test(f as u32) && w > 0 && (w < bits.min || w > bits.max) {
                    keep.bits[f / 32] &= !(1 << (f % 32));
                }
            }
            return p.masks[PARAM_FORMAT].refine(&keep);
        }
        Op::BitsFromFormat => {
            let fmt = &p.masks[PARAM_FORMAT];
            let mut t = Interval { min: u32::MAX, max: 0, integer: true, ..Interval::any() };
            for (f, &w) in FORMAT_PHYS_BITS.iter().enumerate() {
                if fmt.test(f as u32) && w > 0 {
                    t.min = t.min.min(w as u32);
                    t.max = t.max.max(w as u32);
                }
            }
            t
        }
        Op::Mul(a, b) => Interval::mul(&iv(a), &iv(b)),
        Op::Div(a, b) => Interval::div(&iv(a), &iv(b)),
        Op::MulDivK(a, b, k) => Interval::muldivk(&iv(a), &iv(b), k),
        Op::MulKDiv(a, k, b) => Interval::mulkdiv(&iv(a), k, &iv(b)),
    };
    p.interval_mut(r.var).refine(&t)
}

/// `snd_pcm_hw_refine`: narrows every parameter named in `rmask` to what the
/// device allows, then reruns the rules until nothing changes. Each changed
/// parameter is reported in `cmask`; `rmask` is cleared. EINVAL when some
/// parameter ends up empty (the request cannot be satisfied).
pub fn refine(p: &mut HwParams) -> Result<(), PcmError> {
    p.info = 0;
    p.fifo_size = 0;
    if p.rmask & (1 << PARAM_SAMPLE_BITS) != 0 {
        p.msbits = 0;
    }
    if p.rmask & (1 << PARAM_RATE) != 0 {
        p.rate_num = 0;
        p.rate_den = 0;
    }
    for (k, dev) in device_masks().iter().enumerate() {
        if p.rmask & (1 << k) != 0 && p.masks[k].refine(dev)? {
            p.cmask |= 1 << k;
        }
    }
    for (k, dev) in DEVICE_INTERVALS.iter().enumerate() {
        let param = k + PARAM_FIRST_INTERVAL;
        if p.rmask & (1 << param) != 0 && p.intervals[k].refine(dev)? {
            p.cmask |= 1 << param;
        }
    }
    // Time stamps, as in constrain_params_by_rules: a rule runs only when one
    // of its inputs changed after its own last run. Parameters outside rmask
    // start at 0, older than any rule run, so they feed rules only once
    // another rule has changed them.
    let mut vstamp = [0u32; PARAM_LAST_INTERVAL + 1];
    for (k, v) in vstamp.iter_mut().enumerate() {
        *v = (p.rmask >> k) & 1;
    }
    let mut rstamp = [0u32; RULES.len()];
    let mut stamp = 2;
    loop {
        let mut again = false;
        for (k, r) in RULES.iter().enumerate() {
            if r.deps.iter().all(|&d| vstamp[d] <= rstamp[k]) {
                continue;
            }
            if apply(p, r)? {
                p.cmask |= 1 << r.var;
                vstamp[r.var] = stamp;
                again = true;
            }
            rstamp[k] = stamp;
            stamp += 1;
        }
        if !again {
            break;
        }
    }
    p.rmask = 0;
    Ok(())
}

/// `fixup_unreferenced_params`: fills the read-only results a program sees
/// after HW_REFINE or HW_PARAMS. The FIFO size stays 0 (no FIFO).
pub fn fixup(p: &mut HwParams) {
    if p.msbits == 0 {
        let sb = p.interval(PARAM_SAMPLE_BITS);
        if sb.is_single() {
            p.msbits = sb.value();
        }
    }
    if p.rate_den == 0 {
        let rate = p.interval(PARAM_RATE);
        if rate.is_single() {
            p.rate_num = rate.value();
            p.rate_den = 1;
        }
    }
    if p.info == 0 {
        p.info = DEVICE_INFO;
    }
}

/// The configuration HW_PARAMS settles on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HwConfig {
    pub access: u32,
    pub format: u32,
    pub channels: u32,
    pub rate: u32,
    pub sample_bits: u32,
    pub frame_bits: u32,
    pub period_size: u32,
    pub periods: u32,
    pub buffer_size: u32,
}

impl HwConfig {
    /// Bytes per frame: how much user memory one frame of WRITEI covers.
    pub fn frame_bytes(&self) -> u32 {
        self.frame_bits / 8
    }
}

/// The HW_PARAMS computation (`snd_pcm_hw_params` minus the state checks):
/// refine everything, then pick one value per parameter in
/// `snd_pcm_hw_params_choose` order - the first access, format and subformat,
/// the fewest channels, the lowest rate, the shortest period time, the
/// largest buffer size, the lowest tick time - refining again after each
/// pick, so later picks stay consistent with earlier ones.
pub fn hw_params(p: &mut HwParams) -> Result<HwConfig, PcmError> {
    p.rmask = u32::MAX;
    refine(p)?;
    const CHOOSE: [usize; 8] = [
        PARAM_ACCESS,
        PARAM_FORMAT,
        PARAM_SUBFORMAT,
        PARAM_CHANNELS,
        PARAM_RATE,
        PARAM_PERIOD_TIME,
        PARAM_BUFFER_SIZE,
        PARAM_TICK_TIME,
    ];
    for &var in CHOOSE.iter() {
        let changed = if var <= PARAM_SUBFORMAT {
            p.masks[var].refine_first()?
        } else if var == PARAM_BUFFER_SIZE {
            p.interval_mut(var).refine_last()?
        } else {
            p.interval_mut(var).refine_first()?
        };
        if changed {
            p.cmask |= 1 << var;
            p.rmask |= 1 << var;
            refine(p)?;
        }
    }
    fixup(p);
    let value = |k: usize| p.interval(k).value();
    let cfg = HwConfig {
        access: p.masks[PARAM_ACCESS].min().ok_or(PcmError::Inval)?,
        format: p.masks[PARAM_FORMAT].min().ok_or(PcmError::Inval)?,
        channels: value(PARAM_CHANNELS),
        rate: value(PARAM_RATE),
        sample_bits: value(PARAM_SAMPLE_BITS),
        frame_bits: value(PARAM_FRAME_BITS),
        period_size: value(PARAM_PERIOD_SIZE),
        periods: value(PARAM_PERIODS),
        buffer_size: value(PARAM_BUFFER_SIZE),
    };
    if cfg.buffer_size == 0 || cfg.rate == 0 || !cfg.frame_bits.is_multiple_of(8) {
        return Err(PcmError::Inval);
    }
    Ok(cfg)
}
