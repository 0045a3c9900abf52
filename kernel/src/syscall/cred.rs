//! User and group ids: the get*id/set*id family, setfs*id, getgroups and
//! setgroups.
//!
//! ppc32 has only the 32-bit forms (no separate `setuid32` numbers: uid_t
//! was 32 bits from the start). The rules are sigil-core's
//! (`sigil_core::cred`); each call reads the process's credentials, applies
//! the rule to a copy and stores it back only if the rule allowed it, as
//! Linux's prepare_creds/commit_creds do. The privilege test is made on the
//! credentials before the change.

use alloc::vec::Vec;

use sigil_core::abi::Errno;
use sigil_core::cred::{getgroups_count, Cred, Ids, NGROUPS};

use super::SysResult;
use crate::uaccess::{copy_from_user, copy_to_user, put_user};

/// Which id family a call changes.
#[derive(Clone, Copy)]
pub enum Family {
    User,
    Group,
}

/// Applies `change` to a copy of the caller's `family` ids; stores the
/// result only if it succeeded.
fn change(family: Family, change: impl FnOnce(&mut Ids, bool) -> Result<(), Errno>) -> SysResult {
    let cred = &mut crate::proc::group().cred;
    let privileged = cred.privileged();
    let ids = match family {
        Family::User => &mut cred.uid,
        Family::Group => &mut cred.gid,
    };
    let mut new = *ids;
    change(&mut new, privileged)?;
    let moved = matches!(family, Family::User) && new.real != ids.real;
    *ids = new;
    if moved {
        // A new real uid: its processes' counts from now on (what is already
        // charged stays with the old user, as in Linux).
        let g = crate::proc::group();
        g.user = crate::cred::UserCounts::of(new.real, g.pid);
    }
    Ok(0)
}

fn ids(family: Family) -> Ids {
    let cred = crate::cred::current();
    match family {
        Family::User => cred.uid,
        Family::Group => cred.gid,
    }
}

/// getuid/getgid: the real id.
pub fn get_real(family: Family) -> SysResult {
    Ok(ids(family).real)
}

/// geteuid/getegid: the effective id.
pub fn get_effective(family: Family) -> SysResult {
    Ok(ids(family).effective)
}

/// setuid(id) / setgid(id).
pub fn set_id(family: Family, id: u32) -> SysResult {
    change(family, |ids, p| ids.set_id(id, p))
}

/// setreuid(r, e) / setregid(r, e).
pub fn set_re(family: Family, r: u32, e: u32) -> SysResult {
    change(family, |ids, p| ids.set_re(r, e, p))
}

/// setresuid(r, e, s) / setresgid(r, e, s).
pub fn set_res(family: Family, r: u32, e: u32, s: u32) -> SysResult {
    change(family, |ids, p| ids.set_res(r, e, s, p))
}

/// getresuid(r, e, s) / getresgid: three pointers, each written.
pub fn get_res(family: Family, r: u32, e: u32, s: u32) -> SysResult {
    let ids = ids(family);
    for (addr, v) in [(r, ids.real), (e, ids.effective), (s, ids.saved)] {
        put_user(addr, v)?;
    }
    Ok(0)
}

/// setfsuid(id) / setfsgid(id): returns the old fs id, never an error.
pub fn set_fs(family: Family, id: u32) -> SysResult {
    let cred = &mut crate::proc::group().cred;
    let privileged = cred.privileged();
    Ok(match family {
        Family::User => cred.uid.set_fs(id, privileged),
        Family::Group => cred.gid.set_fs(id, privileged),
    })
}

/// getgroups(size, list): the supplementary groups, or their count for
/// size 0.
pub fn getgroups(size: u32, list: u32) -> SysResult {
    let cred = crate::cred::current();
    let groups = cred.groups();
    let n = getgroups_count(size as i32, groups.len())?;
    if size != 0 && n > 0 {
        let bytes: Vec<u8> = groups.iter().flat_map(|g| g.to_be_bytes()).collect();
        copy_to_user(list, &bytes)?;
    }
    Ok(n as u32)
}

/// setgroups(size, list): root only (EPERM first), at most NGROUPS.
pub fn setgroups(size: u32, list: u32) -> SysResult {
    let mut cred: Cred = crate::cred::current();
    if !cred.privileged() {
        return Err(Errno::EPERM);
    }
    if size as usize > NGROUPS {
        return Err(Errno::EINVAL);
    }
    let mut bytes = [0u8; 4 * NGROUPS];
    let bytes = &mut bytes[..4 * size as usize];
    copy_from_user(bytes, list)?;
    let gids: Vec<u32> =
        bytes.chunks_exact(4).map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]])).collect();
    cred.set_groups(&gids)?;
    crate::proc::group().cred = cred;
    Ok(0)
}
