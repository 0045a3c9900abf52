//! Futexes, the portable half: decoding `futex(uaddr, op, val, timeout,
//! uaddr2, val3)` into one `FutexCall`, the WAKE_OP encoding, the key a waiter
//! is queued under, and the robust-list rule for a dying owner.
//!
//! The kernel half (`kernel/src/proc/futex.rs`) owns the wait queues and
//! touches user memory; everything it decides by arithmetic is here, so the
//! host tests pin it to Linux's `kernel/futex/` behaviour:
//! - the command is `op & FUTEX_CMD_MASK`; FUTEX_PRIVATE_FLAG and
//!   FUTEX_CLOCK_REALTIME are flags, and CLOCK_REALTIME is ENOSYS on any
//!   command but the waits (`futex_do_op`/`futex_init_timeout`);
//! - a bitset of 0 is EINVAL; the PI commands are ENOSYS (not implemented);
//! - FUTEX_WAIT's timeout is relative, FUTEX_WAIT_BITSET's absolute.

use crate::abi::Errno;

pub const FUTEX_WAIT: u32 = 0;
pub const FUTEX_WAKE: u32 = 1;
pub const FUTEX_REQUEUE: u32 = 3;
pub const FUTEX_CMP_REQUEUE: u32 = 4;
pub const FUTEX_WAKE_OP: u32 = 5;
pub const FUTEX_LOCK_PI: u32 = 6;
pub const FUTEX_UNLOCK_PI: u32 = 7;
pub const FUTEX_TRYLOCK_PI: u32 = 8;
pub const FUTEX_WAIT_BITSET: u32 = 9;
pub const FUTEX_WAKE_BITSET: u32 = 10;
pub const FUTEX_WAIT_REQUEUE_PI: u32 = 11;
pub const FUTEX_CMP_REQUEUE_PI: u32 = 12;
pub const FUTEX_LOCK_PI2: u32 = 13;
pub const FUTEX_PRIVATE_FLAG: u32 = 128;
pub const FUTEX_CLOCK_REALTIME: u32 = 256;
const FUTEX_CMD_MASK: u32 = !(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
pub const FUTEX_BITSET_MATCH_ANY: u32 = 0xffff_ffff;

/// Robust futex word bits (`linux/futex.h`).
pub const FUTEX_WAITERS: u32 = 0x8000_0000;
pub const FUTEX_OWNER_DIED: u32 = 0x4000_0000;
pub const FUTEX_TID_MASK: u32 = 0x3fff_ffff;
/// Entries walked per robust list at most (Linux `ROBUST_LIST_LIMIT`), so a
/// circular list cannot hold a dying thread forever.
pub const ROBUST_LIST_LIMIT: usize = 2048;
/// sizeof(struct robust_list_head) on ppc32: next, futex_offset, pending.
pub const ROBUST_LIST_HEAD_SIZE: u32 = 12;

/// What a futex call asks for, decoded and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FutexOp {
    /// Sleep if `*uaddr == val`, until woken by a wake whose bitset meets
    /// `bitset`; `absolute` says how to read the timeout.
    Wait { val: u32, bitset: u32, absolute: bool, realtime: bool },
    /// Wake up to `n` waiters whose bitset meets `bitset`.
    Wake { n: u32, bitset: u32 },
    /// Wake `n`, move up to `move_max` others to `uaddr2`; with `cmp`, only
    /// if `*uaddr` still equals it (else EAGAIN).
    Requeue { n: u32, move_max: u32, cmp: Option<u32> },
    /// Apply `op` to `*uaddr2`, wake `n` on uaddr and, if the old value
    /// passes the comparison, `n2` on uaddr2.
    WakeOp { n: u32, n2: u32, op: WakeOp },
}

/// One futex call decoded: the command, and where its word may live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FutexCall {
    pub op: FutexOp,
    /// FUTEX_PRIVATE_FLAG: the word is private to the caller's address
    /// space, so the key is (address space, address). Without it the word
    /// may be in shared memory, keyed by what it is in memory.
    pub private: bool,
}

impl FutexCall {
    /// Decodes `op` with its arguments. `val2` is the timeout argument read
    /// as a number (REQUEUE and WAKE_OP pass a count there).
    pub fn decode(op: u32, val: u32, val2: u32, val3: u32) -> Result<FutexCall, Errno> {
        let private = op & FUTEX_PRIVATE_FLAG != 0;
        Ok(FutexCall { op: FutexOp::decode(op, val, val2, val3)?, private })
    }
}

impl FutexOp {
    /// The command part of [`FutexCall::decode`].
    fn decode(op: u32, val: u32, val2: u32, val3: u32) -> Result<FutexOp, Errno> {
        let cmd = op & FUTEX_CMD_MASK;
        let realtime = op & FUTEX_CLOCK_REALTIME != 0;
        if realtime
            && !matches!(
                cmd,
                FUTEX_WAIT | FUTEX_WAIT_BITSET | FUTEX_WAIT_REQUEUE_PI | FUTEX_LOCK_PI2
            )
        {
            return Err(Errno::ENOSYS);
        }
        let bitset = |b: u32| if b == 0 { Err(Errno::EINVAL) } else { Ok(b) };
        // Counts are ints in Linux: a "negative" wake count wakes everyone.
        let count = |n: u32| if (n as i32) < 0 { i32::MAX as u32 } else { n };
        Ok(match cmd {
            FUTEX_WAIT => {
                FutexOp::Wait { val, bitset: FUTEX_BITSET_MATCH_ANY, absolute: false, realtime }
            }
            FUTEX_WAIT_BITSET => {
                FutexOp::Wait { val, bitset: bitset(val3)?, absolute: true, realtime }
            }
            FUTEX_WAKE => FutexOp::Wake { n: count(val), bitset: FUTEX_BITSET_MATCH_ANY },
            FUTEX_WAKE_BITSET => FutexOp::Wake { n: count(val), bitset: bitset(val3)? },
            FUTEX_REQUEUE | FUTEX_CMP_REQUEUE => {
                // Linux futex_requeue: negative counts are EINVAL.
                if (val as i32) < 0 || (val2 as i32) < 0 {
                    return Err(Errno::EINVAL);
                }
                let cmp = if cmd == FUTEX_CMP_REQUEUE { Some(val3) } else { None };
                FutexOp::Requeue { n: val, move_max: val2, cmp }
            }
            FUTEX_WAKE_OP => {
                FutexOp::WakeOp { n: count(val), n2: count(val2), op: WakeOp::decode(val3)? }
            }
            FUTEX_LOCK_PI
            | FUTEX_UNLOCK_PI
            | FUTEX_TRYLOCK_PI
            | FUTEX_WAIT_REQUEUE_PI
            | FUTEX_CMP_REQUEUE_PI
            | FUTEX_LOCK_PI2 => return Err(Errno::ENOSYS),
            _ => return Err(Errno::ENOSYS),
        })
    }
}

/// The `val3` of FUTEX_WAKE_OP: `*uaddr2 = old OP oparg`, then wake on
/// uaddr2 if `old CMP cmparg` (Linux `futex_atomic_op_inuser`).
///
/// ```text
///  31 30..28 27..24 23......12 11.......0
/// [S][ op  ][ cmp ][ oparg   ][ cmparg  ]   S: oparg is a shift (1 << oparg)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WakeOp {
    op: u32,
    cmp: u32,
    oparg: i32,
    cmparg: i32,
}

const FUTEX_OP_SET: u32 = 0;
const FUTEX_OP_XOR: u32 = 4;
const FUTEX_OP_CMP_GE: u32 = 5;

/// Sign-extends the low 12 bits.
fn sext12(v: u32) -> i32 {
    ((v << 20) as i32) >> 20
}

impl WakeOp {
    pub fn decode(v: u32) -> Result<WakeOp, Errno> {
        let op = (v >> 28) & 7;
        let cmp = (v >> 24) & 15;
        let mut oparg = sext12((v >> 12) & 0xfff);
        let cmparg = sext12(v & 0xfff);
        if op > FUTEX_OP_XOR || cmp > FUTEX_OP_CMP_GE {
            return Err(Errno::ENOSYS);
        }
        if v & 0x8000_0000 != 0 {
            // Linux warns once and masks an out-of-range shift.
            oparg = 1 << (oparg & 31);
        }
        Ok(WakeOp { op, cmp, oparg, cmparg })
    }

    /// The new value of `*uaddr2` given the old one.
    pub fn apply(&self, old: u32) -> u32 {
        let a = self.oparg as u32;
        match self.op {
            FUTEX_OP_SET => a,
            1 => old.wrapping_add(a),
            2 => old | a,
            3 => old & !a,
            _ => old ^ a,
        }
    }

    /// Whether the waiters on uaddr2 are woken, given the old value.
    pub fn compare(&self, old: u32) -> bool {
        let (o, c) = (old as i32, self.cmparg);
        match self.cmp {
            0 => o == c,
            1 => o != c,
            2 => o < c,
            3 => o <= c,
            4 => o > c,
            _ => o >= c,
        }
    }
}

/// What a waiter is queued under. A private futex word (and a shared one
/// in private memory, as Linux's `get_futex_key` has it) is named by its
/// address space (the kernel passes the space's MMU context number, the
/// same for every thread and vfork or CLONE_VM process running in it) and
/// its user address. A shared futex (no FUTEX_PRIVATE_FLAG) in MAP_SHARED
/// memory is named by the physical address of the word (`shared`): the
/// same in every process mapping the page, at whatever user address, as
/// Linux's key by inode and page offset is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FutexKey {
    pub space: u32,
    pub addr: u32,
}

impl FutexKey {
    /// The key of `addr` in address space `space`: EINVAL if misaligned
    /// (Linux `get_futex_key`).
    pub fn new(space: u32, addr: u32) -> Result<FutexKey, Errno> {
        if !addr.is_multiple_of(4) {
            return Err(Errno::EINVAL);
        }
        Ok(FutexKey { space, addr })
    }

    /// The key of the shared futex word at physical address `phys`.
    pub fn shared(phys: u32) -> Result<FutexKey, Errno> {
        FutexKey::new(SHARED_SPACE, phys)
    }

    /// Is this a shared futex's key (by physical address)?
    pub fn is_shared(&self) -> bool {
        self.space == SHARED_SPACE
    }

    /// Which of `FUTEX_BUCKETS` wait lists holds this key's waiters
    /// (Linux's `futex_hash`, with Fibonacci hashing in place of jhash2):
    /// the word index and the space folded into one number, times 2^32/phi,
    /// top bits. Multiples of 1/phi spread evenly, so neighbouring words of
    /// one lock array, and one address in spaces of neighbouring numbers,
    /// land in different lists.
    pub fn bucket(&self) -> usize {
        let x = (self.addr >> 2) ^ (self.space << 20);
        (x.wrapping_mul(0x9e37_79b9) >> (32 - FUTEX_BUCKET_BITS)) as usize
    }
}

/// The `space` of a shared futex's key: MMU context numbers have 20 bits,
/// so a key by physical address never equals a private one.
const SHARED_SPACE: u32 = u32::MAX;

/// log2 of the number of futex wait lists. 64 lists for at most a few
/// hundred threads: a list rarely holds more than one key.
pub const FUTEX_BUCKET_BITS: u32 = 6;
pub const FUTEX_BUCKETS: usize = 1 << FUTEX_BUCKET_BITS;

/// A robust futex whose owner `tid` died holding it: the new word (the
/// waiters bit kept, OWNER_DIED set, no owner) and whether to wake one
/// waiter, or None if `tid` does not own it (Linux `handle_futex_death`).
pub fn owner_died(word: u32, tid: u32) -> Option<(u32, bool)> {
    if word & FUTEX_TID_MASK != tid {
        return None;
    }
    Some(((word & FUTEX_WAITERS) | FUTEX_OWNER_DIED, word & FUTEX_WAITERS != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_commands_and_flags() {
        let c = FutexCall::decode(FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, 0, 0).unwrap();
        assert_eq!(c, FutexCall { op: FutexOp::Wake { n: 1, bitset: !0 }, private: true });
        assert!(!FutexCall::decode(FUTEX_WAKE, 1, 0, 0).unwrap().private);
        let w = FutexOp::decode(FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 5, 0, 0).unwrap();
        assert_eq!(w, FutexOp::Wait { val: 5, bitset: !0, absolute: false, realtime: false });
        let w = FutexOp::decode(FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 1, 0, 6).unwrap();
        assert_eq!(w, FutexOp::Wait { val: 1, bitset: 6, absolute: true, realtime: true });
        assert_eq!(FutexOp::decode(FUTEX_WAKE, 3, 0, 0), Ok(FutexOp::Wake { n: 3, bitset: !0 }));
        assert_eq!(
            FutexOp::decode(FUTEX_WAKE, -1i32 as u32, 0, 0),
            Ok(FutexOp::Wake { n: i32::MAX as u32, bitset: !0 })
        );
        assert_eq!(
            FutexOp::decode(FUTEX_CMP_REQUEUE, 1, 9, 4),
            Ok(FutexOp::Requeue { n: 1, move_max: 9, cmp: Some(4) })
        );
        assert_eq!(
            FutexOp::decode(FUTEX_REQUEUE, 1, 9, 4),
            Ok(FutexOp::Requeue { n: 1, move_max: 9, cmp: None })
        );
    }

    #[test]
    fn decode_errors_follow_linux() {
        assert_eq!(FutexOp::decode(FUTEX_WAIT_BITSET, 0, 0, 0), Err(Errno::EINVAL));
        assert_eq!(FutexOp::decode(FUTEX_WAKE_BITSET, 1, 0, 0), Err(Errno::EINVAL));
        assert_eq!(FutexOp::decode(FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, 0, 0), Err(Errno::ENOSYS));
        assert_eq!(FutexOp::decode(FUTEX_LOCK_PI, 0, 0, 0), Err(Errno::ENOSYS));
        assert_eq!(FutexOp::decode(FUTEX_CMP_REQUEUE_PI, 0, 0, 0), Err(Errno::ENOSYS));
        assert_eq!(FutexOp::decode(2, 0, 0, 0), Err(Errno::ENOSYS)); // FUTEX_FD, gone since 2.6.26
        assert_eq!(FutexOp::decode(99, 0, 0, 0), Err(Errno::ENOSYS));
        assert_eq!(FutexOp::decode(FUTEX_REQUEUE, -1i32 as u32, 0, 0), Err(Errno::EINVAL));
    }

    /// `FUTEX_OP(op, oparg, cmp, cmparg)` from linux/futex.h.
    fn futex_op(op: u32, oparg: u32, cmp: u32, cmparg: u32) -> u32 {
        ((op & 0xf) << 28) | ((cmp & 0xf) << 24) | ((oparg & 0xfff) << 12) | (cmparg & 0xfff)
    }

    #[test]
    fn wake_op_arithmetic() {
        // glibc's lll_futex_wake_unlock: FUTEX_OP(FUTEX_OP_SET, 0, FUTEX_OP_CMP_GT, 1).
        let w = WakeOp::decode(futex_op(0, 0, 4, 1)).unwrap();
        assert_eq!(w.apply(7), 0);
        assert!(w.compare(2) && !w.compare(1));
        let add = WakeOp::decode(futex_op(1, 0xfff, 0, 0)).unwrap(); // oparg -1
        assert_eq!(add.apply(5), 4);
        let shift = WakeOp::decode(futex_op(8 | 2, 3, 1, 0)).unwrap(); // OR with 1 << 3
        assert_eq!(shift.apply(1), 9);
        let andn = WakeOp::decode(futex_op(3, 1, 2, 0xfff)).unwrap(); // cmparg -1
        assert_eq!(andn.apply(3), 2);
        assert!(andn.compare(-2i32 as u32) && !andn.compare(0));
        assert_eq!(WakeOp::decode(futex_op(5, 0, 0, 0)), Err(Errno::ENOSYS));
        assert_eq!(WakeOp::decode(futex_op(0, 0, 6, 0)), Err(Errno::ENOSYS));
    }

    #[test]
    fn keys_and_owner_death() {
        assert_eq!(FutexKey::new(3, 0x1002), Err(Errno::EINVAL));
        assert!(FutexKey::new(3, 0x1000).unwrap() < FutexKey::new(4, 0).unwrap());
        assert_eq!(owner_died(42, 42), Some((FUTEX_OWNER_DIED, false)));
        assert_eq!(
            owner_died(FUTEX_WAITERS | 42, 42),
            Some((FUTEX_WAITERS | FUTEX_OWNER_DIED, true))
        );
        assert_eq!(owner_died(43, 42), None);
        assert_eq!(FutexKey::shared(0x1002), Err(Errno::EINVAL));
        assert_ne!(FutexKey::shared(0x1000), FutexKey::new(0xfffff, 0x1000));
        assert!(FutexKey::shared(0x1000).unwrap().is_shared());
        assert!(!FutexKey::new(0xfffff, 0x1000).unwrap().is_shared());
        assert_eq!(owner_died(FUTEX_OWNER_DIED | 42, 42), Some((FUTEX_OWNER_DIED, false)));
    }

    #[test]
    fn keys_spread_over_buckets() {
        let key = |space, addr| FutexKey::new(space, addr).unwrap().bucket();
        // Neighbouring words and the same word in other processes: no two
        // of eight share a list.
        let words: alloc::vec::Vec<usize> = (0..8).map(|i| key(1, 0x1000_0000 + 4 * i)).collect();
        let spaces: alloc::vec::Vec<usize> = (1..9).map(|s| key(s, 0x1000_0000)).collect();
        for set in [words, spaces] {
            assert!(set.iter().all(|&b| b < FUTEX_BUCKETS));
            let mut sorted = set.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), set.len(), "{set:?}");
        }
        assert_eq!(key(3, 0x7fff_fff0), key(3, 0x7fff_fff0));
    }
}
