//! The pseudo ALSA device /dev/snd/pcmC0D0p, driven by C programs built
//! against the real <sound/asound.h> (user/c/pcm_params.c, pcm_play.c,
//! pcm_syncptr_bench.c).
//!
//! qemu-ppc has no sound card to compare with, so these tests assert the
//! programs' own verdicts: every line "ok", the exact number of checks, exit
//! status 0. The programs print facts, never raw times, and QEMU runs under
//! icount like every test (`common::ICOUNT`: guest time advances with
//! instructions), so the output is the same on every run - and must be
//! byte for byte the same under each SYNC_PTR way the kernel can boot with
//! (`pcm.sync_ptr=field|copy|window`): the three differ only in how the
//! words cross the user boundary, which the benchmark test measures.

mod common;

use sigil_qemu::RunResult;

const WAYS: [&str; 3] = ["field", "copy", "window"];

/// Boots Sigil with `prog` as /init under `pcm.sync_ptr=<way>`, deterministic time.
fn run(prog: &str, way: &str, args: &[&str]) -> RunResult {
    let mut cfg = common::config();
    cfg.init = Some(common::program(prog));
    cfg.quiet = true;
    cfg.boot_opts = vec![format!("pcm.sync_ptr={way}")];
    cfg.init_args = args.iter().map(|s| s.to_string()).collect();
    let r = sigil_qemu::run(&cfg);
    assert!(!r.timed_out, "{prog} ({way}): timeout\n{}", r.console);
    assert!(!r.oopsed(), "{prog} ({way}): kernel oops\n{}", r.console);
    r
}

/// Runs a self-checking program under each way: all checks pass, `checks`
/// of them, and the three outputs are identical.
fn self_check(prog: &str, checks: u32) {
    let summary = format!("{prog}: {checks} passed, 0 failed");
    let mut first: Option<String> = None;
    for way in WAYS {
        let r = run(prog, way, &[]);
        let failures: Vec<&str> = r.console.lines().filter(|l| !l.starts_with("ok - ")).collect();
        assert_eq!(failures, [summary.as_str()], "{prog} with pcm.sync_ptr={way}:\n{}", r.console);
        assert_eq!(r.status, Some(0), "{prog} with pcm.sync_ptr={way}:\n{}", r.console);
        match &first {
            None => first = Some(r.console),
            Some(f) => assert_eq!(
                &r.console, f,
                "{prog}: pcm.sync_ptr={way} prints something else than field"
            ),
        }
    }
}

/// Parameters and every error before audio plays, each failure followed by
/// a check that the stream did not change.
#[test]
fn params_and_errors() {
    self_check("pcm_params", 90);
}

/// Playback in both SYNC_PTR layouts: the pointer against the clock, flags,
/// STATUS, DELAY, xrun, pause, drop, drain, and the errors of a live stream.
#[test]
fn playback_in_both_layouts() {
    self_check("pcm_play", 165);
}

/// The benchmark's own count of user-access windows per SYNC_PTR: one per
/// word for `field` (3 get_user + 9 put_user), two for the others.
#[test]
fn syncptr_windows_per_ioctl() {
    for (way, windows) in [("field", "12.00"), ("copy", "2.00"), ("window", "2.00")] {
        let r = run("pcm_syncptr_bench", way, &["2000"]);
        assert_eq!(r.status, Some(0), "pcm_syncptr_bench ({way}):\n{}", r.console);
        let line = r.console.lines().find(|l| l.starts_with("pcm_syncptr_bench: ")).unwrap_or("");
        assert!(
            line.starts_with("pcm_syncptr_bench: 2000 SYNC_PTR ioctls, "),
            "{way}: {}",
            r.console
        );
        assert!(
            line.ends_with(&format!(" ns each, {windows} windows each")),
            "{way}: expected {windows} windows: {line}"
        );
    }
}
