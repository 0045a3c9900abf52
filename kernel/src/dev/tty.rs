//! The console as a terminal: the one tty Sigil has (/dev/console,
//! /dev/tty, /dev/ttyS0 and PID 1's descriptors 0-2 all name it).
//!
//! Receive is interrupt driven: the UART's interrupt (`rx_interrupt`) moves
//! bytes into the line discipline (`sigil_core::tty::Ldisc`) until its
//! buffer is full, then masks itself, leaving the next byte in the UART, so
//! the sender (QEMU, and behind it the host pipe) waits: nothing is lost. A
//! read that takes bytes makes room and pulls the UART again. Readers sleep
//! on the terminal's channel; receive wakes them (and poll).
//!
//! Job control, as Linux's tty layer does it: the terminal belongs to at
//! most one session (the controlling terminal of every process in it) and
//! has a foreground process group. A session leader gets it by TIOCSCTTY
//! or by opening /dev/ttyS0 without O_NOCTTY (/dev/console never becomes
//! one, as on Linux); the session loses it when its leader exits (the
//! foreground group gets SIGHUP) or calls TIOCNOTTY. Signal characters go
//! to the foreground group. A background process that reads gets SIGTTIN,
//! one that writes with TOSTOP or changes the settings gets SIGTTOU (its
//! group does), or EIO when its group is orphaned (nobody would continue
//! it) or, for reads, when it ignores or blocks SIGTTIN.
//!
//! Input from a host pipe (boot option `console=pipe`) is framed
//! (`sigil_core::tty::link`): its end becomes the terminal's end of input,
//! after the last byte. Echo starts off then: the input was not typed.
//!
//! Who calls: the `Console` file (fs) for read/write/ioctl/poll, `dev::irq`
//! for the interrupt, `cmdline` for `console=pipe`.

use core::sync::atomic::{AtomicBool, Ordering};

use sigil_core::abi::Errno;
use sigil_core::signal::{SigInfo, Signal};
use sigil_core::tty::ldisc::ReadNow;
use sigil_core::tty::link::{Decoder, Rx};
use sigil_core::tty::termios::*;
use sigil_core::tty::{Ldisc, Termios, Winsize};

use sigil_core::job::kill::KillTarget;

use crate::arch::{Arch, Console};
use crate::fs::poll::{PollWait, WaitQueue};
use crate::kcell::KCell;
use crate::proc::{self, Group};
use crate::uaccess::{copy_from_user, copy_to_user, get_user, put_user};

/// `console=pipe` was given: the input is a framed host stream.
pub static PIPE_INPUT: AtomicBool = AtomicBool::new(false);

struct Tty {
    ld: Ldisc,
    /// Set when the input is framed (`console=pipe`).
    link: Option<Decoder>,
    winsize: Winsize,
    /// The receive interrupt is masked because the buffer is full.
    held: bool,
    /// When the last byte arrived (ns), for VTIME's inter-byte timer.
    last_rx: u64,
    /// The session this is the controlling terminal of (0: none).
    session: u32,
    /// Its foreground process group (0: none).
    pgrp: u32,
    /// Threads polling the terminal (poll, select), woken as readers are.
    pollers: WaitQueue,
}

static TTY: KCell<Option<Tty>> = KCell::new(None);

fn tty() -> &'static mut Tty {
    TTY.get().get_or_insert_with(|| Tty {
        ld: Ldisc::default(),
        link: None,
        winsize: Winsize { ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0 },
        held: false,
        last_rx: 0,
        session: 0,
        pgrp: 0,
        pollers: WaitQueue::new(),
    })
}

/// Readers, writers waiting for output to restart, and pollers sleep here.
fn chan() -> usize {
    &TTY as *const _ as usize
}

fn wake() {
    proc::wakeup(chan());
    tty().pollers.wake();
}

/// Boot: settings for the input kind, then the receive interrupt on.
pub fn init() {
    crate::proc::wait::on_exit(exiting);
    let t = tty();
    if PIPE_INPUT.load(Ordering::Relaxed) {
        t.link = Some(Decoder::new());
        let mut tm = t.ld.termios;
        tm.c_lflag.remove(Lflag::ECHO | Lflag::ECHONL);
        t.ld.set_termios(tm);
    }
    // Input waits in the UART until PID 1 runs: the interrupt is taken in
    // user mode or the idle loop, never before the leak check's baseline.
    Arch::irq(true);
}

/// The UART's receive interrupt.
pub fn rx_interrupt() {
    pull(tty());
}

/// Moves received bytes from the UART into the discipline while it has
/// room; masks the interrupt when it has none (and unmasks it otherwise).
fn pull(t: &mut Tty) {
    let mut got = false;
    while t.ld.can_receive() {
        let Some(b) = Arch::getc() else { break };
        got = true;
        let b = match t.link.as_mut().map_or(Rx::Byte(b), |l| l.feed(b)) {
            Rx::Byte(b) => b,
            Rx::End => {
                t.ld.end_input();
                continue;
            }
            Rx::Pending => continue,
        };
        if let Some(sig) = t.ld.receive(b, &mut |c| crate::console::write_raw(&[c])) {
            signal_foreground(sig);
        }
    }
    let full = !t.ld.can_receive();
    if full != t.held {
        t.held = full;
        Arch::irq(!full);
    }
    if got {
        t.last_rx = crate::time::timer::now_ns();
        wake();
    }
}

/// Sends `sig` (from the kernel) to the terminal's foreground group.
fn signal_foreground(sig: Signal) {
    let pgrp = tty().pgrp;
    if pgrp != 0 {
        let _ = crate::signal::kill::send(KillTarget::Group(pgrp), Some(SigInfo::kernel(sig)));
    }
}

/// Is this the controlling terminal of `p`?
fn controls(t: &Tty, p: &Group) -> bool {
    t.session != 0 && p.job.sid == t.session
}

/// If the console is `p`'s controlling terminal: its foreground group
/// (0: none), for /proc/<pid>/stat's tty fields.
pub fn foreground_of(p: &Group) -> Option<u32> {
    let t = tty();
    controls(t, p).then_some(t.pgrp)
}

/// Is group `pgid` orphaned (no member has a parent in another group of
/// the same session, who could continue it)?
fn orphaned(pgid: u32) -> bool {
    let procs: alloc::vec::Vec<_> = proc::all().map(|p| p.member()).collect();
    sigil_core::job::orphan::orphaned_without(&procs, pgid, 0)
}

/// Linux `tty_check_change` and n_tty's read check: may the current process
/// use the terminal now? A process in the foreground group, or one this is
/// not the controlling terminal of, may. Otherwise: Ok if `sig` is ignored
/// or blocked and `quiet_ok` (writes and settings go ahead then), EIO if it
/// is so and not `quiet_ok`, or the group is orphaned; else `sig` to the
/// caller's group and ERESTARTSYS (the call runs again once continued).
fn job_check(sig: Signal, quiet_ok: bool) -> Result<(), Errno> {
    let t = tty();
    let me = proc::current();
    let p = me.group();
    if !controls(t, p) || t.pgrp == 0 || p.job.pgid == t.pgrp {
        return Ok(());
    }
    if crate::signal::ignored_or_blocked(me, sig) {
        return if quiet_ok { Ok(()) } else { Err(Errno::EIO) };
    }
    let pgid = p.job.pgid;
    if orphaned(pgid) {
        return Err(Errno::EIO);
    }
    let _ = crate::signal::kill::send(KillTarget::Group(pgid), Some(SigInfo::kernel(sig)));
    Err(Errno::ERESTARTSYS)
}

/// An open of the terminal under a name with job-control meaning: /dev/tty
/// is the caller's controlling terminal (ENXIO without one); /dev/ttyS0
/// becomes the controlling terminal of a session leader that has none,
/// unless O_NOCTTY. (`rdev` says which name; /dev/console is neither.)
pub fn opened(rdev: (u32, u32), noctty: bool) -> Result<(), Errno> {
    let t = tty();
    let p = proc::group();
    match rdev {
        (5, 0) if !controls(t, p) => Err(Errno::ENXIO),
        (4, 64) if !noctty && t.session == 0 && p.pid == p.job.sid => {
            t.session = p.job.sid;
            t.pgrp = p.job.pgid;
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Process `p` is exiting: if it leads the session this terminal controls,
/// the foreground group is hung up and the terminal is free again (Linux
/// `disassociate_ctty(1)`). The exit path calls it through
/// `proc::wait::on_exit`, as the process layer is below the devices.
fn exiting(p: &Group) {
    let t = tty();
    if controls(t, p) && p.pid == p.job.sid {
        disassociate(false);
    }
}

/// The session loses its terminal: SIGHUP to the foreground group (and
/// SIGCONT too unless the leader is exiting, as Linux does).
fn disassociate(cont: bool) {
    signal_foreground(Signal::SIGHUP);
    if cont {
        signal_foreground(Signal::SIGCONT);
    }
    let t = tty();
    t.session = 0;
    t.pgrp = 0;
}

/// The job-control ioctls (Linux `tiocsctty`, `tiocspgrp`, ...).
fn job_ioctl(req: u32, arg: u32) -> Result<u32, Errno> {
    let t = tty();
    let p = proc::group();
    match req {
        TIOCSCTTY => {
            if controls(t, p) {
                return Ok(0);
            }
            // Only a session leader without a terminal; stealing one from
            // another session needs arg 1 (and privilege: every Sigil
            // process is root).
            if p.pid != p.job.sid || (t.session != 0 && arg != 1) {
                return Err(Errno::EPERM);
            }
            t.session = p.job.sid;
            t.pgrp = p.job.pgid;
        }
        TIOCNOTTY => {
            if !controls(t, p) {
                return Err(Errno::ENOTTY);
            }
            // Only the leader's TIOCNOTTY ends the session's tie; Sigil has
            // no per-process terminal pointer for the others to drop.
            if p.pid == p.job.sid {
                disassociate(true);
            }
        }
        TIOCGPGRP | TIOCGSID => {
            if !controls(t, p) {
                return Err(Errno::ENOTTY);
            }
            let v = if req == TIOCGPGRP { t.pgrp } else { t.session };
            put_user(arg, v)?;
        }
        TIOCSPGRP => {
            if !controls(t, p) {
                return Err(Errno::ENOTTY);
            }
            job_check(Signal::SIGTTOU, true)?;
            let pgrp: i32 = get_user(arg)?;
            if pgrp < 0 {
                return Err(Errno::EINVAL);
            }
            let session = tty().session;
            let members = proc::all().find(|q| q.job.pgid == pgrp as u32).map(|q| q.job.sid);
            match members {
                None => return Err(Errno::ESRCH),
                Some(sid) if sid != session => return Err(Errno::EPERM),
                Some(_) => tty().pgrp = pgrp as u32,
            }
        }
        _ => return Err(Errno::ENOTTY),
    }
    Ok(0)
}

/// read(2): what the discipline allows now, else sleep until input comes
/// (or, in raw mode with VTIME, its timer runs out). ERESTARTSYS when a
/// signal interrupts the wait before anything was read.
pub fn read_user(buf: u32, len: u32, nonblock: bool) -> Result<u32, Errno> {
    job_check(Signal::SIGTTIN, false)?;
    if len == 0 {
        return Ok(0);
    }
    let start = crate::time::timer::now_ns();
    loop {
        let t = tty();
        pull(t);
        let avail = t.ld.available();
        let vmin = t.ld.termios.c_cc[VMIN];
        let deadline =
            t.ld.read_timer_ns().map(|ns| if vmin == 0 { start + ns } else { t.last_rx + ns });
        let now = crate::time::timer::now_ns();
        let timed_out = deadline.is_some_and(|d| now >= d && (vmin == 0 || avail > 0));
        match t.ld.poll_read(len as usize, timed_out) {
            ReadNow::Bytes(n) => {
                // Copy first, consume after: a bad buffer loses no input.
                let (a, b) = t.ld.peek(n);
                copy_to_user(buf, a)?;
                copy_to_user(buf + a.len() as u32, b)?;
                t.ld.consume(n);
                pull(t);
                return Ok(n as u32);
            }
            ReadNow::EndOfFile => {
                t.ld.consume(0);
                return Ok(0);
            }
            ReadNow::Wait => {}
        }
        if nonblock {
            return Err(Errno::EAGAIN);
        }
        let timer = deadline.filter(|_| vmin == 0 || avail > 0).map(|d| {
            crate::time::timer::arm(d, crate::time::timer::Event::Wake(proc::current().tid))
        });
        let slept = proc::sleep(chan());
        if let Some(key) = timer {
            crate::time::timer::cancel(key);
        }
        slept.map_err(|_| Errno::ERESTARTSYS)?;
    }
}

/// write(2): user bytes through output processing (ONLCR...), in chunks read
/// through one window each; waits while output is stopped (^S, TCOOFF).
pub fn write_user(addr: u32, len: u32) -> Result<u32, Errno> {
    if tty().ld.termios.c_lflag.contains(Lflag::TOSTOP) {
        job_check(Signal::SIGTTOU, true)?;
    }
    let mut buf = [0u8; 256];
    let mut out = [0u8; 512];
    let mut done = 0;
    while done < len {
        while tty().ld.stopped {
            if proc::sleep(chan()).is_err() {
                return if done > 0 { Ok(done) } else { Err(Errno::ERESTARTSYS) };
            }
        }
        let n = (len - done).min(buf.len() as u32);
        if copy_from_user(&mut buf[..n as usize], addr + done).is_err() {
            return if done > 0 { Ok(done) } else { Err(Errno::EFAULT) };
        }
        let ld = &tty().ld;
        let mut k = 0;
        for &b in &buf[..n as usize] {
            ld.output(b, &mut |c| {
                out[k] = c;
                k += 1;
            });
        }
        crate::console::write_raw(&out[..k]);
        done += n;
    }
    Ok(len)
}

/// The terminal ioctls. Those that change the terminal are background
/// writes: SIGTTOU (`job_check`).
pub fn ioctl(req: u32, arg: u32) -> Result<u32, Errno> {
    if matches!(req, TCSETS | TCSETSW | TCSETSF | TCFLSH | TCXONC | TIOCSWINSZ) {
        job_check(Signal::SIGTTOU, true)?;
    }
    let t = tty();
    match req {
        TCGETS => copy_to_user(arg, &t.ld.termios.to_bytes())?,
        TCSETS | TCSETSW | TCSETSF => {
            let mut b = [0u8; 44];
            copy_from_user(&mut b, arg)?;
            // Output is written synchronously: TCSETSW has nothing to drain.
            if req == TCSETSF {
                t.ld.flush_input();
            }
            t.ld.set_termios(Termios::from_bytes(&b));
            pull(t);
            wake();
        }
        TIOCGWINSZ => copy_to_user(arg, &t.winsize.to_bytes())?,
        TIOCSWINSZ => {
            let mut b = [0u8; 8];
            copy_from_user(&mut b, arg)?;
            let new = Winsize::from_bytes(&b);
            if new != t.winsize {
                t.winsize = new;
                signal_foreground(Signal::SIGWINCH);
            }
        }
        FIONREAD => put_user(arg, t.ld.available() as u32)?,
        TIOCOUTQ => put_user(arg, 0u32)?,
        TCFLSH => match arg {
            TCIFLUSH | TCIOFLUSH => {
                t.ld.flush_input();
                pull(t);
            }
            TCOFLUSH => {}
            _ => return Err(Errno::EINVAL),
        },
        TCXONC => match arg {
            TCOOFF => t.ld.stopped = true,
            TCOON => {
                t.ld.stopped = false;
                wake();
            }
            TCIOFF => crate::console::write_raw(&[t.ld.termios.c_cc[VSTOP]]),
            TCION => crate::console::write_raw(&[t.ld.termios.c_cc[VSTART]]),
            _ => return Err(Errno::EINVAL),
        },
        // Output is synchronous, so there is nothing to drain; no break.
        TCSBRK => {}
        _ => return job_ioctl(req, arg),
    }
    Ok(0)
}

/// poll: the terminal wakes its pollers wherever it wakes its readers.
pub fn poll_wait() -> PollWait<'static> {
    PollWait::Queue(&tty().pollers)
}

/// poll: readable when a read would not wait; writable unless stopped.
pub fn poll_ready() -> u16 {
    let t = tty();
    pull(t);
    let readable = match t.ld.poll_read(1, false) {
        ReadNow::Bytes(n) => n > 0 || t.ld.available() > 0,
        ReadNow::EndOfFile => true,
        ReadNow::Wait => false,
    };
    let mut ev = if readable { crate::fs::POLLIN } else { 0 };
    if !t.ld.stopped {
        ev |= crate::fs::POLLOUT;
    }
    ev
}

/// At power-off, with every process gone: the buffers go back to the heap
/// (unread input with them) so the leak check sees only real leaks.
pub fn release() {
    *TTY.get() = None;
}
