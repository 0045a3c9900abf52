//! The records a PCM ioctl carries between user and kernel, beyond
//! hw_params: sw_params (SW_PARAMS), status (STATUS, STATUS_EXT), sync_ptr
//! (SYNC_PTR, the hot path), info (INFO); their decode/encode for the ppc32
//! layouts of `uapi`, and the `Stream` methods that produce them.
//!
//! SYNC_PTR is one pure function, `Stream::sync_ptr`, shared by the glue's
//! three user-access strategies (per-field get/put_user, whole-struct copies,
//! one read window + one write window): they differ only in how the 3 input
//! and 9 output words cross the user boundary. (The window way calls its two
//! halves, `sync_ptr_check` and `sync_ptr_answer`, on either side of opening
//! its write window.)

use super::stream::{split_ns, State, Stream};
use super::uapi::{self, get_u32, info, put_u32, sw_params as sw, StatusLayout, SyncPtrLayout};
use super::uapi::{PROTO_TSTAMP_TYPE, SYNC_PTR_APPL, SYNC_PTR_AVAIL_MIN, SYNC_PTR_HWSYNC};
use super::uapi::{TSTAMP_ENABLE, TSTAMP_TYPE_LAST};
use super::PcmError;

/// `struct snd_pcm_sw_params` (104 bytes), decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SwParams {
    pub tstamp_mode: u32,
    pub period_step: u32,
    pub sleep_min: u32,
    pub avail_min: u32,
    pub xfer_align: u32,
    pub start_threshold: u32,
    pub stop_threshold: u32,
    pub silence_threshold: u32,
    pub silence_size: u32,
    pub boundary: u32,
    pub proto: u32,
    pub tstamp_type: u32,
}

const SW_FIELDS: [usize; 12] = [
    sw::TSTAMP_MODE,
    sw::PERIOD_STEP,
    sw::SLEEP_MIN,
    sw::AVAIL_MIN,
    sw::XFER_ALIGN,
    sw::START_THRESHOLD,
    sw::STOP_THRESHOLD,
    sw::SILENCE_THRESHOLD,
    sw::SILENCE_SIZE,
    sw::BOUNDARY,
    sw::PROTO,
    sw::TSTAMP_TYPE,
];

impl SwParams {
    fn fields(&mut self) -> [&mut u32; 12] {
        [
            &mut self.tstamp_mode,
            &mut self.period_step,
            &mut self.sleep_min,
            &mut self.avail_min,
            &mut self.xfer_align,
            &mut self.start_threshold,
            &mut self.stop_threshold,
            &mut self.silence_threshold,
            &mut self.silence_size,
            &mut self.boundary,
            &mut self.proto,
            &mut self.tstamp_type,
        ]
    }

    pub fn read_from(buf: &[u8; sw::SIZE]) -> SwParams {
        let mut p = SwParams::default();
        for (f, off) in p.fields().into_iter().zip(SW_FIELDS) {
            *f = get_u32(buf, off);
        }
        p
    }

    /// Writes the fields back; the reserved tail is left as the user sent it.
    pub fn write_to(&self, buf: &mut [u8; sw::SIZE]) {
        let mut p = *self;
        for (f, off) in p.fields().into_iter().zip(SW_FIELDS) {
            put_u32(buf, off, *f);
        }
    }
}

/// What STATUS reports (`struct snd_pcm_status64` in the kernel). Times are
/// (sec, nsec) of the caller's monotonic clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Status {
    pub state: u32,
    pub trigger_tstamp: (i64, u32),
    pub tstamp: (i64, u32),
    pub appl_ptr: u32,
    pub hw_ptr: u32,
    pub delay: i32,
    pub avail: u32,
    pub avail_max: u32,
    pub overrange: u32,
    pub suspended_state: u32,
    pub audio_tstamp_data: u32,
    pub audio_tstamp: (i64, u32),
    pub driver_tstamp: (i64, u32),
    pub audio_tstamp_accuracy: u32,
}

impl Status {
    /// Encodes into a zeroed buffer of `l.size` bytes (STATUS copies the
    /// whole struct; reserved bytes "must be filled with zero").
    pub fn write_to(&self, buf: &mut [u8], l: &StatusLayout) {
        buf[..l.size].fill(0);
        let ts = |buf: &mut [u8], off: usize, (sec, nsec): (i64, u32)| {
            if l.timespec_size == 8 {
                put_u32(buf, off, sec as u32);
                put_u32(buf, off + 4, nsec);
            } else {
                buf[off..off + 8].copy_from_slice(&sec.to_be_bytes());
                buf[off + 8..off + 16].copy_from_slice(&(nsec as i64).to_be_bytes());
            }
        };
        put_u32(buf, l.state, self.state);
        ts(buf, l.trigger_tstamp, self.trigger_tstamp);
        ts(buf, l.tstamp, self.tstamp);
        put_u32(buf, l.appl_ptr, self.appl_ptr);
        put_u32(buf, l.hw_ptr, self.hw_ptr);
        put_u32(buf, l.delay, self.delay as u32);
        put_u32(buf, l.avail, self.avail);
        put_u32(buf, l.avail_max, self.avail_max);
        put_u32(buf, l.overrange, self.overrange);
        put_u32(buf, l.suspended_state, self.suspended_state);
        put_u32(buf, l.audio_tstamp_data, self.audio_tstamp_data);
        ts(buf, l.audio_tstamp, self.audio_tstamp);
        ts(buf, l.driver_tstamp, self.driver_tstamp);
        put_u32(buf, l.audio_tstamp_accuracy, self.audio_tstamp_accuracy);
    }
}

/// The three words SYNC_PTR reads from the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SyncPtrIn {
    pub flags: u32,
    pub appl_ptr: u32,
    pub avail_min: u32,
}

impl SyncPtrIn {
    /// Decodes from a copy of the user's struct in layout `l`.
    pub fn read_from(buf: &[u8], l: &SyncPtrLayout) -> SyncPtrIn {
        SyncPtrIn {
            flags: get_u32(buf, l.flags),
            appl_ptr: get_u32(buf, l.appl_ptr),
            avail_min: get_u32(buf, l.avail_min),
        }
    }
}

/// The nine values SYNC_PTR writes back, in `snd_pcm_ioctl_sync_ptr_compat`'s
/// put_user order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SyncPtrOut {
    pub state: u32,
    pub hw_ptr: u32,
    pub tstamp_sec: i64,
    pub tstamp_nsec: u32,
    pub suspended_state: u32,
    pub audio_tstamp_sec: i64,
    pub audio_tstamp_nsec: u32,
    pub appl_ptr: u32,
    pub avail_min: u32,
}

impl SyncPtrOut {
    /// The word stores that answer a SYNC_PTR in layout `l`: `store(offset,
    /// word)` for each, in `snd_pcm_ioctl_sync_ptr_compat`'s put_user order,
    /// stopping at the first error.
    ///
    /// time32: the 9 values. time64: every value fills its 8-byte slot, so
    /// the other half is stored too (zero pads and high halves, the high
    /// word of the s64 seconds): 16 words, as Linux's memset-then-fill
    /// struct leaves them. The flags, the control pads and the reserved
    /// bytes are not touched, so the three SYNC_PTR ways (a put_user per
    /// store, one window of stores, stores into a copy of the whole struct)
    /// leave identical bytes behind.
    ///
    /// A visitor, not an iterator over a built list: this runs on every
    /// SYNC_PTR, and a list of 16 pairs returned by value costs a memset and
    /// a memcpy of 128 bytes per call (~500 instructions) for 9 stores.
    ///
    /// Inlined, like `stores`: called with a constant layout, every offset
    /// becomes an immediate, and a window's bound check of each store folds
    /// away (the window's length is the layout's size).
    #[inline(always)]
    pub fn try_stores<E>(
        &self,
        l: &SyncPtrLayout,
        mut store: impl FnMut(usize, u32) -> Result<(), E>,
    ) -> Result<(), E> {
        let time64 = l.size == uapi::SYNC_PTR64.size;
        // A timespec: time64 seconds are an s64 at `sec` (high word first),
        // time64 nanoseconds the low word of an s64 whose high word is 0.
        // A generic fn, not a closure over `&mut dyn FnMut`: the dyn call
        // kept each store out of line, its bound check included.
        #[inline(always)]
        fn timespec<E>(
            store: &mut impl FnMut(usize, u32) -> Result<(), E>,
            time64: bool,
            (sec_off, sec): (usize, i64),
            (nsec_off, nsec): (usize, u32),
        ) -> Result<(), E> {
            if time64 {
                store(sec_off, (sec >> 32) as u32)?;
                store(sec_off + 4, sec as u32)?;
                store(nsec_off - 4, 0)?;
            } else {
                store(sec_off, sec as u32)?;
            }
            store(nsec_off, nsec)
        }
        store(l.state, self.state)?;
        if time64 {
            store(l.state + 4, 0)?; // pad1
            store(l.hw_ptr - 4, 0)?; // __pad_before_uframe
        }
        store(l.hw_ptr, self.hw_ptr)?;
        timespec(
            &mut store,
            time64,
            (l.tstamp_sec, self.tstamp_sec),
            (l.tstamp_nsec, self.tstamp_nsec),
        )?;
        store(l.suspended_state, self.suspended_state)?;
        if time64 {
            store(l.suspended_state + 4, 0)?; // pad3
        }
        timespec(
            &mut store,
            time64,
            (l.audio_tstamp_sec, self.audio_tstamp_sec),
            (l.audio_tstamp_nsec, self.audio_tstamp_nsec),
        )?;
        store(l.appl_ptr, self.appl_ptr)?;
        store(l.avail_min, self.avail_min)
    }

    /// `try_stores` for a store that cannot fail.
    #[inline(always)]
    pub fn stores(&self, l: &SyncPtrLayout, mut store: impl FnMut(usize, u32)) {
        let _ = self.try_stores::<()>(l, |off, v| {
            store(off, v);
            Ok(())
        });
    }
}

/// Fills `struct snd_pcm_info` for card 0, device 0, playback (INFO).
pub fn write_info(buf: &mut [u8; info::SIZE]) {
    buf.fill(0);
    // device, subdevice, stream (0 = playback), card: all 0.
    buf[info::ID..info::ID + 9].copy_from_slice(b"Sigil PCM");
    buf[info::NAME..info::NAME + 16].copy_from_slice(b"Sigil pseudo DAC");
    buf[info::SUBNAME..info::SUBNAME + 12].copy_from_slice(b"subdevice #0");
    put_u32(buf, info::SUBDEVICES_COUNT, 1);
    // subdevices_avail = count - opened: the caller holds the only one.
    put_u32(buf, info::SUBDEVICES_AVAIL, 0);
}

impl Stream {
    /// SW_PARAMS, its checking half (`snd_pcm_sw_params` up to the
    /// assignments): any state but OPEN; fills `p.boundary` when the values
    /// are acceptable. Changes nothing: the glue copies `p` back (Linux does,
    /// whatever the outcome) and only then applies it with `apply_sw_params`,
    /// so a bad pointer or bad values leave the stream as it was.
    pub fn check_sw_params(&self, p: &mut SwParams) -> Result<(), PcmError> {
        if self.state == State::Open {
            return Err(PcmError::BadFd);
        }
        if p.tstamp_mode > TSTAMP_ENABLE
            || (p.proto >= PROTO_TSTAMP_TYPE && p.tstamp_type > TSTAMP_TYPE_LAST)
            || p.avail_min == 0
        {
            return Err(PcmError::Inval);
        }
        if p.silence_size >= self.boundary {
            if p.silence_threshold != 0 {
                return Err(PcmError::Inval);
            }
        } else if p.silence_size > p.silence_threshold
            || p.silence_threshold > self.config().map_or(0, |c| c.buffer_size)
        {
            return Err(PcmError::Inval);
        }
        p.boundary = self.boundary;
        Ok(())
    }

    /// SW_PARAMS, its applying half, for values `check_sw_params` accepted.
    /// A running stream is re-checked against the new thresholds at once,
    /// so the call can return EPIPE after applying them.
    pub fn apply_sw_params(&mut self, p: &SwParams, now: u64) -> Result<(), PcmError> {
        self.tstamp_mode = p.tstamp_mode;
        if p.proto >= PROTO_TSTAMP_TYPE {
            self.tstamp_type = p.tstamp_type;
        }
        self.period_step = p.period_step;
        self.avail_min = p.avail_min;
        self.start_threshold = p.start_threshold;
        self.stop_threshold = p.stop_threshold;
        self.silence_threshold = p.silence_threshold;
        self.silence_size = p.silence_size;
        self.update(now)
    }

    /// STATUS / STATUS_EXT (`snd_pcm_status64`). `audio_tstamp_data` is the
    /// word STATUS_EXT reads from the user (0 for STATUS): its low 4 bits
    /// request an audio timestamp type; any non-zero type marks the report
    /// valid (bit 4), the type stays 0 as for a driver without get_time_info.
    /// Linux also resets avail_max here; the glue calls `clear_avail_max`
    /// once the report has reached the user, so a bad pointer loses nothing.
    pub fn status(&mut self, audio_tstamp_data: u32, now: u64) -> Status {
        let mut s = Status { state: self.state as u32, audio_tstamp_data, ..Status::default() };
        if self.state == State::Open {
            return s;
        }
        s.trigger_tstamp = self.trigger_tstamp;
        let running = matches!(self.state, State::Running | State::Draining);
        if running {
            let _ = self.update(now);
            if self.tstamp_mode == TSTAMP_ENABLE {
                s.tstamp = self.tstamp;
                s.driver_tstamp = self.driver_tstamp;
                s.audio_tstamp = self.audio_tstamp;
                if audio_tstamp_data & 0xf != 0 {
                    s.audio_tstamp_data = 1 << 4;
                }
            }
        } else if self.tstamp_mode == TSTAMP_ENABLE {
            s.tstamp = split_ns(now);
        }
        // The update may have stopped the stream.
        s.state = self.state as u32;
        s.appl_ptr = self.appl_ptr;
        s.hw_ptr = self.hw_ptr;
        s.avail = self.avail();
        s.delay = if running { self.hw_avail() as i32 } else { 0 };
        s.avail_max = self.avail_max;
        s
    }

    /// After a STATUS was delivered: avail_max counts afresh.
    pub fn clear_avail_max(&mut self) {
        self.avail_max = 0;
    }

    /// SYNC_PTR (`snd_pcm_ioctl_sync_ptr_compat` / `snd_pcm_sync_ptr`), its
    /// answering half; `sync_ptr_commit` stores the program's values once the
    /// answer has reached it, so a bad pointer changes nothing the program set.
    ///
    /// 1. HWSYNC flag: update the hardware pointer first (`do_pcm_hwsync`:
    ///    EBADFD in OPEN/SETUP, EPIPE in XRUN; then nothing else happens).
    ///    Only time moves the pointer, so this is not a change to undo.
    /// 2. APPL flag clear: the user's appl_ptr is checked (EINVAL if refused)
    ///    and echoed; set: the stream's is returned.
    /// 3. AVAIL_MIN flag clear: the user's avail_min is echoed; set: the
    ///    stream's is returned.
    /// 4. State, hw_ptr, timestamps are snapshotted for the answer.
    ///
    /// Without HWSYNC it is accepted in every state, OPEN included (all zero
    /// there, and only appl_ptr 0 is accepted: the boundary is still 0).
    /// Linux's compat path reports the pointers modulo the boundary
    /// (0x7fffffff before HW_PARAMS); here they are below it already
    /// (`Stream`'s invariant: every change keeps them there, and in OPEN
    /// both are zero), so the modulo is the identity and is not computed.
    ///
    /// `now` is called only for HWSYNC: a SYNC_PTR without it (alsa-lib's
    /// usual one, and the bench's) answers from the stream as it stands, and
    /// reading the clock (the timebase and its scaling) would be a quarter
    /// of what the rest costs.
    ///
    /// Inlined into the glue's SYNC_PTR (the hot ioctl): out of line it
    /// saved and restored 13 registers and returned the answer through
    /// memory, about half of its own cost.
    #[inline(always)]
    pub fn sync_ptr(
        &mut self,
        input: SyncPtrIn,
        now: impl FnOnce() -> u64,
    ) -> Result<SyncPtrOut, PcmError> {
        self.sync_ptr_check(input, now)?;
        Ok(self.sync_ptr_answer(input))
    }

    /// `sync_ptr`'s steps 1 and 2, the ones that can fail: the HWSYNC
    /// update and the check of the user's appl_ptr.
    #[inline(always)]
    pub fn sync_ptr_check(
        &mut self,
        input: SyncPtrIn,
        now: impl FnOnce() -> u64,
    ) -> Result<(), PcmError> {
        if input.flags & SYNC_PTR_HWSYNC != 0 {
            self.hwsync(now())?;
        }
        if input.flags & SYNC_PTR_APPL == 0 {
            self.check_appl_ptr(input.appl_ptr)?;
        }
        Ok(())
    }

    /// The usual call, which leaves `sync_ptr_check` nothing to do (no
    /// HWSYNC, the appl_ptr the stream has or none): the glue answers it
    /// without calling out (a call there kept the inputs in saved
    /// registers). None when the check has work.
    ///
    /// Some(the input as the program writing the stream's own appl_ptr,
    /// the APPL flag clear): what it asked for, the stream's or the same
    /// value of its own, answers and commits the same, and the flag known
    /// clear spares `sync_ptr_answer` its choice between the two.
    ///
    /// The pointers are compared before the APPL flag is tested: they are
    /// equal in the usual call whatever the flag, which then costs nothing.
    #[inline(always)]
    pub fn sync_ptr_unchecked(&self, input: SyncPtrIn) -> Option<SyncPtrIn> {
        let needs_check = input.flags & SYNC_PTR_HWSYNC != 0
            || (input.appl_ptr != self.appl_ptr && input.flags & SYNC_PTR_APPL == 0);
        let flags = input.flags & !SYNC_PTR_APPL;
        (!needs_check).then_some(SyncPtrIn { flags, appl_ptr: self.appl_ptr, ..input })
    }

    /// `sync_ptr`'s answer, for an `input` that `sync_ptr_check` accepted
    /// just before (nothing ran in between): loads, no change. The window
    /// way calls it with its write window open, so that the values go from
    /// the stream straight to their stores instead of waiting in registers
    /// (saved ones) while the window opens.
    #[inline(always)]
    pub fn sync_ptr_answer(&self, input: SyncPtrIn) -> SyncPtrOut {
        let appl_ptr =
            if input.flags & SYNC_PTR_APPL == 0 { input.appl_ptr } else { self.appl_ptr };
        let avail_min =
            if input.flags & SYNC_PTR_AVAIL_MIN == 0 { input.avail_min } else { self.avail_min };
        let hw_ptr = self.hw_ptr;
        let (tstamp_sec, tstamp_nsec) = self.tstamp;
        let (audio_tstamp_sec, audio_tstamp_nsec) = self.audio_tstamp;
        SyncPtrOut {
            state: self.state as u32,
            hw_ptr,
            tstamp_sec,
            tstamp_nsec,
            suspended_state: 0,
            audio_tstamp_sec,
            audio_tstamp_nsec,
            appl_ptr,
            avail_min,
        }
    }

    /// SYNC_PTR's committing half, for the answer `out` that `sync_ptr`
    /// gave just before (nothing ran in between, so the check still
    /// holds): stores the appl_ptr and avail_min the answer reported.
    /// Where the request's flags leave them to the program, the answer
    /// echoed the program's values; where they ask for the stream's, it
    /// reported the stream's own, and storing them back changes nothing. So no flag is tested here, and the values come
    /// from the answer, not the request: the window way stores them from
    /// the registers its answer's stores used, where the request's copies
    /// and the two flag tests stayed live across the write window (in
    /// saved registers).
    #[inline(always)]
    pub fn sync_ptr_commit(&mut self, out: &SyncPtrOut) {
        self.appl_ptr = out.appl_ptr;
        self.avail_min = out.avail_min;
    }
}
