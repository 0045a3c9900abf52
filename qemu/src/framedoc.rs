//! The signal frames of docs/frame.md, drawn to scale from the real structs.
//!
//! Every offset and size comes from `sigil_core::signal::frame` (its
//! `SigFrame`, `RtSigFrame`, `UContext`, `MContext`, whose layouts are
//! const-asserted against Linux's), read with `offset_of!`/`size_of`: a
//! change to a struct changes the drawing, and docs/frame.md goes stale until
//! `make docs` draws it again (qemu/tests/docs.rs checks it, `docgen`'s
//! `Source::Frame`).
//!
//! One line of a drawing is 32 bytes of user stack, lowest address first
//! (the handler's r1 at the top; the stack grows up the page), numbered by
//! its offset from r1 and from the frame. A line that holds the start of a
//! field names it with its exact offset and size, and the registers that
//! point there (more fields starting in the same 32 bytes follow on `:`
//! lines, which take no space of their own); other lines are the rest of a
//! field.

use std::mem::{offset_of, size_of};

use sigil_core::signal::frame::{
    MContext, RtSigFrame, SigContext, SigFrame, UContext, RT_EXTRA_GAP, SIGNAL_FRAMESIZE,
};

/// Bytes of stack per line of the drawing.
pub const BYTES_PER_LINE: u32 = 32;

/// One field, placed by its offset from the handler's r1.
struct Field {
    at: u32,
    size: u32,
    name: &'static str,
    /// What points here ("r4", "LR", ...), if anything.
    note: &'static str,
}

fn u(n: usize) -> u32 {
    n as u32
}

/// The fields of an `MContext` at r1 + `at`; `regs_note` names its pointer.
fn mcontext(at: u32, regs_note: &'static str) -> Vec<Field> {
    let f =
        |off: usize, size: usize, name, note| Field { at: at + u(off), size: u(size), name, note };
    vec![
        f(
            offset_of!(MContext, mc_gregs),
            size_of::<[u32; 48]>(),
            "mc_gregs: r0-r31, nip, msr, orig_r3, ctr, lr, ... (PT_*)",
            regs_note,
        ),
        f(offset_of!(MContext, mc_fregs), size_of::<[u64; 33]>(), "mc_fregs: f0-f31, fpscr", ""),
        f(
            offset_of!(MContext, mc_pad),
            size_of::<[u32; 2]>(),
            "mc_pad (unwritten: LR = the signal page's trampoline)",
            "",
        ),
        f(offset_of!(MContext, mc_vregs), size_of::<[u32; 132]>(), "mc_vregs (unused, zero)", ""),
    ]
}

/// The classic frame (no SA_SIGINFO), as the handler finds it.
fn classic() -> (Vec<Field>, u32) {
    let frame = SIGNAL_FRAMESIZE;
    let sc = |off: usize, size: usize, name, note| Field {
        at: frame + u(offset_of!(SigFrame, sctx) + off),
        size: u(size),
        name,
        note,
    };
    let mut v = vec![
        Field { at: 0, size: 4, name: "back chain = the interrupted r1", note: "<- r1" },
        Field {
            at: 4,
            size: SIGNAL_FRAMESIZE - 4,
            name: "the handler's LR save and its callee's space",
            note: "",
        },
        sc(
            offset_of!(SigContext, _unused),
            16,
            "sigcontext: _unused[4] (word 3: oldmask high)",
            "<- r4 = frame",
        ),
        sc(offset_of!(SigContext, signal), 4, "signal", ""),
        sc(offset_of!(SigContext, handler), 4, "handler", ""),
        sc(offset_of!(SigContext, oldmask), 4, "oldmask", ""),
        sc(offset_of!(SigContext, regs), 4, "regs -> mc_gregs", ""),
    ];
    v.extend(mcontext(frame + u(offset_of!(SigFrame, mctx)), "<- regs"));
    v.push(Field {
        at: frame + u(offset_of!(SigFrame, abigap)),
        size: u(size_of::<[u32; 56]>()),
        name: "abigap: the 224 bytes below the interrupted r1",
        note: "",
    });
    (v, SIGNAL_FRAMESIZE + SigFrame::SIZE)
}

/// The RT frame (SA_SIGINFO), as the handler finds it.
fn rt() -> (Vec<Field>, u32) {
    let frame = SIGNAL_FRAMESIZE + RT_EXTRA_GAP;
    let ucb = frame + RtSigFrame::UCONTEXT;
    let uc =
        |off: usize, size: usize, name, note| Field { at: ucb + u(off), size: u(size), name, note };
    let mut v = vec![
        Field { at: 0, size: 4, name: "back chain = the interrupted r1", note: "<- r1" },
        Field {
            at: 4,
            size: frame - 4,
            name: "LR save, callee space (64 + 16 bytes: Linux 2.4's)",
            note: "",
        },
        Field {
            at: frame + u(offset_of!(RtSigFrame, info)),
            size: u(size_of::<[u32; 32]>()),
            name: "info: siginfo_t",
            note: "<- r4 = r6 = frame",
        },
        uc(offset_of!(UContext, uc_flags), 4, "uc_flags", "<- r5"),
        uc(offset_of!(UContext, uc_link), 4, "uc_link", ""),
        uc(offset_of!(UContext, uc_stack), size_of::<[u32; 3]>(), "uc_stack", ""),
        uc(offset_of!(UContext, uc_pad), size_of::<[u32; 7]>(), "uc_pad", ""),
        uc(offset_of!(UContext, uc_regs), 4, "uc_regs -> uc_mcontext", ""),
        uc(offset_of!(UContext, uc_sigmask), 8, "uc_sigmask", ""),
        uc(offset_of!(UContext, uc_maskext), size_of::<[u32; 30]>(), "uc_maskext", ""),
        uc(offset_of!(UContext, uc_pad2), size_of::<[u32; 3]>(), "uc_pad2", ""),
    ];
    v.extend(mcontext(ucb + u(offset_of!(UContext, uc_mcontext)), "<- uc_regs"));
    v.push(Field {
        at: frame + u(offset_of!(RtSigFrame, abigap)),
        size: u(size_of::<[u32; 56]>()),
        name: "abigap: the 224 bytes below the interrupted r1",
        note: "",
    });
    (v, frame + RtSigFrame::SIZE)
}

/// Draws `fields` (sorted, contiguous from r1 + 0 to `end`) one numbered
/// line per [`BYTES_PER_LINE`]: `r1+OFF frame+OFF +` and the first field that
/// starts in those bytes, then a `:` line (no offsets, no bytes of its own)
/// for each other field starting there; `|` marks bytes of a field above.
fn draw(title: &str, fields: &[Field], frame: u32, end: u32) -> String {
    let mut out = format!("{title}\n\n   r1+  frame+\n");
    let mut covered = 0;
    for f in fields {
        assert_eq!(f.at, covered, "{title}: {} does not follow the field before it", f.name);
        covered += f.size;
    }
    assert_eq!(covered, end, "{title}: the fields do not fill the frame");
    let frame_off = |at: u32| {
        if at >= frame {
            format!("{:>6}", at - frame)
        } else {
            format!("{:>6}", format!("-{}", frame - at))
        }
    };
    for line in 0..end.div_ceil(BYTES_PER_LINE) {
        let (lo, hi) = (line * BYTES_PER_LINE, (line + 1) * BYTES_PER_LINE);
        let starting: Vec<String> = fields
            .iter()
            .filter(|f| f.at >= lo && f.at < hi)
            .map(|f| {
                let note = if f.note.is_empty() { String::new() } else { format!("  {}", f.note) };
                let at = match f.at.checked_sub(frame) {
                    Some(off) => format!("frame+{off}"),
                    None => format!("r1+{}", f.at),
                };
                format!("{} [{at}, {} B]{note}", f.name, f.size)
            })
            .collect();
        let mark = if starting.is_empty() { "|" } else { "+" };
        let first = starting.first().map_or("", String::as_str);
        out.push_str(format!("{lo:>6} {} {mark} {first}", frame_off(lo)).trim_end());
        out.push('\n');
        for more in starting.iter().skip(1) {
            out.push_str(&format!("{:13} : {more}\n", ""));
        }
    }
    out.push_str(&format!(
        "{end:>6} {} = the interrupted r1, if it was 16-aligned (else up to 15 below it)\n",
        frame_off(end)
    ));
    out
}

/// The classic frame's drawing.
pub fn classic_drawing() -> String {
    let (fields, end) = classic();
    let title = format!(
        "Classic frame: SigFrame, {} bytes at r1 + {} (one line = {BYTES_PER_LINE} bytes)",
        SigFrame::SIZE,
        SIGNAL_FRAMESIZE
    );
    draw(&title, &fields, SIGNAL_FRAMESIZE, end)
}

/// The RT frame's drawing.
pub fn rt_drawing() -> String {
    let (fields, end) = rt();
    let gap = SIGNAL_FRAMESIZE + RT_EXTRA_GAP;
    let title = format!(
        "RT frame: RtSigFrame, {} bytes at r1 + {gap} (one line = {BYTES_PER_LINE} bytes)",
        RtSigFrame::SIZE
    );
    draw(&title, &fields, gap, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawings_cover_the_frames_line_by_line() {
        let c = classic_drawing();
        // One numbered line per 32 bytes, and the end line.
        let numbered =
            |d: &str| d.lines().filter(|l| l.trim_start().starts_with(char::is_numeric)).count();
        assert_eq!(numbered(&c), (64 + 1248usize).div_ceil(32) + 1);
        assert!(c.contains("    64      0 + sigcontext: _unused[4] (word 3: oldmask high) [frame+0, 16 B]  <- r4 = frame\n              : signal [frame+16, 4 B]\n"), "{c}");
        assert!(
            c.contains("mc_pad (unwritten: LR = the signal page's trampoline) [frame+488, 8 B]\n"),
            "{c}"
        );
        let r = rt_drawing();
        assert_eq!(numbered(&r), (80 + 1536usize).div_ceil(32) + 1);
        assert!(
            r.contains("    64    -16 + info: siginfo_t [frame+0, 128 B]  <- r4 = r6 = frame"),
            "{r}"
        );
        assert!(r.contains("uc_flags [frame+128, 4 B]  <- r5"), "{r}");
        assert!(
            r.contains("mc_pad (unwritten: LR = the signal page's trampoline) [frame+776, 8 B]\n"),
            "{r}"
        );
        assert!(r.ends_with(
            "  1616   1536 = the interrupted r1, if it was 16-aligned (else up to 15 below it)\n"
        ));
    }
}
