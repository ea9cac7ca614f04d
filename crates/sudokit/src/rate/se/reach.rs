//! The links of static chains, and which potentials reach which (`Reach`): the loops
//! rule's searches and the static multiple chains' sieve start from these.

use super::*;

/// The links of static chains, precomputed per potential: the grid does not change while
/// cycles and forcing chains are searched from every candidate.
#[derive(Default)]
pub(super) struct Links {
    pub(super) start: Vec<u32>,
    pub(super) data: Vec<(u16, u8)>,
    /// The kinds of the links that lead to this potential (`link_kind`, or'ed).
    pub(super) target: Vec<u8>,
}

/// A link's kind as a bit: 1 within a cell, 2 within a house.
pub(super) fn link_kind(cause: u8) -> u8 {
    if cause == C_CELL {
        1
    } else {
        2
    }
}

impl Links {
    /// Refills the tables (their buffers reused) with the links `f` appends for each
    /// candidate of `g` switched on (`on`) or off.
    pub(super) fn fill(&mut self, g: &G, on: bool, f: impl Fn(u16, &mut Vec<(u16, u8)>)) {
        self.start.clear();
        self.data.clear();
        // Keys run in candidate order; those between two candidates have no links.
        for c in 0..81 {
            for d in digits(g.cand[c]) {
                let k = key(c, d, on);
                self.start.resize(k as usize + 1, self.data.len() as u32);
                f(k, &mut self.data);
            }
        }
        self.start.resize(NKEYS + 1, self.data.len() as u32);
        self.target.clear();
        self.target.resize(NKEYS, 0);
        for &(k, cause) in &self.data {
            self.target[k as usize] |= link_kind(cause);
        }
    }

    pub(super) fn fill_on_to_off(&mut self, g: &G, y: bool) {
        self.fill(g, true, |k, out| on_to_off(g, k, y, out));
    }

    pub(super) fn fill_off_to_on(&mut self, g: &G, y: bool, x: bool) {
        self.fill(g, false, |k, out| off_to_on(g, k, y, x, out));
    }

    pub(super) fn get(&self, k: u16) -> &[(u16, u8)] {
        &self.data[self.start[k as usize] as usize..self.start[k as usize + 1] as usize]
    }

    /// The links of some kinds only (`link_kind` bits), in the same order.
    pub(super) fn only(&self, kinds: u8) -> LinkView<'_> {
        LinkView { links: self, kinds }
    }
}

/// Links of some kinds only: the X, Y and XY passes of the loops rule each follow some
/// kinds of the grid's links, as if the grid had been walked for those alone.
#[derive(Clone, Copy)]
pub(super) struct LinkView<'a> {
    pub(super) links: &'a Links,
    pub(super) kinds: u8,
}

impl LinkView<'_> {
    pub(super) fn get(&self, k: u16) -> impl Iterator<Item = (u16, u8)> + '_ {
        let kinds = self.kinds;
        self.links
            .get(k)
            .iter()
            .copied()
            .filter(move |&(_, cause)| link_kind(cause) & kinds != 0)
    }

    /// Whether some potential leads to `k`.
    pub(super) fn target(&self, k: u16) -> bool {
        self.links.target[k as usize] & self.kinds != 0
    }
}

/// Which potentials reach which over the links of static chains: the strongly connected
/// components of the link graph and, over them, reachability sets. One per thread, its
/// buffers reused: the loops rule builds it for every reduced grid of nested chains.
#[derive(Default)]
pub(super) struct Reach {
    /// Node of each potential key (`UNSEEN`: not a candidate).
    pub(super) node: Vec<u16>,
    /// Potential key of each node.
    pub(super) keys: Vec<u16>,
    /// Component of each node, numbered in the order Tarjan's algorithm completes them.
    pub(super) comp: Vec<u16>,
    /// Nodes in each component.
    pub(super) size: Vec<u16>,
    /// Nodes reachable from each component but the sinks, `words` bit words each (`row`).
    pub(super) sets: Vec<u64>,
    /// Components numbered below this are sinks ("off" nodes without links out).
    pub(super) sinks: usize,
    /// Per component, whether a cycle through its nodes could remove a candidate
    /// (`cycle_may_remove`).
    pub(super) removes: Vec<bool>,
    pub(super) words: usize,
    // Scratch space of `build`: the links between nodes (into sinks apart), and Tarjan's
    // state.
    pub(super) adj_start: Vec<u32>,
    pub(super) adj: Vec<u16>,
    pub(super) sink_start: Vec<u32>,
    pub(super) sink_adj: Vec<u16>,
    pub(super) index: Vec<u16>,
    pub(super) low: Vec<u16>,
    pub(super) on_stack: Vec<bool>,
    pub(super) stack: Vec<u16>,
    pub(super) calls: Vec<(u16, u32)>,
    pub(super) order: Vec<u16>,
    pub(super) last: Vec<u16>,
    /// The grid whose XY links the sets are of, if they are (`xy`).
    pub(super) grid: Option<G>,
    /// That grid's XY links, on to off and off to on (`xy`).
    pub(super) on_off: Links,
    pub(super) off_on: Links,
}

pub(super) const UNSEEN: u16 = u16::MAX;

thread_local! {
    pub(super) static REACH: std::cell::RefCell<Reach> = Default::default();
}

impl Reach {
    /// The XY links of `g` (`on_off`, `off_on`) and the sets over them, built unless they
    /// are the last built: the loops rule and then static multiple chains ask for them on
    /// the same grid.
    pub(super) fn xy(&mut self, g: &G) {
        if self.grid.as_ref() == Some(g) {
            return;
        }
        let (mut on_off, mut off_on) = (
            std::mem::take(&mut self.on_off),
            std::mem::take(&mut self.off_on),
        );
        on_off.fill_on_to_off(g, true);
        off_on.fill_off_to_on(g, true, true);
        self.build(g, &on_off, &off_on);
        (self.on_off, self.off_on) = (on_off, off_on);
        self.grid = Some(g.clone());
    }

    /// Tarjan's algorithm, then reachability sets in the order it completes components
    /// (every successor first).
    pub(super) fn build(&mut self, g: &G, on_off: &Links, off_on: &Links) {
        self.grid = None;
        if self.node.is_empty() {
            self.node = vec![UNSEEN; NKEYS];
        }
        for &k in &self.keys {
            self.node[k as usize] = UNSEEN;
        }
        self.keys.clear();
        for (i, &m) in g.cand.iter().enumerate() {
            for d in digits(m) {
                for on in [false, true] {
                    let k = key(i, d, on);
                    self.node[k as usize] = self.keys.len() as u16;
                    self.keys.push(k);
                }
            }
        }
        let n = self.keys.len();
        // The links between nodes, compactly; those into "off" nodes without links out
        // (most of an "on" node's) apart: the search below takes those nodes as done, and
        // the sets only mark them.
        self.adj_start.clear();
        self.adj.clear();
        self.sink_start.clear();
        self.sink_adj.clear();
        for &k in &self.keys {
            self.adj_start.push(self.adj.len() as u32);
            self.sink_start.push(self.sink_adj.len() as u32);
            if kon(k) {
                for &(t, _) in on_off.get(k) {
                    let v = self.node[t as usize];
                    if off_on.get(t).is_empty() {
                        self.sink_adj.push(v);
                    } else {
                        self.adj.push(v);
                    }
                }
            } else {
                let targets = off_on.get(k).iter().map(|&(t, _)| self.node[t as usize]);
                self.adj.extend(targets);
            }
        }
        self.adj_start.push(self.adj.len() as u32);
        self.sink_start.push(self.sink_adj.len() as u32);
        let (adj, adj_start) = (&self.adj, &self.adj_start);
        let succ = |u: usize| -> &[u16] { &adj[adj_start[u] as usize..adj_start[u + 1] as usize] };
        let (index, low, on_stack) = (&mut self.index, &mut self.low, &mut self.on_stack);
        index.clear();
        index.resize(n, UNSEEN);
        low.clear();
        low.resize(n, 0);
        on_stack.clear();
        on_stack.resize(n, false);
        self.comp.clear();
        self.comp.resize(n, 0);
        self.size.clear();
        // "Off" nodes without links out (most of them) are components of their own,
        // numbered first: they complete before any that reaches them, their sets are
        // themselves (not stored), and the search takes them as done.
        for (u, (i, c)) in index.iter_mut().zip(&mut self.comp).enumerate() {
            if succ(u).is_empty() && !kon(self.keys[u]) {
                *i = 0;
                *c = self.size.len() as u16;
                self.size.push(1);
            }
        }
        let sinks = self.size.len();
        self.sinks = sinks;
        let (stack, calls) = (&mut self.stack, &mut self.calls);
        let mut counter = 0u16;
        for root in 0..n {
            if index[root] != UNSEEN {
                continue;
            }
            // Each call holds its node and where it is in the node's links (`NEW`: not
            // entered yet).
            const NEW: u32 = u32::MAX;
            calls.push((root as u16, NEW));
            while let Some(&(u, mut at)) = calls.last() {
                let u = u as usize;
                if at == NEW {
                    index[u] = counter;
                    low[u] = counter;
                    counter += 1;
                    stack.push(u as u16);
                    on_stack[u] = true;
                    at = adj_start[u];
                }
                let end = adj_start[u + 1];
                let mut next = None;
                while at < end {
                    let v = adj[at as usize] as usize;
                    at += 1;
                    if index[v] == UNSEEN {
                        next = Some(v);
                        break;
                    } else if on_stack[v] {
                        low[u] = low[u].min(index[v]);
                    }
                }
                if let Some(v) = next {
                    if let Some(top) = calls.last_mut() {
                        top.1 = at;
                    }
                    calls.push((v as u16, NEW));
                    continue;
                }
                calls.pop();
                if let Some(&(p, _)) = calls.last() {
                    low[p as usize] = low[p as usize].min(low[u]);
                }
                if low[u] == index[u] {
                    let c = self.size.len() as u16;
                    let mut members = 0;
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        self.comp[w as usize] = c;
                        members += 1;
                        if w as usize == u {
                            break;
                        }
                    }
                    self.size.push(members);
                }
            }
        }
        // Nodes by component (counting sort), then each component's set from its own
        // nodes and the sets of the components it links to, each of those once.
        let nc = self.size.len();
        let words = n.div_ceil(64);
        self.words = words;
        self.sets.clear();
        self.sets.resize((nc - sinks) * words, 0);
        self.order.clear();
        self.order.resize(n, 0);
        let mut start = vec![0u16; nc + 1];
        for &c in &self.comp {
            start[c as usize + 1] += 1;
        }
        for c in 0..nc {
            start[c + 1] += start[c];
        }
        for u in 0..n {
            let c = self.comp[u] as usize;
            self.order[start[c] as usize] = u as u16;
            start[c] += 1;
        }
        self.last.clear();
        self.last.resize(nc, UNSEEN);
        // The sinks, one node each, come first.
        for &u in &self.order[sinks..] {
            let u = u as usize;
            let c = self.comp[u] as usize;
            let row = (c - sinks) * words;
            self.sets[row + u / 64] |= 1 << (u % 64);
            let into_sinks = self.sink_start[u] as usize..self.sink_start[u + 1] as usize;
            for &v in &self.sink_adj[into_sinks] {
                self.sets[row + v as usize / 64] |= 1 << (v % 64);
            }
            for &v in succ(u) {
                let o = self.comp[v as usize] as usize;
                if o != c && self.last[o] != c as u16 {
                    self.last[o] = c as u16;
                    // Components complete after all they reach: `o < c`.
                    let (done, rest) = self.sets.split_at_mut(row);
                    let from = (o - sinks) * words;
                    for (w, &x) in rest[..words].iter_mut().zip(&done[from..][..words]) {
                        *w |= x;
                    }
                }
            }
        }
        // A cycle's removals are candidates that see one of its "on" nodes and one of its
        // "off" nodes of the same digit, and every node of a cycle lies in one component:
        // where no candidate sees both kinds among a component's nodes, no cycle through
        // them removes anything. On the slowest puzzle this rules out 99% of the cycle
        // searches the components let through (their components hold three nodes on
        // average, and each search walks all the source reaches).
        self.removes.clear();
        self.removes.resize(nc, false);
        let mut at = sinks;
        while at < n {
            let c = self.comp[self.order[at] as usize] as usize;
            let end = at + self.size[c] as usize;
            if end - at > 1 {
                let (mut on, mut off) = ([0u128; 9], [0u128; 9]);
                for &u in &self.order[at..end] {
                    let k = self.keys[u as usize];
                    let i = kdig(k) as usize - 1;
                    let side = if kon(k) { &mut on } else { &mut off };
                    side[i] |= PEERS[kcell(k)] & g.dm[i];
                }
                self.removes[c] = (0..9).any(|i| on[i] & off[i] != 0);
            }
            at = end;
        }
    }

    /// Where the set of node `u`, not a sink, starts in `sets`.
    pub(super) fn row(&self, u: usize) -> usize {
        (self.comp[u] as usize - self.sinks) * self.words
    }

    /// Whether potential `a` leads to potential `b` (needs the sets).
    pub(super) fn reaches(&self, a: u16, b: u16) -> bool {
        let (a, b) = (
            self.node[a as usize] as usize,
            self.node[b as usize] as usize,
        );
        if (self.comp[a] as usize) < self.sinks {
            return a == b;
        }
        self.sets[self.row(a) + b / 64] >> (b % 64) & 1 != 0
    }

    /// Whether potential `a` lies on a cycle of links.
    pub(super) fn cyclic(&self, a: u16) -> bool {
        self.size[self.comp[self.node[a as usize] as usize] as usize] > 1
    }

    /// Whether a cycle of links through potential `a` could remove a candidate: only if
    /// some candidate sees an "on" and an "off" node of its digit in `a`'s component.
    pub(super) fn cycle_may_remove(&self, a: u16) -> bool {
        self.removes[self.comp[self.node[a as usize] as usize] as usize]
    }
}

/// Whether every static link of `small`, a grid with some of `big`'s candidates removed,
/// is a link of `big`: "on" to "off" links only ever go, and an "off" to "on" link is new
/// only where a cell is left with two candidates, or a house with two places for a digit,
/// that had more.
///
/// Then whatever the loops rule's tests (`Chainer::unary`) let it search on `small`, they
/// let it search on `big`: a link into a potential, a cycle through it, a path from one
/// potential to another, a component's removals all stay when links are added.
pub(super) fn links_within(small: &G, big: &G) -> bool {
    (0..81).all(|c| small.cand[c] == big.cand[c] || small.card(c) != 2)
        && (0..9).all(|i| {
            let lost = big.dm[i] & !small.dm[i];
            let d = i as u8 + 1;
            lost == 0 || (0..27).all(|r| RM[r] & lost == 0 || small.places(r, d) != 2)
        })
}

#[cfg(test)]
mod tests {
    use super::super::tests::reduced_pairs;
    use super::*;

    #[test]
    fn reachability_sets_agree_with_a_search() {
        for (_, g) in reduced_pairs(4) {
            for (y, x) in [(false, true), (true, false), (true, true)] {
                let (mut on_off, mut off_on) = (Links::default(), Links::default());
                on_off.fill_on_to_off(&g, y);
                off_on.fill_off_to_on(&g, y, x);
                let mut reach = Reach::default();
                reach.build(&g, &on_off, &off_on);
                let live: Vec<u16> = (0..NKEYS as u16)
                    .filter(|&k| g.has(kcell(k), kdig(k)))
                    .collect();
                let next = |k: u16| if kon(k) { on_off.get(k) } else { off_on.get(k) };
                for &a in &live {
                    // Everything a path of one or more links reaches from `a`.
                    let mut seen = vec![false; NKEYS];
                    let mut todo: Vec<u16> = next(a).iter().map(|&(t, _)| t).collect();
                    while let Some(k) = todo.pop() {
                        if !seen[k as usize] {
                            seen[k as usize] = true;
                            todo.extend(next(k).iter().map(|&(t, _)| t));
                        }
                    }
                    assert_eq!(reach.cyclic(a), seen[a as usize], "cycle through {a}");
                    for &b in &live {
                        let expected = a == b || seen[b as usize];
                        assert_eq!(reach.reaches(a, b), expected, "{a} -> {b}");
                    }
                }
            }
        }
    }

    /// Following some kinds of a grid's links is following links built for those alone.
    #[test]
    fn links_of_one_kind_equal_links_built_so() {
        let same = |a: LinkView, b: &Links| {
            (0..NKEYS as u16).all(|k| {
                a.get(k).eq(b.get(k).iter().copied()) && a.target(k) == (b.target[k as usize] != 0)
            })
        };
        let on_off = |g: &G, y| {
            let mut l = Links::default();
            l.fill_on_to_off(g, y);
            l
        };
        let off_on = |g: &G, y, x| {
            let mut l = Links::default();
            l.fill_off_to_on(g, y, x);
            l
        };
        for (_, g) in reduced_pairs(4) {
            let (xy_on_off, xy_off_on) = (on_off(&g, true), off_on(&g, true, true));
            assert!(same(xy_on_off.only(3), &xy_on_off));
            assert!(same(xy_off_on.only(3), &xy_off_on));
            assert!(same(xy_on_off.only(2), &on_off(&g, false)));
            assert!(same(xy_off_on.only(2), &off_on(&g, false, true)));
            assert!(same(xy_off_on.only(1), &off_on(&g, true, false)));
        }
    }
}
