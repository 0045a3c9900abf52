//! User address spaces: Sigil's own two-level page table plus a list of areas.
//!
//! ```text
//!  EA:  | L1 index (10) | L2 index (10) | offset (12) |
//!  L1 table (1 frame): 1024 words, each the physical address of an L2 table or 0
//!  L2 table (1 frame): 1024 PTEs in the arch's format (`Mmu::make_pte`, crate::arch)
//! ```
//! This table is the truth; the hardware (HTAB or software TLB) only caches it,
//! so every change here is followed by `Mmu::flush_page` (crate::arch).
//!
//! Areas (`Area`) say what may be mapped where and how: a page inside an area
//! but not yet in the table is filled with zeroes on first touch (stack, brk,
//! anonymous mmap).
//!
//! Fork and sharing. Each frame has a share count (`frames`). Fork copies a
//! private area's writable pages at once and shares its read-only ones; a
//! shared area's (MAP_SHARED) pages are shared whatever their protection,
//! after the parent fills the ones it never touched, so both see one memory.
//! Invariant: a private page is writable only in a frame with one owner.
//! `protect` keeps it: making a private page writable first copies a frame
//! another address space still holds (what a copy-on-write fault would do,
//! done at mprotect time), so no process can write another's memory through
//! a page fork shared with it - not even PID 1's text.

use alloc::vec::Vec;

use sigil_core::abi::Errno;

use super::{context, frames, to_virt, PAGE_SIZE, TASK_SIZE};
use crate::arch::{Arch, Mmu};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Prot {
    pub read: bool,
    pub write: bool,
    pub exec: bool,
}

impl Prot {
    pub const RW: Prot = Prot { read: true, write: true, exec: false };
    /// Linux PROT_READ 1, PROT_WRITE 2, PROT_EXEC 4.
    pub fn from_linux(p: u32) -> Prot {
        Prot { read: p & 1 != 0, write: p & 2 != 0, exec: p & 4 != 0 }
    }
}

/// A range of user addresses [start, end) with one protection.
#[derive(Clone, Copy, Debug)]
pub struct Area {
    pub start: u32,
    pub end: u32,
    pub prot: Prot,
    /// MAP_SHARED: fork shares the frames (writable ones too) instead of copying them.
    pub shared: bool,
}

/// Why a user access could not be satisfied.
#[derive(Debug)]
pub enum Fault {
    /// No area there, or the access is not allowed by the area (SIGSEGV).
    Bad,
    /// Out of physical memory.
    NoMem,
}

/// What a system call says for a fault it meets.
impl From<Fault> for Errno {
    fn from(f: Fault) -> Errno {
        match f {
            Fault::Bad => Errno::EFAULT,
            Fault::NoMem => Errno::ENOMEM,
        }
    }
}

/// The most areas one address space may have (Linux's vm.max_map_count is
/// 65530; Sigil searches its areas linearly and keeps them on the kernel
/// heap, so it allows fewer). mmap, munmap and mprotect fail with ENOMEM
/// beyond it, as Linux does, instead of letting one process fill the heap.
pub const MAX_AREAS: usize = 1024;

pub struct AddressSpace {
    /// MMU context number (selects the VSIDs), from `context`; ours until drop.
    pub ctx: u32,
    /// Physical address of the L1 table.
    pgdir: usize,
    areas: Vec<Area>,
    /// Program break: [brk_start, brk) is one growing area.
    pub brk_start: u32,
    pub brk: u32,
}

fn table(phys: usize) -> &'static mut [u32; 1024] {
    // SAFETY: page-table frames are owned by exactly one AddressSpace and only
    // touched by its methods, which never hold two references to one table.
    unsafe { &mut *(to_virt(phys) as *mut [u32; 1024]) }
}

impl AddressSpace {
    /// An empty address space; None without a free frame or MMU context.
    pub fn new() -> Option<AddressSpace> {
        let pgdir = frames::alloc()?;
        let Some(ctx) = context::alloc() else {
            frames::release(pgdir);
            return None;
        };
        Some(AddressSpace { ctx, pgdir, areas: Vec::new(), brk_start: 0, brk: 0 })
    }

    /// Makes this the address space user-mode code and user accesses see.
    pub fn activate(&self) {
        Arch::activate(self.ctx, self.pgdir);
    }

    fn pte_slot(&mut self, ea: u32, create: bool) -> Option<&'static mut u32> {
        let l1 = table(self.pgdir);
        let i = (ea >> 22) as usize;
        if l1[i] == 0 {
            if !create {
                return None;
            }
            l1[i] = frames::alloc()? as u32;
        }
        Some(&mut table(l1[i] as usize)[(ea as usize >> 12) & 0x3ff])
    }

    /// The PTE for `ea`, if a page is mapped there.
    pub fn lookup(&mut self, ea: u32) -> Option<u32> {
        self.pte_slot(ea, false).map(|p| *p).filter(|&p| Arch::pte_present(p))
    }

    pub fn area(&self, ea: u32) -> Option<&Area> {
        self.areas.iter().find(|a| a.start <= ea && ea < a.end)
    }

    /// Declares [start, end) as an area (it must not overlap another). An
    /// area that ends at `start` with the same protection and sharing just
    /// grows (brk). Callers acting for user space check `room_for(1)` first.
    pub fn add_area(&mut self, start: u32, end: u32, prot: Prot, shared: bool) {
        match self.areas.iter_mut().find(|a| a.end == start && a.prot == prot && a.shared == shared)
        {
            Some(a) => a.end = end,
            None => self.areas.push(Area { start, end, prot, shared }),
        }
    }

    /// The areas, for /proc (sizes and where code and stack are).
    pub fn areas(&self) -> &[Area] {
        &self.areas
    }

    /// Pages mapped (resident) and page-table frames, for /proc: each L2
    /// table present is looked through once.
    pub fn resident(&self) -> (usize, usize) {
        let l2s = table(self.pgdir).iter().filter(|&&e| e != 0);
        let (mut pages, mut tables) = (0, 1);
        for &l2 in l2s {
            tables += 1;
            pages += table(l2 as usize).iter().filter(|&&p| Arch::pte_present(p)).count();
        }
        (pages, tables)
    }

    /// May `more` areas be added without passing MAX_AREAS?
    pub fn room_for(&self, more: usize) -> bool {
        self.areas.len() + more <= MAX_AREAS
    }

    /// Is [start, end) free of areas?
    pub fn is_free(&self, start: u32, end: u32) -> bool {
        end <= TASK_SIZE
            && start < end
            && self.areas.iter().all(|a| a.end <= start || a.start >= end)
    }

    /// Puts frame `phys` at `ea` (which must be in an area); takes one share of it.
    pub fn map(&mut self, ea: u32, phys: usize, prot: Prot) -> Result<(), Fault> {
        let slot = self.pte_slot(ea, true).ok_or(Fault::NoMem)?;
        let old = *slot;
        *slot = Arch::make_pte(phys, prot.write, prot.exec);
        if Arch::pte_present(old) {
            frames::release(Arch::pte_phys(old));
            Arch::flush_page(self.ctx, ea);
        }
        Ok(())
    }

    /// Resolves a fault at `ea`: loads the hardware from the table, or fills a
    /// fresh zero page in an area (then `Ok(true)`: a page fault as Linux
    /// counts them). `Err(Bad)` means the access is illegal.
    pub fn fault(&mut self, ea: u32, write: bool) -> Result<bool, Fault> {
        let area = *self.area(ea).ok_or(Fault::Bad)?;
        if (write && !area.prot.write) || !(area.prot.read || area.prot.write || area.prot.exec) {
            return Err(Fault::Bad);
        }
        let page = ea & !(PAGE_SIZE as u32 - 1);
        let mut filled = false;
        let pte = match self.lookup(page) {
            Some(p) => p,
            None => {
                filled = true;
                let phys = frames::alloc().ok_or(Fault::NoMem)?;
                if area.prot.exec {
                    // The zeroes were stored through the data cache.
                    crate::arch::sync_icache_range(to_virt(phys), PAGE_SIZE);
                }
                self.map(page, phys, area.prot)?;
                self.lookup(page).expect("just mapped")
            }
        };
        if write && !Arch::pte_writable(pte) {
            return Err(Fault::Bad);
        }
        Arch::reload(self.ctx, page, pte);
        Ok(filled)
    }

    /// Removes every page and area in [start, end) (page-aligned).
    /// Err(NoMem), changing nothing, if splitting an area would pass MAX_AREAS.
    pub fn unmap(&mut self, start: u32, end: u32) -> Result<(), Fault> {
        if self.areas.iter().any(|a| a.start < start && a.end > end) && !self.room_for(1) {
            return Err(Fault::NoMem);
        }
        let mut kept = Vec::new();
        for a in self.areas.drain(..) {
            if a.end <= start || a.start >= end {
                kept.push(a);
                continue;
            }
            if a.start < start {
                kept.push(Area { end: start, ..a });
            }
            if a.end > end {
                kept.push(Area { start: end, ..a });
            }
        }
        self.areas = kept;
        self.clear_pages(start, end);
        Ok(())
    }

    fn clear_pages(&mut self, start: u32, end: u32) {
        let mut ea = start;
        while ea < end {
            if let Some(slot) = self.pte_slot(ea, false) {
                let p = core::mem::take(slot);
                if Arch::pte_present(p) {
                    frames::release(Arch::pte_phys(p));
                    Arch::flush_page(self.ctx, ea);
                }
                ea = ea.wrapping_add(PAGE_SIZE as u32);
            } else {
                // No L2 table: skip to the next 4 MiB.
                ea = (ea | 0x3f_ffff).wrapping_add(1);
            }
            if ea == 0 {
                break;
            }
        }
    }

    /// Changes the protection of [start, end) (page-aligned, fully inside areas).
    /// Err(NoMem), changing nothing, if the pieces would pass MAX_AREAS.
    pub fn protect(&mut self, start: u32, end: u32, prot: Prot) -> Result<(), Fault> {
        let cuts = |x: u32| self.areas.iter().filter(|a| a.start < x && x < a.end).count();
        let splits = cuts(start) + cuts(end);
        if !self.room_for(splits) {
            return Err(Fault::NoMem);
        }
        let mut pieces = Vec::new();
        let mut covered = 0u64;
        for a in self.areas.drain(..) {
            if a.end <= start || a.start >= end {
                pieces.push(a);
                continue;
            }
            let (s, e) = (a.start.max(start), a.end.min(end));
            covered += (e - s) as u64;
            if a.start < s {
                pieces.push(Area { end: s, ..a });
            }
            pieces.push(Area { start: s, end: e, prot, ..a });
            if a.end > e {
                pieces.push(Area { start: e, ..a });
            }
        }
        self.areas = pieces;
        let mut ea = start;
        while ea < end {
            if let Some(pte) = self.lookup(ea) {
                let shared = self.area(ea).is_some_and(|a| a.shared);
                let phys = match Arch::pte_phys(pte) {
                    p if prot.write && !shared && frames::is_shared(p) => private_copy(p)?,
                    p => p,
                };
                let slot = self.pte_slot(ea, false).expect("present");
                *slot = Arch::make_pte(phys, prot.write, prot.exec);
                Arch::flush_page(self.ctx, ea);
            }
            ea += PAGE_SIZE as u32;
        }
        if covered == (end - start) as u64 {
            Ok(())
        } else {
            Err(Fault::Bad)
        }
    }

    /// Gives every page of the shared areas a frame, so fork can share them all.
    fn fill_shared(&mut self) -> Result<(), Fault> {
        let shared: Vec<Area> = self.areas.iter().filter(|a| a.shared).copied().collect();
        for a in shared {
            for ea in (a.start..a.end).step_by(PAGE_SIZE) {
                if self.lookup(ea).is_none() {
                    let phys = frames::alloc().ok_or(Fault::NoMem)?;
                    self.map(ea, phys, a.prot)?;
                }
            }
        }
        Ok(())
    }

    /// A copy for fork: same areas; shared areas' pages and private read-only
    /// pages shared, private writable pages copied.
    pub fn fork(&mut self) -> Result<AddressSpace, Fault> {
        self.fill_shared()?;
        let mut child = AddressSpace::new().ok_or(Fault::NoMem)?;
        child.areas = self.areas.clone();
        child.brk_start = self.brk_start;
        child.brk = self.brk;
        let l1 = table(self.pgdir);
        for (i, &l2_phys) in l1.iter().enumerate() {
            if l2_phys == 0 {
                continue;
            }
            let l2 = table(l2_phys as usize);
            for (j, &p) in l2.iter().enumerate() {
                if !Arch::pte_present(p) {
                    continue;
                }
                let ea = ((i << 22) | (j << 12)) as u32;
                let shared = self.area(ea).is_some_and(|a| a.shared);
                let slot = child.pte_slot(ea, true).ok_or(Fault::NoMem)?;
                if Arch::pte_writable(p) && !shared {
                    let phys = frames::alloc().ok_or(Fault::NoMem)?;
                    copy_frame(phys, Arch::pte_phys(p));
                    *slot = (p & 0xfff) | phys as u32;
                } else {
                    frames::share(Arch::pte_phys(p));
                    *slot = p;
                }
            }
        }
        Ok(child)
    }

    /// Physical address behind user address `ea`, if mapped (for the loader).
    pub fn phys(&mut self, ea: u32) -> Option<usize> {
        self.lookup(ea).map(|p| Arch::pte_phys(p) + (ea as usize & (PAGE_SIZE - 1)))
    }

    /// Copies `bytes` to user address `ea` through the physical frames,
    /// filling missing pages with their area's protection: for a space that
    /// is not running (exec's, a new process's), and for memory the kernel
    /// fills whatever the program may do to it (a private file mapping, a
    /// forked child's CLONE_CHILD_SETTID). No window is opened: the kernel
    /// writes the frames through its own mapping, as Linux's
    /// `access_process_vm` does.
    pub fn write_bytes(&mut self, mut ea: u32, mut bytes: &[u8]) -> Result<(), Fault> {
        while !bytes.is_empty() {
            let phys = match self.phys(ea) {
                Some(p) => p,
                None => {
                    let prot = self.area(ea).ok_or(Fault::Bad)?.prot;
                    let f = frames::alloc().ok_or(Fault::NoMem)?;
                    self.map(ea & !(PAGE_SIZE as u32 - 1), f, prot)?;
                    f + (ea as usize & (PAGE_SIZE - 1))
                }
            };
            let n = (PAGE_SIZE - (phys & (PAGE_SIZE - 1))).min(bytes.len());
            // SAFETY: phys..phys+n lies in one frame this space holds.
            unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), to_virt(phys) as *mut u8, n) };
            if self.area(ea).is_some_and(|a| a.prot.exec) {
                // Program text, stored through the data cache: fetch must
                // see it, not what the frame held before (`sync_icache_range`).
                crate::arch::sync_icache_range(to_virt(phys), n);
            }
            ea += n as u32;
            bytes = &bytes[n..];
        }
        Ok(())
    }

    /// Up to `len` bytes from user address `ea` through the physical
    /// frames (another process's memory, for /proc): stops at the first
    /// page that is not there, and gives nothing if `len` bytes cannot be
    /// allocated.
    pub fn read_bytes(&mut self, mut ea: u32, len: usize) -> Vec<u8> {
        let mut out = Vec::new();
        if out.try_reserve_exact(len).is_err() {
            return out;
        }
        while out.len() < len {
            let Some(phys) = self.phys(ea) else { break };
            let n = (PAGE_SIZE - (phys & (PAGE_SIZE - 1))).min(len - out.len());
            // SAFETY: phys..phys+n lies in one frame this space holds.
            out.extend_from_slice(unsafe {
                core::slice::from_raw_parts(to_virt(phys) as *const u8, n)
            });
            ea += n as u32;
        }
        out
    }

    /// Finds a free, page-aligned range of `len` bytes below `top` (mmap without a hint).
    pub fn find_free(&self, len: u32, top: u32) -> Option<u32> {
        let mut end = top;
        loop {
            let start = end.checked_sub(len)?;
            match self
                .areas
                .iter()
                .filter(|a| a.start < end && a.end > start)
                .map(|a| a.start)
                .min()
            {
                None => return Some(start),
                Some(s) => end = s,
            }
        }
    }
}

/// A new frame with the contents of `phys`, replacing this owner's share of it.
fn private_copy(phys: usize) -> Result<usize, Fault> {
    let copy = frames::alloc().ok_or(Fault::NoMem)?;
    copy_frame(copy, phys);
    frames::release(phys);
    Ok(copy)
}

fn copy_frame(dst: usize, src: usize) {
    // SAFETY: both are whole frames in BAT-mapped RAM; dst was just allocated.
    unsafe {
        core::ptr::copy_nonoverlapping(
            to_virt(src) as *const u8,
            to_virt(dst) as *mut u8,
            PAGE_SIZE,
        )
    };
}

impl Drop for AddressSpace {
    fn drop(&mut self) {
        self.clear_pages(0, TASK_SIZE);
        let l1 = table(self.pgdir);
        for e in l1.iter_mut().filter(|e| **e != 0) {
            frames::release(core::mem::take(e) as usize);
        }
        frames::release(self.pgdir);
        // Every page was flushed above: no hardware entry carries `ctx` now.
        context::free(self.ctx);
    }
}
