//! The machine as a program sees it: sysinfo, and the CPU affinity calls
//! (sched_getaffinity, sched_setaffinity) of a one-CPU system.

use sigil_core::abi::Errno;

use super::SysResult;
use crate::uaccess::{copy_from_user, copy_to_user};

/// The 64-byte ppc32 `struct sysinfo`: longs and the u16 process count at
/// these offsets.
const SYSINFO_SIZE: usize = 64;
const UPTIME: usize = 0;
const TOTALRAM: usize = 16;
const FREERAM: usize = 20;
const PROCS: usize = 40;
const MEM_UNIT: usize = 52;

/// sysinfo(info): uptime in whole seconds rounded up (as Linux), RAM in
/// bytes (mem_unit 1: Linux uses bytes whenever the total fits a long),
/// and `procs`, which is Linux's count of threads. Sigil keeps no load
/// average, shared or buffer memory, swap or high memory: those read 0.
pub fn sysinfo(info: u32) -> SysResult {
    let mut b = [0u8; SYSINFO_SIZE];
    let mut put = |at: usize, v: u32| b[at..at + 4].copy_from_slice(&v.to_be_bytes());
    let uptime = crate::time::timer::now_ns().div_ceil(1_000_000_000);
    put(UPTIME, uptime.min(i32::MAX as u64) as u32);
    let page = crate::mm::PAGE_SIZE as u32;
    put(TOTALRAM, crate::mm::frames::total_count() as u32 * page);
    put(FREERAM, crate::mm::frames::free_count() as u32 * page);
    put(MEM_UNIT, 1);
    let threads: usize = crate::proc::all().map(|g| g.threads.len()).sum();
    b[PROCS..PROCS + 2].copy_from_slice(&(threads.min(u16::MAX as usize) as u16).to_be_bytes());
    copy_to_user(info, &b)?;
    Ok(0)
}

/// Bytes of a CPU mask: one long (Linux's `cpumask_size()` for ppc32's
/// NR_CPUS), CPU 0 its lowest bit.
const MASK_SIZE: u32 = 4;

/// The thread `pid` names for the affinity calls: 0 is the caller.
fn check_target(pid: u32) -> Result<(), Errno> {
    if pid != 0 && crate::proc::thread(pid).is_none() {
        return Err(Errno::ESRCH);
    }
    Ok(())
}

/// sched_getaffinity(pid, len, mask): CPU 0 only. `len` must hold every
/// CPU's bit and be a whole number of longs (EINVAL); returns the bytes
/// written.
pub fn sched_getaffinity(pid: u32, len: u32, mask: u32) -> SysResult {
    if len < MASK_SIZE || !len.is_multiple_of(4) {
        return Err(Errno::EINVAL);
    }
    check_target(pid)?;
    copy_to_user(mask, &1u32.to_be_bytes())?;
    Ok(MASK_SIZE)
}

/// sched_setaffinity(pid, len, mask): a mask without CPU 0 leaves no CPU
/// to run on (EINVAL); any other is accepted and changes nothing.
pub fn sched_setaffinity(pid: u32, len: u32, mask: u32) -> SysResult {
    let mut b = [0u8; MASK_SIZE as usize];
    let n = len.min(MASK_SIZE) as usize;
    copy_from_user(&mut b[..n], mask)?;
    check_target(pid)?;
    if u32::from_be_bytes(b) & 1 == 0 {
        return Err(Errno::EINVAL);
    }
    Ok(0)
}
