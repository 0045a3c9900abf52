//! Thread system calls: clone (and clone3's ENOSYS), set_tid_address, the
//! robust list, and futex / futex_time64.

use sigil_core::abi::{Errno, SIGCHLD};
use sigil_core::futex::{FutexCall, FutexOp, ROBUST_LIST_HEAD_SIZE};
use sigil_core::time::Layout;

use super::SysResult;
use crate::arch::TrapFrame;
use crate::proc::{self, clone::CloneArgs};
use crate::uaccess::put_user;

/// clone(flags, newsp, ptid, tls, ctid): the ppc32 argument order.
pub fn clone(tf: &TrapFrame, a: [u32; 6]) -> SysResult {
    proc::clone::clone(
        tf,
        CloneArgs { flags: a[0], newsp: a[1], ptid: a[2], tls: a[3], ctid: a[4] },
    )
}

/// fork(): clone(SIGCHLD).
pub fn fork(tf: &TrapFrame) -> SysResult {
    proc::clone::clone(tf, CloneArgs { flags: SIGCHLD, newsp: 0, ptid: 0, tls: 0, ctid: 0 })
}

/// vfork(): clone(CLONE_VM | CLONE_VFORK | SIGCHLD).
pub fn vfork(tf: &TrapFrame) -> SysResult {
    use sigil_core::clone::{CLONE_VFORK, CLONE_VM};
    let flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
    proc::clone::clone(tf, CloneArgs { flags, newsp: 0, ptid: 0, tls: 0, ctid: 0 })
}

/// set_tid_address(tidptr): where the thread's exit writes 0 and wakes; returns the tid.
pub fn set_tid_address(tidptr: u32) -> SysResult {
    let t = proc::current();
    t.clear_child_tid = tidptr;
    Ok(t.tid)
}

/// set_robust_list(head, len): len must be the ppc32 head size (EINVAL).
pub fn set_robust_list(head: u32, len: u32) -> SysResult {
    if len != ROBUST_LIST_HEAD_SIZE {
        return Err(Errno::EINVAL);
    }
    proc::current().robust_list = head;
    Ok(0)
}

/// get_robust_list(tid, &head, &len): of the caller (0) or a thread of its process.
pub fn get_robust_list(tid: u32, head: u32, len: u32) -> SysResult {
    let t = if tid == 0 { proc::current() } else { proc::thread(tid).ok_or(Errno::ESRCH)? };
    let h = t.robust_list;
    put_user(head, h)?;
    put_user(len, ROBUST_LIST_HEAD_SIZE)?;
    Ok(0)
}

/// futex(uaddr, op, val, timeout, uaddr2, val3), and futex_time64 (`time64`).
pub fn futex(a: [u32; 6], time64: bool) -> SysResult {
    let [uaddr, op, val, timeout, uaddr2, val3] = a;
    let FutexCall { op, private } = FutexCall::decode(op, val, timeout, val3)?;
    match op {
        FutexOp::Wait { val, bitset, absolute, realtime } => {
            // Deadlines are kept on the monotonic clock: an absolute
            // CLOCK_REALTIME one (glibc's pthread_cond_timedwait,
            // sem_timedwait) is converted with the wall clock's offset now.
            // (Linux's follows a later clock change too; this does not.)
            let deadline = if timeout == 0 {
                None
            } else {
                let ns = super::time::get_timespec(timeout, Layout::new(time64))?;
                Some(match (absolute, realtime) {
                    (true, true) => crate::time::clock::to_monotonic(ns),
                    (true, false) => ns,
                    (false, _) => crate::time::timer::now_ns().saturating_add(ns),
                })
            };
            proc::futex::wait(uaddr, val, bitset, deadline, private)
        }
        FutexOp::Wake { n, bitset } => proc::futex::wake_bitset(uaddr, n, bitset, private),
        FutexOp::Requeue { n, move_max, cmp } => {
            proc::futex::requeue(uaddr, uaddr2, n, move_max, cmp, private)
        }
        FutexOp::WakeOp { n, n2, op } => proc::futex::wake_op(uaddr, uaddr2, n, n2, op, private),
    }
}
