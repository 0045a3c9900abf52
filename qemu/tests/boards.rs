//! The board support that QEMU can run: the 16550 console driver on g3beige
//! through QEMU's pci-serial card (board g3beige-pci-serial: the console is
//! the card, the ESCC's line goes nowhere), and the device-tree path on the
//! e300c2 (the MPC8321E-RDB's dtb loaded into RAM, the kernel pointed at
//! it). The MPC8321E-RDB itself has no QEMU model: its image is checked by
//! `make test-boards`, and docs/boards/mpc8321erdb.md says what ran where.
//! Sigil-only: qemu-ppc has no devices to compare with.

mod common;

use std::process::Command;

use sigil_qemu::{repo_root, run, run_fed, Input, RunConfig};

/// A boot of the book3s/32 kernel on the g3beige with the PCI 16550 console.
fn pci_serial(init: &str, args: &[&str]) -> RunConfig {
    let mut cfg = common::config();
    cfg.board = "g3beige-pci-serial".into();
    cfg.init = Some(common::program(init));
    cfg.init_args = args.iter().map(|s| s.to_string()).collect();
    cfg
}

#[test]
fn the_pci_16550_carries_the_kernel_log_and_program_output() {
    if common::board() == "mpc885ads" {
        return; // an 8xx kernel cannot boot a g3beige
    }
    let r = run(&pci_serial("hello", &["a"]));
    assert_eq!(r.status, Some(7), "console:\n{}\nstderr: {}", r.console, r.stderr);
    assert!(r.console.contains("Sigil on QEMU g3beige"), "{}", r.console);
    assert!(r.console.contains("sigil: boot options: console=ttyS0"), "{}", r.console);
    common::has_lines(&r.console, &["hello from sigil test", "argv[1]=a"]);
    assert!(!r.console.contains("LEAK") && !r.oopsed(), "{}", r.console);
}

/// Receive: every byte of a 64 KiB stream arrives through the card's
/// interrupt, in order (the byte sum), and the flow control of
/// `dev::tty` holds QEMU back while the terminal's buffer is full.
#[test]
fn the_pci_16550_receives_a_stream_whole() {
    if common::board() == "mpc885ads" {
        return;
    }
    let input: Vec<u8> = (0..65536u32).map(|i| b"0123456789abcdef\n"[(i % 17) as usize]).collect();
    let (lines, sum) = (
        input.iter().filter(|&&b| b == b'\n').count(),
        input.iter().map(|&b| b as u64).sum::<u64>(),
    );
    let mut cfg = pci_serial("tty_count", &[]);
    cfg.quiet = true;
    let r = run_fed(&cfg, Input::Stream(Box::new(std::io::Cursor::new(input))), |_| {}, |_| {});
    assert_eq!(r.status, Some(0), "console:\n{}\nstderr: {}", r.console, r.stderr);
    common::has_lines(
        &r.console,
        &["stdin is a terminal", &format!("bytes 65536 lines {lines} sum {sum}")],
    );
}

/// Where the test puts the dtb: below the initrd QEMU places at 16 MiB and up.
const DTB_ADDR: &str = "0xf00000";

/// The device-tree path on the e300c2: the MPC8321E-RDB's dtb (compiled
/// from boards/mpc8321erdb.dts) put in RAM by `-device loader`, the kernel
/// told where with `fdt=`; it prints what it read, and keeps the blob's
/// frames away from the allocator (the leak check would see otherwise).
#[test]
fn the_mpc8321erdb_device_tree_is_read_on_the_e300() {
    if common::board() == "mpc885ads" {
        return;
    }
    let dir = std::env::temp_dir().join(format!("sigil-dtb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dtb = dir.join("mpc8321erdb.dtb");
    let dtc = Command::new("dtc")
        .args(["-q", "-I", "dts", "-O", "dtb", "-o"])
        .arg(&dtb)
        .arg(repo_root().join("boards/mpc8321erdb.dts"))
        .status()
        .expect("dtc (bash qemu/deps.sh installs device-tree-compiler)");
    assert!(dtc.success());
    let mut cfg = common::config();
    cfg.board = "qemu-e300".into();
    cfg.init = Some(common::program("hello"));
    cfg.boot_opts = vec![format!("fdt={DTB_ADDR}")];
    cfg.qemu_flags.extend([
        "-device".to_string(),
        format!("loader,file={},addr={DTB_ADDR},force-raw=on", dtb.display()),
    ]);
    let r = run(&cfg);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(r.status, Some(7), "console:\n{}\nstderr: {}", r.console, r.stderr);
    common::has_lines(
        &r.console,
        &[&format!(
            "sigil: device tree at {DTB_ADDR}: MPC8323ERDB: RAM 0x00000000+64 MiB, timebase \
             33333333 Hz, console 0xe0004500 (clock 133333333 Hz, 115200 baud, irq 9), IPIC \
             0xe0000700, no initrd, bootargs \"trace=signal\""
        )],
    );
    assert!(r.console.contains("sigil: leak check: ok"), "{}", r.console);
}
