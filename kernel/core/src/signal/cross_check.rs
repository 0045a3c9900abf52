//! Host test: every ABI number and layout in `abi` and `signal` against the
//! real powerpc-linux-gnu headers, compiled and run under qemu-ppc.
//!
//! The test generates a C program from a table of (C expression, value Rust
//! believes), builds it with `powerpc-linux-gnu-gcc -static`, runs it with
//! `qemu-ppc` and compares line by line. Two translation units, because the
//! kernel uapi headers (`asm/ucontext.h`, `asm/siginfo.h`, ...) and glibc's
//! (`sys/wait.h`) define the same names differently:
//! - uapi side: sizes and offsets of the frame structs, siginfo, stack_t and
//!   the kernel `struct sigaction`, plus every constant;
//! - glibc side: the wait status words decoded by glibc's W* macros, and an
//!   rt_sigaction round trip through the emulated kernel (raw syscall 173).
//!
//! Missing tools are a test failure, never a skip: `make test` installs them.

use core::mem::{align_of, offset_of, size_of};
use std::format;
use std::process::Command;
use std::string::{String, ToString};
use std::vec::Vec;

use super::action::SigAction;
use super::altstack::StackT;
use super::frame::*;
use super::info::{SigInfo, SIGINFO_USER_SIZE};
use super::sigset::Signal;
use crate::abi::{self, wait_status, Errno};

/// (C expression, the value Rust holds for it).
type Table = Vec<(String, i64)>;

fn add(t: &mut Table, expr: &str, v: impl TryInto<i64>) {
    let v = v.try_into().unwrap_or_else(|_| panic!("{expr}: value does not fit i64"));
    t.push((expr.to_string(), v));
}

/// Byte offset of the word equal to `marker` in `words` (locates a field in
/// what a Rust constructor or encoder produced).
fn offset_of_marker(words: &[u32], marker: u32) -> usize {
    4 * words.iter().position(|&w| w == marker).expect("marker not found")
}

fn struct_layouts(t: &mut Table) {
    add(t, "sizeof(struct sigcontext)", size_of::<SigContext>());
    for (f, o) in [
        ("signal", offset_of!(SigContext, signal)),
        ("handler", offset_of!(SigContext, handler)),
        ("oldmask", offset_of!(SigContext, oldmask)),
        ("regs", offset_of!(SigContext, regs)),
    ] {
        add(t, &format!("offsetof(struct sigcontext, {f})"), o);
    }
    add(t, "sizeof(struct mcontext)", size_of::<MContext>());
    add(t, "__alignof__(struct mcontext)", align_of::<MContext>());
    add(t, "offsetof(struct mcontext, mc_fregs)", offset_of!(MContext, mc_fregs));
    add(t, "offsetof(struct mcontext, mc_pad)", offset_of!(MContext, mc_pad));
    add(t, "offsetof(struct mcontext, mc_vregs)", offset_of!(MContext, mc_vregs));
    add(t, "sizeof(elf_gregset_t) / 4", NGREG);
    add(t, "sizeof(struct ucontext)", size_of::<UContext>());
    for (f, o) in [
        ("uc_link", offset_of!(UContext, uc_link)),
        ("uc_stack", offset_of!(UContext, uc_stack)),
        ("uc_pad", offset_of!(UContext, uc_pad)),
        ("uc_regs", offset_of!(UContext, uc_regs)),
        ("uc_sigmask", offset_of!(UContext, uc_sigmask)),
        ("uc_maskext", offset_of!(UContext, uc_maskext)),
        ("uc_pad2", offset_of!(UContext, uc_pad2)),
        ("uc_mcontext", offset_of!(UContext, uc_mcontext)),
    ] {
        add(t, &format!("offsetof(struct ucontext, {f})"), o);
    }
    // Linux's frames are kernel-private structs; the C side declares them
    // exactly as arch/powerpc/kernel/signal_32.c does (without TM).
    add(t, "sizeof(struct sigframe)", SigFrame::SIZE);
    add(t, "offsetof(struct sigframe, mctx)", SigFrame::MCONTEXT);
    add(t, "offsetof(struct sigframe, mctx.mc_pad)", SigFrame::MC_PAD);
    add(t, "offsetof(struct sigframe, abigap)", offset_of!(SigFrame, abigap));
    add(t, "sizeof(struct rt_sigframe)", RtSigFrame::SIZE);
    add(t, "offsetof(struct rt_sigframe, uc)", RtSigFrame::UCONTEXT);
    add(t, "offsetof(struct rt_sigframe, uc.uc_mcontext)", RtSigFrame::MCONTEXT);
    add(t, "offsetof(struct rt_sigframe, uc.uc_mcontext.mc_pad)", RtSigFrame::MC_PAD);
    add(t, "offsetof(struct rt_sigframe, abigap)", offset_of!(RtSigFrame, abigap));

    add(t, "sizeof(stack_t)", size_of::<StackT>());
    add(t, "offsetof(stack_t, ss_flags)", offset_of!(StackT, ss_flags));
    add(t, "offsetof(stack_t, ss_size)", offset_of!(StackT, ss_size));

    // siginfo_t: where the constructors put each field.
    add(t, "sizeof(siginfo_t)", SIGINFO_USER_SIZE);
    let sig = Signal::SIGUSR1;
    let kill = SigInfo::queue(sig, 0x1111, 0x2222, 0x3333);
    let chld = SigInfo::chld(0x4444, 0x5555, 0x6666, 0x7777).with_child_times(0x8888, 0x9999);
    let fault = SigInfo::fault(sig, 0x4444, 0xaaaa);
    let timer = SigInfo::timer(sig, 0xbbbb, 0xcccc, 0xdddd);
    for (field, info, marker) in [
        ("si_signo", kill, sig.number()),
        ("si_code", chld, 0x4444),
        ("si_pid", kill, 0x1111),
        ("si_uid", kill, 0x2222),
        ("si_int", kill, 0x3333),
        ("si_ptr", kill, 0x3333),
        ("si_status", chld, 0x7777),
        ("si_utime", chld, 0x8888),
        ("si_stime", chld, 0x9999),
        ("si_addr", fault, 0xaaaa),
        ("si_tid", timer, 0xbbbb),
        ("si_overrun", timer, 0xcccc),
    ] {
        add(t, &format!("offsetof(siginfo_t, {field})"), offset_of_marker(info.words(), marker));
    }
    add(t, "offsetof(siginfo_t, si_errno)", 4);

    // The kernel struct sigaction (rt_sigaction) and struct old_sigaction.
    let a = SigAction::new(
        super::Signal::SIGUSR1,
        0x11,
        0x22,
        0x33,
        super::SigSet::from_user_words(0x44, 0),
    );
    add(t, "sizeof(struct sigaction)", 4 * a.to_words().len());
    add(t, "sizeof(struct old_sigaction)", 4 * a.to_old_words().len());
    for (field, marker) in
        [("sa_handler", 0x11), ("sa_flags", 0x22), ("sa_restorer", 0x33), ("sa_mask", 0x44)]
    {
        add(
            t,
            &format!("offsetof(struct sigaction, {field})"),
            offset_of_marker(&a.to_words(), marker),
        );
        add(
            t,
            &format!("offsetof(struct old_sigaction, {field})"),
            offset_of_marker(&a.to_old_words(), marker),
        );
    }
}

fn constants(t: &mut Table) {
    macro_rules! same {
        ($($name:ident = $v:expr),* $(,)?) => { $(add(t, stringify!($name), $v);)* };
    }
    same!(
        SIGHUP = Signal::SIGHUP.number(),
        SIGINT = Signal::SIGINT.number(),
        SIGQUIT = Signal::SIGQUIT.number(),
        SIGILL = Signal::SIGILL.number(),
        SIGTRAP = Signal::SIGTRAP.number(),
        SIGABRT = Signal::SIGABRT.number(),
        SIGBUS = Signal::SIGBUS.number(),
        SIGFPE = Signal::SIGFPE.number(),
        SIGKILL = Signal::SIGKILL.number(),
        SIGUSR1 = Signal::SIGUSR1.number(),
        SIGSEGV = Signal::SIGSEGV.number(),
        SIGUSR2 = Signal::SIGUSR2.number(),
        SIGPIPE = Signal::SIGPIPE.number(),
        SIGALRM = Signal::SIGALRM.number(),
        SIGTERM = Signal::SIGTERM.number(),
        SIGSTKFLT = Signal::SIGSTKFLT.number(),
        SIGCHLD = Signal::SIGCHLD.number(),
        SIGCONT = Signal::SIGCONT.number(),
        SIGSTOP = Signal::SIGSTOP.number(),
        SIGTSTP = Signal::SIGTSTP.number(),
        SIGTTIN = Signal::SIGTTIN.number(),
        SIGTTOU = Signal::SIGTTOU.number(),
        SIGURG = Signal::SIGURG.number(),
        SIGXCPU = Signal::SIGXCPU.number(),
        SIGXFSZ = Signal::SIGXFSZ.number(),
        SIGVTALRM = Signal::SIGVTALRM.number(),
        SIGPROF = Signal::SIGPROF.number(),
        SIGWINCH = Signal::SIGWINCH.number(),
        SIGIO = Signal::SIGIO.number(),
        SIGPWR = Signal::SIGPWR.number(),
        SIGSYS = Signal::SIGSYS.number(),
        SIGRTMIN = Signal::SIGRTMIN.number(),
        _NSIG = Signal::SIGRTMAX.number(),
        SA_NOCLDSTOP = abi::SA_NOCLDSTOP,
        SA_NOCLDWAIT = abi::SA_NOCLDWAIT,
        SA_SIGINFO = abi::SA_SIGINFO,
        SA_RESTORER = abi::SA_RESTORER,
        SA_ONSTACK = abi::SA_ONSTACK,
        SA_RESTART = abi::SA_RESTART,
        SA_NODEFER = abi::SA_NODEFER,
        SA_RESETHAND = abi::SA_RESETHAND,
        SIG_BLOCK = abi::SIG_BLOCK,
        SIG_UNBLOCK = abi::SIG_UNBLOCK,
        SIG_SETMASK = abi::SIG_SETMASK,
        SI_USER = abi::SI_USER,
        SI_KERNEL = abi::SI_KERNEL,
        SI_QUEUE = abi::SI_QUEUE,
        SI_TIMER = abi::SI_TIMER,
        SI_MESGQ = abi::SI_MESGQ,
        SI_ASYNCIO = abi::SI_ASYNCIO,
        SI_SIGIO = abi::SI_SIGIO,
        SI_TKILL = abi::SI_TKILL,
        SI_DETHREAD = abi::SI_DETHREAD,
        SI_ASYNCNL = abi::SI_ASYNCNL,
        ILL_ILLOPC = abi::ILL_ILLOPC,
        ILL_ILLOPN = abi::ILL_ILLOPN,
        ILL_ILLADR = abi::ILL_ILLADR,
        ILL_ILLTRP = abi::ILL_ILLTRP,
        ILL_PRVOPC = abi::ILL_PRVOPC,
        ILL_PRVREG = abi::ILL_PRVREG,
        ILL_COPROC = abi::ILL_COPROC,
        ILL_BADSTK = abi::ILL_BADSTK,
        FPE_INTDIV = abi::FPE_INTDIV,
        FPE_INTOVF = abi::FPE_INTOVF,
        FPE_FLTDIV = abi::FPE_FLTDIV,
        FPE_FLTOVF = abi::FPE_FLTOVF,
        FPE_FLTUND = abi::FPE_FLTUND,
        FPE_FLTRES = abi::FPE_FLTRES,
        FPE_FLTINV = abi::FPE_FLTINV,
        FPE_FLTSUB = abi::FPE_FLTSUB,
        SEGV_MAPERR = abi::SEGV_MAPERR,
        SEGV_ACCERR = abi::SEGV_ACCERR,
        BUS_ADRALN = abi::BUS_ADRALN,
        BUS_ADRERR = abi::BUS_ADRERR,
        BUS_OBJERR = abi::BUS_OBJERR,
        TRAP_BRKPT = abi::TRAP_BRKPT,
        TRAP_TRACE = abi::TRAP_TRACE,
        CLD_EXITED = abi::CLD_EXITED,
        CLD_KILLED = abi::CLD_KILLED,
        CLD_DUMPED = abi::CLD_DUMPED,
        CLD_TRAPPED = abi::CLD_TRAPPED,
        CLD_STOPPED = abi::CLD_STOPPED,
        CLD_CONTINUED = abi::CLD_CONTINUED,
        SS_ONSTACK = abi::SS_ONSTACK,
        SS_DISABLE = abi::SS_DISABLE,
        SS_AUTODISARM = abi::SS_AUTODISARM,
        MINSIGSTKSZ = abi::MINSIGSTKSZ,
        SIGSTKSZ = abi::SIGSTKSZ,
        WNOHANG = abi::WNOHANG,
        WUNTRACED = abi::WUNTRACED,
        WEXITED = abi::WEXITED,
        WCONTINUED = abi::WCONTINUED,
        WNOWAIT = abi::WNOWAIT,
        S_IFMT = abi::mode::S_IFMT,
        S_IFSOCK = abi::mode::S_IFSOCK,
        S_IFLNK = abi::mode::S_IFLNK,
        S_IFREG = abi::mode::S_IFREG,
        S_IFBLK = abi::mode::S_IFBLK,
        S_IFDIR = abi::mode::S_IFDIR,
        S_IFCHR = abi::mode::S_IFCHR,
        S_IFIFO = abi::mode::S_IFIFO,
        PT_R1 = PT_R1,
        PT_R3 = PT_R3,
        PT_NIP = PT_NIP,
        PT_MSR = PT_MSR,
        PT_ORIG_R3 = PT_ORIG_R3,
        PT_CTR = PT_CTR,
        PT_LNK = PT_LNK,
        PT_XER = PT_XER,
        PT_CCR = PT_CCR,
        PT_MQ = PT_MQ,
        PT_TRAP = PT_TRAP,
        PT_DAR = PT_DAR,
        PT_DSISR = PT_DSISR,
        PT_RESULT = PT_RESULT,
    );
    add(t, "(long)SIG_DFL", abi::SIG_DFL);
    add(t, "(long)SIG_IGN", abi::SIG_IGN);
    add(t, "sizeof(sigset_t)", abi::SIGSET_SIZE);
    for &e in Errno::ALL.iter().filter(|e| !e.is_restart()) {
        add(t, e.name(), e.raw());
    }
}

/// The terminal's structures and numbers (`tty::termios`).
fn termios(t: &mut Table) {
    use crate::tty::termios::{self as tt, Termios, Winsize};
    add(t, "sizeof(struct termios)", size_of::<Termios>());
    add(t, "offsetof(struct termios, c_cc)", offset_of!(Termios, c_cc));
    add(t, "offsetof(struct termios, c_line)", offset_of!(Termios, c_line));
    add(t, "offsetof(struct termios, c_ispeed)", offset_of!(Termios, c_ispeed));
    add(t, "offsetof(struct termios, c_ospeed)", offset_of!(Termios, c_ospeed));
    add(t, "sizeof(struct winsize)", size_of::<Winsize>());
    add(t, "NCCS", tt::NCCS);
    macro_rules! same {
        ($($name:ident),* $(,)?) => { $(add(t, stringify!($name), tt::$name);)* };
    }
    same!(
        VINTR, VQUIT, VERASE, VKILL, VEOF, VMIN, VEOL, VTIME, VEOL2, VWERASE, VREPRINT, VSUSP,
        VSTART, VSTOP, VLNEXT, VDISCARD, TCGETS, TCSETS, TCSETSW, TCSETSF, TCSBRK, TCXONC, TCFLSH,
        TIOCSWINSZ, TIOCGWINSZ, TIOCOUTQ, TIOCSPGRP, TIOCGPGRP, TIOCSCTTY, TIOCNOTTY, TIOCGSID,
        FIONREAD, TCIFLUSH, TCOFLUSH, TCIOFLUSH, TCOOFF, TCOON, TCIOFF, TCION,
    );
    // The flag words: every named flag of each, by its C name.
    macro_rules! flags {
        ($($ty:ident),*) => { $(for (name, f) in tt::$ty::all().iter_names() { add(t, name, f.bits()); })* };
    }
    flags!(Iflag, Oflag, Cflag, Lflag);
}

/// Checks for the glibc side: W* macros on our status words, and what the
/// (emulated) kernel hands back from rt_sigaction.
fn glibc_side(t: &mut Table) -> String {
    for code in [0u32, 3, 255] {
        let w = wait_status::exited(code);
        add(t, &format!("WIFEXITED({w}) && !WIFSIGNALED({w}) && !WIFSTOPPED({w})"), 1);
        add(t, &format!("WEXITSTATUS({w})"), code);
    }
    for (sig, core) in [(abi::SIGKILL, false), (abi::SIGSEGV, true), (abi::SIGRTMAX, false)] {
        let w = wait_status::signaled(sig, core);
        add(t, &format!("WIFSIGNALED({w}) && !WIFEXITED({w}) && !WIFSTOPPED({w})"), 1);
        add(t, &format!("WTERMSIG({w})"), sig);
        add(t, &format!("WCOREDUMP({w})"), core as u32 * 0x80);
    }
    let w = wait_status::stopped(abi::SIGTSTP);
    add(t, &format!("WIFSTOPPED({w}) && !WIFEXITED({w}) && !WIFSIGNALED({w})"), 1);
    add(t, &format!("WSTOPSIG({w})"), abi::SIGTSTP);
    let w = wait_status::CONTINUED;
    add(t, &format!("WIFCONTINUED({w}) && !WIFEXITED({w}) && !WIFSIGNALED({w})"), 1);

    // rt_sigaction round trip: what Rust would store and hand back.
    let act = [0x1000_0440, abi::SA_SIGINFO | abi::SA_RESTART, 0x1234_5678, 0x201, 0x8000_0001];
    for (i, w) in SigAction::from_words(super::Signal::SIGUSR1, act).to_words().iter().enumerate() {
        add(t, &format!("old[{i}]"), *w);
    }
    let act: Vec<String> = act.iter().map(|w| format!("{w:#x}u")).collect();
    format!(
        "unsigned act[5] = {{{}}}, old[5];\n\
         if (syscall(173, SIGUSR1, act, 0, 8) || syscall(173, SIGUSR1, 0, old, 8)) return 1;\n",
        act.join(", ")
    )
}

const UAPI_PRELUDE: &str = "#include <stddef.h>\n#include <asm/ucontext.h>\n#include <asm/sigcontext.h>\n\
#include <asm/siginfo.h>\n#include <asm/signal.h>\n#include <asm/ptrace.h>\n#include <asm/errno.h>\n\
#include <linux/signal.h>\n#include <linux/wait.h>\n#include <linux/stat.h>\n#include <asm/termios.h>\nint printf(const char *, ...);\n\
struct sigframe { struct sigcontext sctx; struct mcontext mctx; int abigap[56]; };\n\
struct rt_sigframe { struct siginfo info; struct ucontext uc; int abigap[56]; };\n";

const GLIBC_PRELUDE: &str = "#define _GNU_SOURCE\n#include <stdio.h>\n#include <signal.h>\n\
#include <sys/wait.h>\n#include <unistd.h>\n#include <sys/syscall.h>\nvoid uapi_side(void);\n";

fn printers(t: &Table) -> String {
    t.iter().map(|(e, _)| format!("  printf(\"%lld\\n\", (long long)({e}));\n")).collect()
}

fn run(cmd: &mut Command, what: &str) -> std::process::Output {
    let out = cmd.output().unwrap_or_else(|e| {
        panic!(
            "cannot run {what} ({e}): install gcc-powerpc-linux-gnu and qemu-user (make test does)"
        )
    });
    assert!(out.status.success(), "{what} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

#[test]
fn layouts_and_constants_match_the_ppc32_headers() {
    let mut uapi = Table::new();
    struct_layouts(&mut uapi);
    constants(&mut uapi);
    termios(&mut uapi);
    let mut glibc = Table::new();
    let setup = glibc_side(&mut glibc);

    let dir = std::env::temp_dir().join(format!("sigil-cross-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = format!("{UAPI_PRELUDE}void uapi_side(void) {{\n{}}}\n", printers(&uapi));
    let b = format!(
        "{GLIBC_PRELUDE}int main(void) {{\n  uapi_side();\n{setup}{}  return 0;\n}}\n",
        printers(&glibc)
    );
    std::fs::write(dir.join("uapi.c"), a).unwrap();
    std::fs::write(dir.join("glibc.c"), b).unwrap();
    let exe = dir.join("abi");
    run(
        Command::new("powerpc-linux-gnu-gcc")
            .args(["-static", "-O0", "-o"])
            .arg(&exe)
            .arg(dir.join("uapi.c"))
            .arg(dir.join("glibc.c")),
        "powerpc-linux-gnu-gcc",
    );
    let out = run(Command::new("qemu-ppc").arg(&exe), "qemu-ppc");
    let text = String::from_utf8(out.stdout).unwrap();
    let got: Vec<&str> = text.lines().collect();
    let want: Vec<&(String, i64)> = uapi.iter().chain(glibc.iter()).collect();
    assert_eq!(got.len(), want.len(), "the C program printed the wrong number of lines");
    let bad: Vec<String> = want
        .iter()
        .zip(&got)
        .filter(|((_, v), g)| g.parse::<i64>() != Ok(*v))
        .map(|((e, v), g)| format!("{e}: C says {g}, Rust says {v}"))
        .collect();
    assert!(bad.is_empty(), "mismatches:\n{}", bad.join("\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}
