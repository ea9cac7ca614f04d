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
//! Every finder is complete up to [`MAX_NODES`] nodes (HoDoKu's X-Chain cap): a chain
//! is a sequence of nodes that repeats no candidate, and for every conclusion some chain
//! of its kind draws, the search keeps the shortest chain drawing it (the first found among
//! equals) and reports all of that chain's conclusions; the finder gives the shortest of
//! them. From every start, a breadth-first walk over (node, on/off) states reaches each end
//! first by its shortest walk; the state also records whether the walk is past its first
//! link (a chain has at least four nodes, so an end met at once must be met again) and, for
//! the grouped techniques, whether it holds a group (a chain without one is the plain
//! technique's). A walk that repeats a candidate is replaced by the shortest chain that does
//! not, from a depth-first search pruned by the walk distances. A continuous loop's
//! eliminations depend on its every weak link, but each is found by the loop's shortest
//! path from that link's one end back to the other. Each node carries the set of candidates
//! it "kills" (its weak-link partners) as nine 81-bit masks, so testing a pair of ends is
//! nine ANDs. Tests compare every conclusion, and the shortest chain for each, with a plain
//! depth-first enumeration of the chains from the definitions.
//!
//! The grouped techniques also take *almost locked sets* as nodes: `n` cells of one house
//! holding `n + 1` digits lack exactly one, so a chain entering a set on a digit made absent
//! leaves it on any other, which is then present (a strong link between two of the set's
//! digits, as inside a bivalue cell). Such a node is the set's cells holding its digit; it
//! sees what every one of them sees. Chains start and end on candidates or groups; a
//! continuous loop may pass through sets anywhere, so a loop whose weak link joins two sets is
//! also read from a set's digit. A set in a continuous loop lacks its entry or its exit digit
//! (as the loop runs one way or the other), so it holds its other digits: what sees all its
//! cells holding one of them loses it (HoDoKu's reading too). Those conclusions come from the
//! loops followed for their links, not from a search of their own. Sets make the graph
//! several times larger, so they are used only where groups alone find nothing, up to
//! [`MAX_SET_NODES`]; and where the shortest walk through sets repeats a candidate, the
//! search for a chain that does not stops after `SET_WALK_BUDGET` nodes (the reference test
//! finds no conclusion lost to that).
//!
//! The three nice-loop techniques share one search per grid state (a small thread-local
//! cache), since the solver asks for them one after the other on the same grid.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::logic::als::{self, Als};
use crate::step::{Step, Technique};

/// The longest chain the finders look for, in nodes (a candidate or a group; a bivalue
/// cell's strong link is two): HoDoKu's default cap on X- and XY-Chains
/// (`RESTRICT_CHAIN_LENGTH`), here for every chain. (HoDoKu's nice loops and AICs come
/// from implication tables of up to 1,000 entries, in effect unbounded.)
pub const MAX_NODES: usize = 20;

/// The longest chain through almost locked sets the grouped techniques look for, in
/// nodes (a set's entry and exit are two, as in a bivalue cell). The search's cost grows
/// steeply past it: on the first 300 puzzles of top1465 the grouped techniques take as
/// many steps at 14 nodes as at 20 (663 and 659, against 330 without sets), while
/// `explain` takes about a fifth longer than without sets at 14 and eight times as long at
/// 20.
pub const MAX_SET_NODES: usize = 14;

/// Which links a search may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// One digit, cells only, house links only.
    X,
    /// Bivalue cells only: strong links inside cells, weak links between equal digits.
    Xy,
    /// Every link, over the nodes named.
    Nice(Nodes),
}

/// The nodes a nice-loop search uses: each kind adds to the one before.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Nodes {
    /// Candidates.
    Plain,
    /// Candidates and box/line groups.
    Groups,
    /// Candidates, groups and almost locked sets.
    Sets,
}

impl Kind {
    /// Whether the chains must hold a group or a set (the grouped techniques).
    fn grouped(self) -> bool {
        matches!(self, Kind::Nice(Nodes::Groups | Nodes::Sets))
    }
}

/// A node: a digit in a set of cells (one cell, a group within a box/line intersection, or
/// the cells of an almost locked set holding the digit).
#[derive(Clone, Copy, Debug)]
struct Node {
    digit: Digit,
    cells: CellSet,
    /// The almost locked set the node belongs to (an index into [`Graph::sets`]), or
    /// [`NO_SET`].
    set: u16,
}

/// The `set` of a node that belongs to no almost locked set.
const NO_SET: u16 = u16::MAX;

/// The most nodes a graph takes, so that a node's index, and the search's per-start stamp
/// (the start's index plus one), fit in a `u16`. Only almost locked sets can reach it (at
/// most 729 candidates and 486 groups): the sets come smallest first, and those past it
/// are left out. The most nodes seen on a real position is about 2,300.
const MAX_GRAPH_NODES: usize = u16::MAX as usize - 1;

impl Node {
    fn plain(digit: Digit, cells: CellSet) -> Node {
        Node {
            digit,
            cells,
            set: NO_SET,
        }
    }

    /// The node's cell when it is one candidate.
    fn single(&self) -> Option<Cell> {
        if self.cells.len() == 1 && self.set == NO_SET {
            self.cells.first()
        } else {
            None
        }
    }

    /// Whether the node is a group or part of a set: what makes a chain grouped.
    fn is_group(&self) -> bool {
        self.cells.len() > 1 || self.set != NO_SET
    }
}

/// The link graph of one grid state.
struct Graph {
    nodes: Vec<Node>,
    /// The almost locked sets the nodes belong to. A chain enters a set on a digit made
    /// absent and leaves on another, which must then be present (`n` cells of one house
    /// hold `n + 1` digits): the two are a strong link, as in a bivalue cell, a set of one.
    sets: Vec<Als>,
    strong: Vec<Vec<u16>>,
    weak: Vec<Vec<u16>>,
    /// Per node, per digit: the candidates that are false if the node is true.
    kill: Vec<[CellSet; 9]>,
}

impl Graph {
    fn build(c: &Candidates, kind: Kind) -> Graph {
        let sets = match kind {
            Kind::Nice(Nodes::Sets) => als::all_als(c),
            _ => Vec::new(),
        };
        Graph::over(c, kind, sets)
    }

    /// The graph with `all_sets` for its almost locked sets.
    fn over(c: &Candidates, kind: Kind, all_sets: Vec<Als>) -> Graph {
        let mut nodes = Vec::new();
        let bivalue = c.bivalue_cells();
        for d in Digit::all() {
            let cells = match kind {
                Kind::Xy => c.cells_with(d) & bivalue,
                _ => c.cells_with(d),
            };
            for cell in cells.iter() {
                nodes.push(Node::plain(d, CellSet::single(cell)));
            }
            if kind.grouped() {
                for b in 0..9u8 {
                    let in_box = c.cells_with_in(House::Box(b), d);
                    for line in box_lines(b) {
                        let g = in_box & CellSet::house(line);
                        if g.len() >= 2 {
                            nodes.push(Node::plain(d, g));
                        }
                    }
                }
            }
        }
        // The candidates' and groups' nodes by digit and cells: candidates in a table,
        // groups (far fewer) in a map.
        let mut candidate = vec![u16::MAX; 9 * 81];
        let mut groups: HashMap<(usize, u128), u16> = HashMap::new();
        for (i, n) in nodes.iter().enumerate() {
            match n.cells.first() {
                Some(x) if n.cells.len() == 1 => {
                    candidate[n.digit.index() * 81 + x.index()] = i as u16
                }
                _ => {
                    groups.insert((n.digit.index(), n.cells.bits()), i as u16);
                }
            }
        }
        let index = |d: Digit, cells: CellSet| -> Option<u16> {
            match cells.first() {
                Some(x) if cells.len() == 1 => {
                    Some(candidate[d.index() * 81 + x.index()]).filter(|&i| i != u16::MAX)
                }
                _ => groups.get(&(d.index(), cells.bits())).copied(),
            }
        };
        // Each set's digits that some candidate outside it sees in all its cells: where a
        // chain may enter or leave it. A set with fewer than two is no use.
        let mut sets = Vec::new();
        let mut strong_in_sets = Vec::new();
        for set in all_sets.into_iter().filter(|a| a.cells.len() >= 2) {
            let ends: Vec<Digit> = set
                .digits
                .iter()
                .filter(|d| !(set.sees_all[d.index()] & c.cells_with(*d)).is_empty())
                .collect();
            if ends.len() < 2 {
                continue;
            }
            if nodes.len() + ends.len() > MAX_GRAPH_NODES {
                break;
            }
            let first = nodes.len() as u16;
            let id = sets.len() as u16;
            for &d in &ends {
                nodes.push(Node {
                    digit: d,
                    cells: set.by_digit[d.index()],
                    set: id,
                });
            }
            strong_in_sets.push(first..first + ends.len() as u16);
            sets.push(set);
        }
        // The nodes by digit and first cell: a node lies in a set of cells exactly when its
        // first cell does and the rest follow, and a node another sees lies in what it sees.
        let mut by_first: Vec<Vec<u16>> = vec![Vec::new(); 9 * 81];
        for (i, node) in nodes.iter().enumerate() {
            if let Some(first) = node.cells.first() {
                by_first[node.digit.index() * 81 + first.index()].push(i as u16);
            }
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
                    for x in p.iter() {
                        for &a in &by_first[d.index() * 81 + x.index()] {
                            let ac = nodes[a as usize].cells;
                            if nodes[a as usize].set == NO_SET && (ac - p).is_empty() && ac != p {
                                if let Some(b) = index(d, p - ac) {
                                    push_unique(&mut strong[a as usize], b);
                                }
                            }
                        }
                    }
                }
            }
        }
        // Strong links inside bivalue cells.
        if kind != Kind::X {
            for cell in bivalue.iter() {
                let node = |d| index(d, CellSet::single(cell)).expect("a node per candidate");
                let mut digits = c.get(cell).iter();
                let (Some(x), Some(y)) = (digits.next(), digits.next()) else {
                    continue;
                };
                let (a, b) = (node(x), node(y));
                strong[a as usize].push(b);
                strong[b as usize].push(a);
            }
        }
        // Strong links inside sets: between every two of a set's digits.
        for range in strong_in_sets {
            for a in range.clone() {
                strong[a as usize].extend(range.clone().filter(|&b| b != a));
            }
        }
        // Weak links and kill sets: the nodes a node sees, looked up by their first cell.
        for (i, node) in nodes.iter().enumerate() {
            let d = node.digit;
            let seen = node.cells.common_peers() & c.cells_with(d);
            kill[i][d.index()] = seen;
            for x in seen.iter() {
                for &j in &by_first[d.index() * 81 + x.index()] {
                    if (nodes[j as usize].cells - seen).is_empty() {
                        weak[i].push(j);
                    }
                }
            }
            if let Some(cell) = node.single() {
                for e in c.get(cell).iter().filter(|&e| e != d) {
                    kill[i][e.index()] = CellSet::single(cell);
                    if let Kind::Nice(_) = kind {
                        weak[i]
                            .push(index(e, CellSet::single(cell)).expect("a node per candidate"));
                    }
                }
            }
        }
        Graph {
            nodes,
            sets,
            strong,
            weak,
            kill,
        }
    }

    fn is_group(&self, i: u16) -> bool {
        self.nodes[i as usize].is_group()
    }

    /// Whether no candidate appears twice in `nodes`, but for a loop's start at its end.
    fn is_simple(&self, nodes: &[u16]) -> bool {
        let mut used = [CellSet::EMPTY; 9];
        let closes = nodes.len() > 1 && nodes.first() == nodes.last();
        let open = &nodes[..nodes.len() - usize::from(closes)];
        open.iter().all(|&i| {
            let node = self.nodes[i as usize];
            let slot = &mut used[node.digit.index()];
            let free = (*slot & node.cells).is_empty();
            *slot |= node.cells;
            free
        })
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

impl Category {
    const ALL: [Category; 3] = [
        Category::Continuous,
        Category::Discontinuous,
        Category::Open,
    ];

    fn slot(self) -> usize {
        self as usize
    }
}

/// A chain found: its nodes from start to end, and its conclusions.
struct Found {
    nodes: Vec<u16>,
    closes: bool,
    placement: Option<(Cell, Digit)>,
    kills: [CellSet; 9],
}

/// The index of a conclusion among 729 eliminations and then 729 placements.
fn conclusion_key(cell: Cell, digit: Digit, placed: bool) -> usize {
    usize::from(placed) * 729 + digit.index() * 81 + cell.index()
}

/// The conclusion keys of `kills` and `placement`.
fn conclusion_keys(
    kills: &[CellSet; 9],
    placement: Option<(Cell, Digit)>,
) -> impl Iterator<Item = usize> + '_ {
    let eliminated = Digit::all().flat_map(move |d| {
        kills[d.index()]
            .iter()
            .map(move |cell| conclusion_key(cell, d, false))
    });
    eliminated.chain(placement.map(|(cell, d)| conclusion_key(cell, d, true)))
}

/// A search state: a node; whether it lies past the chain's first link, since a chain
/// needs at least four nodes and a node reached at once must be reachable again later;
/// whether the chain so far holds a group; and whether the node is on (true) or off.
fn state(node: u16, past_first: bool, grouped: bool, on: bool) -> u32 {
    u32::from(node) * 8 + u32::from(past_first) * 4 + u32::from(grouped) * 2 + u32::from(on)
}

fn is_empty(k: &[CellSet; 9]) -> bool {
    k.iter().all(|s| s.is_empty())
}

fn state_node(s: u32) -> u16 {
    (s / 8) as u16
}

/// All chains of one kind up to a length: for each category and each conclusion, the
/// shortest chain drawing it.
struct Search<'g> {
    g: &'g Graph,
    kind: Kind,
    max_nodes: usize,
    chains: Vec<Found>,
    /// Per category, per conclusion key: the index of the shortest chain drawing it.
    shortest: [Vec<u32>; 3],
    /// Per category, the length of its shortest chain (`usize::MAX` while none).
    first_len: [usize; 3],
    /// Per end node, the walk distances to it ([`distances_to`]), computed when a walk to
    /// it first repeats a candidate (empty before): every start's walks share them. Kept
    /// only on graphs of at most [`CACHED_DISTANCES_NODES`] nodes.
    distances: RefCell<Vec<Vec<u8>>>,
    /// Per node, the start (plus one) whose weak partner it last was: an end so marked
    /// closes a loop back to the current start. (Weak links go both ways.)
    closes: Vec<u16>,
    /// Whether only each category's first chain is wanted: then a walk as long as a
    /// category's shortest chain so far cannot give its first (a chain is at least as long
    /// as its walk, and among equals the first found wins), and is not followed for it.
    first_only: bool,
}

impl<'g> Search<'g> {
    /// Runs the search: a breadth-first walk from every start assumed false, alternating
    /// strong links (off ⇒ on) and weak links (on ⇒ off), so each end is reached first by
    /// its shortest walk; a walk that repeats a candidate is replaced by the shortest chain
    /// that does not. With `first_only`, walks stop at the length of the longest of the
    /// categories' shortest chains so far, which keeps each category's first chain (a
    /// chain as long is met later, and loses to it) and skips most of the work.
    fn run(g: &'g Graph, kind: Kind, max_nodes: usize, first_only: bool) -> Search<'g> {
        let mut search = Search {
            g,
            kind,
            max_nodes,
            chains: Vec::new(),
            shortest: std::array::from_fn(|_| vec![u32::MAX; 2 * 729]),
            first_len: [usize::MAX; 3],
            distances: RefCell::new(vec![Vec::new(); cached_ends(g)]),
            closes: vec![0; g.nodes.len()],
            first_only,
        };
        let grouped = kind.grouped();
        let n = g.nodes.len();
        let mut pred = vec![u32::MAX; 8 * n];
        // The start each state was last reached from (plus one): clearing `pred` for every
        // start would cost more than the walks on a graph with sets.
        let mut reached = vec![0u16; 8 * n];
        let mut frontier: Vec<u32> = Vec::new();
        let mut next: Vec<u32> = Vec::new();
        let nice = matches!(kind, Kind::Nice(_));
        for s in 0..n as u16 {
            // Open chains conclude only what both ends kill; loops conclude more.
            // A chain starts and ends on candidates or groups; a set's digit starts only
            // loops closed by a link from another set, and only for what that link removes
            // (the loop's other links are read from their own starts).
            let idle_set = g.nodes[s as usize].set != NO_SET
                && !g.weak[s as usize]
                    .iter()
                    .any(|&v| g.nodes[v as usize].set != NO_SET && !is_empty(&g.common_kill(s, v)));
            if g.strong[s as usize].is_empty()
                || idle_set
                || (!nice && is_empty(&g.kill[s as usize]))
            {
                continue;
            }
            let round = s + 1;
            for &v in &g.weak[s as usize] {
                search.closes[v as usize] = round;
            }
            let start = state(s, false, grouped && g.is_group(s), false);
            pred[start as usize] = start;
            reached[start as usize] = round;
            frontier.clear();
            frontier.push(start);
            let mut len = 1;
            while !frontier.is_empty() && len < max_nodes {
                if first_only && len + 1 >= search.longest_first() {
                    break;
                }
                len += 1;
                next.clear();
                for &from in &frontier {
                    let u = state_node(from);
                    for &v in &g.strong[u as usize] {
                        let group = from & 2 != 0 || (grouped && g.is_group(v));
                        let to = state(v, len >= 4, group, true);
                        if reached[to as usize] != round {
                            reached[to as usize] = round;
                            pred[to as usize] = from;
                            next.push(to);
                        }
                    }
                }
                for &end in &next {
                    search.examine(s, end, len, &pred);
                }
                if len + 2 > max_nodes {
                    break;
                }
                std::mem::swap(&mut frontier, &mut next);
                next.clear();
                for &from in &frontier {
                    let u = state_node(from);
                    for &v in &g.weak[u as usize] {
                        let group = from & 2 != 0 || (grouped && g.is_group(v));
                        let to = state(v, true, group, false);
                        if reached[to as usize] != round {
                            reached[to as usize] = round;
                            pred[to as usize] = from;
                            next.push(to);
                        }
                    }
                }
                len += 1;
                std::mem::swap(&mut frontier, &mut next);
            }
        }
        search
    }

    /// The length of the longest of the categories' shortest chains (of the categories the
    /// kind has), or more than any chain while one category has none.
    fn longest_first(&self) -> usize {
        match self.kind {
            Kind::Nice(_) => self.first_len.iter().copied().max().unwrap_or(usize::MAX),
            _ => self.first_len[Category::Open.slot()],
        }
    }

    /// Tests the chains from `s` (off) to the on-state `end`, `len` nodes long by the walk.
    fn examine(&mut self, s: u16, end: u32, len: usize, pred: &[u32]) {
        let g = self.g;
        let grouped = self.kind.grouped();
        // Chains without a group belong to the plain techniques.
        if grouped && end & 2 == 0 {
            return;
        }
        let e = state_node(end);
        let nice = matches!(self.kind, Kind::Nice(_));
        let (sn, en) = (g.nodes[s as usize], g.nodes[e as usize]);
        if sn.set == NO_SET && en.set == NO_SET {
            self.examine_chain(s, end, len, pred);
        }
        // A loop through sets: read from a start that is a set's digit only where the link
        // closing it joins two sets, as the other loops are read from a candidate or group.
        let read_here = sn.set == NO_SET || en.set != NO_SET;
        if nice
            && read_here
            && len >= 4
            && !self.settled(Category::Continuous, len)
            && self.closes[e as usize] == s + 1
        {
            // A loop: its eliminations depend on every weak link in it, so on the path.
            let Some(nodes) = self.chain(s, end, len, pred) else {
                return;
            };
            let mut kills = g.common_kill(e, s);
            for pair in nodes[1..].chunks(2) {
                if let [a, b] = *pair {
                    let k = g.common_kill(a, b);
                    for d in 0..9 {
                        kills[d] |= k[d];
                    }
                }
            }
            // A set the loop passes through lacks its entry or its exit digit, as the loop
            // runs one way or the other, so it holds each of its other digits.
            for pair in nodes.chunks(2) {
                if let [a, b] = *pair {
                    let set = g.nodes[a as usize].set;
                    if set == NO_SET || g.nodes[b as usize].set != set {
                        continue;
                    }
                    for &o in &g.strong[a as usize] {
                        let other = g.nodes[o as usize];
                        if other.set == set && !nodes.contains(&o) {
                            let d = other.digit.index();
                            kills[d] |= g.kill[o as usize][d];
                        }
                    }
                }
            }
            self.record(Category::Continuous, nodes, true, None, kills);
        }
    }

    /// Tests the chain from the candidate or group `s` (off) to the on-state `end` of
    /// another: an open chain or discontinuous loop.
    fn examine_chain(&mut self, s: u16, end: u32, len: usize, pred: &[u32]) {
        let g = self.g;
        let e = state_node(end);
        let nice = matches!(self.kind, Kind::Nice(_));
        let (sn, en) = (g.nodes[s as usize], g.nodes[e as usize]);
        if e == s {
            // The start's absence forces it: it is true.
            if nice {
                let (placement, kills) = match sn.single() {
                    Some(cell) => (Some((cell, sn.digit)), [CellSet::EMPTY; 9]),
                    None => (None, g.kill[s as usize]),
                };
                self.offer(Category::Discontinuous, s, end, len, pred, placement, kills);
            }
            return;
        }
        if self.kind == Kind::Xy && sn.digit != en.digit {
            return;
        }
        if len < 4 {
            return;
        }
        let kills = g.common_kill(s, e);
        // When every elimination lies in an end's cell, the chain reads as a loop through
        // that cell (X - S = … = E - X): a Discontinuous Nice Loop; otherwise an open AIC.
        let in_ends = sn.single().is_some()
            && en.single().is_some()
            && kills
                .iter()
                .all(|k| (*k - (sn.cells | en.cells)).is_empty());
        let category = if nice && in_ends {
            Category::Discontinuous
        } else {
            Category::Open
        };
        self.offer(category, s, end, len, pred, None, kills);
    }

    /// Whether a chain of `len` nodes drawing these conclusions would be the shortest for
    /// one of them.
    fn improves(
        &self,
        category: Category,
        len: usize,
        kills: &[CellSet; 9],
        placement: Option<(Cell, Digit)>,
    ) -> bool {
        let shortest = &self.shortest[category.slot()];
        conclusion_keys(kills, placement)
            .any(|k| shortest[k] == u32::MAX || self.chains[shortest[k] as usize].nodes.len() > len)
    }

    /// Whether a walk of `len` nodes can no longer matter to `category`: only its first
    /// chain is wanted, and one as short is found.
    fn settled(&self, category: Category, len: usize) -> bool {
        self.first_only && len >= self.first_len[category.slot()]
    }

    /// Records the chain to `end` if it is the shortest for one of its conclusions.
    #[allow(clippy::too_many_arguments)]
    fn offer(
        &mut self,
        category: Category,
        s: u16,
        end: u32,
        len: usize,
        pred: &[u32],
        placement: Option<(Cell, Digit)>,
        kills: [CellSet; 9],
    ) {
        if !self.settled(category, len) && self.improves(category, len, &kills, placement) {
            if let Some(nodes) = self.chain(s, end, len, pred) {
                self.record(category, nodes, false, placement, kills);
            }
        }
    }

    fn record(
        &mut self,
        category: Category,
        nodes: Vec<u16>,
        closes: bool,
        placement: Option<(Cell, Digit)>,
        kills: [CellSet; 9],
    ) {
        let len = nodes.len();
        if !self.improves(category, len, &kills, placement) {
            return;
        }
        let index = self.chains.len() as u32;
        let first = &mut self.first_len[category.slot()];
        *first = (*first).min(len);
        for k in conclusion_keys(&kills, placement) {
            let slot = &mut self.shortest[category.slot()][k];
            if *slot == u32::MAX || self.chains[*slot as usize].nodes.len() > len {
                *slot = index;
            }
        }
        self.chains.push(Found {
            nodes,
            closes,
            placement,
            kills,
        });
    }

    /// The chain from `s` to `end`: the walk the breadth-first search took if no candidate
    /// repeats in it, else the shortest chain that repeats none, if one fits the length.
    fn chain(&self, s: u16, end: u32, len: usize, pred: &[u32]) -> Option<Vec<u16>> {
        let mut nodes = vec![state_node(end)];
        let mut at = end;
        while pred[at as usize] != at {
            at = pred[at as usize];
            nodes.push(state_node(at));
        }
        nodes.reverse();
        if self.g.is_simple(&nodes) {
            return Some(nodes);
        }
        let grouped = end & 2 != 0 && self.kind.grouped();
        self.shortest_simple(s, state_node(end), grouped, len)
    }

    /// The shortest chain from `s` to `e` of at least `len` nodes that repeats no
    /// candidate (and holds a group when `grouped`): a depth-first search deepened two
    /// nodes at a time, pruned by the distance to `e` that ignores repeats.
    fn shortest_simple(&self, s: u16, e: u16, grouped: bool, len: usize) -> Option<Vec<u16>> {
        let g = self.g;
        let own;
        let cached;
        let distance = if cached_ends(g) > 0 {
            if self.distances.borrow()[e as usize].is_empty() {
                self.distances.borrow_mut()[e as usize] = distances_to(g, e);
            }
            cached = self.distances.borrow();
            &cached[e as usize]
        } else {
            own = distances_to(g, e);
            &own
        };
        let budget = std::cell::Cell::new(SET_WALK_BUDGET);
        let mut bound = len;
        while bound <= self.max_nodes {
            let mut path = vec![s];
            let mut used = [CellSet::EMPTY; 9];
            let sn = g.nodes[s as usize];
            used[sn.digit.index()] = sn.cells;
            let walk = Walk {
                g,
                e,
                grouped,
                bound,
                distance,
                budget: &budget,
            };
            if walk.extend(&mut path, &mut used) {
                return Some(path);
            }
            bound += 2;
        }
        None
    }

    /// The chains of a category, shortest first (the first found among equals).
    #[cfg(test)]
    fn ranked(&self, category: Category) -> Vec<u32> {
        let mut ids: Vec<u32> = self.shortest[category.slot()]
            .iter()
            .copied()
            .filter(|&i| i != u32::MAX)
            .collect();
        ids.sort_unstable_by_key(|&i| (self.chains[i as usize].nodes.len(), i));
        ids.dedup();
        ids
    }

    /// The steps of a category, shortest first.
    #[cfg(test)]
    fn steps(&self, category: Category, technique: Technique) -> Vec<Step> {
        self.ranked(category)
            .iter()
            .map(|&i| to_step(self.g, technique, &self.chains[i as usize]))
            .collect()
    }

    /// The first step of a category.
    fn first(&self, category: Category, technique: Technique) -> Option<Step> {
        let shortest = self.shortest[category.slot()]
            .iter()
            .copied()
            .filter(|&i| i != u32::MAX)
            .min_by_key(|&i| (self.chains[i as usize].nodes.len(), i))?;
        Some(to_step(self.g, technique, &self.chains[shortest as usize]))
    }
}

/// The most nodes of a graph whose walk distances a search keeps, two bytes per node for
/// each end: 32 MiB at most (the graphs of real positions have up to about 2,300 nodes).
const CACHED_DISTANCES_NODES: usize = 4096;

/// How many ends' distances a search over `g` keeps room for: all, or none on a graph too
/// large.
fn cached_ends(g: &Graph) -> usize {
    if g.nodes.len() <= CACHED_DISTANCES_NODES {
        g.nodes.len()
    } else {
        0
    }
}

/// Per state (`node * 2 + on`), the links from it to `e` on, ignoring repeats.
fn distances_to(g: &Graph, e: u16) -> Vec<u8> {
    let mut distance = vec![u8::MAX; 2 * g.nodes.len()];
    distance[e as usize * 2 + 1] = 0;
    let mut queue = std::collections::VecDeque::from([(e, true)]);
    while let Some((u, on)) = queue.pop_front() {
        let here = distance[u as usize * 2 + usize::from(on)];
        // Into an on-state through a strong link from an off-state, and the reverse.
        let from = if on { &g.strong } else { &g.weak };
        for &v in &from[u as usize] {
            let slot = &mut distance[v as usize * 2 + usize::from(!on)];
            if *slot == u8::MAX {
                *slot = here + 1;
                queue.push_back((v, !on));
            }
        }
    }
    distance
}

/// A bounded depth-first search for a chain that repeats no candidate.
struct Walk<'a> {
    g: &'a Graph,
    e: u16,
    grouped: bool,
    bound: usize,
    distance: &'a [u8],
    /// The nodes the search may still visit, on a graph with sets.
    budget: &'a std::cell::Cell<usize>,
}

/// How many nodes the search for a chain that repeats no candidate visits, on a graph with
/// almost locked sets, before it gives up. Sets make the graph dense, and on some positions
/// the search, exponential in the chain's length, took a minute; with this bound the
/// reference test still finds every conclusion of chains of up to eight nodes.
const SET_WALK_BUDGET: usize = 20_000;

impl Walk<'_> {
    fn extend(&self, path: &mut Vec<u16>, used: &mut [CellSet; 9]) -> bool {
        let g = self.g;
        if !g.sets.is_empty() {
            if self.budget.get() == 0 {
                return false;
            }
            self.budget.set(self.budget.get() - 1);
        }
        let last = *path.last().expect("a start");
        // Node i of a chain is on when i is odd: the next link is strong from an off node.
        let on = path.len() % 2 == 0;
        if on && last == self.e && path.len() > 1 {
            return path.len() == self.bound
                && (!self.grouped || path.iter().any(|&i| g.is_group(i)));
        }
        if path.len() >= self.bound {
            return false;
        }
        let links = if on { &g.weak } else { &g.strong };
        for &v in &links[last as usize] {
            let left = self.bound - path.len() - 1;
            if usize::from(self.distance[v as usize * 2 + usize::from(!on)]) > left {
                continue;
            }
            let node = g.nodes[v as usize];
            let slot = node.digit.index();
            let closes_on_start = v == self.e && v == path[0] && !on;
            if !closes_on_start && !(used[slot] & node.cells).is_empty() {
                continue;
            }
            path.push(v);
            let before = used[slot];
            used[slot] |= node.cells;
            let found = self.extend(path, used);
            used[slot] = before;
            if found {
                return true;
            }
            path.pop();
        }
        false
    }
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
        let named = match g.sets.get(usize::from(node.set)) {
            Some(set) => set.cells,
            None => node.cells,
        };
        for cell in named.iter() {
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
            if a.set != NO_SET && a.set == b.set {
                out.push_str(&als::node(&g.sets[usize::from(a.set)], a.digit, b.digit));
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

/// The technique of each category, plain or grouped.
fn nice_techniques(grouped: bool) -> [Technique; 3] {
    if grouped {
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
    }
}

/// The technique of an open chain search.
fn open_technique(kind: Kind) -> Technique {
    match kind {
        Kind::X => Technique::XChain,
        _ => Technique::XYChain,
    }
}

/// The shortest X-Chain or XY-Chain (`kind`) step.
fn open_chain(c: &Candidates, kind: Kind) -> Option<Step> {
    let g = Graph::build(c, kind);
    Search::run(&g, kind, MAX_NODES, true).first(Category::Open, open_technique(kind))
}

/// X-Chain: a single-digit alternating chain; cells seeing both ends lose the digit.
pub fn x_chain(c: &Candidates) -> Option<Step> {
    open_chain(c, Kind::X)
}

/// XY-Chain: bivalue cells linked by equal digits; both ends hold the same digit, which
/// cells seeing both ends lose.
pub fn xy_chain(c: &Candidates) -> Option<Step> {
    open_chain(c, Kind::Xy)
}

/// A nice-loop search result: the grid, whether groups were used, and the first step per
/// category.
type NiceResult = (Candidates, bool, [Option<Step>; 3]);

/// Remote Pair: bivalue cells with the same two digits, each seeing the next, alternate
/// between the digits; a cell seeing two of them an odd number of links apart (at least
/// three) sees both digits and loses both.
///
/// Every pair of ends is tried, with the shortest chain between them that does not take
/// their own link when they see each other: in a consistent grid the cells of one pair
/// split into two colours (the two digits), so every chain between the same ends has the
/// same parity, and ends that see each other have a longer one exactly when their link
/// lies on a loop.
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
            for end in cells.iter().filter(|&e| e > start) {
                let targets = CellSet::peers(start) & CellSet::peers(end) & (holders - cells);
                if targets.is_empty() {
                    continue;
                }
                let Some(path) = chain_between(start, end, cells) else {
                    continue;
                };
                let links = path.len() - 1;
                if links >= 3
                    && links % 2 == 1
                    && !best.as_ref().is_some_and(|b| b.0.len() <= path.len())
                {
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

/// The shortest chain of `cells`, each seeing the next, from `start` to `end` without
/// the direct link between them.
fn chain_between(start: Cell, end: Cell, cells: CellSet) -> Option<Vec<Cell>> {
    let mut pred = [usize::MAX; 81];
    pred[start.index()] = start.index();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(u) = queue.pop_front() {
        for v in (CellSet::peers(u) & cells).iter() {
            if pred[v.index()] != usize::MAX || (u == start && v == end) {
                continue;
            }
            pred[v.index()] = u.index();
            if v == end {
                let mut path = vec![end];
                let mut at = end.index();
                while at != start.index() {
                    at = pred[at];
                    path.push(Cell::new(at).expect("cell index"));
                }
                path.reverse();
                return Some(path);
            }
            queue.push_back(v);
        }
    }
    None
}

thread_local! {
    /// The last nice-loop search.
    static NICE_CACHE: RefCell<Option<NiceResult>> =
        const { RefCell::new(None) };
}

/// The nice-loop/AIC step of `cat`, from one shared search per grid state. The grouped
/// techniques take almost locked sets as nodes only where groups alone find no chain of
/// any category: sets are the harder reading, and a search with them costs several times
/// one without.
fn nice(c: &Candidates, grouped: bool, cat: Category) -> Option<Step> {
    let cached = NICE_CACHE.with(|cache| {
        cache.borrow().as_ref().and_then(|(g, gr, steps)| {
            (*gr == grouped && g == c).then(|| steps[cat.slot()].clone())
        })
    });
    if let Some(step) = cached {
        return step;
    }
    let steps = if grouped {
        let steps = first_steps(c, Nodes::Groups);
        if steps.iter().all(Option::is_none) {
            first_steps(c, Nodes::Sets)
        } else {
            steps
        }
    } else {
        first_steps(c, Nodes::Plain)
    };
    let out = steps[cat.slot()].clone();
    NICE_CACHE.with(|cache| *cache.borrow_mut() = Some((c.clone(), grouped, steps)));
    out
}

/// The first step of each category of the nice-loop search over `nodes`.
fn first_steps(c: &Candidates, nodes: Nodes) -> [Option<Step>; 3] {
    let kind = Kind::Nice(nodes);
    let g = Graph::build(c, kind);
    let longest = match nodes {
        Nodes::Sets => MAX_SET_NODES,
        _ => MAX_NODES,
    };
    let search = Search::run(&g, kind, longest, true);
    let names = nice_techniques(kind.grouped());
    Category::ALL.map(|cat| search.first(cat, names[cat.slot()]))
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
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;
    use crate::grid::Grid;
    use crate::logic::testutil::{
        als_reference, elims, keep_digit_only_in, only_digit_in, random_position, set_cell,
    };
    use crate::logic::Finder;

    /// Every X-Chain or XY-Chain step (`kind`) up to `max_nodes` nodes: for each
    /// elimination the shortest chain making it, shortest first.
    fn open_chain_steps(c: &Candidates, kind: Kind, max_nodes: usize) -> Vec<Step> {
        let g = Graph::build(c, kind);
        Search::run(&g, kind, max_nodes, false).steps(Category::Open, open_technique(kind))
    }

    /// Every nice-loop and AIC step up to `max_nodes` nodes, per category (continuous,
    /// discontinuous, open): for each conclusion the shortest chain drawing it, shortest first.
    fn nice_steps(c: &Candidates, nodes: Nodes, max_nodes: usize) -> [Vec<Step>; 3] {
        let kind = Kind::Nice(nodes);
        graph_steps(&Graph::build(c, kind), kind, max_nodes)
    }

    /// Every nice-loop and AIC step of the graph `g` up to `max_nodes` nodes, per category.
    fn graph_steps(g: &Graph, kind: Kind, max_nodes: usize) -> [Vec<Step>; 3] {
        let search = Search::run(g, kind, max_nodes, false);
        let names = nice_techniques(kind.grouped());
        Category::ALL.map(|cat| search.steps(cat, names[cat.slot()]))
    }

    /// A conclusion of a chain technique: the technique, the cell and digit, and whether the
    /// digit is placed (else eliminated).
    type Conclusion = (Technique, Cell, Digit, bool);

    /// A node of the reference: a digit in one cell, in 2–3 cells where a box meets a line,
    /// or in the cells of an almost locked set that hold it (with the set's index).
    type Candidate = (Digit, Vec<Cell>, Option<usize>);

    /// Notes that a chain of `len` nodes draws `conclusion`, keeping the shortest.
    fn keep_shortest(map: &mut BTreeMap<Conclusion, usize>, conclusion: Conclusion, len: usize) {
        map.entry(conclusion)
            .and_modify(|shortest| *shortest = (*shortest).min(len))
            .or_insert(len);
    }

    /// What the reference concludes, with the length of the shortest chain drawing each.
    struct Reference {
        /// What the chains' links conclude: what both ends of an open chain or of a weak
        /// link of a loop see, and what a loop through its start proves.
        links: BTreeMap<Conclusion, usize>,
        /// What the sets of continuous loops conclude: the digits they must hold.
        locked: BTreeMap<Conclusion, usize>,
    }

    /// Every chain conclusion up to `max_nodes` nodes, from the definitions with plain loops
    /// and a depth-first enumeration of every chain, with the length of the shortest chain
    /// drawing it. Nodes: candidates (of bivalue cells only for XY-Chain), plus box/line
    /// groups when grouped. A strong link: one digit, and a house holding it exactly in the
    /// two nodes' cells; or a bivalue cell's two digits. A weak link: one digit in disjoint
    /// nodes whose every cells see each other; or two digits of one cell (nice loops). A
    /// chain alternates them from a strong link and repeats no candidate.
    fn reference(c: &Candidates, kind: Kind, max_nodes: usize, sets: &[Vec<Cell>]) -> Reference {
        let has = |x: Cell, d: Digit| c.get(x).contains(d);
        let mut nodes: Vec<Candidate> = Vec::new();
        for x in Cell::all() {
            if kind == Kind::Xy && c.get(x).len() != 2 {
                continue;
            }
            nodes.extend(c.get(x).iter().map(|d| (d, vec![x], None)));
        }
        if kind.grouped() {
            for b in 0..9u8 {
                for line in House::all().filter(|h| !matches!(h, House::Box(_))) {
                    for d in Digit::all() {
                        let cells: Vec<Cell> = House::Box(b)
                            .cells()
                            .iter()
                            .copied()
                            .filter(|x| line.cells().contains(x) && has(*x, d))
                            .collect();
                        if cells.len() >= 2 {
                            nodes.push((d, cells, None));
                        }
                    }
                }
            }
        }
        for (i, set) in sets.iter().enumerate() {
            for d in Digit::all() {
                let cells: Vec<Cell> = set.iter().copied().filter(|&x| has(x, d)).collect();
                if !cells.is_empty() {
                    nodes.push((d, cells, Some(i)));
                }
            }
        }
        let plain = |a: &Candidate| a.2.is_none();
        let disjoint = |a: &Candidate, b: &Candidate| a.1.iter().all(|x| !b.1.contains(x));
        let single_cell =
            |a: &Candidate, b: &Candidate| plain(a) && plain(b) && a.1.len() == 1 && a.1 == b.1;
        let strong = |a: &Candidate, b: &Candidate| {
            // A set's digits: one of them is absent, so if one is, the other is present.
            if a.2.is_some() || b.2.is_some() {
                return a.2 == b.2 && a.0 != b.0;
            }
            let house = a.0 == b.0
                && disjoint(a, b)
                && House::all().any(|h| {
                    let holders: Vec<Cell> =
                        h.cells().iter().copied().filter(|&x| has(x, a.0)).collect();
                    holders.len() == a.1.len() + b.1.len()
                        && a.1.iter().chain(&b.1).all(|x| holders.contains(x))
                });
            let cell = a.0 != b.0 && single_cell(a, b) && c.get(a.1[0]).len() == 2;
            match kind {
                Kind::X => house,
                Kind::Xy => cell,
                Kind::Nice(_) => house || cell,
            }
        };
        let weak = |a: &Candidate, b: &Candidate| {
            let digit =
                a.0 == b.0 && disjoint(a, b) && a.1.iter().all(|x| b.1.iter().all(|y| x.sees(*y)));
            let cell = a.0 != b.0 && single_cell(a, b);
            digit || (matches!(kind, Kind::Nice(_)) && cell)
        };
        // Whether candidate `d` in `x` is false when node `a` is true.
        let refutes = |a: &Candidate, x: Cell, d: Digit| {
            (a.0 == d && !a.1.contains(&x) && a.1.iter().all(|y| y.sees(x)))
                || (plain(a) && a.1 == [x] && a.0 != d)
        };
        let both = |a: &Candidate, b: &Candidate| -> Vec<(Cell, Digit)> {
            Cell::all()
                .flat_map(|x| c.get(x).iter().map(move |d| (x, d)))
                .filter(|&(x, d)| refutes(a, x, d) && refutes(b, x, d))
                .collect()
        };
        let n = nodes.len();
        let strong_links: Vec<Vec<usize>> = (0..n)
            .map(|i| (0..n).filter(|&j| strong(&nodes[i], &nodes[j])).collect())
            .collect();
        let weak_links: Vec<Vec<usize>> = (0..n)
            .map(|i| (0..n).filter(|&j| weak(&nodes[i], &nodes[j])).collect())
            .collect();
        let names: [Technique; 3] = match kind {
            Kind::X => [Technique::XChain; 3],
            Kind::Xy => [Technique::XYChain; 3],
            Kind::Nice(_) => nice_techniques(kind.grouped()),
        };
        let grouped = kind.grouped();
        let nice = matches!(kind, Kind::Nice(_));
        let mut out: BTreeMap<Conclusion, usize> = BTreeMap::new();
        let mut locked: BTreeMap<Conclusion, usize> = BTreeMap::new();
        let mut note = |cat: Category, x: Cell, d: Digit, placed: bool, len: usize| {
            keep_shortest(&mut out, (names[cat.slot()], x, d, placed), len);
        };
        // Depth-first over every chain: `path` alternates off (even places) and on nodes.
        let mut stack: Vec<Vec<usize>> = (0..n).map(|s| vec![s]).collect();
        while let Some(path) = stack.pop() {
            let (s, e) = (path[0], *path.last().expect("a start"));
            let on = path.len() % 2 == 0;
            let uses_group = !grouped
                || path
                    .iter()
                    .any(|&i| nodes[i].1.len() > 1 || !plain(&nodes[i]));
            let (sn, en) = (&nodes[s], &nodes[e]);
            // A chain starts and ends on candidates or groups; a loop may pass anywhere.
            let ends = plain(sn) && plain(en);
            if on && path.len() >= 4 && uses_group && (kind != Kind::Xy || sn.0 == en.0) {
                let killed = if ends { both(sn, en) } else { Vec::new() };
                let in_ends = sn.1.len() == 1
                    && en.1.len() == 1
                    && killed.iter().all(|(x, _)| *x == sn.1[0] || *x == en.1[0]);
                let cat = if nice && in_ends {
                    Category::Discontinuous
                } else {
                    Category::Open
                };
                for &(x, d) in &killed {
                    note(cat, x, d, false, path.len());
                }
                if nice && weak(en, sn) {
                    let mut pairs: Vec<(usize, usize)> = path[1..]
                        .chunks(2)
                        .filter(|p| p.len() == 2)
                        .map(|p| (p[0], p[1]))
                        .collect();
                    pairs.push((e, s));
                    for (a, b) in pairs {
                        for (x, d) in both(&nodes[a], &nodes[b]) {
                            note(Category::Continuous, x, d, false, path.len());
                        }
                    }
                    // A set entered on one digit and left on another lacks one of the
                    // two, whichever way the loop runs: its other digits are present.
                    for p in path.chunks(2).filter(|p| p.len() == 2) {
                        let set = nodes[p[0]].2;
                        if set.is_none() || nodes[p[1]].2 != set {
                            continue;
                        }
                        for (k, z) in nodes.iter().enumerate() {
                            if z.2 != set || path.contains(&k) {
                                continue;
                            }
                            for x in Cell::all().filter(|&x| has(x, z.0) && refutes(z, x, z.0)) {
                                let key = (names[Category::Continuous.slot()], x, z.0, false);
                                keep_shortest(&mut locked, key, path.len());
                            }
                        }
                    }
                }
            }
            if path.len() == max_nodes {
                continue;
            }
            let links = if on { &weak_links[e] } else { &strong_links[e] };
            for &v in links {
                let node = &nodes[v];
                if v == s && !on && nice && plain(node) {
                    // Back to the start, on: the start is true.
                    let closed = path.len() + 1;
                    if closed >= 4 && (uses_group) {
                        if node.1.len() == 1 {
                            note(Category::Discontinuous, node.1[0], node.0, true, closed);
                        } else {
                            for x in Cell::all().filter(|&x| has(x, node.0)) {
                                if refutes(node, x, node.0) {
                                    note(Category::Discontinuous, x, node.0, false, closed);
                                }
                            }
                        }
                    }
                    continue;
                }
                let repeats = path
                    .iter()
                    .any(|&i| nodes[i].0 == node.0 && !disjoint(&nodes[i], node));
                if !repeats {
                    let mut longer = path.clone();
                    longer.push(v);
                    stack.push(longer);
                }
            }
        }
        Reference { links: out, locked }
    }

    /// The conclusions of `steps` with the shortest chain drawing each.
    fn shortest_conclusions(steps: &[Step]) -> BTreeMap<Conclusion, usize> {
        let mut out: BTreeMap<Conclusion, usize> = BTreeMap::new();
        for s in steps {
            let len: usize = s
                .detail
                .strip_suffix(" nodes")
                .and_then(|n| n.parse().ok())
                .expect("chains record their length");
            let placed = s.placements.iter().map(|&(x, d)| (x, d, true));
            for (x, d, p) in placed.chain(s.eliminations.iter().map(|&(x, d)| (x, d, false))) {
                keep_shortest(&mut out, (s.technique, x, d, p), len);
            }
        }
        out
    }

    /// Every nice-loop step through groups and the almost locked sets of `sets` (and no
    /// others) up to `max_nodes` nodes.
    fn set_steps(c: &Candidates, sets: &[Vec<Cell>], max_nodes: usize) -> Vec<Step> {
        let kind = Kind::Nice(Nodes::Sets);
        graph_steps(&Graph::over(c, kind, chosen_sets(c, sets)), kind, max_nodes).concat()
    }

    /// The search's sets of `c` whose cells `sets` lists.
    fn chosen_sets(c: &Candidates, sets: &[Vec<Cell>]) -> Vec<Als> {
        let wanted: Vec<CellSet> = sets.iter().map(|s| s.iter().copied().collect()).collect();
        als::all_als(c)
            .into_iter()
            .filter(|a| wanted.contains(&a.cells))
            .collect()
    }

    /// Every step of every chain technique of `kind` up to `max_nodes` nodes.
    fn all_steps(c: &Candidates, kind: Kind, max_nodes: usize) -> Vec<Step> {
        match kind {
            Kind::Nice(nodes) => nice_steps(c, nodes, max_nodes).concat(),
            _ => open_chain_steps(c, kind, max_nodes),
        }
    }

    /// The kinds of chain search, with the length the reference enumerates to in tests.
    const KINDS: [(Kind, usize); 4] = [
        (Kind::X, 10),
        (Kind::Xy, 12),
        (Kind::Nice(Nodes::Plain), 8),
        (Kind::Nice(Nodes::Groups), 8),
    ];

    /// On one position, for one kind: the search draws exactly the reference's conclusions,
    /// each by a chain as short as the reference's shortest, and the solution keeps them
    /// all. Returns the conclusions with the length of the shortest chain drawing each.
    fn check_kind(
        c: &Candidates,
        solution: &Grid,
        kind: Kind,
        max_nodes: usize,
        sets: &[Vec<Cell>],
    ) -> BTreeMap<Conclusion, usize> {
        let steps = match kind {
            Kind::Nice(Nodes::Sets) => set_steps(c, sets, max_nodes),
            _ => all_steps(c, kind, max_nodes),
        };
        let found = shortest_conclusions(&steps);
        let Reference { links, locked } = reference(c, kind, max_nodes, sets);
        // What the links conclude comes exactly, each as short as the reference's. What the
        // sets of loops conclude comes from the loops the search follows for their links, so
        // a conclusion may come sooner that way than by links, never sooner than the
        // reference's shortest loop drawing it, and not always by that loop (9 of some 1,400
        // on the set test's positions). That each comes at all is not by construction, but
        // it holds on every position tested: losing some would show here.
        let justified = |k: &Conclusion, len: usize| {
            links.get(k) == Some(&len)
                || (links.get(k).is_none_or(|&l| len < l)
                    && locked.get(k).is_some_and(|&l| l <= len))
        };
        let describe =
            |(k, v): (&Conclusion, &usize)| format!("{} {}<>{} {} ({v})", k.0, k.1, k.2, k.3);
        let unjustified: Vec<String> = found
            .iter()
            .filter(|&(k, &len)| !justified(k, len))
            .map(describe)
            .collect();
        let missed: Vec<String> = links
            .iter()
            .chain(&locked)
            .filter(|(k, _)| !found.contains_key(k))
            .map(describe)
            .collect();
        assert!(
            unjustified.is_empty() && missed.is_empty(),
            "{kind:?} on {c}: search only {unjustified:?}, reference only {missed:?}"
        );
        for (t, x, d, placed) in found.keys() {
            assert_eq!(solution.get(*x) == Some(*d), *placed, "{t} on {c}");
        }
        found
    }

    /// [`check_kind`] for every kind but sets. Returns, per kind, whether there were any.
    fn check_position(c: &Candidates, solution: &Grid) -> [bool; 4] {
        KINDS.map(|(kind, max_nodes)| !check_kind(c, solution, kind, max_nodes, &[]).is_empty())
    }

    #[test]
    fn random_positions_hold_every_chain_the_reference_finds() {
        let mut positions = [0; 4];
        for index in 0..120 {
            let drop = 30 + index as u64 % 60;
            let (c, solution) = random_position(index, index % 30, drop, index as u64);
            for (count, any) in positions.iter_mut().zip(check_position(&c, &solution)) {
                *count += usize::from(any);
            }
        }
        eprintln!("{positions:?}");
        assert!(positions.iter().all(|&n| n > 10), "{positions:?}");
    }

    /// The most sets the set reference enumerates chains through on one position.
    const SETS_IN_REFERENCE: usize = 60;

    /// The length the set reference enumerates to.
    const SET_NODES: usize = 8;

    /// Chains through almost locked sets on one position: the sets are those of the
    /// definition, and over a sample of them (the reference cannot follow hundreds), the
    /// search concludes what the reference does, as short, and the solution keeps it all.
    /// Returns whether some conclusion needs a set.
    fn check_sets(c: &Candidates, solution: &Grid) -> bool {
        // Sets of one cell are bivalue cells, whose link chains have already.
        let sets: Vec<CellSet> = als_reference(c)
            .into_iter()
            .map(|a| a.cells)
            .filter(|cells| cells.len() >= 2)
            .collect();
        let mut expected = sets.clone();
        let mut found: Vec<CellSet> = als::all_als(c)
            .into_iter()
            .map(|a| a.cells)
            .filter(|cells| cells.len() >= 2)
            .collect();
        expected.sort_unstable_by_key(|s| s.bits());
        found.sort_unstable_by_key(|s| s.bits());
        assert!(expected == found, "the sets of {c}");
        let stride = sets.len().div_ceil(SETS_IN_REFERENCE).max(1);
        let sample: Vec<Vec<Cell>> = sets
            .iter()
            .step_by(stride)
            .map(|s| s.iter().collect())
            .collect();
        let kind = Kind::Nice(Nodes::Sets);
        let with = check_kind(c, solution, kind, SET_NODES, &sample);
        // The finders' search, stopped at the first chain of each category, finds the
        // shortest of the full list.
        let g = Graph::over(c, kind, chosen_sets(c, &sample));
        let [all, first] =
            [false, true].map(|first_only| Search::run(&g, kind, SET_NODES, first_only));
        for (cat, name) in Category::ALL.into_iter().zip(nice_techniques(true)) {
            assert_eq!(first.first(cat, name), all.first(cat, name), "{c}");
        }
        let without = reference(c, Kind::Nice(Nodes::Groups), SET_NODES, &[]).links;
        with.iter()
            .any(|(k, len)| without.get(k).is_none_or(|l| l > len))
    }

    #[test]
    fn a_graph_keeps_its_indices_within_a_u16() {
        let (c, _) = random_position(3, 10, 70, 3);
        // The same sets many times over: far more nodes than indices.
        let once = als::all_als(&c);
        let sets: Vec<Als> = (0..200).flat_map(|_| once.iter().cloned()).collect();
        let g = Graph::over(&c, Kind::Nice(Nodes::Sets), sets);
        let n = g.nodes.len();
        assert!(n > 60_000 && n <= MAX_GRAPH_NODES, "{n} nodes");
        for (i, node) in g.nodes.iter().enumerate() {
            assert!(node.set == NO_SET || usize::from(node.set) < g.sets.len());
            let links = g.strong[i].iter().chain(&g.weak[i]);
            assert!(links.clone().all(|&j| usize::from(j) < n));
            // A set's digits are linked to each other, and only to each other.
            if node.set != NO_SET {
                assert!(g.strong[i]
                    .iter()
                    .all(|&j| g.nodes[usize::from(j)].set == node.set));
            }
        }
    }

    #[test]
    fn chains_through_sets_find_every_conclusion_and_are_sound() {
        let mut needing = 0;
        for index in 0..40 {
            let drop = 40 + index as u64 % 50;
            let (c, solution) = random_position(index, index % 30, drop, index as u64);
            needing += usize::from(check_sets(&c, &solution));
        }
        eprintln!("{needing} of 40 positions with chains through sets");
        assert!(
            needing >= 10,
            "{needing} positions with chains through sets"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        /// Chains of every kind on positions along real solves: the search concludes what
        /// the reference does, as short, and keeps the solution; the finders give the
        /// shortest step.
        #[test]
        fn chains_find_every_conclusion_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 20u64..90,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            check_position(&c, &solution);
            let [plain, mut grouped] =
                [Nodes::Plain, Nodes::Groups].map(|nodes| nice_steps(&c, nodes, MAX_NODES));
            // Sets come in only where groups find nothing. Listing every chain through
            // sets up to their cap takes minutes on some positions; `check_sets` compares
            // the finder's way (the first of each category) with the full list on a sample.
            if grouped.iter().all(Vec::is_empty) {
                grouped = first_steps(&c, Nodes::Sets).map(|s| s.into_iter().collect());
            }
            let [continuous, discontinuous, open] = plain;
            let [grouped_continuous, grouped_discontinuous, grouped_open] = grouped;
            let finders: [(Finder, Vec<Step>); 8] = [
                (x_chain, open_chain_steps(&c, Kind::X, MAX_NODES)),
                (xy_chain, open_chain_steps(&c, Kind::Xy, MAX_NODES)),
                (continuous_nice_loop, continuous),
                (discontinuous_nice_loop, discontinuous),
                (aic, open),
                (grouped_continuous_nice_loop, grouped_continuous),
                (grouped_discontinuous_nice_loop, grouped_discontinuous),
                (grouped_aic, grouped_open),
            ];
            for (finder, all) in finders {
                prop_assert_eq!(finder(&c), all.first().cloned());
                for s in &all {
                    for &(x, d) in &s.eliminations {
                        prop_assert!(solution.get(x) != Some(d), "{}", s);
                    }
                    for &(x, d) in &s.placements {
                        prop_assert!(solution.get(x) == Some(d), "{}", s);
                    }
                }
            }
        }
    }

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
    fn grouped_continuous_loop_of_hodoku_example_gcnl01() {
        // HoDoKu's example "gcnl01" for Grouped Continuous Nice Loop
        // (hodoku.sourceforge.net/en/show_example.php?file=gcnl01): the pencil marks its page
        // shows, and the eliminations of its load line (143 153 275 276 286 364 399 864:
        // digit, row, column).
        let marks = "
            78  5    2    | 4     3      1      | 9      6    78
            48  3    6    | 7     29     29     | 48     1    5
            1   9    47   | 68    568    568    | 34     2    347
            2   17   1378 | 1389  45789  345789 | 1358   358  6
            9   4    1378 | 1368  5678   35678  | 12358  358  1238
            5   6    138  | 1238  28     238    | 7      4    9
            3   127  9    | 268   24678  24678  | 12458  578  1248
            6   27   5    | 2389  1      234789 | 2348   378  2348
            47  8    147  | 5     27     237    | 6      9    123";
        let c = Candidates::from_pencil_marks(marks).expect("marks");
        let puzzle: Grid =
            "..243.9...3.7...1519.....2.2.......694.............74.3.9......6...1.....8.5..69."
                .parse()
                .expect("puzzle");
        let solution = crate::solver::count(&puzzle, 2)
            .solution
            .expect("one solution");
        let hodoku = [
            (4, 3, 1),
            (5, 3, 1),
            (7, 5, 2),
            (7, 6, 2),
            (8, 6, 2),
            (6, 4, 3),
            (9, 9, 3),
            (6, 4, 8),
        ];
        let [continuous, ..] = nice_steps(&c, Nodes::Groups, MAX_NODES);
        let found: Vec<(usize, usize, u8)> = continuous.iter().flat_map(elims).collect();
        for want in hodoku {
            assert!(found.contains(&want), "{want:?} not in {found:?}");
        }
        for s in &continuous {
            let links = crate::links::links(chain(s));
            assert!(
                links.iter().any(|l| l.to.cells.len() > 1),
                "{s} has a group"
            );
            for &(x, d) in &s.eliminations {
                assert_ne!(solution.get(x), Some(d), "{s}");
            }
        }
        // The finder's step is the shortest of them.
        let first = grouped_continuous_nice_loop(&c).expect("a grouped loop");
        assert_eq!(Some(&first), continuous.first());
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

    /// Remote Pair against a reference from HoDoKu's definition. The finder gives one step,
    /// so completeness is checked by taking its steps until it finds none: each must be the
    /// reference's, and the reference must then find none either.
    mod remote_pairs {
        use std::collections::BTreeSet;

        use proptest::prelude::*;

        use crate::candidates::Candidates;
        use crate::grid::{Cell, Digit, DigitSet, Grid};
        use crate::logic::chains::remote_pair;
        use crate::logic::{apply, testutil::random_position};

        /// The eliminations of every Remote Pair: a chain of at least four bivalue cells with
        /// the same two digits, each seeing the next, repeating no cell; two of its cells an
        /// odd number of links apart, at least three, hold both digits between them, so cells
        /// off the chain seeing both lose both digits.
        fn reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
            let mut out = BTreeSet::new();
            for start in Cell::all().filter(|&x| c.get(x).len() == 2) {
                let pair = c.get(start);
                let same: Vec<Cell> = Cell::all().filter(|&x| c.get(x) == pair).collect();
                extend(c, pair, &same, &mut vec![start], &mut out);
            }
            out
        }

        /// Every simple path of `same` cells continuing `path`, recording the eliminations of
        /// its two ends.
        fn extend(
            c: &Candidates,
            pair: DigitSet,
            same: &[Cell],
            path: &mut Vec<Cell>,
            out: &mut BTreeSet<(Cell, Digit)>,
        ) {
            let (first, last, links) = (path[0], path[path.len() - 1], path.len() - 1);
            if links >= 3 && links % 2 == 1 {
                for t in Cell::all().filter(|t| !path.contains(t)) {
                    if t.sees(first) && t.sees(last) {
                        out.extend((c.get(t) & pair).iter().map(|d| (t, d)));
                    }
                }
            }
            for &next in same {
                if next.sees(last) && !path.contains(&next) {
                    path.push(next);
                    extend(c, pair, same, path, out);
                    path.pop();
                }
            }
        }

        /// Takes the finder's steps on `c` until it finds none, checking each against the
        /// reference and the solution: whether there was any.
        fn exhaust(mut c: Candidates, solution: &Grid) -> Result<bool, TestCaseError> {
            let any = !reference(&c).is_empty();
            while let Some(step) = remote_pair(&c) {
                let now = reference(&c);
                for &(x, d) in &step.eliminations {
                    prop_assert!(now.contains(&(x, d)), "{} not in the reference", step);
                    prop_assert!(solution.get(x) != Some(d), "{} removes the solution", step);
                }
                apply(&mut c, &step);
            }
            let left = reference(&c);
            prop_assert!(left.is_empty(), "missed {:?} in\n{}", left, c);
            Ok(any)
        }

        #[test]
        fn random_positions_hold_remote_pairs() {
            let positions = (0..400)
                .filter(|&i| {
                    let (c, solution) = random_position(i, i % 30, 60 + i as u64 % 35, i as u64);
                    exhaust(c, &solution).expect("remote pairs match the reference")
                })
                .count();
            // Remote Pairs are rare: 4 of these 400 positions hold one.
            assert!(
                positions >= 3,
                "only {positions} positions with a remote pair"
            );
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(150))]

            /// The finder takes only the reference's eliminations, never the solution's, and
            /// leaves none of them.
            #[test]
            fn remote_pair_finds_every_instance_and_is_sound(
                index in 0usize..1000,
                steps in 0usize..40,
                drop in 0u64..95,
                seed in any::<u64>(),
            ) {
                let (c, solution) = random_position(index, steps, drop, seed);
                exhaust(c, &solution)?;
            }
        }
    }
}
