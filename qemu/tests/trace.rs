//! The signal trace (`trace=signal`), booted for real: the events of one
//! SIGUSR1 from a parent to its child (user/c/sig_demo.c) come out in the
//! order the kernel's code takes them, and say what docs/signals.md says.

mod common;

use sigil_core::layout::SIGPAGE;
use sigil_qemu::trace::{self, Event, Kind};

/// Boots sig_demo with `opts` and returns its trace; the program's own output
/// must still match qemu-ppc's (tracing changes nothing the program sees).
fn demo(opts: &[&str]) -> Vec<Event> {
    let expected = common::linux("sig_demo", &[], &[]);
    let mut cfg = common::config();
    cfg.init = Some(common::program("sig_demo"));
    cfg.quiet = true;
    cfg.boot_opts = opts.iter().map(|s| s.to_string()).collect();
    let r = sigil_qemu::run(&cfg);
    assert_eq!(r.status, Some(0), "sig_demo failed on Sigil:\n{}", r.console);
    assert!(!r.oopsed(), "{}", r.console);
    let program: String =
        r.console.lines().filter(|l| !l.starts_with("@sig ")).map(|l| format!("{l}\n")).collect();
    assert_eq!(program, expected.console, "program output differs from qemu-ppc's");
    trace::parse(&r.console).unwrap_or_else(|e| panic!("{e}\n{}", r.console))
}

fn hex(e: &Event, key: &str) -> u32 {
    let v = e.get(key).unwrap_or_else(|| panic!("{key}= missing in {e:?}"));
    u32::from_str_radix(v.trim_start_matches("0x"), 16)
        .unwrap_or_else(|_| panic!("{key}={v} is not hex"))
}

#[test]
fn one_sigusr1_from_kill_to_sigreturn() {
    let ev = demo(&["trace=signal"]);
    // The child's SIGUSR1, in order: nothing else may happen to it in between.
    let usr1: Vec<&Event> =
        ev.iter().filter(|e| e.signo() == Some(10) || e.kind == Kind::Sigreturn).collect();
    let kinds: Vec<Kind> = usr1.iter().map(|e| e.kind).collect();
    use Kind::*;
    assert_eq!(kinds, [Generate, Queue, Dequeue, Frame, Handler, Sigreturn], "{ev:#?}");
    let [gen, queue, deq, frame, handler, ret] = usr1[..] else { unreachable!() };

    let child = gen.pid;
    assert!(usr1.iter().all(|e| e.pid == child), "every step happens to the child");
    assert_eq!(gen.num("sender"), Some(2), "kill() from the parent, pid 2 (init is PID 1)");
    assert_eq!(gen.num("code"), Some(0), "si_code SI_USER");
    assert_eq!(queue.get("result"), Some("queued"));
    assert_eq!(
        deq.get("node"),
        queue.get("node"),
        "dequeue hands over the very node that was queued"
    );

    assert_eq!(frame.get("kind"), Some("rt"), "SA_SIGINFO gets the RT frame");
    assert_eq!(frame.num("size"), Some(1536));
    assert_eq!(frame.num("windows"), Some(1), "the whole frame in one window");
    assert_eq!(frame.get("result"), Some("ok"));
    let (f, sp) = (hex(frame, "frame"), hex(handler, "sp"));
    assert_eq!(f % 16, 0, "frames are 16-aligned");
    assert_eq!(sp, f - 80, "the handler's r1 is 80 bytes below the RT frame");
    assert_eq!(
        frame.get("window"),
        Some(format!("{sp:#x}+{}", 1536 + 80).as_str()),
        "the window runs from the back chain to the frame's end"
    );
    assert_eq!(
        hex(handler, "lr"),
        SIGPAGE + 8,
        "LR = the RT trampoline in the signal page, not a word of the frame"
    );
    assert_eq!(hex(ret, "frame"), f, "rt_sigreturn reads back the frame that was written");
    assert_eq!(ret.get("kind"), Some("rt"));

    // The child's exit sends SIGCHLD to the parent, which ignores it by default:
    // dropped at generation, never queued. (The parent's own exit then
    // sends init one, which init drops the same way.)
    let parent = gen.num("sender");
    let chld: Vec<(Kind, Option<&str>)> = ev
        .iter()
        .filter(|e| e.signo() == Some(17) && Some(e.pid) == parent)
        .map(|e| (e.kind, e.get("result")))
        .collect();
    assert_eq!(chld, [(Generate, None), (Queue, Some("ignored"))]);
}

#[test]
fn the_old_ways_show_in_the_trace() {
    let ev = demo(&["trace=signal", "signal.dequeue=copy", "signal.frame=field"]);
    let deq = ev.iter().find(|e| e.kind == Kind::Dequeue).expect("a dequeue");
    assert_eq!(deq.get("node"), Some("copied"));
    let frame = ev.iter().find(|e| e.kind == Kind::Frame).expect("a frame");
    // One window per store: 87 for sig_demo's rt frame (fewer than the 119
    // of a frame with FP registers: lazy FP leaves out mc_fregs while the
    // thread's FP state is the initial one).
    assert!(frame.num("windows").unwrap() > 50, "one window per store: {frame:?}");
}

#[test]
fn off_by_default() {
    let r = common::sigil("sig_demo", &[], &[]);
    assert!(!r.console.contains("@sig"), "trace printed without trace=signal:\n{}", r.console);
}
