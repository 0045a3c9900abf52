//! The signals that time sends: the time layer (`crate::time`) sits below
//! the process table and the signal code, so it only says what expired and
//! which signal that means; these functions, called from the timer
//! interrupt (`trap`) and from sigaction, queue them.

use sigil_core::signal::{SigInfo, Signal};
use sigil_core::time::cputime;

use crate::proc;
use crate::time::timers::{Expired, TimerSignal};

/// A wall-clock timer of process `pid` expired: ITIMER_REAL sends SIGALRM
/// (SI_KERNEL, as Linux), a POSIX timer its own signal.
pub fn timer_expired(pid: u32, expired: Expired) {
    match expired {
        Expired::Alarm => {
            let _ = super::send(pid, SigInfo::kernel(Signal::SIGALRM), false);
        }
        Expired::Posix(ts) => queue_timer_signal(pid, ts),
    }
}

/// Process `pid`'s CPU-time itimers expired at a sample: SIGVTALRM and
/// SIGPROF, SI_KERNEL as Linux.
pub fn cpu_timers_expired(pid: u32, expired: cputime::Expired) {
    if expired.virt {
        let _ = super::send(pid, SigInfo::kernel(Signal::SIGVTALRM), false);
    }
    if expired.prof {
        let _ = super::send(pid, SigInfo::kernel(Signal::SIGPROF), false);
    }
}

/// Queues a POSIX timer's signal on the process's set, or with
/// SIGEV_THREAD_ID on the thread's (dropped if that thread has exited), or
/// re-tags the one still waiting there.
pub fn queue_timer_signal(pid: u32, ts: TimerSignal) {
    let TimerSignal { thread, id, signo, value, seq } = ts;
    let Some(g) = proc::get(pid) else { return };
    let pending = match thread {
        None => &mut g.sig.shared,
        Some(tid) => match proc::thread(tid) {
            Some(t) => &mut t.sig.pending,
            None => return,
        },
    };
    let waiting = |i: &SigInfo| i.timer_seq() != 0 && i.timer_id() == id && i.signo() == signo;
    if let Some(info) = pending.find_queued_mut(waiting) {
        info.set_timer_seq(seq);
        return;
    }
    let sig = Signal::new(signo).expect("checked by decode_sigevent");
    let info = SigInfo::timer_queued(sig, id, value, seq);
    let _ = match thread {
        None => super::send(pid, info, true),
        Some(tid) => super::send_thread(tid, info, true),
    };
}
