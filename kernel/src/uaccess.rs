//! The user-access interface: the only way the kernel touches user memory.
//!
//! A user pointer is a claim, not a reference. `UserWindow::open` checks the
//! range once (inside user space, no wrap-around), opens KUAP for it (arch),
//! and returns a guard; only the guard can `put`/`get`/copy, and dropping it
//! closes KUAP again. This is Linux's `user_access_begin()` /
//! `unsafe_put_user()` / `user_access_end()`. The guard is the only safe way
//! in; an `unsafe` raw store to user memory still compiles, and KUAP (the
//! MMU) is what faults on it at run time.
//!
//! Faults inside a window: a page that is merely not loaded yet is filled in
//! by the fault handler and the access retried. An access that cannot be
//! satisfied (no mapping, read-only page) is *skipped*: the handler records
//! the fault in the window and resumes after the faulting instruction
//! (`fixup`). A skipped load leaves garbage, so every accessor is a single
//! plain-old-data load or store (or the register-set copy's `lmw`/`stmw`,
//! restartable and zeroed when skipped: `put_block`) and `finish()`
//! reports `Err(Efault)`; a
//! skipped update-form store (`stbu`) still advances its base register
//! (`arch::skip_faulted_access`), or the rest of a copy loop would go astray. Linux
//! needs an exception table entry per access to do the same; a window that
//! remembers its own fault needs none.
//!
//! `get_user`, `put_user`, `copy_to_user` and `copy_from_user` are thin: each
//! opens its own window. That is exactly the per-call cost the Linux mailing-list
//! threads measured (docs/benchmarks.md).

use core::marker::PhantomData;
use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use crate::arch::{Arch, UserAccess};
use crate::mm::TASK_SIZE;

/// A bad user address: the syscall returns EFAULT.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Efault;

/// A bad user address is EFAULT for the caller: `?` in a syscall handler.
impl From<Efault> for sigil_core::abi::Errno {
    #[inline(always)]
    fn from(_: Efault) -> Self {
        sigil_core::abi::Errno::EFAULT
    }
}

/// What a window is opened for, in its type: `UserWindow<Read>` has `get`
/// and no `put`, so a store through a read window (which on book3s/32 would
/// fault, the Ks bit blocking supervisor stores, and come back as a silent
/// EFAULT) does not compile. Opening for writing unlocks; on book3s/32
/// loads are never blocked, so opening for reading costs nothing there.
pub trait Direction {
    /// Does the window need the write unlock?
    const WRITES: bool;
    /// Was an answer's window counted with it (`Request`)?
    const REPLIES: bool = false;
}
/// A direction whose windows may be loaded from.
pub trait CanRead: Direction {}
/// A direction whose windows may be stored to.
pub trait CanWrite: Direction {}

pub struct Read;
pub struct Write;
/// Loads and stores in one window (e.g. an ioctl struct read, then answered).
pub struct ReadWrite;
/// A request's loads, its answer's write window promised over the same
/// struct (`UserWindow::open_with_reply`).
pub struct Request;

impl Direction for Read {
    const WRITES: bool = false;
}
impl Direction for Write {
    const WRITES: bool = true;
}
impl Direction for ReadWrite {
    const WRITES: bool = true;
}
impl Direction for Request {
    const WRITES: bool = false;
    const REPLIES: bool = true;
}
impl CanRead for Read {}
impl CanRead for ReadWrite {}
impl CanRead for Request {}
impl CanWrite for Write {}
impl CanWrite for ReadWrite {}

/// Counters read by the benchmarks (and the trace): windows opened and bytes
/// moved through them since boot. Counted with a load and a store, not
/// `fetch_add` (a lwarx/stwcx. loop on ppc32): interrupts are off whenever
/// kernel code runs (kcell.rs), so nothing can count in between, and the
/// counts stay exact.
pub static WINDOWS: AtomicU32 = AtomicU32::new(0);
pub static BYTES: AtomicU32 = AtomicU32::new(0);

/// The open window, for the fault handler (one CPU, one window at a time).
static OPEN_START: AtomicU32 = AtomicU32::new(0);
static OPEN_END: AtomicU32 = AtomicU32::new(0);
static FAULTED: AtomicBool = AtomicBool::new(false);

/// Types a window may move: any bit pattern is a valid value, so a skipped
/// (faulted) load can never make an invalid one.
pub trait Pod: Copy {}
impl Pod for u8 {}
impl Pod for u16 {}
impl Pod for u32 {}
impl Pod for i32 {}
impl Pod for u64 {}
impl<T: Pod, const N: usize> Pod for [T; N] {}

/// An open user-access window over [start, start + len), for direction `D`.
/// Dropping it closes it (and forgets a fault nobody asked about);
/// `finish` closes it and says whether every access worked.
#[must_use = "a window is open until dropped; finish() says whether its accesses worked"]
pub struct UserWindow<D: Direction> {
    start: u32,
    len: u32,
    dir: PhantomData<D>,
}

impl<D: Direction> UserWindow<D> {
    /// Checks [addr, addr + len) and opens it for `_dir` (`Read`, `Write`
    /// or `ReadWrite`). `len` 0 is allowed (no access).
    ///
    /// Inlined: a caller with a fixed-size struct then knows the window's
    /// length, and the bound check of every `get`/`put` at a constant offset
    /// folds away (one check per layout, at compile time). Out of line, the
    /// length came back through memory and each access compared it again.
    #[inline(always)]
    pub fn open(addr: u32, len: u32, _dir: D) -> Result<UserWindow<D>, Efault> {
        let end = checked_end(addr, len)?;
        count(1, len);
        Ok(UserWindow::arm(addr, len, end))
    }

    /// Opens the checked range [addr, end), `len` bytes (the counting is
    /// the caller's).
    #[inline(always)]
    fn arm(addr: u32, len: u32, end: u32) -> UserWindow<D> {
        if len > 0 {
            OPEN_START.store(addr, Ordering::Relaxed);
            OPEN_END.store(end, Ordering::Relaxed);
            if D::WRITES {
                Arch::open_write(addr, end);
            } else {
                Arch::open_read(addr, end);
            }
        }
        UserWindow { start: addr, len, dir: PhantomData }
    }

    fn ptr<T>(&self, off: u32) -> *mut T {
        assert!(
            off.checked_add(core::mem::size_of::<T>() as u32).is_some_and(|e| e <= self.len),
            "access outside the window"
        );
        (self.start + off) as *mut T
    }

    /// The address of `n` values of T from `off`, checked once for all of them.
    fn ptr_n<T>(&self, off: u32, n: usize) -> *mut T {
        let bytes = (n as u32).checked_mul(core::mem::size_of::<T>() as u32);
        assert!(
            bytes.and_then(|b| off.checked_add(b)).is_some_and(|e| e <= self.len),
            "access outside the window"
        );
        (self.start + off) as *mut T
    }

    /// Closes the window and says whether every access in it succeeded.
    #[inline(always)]
    pub fn finish(self) -> Result<(), Efault> {
        // Read before the close: after the window's last access nothing
        // sets it, and here it shares the base address `close` forms for
        // the open range; after the arch's lock (an `asm!` LLVM must take
        // as touching memory) it took a `lis`/`addi` of its own.
        let faulted = FAULTED.load(Ordering::Relaxed);
        self.close();
        core::mem::forget(self); // closed already: no `drop`

        // A load, and a store only after a fault: a `swap` on a bool is a
        // masked lwarx/stwcx. loop (~17 instructions) on every window.
        if faulted {
            FAULTED.store(false, Ordering::Relaxed);
            Err(Efault)
        } else {
            Ok(())
        }
    }

    #[inline(always)]
    fn close(&self) {
        if self.len > 0 {
            // Disarmed first, for the same reason as `finish` reads the
            // fault flag first: one base address for both, and the `li 0`
            // shared with the arch's lock. No access is left to fault.
            OPEN_END.store(0, Ordering::Relaxed);
            if D::WRITES {
                Arch::close(self.start);
            } else {
                Arch::close_read();
            }
        }
        if D::REPLIES {
            // A request closed whole (dropped, or `finish` instead of
            // `finish_request`): its reply will not open.
            count(u32::MAX, self.len.wrapping_neg());
        }
    }
}

impl<D: CanWrite> UserWindow<D> {
    /// Stores `v` at `off` bytes into the window.
    #[inline(always)]
    pub fn put<T: Pod>(&mut self, off: u32, v: T) {
        let p = self.ptr::<T>(off);
        // SAFETY: p lies in the checked user range and KUAP is open for it; a
        // fault is recorded and skipped by the fault handler (see `fixup`).
        unsafe { core::ptr::write_volatile(p, v) };
    }

    /// Stores `vals` one after another from `off`: one range check for the
    /// lot, then a plain store loop (a frame's 44 registers, the FP array).
    /// Four values per turn: the compiler does not unroll volatile loops, and
    /// the loop's own add and branch would otherwise double the cost.
    pub fn put_slice<T: Pod>(&mut self, off: u32, vals: &[T]) {
        let p = self.ptr_n::<T>(off, vals.len());
        let quads = vals.len() / 4;
        for (q, v) in vals.chunks_exact(4).enumerate() {
            // SAFETY: as for `put`; ptr_n checked all of [p, p + len).
            unsafe {
                let d = p.add(4 * q);
                core::ptr::write_volatile(d, v[0]);
                core::ptr::write_volatile(d.add(1), v[1]);
                core::ptr::write_volatile(d.add(2), v[2]);
                core::ptr::write_volatile(d.add(3), v[3]);
            }
        }
        for (i, &v) in vals.iter().enumerate().skip(4 * quads) {
            // SAFETY: as above.
            unsafe { core::ptr::write_volatile(p.add(i), v) };
        }
    }

    /// Stores an `N`-word register set at `off` (a signal frame's
    /// mc_gregs): one `lmw`/`stmw` routine (`arch::copy_block`, for the
    /// sizes it has) where `put_slice` takes about 90 instructions.
    /// An unaligned address (a multiple-word access there is an alignment
    /// interrupt) takes `put_slice`.
    #[inline(always)]
    pub fn put_block<const N: usize>(&mut self, off: u32, vals: &[u32; N]) {
        let p = self.ptr_n::<u32>(off, N);
        if !(p as usize).is_multiple_of(4) {
            return self.put_slice(off, vals);
        }
        // SAFETY: ptr_n checked [p, p + 4N) is in the window, which is open
        // for writing; p is word-aligned; a fault is an EFAULT (see
        // `arch::copy_block`).
        unsafe { crate::arch::copy_block::<N>(p, vals.as_ptr()) };
    }

    /// Stores `vals` at `off`, then zero words up to `LEN` words in all (a
    /// user siginfo_t: its 8 words and the zeroes to its 128 bytes): one
    /// `lmw`/`stmw` routine (`arch::copy_block_padded`, for the sizes it
    /// has) where the stores one by one took about 40 instructions. An
    /// unaligned address (rt_sigtimedwait's pointer may be one) stores
    /// word by word.
    #[inline(always)]
    pub fn put_block_padded<const N: usize, const LEN: usize>(
        &mut self,
        off: u32,
        vals: &[u32; N],
    ) {
        let p = self.ptr_n::<u32>(off, LEN);
        if !(p as usize).is_multiple_of(4) {
            self.put_slice(off, vals);
            for i in N..LEN {
                self.put(off + 4 * i as u32, 0u32);
            }
            return;
        }
        // SAFETY: ptr_n checked [p, p + 4 LEN) is in the window, which is
        // open for writing; p is word-aligned; a fault is an EFAULT (see
        // `arch::copy_block`).
        unsafe { crate::arch::copy_block_padded::<N, LEN>(p, vals.as_ptr()) };
    }

    /// Copies `src` to `off` bytes into the window.
    pub fn write_bytes(&mut self, off: u32, src: &[u8]) {
        self.put_slice(off, src);
    }
}

impl<D: CanRead> UserWindow<D> {
    /// Loads a value at `off` bytes into the window.
    #[inline(always)]
    pub fn get<T: Pod>(&self, off: u32) -> T {
        let p = self.ptr::<T>(off);
        // SAFETY: p lies in the checked user range and KUAP is open for it;
        // a fault is recorded and skipped (see `fixup`), and T is Pod, so
        // even a skipped load yields a valid T.
        unsafe { core::ptr::read_volatile(p) }
    }

    /// Loads `out.len()` values from `off` into `out` (one range check),
    /// four per turn like `put_slice`.
    pub fn get_slice<T: Pod>(&self, off: u32, out: &mut [T]) {
        let p = self.ptr_n::<T>(off, out.len());
        let quads = out.len() / 4;
        for (q, v) in out.chunks_exact_mut(4).enumerate() {
            // SAFETY: as for `get`; ptr_n checked all of [p, p + len).
            unsafe {
                let s = p.add(4 * q);
                v[0] = core::ptr::read_volatile(s);
                v[1] = core::ptr::read_volatile(s.add(1));
                v[2] = core::ptr::read_volatile(s.add(2));
                v[3] = core::ptr::read_volatile(s.add(3));
            }
        }
        for (i, v) in out.iter_mut().enumerate().skip(4 * quads) {
            // SAFETY: as above.
            *v = unsafe { core::ptr::read_volatile(p.add(i)) };
        }
    }

    /// Loads an `N`-word register set from `off` into `out`, as `put_block`
    /// stores one (a skipped fault leaves zeroes, not kernel values).
    #[inline(always)]
    pub fn get_block<const N: usize>(&self, off: u32, out: &mut [u32; N]) {
        let p = self.ptr_n::<u32>(off, N);
        if !(p as usize).is_multiple_of(4) {
            return self.get_slice(off, out);
        }
        // SAFETY: ptr_n checked [p, p + 4N) is in the open window; p is
        // word-aligned; a fault is an EFAULT (see `arch::copy_block`).
        unsafe { crate::arch::copy_block::<N>(out.as_mut_ptr(), p) };
    }

    /// Copies from `off` bytes into the window into `dst`.
    pub fn read_bytes(&self, off: u32, dst: &mut [u8]) {
        self.get_slice(off, dst);
    }
}

impl UserWindow<Request> {
    /// Opens [addr, addr + len) for reading, and promises a write window
    /// over the same range: the `Reply` that `finish_request` hands over.
    /// Request-and-answer ioctls (SYNC_PTR) read their inputs in one window
    /// and answer in a second over the same struct; both are counted here,
    /// in one update of each counter instead of two (6 instructions a
    /// SYNC_PTR), and `Reply::open` needs neither the range check nor the
    /// counting. A reply never opened (a fault in the read, a refused
    /// request) takes its count back when dropped, so the counters say what
    /// was opened, as before.
    #[inline(always)]
    pub fn open_with_reply(addr: u32, len: u32) -> Result<UserWindow<Request>, Efault> {
        let end = checked_end(addr, len)?;
        count(2, 2 * len);
        Ok(UserWindow::arm(addr, len, end))
    }

    /// Closes the reads: the `Reply` if every load worked. The fault
    /// handler's range (`OPEN_START`/`OPEN_END`) stays armed for the
    /// answer, which covers the same bytes, so the reply's open does not
    /// store it again nor the read's close clear it (5 instructions a
    /// SYNC_PTR). Until the reply opens, the caller only computes its
    /// answer: no other window, no sleep (a context switch would find the
    /// range armed: `assert_closed`).
    #[inline(always)]
    pub fn finish_request(self) -> Result<Reply, Efault> {
        if self.len > 0 {
            Arch::close_read();
        }
        let reply = Reply { start: self.start, len: self.len };
        core::mem::forget(self); // closed for reads; the reply disarms the range
        if FAULTED.load(Ordering::Relaxed) {
            FAULTED.store(false, Ordering::Relaxed);
            return Err(Efault); // the reply dropped: disarmed, uncounted
        }
        Ok(reply)
    }
}

/// The write window `UserWindow::open_with_reply` promised and counted,
/// its range still armed in the fault handler (`finish_request`).
#[must_use = "a reply dropped unopened takes its window back from the counters"]
pub struct Reply {
    start: u32,
    len: u32,
}

impl Reply {
    /// Opens the promised window for writing: checked, counted and armed
    /// already, so only the arch's unlock is left.
    #[inline(always)]
    pub fn open(self) -> UserWindow<Write> {
        let w = UserWindow { start: self.start, len: self.len, dir: PhantomData };
        if w.len > 0 {
            // No wrap-around: `open_with_reply` checked the range.
            Arch::open_write(w.start, w.start.wrapping_add(w.len));
        }
        core::mem::forget(self); // opened: counted rightly, no `drop`
        w
    }
}

/// A reply that will not be opened: its range is disarmed, and its window,
/// counted ahead, taken back.
impl Drop for Reply {
    fn drop(&mut self) {
        if self.len > 0 {
            OPEN_END.store(0, Ordering::Relaxed);
        }
        count(u32::MAX, self.len.wrapping_neg());
    }
}

/// The end of [addr, addr + len) if the range lies in user space (no
/// wrap-around, below TASK_SIZE).
#[inline(always)]
fn checked_end(addr: u32, len: u32) -> Result<u32, Efault> {
    // The start against the highest start a window of `len` may have:
    // for the usual constant length that is one constant and one compare
    // (the length's own test folds away), where the sum's wrap test and
    // bound were two compares (sigreturn's frame, placed at sp + gap).
    if len <= TASK_SIZE && addr <= TASK_SIZE - len {
        Ok(addr + len)
    } else {
        core::hint::cold_path();
        Err(Efault)
    }
}

/// Adds `windows` windows and `bytes` bytes to the counters (wrapping: a
/// `Reply` dropped unopened takes its own back with -1 and -len).
#[inline(always)]
fn count(windows: u32, bytes: u32) {
    WINDOWS.store(WINDOWS.load(Ordering::Relaxed).wrapping_add(windows), Ordering::Relaxed);
    BYTES.store(BYTES.load(Ordering::Relaxed).wrapping_add(bytes), Ordering::Relaxed);
}

/// A window dropped without `finish` (an early return): closes it (a
/// request's reply, which will not open now, taken back from the
/// counters), and forgets a recorded fault so that the next window's
/// `finish` cannot report it.
impl<D: Direction> Drop for UserWindow<D> {
    fn drop(&mut self) {
        self.close();
        FAULTED.store(false, Ordering::Relaxed);
    }
}

/// The invariant a context switch relies on (`arch::UserAccess`): no window
/// is open, so the next thread cannot run with another's user access
/// unlocked. Checked in every build: a load and a compare per switch.
/// (`open` does not check that no other window is open: that cost 35
/// instructions per raise() in `make bench`, and a nested window's close
/// would only lock too early, turning the outer window's accesses into
/// EFAULT, never opening user memory.)
pub fn assert_closed() {
    if OPEN_END.load(Ordering::Relaxed) != 0 {
        broken("a window open across a context switch");
    }
}

/// A broken window invariant is a kernel bug, never a user program's doing:
/// stop with the reason rather than run with user access in an unknown state.
#[cold]
#[inline(never)]
fn broken(what: &str) -> ! {
    panic!("uaccess: {}", what)
}

/// Called by the fault handler for a kernel access to user address `ea` that
/// cannot be satisfied: if it lies in the open window, record the fault and
/// return true (the handler then skips the instruction).
pub fn fixup(ea: u32) -> bool {
    let inside = ea >= OPEN_START.load(Ordering::Relaxed) && ea < OPEN_END.load(Ordering::Relaxed);
    if inside {
        FAULTED.store(true, Ordering::Relaxed);
    }
    inside
}

pub fn get_user<T: Pod>(addr: u32) -> Result<T, Efault> {
    let w = UserWindow::open(addr, core::mem::size_of::<T>() as u32, Read)?;
    let v = w.get(0);
    w.finish().map(|_| v)
}

pub fn put_user<T: Pod>(addr: u32, v: T) -> Result<(), Efault> {
    let mut w = UserWindow::open(addr, core::mem::size_of::<T>() as u32, Write)?;
    w.put(0, v);
    w.finish()
}

pub fn copy_to_user(addr: u32, src: &[u8]) -> Result<(), Efault> {
    let mut w = UserWindow::open(addr, src.len() as u32, Write)?;
    w.write_bytes(0, src);
    w.finish()
}

pub fn copy_from_user(dst: &mut [u8], addr: u32) -> Result<(), Efault> {
    let w = UserWindow::open(addr, dst.len() as u32, Read)?;
    w.read_bytes(0, dst);
    w.finish()
}

/// Why a user string could not be read.
#[derive(Debug, PartialEq)]
pub enum CstrError {
    /// An address in it is not readable user memory.
    Fault,
    /// No NUL within the limit.
    TooLong,
    /// The kernel heap had no room for it.
    NoMemory,
}

/// Reads a NUL-terminated string of at most `max` bytes (without the NUL).
pub fn read_cstr(addr: u32, max: u32) -> Result<alloc::vec::Vec<u8>, CstrError> {
    let mut out = alloc::vec::Vec::new();
    read_cstr_into(addr, max, &mut out).map(|_| out)
}

/// `read_cstr` appending to `out` (execve gathers every argument in one
/// buffer); the heap is asked for room fallibly, one page at a time.
pub fn read_cstr_into(addr: u32, max: u32, out: &mut alloc::vec::Vec<u8>) -> Result<(), CstrError> {
    let (mut a, mut len) = (addr, 0u32);
    loop {
        // One window per page: the string may end just before an unmapped page.
        // (`open` refuses a page at or past TASK_SIZE, so `w` covers all `n`.)
        let page_end = (a | 0xfff).checked_add(1).ok_or(CstrError::Fault)?;
        let n = page_end - a;
        out.try_reserve(n.min(max - len + 1) as usize).map_err(|_| CstrError::NoMemory)?;
        let w = UserWindow::open(a, n, Read).map_err(|_| CstrError::Fault)?;
        for i in 0..n {
            let b: u8 = w.get(i);
            if FAULTED.load(Ordering::Relaxed) {
                break;
            }
            if b == 0 {
                return w.finish().map_err(|_| CstrError::Fault);
            }
            if len >= max {
                drop(w);
                return Err(CstrError::TooLong);
            }
            out.push(b);
            len += 1;
        }
        w.finish().map_err(|_| CstrError::Fault)?;
        a = page_end;
    }
}
