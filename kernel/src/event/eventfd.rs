//! eventfd: a u64 counter behind a descriptor, for one thread or process
//! to wake another (Linux `fs/eventfd.c`). The counting rules are
//! sigil-core's (`sigil_core::eventfd`); this file blocks and wakes.

use alloc::sync::Arc;
use core::cell::Cell;

use sigil_core::abi::Errno;
use sigil_core::eventfd::{check_len, Counter, Step};

use crate::fs::poll::{PollWait, WaitQueue};
use crate::fs::{flags, File, FileOps, StatusFlags, POLLIN, POLLOUT};
use crate::mm::heap;
use crate::proc;
use crate::uaccess::{get_user, put_user};

pub struct EventFd {
    counter: Cell<Counter>,
    flags: StatusFlags,
    pollers: WaitQueue,
}

/// eventfd2's file: `counter` made from its arguments, O_NONBLOCK from
/// `oflags`.
pub fn new(counter: Counter, oflags: u32) -> Result<Arc<File>, Errno> {
    let flags = StatusFlags::new(flags::O_RDWR | oflags & flags::O_NONBLOCK);
    Ok(heap::arc(EventFd { counter: Cell::new(counter), flags, pollers: WaitQueue::new() })?)
}

impl EventFd {
    /// Readers and writers sleep on the object's address.
    fn chan(&self) -> usize {
        self as *const EventFd as usize
    }

    fn changed(&self) {
        proc::wakeup(self.chan());
        self.pollers.wake();
    }

    /// Runs `op` on a copy of the counter until it is done, sleeping while
    /// it must wait; `commit` sees the value first (a bad user buffer then
    /// changes nothing).
    fn run(
        &self,
        op: impl Fn(&mut Counter) -> Result<Step, Errno>,
        commit: impl FnOnce(u64) -> Result<(), Errno>,
    ) -> Result<u32, Errno> {
        loop {
            let mut c = self.counter.get();
            if let Step::Done(v) = op(&mut c)? {
                commit(v)?;
                self.counter.set(c);
                self.changed();
                return Ok(8);
            }
            if self.flags.nonblocking() {
                return Err(Errno::EAGAIN);
            }
            proc::sleep(self.chan()).map_err(|_| Errno::ERESTARTSYS)?;
        }
    }
}

impl FileOps for EventFd {
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        check_len(len)?;
        self.run(|c| Ok(c.read()), |v| put_user(buf, v).map_err(Errno::from))
    }

    fn write(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        check_len(len)?;
        let v: u64 = get_user(buf)?;
        self.run(|c| c.write(v), |_| Ok(()))
    }

    fn status(&self) -> Option<&StatusFlags> {
        Some(&self.flags)
    }
    fn poll_ready(&self) -> u16 {
        let c = self.counter.get();
        (if c.readable() { POLLIN } else { 0 }) | if c.writable() { POLLOUT } else { 0 }
    }
    fn poll_wait(&self) -> PollWait<'_> {
        PollWait::Queue(&self.pollers)
    }
    fn anon_name(&self) -> Option<&'static str> {
        Some("[eventfd]")
    }
}
