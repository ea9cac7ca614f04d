//! Pictures: a pencil-mark grid as SVG, with one step's pattern and conclusions marked.
//!
//! The picture follows the conventions of the field's explainers: givens in black, digits
//! placed by logic in blue, candidates small in a 3×3 layout, the step's pattern cells shaded,
//! its fins shaded orange, the candidates it is about in blue, placements in green,
//! eliminations struck out in red, and a chain's links as red arrows, strong links solid and
//! weak links dashed (read from the step's chain by [`links`]); the step's text, wrapped,
//! below. SVG is plain text, so the output is testable, diffable and
//! opens in every browser; no image library is needed.
//!
//! ```
//! use sudokit::{candidates::Candidates, parse::parse, render};
//!
//! let puzzle = parse("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..").unwrap();
//! let svg = render::svg(&puzzle, &Candidates::new(&puzzle), None);
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("class=\"given\"").count(), 21);
//! ```

use std::fmt::Write;

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, Grid};
use crate::links;
use crate::step::Step;

const CELL: usize = 48;
const MARGIN: usize = 24;
const SIDE: usize = 9 * CELL + 2 * MARGIN;

const STYLE: &str = "text{font-family:'DejaVu Sans',Arial,sans-serif;text-anchor:middle;\
dominant-baseline:central}.given{font-size:30px;fill:#000}.placed{font-size:30px;fill:#1a5fb4}\
.cand{font-size:13px;fill:#555}.focus{fill:#1a5fb4;font-weight:bold}.put{fill:#26a269;\
font-weight:bold}.gone{fill:#c01c28}.label{font-size:12px;fill:#777}";

/// The SVG picture of `cands` (with `puzzle`'s givens told apart from placed digits),
/// marking `step` when given.
pub fn svg(puzzle: &Grid, cands: &Candidates, step: Option<&Step>) -> String {
    let mut out = String::with_capacity(32 * 1024);
    // Writing to a String cannot fail: the results of `write!` below are ignored for that reason.
    let caption = step.map(|s| wrap(&s.to_string())).unwrap_or_default();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{SIDE}\" height=\"{h}\" \
         viewBox=\"0 0 {SIDE} {h}\"><style>{STYLE}</style>\
         <defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" \
         markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c01c28\"/></marker></defs>\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>",
        h = SIDE + caption.len() * LINE + if step.is_some() { MARGIN } else { 0 },
    );
    let pattern: CellSet = step
        .map(|s| s.cells.iter().copied().collect())
        .unwrap_or_default();
    let fins: CellSet = step
        .map(|s| s.fins.iter().copied().collect())
        .unwrap_or_default();
    for cell in Cell::all() {
        let fill = if fins.contains(cell) {
            Some("#ffd8a8")
        } else if pattern.contains(cell) {
            Some("#fff3b0")
        } else {
            None
        };
        if let Some(fill) = fill {
            let (x, y) = origin(cell);
            let _ = write!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>"
            );
        }
    }
    for cell in Cell::all() {
        draw_cell(&mut out, puzzle, cands, step, cell);
    }
    grid_lines(&mut out);
    labels(&mut out);
    if let Some(chain) = step.and_then(|s| s.chain.as_deref()) {
        for link in links::links(chain) {
            arrow(&mut out, cands, &link);
        }
    }
    for (i, line) in caption.iter().enumerate() {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" style=\"font-size:14px\">{}</text>",
            SIDE / 2,
            SIDE + MARGIN / 2 + i * LINE,
            escape(line)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The widest caption line, in ems of the caption's font (the picture less a small margin
/// each side, at 14px), and the height of a line.
const CAPTION_EMS: f64 = (SIDE - 16) as f64 / 14.0;
const LINE: usize = 18;

/// About how wide `text` is drawn, in ems: DejaVu Sans's advances, rounded up a little, so
/// that a line measured to fit does in the fonts the style names.
fn ems(text: &str) -> f64 {
    text.chars()
        .map(|c| match c {
            ' ' | ',' | '.' | ':' | ';' | '\'' | '|' | 'i' | 'j' | 'l' | 'I' => 0.33,
            '(' | ')' | '[' | ']' | '-' | 'f' | 'r' | 't' => 0.41,
            '<' | '>' | '=' | '+' => 0.84,
            'm' | 'w' | 'M' | 'W' => 1.0,
            c if c.is_uppercase() => 0.78,
            _ => 0.64,
        })
        .sum()
}

/// `text` in lines that fit the picture, broken at spaces, and inside a word too long for a
/// line (a chain in Eureka notation has no spaces) after a link, before the next node's `(`.
fn wrap(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        for (i, piece) in pieces(word).into_iter().enumerate() {
            let space = if i == 0 && !line.is_empty() { " " } else { "" };
            if !line.is_empty() && ems(&line) + ems(space) + ems(piece) > CAPTION_EMS {
                lines.push(std::mem::take(&mut line));
            } else {
                line.push_str(space);
            }
            line.push_str(piece);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A word cut where a line may break inside it: after each link of a chain (`-` or `=`
/// before a node's `(`), and where a part would still not fit, before the character that
/// would overflow.
fn pieces(word: &str) -> Vec<&str> {
    let mut cuts = vec![0];
    let mut chars = word.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let start = *cuts.last().expect("a first cut");
        let next = chars.peek().copied();
        if ems(&word[start..at + c.len_utf8()]) > CAPTION_EMS && at > start {
            cuts.push(at);
        }
        if let Some((i, '(')) = next {
            if c == '-' || c == '=' {
                cuts.push(i);
            }
        }
    }
    cuts.push(word.len());
    cuts.dedup();
    cuts.windows(2).map(|w| &word[w[0]..w[1]]).collect()
}

/// Where a candidate is drawn: the centre of its ninth of the cell.
fn candidate_at(cell: Cell, digit: Digit) -> (f64, f64) {
    let (x, y) = origin(cell);
    let i = digit.index();
    (
        (x + CELL / 6 + (i % 3) * CELL / 3) as f64,
        (y + CELL / 6 + (i / 3) * CELL / 3) as f64,
    )
}

/// A chain's link as an arrow between its candidates: solid for a strong link, dashed for a
/// weak one, bent a little so that arrows along one line stay apart, and stopped short of
/// the digits. A group or an almost locked set is reached at its candidate nearest the other
/// end, so that the arrow meets a digit of the node, not the middle of cells that may lie far
/// apart (HoDoKu draws to a node's first cell).
fn arrow(out: &mut String, cands: &Candidates, link: &links::Link) {
    // The node's candidates: the cells holding its digit (an almost locked set's text names
    // all its cells), or all its cells if the marks no longer show the digit.
    let places = |node: &links::Node| -> Vec<(f64, f64)> {
        let holding: Vec<Cell> = node
            .cells
            .iter()
            .filter(|&cell| cands.get(cell).contains(node.digit))
            .collect();
        let cells = if holding.is_empty() {
            node.cells.iter().collect()
        } else {
            holding
        };
        cells
            .into_iter()
            .map(|cell| candidate_at(cell, node.digit))
            .collect()
    };
    let (from, to) = (places(&link.from), places(&link.to));
    let apart = |((x1, y1), (x2, y2)): &((f64, f64), (f64, f64))| (x2 - x1).hypot(y2 - y1);
    let Some(((x1, y1), (x2, y2))) = from
        .iter()
        .flat_map(|&a| to.iter().map(move |&b| (a, b)))
        .min_by(|p, q| apart(p).total_cmp(&apart(q)))
    else {
        return;
    };
    let (dx, dy) = (x2 - x1, y2 - y1);
    let length = (dx * dx + dy * dy).sqrt();
    if length < 1.0 {
        return;
    }
    let (ux, uy) = (dx / length, dy / length);
    let gap = 7.0;
    let (ax, ay, bx, by) = (x1 + ux * gap, y1 + uy * gap, x2 - ux * gap, y2 - uy * gap);
    // The control point: off the middle, to the left of the direction of travel.
    let bend = (length * 0.15).min(18.0);
    let (cx, cy) = ((ax + bx) / 2.0 - uy * bend, (ay + by) / 2.0 + ux * bend);
    let dash = if link.strong {
        ""
    } else {
        " stroke-dasharray=\"5,4\""
    };
    let _ = write!(
        out,
        "<path d=\"M{ax:.1},{ay:.1} Q{cx:.1},{cy:.1} {bx:.1},{by:.1}\" fill=\"none\" \
         stroke=\"#c01c28\" stroke-width=\"1.6\"{dash} marker-end=\"url(#head)\" \
         class=\"{}\"/>",
        if link.strong { "strong" } else { "weak" }
    );
}

fn origin(cell: Cell) -> (usize, usize) {
    (MARGIN + cell.col() * CELL, MARGIN + cell.row() * CELL)
}

fn draw_cell(out: &mut String, puzzle: &Grid, cands: &Candidates, step: Option<&Step>, cell: Cell) {
    let (x, y) = origin(cell);
    let (cx, cy) = (x + CELL / 2, y + CELL / 2);
    if let Some(d) = cands.value(cell) {
        let class = if puzzle.get(cell).is_some() {
            "given"
        } else {
            "placed"
        };
        let _ = write!(
            out,
            "<text x=\"{cx}\" y=\"{cy}\" class=\"{class}\">{d}</text>"
        );
        return;
    }
    let has = |list: &[(Cell, Digit)], d: Digit| list.iter().any(|&(c, e)| c == cell && e == d);
    for d in cands.get(cell).iter() {
        let i = d.index();
        let dx = x + CELL / 6 + (i % 3) * CELL / 3;
        let dy = y + CELL / 6 + (i / 3) * CELL / 3;
        let class = match step {
            Some(s) if has(&s.placements, d) => "cand put",
            Some(s) if has(&s.eliminations, d) => "cand gone",
            Some(s) if s.digits.contains(d) && s.cells.contains(&cell) => "cand focus",
            _ => "cand",
        };
        if class == "cand put" {
            let _ = write!(
                out,
                "<circle cx=\"{dx}\" cy=\"{dy}\" r=\"7\" fill=\"none\" stroke=\"#26a269\" stroke-width=\"1.5\"/>"
            );
        }
        let _ = write!(
            out,
            "<text x=\"{dx}\" y=\"{dy}\" class=\"{class}\">{d}</text>"
        );
        if class == "cand gone" {
            let _ = write!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#c01c28\" stroke-width=\"1.5\"/>",
                dx - 6,
                dy + 6,
                dx + 6,
                dy - 6
            );
        }
    }
}

fn grid_lines(out: &mut String) {
    for i in 0..=9 {
        let p = MARGIN + i * CELL;
        let (w, color) = if i % 3 == 0 {
            (2.5, "#000")
        } else {
            (0.8, "#999")
        };
        let end = MARGIN + 9 * CELL;
        let _ = write!(
            out,
            "<line x1=\"{MARGIN}\" y1=\"{p}\" x2=\"{end}\" y2=\"{p}\" stroke=\"{color}\" stroke-width=\"{w}\"/>\
             <line x1=\"{p}\" y1=\"{MARGIN}\" x2=\"{p}\" y2=\"{end}\" stroke=\"{color}\" stroke-width=\"{w}\"/>"
        );
    }
}

/// Row and column numbers in the margins, so pictures can be read in r1c1 terms.
fn labels(out: &mut String) {
    for i in 0..9 {
        let mid = MARGIN + i * CELL + CELL / 2;
        let _ = write!(
            out,
            "<text x=\"{mid}\" y=\"{}\" class=\"label\">c{n}</text>\
             <text x=\"{}\" y=\"{mid}\" class=\"label\">r{n}</text>",
            MARGIN / 2,
            MARGIN / 2,
            n = i + 1
        );
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A bar chart as SVG: one bar per `(label, count)`, in the order given, with the counts
/// above the bars, for histograms such as the ER distribution of a rated list.
pub fn bar_chart(title: &str, bars: &[(String, u64)]) -> String {
    const BAR: usize = 28;
    const HEIGHT: usize = 240;
    // Wide enough for the title even when there are few bars.
    let width = (2 * MARGIN + bars.len() * BAR).max(360);
    let max = bars.iter().map(|b| b.1).max().unwrap_or(0).max(1);
    let mut out = String::with_capacity(256 + bars.len() * 256);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{h}\" \
         viewBox=\"0 0 {width} {h}\"><style>{STYLE}</style>\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\
         <text x=\"{}\" y=\"{}\" style=\"font-size:14px\">{}</text>",
        width / 2,
        MARGIN / 2 + 2,
        escape(title),
        h = HEIGHT + 3 * MARGIN,
    );
    let base = MARGIN * 2 + HEIGHT;
    for (i, (label, count)) in bars.iter().enumerate() {
        let h = (*count as usize * HEIGHT) / max as usize;
        let x = MARGIN + i * BAR;
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{h}\" fill=\"#1a5fb4\"/>\
             <text x=\"{}\" y=\"{}\" class=\"label\">{count}</text>\
             <text x=\"{}\" y=\"{}\" class=\"label\">{}</text>",
            x + 2,
            base - h,
            BAR - 4,
            x + BAR / 2,
            base - h - 8,
            x + BAR / 2,
            base + MARGIN / 2,
            escape(label),
        );
    }
    let _ = writeln!(
        out,
        "<line x1=\"{MARGIN}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\" stroke=\"#000\"/></svg>",
        width - MARGIN
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::step::Technique;

    /// Inkala's 2012 puzzle and its candidates.
    fn inkala() -> (Grid, Candidates) {
        let puzzle: Grid =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
                .parse()
                .unwrap();
        let cands = Candidates::new(&puzzle);
        (puzzle, cands)
    }

    #[test]
    fn marks_pattern_placements_and_eliminations() {
        let (puzzle, cands) = inkala();
        let r1c2 = Cell::new(1).unwrap();
        let r1c3 = Cell::new(2).unwrap();
        let one = cands.get(r1c2).first().unwrap();
        let two = cands.get(r1c3).first().unwrap();
        let mut step = Step::new(Technique::NakedSingle);
        step.cells = vec![r1c2];
        step.placements = vec![(r1c2, one)];
        step.eliminations = vec![(r1c3, two)];
        step.detail = "a <test> & more".into();
        let svg = svg(&puzzle, &cands, Some(&step));
        assert_eq!(svg.matches("class=\"cand put\"").count(), 1);
        assert_eq!(svg.matches("class=\"cand gone\"").count(), 1);
        assert_eq!(svg.matches("fill=\"#fff3b0\"").count(), 1);
        assert!(svg.contains("&lt;test&gt; &amp; more"));
        assert!(!svg.contains("<test>"));
        let candidates: usize = Cell::all().map(|c| cands.get(c).len()).sum();
        assert_eq!(svg.matches("class=\"cand").count(), candidates);
    }

    #[test]
    fn captions_fit_the_picture_and_break_long_chains_between_nodes() {
        let chain = "Grouped AIC: (5=712)r7c157-(7=53469)r2c12357-(5)r7c5=(5)r4c5-(5=8)r4c9-\
                     (8)r9c9=(8)r9c1-(8=1)r8c1-(1)r8c7=(1)r5c7 => r5c1<>1, r5c2<>1, r6c8<>1";
        let lines = wrap(chain);
        assert!(lines.len() >= 3, "{lines:?}");
        for line in &lines {
            assert!(ems(line) <= CAPTION_EMS, "{line}");
        }
        // Lines break at spaces (dropped) or after a link, before the next node.
        assert_eq!(lines.concat().replace(' ', ""), chain.replace(' ', ""));
        for pair in lines.windows(2) {
            let joint = (pair[0].chars().last(), pair[1].chars().next());
            let at_space = chain.contains(&format!("{} {}", pair[0], pair[1]));
            assert!(
                at_space || matches!(joint, (Some('-' | '='), Some('('))),
                "{pair:?}"
            );
        }
        // A word with no place to break is cut where it would overflow.
        let long = "7".repeat(200);
        let cut = wrap(&long);
        assert!(cut.len() > 1 && cut.iter().all(|l| ems(l) <= CAPTION_EMS));
        assert_eq!(cut.concat(), long);
    }

    #[test]
    fn links_meet_the_nearest_candidate_of_a_set() {
        let (_, cands) = inkala();
        let holding = |cells: &[usize], d: u8| -> Vec<Cell> {
            let d = Digit::new(d).unwrap();
            cells
                .iter()
                .map(|&i| Cell::new(i).unwrap())
                .filter(|&x| cands.get(x).contains(d))
                .collect()
        };
        // Row 1's empty cells r1c2, r1c3, r1c9 and r1c5: a weak link on 1 from them to r3c1.
        let from = holding(&[1, 2, 4, 8], 1);
        let to = holding(&[18], 1);
        assert!(from.len() >= 2 && to.len() == 1, "{from:?} {to:?}");
        let text = format!(
            "(1){}-(1)r3c1",
            from.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        let mut out = String::new();
        for link in links::links(&text) {
            arrow(&mut out, &cands, &link);
        }
        let start: Vec<f64> = out["<path d=\"M".len()..]
            .split(' ')
            .next()
            .unwrap()
            .split(',')
            .map(|v| v.parse().unwrap())
            .collect();
        // The arrow leaves from the candidate nearest r3c1, 7 pixels out.
        let end = candidate_at(to[0], Digit::new(1).unwrap());
        let (near, _) = from
            .iter()
            .map(|&x| {
                let (px, py) = candidate_at(x, Digit::new(1).unwrap());
                ((px, py), (end.0 - px).hypot(end.1 - py))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        let off = (start[0] - near.0).hypot(start[1] - near.1);
        assert!((off - 7.0).abs() < 0.2, "{out}: {off}");
    }

    #[test]
    fn bar_chart_scales_bars_to_the_largest_count() {
        let bars = vec![
            ("1.2".to_string(), 10),
            ("7.5".to_string(), 5),
            ("9.0".to_string(), 0),
        ];
        let svg = bar_chart("ER <histogram>", &bars);
        assert!(svg.contains("height=\"240\" fill=\"#1a5fb4\""));
        assert!(svg.contains("height=\"120\" fill=\"#1a5fb4\""));
        assert!(svg.contains("height=\"0\" fill=\"#1a5fb4\""));
        assert!(svg.contains("ER &lt;histogram&gt;"));
    }
}
