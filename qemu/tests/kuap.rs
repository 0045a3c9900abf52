//! KUAP is enforced by the MMU: the kernel's own self-tests, booted for real.
//!
//! `selftest=kuap-window`: a kernel write to a user page inside a UserWindow
//! works. `selftest=kuap-violation`: the same write outside a window must end
//! in a "KUAP violation" oops (exit 255). If the MMU did not enforce KUAP the
//! write would go through and the kernel would report that and exit 1.

mod common;

fn selftest(name: &str) -> sigil_qemu::RunResult {
    let mut cfg = common::config();
    cfg.boot_opts = vec![format!("selftest={name}")];
    let r = sigil_qemu::run(&cfg);
    assert!(!r.timed_out, "timeout\n{}", r.console);
    r
}

#[test]
fn write_inside_a_window_works() {
    let r = selftest("kuap-window");
    assert!(
        r.console.contains("selftest kuap-window: wrote and read back 0x5151"),
        "{}",
        r.console
    );
    assert_eq!(r.status, Some(0), "{}", r.console);
}

#[test]
fn write_outside_a_window_faults() {
    let r = selftest("kuap-violation");
    assert!(r.console.contains("SIGIL OOPS: KUAP violation"), "KUAP not enforced:\n{}", r.console);
    assert!(
        r.console.contains("dsisr 0x0a000000"),
        "not a protection fault on a store:\n{}",
        r.console
    );
    assert_eq!(r.status, Some(255), "{}", r.console);
}
