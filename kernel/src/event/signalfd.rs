//! signalfd: the caller's pending signals read as data (Linux
//! `fs/signalfd.c`). A program blocks a set of signals and reads them from
//! the descriptor instead of running a handler, or polls it beside its
//! other descriptors.
//!
//! The file holds only the mask. Whoever reads it takes its own signals:
//! the thread's queue first, then its process's (`signal::take`, the same
//! dequeue by pointer as delivery and sigtimedwait), so after fork the
//! child reads the child's. Each signal becomes one 128-byte
//! `signalfd_siginfo` (`sigil_core::signal::signalfd::record`), written in
//! one user-access window, and its node is freed.
//!
//! Waking: a signal in the mask is normally blocked, so generating it does
//! not wake the reader as it would wake a sleeper with the signal
//! unblocked. Linux wakes every signalfd waiter of the receiving process
//! (`signalfd_notify`); Sigil keeps one queue for all readers and pollers
//! of every signalfd, `signal::SIGNALFD_READERS`, which each generation
//! wakes (`signal::notify_signalfd`): a woken thread looks again and sleeps
//! if nothing of its mask came. With nobody waiting, the cost is a look at
//! an empty list. The queue is the signal layer's, so generating a signal
//! calls nothing above it.

use alloc::sync::Arc;
use core::cell::Cell;

use sigil_core::abi::Errno;
use sigil_core::signal::signalfd::{record, SIGNALFD_INFO_SIZE};
use sigil_core::signal::SigSet;

use crate::fs::poll::PollWait;
use crate::fs::{flags, File, FileOps, StatusFlags, POLLIN};
use crate::mm::heap;
use crate::proc;
use crate::signal::{notify_signalfd, SIGNALFD_READERS};
use crate::uaccess::{UserWindow, Write};

pub struct SignalFd {
    /// The signals this descriptor takes (never SIGKILL or SIGSTOP).
    mask: Cell<SigSet>,
    flags: StatusFlags,
}

/// signalfd4's new file for `mask`, O_NONBLOCK from `oflags`.
pub fn new(mask: SigSet, oflags: u32) -> Result<Arc<File>, Errno> {
    let flags = StatusFlags::new(flags::O_RDWR | oflags & flags::O_NONBLOCK);
    Ok(heap::arc(SignalFd { mask: Cell::new(mask), flags })?)
}

impl FileOps for SignalFd {
    /// As many pending signals of the mask as whole records fit in `len`
    /// (EINVAL if not one does), waiting for the first unless O_NONBLOCK
    /// (then EAGAIN). A bad buffer is EFAULT and, as on Linux, the signal
    /// it was to receive is consumed.
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        let room = len / SIGNALFD_INFO_SIZE;
        if room == 0 {
            return Err(Errno::EINVAL);
        }
        let mut taken = 0;
        while taken < room {
            // Looked up again after each sleep (the invariants of `proc`).
            let Some(node) = crate::signal::take(proc::current(), self.mask.get()) else {
                if taken > 0 {
                    break;
                }
                if self.flags.nonblocking() {
                    return Err(Errno::EAGAIN);
                }
                SIGNALFD_READERS.get().sleep().map_err(|_| Errno::ERESTARTSYS)?;
                continue;
            };
            let at = buf.wrapping_add(taken * SIGNALFD_INFO_SIZE);
            let written = UserWindow::open(at, SIGNALFD_INFO_SIZE, Write).and_then(|mut w| {
                w.put_slice(0, &record(&node.info));
                w.finish()
            });
            if written.is_err() {
                return if taken > 0 { Ok(taken * SIGNALFD_INFO_SIZE) } else { Err(Errno::EFAULT) };
            }
            taken += 1;
        }
        Ok(taken * SIGNALFD_INFO_SIZE)
    }

    fn status(&self) -> Option<&StatusFlags> {
        Some(&self.flags)
    }
    /// Readable while the caller has a signal of the mask pending.
    fn poll_ready(&self) -> u16 {
        let t = proc::current();
        let pending = t.sig.pending.pending().union(t.group().sig.shared.pending());
        if pending.intersect(self.mask.get()).is_empty() {
            0
        } else {
            POLLIN
        }
    }
    fn poll_wait(&self) -> PollWait<'_> {
        PollWait::Queue(SIGNALFD_READERS.get())
    }
    fn anon_name(&self) -> Option<&'static str> {
        Some("[signalfd]")
    }
    fn set_signal_mask(&self, mask: SigSet) -> Result<(), Errno> {
        self.mask.set(mask);
        notify_signalfd();
        Ok(())
    }
}
