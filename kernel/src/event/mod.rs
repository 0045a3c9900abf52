//! Event descriptors: files that stand for something other than data -
//! a counter (eventfd), a process (pidfd). Each kind is a `FileOps` of its own, in its own
//! file; the system calls that make them are in `syscall/event.rs`.
//!
//! They block and poll as pipes do: a reader sleeps on the object's own
//! channel, every change wakes it and the object's `WaitQueue` of pollers.

pub mod eventfd;
pub mod pidfd;

use crate::fs::Stat;

/// What fstat says about an anonymous-inode file (Linux `anon_inode`:
/// mode 0600 with no file type, on the anon_inodefs device, owned by root:
/// one inode made at boot serves every such file).
fn anon_stat() -> Stat {
    Stat {
        dev: (0, 13),
        ino: 1,
        mode: 0o600,
        nlink: 1,
        rdev: (0, 0),
        size: 0,
        blksize: 4096,
        uid: 0,
        gid: 0,
        times: [0; 3],
    }
}
