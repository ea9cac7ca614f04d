//! Chains: X-Chain, XY-Chain, nice loops and AICs, plain and grouped.
//!
//! A *node* is "digit `d` lies in this cell" or, for grouped chains, "digit `d` lies in one
//! of these 2–3 cells of a box/line intersection". Two nodes of one digit are *strongly*
//! linked when a house holds that digit only in their cells (at least one is true), and
//! two digits of a bivalue cell are strongly linked too. Nodes are *weakly* linked when
//! they cannot both be true: the same digit in cells that all see each other, or two digits
//! of one cell.
//!
//! The search assumes a start node `S` false and walks the implication graph breadth-first,
//! alternating strong links (off ⇒ on) and weak links (on ⇒ off). Reaching a node `E` in the
//! "on" state proves `S or E`: every candidate weakly linked to both is false (AIC; when
//! those candidates all lie in the cells of `S` and `E`, the chain is a loop through the
//! eliminated candidate: Discontinuous Nice Loop). Reaching `S` itself "on" proves `S` (a
//! Discontinuous Nice Loop that places). When `E` is weakly linked back to `S`, the chain
//! is a Continuous Nice Loop: every weak link in it holds exactly one true node, and each
//! such pair eliminates what it sees.
//!
//! X-Chain and XY-Chain are the same search on a restricted graph: one digit and house
//! links only, or bivalue cells only with both ends on the same digit. Remote Pair, the
//! XY-Chain of cells sharing one pair of digits, is found by a simpler alternation.
//!
//! Breadth-first search makes the reported chain the shortest of its kind for its start;
//! across starts the shortest wins, so explanations stay short. Each node carries the set
//! of candidates it "kills" (its weak-link partners) as nine 81-bit masks, so testing a
//! pair of ends is nine ANDs.
//!
//! The three nice-loop techniques share one search per grid state (a small thread-local
//! cache), since the solver asks for them one after the other on the same grid.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::step::{Step, Technique};

/// Which links a search may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// One digit, cells only, house links only.
    X,
    /// Bivalue cells only: strong links inside cells, weak links between equal digits.
    Xy,
    /// Every link; groups when `grouped`.
    Nice { grouped: bool },
}

/// A node: a digit in a set of cells (one cell, or a group within a box/line intersection).
#[derive(Clone, Copy, Debug)]
struct Node {
    digit: Digit,
    cells: CellSet,
}

impl Node {
    fn single(&self) -> Option<Cell> {
        if self.cells.len() == 1 {
            self.cells.first()
        } else {
            None
        }
    }
}

/// The link graph of one grid state.
struct Graph {
    nodes: Vec<Node>,
    strong: Vec<Vec<u16>>,
    weak: Vec<Vec<u16>>,
    /// Per node, per digit: the candidates that are false if the node is true.
    kill: Vec<[CellSet; 9]>,
}

const NONE: u16 = u16::MAX;

impl Graph {
    fn build(c: &Candidates, kind: Kind) -> Graph {
        let mut nodes = Vec::new();
        let bivalue = c.bivalue_cells();
        for d in Digit::all() {
            let cells = match kind {
                Kind::Xy => c.cells_with(d) & bivalue,
                _ => c.cells_with(d),
            };
            for cell in cells.iter() {
                nodes.push(Node {
                    digit: d,
                    cells: CellSet::single(cell),
                });
            }
            if kind == (Kind::Nice { grouped: true }) {
                for b in 0..9u8 {
                    let in_box = c.cells_with_in(House::Box(b), d);
                    for line in box_lines(b) {
                        let g = in_box & CellSet::house(line);
                        if g.len() >= 2 {
                            nodes.push(Node { digit: d, cells: g });
                        }
                    }
                }
            }
        }
        let index: HashMap<(usize, u128), u16> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| ((n.digit.index(), n.cells.bits()), i as u16))
            .collect();
        let mut by_digit: [Vec<u16>; 9] = Default::default();
        for (i, n) in nodes.iter().enumerate() {
            by_digit[n.digit.index()].push(i as u16);
        }
        let n = nodes.len();
        let mut strong: Vec<Vec<u16>> = vec![Vec::new(); n];
        let mut weak: Vec<Vec<u16>> = vec![Vec::new(); n];
        let mut kill = vec![[CellSet::EMPTY; 9]; n];

        // Strong links in houses: the node and the rest of the house's candidates.
        if kind != Kind::Xy {
            for h in House::all() {
                for d in Digit::all() {
                    let p = c.cells_with_in(h, d);
                    if p.len() < 2 {
                        continue;
                    }
                    for &a in &by_digit[d.index()] {
                        let ac = nodes[a as usize].cells;
                        if (ac - p).is_empty() && ac != p {
                            if let Some(&b) = index.get(&(d.index(), (p - ac).bits())) {
                                push_unique(&mut strong[a as usize], b);
                            }
                        }
                    }
                }
            }
        }
        // Strong links inside bivalue cells.
        if kind != Kind::X {
            for cell in bivalue.iter() {
                let ds: Vec<Digit> = c.get(cell).iter().collect();
                let a = index[&(ds[0].index(), CellSet::single(cell).bits())];
                let b = index[&(ds[1].index(), CellSet::single(cell).bits())];
                strong[a as usize].push(b);
                strong[b as usize].push(a);
            }
        }
        // Weak links and kill sets.
        for (i, node) in nodes.iter().enumerate() {
            let d = node.digit;
            let seen = node.cells.common_peers() & c.cells_with(d);
            kill[i][d.index()] = seen;
            for &j in &by_digit[d.index()] {
                let other = nodes[j as usize].cells;
                if j as usize != i && (other - seen).is_empty() {
                    weak[i].push(j);
                }
            }
            if let Some(cell) = node.single() {
                for e in c.get(cell).iter().filter(|&e| e != d) {
                    kill[i][e.index()] = CellSet::single(cell);
                    if let Kind::Nice { .. } = kind {
                        weak[i].push(index[&(e.index(), CellSet::single(cell).bits())]);
                    }
                }
            }
        }
        Graph {
            nodes,
            strong,
            weak,
            kill,
        }
    }

    /// The candidates killed by both nodes.
    fn common_kill(&self, a: u16, b: u16) -> [CellSet; 9] {
        let (ka, kb) = (&self.kill[a as usize], &self.kill[b as usize]);
        std::array::from_fn(|d| ka[d] & kb[d])
    }
}

fn push_unique(v: &mut Vec<u16>, x: u16) {
    if !v.contains(&x) {
        v.push(x);
    }
}

/// The three rows and three columns through box `b`.
fn box_lines(b: u8) -> [House; 6] {
    let (r, c) = (b / 3 * 3, b % 3 * 3);
    [
        House::Row(r),
        House::Row(r + 1),
        House::Row(r + 2),
        House::Column(c),
        House::Column(c + 1),
        House::Column(c + 2),
    ]
}

fn is_empty(k: &[CellSet; 9]) -> bool {
    k.iter().all(|s| s.is_empty())
}

/// What a chain concludes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Category {
    /// A loop whose links all alternate.
    Continuous,
    /// A loop broken at one cell, or a chain proving its start.
    Discontinuous,
    /// An open chain: its two ends cannot both be false.
    Open,
}

/// A chain found: its nodes from start to end, and its conclusions.
struct Found {
    nodes: Vec<u16>,
    closes: bool,
    placement: Option<(Cell, Digit)>,
    kills: [CellSet; 9],
}

/// Per-category shortest chains of one search.
#[derive(Default)]
struct Best {
    found: [Option<Found>; 3],
}

impl Best {
    fn slot(cat: Category) -> usize {
        match cat {
            Category::Continuous => 0,
            Category::Discontinuous => 1,
            Category::Open => 2,
        }
    }

    fn offer(&mut self, cat: Category, f: impl FnOnce() -> Found, len: usize) {
        let slot = &mut self.found[Best::slot(cat)];
        if slot.as_ref().map_or(true, |g| g.nodes.len() > len) {
            *slot = Some(f());
        }
    }

    fn len(&self, cat: Category) -> usize {
        self.found[Best::slot(cat)]
            .as_ref()
            .map_or(usize::MAX, |f| f.nodes.len())
    }
}

/// Breadth-first search from every start; keeps the shortest chain of each accepted
/// category.
fn search(g: &Graph, kind: Kind, want: &[Category]) -> Best {
    let n = g.nodes.len();
    let mut best = Best::default();
    let mut on_pred = vec![NONE; n];
    let mut off_pred = vec![NONE; n];
    let mut frontier: Vec<u16> = Vec::new();
    let mut next: Vec<u16> = Vec::new();
    // Open chains eliminate only what both ends kill: a start that kills nothing is useless.
    let open_only = want == [Category::Open];
    for s in 0..n as u16 {
        if g.strong[s as usize].is_empty() || (open_only && is_empty(&g.kill[s as usize])) {
            continue;
        }
        on_pred.fill(NONE);
        off_pred.fill(NONE);
        off_pred[s as usize] = s;
        frontier.clear();
        frontier.push(s);
        let mut nodes_in_chain = 1;
        while !frontier.is_empty() {
            nodes_in_chain += 1;
            // Nothing longer can improve any wanted category.
            if want.iter().all(|&c| best.len(c) <= nodes_in_chain) {
                break;
            }
            next.clear();
            for &u in &frontier {
                for &v in &g.strong[u as usize] {
                    if on_pred[v as usize] == NONE {
                        on_pred[v as usize] = u;
                        next.push(v);
                    }
                }
            }
            for &e in &next {
                let path = || trace(s, e, &on_pred, &off_pred);
                examine(g, kind, want, s, e, nodes_in_chain, path, &mut best);
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
            for &u in &frontier {
                for &v in &g.weak[u as usize] {
                    if off_pred[v as usize] == NONE {
                        off_pred[v as usize] = u;
                        next.push(v);
                    }
                }
            }
            nodes_in_chain += 1;
            std::mem::swap(&mut frontier, &mut next);
        }
    }
    best
}

/// Tests the chain `s … e` (e on) for every wanted category.
#[allow(clippy::too_many_arguments)]
fn examine(
    g: &Graph,
    kind: Kind,
    want: &[Category],
    s: u16,
    e: u16,
    len: usize,
    path: impl Fn() -> Vec<u16>,
    best: &mut Best,
) {
    let (sn, en) = (g.nodes[s as usize], g.nodes[e as usize]);
    if e == s {
        if want.contains(&Category::Discontinuous) && len < best.len(Category::Discontinuous) {
            let (placement, kills) = match sn.single() {
                Some(cell) => (Some((cell, sn.digit)), [CellSet::EMPTY; 9]),
                None => (None, g.kill[s as usize]),
            };
            if placement.is_some() || !is_empty(&kills) {
                best.offer(
                    Category::Discontinuous,
                    || Found {
                        nodes: path(),
                        closes: false,
                        placement,
                        kills,
                    },
                    len,
                );
            }
        }
        return;
    }
    if kind == Kind::Xy && sn.digit != en.digit {
        return;
    }
    let kills = g.common_kill(s, e);
    // When every elimination lies in an end's cell, the chain reads as a loop through that
    // cell (X - S = … = E - X): a Discontinuous Nice Loop; otherwise it is an open AIC.
    let mut ends = sn.cells | en.cells;
    if sn.single().is_none() || en.single().is_none() {
        ends = CellSet::EMPTY;
    }
    let cat = if kills.iter().all(|k| (*k - ends).is_empty()) {
        Category::Discontinuous
    } else {
        Category::Open
    };
    if want.contains(&cat) && len < best.len(cat) && len >= 4 && !is_empty(&kills) {
        best.offer(
            cat,
            || Found {
                nodes: path(),
                closes: false,
                placement: None,
                kills,
            },
            len,
        );
    }
    if want.contains(&Category::Continuous)
        && len < best.len(Category::Continuous)
        && len >= 4
        && g.weak[e as usize].contains(&s)
    {
        let nodes = path();
        let mut kills = g.common_kill(e, s);
        for pair in nodes[1..].chunks(2) {
            if let [a, b] = *pair {
                let k = g.common_kill(a, b);
                for d in 0..9 {
                    kills[d] |= k[d];
                }
            }
        }
        if !is_empty(&kills) {
            best.offer(
                Category::Continuous,
                || Found {
                    nodes,
                    closes: true,
                    placement: None,
                    kills,
                },
                len,
            );
        }
    }
}

/// The chain from `s` (off) to `e` (on), following predecessors back.
fn trace(s: u16, e: u16, on_pred: &[u16], off_pred: &[u16]) -> Vec<u16> {
    let mut v = vec![e];
    let mut cur = e;
    let mut on = true;
    loop {
        if !on && cur == s {
            break;
        }
        cur = if on {
            on_pred[cur as usize]
        } else {
            off_pred[cur as usize]
        };
        on = !on;
        v.push(cur);
    }
    v.reverse();
    v
}

/// The step for a found chain.
fn to_step(g: &Graph, t: Technique, f: &Found) -> Step {
    let mut step = Step::new(t);
    if let Some(p) = f.placement {
        step.placements.push(p);
    }
    for d in Digit::all() {
        for cell in f.kills[d.index()].iter() {
            step.eliminations.push((cell, d));
        }
    }
    step.eliminations.sort_unstable();
    let mut cells = CellSet::EMPTY;
    for &i in &f.nodes {
        let node = g.nodes[i as usize];
        step.digits.insert(node.digit);
        for cell in node.cells.iter() {
            if !cells.contains(cell) {
                cells.insert(cell);
                step.cells.push(cell);
            }
        }
    }
    let mut text = eureka(g, &f.nodes);
    if f.closes {
        text.push('-');
        text.push_str(&node_name(&g.nodes[f.nodes[0] as usize]));
    }
    text.push_str(" => ");
    text.push_str(&step.effects());
    step.detail = format!("{} nodes", f.nodes.len());
    step.chain = Some(text);
    step
}

/// Eureka notation of a chain whose links alternate strong, weak, strong, …; a strong link
/// inside one cell is written `(a=b)r1c1`.
fn eureka(g: &Graph, nodes: &[u16]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < nodes.len() {
        let a = g.nodes[nodes[i] as usize];
        if i > 0 {
            out.push(if i % 2 == 1 { '=' } else { '-' });
        }
        if i % 2 == 0 && i + 1 < nodes.len() {
            let b = g.nodes[nodes[i + 1] as usize];
            if a.single().is_some() && a.cells == b.cells {
                out.push_str(&format!("({}={}){}", a.digit, b.digit, cells_name(a.cells)));
                i += 2;
                continue;
            }
        }
        out.push_str(&node_name(&a));
        i += 1;
    }
    out
}

fn node_name(n: &Node) -> String {
    format!("({}){}", n.digit, cells_name(n.cells))
}

/// `r5c4`, or a group in one line: `r5c456` / `r456c5`.
pub(crate) fn cells_name(cells: CellSet) -> String {
    let v: Vec<Cell> = cells.iter().collect();
    let Some(&first) = v.first() else {
        return String::new();
    };
    if v.iter().all(|c| c.row() == first.row()) {
        let cols: String = v.iter().map(|c| (b'1' + c.col() as u8) as char).collect();
        format!("r{}c{}", first.row() + 1, cols)
    } else if v.iter().all(|c| c.col() == first.col()) {
        let rows: String = v.iter().map(|c| (b'1' + c.row() as u8) as char).collect();
        format!("r{}c{}", rows, first.col() + 1)
    } else {
        crate::step::cell_list(&v)
    }
}

/// X-Chain: a single-digit alternating chain; cells seeing both ends lose the digit.
pub fn x_chain(c: &Candidates) -> Option<Step> {
    let g = Graph::build(c, Kind::X);
    let best = search(&g, Kind::X, &[Category::Open]);
    best.found[Best::slot(Category::Open)]
        .as_ref()
        .map(|f| to_step(&g, Technique::XChain, f))
}

/// XY-Chain: bivalue cells linked by equal digits; both ends hold the same digit, which
/// cells seeing both ends lose.
pub fn xy_chain(c: &Candidates) -> Option<Step> {
    let g = Graph::build(c, Kind::Xy);
    let best = search(&g, Kind::Xy, &[Category::Open]);
    best.found[Best::slot(Category::Open)]
        .as_ref()
        .map(|f| to_step(&g, Technique::XYChain, f))
}

/// A nice-loop search result: the grid, whether groups were used, and the step per category.
type NiceResult = (Candidates, bool, [Option<Step>; 3]);

/// Remote Pair: bivalue cells with the same two digits, each seeing the next, alternate
/// between the digits; a cell seeing two of them an odd number of links apart (at least
/// three) sees both digits and loses both.
pub fn remote_pair(c: &Candidates) -> Option<Step> {
    let bivalue = c.bivalue_cells();
    let mut pairs: Vec<DigitSet> = bivalue.iter().map(|x| c.get(x)).collect();
    pairs.sort_unstable_by_key(|p| p.bits());
    pairs.dedup();
    let mut best: Option<(Vec<Cell>, DigitSet, CellSet)> = None;
    for pair in pairs {
        let cells: CellSet = bivalue.iter().filter(|&x| c.get(x) == pair).collect();
        if cells.len() < 4 {
            continue;
        }
        let holders = pair
            .iter()
            .fold(CellSet::EMPTY, |acc, d| acc | c.cells_with(d));
        for start in cells.iter() {
            let mut pred = [usize::MAX; 81];
            let mut dist = [usize::MAX; 81];
            dist[start.index()] = 0;
            let mut queue = std::collections::VecDeque::from([start]);
            while let Some(u) = queue.pop_front() {
                for v in (CellSet::peers(u) & cells).iter() {
                    if dist[v.index()] == usize::MAX {
                        dist[v.index()] = dist[u.index()] + 1;
                        pred[v.index()] = u.index();
                        queue.push_back(v);
                    }
                }
                let k = dist[u.index()];
                if k < 3 || k % 2 == 0 || best.as_ref().is_some_and(|b| b.0.len() <= k + 1) {
                    continue;
                }
                let targets = CellSet::peers(start) & CellSet::peers(u) & (holders - cells);
                if !targets.is_empty() {
                    let mut path = vec![u];
                    let mut cur = u.index();
                    while cur != start.index() {
                        cur = pred[cur];
                        path.push(Cell::new(cur).expect("cell index"));
                    }
                    path.reverse();
                    best = Some((path, pair, targets));
                }
            }
        }
    }
    let (path, pair, targets) = best?;
    let mut step = Step::new(Technique::RemotePair);
    step.digits = pair;
    step.cells = path.clone();
    for t in targets.iter() {
        for d in (c.get(t) & pair).iter() {
            step.eliminations.push((t, d));
        }
    }
    let ds: Vec<Digit> = pair.iter().collect();
    let links: Vec<String> = path
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let (a, b) = if i % 2 == 0 {
                (ds[0], ds[1])
            } else {
                (ds[1], ds[0])
            };
            format!("({a}={b}){x}")
        })
        .collect();
    step.detail = format!("{}/{} on {}", ds[0], ds[1], crate::step::cell_list(&path));
    step.chain = Some(format!("{} => {}", links.join("-"), step.effects()));
    Some(step)
}

thread_local! {
    /// The last nice-loop search.
    static NICE_CACHE: RefCell<Option<NiceResult>> =
        const { RefCell::new(None) };
}

/// The nice-loop/AIC step of `cat`, from one shared search per grid state.
fn nice(c: &Candidates, grouped: bool, cat: Category) -> Option<Step> {
    let cached = NICE_CACHE.with(|cache| {
        cache.borrow().as_ref().and_then(|(g, gr, steps)| {
            (*gr == grouped && g == c).then(|| steps[Best::slot(cat)].clone())
        })
    });
    if let Some(step) = cached {
        return step;
    }
    let kind = Kind::Nice { grouped };
    let g = Graph::build(c, kind);
    let all = [
        Category::Continuous,
        Category::Discontinuous,
        Category::Open,
    ];
    let best = search(&g, kind, &all);
    let names = if grouped {
        [
            Technique::GroupedContinuousNiceLoop,
            Technique::GroupedDiscontinuousNiceLoop,
            Technique::GroupedAic,
        ]
    } else {
        [
            Technique::ContinuousNiceLoop,
            Technique::DiscontinuousNiceLoop,
            Technique::Aic,
        ]
    };
    let steps: [Option<Step>; 3] = std::array::from_fn(|i| {
        best.found[i].as_ref().and_then(|f| {
            // A grouped search also finds plain chains; those belong to the plain techniques.
            let uses_group = f
                .nodes
                .iter()
                .any(|&n| g.nodes[n as usize].single().is_none());
            (!grouped || uses_group).then(|| to_step(&g, names[i], f))
        })
    });
    let out = steps[Best::slot(cat)].clone();
    NICE_CACHE.with(|cache| *cache.borrow_mut() = Some((c.clone(), grouped, steps)));
    out
}

/// Continuous Nice Loop: an alternating loop; every weak link in it becomes strong.
pub fn continuous_nice_loop(c: &Candidates) -> Option<Step> {
    nice(c, false, Category::Continuous)
}

/// Discontinuous Nice Loop: a loop broken at one cell, placing or eliminating there.
pub fn discontinuous_nice_loop(c: &Candidates) -> Option<Step> {
    nice(c, false, Category::Discontinuous)
}

/// AIC: an alternating inference chain; candidates seeing both ends are false.
pub fn aic(c: &Candidates) -> Option<Step> {
    nice(c, false, Category::Open)
}

/// Grouped Continuous Nice Loop.
pub fn grouped_continuous_nice_loop(c: &Candidates) -> Option<Step> {
    nice(c, true, Category::Continuous)
}

/// Grouped Discontinuous Nice Loop.
pub fn grouped_discontinuous_nice_loop(c: &Candidates) -> Option<Step> {
    nice(c, true, Category::Discontinuous)
}

/// Grouped AIC.
pub fn grouped_aic(c: &Candidates) -> Option<Step> {
    nice(c, true, Category::Open)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::logic::testutil::{elims, keep_digit_only_in, only_digit_in, set_cell};

    fn chain(s: &Step) -> &str {
        s.chain.as_deref().expect("chains record their chain")
    }

    /// An empty grid whose listed cells hold exactly the listed digits.
    fn with_cells(cells: &[(usize, usize, &str)]) -> Candidates {
        let mut c = Candidates::new(&Grid::EMPTY);
        for &(r, col, ds) in cells {
            set_cell(&mut c, r, col, ds);
        }
        c
    }

    #[test]
    fn x_chain_eliminates_where_both_ends_are_seen() {
        // Digit 1: box 2 holds only r1c6,r2c5 and row 5 only r5c6,r5c9, so r2c5 or r5c9 is 1
        // (r1c6 and r5c6 share column 6); r2c9 sees both ends.
        let c = only_digit_in(
            &[
                (1, 1),
                (1, 6),
                (5, 6),
                (9, 6),
                (5, 9),
                (8, 9),
                (2, 9),
                (8, 2),
                (3, 2),
                (2, 2),
                (2, 5),
            ],
            1,
        );
        let s = x_chain(&c).expect("x-chain");
        assert_eq!(s.technique, Technique::XChain);
        assert_eq!(chain(&s), "(1)r2c5=(1)r1c6-(1)r5c6=(1)r5c9 => r2c9<>1");
        assert_eq!(elims(&s), vec![(2, 9, 1)]);
    }

    #[test]
    fn xy_chain_through_four_bivalue_cells() {
        let c = with_cells(&[(1, 1, "12"), (1, 5, "23"), (5, 5, "34"), (5, 9, "41")]);
        let s = xy_chain(&c).expect("xy-chain");
        assert_eq!(
            chain(&s),
            "(1=2)r1c1-(2=3)r1c5-(3=4)r5c5-(4=1)r5c9 => r1c9<>1, r5c1<>1"
        );
        assert_eq!(elims(&s), vec![(1, 9, 1), (5, 1, 1)]);
        // Without the closing cell there is no chain.
        let c = with_cells(&[(1, 1, "12"), (1, 5, "23"), (5, 5, "34")]);
        assert!(xy_chain(&c).is_none());
    }

    #[test]
    fn continuous_nice_loop_turns_every_weak_link_strong() {
        // Four bivalue cells in a rectangle of rows 1,5 and columns 1,5: 1=2 - 2=3 - 3=4 -
        // 4=1 - back. Each weak link's digit leaves the rest of its house.
        let c = with_cells(&[(1, 1, "12"), (1, 5, "23"), (5, 5, "34"), (5, 1, "41")]);
        let s = continuous_nice_loop(&c).expect("loop");
        assert!(chain(&s).starts_with("(1=2)r1c1-(2=3)r1c5-(3=4)r5c5-(4=1)r5c1-(1)r1c1 =>"));
        let mut want = Vec::new();
        for col in [2, 3, 4, 6, 7, 8, 9] {
            want.push((1, col, 2));
            want.push((5, col, 4));
        }
        for row in [2, 3, 4, 6, 7, 8, 9] {
            want.push((row, 1, 1));
            want.push((row, 5, 3));
        }
        want.sort_unstable();
        assert_eq!(elims(&s), want);
    }

    #[test]
    fn discontinuous_loop_and_aic_remove_the_digit_that_breaks_column_1() {
        // If r1c1 were 2: r1c5=3, r5c5=4, r5c1=2, and column 1 would hold two 2s.
        let c = with_cells(&[(1, 1, "12"), (1, 5, "23"), (5, 5, "34"), (5, 1, "42")]);
        let s = discontinuous_nice_loop(&c).expect("dnl");
        assert_eq!(
            chain(&s),
            "(1=2)r1c1-(2=3)r1c5-(3=4)r5c5-(4=2)r5c1 => r1c1<>2"
        );
        assert_eq!(elims(&s), vec![(1, 1, 2)]);
        // The same elimination as an open chain: r1c5 or r5c1 is 2, and r1c1 sees both.
        let s = aic(&c).expect("aic");
        assert_eq!(s.technique, Technique::Aic);
        assert_eq!(chain(&s), "(2=3)r1c5-(3=4)r5c5-(4=2)r5c1 => r1c1<>2");
        assert!(continuous_nice_loop(&c).is_none());
    }

    #[test]
    fn discontinuous_loop_closes_through_the_cell_it_clears() {
        // Column 1 holds 1 only in r1c1 and r5c1. If r1c1 were 2: r1c1 is not 1, so r5c1=1,
        // r5c5=3, r1c5=2 — two 2s in row 1. The loop starts and ends at r1c1.
        let mut c = with_cells(&[(1, 1, "12"), (1, 5, "23"), (5, 5, "31")]);
        keep_digit_only_in(
            &mut c,
            &(1..=9)
                .flat_map(|r| (1..=9).map(move |col| (r, col)))
                .filter(|&(r, col)| col != 1 || r == 1 || r == 5)
                .collect::<Vec<_>>(),
            1,
        );
        let s = discontinuous_nice_loop(&c).expect("dnl");
        assert_eq!(elims(&s), vec![(1, 1, 2)]);
        // The shortest such loop runs the other way round, from r1c1's 1 to r1c5's 2.
        assert_eq!(chain(&s), "(1)r1c1=(1)r5c1-(1=3)r5c5-(3=2)r1c5 => r1c1<>2");
    }

    #[test]
    fn discontinuous_loop_places_a_digit_that_its_own_absence_would_force() {
        // Digit 1: r1c1 not 1 ⇒ r1c5 (row 1) ⇒ not r4c5 (column 5) ⇒ r4c2 (row 4) ⇒ not
        // r2c2 (column 2) ⇒ r1c1 (box 1). So r1c1 is 1.
        let c = only_digit_in(&[(1, 1), (1, 5), (4, 5), (8, 5), (4, 2), (2, 2), (8, 2)], 1);
        let s = discontinuous_nice_loop(&c).expect("dnl");
        assert_eq!(
            s.placements,
            vec![(
                Cell::from_row_col(0, 0).expect("r1c1"),
                Digit::new(1).expect("1")
            )]
        );
        assert!(s.eliminations.is_empty());
        assert_eq!(
            chain(&s),
            "(1)r1c1=(1)r1c5-(1)r4c5=(1)r4c2-(1)r2c2=(1)r1c1 => r1c1=1"
        );
    }

    #[test]
    fn grouped_aic_uses_a_box_line_group() {
        // Digit 1: row 1 holds r1c1 and the group r1c78; box 3 holds the group and r2c9;
        // column 9 holds r2c9 and r6c9. So r1c1 or r6c9 is 1, and r6c1 sees both.
        let mut c = Candidates::new(&Grid::EMPTY);
        keep_digit_only_in(
            &mut c,
            &[
                (1, 1),
                (1, 7),
                (1, 8),
                (2, 9),
                (6, 9),
                (6, 1),
                (8, 1),
                (6, 5),
            ],
            1,
        );
        assert!(aic(&c).is_none());
        let s = grouped_aic(&c).expect("grouped aic");
        assert_eq!(s.technique, Technique::GroupedAic);
        assert_eq!(chain(&s), "(1)r1c1=(1)r1c78-(1)r2c9=(1)r6c9 => r6c1<>1");
        assert_eq!(elims(&s), vec![(6, 1, 1)]);
    }

    #[test]
    fn remote_pair_of_four_cells_clears_both_digits() {
        // {2,7} in r1c1, r1c5, r4c5, r4c8: alternating, so r1c1 and r4c8 differ. r1c8 and
        // r4c1 see both ends and lose 2 and 7.
        let c = with_cells(&[(1, 1, "27"), (1, 5, "27"), (4, 5, "27"), (4, 8, "27")]);
        let s = remote_pair(&c).expect("remote pair");
        assert_eq!(s.technique, Technique::RemotePair);
        assert_eq!(
            chain(&s),
            "(2=7)r1c1-(7=2)r1c5-(2=7)r4c5-(7=2)r4c8 => r1c8<>2, r1c8<>7, r4c1<>2, r4c1<>7"
        );
        // Three cells are not enough (that would be a wing or a pair).
        let c = with_cells(&[(1, 1, "27"), (1, 5, "27"), (4, 5, "27")]);
        assert!(remote_pair(&c).is_none());
    }

    #[test]
    fn group_names_follow_eureka() {
        let set = |cells: &[usize]| {
            cells
                .iter()
                .filter_map(|&i| Cell::new(i))
                .collect::<CellSet>()
        };
        assert_eq!(cells_name(set(&[39])), "r5c4");
        assert_eq!(cells_name(set(&[39, 40, 41])), "r5c456");
        assert_eq!(cells_name(set(&[4, 13])), "r12c5");
        assert_eq!(cells_name(set(&[0, 10])), "r1c1,r2c2");
    }
}
