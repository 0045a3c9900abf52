//! Memory system calls: brk, mmap (anonymous, private or shared), munmap,
//! mprotect, madvise.

use sigil_core::abi::Errno;

use super::SysResult;
use crate::mm::space::Prot;
use crate::mm::{PAGE_SIZE, TASK_SIZE};
use crate::proc::{self, exec::MMAP_TOP};

const PAGE: u32 = PAGE_SIZE as u32;

fn page_ceil(a: u32) -> Option<u32> {
    a.checked_add(PAGE - 1).map(|v| v & !(PAGE - 1))
}

/// brk(addr): moves the program break; returns the (possibly unchanged) break.
pub fn brk(addr: u32) -> SysResult {
    let space = proc::group().space();
    let (start, cur) = (space.brk_start, space.brk);
    if addr < start {
        return Ok(cur);
    }
    // A break past the top of the address space is refused as any other
    // is, by returning the current one (Linux's brk never fails).
    let Some(new_end) = page_ceil(addr) else { return Ok(cur) };
    let old_end = page_ceil(cur).unwrap_or(cur);
    if new_end > old_end {
        if !space.is_free(old_end, new_end) || !space.room_for(1) {
            return Ok(cur);
        }
        space.add_area(old_end, new_end, Prot::RW, false);
    } else if new_end < old_end && space.unmap(new_end, old_end).is_err() {
        return Ok(cur);
    }
    space.brk = addr;
    Ok(addr)
}

const MAP_SHARED: u32 = 0x01;
const MAP_PRIVATE: u32 = 0x02;
const MAP_FIXED: u32 = 0x10;
const MAP_ANONYMOUS: u32 = 0x20;

/// mmap2(addr, len, prot, flags, fd, pgoff): anonymous memory only, private
/// or shared (MAP_SHARED stays shared with the children forked later).
pub fn mmap(addr: u32, len: u32, prot: u32, flags: u32, fd: i32, _pgoff: u32) -> SysResult {
    if len == 0 || flags & (MAP_SHARED | MAP_PRIVATE) == 0 {
        return Err(Errno::EINVAL);
    }
    // Linux ignores fd for anonymous mappings (portable callers pass -1).
    // A file mapping needs an open file (EBADF); Sigil maps none (ENODEV).
    if flags & MAP_ANONYMOUS == 0 {
        proc::group().files.get(fd as u32).map_err(|_| Errno::EBADF)?;
        return Err(Errno::ENODEV);
    }
    let len = page_ceil(len).ok_or(Errno::ENOMEM)?;
    let space = proc::group().space();
    if !space.room_for(1) {
        return Err(Errno::ENOMEM);
    }
    let start = if flags & MAP_FIXED != 0 {
        if !addr.is_multiple_of(PAGE) {
            return Err(Errno::EINVAL);
        }
        // Linux: past TASK_SIZE is "no room" (ENOMEM), not a bad argument.
        if addr.checked_add(len).is_none_or(|e| e > TASK_SIZE) {
            return Err(Errno::ENOMEM);
        }
        space.unmap(addr, addr + len).map_err(|_| Errno::ENOMEM)?;
        addr
    } else if addr != 0
        && addr.is_multiple_of(PAGE)
        && space.is_free(addr, addr.saturating_add(len))
    {
        addr
    } else {
        space.find_free(len, MMAP_TOP).ok_or(Errno::ENOMEM)?
    };
    space.add_area(start, start + len, Prot::from_linux(prot), flags & MAP_SHARED != 0);
    Ok(start)
}

/// The old mmap (90) takes a pointer to its six arguments.
pub fn old_mmap(args: u32) -> SysResult {
    let mut a = [0u32; 6];
    for (i, v) in a.iter_mut().enumerate() {
        *v = crate::uaccess::get_user(args + 4 * i as u32)?;
    }
    if a[5] % PAGE != 0 {
        return Err(Errno::EINVAL);
    }
    mmap(a[0], a[1], a[2], a[3], a[4] as i32, a[5] / PAGE)
}

pub fn munmap(addr: u32, len: u32) -> SysResult {
    let end = page_ceil(addr.checked_add(len).ok_or(Errno::EINVAL)?).ok_or(Errno::EINVAL)?;
    if !addr.is_multiple_of(PAGE) || len == 0 || end > TASK_SIZE {
        return Err(Errno::EINVAL);
    }
    proc::group().space().unmap(addr, end).map_err(|_| Errno::ENOMEM)?;
    Ok(0)
}

pub fn mprotect(addr: u32, len: u32, prot: u32) -> SysResult {
    let end = page_ceil(addr.checked_add(len).ok_or(Errno::ENOMEM)?).ok_or(Errno::ENOMEM)?;
    if !addr.is_multiple_of(PAGE) || prot & !7 != 0 {
        return Err(Errno::EINVAL);
    }
    if end > TASK_SIZE {
        return Err(Errno::ENOMEM);
    }
    proc::group().space().protect(addr, end, Prot::from_linux(prot)).map_err(|_| Errno::ENOMEM)?;
    Ok(0)
}

/// madvise(addr, len, advice): advice is a hint, and Sigil takes none of it
/// (glibc gives a finished thread's stack back with MADV_DONTNEED; the pages
/// stay, so their contents are not zeroed as Linux would zero them).
/// Linux's checks apply: a misaligned address or an unknown advice is EINVAL.
pub fn madvise(addr: u32, len: u32, advice: u32) -> SysResult {
    // MADV_NORMAL..MADV_DONTNEED, MADV_FREE..MADV_POPULATE_WRITE.
    let known = matches!(advice, 0..=4 | 8..=23);
    if !addr.is_multiple_of(PAGE) || !known || addr.checked_add(len).is_none() {
        return Err(Errno::EINVAL);
    }
    Ok(0)
}
