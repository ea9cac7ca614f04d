//! SE's cycles and forcing chains over X, Y and XY links (6.5–7.x), "the loops rule":
//! from every candidate, a search for cycles back to it and one for a chain to its own
//! negation, in three passes (X links within houses, Y links within cells, both). Nearly
//! every search finds nothing, so the reachability sets of the grid's links (`Reach`)
//! rule most out before they start (`searches`).

use super::chains::{
    chain_hint, length_diff, rank_order, removes, rule_parents, ChainSpec, Chainer, Outcome, Rank,
    RuleParents,
};
use super::nested::keep_fixed_sieve;
use super::potentials::{is_parent, kcell, kdig, key, kon, Arena, PSet, C_ADV, C_NONE};
use super::reach::REACH;
use super::reach::{LinkView, Reach, S_KINDS, S_OFF_ON, S_ON_OFF, S_REMOVES};
use super::{digits, rating, Hint, SeGrid, SeTechnique, HOUSE};
use std::collections::VecDeque;

impl Chainer<'_> {
    /// SE's loops rule on `g`: its hints, into `out`, in the order found. A nested run on a
    /// grid where it finds nothing keeps the grid's static sieve, made from the same
    /// reachability sets (`keep_fixed_sieve`).
    pub(super) fn loops_rule(&mut self, g: &SeGrid, out: &mut Vec<Hint>) {
        let (context, shortcuts) = (self.context, self.shortcuts);
        // X, Y and XY chains, in SE's order, each over its own links: the X and Y links
        // are the XY links of one kind. Whatever X or Y links reach, XY links reach too,
        // so the XY reachability filters all three passes.
        REACH.with(|reach| {
            let mut reach = reach.borrow_mut();
            reach.xy(g);
            // Most grids let no search through: their links are not even listed.
            if reach.searchable(shortcuts) {
                reach.links(g);
                for (y, x) in LOOP_PASSES {
                    // XY cycles and chains rate 7.0 and up: below a hint the X and Y passes
                    // found under that, none could come first.
                    if context.first && x && y && out.iter().any(|h| h.diff < rating::XY_CHAIN) {
                        break;
                    }
                    // X links: within houses; Y links: "off" to "on" within cells.
                    let on_off = reach.on_off.only(2 | y as u8);
                    let off_on = reach.off_on.only(y as u8 | (x as u8) << 1);
                    self.loops(g, y, x, on_off, off_on, &reach, out);
                }
            }
            if context.src.is_some() && out.is_empty() {
                keep_fixed_sieve(g, &reach, context.nested);
            }
        });
    }

    /// One pass of SE's cycles and forcing chains (the rule rated 6.5–7.x) over X, Y or XY
    /// links, its searches filtered by `reach`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn loops(
        &mut self,
        g: &SeGrid,
        y: bool,
        x: bool,
        on_off: LinkView,
        off_on: LinkView,
        reach: &Reach,
        out: &mut Vec<Hint>,
    ) {
        for c in 0..81 {
            if g.val()[c] != 0 || g.card(c) <= 1 {
                continue;
            }
            for d in digits(g.cand()[c]) {
                self.unary(g, c, d, y, x, (on_off, off_on, reach), out);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn unary(
        &mut self,
        g: &SeGrid,
        c: usize,
        d: u8,
        y: bool,
        x: bool,
        (on_off, off_on, reach): (LinkView, LinkView, &Reach),
        out: &mut Vec<Hint>,
    ) {
        let [cycle, from_on, from_off] = searches(g, c, d, (y, x), reach, self.shortcuts);
        if !(cycle || from_on || from_off) {
            return;
        }
        self.searched = true;
        let (sort_key, cycle_base, chain_base) = match (x, y) {
            (true, true) => (4, rating::XY_CHAIN, rating::XY_CHAIN),
            (false, true) => (3, rating::CYCLE, rating::XY_CHAIN),
            _ => (2, rating::CYCLE, rating::FORCING_X_CHAIN),
        };
        let mut ar = self.take_arena();
        let source = ar.add(key(c, d, true), C_NONE, &[], None);
        let cycles = if cycle {
            let most = longest_to_beat(cycle_base, sort_key, self.best);
            self.cycles(&mut ar, source, on_off, off_on, most)
        } else {
            Vec::new()
        };
        let mut chains = Vec::new();
        let most = longest_to_beat(chain_base, sort_key, self.best);
        if from_on {
            self.forcing(&mut ar, source, on_off, off_on, most, &mut chains);
        }
        if from_off {
            let off = ar.add(key(c, d, false), C_NONE, &[], None);
            self.forcing(&mut ar, off, on_off, off_on, most, &mut chains);
        }
        for dst in cycles {
            let mut cells = 0u128;
            let mut p = dst;
            while let Some(q) = ar.first_parent(p) {
                cells |= 1u128 << kcell(ar.key(p));
                p = q;
            }
            let mut forw: Vec<(u8, u8)> = Vec::new();
            let mut back: Vec<(u8, u8)> = Vec::new();
            let mut p = dst;
            while let Some(q) = ar.first_parent(p) {
                let k = ar.key(p);
                let v = kdig(k);
                for &o in &HOUSE[kcell(k)] {
                    if cells >> o & 1 == 0 && g.has(o as usize, v) {
                        let set = if kon(k) { &mut forw } else { &mut back };
                        if !set.contains(&(o, v)) {
                            set.push((o, v));
                        }
                    }
                }
                p = q;
            }
            let mut removals: Vec<(u8, u8)> =
                forw.into_iter().filter(|e| back.contains(e)).collect();
            if removals.is_empty() {
                continue;
            }
            removals.sort_unstable();
            let tech = match (x, y) {
                (true, true) => SeTechnique::XYCycle,
                (false, true) => SeTechnique::YCycle,
                _ => SeTechnique::XCycle,
            };
            let t = [dst];
            let text = self.text(|| format!("cycle {}", ar.describe(dst)));
            let mut h = chain_hint(
                g,
                &ar,
                self.context,
                &mut self.scratch.queue,
                ChainSpec {
                    tech,
                    base: cycle_base,
                    sort_key,
                    targets: &t,
                    null_cause: C_NONE,
                    outcome: Outcome::Removes(removals),
                    text,
                },
            );
            if let Some(src) = self.context.src {
                // The reversed cycle: every "off" of the chain is "on" the other way round.
                let mut parents = RuleParents::new(std::mem::take(&mut h.parents));
                let mut p = dst;
                while let Some(q) = ar.first_parent(p) {
                    let pot = &ar.pots[p as usize];
                    if !kon(pot.key) && pot.cause != C_NONE && pot.cause != C_ADV {
                        rule_parents(g, src, pot.key ^ 1, pot.cause, &mut parents);
                    }
                    p = q;
                }
                h.parents = parents.list;
            }
            self.note(&h);
            out.push(h);
        }
        for t in chains {
            let k = ar.key(t);
            if !removes(g, k) {
                continue;
            }
            let tech = match y {
                true => SeTechnique::ForcingXYChain,
                false => SeTechnique::ForcingXChain,
            };
            let tt = [t];
            let spec = ChainSpec {
                tech,
                base: chain_base,
                sort_key,
                targets: &tt,
                null_cause: C_NONE,
                outcome: Outcome::Of(k),
                text: self.text(|| format!("chain {}", ar.describe(t))),
            };
            let h = chain_hint(g, &ar, self.context, &mut self.scratch.queue, spec);
            self.note(&h);
            out.push(h);
        }
        self.arena = ar;
    }

    /// SE's cycle search from `source`, switched on: the cycles back to it, each as its
    /// last potential. A cycle's complexity is its length (its keys are distinct but for
    /// the source's, met again), so the search stops past `most`.
    pub(super) fn cycles(
        &mut self,
        ar: &mut Arena,
        source: u32,
        on_off: LinkView,
        off_on: LinkView,
        most: u32,
    ) -> Vec<u32> {
        let skey = ar.key(source);
        let mut to_on = self.set();
        let mut to_off = self.set();
        to_on.add(ar, source);
        let (mut pon, mut poff) = self.queues();
        pon.push_back(source);
        let mut length = 0;
        let mut cycles = Vec::new();
        // The next cycle closes two links further on.
        while (!pon.is_empty() || !poff.is_empty()) && length + 2 <= most {
            length += 1;
            while let Some(p) = pon.pop_front() {
                for (k, cause) in on_off.get(ar.key(p)) {
                    // SE queues an "off" again for every path to it. Once its first copy is
                    // queued, the others can only close a cycle back to the source: the
                    // potentials they imply are on the list already.
                    // Every potential on the path to `p` is queued already, so SE's "not a
                    // parent" test can only fail for a potential already in the set.
                    if to_off.contains(k)
                        && (!off_on.get(k).any(|(t, _)| t == skey) || is_parent(ar, p, k))
                    {
                        continue;
                    }
                    let i = ar.add(k, cause, &[p], None);
                    poff.push_back(i);
                    to_off.add(ar, i);
                }
            }
            length += 1;
            while let Some(p) = poff.pop_front() {
                for (k, cause) in off_on.get(ar.key(p)) {
                    let fresh = !to_on.contains(k);
                    let hit = length >= 4 && k == skey;
                    if fresh || hit {
                        let i = ar.add(k, cause, &[p], None);
                        if hit {
                            cycles.push(i);
                        }
                        if fresh {
                            pon.push_back(i);
                            to_on.add_new(k, i);
                        }
                    }
                }
            }
        }
        self.recycle(to_on);
        self.recycle(to_off);
        self.queues = (pon, poff);
        cycles
    }

    /// SE's forcing-chain search from `source`: the chain to its negation, if any, into
    /// `chains`. Its complexity is its length (one key per potential), so the search
    /// stops where that would pass `most`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn forcing(
        &mut self,
        ar: &mut Arena,
        source: u32,
        on_off: LinkView,
        off_on: LinkView,
        most: u32,
        chains: &mut Vec<u32>,
    ) {
        let skey = ar.key(source);
        let mut to_on = self.set();
        let mut to_off = self.set();
        let (mut pon, mut poff) = self.queues();
        if kon(skey) {
            to_on.add(ar, source);
            pon.push_back(source);
        } else {
            to_off.add(ar, source);
            poff.push_back(source);
        }
        // The depth of the layer under way: what it adds has `depth + 2` potentials.
        let mut depth = 0;
        // The only conclusion a source can reach is its own negation, recorded once: the
        // search stops there, as nothing found later could be recorded. Layers alternate:
        // the "on" potentials queued switch candidates off, then those switch others on.
        'search: while !pon.is_empty() || !poff.is_empty() {
            for on in [true, false] {
                let (from, to, links, set) = match on {
                    true => (&mut pon, &mut poff, on_off, &mut to_off),
                    false => (&mut poff, &mut pon, off_on, &mut to_on),
                };
                if from.is_empty() {
                    continue;
                }
                if depth + 2 > most {
                    break 'search;
                }
                depth += 1;
                if forcing_layer(ar, from, to, links, set, skey ^ 1, chains) {
                    break 'search;
                }
            }
        }
        self.recycle(to_on);
        self.recycle(to_off);
        self.queues = (pon, poff);
    }
}

/// One layer of a forcing-chain search: the links of every potential queued in `from`,
/// each new potential queued on `to` and kept in `set` (the other state's). True once a
/// link reaches `negation`, the source's negation, not yet in `chains`: it goes there.
fn forcing_layer(
    ar: &mut Arena,
    from: &mut VecDeque<u32>,
    to: &mut VecDeque<u32>,
    links: LinkView,
    set: &mut PSet,
    negation: u16,
    chains: &mut Vec<u32>,
) -> bool {
    while let Some(p) = from.pop_front() {
        for (k, cause) in links.get(ar.key(p)) {
            if k == negation && !chains.iter().any(|&q| ar.key(q) == k) {
                let i = ar.add(k, cause, &[p], None);
                chains.push(i);
                return true;
            }
            // SE also skips parents of `p`; they are all in `set` already.
            if !set.contains(k) {
                let i = ar.add(k, cause, &[p], None);
                to.push_back(i);
                set.add_new(k, i);
            }
        }
    }
    false
}

/// The most complexity a hint of difficulty `base` and kind `sort_key` may have and still
/// come before `best` in SE's order (found later, it loses a tie): every complexity
/// without a best.
fn longest_to_beat(base: f64, sort_key: u8, best: Option<Rank>) -> u32 {
    let Some(best) = best else {
        return u32::MAX;
    };
    let beats = |n: u32| rank_order((base + length_diff(n), n, sort_key), best).is_lt();
    // The bonus stops growing past 8,194: a bound further out is left unbounded (looser,
    // so still sound).
    const LAST: u32 = 8194 + 2;
    // Longer hints rank later, so `beats` holds up to some length and not after: the
    // first length it fails is found by halving.
    let (mut lo, mut hi) = (0, LAST + 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        match beats(mid) {
            true => lo = mid + 1,
            false => hi = mid,
        }
    }
    match lo {
        0 => 0,
        n if n > LAST => u32::MAX,
        n => n - 1,
    }
}

/// The loops rule's passes, as (`y`, `x`): X chains and cycles (links within houses), Y
/// (within cells), XY (both).
const LOOP_PASSES: [(bool, bool); 3] = [(false, true), (true, false), (true, true)];

/// Which searches of the loops rule's pass (`y`, `x`) from candidate `d` of cell `c` can
/// find anything: for cycles, and for forcing chains from the candidate switched on and
/// switched off.
///
/// A cycle closes, and an "off" source is forced on, only through a link of the pass into
/// the source (which then lies on a cycle of links). Nor can a forcing chain end where
/// the source does not reach its negation: most searches end so, and the reachability
/// sets of XY links (whatever X or Y links reach, they reach) rule them out at once. Of
/// the cycles that close, only those that remove something make hints, and the source's
/// component tells when none can (`shortcuts`).
fn searches(
    g: &SeGrid,
    c: usize,
    d: u8,
    (y, x): (bool, bool),
    reach: &Reach,
    shortcuts: bool,
) -> [bool; 3] {
    if g.card(c) > 2 && !x {
        return [false; 3];
    }
    let source = reach.source(c, d);
    let into_source = source & S_KINDS & (y as u8 | (x as u8) << 1) != 0;
    let cycle = into_source && (!shortcuts || source & S_REMOVES != 0);
    [
        cycle,
        x && source & S_ON_OFF != 0,
        x && into_source && source & S_OFF_ON != 0,
    ]
}

#[cfg(test)]
mod tests {
    use super::super::chains::{complexity, rule_hints};
    use super::super::se_rate;
    use super::super::tests::reduced_pairs;
    use super::super::ChainRule;
    use super::super::Context;
    use super::super::NestedCache;
    use super::super::MAX_LEVEL;
    use super::*;
    use crate::grid::Grid;

    /// Asked for its first hint only, the loops rule gives the first of all its hints,
    /// also where it skips the XY pass (a hint under 7.0 from the X or Y pass): on every
    /// step grid of puzzles rated 7.0–7.4 by SE (from the calibration set), where XY
    /// chains come first at some steps, and on reduced hard grids.
    #[test]
    fn loops_rule_first_hint_is_the_first_of_all() {
        let mut grids: Vec<SeGrid> = reduced_pairs(8)
            .into_iter()
            .flat_map(|(a, b)| [a, b])
            .collect();
        for text in [
            ".73..9..1......53.4.12..7....2....6.9...3...8.3....1....9..28.7.87......6..8..35.",
            "....3..92...1..5.7.....214..36..9..172.....541..2..36..678.....9.1..6...34..9....",
            ".4...6..579.5.....5632..8..6...259.....6.7.....549...6..7..2469.....8.274..7...8.",
            "......45....9....2..5.347....8..912...3.2.9...214..5....716.3..8....7....14......",
            ".7.2..4......837.9.....5.1..2..6...33..1.2..41...5..2..3.5.....4.281......8..4.6.",
            "1.6...8.4..4.9.6..5.......343.....86....8.....6.5.2.7...8...7.....3.8......769...",
        ] {
            let puzzle: Grid = text.parse().expect("test puzzle");
            let mut g = SeGrid::from_values(puzzle.values());
            for h in se_rate(&puzzle, None, MAX_LEVEL, false).steps {
                grids.push(g.clone());
                h.apply(&mut g);
            }
        }
        let (mut compared, mut skipped, mut xy_first) = (0, 0, 0);
        for g in grids {
            let nested = NestedCache::default();
            let context = |first| Context {
                src: None,
                first,
                explain: false,
                solution: None,
                nested: &nested,
            };
            let all = rule_hints(&g, ChainRule::LOOPS, context(false), true);
            let first = rule_hints(&g, ChainRule::LOOPS, context(true), true);
            let head = |h: &[Hint]| {
                h.first()
                    .map(|h| (h.tech, h.complexity, h.removals.clone()))
            };
            assert_eq!(head(&first), head(&all));
            let xy =
                |h: &Hint| matches!(h.tech, SeTechnique::XYCycle | SeTechnique::ForcingXYChain);
            compared += !all.is_empty() as usize;
            skipped += (all.first().is_some_and(|h| h.diff < 7.0) && all.iter().any(xy)) as usize;
            xy_first += all.first().is_some_and(xy) as usize;
        }
        assert!(
            compared > 50 && skipped > 5 && xy_first > 5,
            "{compared} compared, {skipped} skipping, {xy_first} led by XY"
        );
    }

    /// Whether the reachability sets let any search through is whether some search of
    /// some pass from some candidate of a cell with two or more could find anything.
    #[test]
    fn a_grid_is_searchable_where_some_search_is() {
        let (mut grids, mut searchable) = (0, [0, 0]);
        for (src, g) in reduced_pairs(8) {
            for g in [src, g] {
                let mut reach = Reach::default();
                reach.xy(&g);
                for shortcuts in [false, true] {
                    let some = (0..81)
                        .filter(|&c| g.val()[c] == 0 && g.card(c) >= 2)
                        .flat_map(|c| digits(g.cand()[c]).map(move |d| (c, d)))
                        .flat_map(|(c, d)| {
                            LOOP_PASSES.map(|pass| searches(&g, c, d, pass, &reach, shortcuts))
                        })
                        .any(|s| s.contains(&true));
                    assert_eq!(reach.searchable(shortcuts), some);
                    searchable[shortcuts as usize] += some as usize;
                }
                grids += 1;
            }
        }
        // The shortcuts rule some grids out.
        assert!(
            searchable[1] > 5 && searchable[1] < grids,
            "{searchable:?} of {grids} grids searchable"
        );
    }

    /// A cycle or forcing chain's complexity is its length, so a search bounded by
    /// `most` finds exactly what the full search finds of complexity `most` or less.
    #[test]
    fn bounded_loop_searches_find_the_short_part_of_the_full_ones() {
        let (mut chains, mut cycles) = (0, 0);
        for (_, g) in reduced_pairs(4) {
            let nested = NestedCache::default();
            let context = Context {
                src: None,
                first: false,
                explain: false,
                solution: None,
                nested: &nested,
            };
            let mut reach = Reach::default();
            reach.xy(&g);
            reach.links(&g);
            let mut ch = Chainer::new(ChainRule::LOOPS, context);
            let mut queue = Vec::new();
            for (y, x) in LOOP_PASSES {
                let on_off = reach.on_off.only(2 | y as u8);
                let off_on = reach.off_on.only(y as u8 | (x as u8) << 1);
                for c in (0..81).filter(|&c| g.card(c) >= 2) {
                    for (d, on) in digits(g.cand()[c]).flat_map(|d| [(d, true), (d, false)]) {
                        // What each search finds: its chains' keys and complexities.
                        let mut found = |most: u32| {
                            let mut ar = Arena::default();
                            let source = ar.add(key(c, d, on), C_NONE, &[], None);
                            let mut ends = Vec::new();
                            ch.forcing(&mut ar, source, on_off, off_on, most, &mut ends);
                            if on {
                                ends.extend(ch.cycles(&mut ar, source, on_off, off_on, most));
                            }
                            let q = &mut queue;
                            let found = ends.iter().map(|&t| (ar.key(t), complexity(&ar, &[t], q)));
                            found.collect::<Vec<_>>()
                        };
                        let all = found(u32::MAX);
                        for most in (all.iter()).flat_map(|&(_, n)| [n - 1, n]) {
                            let short: Vec<_> = all.iter().filter(|e| e.1 <= most).collect();
                            let bounded = found(most);
                            assert_eq!(bounded.iter().collect::<Vec<_>>(), short, "{most}");
                        }
                        chains += all.iter().filter(|e| e.0 != key(c, d, on)).count();
                        cycles += all.iter().filter(|e| e.0 == key(c, d, on)).count();
                    }
                }
            }
        }
        assert!(
            chains > 100 && cycles > 100,
            "{chains} chains, {cycles} cycles"
        );
    }
}
