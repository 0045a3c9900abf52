//! The initramfs: a cpio "newc" archive QEMU loads with `-initrd`, unpacked
//! once at boot into the tmpfs root, as Linux unpacks its initramfs into
//! rootfs. Files keep pointing at the archive's bytes (zero-copy) until
//! they are first written (`tmpfs::Data`); directories and symbolic links
//! become tmpfs inodes, with the archive's modes.

use alloc::string::String;

use sigil_core::abi::Errno;
use sigil_core::cpio::{Archive, Entry};

use super::tmpfs::{self, Data, Kind};
use super::walk;

/// Unpacks the archive at `data` (checked here) into the tmpfs root;
/// returns how many entries it had.
pub fn init(data: &'static [u8]) -> Result<usize, sigil_core::cpio::CpioError> {
    let a = Archive::new(data)?;
    let root = tmpfs::root();
    let mut n = 0;
    for e in a.entries() {
        n += 1;
        if let Err(err) = unpack(&root, &e) {
            crate::kprintln!("sigil: initramfs: {}: {}", e.name, err.name());
        }
    }
    super::devices::populate(&root);
    tmpfs::shrink(&root);
    Ok(n)
}

/// One archive entry as a tmpfs inode (a directory the archive repeats is
/// kept, with the later mode).
fn unpack(root: &tmpfs::Node, e: &Entry<'static>) -> Result<(), Errno> {
    let name = e.name.trim_start_matches("./");
    if name.is_empty() || name == "." {
        return Ok(());
    }
    let (dir, last) = walk::parent(root, name)?;
    if let Some(old) = walk::child(&dir, last).filter(|n| n.is_dir() && e.is_dir()) {
        old.meta.borrow_mut().mode = e.mode;
        return Ok(());
    }
    let node = if e.is_dir() {
        tmpfs::new_dir(e.mode, &dir)?
    } else if e.is_symlink() {
        let target = core::str::from_utf8(e.data).map_err(|_| Errno::EINVAL)?;
        tmpfs::new_inode(e.mode, Kind::Symlink(String::from(target)))?
    } else if e.is_file() {
        tmpfs::new_inode(e.mode, Kind::File(core::cell::RefCell::new(Data::Archive(e.data))))?
    } else {
        return Err(Errno::EINVAL);
    };
    walk::create(&dir, last, node).map(|_| ())
}
