//! The writable file tree (tmpfs): files, directories, links, attributes,
//! the working directory, `#!` scripts, and the ENOSPC path, each program
//! compared with qemu-ppc where the host agrees, and BusyBox through the
//! console for what a user types.

mod common;

use common::{compare, has_lines};

/// Creating, appending, truncating, renaming, linking and removing under a
/// fresh directory, with Linux's errno for each misuse; cwd and *at calls.
#[test]
fn fs_tree() {
    let out = compare("fs_tree", &[]);
    has_lines(
        &out,
        &[
            "cat fst/f: \"hello world\"",
            "rename d into d/e: -1, Invalid argument",
            "stat /dev/null/: -1, Not a directory",
            "open a link loop: -1, Too many levels of symbolic links",
            "open 256-byte name: -1, File name too long",
            "open 4200-byte path: -1, File name too long",
            "cwd ends in /d",
            "inherited cwd ends in /fst",
            "opened until: Too many open files",
            "rmdir fst: 0",
        ],
    );
}
