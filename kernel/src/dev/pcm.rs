//! /dev/snd/pcmC0D0p: the kernel half of the pseudo ALSA playback device.
//!
//! The stream logic is portable and lives in `sigil_core::pcm` (a `Stream`
//! is plain data plus pure functions of "now"). This file is the glue Linux
//! keeps in `pcm_native.c` / `pcm_compat.c`: it decodes the ioctl, moves the
//! argument structs across the user boundary with `crate::uaccess`, reads the
//! clock, sleeps where the call blocks (a full buffer, DRAIN), and turns a
//! `PcmError` into an errno.
//!
//! # One stream per open file
//! Every `open` gets its own fresh `Stream`; `dup` and `fork` share it (the
//! open file is shared, as POSIX says). A real card with one substream would
//! answer a second open with EBUSY, but `devices::open` cannot fail once the
//! name matched, and independent streams are what a program opening the
//! device twice would see on a card with several substreams.
//!
//! # A failed call changes nothing the program did not see
//! Each call reads its inputs from user memory, lets the core check them and
//! compute the answer, copies the answer out, and only then commits what
//! the program asked to change (`choose_hw_params` / `set_hw_config`,
//! `check_sw_params` / `apply_sw_params`, `sync_ptr` / `sync_ptr_commit`,
//! `status` / `clear_avail_max`). A bad pointer anywhere is EFAULT with the
//! stream as it was, and no call copies the stream to undo anything. What
//! the checking half may change is what time changes anyway: the hardware
//! pointer catching up with the clock (and an underrun it finds, EPIPE and
//! XRUN, which is real). Errors the core returns keep Linux's effects: a
//! refused HW_PARAMS leaves the stream OPEN.
//!
//! # SYNC_PTR, three ways (boot option `pcm.sync_ptr=`)
//! The hot ioctl reads 3 words and writes 9. How they cross the boundary is
//! the experiment of "[PATCH] ALSA: pcm: Convert snd_pcm_ioctl_sync_ptr_{compat/x32}
//! to user_access_begin/user_access_end()" (Christophe Leroy and Takashi Iwai,
//! June 2025), measured in `uaccess::WINDOWS`
//! (user/c/pcm_syncptr_bench.c prints windows per ioctl):
//! - `field`:  a get_user/put_user per word, 12 windows, like Linux's
//!   `snd_pcm_ioctl_sync_ptr_compat`;
//! - `copy`:   copy_from_user + copy_to_user of the whole 132-byte struct
//!   through a kernel buffer (2 windows, every byte moved twice);
//! - `window`: one read window for the 3 inputs and one write window for the
//!   9 outputs (2 windows over the struct, 12 words touched). The default.
//!
//! The 136-byte time64 struct goes the same three ways; its answer is 16
//! words (every value fills an 8-byte slot), so `field` opens 19 windows.
//! All three ways store the same words (`SyncPtrOut::stores`), so the user
//! sees identical bytes whichever way the kernel was booted with.

use core::sync::atomic::{AtomicU8, Ordering};

use sigil_core::abi::Errno;
use sigil_core::pcm::structs::write_info;
use sigil_core::pcm::uapi::{self, put_u32, xferi, StatusLayout, SyncPtrLayout};
use sigil_core::pcm::{
    HwParams, PcmError, PcmIoctl, State, Stream, SwParams, SyncPtrIn, SyncPtrOut,
};

use crate::fs::poll::PollWait;
use crate::fs::{flags, FileOps, StatusFlags, POLLERR, POLLOUT};
use crate::kcell::KCell;
use crate::time::timer;
use crate::uaccess::{
    copy_from_user, copy_to_user, get_user, put_user, Efault, Read, ReadWrite, Reply, UserWindow,
};

/// How SYNC_PTR moves its words; see the module comment.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SyncPtrWay {
    Field = 0,
    Copy = 1,
    Window = 2,
}

static SYNC_PTR_WAY: AtomicU8 = AtomicU8::new(SyncPtrWay::Window as u8);

/// The boot option `pcm.sync_ptr=<way>`: `field`, `copy` or `window`.
pub fn set_sync_ptr_way(way: &[u8]) {
    let w = match way {
        b"field" => SyncPtrWay::Field,
        b"copy" => SyncPtrWay::Copy,
        b"window" => SyncPtrWay::Window,
        _ => {
            crate::kprintln!("sigil: pcm.sync_ptr= wants field, copy or window");
            return;
        }
    };
    SYNC_PTR_WAY.store(w as u8, Ordering::Relaxed);
}

fn sync_ptr_way() -> SyncPtrWay {
    match SYNC_PTR_WAY.load(Ordering::Relaxed) {
        0 => SyncPtrWay::Field,
        1 => SyncPtrWay::Copy,
        _ => SyncPtrWay::Window,
    }
}

/// An open /dev/snd/pcmC0D0p. The stream is a `KCell`, as a process's
/// group and address space are: it is shared by the processes sharing the
/// file (fork), and the kernel runs one thread at a time, so a reference
/// taken for one core call is the only one while it lasts. It never lasts
/// across a sleep, so a process sharing the file can use the stream while
/// another one blocks in it. SYNC_PTR's window way alone keeps it across
/// its write window, which cannot sleep (`Pcm::sync_ptr_window`). A
/// `RefCell` checked this at run time: 8 instructions of every SYNC_PTR
/// (the flag tested, set and restored), for a rule these few functions
/// keep by their shape (a reference is a temporary, or a `let` that ends
/// before the call sleeps).
pub struct Pcm {
    stream: KCell<Stream>,
    /// O_NONBLOCK: a full buffer or a DRAIN answers EAGAIN instead of waiting.
    flags: StatusFlags,
}

/// Opens the device: a new stream in state OPEN (`fs::devices` ties it
/// to its node, which stat reports).
pub fn open() -> Pcm {
    Pcm { stream: KCell::new(Stream::new()), flags: StatusFlags::new(flags::O_RDWR) }
}

fn now() -> u64 {
    timer::now_ns()
}

fn errno(e: PcmError) -> Errno {
    Errno::from_raw(e.errno()).unwrap_or(Errno::EINVAL)
}

fn fault(_: Efault) -> Errno {
    Errno::EFAULT
}

/// The user address `off` bytes into the struct at `arg`; a struct that wraps
/// around the address space is a bad pointer.
fn at(arg: u32, off: usize) -> Result<u32, Efault> {
    arg.checked_add(off as u32).ok_or(Efault)
}

/// What a transfer returns when it stopped early: the frames it moved if
/// any (the error shows up on the next call), else the error.
fn partial(done: u32, e: Errno) -> Result<u32, Errno> {
    if done > 0 {
        Ok(done)
    } else {
        Err(e)
    }
}

impl Pcm {
    /// A call with no argument struct: the result is the core's.
    fn simple(&self, op: impl FnOnce(&mut Stream) -> Result<(), PcmError>) -> Result<u32, Errno> {
        op(self.stream.get()).map(|_| 0).map_err(errno)
    }

    /// HW_REFINE: narrows the user's parameter space; the stream is not involved.
    fn hw_refine(&self, arg: u32) -> Result<u32, Errno> {
        let mut buf = [0u8; uapi::hw_params::SIZE];
        copy_from_user(&mut buf, arg).map_err(fault)?;
        let mut p = HwParams::read_from(&buf);
        self.stream.get().hw_refine(&mut p).map_err(errno)?;
        p.write_to(&mut buf);
        copy_to_user(arg, &buf).map_err(fault)?;
        Ok(0)
    }

    /// HW_PARAMS: chooses the configuration, copies the fixed params back,
    /// then configures the stream. `write_to` updates the user's own bytes,
    /// so reserved fields go back as they came.
    fn hw_params(&self, arg: u32) -> Result<u32, Errno> {
        let mut buf = [0u8; uapi::hw_params::SIZE];
        copy_from_user(&mut buf, arg).map_err(fault)?;
        let mut p = HwParams::read_from(&buf);
        let cfg = self.stream.get().choose_hw_params(&mut p).map_err(errno)?;
        p.write_to(&mut buf);
        copy_to_user(arg, &buf).map_err(fault)?;
        self.stream.get().set_hw_config(cfg);
        Ok(0)
    }

    /// SW_PARAMS: Linux copies the struct back whatever the outcome (with
    /// `boundary` filled in when the values are good), then returns the
    /// call's result; the values are applied after the copy.
    fn sw_params(&self, arg: u32) -> Result<u32, Errno> {
        let mut buf = [0u8; uapi::sw_params::SIZE];
        copy_from_user(&mut buf, arg).map_err(fault)?;
        let mut p = SwParams::read_from(&buf);
        let checked = self.stream.get().check_sw_params(&mut p);
        p.write_to(&mut buf);
        copy_to_user(arg, &buf).map_err(fault)?;
        checked.map_err(errno)?;
        self.simple(|s| s.apply_sw_params(&p, now()))
    }

    /// STATUS (`ext` false) and STATUS_EXT (`ext`: reads the requested
    /// audio timestamp type from the struct first), in layout `l`.
    fn status(&self, arg: u32, l: &StatusLayout, ext: bool) -> Result<u32, Errno> {
        let data = if ext {
            get_user::<u32>(at(arg, l.audio_tstamp_data).map_err(fault)?).map_err(fault)?
        } else {
            0
        };
        let st = self.stream.get().status(data, now());
        let mut buf = [0u8; uapi::STATUS64.size];
        st.write_to(&mut buf, l);
        copy_to_user(arg, &buf[..l.size]).map_err(fault)?;
        self.stream.get().clear_avail_max();
        Ok(0)
    }

    /// SYNC_PTR in layout `l`, the way the boot option chose: read the 3
    /// inputs, let the core answer, store the answer, commit the inputs.
    /// `copy` holds the whole struct for the `copy` way.
    ///
    /// The window way is inlined, with the helpers below, into `ioctl`'s
    /// time32 arm and into `sync_ptr64`, so that `l` is a constant there:
    /// the window's length and every offset are immediates, and the bound
    /// check of each `get`/`put` (offset + 4 <= length) is decided at
    /// compile time, one check per layout instead of one per word at run
    /// time. The range check of the read window (`UserWindow::open_with_reply`)
    /// is the one left at run time.
    ///
    /// The way is tested as the stored byte against `Window`'s: the match in
    /// `sync_ptr_way` compiles to a compare chain (11 instructions where this
    /// takes 3); the comparison ways decode it out of line.
    #[inline(always)]
    fn sync_ptr(&self, arg: u32, l: &SyncPtrLayout) -> Result<u32, Errno> {
        if SYNC_PTR_WAY.load(Ordering::Relaxed) == SyncPtrWay::Window as u8 {
            self.sync_ptr_window(arg, l)
        } else {
            self.sync_ptr_compared(arg, l)
        }
    }

    /// The comparison ways (`field`, `copy`), out of line: inlined, their
    /// buffer and calls cost the default way saved registers (450 -> 385).
    /// Here the layout is a run-time value, so their bound checks are too.
    #[inline(never)]
    fn sync_ptr_compared(&self, arg: u32, l: &SyncPtrLayout) -> Result<u32, Errno> {
        self.sync_ptr_by(sync_ptr_way(), arg, l)
    }

    /// SYNC_PTR the `window` way. The stream stays borrowed across the
    /// write window (a window never sleeps: a fault in it is filled in or
    /// skipped at once, `trap::kernel_trap`), and the answer is read from
    /// it with the window open: each value goes from the stream straight
    /// to its store, where an answer computed first waited in saved
    /// registers while the window opened.
    ///
    /// A call that needs the check's work (HWSYNC, an appl_ptr that moves)
    /// goes out of line (`sync_ptr_window_checked`): with the calls that
    /// work makes here, every input stayed in a saved register.
    #[inline(always)]
    fn sync_ptr_window(&self, arg: u32, l: &SyncPtrLayout) -> Result<u32, Errno> {
        let (input, reply) = sync_ptr_in_window(arg, l).map_err(fault)?;
        let s = self.stream.get();
        match s.sync_ptr_unchecked(input) {
            Some(input) => sync_ptr_window_out(s, reply, l, input),
            None => {
                // The words one by one: a struct argument goes through memory.
                let SyncPtrIn { flags, appl_ptr, avail_min } = input;
                sync_ptr_window_checked(s, reply, l, flags, appl_ptr, avail_min)
            }
        }
    }

    /// SYNC_PTR the way `way` says.
    #[inline(always)]
    fn sync_ptr_by(&self, way: SyncPtrWay, arg: u32, l: &SyncPtrLayout) -> Result<u32, Errno> {
        // The struct buffer only for the `copy` way: zeroing 136 bytes costs
        // more than the rest of a `window` SYNC_PTR.
        let mut buf;
        let copy: &mut [u8] = if way == SyncPtrWay::Copy {
            buf = [0u8; uapi::SYNC_PTR64.size];
            &mut buf[..l.size]
        } else {
            &mut []
        };
        let input = sync_ptr_in(way, arg, l, copy).map_err(fault)?;
        let out = self.stream.get().sync_ptr(input, now).map_err(errno)?;
        sync_ptr_out(way, arg, l, &out, copy).map_err(fault)?;
        self.stream.get().sync_ptr_commit(&out);
        Ok(0)
    }

    /// WRITEI_FRAMES: the `snd_xferi` names the samples; the frame count (or
    /// the negated errno) goes back into its `result`. As Linux's
    /// `snd_pcm_xferi_frames_ioctl`, `result` is zeroed before any frame is
    /// taken, so a struct that cannot take the answer fails before the
    /// stream moves; here that store and the two loads share one window.
    fn writei(&self, arg: u32) -> Result<u32, Errno> {
        if self.stream.get().state() == State::Open {
            return Err(Errno::EBADFD);
        }
        let mut w = UserWindow::open(arg, xferi::SIZE as u32, ReadWrite).map_err(fault)?;
        w.put(xferi::RESULT as u32, 0i32);
        let (buf, frames): (u32, u32) = (w.get(xferi::BUF as u32), w.get(xferi::FRAMES as u32));
        w.finish().map_err(fault)?;
        let r = self.write_frames(buf, frames);
        let result = match r {
            Ok(n) => n as i32,
            Err(e) => -e.raw(),
        };
        put_user(at(arg, xferi::RESULT).map_err(fault)?, result).map_err(fault)?;
        r.map(|_| 0)
    }
    /// Queues up to `frames` frames from user address `buf`; returns how many.
    /// Each granted chunk is read from user memory (the pseudo DAC discards
    /// it, but a bad buffer must still give EFAULT) before it is committed.
    /// A full buffer blocks until min(frames left, avail_min) frames of room
    /// are due (`__snd_pcm_lib_xfer`'s wait_for_avail); a stream that is not
    /// running would never drain, so that is EAGAIN, not a hang.
    fn write_frames(&self, buf: u32, frames: u32) -> Result<u32, Errno> {
        let frame_bytes = self.stream.get().config().map_or(0, |c| c.frame_bytes());
        let mut done = 0u32;
        while done < frames {
            let left = frames - done;
            let reserved = self.stream.get().reserve_write(left, now());
            let granted = match reserved {
                Ok(n) => n,
                Err(PcmError::Again) => {
                    let wake = {
                        let s = self.stream.get();
                        s.wake_time_ns(left.min(s.avail_min()))
                    };
                    match wake {
                        _ if self.flags.nonblocking() => return partial(done, Errno::EAGAIN),
                        None => return partial(done, Errno::EAGAIN),
                        Some(t) if crate::proc::sleep_until(t).is_err() => {
                            return partial(done, Errno::ERESTARTSYS)
                        }
                        Some(_) => continue,
                    }
                }
                Err(e) => return partial(done, errno(e)),
            };
            let addr = done.checked_mul(frame_bytes).and_then(|o| buf.checked_add(o));
            let read = addr.ok_or(Efault).and_then(|a| read_samples(a, granted * frame_bytes));
            if read.is_err() {
                return partial(done, Errno::EFAULT);
            }
            self.stream.get().commit_write(granted, now());
            done += granted;
        }
        Ok(done)
    }

    /// DRAIN: starts draining; a non-blocking file returns EAGAIN at once if
    /// there is something to wait for. Otherwise it sleeps until the queue is
    /// due to run empty and looks again, until the stream leaves DRAINING
    /// (drained, or dropped by another process sharing the file). A signal
    /// ends the wait with ERESTARTSYS, as in Linux; the stream keeps draining.
    fn drain(&self) -> Result<u32, Errno> {
        self.stream.get().drain(now()).map_err(errno)?;
        if self.flags.nonblocking() && self.stream.get().state() == State::Draining {
            return Err(Errno::EAGAIN);
        }
        loop {
            let wake = {
                let s = self.stream.get();
                if s.state() != State::Draining {
                    return Ok(0);
                }
                s.wake_time_ns(s.config().map_or(0, |c| c.buffer_size))
            };
            let Some(t) = wake else { return Ok(0) };
            if crate::proc::sleep_until(t).is_err() {
                return Err(Errno::ERESTARTSYS);
            }
            // The update that ends the drain reports it as Err(Pipe).
            let _ = self.stream.get().update(now());
        }
    }
}

/// The window way's three SYNC_PTR inputs, read in one window, and the
/// answer's window promised over the same struct (`uaccess::Reply`: both
/// windows counted at once).
#[inline(always)]
fn sync_ptr_in_window(arg: u32, l: &SyncPtrLayout) -> Result<(SyncPtrIn, Reply), Efault> {
    let w = UserWindow::open_with_reply(arg, l.size as u32)?;
    let input = SyncPtrIn {
        flags: w.get(l.flags as u32),
        appl_ptr: w.get(l.appl_ptr as u32),
        avail_min: w.get(l.avail_min as u32),
    };
    w.finish_request().map(|reply| (input, reply))
}

/// The three SYNC_PTR inputs for the comparison ways: a get_user each
/// (`field`), or from a copy of the whole struct left in `copy` (`copy`).
/// The `window` way reads them in `sync_ptr_in_window`.
#[inline(always)]
fn sync_ptr_in(
    way: SyncPtrWay,
    arg: u32,
    l: &SyncPtrLayout,
    copy: &mut [u8],
) -> Result<SyncPtrIn, Efault> {
    match way {
        SyncPtrWay::Field => Ok(SyncPtrIn {
            flags: get_user(at(arg, l.flags)?)?,
            appl_ptr: get_user(at(arg, l.appl_ptr)?)?,
            avail_min: get_user(at(arg, l.avail_min)?)?,
        }),
        SyncPtrWay::Copy => {
            copy_from_user(copy, arg)?;
            Ok(SyncPtrIn::read_from(copy, l))
        }
        SyncPtrWay::Window => unreachable!("the window way reads in sync_ptr_in_window"),
    }
}

/// The window way's SYNC_PTR with the check's work to do (see
/// `Pcm::sync_ptr_window`).
#[inline(never)]
fn sync_ptr_window_checked(
    s: &mut Stream,
    reply: Reply,
    l: &SyncPtrLayout,
    flags: u32,
    appl_ptr: u32,
    avail_min: u32,
) -> Result<u32, Errno> {
    let input = SyncPtrIn { flags, appl_ptr, avail_min };
    s.sync_ptr_check(input, now).map_err(errno)?;
    sync_ptr_window_out(s, reply, l, input)
}

/// The window way's answer, for an `input` the stream `s` accepted: the
/// write window `reply` with the answer's stores, then the commit.
#[inline(always)]
fn sync_ptr_window_out(
    s: &mut Stream,
    reply: Reply,
    l: &SyncPtrLayout,
    input: SyncPtrIn,
) -> Result<u32, Errno> {
    let mut w = reply.open();
    let out = s.sync_ptr_answer(input);
    out.stores(l, |off, v| w.put(off as u32, v));
    w.finish().map_err(fault)?;
    s.sync_ptr_commit(&out);
    Ok(0)
}

/// The SYNC_PTR answer's word stores for the comparison ways: a put_user
/// each (`field`), or into the user's own bytes in `copy` sent back whole
/// (`copy`). The `window` way never comes here: `Pcm::sync_ptr_window`
/// reads its answer from the stream inside its own write window
/// (`sync_ptr_window_out`).
#[inline(always)]
fn sync_ptr_out(
    way: SyncPtrWay,
    arg: u32,
    l: &SyncPtrLayout,
    out: &SyncPtrOut,
    copy: &mut [u8],
) -> Result<(), Efault> {
    match way {
        SyncPtrWay::Field => out.try_stores(l, |off, v| put_user(at(arg, off)?, v)),
        SyncPtrWay::Copy => {
            out.stores(l, |off, v| put_u32(copy, off, v));
            copy_to_user(arg, copy)
        }
        SyncPtrWay::Window => unreachable!("the window way answers in sync_ptr_window_out"),
    }
}

/// Reads (and discards) `len` bytes of samples at `addr`, in one window.
fn read_samples(addr: u32, len: u32) -> Result<(), Efault> {
    let w = UserWindow::open(addr, len, Read)?;
    for off in 0..len {
        let _: u8 = w.get(off);
    }
    w.finish()
}

impl FileOps for Pcm {
    fn status(&self) -> Option<&StatusFlags> {
        Some(&self.flags)
    }

    /// POLLOUT when a write of avail_min frames would not block; POLLERR
    /// (with POLLOUT) when a write would fail (`Stream::poll`).
    /// Pollable even while its readiness waits for nothing (PollWait::Never).
    fn can_poll(&self) -> bool {
        true
    }
    fn poll_ready(&self) -> u16 {
        let s = self.stream.get();
        let _ = s.update(now());
        match s.poll() {
            (true, true) => POLLOUT | POLLERR,
            (true, false) => POLLOUT,
            _ => 0,
        }
    }

    /// The pseudo DAC has no interrupt to wake a poller: it names the time
    /// it will have room for avail_min frames.
    fn poll_wait(&self) -> PollWait<'_> {
        let s = self.stream.get();
        s.wake_time_ns(s.avail_min()).map_or(PollWait::Never, PollWait::At)
    }

    /// write(2) of interleaved frames (`snd_pcm_write`): EBADFD before
    /// HW_PARAMS, EINVAL for a partial frame; returns bytes.
    fn write(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        let Some(cfg) = self.stream.get().config() else { return Err(Errno::EBADFD) };
        let fb = cfg.frame_bytes();
        if !len.is_multiple_of(fb) {
            return Err(Errno::EINVAL);
        }
        self.write_frames(buf, len / fb).map(|f| f * fb)
    }

    /// SYNC_PTR is the hot request (alsa-lib makes one per period, more
    /// with mmap'ed buffers): its two numbers are compared before any
    /// decode, and every other request goes to `ioctl_decoded`, out of
    /// line, so that SYNC_PTR pays neither the decode's search nor the
    /// registers the other arms keep (it saved all 18 for every request).
    fn ioctl(&self, req: u32, arg: u32) -> Result<u32, Errno> {
        const SYNC_PTR32: u32 = PcmIoctl::SyncPtr32.raw();
        const SYNC_PTR64: u32 = PcmIoctl::SyncPtr64.raw();
        match req {
            SYNC_PTR32 => self.sync_ptr(arg, &uapi::SYNC_PTR32),
            SYNC_PTR64 => self.sync_ptr64(arg),
            _ => self.ioctl_decoded(req, arg),
        }
    }
}

impl Pcm {
    /// SYNC_PTR in the time64 layout, out of line: inlined beside the
    /// time32 one (the benchmark's, alsa-lib's on a 32-bit time_t), its
    /// 16 stores kept two more registers and made every SYNC_PTR save them.
    #[inline(never)]
    fn sync_ptr64(&self, arg: u32) -> Result<u32, Errno> {
        self.sync_ptr(arg, &uapi::SYNC_PTR64)
    }

    /// Every request but SYNC_PTR (see `ioctl`).
    #[inline(never)]
    fn ioctl_decoded(&self, req: u32, arg: u32) -> Result<u32, Errno> {
        use PcmIoctl as I;
        match PcmIoctl::from_raw(req).map_err(errno)? {
            I::Pversion => put_user(arg, uapi::PCM_VERSION).map(|_| 0).map_err(fault),
            I::Info => {
                let mut buf = [0u8; uapi::info::SIZE];
                write_info(&mut buf);
                copy_to_user(arg, &buf).map(|_| 0).map_err(fault)
            }
            // Obsolete; Linux accepts it without reading the argument.
            I::Tstamp => Ok(0),
            I::Ttstamp => {
                let t: i32 = get_user(arg).map_err(fault)?;
                self.simple(|s| s.set_tstamp_type(t))
            }
            I::UserPversion => {
                let v: u32 = get_user(arg).map_err(fault)?;
                self.stream.get().set_user_pversion(v);
                Ok(0)
            }
            I::HwRefine => self.hw_refine(arg),
            I::HwParams => self.hw_params(arg),
            I::HwFree => self.simple(|s| s.hw_free()),
            I::SwParams => self.sw_params(arg),
            I::Status32 => self.status(arg, &uapi::STATUS32, false),
            I::Status64 => self.status(arg, &uapi::STATUS64, false),
            I::StatusExt32 => self.status(arg, &uapi::STATUS32, true),
            I::StatusExt64 => self.status(arg, &uapi::STATUS64, true),
            I::Delay => {
                let d = self.stream.get().delay(now()).map_err(errno)?;
                put_user(arg, d).map(|_| 0).map_err(fault)
            }
            I::Hwsync => self.simple(|s| s.hwsync(now())),
            I::SyncPtr32 | I::SyncPtr64 => unreachable!("answered by `ioctl` before the decode"),
            I::Prepare => self.simple(|s| s.prepare(now())),
            I::Reset => self.simple(|s| s.reset(now())),
            I::Start => self.simple(|s| s.start(now())),
            I::Drop => self.simple(|s| s.drop(now())),
            I::Drain => self.drain(),
            // The argument is the value itself: 1 pushes, 0 releases.
            I::Pause => self.simple(|s| s.pause(arg != 0, now())),
            I::Xrun => self.simple(|s| s.xrun(now())),
            I::WriteiFrames => self.writei(arg),
        }
    }
}
