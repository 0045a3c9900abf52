//! rs_hello: the smallest Sigil program in Rust, on ulib alone. Prints its
//! arguments, then forks a child that exits with a status the parent checks
//! through wait4 (the same output on Sigil and under qemu-ppc).

#![no_std]
#![no_main]

use ulib::println;
use ulib::process::{self, Fork};

ulib::entry!(main);

fn main(args: ulib::Args) -> i32 {
    println!("hello from Rust: {} arguments", args.len());
    for i in 1..args.len() {
        let a = args.get(i).unwrap_or(b"?");
        println!("  argv[{}] = {}", i, core::str::from_utf8(a).unwrap_or("(not UTF-8)"));
    }
    match process::fork() {
        Ok(Fork::Child) => process::exit(7),
        Ok(Fork::Parent(pid)) => match process::wait4(pid as i32, 0) {
            Ok((got, status)) => {
                println!("child {}: {:?}", if got == pid { "reaped" } else { "mixed up" }, status)
            }
            Err(e) => println!("wait4: {}", e),
        },
        Err(e) => println!("fork: {}", e),
    }
    0
}
