//! The initramfs: a cpio "newc" archive QEMU loads with `-initrd`, read in
//! place (zero-copy) with sigil-core's parser. It is the only filesystem.

use sigil_core::cpio::Archive;

use crate::kcell::KCell;

static ARCHIVE: KCell<Option<Archive<'static>>> = KCell::new(None);

/// Takes the archive at `data` (checked once, here).
pub fn init(data: &'static [u8]) -> Result<usize, sigil_core::cpio::CpioError> {
    let a = Archive::new(data)?;
    let n = a.entries().count();
    *ARCHIVE.get() = Some(a);
    Ok(n)
}

/// A file or directory in the archive.
#[derive(Clone, Copy)]
pub struct Node {
    pub data: &'static [u8],
    pub mode: u32,
    pub is_file: bool,
    pub is_dir: bool,
    pub ino: u32,
}

/// Finds `path` ("/bin/x", "bin/x", "./bin/x").
pub fn lookup(path: &str) -> Option<Node> {
    let a = ARCHIVE.get().as_ref()?;
    let path = path.trim_start_matches("./").trim_start_matches('/');
    if path.is_empty() {
        return Some(Node { data: &[], mode: 0o040755, is_file: false, is_dir: true, ino: 1 });
    }
    a.entries().enumerate().find(|(_, e)| e.name == path).map(|(i, e)| Node {
        data: e.data,
        mode: e.mode,
        is_file: e.is_file(),
        is_dir: e.is_dir(),
        ino: i as u32 + 2,
    })
}
