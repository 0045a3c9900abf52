//! rs_signals: signals from Rust through ulib, no libc in between: a plain
//! handler and raise(), an SA_SIGINFO handler reading sigqueue's value, a
//! blocked signal seen pending, and a child killed by SIGTERM. The output
//! must match qemu-ppc's, like the C signal tests.

#![no_std]
#![no_main]

use core::sync::atomic::{AtomicI32, AtomicU32, Ordering};

use ulib::println;
use ulib::process::{self, Fork};
use ulib::signal::{self, Handler, SigInfo, SigSet};

ulib::entry!(main);

static COUNT: AtomicU32 = AtomicU32::new(0);
static CODE: AtomicI32 = AtomicI32::new(0);
static VALUE: AtomicU32 = AtomicU32::new(0);

extern "C" fn on_usr1(_sig: i32) {
    COUNT.fetch_add(1, Ordering::Relaxed);
}

extern "C" fn on_rt(_sig: i32, info: &SigInfo, _uc: *mut u8) {
    CODE.store(info.code, Ordering::Relaxed);
    VALUE.store(info.value, Ordering::Relaxed);
}

fn main(_args: ulib::Args) -> i32 {
    signal::sigaction(signal::SIGUSR1, Handler::Plain(on_usr1), 0, SigSet::EMPTY)
        .expect("sigaction");
    for _ in 0..3 {
        signal::raise(signal::SIGUSR1).expect("raise");
    }
    println!("plain handler ran {} times", COUNT.load(Ordering::Relaxed));

    let rt = signal::SIGRTMIN_USER + 1;
    signal::sigaction(rt, Handler::Info(on_rt), 0, SigSet::EMPTY).expect("sigaction");
    signal::sigqueue(process::getpid(), rt, 0xfeed).expect("sigqueue");
    println!(
        "siginfo handler: code {} (SI_QUEUE is {}), value {:#x}",
        CODE.load(Ordering::Relaxed),
        signal::SI_QUEUE,
        VALUE.load(Ordering::Relaxed)
    );

    let usr1 = SigSet::of(&[signal::SIGUSR1]);
    signal::sigprocmask(signal::SIG_BLOCK, &usr1).expect("block");
    signal::raise(signal::SIGUSR1).expect("raise");
    let pending = signal::sigpending().expect("sigpending").contains(signal::SIGUSR1);
    println!(
        "blocked SIGUSR1 pending: {}, handled so far: {}",
        pending,
        COUNT.load(Ordering::Relaxed)
    );
    signal::sigprocmask(signal::SIG_UNBLOCK, &usr1).expect("unblock");
    println!("after unblock: handled {}", COUNT.load(Ordering::Relaxed));

    match process::fork().expect("fork") {
        Fork::Child => loop {
            let _ = process::nanosleep(1, 0);
        },
        Fork::Parent(pid) => {
            signal::kill(pid as i32, signal::SIGTERM).expect("kill");
            let (_, status) = process::wait4(pid as i32, 0).expect("wait4");
            println!("child: {:?}", status);
        }
    }
    0
}
