//! The links of static chains, and which potentials reach which (`Reach`): the loops
//! rule's searches and the static multiple chains' sieve start from these.

use super::potentials::{kcell, kdig, key, off_to_on, on_to_off, C_CELL, NKEYS};
use super::{bit, bits, digits, SeGrid, PEERS, RM};

/// The links of static chains, precomputed per potential: the grid does not change while
/// cycles and forcing chains are searched from every candidate.
#[derive(Default)]
pub(super) struct Links {
    pub(super) start: Vec<u32>,
    pub(super) data: Vec<(u16, u8)>,
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
    pub(super) fn fill(&mut self, g: &SeGrid, on: bool, f: impl Fn(u16, &mut Vec<(u16, u8)>)) {
        self.start.clear();
        self.data.clear();
        // Keys run in candidate order; those between two candidates have no links.
        for c in 0..81 {
            for d in digits(g.cand()[c]) {
                let k = key(c, d, on);
                self.start.resize(k as usize + 1, self.data.len() as u32);
                f(k, &mut self.data);
            }
        }
        self.start.resize(NKEYS + 1, self.data.len() as u32);
    }

    pub(super) fn fill_on_to_off(&mut self, g: &SeGrid, y: bool) {
        self.fill(g, true, |k, out| on_to_off(g, k, y, out));
    }

    pub(super) fn fill_off_to_on(&mut self, g: &SeGrid, y: bool, x: bool) {
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
}

/// Which potentials reach which over the links of static chains (SE's X and Y links
/// together), and the strongly connected components the loops rule asks about.
///
/// Links alternate: an "on" potential switches off what sees it (its cell's other
/// candidates, its digit in its houses), and an "off" potential switches on its strong
/// partners (the other candidate of a bivalue cell, the other place of a digit with two
/// in a house). So what an "on" potential reaches is decided over the "on" potentials
/// alone, one step leading from X to every strong partner of what sees X; the "off"
/// potentials reached are those seeing one reached. Built that way from the grid's
/// masks, the sets cost a fraction of a walk over the listed links, and most grids need
/// no more: the links are listed (`links`) only where some search can find anything.
/// One per thread, its buffers reused: the loops rule builds it for every reduced grid
/// of nested chains.
#[derive(Default)]
pub(super) struct Reach {
    /// Node of each potential key (`UNSEEN`: not a candidate): each candidate's "off"
    /// node, then its "on" node, in candidate order.
    pub(super) node: Vec<u16>,
    /// Potential key of each node.
    pub(super) keys: Vec<u16>,
    /// Per candidate (half its nodes' index), where its strong partners start in
    /// `partners`.
    part_start: Vec<u32>,
    /// The strong partners of each candidate, as candidate indexes.
    partners: Vec<u16>,
    /// Per candidate, the kinds of its strong links (`link_kind` bits): those that lead
    /// to its "on" node.
    strong: Vec<u8>,
    /// Per candidate, the component of its "on" node among the "on" nodes, numbered in
    /// the order Tarjan's algorithm completes them.
    comp: Vec<u16>,
    /// Per component, the nodes its "on" nodes reach, `words` bit words (`row`).
    pub(super) sets: Vec<u64>,
    /// Per component, whether a cycle through its nodes could remove a candidate
    /// (`S_REMOVES`).
    removes: Vec<bool>,
    /// Per candidate, what the loops rule asks of it as a source at every candidate of
    /// every grid, in a byte (`source`): the kinds of its strong links (`S_KINDS`),
    /// whether a cycle through it could remove a candidate (`S_REMOVES`), whether its
    /// "on" node reaches its "off" node (`S_ON_OFF`) and the other way (`S_OFF_ON`).
    source: Vec<u8>,
    /// Whether some source could find anything, without the loops rule's shortcuts and
    /// with them (`searchable`).
    searchable: [bool; 2],
    pub(super) words: usize,
    // Scratch space of `build`: the steps between "on" nodes, and Tarjan's state.
    adj_start: Vec<u32>,
    adj: Vec<u16>,
    index: Vec<u16>,
    low: Vec<u16>,
    on_stack: Vec<bool>,
    stack: Vec<u16>,
    calls: Vec<(u16, u32)>,
    size: Vec<u16>,
    order: Vec<u16>,
    last: Vec<u16>,
    /// The grid the sets are of, if they are (`xy`).
    grid: Option<SeGrid>,
    /// Whether `on_off` and `off_on` hold that grid's links.
    listed: bool,
    /// The grid's XY links, on to off and off to on (`links`).
    pub(super) on_off: Links,
    pub(super) off_on: Links,
}

pub(super) const UNSEEN: u16 = u16::MAX;

thread_local! {
    pub(super) static REACH: std::cell::RefCell<Reach> = Default::default();
}

impl Reach {
    /// The sets of `g`, built unless they are the last built: the loops rule and then
    /// static multiple chains ask for them on the same grid.
    pub(super) fn xy(&mut self, g: &SeGrid) {
        if self.grid.as_ref() == Some(g) {
            return;
        }
        self.build(g);
        self.grid = Some(g.clone());
        self.listed = false;
    }

    /// Lists the XY links of the grid of the sets (`on_off`, `off_on`) for the loops
    /// rule's searches, unless they are listed.
    pub(super) fn links(&mut self, g: &SeGrid) {
        if !self.listed {
            self.on_off.fill_on_to_off(g, true);
            self.off_on.fill_off_to_on(g, true, true);
            self.listed = true;
        }
    }

    /// Index of candidate `d` of cell `c` (present in the grid of the sets).
    fn cand(&self, c: usize, d: u8) -> usize {
        self.node[key(c, d, false) as usize] as usize / 2
    }

    #[cfg(test)]
    fn partners_of(&self, i: usize) -> &[u16] {
        &self.partners[self.part_start[i] as usize..self.part_start[i + 1] as usize]
    }

    /// Strong partners, then Tarjan's algorithm over the steps between "on" nodes, then
    /// the components' sets in the order it completes them (every successor first).
    fn build(&mut self, g: &SeGrid) {
        self.grid = None;
        if self.node.is_empty() {
            self.node = vec![UNSEEN; NKEYS];
        }
        for &k in &self.keys {
            self.node[k as usize] = UNSEEN;
        }
        self.keys.clear();
        for (c, &m) in g.cand().iter().enumerate() {
            for d in digits(m) {
                for on in [false, true] {
                    let k = key(c, d, on);
                    self.node[k as usize] = self.keys.len() as u16;
                    self.keys.push(k);
                }
            }
        }
        let n = self.keys.len() / 2;
        // Strong partners (`SeGrid::partners`, as `off_to_on` finds them); `linked`: per digit,
        // the cells whose candidate has one. Inside nested chains most candidates have
        // none (about one in six has), so the masks of cells of two and of houses with
        // two places say which to list.
        let pair_cells = (0..81).fold(0u128, |m, c| m | ((g.card(c) == 2) as u128) << c);
        let pair_places: [u128; 9] = std::array::from_fn(|i| {
            let houses = (0..27).filter(|&h| g.count[i][h] == 2);
            houses.fold(0, |m, h| m | RM[h]) & g.digit_cells()[i]
        });
        self.part_start.clear();
        self.partners.clear();
        self.strong.clear();
        let mut linked = [0u128; 9];
        // The same per cell: its digits with a strong partner.
        let mut linked_digits = [0u16; 81];
        for i in 0..n {
            let k = self.keys[2 * i + 1];
            let (c, d) = (kcell(k), kdig(k));
            self.part_start.push(self.partners.len() as u32);
            // Within the cell, or within a house.
            let kinds =
                (pair_cells >> c & 1) as u8 | ((pair_places[d as usize - 1] >> c & 1) as u8) << 1;
            if kinds != 0 {
                let from = self.partners.len();
                for (o, e) in g.partners(c, d) {
                    let w = self.cand(o, e) as u16;
                    if !self.partners[from..].contains(&w) {
                        self.partners.push(w);
                    }
                }
                linked[d as usize - 1] |= 1 << c;
                linked_digits[c] |= bit(d);
            }
            self.strong.push(kinds);
        }
        self.part_start.push(self.partners.len() as u32);
        // One step from X: every strong partner of a candidate that sees X.
        self.adj_start.clear();
        self.adj.clear();
        for i in 0..n {
            self.adj_start.push(self.adj.len() as u32);
            let k = self.keys[2 * i + 1];
            let (c, d) = (kcell(k), kdig(k));
            for e in digits(linked_digits[c] & !bit(d)) {
                let z = self.cand(c, e);
                for j in self.part_start[z]..self.part_start[z + 1] {
                    let w = self.partners[j as usize];
                    if w as usize != i {
                        self.adj.push(w);
                    }
                }
            }
            for o in bits(PEERS[c] & linked[d as usize - 1]) {
                let z = self.cand(o, d);
                for j in self.part_start[z]..self.part_start[z + 1] {
                    let w = self.partners[j as usize];
                    if w as usize != i {
                        self.adj.push(w);
                    }
                }
            }
        }
        self.adj_start.push(self.adj.len() as u32);
        self.tarjan(n);
        self.sets_and_removes(g, n, &linked, &linked_digits);
    }

    /// Tarjan's algorithm over the steps between "on" nodes: `comp`, `size`.
    fn tarjan(&mut self, n: usize) {
        let (adj, adj_start) = (&self.adj, &self.adj_start);
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
        let (stack, calls) = (&mut self.stack, &mut self.calls);
        let mut counter = 0u16;
        // A node with no step out is a component of its own, complete at once: most are,
        // inside nested chains. Numbered first, they reach nothing, as the order requires.
        for u in (0..n).filter(|&u| adj_start[u] == adj_start[u + 1]) {
            index[u] = counter;
            low[u] = counter;
            counter += 1;
            self.comp[u] = self.size.len() as u16;
            self.size.push(1);
        }
        for root in 0..n {
            if index[root] != UNSEEN {
                continue;
            }
            // Each call holds its node and where it is in the node's steps (`NEW`: not
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
    }

    /// Each component's set (its "on" nodes, the "off" nodes that see them, and the sets
    /// of the components a step leads to, each of those once), and whether a cycle
    /// through it could remove a candidate.
    fn sets_and_removes(
        &mut self,
        g: &SeGrid,
        n: usize,
        linked: &[u128; 9],
        linked_digits: &[u16; 81],
    ) {
        let nc = self.size.len();
        let words = (2 * n).div_ceil(64);
        self.words = words;
        // The fields apart: the loop below writes one component's set while it reads the
        // other fields (`cand` and `partners_of` as closures over them).
        let Reach {
            node,
            keys,
            part_start,
            partners,
            strong,
            comp,
            sets,
            removes,
            source,
            searchable,
            adj_start,
            adj,
            size,
            order,
            last,
            ..
        } = self;
        // Read-only from here on: as slices, whose bounds stay in registers while the
        // loops write the sets.
        let (node, keys, comp, size): (&[u16], &[u16], &[u16], &[u16]) = (node, keys, comp, size);
        let (part_start, partners, strong) = (&part_start[..], &partners[..], &strong[..]);
        let (adj_start, adj) = (&adj_start[..], &adj[..]);
        sets.clear();
        sets.resize(nc * words, 0);
        // Candidates by component (counting sort).
        order.clear();
        order.resize(n, 0);
        let mut start = vec![0u16; nc + 1];
        for &c in comp.iter() {
            start[c as usize + 1] += 1;
        }
        for c in 0..nc {
            start[c + 1] += start[c];
        }
        for (i, &c) in comp.iter().enumerate() {
            order[start[c as usize] as usize] = i as u16;
            start[c as usize] += 1;
        }
        last.clear();
        last.resize(nc, UNSEEN);
        removes.clear();
        removes.resize(nc, false);
        // The "off" node of digit `i + 1` in cell `c`, and (`cand`) its candidate index.
        let off_node = |c: usize, i: usize| node[2 * (9 * c + i)];
        let cand = |c: usize, d: u8| off_node(c, d as usize - 1) as usize / 2;
        let partners_of = |i: usize| &partners[part_start[i] as usize..part_start[i + 1] as usize];
        // A cycle's removals are candidates that see one of its "on" nodes and one of its
        // "off" nodes of the same digit, and every node of a cycle lies in one component
        // of the links: its "on" nodes, and the "off" nodes that see one and switch one
        // on. Where no candidate sees both kinds, no cycle through them removes anything.
        // On the slowest puzzle this rules out 99% of the cycle searches the components
        // let through.
        let (mut on, mut off) = ([0u128; 9], [0u128; 9]);
        let mut at = 0;
        while at < n {
            let here = comp[order[at] as usize] as usize;
            let end = at + size[here] as usize;
            // Components complete after all they reach: those come before.
            let (done, rest) = sets.split_at_mut(here * words);
            let own = &mut rest[..words];
            let mut cyclic = false;
            for &y in &order[at..end] {
                let y = y as usize;
                let k = keys[2 * y + 1];
                let (c, d) = (kcell(k), kdig(k));
                let i = d as usize - 1;
                own[(2 * y + 1) / 64] |= 1 << ((2 * y + 1) % 64);
                // The "off" nodes it switches off (keys of "off" potentials are even).
                let mut set = |z: u16| own[z as usize / 64] |= 1 << (z % 64);
                for e in bits(g.cand()[c] & !bit(d)) {
                    set(off_node(c, e));
                }
                for o in bits(PEERS[c] & g.digit_cells()[i]) {
                    set(off_node(o, i));
                }
                for &w in &adj[adj_start[y] as usize..adj_start[y + 1] as usize] {
                    let o = comp[w as usize] as usize;
                    if o != here && last[o] != here as u16 {
                        last[o] = here as u16;
                        for (w, &x) in own.iter_mut().zip(&done[o * words..][..words]) {
                            *w |= x;
                        }
                    }
                }
                if strong[y] == 0 {
                    continue;
                }
                cyclic = true;
                on[i] |= PEERS[c] & g.digit_cells()[i];
                // The "off" nodes of the component: those seeing `y` that switch on one
                // of its "on" nodes.
                let in_here =
                    |z: usize| (partners_of(z).iter()).any(|&w| comp[w as usize] as usize == here);
                for e in digits(linked_digits[c] & !bit(d)) {
                    if in_here(cand(c, e)) {
                        off[e as usize - 1] |= PEERS[c] & g.digit_cells()[e as usize - 1];
                    }
                }
                for o in bits(PEERS[c] & linked[i]) {
                    if in_here(cand(o, d)) {
                        off[i] |= PEERS[o] & g.digit_cells()[i];
                    }
                }
            }
            if cyclic {
                removes[here] = (0..9).any(|i| on[i] & off[i] != 0);
                (on, off) = ([0; 9], [0; 9]);
            }
            at = end;
        }
        // With every set complete: an "off" node reaches what its strong partners' "on"
        // nodes reach.
        let holds = |i: usize, v: usize| sets[comp[i] as usize * words + v / 64] >> (v % 64) & 1;
        source.clear();
        source.extend((0..n).map(|i| {
            let mut s = strong[i];
            if holds(i, 2 * i) != 0 {
                s |= S_ON_OFF;
            }
            if s & S_KINDS != 0 {
                if removes[comp[i] as usize] {
                    s |= S_REMOVES;
                }
                if (partners_of(i).iter()).any(|&w| holds(w as usize, 2 * i + 1) != 0) {
                    s |= S_OFF_ON;
                }
            }
            s
        }));
        // Over the three passes (`loops::searches`): the XY pass follows every link the X
        // and Y passes do, and the Y pass searches from cells of two candidates only. Each
        // answer stops at its first source (without the shortcuts, nearly always early).
        *searchable = [false, true].map(|shortcuts| {
            let cycle = if shortcuts { S_REMOVES | S_OFF_ON } else { !0 };
            (0..n).any(|i| {
                let s = source[i];
                g.card(kcell(keys[2 * i])) >= 2
                    && (s & S_ON_OFF != 0 || (s & S_KINDS != 0 && s & cycle != 0))
            })
        });
    }

    /// Where the set of node `u`, an "on" node, starts in `sets`.
    pub(super) fn row(&self, u: usize) -> usize {
        self.comp[u / 2] as usize * self.words
    }

    /// What the loops rule asks of candidate `d` of cell `c` as a source (`S_KINDS` …).
    pub(super) fn source(&self, c: usize, d: u8) -> u8 {
        self.source[self.cand(c, d)]
    }

    /// Whether the loops rule, with its shortcuts or without, could find anything from
    /// some candidate of a cell with two or more (`loops::searches`).
    pub(super) fn searchable(&self, shortcuts: bool) -> bool {
        self.searchable[shortcuts as usize]
    }

    /// Whether potential `a` leads to potential `b`.
    #[cfg(test)]
    pub(super) fn reaches(&self, a: u16, b: u16) -> bool {
        use super::potentials::kon;
        let (u, v) = (
            self.node[a as usize] as usize,
            self.node[b as usize] as usize,
        );
        let holds = |u: usize| self.sets[self.row(u) + v / 64] >> (v % 64) & 1 != 0;
        if kon(a) {
            return holds(u);
        }
        u == v || (self.partners_of(u / 2).iter()).any(|&w| holds(2 * w as usize + 1))
    }
}

/// The kinds of the strong links leading to a source's "on" node (`link_kind` bits: 1
/// within its cell, 2 within a house). With any, it lies on a cycle of links: it switches
/// its partner off, and that switches it back on.
pub(super) const S_KINDS: u8 = 3;
/// Whether a cycle of links through the source's "on" node could remove a candidate: only
/// if some candidate sees an "on" and an "off" node of its digit in the node's component.
/// Set only for a source on a cycle.
pub(super) const S_REMOVES: u8 = 4;
/// Whether the source switched on leads to itself switched off.
pub(super) const S_ON_OFF: u8 = 8;
/// Whether the source switched off leads to itself switched on. Set only for a source on a
/// cycle: nothing else leads into its "on" node.
pub(super) const S_OFF_ON: u8 = 16;

/// Whether every static link of `small`, a grid with some of `big`'s candidates removed,
/// is a link of `big`: "on" to "off" links only ever go, and an "off" to "on" link is new
/// only where a cell is left with two candidates, or a house with two places for a digit,
/// that had more.
///
/// Then whatever the loops rule's tests (`Chainer::unary`) let it search on `small`, they
/// let it search on `big`: a link into a potential, a cycle through it, a path from one
/// potential to another, a component's removals all stay when links are added.
pub(super) fn links_within(small: &SeGrid, big: &SeGrid) -> bool {
    (0..81).all(|c| small.cand()[c] == big.cand()[c] || small.card(c) != 2)
        && (0..9).all(|i| {
            let lost = big.digit_cells()[i] & !small.digit_cells()[i];
            let d = i as u8 + 1;
            lost == 0 || (0..27).all(|r| RM[r] & lost == 0 || small.places(r, d) != 2)
        })
}

#[cfg(test)]
mod tests {
    use super::super::potentials::kon;
    use super::super::tests::reduced_pairs;
    use super::*;

    /// The sets, built from the grid's masks, agree with searches over the listed links:
    /// what each potential reaches, the kinds of link into each "on" potential (which lies
    /// on a cycle if it has any), and (from the nodes that reach each other) where a cycle
    /// could remove a candidate.
    #[test]
    fn reachability_sets_agree_with_a_search() {
        let mut removing = 0;
        for (_, g) in reduced_pairs(4) {
            let mut reach = Reach::default();
            reach.xy(&g);
            reach.links(&g);
            let (on_off, off_on) = (&reach.on_off, &reach.off_on);
            let live: Vec<u16> = (0..NKEYS as u16)
                .filter(|&k| g.has(kcell(k), kdig(k)))
                .collect();
            let next = |k: u16| if kon(k) { on_off.get(k) } else { off_on.get(k) };
            // Everything a path of one or more links reaches from each potential.
            let seen: Vec<Vec<bool>> = (0..NKEYS as u16)
                .map(|a| {
                    let mut seen = vec![false; NKEYS];
                    let mut todo: Vec<u16> = next(a).iter().map(|&(t, _)| t).collect();
                    while let Some(k) = todo.pop() {
                        if !seen[k as usize] {
                            seen[k as usize] = true;
                            todo.extend(next(k).iter().map(|&(t, _)| t));
                        }
                    }
                    seen
                })
                .collect();
            for &a in &live {
                for &b in &live {
                    let expected = a == b || seen[a as usize][b as usize];
                    assert_eq!(reach.reaches(a, b), expected, "{a} -> {b}");
                }
                if !kon(a) {
                    continue;
                }
                let source = reach.source(kcell(a), kdig(a));
                let (back, forth) = (source & S_ON_OFF != 0, source & S_OFF_ON != 0);
                assert_eq!(back, seen[a as usize][(a ^ 1) as usize], "{a} on to off");
                assert_eq!(forth, seen[(a ^ 1) as usize][a as usize], "{a} off to on");
                let cyclic = seen[a as usize][a as usize];
                assert_eq!(source & S_KINDS != 0, cyclic, "cycle through {a}");
                let kinds = (live.iter())
                    .flat_map(|&z| off_on.get(z).iter().filter(move |l| !kon(z) && l.0 == a))
                    .fold(0, |m, &(_, cause)| m | link_kind(cause));
                assert_eq!(source & S_KINDS, kinds, "links into {a}");
                if cyclic {
                    let (mut on, mut off) = ([0u128; 9], [0u128; 9]);
                    for &b in live.iter().filter(|&&b| {
                        b == a || (seen[a as usize][b as usize] && seen[b as usize][a as usize])
                    }) {
                        let i = kdig(b) as usize - 1;
                        let side = if kon(b) { &mut on } else { &mut off };
                        side[i] |= PEERS[kcell(b)] & g.digit_cells()[i];
                    }
                    let removes = (0..9).any(|i| on[i] & off[i] != 0);
                    assert_eq!(source & S_REMOVES != 0, removes, "cycle through {a}");
                    removing += removes as usize;
                }
            }
        }
        assert!(
            removing > 20,
            "{removing} components whose cycles may remove"
        );
    }

    /// Following some kinds of a grid's links is following links built for those alone.
    #[test]
    fn links_of_one_kind_equal_links_built_so() {
        let same = |a: LinkView, b: &Links| {
            (0..NKEYS as u16).all(|k| a.get(k).eq(b.get(k).iter().copied()))
        };
        let on_off = |g: &SeGrid, y| {
            let mut l = Links::default();
            l.fill_on_to_off(g, y);
            l
        };
        let off_on = |g: &SeGrid, y, x| {
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
