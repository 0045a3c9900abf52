//! The signal trace on the host: parse the `@sig` lines a kernel booted with
//! `trace=signal` prints (kernel/src/trace.rs defines them) and draw them as a
//! timeline SVG, one lane per process.
//!
//! A line is `@sig <event> key=value ...`; it may follow program output on
//! the same console line (the kernel does not wait for a program's newline),
//! so the parser looks for `@sig ` anywhere in a line. An event name the
//! parser does not know is an error: the kernel and this file change together.
//!
//! The picture: time runs left to right, one column per event, in console
//! order, with each column's guest time (`t=`) on an axis under the lanes;
//! under that, a ruler draws guest time to scale, and a thin line joins each
//! column to its place on it (bursts of events bunch up there, the columns
//! stay readable).
//! Each process has two lanes, user mode above kernel mode. Each event is a
//! mark on the kernel lane of the process it happened to (`pid=`), except
//! `generate`, which sits on the sender's lane when the sender is a process
//! (si_pid != 0), and `handler`, the entry into user mode, on the user lane.
//! An arrow joins each `generate` to the `dequeue` that takes the same
//! signal off the target's queue; a bar on the user lane shows the handler
//! running, from `handler` to the `sigreturn` that reads back the same
//! frame. The system call that generated a signal (kill, sigqueue, tgkill)
//! or ended its delivery (rt_sigreturn, sigreturn) is named beside the event;
//! a legend says what every mark is, and every label is drawn, not hidden in
//! a tooltip (the tooltips hold the raw line).

use std::collections::BTreeSet;
use std::fmt::Write;

/// The steps of a signal's life, in the kernel's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Generate,
    Queue,
    Dequeue,
    Frame,
    Handler,
    Sigreturn,
    Default,
}

impl Kind {
    fn parse(word: &str) -> Option<Kind> {
        Some(match word {
            "generate" => Kind::Generate,
            "queue" => Kind::Queue,
            "dequeue" => Kind::Dequeue,
            "frame" => Kind::Frame,
            "handler" => Kind::Handler,
            "sigreturn" => Kind::Sigreturn,
            "default" => Kind::Default,
            _ => return None,
        })
    }

    /// The word the kernel prints.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Generate => "generate",
            Kind::Queue => "queue",
            Kind::Dequeue => "dequeue",
            Kind::Frame => "frame",
            Kind::Handler => "handler",
            Kind::Sigreturn => "sigreturn",
            Kind::Default => "default",
        }
    }

    fn color(self) -> &'static str {
        match self {
            Kind::Generate => "#d62728",
            Kind::Queue => "#ff7f0e",
            Kind::Dequeue => "#2ca02c",
            Kind::Frame => "#1f77b4",
            Kind::Handler => "#9467bd",
            Kind::Sigreturn => "#17becf",
            Kind::Default => "#7f7f7f",
        }
    }
}

/// One `@sig` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub kind: Kind,
    /// The process the event happens to.
    pub pid: u32,
    /// Every `key=value` word, in order (pid included).
    pub fields: Vec<(String, String)>,
}

impl Event {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// A decimal field as a number.
    pub fn num(&self, key: &str) -> Option<u32> {
        self.get(key)?.parse().ok()
    }

    pub fn signo(&self) -> Option<u32> {
        self.num("signo")
    }
}

/// Every `@sig` event in a captured console, in order.
pub fn parse(console: &str) -> Result<Vec<Event>, String> {
    let mut events = Vec::new();
    for (n, line) in console.lines().enumerate() {
        let Some(at) = line.find("@sig ") else { continue };
        let mut words = line[at + 5..].split_whitespace();
        let what = words.next().unwrap_or("");
        let kind = Kind::parse(what)
            .ok_or_else(|| format!("line {}: unknown trace event {what:?}", n + 1))?;
        let fields = words
            .map(|w| w.split_once('=').map(|(k, v)| (k.to_owned(), v.to_owned())))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| format!("line {}: a word without '=' in {line:?}", n + 1))?;
        let mut event = Event { kind, pid: 0, fields };
        event.pid =
            event.num("pid").ok_or_else(|| format!("line {}: no pid= in {line:?}", n + 1))?;
        events.push(event);
    }
    Ok(events)
}

/// A signal's name for labels (Linux numbering, as on ppc32).
pub fn signal_name(signo: u32) -> String {
    const NAMES: [&str; 31] = [
        "SIGHUP",
        "SIGINT",
        "SIGQUIT",
        "SIGILL",
        "SIGTRAP",
        "SIGABRT",
        "SIGBUS",
        "SIGFPE",
        "SIGKILL",
        "SIGUSR1",
        "SIGSEGV",
        "SIGUSR2",
        "SIGPIPE",
        "SIGALRM",
        "SIGTERM",
        "SIGSTKFLT",
        "SIGCHLD",
        "SIGCONT",
        "SIGSTOP",
        "SIGTSTP",
        "SIGTTIN",
        "SIGTTOU",
        "SIGURG",
        "SIGXCPU",
        "SIGXFSZ",
        "SIGVTALRM",
        "SIGPROF",
        "SIGWINCH",
        "SIGIO",
        "SIGPWR",
        "SIGSYS",
    ];
    match signo {
        1..=31 => NAMES[signo as usize - 1].to_owned(),
        32..=64 => format!("SIGRT{}", signo - 32),
        _ => format!("signal {signo}"),
    }
}

/// The lane an event is drawn on.
fn lane_pid(e: &Event) -> u32 {
    match (e.kind, e.num("sender")) {
        (Kind::Generate, Some(s)) if s != 0 => s,
        _ => e.pid,
    }
}

/// The one-line detail under an event's name.
fn detail(e: &Event) -> String {
    let sig = e.signo().map(signal_name).unwrap_or_default();
    let field = |k: &str| e.get(k).unwrap_or("?").to_owned();
    match e.kind {
        Kind::Generate => format!("{sig} to {}", e.pid),
        Kind::Queue => match e.get("node") {
            Some(n) => format!("node {n}"),
            None => field("result"),
        },
        Kind::Dequeue => format!("node {}", field("node")),
        Kind::Frame => format!("{} {} B @{}", field("kind"), field("size"), field("frame")),
        Kind::Handler => format!("{sig} nip {}", field("nip")),
        Kind::Sigreturn => format!("frame {}", field("frame")),
        Kind::Default => format!("{sig}: {}", field("action")),
    }
}

/// Index pairs (generate, dequeue): each dequeue is joined to the latest
/// earlier generate of the same signal for the same target not yet joined.
pub fn deliveries(events: &[Event]) -> Vec<(usize, usize)> {
    let mut joined = vec![false; events.len()];
    let mut pairs = Vec::new();
    for (d, e) in events.iter().enumerate().filter(|(_, e)| e.kind == Kind::Dequeue) {
        let g = (0..d).rev().find(|&g| {
            let c = &events[g];
            !joined[g] && c.kind == Kind::Generate && c.pid == e.pid && c.signo() == e.signo()
        });
        if let Some(g) = g {
            joined[g] = true;
            pairs.push((g, d));
        }
    }
    pairs
}

/// Index pairs (handler, sigreturn) on the same process with the same frame
/// (the frame event just before the handler names it).
fn handler_spans(events: &[Event]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    for (h, e) in events.iter().enumerate().filter(|(_, e)| e.kind == Kind::Handler) {
        let frame = events[..h]
            .iter()
            .rev()
            .find(|f| f.kind == Kind::Frame && f.pid == e.pid)
            .and_then(|f| f.get("frame"));
        let ret = (h + 1..events.len()).find(|&r| {
            events[r].kind == Kind::Sigreturn
                && events[r].pid == e.pid
                && events[r].get("frame") == frame
        });
        if let Some(r) = ret {
            spans.push((h, r));
        }
    }
    spans
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// What each mark means, for the legend.
fn meaning(kind: Kind) -> &'static str {
    match kind {
        Kind::Generate => "signal generated (on the sender's lane)",
        Kind::Queue => "sigqueue: node queued, coalesced or dropped",
        Kind::Dequeue => "node taken off the queue for delivery",
        Kind::Frame => "frame written to the user stack",
        Kind::Handler => "user mode enters the handler",
        Kind::Sigreturn => "sigreturn reads the frame back",
        Kind::Default => "default action (no handler)",
    }
}

/// The system call behind an event, when there is one: the call that
/// generated a signal (from si_code: SI_USER kill, SI_QUEUE sigqueue,
/// SI_TKILL tgkill/tkill) or the one that ends a delivery.
fn syscall(e: &Event) -> Option<&'static str> {
    match e.kind {
        Kind::Generate if e.num("sender").unwrap_or(0) != 0 => match e.get("code")? {
            "0" => Some("kill"),
            "-1" => Some("sigqueue"),
            "-6" => Some("tgkill"),
            _ => None,
        },
        Kind::Sigreturn => {
            Some(if e.get("kind") == Some("rt") { "rt_sigreturn" } else { "sigreturn" })
        }
        _ => None,
    }
}

/// The timeline picture of `events`: one column per event, in console
/// order; per process a user lane (the handler runs there) above a kernel
/// lane (everything else); a legend; and under the lanes the guest time of
/// each column (the `t=` of its line).
pub fn svg(events: &[Event], title: &str) -> String {
    const LEFT: usize = 110;
    const STEP: usize = 130;
    const LANE: usize = 64;
    // A legend column: room for 55 characters of 11 px monospace.
    const LEGEND: usize = 380;
    let pids: Vec<u32> = events
        .iter()
        .flat_map(|e| [e.pid, lane_pid(e)])
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let kinds = [
        Kind::Generate,
        Kind::Queue,
        Kind::Dequeue,
        Kind::Frame,
        Kind::Handler,
        Kind::Sigreturn,
        Kind::Default,
    ];
    let legend_rows = kinds.len().div_ceil(3) + 1;
    let top = 40 + 18 * legend_rows + 20;
    let width = (LEFT + STEP * events.len().max(1) + 20).max(3 * LEGEND + 20);
    let lanes_end = top + 2 * LANE * pids.len().max(1);
    let height = lanes_end + 130;
    // User lane above kernel lane, per process.
    let y = |pid: u32, user: bool| {
        let p = pids.iter().position(|&q| q == pid).unwrap_or(0);
        top + 2 * LANE * p + if user { LANE / 2 } else { LANE + LANE / 2 }
    };
    let ey = |e: &Event| y(lane_pid(e), e.kind == Kind::Handler);
    let x = |i: usize| LEFT + STEP / 2 + STEP * i;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="11">"#
    );
    let _ = writeln!(
        s,
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{}"/></marker></defs>"#,
        Kind::Generate.color()
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="10" y="22" font-size="14" font-weight="bold">{}</text>"#,
        escape(title)
    );
    // The legend: a swatch per event kind, then the two connecting marks.
    for (n, kind) in kinds.iter().enumerate() {
        let (lx, ly) = (10 + LEGEND * (n % 3), 44 + 18 * (n / 3));
        let _ = writeln!(
            s,
            r#"<rect x="{lx}" y="{}" width="10" height="10" rx="5" fill="{}"/><text x="{}" y="{}"><tspan font-weight="bold">{}</tspan>: {}</text>"#,
            ly - 9,
            kind.color(),
            lx + 16,
            ly,
            kind.name(),
            meaning(*kind)
        );
    }
    let ly = 44 + 18 * (legend_rows - 1);
    let _ = writeln!(
        s,
        r##"<line x1="10" y1="{0}" x2="40" y2="{0}" stroke="{1}" stroke-dasharray="4 3"/><text x="46" y="{2}">the same signal, generated then dequeued</text><rect x="{5}" y="{3}" width="30" height="8" fill="{4}" opacity="0.35"/><text x="{6}" y="{2}">the handler running (user mode)</text><text x="{7}" y="{2}">(name): the system call</text>"##,
        ly - 4,
        Kind::Generate.color(),
        ly,
        ly - 8,
        Kind::Handler.color(),
        10 + LEGEND,
        46 + LEGEND,
        10 + 2 * LEGEND
    );
    for &pid in &pids {
        for user in [true, false] {
            let lane_y = y(pid, user);
            let _ = writeln!(
                s,
                r##"<line x1="{LEFT}" y1="{lane_y}" x2="{}" y2="{lane_y}" stroke="{}"/>"##,
                width - 10,
                if user { "#ddd" } else { "#bbb" }
            );
            let _ = writeln!(
                s,
                r#"<text x="10" y="{}"><tspan font-weight="bold">pid {pid}</tspan> {}</text>"#,
                lane_y + 4,
                if user { "user" } else { "kernel" }
            );
        }
    }
    for (h, r) in handler_spans(events) {
        let lane_y = y(events[h].pid, true);
        let _ = writeln!(
            s,
            r#"<rect x="{}" y="{}" width="{}" height="8" fill="{}" opacity="0.35"/>"#,
            x(h),
            lane_y - 4,
            x(r) - x(h),
            Kind::Handler.color()
        );
    }
    for (g, d) in deliveries(events) {
        let (x1, y1, x2, y2) = (x(g), ey(&events[g]), x(d), ey(&events[d]));
        let _ = writeln!(
            s,
            r#"<path d="M{x1},{y1} C{},{y1} {},{y2} {},{y2}" fill="none" stroke="{}" stroke-dasharray="4 3" marker-end="url(#arrow)"/>"#,
            x1 + STEP / 2,
            x2 - STEP / 2,
            x2 - 6,
            Kind::Generate.color()
        );
    }
    // Two time axes: the columns' own (each event's guest time, not to
    // scale), and under it a ruler to scale, each column joined by a thin
    // line to its place on the ruler.
    let axis_y = lanes_end + 10;
    let ruler_y = axis_y + 70;
    let _ = writeln!(
        s,
        r##"<line x1="{LEFT}" y1="{axis_y}" x2="{}" y2="{axis_y}" stroke="#444"/><text x="10" y="{}">event</text><text x="10" y="{}">times, us</text>"##,
        width - 10,
        axis_y + 4,
        axis_y + 18
    );
    let times: Vec<Option<u64>> =
        events.iter().map(|e| e.get("t").and_then(|t| t.parse().ok())).collect();
    let scale =
        Ruler::new(times.iter().flatten().copied(), LEFT + STEP / 2, x(events.len().max(1) - 1));
    if let Some(r) = &scale {
        r.draw(&mut s, ruler_y);
    }
    for (i, e) in events.iter().enumerate() {
        let (ex, y0) = (x(i), ey(e));
        let _ = writeln!(
            s,
            r#"<circle cx="{ex}" cy="{y0}" r="6" fill="{}"><title>{}</title></circle>"#,
            e.kind.color(),
            escape(&format!(
                "@sig {} {}",
                e.kind.name(),
                e.fields.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
            ))
        );
        let name = match syscall(e) {
            Some(call) => format!("{} ({call})", e.kind.name()),
            None => e.kind.name().to_owned(),
        };
        // Labels alternate above and below the lane, so neighbours never overlap.
        let (name_y, detail_y) = if i % 2 == 0 { (y0 - 20, y0 - 9) } else { (y0 + 18, y0 + 29) };
        let _ = writeln!(
            s,
            r#"<text x="{ex}" y="{name_y}" text-anchor="middle" font-weight="bold">{}</text>"#,
            escape(&name)
        );
        let _ = writeln!(
            s,
            r#"<text x="{ex}" y="{detail_y}" text-anchor="middle">{}</text>"#,
            escape(&detail(e))
        );
        if let Some(t) = times[i] {
            let _ = writeln!(
                s,
                r##"<line x1="{ex}" y1="{}" x2="{ex}" y2="{}" stroke="#444"/><text x="{ex}" y="{}" text-anchor="middle">{}.{:03}</text>"##,
                axis_y - 4,
                axis_y + 4,
                axis_y + 18,
                t / 1000,
                t % 1000
            );
            if let Some(r) = &scale {
                let _ = writeln!(
                    s,
                    r##"<line x1="{ex}" y1="{}" x2="{}" y2="{ruler_y}" stroke="{}" stroke-width="0.7"/>"##,
                    axis_y + 24,
                    r.x(t),
                    e.kind.color()
                );
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

/// The guest-time ruler under the trace: linear from the first event's
/// time to the last one's, between two x positions, with a tick at every
/// multiple of a round step (1, 2 or 5 times a power of ten ns: about eight
/// ticks), labelled in us since boot.
struct Ruler {
    t0: u64,
    span: u64,
    x0: usize,
    width: usize,
    step: u64,
}

impl Ruler {
    /// None without any time to draw.
    fn new(times: impl Iterator<Item = u64>, x0: usize, x1: usize) -> Option<Ruler> {
        let (mut lo, mut hi) = (u64::MAX, 0);
        for t in times {
            (lo, hi) = (lo.min(t), hi.max(t));
        }
        if lo > hi {
            return None;
        }
        let span = (hi - lo).max(1);
        let mut step = 1;
        while step * 10 <= span / 8 {
            step *= 10;
        }
        step *= [1, 2, 5, 10].into_iter().find(|m| step * m >= span / 8).unwrap_or(10);
        Some(Ruler { t0: lo, span, x0, width: x1.saturating_sub(x0).max(1), step })
    }

    /// Where guest time `t` falls.
    fn x(&self, t: u64) -> usize {
        self.x0 + ((t - self.t0) as u128 * self.width as u128 / self.span as u128) as usize
    }

    fn draw(&self, s: &mut String, y: usize) {
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#444"/><text x="10" y="{}">guest time,</text><text x="10" y="{}">us, to scale</text>"##,
            self.x0,
            self.x0 + self.width,
            y + 4,
            y + 18
        );
        let mut t = self.t0.div_ceil(self.step) * self.step;
        while t <= self.t0 + self.span {
            let us = if self.step < 1000 {
                format!("{}.{:03}", t / 1000, t % 1000)
            } else {
                (t / 1000).to_string()
            };
            let x = self.x(t);
            let _ = writeln!(
                s,
                r##"<line x1="{x}" y1="{y}" x2="{x}" y2="{}" stroke="#444"/><text x="{x}" y="{}" text-anchor="middle">{us}</text>"##,
                y + 6,
                y + 20
            );
            t += self.step;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What sig_demo prints under `trace=signal` (addresses from a real run),
    /// with program output glued in front of one trace line.
    const DEMO: &str = "parent: sending SIGUSR1 to my child
@sig generate pid=2 sender=1 signo=10 code=0 t=51234567
@sig queue pid=2 signo=10 result=queued node=0xc0056b18 t=51234890
@sig dequeue pid=2 signo=10 node=0xc0056b18
@sig frame pid=2 signo=10 kind=rt frame=0xaffff460 size=1536 window=0xaffff410+1616 windows=1 result=ok
@sig handler pid=2 signo=10 nip=0x100007b0 sp=0xaffff410 lr=0xaffff768
child: no newline yet@sig sigreturn pid=2 kind=rt frame=0xaffff460 nip=0x1000653c
@sig generate pid=1 sender=2 signo=17 code=1
@sig queue pid=1 signo=17 result=ignored
parent: child exited with status 0
";

    #[test]
    fn parses_every_event_in_order() {
        let ev = parse(DEMO).unwrap();
        let kinds: Vec<Kind> = ev.iter().map(|e| e.kind).collect();
        use Kind::*;
        assert_eq!(kinds, [Generate, Queue, Dequeue, Frame, Handler, Sigreturn, Generate, Queue]);
        assert_eq!(ev[0].pid, 2);
        assert_eq!(ev[0].num("sender"), Some(1));
        assert_eq!(ev[3].get("window"), Some("0xaffff410+1616"));
        assert_eq!(
            ev[5].get("frame"),
            ev[3].get("frame"),
            "the line after program output is parsed too"
        );
        assert_eq!(ev[7].get("result"), Some("ignored"));
    }

    #[test]
    fn rejects_what_it_does_not_understand() {
        assert!(parse("@sig teleport pid=1").unwrap_err().contains("unknown trace event"));
        assert!(parse("@sig queue pid=1 oops").unwrap_err().contains("without '='"));
        assert!(parse("@sig queue signo=3").unwrap_err().contains("no pid="));
        assert_eq!(parse("no trace here\n").unwrap(), vec![]);
    }

    #[test]
    fn joins_generate_to_dequeue_and_handler_to_sigreturn() {
        let ev = parse(DEMO).unwrap();
        assert_eq!(deliveries(&ev), [(0, 2)], "the ignored SIGCHLD is never delivered");
        assert_eq!(handler_spans(&ev), [(4, 5)]);
        assert_eq!(lane_pid(&ev[0]), 1, "generate is drawn on the sender's lane");
    }

    #[test]
    fn svg_has_a_lane_per_process_and_a_mark_per_event() {
        let ev = parse(DEMO).unwrap();
        let pic = svg(&ev, "sig_demo <trace>");
        assert!(pic.starts_with("<svg") && pic.ends_with("</svg>\n"));
        assert_eq!(pic.matches("<circle").count(), ev.len());
        assert!(pic.contains(">pid 1<") && pic.contains(">pid 2<"));
        assert_eq!(pic.matches("marker-end").count(), 1);
        assert!(pic.contains("sig_demo &lt;trace&gt;"));
        assert!(pic.contains("SIGUSR1 to 2"));
        // Two lanes per process, a legend line per kind, the system calls,
        // and the guest time of the lines that carry one.
        assert!(pic.contains("pid 1</tspan> user") && pic.contains("pid 2</tspan> kernel"));
        assert!(pic.contains(">frame</tspan>: frame written to the user stack"));
        assert!(pic.contains(">generate (kill)<") && pic.contains(">sigreturn (rt_sigreturn)<"));
        assert!(pic.contains(">51234.567<") && pic.contains(">51234.890<"));
        assert!(pic.contains("us, to scale"));
    }

    #[test]
    fn ruler_is_to_scale_with_round_ticks() {
        let r = Ruler::new([3_403_132, 3_705_481].into_iter(), 100, 1100).unwrap();
        assert_eq!(r.step, 50_000, "about eight ticks of 1, 2 or 5 times a power of ten");
        assert_eq!((r.x(3_403_132), r.x(3_705_481)), (100, 1100));
        // Halfway in time is halfway across.
        assert_eq!(r.x(3_403_132 + 302_349 / 2), 599);
        let mut s = String::new();
        r.draw(&mut s, 0);
        assert!(s.contains(">3450<") && s.contains(">3700<") && !s.contains(">3400<"));
        assert!(Ruler::new(std::iter::empty(), 0, 10).is_none());
    }
}
