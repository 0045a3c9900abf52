//! session: drives a guest console from a test, the way `expect` drives a
//! terminal: send keys, wait for text.
//!
//! A [`Session`] boots Sigil (quiet, so the exit marker is not shown) on a
//! thread of its own, with the console fed from a channel as a terminal's
//! keys ([`Input::Keys`]). [`Session::expect`] waits for text to appear in
//! what the console printed since the previous match. Its limit is a safety
//! net, not a clock: it fails the test when the text never comes, and
//! nothing here ever sleeps. Time inside the guest is what a test may
//! depend on, so sessions run under `-icount` (the caller's `qemu_flags`).
//! A session dropped without `finish` (a failed test unwinding) kills its
//! QEMU, so a failure never leaves a guest running.

use std::io::Read;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::{run_fed, Input, RunConfig, RunResult};

/// A booted console being driven.
pub struct Session {
    keys: Option<Sender<Vec<u8>>>,
    output: Receiver<Vec<u8>>,
    /// Everything printed so far (`\r\n` folded to `\n`).
    text: String,
    /// Where the next `expect` starts looking.
    pos: usize,
    /// The longest an `expect` waits.
    pub limit: Duration,
    /// The boot, until `finish` (or `drop`) has waited for it.
    run: Option<JoinHandle<RunResult>>,
    /// QEMU's pid (its process group's id), 0 until it has started.
    qemu: Arc<AtomicU32>,
}

/// The keys a session sends arrive through this reader.
struct Keys {
    rx: Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Read for Keys {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.rx.recv() {
                Ok(k) => self.pending = k,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

impl Session {
    /// Boots `cfg` (made quiet) with the console reading keys from this session.
    pub fn start(cfg: &RunConfig) -> Session {
        let mut cfg = cfg.clone();
        cfg.quiet = true;
        let (key_tx, key_rx) = channel();
        let (out_tx, out_rx) = channel();
        let qemu = Arc::new(AtomicU32::new(0));
        let started = qemu.clone();
        let run = std::thread::spawn(move || {
            let keys = Keys { rx: key_rx, pending: Vec::new() };
            run_fed(
                &cfg,
                Input::Keys(Box::new(keys)),
                move |pid| started.store(pid, Ordering::SeqCst),
                |b| {
                    let _ = out_tx.send(b.to_vec());
                },
            )
        });
        Session {
            keys: Some(key_tx),
            output: out_rx,
            text: String::new(),
            pos: 0,
            limit: Duration::from_secs(60),
            run: Some(run),
            qemu,
        }
    }

    /// Types `keys` (control characters as they are: "\x03" is Ctrl-C).
    pub fn send(&mut self, keys: &str) {
        if let Some(k) = &self.keys {
            let _ = k.send(keys.as_bytes().to_vec());
        }
    }

    /// Waits until `text` appears after the previous match; returns what was
    /// printed from there up to and including it. Err (with the whole
    /// console) if the guest ended or `limit` passed first.
    pub fn expect(&mut self, text: &str) -> Result<String, String> {
        let deadline = Instant::now() + self.limit;
        loop {
            if let Some(at) = self.text[self.pos..].find(text) {
                let end = self.pos + at + text.len();
                let seen = self.text[self.pos..end].to_string();
                self.pos = end;
                return Ok(seen);
            }
            match self.output.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(chunk) => self.text.push_str(&String::from_utf8_lossy(&chunk)),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "no {text:?} within {:?}; console:\n{}",
                        self.limit, self.text
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the guest ended before {text:?}; console:\n{}", self.text))
                }
            }
        }
    }

    /// QEMU's pid, once it has started (0 before).
    pub fn qemu_pid(&self) -> u32 {
        self.qemu.load(Ordering::SeqCst)
    }

    /// Everything the console printed so far.
    pub fn console(&self) -> &str {
        &self.text
    }

    /// Stops sending keys, waits for the guest to end (within the run's own
    /// timeout) and returns how it ended.
    pub fn finish(mut self) -> RunResult {
        self.keys = None;
        let run = self.run.take().expect("a session is finished once");
        run.join().unwrap_or_else(|_| RunResult {
            console: self.text.clone(),
            status: None,
            timed_out: false,
            stderr: "session thread panicked".into(),
        })
    }
}

impl Drop for Session {
    /// A session not finished (a test that failed halfway): kill its QEMU
    /// and everything it started, then wait for the boot's thread.
    fn drop(&mut self) {
        let Some(run) = self.run.take() else { return };
        self.keys = None;
        let pid = self.qemu.load(Ordering::SeqCst);
        if pid != 0 && !run.is_finished() {
            crate::process::kill_group_of(pid);
        }
        let _ = run.join();
    }
}
