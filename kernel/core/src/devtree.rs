//! What the kernel reads from the flattened device tree U-Boot hands over
//! (r3 at entry on a `bootm <kernel> <initrd> <fdt>` boot): RAM, the
//! timebase rate, /chosen (command line, initrd, console) and the interrupt
//! controller. The `fdt` crate walks the blob; this file only picks values
//! and translates bus addresses, so it runs before the kernel has a heap
//! (no allocation) and on the host, where the tests read the board's dtb.
//!
//! Addresses: a device's `reg` is in its parent bus's address space. Each
//! ancestor's `ranges` maps that space one level up, until the root's is the
//! CPU's physical space (an empty `ranges` is the identity; none at all
//! means the bus is not memory-mapped, and the device has no address).
//! serial@4500's reg 0x4500 under soc8323@e0000000 (ranges 0 -> 0xe0000000)
//! is physical 0xe000_4500.

use core::fmt;

use fdt::node::FdtNode;
use fdt::Fdt;

/// The facts Sigil takes from a device tree.
#[derive(Debug, PartialEq, Eq)]
pub struct BootFacts<'a> {
    /// The root's `model`, for the boot banner ("" if absent).
    pub model: &'a str,
    /// The first /memory region: (physical base, size in bytes).
    pub memory: (u32, u32),
    /// The first CPU's `timebase-frequency`, in Hz.
    pub timebase_hz: u32,
    /// /chosen `bootargs` (empty if absent).
    pub bootargs: &'a [u8],
    /// /chosen `linux,initrd-start` and `linux,initrd-end` (physical).
    pub initrd: Option<(u32, u32)>,
    /// The console: /chosen `stdout-path`, or the `serial0` alias.
    pub console: Option<Uart>,
    /// Physical base of the IPIC (compatible "fsl,ipic" or device_type "ipic").
    pub ipic: Option<u32>,
}

/// An ns16550-compatible UART node.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub struct Uart {
    /// Physical base of its registers.
    pub base: u32,
    /// Its input clock (`clock-frequency`), in Hz; 0 if the tree does not say.
    pub clock_hz: u32,
    /// The line rate: the stdout-path's options ("serial0:115200n8"), else
    /// `current-speed`; None keeps what the firmware programmed.
    pub baud: Option<u32>,
    /// Its interrupt (the first cell of `interrupts`).
    pub irq: Option<u32>,
}

/// One line for the boot log, e.g. `MPC8323ERDB: RAM 0x00000000+64 MiB,
/// timebase 33333333 Hz, console 0xe0004500 (clock 133333333 Hz, 115200
/// baud, irq 9), IPIC 0xe0000700, no initrd, bootargs "trace=signal"`.
impl fmt::Display for BootFacts<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (base, size) = self.memory;
        write!(
            f,
            "{}: RAM {:#010x}+{} MiB, timebase {} Hz",
            self.model,
            base,
            size >> 20,
            self.timebase_hz
        )?;
        match self.console {
            Some(u) => {
                write!(f, ", console {:#010x} (clock {} Hz, ", u.base, u.clock_hz)?;
                match u.baud {
                    Some(b) => write!(f, "{b} baud, ")?,
                    None => write!(f, "rate as set, ")?,
                }
                match u.irq {
                    Some(i) => write!(f, "irq {i})")?,
                    None => write!(f, "no irq)")?,
                }
            }
            None => write!(f, ", no console")?,
        }
        match self.ipic {
            Some(a) => write!(f, ", IPIC {a:#010x}")?,
            None => write!(f, ", no IPIC")?,
        }
        match self.initrd {
            Some((start, end)) => write!(f, ", initrd {start:#010x}..{end:#010x}")?,
            None => write!(f, ", no initrd")?,
        }
        write!(f, ", bootargs \"{}\"", core::str::from_utf8(self.bootargs).unwrap_or("?"))
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum DtError {
    /// No valid header (wrong magic, or the blob is shorter than it says).
    Header,
    /// No /memory node with a `reg`.
    NoMemory,
    /// No CPU with a nonzero `timebase-frequency` (U-Boot fills it in).
    NoTimebase,
}

/// The magic word every flattened device tree starts with (big-endian).
pub const FDT_MAGIC: u32 = 0xd00d_feed;

/// The blob's length from its header (`totalsize`), if `head` starts a
/// device tree: how much memory to keep and hand to `parse`.
pub fn total_size(head: &[u8; 8]) -> Option<usize> {
    let word = |i: usize| u32::from_be_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
    (word(0) == FDT_MAGIC).then(|| word(4) as usize)
}

/// Reads the boot facts from the device tree in `blob`.
pub fn parse(blob: &[u8]) -> Result<BootFacts<'_>, DtError> {
    let fdt = Fdt::new(blob).map_err(|_| DtError::Header)?;
    let chosen = fdt.find_node("/chosen");
    let memory = fdt
        .all_nodes()
        .find(|n| str_prop(*n, "device_type") == Some("memory"))
        .and_then(|n| n.reg()?.next())
        .map(|r| (r.starting_address as usize as u32, r.size.unwrap_or(0) as u32))
        .ok_or(DtError::NoMemory)?;
    let timebase_hz = fdt
        .find_node("/cpus")
        .and_then(|cpus| {
            cpus.children().filter(|c| str_prop(*c, "device_type") == Some("cpu")).find_map(|c| {
                u32_prop(c, "timebase-frequency").or(u32_prop(cpus, "timebase-frequency"))
            })
        })
        .filter(|&hz| hz != 0)
        .ok_or(DtError::NoTimebase)?;
    let initrd = chosen.and_then(|c| {
        Some((cell_prop(c, "linux,initrd-start")?, cell_prop(c, "linux,initrd-end")?))
    });
    Ok(BootFacts {
        model: fdt.find_node("/").and_then(|r| str_prop(r, "model")).unwrap_or(""),
        memory,
        timebase_hz,
        bootargs: chosen.and_then(|c| str_prop(c, "bootargs")).unwrap_or("").as_bytes(),
        initrd,
        console: console(&fdt, chosen),
        ipic: ipic(&fdt),
    })
}

/// The console UART: stdout-path (or its older name linux,stdout-path), an
/// alias or a full path, with "<baud><parity><bits>" options after a ':'.
fn console(fdt: &Fdt, chosen: Option<FdtNode>) -> Option<Uart> {
    let stdout =
        chosen.and_then(|c| str_prop(c, "stdout-path").or(str_prop(c, "linux,stdout-path")));
    let (name, options) = match stdout {
        Some(s) => s.split_once(':').unwrap_or((s, "")),
        None => ("serial0", ""),
    };
    let path = if name.starts_with('/') { name } else { fdt.aliases()?.resolve(name)? };
    let node = fdt.find_node(path)?;
    let digits = options.bytes().take_while(u8::is_ascii_digit).count();
    Some(Uart {
        base: translated_reg(fdt, path)?,
        clock_hz: u32_prop(node, "clock-frequency").unwrap_or(0),
        baud: options[..digits].parse().ok().or(u32_prop(node, "current-speed")),
        irq: u32_prop(node, "interrupts"),
    })
}

/// The IPIC's physical base: found by a walk that keeps each node's path.
fn ipic(fdt: &Fdt) -> Option<u32> {
    let mut path = Path { buf: [0; PATH_MAX], len: 0 };
    let root = fdt.find_node("/")?;
    if !find(root, &mut path, &|n| {
        str_prop(n, "device_type") == Some("ipic")
            || n.compatible().is_some_and(|c| c.all().any(|s| s == "fsl,ipic"))
    }) {
        return None;
    }
    translated_reg(fdt, core::str::from_utf8(&path.buf[..path.len]).ok()?)
}

const PATH_MAX: usize = 256;

/// A node path being built by `find`, in a fixed buffer (no heap yet).
struct Path {
    buf: [u8; PATH_MAX],
    len: usize,
}

/// Depth-first search below `node` for one that satisfies `want`; on
/// success `path` holds its full path.
fn find(node: FdtNode, path: &mut Path, want: &dyn Fn(FdtNode) -> bool) -> bool {
    for child in node.children() {
        let len = path.len;
        let name = child.name.as_bytes();
        if len + 1 + name.len() > PATH_MAX {
            continue;
        }
        path.buf[len] = b'/';
        path.buf[len + 1..len + 1 + name.len()].copy_from_slice(name);
        path.len = len + 1 + name.len();
        if want(child) || find(child, path, want) {
            return true;
        }
        path.len = len;
    }
    false
}

/// The node at `path`'s first `reg` address, translated through each
/// ancestor's `ranges` to a CPU physical address.
fn translated_reg(fdt: &Fdt, path: &str) -> Option<u32> {
    let mut addr = fdt.find_node(path)?.reg()?.next()?.starting_address as usize as u64;
    let mut bus = path;
    while let Some(cut) = bus.rfind('/').filter(|&cut| cut > 0) {
        bus = &bus[..cut];
        let parent_cells = match bus.rfind('/') {
            Some(0) | None => fdt.find_node("/")?.cell_sizes().address_cells,
            Some(up) => fdt.find_node(&bus[..up])?.cell_sizes().address_cells,
        };
        addr = translate(fdt.find_node(bus)?, parent_cells, addr)?;
    }
    u32::try_from(addr).ok()
}

/// Maps `addr` from `bus`'s child address space to its parent's through the
/// bus's `ranges` (entries: child address, parent address, size).
fn translate(bus: FdtNode, parent_cells: usize, addr: u64) -> Option<u64> {
    let ranges = bus.property("ranges")?.value;
    if ranges.is_empty() {
        return Some(addr);
    }
    let sizes = bus.cell_sizes();
    let entry = 4 * (sizes.address_cells + parent_cells + sizes.size_cells);
    ranges.chunks_exact(entry).find_map(|e| {
        let (child, rest) = e.split_at(4 * sizes.address_cells);
        let (parent, size) = rest.split_at(4 * parent_cells);
        let (child, parent, size) = (cells(child), cells(parent), cells(size));
        (addr >= child && addr - child < size).then(|| parent + (addr - child))
    })
}

/// A big-endian number of one or more cells (the low 64 bits).
fn cells(bytes: &[u8]) -> u64 {
    bytes
        .chunks_exact(4)
        .fold(0, |v, c| (v << 32) | u32::from_be_bytes([c[0], c[1], c[2], c[3]]) as u64)
}

/// A property's first cell.
fn u32_prop(node: FdtNode, name: &str) -> Option<u32> {
    let v = node.property(name)?.value;
    Some(u32::from_be_bytes(v.get(..4)?.try_into().ok()?))
}

/// A one- or two-cell number (U-Boot writes linux,initrd-* with the root's
/// #address-cells), cut to 32 bits.
fn cell_prop(node: FdtNode, name: &str) -> Option<u32> {
    let v = node.property(name)?.value;
    matches!(v.len(), 4 | 8).then(|| cells(v) as u32)
}

/// A string property, without its NUL.
fn str_prop<'a>(node: FdtNode<'_, 'a>, name: &str) -> Option<&'a str> {
    let v = node.property(name)?.value;
    core::str::from_utf8(v.strip_suffix(&[0]).unwrap_or(v)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::vec::Vec;

    /// Compiles device-tree source with dtc (Debian's device-tree-compiler).
    fn dtb(source: &str) -> Vec<u8> {
        let mut dtc = Command::new("dtc")
            .args(["-q", "-I", "dts", "-O", "dtb", "-o", "-", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("dtc (install device-tree-compiler: bash qemu/deps.sh)");
        dtc.stdin.take().unwrap().write_all(source.as_bytes()).unwrap();
        let out = dtc.wait_with_output().unwrap();
        assert!(out.status.success(), "dtc failed");
        out.stdout
    }

    fn board_dts() -> std::string::String {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../boards/mpc8321erdb.dts");
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn the_mpc8321erdb_tree() {
        let blob = dtb(&board_dts());
        assert_eq!(total_size(blob[..8].try_into().unwrap()), Some(blob.len()));
        let facts = parse(&blob).unwrap();
        assert_eq!(
            facts,
            BootFacts {
                model: "MPC8323ERDB",
                memory: (0, 64 << 20),
                timebase_hz: 33_333_333,
                bootargs: b"trace=signal",
                initrd: None,
                console: Some(Uart {
                    base: 0xe000_4500,
                    clock_hz: 133_333_333,
                    baud: Some(115_200),
                    irq: Some(9),
                }),
                ipic: Some(0xe000_0700),
            }
        );
    }

    #[test]
    fn the_boot_log_line() {
        let blob = dtb(&board_dts());
        assert_eq!(
            std::format!("{}", parse(&blob).unwrap()),
            "MPC8323ERDB: RAM 0x00000000+64 MiB, timebase 33333333 Hz, console 0xe0004500 \
             (clock 133333333 Hz, 115200 baud, irq 9), IPIC 0xe0000700, no initrd, \
             bootargs \"trace=signal\""
        );
    }

    #[test]
    fn what_u_boot_adds_at_bootm() {
        // bootm's fixups: the initrd's place in /chosen, a path (not an
        // alias) as the console, and no baud option: current-speed counts.
        let src = board_dts().replace(
            "stdout-path = \"serial0:115200n8\";",
            "linux,initrd-start = <0x03c00000>; linux,initrd-end = <0x03e12345>;\n\
             linux,stdout-path = \"/soc8323@e0000000/serial@4600\";",
        );
        let blob = dtb(&src);
        let facts = parse(&blob).unwrap();
        assert_eq!(facts.initrd, Some((0x03c0_0000, 0x03e1_2345)));
        let uart = facts.console.unwrap();
        assert_eq!((uart.base, uart.baud, uart.irq), (0xe000_4600, None, Some(10)));
    }

    #[test]
    fn baud_from_the_stdout_options_wins() {
        let src = board_dts().replace("serial0:115200n8", "serial0:9600n8");
        assert_eq!(parse(&dtb(&src)).unwrap().console.unwrap().baud, Some(9600));
    }

    #[test]
    fn a_bus_without_ranges_hides_its_devices() {
        let src = board_dts().replace("ranges = <0x0 0xe0000000 0x00100000>;", "");
        let blob = dtb(&src);
        let facts = parse(&blob).unwrap();
        assert_eq!((facts.console, facts.ipic), (None, None));
    }

    #[test]
    fn missing_facts_are_errors() {
        assert_eq!(parse(&[0u8; 64]), Err(DtError::Header));
        let blob = dtb(&board_dts());
        assert_eq!(parse(&blob[..blob.len() - 1]), Err(DtError::Header));
        let no_tb = board_dts().replace("<33333333>", "<0>");
        assert_eq!(parse(&dtb(&no_tb)), Err(DtError::NoTimebase));
        let no_mem = board_dts().replace("device_type = \"memory\";", "");
        assert_eq!(parse(&dtb(&no_mem)), Err(DtError::NoMemory));
        assert_eq!(total_size(&[0xd0, 0x0d, 0xfe, 0xef, 0, 0, 0, 0]), None);
    }
}
