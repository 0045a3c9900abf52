//! Isolation between processes: what one process does to its own address
//! space never reaches another's memory (docs/threat-model.md). Each program
//! runs as PID 1 on Sigil and under qemu-ppc; output and status must match.

mod common;

use common::{compare, has_lines};

/// Fork shares read-only pages; mprotect + write on either side stays private,
/// so does CLONE_CHILD_SETTID aimed at a shared read-only page (the kernel
/// stores it, not the child), and MAP_SHARED anonymous memory stays shared.
#[test]
fn cow() {
    let out = compare("cow", &[]);
    has_lines(
        &out,
        &[
            "child mprotect RW + write of a shared read-only page: child status 0, parent sees \"parent's page\"",
            "parent mprotect RW + write after fork: child sees \"parent's page\"",
            "child rewrites the program's text: child status 0, parent's function returns 7",
            "CLONE_CHILD_SETTID into the program's read-only data: parent sees \"read-only data of the program\"",
            "MAP_SHARED anonymous, written by a child: touched page 1234, untouched page 1234",
        ],
    );
}

/// A signal raised by a system call right after a child died of SIGSEGV:
/// its frame must not carry the child's fault address (DAR) or status.
#[test]
fn fault_registers_stay_with_their_process() {
    let out = compare("sig_faultregs", &[]);
    has_lines(
        &out,
        &[
            "children killed by SIGSEGV: 20 of 20",
            "SIGUSR1 frames holding a dead child's fault address: 0",
        ],
    );
}

/// Errnos Linux defines for edge cases (getrandom, readlink, pipe ends, mmap),
/// and on Sigil alone mmap MAP_FIXED past TASK_SIZE (ENOMEM, as Linux).
#[test]
fn errno_edges() {
    let out = compare("errno_edges", &[]);
    has_lines(
        &out,
        &[
            "getrandom(buf, 8, 0x10): -1, Invalid argument",
            "readlink(\"/\", buf, 64): -1, Invalid argument",
            "read(pipe write end): -1, Bad file descriptor",
            "mmap(fd 99, not open): -1, Bad file descriptor",
        ],
    );
    let r = common::sigil("errno_edges", &["tasksize"], &[]);
    has_lines(&r.console, &["mmap(MAP_FIXED, past TASK_SIZE): -1, Cannot allocate memory"]);
}

/// The JIT pattern: code stored through a RW page runs after mprotect to
/// R|X, round after round on one page, so a stale instruction cache would
/// return an older round's value (mprotect adding PROT_EXEC syncs it).
/// QEMU models no instruction cache (TCG retranslates code that stores
/// touch), so under QEMU this checks the pattern and the path, not the
/// sync itself: that matters on the hardware boards.
#[test]
fn mprotect_jit() {
    let out = compare("mprotect_jit", &[]);
    has_lines(&out, &["round 0: 42", "round 7: 49", "rounds right: 8 of 8"]);
}
