//! Memory system calls: brk, mmap (anonymous memory, private or shared;
//! files, shared or as private copies made page by page), munmap,
//! mprotect, msync, madvise.

use sigil_core::abi::Errno;

use super::SysResult;

use crate::fs::flags::{O_ACCMODE, O_RDONLY, O_WRONLY};
use crate::fs::tmpfs::{Kind, Node};
use crate::mm::space::{FileMap, Prot};
use crate::mm::{MMAP_TOP, PAGE_SIZE, TASK_SIZE};
use crate::proc;

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
        if !space.is_free(old_end, new_end)
            || !space.room_for(1)
            || space.add_area(old_end, new_end, Prot::RW, false).is_err()
        {
            return Ok(cur);
        }
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

/// mmap2(addr, len, prot, flags, fd, pgoff): anonymous memory, private or
/// shared (MAP_SHARED stays shared with the children forked later), or a
/// mapping of a file, shared or private (`MappedFile`).
pub fn mmap(addr: u32, len: u32, prot: u32, flags: u32, fd: i32, pgoff: u32) -> SysResult {
    if len == 0 || flags & (MAP_SHARED | MAP_PRIVATE) == 0 {
        return Err(Errno::EINVAL);
    }
    // Linux ignores fd for anonymous mappings (portable callers pass -1).
    let file = match flags & MAP_ANONYMOUS {
        0 => Some(MappedFile::open(fd, flags, prot)?),
        _ => None,
    };
    let len = page_ceil(len).ok_or(Errno::ENOMEM)?;
    // Linux's check that the file's page range does not wrap.
    if pgoff.checked_add(len / PAGE).is_none() {
        return Err(Errno::EOVERFLOW);
    }
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
    let (end, prot, shared) = (start + len, Prot::from_linux(prot), flags & MAP_SHARED != 0);
    let Some(file) = file else {
        space.add_area(start, end, prot, shared)?;
        return Ok(start);
    };
    let map = FileMap::new(file.node.clone(), start, pgoff, file.writable);
    space.add_file_area(start, end, prot, shared, map)?;
    Ok(start)
}

/// A regular file to map.
///
/// MAP_SHARED, as on Linux: the mapping's pages are the file's own frames
/// (`mm::space::Pager`, tmpfs's inode), put in at the first touch of each,
/// so a store through the mapping is in the file for read() and for every
/// other process mapping it, and a write() shows through the mapping.
/// Whole pages past the end of the file give SIGBUS; the last page's tail
/// past the end reads zero.
///
/// MAP_PRIVATE: Linux maps the file's page cache and copies a page at its
/// first write; Sigil takes no copy-on-write fault, so the first touch of
/// a page, a read or a write, copies the file's bytes as they are then
/// into a frame of the mapping's own (or gives SIGBUS if the page is
/// wholly past the end of the file). Nothing is copied at mmap: a later
/// write() to the file shows through every page the program has not
/// touched, as on Linux; a page it has only read keeps its copy, where
/// Linux would show the write() until the program's first store there
/// (POSIX leaves either unspecified for MAP_PRIVATE; `mm::space`).
struct MappedFile {
    node: Node,
    /// Open for writing: a shared mapping may be (or become) writable.
    writable: bool,
}

impl MappedFile {
    /// The errors in Linux's order (`ksys_mmap_pgoff`, `do_mmap`): a bad
    /// descriptor, then a descriptor not open for reading, then a file that
    /// cannot be mapped (a directory, pipe, device: ENODEV), then a shared
    /// writable mapping of a file not open for writing (EACCES). A shared
    /// mapping's file is made of frames now (an archive file's bytes copied:
    /// ENOSPC, as a write would be, if the file system is full).
    fn open(fd: i32, flags: u32, prot: u32) -> Result<MappedFile, Errno> {
        let f = proc::share::files().get(fd as u32).map_err(|_| Errno::EBADF)?;
        let mode = f.status_flags() & O_ACCMODE;
        if mode == O_WRONLY {
            return Err(Errno::EACCES);
        }
        let node = f.inode().filter(|n| matches!(n.kind, Kind::File(_))).ok_or(Errno::ENODEV)?;
        let writable = mode != O_RDONLY;
        if flags & MAP_SHARED != 0 {
            if Prot::from_linux(prot).write && !writable {
                return Err(Errno::EACCES);
            }
            if let Kind::File(data) = &node.kind {
                data.borrow_mut().make_frames()?;
            }
        }
        Ok(MappedFile { node: node.clone(), writable })
    }
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
    let (space, prot) = (proc::group().space(), Prot::from_linux(prot));
    if prot.write && !space.may_write(addr, end) {
        return Err(Errno::EACCES);
    }
    space.protect(addr, end, prot).map_err(|_| Errno::ENOMEM)?;
    Ok(0)
}

const MS_ASYNC: u32 = 1;
const MS_INVALIDATE: u32 = 2;
const MS_SYNC: u32 = 4;

/// msync(addr, len, flags): a shared mapping's pages are the file's frames
/// and tmpfs has no disk behind them, so there is nothing to write back -
/// only Linux's checks: unknown flags, MS_ASYNC with MS_SYNC, or a
/// misaligned address are EINVAL; a range that wraps, or that is not all
/// mapped, is ENOMEM.
pub fn msync(addr: u32, len: u32, flags: u32) -> SysResult {
    let both = MS_ASYNC | MS_SYNC;
    if flags & !(both | MS_INVALIDATE) != 0 || !addr.is_multiple_of(PAGE) || flags & both == both {
        return Err(Errno::EINVAL);
    }
    let end = page_ceil(len).and_then(|l| addr.checked_add(l)).ok_or(Errno::ENOMEM)?;
    match proc::group().space().covers(addr, end) {
        true => Ok(0),
        false => Err(Errno::ENOMEM),
    }
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
