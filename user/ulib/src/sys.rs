//! The system call instruction and the Linux ppc32 calling convention.
//!
//! The number goes in r0 and up to six arguments in r3-r8; `sc` enters the
//! kernel. On return r3 holds the result, and the summary-overflow bit of
//! CR0 says whether it is an error number instead (no negative returns as on
//! other architectures). The kernel may clobber r0, r4-r12, CTR, XER and CR0.

/// A Linux error number, as the kernel returned it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Errno(pub u32);

impl Errno {
    pub const EINTR: Errno = Errno(4);
    pub const EAGAIN: Errno = Errno(11);
    pub const EINVAL: Errno = Errno(22);
}

impl core::fmt::Display for Errno {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "errno {}", self.0)
    }
}

/// CR0[SO] in the 32-bit CR as `mfcr` reads it.
const CR0_SO: u32 = 0x1000_0000;

/// Linux ppc32 system call numbers used by ulib.
pub mod nr {
    pub const EXIT: u32 = 1;
    pub const FORK: u32 = 2;
    pub const WRITE: u32 = 4;
    pub const GETPID: u32 = 20;
    pub const KILL: u32 = 37;
    pub const GETPPID: u32 = 64;
    pub const WAIT4: u32 = 114;
    pub const NANOSLEEP: u32 = 162;
    pub const RT_SIGACTION: u32 = 173;
    pub const RT_SIGPROCMASK: u32 = 174;
    pub const RT_SIGPENDING: u32 = 175;
    pub const RT_SIGQUEUEINFO: u32 = 177;
    pub const GETTID: u32 = 207;
    pub const TGKILL: u32 = 250;
    pub const EXIT_GROUP: u32 = 234;
}

/// Makes system call `nr` with six arguments.
///
/// # Safety
/// The arguments must be valid for the call: pointers the kernel will write
/// through must point at memory the caller owns.
#[inline(always)]
pub unsafe fn syscall(nr: u32, a: [u32; 6]) -> Result<u32, Errno> {
    let r3: u32;
    let cr: u32;
    // SAFETY: the caller vouches for the arguments; the clobbers are the
    // registers the ppc32 syscall ABI lets the kernel change.
    unsafe {
        core::arch::asm!(
            "sc",
            "mfcr {cr}",
            cr = lateout(reg) cr,
            inlateout("r0") nr => _,
            inlateout("r3") a[0] => r3,
            inlateout("r4") a[1] => _,
            inlateout("r5") a[2] => _,
            inlateout("r6") a[3] => _,
            inlateout("r7") a[4] => _,
            inlateout("r8") a[5] => _,
            lateout("r9") _, lateout("r10") _, lateout("r11") _, lateout("r12") _,
            lateout("ctr") _, lateout("xer") _, lateout("cr0") _,
            options(nostack)
        );
    }
    if cr & CR0_SO != 0 { Err(Errno(r3)) } else { Ok(r3) }
}

/// `syscall` for calls that take no pointers, so cannot misuse memory.
pub fn syscall_plain(nr: u32, a: [u32; 6]) -> Result<u32, Errno> {
    // SAFETY: only for calls whose arguments are plain numbers.
    unsafe { syscall(nr, a) }
}
