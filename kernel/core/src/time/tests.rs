//! Host tests of the time layouts, the timer state machines and CPU-time
//! accounting.

use super::cputime::{
    self, CpuAccount, CpuClockId, CpuClockKind, CpuSleep, CpuSleepers, CpuTimer, CpuTimes,
};
use super::timer::{forward, IdAllocator, PosixTimer, RealTimer};
use super::*;

const MS: u64 = 1_000_000;

#[test]
fn timespec_layouts_round_trip() {
    let mut b = [0u8; 16];
    encode_timespec(3 * NSEC_PER_SEC + 5, Layout::Old32, &mut b);
    assert_eq!(b[..8], [0, 0, 0, 3, 0, 0, 0, 5]);
    assert_eq!(decode_timespec(&b, Layout::Old32), Ok(3 * NSEC_PER_SEC + 5));
    encode_timespec(3 * NSEC_PER_SEC + 5, Layout::Time64, &mut b);
    assert_eq!(b, [0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 5]);
    // The padding word before tv_nsec is ignored on the way in.
    b[8] = 0xff;
    assert_eq!(decode_timespec(&b, Layout::Time64), Ok(3 * NSEC_PER_SEC + 5));
}

#[test]
fn timespec_validity_and_saturation() {
    let old = |s: i32, n: i32| {
        let mut b = [0u8; 8];
        b[..4].copy_from_slice(&s.to_be_bytes());
        b[4..].copy_from_slice(&n.to_be_bytes());
        decode_timespec(&b, Layout::Old32)
    };
    assert_eq!(old(-1, 0), Err(Errno::EINVAL));
    assert_eq!(old(0, -1), Err(Errno::EINVAL));
    assert_eq!(old(0, 1_000_000_000), Err(Errno::EINVAL));
    assert_eq!(old(0, 999_999_999), Ok(999_999_999));
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&i64::MAX.to_be_bytes());
    assert_eq!(decode_timespec(&b, Layout::Time64), Ok(KTIME_MAX));
    b[..8].copy_from_slice(&(-5i64).to_be_bytes());
    assert_eq!(decode_timespec(&b, Layout::Time64), Err(Errno::EINVAL));
}

#[test]
fn itimerspec_is_interval_then_value() {
    let spec = ItimerSpec { interval: 2 * NSEC_PER_SEC, value: 7 };
    for layout in [Layout::Old32, Layout::Time64] {
        let b = spec.encode(layout);
        assert_eq!(ItimerSpec::decode(&b, layout), Ok(spec));
    }
    assert_eq!(spec.encode(Layout::Old32)[..8], [0, 0, 0, 2, 0, 0, 0, 0]);
}

#[test]
fn itimerval_truncates_to_microseconds() {
    let spec = ItimerSpec { interval: 0, value: 1_500_999 };
    let b = spec.encode_itimerval();
    assert_eq!(b[8..], [0, 0, 0, 0, 0, 0, 0x05, 0xdc]); // 1500 us
    assert_eq!(ItimerSpec::decode_itimerval(&b), Ok(ItimerSpec { interval: 0, value: 1_500_000 }));
    let mut bad = b;
    bad[12..].copy_from_slice(&1_000_000i32.to_be_bytes());
    assert_eq!(ItimerSpec::decode_itimerval(&bad), Err(Errno::EINVAL));
}

#[test]
fn alarm_rounds_like_linux() {
    assert_eq!(alarm_seconds(0), 0);
    assert_eq!(alarm_seconds(1), 0); // below a microsecond: getitimer shows 0 too
    assert_eq!(alarm_seconds(1_000), 1); // pending: never 0
    assert_eq!(alarm_seconds(4 * NSEC_PER_SEC + 499_999_999), 4);
    assert_eq!(alarm_seconds(4 * NSEC_PER_SEC + 500_000_000), 5);
    assert_eq!(alarm_ns(u32::MAX), i32::MAX as u64 * NSEC_PER_SEC);
}

#[test]
fn sigevent_rules() {
    assert_eq!(
        decode_sigevent([7, 34, SIGEV_SIGNAL, 0], |t| t == 5),
        Ok(Notify::Signal { signo: 34, value: 7, thread: None })
    );
    assert_eq!(decode_sigevent([7, 0, SIGEV_SIGNAL, 0], |t| t == 5), Err(Errno::EINVAL));
    assert_eq!(decode_sigevent([7, 65, SIGEV_SIGNAL, 0], |t| t == 5), Err(Errno::EINVAL));
    assert_eq!(decode_sigevent([0, 0, SIGEV_NONE, 0], |t| t == 5), Ok(Notify::None));
    assert_eq!(
        decode_sigevent([7, 10, SIGEV_THREAD, 0], |t| t == 5),
        Ok(Notify::Signal { signo: 10, value: 7, thread: None })
    );
    assert_eq!(decode_sigevent([0, 0, SIGEV_THREAD, 0], |t| t == 5), Err(Errno::EINVAL));
    assert_eq!(
        decode_sigevent([1, 10, SIGEV_THREAD_ID, 5], |t| t == 5),
        Ok(Notify::Signal { signo: 10, value: 1, thread: Some(5) })
    );
    assert_eq!(decode_sigevent([1, 10, SIGEV_THREAD_ID, 6], |t| t == 5), Err(Errno::EINVAL));
    assert_eq!(default_sigevent(3), Notify::Signal { signo: 14, value: 3, thread: None });
}

#[test]
fn forward_counts_missed_periods() {
    let mut e = 10;
    assert_eq!(forward(&mut e, 5, 4), 0);
    assert_eq!(e, 10);
    assert_eq!(forward(&mut e, 10, 4), 1); // exactly due: next one is after now
    assert_eq!(e, 14);
    assert_eq!(forward(&mut e, 25, 4), 3); // 14 -> 26
    assert_eq!(e, 26);
}

#[test]
fn real_timer_rearms_when_sigalrm_is_dequeued() {
    let mut t = RealTimer::default();
    let (old, arm) = t.set(ItimerSpec { interval: 10 * MS, value: 5 * MS }, 100 * MS);
    assert_eq!((old, arm), (ItimerSpec::default(), Some(105 * MS)));
    assert_eq!(t.get(101 * MS).value, 4 * MS);
    assert_eq!(t.get(200 * MS).value, NSEC_PER_USEC); // overdue, not yet fired
    t.expire();
    assert_eq!(t.get(106 * MS), ItimerSpec { interval: 10 * MS, value: 0 });
    // Delivered late: the missed periods are skipped, not queued.
    assert_eq!(t.dequeued(131 * MS), Some(135 * MS));
    assert_eq!(t.dequeued(131 * MS), None); // armed: a second SIGALRM changes nothing
    let (old, arm) = t.set(ItimerSpec::default(), 132 * MS);
    assert_eq!((old.value, arm, t.armed()), (3 * MS, None, false));
}

fn sig() -> Notify {
    Notify::Signal { signo: 34, value: 9, thread: None }
}

#[test]
fn one_shot_posix_timer() {
    let mut t = PosixTimer::new(sig());
    assert_eq!(t.set(ItimerSpec { interval: 0, value: 5 * MS }, false, 0).1, Some(5 * MS));
    assert_eq!(t.get(2 * MS).value, 3 * MS);
    let seq = t.expire();
    assert_eq!(t.get(6 * MS), ItimerSpec::default());
    assert_eq!(t.deliver(seq, 7 * MS), Some((0, None)));
    // Absolute: the deadline is the value itself.
    assert_eq!(t.set(ItimerSpec { interval: 0, value: 50 * MS }, true, 10 * MS).1, Some(50 * MS));
}

#[test]
fn periodic_overruns_are_counted_at_delivery() {
    let mut t = PosixTimer::new(sig());
    t.set(ItimerSpec { interval: MS, value: MS }, false, 0);
    let seq = t.expire(); // at 1 ms; the receiver is late until 5.5 ms
    assert_eq!(t.deliver(seq, 5 * MS + MS / 2), Some((4, Some(6 * MS))));
    assert_eq!(t.getoverrun(), 4);
    let seq = t.expire(); // at 6 ms, delivered at once
    assert_eq!(t.deliver(seq, 6 * MS + 1), Some((0, Some(7 * MS))));
    assert_eq!(t.getoverrun(), 0);
}

#[test]
fn a_signal_queued_before_set_is_stale() {
    let mut t = PosixTimer::new(sig());
    t.set(ItimerSpec { interval: MS, value: MS }, false, 0);
    let seq = t.expire();
    t.set(ItimerSpec { interval: 0, value: 10 * MS }, false, 2 * MS);
    assert_eq!(t.deliver(seq, 3 * MS), None);
}

#[test]
fn gettime_forwards_a_pending_periodic_timer() {
    let mut t = PosixTimer::new(sig());
    t.set(ItimerSpec { interval: 4 * MS, value: 4 * MS }, false, 0);
    let seq = t.expire(); // at 4 ms, signal blocked
    assert_eq!(t.get(9 * MS).value, 3 * MS); // next expiry at 12 ms
    assert_eq!(t.deliver(seq, 13 * MS), Some((2, Some(16 * MS))));
}

#[test]
fn sigev_none_is_never_armed_but_keeps_time() {
    let mut t = PosixTimer::new(Notify::None);
    assert_eq!(t.set(ItimerSpec { interval: 0, value: 5 * MS }, false, 0).1, None);
    assert_eq!(t.get(3 * MS).value, 2 * MS);
    assert_eq!(t.get(6 * MS).value, 0);
    t.set(ItimerSpec { interval: 2 * MS, value: 2 * MS }, false, 0);
    assert_eq!(t.get(5 * MS).value, MS);
}

#[test]
fn ids_count_up_and_skip_used_ones() {
    let mut a = IdAllocator::default();
    assert_eq!(a.alloc(|_| false), Some(0));
    assert_eq!(a.alloc(|id| id == 1), Some(2));
}

#[test]
fn a_timer_signal_carries_its_tag_until_delivery() {
    use crate::signal::info::SIGINFO_USER_WORDS;
    use crate::signal::{SigInfo, SigPending, SigSet, Signal};
    let rt = Signal::new(34).unwrap();
    let mut p = SigPending::new();
    p.enqueue(|| SigInfo::timer_queued(rt, 3, 9, 5), true, None).unwrap();
    // Expiring again while it waits: re-tag the queued one, queue nothing.
    let waiting = p.find_queued_mut(|i| i.timer_seq() != 0 && i.timer_id() == 3).unwrap();
    waiting.set_timer_seq(6);
    assert_eq!(p.count_queued(), 1);
    let mut node = p.dequeue(SigSet::EMPTY).unwrap();
    assert_eq!(node.info.timer_seq(), 6);
    node.info.for_delivery(4);
    assert_eq!(node.info.words(), &[34, 0, crate::abi::SI_TIMER as u32, 3, 4, 9, 0, 0]);
    // User space cannot forge the tag through rt_sigqueueinfo.
    let mut user = [0u32; SIGINFO_USER_WORDS];
    user[2] = crate::abi::SI_TIMER as u32;
    user[6] = 6;
    assert_eq!(SigInfo::from_user(rt, &user).unwrap().timer_seq(), 0);
}

#[test]
fn split_ns_is_exact() {
    let mut n: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut cases = alloc::vec![
        0,
        1,
        NSEC_PER_SEC - 1,
        NSEC_PER_SEC,
        NSEC_PER_SEC + 1,
        u64::MAX,
        u64::MAX - NSEC_PER_SEC,
        KTIME_MAX
    ];
    for k in 0..64 {
        cases.extend([(1u64 << k) - 1, 1u64 << k, (1u64 << k) + 1]);
    }
    for _ in 0..200_000 {
        n ^= n << 13;
        n ^= n >> 7;
        n ^= n << 17;
        cases.extend([n, n >> (n % 64), (n % 100_000) * NSEC_PER_SEC + (n >> 40) % NSEC_PER_SEC]);
    }
    for ns in cases {
        assert_eq!(split_ns(ns), (ns / NSEC_PER_SEC, (ns % NSEC_PER_SEC) as u32), "{ns}");
    }
}

#[test]
fn cpu_timer_counts_down_with_slack_and_rearms() {
    let mut t = CpuTimer::default();
    let slack = 10 * MS;
    // Armed at clock 100 ms for 50 ms every 50 ms: due at 160 ms (one
    // sampling interval of slack, as Linux adds a tick).
    let old = t.set(ItimerSpec { interval: 50 * MS, value: 50 * MS }, 100 * MS, slack);
    assert_eq!(old, ItimerSpec::default());
    assert_eq!(t.get(100 * MS, slack), ItimerSpec { interval: 50 * MS, value: 60 * MS });
    assert!(!t.check(159 * MS));
    assert_eq!(t.get(159 * MS, slack).value, MS);
    assert!(t.check(165 * MS));
    // Moves on by one period from the old expiry, not from now.
    assert_eq!(t.get(165 * MS, slack).value, 45 * MS);
    // Far behind: one expiry per sample, each one period on.
    assert!(t.check(400 * MS));
    assert!(t.check(400 * MS));
    assert_eq!(t.get(400 * MS, slack).value, slack, "due but unseen reads one slack, not 0");
    // Disarming returns what was left.
    let old = t.set(ItimerSpec::default(), 400 * MS, slack);
    assert_eq!(old, ItimerSpec { interval: 50 * MS, value: slack });
    assert!(!t.check(u64::MAX));
    assert_eq!(t.get(0, slack), ItimerSpec::default());
}

#[test]
fn cpu_timer_one_shot_disarms_after_expiry() {
    let mut t = CpuTimer::default();
    t.set(ItimerSpec { interval: 0, value: 5 * MS }, 0, MS);
    assert!(t.check(6 * MS));
    assert!(!t.check(100 * MS));
    assert_eq!(t.get(100 * MS, MS), ItimerSpec::default());
}

#[test]
fn cpu_account_charges_samples_and_reaps() {
    let mut a = CpuAccount::default();
    a.virt.set(ItimerSpec { interval: 0, value: 20 * MS }, 0, 0);
    a.prof.set(ItimerSpec { interval: 0, value: 20 * MS }, 0, 0);
    // System time moves only ITIMER_PROF's clock.
    let e = a.sample(15 * MS, false);
    assert!(!e.virt && !e.prof);
    let e = a.sample(10 * MS, true);
    assert!(!e.virt && e.prof);
    // A switch-out charge does not check; the next sample does.
    a.charge(10 * MS, true);
    assert!(a.sample(0, true).virt);
    assert_eq!(a.own, CpuTimes { utime: 20 * MS, stime: 15 * MS, minflt: 0 });

    let mut parent = CpuAccount::default();
    let mut grandchild = CpuAccount::default();
    grandchild.charge(3 * MS, true);
    a.reap(&grandchild);
    parent.reap(&a);
    assert_eq!(parent.children, CpuTimes { utime: 23 * MS, stime: 15 * MS, minflt: 0 });
    assert_eq!(parent.own, CpuTimes::default());
}

#[test]
fn tms_and_rusage_layouts() {
    let a = CpuAccount {
        own: CpuTimes { utime: 1_234_567_890, stime: 19_999_999, minflt: 258 },
        children: CpuTimes { utime: 30 * MS, stime: 0, minflt: 0 },
        ..CpuAccount::default()
    };
    let b = cputime::encode_tms(&a);
    assert_eq!(b, [0, 0, 0, 123, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0]);
    let r = cputime::encode_rusage(a.own);
    assert_eq!(r[..16], [0, 0, 0, 1, 0, 3, 0x94, 0x47, 0, 0, 0, 0, 0, 0, 0x4e, 0x1f]);
    assert_eq!(r[32..36], [0, 0, 1, 2]);
    assert!(r[16..32].iter().chain(&r[36..]).all(|&x| x == 0));
}

#[test]
fn scale_32_32_keeps_the_middle_bits() {
    let f = (1_000_000_000u64 << 32) / 16_600_000; // ns per 16.6 MHz tick
    assert_eq!(scale_32_32(16_600_000, f), 999_999_999);
    assert_eq!(scale_32_32(0, f), 0);
    let back = (16_600_000u64 << 32).div_ceil(1_000_000_000);
    assert_eq!(scale_32_32(1_000_000_000, back), 16_600_000);
}

#[test]
fn scale_since_32_32_is_scale_32_32_of_the_interval() {
    // QEMU's 16.6 MHz (g3beige, and qemu-e300, the same machine), the
    // MPC885ADS's 3.125 MHz, an MPC832x's bus/4, other rates, a 1 GHz one
    // (factor below 1), and a slow one (a large integer part).
    let rates =
        [16_600_000u64, 3_125_000, 33_333_333, 25_000_000, 100_000_000, 1_000_000_000, 32_768];
    for hz in rates {
        let f = (1_000_000_000u64 << 32) / hz;
        let mut last = 0u64;
        let mut step = 1u64;
        // Starts of every magnitude, near a high-word boundary or not, and
        // intervals short, crossing the boundary, long, or negative.
        while last < 1 << 44 {
            let edge = last | 0xffff_ffff;
            for a in [last, edge - 3, edge, edge + 1] {
                for d in [0u64, 1, 7, 1 << 20, 0xffff_ffff, 1 << 32, 1 << 36] {
                    for (l, n) in [(a, a + d), (a + d, a)] {
                        let want = scale_32_32(n.saturating_sub(l), f);
                        assert_eq!(scale_since_32_32(l, n, f), want, "{hz} Hz, {l} to {n}");
                    }
                }
            }
            last += step;
            step = step * 3 / 2 + 1;
        }
        // The idle sentinel: nothing since it.
        assert_eq!(scale_since_32_32(u64::MAX, 12345, f), 0);
    }
}

#[test]
fn cpu_sleep_on_own_thread_clock_is_refused_as_linux() {
    let id = |pid, thread| CpuClockId { pid, thread, kind: CpuClockKind::Sched };
    // CLOCK_THREAD_CPUTIME_ID and thread 5's clock named by thread 5.
    assert!(!cputime::may_sleep_on(id(0, true), 5));
    assert!(!cputime::may_sleep_on(id(5, true), 5));
    // Another thread's clock, the own process's, another process's.
    assert!(cputime::may_sleep_on(id(6, true), 5));
    assert!(cputime::may_sleep_on(id(0, false), 5));
    assert!(cputime::may_sleep_on(id(9, false), 5));
}

#[test]
fn cpu_sleep_target_and_time_left() {
    let rel = CpuSleep::new(100, false, 1000);
    assert_eq!(rel.target, 1100);
    assert!(!rel.reached(1099));
    assert!(rel.reached(1100));
    assert_eq!(rel.left(1030), 70);
    assert_eq!(rel.left(2000), 0);
    // Absolute: the reading asked for, done at once if already passed.
    let abs = CpuSleep::new(500, true, 1000);
    assert!(abs.reached(1000));
    assert_eq!(abs.left(1000), 0);
    // A huge relative request saturates instead of wrapping into the past.
    assert_eq!(CpuSleep::new(u64::MAX, false, 1).target, u64::MAX);
}

#[test]
fn cpu_sleepers_wake_at_the_first_sample_past_the_earliest() {
    let mut s = CpuSleepers::default();
    // Nobody sleeps: no sample is due.
    assert!(!s.due(u64::MAX));
    s.wake_at(300);
    s.wake_at(200);
    s.wake_at(400);
    assert!(!s.due(199));
    assert!(s.due(210));
    // Woken: forgotten until a sleeper registers again.
    assert!(!s.due(500));
    s.wake_at(400);
    assert!(s.due(400));
}

mod timerfd {
    use crate::time::timerfd::*;
    use crate::time::{
        ItimerSpec, CLOCK_BOOTTIME, CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID, CLOCK_REALTIME,
    };

    fn spec(value: u64, interval: u64) -> ItimerSpec {
        ItimerSpec { value, interval }
    }

    #[test]
    fn create_and_settime_flags() {
        assert!(check_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC).is_ok());
        assert!(check_create(CLOCK_REALTIME, 0).is_ok());
        assert!(check_create(CLOCK_BOOTTIME, 0).is_ok());
        assert!(check_create(CLOCK_PROCESS_CPUTIME_ID, 0).is_err());
        assert!(check_create(CLOCK_MONOTONIC, 1).is_err());
        assert_eq!(check_settime(0, true), Ok((false, false)));
        assert_eq!(check_settime(TFD_TIMER_ABSTIME, true), Ok((true, false)));
        let both = TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET;
        assert_eq!(check_settime(both, true), Ok((true, true)));
        assert_eq!(check_settime(both, false), Ok((true, false)));
        assert_eq!(check_settime(TFD_TIMER_CANCEL_ON_SET, true), Ok((false, false)));
        assert!(check_settime(4, true).is_err());
    }

    #[test]
    fn one_shot_counts_once_and_disarms() {
        let mut t = TimerFd::default();
        assert_eq!(t.set(spec(100, 0), false, 1000), spec(0, 0));
        assert_eq!(t.deadline(1000), Some(1100));
        assert_eq!(t.ticks(1099), 0);
        assert_eq!(t.read(1099), 0);
        assert_eq!(t.get(1050), spec(50, 0));
        assert_eq!(t.ticks(5000), 1);
        assert_eq!(t.get(5000), spec(0, 0));
        assert_eq!(t.read(5000), 1);
        assert_eq!(t.read(9000), 0);
        assert_eq!(t.deadline(9000), None);
    }

    #[test]
    fn periodic_counts_missed_periods() {
        let mut t = TimerFd::default();
        t.set(spec(100, 10), false, 0);
        assert_eq!(t.ticks(100), 1);
        assert_eq!(t.ticks(135), 4); // 100, 110, 120, 130
        assert_eq!(t.get(135), spec(5, 10)); // next at 140
        assert_eq!(t.read(135), 4);
        assert_eq!(t.deadline(135), Some(140));
        assert_eq!(t.ticks(139), 0);
        assert_eq!(t.read(140), 1);
        assert_eq!(t.deadline(140), Some(150));
    }

    #[test]
    fn absolute_past_fires_at_once_and_set_forgets() {
        let mut t = TimerFd::default();
        t.set(spec(50, 0), true, 1000);
        assert_eq!(t.ticks(1000), 1);
        assert_eq!(t.deadline(1000), None);
        // A new setting drops the unread expiration; a zero value disarms
        // but keeps the interval, as Linux's timerfd_gettime shows it.
        assert_eq!(t.set(spec(0, 7), false, 1000), spec(0, 0));
        assert_eq!(t.ticks(2000), 0);
        assert_eq!(t.get(2000), spec(0, 7));
    }

    #[test]
    fn absolute_before_boot_counts_the_periods_before_it() {
        let mut t = TimerFd::default();
        // First expiry 3.5 s before boot, every second: -3.5, -2.5, -1.5,
        // -0.5 have passed at boot, the next is at 0.5 s.
        let s = 1_000_000_000;
        t.set_before_boot(s, 3 * s + s / 2, 100);
        assert_eq!(t.ticks(100), 4);
        assert_eq!(t.deadline(100), Some(s / 2));
        assert_eq!(t.get(100), spec(s / 2 - 100, s));
        assert_eq!(t.read(100), 4);
        assert_eq!(t.ticks(s / 2), 1);
        // One-shot: expired once.
        t.set_before_boot(0, 5, 100);
        assert_eq!(t.read(100), 1);
        assert_eq!(t.read(200), 0);
    }
}
