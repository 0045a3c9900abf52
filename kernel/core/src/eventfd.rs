//! eventfd's counter: what a read or a write does to it (Linux
//! `fs/eventfd.c`).
//!
//! The counter is a u64 that never reaches u64::MAX. A write of 8 bytes
//! adds its value (u64::MAX itself is EINVAL); one that would reach the
//! maximum waits (or is EAGAIN) until a read makes room. A read of 8 bytes
//! takes the whole count and zeroes it, or, with EFD_SEMAPHORE, takes 1;
//! a count of 0 waits (or is EAGAIN). Buffers under 8 bytes are EINVAL.

use crate::abi::Errno;

/// The eventfd2 flags: EFD_SEMAPHORE, and EFD_CLOEXEC / EFD_NONBLOCK,
/// which are O_CLOEXEC and O_NONBLOCK (powerpc's values).
pub const EFD_SEMAPHORE: u32 = 1;
pub const EFD_NONBLOCK: u32 = 0o4000;
pub const EFD_CLOEXEC: u32 = 0o2000000;

/// The largest count: a write never makes the counter reach u64::MAX.
pub const MAX: u64 = u64::MAX - 1;

/// What an operation found: done with a value, or it must wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Done(u64),
    Wait,
}

/// One eventfd's count and mode.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counter {
    pub count: u64,
    pub semaphore: bool,
}

impl Counter {
    /// eventfd2(initval, flags): unknown flags are EINVAL.
    pub fn new(initval: u32, flags: u32) -> Result<Counter, Errno> {
        if flags & !(EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC) != 0 {
            return Err(Errno::EINVAL);
        }
        Ok(Counter { count: initval as u64, semaphore: flags & EFD_SEMAPHORE != 0 })
    }

    /// A read: the value to hand back (and the count left), or Wait.
    pub fn read(&mut self) -> Step {
        if self.count == 0 {
            return Step::Wait;
        }
        let v = if self.semaphore { 1 } else { self.count };
        self.count -= v;
        Step::Done(v)
    }

    /// A write of `v`: Done(v), or Wait while it does not fit.
    pub fn write(&mut self, v: u64) -> Result<Step, Errno> {
        if v == u64::MAX {
            return Err(Errno::EINVAL);
        }
        if MAX - self.count < v {
            return Ok(Step::Wait);
        }
        self.count += v;
        Ok(Step::Done(v))
    }

    /// poll: readable with a count, writable while 1 more would fit.
    pub fn readable(&self) -> bool {
        self.count > 0
    }

    pub fn writable(&self) -> bool {
        self.count < MAX
    }
}

/// Both directions move exactly one u64; a shorter buffer is EINVAL.
pub fn check_len(len: u32) -> Result<(), Errno> {
    if len < 8 {
        Err(Errno::EINVAL)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_and_semaphore() {
        let mut c = Counter::new(3, 0).unwrap();
        assert_eq!(c.write(4), Ok(Step::Done(4)));
        assert_eq!(c.read(), Step::Done(7));
        assert_eq!(c.read(), Step::Wait);
        let mut s = Counter::new(2, EFD_SEMAPHORE).unwrap();
        assert_eq!(s.read(), Step::Done(1));
        assert_eq!(s.read(), Step::Done(1));
        assert_eq!(s.read(), Step::Wait);
        assert_eq!(Counter::new(0, 8).err(), Some(Errno::EINVAL));
    }

    #[test]
    fn writes_stop_below_the_maximum() {
        let mut c = Counter::default();
        assert_eq!(c.write(u64::MAX), Err(Errno::EINVAL));
        assert_eq!(c.write(MAX), Ok(Step::Done(MAX)));
        assert!(!c.writable() && c.readable());
        assert_eq!(c.write(1), Ok(Step::Wait));
        assert_eq!(c.write(0), Ok(Step::Done(0)));
        assert_eq!(c.read(), Step::Done(MAX));
        assert!(c.writable() && !c.readable());
        assert_eq!(check_len(7), Err(Errno::EINVAL));
        assert_eq!(check_len(8), Ok(()));
    }
}
