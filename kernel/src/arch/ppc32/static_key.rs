//! A static key's branch site, the arch half of `crate::static_key`: one
//! `nop` in the code, made a `b` to the site's other way when its key is
//! enabled, as Linux's powerpc jump labels do (arch/powerpc/include/asm/
//! jump_label.h, arch/powerpc/kernel/jump_label.c).
//!
//! Each site also records itself in the `.static_keys` section (the linker
//! scripts bound it with `__static_keys_start`/`__static_keys_end`): three
//! words, the `nop`'s address, the address it branches to once enabled, and
//! its key's.

/// `true` where the site's key is enabled, `false` otherwise: for one `nop`
/// while the key is off. `$key` is the path of a `static`
/// `crate::static_key::StaticKey`. The block after the `asm!` (the `false`
/// way) is what the `nop` falls into; the label block is where the patched
/// `b` goes, so both ways are plain control flow to LLVM (`asm goto`).
macro_rules! static_branch {
    ($key:path) => {
        'site: {
            // SAFETY: a `nop`, and a table entry in a section of its own that
            // only `static_key::enable` reads, at boot.
            unsafe {
                core::arch::asm!(
                    "1: nop",
                    ".pushsection .static_keys, \"a\"",
                    ".balign 4",
                    ".long 1b, {on}, {key}",
                    ".popsection",
                    key = sym $key,
                    on = label { break 'site true },
                    options(nostack)
                );
            }
            false
        }
    };
}
pub(crate) use static_branch;

/// One `.static_keys` entry, as `static_branch!` writes it.
#[repr(C)]
pub struct Site {
    code: usize,
    target: usize,
    key: usize,
}

impl Site {
    /// The address of the key this site belongs to.
    pub fn key(&self) -> usize {
        self.key
    }

    /// Makes the site's `nop` a branch to its enabled way: `b target`
    /// (opcode 18, a 26-bit signed word offset, so within 32 MiB, which
    /// the whole kernel is), then the store made visible to instruction
    /// fetch. The kernel's text is writable through its BAT (book3s/32) or
    /// its 8 MiB data TLB entries (8xx).
    pub fn enable(&self) {
        let insn = 0x4800_0000 | (self.target.wrapping_sub(self.code) as u32 & 0x03ff_fffc);
        // SAFETY: `code` is a `nop` emitted by `static_branch!` in the
        // kernel's own text, which is mapped writable; one aligned word store
        // replaces it, and no other CPU runs it.
        unsafe { core::ptr::write_volatile(self.code as *mut u32, insn) };
        super::cpu::sync_icache_range(self.code, 4);
    }
}

/// Every site the kernel was built with.
pub fn sites() -> &'static [Site] {
    extern "C" {
        static __static_keys_start: Site;
        static __static_keys_end: Site;
    }
    // SAFETY: the linker scripts put the section's entries, and nothing
    // else, between the two symbols; they are never written.
    unsafe {
        let start = core::ptr::addr_of!(__static_keys_start);
        let end = core::ptr::addr_of!(__static_keys_end);
        core::slice::from_raw_parts(start, end.offset_from(start) as usize)
    }
}
