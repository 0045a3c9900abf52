//! File metadata: the one `Stat` every file kind reports, and its two user
//! layouts, ppc32 `struct stat64` (fstat64, fstatat64) and `struct statx`.
//!
//! Both are built in a kernel buffer, big-endian as ppc32 user space reads
//! them, and copied out in one window. Pipes and devices opened by name
//! report owner root and time 0; tmpfs inodes their own (`tmpfs::Meta`).

use sigil_core::abi::Errno;

use crate::uaccess::copy_to_user;

/// The file type bits of `Stat::mode` (the ABI crate's, checked against
/// Linux's headers), for fs and its callers.
pub use sigil_core::abi::mode::{S_IFCHR, S_IFDIR, S_IFIFO, S_IFLNK, S_IFMT, S_IFREG};

/// Linux's device number for the initramfs (a tmpfs-like anonymous device).
const RAMFS_DEV: (u32, u32) = (0, 1);
/// pipefs's anonymous device.
const PIPEFS_DEV: (u32, u32) = (0, 12);

#[derive(Clone, Copy)]
pub struct Stat {
    pub dev: (u32, u32),
    pub ino: u64,
    pub mode: u32,
    pub nlink: u32,
    pub rdev: (u32, u32),
    pub size: u64,
    pub blksize: u32,
    pub uid: u32,
    pub gid: u32,
    /// atime, mtime, ctime in ns since the epoch.
    pub times: [u64; 3],
}

impl Stat {
    /// An inode of a kernel-made file system (devtmpfs, pipefs,
    /// anon_inodefs): one link, empty, owned by root, no times.
    fn kernel_made(dev: (u32, u32), ino: u64, mode: u32, rdev: (u32, u32)) -> Stat {
        Stat {
            dev,
            ino,
            mode,
            nlink: 1,
            rdev,
            size: 0,
            blksize: 4096,
            uid: 0,
            gid: 0,
            times: [0; 3],
        }
    }

    /// A character device node (major:minor), as devtmpfs shows one.
    pub fn chr(major: u32, minor: u32) -> Stat {
        let ino = (major << 8 | minor) as u64 + 1;
        Stat::kernel_made((0, 5), ino, S_IFCHR | 0o620, (major, minor))
    }

    /// A pipe end (both ends of one pipe share `ino`), owned by the fs
    /// ids of the process that made the pipe, as pipefs inodes are.
    pub fn fifo(ino: u64, (uid, gid): (u32, u32)) -> Stat {
        Stat { uid, gid, ..Stat::kernel_made(PIPEFS_DEV, ino, S_IFIFO | 0o600, (0, 0)) }
    }

    /// An anonymous-inode file (eventfd, pidfd; Linux `anon_inode`: mode
    /// 0600 with no file type, on the anon_inodefs device; one inode made at
    /// boot serves every such file).
    pub fn anon() -> Stat {
        Stat::kernel_made((0, 13), 1, 0o600, (0, 0))
    }

    /// A tmpfs inode: its metadata `m` (the mode with its type bits), link count, device and size.
    pub fn tmpfs(
        ino: u64,
        m: crate::fs::tmpfs::Meta,
        nlink: u32,
        rdev: (u32, u32),
        size: u64,
    ) -> Stat {
        Stat {
            dev: RAMFS_DEV,
            ino,
            mode: m.mode,
            nlink,
            rdev,
            size,
            blksize: 4096,
            uid: m.uid,
            gid: m.gid,
            times: [m.atime, m.mtime, m.ctime],
        }
    }

    fn blocks(&self) -> u64 {
        self.size.div_ceil(512)
    }

    /// Linux `new_encode_dev`, the 32-bit dev_t user space sees.
    fn encode(d: (u32, u32)) -> u64 {
        ((d.1 & 0xff) | (d.0 << 8) | ((d.1 & !0xff) << 12)) as u64
    }

    /// Copies out a ppc32 `struct stat64` (104 bytes).
    pub fn put_stat64(&self, addr: u32) -> Result<u32, Errno> {
        let mut b = [0u8; 104];
        put(&mut b, 0, Self::encode(self.dev));
        put(&mut b, 8, self.ino);
        put(&mut b, 16, self.mode);
        put(&mut b, 20, self.nlink);
        put(&mut b, 24, self.uid);
        put(&mut b, 28, self.gid);
        put(&mut b, 32, Self::encode(self.rdev));
        put(&mut b, 48, self.size);
        put(&mut b, 56, self.blksize);
        put(&mut b, 64, self.blocks());
        for (i, t) in self.times.iter().enumerate() {
            put(&mut b, 72 + 8 * i, (t / 1_000_000_000) as u32);
            put(&mut b, 76 + 8 * i, (t % 1_000_000_000) as u32);
        }
        copy_to_user(addr, &b).map(|_| 0).map_err(Errno::from)
    }

    /// Copies out a `struct statx` (256 bytes), every basic field valid.
    pub fn put_statx(&self, addr: u32) -> Result<u32, Errno> {
        /// STATX_BASIC_STATS: type, mode, nlink, uid, gid, times, ino, size, blocks.
        const STATX_BASIC_STATS: u32 = 0x7ff;
        let mut b = [0u8; 256];
        put(&mut b, 0, STATX_BASIC_STATS);
        put(&mut b, 4, self.blksize);
        put(&mut b, 16, self.nlink);
        put(&mut b, 20, self.uid);
        put(&mut b, 24, self.gid);
        put(&mut b, 28, self.mode as u16);
        put(&mut b, 32, self.ino);
        put(&mut b, 40, self.size);
        put(&mut b, 48, self.blocks());
        // atime 64, btime 80 (left 0: unknown), ctime 96, mtime 112.
        for (off, t) in [(64, self.times[0]), (96, self.times[2]), (112, self.times[1])] {
            put(&mut b, off, t / 1_000_000_000);
            put(&mut b, off + 8, (t % 1_000_000_000) as u32);
        }
        put(&mut b, 128, self.rdev.0);
        put(&mut b, 132, self.rdev.1);
        put(&mut b, 136, self.dev.0);
        put(&mut b, 140, self.dev.1);
        copy_to_user(addr, &b).map(|_| 0).map_err(Errno::from)
    }
}

/// A big-endian field for the user layouts.
trait Field: Copy {
    fn bytes(self) -> impl AsRef<[u8]>;
}
impl Field for u16 {
    fn bytes(self) -> impl AsRef<[u8]> {
        self.to_be_bytes()
    }
}
impl Field for u32 {
    fn bytes(self) -> impl AsRef<[u8]> {
        self.to_be_bytes()
    }
}
impl Field for u64 {
    fn bytes(self) -> impl AsRef<[u8]> {
        self.to_be_bytes()
    }
}

fn put<T: Field>(buf: &mut [u8], off: usize, v: T) {
    let b = v.bytes();
    let b = b.as_ref();
    buf[off..off + b.len()].copy_from_slice(b);
}
