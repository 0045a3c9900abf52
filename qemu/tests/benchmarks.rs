//! The benchmark programs, run with small counts: they must finish, print
//! nothing and exit 0 on Sigil, as they do under qemu-ppc. (Measuring them is
//! the job of `make bench`; the last test checks its tool on a short run.)

mod common;

use common::compare;

fn quiet_success(name: &str, count: &str) {
    let out = compare(name, &[count]);
    assert_eq!(out, "", "{name} printed something");
}

#[test]
fn sig_raise_bench() {
    quiet_success("sig_raise_bench", "2000");
}

#[test]
fn sig_siginfo_bench() {
    quiet_success("sig_siginfo_bench", "2000");
}

#[test]
fn sig_pingpong_bench() {
    quiet_success("sig_pingpong_bench", "2000");
}

#[test]
fn getppid_bench() {
    quiet_success("getppid_bench", "10000");
}

/// The `make bench` measurement on a short run: the kernel's exit line is
/// found and read, the per-op figures come out of two boots, and the JSON
/// holds every key once per row (benchmark, variant, default, the per-op
/// figures). Only the counters that do not depend on timing are checked exactly.
#[test]
fn bench_tool_measures_and_reports() {
    use sigil_qemu::bench::{self, BENCHMARKS};
    let mut base = sigil_qemu::RunConfig::new(&common::board(), common::kernel());
    base.timeout = common::SIGIL_TIMEOUT;
    let user_dir = common::program("getppid_bench").parent().unwrap().to_path_buf();
    let pick = |name: &str| BENCHMARKS.iter().find(|b| b.name == name).unwrap();
    let null = pick("null_syscall");
    let raise = pick("raise_signal");
    let copy = raise.variants.iter().find(|v| v.name == "dequeue=copy").unwrap();
    let mut rows = vec![
        bench::measure(&base, &user_dir, null, &null.variants[0], 500).unwrap(),
        bench::measure(&base, &user_dir, raise, &raise.variants[0], 200).unwrap(),
        bench::measure(&base, &user_dir, raise, copy, 200).unwrap(),
    ];
    bench::set_ratios(&mut rows);
    assert!(rows[0].instructions_per_op > 10.0, "{:?}", rows[0]);
    assert_eq!(rows[0].windows_per_op, 0.0, "getppid opens no window");
    assert_eq!(rows[1].siginfo_bytes_per_op, 0.0, "the default dequeue hands the node over");
    assert_eq!(rows[2].siginfo_bytes_per_op, 32.0, "dequeue=copy copies one siginfo per delivery");
    assert_eq!(rows[1].windows_per_op, 2.0, "one window for the frame, one for sigreturn");
    let expected = rows[2].instructions_per_op / rows[1].instructions_per_op;
    assert!((rows[2].ratio_to_default - expected).abs() < 1e-9, "{:?}", rows[2]);
    let json = bench::json(&rows);
    for key in [
        "benchmark",
        "variant",
        "default",
        "instructions_per_op",
        "windows_per_op",
        "siginfo_bytes_per_op",
    ] {
        assert_eq!(json.matches(&format!("\"{key}\": ")).count(), 3, "{key} in {json}");
    }
    assert!(json.contains(
        "\"benchmark\": \"raise_signal\", \"variant\": \"dequeue=copy\", \"default\": false"
    ));
}
