//! The console as a terminal, driven the way a user drives it: BusyBox ash
//! started by `tty_session` (what `make run` boots) on the console, keys
//! sent and output awaited through `sigil_qemu::session` (Ctrl-C is "\x03").
//! Guest time runs under `-icount`; the only host-time limits are the
//! session's safety nets, which fail the test.
//!
//! `tty_job` (user/c) is the job the tests stop and continue: it says when
//! it starts, when it is continued and in which group, and when it is hung
//! up, so no step has to guess whether the previous one has happened.
//! Sigil-only: qemu-ppc has no terminal to compare with.

mod common;

use std::time::Duration;

use sigil_qemu::session::Session;
use sigil_qemu::{initramfs, repo_root, run_fed, Input, RunConfig};

const PROMPT: &str = "/ # ";

/// A boot of `tty_session` (ash, or `args`) with Sigil's programs and
/// BusyBox in the initramfs.
fn config(args: &[&str]) -> RunConfig {
    let mut cfg = common::config();
    cfg.init = Some(common::program("tty_session"));
    cfg.init_args = args.iter().map(|s| s.to_string()).collect();
    let bin = repo_root().join("target/user");
    let busybox = repo_root().join("target/busybox");
    cfg.extra_files = initramfs::busybox(&busybox, Some(&bin))
        .unwrap_or_else(|e| panic!("{e}: run `make test`, which builds BusyBox"));
    cfg.bin_dir = Some(bin);
    cfg.quiet = true;
    cfg
}

/// The shell, at its first prompt.
fn shell() -> Session {
    let mut s = Session::start(&config(&[]));
    s.expect(PROMPT).unwrap();
    s
}

/// Types `line` and Enter; waits for the next prompt and returns what was
/// printed in between (the echoed line included).
fn run(s: &mut Session, line: &str) -> String {
    s.send(&format!("{line}\r"));
    s.expect(PROMPT).unwrap_or_else(|e| panic!("after {line:?}: {e}"))
}

/// Waits until the shell has read and run everything typed so far, and is
/// at a fresh prompt: after a job's own message (which may come before or
/// after the shell's prompt), so that the next `run` cannot take a prompt
/// printed earlier for its own. (The echoed "sy''nc" does not match.)
fn sync(s: &mut Session) {
    s.send("echo sy''nc\r");
    wait(s, "sync\n");
    wait(s, PROMPT);
}

/// `jobs` until its answer passes `done` (at most 200 times), the last
/// answer: a job's change of state reaches ash when the job has run, and ash
/// reports it at the next prompt. Each round trip is a prompt; nobody sleeps.
fn jobs_until(s: &mut Session, done: impl Fn(&str) -> bool) -> String {
    let mut jobs = String::new();
    for _ in 0..200 {
        jobs = run(s, "jobs");
        if done(&jobs) {
            break;
        }
    }
    jobs
}

fn wait(s: &mut Session, text: &str) -> String {
    s.expect(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Ends the shell and checks that the boot ended cleanly.
fn end(mut s: Session) {
    s.send("exit\r");
    let r = s.finish();
    assert!(!r.oopsed() && r.status.is_some(), "console:\n{}\nstderr: {}", r.console, r.stderr);
    assert!(!r.console.contains("LEAK"), "{}", r.console);
}

#[test]
fn ctrl_c_interrupts_the_foreground_job_and_the_shell_survives() {
    let mut s = shell();
    s.send("tty_job\r");
    wait(&mut s, "job ready");
    s.send("\x03");
    wait(&mut s, PROMPT);
    assert!(run(&mut s, "echo status=$?").contains("status=130"), "{}", s.console());
    // A foreground `sleep 100` too. The job says "go" once it runs in the
    // foreground group (ash makes it that before exec), then becomes sleep;
    // a ^C typed any earlier would go to the shell itself.
    // (A ^C'd job ends the whole command line, as in every shell.)
    s.send("sh -c 'echo go >&2; exec sleep 100'\r");
    wait(&mut s, "go\n");
    s.send("\x03");
    wait(&mut s, PROMPT);
    assert!(run(&mut s, "echo after=$?").contains("after=130"), "{}", s.console());
    end(s);
}

#[test]
fn ctrl_z_stops_then_bg_and_fg_resume() {
    let mut s = shell();
    s.send("tty_job\r");
    wait(&mut s, "job ready");
    s.send("\x1a");
    wait(&mut s, PROMPT);
    assert!(run(&mut s, "jobs").contains("Stopped"), "{}", s.console());
    s.send("bg\r");
    wait(&mut s, "job continued in the background");
    sync(&mut s);
    assert!(run(&mut s, "jobs").contains("Running"), "{}", s.console());
    s.send("fg\r");
    wait(&mut s, "job continued in the foreground");
    s.send("\x03");
    wait(&mut s, PROMPT);
    assert!(run(&mut s, "echo status=$?").contains("status=130"));
    end(s);
}

#[test]
fn kill_stop_and_cont_of_a_background_job() {
    let mut s = shell();
    s.send("tty_job &\r");
    wait(&mut s, "job ready");
    sync(&mut s);
    run(&mut s, "kill -STOP %1");
    // The job stops when it next runs, which may be after ash has read the
    // next line (when the host was slow to show the prompt, the line is
    // already there and ash never sleeps): ash reports what it has seen.
    let jobs = jobs_until(&mut s, |j| !j.contains("Running"));
    assert!(jobs.contains("Stopped"), "{}", s.console());
    // (ash, like dash, does not wait with WCONTINUED, so its `jobs` still
    // says Stopped after a kill -CONT it did not do as bg: the job's own
    // word is the check.)
    s.send("kill -CONT %1\r");
    wait(&mut s, "job continued in the background");
    sync(&mut s);
    // Nor does `wait` wait for a job ash still thinks stopped: its `jobs`
    // reaps the killed job and reports it, once it has died.
    run(&mut s, "kill %1");
    let jobs = jobs_until(&mut s, |j| j.contains("Terminated"));
    assert!(jobs.contains("Terminated"), "{}", s.console());
    end(s);
}

#[test]
fn a_background_read_of_the_terminal_gets_sigttin() {
    let mut s = shell();
    run(&mut s, "tty_job read &");
    // The shell reports the stop at a prompt once it has happened.
    let jobs = jobs_until(&mut s, |j| !j.contains("Running"));
    assert!(jobs.contains("Stopped (tty input)"), "{jobs}");
    // In the foreground the same read succeeds.
    // Typed once ash has said which job it continues: keys typed earlier
    // reach ash's line editor (raw mode) or the job in that mode.
    s.send("fg\r");
    wait(&mut s, "tty_job read\n");
    s.send("typed\r");
    wait(&mut s, "job read 6 bytes");
    wait(&mut s, PROMPT);
    end(s);
}

#[test]
fn trap_and_kill_of_the_shell_itself() {
    let mut s = shell();
    assert!(run(&mut s, "trap 'echo caught' USR1; kill -USR1 $$").contains("caught\n"));
    end(s);
}

#[test]
fn kill_percent_one_kills_only_the_job() {
    let mut s = shell();
    // The job says when it runs: on one CPU the child of a fork runs after
    // its parent, and until it has reset its signals it ignores SIGTERM as
    // the interactive shell does; a signal ignored when sent is dropped
    // (Linux too), so `sleep 5 & kill %1` on one line may lose the kill.
    s.send("set -m; tty_job &\r");
    wait(&mut s, "job ready");
    sync(&mut s);
    let out = run(&mut s, "kill %1; wait; echo alive");
    assert!(out.contains("alive") && out.contains("Terminated"), "{out}");
    end(s);
}

#[test]
fn a_pipeline_is_one_process_group_in_the_foreground() {
    let mut s = shell();
    let out = run(&mut s, "tty_job ids | tty_job ids | tty_job ids; echo shell $$");
    let groups: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("job pid "))
        .map(|l| l.split(' ').nth(2).unwrap())
        .collect();
    let shell_pid = out.lines().find_map(|l| l.strip_prefix("shell ")).unwrap();
    assert_eq!(groups.len(), 3, "{out}");
    assert!(groups.iter().all(|g| g == &groups[0]) && groups[0] != shell_pid, "{out}");
    // Three applets in the foreground: ^C ends the pipeline (its first
    // stage says "go" once it runs in the foreground group).
    s.send("sh -c 'echo go >&2; exec sleep 100' | cat | cat\r");
    wait(&mut s, "go\n");
    s.send("\x03");
    wait(&mut s, PROMPT);
    end(s);
}

#[test]
fn exiting_the_shell_hangs_up_its_stopped_jobs() {
    let mut s = shell();
    s.send("tty_job\r");
    wait(&mut s, "job ready");
    s.send("\x1a");
    wait(&mut s, PROMPT);
    // ash refuses the first exit while a job is stopped. The second one
    // orphans the job's group: hung up, the job says so and exits, and
    // tty_session (its new parent, a child subreaper) waits for it before
    // the machine powers off.
    s.send("exit\r");
    wait(&mut s, PROMPT);
    s.send("exit\r");
    let r = s.finish();
    assert!(r.console.contains("job hung up"), "console:\n{}", r.console);
    assert!(r.status.is_some() && !r.oopsed(), "{}", r.console);
}

/// A session a test drops halfway (as a failing test does, unwinding)
/// takes its QEMU with it.
#[test]
fn a_dropped_session_kills_its_qemu() {
    let s = shell();
    let pid = s.qemu_pid();
    assert!(pid != 0 && std::path::Path::new(&format!("/proc/{pid}")).exists());
    drop(s);
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists(), "QEMU {pid} still runs");
}

/// A pipe on the console's stdin is read to its end, then end of file: no
/// byte lost, none invented, however fast the sender.
#[test]
fn piped_input_arrives_whole_then_ends() {
    let input: String = (1..=100_000).map(|i| format!("{i}\n")).collect();
    let mut cfg = config(&["/usr/bin/wc", "-l"]);
    cfg.timeout = Duration::from_secs(600);
    let r = run_fed(&cfg, Input::Stream(Box::new(std::io::Cursor::new(input))), |_| {}, |_| {});
    assert_eq!(r.status, Some(0), "console:\n{}\nstderr: {}", r.console, r.stderr);
    assert_eq!(r.console.trim(), "100000");
}

/// The lines of `out` with their line endings trimmed.
fn lines(out: &str) -> Vec<&str> {
    out.lines().map(|l| l.trim_end()).collect()
}

/// Does `out` have the lines `want`, one after the other?
fn has_run(out: &str, want: &[&str]) -> bool {
    lines(out).windows(want.len()).any(|w| w == want)
}

/// What a user does with files from the shell: mkdir -p, redirections
/// (> and >>), mv, rm -r, ls -l of the root, cd and pwd, and a `#!/bin/sh`
/// script run by its name. Everything made is removed again, so the leak
/// check at power-off (`end`) stays clean.
#[test]
fn files_directories_and_scripts_from_the_shell() {
    let mut s = shell();
    let out = run(&mut s, "mkdir -p /tmp/a/b && echo x > /tmp/a/b/f && cat /tmp/a/b/f");
    assert!(lines(&out).contains(&"x"), "{out}");
    let out = run(
        &mut s,
        "echo y >> /tmp/a/b/f; mv /tmp/a/b/f /tmp/a/g && cat /tmp/a/g; ls -1 /tmp/a | cat",
    );
    assert!(has_run(&out, &["x", "y", "b", "g"]), "{out}");
    let out = run(&mut s, "rm -r /tmp/a && ls -a /tmp | wc -l");
    assert!(lines(&out).contains(&"2"), "{out}");
    let out = run(&mut s, "ls -ld /tmp /bin /dev/null | cat");
    assert!(out.contains("drwxrwxrwt") && out.contains("crw-rw-rw-"), "{out}");
    let out = run(&mut s, "cd /bin; pwd; ls | grep -c '^busybox$'; cd ..; pwd");
    assert!(has_run(&out, &["/bin", "1", "/"]), "{out}");
    run(&mut s, "printf '#!/bin/sh\\necho script says $1\\n' > /tmp/s; chmod +x /tmp/s");
    let out = run(&mut s, "/tmp/s hi; cd /tmp; ./s there; PATH=/tmp:$PATH s anywhere; cd /");
    assert!(
        has_run(&out, &["script says hi", "script says there", "script says anywhere"]),
        "{out}"
    );
    run(&mut s, "rm /tmp/s");
    end(s);
}

/// The fields of the line of `out` that ends with `args`.
fn ps_line<'a>(out: &'a str, args: &str) -> Vec<&'a str> {
    let line = lines(out).into_iter().find(|l| l.ends_with(args));
    line.unwrap_or_else(|| panic!("no {args:?} in:\n{out}")).split_whitespace().collect()
}

/// BusyBox's process and memory tools, which read /proc as on Linux: `ps`
/// lists the shell and a background job with their user, state, ids,
/// terminal (the console, 4:64) and argv; `free`, `uptime` and `top -n 1`
/// print their Linux layouts. Values are Sigil's (no load average: 0.00).
#[test]
fn ps_free_uptime_and_top_from_the_shell() {
    let mut s = shell();
    let out = run(&mut s, "sleep 100 & ps");
    assert!(lines(&out).contains(&"PID   USER     TIME  COMMAND"), "{out}");
    assert_eq!(ps_line(&out, "-sh")[1..], ["root", "0:00", "-sh"], "{out}");
    assert_eq!(ps_line(&out, "sleep 100")[1..], ["root", "0:00", "sleep", "100"], "{out}");
    let out = run(&mut s, "ps -o pid,ppid,pgid,stat,tty,comm,args");
    let sh = ps_line(&out, "-sh");
    let sleep = ps_line(&out, "sleep 100");
    // The job: the shell's child, in a group of its own, asleep, on the console.
    assert_eq!(sleep[1], sh[0], "{out}");
    assert_eq!(sleep[2], sleep[0], "{out}");
    assert_eq!(sleep[3..6], ["S", "4,64", "sleep"], "{out}");
    assert_eq!(sh[3..6], ["S", "4,64", "sh"], "{out}");
    let out = run(&mut s, "free; uptime; top -b -n 1 | head -5");
    let l = lines(&out);
    assert!(
        has_run(
            &out,
            &["              total        used        free      shared  buff/cache   available"]
        ),
        "{out}"
    );
    let mem: Vec<&str> =
        l.iter().find(|x| x.starts_with("Mem:")).unwrap().split_whitespace().collect();
    assert_eq!(mem.len(), 7, "{out}");
    assert!(l.contains(&"Swap:             0           0           0"), "{out}");
    // The averages are the kernel's (sigil_core::time::loadavg), sampled
    // every 5 s of guest time: their shape is checked, not their value.
    let averages = |s: &str, sep: &str| {
        let v: Vec<&str> = s.split(sep).take(3).collect();
        v.len() == 3 && v.iter().all(|a| a.len() == 4 && a.as_bytes()[1] == b'.')
    };
    assert!(
        l.iter().any(|x| x
            .split_once(" up 0 min,  0 users,  load average: ")
            .is_some_and(|(_, a)| averages(a, ", "))),
        "{out}"
    );
    assert!(
        l.iter().any(|x| x.strip_prefix("Load average: ").is_some_and(|a| averages(a, " "))),
        "{out}"
    );
    assert!(l.contains(&"  PID  PPID USER     STAT   VSZ %VSZ CPU %CPU COMMAND"), "{out}");
    let out = run(
        &mut s,
        "grep -c stack /proc/$$/maps; cat /proc/$!/comm; ls /proc/$$/fd | sort -n | head -3",
    );
    assert!(has_run(&out, &["1", "sleep", "0", "1", "2"]), "{out}");
    let out = run(&mut s, "readlink /proc/$$/fd/0");
    assert!(lines(&out).iter().any(|l| l.starts_with("/dev/")), "{out}");
    run(&mut s, "kill %1; wait");
    end(s);
}
