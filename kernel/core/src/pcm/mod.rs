//! pcm: the portable half of Sigil's pseudo ALSA playback device
//! `/dev/snd/pcmC0D0p` (char 116:16).
//!
//! A "pseudo DAC": it accepts samples and throws them away, but its hardware
//! pointer advances with time at the configured rate, exactly as a real sound
//! card's DMA pointer would, so a program driving it sees the same stream
//! life as on Linux: parameters, start, underruns, drain.
//!
//! Everything here is plain data and pure functions of "now" (a monotonic
//! nanosecond count the caller passes in). The kernel glue owns user memory
//! and file descriptors: it copies structs in and out using the layouts of
//! `uapi`, calls the `Stream` method for the decoded `PcmIoctl`, and turns a
//! `PcmError` into `-errno`. Blocking (DRAIN, a WRITEI that finds the buffer
//! full) is also the glue's: `Stream::wake_time_ns` says when to look again.
//!
//! - `uapi`    ioctl numbers, constants, struct offsets (checked against the
//!   cross compiler by `layout_tests`).
//! - `hw`      masks, intervals, the decoded hw_params struct.
//! - `refine`  HW_REFINE / HW_PARAMS: the device's limits and ALSA's rules.
//! - `stream`  the state machine and the pseudo DAC's pointers.
//! - `structs` sw_params, status, sync_ptr and info records, in and out.

pub mod hw;
pub mod refine;
pub mod stream;
pub mod structs;
pub mod uapi;

#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod tests;

pub use hw::{HwParams, Interval, Mask};
pub use refine::HwConfig;
pub use stream::{State, Stream};
pub use structs::{Status, SwParams, SyncPtrIn, SyncPtrOut};
pub use uapi::PcmIoctl;

/// What a PCM operation can fail with; `errno()` gives the Linux value the
/// glue returns negated. EFAULT is not here: only the glue touches user memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PcmError {
    /// EINVAL: an argument the device cannot satisfy or a bad pointer value.
    Inval,
    /// EBADFD: the ioctl is not allowed in the stream's current state.
    BadFd,
    /// EPIPE: the stream under-ran (XRUN), or just stopped because of it.
    Pipe,
    /// EAGAIN: no room in the buffer now (or a non-blocking drain in progress).
    Again,
    /// ENOTTY: not a PCM ioctl.
    NoTty,
    /// EBUSY: PREPARE while the stream runs.
    Busy,
}

impl PcmError {
    /// The positive Linux errno value.
    pub fn errno(self) -> i32 {
        match self {
            PcmError::Inval => 22,
            PcmError::BadFd => 77,
            PcmError::Pipe => 32,
            PcmError::Again => 11,
            PcmError::NoTty => 25,
            PcmError::Busy => 16,
        }
    }
}
