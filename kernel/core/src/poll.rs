//! select's view of poll: which poll events each of select's three sets
//! asks for, and which sets a descriptor's events mark (Linux `fs/select.c`).
//!
//! select is poll with bitmaps: a descriptor in `readfds` is ready for
//! POLLIN, POLLHUP or POLLERR (end of file and errors do not block a read),
//! in `writefds` for POLLOUT or POLLERR, in `exceptfds` for POLLPRI. The
//! result counts set bits, so one descriptor ready in two sets counts twice.

/// poll(2) event bits.
pub const POLLIN: u16 = 0x1;
pub const POLLPRI: u16 = 0x2;
pub const POLLOUT: u16 = 0x4;
pub const POLLERR: u16 = 0x8;
pub const POLLHUP: u16 = 0x10;
/// Not an open descriptor (poll only; select says EBADF).
pub const POLLNVAL: u16 = 0x20;

const IN_SET: u16 = POLLIN | POLLHUP | POLLERR;
const OUT_SET: u16 = POLLOUT | POLLERR;
const EX_SET: u16 = POLLPRI;

/// A descriptor's membership in select's sets: [read, write, except].
pub type Sets = [bool; 3];

/// The poll events to watch for a descriptor in `sets`.
pub const fn select_events(sets: Sets) -> u16 {
    (if sets[0] { IN_SET } else { 0 })
        | (if sets[1] { OUT_SET } else { 0 })
        | (if sets[2] { EX_SET } else { 0 })
}

/// Which of the requested `sets` the ready events `revents` mark.
pub const fn select_marks(sets: Sets, revents: u16) -> Sets {
    [
        sets[0] && revents & IN_SET != 0,
        sets[1] && revents & OUT_SET != 0,
        sets[2] && revents & EX_SET != 0,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_and_events() {
        assert_eq!(select_events([true, false, false]), POLLIN | POLLHUP | POLLERR);
        assert_eq!(select_events([false, true, true]), POLLOUT | POLLERR | POLLPRI);
        assert_eq!(select_events([false; 3]), 0);
        // End of file (POLLHUP) makes a descriptor readable, not writable.
        assert_eq!(select_marks([true, true, false], POLLHUP), [true, false, false]);
        // A broken pipe's write end (POLLOUT|POLLERR): readable and writable if asked.
        assert_eq!(select_marks([true, true, true], POLLOUT | POLLERR), [true, true, false]);
        assert_eq!(select_marks([false, false, true], POLLPRI), [false, false, true]);
    }
}
