//! process: runs one child process with a deadline and streams its stdout.
//!
//! Both QEMU flavours go through here: qemu-system-ppc (Sigil) and qemu-ppc
//! (the Linux reference). The child is started in a process group of its
//! own, so a timeout can kill it together with anything it forked (qemu-ppc
//! guests fork real host processes). Two threads drain stdout (chunks
//! forwarded as they arrive) and stderr (kept whole); the calling thread
//! waits on the chunk channel with the deadline, so nothing here can hang.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How a [`run`] ended.
#[derive(Debug)]
pub struct Finished {
    /// Exit code, or 128 + signal number if a signal killed the child;
    /// `None` if it had to be killed (timeout or `stop` asked for it).
    pub status: Option<i32>,
    /// The deadline passed and the process group was killed.
    pub timed_out: bool,
    /// Everything the child wrote on stderr.
    pub stderr: String,
}

/// What the stdout callback wants next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Keep reading.
    More,
    /// The interesting output is complete: give the child `grace` to exit on
    /// its own, then kill it (QEMU powering off after the exit marker).
    Finish { grace: Duration },
}

/// Start `cmd` with null stdin and piped output, call `on_stdout` with each
/// stdout chunk, and return when the child exits or `timeout` runs out.
pub fn run(
    mut cmd: Command,
    timeout: Duration,
    mut on_stdout: impl FnMut(&[u8]) -> Next,
) -> Result<Finished, String> {
    let deadline = Instant::now() + timeout;
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    let program = format!("{:?}", cmd.get_program());
    let mut child = cmd.spawn().map_err(|e| format!("cannot start {program}: {e}"))?;
    let chunks = drain(child.stdout.take().expect("stdout is piped"));
    let stderr = drain(child.stderr.take().expect("stderr is piped"));

    let mut stop_at = deadline;
    let mut finishing = false;
    loop {
        match chunks.recv_timeout(stop_at.saturating_duration_since(Instant::now())) {
            Ok(chunk) => {
                if let Next::Finish { grace } = on_stdout(&chunk) {
                    if !finishing {
                        finishing = true;
                        stop_at = stop_at.min(Instant::now() + grace);
                    }
                }
            }
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                kill_group(&mut child);
                return Ok(Finished {
                    status: None,
                    timed_out: !finishing,
                    stderr: collect(stderr),
                });
            }
        }
    }
    // stdout is closed; the exit itself should follow at once.
    let status = loop {
        if let Some(st) = child.try_wait().map_err(|e| format!("waiting for {program}: {e}"))? {
            break st;
        }
        if Instant::now() >= stop_at {
            kill_group(&mut child);
            return Ok(Finished { status: None, timed_out: !finishing, stderr: collect(stderr) });
        }
        thread::sleep(Duration::from_millis(10));
    };
    let code = status.code().or_else(|| status.signal().map(|s| 128 + s));
    Ok(Finished { status: code, timed_out: false, stderr: collect(stderr) })
}

/// A thread that reads `src` to EOF and sends each chunk.
fn drain(mut src: impl Read + Send + 'static) -> Receiver<Vec<u8>> {
    let (tx, rx) = channel();
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = src.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    rx
}

/// Whatever the stderr thread has read; it gets a moment to finish after the
/// child died (the pipe closes when the last holder exits).
fn collect(rx: Receiver<Vec<u8>>) -> String {
    let mut out = Vec::new();
    let until = Instant::now() + Duration::from_millis(500);
    while let Ok(chunk) = rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
        out.extend(chunk);
    }
    String::from_utf8_lossy(&out).into_owned()
}

extern "C" {
    /// kill(2) from the C library std already links.
    fn kill(pid: i32, sig: i32) -> i32;
}

const SIGKILL: i32 = 9;

/// SIGKILL the child's whole process group (it leads one: `process_group(0)`),
/// then reap the child.
fn kill_group(child: &mut Child) {
    let pgid = child.id() as i32;
    // SAFETY: kill(2) takes two integers and touches none of our memory; a
    // negative pid addresses the group the child leads, which holds only the
    // child and its descendants.
    unsafe {
        kill(-pgid, SIGKILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c").arg(script);
        c
    }

    #[test]
    fn exit_code_output_and_stderr() {
        let mut out = Vec::new();
        let f = run(sh("echo out; echo err >&2; exit 3"), Duration::from_secs(10), |c| {
            out.extend_from_slice(c);
            Next::More
        })
        .unwrap();
        assert_eq!((f.status, f.timed_out, f.stderr.as_str()), (Some(3), false, "err\n"));
        assert_eq!(out, b"out\n");
    }

    #[test]
    fn killed_by_a_signal_is_128_plus_signo() {
        let f = run(sh("kill -TERM $$"), Duration::from_secs(10), |_| Next::More).unwrap();
        assert_eq!(f.status, Some(128 + 15));
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        let start = Instant::now();
        // The background sleeper keeps stdout open: only a group kill ends it.
        let f = run(sh("sleep 30 & sleep 30"), Duration::from_millis(300), |_| Next::More).unwrap();
        assert!(f.timed_out && f.status.is_none());
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn finish_stops_a_child_that_lingers() {
        let start = Instant::now();
        let f = run(sh("echo done; sleep 30"), Duration::from_secs(20), |_| Next::Finish {
            grace: Duration::from_millis(200),
        })
        .unwrap();
        assert!(!f.timed_out && f.status.is_none());
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}
