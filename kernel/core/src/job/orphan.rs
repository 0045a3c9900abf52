//! Orphaned process groups: the job-control rule that keeps a stopped job
//! from waiting forever for a shell that is gone.
//!
//! POSIX: a group is *orphaned* when no member has a parent in a different
//! group of the same session - nobody outside the group who could continue
//! it by job control is left. When an exit makes a group orphaned and the
//! group has a stopped member, every member gets SIGHUP and then SIGCONT
//! (Linux `kill_orphaned_pgrp`). Two groups can be orphaned by one exit:
//! - the exiting process's own group, if its parent was in another group of
//!   the same session (it was the group's link to its session);
//! - each child's group, if it differs from the exiting one's and is in the
//!   same session (the exiting process linked it; its children go to the
//!   new parent: init, or the nearest child subreaper).
//!
//! As in Linux (`will_become_orphaned_pgrp`), zombies and members whose
//! parent is PID 1 link nothing: init does no job control. A subreaper
//! does link a group, like any parent (Linux checks after re-parenting).

use alloc::vec::Vec;

use super::Member;

/// Is group `pgid` orphaned once `gone` has exited (its children re-parented
/// to PID 1)? `procs` is the table before the exit.
pub fn orphaned_without(procs: &[Member], pgid: u32, gone: u32) -> bool {
    orphaned_after(procs, pgid, gone, 1)
}

/// `orphaned_without`, with the children of `gone` re-parented to `reaper`.
fn orphaned_after(procs: &[Member], pgid: u32, gone: u32, reaper: u32) -> bool {
    let ppid = |m: &Member| if m.ppid == gone { reaper } else { m.ppid };
    let parent = |m: &Member| procs.iter().find(|p| p.pid == ppid(m) && p.pid != gone && !p.zombie);
    !procs
        .iter()
        .filter(|m| m.pgid == pgid && m.pid != gone && !m.zombie && ppid(m) != 1)
        .any(|m| parent(m).is_some_and(|p| p.pgid != pgid && p.sid == m.sid))
}

fn has_stopped(procs: &[Member], pgid: u32, gone: u32) -> bool {
    procs.iter().any(|m| m.pgid == pgid && m.pid != gone && m.stopped)
}

/// The groups to send SIGHUP and SIGCONT to when process `gone` exits and
/// its children go to `reaper` (`procs`: the table before the exit, `gone`
/// included).
pub fn hangup_on_exit(procs: &[Member], gone: u32, reaper: u32) -> Vec<u32> {
    let Some(me) = procs.iter().find(|m| m.pid == gone) else { return Vec::new() };
    let mut candidates = Vec::new();
    if let Some(parent) = procs.iter().find(|p| p.pid == me.ppid) {
        if parent.pgid != me.pgid && parent.sid == me.sid {
            candidates.push(me.pgid);
        }
    }
    for c in procs.iter().filter(|c| c.ppid == gone && !c.zombie) {
        if c.pgid != me.pgid && c.sid == me.sid && !candidates.contains(&c.pgid) {
            candidates.push(c.pgid);
        }
    }
    candidates.retain(|&g| orphaned_after(procs, g, gone, reaper) && has_stopped(procs, g, gone));
    candidates
}
