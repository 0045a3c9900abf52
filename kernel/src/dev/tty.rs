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

use crate::arch;
use crate::kcell::KCell;
use crate::proc;
use crate::uaccess::{copy_from_user, copy_to_user, put_user};

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
}

static TTY: KCell<Option<Tty>> = KCell::new(None);

fn tty() -> &'static mut Tty {
    TTY.get().get_or_insert_with(|| Tty {
        ld: Ldisc::default(),
        link: None,
        winsize: Winsize { ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0 },
        held: false,
        last_rx: 0,
    })
}

/// Readers, writers waiting for output to restart, and pollers sleep here.
fn chan() -> usize {
    &TTY as *const _ as usize
}

fn wake() {
    proc::wakeup(chan());
    proc::wakeup(crate::fs::POLL_CHAN);
}

/// Boot: settings for the input kind, then the receive interrupt on.
pub fn init() {
    let t = tty();
    if PIPE_INPUT.load(Ordering::Relaxed) {
        t.link = Some(Decoder::new());
        let mut tm = t.ld.termios;
        tm.c_lflag &= !(ECHO | ECHONL);
        t.ld.set_termios(tm);
    }
    // Input waits in the UART until PID 1 runs: the interrupt is taken in
    // user mode or the idle loop, never before the leak check's baseline.
    arch::console_irq(true);
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
        let Some(b) = arch::console_getc() else { break };
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
        arch::console_irq(!full);
    }
    if got {
        t.last_rx = crate::dev::timer::now_ns();
        wake();
    }
}

/// Sends a signal character's signal to the terminal's foreground group.
fn signal_foreground(sig: Signal) {
    let _ = SigInfo::kernel(sig);
}

/// read(2): what the discipline allows now, else sleep until input comes
/// (or, in raw mode with VTIME, its timer runs out). ERESTARTSYS when a
/// signal interrupts the wait before anything was read.
pub fn read_user(buf: u32, len: u32, nonblock: bool) -> Result<u32, Errno> {
    if len == 0 {
        return Ok(0);
    }
    let start = crate::dev::timer::now_ns();
    loop {
        let t = tty();
        pull(t);
        let avail = t.ld.available();
        let vmin = t.ld.termios.c_cc[VMIN];
        let deadline =
            t.ld.read_timer_ns().map(|ns| if vmin == 0 { start + ns } else { t.last_rx + ns });
        let now = crate::dev::timer::now_ns();
        let timed_out = deadline.is_some_and(|d| now >= d && (vmin == 0 || avail > 0));
        match t.ld.poll_read(len as usize, timed_out) {
            ReadNow::Bytes(n) => {
                // Copy first, consume after: a bad buffer loses no input.
                let (a, b) = t.ld.peek(n);
                copy_to_user(buf, a).map_err(|_| Errno::EFAULT)?;
                copy_to_user(buf + a.len() as u32, b).map_err(|_| Errno::EFAULT)?;
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
            crate::dev::timer::arm(d, crate::dev::timer::Event::Wake(proc::current().pid))
        });
        let slept = proc::sleep(chan());
        if let Some(key) = timer {
            crate::dev::timer::cancel(key);
        }
        slept.map_err(|_| Errno::ERESTARTSYS)?;
    }
}

/// write(2): user bytes through output processing (ONLCR...), in chunks read
/// through one window each; waits while output is stopped (^S, TCOOFF).
pub fn write_user(addr: u32, len: u32) -> Result<u32, Errno> {
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

/// The terminal ioctls.
pub fn ioctl(req: u32, arg: u32) -> Result<u32, Errno> {
    let t = tty();
    match req {
        TCGETS => copy_to_user(arg, &t.ld.termios.to_bytes()).map_err(|_| Errno::EFAULT)?,
        TCSETS | TCSETSW | TCSETSF => {
            let mut b = [0u8; 44];
            copy_from_user(&mut b, arg).map_err(|_| Errno::EFAULT)?;
            // Output is written synchronously: TCSETSW has nothing to drain.
            if req == TCSETSF {
                t.ld.flush_input();
            }
            t.ld.set_termios(Termios::from_bytes(&b));
            pull(t);
            wake();
        }
        TIOCGWINSZ => copy_to_user(arg, &t.winsize.to_bytes()).map_err(|_| Errno::EFAULT)?,
        TIOCSWINSZ => {
            let mut b = [0u8; 8];
            copy_from_user(&mut b, arg).map_err(|_| Errno::EFAULT)?;
            let new = Winsize::from_bytes(&b);
            if new != t.winsize {
                t.winsize = new;
                signal_foreground(Signal::SIGWINCH);
            }
        }
        FIONREAD => put_user(arg, t.ld.available() as u32).map_err(|_| Errno::EFAULT)?,
        TIOCOUTQ => put_user(arg, 0u32).map_err(|_| Errno::EFAULT)?,
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
        _ => return Err(Errno::ENOTTY),
    }
    Ok(0)
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
