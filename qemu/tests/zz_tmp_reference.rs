mod common;
#[test]
fn all_reference_runs_are_deterministic() {
    let progs = ["hello","fork_wait","pipes","mem","fork1000","badptr","sig_basic","sig_siginfo","sig_mask","sig_rt","sig_default","sig_kill_rules","sig_flags","sig_altstack","sig_fault","sig_suspend","sig_pingpong","sig_forged","sig_badstack"];
    for p in progs {
        let a = common::linux(p, &["x"][..if p=="hello" {1} else {0}], &[]);
        let b = common::linux(p, &["x"][..if p=="hello" {1} else {0}], &[]);
        assert_eq!(a.console, b.console, "{p}");
        assert_eq!(a.status, b.status, "{p}");
        assert!(!a.console.is_empty(), "{p}");
        eprintln!("{p}: status {:?}, {} lines", a.status, a.console.lines().count());
    }
    for (p, n) in [("sig_raise_bench","2000"),("sig_siginfo_bench","2000"),("sig_pingpong_bench","2000"),("getppid_bench","10000")] {
        let a = common::linux(p, &[n], &[]);
        assert_eq!((a.console.as_str(), a.status), ("", Some(0)), "{p}");
    }
    let h = common::linux("hello", &["a"], &[]);
    eprintln!("{}", h.console);
}
