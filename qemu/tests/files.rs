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

/// Filling the tmpfs stops at ENOSPC with the kernel still able to fork;
/// deleting everything gives every frame back (the second fill holds as
/// much, and the leak check at power-off, which `common::sigil` asserts,
/// finds no leak). Sigil only: on a host it would fill the disk.
#[test]
fn fill_until_enospc_and_delete() {
    let r = common::sigil("fs_fill", &[], &[]);
    has_lines(
        &r.console,
        &["fork while full: ok", "second fill: same size, stopped by No space left on device"],
    );
    assert!(r.console.contains("stopped by No space left on device"), "{}", r.console);
}

/// `#!` scripts: the interpreter and its one argument, the script as named,
/// chains up to Linux's limit, and the errnos. Sigil only: under qemu-ppc
/// the host kernel would run the scripts, with a host interpreter.
#[test]
fn interpreter_scripts() {
    let r = common::sigil("script_exec", &[], &[]);
    has_lines(
        &r.console,
        &[
            "exe is absolute: 1",
            "argv: [show one  arg] [/tmp/sx/s1] [last]",
            "argv: [show] [/tmp/sx/tab] [last]",
            "argv: [show one  arg] [sx/s1] [last]",
            "argv: [show one  arg] [/tmp/sx/s1] [/tmp/sx/s2] [last]",
            "argv: [show one  arg] [/tmp/sx/s1] [/tmp/sx/s2] [/tmp/sx/s3] [/tmp/sx/s4] [/tmp/sx/s5] [last]",
            "s6 (6 scripts): exec: Too many levels of symbolic links",
            "no interpreter: exec: Exec format error",
            "missing interpreter: exec: No such file or directory",
            "no #!: exec: Exec format error",
            "mode 0644: exec: Permission denied",
            "rmdir: 0",
        ],
    );
}
