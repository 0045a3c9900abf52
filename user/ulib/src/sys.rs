//! The system call instruction and the Linux ppc32 calling convention.
//!
//! The number goes in r0 and up to six arguments in r3-r8; `sc` enters the
//! kernel. On return r3 holds the result, and the summary-overflow bit of
//! CR0 says whether it is an error number instead (no negative returns as on
//! other architectures). The kernel may clobber r0, r4-r12, CTR, XER and CR0.

pub use sigil_abi::Sysno;

/// A failed call: the error number the kernel returned in r3. Kept raw,
/// since a kernel may return numbers `sigil_abi::Errno` does not name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error(pub u32);

impl Error {
    /// The error as `sigil_abi::Errno`, if it is one Sigil knows.
    pub fn errno(self) -> Option<sigil_abi::Errno> {
        sigil_abi::Errno::from_raw(self.0 as i32)
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        match self.errno() {
            Some(e) => write!(f, "{}", e.name()),
            None => write!(f, "errno {}", self.0),
        }
    }
}

/// CR0[SO] in the 32-bit CR as `mfcr` reads it.
const CR0_SO: u32 = 0x1000_0000;

/// Makes system call `nr` with six arguments.
///
/// # Safety
/// The arguments must be valid for the call: pointers the kernel will write
/// through must point at memory the caller owns.
#[inline(always)]
pub unsafe fn syscall(nr: Sysno, a: [u32; 6]) -> Result<u32, Error> {
    let r3: u32;
    let cr: u32;
    // SAFETY: the caller vouches for the arguments; the clobbers are the
    // registers the ppc32 syscall ABI lets the kernel change.
    unsafe {
        core::arch::asm!(
            "sc",
            "mfcr {cr}",
            cr = lateout(reg) cr,
            inlateout("r0") nr.raw() => _,
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
    if cr & CR0_SO != 0 {
        Err(Error(r3))
    } else {
        Ok(r3)
    }
}

/// `syscall` for calls that take no pointers, so cannot misuse memory.
pub fn syscall_plain(nr: Sysno, a: [u32; 6]) -> Result<u32, Error> {
    // SAFETY: only for calls whose arguments are plain numbers.
    unsafe { syscall(nr, a) }
}
