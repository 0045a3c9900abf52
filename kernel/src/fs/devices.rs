//! Device nodes: the /dev entries made at boot (as devtmpfs would), the
//! driver each one opens, and `DeviceFile`, which ties an open driver to the
//! node it was opened by, so that fstat of the descriptor and stat of the
//! name report the same inode (and fchmod, fchown and futimens change it),
//! as on Linux.

use alloc::sync::Arc;

use sigil_core::abi::Errno;

use super::poll::PollWait;
use super::tmpfs::{self, Kind, Node, ZEROS};
use super::{stat, walk, Console, File, FileOps, Stat, StatusFlags};
use crate::mm::heap;
use crate::uaccess::copy_to_user;

/// /dev/null: reads end at once, writes vanish.
pub struct Null;

impl FileOps for Null {
    fn read(&self, _buf: u32, _len: u32) -> Result<u32, Errno> {
        Ok(0)
    }
    fn write(&self, _buf: u32, len: u32) -> Result<u32, Errno> {
        Ok(len)
    }
}

/// /dev/zero: reads give zeros, writes vanish. One read gives at most
/// `ZERO_CHUNK` bytes (a short read, as a device may give), so a huge read
/// cannot hold the non-preemptible kernel for long.
pub struct Zero;

const ZERO_CHUNK: u32 = 1 << 20;

impl FileOps for Zero {
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        let len = len.min(ZERO_CHUNK);
        let mut done = 0;
        while done < len {
            let k = (len - done).min(ZEROS.len() as u32);
            copy_to_user(buf + done, &ZEROS[..k as usize])?;
            done += k;
        }
        Ok(len)
    }
    fn write(&self, _buf: u32, len: u32) -> Result<u32, Errno> {
        Ok(len)
    }
}

/// Every device node: its path, (major, minor) and mode, Linux's: null,
/// zero and tty are crw-rw-rw- for everyone; the console crw------- and the
/// serial line crw-rw---- (devtmpfs and udev); ALSA's major 116 (minor 16:
/// card 0, device 0, playback); the counters a misc device (major 10) with a
/// minor from the range Linux leaves for local use (240-254).
const NODES: [(&str, (u32, u32), u32); 7] = [
    ("/dev/null", (1, 3), 0o666),
    ("/dev/zero", (1, 5), 0o666),
    ("/dev/console", (5, 1), 0o600),
    ("/dev/tty", (5, 0), 0o666),
    ("/dev/ttyS0", (4, 64), 0o660),
    ("/dev/snd/pcmC0D0p", (116, 16), 0o660),
    ("/dev/sigil/uaccess", (10, 240), 0o644),
];

/// Opens the device node `node` (made for `path`), with `open_flags`;
/// ENOMEM if the heap has no room for the open file.
pub fn open(path: &str, node: &Node, open_flags: u32) -> Result<Arc<File>, Errno> {
    let node = node.clone();
    let file: Arc<File> = match path {
        "/dev/null" => heap::arc(DeviceFile { node, dev: Null })?,
        "/dev/zero" => heap::arc(DeviceFile { node, dev: Zero })?,
        "/dev/snd/pcmC0D0p" => heap::arc(DeviceFile { node, dev: crate::dev::pcm::open() })?,
        "/dev/sigil/uaccess" => {
            heap::arc(DeviceFile { node, dev: crate::dev::counters::Counters })?
        }
        _ => heap::arc(DeviceFile { node, dev: Console::new(open_flags, rdev(path)) })?,
    };
    file.set_status_flags(open_flags);
    Ok(file)
}

/// The device number of the node made for `path`.
pub fn rdev(path: &str) -> (u32, u32) {
    NODES.iter().find(|n| n.0 == path).map_or((0, 0), |n| n.1)
}

/// The node path whose driver serves device number `rdev` (mknod, and
/// /proc/<pid>/fd's links).
pub fn path_of(rdev: (u32, u32)) -> Option<&'static str> {
    NODES.iter().find(|n| n.1 == rdev).map(|n| n.0)
}

/// Makes /dev and its nodes, creating the directories on the way.
pub fn populate(root: &Node) {
    for (path, _, mode) in NODES {
        let mut dir = root.clone();
        let mut parts = path[1..].split('/').peekable();
        while let Some(name) = parts.next() {
            if parts.peek().is_none() {
                if let Ok(node) = tmpfs::new_inode(stat::S_IFCHR | mode, Kind::Device(path)) {
                    let _ = walk::create(&dir, name, node);
                }
            } else {
                dir = match walk::child(&dir, name) {
                    Some(d) => d,
                    None => tmpfs::new_dir(0o755, &dir)
                        .and_then(|d| walk::create(&dir, name, d))
                        .unwrap_or_else(|_| root.clone()),
                };
            }
        }
    }
}

/// An open device: the driver `dev` and the node it was opened by. The
/// node answers stat and the attribute calls; everything else is the
/// driver's (statically dispatched: no cost on a device's hot path).
pub struct DeviceFile<T> {
    node: Node,
    dev: T,
}

impl<T: FileOps> FileOps for DeviceFile<T> {
    fn read(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        self.dev.read(buf, len)
    }
    fn write(&self, buf: u32, len: u32) -> Result<u32, Errno> {
        self.dev.write(buf, len)
    }
    fn ioctl(&self, req: u32, arg: u32) -> Result<u32, Errno> {
        self.dev.ioctl(req, arg)
    }
    fn stat(&self) -> Stat {
        self.node.stat()
    }
    fn seek(&self, off: i64, whence: u32) -> Result<u64, Errno> {
        self.dev.seek(off, whence)
    }
    fn read_at(&self, off: u64, buf: u32, len: u32) -> Result<u32, Errno> {
        self.dev.read_at(off, buf, len)
    }
    fn write_at(&self, off: u64, buf: u32, len: u32) -> Result<u32, Errno> {
        self.dev.write_at(off, buf, len)
    }
    fn status(&self) -> Option<&StatusFlags> {
        self.dev.status()
    }
    fn poll_ready(&self) -> u16 {
        self.dev.poll_ready()
    }
    fn opened(&self, open_flags: u32) -> Result<(), Errno> {
        self.dev.opened(open_flags)
    }
    fn poll_wait(&self) -> PollWait<'_> {
        self.dev.poll_wait()
    }
    fn can_poll(&self) -> bool {
        self.dev.can_poll()
    }
    fn inode(&self) -> Option<&Node> {
        Some(&self.node)
    }
}
