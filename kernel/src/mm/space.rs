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
//! but not yet in the table is filled on first touch - with zeroes (stack,
//! brk, anonymous mmap), or, in a shared file mapping, with the file's own
//! frame for that page (`Pager`, which the file system implements), so a
//! store through the mapping is a store to the file. A file page past the
//! end of the file is not there to map: SIGBUS (`Fault::Bus`), as on Linux.
//! A private file mapping's page is a copy of the file's page as it is at
//! the first touch (`Pager::copy_page`; nothing is copied at mmap), which
//! also measures the end of the file then, as Linux's filemap_fault does:
//! a page wholly past it is SIGBUS. So a write() to the file shows through
//! every page the process has not touched yet, as on Linux, where a private
//! page is the file's page cache until its first write copies it (COW).
//! Sigil takes no copy-on-write fault (a store to a present read-only page
//! is SIGSEGV; fork and `protect` copy ahead instead), so it cannot map the
//! file's frame read-only until a store: a first *read* copies too, and a
//! page the process has only read keeps the file's bytes of that time,
//! where Linux would show a later write() (POSIX leaves it unspecified for
//! MAP_PRIVATE).
//! Invariant: a shared file mapping maps only pages inside the file, each
//! the frame the file holds at that index; truncate keeps it by dropping
//! the cut pages from every mapping, private copies too (`drop_file_pages`,
//! Linux's `unmap_mapping_range` with `even_cows`), so a touch there after
//! a shrink is SIGBUS in either kind.
//!
//! Fork and sharing. Each frame has a share count (`frames`). Fork copies a
//! private area's writable pages at once and shares its read-only ones; a
//! shared area's (MAP_SHARED) pages are shared whatever their protection,
//! after the parent fills the ones it never touched, so both see one memory
//! (a file mapping needs no filling: the file is the one memory).
//! Invariant: a private page is writable only in a frame with one owner.
//! `protect` keeps it: making a private page writable first copies a frame
//! another address space still holds (what a copy-on-write fault would do,
//! done at mprotect time), so no process can write another's memory through
//! a page fork shared with it - not even PID 1's text.

use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use sigil_core::abi::Errno;

use super::{context, frames, to_virt, PAGE_SIZE, SIGPAGE, TASK_SIZE};
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
#[derive(Clone)]
pub struct Area {
    pub start: u32,
    pub end: u32,
    pub prot: Prot,
    /// MAP_SHARED: fork shares the frames (writable ones too) instead of copying them.
    pub shared: bool,
    /// The file mapped here. Shared: its pages are the file's frames.
    /// Private: each page a copy of the file's made at its first touch
    /// (or SIGBUS, wholly past the end of the file then).
    pub file: Option<FileMap>,
}

/// A mapped file, as an area holds it.
#[derive(Clone)]
pub struct FileMap {
    pub pager: Rc<dyn Pager>,
    /// The area's start page less its first file page (wrapping): a page's
    /// index in the file is its address's page number less `base`, in
    /// whichever piece of a split area it ends up.
    base: u32,
    /// The file was open for writing: mprotect may add PROT_WRITE to a
    /// shared mapping (Linux's VM_MAYWRITE).
    pub may_write: bool,
}

impl FileMap {
    /// The mapping of the file from page `pgoff` at address `start`.
    pub fn new(pager: Rc<dyn Pager>, start: u32, pgoff: u32, may_write: bool) -> FileMap {
        FileMap { pager, base: (start / PAGE_SIZE as u32).wrapping_sub(pgoff), may_write }
    }

    /// The index in the file of the page at `ea`.
    pub fn index(&self, ea: u32) -> u32 {
        (ea / PAGE_SIZE as u32).wrapping_sub(self.base)
    }

    /// Does this map the file `pager` names? (compared by address)
    fn is(&self, pager: *const ()) -> bool {
        core::ptr::addr_eq(Rc::as_ptr(&self.pager), pager)
    }
}

/// A file as the memory manager sees it: page frames by index. The file
/// system implements it (tmpfs's inodes); the mapping holds it by `Rc`, so
/// the file outlives its last name and descriptor while mapped.
pub trait Pager {
    /// The frame holding page `index` of the file, a hole given one first.
    /// Err(Bus) past the end of the file or when no frame may be had
    /// (Linux's shmem fault says SIGBUS for both).
    fn frame(&self, index: u32) -> Result<usize, Fault>;
    /// Copies page `index` of the file as it is now into the fresh zeroed
    /// frame `phys` (a private mapping's first touch), zeroes after the end
    /// of the file; Err(Bus) if the page is wholly past the end (Linux's
    /// filemap_fault).
    fn copy_page(&self, index: u32, phys: usize) -> Result<(), Fault>;
    /// A store through a shared mapping, the program's or the kernel's,
    /// faulted a page of the file in: its mtime and ctime become now.
    fn written(&self);
    /// What /proc/<pid>/maps names: device, inode number and path.
    fn identity(&self) -> ((u32, u32), u32, String);
}

/// Why a user access could not be satisfied.
#[derive(Debug)]
pub enum Fault {
    /// No area there, or the access is not allowed by the area (SIGSEGV).
    Bad,
    /// Out of physical memory.
    NoMem,
    /// A file page that is not there: past the end of the file (SIGBUS).
    Bus,
}

/// What a system call says for a fault it meets.
impl From<Fault> for Errno {
    fn from(f: Fault) -> Errno {
        match f {
            Fault::Bad | Fault::Bus => Errno::EFAULT,
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

    /// Declares [start, end) as an area of anonymous memory (it must not
    /// overlap another). An anonymous area that ends at `start` with the
    /// same protection and sharing just grows (brk). Callers acting for
    /// user space check `room_for(1)` first; Err(NoMem) if the heap has no
    /// room for the list to grow.
    pub fn add_area(
        &mut self,
        start: u32,
        end: u32,
        prot: Prot,
        shared: bool,
    ) -> Result<(), Fault> {
        let grows = |a: &&mut Area| {
            a.end == start && a.prot == prot && a.shared == shared && a.file.is_none()
        };
        match self.areas.iter_mut().find(grows) {
            Some(a) => a.end = end,
            None => self.push_area(Area { start, end, prot, shared, file: None })?,
        }
        Ok(())
    }

    /// Declares [start, end) as a mapping of a file, as `add_area` does.
    pub fn add_file_area(
        &mut self,
        start: u32,
        end: u32,
        prot: Prot,
        shared: bool,
        f: FileMap,
    ) -> Result<(), Fault> {
        self.push_area(Area { start, end, prot, shared, file: Some(f) })
    }

    fn push_area(&mut self, a: Area) -> Result<(), Fault> {
        self.areas.try_reserve(1).map_err(|_| Fault::NoMem)?;
        self.areas.push(a);
        Ok(())
    }

    /// May [start, end) become writable? Not where a shared mapping's file
    /// was opened read-only (mprotect says EACCES, as Linux's does).
    pub fn may_write(&self, start: u32, end: u32) -> bool {
        let in_range = |a: &&Area| a.start < end && a.end > start && a.shared;
        self.areas.iter().filter(in_range).all(|a| a.file.as_ref().is_none_or(|f| f.may_write))
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

    /// Is every page of [start, end) in an area?
    pub fn covers(&self, start: u32, end: u32) -> bool {
        let overlap = |a: &Area| a.end.min(end).saturating_sub(a.start.max(start)) as u64;
        self.areas.iter().map(overlap).sum::<u64>() == end.saturating_sub(start) as u64
    }

    /// Puts frame `phys` at `ea` (which must be in an area); takes the
    /// caller's share of it, also on failure: with no frame left for the
    /// page table (Err(NoMem)) the share is dropped here, so no caller can
    /// leak it.
    pub fn map(&mut self, ea: u32, phys: usize, prot: Prot) -> Result<(), Fault> {
        let Some(slot) = self.pte_slot(ea, true) else {
            frames::release(phys);
            return Err(Fault::NoMem);
        };
        let old = *slot;
        *slot = Arch::make_pte(phys, prot.write, prot.exec);
        if Arch::pte_present(old) {
            frames::release(Arch::pte_phys(old));
            Arch::flush_page(self.ctx, ea);
        }
        Ok(())
    }

    /// Resolves a fault at `ea`: loads the hardware from the table, or fills a
    /// page of an area (then `Ok(true)`: a page fault as Linux counts them).
    /// `Err(Bad)` means the access is illegal. The area is looked up once.
    pub fn fault(&mut self, ea: u32, write: bool) -> Result<bool, Fault> {
        let page = ea & !(PAGE_SIZE as u32 - 1);
        let mapped = self.lookup(page);
        let area = self.area(ea).ok_or(Fault::Bad)?;
        let prot = area.prot;
        if (write && !prot.write) || !(prot.read || prot.write || prot.exec) {
            return Err(Fault::Bad);
        }
        let (pte, filled) = match mapped {
            Some(p) => (p, false),
            None => {
                let phys = first_frame(area, page, write)?;
                self.map(page, phys, prot)?;
                (self.lookup(page).expect("just mapped"), true)
            }
        };
        if write && !Arch::pte_writable(pte) {
            return Err(Fault::Bad);
        }
        Arch::reload(self.ctx, page, pte);
        Ok(filled)
    }

    /// Takes the pages from index `from` on of file `pager` out of this
    /// space's mappings of it, shared or private (truncate: the file no
    /// longer has them, so a touch there is SIGBUS, as after Linux's
    /// `unmap_mapping_range` with `even_cows`, which drops a private
    /// mapping's copies too).
    pub fn drop_file_pages(&mut self, pager: *const (), from: u32) {
        let cut: Vec<(u32, u32)> = self
            .areas
            .iter()
            .filter_map(|a| Some((a, a.file.as_ref().filter(|f| f.is(pager))?)))
            .filter_map(|(a, f)| {
                // The first page at or past `from`: indices grow with addresses.
                let skip = from.saturating_sub(f.index(a.start)) as u64 * PAGE_SIZE as u64;
                let start = (a.start as u64 + skip).min(a.end as u64) as u32;
                (start < a.end).then_some((start, a.end))
            })
            .collect();
        for (start, end) in cut {
            self.clear_pages(start, end);
        }
    }

    /// Maps the pages of [start, start + len) where a mapping of file
    /// `pager` lies and the file has the page: read() (`write`: the kernel
    /// stores into the buffer) and write() of that file call it before
    /// they borrow the file, as a fault inside their copy could not borrow
    /// it again (`Pager::frame`, `Pager::copy_page`). Linux's
    /// `fault_in_iov_iter_writeable` and `_readable` play this part for
    /// the page cache.
    pub fn prefault(&mut self, start: u32, len: u32, pager: *const (), write: bool) {
        let end = start.saturating_add(len);
        let mine = |a: &&Area| {
            a.start < end && a.end > start && a.file.as_ref().is_some_and(|f| f.is(pager))
        };
        let ranges: Vec<(u32, u32)> = self
            .areas
            .iter()
            .filter(mine)
            .map(|a| (a.start.max(start & !(PAGE_SIZE as u32 - 1)), a.end.min(end)))
            .collect();
        for (from, to) in ranges {
            for page in (from..to).step_by(PAGE_SIZE) {
                if self.lookup(page).is_some() {
                    continue;
                }
                let Some(area) = self.area(page) else { continue };
                let prot = area.prot;
                // A store the area refuses will not happen (EFAULT): the
                // file is not changed by it. Past the end of the file: the
                // copy meets the fault, EFAULT too.
                let Ok(phys) = first_frame(area, page, write && prot.write) else { continue };
                // On failure `map` has dropped the share: nothing to undo.
                let _ = self.map(page, phys, prot);
            }
        }
    }

    /// Removes every page and area in [start, end) (page-aligned).
    /// Err(NoMem), changing nothing, if splitting an area would pass MAX_AREAS.
    pub fn unmap(&mut self, start: u32, end: u32) -> Result<(), Fault> {
        if self.areas.iter().any(|a| a.start < start && a.end > end) && !self.room_for(1) {
            return Err(Fault::NoMem);
        }
        let mut kept = Vec::new();
        kept.try_reserve_exact(self.areas.len() + 1).map_err(|_| Fault::NoMem)?;
        for a in self.areas.drain(..) {
            if a.end <= start || a.start >= end {
                kept.push(a);
                continue;
            }
            if a.start < start {
                kept.push(Area { end: start, ..a.clone() });
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
        pieces.try_reserve_exact(self.areas.len() + splits).map_err(|_| Fault::NoMem)?;
        let mut covered = 0u64;
        for a in self.areas.drain(..) {
            if a.end <= start || a.start >= end {
                pieces.push(a);
                continue;
            }
            let (s, e) = (a.start.max(start), a.end.min(end));
            covered += (e - s) as u64;
            if a.start < s {
                pieces.push(Area { end: s, ..a.clone() });
            }
            if a.end > e {
                pieces.push(Area { start: e, ..a.clone() });
            }
            pieces.push(Area { start: s, end: e, prot, ..a });
        }
        let old = core::mem::replace(&mut self.areas, pieces);
        let was_exec = |ea: u32| old.iter().any(|a| a.start <= ea && ea < a.end && a.prot.exec);
        let mut ea = start;
        while ea < end {
            if let Some(pte) = self.lookup(ea) {
                let shared = self.area(ea).is_some_and(|a| a.shared);
                let phys = match Arch::pte_phys(pte) {
                    p if prot.write && !shared && frames::is_shared(p) => private_copy(p)?,
                    p => p,
                };
                if prot.exec && !was_exec(ea) {
                    // Execute added (the JIT pattern: write code through a
                    // RW page, then mprotect it R|X): the stores sit in the
                    // data cache, which instruction fetch does not snoop on
                    // these cores, so push them out and drop stale lines.
                    crate::arch::sync_icache_range(to_virt(phys), PAGE_SIZE);
                }
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

    /// Gives every page of the shared anonymous areas a frame, so fork can
    /// share them all. (A shared file mapping's untouched pages are the
    /// file's: each process that touches one later finds the same frame.)
    fn fill_shared(&mut self) -> Result<(), Fault> {
        let anon = |a: &&Area| a.shared && a.file.is_none();
        let shared: Vec<(u32, u32, Prot)> =
            self.areas.iter().filter(anon).map(|a| (a.start, a.end, a.prot)).collect();
        for (start, end, prot) in shared {
            for ea in (start..end).step_by(PAGE_SIZE) {
                if self.lookup(ea).is_none() {
                    let phys = frames::alloc().ok_or(Fault::NoMem)?;
                    self.map(ea, phys, prot)?;
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
        child.areas.try_reserve_exact(self.areas.len()).map_err(|_| Fault::NoMem)?;
        child.areas.extend_from_slice(&self.areas);
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
        // The signal page's translation is loaded now, as exec loads it
        // (signal/sigpage.rs says why: a debugger sees only loaded ones).
        if let Some(pte) = child.lookup(SIGPAGE) {
            Arch::reload(child.ctx, SIGPAGE, pte);
        }
        Ok(child)
    }

    /// The physical address behind `ea` if it lies in a shared area
    /// (MAP_SHARED, anonymous or a file's), its page faulted in first: a
    /// shared futex's key. None in private memory.
    pub fn shared_phys(&mut self, ea: u32) -> Result<Option<usize>, Fault> {
        if !self.area(ea).is_some_and(|a| a.shared) {
            return Ok(None);
        }
        if self.lookup(ea).is_none() {
            self.fault(ea, false)?;
        }
        Ok(self.phys(ea))
    }

    /// Physical address behind user address `ea`, if mapped (for the loader).
    pub fn phys(&mut self, ea: u32) -> Option<usize> {
        self.lookup(ea).map(|p| Arch::pte_phys(p) + (ea as usize & (PAGE_SIZE - 1)))
    }

    /// Copies `bytes` to user address `ea` through the physical frames,
    /// filling missing pages with their area's protection: for a space that
    /// is not running (exec's, a new process's: a forked child's
    /// CLONE_CHILD_SETTID). No window is opened: the kernel writes the
    /// frames through its own mapping, as Linux's `access_process_vm`
    /// does. A page of a shared file mapping it faults in is a store to
    /// the file, which records it (`first_frame`).
    pub fn write_bytes(&mut self, mut ea: u32, mut bytes: &[u8]) -> Result<(), Fault> {
        while !bytes.is_empty() {
            let phys = match self.phys(ea) {
                Some(p) => p,
                None => {
                    let area = self.area(ea).ok_or(Fault::Bad)?;
                    let (page, prot) = (ea & !(PAGE_SIZE as u32 - 1), area.prot);
                    let f = first_frame(area, page, true)?;
                    self.map(page, f, prot)?;
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

/// The frame page `page` of `area` starts with (the page is not mapped):
/// the file's own frame, with one more share of it, in a shared file
/// mapping; a fresh frame with the file's bytes as they are now in a
/// private one; else a fresh zeroed one. Either file kind is SIGBUS on a
/// page wholly past the end of the file at the time of the fault.
///
/// A `write` (a store, the program's or the kernel's) that faults in a
/// page of a shared file mapping changes the file, which records it, as
/// Linux's `fault_dirty_shared_page` calls `file_update_time` for a file
/// system without `page_mkwrite` (tmpfs): once, here; the stores after it,
/// to a page now mapped writable, change the file without touching its
/// times. (Recorded before the page is mapped: if no frame is left for the
/// page table the access fails anyway, and only a time has moved.)
fn first_frame(area: &Area, page: u32, write: bool) -> Result<usize, Fault> {
    let phys = match &area.file {
        Some(f) if area.shared => {
            let phys = f.pager.frame(f.index(page))?;
            frames::share(phys);
            if write {
                f.pager.written();
            }
            phys
        }
        Some(f) => {
            let phys = frames::alloc().ok_or(Fault::NoMem)?;
            if let Err(e) = f.pager.copy_page(f.index(page), phys) {
                frames::release(phys);
                return Err(e);
            }
            phys
        }
        None => frames::alloc().ok_or(Fault::NoMem)?,
    };
    if area.prot.exec {
        // Zeroes or file bytes, stored through the data cache, which
        // instruction fetch does not snoop on these cores.
        crate::arch::sync_icache_range(to_virt(phys), PAGE_SIZE);
    }
    Ok(phys)
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
