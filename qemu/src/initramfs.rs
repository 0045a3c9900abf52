//! initramfs: the cpio archive a run boots with, and scratch directories.
//!
//! Layout: `/tmp` and `/proc`, `/sbin/init` (Sigil's init, PID 1), `/init`
//! (the program init runs as its child), `/bin/<name>` for every file of
//! the test-program directory (so a test can fork and exec its siblings), and
//! any extra files at the paths they name, and `/etc/passwd` and `/etc/group`
//! naming root and one unprivileged user ([`PASSWD`], [`GROUP`]) unless the
//! extra files bring their own. Directories get their own entries
//! before the files in them, as Linux's `gen_init_cpio` writes them. The bytes
//! come from `sigil_core::cpio::write_newc`, the same code the kernel reads with.
//!
//! [`busybox`] adds BusyBox: `/bin/busybox` and its applet links (symbolic
//! links, as its `make install` makes them).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use sigil_core::cpio::{write_newc, Entry};

const MODE_DIR: u32 = 0o040_755;
/// /tmp: drwxrwxrwt.
const MODE_TMP: u32 = 0o041_777;
/// /proc: dr-xr-xr-x, as procfs shows it.
const MODE_PROC: u32 = 0o040_555;
/// Mode of /init and of the programs from the bin directory.
pub const MODE_EXEC: u32 = 0o100_755;

/// A file to add to the initramfs (and, for qemu-ppc runs, to the scratch
/// directory the program runs in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraFile {
    /// Path inside the archive, relative (`bin/bad-elf-text`); a leading `/`
    /// is dropped.
    pub path: String,
    pub data: Vec<u8>,
    /// `st_mode`, e.g. [`MODE_EXEC`] or 0o100644.
    pub mode: u32,
}

impl ExtraFile {
    pub fn new(path: &str, data: impl Into<Vec<u8>>, mode: u32) -> ExtraFile {
        ExtraFile { path: path.trim_start_matches('/').to_owned(), data: data.into(), mode }
    }
}

/// The users of every run, in Linux's `/etc/passwd` format: root, and
/// `student` (uid 1000), whom test programs drop to with setuid(1000).
pub const PASSWD: &str =
    "root:x:0:0:root:/root:/bin/sh\nstudent:x:1000:1000:Student:/home/student:/bin/sh\n";
/// Their groups (`/etc/group`).
pub const GROUP: &str = "root:x:0:\nstudent:x:1000:\n";

/// Build the archive: `/sbin/init` from `sigil_init`, `/init` from `init`,
/// `/bin/*` from `bin_dir`, then `extra`, then the user database.
pub fn build(
    sigil_init: &Path,
    init: &Path,
    bin_dir: Option<&Path>,
    extra: &[ExtraFile],
) -> Result<Vec<u8>, String> {
    let read = |p: &Path| fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    let mut files = vec![
        ExtraFile::new("sbin/init", read(sigil_init)?, MODE_EXEC),
        ExtraFile::new("init", read(init)?, MODE_EXEC),
    ];
    if let Some(dir) = bin_dir {
        let listing =
            fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        let mut paths: Vec<PathBuf> =
            listing.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
        paths.sort();
        for p in paths {
            let name = p
                .file_name()
                .and_then(|n| n.to_str())
                .ok_or_else(|| format!("{}: name is not UTF-8", p.display()))?;
            files.push(ExtraFile::new(&format!("bin/{name}"), read(&p)?, MODE_EXEC));
        }
    }
    files.extend(extra.iter().cloned());
    archive(files)
}

/// The archive of `files` in their order, with `/tmp`, `/proc`, every
/// directory before what it holds, and the user database unless `files`
/// brings its own: [`build`]'s layout without Sigil's init, for a kernel
/// that runs `/init` itself (Linux, qemu/src/linux.rs).
pub fn archive(mut files: Vec<ExtraFile>) -> Result<Vec<u8>, String> {
    for (path, data) in [("etc/group", GROUP), ("etc/passwd", PASSWD)] {
        if !files.iter().any(|f| f.path == path) {
            files.push(ExtraFile::new(path, data, 0o100_644));
        }
    }

    let mut seen = BTreeSet::new();
    for f in &files {
        if f.path.is_empty() || f.path.split('/').any(|c| c.is_empty() || c == "." || c == "..") {
            return Err(format!("bad initramfs path {:?}", f.path));
        }
        if !seen.insert(f.path.as_str()) {
            return Err(format!("{} is in the initramfs twice", f.path));
        }
    }
    let mut dirs = BTreeSet::new();
    // The mount points every Linux system has: /tmp (sticky, world-writable)
    // and /proc (read-only; the kernel fills it).
    let mut entries = vec![
        Entry { name: "tmp", mode: MODE_TMP, data: &[] },
        Entry { name: "proc", mode: MODE_PROC, data: &[] },
    ];
    dirs.extend(["tmp", "proc"]);
    for f in &files {
        for (i, _) in f.path.match_indices('/') {
            let dir = &f.path[..i];
            if dirs.insert(dir) {
                entries.push(Entry { name: dir, mode: MODE_DIR, data: &[] });
            }
        }
        entries.push(Entry { name: &f.path, mode: f.mode, data: &f.data });
    }
    Ok(write_newc(&entries))
}

/// Mode of a symbolic link (its data is the target).
pub const MODE_SYMLINK: u32 = 0o120_777;

/// BusyBox for the initramfs, from the build directory `dir` (its
/// `busybox` and `busybox.links`, one applet path a line): the binary at
/// /bin/busybox and a link to it for each applet. An applet whose name a
/// program in `bin_dir` has is left out, so Sigil's programs come first on
/// PATH, and so are init and linuxrc: PID 1 is Sigil's (`tty_session` starts
/// the shell on the console).
pub fn busybox(dir: &Path, bin_dir: Option<&Path>) -> Result<Vec<ExtraFile>, String> {
    let read = |p: &Path| {
        fs::read(p)
            .map_err(|e| format!("cannot read {}: {e} (make busybox builds it)", p.display()))
    };
    let taken: BTreeSet<String> = match bin_dir {
        Some(d) => fs::read_dir(d)
            .map_err(|e| format!("cannot list {}: {e}", d.display()))?
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect(),
        None => BTreeSet::new(),
    };
    let links = String::from_utf8(read(&dir.join("busybox.links"))?)
        .map_err(|_| "busybox.links is not UTF-8".to_string())?;
    let mut files = vec![ExtraFile::new("bin/busybox", read(&dir.join("busybox"))?, MODE_EXEC)];
    for link in links.lines().map(|l| l.trim().trim_start_matches('/')).filter(|l| !l.is_empty()) {
        let name = link.rsplit('/').next().unwrap_or(link);
        if link != "bin/busybox" && !taken.contains(name) && name != "init" && name != "linuxrc" {
            files.push(ExtraFile::new(link, "/bin/busybox", MODE_SYMLINK));
        }
    }
    Ok(files)
}

/// A fresh directory under the system temp dir, removed on drop.
#[derive(Debug)]
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    pub fn new(tag: &str) -> Result<ScratchDir, String> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("{tag}-{}-{n}-{nanos}", std::process::id()));
        fs::create_dir(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(ScratchDir(path))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Write `files` below this directory, creating subdirectories, with
    /// the permission bits of their modes.
    pub fn populate(&self, files: &[ExtraFile]) -> Result<(), String> {
        use std::os::unix::fs::PermissionsExt;
        for f in files {
            let path = self.0.join(&f.path);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)
                    .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
            }
            fs::write(&path, &f.data)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            fs::set_permissions(&path, fs::Permissions::from_mode(f.mode & 0o7777))
                .map_err(|e| format!("cannot chmod {}: {e}", path.display()))?;
        }
        Ok(())
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sigil_core::cpio::Archive;

    #[test]
    fn layout_of_the_archive() {
        let scratch = ScratchDir::new("sigil-initramfs-test").unwrap();
        let bin = scratch.path().join("progs");
        fs::create_dir(&bin).unwrap();
        fs::write(bin.join("b"), b"BB").unwrap();
        fs::write(bin.join("a"), b"A").unwrap();
        let init = scratch.path().join("init-prog");
        fs::write(&init, b"INIT").unwrap();
        let sigil_init = scratch.path().join("sigil-init");
        fs::write(&sigil_init, b"PID1").unwrap();
        let extra = [
            ExtraFile::new("/bin/bad-elf-text", "not elf", 0o100_644),
            ExtraFile::new("etc/x/y", "y", 0o100_644),
        ];
        let cpio = build(&sigil_init, &init, Some(&bin), &extra).unwrap();

        let archive = Archive::new(&cpio).unwrap();
        let names: Vec<(&str, u32)> = archive.entries().map(|e| (e.name, e.mode)).collect();
        assert_eq!(
            names,
            [
                ("tmp", MODE_TMP),
                ("proc", MODE_PROC),
                ("sbin", MODE_DIR),
                ("sbin/init", MODE_EXEC),
                ("init", MODE_EXEC),
                ("bin", MODE_DIR),
                ("bin/a", MODE_EXEC),
                ("bin/b", MODE_EXEC),
                ("bin/bad-elf-text", 0o100_644),
                ("etc", MODE_DIR),
                ("etc/x", MODE_DIR),
                ("etc/x/y", 0o100_644),
                ("etc/group", 0o100_644),
                ("etc/passwd", 0o100_644),
            ]
        );
        assert_eq!(archive.find("init").unwrap().data, b"INIT");
        assert_eq!(archive.find("sbin/init").unwrap().data, b"PID1");
        assert_eq!(archive.find("bin/b").unwrap().data, b"BB");
        assert_eq!(archive.find("etc/passwd").unwrap().data, PASSWD.as_bytes());
    }

    #[test]
    fn rejects_duplicates_and_odd_paths() {
        let scratch = ScratchDir::new("sigil-initramfs-test").unwrap();
        let init = scratch.path().join("i");
        fs::write(&init, b"I").unwrap();
        assert!(build(&init, &init, None, &[ExtraFile::new("init", "x", MODE_EXEC)]).is_err());
        assert!(build(&init, &init, None, &[ExtraFile::new("a/../b", "x", MODE_EXEC)]).is_err());
        assert!(build(&init, &scratch.path().join("missing"), None, &[]).is_err());
        assert!(build(&scratch.path().join("missing"), &init, None, &[]).is_err());
    }

    #[test]
    fn scratch_dir_is_populated_and_removed() {
        let path;
        {
            let scratch = ScratchDir::new("sigil-initramfs-test").unwrap();
            scratch.populate(&[ExtraFile::new("bin/x", "data", 0o100_755)]).unwrap();
            path = scratch.path().to_path_buf();
            assert_eq!(fs::read(path.join("bin/x")).unwrap(), b"data");
        }
        assert!(!path.exists());
    }
}
