//! execve: a new address space from a static ELF file read through the
//! file tree, with the initial stack Linux ppc32 gives (argc, argv, envp,
//! auxv: sigil-core's `exec::build_stack`) and registers as `start_thread`
//! sets them. A `#!` script runs its interpreter instead (`program`), as
//! Linux's binfmt_script. Linux keeps this in fs/exec.c too, above the task
//! code: the process itself changes through `proc::exec::become_image`
//! (the other threads end, the new space and name), and what the process
//! shared with others it keeps sharing, except what exec changes here: the
//! descriptor table (copied if still shared, then the close-on-exec
//! descriptors closed) and the handlers (copied if another process holds
//! them, then reset), as Linux's `begin_new_exec`. PID 1's first exec is
//! `run_init` (Linux's `kernel_execve`).

use alloc::borrow::Cow;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use sigil_core::abi::Errno;
use sigil_core::elf;
use sigil_core::exec::{build_stack, ExecError, StackSpec, MAX_ARG_STRLEN};
use sigil_core::rlimit::{self, Limits, RLIMIT_STACK};
use sigil_core::script::{self, ScriptError};
use sigil_core::signal::Signal;

use super::tmpfs::Kind;
use super::{path as fspath, walk, FdTable, FsState};
use crate::arch::{self, TrapFrame};
use crate::kcell::KCell;
use crate::mm::space::{AddressSpace, Prot};
use crate::mm::{PAGE_SIZE, STACK_SIZE, STACK_TOP, TASK_SIZE};
use crate::proc::{self, exec::Image};
use crate::uaccess::{read_cstr_into, CstrError};

fn errno(e: ExecError) -> Errno {
    match e {
        ExecError::NoExec => Errno::ENOEXEC,
        ExecError::TooBig => Errno::E2BIG,
        ExecError::NoMem => Errno::ENOMEM,
        _ => Errno::EFAULT,
    }
}

fn page_floor(a: u32) -> u32 {
    a & !(PAGE_SIZE as u32 - 1)
}
fn page_ceil(a: u32) -> u32 {
    page_floor(a + PAGE_SIZE as u32 - 1)
}

/// What `program` finds: the absolute path, the ELF bytes, the argv.
type Program<'a> = (String, Cow<'static, [u8]>, Vec<Cow<'a, [u8]>>);

/// The program exec runs for `path`: its absolute path (what
/// /proc/self/exe says), its bytes and its argv. Each `#!` interpreter in the
/// chain is looked up in turn; argv becomes [interpreter, its argument if
/// any, the script as named, argv[1]...]. More than `script::MAX_DEPTH`
/// interpreters: ELOOP, as Linux.
fn program<'a>(path: &str, argv: &[&'a [u8]]) -> Result<Program<'a>, Errno> {
    let mut path = String::from(path);
    let mut argv: Vec<Cow<'a, [u8]>> = argv.iter().map(|a| Cow::Borrowed(*a)).collect();
    for _ in 0..=script::MAX_DEPTH {
        let node = fspath::lookup(fspath::AT_FDCWD, &path, true)?;
        let Kind::File(data) = &node.kind else { return Err(Errno::EACCES) };
        walk::permitted(&node, sigil_core::path::MAY_EXEC)?;
        let bytes = data.borrow().contents()?;
        let interp = match script::parse(&bytes) {
            Err(ScriptError::NotScript) => return Ok((fspath::real_path(&path)?, bytes, argv)),
            Err(ScriptError::NoInterp) => return Err(Errno::ENOEXEC),
            Ok(i) => i,
        };
        let interp_path = core::str::from_utf8(interp.path).map_err(|_| Errno::ENOENT)?;
        let mut next: Vec<Cow<'a, [u8]>> = Vec::new();
        next.push(Cow::Owned(interp.path.to_vec()));
        if let Some(arg) = interp.arg {
            next.push(Cow::Owned(arg.to_vec()));
        }
        next.push(Cow::Owned(path.as_bytes().to_vec()));
        next.extend(argv.drain(..).skip(1));
        argv = next;
        path = String::from(interp_path);
    }
    Err(Errno::ELOOP)
}

/// Builds the address space and the first user register state for the
/// program at `path`. Nothing of the caller changes: exec can still fail.
fn load(path: &str, argv: &[&[u8]], envp: &[&[u8]], limits: &Limits) -> Result<Image, Errno> {
    let (exe, data, argv) = program(path, argv)?;
    let argv: Vec<&[u8]> = argv.iter().map(|a| a.as_ref()).collect();
    let argv = &argv[..];
    let file_data: &[u8] = &data;
    let plan = elf::parse(file_data, TASK_SIZE).map_err(errno)?;
    let mut space = AddressSpace::new().ok_or(Errno::ENOMEM)?;
    crate::signal::sigpage::map(&mut space)?;
    for seg in &plan.segments {
        let (start, end) = (page_floor(seg.vaddr), page_ceil(seg.vaddr + seg.memsz));
        let prot = Prot { read: seg.read, write: seg.write, exec: seg.exec };
        if !space.is_free(start, end) {
            return Err(Errno::ENOEXEC);
        }
        space.add_area(start, end, prot, false)?;
        let data = &file_data[seg.file_offset as usize..(seg.file_offset + seg.filesz) as usize];
        space.write_bytes(seg.vaddr, data)?;
    }
    space.brk_start = page_ceil(plan.brk_start);
    space.brk = space.brk_start;
    // The stack: demand-zero, and executable (book3s/32 has no per-page
    // no-execute; old toolchains' nested-function trampolines run there).
    space.add_area(
        STACK_TOP - STACK_SIZE,
        STACK_TOP,
        Prot { read: true, write: true, exec: true },
        false,
    )?;

    let random = crate::random::bytes16();
    let cred = crate::cred::current().exec();
    let spec = StackSpec {
        argv,
        envp,
        arg_limit: rlimit::arg_limit(limits.cur(RLIMIT_STACK)),
        execfn: path.as_bytes(),
        platform: arch::platform().as_bytes(),
        ids: [cred.uid.real, cred.uid.effective, cred.gid.real, cred.gid.effective],
        secure: cred.secure_exec(),
        random,
        phdr: plan.phdr_vaddr,
        phent: plan.phent,
        phnum: plan.phnum,
        entry: plan.entry,
        hwcap: arch::hwcap(),
        dcache_bsize: arch::CACHE_BLOCK,
        icache_bsize: arch::CACHE_BLOCK,
        hwcap2: 0,
    };
    let image = build_stack(&spec, STACK_TOP).map_err(errno)?;
    space.write_bytes(image.sp, &image.bytes)?;

    let mut tf = TrapFrame::default();
    tf.set_sp(image.sp);
    tf.set_pc(plan.entry);
    tf.set_user_mode();
    Ok(Image { space, tf, exe, args: image.args, env: image.env })
}

/// argv and envp as execve copies them in, every string (without its
/// NUL) back to back in `bytes`, string i ending at `ends[i]`: two heap
/// blocks whatever the count, each grown fallibly.
struct Strings {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    /// The most bytes they may take, with their pointers (`rlimit::arg_limit`).
    limit: usize,
}

/// Sigil's cap on argv and envp entries, each (Linux has none below the
/// argument limit): it bounds the kernel's slices of them.
const MAX_STRINGS: usize = 16 * 1024;

impl Strings {
    /// Appends the NULL-terminated array of user string pointers at `addr`
    /// (argv or envp; NULL is an empty one) and returns how many it held.
    /// E2BIG as Linux's `copy_strings`: a string of MAX_ARG_STRLEN or more,
    /// or everything so far, pointers included, past the limit.
    fn read(&mut self, mut addr: u32) -> Result<usize, Errno> {
        let first = self.ends.len();
        while addr != 0 {
            let p: u32 = crate::uaccess::get_user(addr)?;
            if p == 0 {
                break;
            }
            if self.ends.len() - first >= MAX_STRINGS {
                return Err(Errno::E2BIG);
            }
            read_cstr_into(p, MAX_ARG_STRLEN as u32 - 1, &mut self.bytes).map_err(|e| match e {
                CstrError::Fault => Errno::EFAULT,
                CstrError::TooLong => Errno::E2BIG,
                CstrError::NoMemory => Errno::ENOMEM,
            })?;
            self.ends.try_reserve(1).map_err(|_| Errno::ENOMEM)?;
            self.ends.push(self.bytes.len());
            // Each string's NUL and its pointer count too.
            if self.bytes.len() + 5 * self.ends.len() > self.limit {
                return Err(Errno::E2BIG);
            }
            addr = addr.checked_add(4).ok_or(Errno::EFAULT)?;
        }
        Ok(self.ends.len() - first)
    }

    /// Strings `range` as slices of `bytes`.
    fn slices(&self, range: Range<usize>) -> Result<Vec<&[u8]>, Errno> {
        let mut v = Vec::new();
        v.try_reserve_exact(range.len()).map_err(|_| Errno::ENOMEM)?;
        for i in range {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            v.push(&self.bytes[start..self.ends[i]]);
        }
        Ok(v)
    }
}

/// The execve system call: on success the current process, now with this
/// one thread, runs the new program when it returns to user mode (`tf_out`
/// is the caller's live frame).
pub fn execve(tf_out: &mut TrapFrame, path: u32, argv: u32, envp: u32) -> Result<u32, Errno> {
    let path = fspath::read_path(path)?;
    let limits = proc::group().limits;
    let limit = rlimit::arg_limit(limits.cur(RLIMIT_STACK));
    let mut strings = Strings { bytes: Vec::new(), ends: Vec::new(), limit };
    let argc = strings.read(argv)?;
    let envc = strings.read(envp)?;
    let argv_refs = strings.slices(0..argc)?;
    let envp_refs = strings.slices(argc..argc + envc)?;
    let image = load(&path, &argv_refs, &envp_refs, &limits)?;
    proc::exec::become_image(tf_out, image, &path)?;
    let t = proc::current();
    let g = t.group();
    // Linux's unshare_files: a table still shared (with another process:
    // the other threads are gone) is copied, so closing the close-on-exec
    // descriptors does not close the other holder's. The old image is gone
    // (the point of no return): a copy the heap cannot give ends the
    // process with SIGSEGV, as a failure there does on Linux.
    if t.unshare_files().is_err() {
        past_no_return();
    }
    t.files().close_on_exec();
    if g.sig.exec().is_err() {
        past_no_return();
    }
    t.sig.exec();
    crate::time::timers::exec(g.pid);
    proc::clone::vfork_done(t);
    Ok(0)
}

/// execve failed after its point of no return: the process ends as if
/// killed by SIGSEGV (Linux's `force_fatal_sig(SIGSEGV)`).
fn past_no_return() -> ! {
    let status = sigil_core::abi::wait_status::signaled(Signal::SIGSEGV.number(), false);
    crate::signal::exit::exit_group(status)
}

/// Runs PID 1, the program at `path`, with the descriptor table and fs
/// state the boot code gives it (Linux's `kernel_execve` from
/// `run_init_process`, the environment Linux's init gets); see
/// `proc::run_init` for how the boot thread waits. Returns PID 1's wait
/// status.
pub fn run_init(path: &str, argv: &[&[u8]], files: FdTable, fs: FsState) -> Result<u32, Errno> {
    let envp: [&[u8]; 2] = [b"HOME=/", b"TERM=linux"];
    let image = load(path, argv, &envp, &proc::boot_limits())?;
    proc::run_init(image, path, (Rc::new(KCell::new(files)), Rc::new(KCell::new(fs))))
}
