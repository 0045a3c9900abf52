//! Pipes and FIFOs: a bounded byte ring shared by read ends and write ends.
//!
//! Linux semantics (`fs/pipe.c`): a read returns what is buffered (at most
//! `len`), blocks while the ring is empty and a writer exists, and returns 0
//! (end of file) once every write end is closed. A write blocks while the
//! ring is full; writes of at most PIPE_BUF bytes are atomic (they wait for
//! room for all of it). Writing with no read end left raises SIGPIPE and
//! fails with EPIPE. A sleep interrupted by a signal returns ERESTARTSYS if
//! nothing was moved yet (the signal path then restarts the call or turns it
//! into EINTR), or the partial count.
//!
//! Each end is one open file description: fork and dup share it, so "all
//! writers closed" is "the last write end object dropped" (`Drop` keeps the
//! counts). A FIFO (named pipe, `mkfifo`) is the same ring reached through
//! a tmpfs inode: each open(2) adds an end, and opening waits for the other
//! side as Linux's `fifo_open` does. The ring grows on demand up to its
//! capacity, so an idle pipe costs no buffer.
//!
//! Rings live on the kernel heap, so their capacities are reserved from a
//! system-wide budget when a pipe is made (Linux's pipe-user-pages limits):
//! PIPE_SIZE while less than PIPES_SOFT is reserved, one page past it, and
//! past PIPES_HARD pipe() fails with ENFILE. Without it, a few processes
//! filling pipes would exhaust the heap and panic the kernel.

use alloc::collections::VecDeque;
use alloc::rc::{Rc, Weak};
use alloc::sync::Arc;
use core::cell::RefCell;
use core::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

use sigil_core::abi::Errno;
use sigil_core::signal::{SigInfo, Signal};

use super::poll::{PollWait, WaitQueue};
use super::tmpfs::Node;
use super::{flags, File, FileOps, Stat, StatusFlags, POLLERR, POLLHUP, POLLIN, POLLOUT};
use crate::mm::heap;
use crate::proc;
use crate::uaccess::{copy_from_user, copy_to_user, put_user};

/// Capacity: Linux's default (16 pages).
pub const PIPE_SIZE: usize = 64 * 1024;
/// Writes up to this size are atomic.
pub const PIPE_BUF: usize = 4096;
/// Reserved ring capacity beyond which new pipes get one page, and beyond
/// which pipe() fails (the kernel heap is 16 MiB).
const PIPES_SOFT: usize = 2 << 20;
const PIPES_HARD: usize = 6 << 20;
/// Ring capacity reserved by all live pipes.
static RESERVED: AtomicUsize = AtomicUsize::new(0);
/// FIONREAD: bytes waiting to be read.
const FIONREAD: u32 = 0x4004_667f;

/// Inode numbers for fstat (both ends of a pipe report the same one).
static NEXT_INO: AtomicU32 = AtomicU32::new(0x1000);

struct Ring {
    buf: VecDeque<u8>,
    /// Most bytes buffered at once (reserved from RESERVED).
    cap: usize,
    readers: u32,
    writers: u32,
    /// Opens of a read and of a write end so far (Linux's r_counter and
    /// w_counter): a FIFO opener waiting for its partner waits for one of
    /// these to move, so a partner that opens and closes at once is seen.
    r_opens: u32,
    w_opens: u32,
    ino: u64,
    /// The maker's fs uid and gid, which fstat reports.
    owner: (u32, u32),
}

/// What every end shares: the ring, and the processes polling either end.
pub struct Pipe {
    ring: RefCell<Ring>,
    pollers: WaitQueue,
}

type Shared = Rc<Pipe>;

/// Sleep channel for a pipe: its shared state's address. Readers, writers
/// and FIFO openers sleep on the same channel; every change wakes them all,
/// and the pollers.
fn chan(s: &Shared) -> usize {
    Rc::as_ptr(s) as usize
}

fn wake(s: &Shared) {
    proc::wakeup(chan(s));
    s.pollers.wake();
}

/// One open end: pipe(2) makes a read end and a write end; open(2) of a
/// FIFO makes one end for its access mode, O_RDWR being both at once.
pub struct End {
    pipe: Shared,
    flags: StatusFlags,
    /// The FIFO's inode (stat, fchmod, /proc/<pid>/fd); None for pipe(2)'s.
    node: Option<Node>,
    /// `w_opens` when this end was opened: a reader sees a hang-up only
    /// once a writer came and went (Linux compares `f_version` with
    /// `w_counter` in pipe_poll), not on a FIFO no writer ever opened.
    w_seen: u32,
}

impl Drop for Ring {
    fn drop(&mut self) {
        RESERVED.fetch_sub(self.cap, Ordering::Relaxed);
    }
}

impl Pipe {
    /// A new pipe with no end open yet, its capacity reserved from the
    /// budget: ENFILE when that is spent.
    fn new() -> Result<Shared, Errno> {
        let reserved = RESERVED.load(Ordering::Relaxed);
        let cap = if reserved + PIPE_SIZE <= PIPES_SOFT { PIPE_SIZE } else { PIPE_BUF };
        if reserved + cap > PIPES_HARD {
            return Err(Errno::ENFILE);
        }
        RESERVED.fetch_add(cap, Ordering::Relaxed);
        let ino = NEXT_INO.fetch_add(1, Ordering::Relaxed) as u64;
        let c = crate::cred::current();
        let (readers, writers, r_opens, w_opens) = (0, 0, 0, 0);
        let owner = (c.uid.fs, c.gid.fs);
        let ring =
            Ring { buf: VecDeque::new(), cap, readers, writers, r_opens, w_opens, ino, owner };
        heap::rc(Pipe { ring: RefCell::new(ring), pollers: WaitQueue::new() })
    }
}

impl End {
    /// Opens an end of `pipe` with `oflags`' access mode and O_NONBLOCK,
    /// counting it among the readers and/or writers.
    fn open(pipe: &Shared, oflags: u32, node: Option<Node>) -> End {
        let flags = StatusFlags::new(oflags & (flags::O_ACCMODE | flags::O_NONBLOCK));
        let mut r = pipe.ring.borrow_mut();
        let w_seen = r.w_opens;
        let end = End { pipe: pipe.clone(), flags, node, w_seen };
        if end.reads() {
            r.readers += 1;
            r.r_opens += 1;
        }
        if end.writes() {
            r.writers += 1;
            r.w_opens += 1;
        }
        drop(r);
        wake(pipe);
        end
    }

    fn reads(&self) -> bool {
        self.flags.get() & flags::O_ACCMODE != flags::O_WRONLY
    }

    fn writes(&self) -> bool {
        self.flags.get() & flags::O_ACCMODE != flags::O_RDONLY
    }

    /// Sleeps until `opens` (of the other kind of end) moves: a FIFO's
    /// blocking open waiting for its partner (Linux `wait_for_partner`).
    fn wait_partner(&self, opens: fn(&Ring) -> u32) -> Result<(), Errno> {
        let seen = opens(&self.pipe.ring.borrow());
        while opens(&self.pipe.ring.borrow()) == seen {
            proc::sleep(chan(&self.pipe)).map_err(|_| Errno::ERESTARTSYS)?;
        }
        Ok(())
    }
}

/// pipe2: a new pipe's (read end, write end), with O_NONBLOCK from `oflags`.
/// ENFILE when the pipe budget is spent.
pub fn new(oflags: u32) -> Result<(Arc<File>, Arc<File>), Errno> {
    let pipe = Pipe::new()?;
    let nb = oflags & flags::O_NONBLOCK;
    let r = End::open(&pipe, flags::O_RDONLY | nb, None);
    let w = End::open(&pipe, flags::O_WRONLY | nb, None);
    Ok((heap::arc(r)?, heap::arc(w)?))
}

/// A FIFO's inode (mkfifo): the pipe its openers share. The first open
/// makes it and the last close frees it (Linux's `inode->i_pipe`), so
/// bytes left when nobody has the FIFO open are discarded.
#[derive(Default)]
pub struct Fifo(RefCell<Weak<Pipe>>);

/// open(2) of the FIFO `node` (Linux `fifo_open`). O_RDONLY waits for a
/// writer and O_WRONLY for a reader, unless one is there or O_NONBLOCK is
/// set: then a read end opens at once, and a write end with no reader is
/// ENXIO. O_RDWR never waits. A signal while waiting is ERESTARTSYS.
pub fn open_fifo(fifo: &Fifo, node: &Node, oflags: u32) -> Result<Arc<File>, Errno> {
    let live = fifo.0.borrow().upgrade();
    let pipe = match live {
        Some(p) => p,
        None => {
            let p = Pipe::new()?;
            *fifo.0.borrow_mut() = Rc::downgrade(&p);
            p
        }
    };
    let nonblock = oflags & flags::O_NONBLOCK != 0;
    let acc = oflags & flags::O_ACCMODE;
    let (readers, writers) = {
        let r = pipe.ring.borrow();
        (r.readers, r.writers)
    };
    if acc == flags::O_WRONLY && nonblock && readers == 0 {
        return Err(Errno::ENXIO);
    }
    let end = End::open(&pipe, oflags, Some(node.clone()));
    if !nonblock {
        match acc {
            flags::O_RDONLY if writers == 0 => end.wait_partner(|r| r.w_opens)?,
            flags::O_WRONLY if readers == 0 => end.wait_partner(|r| r.r_opens)?,
            _ => {}
        }
    }
    Ok(heap::arc(end)?)
}

impl FileOps for End {
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        // Linux: a write-only end is not open for reading.
        if !self.reads() {
            return Err(Errno::EBADF);
        }
        if len == 0 {
            return Ok(0);
        }
        loop {
            {
                let mut r = self.pipe.ring.borrow_mut();
                if !r.buf.is_empty() {
                    let n = (len as usize).min(r.buf.len());
                    // Copy first, consume after: a bad buffer loses no data.
                    let (a, b) = r.buf.as_slices();
                    let (a, b) =
                        if n <= a.len() { (&a[..n], &b[..0]) } else { (a, &b[..n - a.len()]) };
                    copy_to_user(buf, a)?;
                    copy_to_user(buf + a.len() as u32, b)?;
                    r.buf.drain(..n);
                    drop(r);
                    wake(&self.pipe);
                    return Ok(n as u32);
                }
                if r.writers == 0 {
                    return Ok(0);
                }
            }
            if self.flags.nonblocking() {
                return Err(Errno::EAGAIN);
            }
            proc::sleep(chan(&self.pipe)).map_err(|_| Errno::ERESTARTSYS)?;
        }
    }

    /// FIONREAD, on either end as on Linux: the bytes waiting to be read.
    fn ioctl(&self, req: u32, arg: u32) -> Result<u32, Errno> {
        if req != FIONREAD {
            return Err(Errno::ENOTTY);
        }
        let n = self.pipe.ring.borrow().buf.len() as u32;
        put_user(arg, n).map(|_| 0).map_err(Errno::from)
    }

    fn stat(&self) -> Stat {
        match &self.node {
            Some(node) => node.stat(),
            None => {
                let r = self.pipe.ring.borrow();
                Stat::fifo(r.ino, r.owner)
            }
        }
    }
    fn inode(&self) -> Option<&Node> {
        self.node.as_ref()
    }
    fn status(&self) -> Option<&StatusFlags> {
        Some(&self.flags)
    }
    fn poll_ready(&self) -> u16 {
        let r = self.pipe.ring.borrow();
        let mut ev = 0;
        if self.reads() {
            if !r.buf.is_empty() {
                ev |= POLLIN;
            }
            if r.writers == 0 && r.w_opens != self.w_seen {
                ev |= POLLHUP;
            }
        }
        if self.writes() {
            if r.readers == 0 {
                ev |= POLLOUT | POLLERR;
            } else if r.cap - r.buf.len() >= PIPE_BUF {
                ev |= POLLOUT;
            }
        }
        ev
    }
    fn poll_wait(&self) -> PollWait<'_> {
        PollWait::Queue(&self.pipe.pollers)
    }

    fn write(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        // Linux: a read-only end is not open for writing.
        if !self.writes() {
            return Err(Errno::EBADF);
        }
        let len = len as usize;
        let mut done = 0usize;
        let mut chunk = [0u8; 512];
        loop {
            {
                let mut r = self.pipe.ring.borrow_mut();
                if r.readers == 0 {
                    drop(r);
                    let (pid, tid) = (proc::group().pid, proc::current().tid);
                    // Linux send_sig(SIGPIPE, current, 0): SI_USER from
                    // itself, to the writing thread.
                    let info = SigInfo::kill(Signal::SIGPIPE, pid, 0);
                    let _ = crate::signal::send_thread(tid, info, false);
                    return if done > 0 { Ok(done as u32) } else { Err(Errno::EPIPE) };
                }
                let room = r.cap - r.buf.len();
                // A small write goes in whole or waits; a big one goes in pieces.
                let fits = if len <= PIPE_BUF { room >= len - done } else { room > 0 };
                if fits {
                    let n = room.min(len - done);
                    // The ring grows on the heap as it fills (its capacity
                    // is budgeted, its memory is not held in advance): a
                    // heap that cannot give it is ENOMEM, as Linux's
                    // pipe_write when alloc_page fails.
                    if r.buf.try_reserve(n).is_err() {
                        return if done > 0 { Ok(done as u32) } else { Err(Errno::ENOMEM) };
                    }
                    let mut copied = 0;
                    while copied < n {
                        let k = (n - copied).min(chunk.len());
                        if copy_from_user(&mut chunk[..k], buf + (done + copied) as u32).is_err() {
                            drop(r);
                            wake(&self.pipe);
                            let total = done + copied;
                            return if total > 0 { Ok(total as u32) } else { Err(Errno::EFAULT) };
                        }
                        r.buf.extend(&chunk[..k]);
                        copied += k;
                    }
                    done += n;
                    drop(r);
                    wake(&self.pipe);
                    if done == len {
                        return Ok(len as u32);
                    }
                    continue;
                }
            }
            if self.flags.nonblocking() {
                return if done > 0 { Ok(done as u32) } else { Err(Errno::EAGAIN) };
            }
            if proc::sleep(chan(&self.pipe)).is_err() {
                return if done > 0 { Ok(done as u32) } else { Err(Errno::ERESTARTSYS) };
            }
        }
    }
}

impl Drop for End {
    fn drop(&mut self) {
        let mut r = self.pipe.ring.borrow_mut();
        if self.reads() {
            r.readers -= 1;
        }
        if self.writes() {
            r.writers -= 1;
        }
        drop(r);
        wake(&self.pipe);
    }
}
