//! The playback stream: its state machine and the pseudo DAC behind it.
//!
//! ```text
//! OPEN --HW_PARAMS--> SETUP --PREPARE--> PREPARED --START / write reaching
//!   ^                  ^  ^                 |        start_threshold--> RUNNING
//!   +----HW_FREE-------+  +-DROP / drain done-------------------------- DRAINING
//!                         +-DROP----- XRUN <--avail >= stop_threshold-- RUNNING
//!                                      +--PREPARE--> PREPARED     PAUSE <-> PAUSED
//! ```
//! Which call is allowed where, and the error otherwise, follows Linux
//! `sound/core/pcm_native.c` and `pcm_lib.c` (6.1); each method names the
//! function it mirrors.
//!
//! # Pointers
//! `hw_ptr` (frames the DAC has played) and `appl_ptr` (frames the program has
//! written) count up modulo `boundary`, the largest buffer_size * 2^k that
//! stays <= 0x7fffffff - buffer_size, so their difference is always
//! meaningful. Playback `avail` = hw_ptr + buffer_size - appl_ptr (room to
//! write); `hw_avail` = buffer_size - avail (frames queued).
//!
//! # The DAC clock
//! While RUNNING or DRAINING the DAC has played `frames(now - origin_ns)` =
//! elapsed * rate / 1e9 frames since it was last started; `update` moves
//! hw_ptr forward by what was played since the previous update. Updates
//! happen lazily (at each ioctl), so the stop conditions are applied exactly:
//! the DAC stops at the frame where avail reached stop_threshold (xrun) or
//! where the queue ran empty while draining, and the event is stamped with
//! the time that frame was reached, not with the time someone looked.

use super::hw::HwParams;
use super::refine::{self, HwConfig};
use super::uapi::{TSTAMP_ENABLE, TSTAMP_TYPE_LAST};
use super::PcmError;

/// `SNDRV_PCM_STATE_*`; the discriminant is the ABI value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Open = 0,
    Setup = 1,
    Prepared = 2,
    Running = 3,
    Xrun = 4,
    Draining = 5,
    Paused = 6,
}

pub(super) const NS_PER_SEC: u64 = 1_000_000_000;

/// Splits a nanosecond count into (seconds, nanoseconds), a timestamp as
/// STATUS and SYNC_PTR report it.
pub(super) fn split_ns(ns: u64) -> (i64, u32) {
    let (sec, nsec) = crate::time::split_ns(ns);
    (sec as i64, nsec)
}

/// One open playback stream. Invariants: `cfg` is Some in every state but
/// OPEN; then `boundary` is a multiple of buffer_size and both pointers are
/// below it. In OPEN, like a fresh Linux runtime, everything is zero.
#[derive(Debug, Clone)]
pub struct Stream {
    pub(super) state: State,
    pub(super) cfg: Option<HwConfig>,
    pub(super) boundary: u32,
    pub(super) hw_ptr: u32,
    pub(super) appl_ptr: u32,
    // sw_params, with the defaults hw_params sets.
    pub(super) tstamp_mode: u32,
    pub(super) tstamp_type: u32,
    pub(super) period_step: u32,
    pub(super) avail_min: u32,
    pub(super) start_threshold: u32,
    pub(super) stop_threshold: u32,
    pub(super) silence_threshold: u32,
    pub(super) silence_size: u32,
    /// Protocol version the program announced (USER_PVERSION), 0 if none.
    pub(super) user_pversion: u32,
    /// Frames played since PREPARE, unwrapped: the audio timestamp's source.
    pub(super) played: u64,
    /// When the DAC clock last (re)started, and frames counted since then.
    pub(super) origin_ns: u64,
    pub(super) frames_seen: u64,
    /// Timestamps of the caller's monotonic clock (status/sync_ptr), as the
    /// (seconds, nanoseconds) those calls report: split once when stamped,
    /// not at each report. A stamp changes at most once per update, and
    /// SYNC_PTR, which reports two on every call, splitting them itself
    /// was a sixth of its cost.
    pub(super) trigger_tstamp: (i64, u32),
    pub(super) tstamp: (i64, u32),
    pub(super) driver_tstamp: (i64, u32),
    /// Audio timestamp: `played` as a duration, when last stamped.
    pub(super) audio_tstamp: (i64, u32),
    /// Largest avail seen since the last STATUS.
    pub(super) avail_max: u32,
}

impl Default for Stream {
    fn default() -> Self {
        Stream::new()
    }
}

impl Stream {
    /// A freshly opened stream (state OPEN).
    pub const fn new() -> Stream {
        Stream {
            state: State::Open,
            cfg: None,
            boundary: 0,
            hw_ptr: 0,
            appl_ptr: 0,
            tstamp_mode: 0,
            tstamp_type: 0,
            period_step: 0,
            avail_min: 0,
            start_threshold: 0,
            stop_threshold: 0,
            silence_threshold: 0,
            silence_size: 0,
            user_pversion: 0,
            played: 0,
            origin_ns: 0,
            frames_seen: 0,
            trigger_tstamp: (0, 0),
            tstamp: (0, 0),
            driver_tstamp: (0, 0),
            audio_tstamp: (0, 0),
            avail_max: 0,
        }
    }

    pub fn state(&self) -> State {
        self.state
    }

    pub fn config(&self) -> Option<HwConfig> {
        self.cfg
    }

    pub fn hw_ptr(&self) -> u32 {
        self.hw_ptr
    }

    pub fn appl_ptr(&self) -> u32 {
        self.appl_ptr
    }

    pub fn boundary(&self) -> u32 {
        self.boundary
    }

    /// The wake-up threshold (sw_params / SYNC_PTR): a blocked writer waits
    /// for min(frames left, avail_min) frames of room.
    pub fn avail_min(&self) -> u32 {
        self.avail_min
    }

    fn buffer_size(&self) -> u32 {
        self.cfg.map_or(0, |c| c.buffer_size)
    }

    fn rate(&self) -> u64 {
        self.cfg.map_or(1, |c| c.rate as u64)
    }

    /// Room to write, in frames (`snd_pcm_playback_avail`).
    pub fn avail(&self) -> u32 {
        if self.boundary == 0 {
            return 0;
        }
        let b = self.boundary as i64;
        let mut avail = self.hw_ptr as i64 + self.buffer_size() as i64 - self.appl_ptr as i64;
        if avail < 0 {
            avail += b;
        } else if avail >= b {
            avail -= b;
        }
        avail as u32
    }

    /// Frames queued for the DAC (`snd_pcm_playback_hw_avail`); negative
    /// while a free-running stream has played past the written data.
    pub fn hw_avail(&self) -> i64 {
        self.buffer_size() as i64 - self.avail() as i64
    }

    /// Whole frames played `ns` after the clock origin, without 128-bit math.
    fn frames_in(&self, ns: u64) -> u64 {
        let rate = self.rate();
        ns / NS_PER_SEC * rate + ns % NS_PER_SEC * rate / NS_PER_SEC
    }

    /// How long `frames` frames last, rounded up (the time the last one is
    /// reached) or down (the audio timestamp, `div_u64` in Linux).
    fn duration_of(&self, frames: u64, round_up: bool) -> u64 {
        let rate = self.rate();
        let rem = frames % rate * NS_PER_SEC;
        frames / rate * NS_PER_SEC + if round_up { rem.div_ceil(rate) } else { rem / rate }
    }

    /// When frame number `frames` (counted from the origin) is reached.
    fn time_of(&self, frames: u64) -> u64 {
        self.origin_ns + self.duration_of(frames, true)
    }

    /// Moves the stream to `state` as `snd_pcm_stop` does, stamping the trigger time.
    fn stop(&mut self, state: State, at_ns: u64) {
        if self.state != state {
            self.trigger_tstamp = split_ns(at_ns);
            self.state = state;
        }
    }

    /// Starts the DAC clock (`snd_pcm_do_start` + `post_start`).
    fn trigger_start(&mut self, state: State, now: u64) {
        self.origin_ns = now;
        self.frames_seen = 0;
        self.trigger_tstamp = split_ns(now);
        self.state = state;
    }

    /// Brings hw_ptr up to `now` (`snd_pcm_update_hw_ptr` + `snd_pcm_update_state`).
    /// Err(Pipe) when this update stopped the stream: an underrun (avail
    /// reached stop_threshold: state XRUN) or the end of a drain (SETUP).
    /// A no-op outside RUNNING and DRAINING.
    pub fn update(&mut self, now: u64) -> Result<(), PcmError> {
        let Some(cfg) = self.cfg else { return Ok(()) };
        if !matches!(self.state, State::Running | State::Draining) {
            return Ok(());
        }
        let delta =
            self.frames_in(now.saturating_sub(self.origin_ns)).saturating_sub(self.frames_seen);
        let avail = self.avail() as u64;
        let (limit, stop_state) = if self.state == State::Draining {
            ((cfg.buffer_size as u64).saturating_sub(avail), State::Setup)
        } else if self.stop_threshold < self.boundary {
            ((self.stop_threshold as u64).saturating_sub(avail), State::Xrun)
        } else {
            (u64::MAX, State::Running)
        };
        let step = delta.min(limit);
        self.frames_seen += step;
        self.played += step;
        self.hw_ptr =
            ((self.hw_ptr as u64 + step % self.boundary as u64) % self.boundary as u64) as u32;
        let at = if step < delta { self.time_of(self.frames_seen) } else { now };
        if self.tstamp_mode == TSTAMP_ENABLE {
            // update_audio_tstamp: the system stamp moves only with the pointer.
            let stamp = split_ns(at);
            if step > 0 {
                self.tstamp = stamp;
                self.audio_tstamp = split_ns(self.duration_of(self.played, false));
            }
            self.driver_tstamp = stamp;
        }
        self.avail_max = self.avail_max.max(self.avail());
        if step >= limit {
            self.stop(stop_state, at);
            return Err(PcmError::Pipe);
        }
        Ok(())
    }

    /// When avail will reach `want` frames if nobody writes, for a glue that
    /// sleeps (blocking write: want = min(frames, avail_min); drain: want =
    /// buffer_size). None when the DAC is not running.
    pub fn wake_time_ns(&self, want: u32) -> Option<u64> {
        if !matches!(self.state, State::Running | State::Draining) {
            return None;
        }
        let need = want.saturating_sub(self.avail()) as u64;
        Some(self.time_of(self.frames_seen + need))
    }

    /// poll(2) on the playback stream (Linux `snd_pcm_poll`), once `update`
    /// has brought hw_ptr up to now: (writable, error). Writable once avail
    /// reaches avail_min while PREPARED, RUNNING or PAUSED; never while
    /// DRAINING; writable with an error in OPEN, SETUP and XRUN (a write
    /// would fail at once rather than block). While it waits, a RUNNING
    /// stream becomes writable at `wake_time_ns(avail_min)`.
    pub fn poll(&self) -> (bool, bool) {
        match self.state {
            State::Prepared | State::Running | State::Paused => {
                (self.avail() >= self.avail_min, false)
            }
            State::Draining => (false, false),
            State::Open | State::Setup | State::Xrun => (true, true),
        }
    }

    /// HW_REFINE (`snd_pcm_hw_refine_user`): allowed in every state.
    pub fn hw_refine(&self, p: &mut HwParams) -> Result<(), PcmError> {
        refine::refine(p)?;
        refine::fixup(p);
        Ok(())
    }

    /// HW_PARAMS, its deciding half (`snd_pcm_hw_params` up to the commit):
    /// OPEN, SETUP or PREPARED only; refines and chooses in `p`, which the
    /// glue copies back before it commits with `set_hw_config`, so a bad
    /// pointer leaves the stream as it was. A refused parameter set sends
    /// the stream back to OPEN, as Linux does ("force application to retry
    /// to set the correct hardware parameters").
    pub fn choose_hw_params(&mut self, p: &mut HwParams) -> Result<HwConfig, PcmError> {
        if !matches!(self.state, State::Open | State::Setup | State::Prepared) {
            return Err(PcmError::BadFd);
        }
        refine::hw_params(p).inspect_err(|_| {
            *self = Stream { user_pversion: self.user_pversion, ..Stream::new() };
        })
    }

    /// HW_PARAMS, its committing half: the stream takes `cfg` (from
    /// `choose_hw_params`) and the sw_params defaults Linux sets; state SETUP.
    pub fn set_hw_config(&mut self, cfg: HwConfig) {
        *self = Stream {
            state: State::Setup,
            cfg: Some(cfg),
            boundary: boundary_for(cfg.buffer_size),
            period_step: 1,
            avail_min: cfg.period_size,
            start_threshold: 1,
            stop_threshold: cfg.buffer_size,
            user_pversion: self.user_pversion,
            tstamp_type: self.tstamp_type,
            ..Stream::new()
        };
    }

    /// HW_FREE (`snd_pcm_hw_free`): SETUP or PREPARED back to OPEN.
    pub fn hw_free(&mut self) -> Result<(), PcmError> {
        if !matches!(self.state, State::Setup | State::Prepared) {
            return Err(PcmError::BadFd);
        }
        *self = Stream {
            user_pversion: self.user_pversion,
            tstamp_type: self.tstamp_type,
            ..Stream::new()
        };
        Ok(())
    }

    /// TTSTAMP (`snd_pcm_tstamp`): which clock stamps; any state.
    pub fn set_tstamp_type(&mut self, t: i32) -> Result<(), PcmError> {
        if t < 0 || t as u32 > TSTAMP_TYPE_LAST {
            return Err(PcmError::Inval);
        }
        self.tstamp_type = t as u32;
        Ok(())
    }

    /// USER_PVERSION: remembers the program's protocol version; any state.
    pub fn set_user_pversion(&mut self, v: u32) {
        self.user_pversion = v;
    }

    /// PREPARE (`snd_pcm_prepare`): from SETUP, PREPARED, XRUN or PAUSED;
    /// both pointers go to 0. EBUSY while running, EBADFD in OPEN.
    pub fn prepare(&mut self, now: u64) -> Result<(), PcmError> {
        match self.state {
            State::Open => return Err(PcmError::BadFd),
            State::Running | State::Draining => return Err(PcmError::Busy),
            State::Paused => self.stop(State::Setup, now),
            _ => {}
        }
        self.hw_ptr = 0;
        self.appl_ptr = 0;
        self.played = 0;
        self.state = State::Prepared;
        Ok(())
    }

    /// RESET (`snd_pcm_reset`): drops queued data, keeps the state.
    pub fn reset(&mut self, now: u64) -> Result<(), PcmError> {
        if !matches!(self.state, State::Running | State::Prepared | State::Paused) {
            return Err(PcmError::BadFd);
        }
        if self.state == State::Running && self.update(now).is_ok() {
            self.hw_ptr %= self.buffer_size();
        } else {
            self.hw_ptr = 0;
            self.played = 0;
        }
        self.appl_ptr = self.hw_ptr;
        Ok(())
    }

    /// START (`snd_pcm_start`): PREPARED only; EPIPE if nothing is queued
    /// (unless the stream is free-running: stop_threshold >= boundary).
    pub fn start(&mut self, now: u64) -> Result<(), PcmError> {
        if self.state != State::Prepared {
            return Err(PcmError::BadFd);
        }
        if self.stop_threshold < self.boundary && self.hw_avail() <= 0 {
            return Err(PcmError::Pipe);
        }
        self.trigger_start(State::Running, now);
        Ok(())
    }

    /// DROP (`snd_pcm_drop`): stops at once, queued frames are lost; -> SETUP.
    pub fn drop(&mut self, now: u64) -> Result<(), PcmError> {
        if self.state == State::Open {
            return Err(PcmError::BadFd);
        }
        // The pointer is where the DAC was when it stopped; an xrun found on the
        // way is overtaken by the stop.
        let _ = self.update(now);
        self.stop(State::Setup, now);
        Ok(())
    }

    /// DRAIN, its non-waiting part (`snd_pcm_drain` / `snd_pcm_do_drain_init`):
    /// RUNNING becomes DRAINING, PREPARED with data starts DRAINING, anything
    /// else settles in SETUP. The glue then waits while the state is DRAINING
    /// (sleeping until `wake_time_ns(buffer_size)`, then `update`), or returns
    /// EAGAIN at once for a non-blocking file, as Linux does.
    pub fn drain(&mut self, now: u64) -> Result<(), PcmError> {
        match self.state {
            State::Open => return Err(PcmError::BadFd),
            State::Paused => self.trigger_start(State::Running, now),
            // An underrun that happened before the drain is drained as an xrun.
            State::Running => {
                let _ = self.update(now);
            }
            _ => {}
        }
        match self.state {
            State::Prepared if self.hw_avail() > 0 => self.trigger_start(State::Draining, now),
            State::Prepared | State::Xrun => self.state = State::Setup,
            State::Running => self.state = State::Draining,
            _ => {}
        }
        // A drain with nothing queued is over now.
        let _ = self.update(now);
        Ok(())
    }

    /// PAUSE (`snd_pcm_pause`): push (true) freezes a RUNNING DAC, release
    /// (false) restarts a PAUSED one from where it stopped. An underrun found
    /// while pausing wins: EPIPE, state XRUN.
    pub fn pause(&mut self, push: bool, now: u64) -> Result<(), PcmError> {
        if push {
            if self.state != State::Running {
                return Err(PcmError::BadFd);
            }
            self.update(now)?;
            self.stop(State::Paused, now);
        } else {
            if self.state != State::Paused {
                return Err(PcmError::BadFd);
            }
            self.trigger_start(State::Running, now);
        }
        Ok(())
    }

    /// XRUN (`snd_pcm_xrun`): forces a RUNNING stream into XRUN.
    pub fn xrun(&mut self, now: u64) -> Result<(), PcmError> {
        match self.state {
            State::Xrun => Ok(()),
            State::Running => {
                let _ = self.update(now);
                self.stop(State::Xrun, now);
                Ok(())
            }
            _ => Err(PcmError::BadFd),
        }
    }

    /// HWSYNC (`do_pcm_hwsync`): updates the pointer where there is one to update.
    pub fn hwsync(&mut self, now: u64) -> Result<(), PcmError> {
        match self.state {
            State::Running | State::Draining => self.update(now),
            State::Prepared | State::Paused => Ok(()),
            State::Xrun => Err(PcmError::Pipe),
            State::Open | State::Setup => Err(PcmError::BadFd),
        }
    }

    /// DELAY (`snd_pcm_delay`): frames between what is written and what is
    /// heard, i.e. hw_avail (this DAC has no extra latency).
    pub fn delay(&mut self, now: u64) -> Result<i32, PcmError> {
        self.hwsync(now)?;
        Ok(self.hw_avail() as i32)
    }

    /// Checks an appl_ptr the program wants to set (`pcm_lib_apply_appl_ptr`
    /// before it assigns). Linux refuses values >= boundary (so anything but
    /// 0 before HW_PARAMS); this device's `ack` also refuses a pointer more
    /// than a buffer ahead of hw_ptr, unless it only moves a lagging pointer
    /// toward hw_ptr (a free-running stream that under-ran).
    ///
    /// The unchanged pointer (every SYNC_PTR of a program that has not
    /// written since) is answered inline; the 64-bit modular checks of a
    /// move are out of line, so their six saved registers are not paid
    /// for it.
    #[inline(always)]
    pub fn check_appl_ptr(&self, new: u32) -> Result<(), PcmError> {
        if new == self.appl_ptr {
            return Ok(());
        }
        self.check_appl_ptr_move(new)
    }

    /// `check_appl_ptr` for a pointer that moves.
    #[inline(never)]
    fn check_appl_ptr_move(&self, new: u32) -> Result<(), PcmError> {
        if new >= self.boundary {
            return Err(PcmError::Inval);
        }
        let b = self.boundary as u64;
        let ahead = |p: u32| (p as u64 + b - self.hw_ptr as u64) % b;
        let buffer = self.buffer_size() as u64;
        let catching_up = ahead(self.appl_ptr) > buffer
            && (new as u64 + b - self.appl_ptr as u64) % b
                <= (self.hw_ptr as u64 + b - self.appl_ptr as u64) % b;
        if ahead(new) > buffer && !catching_up {
            return Err(PcmError::Inval);
        }
        Ok(())
    }

    /// First half of WRITEI (`__snd_pcm_lib_xfer`): how many of `frames` fit
    /// now. EBADFD in OPEN (and, for a non-empty write, in SETUP and
    /// DRAINING), EPIPE in XRUN or if the update finds an underrun, EAGAIN if
    /// the buffer is full (the glue blocks or not, see `wake_time_ns`). The
    /// glue then reads that many frames from user memory and commits them.
    pub fn reserve_write(&mut self, frames: u32, now: u64) -> Result<u32, PcmError> {
        if self.state == State::Open {
            return Err(PcmError::BadFd);
        }
        if frames == 0 {
            return Ok(0);
        }
        match self.state {
            State::Prepared | State::Paused => {}
            State::Running => {
                if self.update(now).is_err() {
                    return Err(PcmError::Pipe);
                }
            }
            State::Xrun => return Err(PcmError::Pipe),
            _ => return Err(PcmError::BadFd),
        }
        match self.avail() {
            0 => Err(PcmError::Again),
            avail => Ok(frames.min(avail)),
        }
    }

    /// Second half of WRITEI: advances appl_ptr by `frames` (at most what
    /// `reserve_write` granted) and starts a PREPARED stream once
    /// start_threshold frames are queued.
    pub fn commit_write(&mut self, frames: u32, now: u64) {
        if frames == 0 || self.boundary == 0 {
            return;
        }
        self.appl_ptr = ((self.appl_ptr as u64 + frames as u64) % self.boundary as u64) as u32;
        // Linux compares against the threshold as a signed long, so a huge
        // start_threshold (> LONG_MAX) starts at once.
        if self.state == State::Prepared && self.hw_avail() >= self.start_threshold as i32 as i64 {
            self.trigger_start(State::Running, now);
        }
        let _ = self.update(now);
    }
}

/// The pointer wrap point for a buffer (`snd_pcm_hw_params`): the largest
/// buffer_size * 2^k with boundary * 2 <= LONG_MAX - buffer_size (ppc32:
/// LONG_MAX = 0x7fffffff).
pub fn boundary_for(buffer_size: u32) -> u32 {
    const LONG_MAX: u32 = 0x7fff_ffff;
    if buffer_size == 0 {
        return LONG_MAX;
    }
    let mut b = buffer_size;
    while b <= (LONG_MAX - buffer_size) / 2 {
        b *= 2;
    }
    b
}
