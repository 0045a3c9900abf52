//! Assembles the kernel's .S files with the GNU cross assembler (they use the
//! C preprocessor and GNU syntax, like Linux's head_*.S) and links them in.
//! The list of files and the linker script come from the board's family.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let target_arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if target_arch != "powerpc" {
        return;
    }
    let family = std::env::var("SIGIL_ARCH").unwrap_or_else(|_| "book3s32".into());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let dir = PathBuf::from(format!("src/arch/{family}"));
    println!("cargo:rerun-if-env-changed=SIGIL_ARCH");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut objs = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("arch directory") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "S") {
            let obj = out.join(path.file_stem().unwrap()).with_extension("o");
            let status = Command::new("powerpc-linux-gnu-gcc")
                .args(["-c", "-mcpu=603e", "-msoft-float", "-mregnames", "-o"])
                .arg(&obj)
                .arg(&path)
                .status()
                .expect("powerpc-linux-gnu-gcc (install gcc-powerpc-linux-gnu)");
            assert!(status.success(), "assembling {}", path.display());
            println!("cargo:rerun-if-changed={}", path.display());
            objs.push(obj);
        }
    }
    for obj in objs {
        println!("cargo:rustc-link-arg={}", obj.display());
    }
}
