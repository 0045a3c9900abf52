//! The alternate signal stack (sigaltstack): the per-process state, the
//! syscall's rules, and the helpers frame placement and sigreturn use.
//!
//! User layout of `stack_t` (12 bytes, also `uc_stack` inside the ucontext):
//! ```text
//!  0 ss_sp     lowest address of the stack area
//!  4 ss_flags  SS_ONSTACK 1, SS_DISABLE 2, SS_AUTODISARM 1<<31
//!  8 ss_size   bytes
//! ```
//! Who calls it: the sigaltstack syscall (`query`, then `set`), frame placement
//! (`signal_sp`), the RT frame builder (`saved`, then `disarm_if_autodisarm`)
//! and rt_sigreturn (`set` with the frame's `uc_stack`, result ignored, as
//! Linux `restore_altstack`).

use core::mem::{offset_of, size_of};

use crate::abi::{self, Errno};

/// The user `stack_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StackT {
    pub ss_sp: u32,
    pub ss_flags: u32,
    pub ss_size: u32,
}

const _: () = assert!(size_of::<StackT>() == 12);
const _: () = assert!(offset_of!(StackT, ss_sp) == 0);
const _: () = assert!(offset_of!(StackT, ss_flags) == 4);
const _: () = assert!(offset_of!(StackT, ss_size) == 8);

impl StackT {
    /// Decodes the three user words (sp, flags, size).
    pub const fn from_words(w: [u32; 3]) -> StackT {
        StackT { ss_sp: w[0], ss_flags: w[1], ss_size: w[2] }
    }

    /// Encodes as the three user words.
    pub const fn to_words(self) -> [u32; 3] {
        [self.ss_sp, self.ss_flags, self.ss_size]
    }
}

/// A process's alternate stack, as Linux keeps it (`sas_ss_sp`, `sas_ss_size`,
/// `sas_ss_flags`). Disabled = size 0. The flags word stores what the user
/// last passed (SS_DISABLE initially), because rt frames save it verbatim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AltStack {
    sp: u32,
    size: u32,
    flags: u32,
}

impl Default for AltStack {
    fn default() -> AltStack {
        AltStack::DISABLED
    }
}

impl AltStack {
    /// The state of a new process (fork copies the parent's; exec resets).
    pub const DISABLED: AltStack = AltStack { sp: 0, size: 0, flags: abi::SS_DISABLE };

    /// True if `sp` lies on the alternate stack (Linux `on_sig_stack`: the
    /// stack grows down, so its top counts, its base does not). With
    /// SS_AUTODISARM the answer is always "no": the stack was disarmed while a
    /// handler uses it, so a nested signal may reuse it from the top.
    pub const fn on_alt_stack(&self, sp: u32) -> bool {
        if self.flags & abi::SS_AUTODISARM != 0 {
            return false;
        }
        sp > self.sp && sp.wrapping_sub(self.sp) <= self.size
    }

    /// Linux `sas_ss_flags`: SS_DISABLE, SS_ONSTACK (running on it) or 0.
    pub const fn ss_flags(&self, sp: u32) -> u32 {
        if self.size == 0 {
            abi::SS_DISABLE
        } else if self.on_alt_stack(sp) {
            abi::SS_ONSTACK
        } else {
            0
        }
    }

    /// The old state sigaltstack reports (`oss`), for a caller running at `sp`.
    /// Compute it before `set`; write it to user memory only if `set` succeeds.
    pub const fn query(&self, sp: u32) -> StackT {
        StackT {
            ss_sp: self.sp,
            ss_flags: self.ss_flags(sp) | (self.flags & abi::SS_AUTODISARM),
            ss_size: self.size,
        }
    }

    /// Installs a new alternate stack (Linux `do_sigaltstack`), for a caller
    /// running at `sp`:
    /// - EPERM while running on the current alternate stack;
    /// - EINVAL unless the mode (flags without SS_AUTODISARM) is 0, SS_ONSTACK
    ///   or SS_DISABLE;
    /// - SS_DISABLE clears the area; otherwise ss_size < MINSIGSTKSZ is ENOMEM.
    pub fn set(&mut self, new: StackT, sp: u32) -> Result<(), Errno> {
        if self.on_alt_stack(sp) {
            return Err(Errno::EPERM);
        }
        let mode = new.ss_flags & !abi::SS_AUTODISARM;
        if mode != 0 && mode != abi::SS_ONSTACK && mode != abi::SS_DISABLE {
            return Err(Errno::EINVAL);
        }
        if mode == abi::SS_DISABLE {
            *self = AltStack { sp: 0, size: 0, flags: new.ss_flags };
            return Ok(());
        }
        if new.ss_size < abi::MINSIGSTKSZ {
            return Err(Errno::ENOMEM);
        }
        *self = AltStack { sp: new.ss_sp, size: new.ss_size, flags: new.ss_flags };
        Ok(())
    }

    /// Where a signal frame goes below (Linux `sigsp`): the top of the
    /// alternate stack if the action has SA_ONSTACK and the stack is enabled
    /// and not already in use; otherwise the interrupted `sp`.
    pub const fn signal_sp(&self, sp: u32, sa_flags: u32) -> u32 {
        if sa_flags & abi::SA_ONSTACK != 0 && self.ss_flags(sp) == 0 {
            self.sp.wrapping_add(self.size)
        } else {
            sp
        }
    }

    /// What an RT frame saves in `uc_stack` (Linux `__save_altstack`: the
    /// stored values verbatim); rt_sigreturn gives it back to `set`.
    pub const fn saved(&self) -> StackT {
        StackT { ss_sp: self.sp, ss_flags: self.flags, ss_size: self.size }
    }

    /// Called once a handler has been set up (Linux `signal_delivered`): an
    /// SS_AUTODISARM stack is disabled until rt_sigreturn restores it.
    pub fn disarm_if_autodisarm(&mut self) {
        if self.flags & abi::SS_AUTODISARM != 0 {
            *self = AltStack::DISABLED;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: u32 = 0x2000_0000;
    const SIZE: u32 = 0x4000;

    fn enabled() -> AltStack {
        let mut a = AltStack::DISABLED;
        a.set(StackT { ss_sp: BASE, ss_flags: 0, ss_size: SIZE }, 0x7fff_0000).unwrap();
        a
    }

    #[test]
    fn stack_t_words() {
        let s = StackT::from_words([1, 2, 3]);
        assert_eq!(s, StackT { ss_sp: 1, ss_flags: 2, ss_size: 3 });
        assert_eq!(s.to_words(), [1, 2, 3]);
    }

    #[test]
    fn disabled_by_default() {
        let a = AltStack::default();
        assert_eq!(
            a.query(0x7fff_0000),
            StackT { ss_sp: 0, ss_flags: abi::SS_DISABLE, ss_size: 0 }
        );
        assert!(!a.on_alt_stack(0x10));
        assert_eq!(a.signal_sp(0x7fff_0000, abi::SA_ONSTACK), 0x7fff_0000);
        assert_eq!(a.saved().ss_flags, abi::SS_DISABLE);
    }

    #[test]
    fn on_stack_bounds() {
        let a = enabled();
        assert!(!a.on_alt_stack(BASE));
        assert!(a.on_alt_stack(BASE + 1));
        assert!(a.on_alt_stack(BASE + SIZE)); // the top is "on" (stack grows down)
        assert!(!a.on_alt_stack(BASE + SIZE + 1));
        assert_eq!(a.ss_flags(BASE + 16), abi::SS_ONSTACK);
        assert_eq!(a.ss_flags(0x7fff_0000), 0);
    }

    #[test]
    fn set_rules() {
        let mut a = enabled();
        let elsewhere = 0x7fff_0000;
        // Changing while on it: EPERM, even to disable.
        let dis = StackT { ss_sp: 0, ss_flags: abi::SS_DISABLE, ss_size: 0 };
        assert_eq!(a.set(dis, BASE + 100), Err(Errno::EPERM));
        assert_eq!(a.set(StackT { ss_flags: 4, ..a.saved() }, elsewhere), Err(Errno::EINVAL));
        let small = StackT { ss_sp: BASE, ss_flags: 0, ss_size: abi::MINSIGSTKSZ - 1 };
        assert_eq!(a.set(small, elsewhere), Err(Errno::ENOMEM));
        assert_eq!(a, enabled()); // failures change nothing
                                  // SS_ONSTACK as input means "enable".
        let ok = StackT { ss_sp: BASE, ss_flags: abi::SS_ONSTACK, ss_size: abi::MINSIGSTKSZ };
        assert_eq!(a.set(ok, elsewhere), Ok(()));
        assert_eq!(a.query(elsewhere).ss_flags, 0);
        // SS_DISABLE ignores sp and size.
        assert_eq!(
            a.set(StackT { ss_sp: 5, ss_flags: abi::SS_DISABLE, ss_size: 1 }, elsewhere),
            Ok(())
        );
        assert_eq!(a.query(elsewhere), StackT { ss_sp: 0, ss_flags: abi::SS_DISABLE, ss_size: 0 });
    }

    #[test]
    fn frame_stack_choice() {
        let a = enabled();
        assert_eq!(a.signal_sp(0x7fff_0000, abi::SA_ONSTACK), BASE + SIZE);
        assert_eq!(a.signal_sp(0x7fff_0000, 0), 0x7fff_0000);
        // Already on it (nested signal): continue below the current sp.
        assert_eq!(a.signal_sp(BASE + 0x1000, abi::SA_ONSTACK), BASE + 0x1000);
    }

    #[test]
    fn autodisarm() {
        let mut a = AltStack::DISABLED;
        let s = StackT { ss_sp: BASE, ss_flags: abi::SS_AUTODISARM, ss_size: SIZE };
        a.set(s, 0x7fff_0000).unwrap();
        assert_eq!(a.query(0x7fff_0000).ss_flags, abi::SS_AUTODISARM);
        assert!(!a.on_alt_stack(BASE + 100)); // never "on" while autodisarm
        assert_eq!(a.signal_sp(BASE + 100, abi::SA_ONSTACK), BASE + SIZE);
        let saved = a.saved();
        a.disarm_if_autodisarm();
        assert_eq!(a, AltStack::DISABLED);
        // rt_sigreturn restores it from uc_stack.
        a.set(saved, BASE + 100).unwrap();
        assert_eq!(a.saved(), s);
    }
}
