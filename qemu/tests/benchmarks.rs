//! The benchmark programs, run with small counts: they must finish, print
//! nothing and exit 0 on Sigil, as they do under qemu-ppc. (Measuring them is
//! the job of the benchmark targets, not of these tests.)

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
