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
//! Inputs are read from user memory before the stream is touched, so a bad
//! pointer there fails cleanly. For calls that write a result back, the glue
//! keeps a copy of the stream and puts it back if the copy-out faults
//! (`transact`): the hardware pointer is a function of time, so undoing an
//! update loses nothing - the next call redoes it. Errors the core itself
//! returns keep the core's (Linux's) effects: an underrun found on the way is
//! real (EPIPE, state XRUN) and a refused HW_PARAMS leaves the stream OPEN.
//!
//! # SYNC_PTR, three ways (boot option `pcm.sync_ptr=`)
//! The hot ioctl reads 3 words and writes 9. How they cross the boundary is
//! the experiment of the mailing-list seeds, measured in `uaccess::WINDOWS`:
//! - `field`:  a get_user/put_user per word, 12 windows, like Linux's
//!             `snd_pcm_ioctl_sync_ptr_compat`;
//! - `copy`:   copy_from_user + copy_to_user of the whole 132-byte struct
//!             through a kernel buffer (2 windows, 264 bytes moved);
//! - `window`: one read window for the 3 inputs and one write window for the
//!             9 outputs (2 windows, 48 bytes moved). The default.
//! The 136-byte time64 struct always uses two windows; its write-back is the
//! whole struct, as Linux's native `snd_pcm_sync_ptr` does.

use alloc::sync::Arc;
use core::cell::RefCell;
use core::sync::atomic::{AtomicU8, Ordering};

use sigil_core::abi::Errno;
use sigil_core::pcm::structs::write_info;
use sigil_core::pcm::uapi::{self, get_u32, xferi, StatusLayout, SyncPtrLayout};
use sigil_core::pcm::{HwParams, PcmError, PcmIoctl, State, Stream, SwParams, SyncPtrIn, SyncPtrOut};

use super::timer;
use crate::fs::{flags, File, FileOps, Stat, StatusFlags};
use crate::uaccess::{copy_from_user, copy_to_user, get_user, put_user, Access, Efault, UserWindow};

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

/// An open /dev/snd/pcmC0D0p. The `RefCell` is borrowed only for the length
/// of one core call, never across a sleep or a user access, so a process
/// sharing the file (fork) can use it while another one blocks in it.
pub struct Pcm {
    stream: RefCell<Stream>,
    /// O_NONBLOCK: a full buffer or a DRAIN answers EAGAIN instead of waiting.
    flags: StatusFlags,
}

/// Opens the device: a new stream in state OPEN.
pub fn open() -> Arc<File> {
    Arc::new(Pcm { stream: RefCell::new(Stream::new()), flags: StatusFlags::new(flags::O_RDWR) })
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
    if done > 0 { Ok(done) } else { Err(e) }
}

impl Pcm {
    /// Runs `op` on the stream, then `publish`es its result to the user; if
    /// publishing faults, the stream goes back to how it was (module comment).
    fn transact<T>(
        &self,
        op: impl FnOnce(&mut Stream) -> Result<T, PcmError>,
        publish: impl FnOnce(&T) -> Result<(), Efault>,
    ) -> Result<T, Errno> {
        let before = self.stream.borrow().clone();
        let out = op(&mut self.stream.borrow_mut()).map_err(errno)?;
        if publish(&out).is_err() {
            *self.stream.borrow_mut() = before;
            return Err(Errno::EFAULT);
        }
        Ok(out)
    }

    /// A call with no argument struct: the result is the core's.
    fn simple(&self, op: impl FnOnce(&mut Stream) -> Result<(), PcmError>) -> Result<u32, Errno> {
        op(&mut self.stream.borrow_mut()).map(|_| 0).map_err(errno)
    }

    /// HW_REFINE: narrows the user's parameter space; the stream is not involved.
    fn hw_refine(&self, arg: u32) -> Result<u32, Errno> {
        let mut buf = [0u8; uapi::hw_params::SIZE];
        copy_from_user(&mut buf, arg).map_err(fault)?;
        let mut p = HwParams::read_from(&buf);
        self.stream.borrow().hw_refine(&mut p).map_err(errno)?;
        p.write_to(&mut buf);
        copy_to_user(arg, &buf).map_err(fault)?;
        Ok(0)
    }

    /// HW_PARAMS: picks the configuration and copies the fixed params back.
    fn hw_params(&self, arg: u32) -> Result<u32, Errno> {
        let mut buf = [0u8; uapi::hw_params::SIZE];
        copy_from_user(&mut buf, arg).map_err(fault)?;
        let mut p = HwParams::read_from(&buf);
        self.transact(
            move |s| s.hw_params(&mut p).map(|_| p),
            |p| {
                // `write_to` updates the user's own bytes, so reserved fields
                // go back as they came.
                p.write_to(&mut buf);
                copy_to_user(arg, &buf)
            },
        )?;
        Ok(0)
    }

    /// SW_PARAMS: Linux copies the struct back whatever the outcome (with
    /// `boundary` filled in on success), then returns the call's result.
    fn sw_params(&self, arg: u32) -> Result<u32, Errno> {
        let mut buf = [0u8; uapi::sw_params::SIZE];
        copy_from_user(&mut buf, arg).map_err(fault)?;
        let mut p = SwParams::read_from(&buf);
        let before = self.stream.borrow().clone();
        let r = self.stream.borrow_mut().sw_params(&mut p, now());
        p.write_to(&mut buf);
        if copy_to_user(arg, &buf).is_err() {
            *self.stream.borrow_mut() = before;
            return Err(Errno::EFAULT);
        }
        r.map(|_| 0).map_err(errno)
    }

    /// STATUS (`ext` false) and STATUS_EXT (`ext`: reads the requested
    /// audio timestamp type from the struct first), in layout `l`.
    fn status(&self, arg: u32, l: &StatusLayout, ext: bool) -> Result<u32, Errno> {
        let data = if ext { get_user::<u32>(at(arg, l.audio_tstamp_data).map_err(fault)?).map_err(fault)? } else { 0 };
        self.transact(
            |s| Ok(s.status(data, now())),
            |st| {
                let mut buf = [0u8; uapi::STATUS64.size];
                st.write_to(&mut buf, l);
                copy_to_user(arg, &buf[..l.size])
            },
        )?;
        Ok(0)
    }

    /// SYNC_PTR with the time32 struct, the way the boot option chose.
    fn sync_ptr32(&self, arg: u32) -> Result<u32, Errno> {
        let l = &uapi::SYNC_PTR32;
        match sync_ptr_way() {
            SyncPtrWay::Field => {
                let input = (|| -> Result<SyncPtrIn, Efault> {
                    Ok(SyncPtrIn {
                        flags: get_user(at(arg, l.flags)?)?,
                        appl_ptr: get_user(at(arg, l.appl_ptr)?)?,
                        avail_min: get_user(at(arg, l.avail_min)?)?,
                    })
                })()
                .map_err(fault)?;
                self.transact(
                    |s| s.sync_ptr(input, now()),
                    |out| out.puts32().iter().try_for_each(|&(off, v)| put_user(at(arg, off)?, v)),
                )?;
            }
            SyncPtrWay::Copy => {
                let mut buf = [0u8; uapi::SYNC_PTR32.size];
                copy_from_user(&mut buf, arg).map_err(fault)?;
                let input = SyncPtrIn::read_from(&buf, l);
                self.transact(
                    |s| s.sync_ptr(input, now()),
                    |out| {
                        out.write_to(input.flags, &mut buf, l);
                        copy_to_user(arg, &buf)
                    },
                )?;
            }
            SyncPtrWay::Window => {
                let input = read_sync_ptr_in(arg, l).map_err(fault)?;
                self.transact(
                    |s| s.sync_ptr(input, now()),
                    |out| {
                        let mut w = UserWindow::open(arg, l.size as u32, Access::Write)?;
                        for (off, v) in out.puts32() {
                            w.put(off as u32, v);
                        }
                        w.finish()
                    },
                )?;
            }
        }
        Ok(0)
    }

    /// SYNC_PTR with the 136-byte time64 struct: one window in, one out.
    fn sync_ptr64(&self, arg: u32) -> Result<u32, Errno> {
        let l = &uapi::SYNC_PTR64;
        let input = read_sync_ptr_in(arg, l).map_err(fault)?;
        self.transact(
            |s| s.sync_ptr(input, now()),
            |out: &SyncPtrOut| {
                // Every value sits in an 8-byte slot whose other half (and the
                // padding) must read as zero: encode the whole struct, then
                // store it word by word.
                let mut buf = [0u8; uapi::SYNC_PTR64.size];
                out.write_to(input.flags, &mut buf, l);
                let mut w = UserWindow::open(arg, l.size as u32, Access::Write)?;
                for off in (0..l.size).step_by(4) {
                    w.put(off as u32, get_u32(&buf, off));
                }
                w.finish()
            },
        )?;
        Ok(0)
    }

    /// WRITEI_FRAMES: the `snd_xferi` names the samples; the frame count (or
    /// the negated errno) goes back into its `result`, as in Linux.
    fn writei(&self, arg: u32) -> Result<u32, Errno> {
        let w = UserWindow::open(arg, xferi::SIZE as u32, Access::Read).map_err(fault)?;
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
        let frame_bytes = self.stream.borrow().config().map_or(0, |c| c.frame_bytes());
        let mut done = 0u32;
        while done < frames {
            let left = frames - done;
            let reserved = self.stream.borrow_mut().reserve_write(left, now());
            let granted = match reserved {
                Ok(n) => n,
                Err(PcmError::Again) => {
                    let wake = {
                        let s = self.stream.borrow();
                        s.wake_time_ns(left.min(s.avail_min()))
                    };
                    match wake {
                        _ if self.flags.nonblocking() => return partial(done, Errno::EAGAIN),
                        None => return partial(done, Errno::EAGAIN),
                        Some(t) if timer::sleep_until(t).is_err() => return partial(done, Errno::ERESTARTSYS),
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
            self.stream.borrow_mut().commit_write(granted, now());
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
        self.stream.borrow_mut().drain(now()).map_err(errno)?;
        if self.flags.nonblocking() && self.stream.borrow().state() == State::Draining {
            return Err(Errno::EAGAIN);
        }
        loop {
            let wake = {
                let s = self.stream.borrow();
                if s.state() != State::Draining {
                    return Ok(0);
                }
                s.wake_time_ns(s.config().map_or(0, |c| c.buffer_size))
            };
            let Some(t) = wake else { return Ok(0) };
            if timer::sleep_until(t).is_err() {
                return Err(Errno::ERESTARTSYS);
            }
            // The update that ends the drain reports it as Err(Pipe).
            let _ = self.stream.borrow_mut().update(now());
        }
    }
}

/// The three SYNC_PTR inputs, read in one window over the struct.
fn read_sync_ptr_in(arg: u32, l: &SyncPtrLayout) -> Result<SyncPtrIn, Efault> {
    let w = UserWindow::open(arg, l.size as u32, Access::Read)?;
    let input = SyncPtrIn {
        flags: w.get(l.flags as u32),
        appl_ptr: w.get(l.appl_ptr as u32),
        avail_min: w.get(l.avail_min as u32),
    };
    w.finish().map(|_| input)
}

/// Reads (and discards) `len` bytes of samples at `addr`, in one window.
fn read_samples(addr: u32, len: u32) -> Result<(), Efault> {
    let w = UserWindow::open(addr, len, Access::Read)?;
    for off in 0..len {
        let _: u8 = w.get(off);
    }
    w.finish()
}

impl FileOps for Pcm {
    /// ALSA's char major 116; minor 16 is card 0, device 0, playback.
    fn stat(&self) -> Stat {
        Stat::chr(116, 16)
    }

    fn status_flags(&self) -> u32 {
        self.flags.get()
    }

    fn set_status_flags(&self, new: u32) {
        self.flags.set(new);
    }

    /// write(2) of interleaved frames (`snd_pcm_write`): EBADFD before
    /// HW_PARAMS, EINVAL for a partial frame; returns bytes.
    fn write(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        let Some(cfg) = self.stream.borrow().config() else { return Err(Errno::EBADFD) };
        let fb = cfg.frame_bytes();
        if len % fb != 0 {
            return Err(Errno::EINVAL);
        }
        self.write_frames(buf, len / fb).map(|f| f * fb)
    }

    fn ioctl(&self, req: u32, arg: u32) -> Result<u32, Errno> {
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
                self.stream.borrow_mut().set_user_pversion(v);
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
            I::Delay => self.transact(|s| s.delay(now()), |&d| put_user(arg, d)).map(|_| 0),
            I::Hwsync => self.simple(|s| s.hwsync(now())),
            I::SyncPtr32 => self.sync_ptr32(arg),
            I::SyncPtr64 => self.sync_ptr64(arg),
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
