//! Host tests of the job-control rules, case by case against Linux's code.

use alloc::vec;

use super::group::{check_setpgid, check_setsid, resolve_setpgid, Ids};
use super::kill::{kill_target, KillTarget, Outcome};
use super::orphan::{hangup_on_exit, orphaned_without};
use super::wait::{
    autoreap, wait4_options, waitid_options, ChildEvent, WaitFor, P_ALL, P_PGID, P_PID,
};
use super::Member;
use crate::abi::{self, wait_status, Errno};
use crate::signal::{SigAction, SigSet, Signal};

fn ids(pid: u32, ppid: u32, pgid: u32, sid: u32, execed: bool) -> Ids {
    Ids { pid, ppid, pgid, sid, execed }
}

fn m(pid: u32, ppid: u32, pgid: u32, sid: u32) -> Member {
    Member { pid, ppid, pgid, sid, stopped: false, zombie: false }
}

#[test]
fn setpgid_zeros_and_bad_arguments() {
    assert_eq!(resolve_setpgid(5, 0, 0), Ok((5, 5)));
    assert_eq!(resolve_setpgid(5, 7, 0), Ok((7, 7)));
    assert_eq!(resolve_setpgid(5, 0, 9), Ok((5, 9)));
    assert_eq!(resolve_setpgid(5, 0, -1), Err(Errno::EINVAL));
    // pgid 0 means the pid as given, so a negative pid makes it EINVAL;
    // with a valid pgid, a negative pid names no process.
    assert_eq!(resolve_setpgid(5, -3, 0), Err(Errno::EINVAL));
    assert_eq!(resolve_setpgid(5, -3, 4), Err(Errno::ESRCH));
    assert_eq!(resolve_setpgid(5, -3, -1), Err(Errno::EINVAL));
}

#[test]
fn setpgid_permissions() {
    let shell = ids(10, 1, 10, 10, false);
    let child = ids(11, 10, 10, 10, false);
    // A new group for the child, or the child into an existing group of the session.
    assert_eq!(check_setpgid(&shell, &child, 11, None), Ok(()));
    assert_eq!(check_setpgid(&shell, &child, 10, Some(10)), Ok(()));
    // A group that does not exist, or lives in another session.
    assert_eq!(check_setpgid(&shell, &child, 99, None), Err(Errno::EPERM));
    assert_eq!(check_setpgid(&shell, &child, 99, Some(3)), Err(Errno::EPERM));
    // After the child's execve: EACCES; a child in another session: EPERM.
    assert_eq!(check_setpgid(&shell, &ids(11, 10, 10, 10, true), 11, None), Err(Errno::EACCES));
    assert_eq!(check_setpgid(&shell, &ids(11, 10, 11, 11, false), 11, Some(11)), Err(Errno::EPERM));
    // Neither the caller nor its child (a grandchild, the parent): ESRCH.
    assert_eq!(check_setpgid(&child, &shell, 10, Some(10)), Err(Errno::ESRCH));
    assert_eq!(check_setpgid(&shell, &ids(12, 11, 10, 10, false), 12, None), Err(Errno::ESRCH));
    // A session leader cannot move, not even into its own group.
    assert_eq!(check_setpgid(&shell, &shell, 10, Some(10)), Err(Errno::EPERM));
    // The caller itself, after its own exec: allowed (EACCES is for children).
    let me = ids(11, 10, 10, 10, true);
    assert_eq!(check_setpgid(&me, &me, 11, None), Ok(()));
}

#[test]
fn setsid_needs_no_group_of_ones_own() {
    assert_eq!(check_setsid(false), Ok(()));
    assert_eq!(check_setsid(true), Err(Errno::EPERM));
}

#[test]
fn kill_targets() {
    assert_eq!(kill_target(42, 7), Ok(KillTarget::Pid(42)));
    assert_eq!(kill_target(0, 7), Ok(KillTarget::Group(7)));
    assert_eq!(kill_target(-1, 7), Ok(KillTarget::Everyone));
    assert_eq!(kill_target(-9, 7), Ok(KillTarget::Group(9)));
    assert_eq!(kill_target(-0x3fff_ffff, 7), Ok(KillTarget::Group(0x3fff_ffff)));
    assert_eq!(kill_target(i32::MIN, 7), Err(Errno::ESRCH));
    assert_eq!(kill_target(i32::MIN + 1, 7), Ok(KillTarget::Group(i32::MAX as u32)));
}

#[test]
fn kill_selection() {
    let init = m(1, 0, 1, 1);
    let me = m(5, 1, 5, 1);
    let other = m(6, 5, 5, 1);
    let stranger = m(7, 1, 7, 1);
    let all = KillTarget::Everyone;
    assert!(!all.selects(&init, 5) && !all.selects(&me, 5));
    assert!(all.selects(&other, 5) && all.selects(&stranger, 5));
    let group = KillTarget::Group(5);
    assert!(group.selects(&me, 5) && group.selects(&other, 5) && !group.selects(&stranger, 5));
    assert!(KillTarget::Pid(7).selects(&stranger, 5) && !KillTarget::Pid(7).selects(&other, 5));
}

#[test]
fn kill_outcome() {
    assert_eq!(Outcome::default().result(), Err(Errno::ESRCH));
    let mut o = Outcome::default();
    o.add(Err(Errno::EAGAIN));
    assert_eq!(o.result(), Err(Errno::EAGAIN));
    o.add(Ok(()));
    o.add(Err(Errno::EPERM));
    assert_eq!(o.result(), Ok(()));
    let mut pg = Outcome::for_target(KillTarget::Group(4));
    pg.add(Err(Errno::EPERM));
    assert_eq!(pg.result(), Err(Errno::EPERM));
    // kill(-1): EPERM is skipped, the last other result wins.
    let mut all = Outcome::for_target(KillTarget::Everyone);
    all.add(Err(Errno::EPERM));
    assert_eq!(all.result(), Ok(()));
    all.add(Err(Errno::EAGAIN));
    all.add(Err(Errno::EPERM));
    assert_eq!(all.result(), Err(Errno::EAGAIN));
    all.add(Ok(()));
    assert_eq!(all.result(), Ok(()));
}

/// A shell (10, session 10) whose parent is init, with a stopped job (20,
/// 21) in group 20 and a running job 30 in group 30.
fn session() -> vec::Vec<Member> {
    vec![
        m(1, 0, 1, 1),
        m(10, 1, 10, 10),
        Member { stopped: true, ..m(20, 10, 20, 10) },
        m(21, 10, 20, 10),
        m(30, 10, 30, 10),
    ]
}

#[test]
fn shell_exit_orphans_its_stopped_job_only() {
    let procs = session();
    assert!(!orphaned_without(&procs, 20, 0));
    assert!(orphaned_without(&procs, 20, 10));
    // Group 30 is orphaned too, but has nothing stopped: no hangup.
    assert!(orphaned_without(&procs, 30, 10));
    assert_eq!(hangup_on_exit(&procs, 10, 1), vec![20]);
    // A member exiting does not orphan its group while the shell lives.
    assert_eq!(hangup_on_exit(&procs, 21, 1), vec![]);
}

#[test]
fn a_groups_last_link_exiting_orphans_it() {
    // 20 and 21 in group 20 under the shell 10; 22 (group 20) is 21's child.
    // Once 20 is gone, 21 still links group 20 to the shell: no orphan.
    let mut procs = session();
    procs.push(Member { stopped: true, ..m(22, 21, 20, 10) });
    assert_eq!(hangup_on_exit(&procs, 20, 1), vec![]);
    // A job leader whose parent is outside the group: its exit orphans its
    // own group only if it was the last link.
    let procs = vec![
        m(1, 0, 1, 1),
        m(10, 1, 10, 10),
        m(20, 10, 20, 10),
        Member { stopped: true, ..m(23, 20, 20, 10) },
    ];
    assert_eq!(hangup_on_exit(&procs, 20, 1), vec![20]);
}

#[test]
fn zombies_and_init_children_link_nothing() {
    let procs = vec![
        m(1, 0, 1, 1),
        Member { zombie: true, ..m(10, 1, 10, 10) },
        Member { stopped: true, ..m(20, 10, 20, 10) },
    ];
    assert!(orphaned_without(&procs, 20, 0));
    // Another session's parent does not link the group either.
    let procs =
        vec![m(1, 0, 1, 1), m(10, 1, 10, 10), Member { stopped: true, ..m(20, 10, 20, 20) }];
    assert!(orphaned_without(&procs, 20, 0));
    assert_eq!(hangup_on_exit(&procs, 10, 1), vec![]);
}

#[test]
fn a_subreaper_links_the_groups_it_adopts_only_in_its_session() {
    // The shell 10 runs under a subreaper 5. Another session's subreaper
    // (a session runner) links nothing: the stopped job is hung up.
    let mut procs = session();
    procs[1].ppid = 5;
    procs.push(m(5, 1, 5, 5));
    assert_eq!(hangup_on_exit(&procs, 10, 5), vec![20]);
    // One in the shell's own session, in another group, still links it.
    procs.last_mut().unwrap().sid = 10;
    assert_eq!(hangup_on_exit(&procs, 10, 5), vec![]);
}

#[test]
fn wait_selection() {
    assert_eq!(WaitFor::from_wait4(-1, 4), WaitFor::Any);
    assert_eq!(WaitFor::from_wait4(0, 4), WaitFor::Group(4));
    assert_eq!(WaitFor::from_wait4(-8, 4), WaitFor::Group(8));
    assert_eq!(WaitFor::from_wait4(8, 4), WaitFor::Pid(8));
    assert_eq!(WaitFor::from_waitid(P_ALL, 99, 4), Ok(WaitFor::Any));
    assert_eq!(WaitFor::from_waitid(P_PID, 8, 4), Ok(WaitFor::Pid(8)));
    assert_eq!(WaitFor::from_waitid(P_PGID, 0, 4), Ok(WaitFor::Group(4)));
    assert_eq!(WaitFor::from_waitid(P_PGID, 8, 4), Ok(WaitFor::Group(8)));
    assert_eq!(WaitFor::from_waitid(P_PID, -1, 4), Err(Errno::EINVAL));
    assert_eq!(WaitFor::from_waitid(3, 1, 4), Err(Errno::EINVAL));
    let c = m(8, 4, 9, 1);
    assert!(
        WaitFor::Pid(8).selects(&c) && WaitFor::Group(9).selects(&c) && WaitFor::Any.selects(&c)
    );
    assert!(!WaitFor::Group(4).selects(&c));
}

#[test]
fn wait_options() {
    assert_eq!(wait4_options(0), Ok(abi::WEXITED));
    assert_eq!(
        wait4_options(abi::WNOHANG | abi::WUNTRACED),
        Ok(abi::WEXITED | abi::WNOHANG | abi::WUNTRACED)
    );
    assert_eq!(wait4_options(abi::WNOWAIT), Err(Errno::EINVAL));
    assert_eq!(waitid_options(0), Err(Errno::EINVAL));
    assert_eq!(waitid_options(abi::WNOHANG), Err(Errno::EINVAL));
    assert_eq!(waitid_options(abi::WEXITED | abi::WNOWAIT), Ok(abi::WEXITED | abi::WNOWAIT));
    assert_eq!(waitid_options(0x10), Err(Errno::EINVAL));
}

#[test]
fn events_status_and_siginfo() {
    let exited = ChildEvent::Exited(wait_status::exited(3));
    assert!(exited.wanted(abi::WEXITED) && !exited.wanted(abi::WUNTRACED));
    assert!(
        ChildEvent::Stopped(abi::SIGSTOP).wanted(abi::WUNTRACED)
            && ChildEvent::Continued.wanted(abi::WCONTINUED)
    );
    assert!(!ChildEvent::Continued.wanted(abi::WEXITED | abi::WUNTRACED));
    assert_eq!(exited.status(), 0x300);
    assert_eq!(ChildEvent::Stopped(abi::SIGTSTP).status(), 0x147f);
    assert_eq!(ChildEvent::Continued.status(), 0xffff);
    let w = |e: ChildEvent| e.siginfo(8, 0).words()[..6].to_vec();
    let chld = abi::SIGCHLD;
    assert_eq!(w(exited), [chld, 0, abi::CLD_EXITED as u32, 8, 0, 3]);
    assert_eq!(
        w(ChildEvent::Exited(wait_status::signaled(9, false))),
        [chld, 0, abi::CLD_KILLED as u32, 8, 0, 9]
    );
    assert_eq!(
        w(ChildEvent::Exited(wait_status::signaled(11, true))),
        [chld, 0, abi::CLD_DUMPED as u32, 8, 0, 11]
    );
    assert_eq!(w(ChildEvent::Stopped(19)), [chld, 0, abi::CLD_STOPPED as u32, 8, 0, 19]);
    assert_eq!(w(ChildEvent::Continued), [chld, 0, abi::CLD_CONTINUED as u32, 8, 0, abi::SIGCONT]);
}

#[test]
fn autoreap_by_sigchld_action() {
    let dfl = SigAction::default();
    assert_eq!(autoreap(&dfl), (false, true));
    let chld = |handler, flags| SigAction::new(Signal::SIGCHLD, handler, flags, 0, SigSet::EMPTY);
    let ign = chld(abi::SIG_IGN, 0);
    assert_eq!(autoreap(&ign), (true, false));
    let nocldwait = chld(0x1000, abi::SA_NOCLDWAIT);
    assert_eq!(autoreap(&nocldwait), (true, true));
    let dfl_nocldwait = chld(abi::SIG_DFL, abi::SA_NOCLDWAIT);
    assert_eq!(autoreap(&dfl_nocldwait), (true, true));
}
