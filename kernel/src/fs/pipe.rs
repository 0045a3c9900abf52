//! Pipes: a bounded byte ring shared by a read end and a write end.
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
//! writers closed" is "the write end object dropped" (`Drop` keeps the
//! counts). The ring grows on demand up to its capacity, so an idle pipe
//! costs no buffer.
//!
//! Rings live on the kernel heap, so their capacities are reserved from a
//! system-wide budget when a pipe is made (Linux's pipe-user-pages limits):
//! PIPE_SIZE while less than PIPES_SOFT is reserved, one page past it, and
//! past PIPES_HARD pipe() fails with ENFILE. Without it, a few processes
//! filling pipes would exhaust the heap and panic the kernel.

use alloc::collections::VecDeque;
use alloc::rc::Rc;
use alloc::sync::Arc;
use core::cell::RefCell;
use core::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

use sigil_core::abi::Errno;
use sigil_core::signal::{SigInfo, Signal};

use super::poll::{PollWait, WaitQueue};
use super::{flags, File, FileOps, Stat, StatusFlags, POLLERR, POLLHUP, POLLIN, POLLOUT};
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
    ino: u64,
}

/// What both ends share: the ring, and the processes polling either end.
struct Pipe {
    ring: RefCell<Ring>,
    pollers: WaitQueue,
}

type Shared = Rc<Pipe>;

/// Sleep channel for a pipe: its shared state's address. Readers and writers
/// sleep on the same channel; every change wakes both, and the pollers.
fn chan(s: &Shared) -> usize {
    Rc::as_ptr(s) as usize
}

fn wake(s: &Shared) {
    proc::wakeup(chan(s));
    s.pollers.wake();
}

pub struct ReadEnd {
    pipe: Shared,
    flags: StatusFlags,
}

pub struct WriteEnd {
    pipe: Shared,
    flags: StatusFlags,
}

impl Drop for Ring {
    fn drop(&mut self) {
        RESERVED.fetch_sub(self.cap, Ordering::Relaxed);
    }
}

/// pipe2: a new pipe's (read end, write end), with O_NONBLOCK from `oflags`.
/// ENFILE when the pipe budget is spent.
pub fn new(oflags: u32) -> Result<(Arc<File>, Arc<File>), Errno> {
    let reserved = RESERVED.load(Ordering::Relaxed);
    let cap = if reserved + PIPE_SIZE <= PIPES_SOFT { PIPE_SIZE } else { PIPE_BUF };
    if reserved + cap > PIPES_HARD {
        return Err(Errno::ENFILE);
    }
    RESERVED.fetch_add(cap, Ordering::Relaxed);
    let ino = NEXT_INO.fetch_add(1, Ordering::Relaxed) as u64;
    let ring = Ring { buf: VecDeque::new(), cap, readers: 1, writers: 1, ino };
    let pipe = Rc::new(Pipe { ring: RefCell::new(ring), pollers: WaitQueue::new() });
    let nb = oflags & flags::O_NONBLOCK;
    let r = ReadEnd { pipe: pipe.clone(), flags: StatusFlags::new(flags::O_RDONLY | nb) };
    let w = WriteEnd { pipe, flags: StatusFlags::new(flags::O_WRONLY | nb) };
    Ok((Arc::new(r), Arc::new(w)))
}

impl FileOps for ReadEnd {
    /// Linux: the read end is not open for writing.
    fn write(&self, _buf: u32, _len: u32) -> Result<u32, Errno> {
        Err(Errno::EBADF)
    }

    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
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

    fn ioctl(&self, req: u32, arg: u32) -> Result<u32, Errno> {
        if req != FIONREAD {
            return Err(Errno::ENOTTY);
        }
        let n = self.pipe.ring.borrow().buf.len() as u32;
        put_user(arg, n).map(|_| 0).map_err(Errno::from)
    }

    fn stat(&self) -> Stat {
        Stat::fifo(self.pipe.ring.borrow().ino)
    }
    fn status_flags(&self) -> u32 {
        self.flags.get()
    }
    fn set_status_flags(&self, f: u32) {
        self.flags.set(f)
    }
    fn poll_ready(&self) -> u16 {
        let r = self.pipe.ring.borrow();
        let mut ev = if r.buf.is_empty() { 0 } else { POLLIN };
        if r.writers == 0 {
            ev |= POLLHUP;
        }
        ev
    }
    fn poll_wait(&self) -> PollWait<'_> {
        PollWait::Queue(&self.pipe.pollers)
    }
}

impl FileOps for WriteEnd {
    /// Linux: the write end is not open for reading.
    fn read(&self, _buf: u32, _len: u32) -> Result<u32, Errno> {
        Err(Errno::EBADF)
    }

    fn write(&self, buf: u32, len: u32) -> Result<u32, Errno> {
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

    fn stat(&self) -> Stat {
        Stat::fifo(self.pipe.ring.borrow().ino)
    }
    fn status_flags(&self) -> u32 {
        self.flags.get()
    }
    fn set_status_flags(&self, f: u32) {
        self.flags.set(f)
    }
    fn poll_ready(&self) -> u16 {
        let r = self.pipe.ring.borrow();
        if r.readers == 0 {
            return POLLOUT | POLLERR;
        }
        if r.cap - r.buf.len() >= PIPE_BUF {
            POLLOUT
        } else {
            0
        }
    }
}

impl Drop for ReadEnd {
    fn drop(&mut self) {
        self.pipe.ring.borrow_mut().readers -= 1;
        wake(&self.pipe);
    }
}

impl Drop for WriteEnd {
    fn drop(&mut self) {
        self.pipe.ring.borrow_mut().writers -= 1;
        wake(&self.pipe);
    }
}
