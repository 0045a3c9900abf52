//! Device nodes: the /dev entries made at boot (as devtmpfs would) and the
//! driver each one opens.

use alloc::sync::Arc;

use super::tmpfs::{self, Kind, Node};
use super::{stat, walk, File, FileOps};

/// /dev/null: reads end at once, writes vanish.
pub struct Null;

impl FileOps for Null {
    fn read(&self, _buf: u32, _len: u32) -> Result<u32, sigil_core::abi::Errno> {
        Ok(0)
    }
    fn write(&self, _buf: u32, len: u32) -> Result<u32, sigil_core::abi::Errno> {
        Ok(len)
    }
    fn stat(&self) -> super::Stat {
        super::Stat::chr(1, 3)
    }
}

/// Every device node: its path and (major, minor), Linux's numbers.
const NODES: [(&str, (u32, u32)); 6] = [
    ("/dev/null", (1, 3)),
    ("/dev/console", (5, 1)),
    ("/dev/tty", (5, 0)),
    ("/dev/ttyS0", (4, 64)),
    ("/dev/snd/pcmC0D0p", (116, 16)),
    ("/dev/sigil/uaccess", (10, 240)),
];

/// Opens the device node made for `path`.
pub fn open(path: &str) -> Arc<File> {
    match path {
        "/dev/null" => Arc::new(Null),
        "/dev/snd/pcmC0D0p" => crate::dev::pcm::open(),
        "/dev/sigil/uaccess" => crate::dev::counters::open(),
        _ => Arc::new(super::Console::new(super::flags::O_RDWR, rdev(path))),
    }
}

/// The node made for device `rdev`, if any (/proc/<pid>/fd's links).
pub fn path_of(rdev: (u32, u32)) -> Option<&'static str> {
    NODES.iter().find(|n| n.1 == rdev).map(|n| n.0)
}

/// The device number of the node made for `path`.
pub fn rdev(path: &str) -> (u32, u32) {
    NODES.iter().find(|n| n.0 == path).map_or((0, 0), |n| n.1)
}

/// Makes /dev and its nodes (mode crw-rw-rw- for null, crw--w---- for the
/// terminals, as udev leaves them), creating the directories on the way.
pub fn populate(root: &Node) {
    for (path, _) in NODES {
        let mut dir = root.clone();
        let mut parts = path[1..].split('/').peekable();
        while let Some(name) = parts.next() {
            if parts.peek().is_none() {
                let mode = if path == "/dev/null" { 0o666 } else { 0o620 };
                let node = tmpfs::new_inode(stat::S_IFCHR | mode, Kind::Device(path));
                let _ = walk::create(&dir, name, node);
            } else {
                dir = match walk::child(&dir, name) {
                    Some(d) => d,
                    None => {
                        let d = tmpfs::new_dir(0o755, &dir);
                        walk::create(&dir, name, d.clone()).map_or(root.clone(), |d| d)
                    }
                };
            }
        }
    }
}
