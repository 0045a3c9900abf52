//! What a process is known by from outside: its name, where its argument
//! and environment strings are, when it started. Linux keeps these in the
//! task (`comm`, `start_time`) and the mm (`arg_start`..`env_end`); fork
//! and exec set them here, and /proc (`fs::procfs`) only reads them.

use alloc::string::String;
use core::ops::Range;

use crate::time::timer::now_ns;

/// A process's name, string areas and start time (`Group::shown`).
pub struct Shown {
    /// `task->comm`: the exec'd path's last component, 15 bytes at most.
    pub comm: String,
    /// The argv and envp strings in the process's memory (Linux's
    /// `mm->arg_start`..`arg_end`, `env_start`..`env_end`): cmdline and
    /// environ are read from there, so a program that rewrites its argv in
    /// place shows the new text, as on Linux.
    pub args: Range<u32>,
    pub env: Range<u32>,
    /// ns since boot at fork.
    pub start_ns: u64,
}

impl Shown {
    /// A new process: the parent's name and string areas (its copy of the
    /// parent's memory holds them at the same addresses), started now.
    pub fn fork(parent: Option<&Shown>) -> Shown {
        Shown {
            comm: parent.map_or_else(String::new, |p| p.comm.clone()),
            args: parent.map_or(0..0, |p| p.args.clone()),
            env: parent.map_or(0..0, |p| p.env.clone()),
            start_ns: now_ns(),
        }
    }

    /// execve of `path` succeeded, with its strings at `args` and `env`.
    pub fn exec(&mut self, path: &str, args: Range<u32>, env: Range<u32>) {
        self.comm = sigil_core::procfs::comm(path);
        self.args = args;
        self.env = env;
    }
}
