//! epoll's rules (Linux `fs/eventpoll.c`): the flags epoll_create1 and
//! epoll_ctl accept, the `struct epoll_event` layout, and what one
//! registered descriptor reports - level-triggered, edge-triggered
//! (EPOLLET) or once (EPOLLONESHOT).
//!
//! The event bits are poll's (EPOLLIN is POLLIN, ...), so a file's
//! `poll_ready` is its epoll readiness too. EPOLLERR and EPOLLHUP are
//! always reported, asked for or not.
//!
//! # `struct epoll_event` on ppc32
//! ```text
//!  0  events (u32)
//!  4  padding   (only x86-64 packs the struct)
//!  8  data (u64)
//! 16
//! ```

use crate::abi::Errno;

pub const EPOLLIN: u32 = 0x1;
pub const EPOLLPRI: u32 = 0x2;
pub const EPOLLOUT: u32 = 0x4;
pub const EPOLLERR: u32 = 0x8;
pub const EPOLLHUP: u32 = 0x10;
pub const EPOLLRDHUP: u32 = 0x2000;
pub const EPOLLEXCLUSIVE: u32 = 1 << 28;
pub const EPOLLWAKEUP: u32 = 1 << 29;
pub const EPOLLONESHOT: u32 = 1 << 30;
pub const EPOLLET: u32 = 1 << 31;
/// epoll_create1's only flag: O_CLOEXEC (powerpc's value).
pub const EPOLL_CLOEXEC: u32 = 0o2000000;

pub const EPOLL_CTL_ADD: u32 = 1;
pub const EPOLL_CTL_DEL: u32 = 2;
pub const EPOLL_CTL_MOD: u32 = 3;

/// Bytes of one `struct epoll_event` (see the module doc).
pub const EVENT_SIZE: u32 = 16;
/// Linux `EP_MAX_EVENTS`: epoll_wait's maxevents limit.
pub const MAX_EVENTS: i32 = i32::MAX / EVENT_SIZE as i32;

/// Linux `EP_MAX_NESTS`: the longest chain of epolls inside epolls, in
/// links (so five epolls at most).
pub const MAX_NESTS: usize = 4;

/// May an epoll go into another? `below` is the longest chain of epolls
/// under the one being added (None: it reaches the epoll it goes into, a
/// cycle), `above` the longest chain of epolls over the one it goes into.
/// Linux's `ep_loop_check` (since 6.15) says ELOOP unless the whole chain
/// through the new link, `below + 1 + above`, stays within MAX_NESTS.
pub fn may_nest(below: Option<usize>, above: usize) -> Result<(), Errno> {
    match below {
        Some(b) if b + 1 + above <= MAX_NESTS => Ok(()),
        _ => Err(Errno::ELOOP),
    }
}

/// The flags that say how to report, not what.
const MODES: u32 = EPOLLET | EPOLLONESHOT | EPOLLWAKEUP | EPOLLEXCLUSIVE;

/// The `struct epoll_event` bytes for one report.
pub fn encode(events: u32, data: u64) -> [u8; EVENT_SIZE as usize] {
    let mut b = [0u8; EVENT_SIZE as usize];
    b[..4].copy_from_slice(&events.to_be_bytes());
    b[8..].copy_from_slice(&data.to_be_bytes());
    b
}

/// Decodes a `struct epoll_event`: (events, data).
pub fn decode(b: &[u8; EVENT_SIZE as usize]) -> (u32, u64) {
    let events = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    let mut d = [0u8; 8];
    d.copy_from_slice(&b[8..]);
    (events, u64::from_be_bytes(d))
}

/// epoll_ctl's check of the event mask (Linux: EPOLLEXCLUSIVE only on ADD,
/// and then only with the basic events and EPOLLET/EPOLLWAKEUP).
pub fn check_ctl(op: u32, events: u32) -> Result<(), Errno> {
    if events & EPOLLEXCLUSIVE != 0 {
        let ok = EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP | EPOLLET | EPOLLWAKEUP | EPOLLEXCLUSIVE;
        if op == EPOLL_CTL_MOD || events & !ok != 0 {
            return Err(Errno::EINVAL);
        }
    }
    Ok(())
}

/// One registered descriptor's interest and reporting state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interest {
    pub events: u32,
    pub data: u64,
    /// EPOLLET: the file's change count when it was last reported; it is
    /// reported again only after the file changes (Linux queues an
    /// edge-triggered item again only on the file's next wake-up).
    reported_at: Option<u32>,
    /// EPOLLONESHOT: reported once, silent until EPOLL_CTL_MOD.
    spent: bool,
}

impl Interest {
    /// EPOLL_CTL_ADD, and EPOLL_CTL_MOD (which re-enables a spent
    /// EPOLLONESHOT item and forgets the last edge).
    pub const fn new(events: u32, data: u64) -> Interest {
        Interest { events, data, reported_at: None, spent: false }
    }

    /// What to report for a file whose poll readiness is `ready` and whose
    /// change count is `changes`, if anything; records the report.
    pub fn check(&mut self, ready: u16, changes: u32) -> Option<u32> {
        if self.spent {
            return None;
        }
        let r = ready as u32 & ((self.events & !MODES) | EPOLLERR | EPOLLHUP);
        if r == 0 || (self.events & EPOLLET != 0 && self.reported_at == Some(changes)) {
            return None;
        }
        self.reported_at = Some(changes);
        self.spent = self.events & EPOLLONESHOT != 0;
        Some(r)
    }

    /// Would `check` report something now (for polling the epoll file)?
    pub fn ready(&self, ready: u16, changes: u32) -> bool {
        let mut copy = *self;
        copy.check(ready, changes).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_round_trips() {
        let b = encode(EPOLLIN | EPOLLHUP, 0x0102_0304_0506_0708);
        assert_eq!(&b[..4], &[0, 0, 0, 0x11]);
        assert_eq!(&b[4..8], &[0; 4]);
        assert_eq!(b[8], 1);
        assert_eq!(decode(&b), (0x11, 0x0102_0304_0506_0708));
        assert_eq!(MAX_EVENTS, 134_217_727);
    }

    #[test]
    fn level_triggered_reports_while_ready_and_always_err_hup() {
        let mut i = Interest::new(EPOLLIN, 7);
        assert_eq!(i.check(0x4, 0), None); // POLLOUT not asked for
        assert_eq!(i.check(0x1 | 0x4, 0), Some(EPOLLIN));
        assert_eq!(i.check(0x1, 0), Some(EPOLLIN));
        assert_eq!(i.check(0x10, 1), Some(EPOLLHUP));
        assert_eq!(Interest::new(0, 0).check(0x8, 0), Some(EPOLLERR));
    }

    #[test]
    fn edge_triggered_waits_for_a_change() {
        let mut i = Interest::new(EPOLLIN | EPOLLET, 0);
        assert_eq!(i.check(0x1, 5), Some(EPOLLIN));
        assert!(!i.ready(0x1, 5));
        assert_eq!(i.check(0x1, 5), None);
        // More data (a wake-up) while still readable: reported again.
        assert_eq!(i.check(0x1, 6), Some(EPOLLIN));
        // A change that leaves nothing asked for is not an event.
        assert_eq!(i.check(0x4, 7), None);
        assert_eq!(i.check(0x1, 7), Some(EPOLLIN));
    }

    #[test]
    fn oneshot_until_modified() {
        let mut i = Interest::new(EPOLLIN | EPOLLONESHOT, 0);
        assert_eq!(i.check(0x1, 0), Some(EPOLLIN));
        assert_eq!(i.check(0x1, 1), None);
        i = Interest::new(EPOLLIN | EPOLLONESHOT, 0);
        assert_eq!(i.check(0x1, 1), Some(EPOLLIN));
    }

    #[test]
    fn nesting_allows_chains_of_four_links() {
        assert_eq!(may_nest(Some(0), 0), Ok(()));
        assert_eq!(may_nest(Some(3), 0), Ok(()));
        assert_eq!(may_nest(Some(1), 2), Ok(()));
        assert_eq!(may_nest(Some(4), 0), Err(Errno::ELOOP));
        assert_eq!(may_nest(Some(0), 4), Err(Errno::ELOOP));
        assert_eq!(may_nest(None, 0), Err(Errno::ELOOP));
    }

    #[test]
    fn exclusive_only_on_add() {
        assert!(check_ctl(EPOLL_CTL_ADD, EPOLLIN | EPOLLEXCLUSIVE).is_ok());
        assert!(check_ctl(EPOLL_CTL_MOD, EPOLLIN | EPOLLEXCLUSIVE).is_err());
        assert!(check_ctl(EPOLL_CTL_ADD, EPOLLONESHOT | EPOLLEXCLUSIVE).is_err());
        assert!(check_ctl(EPOLL_CTL_MOD, EPOLLIN | EPOLLONESHOT).is_ok());
    }
}
