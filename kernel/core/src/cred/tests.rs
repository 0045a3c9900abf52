//! Host tests of the credential rules, case by case against Linux's
//! `kernel/sys.c` and `check_kill_permission`.

use super::*;

fn ids(real: Id, effective: Id, saved: Id) -> Ids {
    Ids { real, effective, saved, fs: effective }
}

#[test]
fn setuid_root_sets_all_user_only_effective() {
    let mut root = Ids::all(0);
    assert_eq!(root.set_id(1000, true), Ok(()));
    assert_eq!(root, Ids::all(1000));
    // A user may switch its effective id between its real and saved ones.
    let mut u = ids(1000, 0, 0);
    assert_eq!(u.set_id(1000, false), Ok(()));
    assert_eq!(u, ids(1000, 1000, 0));
    assert_eq!(u.set_id(0, false), Ok(()));
    assert_eq!(u, ids(1000, 0, 0));
    let mut plain = Ids::all(1000);
    assert_eq!(plain.set_id(0, false), Err(Errno::EPERM));
    assert_eq!(plain.set_id(1001, false), Err(Errno::EPERM));
    assert_eq!(plain.set_id(KEEP, true), Err(Errno::EINVAL));
    assert_eq!(plain, Ids::all(1000));
}

#[test]
fn setreuid_rules() {
    // Root drops the effective id only: the saved id follows (e != real).
    let mut r = Ids::all(0);
    assert_eq!(r.set_re(KEEP, 1000, true), Ok(()));
    assert_eq!(r, ids(0, 1000, 1000));
    // Swapping real and effective, the classic BSD trick.
    let mut u = ids(1000, 0, 0);
    assert_eq!(u.set_re(0, 1000, true), Ok(()));
    assert_eq!(u, ids(0, 1000, 1000));
    // Unprivileged: real may become the effective id, effective any of three.
    let mut u = ids(1000, 1001, 1002);
    assert_eq!(u.set_re(1001, KEEP, false), Ok(()));
    assert_eq!(u, ids(1001, 1001, 1001));
    let mut u = ids(1000, 1001, 1002);
    assert_eq!(u.set_re(1002, KEEP, false), Err(Errno::EPERM));
    assert_eq!(u.set_re(KEEP, 1002, false), Ok(()));
    assert_eq!(u, ids(1000, 1002, 1002));
    // Effective back to the real id leaves the saved id alone.
    let mut u = ids(1000, 1001, 1002);
    assert_eq!(u.set_re(KEEP, 1000, false), Ok(()));
    assert_eq!(u, ids(1000, 1000, 1002));
    assert_eq!(u.set_re(KEEP, 7, false), Err(Errno::EPERM));
    assert_eq!(u.set_re(KEEP, KEEP, false), Ok(()));
}

#[test]
fn setresuid_rules() {
    let mut u = ids(1000, 1001, 1002);
    assert_eq!(u.set_res(1002, 1000, 1001, false), Ok(()));
    assert_eq!(u, ids(1002, 1000, 1001));
    assert_eq!(u.set_res(KEEP, 0, KEEP, false), Err(Errno::EPERM));
    assert_eq!(u, ids(1002, 1000, 1001));
    let mut r = Ids::all(0);
    assert_eq!(r.set_res(5, 6, 7, true), Ok(()));
    assert_eq!(r, ids(5, 6, 7));
    // Root can take privilege back while its saved id is 0.
    let mut r = ids(1000, 1000, 0);
    assert_eq!(r.set_res(KEEP, 0, KEEP, false), Ok(()));
    assert_eq!(r, ids(1000, 0, 0));
}

#[test]
fn setfsuid_returns_the_old_id() {
    let mut u = ids(1000, 1001, 1002);
    assert_eq!(u.set_fs(1002, false), 1001);
    assert_eq!(u.fs, 1002);
    assert_eq!(u.set_fs(0, false), 1002);
    assert_eq!(u.fs, 1002);
    assert_eq!(u.set_fs(KEEP, false), 1002);
    let mut r = Ids::all(0);
    assert_eq!(r.set_fs(55, true), 0);
    assert_eq!(r.fs, 55);
}

#[test]
fn groups_are_root_only_sorted_and_bounded() {
    let mut c = Cred::ROOT;
    assert_eq!(c.set_groups(&[30, 10, 20]), Ok(()));
    assert_eq!(c.groups(), &[10, 20, 30]);
    assert!(c.in_group(20) && c.in_group(0) && !c.in_group(25));
    assert_eq!(c.set_groups(&[0; NGROUPS + 1]), Err(Errno::EINVAL));
    let mut u = Cred::new(1000, 1000);
    assert_eq!(u.set_groups(&[]), Err(Errno::EPERM));
    assert_eq!(u.set_groups(&[0; NGROUPS + 1]), Err(Errno::EPERM));
    assert_eq!(getgroups_count(0, 3), Ok(3));
    assert_eq!(getgroups_count(2, 3), Err(Errno::EINVAL));
    assert_eq!(getgroups_count(8, 3), Ok(3));
    assert_eq!(getgroups_count(-1, 0), Err(Errno::EINVAL));
}

fn cred(uid: Ids) -> Cred {
    let mut c = Cred::ROOT;
    c.uid = uid;
    c
}

fn target(cred: &Cred, sid: u32) -> SignalTarget<'_> {
    SignalTarget { cred, sid, same_process: false }
}

#[test]
fn kill_permission() {
    use crate::abi::{SIGCONT, SIGTERM};
    let user = Cred::new(1000, 1000);
    let root = Cred::ROOT;
    let roots = target(&root, 1);
    let users = target(&user, 1);
    assert_eq!(may_signal(&user, 1, SIGTERM, &roots), Err(Errno::EPERM));
    assert_eq!(may_signal(&user, 1, 0, &roots), Err(Errno::EPERM));
    assert_eq!(may_signal(&user, 1, SIGTERM, &users), Ok(()));
    assert_eq!(may_signal(&root, 1, SIGTERM, &users), Ok(()));
    // SIGCONT within the session, whatever the ids; not across sessions.
    assert_eq!(may_signal(&user, 1, SIGCONT, &roots), Ok(()));
    assert_eq!(may_signal(&user, 2, SIGCONT, &roots), Err(Errno::EPERM));
    // Init's session (0, before any setsid) is a session like the others.
    assert_eq!(may_signal(&user, 0, SIGCONT, &target(&root, 0)), Ok(()));
    assert_eq!(may_signal(&user, 1, SIGCONT, &target(&root, 0)), Err(Errno::EPERM));
    // Only the target's real and saved ids count, never its effective one:
    // a daemon running with effective uid 1000 for root is root's.
    let daemon = cred(ids(0, 1000, 0));
    let daemon = target(&daemon, 3);
    assert_eq!(may_signal(&user, 1, SIGTERM, &daemon), Err(Errno::EPERM));
    let dropped = cred(ids(1000, 0, 0));
    let dropped = target(&dropped, 3);
    assert_eq!(may_signal(&user, 1, SIGTERM, &dropped), Ok(()));
    // A sender whose real id is the target's saved id.
    let s = cred(ids(42, 1000, 1000));
    let t = cred(ids(7, 7, 42));
    assert_eq!(may_signal(&s, 1, SIGTERM, &target(&t, 1)), Ok(()));
    // One's own process always.
    let me = SignalTarget { same_process: true, ..roots };
    assert_eq!(may_signal(&user, 9, SIGTERM, &me), Ok(()));
}

#[test]
fn exec_saves_the_effective_ids() {
    let mut c = Cred::new(1000, 100);
    c.uid = ids(1000, 0, 7);
    c.uid.fs = 9;
    let e = c.exec();
    assert_eq!(e.uid, Ids { real: 1000, effective: 0, saved: 0, fs: 0 });
    assert_eq!(e.gid, Ids::all(100));
    assert!(e.secure_exec() && !Cred::new(5, 5).exec().secure_exec());
}
