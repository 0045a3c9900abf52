//! Assembles the kernel's .S files with the GNU cross assembler (they use the
//! C preprocessor and GNU syntax, like Linux's head_*.S) and links them in:
//! those shared by every family (src/arch/ppc32) and the board family's own
//! (src/arch/$SIGIL_ARCH). The linker script comes from the board file
//! (KERNEL_LD, passed as $SIGIL_LD, relative to the repository root): given
//! here rather than in RUSTFLAGS, it reaches only this crate's link, and the
//! core and alloc built from source do not depend on where the checkout is
//! (a copy of the tree elsewhere, as the labs' test makes, reuses them).
//! `--cfg sigil_arch="..."` tells the Rust code which family to compile;
//! SIGIL_STEPPING=1 (`make debug`) adds `--cfg sigil_stepping`, a build for
//! gdb that keeps the signal path's functions out of line.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let target_arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if target_arch != "powerpc" {
        return;
    }
    let family = std::env::var("SIGIL_ARCH").unwrap_or_else(|_| "book3s32".into());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-env-changed=SIGIL_ARCH");
    println!("cargo:rerun-if-env-changed=SIGIL_LD");
    let ld = std::env::var("SIGIL_LD")
        .expect("SIGIL_LD: the board's linker script (make kernel sets it)");
    let ld = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("..").join(ld);
    println!("cargo:rerun-if-changed={}", ld.display());
    println!("cargo:rustc-link-arg-bins=-T{}", ld.display());
    // Board facts some families compile in (boards/*.mk KERNEL_ENV).
    println!("cargo:rerun-if-env-changed=SIGIL_RAM_MB");
    println!("cargo:rerun-if-env-changed=SIGIL_TB_FREQ");
    // The machine around a book3s/32 core (boards/mpc8321erdb.mk: mpc83xx).
    println!("cargo:rerun-if-env-changed=SIGIL_PLATFORM");
    println!("cargo::rustc-check-cfg=cfg(sigil_platform, values(\"mpc83xx\"))");
    let platform = std::env::var("SIGIL_PLATFORM").unwrap_or_default();
    if !platform.is_empty() {
        println!("cargo:rustc-cfg=sigil_platform=\"{platform}\"");
    }
    println!("cargo:rerun-if-env-changed=SIGIL_STEPPING");
    println!("cargo::rustc-check-cfg=cfg(sigil_stepping)");
    if std::env::var("SIGIL_STEPPING").is_ok_and(|v| v == "1") {
        println!("cargo:rustc-cfg=sigil_stepping");
    }
    println!("cargo::rustc-check-cfg=cfg(sigil_arch, values(\"book3s32\", \"mpc8xx\"))");
    println!("cargo:rustc-cfg=sigil_arch=\"{family}\"");
    let mut objs = Vec::new();
    for dir in [PathBuf::from("src/arch/ppc32"), PathBuf::from(format!("src/arch/{family}"))] {
        println!("cargo:rerun-if-changed={}", dir.display());
        assemble_dir(&dir, &out, &platform, &mut objs);
    }
    for obj in objs {
        println!("cargo:rustc-link-arg={}", obj.display());
    }
}

/// Assembles every .S file of `dir` into `out`, adding the objects to `objs`.
/// One `-mcpu` serves both families: their SPRs are named by number.
/// `platform` becomes `-DSIGIL_PLATFORM_<NAME>` (head.S's BATs differ).
fn assemble_dir(
    dir: &std::path::Path,
    out: &std::path::Path,
    platform: &str,
    objs: &mut Vec<PathBuf>,
) {
    for entry in std::fs::read_dir(dir).expect("arch directory") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "S") {
            let obj = out.join(path.file_stem().unwrap()).with_extension("o");
            let status = Command::new("powerpc-linux-gnu-gcc")
                .args(["-c", "-mcpu=603e", "-msoft-float", "-mregnames"])
                .args(
                    (!platform.is_empty())
                        .then(|| format!("-DSIGIL_PLATFORM_{}", platform.to_uppercase())),
                )
                .arg("-o")
                .arg(&obj)
                .arg(&path)
                .status()
                .expect("powerpc-linux-gnu-gcc (install gcc-powerpc-linux-gnu)");
            assert!(status.success(), "assembling {}", path.display());
            println!("cargo:rerun-if-changed={}", path.display());
            objs.push(obj);
        }
    }
}
