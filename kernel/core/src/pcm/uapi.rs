//! The ALSA PCM user ABI exactly as a ppc32 program compiles it from
//! `<sound/asound.h>`: ioctl numbers, constants and byte offsets of every
//! struct the kernel reads or writes.
//!
//! All numbers were produced by the cross compiler (`layout_probe.c`, run under
//! qemu-ppc); `layout_tests.rs` recompiles the probe and checks each constant
//! here against it. Multi-byte fields are big-endian `u32`s (ppc32:
//! `snd_pcm_uframes_t` and `long` are 4 bytes). Two layouts exist for the
//! structs holding a `struct timespec`: the default 32-bit `time_t` one
//! ("time32") and the `-D_TIME_BITS=64` one ("time64"); they get different
//! ioctl numbers because the size is encoded in the number.

use super::PcmError;

/// `SNDRV_PCM_VERSION` = protocol 2.0.15, answered by PVERSION.
pub const PCM_VERSION: u32 = 0x0002_000f;

/// The ioctls `/dev/snd/pcmC0D0p` understands, decoded from the raw number.
///
/// The powerpc `_IOC` encoding puts the direction in bits 29-31 (1 = none,
/// 2 = read, 4 = write, 6 = both), the size in bits 16-28, the type `'A'` in
/// bits 8-15 and the command in bits 0-7, so a layout with a different size is
/// a different ioctl: that is how the kernel tells time32 from time64 callers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum PcmIoctl {
    /// `_IOR('A', 0x00, int)`: write `PCM_VERSION` to the user's int.
    Pversion = 0x4004_4100,
    /// `_IOR('A', 0x01, snd_pcm_info)` (288 bytes).
    Info = 0x4120_4101,
    /// `_IOW('A', 0x02, int)`: obsolete, accepted and ignored.
    Tstamp = 0x8004_4102,
    /// `_IOW('A', 0x03, int)`: timestamp type (0 gettimeofday .. 2 monotonic raw).
    Ttstamp = 0x8004_4103,
    /// `_IOW('A', 0x04, int)`: the protocol version the program was built for.
    UserPversion = 0x8004_4104,
    /// `_IOWR('A', 0x10, snd_pcm_hw_params)` (604 bytes).
    HwRefine = 0xc25c_4110,
    /// `_IOWR('A', 0x11, snd_pcm_hw_params)`.
    HwParams = 0xc25c_4111,
    /// `_IO('A', 0x12)`.
    HwFree = 0x2000_4112,
    /// `_IOWR('A', 0x13, snd_pcm_sw_params)` (104 bytes).
    SwParams = 0xc068_4113,
    /// `_IOR('A', 0x20, snd_pcm_status)`, 108-byte time32 layout.
    Status32 = 0x406c_4120,
    /// The same with the 128-byte time64 layout.
    Status64 = 0x4080_4120,
    /// `_IOWR('A', 0x24, snd_pcm_status)`, time32: reads `audio_tstamp_data` first.
    StatusExt32 = 0xc06c_4124,
    /// The same with the time64 layout.
    StatusExt64 = 0xc080_4124,
    /// `_IOR('A', 0x21, snd_pcm_sframes_t)`.
    Delay = 0x4004_4121,
    /// `_IO('A', 0x22)`.
    Hwsync = 0x2000_4122,
    /// `_IOWR('A', 0x23, snd_pcm_sync_ptr)`, packed 132-byte time32 layout.
    SyncPtr32 = 0xc084_4123,
    /// The same with the 136-byte time64 layout.
    SyncPtr64 = 0xc088_4123,
    /// `_IO('A', 0x40)`.
    Prepare = 0x2000_4140,
    /// `_IO('A', 0x41)`.
    Reset = 0x2000_4141,
    /// `_IO('A', 0x42)`.
    Start = 0x2000_4142,
    /// `_IO('A', 0x43)`.
    Drop = 0x2000_4143,
    /// `_IO('A', 0x44)`.
    Drain = 0x2000_4144,
    /// `_IOW('A', 0x45, int)`: the int *value* (not a pointer) is 1 = pause, 0 = release.
    Pause = 0x8004_4145,
    /// `_IO('A', 0x48)`: force an xrun (used by tests and by alsa-lib).
    Xrun = 0x2000_4148,
    /// `_IOW('A', 0x50, snd_xferi)` (12 bytes).
    WriteiFrames = 0x800c_4150,
}

impl PcmIoctl {
    /// Every ioctl; each one's discriminant is its ppc32 number, the one
    /// place `from_raw` and `raw` read, so a number can never decode to one
    /// ioctl and encode to another.
    const ALL: [PcmIoctl; 25] = [
        PcmIoctl::Pversion,
        PcmIoctl::Info,
        PcmIoctl::Tstamp,
        PcmIoctl::Ttstamp,
        PcmIoctl::UserPversion,
        PcmIoctl::HwRefine,
        PcmIoctl::HwParams,
        PcmIoctl::HwFree,
        PcmIoctl::SwParams,
        PcmIoctl::Status32,
        PcmIoctl::Status64,
        PcmIoctl::StatusExt32,
        PcmIoctl::StatusExt64,
        PcmIoctl::Delay,
        PcmIoctl::Hwsync,
        PcmIoctl::SyncPtr32,
        PcmIoctl::SyncPtr64,
        PcmIoctl::Prepare,
        PcmIoctl::Reset,
        PcmIoctl::Start,
        PcmIoctl::Drop,
        PcmIoctl::Drain,
        PcmIoctl::Pause,
        PcmIoctl::Xrun,
        PcmIoctl::WriteiFrames,
    ];

    /// Decodes an ioctl request number; anything else is ENOTTY, as in
    /// Linux's `snd_pcm_common_ioctl`.
    pub fn from_raw(request: u32) -> Result<PcmIoctl, PcmError> {
        Self::ALL.iter().find(|c| c.raw() == request).copied().ok_or(PcmError::NoTty)
    }

    /// The ppc32 request number of this ioctl.
    pub const fn raw(self) -> u32 {
        self as u32
    }
}

/// `SNDRV_PCM_SYNC_PTR_*` flags: HWSYNC asks for a hardware pointer update
/// first; APPL and AVAIL_MIN mean "read the kernel's value" instead of
/// "write mine" (the bits select the direction of each control field).
pub const SYNC_PTR_HWSYNC: u32 = 1;
pub const SYNC_PTR_APPL: u32 = 2;
pub const SYNC_PTR_AVAIL_MIN: u32 = 4;

/// `SNDRV_PCM_ACCESS_RW_INTERLEAVED`, the only access this device offers.
pub const ACCESS_RW_INTERLEAVED: u32 = 3;
/// `SNDRV_PCM_FORMAT_*` numbers of the formats the device offers.
pub const FORMAT_S16_LE: u32 = 2;
pub const FORMAT_S16_BE: u32 = 3;
pub const FORMAT_S32_BE: u32 = 11;
/// `SNDRV_PCM_SUBFORMAT_STD`.
pub const SUBFORMAT_STD: u32 = 0;

/// `SNDRV_PCM_HW_PARAM_*`: indices 0-2 are masks, 8-19 intervals.
pub const PARAM_ACCESS: usize = 0;
pub const PARAM_FORMAT: usize = 1;
pub const PARAM_SUBFORMAT: usize = 2;
pub const PARAM_SAMPLE_BITS: usize = 8;
pub const PARAM_FRAME_BITS: usize = 9;
pub const PARAM_CHANNELS: usize = 10;
pub const PARAM_RATE: usize = 11;
pub const PARAM_PERIOD_TIME: usize = 12;
pub const PARAM_PERIOD_SIZE: usize = 13;
pub const PARAM_PERIOD_BYTES: usize = 14;
pub const PARAM_PERIODS: usize = 15;
pub const PARAM_BUFFER_TIME: usize = 16;
pub const PARAM_BUFFER_SIZE: usize = 17;
pub const PARAM_BUFFER_BYTES: usize = 18;
pub const PARAM_TICK_TIME: usize = 19;
pub const PARAM_FIRST_INTERVAL: usize = 8;
pub const PARAM_LAST_INTERVAL: usize = 19;

/// `SNDRV_PCM_INFO_*` bits this device reports.
pub const INFO_INTERLEAVED: u32 = 0x100;
pub const INFO_PAUSE: u32 = 0x8_0000;

/// `SNDRV_PCM_TSTAMP_ENABLE` (sw_params.tstamp_mode) and the highest
/// `SNDRV_PCM_TSTAMP_TYPE_*` (monotonic raw).
pub const TSTAMP_ENABLE: u32 = 1;
pub const TSTAMP_TYPE_LAST: u32 = 2;
/// `SNDRV_PROTOCOL_VERSION(2, 0, 12)`: from this protocol on, sw_params
/// carries `tstamp_type`.
pub const PROTO_TSTAMP_TYPE: u32 = 0x0002_000c;

/// Byte offsets of `struct snd_pcm_info` (288 bytes).
pub mod info {
    pub const SIZE: usize = 288;
    pub const DEVICE: usize = 0;
    pub const SUBDEVICE: usize = 4;
    pub const STREAM: usize = 8;
    pub const CARD: usize = 12;
    /// `unsigned char id[64]`.
    pub const ID: usize = 16;
    /// `unsigned char name[80]`.
    pub const NAME: usize = 80;
    /// `unsigned char subname[32]`.
    pub const SUBNAME: usize = 160;
    pub const DEV_CLASS: usize = 192;
    pub const DEV_SUBCLASS: usize = 196;
    pub const SUBDEVICES_COUNT: usize = 200;
    pub const SUBDEVICES_AVAIL: usize = 204;
}

/// Byte offsets of `struct snd_pcm_hw_params` (604 bytes):
///
/// ```text
///   0 flags
///   4 masks[3]      access, format, subformat: 8 u32 words each (256 bits)
/// 100 mres[5]       reserved masks
/// 260 intervals[12] sample_bits .. tick_time: {min, max, bit-field word}
/// 404 ires[9]       reserved intervals
/// 512 rmask  516 cmask  520 info  524 msbits  528 rate_num  532 rate_den
/// 536 fifo_size  540 reserved[64]
/// ```
pub mod hw_params {
    pub const SIZE: usize = 604;
    pub const FLAGS: usize = 0;
    pub const MASKS: usize = 4;
    pub const MASK_SIZE: usize = 32;
    pub const INTERVALS: usize = 260;
    pub const INTERVAL_SIZE: usize = 12;
    pub const RMASK: usize = 512;
    pub const CMASK: usize = 516;
    pub const INFO: usize = 520;
    pub const MSBITS: usize = 524;
    pub const RATE_NUM: usize = 528;
    pub const RATE_DEN: usize = 532;
    pub const FIFO_SIZE: usize = 536;
    /// Bits of an interval's third word. Big-endian GCC allocates bit-fields
    /// from the most significant bit, so `openmin:1` is bit 31, not bit 0.
    pub const OPENMIN: u32 = 0x8000_0000;
    pub const OPENMAX: u32 = 0x4000_0000;
    pub const INTEGER: u32 = 0x2000_0000;
    pub const EMPTY: u32 = 0x1000_0000;
}

/// Byte offsets of `struct snd_pcm_sw_params` (104 bytes).
pub mod sw_params {
    pub const SIZE: usize = 104;
    pub const TSTAMP_MODE: usize = 0;
    pub const PERIOD_STEP: usize = 4;
    pub const SLEEP_MIN: usize = 8;
    pub const AVAIL_MIN: usize = 12;
    pub const XFER_ALIGN: usize = 16;
    pub const START_THRESHOLD: usize = 20;
    pub const STOP_THRESHOLD: usize = 24;
    pub const SILENCE_THRESHOLD: usize = 28;
    pub const SILENCE_SIZE: usize = 32;
    pub const BOUNDARY: usize = 36;
    pub const PROTO: usize = 40;
    pub const TSTAMP_TYPE: usize = 44;
}

/// Byte offsets of `struct snd_pcm_status`. A timespec is (sec, nsec) as two
/// 4-byte words in time32, two 8-byte words in time64 (nsec's value in the low
/// word, i.e. at +12, because the machine is big-endian).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusLayout {
    pub size: usize,
    pub state: usize,
    pub trigger_tstamp: usize,
    pub tstamp: usize,
    pub appl_ptr: usize,
    pub hw_ptr: usize,
    pub delay: usize,
    pub avail: usize,
    pub avail_max: usize,
    pub overrange: usize,
    pub suspended_state: usize,
    pub audio_tstamp_data: usize,
    pub audio_tstamp: usize,
    pub driver_tstamp: usize,
    pub audio_tstamp_accuracy: usize,
    /// 8 for time32 timespecs, 16 for time64 ones.
    pub timespec_size: usize,
}

pub const STATUS32: StatusLayout = StatusLayout {
    size: 108,
    state: 0,
    trigger_tstamp: 4,
    tstamp: 12,
    appl_ptr: 20,
    hw_ptr: 24,
    delay: 28,
    avail: 32,
    avail_max: 36,
    overrange: 40,
    suspended_state: 44,
    audio_tstamp_data: 48,
    audio_tstamp: 52,
    driver_tstamp: 60,
    audio_tstamp_accuracy: 68,
    timespec_size: 8,
};

pub const STATUS64: StatusLayout = StatusLayout {
    size: 128,
    state: 0,
    trigger_tstamp: 8,
    tstamp: 24,
    appl_ptr: 40,
    hw_ptr: 44,
    delay: 48,
    avail: 52,
    avail_max: 56,
    overrange: 60,
    suspended_state: 64,
    audio_tstamp_data: 68,
    audio_tstamp: 72,
    driver_tstamp: 88,
    audio_tstamp_accuracy: 104,
    timespec_size: 16,
};

/// Byte offsets of `struct snd_pcm_sync_ptr`, the hot ioctl's argument.
///
/// ```text
/// time32 (132, packed)           time64 (136, align 8)
///   0 flags                        0 flags        4 pad
///   4 s.status.state               8 s.status.state
///  12 s.status.hw_ptr             20 s.status.hw_ptr (low half of 16..24)
///  16 tstamp.sec  20 .nsec        24 tstamp.sec (s64)  36 .nsec (low half)
///  24 suspended_state             40 suspended_state
///  28 audio_tstamp.sec 32 .nsec   48 audio_tstamp.sec  60 .nsec (low half)
///  68 c.control.appl_ptr          76 c.control.appl_ptr
///  72 c.control.avail_min         88 c.control.avail_min
/// ```
/// In time64 every field sits in an 8-byte slot; the odd 76/88 come from
/// `__snd_pcm_mmap_control64`, whose second pad uses the "before" padding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyncPtrLayout {
    pub size: usize,
    pub flags: usize,
    pub state: usize,
    pub hw_ptr: usize,
    pub tstamp_sec: usize,
    pub tstamp_nsec: usize,
    pub suspended_state: usize,
    pub audio_tstamp_sec: usize,
    pub audio_tstamp_nsec: usize,
    pub appl_ptr: usize,
    pub avail_min: usize,
}

pub const SYNC_PTR32: SyncPtrLayout = SyncPtrLayout {
    size: 132,
    flags: 0,
    state: 4,
    hw_ptr: 12,
    tstamp_sec: 16,
    tstamp_nsec: 20,
    suspended_state: 24,
    audio_tstamp_sec: 28,
    audio_tstamp_nsec: 32,
    appl_ptr: 68,
    avail_min: 72,
};

/// For the time64 layout, the `*_sec` offsets name the high word of an s64
/// (the seconds are written as a full s64), the `*_nsec` ones the low word.
pub const SYNC_PTR64: SyncPtrLayout = SyncPtrLayout {
    size: 136,
    flags: 0,
    state: 8,
    hw_ptr: 20,
    tstamp_sec: 24,
    tstamp_nsec: 36,
    suspended_state: 40,
    audio_tstamp_sec: 48,
    audio_tstamp_nsec: 60,
    appl_ptr: 76,
    avail_min: 88,
};

/// Byte offsets of `struct snd_xferi` (12 bytes): the result is written back,
/// `buf` is the user's sample pointer, `frames` the count requested.
pub mod xferi {
    pub const SIZE: usize = 12;
    pub const RESULT: usize = 0;
    pub const BUF: usize = 4;
    pub const FRAMES: usize = 8;
}

/// Reads the big-endian u32 at `off` (the ppc32 user's byte order).
pub fn get_u32(buf: &[u8], off: usize) -> u32 {
    u32::from_be_bytes([buf[off], buf[off + 1], buf[off + 2], buf[off + 3]])
}

/// Writes `v` big-endian at `off`.
pub fn put_u32(buf: &mut [u8], off: usize, v: u32) {
    buf[off..off + 4].copy_from_slice(&v.to_be_bytes());
}
