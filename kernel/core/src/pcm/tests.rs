//! Host tests of the PCM logic: refinement, the state machine and its
//! wrong-state errors, the DAC clock (xrun, drain, pause), SYNC_PTR and the
//! byte encodings.

use super::uapi::*;
use super::*;

const MS: u64 = 1_000_000;

/// hw_params asking for `format`, `channels`, `rate`, `period` frames x `periods`.
fn ask(format: u32, channels: u32, rate: u32, period: u32, periods: u32) -> HwParams {
    let mut p = HwParams::any();
    p.masks[PARAM_FORMAT] = Mask::of(&[format]);
    *p.interval_mut(PARAM_CHANNELS) = Interval::new(channels, channels);
    *p.interval_mut(PARAM_RATE) = Interval::new(rate, rate);
    *p.interval_mut(PARAM_PERIOD_SIZE) = Interval::new(period, period);
    *p.interval_mut(PARAM_PERIODS) = Interval::new(periods, periods);
    p
}

/// A stream set up for 48 kHz stereo S16_LE, 1024-frame periods x 4.
fn setup() -> Stream {
    let mut s = Stream::new();
    hw_params(&mut s, &mut ask(FORMAT_S16_LE, 2, 48000, 1024, 4)).unwrap();
    s
}

/// HW_PARAMS as the glue runs it: choose, (copy back,) commit.
fn hw_params(s: &mut Stream, p: &mut HwParams) -> Result<HwConfig, PcmError> {
    let cfg = s.choose_hw_params(p)?;
    s.set_hw_config(cfg);
    Ok(cfg)
}

/// SW_PARAMS as the glue runs it: check, (copy back,) apply.
fn sw_params(s: &mut Stream, p: &mut SwParams, now: u64) -> Result<(), PcmError> {
    s.check_sw_params(p)?;
    s.apply_sw_params(p, now)
}

/// SYNC_PTR as the glue runs it: answer, (copy out,) commit.
fn sync_ptr(s: &mut Stream, input: SyncPtrIn, now: u64) -> Result<SyncPtrOut, PcmError> {
    let out = s.sync_ptr(input, || now)?;
    s.sync_ptr_commit(&out);
    Ok(out)
}

/// STATUS as the glue runs it: report, (copy out,) clear avail_max.
fn status(s: &mut Stream, data: u32, now: u64) -> Status {
    let st = s.status(data, now);
    s.clear_avail_max();
    st
}

/// The bytes the stores of `out` leave in `buf`.
fn store(out: &SyncPtrOut, buf: &mut [u8], l: &SyncPtrLayout) {
    out.stores(l, |off, v| put_u32(buf, off, v));
}

fn count_stores(out: &SyncPtrOut, l: &SyncPtrLayout) -> usize {
    let mut n = 0;
    out.stores(l, |_, _| n += 1);
    n
}

fn write(s: &mut Stream, n: u32, now: u64) -> Result<u32, PcmError> {
    let n = s.reserve_write(n, now)?;
    s.commit_write(n, now);
    Ok(n)
}

#[test]
fn errno_values_and_ioctl_decoding() {
    let e = [
        PcmError::Inval,
        PcmError::BadFd,
        PcmError::Pipe,
        PcmError::Again,
        PcmError::NoTty,
        PcmError::Busy,
    ];
    let n: [i32; 6] = e.map(|e| e.errno());
    assert_eq!(n, [22, 77, 32, 11, 25, 16]);
    assert_eq!(PcmIoctl::from_raw(0xc084_4123), Ok(PcmIoctl::SyncPtr32));
    assert_eq!(PcmIoctl::from_raw(0xc088_4123), Ok(PcmIoctl::SyncPtr64));
    assert_eq!(PcmIoctl::from_raw(0xc25c_4111), Ok(PcmIoctl::HwParams));
    assert_eq!(PcmIoctl::from_raw(0x2000_4142).map(PcmIoctl::raw), Ok(0x2000_4142));
    assert_eq!(PcmIoctl::from_raw(0x5401), Err(PcmError::NoTty)); // TCGETS
}

#[test]
fn refine_any_reports_the_device() {
    let mut p = HwParams::any();
    Stream::new().hw_refine(&mut p).unwrap();
    assert_eq!(p.masks[PARAM_ACCESS], Mask::of(&[ACCESS_RW_INTERLEAVED]));
    assert_eq!(p.masks[PARAM_FORMAT], Mask::of(&[FORMAT_S16_LE, FORMAT_S16_BE, FORMAT_S32_BE]));
    let iv = |k| *p.interval(k);
    assert_eq!((iv(PARAM_CHANNELS).min, iv(PARAM_CHANNELS).max), (1, 2));
    assert_eq!((iv(PARAM_RATE).min, iv(PARAM_RATE).max), (8000, 48000));
    assert_eq!((iv(PARAM_SAMPLE_BITS).min, iv(PARAM_SAMPLE_BITS).max), (16, 32));
    assert_eq!((iv(PARAM_FRAME_BITS).min, iv(PARAM_FRAME_BITS).max), (16, 64));
    assert_eq!((iv(PARAM_PERIODS).min, iv(PARAM_PERIODS).max), (2, 256));
    assert_eq!(iv(PARAM_BUFFER_BYTES).max, 128 * 1024);
    // 128 KiB of 2-byte mono frames at most; at least 2 periods of 64 bytes
    // of 8-byte frames.
    assert_eq!((iv(PARAM_BUFFER_SIZE).min, iv(PARAM_BUFFER_SIZE).max), (16, 65536));
    assert_eq!(p.rmask, 0);
    assert!(p.cmask & (1 << PARAM_FORMAT) != 0 && p.cmask & (1 << PARAM_BUFFER_SIZE) != 0);
    assert_eq!(p.info, refine::DEVICE_INFO);
    assert_eq!((p.msbits, p.rate_den), (0, 0), "not single yet");
}

#[test]
fn refine_derives_dependent_intervals() {
    let mut p = ask(FORMAT_S16_LE, 2, 48000, 1024, 4);
    Stream::new().hw_refine(&mut p).unwrap();
    let single = |k| {
        let i = p.interval(k);
        assert!(i.is_single(), "param {k} = {i:?}");
        i.value()
    };
    assert_eq!(single(PARAM_SAMPLE_BITS), 16);
    assert_eq!(single(PARAM_FRAME_BITS), 32);
    assert_eq!(single(PARAM_PERIOD_BYTES), 4096);
    assert_eq!(single(PARAM_BUFFER_SIZE), 4096);
    assert_eq!(single(PARAM_BUFFER_BYTES), 16384);
    // 1024 / 48000 s = 21333.3 us: an open interval (21333, 21334).
    let pt = p.interval(PARAM_PERIOD_TIME);
    assert_eq!((pt.min, pt.max, pt.openmin, pt.openmax), (21333, 21334, true, true));
    assert_eq!((p.msbits, p.rate_num, p.rate_den), (16, 48000, 1));
}

#[test]
fn refine_rejects_what_the_device_cannot_do() {
    for p in [
        ask(FORMAT_S16_LE, 2, 96000, 1024, 4),  // rate too high
        ask(FORMAT_S16_LE, 6, 48000, 1024, 4),  // too many channels
        ask(FORMAT_S16_LE, 2, 48000, 1024, 1),  // too few periods
        ask(FORMAT_S16_LE, 2, 48000, 16384, 4), // period of 64 KiB
        ask(0, 2, 48000, 1024, 4),              // S8 is not offered
    ] {
        let mut p = p;
        assert_eq!(Stream::new().hw_refine(&mut p), Err(PcmError::Inval));
    }
    let mut p = HwParams::any();
    *p.interval_mut(PARAM_RATE) = Interval::new(100, 50); // min > max
    assert_eq!(Stream::new().hw_refine(&mut p), Err(PcmError::Inval));
}

#[test]
fn rmask_limits_what_is_constrained() {
    // Only FORMAT requested: the rate interval is neither checked nor changed.
    let mut p = HwParams::any();
    *p.interval_mut(PARAM_RATE) = Interval::new(96000, 96000);
    p.rmask = 1 << PARAM_FORMAT;
    Stream::new().hw_refine(&mut p).unwrap();
    assert_eq!(p.interval(PARAM_RATE).min, 96000);
    assert_eq!(p.cmask & (1 << PARAM_RATE), 0);
    assert_ne!(p.cmask & (1 << PARAM_FORMAT), 0);
    // SAMPLE_BITS follows FORMAT through the rule even though not requested.
    assert_eq!(p.interval(PARAM_SAMPLE_BITS).min, 16);
}

#[test]
fn hw_params_chooses_in_alsa_order() {
    let mut s = Stream::new();
    let cfg = hw_params(&mut s, &mut HwParams::any()).unwrap();
    // First format, fewest channels, lowest rate, shortest period, biggest buffer.
    assert_eq!((cfg.format, cfg.channels, cfg.rate), (FORMAT_S16_LE, 1, 8000));
    assert_eq!(cfg.period_size, 32, "64 bytes of 2-byte frames");
    assert_eq!(cfg.periods, 256);
    assert_eq!(cfg.buffer_size, 8192);
    assert_eq!(s.state(), State::Setup);

    let mut p = ask(FORMAT_S32_BE, 2, 44100, 441, 10);
    let cfg = hw_params(&mut Stream::new(), &mut p).unwrap();
    assert_eq!((cfg.frame_bits, cfg.buffer_size, cfg.frame_bytes()), (64, 4410, 8));
    for k in PARAM_FIRST_INTERVAL..=PARAM_LAST_INTERVAL {
        assert!(p.interval(k).is_single(), "param {k} not fixed: {:?}", p.interval(k));
    }
    assert!(p.masks.iter().all(|m| m.is_single()));
}

#[test]
fn hw_params_bytes_round_trip_with_big_endian_bit_fields() {
    let mut p = ask(FORMAT_S16_BE, 1, 8000, 64, 2);
    p.interval_mut(PARAM_PERIOD_TIME).openmin = true;
    let mut buf = [0xa5u8; hw_params::SIZE];
    p.write_to(&mut buf);
    assert_eq!(HwParams::read_from(&buf), p);
    let base = hw_params::INTERVALS + (PARAM_PERIOD_TIME - PARAM_FIRST_INTERVAL) * 12;
    assert_eq!(&buf[base + 8..base + 12], &[0x80, 0, 0, 0], "openmin is the top bit");
    assert_eq!(buf[hw_params::FIFO_SIZE + 4], 0xa5, "reserved bytes untouched");
    // FORMAT mask word 0 has bit 3 (S16_BE) set, stored big-endian.
    assert_eq!(get_u32(&buf, hw_params::MASKS + hw_params::MASK_SIZE), 1 << 3);
}

#[test]
fn failed_hw_params_returns_to_open() {
    let mut s = setup();
    assert_eq!(hw_params(&mut s, &mut ask(FORMAT_S16_LE, 2, 96000, 1024, 4)), Err(PcmError::Inval));
    assert_eq!(s.state(), State::Open);
    assert_eq!(s.config(), None);
}

#[test]
fn boundary_is_largest_power_of_two_multiple() {
    assert_eq!(stream::boundary_for(4096), 0x4000_0000);
    assert_eq!(stream::boundary_for(4410), 4410 << 18);
    assert!(stream::boundary_for(4410) * 2 > 0x7fff_ffff - 4410);
    assert_eq!(setup().boundary(), 0x4000_0000);
    assert_eq!(Stream::new().boundary(), 0);
}

#[test]
fn wrong_state_errors_follow_linux() {
    let mut s = Stream::new();
    let mut sw = SwParams { avail_min: 1, ..SwParams::default() };
    assert_eq!(sw_params(&mut s, &mut sw, 0), Err(PcmError::BadFd));
    assert_eq!(s.prepare(0), Err(PcmError::BadFd));
    assert_eq!(s.start(0), Err(PcmError::BadFd));
    assert_eq!(s.drop(0), Err(PcmError::BadFd));
    assert_eq!(s.drain(0), Err(PcmError::BadFd));
    assert_eq!(s.hw_free(), Err(PcmError::BadFd));
    assert_eq!(s.hwsync(0), Err(PcmError::BadFd));
    assert_eq!(s.delay(0), Err(PcmError::BadFd));
    assert_eq!(s.reserve_write(0, 0), Err(PcmError::BadFd));
    assert_eq!(s.reset(0), Err(PcmError::BadFd));
    assert_eq!(s.pause(true, 0), Err(PcmError::BadFd));

    let mut s = setup();
    assert_eq!(s.start(0), Err(PcmError::BadFd), "START needs PREPARED");
    assert_eq!(s.reserve_write(16, 0), Err(PcmError::BadFd), "write in SETUP");
    assert_eq!(s.reserve_write(0, 0), Ok(0), "an empty write is fine from SETUP on");
    assert_eq!(s.hwsync(0), Err(PcmError::BadFd));
    s.prepare(0).unwrap();
    assert_eq!(s.start(0), Err(PcmError::Pipe), "nothing queued");
    assert_eq!(s.pause(false, 0), Err(PcmError::BadFd));
    write(&mut s, 100, 0).unwrap();
    assert_eq!(s.state(), State::Running, "start_threshold 1 starts at once");
    assert_eq!(s.prepare(0), Err(PcmError::Busy));
    assert_eq!(hw_params(&mut s, &mut HwParams::any()), Err(PcmError::BadFd));
    assert_eq!(s.hw_free(), Err(PcmError::BadFd));
    s.drop(MS).unwrap();
    assert_eq!(s.state(), State::Setup);
    assert_eq!(s.hw_free(), Ok(()));
    assert_eq!(s.state(), State::Open);
}

#[test]
fn dac_runs_at_the_configured_rate() {
    let mut s = setup();
    s.prepare(0).unwrap();
    let t0 = 5 * MS;
    assert_eq!(write(&mut s, 4096, t0), Ok(4096));
    assert_eq!(s.state(), State::Running);
    assert_eq!(s.reserve_write(1, t0), Err(PcmError::Again), "buffer full");
    s.update(t0 + MS).unwrap();
    assert_eq!(s.hw_ptr(), 48, "48000 Hz for 1 ms");
    assert_eq!(s.avail(), 48);
    assert_eq!(s.delay(t0 + 10 * MS), Ok(4096 - 480));
    // 1/48000 s = 20833.3 ns: frame 1 is complete only after 20834 ns.
    assert_eq!(s.wake_time_ns(480 + 1), Some(t0 + 10 * MS + 20834));
    assert_eq!(write(&mut s, 1000, t0 + 10 * MS), Ok(480));
    assert_eq!(s.appl_ptr(), 4096 + 480);
}

#[test]
fn underrun_stops_at_the_exact_frame() {
    let mut s = setup();
    s.prepare(0).unwrap();
    write(&mut s, 480, 0).unwrap(); // 10 ms of audio
    assert_eq!(s.update(25 * MS), Err(PcmError::Pipe));
    assert_eq!(s.state(), State::Xrun);
    assert_eq!(s.hw_ptr(), 480, "the DAC stops where the data ran out");
    let st = status(&mut s, 0, 30 * MS);
    assert_eq!(st.trigger_tstamp, (0, 10_000_000), "stamped when it happened");
    assert_eq!((st.state, st.delay), (State::Xrun as u32, 0));
    assert_eq!(s.reserve_write(10, 30 * MS), Err(PcmError::Pipe));
    assert_eq!(s.hwsync(30 * MS), Err(PcmError::Pipe));
    s.prepare(30 * MS).unwrap();
    assert_eq!((s.state(), s.hw_ptr(), s.appl_ptr()), (State::Prepared, 0, 0));
}

#[test]
fn free_running_stream_never_underruns() {
    let mut s = setup();
    let mut sw = SwParams {
        avail_min: 1,
        start_threshold: 1,
        stop_threshold: u32::MAX,
        ..SwParams::default()
    };
    sw_params(&mut s, &mut sw, 0).unwrap();
    assert_eq!(sw.boundary, 0x4000_0000);
    s.prepare(0).unwrap();
    write(&mut s, 48, 0).unwrap();
    s.update(1000 * MS).unwrap();
    assert_eq!((s.state(), s.hw_ptr()), (State::Running, 48000));
    // appl_ptr lags hw_ptr; moving it toward hw_ptr is allowed.
    s.check_appl_ptr(40000).unwrap();
}

#[test]
fn drain_plays_out_then_sets_up() {
    let mut s = setup();
    s.prepare(0).unwrap();
    let mut sw = SwParams {
        avail_min: 1024,
        start_threshold: 4096,
        stop_threshold: 4096,
        ..SwParams::default()
    };
    sw_params(&mut s, &mut sw, 0).unwrap();
    write(&mut s, 960, 0).unwrap();
    assert_eq!(s.state(), State::Prepared, "below start_threshold");
    s.drain(2 * MS).unwrap();
    assert_eq!(s.state(), State::Draining, "drain starts a prepared stream");
    assert_eq!(s.reserve_write(1, 3 * MS), Err(PcmError::BadFd));
    assert_eq!(s.wake_time_ns(4096), Some(22 * MS));
    assert_eq!(s.update(21 * MS), Ok(()));
    assert_eq!(s.update(22 * MS), Err(PcmError::Pipe), "drain done");
    assert_eq!((s.state(), s.hw_ptr()), (State::Setup, 960));
    // Draining an empty prepared stream, or an xrun, ends at once.
    s.prepare(30 * MS).unwrap();
    s.drain(30 * MS).unwrap();
    assert_eq!(s.state(), State::Setup);
}

#[test]
fn pause_freezes_the_pointer() {
    let mut s = setup();
    s.prepare(0).unwrap();
    write(&mut s, 4096, 0).unwrap();
    s.pause(true, MS).unwrap();
    assert_eq!((s.state(), s.hw_ptr()), (State::Paused, 48));
    s.update(50 * MS).unwrap();
    assert_eq!(s.hw_ptr(), 48);
    s.pause(false, 50 * MS).unwrap();
    s.update(51 * MS).unwrap();
    assert_eq!(s.hw_ptr(), 96);
    s.reset(51 * MS).unwrap();
    assert_eq!((s.hw_ptr(), s.appl_ptr()), (96, 96));
    assert_eq!(s.xrun(52 * MS), Ok(()));
    assert_eq!(s.state(), State::Xrun);
}

#[test]
fn sw_params_validation() {
    let mut s = setup();
    let ok = SwParams { avail_min: 1, ..SwParams::default() };
    for bad in [
        SwParams { avail_min: 0, ..ok },
        SwParams { tstamp_mode: 2, ..ok },
        SwParams { proto: PCM_VERSION, tstamp_type: 3, ..ok },
        SwParams { silence_threshold: 5000, ..ok },
        SwParams { silence_size: 10, silence_threshold: 5, ..ok },
        SwParams { silence_size: u32::MAX, silence_threshold: 1, ..ok },
    ] {
        let mut p = bad;
        assert_eq!(sw_params(&mut s, &mut p, 0), Err(PcmError::Inval), "{bad:?}");
        assert_eq!(p.boundary, 0, "boundary only filled on success");
    }
    let mut p = ok;
    sw_params(&mut s, &mut p, 0).unwrap();
    let mut buf = [0u8; sw_params::SIZE];
    p.write_to(&mut buf);
    assert_eq!(get_u32(&buf, sw_params::BOUNDARY), 0x4000_0000);
    assert_eq!(SwParams::read_from(&buf), p);
}

#[test]
fn sync_ptr_in_open_state() {
    let mut s = Stream::new();
    let out = sync_ptr(&mut s, SyncPtrIn { flags: 0, appl_ptr: 0, avail_min: 7 }, 0).unwrap();
    assert_eq!(out, SyncPtrOut { avail_min: 7, ..SyncPtrOut::default() });
    assert_eq!(
        sync_ptr(&mut s, SyncPtrIn { flags: 0, appl_ptr: 5, avail_min: 1 }, 0),
        Err(PcmError::Inval)
    );
    assert_eq!(
        sync_ptr(&mut s, SyncPtrIn { flags: SYNC_PTR_HWSYNC, ..SyncPtrIn::default() }, 0),
        Err(PcmError::BadFd)
    );
    let q = SyncPtrIn { flags: SYNC_PTR_APPL | SYNC_PTR_AVAIL_MIN, appl_ptr: 99, avail_min: 99 };
    assert_eq!(sync_ptr(&mut s, q, 0).unwrap().avail_min, 7, "kept from the first call");
}

#[test]
fn sync_ptr_drives_a_stream() {
    let mut s = setup();
    s.prepare(0).unwrap();
    let mut sw = SwParams {
        avail_min: 1024,
        start_threshold: 1,
        stop_threshold: 4096,
        tstamp_mode: 1,
        ..SwParams::default()
    };
    sw_params(&mut s, &mut sw, 0).unwrap();
    // Like alsa-lib's mmap path: publish appl_ptr, then START.
    let out = sync_ptr(&mut s, SyncPtrIn { flags: 0, appl_ptr: 2048, avail_min: 512 }, MS).unwrap();
    assert_eq!(
        (out.state, out.appl_ptr, out.avail_min, out.hw_ptr),
        (State::Prepared as u32, 2048, 512, 0)
    );
    s.start(2 * MS).unwrap();
    let q = SyncPtrIn {
        flags: SYNC_PTR_HWSYNC | SYNC_PTR_APPL | SYNC_PTR_AVAIL_MIN,
        appl_ptr: 0,
        avail_min: 0,
    };
    let out = sync_ptr(&mut s, q, 12 * MS).unwrap();
    assert_eq!(
        (out.state, out.hw_ptr, out.appl_ptr, out.avail_min),
        (State::Running as u32, 480, 2048, 512)
    );
    assert_eq!((out.tstamp_sec, out.tstamp_nsec), (0, 12_000_000));
    assert_eq!((out.audio_tstamp_sec, out.audio_tstamp_nsec), (0, 10_000_000));
    // Without HWSYNC the pointer is not moved.
    let out =
        sync_ptr(&mut s, SyncPtrIn { flags: SYNC_PTR_APPL, appl_ptr: 0, avail_min: 512 }, 20 * MS)
            .unwrap();
    assert_eq!(out.hw_ptr, 480);

    // appl_ptr beyond hw_ptr + buffer_size, or >= boundary: EINVAL, nothing changes.
    let before = (s.appl_ptr(), s.hw_ptr(), s.state());
    for bad in [480 + 4096 + 1, 0x4000_0000] {
        let r = sync_ptr(&mut s, SyncPtrIn { flags: 0, appl_ptr: bad, avail_min: 1 }, 20 * MS);
        assert_eq!(r, Err(PcmError::Inval));
        assert_eq!((s.appl_ptr(), s.hw_ptr(), s.state()), before);
        let q = SyncPtrIn { flags: SYNC_PTR_APPL | SYNC_PTR_AVAIL_MIN, ..SyncPtrIn::default() };
        assert_eq!(sync_ptr(&mut s, q, 20 * MS).unwrap().avail_min, 512, "avail_min untouched");
    }
    sync_ptr(&mut s, SyncPtrIn { flags: 0, appl_ptr: 480 + 4096, avail_min: 512 }, 20 * MS)
        .unwrap();

    // An underrun seen through HWSYNC: EPIPE, then XRUN is reported.
    s.drop(20 * MS).unwrap();
    s.prepare(20 * MS).unwrap();
    sync_ptr(&mut s, SyncPtrIn { flags: 0, appl_ptr: 48, avail_min: 1 }, 20 * MS).unwrap();
    s.start(20 * MS).unwrap();
    let hw = SyncPtrIn {
        flags: SYNC_PTR_HWSYNC | SYNC_PTR_APPL | SYNC_PTR_AVAIL_MIN,
        ..SyncPtrIn::default()
    };
    assert_eq!(sync_ptr(&mut s, hw, 30 * MS), Err(PcmError::Pipe));
    assert_eq!(sync_ptr(&mut s, hw, 31 * MS), Err(PcmError::Pipe));
    let out =
        sync_ptr(&mut s, SyncPtrIn { flags: SYNC_PTR_APPL | SYNC_PTR_AVAIL_MIN, ..hw }, 31 * MS)
            .unwrap();
    assert_eq!((out.state, out.hw_ptr), (State::Xrun as u32, 48));
}

/// A SYNC_PTR that asks for the stream's appl_ptr and avail_min (both
/// flags set) leaves the stream as it was, in every state and across a
/// wrap of the pointers: `sync_ptr_commit` stores what the answer reported
/// without testing the flags. And the pointers it reports are the stream's
/// as they are, where Linux reports them modulo the boundary: they are
/// below it (zero in OPEN, where it is 0), `Stream`'s invariant.
#[test]
fn sync_ptr_reading_the_stream_changes_nothing() {
    let q = SyncPtrIn { flags: SYNC_PTR_APPL | SYNC_PTR_AVAIL_MIN, appl_ptr: 7, avail_min: 7 };
    let unchanged = |s: &mut Stream, now: u64, when: &str| {
        let before = alloc::format!("{s:?}");
        let (hw, appl) = (s.hw_ptr, s.appl_ptr);
        let linux = |p: u32| p % if s.boundary == 0 { 0x7fff_ffff } else { s.boundary };
        assert!(s.boundary != 0 || (hw, appl) == (0, 0), "{when}: zero without a boundary");
        assert_eq!((linux(hw), linux(appl)), (hw, appl), "{when}: below the boundary");
        let out = sync_ptr(s, q, now).unwrap();
        assert_eq!((out.hw_ptr, out.appl_ptr), (hw, appl), "{when}: reported as they are");
        assert_eq!(alloc::format!("{s:?}"), before, "{when}");
    };
    let mut s = Stream::new();
    unchanged(&mut s, 0, "OPEN");
    let mut s = setup();
    unchanged(&mut s, 0, "SETUP");
    s.prepare(0).unwrap();
    unchanged(&mut s, 0, "PREPARED");
    // Both pointers just below the boundary: the write wraps appl_ptr.
    (s.hw_ptr, s.appl_ptr) = (s.boundary - 8, s.boundary - 8);
    assert_eq!(write(&mut s, 16, MS), Ok(16));
    assert_eq!((s.state(), s.appl_ptr()), (State::Running, 8));
    unchanged(&mut s, MS, "RUNNING, appl_ptr wrapped");
    let _ = s.update(MS + MS / 8); // 6 frames: hw_ptr still short of the wrap
    unchanged(&mut s, MS + MS / 8, "RUNNING, hw_ptr before the wrap");
    let _ = s.update(2 * MS); // 48 frames: hw_ptr wraps, the 16 run out
    assert_eq!(s.state(), State::Xrun);
    unchanged(&mut s, 2 * MS, "XRUN");
    s.drop(2 * MS).unwrap();
    unchanged(&mut s, 2 * MS, "SETUP after DROP");
}

/// The unchecked SYNC_PTR (`sync_ptr_unchecked`): None exactly when the
/// check has work (HWSYNC, an appl_ptr other than the stream's), and the
/// input it gives instead answers and commits as the program's own did,
/// for every combination of flags, in a running stream.
#[test]
fn sync_ptr_unchecked_answers_as_asked() {
    let mut base = setup();
    base.prepare(0).unwrap();
    assert_eq!(write(&mut base, 100, MS), Ok(100));
    base.avail_min = 5;
    let own = base.appl_ptr;
    for flags in 0..8 {
        for appl_ptr in [own, own + 1] {
            let input = SyncPtrIn { flags, appl_ptr, avail_min: 9 };
            let checked =
                flags & SYNC_PTR_HWSYNC != 0 || (flags & SYNC_PTR_APPL == 0 && appl_ptr != own);
            let Some(unchecked) = base.sync_ptr_unchecked(input) else {
                assert!(checked, "{input:?}: no check to do");
                continue;
            };
            assert!(!checked, "{input:?}: the check has work");
            let (mut asked, mut given) = (base.clone(), base.clone());
            let out = sync_ptr(&mut asked, input, MS).unwrap();
            let out_given = given.sync_ptr_answer(unchecked);
            given.sync_ptr_commit(&out_given);
            assert_eq!(out_given, out, "{input:?}: the answer");
            assert_eq!(alloc::format!("{given:?}"), alloc::format!("{asked:?}"), "{input:?}");
        }
    }
}

#[test]
fn sync_ptr_encodings() {
    let out = SyncPtrOut {
        state: 3,
        hw_ptr: 0x1234,
        tstamp_sec: 5,
        tstamp_nsec: 6,
        suspended_state: 0,
        audio_tstamp_sec: 7,
        audio_tstamp_nsec: 8,
        appl_ptr: 0x5678,
        avail_min: 9,
    };
    assert_eq!(count_stores(&out, &SYNC_PTR32), 9, "one put_user per value");
    let mut b32 = [0xffu8; 132];
    put_u32(&mut b32, 0, 2);
    store(&out, &mut b32, &SYNC_PTR32);
    assert_eq!((get_u32(&b32, 4), get_u32(&b32, 12)), (3, 0x1234));
    assert_eq!(
        (get_u32(&b32, 16), get_u32(&b32, 20), get_u32(&b32, 28), get_u32(&b32, 32)),
        (5, 6, 7, 8)
    );
    assert_eq!(get_u32(&b32, 8), 0xffff_ffff, "bytes outside the fields are the user's");
    assert_eq!(
        SyncPtrIn::read_from(&b32, &SYNC_PTR32),
        SyncPtrIn { flags: 2, appl_ptr: 0x5678, avail_min: 9 }
    );

    assert_eq!(count_stores(&out, &SYNC_PTR64), 16, "every 8-byte slot whole");
    let mut b64 = [0xffu8; 136];
    store(&out, &mut b64, &SYNC_PTR64);
    assert_eq!((get_u32(&b64, 8), get_u32(&b64, 12)), (3, 0));
    assert_eq!((get_u32(&b64, 16), get_u32(&b64, 20)), (0, 0x1234));
    assert_eq!(
        (get_u32(&b64, 24), get_u32(&b64, 28), get_u32(&b64, 32), get_u32(&b64, 36)),
        (0, 5, 0, 6)
    );
    assert_eq!((get_u32(&b64, 40), get_u32(&b64, 44)), (0, 0));
    assert_eq!(
        (get_u32(&b64, 48), get_u32(&b64, 52), get_u32(&b64, 56), get_u32(&b64, 60)),
        (0, 7, 0, 8)
    );
    assert_eq!((get_u32(&b64, 76), get_u32(&b64, 88)), (0x5678, 9));
    assert_eq!(
        (get_u32(&b64, 0), get_u32(&b64, 72), get_u32(&b64, 92)),
        (0xffff_ffff, 0xffff_ffff, 0xffff_ffff),
        "flags and control pads are the user's"
    );
    let neg = SyncPtrOut { tstamp_sec: -2, ..out };
    store(&neg, &mut b64, &SYNC_PTR64);
    assert_eq!(
        (get_u32(&b64, 24), get_u32(&b64, 28)),
        (0xffff_ffff, 0xffff_fffe),
        "seconds sign-extended"
    );
}

#[test]
fn status_reports_pointers_and_encodes_both_layouts() {
    let mut s = Stream::new();
    assert_eq!(status(&mut s, 0, 0), Status::default());
    let mut s = setup();
    s.prepare(0).unwrap();
    write(&mut s, 1000, MS).unwrap();
    let st = status(&mut s, 0, 3 * MS);
    assert_eq!(
        (st.state, st.hw_ptr, st.appl_ptr, st.avail, st.delay),
        (3, 96, 1000, 4096 - 904, 904)
    );
    assert_eq!(st.trigger_tstamp, (0, 1_000_000));
    assert_eq!(st.avail_max, 4096 - 904);
    let mut b = [0u8; 128];
    st.write_to(&mut b, &STATUS64);
    assert_eq!((get_u32(&b, 20), get_u32(&b, 44), get_u32(&b, 48)), (1_000_000, 96, 904));
    let mut b = [0u8; 108];
    st.write_to(&mut b, &STATUS32);
    assert_eq!((get_u32(&b, 8), get_u32(&b, 24), get_u32(&b, 28)), (1_000_000, 96, 904));
    let mut info = [0u8; 288];
    structs::write_info(&mut info);
    assert_eq!(&info[info::NAME..info::NAME + 5], b"Sigil");
}

#[test]
fn start_threshold_controls_auto_start() {
    let mut s = setup();
    let mut sw = SwParams {
        avail_min: 1,
        start_threshold: 0x7fff_ffff,
        stop_threshold: 4096,
        ..SwParams::default()
    };
    sw_params(&mut s, &mut sw, 0).unwrap();
    s.prepare(0).unwrap();
    assert_eq!(write(&mut s, 4096, 0), Ok(4096));
    assert_eq!(s.state(), State::Prepared, "threshold out of reach");
    assert_eq!(s.reserve_write(1, 0), Err(PcmError::Again));
    // A threshold above LONG_MAX is negative for Linux: the next write starts.
    let mut sw = SwParams { start_threshold: 0xffff_ffff, ..sw };
    sw_params(&mut s, &mut sw, 0).unwrap();
    s.prepare(0).unwrap();
    write(&mut s, 1, 0).unwrap();
    assert_eq!(s.state(), State::Running);
}

#[test]
fn interval_arithmetic_follows_pcm_lib() {
    let ends = |i: Interval| (i.min, i.openmin, i.max, i.openmax, i.integer);
    // mul: exact, integer when both are, saturating.
    assert_eq!(
        ends(Interval::mul(&Interval::integer(2, 4), &Interval::integer(3, 5))),
        (6, false, 20, false, true)
    );
    assert_eq!(
        Interval::mul(&Interval::new(0x8000_0000, 0x8000_0000), &Interval::new(3, 3)).max,
        u32::MAX
    );
    // div: 10/4 = 2.5 opens the low end, 20/3 = 6.67 rounds the high end up to an open 7.
    assert_eq!(
        ends(Interval::div(&Interval::integer(10, 20), &Interval::integer(3, 4))),
        (2, true, 7, true, false)
    );
    // A divisor reaching 0 leaves the high end unbounded.
    let z = Interval::div(&Interval::new(1, 2), &Interval::new(0, 5));
    assert_eq!((z.min, z.openmin, z.max), (0, true, u32::MAX));
    // mulkdiv: period_time of 1024 frames at 48 kHz is (21333, 21334) us.
    let t = Interval::mulkdiv(&Interval::new(1024, 1024), 1_000_000, &Interval::new(48000, 48000));
    assert_eq!(ends(t), (21333, true, 21334, true, false));
    // muldivk: 10 ms at 44.1 kHz is exactly 441 frames.
    let f =
        Interval::muldivk(&Interval::new(10_000, 10_000), &Interval::new(44100, 44100), 1_000_000);
    assert_eq!(ends(f), (441, false, 441, false, false));
    assert!(Interval::mul(&Interval { empty: true, ..Interval::any() }, &Interval::any()).empty);
}
