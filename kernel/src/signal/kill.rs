//! kill()'s broadcast: one signal to every process a `KillTarget` selects
//! (a process, a process group, every process), each once, as a
//! process-directed signal. Which processes a target selects, and which
//! error a broadcast returns, are sigil-core's rules (`sigil_core::job::kill`);
//! the permission check is `cred::may_signal`. The terminal uses it for its
//! job-control signals (Ctrl-C, a hangup), exit for an orphaned group's
//! SIGHUP and SIGCONT (`exit::hangup_orphaned`).
//!
//! It is here, beside `send`, rather than with the process groups
//! (`proc::group`, which owns the ids it selects by), because choosing the
//! targets of a signal is generation: Linux's `kill_something_info` and
//! `kill_pgrp` are in kernel/signal.c too.

use alloc::vec::Vec;

use sigil_core::abi::Errno;
use sigil_core::job::kill::{KillTarget, Outcome};
use sigil_core::signal::SigInfo;

use crate::proc;

/// Sends `info` to every process `target` selects for a kill() from the
/// current process (Linux `kill_something_info` / `kill_pgrp`); `None` is
/// signal 0, the existence check. This is the API the terminal uses for
/// Ctrl-C: `send(KillTarget::Group(fg), Some(SigInfo::kernel(SIGINT)))`.
/// Each selected process gets the signal once, as a process-directed one
/// (its shared pending set; `signal::send` picks the thread that takes it).
/// A signal from user space (signal 0, or an si_code <= 0: Linux
/// `SI_FROMUSER`) passes the permission check for each process.
pub fn send(target: KillTarget, info: Option<SigInfo>) -> Result<(), Errno> {
    let caller = proc::try_current().map_or(0, |t| t.group().pid);
    let pids: Vec<u32> =
        proc::all().filter(|p| target.selects(&p.member(), caller)).map(|p| p.pid).collect();
    let mut outcome = Outcome::for_target(target);
    for pid in pids {
        outcome.add(send_one(pid, info));
    }
    outcome.result()
}

/// One send of a broadcast: the permission check, then the signal.
fn send_one(pid: u32, info: Option<SigInfo>) -> Result<(), Errno> {
    let g = proc::get(pid).ok_or(Errno::ESRCH)?;
    match info {
        Some(info) if info.code() > 0 => {}
        _ => crate::cred::may_signal(g, info.map_or(0, |i| i.signo()))?,
    }
    info.map_or(Ok(()), |info| super::send_to(g, info, false))
}
