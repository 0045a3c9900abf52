//! Checks `uapi`'s numbers against the cross compiler: builds `layout_probe.c`
//! with powerpc-linux-gnu-gcc -static (default 32-bit time_t, then
//! `-D_TIME_BITS=64`), runs it under qemu-ppc and compares every printed
//! sizeof/offsetof/ioctl number with the constant Sigil uses.

use super::uapi::{self, PcmIoctl, StatusLayout, SyncPtrLayout};
use std::collections::HashMap;
use std::format;
use std::process::Command;
use std::string::{String, ToString};
use std::vec::Vec;

/// Compiles and runs the probe; panics with a clear message if a tool is missing.
fn probe(time64: bool) -> HashMap<String, u64> {
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src/pcm/layout_probe.c");
    let exe =
        std::env::temp_dir().join(format!("sigil-pcm-probe-{}-{}", std::process::id(), time64));
    let mut cc = Command::new("powerpc-linux-gnu-gcc");
    cc.args(["-O2", "-static", "-Wall", "-Werror", "-o"]).arg(&exe).arg(src);
    if time64 {
        cc.args(["-D_TIME_BITS=64", "-D_FILE_OFFSET_BITS=64"]);
    }
    let st = cc.status().unwrap_or_else(|e| {
        panic!("cannot run powerpc-linux-gnu-gcc ({e}): install gcc-powerpc-linux-gnu and linux-libc-dev-powerpc-cross")
    });
    assert!(st.success(), "powerpc-linux-gnu-gcc failed on {src}");
    let out = Command::new("qemu-ppc")
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run qemu-ppc ({e}): install qemu-user"));
    let _ = std::fs::remove_file(&exe);
    assert!(out.status.success(), "layout probe failed under qemu-ppc");
    String::from_utf8(out.stdout)
        .expect("probe output is text")
        .lines()
        .map(|l| {
            let (k, v) = l.split_once(' ').expect("NAME VALUE line");
            (k.to_string(), v.parse().expect("decimal value"))
        })
        .collect()
}

fn check(m: &HashMap<String, u64>, pairs: &[(&str, u64)]) {
    let mut bad = Vec::new();
    for (k, want) in pairs {
        match m.get(*k) {
            Some(got) if got == want => {}
            got => bad.push(format!("{k}: compiler says {got:?}, uapi.rs says {want}")),
        }
    }
    assert!(bad.is_empty(), "layout mismatches:\n{}", bad.join("\n"));
}

fn status_pairs(l: &StatusLayout) -> Vec<(&'static str, u64)> {
    [
        ("sizeof.status", l.size),
        ("snd_pcm_status.state", l.state),
        ("snd_pcm_status.trigger_tstamp", l.trigger_tstamp),
        ("snd_pcm_status.tstamp", l.tstamp),
        ("snd_pcm_status.appl_ptr", l.appl_ptr),
        ("snd_pcm_status.hw_ptr", l.hw_ptr),
        ("snd_pcm_status.delay", l.delay),
        ("snd_pcm_status.avail", l.avail),
        ("snd_pcm_status.avail_max", l.avail_max),
        ("snd_pcm_status.overrange", l.overrange),
        ("snd_pcm_status.suspended_state", l.suspended_state),
        ("snd_pcm_status.audio_tstamp_data", l.audio_tstamp_data),
        ("snd_pcm_status.audio_tstamp", l.audio_tstamp),
        ("snd_pcm_status.driver_tstamp", l.driver_tstamp),
        ("snd_pcm_status.audio_tstamp_accuracy", l.audio_tstamp_accuracy),
        ("sizeof.timespec", l.timespec_size),
    ]
    .iter()
    .map(|&(k, v)| (k, v as u64))
    .collect()
}

fn sync_ptr_pairs(l: &SyncPtrLayout, time64: bool) -> Vec<(&'static str, u64)> {
    // In time64 the seconds are a full s64 starting at the slot; nsec is its low word.
    [
        ("sizeof.sync_ptr", l.size),
        ("snd_pcm_sync_ptr.flags", l.flags),
        ("snd_pcm_sync_ptr.s.status.state", l.state),
        ("snd_pcm_sync_ptr.s.status.hw_ptr", l.hw_ptr),
        ("snd_pcm_sync_ptr.s.status.tstamp.tv_sec", l.tstamp_sec),
        ("snd_pcm_sync_ptr.s.status.tstamp.tv_nsec", l.tstamp_nsec),
        ("snd_pcm_sync_ptr.s.status.suspended_state", l.suspended_state),
        ("snd_pcm_sync_ptr.s.status.audio_tstamp.tv_sec", l.audio_tstamp_sec),
        ("snd_pcm_sync_ptr.s.status.audio_tstamp.tv_nsec", l.audio_tstamp_nsec),
        ("snd_pcm_sync_ptr.c.control.appl_ptr", l.appl_ptr),
        ("snd_pcm_sync_ptr.c.control.avail_min", l.avail_min),
        ("offsetof.timespec.tv_nsec", if time64 { 12 } else { 4 }),
    ]
    .iter()
    .map(|&(k, v)| (k, v as u64))
    .collect()
}

#[test]
fn time32_layouts_match_the_cross_compiler() {
    use uapi::{hw_params as hp, info, sw_params as sw, xferi};
    let m = probe(false);
    let pairs: Vec<(&str, u64)> = [
        ("sizeof.info", info::SIZE),
        ("snd_pcm_info.id", info::ID),
        ("snd_pcm_info.name", info::NAME),
        ("snd_pcm_info.subname", info::SUBNAME),
        ("snd_pcm_info.dev_class", info::DEV_CLASS),
        ("snd_pcm_info.subdevices_count", info::SUBDEVICES_COUNT),
        ("snd_pcm_info.subdevices_avail", info::SUBDEVICES_AVAIL),
        ("sizeof.hw_params", hp::SIZE),
        ("snd_pcm_hw_params.masks", hp::MASKS),
        ("snd_pcm_hw_params.intervals", hp::INTERVALS),
        ("snd_pcm_hw_params.rmask", hp::RMASK),
        ("snd_pcm_hw_params.cmask", hp::CMASK),
        ("snd_pcm_hw_params.info", hp::INFO),
        ("snd_pcm_hw_params.msbits", hp::MSBITS),
        ("snd_pcm_hw_params.rate_num", hp::RATE_NUM),
        ("snd_pcm_hw_params.rate_den", hp::RATE_DEN),
        ("snd_pcm_hw_params.fifo_size", hp::FIFO_SIZE),
        ("sizeof.interval", hp::INTERVAL_SIZE),
        ("sizeof.mask", hp::MASK_SIZE),
        ("sizeof.sw_params", sw::SIZE),
        ("snd_pcm_sw_params.tstamp_mode", sw::TSTAMP_MODE),
        ("snd_pcm_sw_params.period_step", sw::PERIOD_STEP),
        ("snd_pcm_sw_params.sleep_min", sw::SLEEP_MIN),
        ("snd_pcm_sw_params.avail_min", sw::AVAIL_MIN),
        ("snd_pcm_sw_params.xfer_align", sw::XFER_ALIGN),
        ("snd_pcm_sw_params.start_threshold", sw::START_THRESHOLD),
        ("snd_pcm_sw_params.stop_threshold", sw::STOP_THRESHOLD),
        ("snd_pcm_sw_params.silence_threshold", sw::SILENCE_THRESHOLD),
        ("snd_pcm_sw_params.silence_size", sw::SILENCE_SIZE),
        ("snd_pcm_sw_params.boundary", sw::BOUNDARY),
        ("snd_pcm_sw_params.proto", sw::PROTO),
        ("snd_pcm_sw_params.tstamp_type", sw::TSTAMP_TYPE),
        ("sizeof.xferi", xferi::SIZE),
        ("snd_xferi.result", xferi::RESULT),
        ("snd_xferi.buf", xferi::BUF),
        ("snd_xferi.frames", xferi::FRAMES),
    ]
    .iter()
    .map(|&(k, v)| (k, v as u64))
    .collect();
    check(&m, &pairs);
    check(
        &m,
        &[
            ("interval.openmin", hp::OPENMIN as u64),
            ("interval.openmax", hp::OPENMAX as u64),
            ("interval.integer", hp::INTEGER as u64),
            ("interval.empty", hp::EMPTY as u64),
            ("VERSION", uapi::PCM_VERSION as u64),
        ],
    );
    check(&m, &status_pairs(&uapi::STATUS32));
    check(&m, &sync_ptr_pairs(&uapi::SYNC_PTR32, false));
    use PcmIoctl::*;
    let ioctls = [
        ("PVERSION", Pversion),
        ("INFO", Info),
        ("TSTAMP", Tstamp),
        ("TTSTAMP", Ttstamp),
        ("USER_PVERSION", UserPversion),
        ("HW_REFINE", HwRefine),
        ("HW_PARAMS", HwParams),
        ("HW_FREE", HwFree),
        ("SW_PARAMS", SwParams),
        ("STATUS", Status32),
        ("STATUS_EXT", StatusExt32),
        ("DELAY", Delay),
        ("HWSYNC", Hwsync),
        ("SYNC_PTR", SyncPtr32),
        ("PREPARE", Prepare),
        ("RESET", Reset),
        ("START", Start),
        ("DROP", Drop),
        ("DRAIN", Drain),
        ("PAUSE", Pause),
        ("XRUN", Xrun),
        ("WRITEI_FRAMES", WriteiFrames),
    ];
    let pairs: Vec<(&str, u64)> = ioctls.iter().map(|&(k, c)| (k, c.raw() as u64)).collect();
    check(&m, &pairs);
}

#[test]
fn time64_layouts_match_the_cross_compiler() {
    let m = probe(true);
    check(&m, &status_pairs(&uapi::STATUS64));
    check(&m, &sync_ptr_pairs(&uapi::SYNC_PTR64, true));
    check(
        &m,
        &[
            ("STATUS", PcmIoctl::Status64.raw() as u64),
            ("STATUS_EXT", PcmIoctl::StatusExt64.raw() as u64),
            ("SYNC_PTR", PcmIoctl::SyncPtr64.raw() as u64),
            ("sizeof.hw_params", uapi::hw_params::SIZE as u64),
            ("sizeof.sw_params", uapi::sw_params::SIZE as u64),
        ],
    );
}
