//! Potentials (a candidate assumed on or off), the arenas and sets chains keep them in,
//! and the links from one potential to the next that every chaining rule follows.

use super::{bit, bits, cell_name, digits, Nested, Premise, SeGrid, BLOCK, COL, CR, RM, ROW};
use std::hash::Hasher;

pub(super) const NKEYS: usize = 81 * 9 * 2;
pub(super) const NONE: u32 = u32::MAX;

/// Cause of a potential (why it was switched on or off): 0 none, 1 cell, 2–4 block /
/// row / column, 5 a rule applied inside a nested chain.
pub(super) const C_NONE: u8 = 0;
pub(super) const C_CELL: u8 = 1;
pub(super) const C_ADV: u8 = 5;

pub(super) fn key(c: usize, d: u8, on: bool) -> u16 {
    ((c * 9 + d as usize - 1) * 2 + on as usize) as u16
}

pub(super) fn kcell(k: u16) -> usize {
    k as usize / 18
}

pub(super) fn kdig(k: u16) -> u8 {
    (k as usize / 2 % 9) as u8 + 1
}

pub(super) fn kon(k: u16) -> bool {
    k & 1 == 1
}

pub(super) fn pot_name(k: u16) -> String {
    format!(
        "{}{}{}",
        cell_name(kcell(k)),
        if kon(k) { "=" } else { "<>" },
        kdig(k)
    )
}

/// A potential: a candidate assumed on or off, with the potentials that caused it.
#[derive(Clone, Copy)]
pub(super) struct Pot {
    pub(super) key: u16,
    pub(super) cause: u8,
    /// Where its parents start in the arena's list, or its one parent itself.
    pub(super) par_start: u32,
    pub(super) par_len: u32,
    pub(super) nested: Option<Nested>,
}

/// All potentials created while chaining from one starting point.
#[derive(Clone, Default)]
pub(super) struct Arena {
    pub(super) pots: Vec<Pot>,
    pub(super) par: Vec<u32>,
    /// Whether hints should carry their reasoning as text.
    pub(super) explain: bool,
}

impl Arena {
    pub(super) fn clear(&mut self, explain: bool) {
        self.pots.clear();
        self.par.clear();
        self.explain = explain;
    }

    pub(super) fn add(
        &mut self,
        key: u16,
        cause: u8,
        parents: &[u32],
        nested: Option<Nested>,
    ) -> u32 {
        // A lone parent (most potentials have one) is kept in the potential itself.
        let start = match parents {
            &[one] => one,
            _ => {
                let start = self.par.len() as u32;
                self.par.extend_from_slice(parents);
                start
            }
        };
        self.pots.push(Pot {
            key,
            cause,
            par_start: start,
            par_len: parents.len() as u32,
            nested,
        });
        self.pots.len() as u32 - 1
    }

    pub(super) fn key(&self, i: u32) -> u16 {
        self.pots[i as usize].key
    }

    /// Appends a chain built in an arena of its own; its index `i` becomes `offset + i`,
    /// the offset returned. Appended in the order they would have been built, chains
    /// leave the arena as building them here would have.
    pub(super) fn append(&mut self, chain: &Arena) -> u32 {
        let offset = self.pots.len() as u32;
        let par_offset = self.par.len() as u32;
        self.par.extend(chain.par.iter().map(|&p| p + offset));
        self.pots.extend(chain.pots.iter().map(|&p| Pot {
            par_start: p.par_start + if p.par_len == 1 { offset } else { par_offset },
            ..p
        }));
        offset
    }

    pub(super) fn parents(&self, i: u32) -> &[u32] {
        let p = &self.pots[i as usize];
        if p.par_len == 1 {
            return std::slice::from_ref(&p.par_start);
        }
        &self.par[p.par_start as usize..(p.par_start + p.par_len) as usize]
    }

    pub(super) fn first_parent(&self, i: u32) -> Option<u32> {
        self.parents(i).first().copied()
    }

    /// SE's `getChain`/`getAncestorCount`: breadth-first over parents, one node per key;
    /// `visit` sees each node in SE's order. `queue` is scratch space.
    pub(super) fn chain(&self, target: u32, queue: &mut Vec<u32>, mut visit: impl FnMut(u32)) {
        self.chain_while(target, queue, |p| {
            visit(p);
            true
        });
    }

    /// SE's identity of a hint on `targets` (its `FullChain`): hints are one where their
    /// targets' chains, each listed as `chain` walks it, are the same potentials, whatever
    /// grid or run they came from. A nested hint's complexity counts once per identity.
    /// `visit` sees each potential of the walk, for work that walks the chains anyway.
    pub(super) fn identity(
        &self,
        targets: &[u32],
        queue: &mut Vec<u32>,
        mut visit: impl FnMut(&Pot),
    ) -> u64 {
        let mut id = std::hash::DefaultHasher::new();
        for &t in targets {
            self.chain(t, queue, |p| {
                let pot = &self.pots[p as usize];
                id.write_u16(pot.key);
                visit(pot);
            });
            id.write_u16(u16::MAX);
        }
        id.finish()
    }

    /// `chain`, stopped as soon as `visit` returns false; false then.
    pub(super) fn chain_while(
        &self,
        target: u32,
        queue: &mut Vec<u32>,
        mut visit: impl FnMut(u32) -> bool,
    ) -> bool {
        let mut done = [0u64; NKEYS / 64 + 1];
        queue.clear();
        queue.push(target);
        let mut next = 0;
        while let Some(&p) = queue.get(next) {
            next += 1;
            let k = self.key(p) as usize;
            if done[k / 64] >> (k % 64) & 1 == 0 {
                done[k / 64] |= 1 << (k % 64);
                if !visit(p) {
                    return false;
                }
                // One by one: most lists are one or two long, and a copy call costs more.
                for &q in self.parents(p) {
                    queue.push(q);
                }
            }
        }
        true
    }

    /// The candidates simpler rules removed along the chains to `targets` (nested
    /// chains), in the order the chains removed them, each with the removals it rests on.
    pub(super) fn premises(&self, targets: &[u32], queue: &mut Vec<u32>) -> Vec<Premise> {
        let mut found: Vec<u32> = Vec::new();
        for &t in targets {
            self.chain(t, queue, |p| {
                if self.pots[p as usize].cause == C_ADV && !found.contains(&p) {
                    found.push(p);
                }
            });
        }
        found.sort_unstable();
        let candidate = |p: u32| (kcell(self.key(p)) as u8, kdig(self.key(p)));
        let mut premises: Vec<Premise> = Vec::new();
        for p in found {
            let premise = Premise {
                removed: candidate(p),
                given: self.parents(p).iter().map(|&q| candidate(q)).collect(),
            };
            if !premises.contains(&premise) {
                premises.push(premise);
            }
        }
        premises
    }

    /// The chains leading to each of `targets`, joined with `; `.
    pub(super) fn describe_all(&self, targets: &[u32]) -> String {
        targets
            .iter()
            .map(|&t| self.describe(t))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The chain leading to `target`, first parents only, as Eureka-like text.
    pub(super) fn describe(&self, target: u32) -> String {
        if !self.explain {
            return String::new();
        }
        // Follow first parents back to the assumption; a step taken by a simpler rule
        // (nested chains) is marked and followed through its first premise.
        let mut seq = Vec::new();
        let mut p = Some(target);
        while let Some(i) = p {
            let name = pot_name(self.key(i));
            if self.pots[i as usize].cause == C_ADV {
                seq.push(format!("{name} (by a simpler rule)"));
            } else {
                seq.push(name);
            }
            p = self.first_parent(i);
        }
        seq.reverse();
        seq.join(" -> ")
    }
}

/// SE's `LinkedSet<Potential>`: one potential per key, in insertion order.
///
/// A set holds potentials of one state, "on" or "off" (a chain keeps one of each), so
/// its map is by candidate: half the size, and chains look up both maps in step.
#[derive(Clone)]
pub(super) struct PSet {
    pub(super) map: Vec<u32>,
    pub(super) order: Vec<u32>,
    pub(super) keys: Vec<u16>,
}

impl PSet {
    pub(super) fn new() -> PSet {
        PSet {
            map: vec![NONE; NKEYS / 2],
            order: Vec::new(),
            keys: Vec::new(),
        }
    }

    fn slot(&self, k: u16) -> usize {
        debug_assert!(
            self.keys.first().map_or(true, |&f| f & 1 == k & 1),
            "one state per set"
        );
        k as usize >> 1
    }

    pub(super) fn get(&self, k: u16) -> Option<u32> {
        let i = self.map[self.slot(k)];
        (i != NONE).then_some(i)
    }

    pub(super) fn contains(&self, k: u16) -> bool {
        self.map[self.slot(k)] != NONE
    }

    pub(super) fn add(&mut self, ar: &Arena, i: u32) {
        let k = ar.key(i);
        if !self.contains(k) {
            self.add_new(k, i);
        }
    }

    /// Adds potential `i`, of key `k`, which the caller knows the set lacks: chains have
    /// just looked it up, and a second look-up costs in their hottest loop.
    pub(super) fn add_new(&mut self, k: u16, i: u32) {
        let s = self.slot(k);
        debug_assert_eq!(self.map[s], NONE, "key already in the set");
        self.map[s] = i;
        self.order.push(i);
        self.keys.push(k);
    }

    /// Empties the set in time proportional to its size.
    pub(super) fn reset(&mut self) {
        for &k in &self.keys {
            self.map[k as usize >> 1] = NONE;
        }
        self.order.clear();
        self.keys.clear();
    }
}

/// Consequences of a potential switched on, appended to `out`: the other candidates of
/// its cell (when `y`), and the same digit in its houses. Inlined: chains call it for
/// every potential switched on.
#[inline(always)]
pub(super) fn on_to_off(g: &SeGrid, k: u16, y: bool, out: &mut Vec<(u16, u8)>) {
    let (c, d) = (kcell(k), kdig(k));
    if y {
        for v in digits(g.cand()[c]) {
            if v != d {
                out.push((key(c, v, false), C_CELL));
            }
        }
    }
    // Houses list their cells in increasing index order, so masks keep SE's order.
    let mut seen = 1u128 << c;
    for t in [BLOCK, ROW, COL] {
        let m = g.cells(CR[c][t] as usize, d) & !seen;
        seen |= m;
        for o in bits(m) {
            out.push((key(o, d, false), 2 + t as u8));
        }
    }
}

/// The candidates removed since `src` that a potential of digit `d` in cell `c`, switched
/// on for `cause`, rests on: the cell's other candidates (cell cause) or the digit's other
/// places in the house that forced it. SE's hidden parents (dynamic chains) and rule
/// parents (nested hints) both. Filled cells are skipped: no start of a chain had a
/// candidate there, though `EVERY_CANDIDATE` says so.
pub(super) fn removed_for<'a>(
    g: &'a SeGrid,
    src: &SeGrid,
    c: usize,
    d: u8,
    cause: u8,
) -> impl Iterator<Item = (usize, u8)> + 'a {
    let (cell, house) = if cause == C_CELL {
        (src.cand()[c] & !g.cand()[c], 0)
    } else {
        (0, g.lost(src, d) & RM[CR[c][(cause - 2) as usize] as usize])
    };
    digits(cell).map(move |v| (c, v)).chain(
        bits(house)
            .filter(|&o| g.val()[o] == 0)
            .map(move |o| (o, d)),
    )
}

/// The parents of a potential switched on by `p` (the "off" potential `k0`) for `cause`
/// in a dynamic chain: `p`, then the removals that made the cell bivalue or the house a
/// pair.
pub(super) fn hidden_parents(
    g: &SeGrid,
    src: &SeGrid,
    to_off: &PSet,
    p: u32,
    k0: u16,
    cause: u8,
) -> Parents {
    let mut parents = Parents::one(p);
    for (c, v) in removed_for(g, src, kcell(k0), kdig(k0), cause) {
        if let Some(q) = to_off.get(key(c, v, false)) {
            parents.push(q);
        }
    }
    parents
}

/// Parents of a potential: the one that caused it and, in dynamic chains, the removed
/// candidates that made the cell or house single (at most 8).
#[derive(Clone, Copy)]
pub(super) struct Parents {
    pub(super) len: usize,
    pub(super) items: [u32; 10],
}

impl Parents {
    pub(super) fn one(p: u32) -> Parents {
        let mut items = [0; 10];
        items[0] = p;
        Parents { len: 1, items }
    }

    pub(super) fn push(&mut self, q: u32) {
        if self.len < self.items.len() {
            self.items[self.len] = q;
            self.len += 1;
        }
    }

    pub(super) fn as_slice(&self) -> &[u32] {
        &self.items[..self.len]
    }
}

/// Consequences of a potential switched off, appended to `out`: the last candidate of a
/// bivalue cell (when `y`), the other place of the digit in a house where it has two
/// (when `x`). Dynamic chains add the removals these rest on (`hidden_parents`).
/// Inlined: chains call it for every potential switched off.
#[inline(always)]
pub(super) fn off_to_on(g: &SeGrid, k: u16, y: bool, x: bool, out: &mut Vec<(u16, u8)>) {
    let (c, d) = (kcell(k), kdig(k));
    // Counted at the masks' own width (POPCNT), not widened to 128 bits.
    if y && g.card(c) == 2 {
        let rest = g.cand()[c] & !bit(d);
        let other = if rest.count_ones() == 1 {
            rest.trailing_zeros() as u8 + 1
        } else {
            g.cand()[c].trailing_zeros() as u8 + 1
        };
        out.push((key(c, other, true), C_CELL));
    }
    if x {
        // The other places found so far, the block's and a line's: a cell can be the
        // other place in the block and in one line, never in both lines.
        let mut found = [usize::MAX; 2];
        for t in [BLOCK, ROW, COL] {
            let r = CR[c][t] as usize;
            if g.places(r, d) != 2 {
                continue;
            }
            let pp = g.cells(r, d);
            let mut o = pp.trailing_zeros() as usize;
            if o == c {
                o = (pp & (pp - 1)).trailing_zeros() as usize;
            }
            if !found.contains(&o) {
                found[t.min(1)] = o;
                out.push((key(o, d, true), 2 + t as u8));
            }
        }
    }
}

pub(super) fn is_parent(ar: &Arena, p: u32, k: u16) -> bool {
    let mut q = ar.first_parent(p);
    while let Some(i) = q {
        if ar.key(i) == k {
            return true;
        }
        q = ar.first_parent(i);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::tests::reduced_pairs;
    use super::*;
    use crate::grid::Cell;

    #[test]
    fn keys_name_every_potential_once() {
        let mut seen = vec![false; NKEYS];
        for c in 0..81 {
            for d in 1..=9 {
                for on in [false, true] {
                    let k = key(c, d, on);
                    assert!(!std::mem::replace(&mut seen[k as usize], true));
                    assert_eq!((kcell(k), kdig(k), kon(k)), (c, d, on));
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(pot_name(key(30, 7, true)), "r4c4=7");
        assert_eq!(pot_name(key(80, 1, false)), "r9c9<>1");
    }

    /// Whether two cells see each other, from the grid's own houses.
    fn sees(a: usize, b: usize) -> bool {
        let (a, b) = (Cell::new(a).unwrap(), Cell::new(b).unwrap());
        a != b && a.houses().iter().any(|h| b.houses().contains(h))
    }

    /// A candidate switched on turns off, by definition, the cell's other candidates and
    /// the digit in every cell that sees it; nothing else, each once.
    #[test]
    fn on_to_off_is_the_definition() {
        for (_, g) in reduced_pairs(4) {
            for c in (0..81).filter(|&c| g.val()[c] == 0) {
                for d in digits(g.cand()[c]) {
                    for y in [false, true] {
                        let mut out = Vec::new();
                        on_to_off(&g, key(c, d, true), y, &mut out);
                        let mut got: Vec<u16> = out.iter().map(|&(k, _)| k).collect();
                        got.sort_unstable();
                        let mut want: Vec<u16> = (0..81)
                            .filter(|&o| sees(c, o) && g.has(o, d))
                            .map(|o| key(o, d, false))
                            .collect();
                        if y {
                            want.extend(
                                digits(g.cand()[c])
                                    .filter(|&v| v != d)
                                    .map(|v| key(c, v, false)),
                            );
                        }
                        want.sort_unstable();
                        assert_eq!(got, want, "r{}c{}={d}", c / 9 + 1, c % 9 + 1);
                    }
                }
            }
        }
    }

    /// A candidate switched off turns on, by definition, the last candidate of its cell
    /// when the cell had two, and the digit's other place in each house where it had two;
    /// a cell that is the other place in two houses is named once.
    #[test]
    fn off_to_on_is_the_definition() {
        for (_, g) in reduced_pairs(4) {
            for c in (0..81).filter(|&c| g.val()[c] == 0) {
                for d in digits(g.cand()[c]) {
                    let mut out = Vec::new();
                    off_to_on(&g, key(c, d, false), true, true, &mut out);
                    let mut got: Vec<u16> = out.iter().map(|&(k, _)| k).collect();
                    got.sort_unstable();
                    let mut want = Vec::new();
                    if g.card(c) == 2 {
                        let other = digits(g.cand()[c]).find(|&v| v != d).unwrap();
                        want.push(key(c, other, true));
                    }
                    let cell = Cell::new(c).unwrap();
                    for house in cell.houses() {
                        let places: Vec<usize> = house
                            .cells()
                            .iter()
                            .map(|o| o.index())
                            .filter(|&o| g.val()[o] == 0 && g.has(o, d))
                            .collect();
                        if places.len() == 2 {
                            let other = places[usize::from(places[0] == c)];
                            want.push(key(other, d, true));
                        }
                    }
                    want.sort_unstable();
                    want.dedup();
                    assert_eq!(got, want, "r{}c{}<>{d}", c / 9 + 1, c % 9 + 1);
                }
            }
        }
    }
}
