//! The console as a file: what programs read from and write to on fd 0-2.

use sigil_core::abi::Errno;

use crate::uaccess::{Access, UserWindow};

/// write(2) to the console: user bytes go out as they are, in chunks read
/// through one window each.
pub fn write_user(addr: u32, len: u32) -> Result<u32, Errno> {
    let mut buf = [0u8; 256];
    let mut done = 0;
    while done < len {
        let n = (len - done).min(buf.len() as u32);
        let w = UserWindow::open(addr + done, n, Access::Read).map_err(|_| Errno::EFAULT)?;
        w.read_bytes(0, &mut buf[..n as usize]);
        if w.finish().is_err() {
            return if done > 0 { Ok(done) } else { Err(Errno::EFAULT) };
        }
        crate::console::write_bytes(&buf[..n as usize]);
        done += n;
    }
    Ok(len)
}

/// read(2) from the console: returns what has arrived, or 0 (end of file)
/// when nothing has: Sigil's serial input is not interactive.
pub fn read_user(addr: u32, len: u32) -> Result<u32, Errno> {
    let mut n = 0;
    while n < len {
        match crate::arch::console_getc() {
            Some(b) => {
                crate::uaccess::put_user(addr + n, b).map_err(|_| Errno::EFAULT)?;
                n += 1;
            }
            None => break,
        }
    }
    Ok(n)
}
