//! File type bits of a mode (`st_mode`, mknod's and open's `mode`, a cpio
//! header's): the top four of its 16 bits, under `S_IFMT`. The permission
//! bits below them are plain octal (`0o7777`) where they are used.

pub const S_IFMT: u32 = 0o170000;
pub const S_IFSOCK: u32 = 0o140000;
pub const S_IFLNK: u32 = 0o120000;
pub const S_IFREG: u32 = 0o100000;
pub const S_IFBLK: u32 = 0o060000;
pub const S_IFDIR: u32 = 0o040000;
pub const S_IFCHR: u32 = 0o020000;
pub const S_IFIFO: u32 = 0o010000;
