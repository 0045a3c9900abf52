//! The wall clock's system calls: time, gettimeofday, settimeofday and
//! clock_settime (the reading side of clock_gettime is in time.rs).
//!
//! Setting the clock is root's (Linux's CAP_SYS_TIME, held with euid 0 as
//! every capability is here); the arguments are checked first, so a bad
//! time is EINVAL for anyone, as in Linux's `do_sys_settimeofday64`.

use sigil_core::abi::Errno;
use sigil_core::time::{
    decode_timeval, encode_timeval, Layout, CLOCK_PROCESS_CPUTIME_ID, CLOCK_REALTIME,
    CLOCK_THREAD_CPUTIME_ID,
};

use super::time::get_timespec;
use super::SysResult;
use crate::time::clock;
use crate::uaccess::{copy_from_user, copy_to_user, put_user};

fn may_set_time() -> Result<(), Errno> {
    if crate::cred::current().privileged() {
        Ok(())
    } else {
        Err(Errno::EPERM)
    }
}

/// time(tloc): seconds since 1970, also stored at `tloc` if not NULL.
pub fn time(tloc: u32) -> SysResult {
    let s = (clock::realtime_ns() / 1_000_000_000) as u32;
    if tloc != 0 {
        put_user(tloc, s)?;
    }
    Ok(s)
}

/// gettimeofday(tv, tz): the wall clock in microseconds; the time zone
/// (Linux keeps whatever settimeofday set; Sigil keeps none) reads as UTC.
pub fn gettimeofday(tv: u32, tz: u32) -> SysResult {
    if tv != 0 {
        copy_to_user(tv, &encode_timeval(clock::realtime_ns()))?;
    }
    if tz != 0 {
        copy_to_user(tz, &[0u8; 8])?;
    }
    Ok(0)
}

/// settimeofday(tv, tz): sets the wall clock if `tv` is given. A time zone
/// is checked (more than 15 hours west or east: EINVAL) and otherwise
/// ignored.
pub fn settimeofday(tv: u32, tz: u32) -> SysResult {
    let ns = if tv != 0 {
        let mut b = [0u8; 8];
        copy_from_user(&mut b, tv)?;
        Some(decode_timeval(&b)?)
    } else {
        None
    };
    let minutes_west = if tz != 0 {
        let mut b = [0u8; 8];
        copy_from_user(&mut b, tz)?;
        Some(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    } else {
        None
    };
    // Linux's order: both copies and the time's validity, then the
    // privilege, then the zone's range (do_sys_settimeofday64).
    may_set_time()?;
    if minutes_west.is_some_and(|m| !(-15 * 60..=15 * 60).contains(&m)) {
        return Err(Errno::EINVAL);
    }
    if let Some(ns) = ns {
        crate::proc::set_wall_clock(ns);
        crate::event::timerfd::clock_was_set();
    }
    Ok(0)
}

/// clock_settime / clock_settime64(clock, ts): only CLOCK_REALTIME can be
/// set; a CPU-time clock is EPERM ("you can never reset a CPU clock"),
/// the others EINVAL, as Linux.
pub fn clock_settime(clock: u32, ts: u32, layout: Layout) -> SysResult {
    match clock {
        CLOCK_REALTIME => {}
        CLOCK_PROCESS_CPUTIME_ID | CLOCK_THREAD_CPUTIME_ID => return Err(Errno::EPERM),
        _ => return Err(Errno::EINVAL),
    }
    let ns = get_timespec(ts, layout)?;
    may_set_time()?;
    crate::proc::set_wall_clock(ns);
    crate::event::timerfd::clock_was_set();
    Ok(0)
}
