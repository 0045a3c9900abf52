//! tmpfs: the one file system, a tree of inodes in kernel memory.
//!
//! At boot `initramfs::init` fills it with the archive's contents; after that
//! it is writable, as Linux's rootfs (a tmpfs the initramfs is unpacked into)
//! is. A file's bytes stay in the archive (zero-copy) until the first write
//! or truncate copies them into page frames (`Data`), or until a shared
//! mapping needs them as frames.
//!
//! # Mappings
//! An inode is the `mm::space::Pager` of its mappings. A fault in a
//! MAP_SHARED one maps the file's own frame for that page (a hole gets its
//! frame then, at fault time, as Linux's shmem fault does), with one more
//! share of it, so stores through any mapping, read() and write() all meet
//! in the same frames. A MAP_PRIVATE one's first touch of a page copies
//! the file's bytes as they are then into a frame of its own
//! (`Pager::copy_page`). A mapping holds the inode (an `Rc`), so an
//! unlinked, closed file lives on while mapped. A truncate that shrinks a
//! file takes the cut pages out of every mapping, private copies too
//! (`Inode::truncate`); their frames go back when the last share does, and
//! a touch there is SIGBUS.
//!
//! # Ownership
//! - An inode is an `Rc<Inode>` (`Node`). Each directory entry holds one
//!   reference (a hard link is another entry with the same `Rc`), each open
//!   file and each working directory another: when the last goes, `Drop`
//!   returns the file's frames. `Meta::nlink` counts the entries only.
//! - A directory knows its parent by a `Weak` (for "..", getcwd and the
//!   rename-into-itself check), so the tree has no reference cycle.
//! - Frames for file data come from `mm::frames`, at most `limit` of them
//!   (counted once however many mappings share them)
//!   (half the RAM free at boot, Linux tmpfs's default size): past it a
//!   write is ENOSPC, and the rest of the kernel keeps its memory.
//! - Inodes are counted against Linux tmpfs's default `nr_inodes` (half
//!   the RAM pages), and the kernel heap they take (the inode, each name,
//!   each symbolic link's target, each page list) against `META_LIMIT`
//!   bytes: past either, a create is ENOSPC, so no loop of creates or long
//!   names can run the 16 MiB heap dry. An inode's and a `Name`'s `Drop`
//!   give their charge back.
//! - One CPU, no kernel preemption: the `RefCell`s are never borrowed across
//!   a context switch, so a borrow conflict is a kernel bug.

use alloc::rc::{Rc, Weak};
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::convert::Infallible;

use sigil_core::abi::Errno;

use super::stat::{self, Stat};
use crate::kcell::KCell;
use crate::mm::space::{Fault, Pager};
use crate::mm::{self, frames, heap, PAGE_SIZE};
use crate::uaccess::{copy_from_user, copy_to_user};

pub type Node = Rc<Inode>;

/// What every inode has: what stat reports, besides the size.
#[derive(Clone, Copy)]
pub struct Meta {
    /// Type and permission bits.
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    /// Directory entries naming this inode (for a directory: 1 while it is
    /// in the tree, 0 once removed; stat adds its "." and subdirectories' "..").
    pub nlink: u32,
    /// Access, modification and status change times, ns since the epoch.
    pub atime: u64,
    pub mtime: u64,
    pub ctime: u64,
}

pub struct Inode {
    pub ino: u32,
    pub meta: RefCell<Meta>,
    pub kind: Kind,
}

pub enum Kind {
    Dir(RefCell<Dir>),
    File(RefCell<Data>),
    /// The target, as symlink(2) was given it.
    Symlink(String),
    /// A device node: opening it is `devices::open`'s business.
    Device(&'static str),
    /// A named pipe (mkfifo): opening it is `pipe::open_fifo`'s.
    Fifo(super::pipe::Fifo),
}

/// A directory's entries in creation order. `off` is each entry's getdents
/// cookie: it only grows, so a reader that deletes entries as it goes (rm
/// -r) misses none.
pub struct Dir {
    pub entries: Vec<Entry>,
    pub parent: Weak<Inode>,
    next_off: u64,
}

pub struct Entry {
    pub name: Name,
    pub node: Node,
    pub off: u64,
}

/// A directory entry's name, charged to the metadata budget with the
/// entry's room in the vector (twice: a growing vector may double).
pub struct Name(String);

impl Name {
    fn cost(len: usize) -> usize {
        len + 2 * core::mem::size_of::<Entry>()
    }
}

impl core::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Drop for Name {
    fn drop(&mut self) {
        uncharge(Name::cost(self.0.len()));
    }
}

/// getdents offsets 1 and 2 are "." and ".."; entries start here.
pub const FIRST_OFF: u64 = 3;

struct Space {
    /// Data frames in use, and the most there may be.
    used: usize,
    limit: usize,
    /// Inodes, and Linux's default `nr_inodes`.
    inodes: usize,
    max_inodes: usize,
    /// Kernel heap bytes charged for names, links, inodes and page lists.
    meta: usize,
    next_ino: u32,
}

/// The heap the tree's metadata may take: an eighth of the 16 MiB kernel
/// heap (thousands of files with long names; the rest keeps the other
/// budgets' objects, `docs/threat-model.md`).
pub const META_LIMIT: usize = 2 << 20;

static SPACE: KCell<Space> =
    KCell::new(Space { used: 0, limit: 0, inodes: 0, max_inodes: 0, meta: 0, next_ino: 2 });

/// Charges `bytes` of kernel heap to the metadata budget (ENOSPC past it).
fn charge(bytes: usize) -> Result<(), Errno> {
    let s = SPACE.get();
    if s.meta + bytes > META_LIMIT {
        return Err(Errno::ENOSPC);
    }
    s.meta += bytes;
    Ok(())
}

fn uncharge(bytes: usize) {
    SPACE.get().meta -= bytes;
}
static ROOT: KCell<Option<Node>> = KCell::new(None);

/// The root directory (set by `init`).
pub fn root() -> Node {
    ROOT.get().clone().expect("tmpfs::init ran at boot")
}

/// Creates the empty root and sets the size limits; `initramfs` fills it.
pub fn init() {
    let s = SPACE.get();
    s.limit = frames::free_count() / 2;
    // Linux `shmem_default_max_inodes`: half the RAM pages.
    s.max_inodes = frames::total_count() / 2;
    s.inodes = 1;
    s.meta = INODE_COST;
    let root = Rc::new_cyclic(|me| Inode {
        ino: 1,
        meta: RefCell::new(meta(stat::S_IFDIR | 0o755)),
        kind: Kind::Dir(RefCell::new(Dir {
            entries: Vec::new(),
            parent: me.clone(),
            next_off: FIRST_OFF,
        })),
    });
    *ROOT.get() = Some(root);
}

/// Frees the whole tree, at power-off once every process is gone (the
/// leak check's "unmount"): nothing else holds an inode then. Directories
/// are emptied one at a time from a work list, so a deep tree a program
/// made cannot recurse through the kernel stack.
pub fn release() {
    let mut todo: Vec<Node> = ROOT.get().take().into_iter().collect();
    while let Some(node) = todo.pop() {
        if let Kind::Dir(d) = &node.kind {
            let entries = core::mem::take(&mut d.borrow_mut().entries);
            todo.extend(entries.into_iter().map(|e| e.node));
        }
    }
    SPACE.get().next_ino = 2;
}

/// Now, for timestamps: the wall clock (CLOCK_REALTIME), as Linux stamps inodes.
pub fn now() -> u64 {
    crate::time::clock::realtime_ns()
}

/// A new inode's metadata: owned by the creator's fs uid and gid (Linux
/// `inode_init_owner`, without the set-group-id directory rule).
fn meta(mode: u32) -> Meta {
    let t = now();
    let c = crate::cred::current();
    Meta { mode, uid: c.uid.fs, gid: c.gid.fs, nlink: 1, atime: t, mtime: t, ctime: t }
}

/// The heap an inode takes: the `Rc` allocation (two counts and the inode).
const INODE_COST: usize = core::mem::size_of::<Inode>() + 8;

impl Inode {
    /// What this inode is charged: itself and a link's target.
    fn cost(&self) -> usize {
        INODE_COST + if let Kind::Symlink(t) = &self.kind { t.len() } else { 0 }
    }
}

impl Drop for Inode {
    fn drop(&mut self) {
        uncharge(self.cost());
        SPACE.get().inodes -= 1;
    }
}

/// A new inode (not yet in any directory: `Dir::insert` links it), or
/// ENOSPC past the inode count or the metadata budget (Linux's tmpfs says
/// ENOSPC when `nr_inodes` run out).
pub fn new_inode(mode: u32, kind: Kind) -> Result<Node, Errno> {
    let extra = if let Kind::Symlink(t) = &kind { t.len() } else { 0 };
    if SPACE.get().inodes >= SPACE.get().max_inodes {
        return Err(Errno::ENOSPC);
    }
    charge(INODE_COST + extra)?;
    let s = SPACE.get();
    s.inodes += 1;
    let ino = s.next_ino;
    s.next_ino = s.next_ino.wrapping_add(1).max(2);
    let mut m = meta(mode);
    m.nlink = 0;
    heap::rc(Inode { ino, meta: RefCell::new(m), kind })
}

/// What a new regular file holds: nothing, in no pages.
pub fn empty_file() -> Kind {
    Kind::File(RefCell::new(Data::Pages { pages: Vec::new(), size: 0 }))
}

/// A new, empty directory whose ".." is `parent`.
pub fn new_dir(mode: u32, parent: &Node) -> Result<Node, Errno> {
    let d = Dir { entries: Vec::new(), parent: Rc::downgrade(parent), next_off: FIRST_OFF };
    new_inode(stat::S_IFDIR | mode & 0o7777, Kind::Dir(RefCell::new(d)))
}

impl Inode {
    pub fn is_dir(&self) -> bool {
        matches!(self.kind, Kind::Dir(_))
    }

    pub fn dir(&self) -> Result<&RefCell<Dir>, Errno> {
        match &self.kind {
            Kind::Dir(d) => Ok(d),
            _ => Err(Errno::ENOTDIR),
        }
    }

    /// The directory ".." names (the root's is itself).
    pub fn parent(&self) -> Option<Node> {
        match &self.kind {
            Kind::Dir(d) => d.borrow().parent.upgrade(),
            _ => None,
        }
    }

    pub fn size(&self) -> u64 {
        match &self.kind {
            Kind::File(d) => d.borrow().size(),
            Kind::Symlink(t) => t.len() as u64,
            _ => 0,
        }
    }

    /// Marks a change of the inode (ctime) and, for `data`, of its contents (mtime).
    pub fn touch(&self, data: bool) {
        let t = now();
        let mut m = self.meta.borrow_mut();
        m.ctime = t;
        if data {
            m.mtime = t;
        }
    }

    /// truncate, ftruncate and O_TRUNC: the new size, and the pages a
    /// shrink cuts off taken out of every process's mappings of the file.
    pub fn truncate(&self, len: u64) -> Result<(), Errno> {
        let Kind::File(d) = &self.kind else { return Err(Errno::EINVAL) };
        let old = d.borrow().size();
        d.borrow_mut().truncate(len)?;
        if len < old {
            let me = self as *const Inode as *const ();
            let from = len.div_ceil(PAGE_SIZE as u64) as u32;
            for g in crate::proc::all() {
                if let Some(space) = g.try_space() {
                    space.drop_file_pages(me, from);
                }
            }
        }
        Ok(())
    }

    pub fn stat(&self) -> Stat {
        let m = *self.meta.borrow();
        let (nlink, rdev) = match &self.kind {
            Kind::Dir(d) if m.nlink > 0 => {
                (2 + d.borrow().entries.iter().filter(|e| e.node.is_dir()).count() as u32, (0, 0))
            }
            Kind::Device(path) => (m.nlink, super::devices::rdev(path)),
            _ => (m.nlink, (0, 0)),
        };
        Stat::tmpfs(self.ino as u64, m, nlink, rdev, self.size())
    }
}

impl Pager for Inode {
    fn frame(&self, index: u32) -> Result<usize, Fault> {
        let Kind::File(d) = &self.kind else { return Err(Fault::Bus) };
        // Borrowed already: read() or write() of this file copies to or
        // from one of its own mappings' pages, which the call faults in
        // first (`AddressSpace::prefault`) unless past the end: EFAULT.
        let mut d = d.try_borrow_mut().map_err(|_| Fault::Bad)?;
        d.frame(index).map_err(|_| Fault::Bus)
    }

    fn copy_page(&self, index: u32, phys: usize) -> Result<(), Fault> {
        let Kind::File(d) = &self.kind else { return Err(Fault::Bus) };
        let d = d.try_borrow().map_err(|_| Fault::Bad)?;
        let off = index as u64 * PAGE_SIZE as u64;
        if off >= d.size() {
            return Err(Fault::Bus);
        }
        let dst = frame(phys);
        let mut at = 0;
        // The frame is zeroed already: the tail past the end stays zero.
        // `chunks` fails only where its closure does, and this one cannot
        // (its error type has no value), so the copy always completes.
        let Ok(_) = d.chunks::<Infallible>(off, PAGE_SIZE as u32, |bytes| {
            dst[at..at + bytes.len()].copy_from_slice(bytes);
            at += bytes.len();
            Ok(())
        });
        Ok(())
    }

    fn written(&self) {
        self.touch(true);
    }

    fn identity(&self) -> ((u32, u32), u32, String) {
        let path = file_path(self).unwrap_or_else(|| String::from("(deleted)"));
        (self.stat().dev, self.ino, path)
    }
}

impl Dir {
    pub fn find(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| &*e.name == name)
    }

    /// A copy of `name` for an entry, charged to the metadata budget
    /// (ENOSPC past it, ENOMEM if the heap has no room).
    pub fn name(name: &str) -> Result<Name, Errno> {
        charge(Name::cost(name.len()))?;
        let mut owned = String::new();
        if owned.try_reserve_exact(name.len()).is_err() {
            uncharge(Name::cost(name.len()));
            return Err(Errno::ENOMEM);
        }
        owned.push_str(name);
        Ok(Name(owned))
    }

    /// Links `node` under `name` (the caller checked it is free).
    pub fn insert(&mut self, name: &str, node: Node) -> Result<(), Errno> {
        let name = Dir::name(name)?;
        self.entries.try_reserve(1).map_err(|_| Errno::ENOMEM)?;
        self.put(name, node);
        Ok(())
    }

    /// Links `node` under `name` in room the caller reserved (rename:
    /// nothing may fail once the old name is gone).
    pub fn put(&mut self, name: Name, node: Node) {
        node.meta.borrow_mut().nlink += 1;
        node.touch(false);
        self.entries.push(Entry { name, node, off: self.next_off });
        self.next_off += 1;
    }

    /// Unlinks `name` and returns its inode, leaving the vector's room as
    /// it was (for `put`).
    pub fn take(&mut self, name: &str) -> Option<Node> {
        let i = self.entries.iter().position(|e| &*e.name == name)?;
        let Entry { node, .. } = self.entries.remove(i); // the name's charge goes back
        let mut m = node.meta.borrow_mut();
        m.nlink = m.nlink.saturating_sub(1);
        drop(m);
        node.touch(false);
        Some(node)
    }

    /// Unlinks `name` and returns its inode (dropped by the caller, after
    /// the directory is let go). The vector shrinks back, so creating and
    /// deleting files leaves the kernel heap as it was.
    pub fn remove(&mut self, name: &str) -> Option<Node> {
        let node = self.take(name)?;
        self.entries.shrink_to_fit();
        Some(node)
    }
}

/// A regular file's bytes: still the archive's, or page frames (0 is a hole,
/// read as zeros; physical frame 0 is never handed out).
pub enum Data {
    Archive(&'static [u8]),
    Pages { pages: Vec<usize>, size: u64 },
}

/// What a hole (and /dev/zero) reads as.
pub static ZEROS: [u8; PAGE_SIZE] = [0; PAGE_SIZE];

fn page_alloc() -> Result<usize, Errno> {
    let s = SPACE.get();
    if s.used >= s.limit {
        return Err(Errno::ENOSPC);
    }
    let f = frames::alloc().ok_or(Errno::ENOSPC)?;
    s.used += 1;
    Ok(f)
}

fn page_free(phys: usize) {
    frames::release(phys);
    SPACE.get().used -= 1;
}

/// The kernel's view of frame `phys`.
fn frame(phys: usize) -> &'static mut [u8] {
    // SAFETY: `phys` is a frame this file owns (from `page_alloc`), or the
    // fresh one a private mapping's fault fills (`copy_page`), in BAT-mapped
    // RAM; nothing else refers to it while the file is borrowed.
    unsafe { core::slice::from_raw_parts_mut(mm::to_virt(phys) as *mut u8, PAGE_SIZE) }
}

/// (limit, used) in pages and (limit, used) in inodes, for statfs.
pub fn usage() -> ((usize, usize), (usize, usize)) {
    let s = SPACE.get();
    ((s.limit, s.used), (s.max_inodes, s.inodes))
}

/// Grows a page list to `len` slots (new ones are holes). Its 4 bytes a
/// slot are charged to the metadata budget, so sparse files cannot fill
/// the heap with holes either (`cut` and `Drop` give them back).
fn grow(pages: &mut Vec<usize>, len: usize) -> Result<(), Errno> {
    let Some(extra) = len.checked_sub(pages.len()).filter(|&n| n > 0) else { return Ok(()) };
    charge(4 * extra)?;
    if pages.try_reserve(extra).is_err() {
        uncharge(4 * extra);
        return Err(Errno::ENOMEM);
    }
    pages.resize(len, 0);
    Ok(())
}

impl Data {
    pub fn size(&self) -> u64 {
        match self {
            Data::Archive(d) => d.len() as u64,
            Data::Pages { size, .. } => *size,
        }
    }

    /// The whole file in one slice, for exec: the archive's bytes, or a copy.
    pub fn contents(&self) -> Result<alloc::borrow::Cow<'static, [u8]>, Errno> {
        match self {
            Data::Archive(d) => Ok(alloc::borrow::Cow::Borrowed(d)),
            Data::Pages { pages, size } => {
                let mut v = Vec::new();
                v.try_reserve_exact(*size as usize).map_err(|_| Errno::ENOMEM)?;
                for (i, &p) in pages.iter().enumerate() {
                    let n = (*size as usize - i * PAGE_SIZE).min(PAGE_SIZE);
                    match p {
                        0 => v.resize(v.len() + n, 0),
                        p => v.extend_from_slice(&frame(p)[..n]),
                    }
                }
                Ok(alloc::borrow::Cow::Owned(v))
            }
        }
    }

    /// Hands the bytes of [off, off + len), cut at the end of the file, to
    /// `each` in order as kernel slices: an archive file's in one slice, a
    /// page file's a page at a time (a hole as zeros). Returns how many
    /// bytes there were, or the first error of `each`. read() copies them
    /// to user memory, a private mapping's first touch into its frame.
    pub fn chunks<E>(
        &self,
        off: u64,
        len: u32,
        mut each: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<u32, E> {
        let size = self.size();
        if off >= size {
            return Ok(0);
        }
        let n = (len as u64).min(size - off) as usize;
        match self {
            Data::Archive(d) => each(&d[off as usize..off as usize + n])?,
            Data::Pages { pages, .. } => {
                let mut done = 0;
                while done < n {
                    let at = off as usize + done;
                    let k = (PAGE_SIZE - at % PAGE_SIZE).min(n - done);
                    match pages[at / PAGE_SIZE] {
                        0 => each(&ZEROS[..k])?,
                        p => each(&frame(p)[at % PAGE_SIZE..at % PAGE_SIZE + k])?,
                    }
                    done += k;
                }
            }
        }
        Ok(n as u32)
    }

    /// Copies up to `len` bytes at `off` to user memory at `buf`.
    pub fn read(&self, off: u64, buf: u32, len: u32) -> Result<u32, Errno> {
        let mut dst = buf;
        self.chunks(off, len, |bytes| {
            copy_to_user(dst, bytes)?;
            dst += bytes.len() as u32;
            Ok(())
        })
    }

    /// Turns archive bytes into frames, before the first change.
    fn own(&mut self) -> Result<(&mut Vec<usize>, &mut u64), Errno> {
        if let Data::Archive(d) = *self {
            let mut copy = Data::Pages { pages: Vec::new(), size: 0 };
            if let Data::Pages { pages, size } = &mut copy {
                // On failure `copy` drops, freeing what it got.
                grow(pages, d.len().div_ceil(PAGE_SIZE))?;
                for (slot, chunk) in pages.iter_mut().zip(d.chunks(PAGE_SIZE)) {
                    *slot = page_alloc()?;
                    frame(*slot)[..chunk.len()].copy_from_slice(chunk);
                }
                *size = d.len() as u64;
            }
            *self = copy;
        }
        match self {
            Data::Pages { pages, size } => Ok((pages, size)),
            Data::Archive(_) => unreachable!("converted above"),
        }
    }

    /// Makes the file's bytes page frames (mmap MAP_SHARED: the mapping's
    /// pages are to be the file's own).
    pub fn make_frames(&mut self) -> Result<(), Errno> {
        self.own().map(|_| ())
    }

    /// The frame of page `index` (a hole gets one), for a shared mapping:
    /// EFAULT past the end of the file, ENOSPC past the limit.
    fn frame(&mut self, index: u32) -> Result<usize, Errno> {
        let (pages, _) = self.own()?;
        let slot = pages.get_mut(index as usize).ok_or(Errno::EFAULT)?;
        if *slot == 0 {
            *slot = page_alloc()?;
        }
        Ok(*slot)
    }

    /// Copies `len` user bytes at `buf` into the file at `off`. Returns what
    /// was written: short if the space ran out after some bytes, ENOSPC if
    /// before any.
    pub fn write(&mut self, off: u64, buf: u32, len: u32) -> Result<u32, Errno> {
        let end = off.checked_add(len as u64).filter(|&e| e <= MAX_SIZE).ok_or(Errno::EFBIG)?;
        let (pages, size) = self.own()?;
        grow(pages, (end as usize).div_ceil(PAGE_SIZE))?;
        let mut done = 0usize;
        let mut err = None;
        while done < len as usize {
            let at = off as usize + done;
            let k = (PAGE_SIZE - at % PAGE_SIZE).min(len as usize - done);
            let slot = &mut pages[at / PAGE_SIZE];
            if *slot == 0 {
                match page_alloc() {
                    Ok(p) => *slot = p,
                    Err(e) => {
                        err = Some(e);
                        break;
                    }
                }
            }
            let dst = &mut frame(*slot)[at % PAGE_SIZE..at % PAGE_SIZE + k];
            if copy_from_user(dst, buf + done as u32).is_err() {
                err = Some(Errno::EFAULT);
                break;
            }
            done += k;
        }
        *size = (*size).max(off + done as u64);
        if err.is_some() {
            // A failed copy may have left user bytes past the end, in pages
            // this write allocated there.
            cut(pages, *size);
        }
        pages.shrink_to_fit();
        match err {
            Some(e) if done == 0 => Err(e),
            _ => Ok(done as u32),
        }
    }

    /// ftruncate/truncate/O_TRUNC: a longer file reads zeros past the old end.
    pub fn truncate(&mut self, new: u64) -> Result<(), Errno> {
        if new > MAX_SIZE {
            return Err(Errno::EFBIG);
        }
        let (pages, size) = self.own()?;
        cut(pages, new);
        grow(pages, (new as usize).div_ceil(PAGE_SIZE))?;
        pages.shrink_to_fit();
        *size = new;
        Ok(())
    }
}

/// Ends a page list at `size` bytes: the pages past it go back to the frame
/// allocator, and the tail of the last page (if it holds the end) is zeroed,
/// so that bytes past the end read as zeros if the file grows again.
fn cut(pages: &mut Vec<usize>, size: u64) {
    let keep = (size as usize).div_ceil(PAGE_SIZE);
    uncharge(4 * pages.len().saturating_sub(keep));
    for p in pages.drain(keep.min(pages.len())..) {
        if p != 0 {
            page_free(p);
        }
    }
    let tail = size as usize % PAGE_SIZE;
    if let Some(&p) = pages.last().filter(|&&p| p != 0 && tail != 0 && pages.len() == keep) {
        frame(p)[tail..].fill(0);
    }
}

/// The largest file: the page list stays a small heap object (1 MiB of
/// it at most); past this, writes and truncates are EFBIG.
pub const MAX_SIZE: u64 = 1 << 30;

impl Drop for Data {
    fn drop(&mut self) {
        if let Data::Pages { pages, .. } = self {
            uncharge(4 * pages.len());
            for &p in pages.iter().filter(|&&p| p != 0) {
                page_free(p);
            }
        }
    }
}

/// The absolute path of directory `dir`, found by climbing "..": what
/// getcwd returns. ENOENT if it was removed (as Linux's getcwd says).
pub fn path_of(node: &Node) -> Result<String, Errno> {
    let root = root();
    let mut names: Vec<String> = Vec::new();
    let mut cur = node.clone();
    while !Rc::ptr_eq(&cur, &root) {
        let parent = cur.parent().ok_or(Errno::ENOENT)?;
        let d = parent.dir()?.borrow();
        let e = d.entries.iter().find(|e| Rc::ptr_eq(&e.node, &cur)).ok_or(Errno::ENOENT)?;
        names.push(String::from(&*e.name));
        drop(d);
        cur = parent;
    }
    let mut out = String::new();
    for n in names.iter().rev() {
        out.push('/');
        out.push_str(n);
    }
    if out.is_empty() {
        out.push('/');
    }
    Ok(out)
}

/// The path of file `node`, searched for from the root (a work list, no
/// recursion); None once unlinked. (A directory knows its parent:
/// `path_of`.)
pub fn file_path(node: &Inode) -> Option<String> {
    let mut todo = alloc::vec![(root(), String::new())];
    while let Some((dir, path)) = todo.pop() {
        let d = dir.dir().ok()?.borrow();
        for e in &d.entries {
            let p = alloc::format!("{path}/{}", &*e.name);
            if core::ptr::eq(Rc::as_ptr(&e.node), node) {
                return Some(p);
            }
            if e.node.is_dir() {
                todo.push((e.node.clone(), p));
            }
        }
    }
    None
}

/// Gives each directory's entry vector back its spare room (after the
/// initramfs is unpacked): `Dir::remove` shrinks to fit, so without this
/// the first create-and-delete in a directory would shrink the heap below
/// the leak check's baseline.
pub fn shrink(dir: &Node) {
    if let Kind::Dir(d) = &dir.kind {
        let mut d = d.borrow_mut();
        d.entries.shrink_to_fit();
        for e in d.entries.iter().filter(|e| e.node.is_dir()) {
            shrink(&e.node);
        }
    }
}

/// Is `a` the directory `b` or one of its ancestors? (rename refuses to
/// move a directory into itself.)
pub fn is_ancestor(a: &Node, b: &Node) -> bool {
    let mut cur = b.clone();
    loop {
        if Rc::ptr_eq(a, &cur) {
            return true;
        }
        match cur.parent() {
            Some(p) if !Rc::ptr_eq(&p, &cur) => cur = p,
            _ => return false,
        }
    }
}
