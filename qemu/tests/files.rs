//! The writable file tree (tmpfs): files, directories, links, attributes,
//! the working directory, named pipes, `#!` scripts, and the ENOSPC path, each program
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

/// Private file mappings: the file's bytes (a page file's and an archive
/// file's), private stores, a mapping that outlives close and unlink,
/// SIGBUS on a page wholly past the end of the file (also a private copy
/// ftruncate cut off), a write() after mmap seen through an untouched page
/// only, and Linux's errors in its order. si_addr of that SIGBUS is checked on Sigil alone: qemu-ppc
/// does not report the touched address there, as Linux does.
#[test]
fn mmap_file() {
    let r = common::sigil("mmap_file", &["si_addr"], &[]);
    assert_eq!(r.console.matches("si_addr the touched address: 1").count(), 3, "{}", r.console);
    let out = compare("mmap_file", &[]);
    has_lines(
        &out,
        &[
            "first byte a, last of page 0 a, page 1 \"second page\"",
            "past the end of the file: 0",
            "store in the last page's tail: y, then 0",
            "read of a page past the end: SIGBUS, BUS_ADRERR 1",
            "write of a page past the end: SIGBUS, BUS_ADRERR 1",
            "after the file grows: \"grown\"",
            "a stored-to page the file is cut below: SIGBUS, BUS_ADRERR 1",
            "after a private store, mapping \"SECOND\", file \"second\"",
            "after close and unlink: \"SECOND\"",
            "a write() after mmap: stored-to page \"Smmmm\", untouched page \"LATE\"",
            "ELF magic: 1, class 32-bit: 1, big-endian: 1",
            "mmap of a write-only descriptor: -1, Permission denied",
            "mmap of a pipe: -1, No such device",
            "mmap of a directory: -1, No such device",
        ],
    );
}

/// Shared file mappings: the mapping's pages are the file's frames, for
/// pread, pwrite, a forked child's own mapping and the one fork shares;
/// SIGBUS past the end, also after ftruncate shrinks the file under the
/// mapping; code stored through one mapping run from another; a mapping
/// that outlives close and unlink; an archive file shared; EACCES for writing through a read-only
/// descriptor; msync's checks; mtime and ctime set by the store that
/// faults a page in, the program's or read()'s; and no leak with all of it.
#[test]
fn mmap_shared() {
    let out = compare("mmap_shared", &[]);
    has_lines(
        &out,
        &[
            "page 1 \"second page\", tail past the end 0 0",
            "page 2, wholly past the end: -1",
            "maps names the file: 1",
            "after a store, file \"STORED\"",
            "after pwrite, mapping \"WRITE\"",
            "pwrite from the mapping: \"WRITESTO\"",
            "child's stores: mapping \"CHILD\" \"FORKED\", file \"CHILD\"",
            "msync MS_SYNC: 0",
            "msync MS_SYNC|MS_ASYNC: -1, Invalid argument",
            "after the shrink: page 1 -1, byte 19 K, byte 20 0",
            "grown again: page 1 0",
            "store in the grown page, file 'G'",
            "code from the file returns 42",
            "after close and unlink: \"STORED\" \"ORPHAN\"",
            "shared PROT_WRITE of a read-only fd: -1, Permission denied",
            "private PROT_WRITE of a read-only fd: 0",
            "mprotect it to PROT_WRITE: -1, Permission denied",
            "msync unmapped: -1, Cannot allocate memory",
            "ELF magic: 1",
            "a first store through the mapping: mtime set 1, ctime moved 1",
            "read() from /dev/zero into the mapping: 16, byte 0 0, mtime set 1",
            "pread() of the file into its own mapping: 4 \"file\", mtime set 1",
            "truncated to 0 under the mapping: -1",
        ],
    );
}

/// Named pipes: fifo_open's waits and ENXIO, poll's hang-up rule, data
/// gone with the last close, EINTR in a blocking open, stat and fd links.
#[test]
fn fifo() {
    let out = compare("fifo", &[]);
    has_lines(
        &out,
        &[
            "mkfifo ff: 0",
            "stat: fifo 1, mode 640, size 0, nlink 1",
            "readdir: d_type fifo 1",
            "open O_WRONLY|O_NONBLOCK, no reader: -1, No such device or address",
            "poll, no writer yet: 0",
            "fstat: fifo 1, same inode 1",
            "read got \"abc\"",
            "from the child: \"hello\", then EOF 1",
            "after the last close, FIONREAD: 0",
            "fd link ends in: ff",
            "write, reader gone: -1, Broken pipe",
            "blocking open, alarm: -1, Interrupted system call",
            "read after unlink: 2",
        ],
    );
}

/// Linux's order of checks: EEXIST before EACCES when creating, ENOENT
/// before EACCES when removing, the sticky bit's EPERM; O_CREAT through a
/// dangling link; AT_EMPTY_PATH on a file descriptor; the device nodes'
/// modes and fstat agreeing with stat; readv/writev's limits.
#[test]
fn fs_rules() {
    let out = common::compare_as_user("fs_rules", &[]);
    has_lines(
        &out,
        &[
            "/tmp: mode 1777",
            "mkdir /tmp: File exists",
            "mkdir ro/new: Permission denied",
            "unlink ro/missing: No such file or directory",
            "unlink ro/f: Permission denied",
            "mkdir nox/f: Permission denied",
            "mknod ro/f: File exists",
            "mknod st/null (a device, as a user): Operation not permitted",
            "null2: char 1 rdev 1,3",
            "unlink st/rootf: Operation not permitted",
            "unlink st/mine2 (own): 0",
            "faccessat2(fd, \"\", W_OK, AT_EMPTY_PATH): Permission denied",
            "target made: 1",
            "open dangle O_CREAT|O_EXCL: File exists",
            "/dev/null: fstat agrees: 1",
            "/dev/tty: mode 666 rdev 5,0",
            "writev 1025 iovecs: Invalid argument",
            "writev 4 GiB to /dev/null: 2147479552",
            "cleanup: 0 0 0 0 0 0",
        ],
    );
}

/// execve's E2BIG and ENAMETOOLONG at Linux's limits (which follow
/// RLIMIT_STACK), and the tmpfs
/// metadata budget: links and files with long names until ENOSPC, twice,
/// the kernel still forking and its heap coming back (the leak check at
/// power-off, which `common::sigil` asserts). Sigil only: qemu-ppc cannot
/// exec a ppc32 program here, and the fill would fill the host's /tmp.
#[test]
fn exec_and_metadata_limits() {
    let r = common::sigil("fs_limits", &[], &[]);
    has_lines(
        &r.console,
        &[
            "child: 1 arguments, 131071 bytes",
            "one 131071-byte argument: ran, exit 3",
            "one 131072-byte argument: Argument list too long",
            "child: 4 arguments, 200000 bytes",
            "4 arguments of 50000 bytes: ran, exit 3",
            "30 arguments of 100000 bytes: Argument list too long",
            "stack 256 KiB: one 100000-byte argument: ran, exit 3",
            "stack 256 KiB: 4 arguments of 50000 bytes: Argument list too long",
            "stack unlimited: 24 arguments of 100000 bytes: Argument list too long",
            "execve 5000-byte path: File name too long",
            "write 2 GiB to /dev/null: 2147479552",
            "links: stopped by No space left on device",
            "files: stopped by No space left on device",
            "fork while full: ok",
            "second fill: same",
            "rmdir: 0",
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
