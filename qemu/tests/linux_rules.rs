//! Signal rules where Sigil follows Linux's documented behaviour and
//! qemu-ppc does not, so the expected output is written here instead of
//! compared: qemu-ppc writes all 8 bytes for rt_sigpending(set, 4) (Linux
//! writes the size asked for), stops a periodic timer whose signal the guest
//! ignores (Linux 6.13 keeps it and requeues the signal when a handler is
//! installed: `posixtimer_sig_unignore`), and crashes on a raw
//! timer_create(SIGEV_THREAD) (Linux's `good_sigevent` treats it as
//! SIGEV_SIGNAL).

mod common;

use common::sigil;

#[test]
fn sig_rules() {
    let r = sigil("sig_rules", &[], &[]);
    assert_eq!(r.status, Some(0), "{}", r.console);
    let expected = "\
sigsuspend(mask {USR2}): SIGUSR2 raised in the SIGUSR1 handler ran nested: no, ran after: yes
periodic timer, signal SIGCONT at SIG_DFL for 50 ms, then a handler: signals arrive: yes, the first overrun counts the ignored periods (>= 40): yes
periodic timer, signal SIGUSR1 at SIG_IGN for 50 ms, then a handler: signals arrive: yes, the first overrun counts the ignored periods (>= 40): yes
tgkill(0, pid, 0): -1, Invalid argument
rt_sigpending(set, 4): 0, word 0 has SIGUSR1: yes, word 1 untouched: yes
rt_sigpending(set, 9): -1, Invalid argument
sigpending (old call): 0, has SIGUSR1: yes
sigprocmask (old call) SIG_BLOCK USR2: 0, old mask 0: yes, USR2 now blocked: yes
sigaction (old call): 0, handler read back: yes, it runs: yes
timer_create(SIGEV_THREAD) raw: 0
its expiry signals the process: yes
";
    assert_eq!(r.console.replace("\r\n", "\n"), expected);
}
