//! File system calls on descriptors: read, write, writev, close, ioctl.

use sigil_core::abi::Errno;

use super::SysResult;
use crate::proc;
use crate::uaccess::{Access, UserWindow};

pub fn read(fd: u32, buf: u32, len: u32) -> SysResult {
    let f = proc::current().files.get(fd)?.clone();
    f.read(buf, len)
}

pub fn write(fd: u32, buf: u32, len: u32) -> SysResult {
    let f = proc::current().files.get(fd)?.clone();
    f.write(buf, len)
}

/// writev(fd, iov, n): the iovec array is read in one window.
pub fn writev(fd: u32, iov: u32, n: u32) -> SysResult {
    if n > 1024 {
        return Err(Errno::EINVAL);
    }
    let f = proc::current().files.get(fd)?.clone();
    let mut vecs = alloc::vec::Vec::with_capacity(n as usize);
    let w = UserWindow::open(iov, n * 8, Access::Read).map_err(|_| Errno::EFAULT)?;
    for i in 0..n {
        vecs.push((w.get::<u32>(i * 8), w.get::<u32>(i * 8 + 4)));
    }
    w.finish().map_err(|_| Errno::EFAULT)?;
    let mut total = 0u32;
    for (base, len) in vecs {
        if len == 0 {
            continue;
        }
        match f.write(base, len) {
            Ok(k) => total += k,
            Err(e) if total == 0 => return Err(e),
            Err(_) => break,
        }
    }
    Ok(total)
}

pub fn close(fd: u32) -> SysResult {
    proc::current().files.close(fd).map(|_| 0)
}

/// ioctl: the file decides. (The console is not a terminal, like a pipe under
/// qemu-ppc, so glibc buffers stdout the same way on both.)
pub fn ioctl(fd: u32, req: u32, arg: u32) -> SysResult {
    let f = proc::current().files.get(fd)?.clone();
    f.ioctl(req, arg)
}
