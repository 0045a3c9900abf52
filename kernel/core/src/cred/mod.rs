//! Credentials: who a process is, the rules for changing it, and who may
//! signal whom.
//!
//! Linux's model (`kernel/sys.c`, `kernel/groups.c`, `kernel/signal.c`):
//! a process has a real, an effective and a saved user id, a file-system
//! user id that follows the effective one, the same four for the group,
//! and a list of supplementary groups. The effective ids decide what the
//! process may do; the real id says who started it; the saved id lets a
//! program that dropped its privilege temporarily take it back.
//!
//! Sigil has no capabilities: "privileged" means euid 0 for the uid calls
//! and for signals, as on Linux with its default securebits and no file
//! capabilities (there `cap_emulate_setxuid` grants and drops the whole set
//! exactly when the effective uid becomes or stops being 0, so
//! CAP_SETUID, CAP_SETGID and CAP_KILL are held exactly when euid is 0).
//!
//! The kernel crate keeps one [`Cred`] per thread group (Linux keeps one
//! per thread, but glibc's setxid broadcast makes every thread agree);
//! fork copies it and exec keeps it (Sigil has no set-user-ID files).

use crate::abi::Errno;

/// A user or group id. `u32::MAX` ((uid_t)-1) is "no change" in the
/// set*id calls and never a valid id (Linux `uid_valid`).
pub type Id = u32;

/// The "leave unchanged" argument of setreuid, setresuid and friends.
pub const KEEP: Id = Id::MAX;

/// Supplementary groups a process may have. Linux allows NGROUPS_MAX
/// (65536); Sigil keeps the list inline, so the bound is small: setgroups
/// with more is EINVAL, as Linux's is beyond NGROUPS_MAX.
pub const NGROUPS: usize = 32;

/// One id family (user or group): real, effective, saved, file-system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Ids {
    pub real: Id,
    pub effective: Id,
    pub saved: Id,
    pub fs: Id,
}

impl Ids {
    /// All four set to `id`.
    pub const fn all(id: Id) -> Ids {
        Ids { real: id, effective: id, saved: id, fs: id }
    }

    /// Is `id` one of the real, effective or saved ids?
    fn holds(&self, id: Id) -> bool {
        id == self.real || id == self.effective || id == self.saved
    }

    /// setuid(id) / setgid(id): `privileged` sets all four; otherwise only
    /// the effective (and fs) id may become the real or saved one.
    pub fn set_id(&mut self, id: Id, privileged: bool) -> Result<(), Errno> {
        if id == KEEP {
            return Err(Errno::EINVAL);
        }
        if privileged {
            *self = Ids::all(id);
        } else if id == self.real || id == self.saved {
            self.effective = id;
            self.fs = id;
        } else {
            return Err(Errno::EPERM);
        }
        Ok(())
    }

    /// setreuid(r, e) / setregid(r, e), Linux's rules: an unprivileged real
    /// id may become the effective one (or stay); an effective id may become
    /// any of the three. The saved id follows the new effective id when the
    /// real id is set, or when the effective id moves away from the real one.
    pub fn set_re(&mut self, r: Id, e: Id, privileged: bool) -> Result<(), Errno> {
        let old = *self;
        let mut new = old;
        if r != KEEP {
            if !privileged && r != old.real && r != old.effective {
                return Err(Errno::EPERM);
            }
            new.real = r;
        }
        if e != KEEP {
            if !privileged && !old.holds(e) {
                return Err(Errno::EPERM);
            }
            new.effective = e;
        }
        if r != KEEP || (e != KEEP && e != old.real) {
            new.saved = new.effective;
        }
        new.fs = new.effective;
        *self = new;
        Ok(())
    }

    /// setresuid(r, e, s) / setresgid: each id given must be one of the
    /// current three unless privileged; the fs id follows the effective one.
    pub fn set_res(&mut self, r: Id, e: Id, s: Id, privileged: bool) -> Result<(), Errno> {
        let given = [r, e, s];
        if !privileged && given.iter().any(|&id| id != KEEP && !self.holds(id)) {
            return Err(Errno::EPERM);
        }
        for (slot, id) in
            [&mut self.real, &mut self.effective, &mut self.saved].into_iter().zip(given)
        {
            if id != KEEP {
                *slot = id;
            }
        }
        self.fs = self.effective;
        Ok(())
    }

    /// setfsuid(id) / setfsgid: always returns the old fs id; sets the new
    /// one if privileged or if it is one of the four current ids. An
    /// invalid id only asks (glibc's way to read the fs id).
    pub fn set_fs(&mut self, id: Id, privileged: bool) -> Id {
        let old = self.fs;
        if id != KEEP && (privileged || self.holds(id) || id == self.fs) {
            self.fs = id;
        }
        old
    }
}

/// A process's credentials (Linux `struct cred` without capabilities,
/// keys and namespaces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cred {
    pub uid: Ids,
    pub gid: Ids,
    groups: [Id; NGROUPS],
    ngroups: usize,
}

impl Cred {
    /// root: every id 0, no supplementary groups (PID 1 starts so).
    pub const ROOT: Cred = Cred::new(0, 0);

    /// A process running as `uid`:`gid` with no supplementary groups.
    pub const fn new(uid: Id, gid: Id) -> Cred {
        Cred { uid: Ids::all(uid), gid: Ids::all(gid), groups: [0; NGROUPS], ngroups: 0 }
    }

    /// Holds what Linux's CAP_SETUID, CAP_SETGID and CAP_KILL give: euid 0.
    pub const fn privileged(&self) -> bool {
        self.uid.effective == 0
    }

    /// The credentials after an execve of a file without set-user-ID bits
    /// (Sigil has none): the saved and fs ids become the effective ones
    /// (Linux `commit_creds` after `cap_bprm_creds_from_file`).
    pub const fn exec(mut self) -> Cred {
        self.uid.saved = self.uid.effective;
        self.uid.fs = self.uid.effective;
        self.gid.saved = self.gid.effective;
        self.gid.fs = self.gid.effective;
        self
    }

    /// AT_SECURE for an exec with these credentials: the effective ids are
    /// not the real ones (Linux's `secureexec` test), so glibc distrusts
    /// the environment.
    pub const fn secure_exec(&self) -> bool {
        self.uid.effective != self.uid.real || self.gid.effective != self.gid.real
    }

    /// The supplementary groups, sorted (Linux sorts them in setgroups, and
    /// getgroups returns them so).
    pub fn groups(&self) -> &[Id] {
        &self.groups[..self.ngroups]
    }

    /// setgroups(list): privileged only (EPERM, checked first as Linux
    /// does); more than NGROUPS is EINVAL.
    pub fn set_groups(&mut self, list: &[Id]) -> Result<(), Errno> {
        if !self.privileged() {
            return Err(Errno::EPERM);
        }
        if list.len() > NGROUPS {
            return Err(Errno::EINVAL);
        }
        self.groups[..list.len()].copy_from_slice(list);
        self.ngroups = list.len();
        self.groups[..list.len()].sort_unstable();
        Ok(())
    }

    /// Is `gid` the fs gid or a supplementary group (Linux `in_group_p`,
    /// what a file's group permission bits are checked against)?
    pub fn in_group(&self, gid: Id) -> bool {
        gid == self.gid.fs || self.groups().binary_search(&gid).is_ok()
    }
}

/// How many entries getgroups(size, list) writes, or its error: size 0
/// asks for the count; a negative size, or one too small, is EINVAL.
pub fn getgroups_count(size: i32, ngroups: usize) -> Result<usize, Errno> {
    match size {
        s if s < 0 => Err(Errno::EINVAL),
        0 => Ok(ngroups),
        s if (s as usize) < ngroups => Err(Errno::EINVAL),
        _ => Ok(ngroups),
    }
}

/// What the kill permission check needs to know about the target.
#[derive(Clone, Copy, Debug)]
pub struct SignalTarget<'a> {
    pub cred: &'a Cred,
    pub sid: u32,
    /// The target is the sender's own process (Linux `same_thread_group`).
    pub same_process: bool,
}

/// May a process with `sender`'s credentials in session `sender_sid` send
/// signal `sig` (0: the existence check) to `t`? Linux
/// `check_kill_permission` for a signal from user space: its own process
/// always; otherwise `kill_ok_by_cred` (the sender's real or effective uid
/// equals the target's real or saved uid, or the sender is privileged), and
/// SIGCONT within one session whatever the ids (so a shell can continue a
/// job that changed its uid). Else EPERM.
pub fn may_signal(sender: &Cred, sender_sid: u32, sig: u32, t: &SignalTarget) -> Result<(), Errno> {
    let (s, u) = (&sender.uid, &t.cred.uid);
    let by_cred = s.effective == u.saved
        || s.effective == u.real
        || s.real == u.saved
        || s.real == u.real
        || sender.privileged();
    // Session 0 is a real one here (init's, before any setsid), as Linux's
    // `!sid || sid == task_session(current)` lets it be.
    let same_session = sig == crate::abi::SIGCONT && t.sid == sender_sid;
    if t.same_process || by_cred || same_session {
        Ok(())
    } else {
        Err(Errno::EPERM)
    }
}

#[cfg(test)]
mod tests;
