//! Host tests of the /proc formats and names: each file's text checked
//! against what Linux 6.1 prints, and the paths' parsing with its errnos.

use super::*;

#[test]
fn paths_name_entries() {
    let p = |s| parse(s, 7, true);
    assert_eq!(p("/etc/passwd"), None);
    assert_eq!(p("proc/1"), None);
    assert_eq!(p("/procfoo"), None);
    assert_eq!(p("/proc/../etc"), None);
    assert_eq!(p("/proc"), Some(Ok(Entry::Root)));
    assert_eq!(p("//proc/./"), Some(Ok(Entry::Root)));
    assert_eq!(p("/proc/self"), Some(Ok(Entry::Pid(7))));
    assert_eq!(parse("/proc/self", 7, false), Some(Ok(Entry::SelfLink)));
    assert_eq!(parse("/proc/self/", 7, false), Some(Ok(Entry::Pid(7))));
    assert_eq!(p("/proc/self/stat"), Some(Ok(Entry::File(7, PidFile::Stat))));
    assert_eq!(p("/proc/12/cmdline"), Some(Ok(Entry::File(12, PidFile::Cmdline))));
    assert_eq!(p("/proc/meminfo"), Some(Ok(Entry::Global(Global::Meminfo))));
    assert_eq!(p("/proc/meminfo/x"), Some(Err(Errno::ENOTDIR)));
    assert_eq!(p("/proc/12/stat/x"), Some(Err(Errno::ENOTDIR)));
    assert_eq!(p("/proc/012"), Some(Err(Errno::ENOENT)));
    assert_eq!(p("/proc/0"), Some(Err(Errno::ENOENT)));
    assert_eq!(p("/proc/12/environ"), Some(Ok(Entry::File(12, PidFile::Environ))));
    assert_eq!(p("/proc/12/limits"), Some(Ok(Entry::File(12, PidFile::Limits))));
    assert_eq!(p("/proc/12/auxv"), Some(Err(Errno::ENOENT)));
    assert_eq!(p("/proc/nope"), Some(Err(Errno::ENOENT)));
    assert_eq!(p("/proc/self/fd"), Some(Ok(Entry::FdDir(7, 7))));
    assert_eq!(p("/proc/self/fd/0"), Some(Ok(Entry::Fd(7, 7, 0))));
    assert_eq!(p("/proc/self/fd/10"), Some(Ok(Entry::Fd(7, 7, 10))));
    assert_eq!(p("/proc/7/task/9/fd"), Some(Ok(Entry::FdDir(7, 9))));
    assert_eq!(p("/proc/7/task/9/fd/2"), Some(Ok(Entry::Fd(7, 9, 2))));
    assert_eq!(p("/proc/7/task/9/fd/2/x"), Some(Err(Errno::ENOTDIR)));
    assert_eq!(p("/proc/7/task/9/fd/02"), Some(Err(Errno::ENOENT)));
    assert_eq!(p("/proc/self/fd/01"), Some(Err(Errno::ENOENT)));
    assert_eq!(p("/proc/self/fd/1/x"), Some(Err(Errno::ENOTDIR)));
    assert_eq!(p("/proc/self/task"), Some(Ok(Entry::TaskDir(7))));
    assert_eq!(p("/proc/7/task/9"), Some(Ok(Entry::Task(7, 9))));
    assert_eq!(p("/proc/7/task/9/status"), Some(Ok(Entry::TaskFile(7, 9, PidFile::Status))));
    assert_eq!(p("/proc/7/task/9/stat/x"), Some(Err(Errno::ENOTDIR)));
    assert_eq!(p("/proc/7/task/9/nope"), Some(Err(Errno::ENOENT)));
    assert_eq!(p("/proc/7/task/09"), Some(Err(Errno::ENOENT)));
    assert_eq!(p("/proc/7/task/0"), Some(Err(Errno::ENOENT)));
}

#[test]
fn comm_is_the_basename_cut_to_15_bytes() {
    assert_eq!(comm("/bin/ps"), "ps");
    assert_eq!(comm("sh"), "sh");
    assert_eq!(comm("/a/0123456789abcdefgh"), "0123456789abcde");
}

#[test]
fn limits_in_linuxs_columns() {
    let text = limits(&crate::rlimit::Limits::boot(64));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 17);
    assert_eq!(
        lines[0],
        "Limit                     Soft Limit           Hard Limit           Units     "
    );
    assert_eq!(
        lines[1],
        "Max cpu time              unlimited            unlimited            seconds   "
    );
    assert_eq!(
        lines[4],
        "Max stack size            8388608              unlimited            bytes     "
    );
    assert_eq!(
        lines[8],
        "Max open files            256                  256                  files     "
    );
    assert_eq!(lines[14], "Max nice priority         0                    0                    ");
}

#[test]
fn cmdline_is_the_argument_area_or_a_rewritten_title() {
    let mem = b"ps\0-o\0pid\0HOME=/\0";
    assert_eq!(cmdline(mem, 10), b"ps\0-o\0pid\0");
    assert_eq!(cmdline(mem, 0), b"");
    // setproctitle over the last NUL: one string, into the environment.
    assert_eq!(cmdline(b"my title here\0/\0", 10), b"my title here");
    assert_eq!(cmdline(b"no nul at all", 4), b"no nul at all");
}

/// Linux 6.1's 52 fields; BusyBox's scan reads state..rss at these places.
#[test]
fn stat_line_has_linux_fields_in_order() {
    let t = TaskStat {
        pid: 5,
        comm: "my prog)",
        state: Some(State::Sleeping),
        ppid: 1,
        pgrp: 5,
        session: 1,
        tty_nr: 1088,
        tpgid: 5,
        utime: 3,
        stime: 4,
        minflt: 41,
        cminflt: 9,
        num_threads: 2,
        start_time: 77,
        vsize: 4096 * 10,
        rss: 6,
        sleeping: true,
        ..TaskStat::default()
    };
    let line = stat_line(&t);
    assert!(line.starts_with("5 (my prog)) S 1 5 1 1088 5 "), "{line}");
    assert!(line.ends_with(" 0\n"));
    // Fields after the comm, split as BusyBox does at the last ')'.
    let rest = &line[line.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    assert_eq!(f.len(), 52 - 2);
    let field = |n: usize| f[n - 3]; // proc(5)'s 1-based numbering
    assert_eq!((field(10), field(11), field(12)), ("41", "9", "0"));
    assert_eq!((field(14), field(15)), ("3", "4"));
    assert_eq!((field(18), field(19), field(20)), ("20", "0", "2"));
    assert_eq!((field(22), field(23), field(24)), ("77", "40960", "6"));
    assert_eq!((field(35), field(38)), ("1", "17"));
}

#[test]
fn status_lines() {
    let t = TaskStatus {
        name: "sh",
        umask: 0o22,
        state: Some(State::Stopped),
        tgid: 3,
        pid: 4,
        ppid: 1,
        uid: [1000, 1000, 1000, 1000],
        groups: &[100, 1000],
        vm: Some(VmSizes { size: 1024, rss: 64, data: 8, stack: 132 }),
        threads: 1,
        sig: SigLines { blocked: 1 << 1, caught: 1 << 16, queue_limit: 128, ..Default::default() },
        ..TaskStatus::default()
    };
    let s = status(&t);
    for line in [
        "Name:\tsh\n",
        "Umask:\t0022\n",
        "State:\tT (stopped)\n",
        "Tgid:\t3\n",
        "Pid:\t4\n",
        "NStgid:\t3\nNSpid:\t4\n",
        "PPid:\t1\n",
        "Uid:\t1000\t1000\t1000\t1000\n",
        "Groups:\t100 1000 \n",
        "VmSize:\t    1024 kB\n",
        "SigQ:\t0/128\n",
        "SigBlk:\t0000000000000002\n",
        "SigCgt:\t0000000000010000\n",
        "CapEff:\t0000000000000000\n",
    ] {
        assert!(s.contains(line), "{line:?} in\n{s}");
    }
    assert!(s.find("Name").unwrap() < s.find("Umask").unwrap());
    assert!(s.find("NSsid").unwrap() < s.find("VmSize").unwrap());
    assert!(s.find("Threads").unwrap() < s.find("SigQ").unwrap());
}

#[test]
fn meminfo_is_padded_as_linux() {
    let s = meminfo(&MemInfo { total: 131072, free: 100000, ..MemInfo::default() });
    assert!(s.starts_with("MemTotal:         131072 kB\nMemFree:          100000 kB\n"), "{s}");
    assert!(s.lines().all(|l| l.len() == 27 && l.ends_with(" kB")), "{s}");
    assert!(s.contains("\nCached:                0 kB\n"));
}

#[test]
fn maps_lines_as_linux_pads_them() {
    let m = Mapping {
        start: 0x1000_0000,
        end: 0x1001_0000,
        read: true,
        write: false,
        exec: true,
        shared: false,
        offset: 0,
        dev: (0, 0),
        ino: 0,
        name: None,
    };
    assert_eq!(maps_line(&m), "10000000-10010000 r-xp 00000000 00:00 0 \n");
    let file =
        Mapping { shared: true, offset: 0x1000, dev: (0, 1), ino: 42, name: Some("/mf"), ..m };
    let line = maps_line(&file);
    assert!(line.starts_with("10000000-10010000 r-xs 00001000 00:01 42 "), "{line}");
    assert_eq!(line.find('/'), Some(48), "{line}");
    let stack = Mapping { write: true, exec: false, name: Some("[stack]"), ..m };
    let line = maps_line(&stack);
    assert_eq!(line.find('['), Some(48), "{line}");
    assert!(line.starts_with("10000000-10010000 rw-p ") && line.ends_with(" [stack]\n"));
}

#[test]
fn small_files() {
    assert_eq!(uptime(12_345_678_901, 999_999_999), "12.34 0.99\n");
    assert_eq!(loadavg("0.63 0.18 0.06", 1, 3, 9), "0.63 0.18 0.06 1/3 9\n");
    let s = sys_stat(&SysStat { user: 1, system: 2, idle: 3, ..SysStat::default() });
    assert!(s.starts_with("cpu  1 0 2 3 0 0 0 0 0 0\ncpu0 1 0 2 3 0 0 0 0 0 0\n"), "{s}");
}

#[test]
fn cpuinfo_is_linuxs() {
    let s = cpuinfo(0x0008_0301, 16_600_000, "PowerMac", 256);
    assert_eq!(
        s,
        "processor\t: 0\ncpu\t\t: 740/750\nrevision\t: 3.1 (pvr 0008 0301)\n\
         bogomips\t: 33.20\n\ntimebase\t: 16600000\nplatform\t: PowerMac\n\
         Memory\t\t: 256 MB\n"
    );
    assert!(cpuinfo(0x0084_0011, 66_000_000, "x", 64).contains("cpu\t\t: e300c2\nrevision\t: 0.17"));
    assert!(cpuinfo(0x1234_0000, 1, "x", 1).contains("unknown (12340000)"));
}
