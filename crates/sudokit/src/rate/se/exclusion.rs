//! SE's aligned pair and triplet exclusion (6.2, 7.5).

use super::nested::NestedCache;
use super::{bit, bits, cell_name, digits, peers_mask, rating, Hint, SeGrid, SeTechnique, HOUSE};
use rayon::prelude::*;

/// The first aligned exclusion of `degree` cells (2 or 3) on `g`, alone (the default
/// engine's finder): on a cache of its own, so every combination is searched.
pub(crate) fn aligned_exclusion_hint(g: &SeGrid, degree: usize) -> Option<Hint> {
    let mut out = Vec::new();
    aligned_exclusion(g, degree, &NestedCache::default(), &mut out);
    out.into_iter().next()
}

/// SE's aligned pair/triplet exclusion (`degree` 2 or 3): combinations of candidates of
/// `degree` cells are ruled out when two of them see each other with the same digit or
/// when they would empty a common excluding cell.
///
/// A rating calls it once a step on ever smaller grids, nearly always finding nothing.
/// The cells and excluders a combination's verdict rests on are known, so where none of
/// them changed since a grid on which nothing was found, nothing is found again
/// (`Fresh`): only combinations touching the step's changes are searched.
pub(super) fn aligned_exclusion(
    g: &SeGrid,
    degree: usize,
    cache: &NestedCache,
    out: &mut Vec<Hint>,
) {
    let fresh = Fresh::since(cache.exclusion_empty(degree), g);
    let mut list: Vec<usize> = Vec::new();
    let mut excl: Vec<Vec<usize>> = vec![Vec::new(); 81];
    let mut excl_mask = [0u128; 81];
    for c in 0..81 {
        if g.card(c) < 2 {
            continue;
        }
        let mut single = false;
        let mut ex = Vec::new();
        for &o in &HOUSE[c] {
            let k = g.card(o as usize) as usize;
            if k == 1 {
                single = true;
            } else if k >= 2 && k <= degree {
                ex.push(o as usize);
            }
        }
        if !single && !ex.is_empty() {
            list.push(c);
            excl_mask[c] = ex.iter().fold(0u128, |m, &e| m | 1u128 << e);
            excl[c] = ex;
        }
    }
    if list.len() < degree {
        return;
    }
    let in_list = list.iter().fold(0u128, |m, &c| m | 1u128 << c);
    // SE enumerates pairs by increasing bitmask: (0,1), (0,2), (1,2), (0,3)…, so the
    // pairs ending at one cell come in a row.
    let row = |j: usize| {
        let c1 = list[j];
        list[..j].iter().find_map(|&c0| {
            // Pairs and triplets need two excluders common to all their cells.
            let pair = excl_mask[c0] & excl_mask[c1];
            if pair.count_ones() < 2 {
                return None;
            }
            let cells = 1u128 << c0 | 1 << c1;
            if degree == 2 {
                return fresh
                    .affects(cells, pair)
                    .then(|| exclusion(g, &[c0, c1], &excl_mask))?;
            }
            // A triplet's third cell is one of the pair's excluders, and its common
            // excluders are among the pair's: if none of those could, none can.
            if !fresh.affects(cells | excl_mask[c0] | excl_mask[c1], pair) {
                return None;
            }
            // SE's "twin area": the excluders of both cells that are candidates themselves,
            // in the order the excluder lists give them, each once.
            let first = excl[c0].iter().filter(|&&e| e != c1);
            let second = excl[c1].iter().filter(|&&e| excl_mask[c0] >> e & 1 == 0);
            first
                .chain(second)
                .filter(|&&t| in_list >> t & 1 != 0 && (pair & excl_mask[t]).count_ones() >= 2)
                .filter(|&&t| fresh.affects(cells | 1 << t, pair & excl_mask[t]))
                .find_map(|&t| exclusion(g, &[c0, c1, t], &excl_mask))
        })
    };
    // Triplets are thousands a grid, where nearly every rating step that gets this far
    // finds none: their rows are searched on all threads, the first hint kept.
    let found = match degree {
        2 => (1..list.len()).find_map(row),
        _ => (1..list.len()).into_par_iter().find_map_first(row),
    };
    if found.is_none() {
        cache.set_exclusion_empty(degree, g);
    }
    out.extend(found);
}

/// What changed since a grid on which aligned exclusion found nothing: which
/// combinations could remove something now. A combination's verdict rests on its cells'
/// candidates and its common excluders (peers of all its cells with two to `degree`
/// candidates); it is searched only if its cells have no peer left with one candidate.
/// Grids only lose candidates, and a combination that loses an excluder, or whose cells
/// lose one or gain a peer with one candidate, allows more and removes less: nothing
/// still. What can make it remove something is a change to one of its cells or common
/// excluders (one new among them changed too), or a peer with one candidate filled.
struct Fresh {
    /// Cells whose candidates changed, and peers of cells that had one and now have none.
    touched: u128,
    /// Cells whose candidates changed.
    changed: u128,
}

impl Fresh {
    /// The changes from `last`, if `g` has only fewer candidates (else everything counts
    /// as changed).
    fn since(last: Option<[u16; 81]>, g: &SeGrid) -> Fresh {
        let everything = Fresh {
            touched: u128::MAX,
            changed: u128::MAX,
        };
        let Some(last) = last else {
            return everything;
        };
        if (0..81).any(|c| g.cand()[c] & !last[c] != 0) {
            return everything;
        }
        let (mut touched, mut changed) = (0u128, 0u128);
        for c in (0..81).filter(|&c| g.cand()[c] != last[c]) {
            changed |= 1 << c;
            if last[c].count_ones() == 1 {
                touched |= peers_mask(c);
            }
        }
        Fresh {
            touched: touched | changed,
            changed,
        }
    }

    /// Whether the combination of `cells` (a mask) with common excluders `common` could
    /// remove something now.
    fn affects(&self, cells: u128, common: u128) -> bool {
        cells & self.touched != 0 || common & self.changed != 0
    }
}

/// The aligned exclusion hint on `cells` (2 or 3), if it removes anything: a candidate
/// goes when no allowed combination of the cells' digits uses it.
///
/// A combination is ruled out when it holds every candidate of a common excluder. Given
/// the first two cells' digits, what that leaves of an excluder rules out every third
/// digit (nothing left) or one (one left), so each pair of digits is settled at once for
/// all third digits: the triplets that remove nothing, nearly all, are told apart in a
/// fraction of the full enumeration (`exclusion_by_combinations` in the tests).
pub(super) fn exclusion(g: &SeGrid, cells: &[usize], excl_mask: &[u128; 81]) -> Option<Hint> {
    let common = cells.iter().fold(u128::MAX, |m, &c| m & excl_mask[c]);
    if common.count_ones() < 2 {
        return None;
    }
    let all: [u16; 3] = std::array::from_fn(|i| cells.get(i).map_or(0, |&c| g.cand()[c]));
    let union = all[0] | all[1] | all[2];
    // An excluder holding a digit none of the cells has is never emptied: it rules out
    // nothing, and is left out.
    let mut ex = [0u16; 20];
    let mut ne = 0;
    for e in bits(common).take(ex.len()) {
        if g.cand()[e] & !union == 0 {
            ex[ne] = g.cand()[e];
            ne += 1;
        }
    }
    let ex = &ex[..ne];
    let k = cells.len();
    let sees = |a: usize, b: usize| peers_mask(cells[a]) >> cells[b] & 1 != 0;
    let see = [sees(0, 1), k > 2 && sees(0, 2), k > 2 && sees(1, 2)];
    let mut allowed = [0u16; 3];
    for d0 in digits(all[0]) {
        let b0 = bit(d0);
        let seconds = if see[0] { all[1] & !b0 } else { all[1] };
        for d1 in digits(seconds) {
            let pair = b0 | bit(d1);
            // The third digits this pair allows (one pass with none for a pair of cells).
            let mut third = if k > 2 { all[2] } else { 1 };
            if see[1] {
                third &= !b0;
            }
            if see[2] {
                third &= !bit(d1);
            }
            for &e in ex {
                let rest = e & !pair;
                if rest == 0 {
                    third = 0;
                } else if k > 2 && rest & (rest - 1) == 0 {
                    third &= !rest;
                }
            }
            if third == 0 {
                continue;
            }
            allowed[0] |= b0;
            allowed[1] |= bit(d1);
            if k > 2 {
                allowed[2] |= third;
            }
            // Every candidate allowed: nothing to remove, whatever else is allowed.
            if allowed == all {
                return None;
            }
        }
    }
    let mut removals = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        for d in digits(g.cand()[c] & !allowed[i]) {
            removals.push((c as u8, d));
        }
    }
    if removals.is_empty() {
        return None;
    }
    let (tech, diff) = if k == 2 {
        (
            SeTechnique::AlignedPairExclusion,
            rating::ALIGNED_PAIR_EXCLUSION,
        )
    } else {
        (
            SeTechnique::AlignedTripletExclusion,
            rating::ALIGNED_TRIPLET_EXCLUSION,
        )
    };
    let mut h = Hint::new(tech, diff);
    h.removals = removals;
    let names: Vec<String> = cells.iter().map(|&c| cell_name(c)).collect();
    h.text = format!("cells {}", names.join(","));
    Some(h)
}

#[cfg(test)]
mod tests {
    use super::super::tests::reduced_pairs;
    use super::*;

    /// SE's enumeration as it is: every combination of the cells' digits, each checked
    /// against every common excluder; the removals, if any.
    fn exclusion_by_combinations(g: &SeGrid, cells: &[usize], excl: &[u128; 81]) -> Vec<(u8, u8)> {
        let common = cells.iter().fold(u128::MAX, |m, &c| m & excl[c]);
        if common.count_ones() < 2 {
            return Vec::new();
        }
        let ex: Vec<u16> = bits(common).map(|e| g.cand()[e]).collect();
        let sees = |a: usize, b: usize| peers_mask(cells[a]) >> cells[b] & 1 != 0;
        let mut allowed = vec![0u16; cells.len()];
        let mut combo = vec![0u8; cells.len()];
        fn walk(
            g: &SeGrid,
            cells: &[usize],
            i: usize,
            combo: &mut [u8],
            ok: &dyn Fn(&[u8]) -> bool,
            allowed: &mut [u16],
        ) {
            if i == cells.len() {
                if ok(combo) {
                    for (a, &d) in allowed.iter_mut().zip(combo.iter()) {
                        *a |= bit(d);
                    }
                }
                return;
            }
            for d in digits(g.cand()[cells[i]]) {
                combo[i] = d;
                walk(g, cells, i + 1, combo, ok, allowed);
            }
        }
        let ok = |combo: &[u8]| {
            let n = combo.len();
            let clash = (0..n).any(|a| (a + 1..n).any(|b| combo[a] == combo[b] && sees(a, b)));
            let used = combo.iter().fold(0u16, |m, &d| m | bit(d));
            !clash && !ex.iter().any(|&e| e & !used == 0)
        };
        walk(g, cells, 0, &mut combo, &ok, &mut allowed);
        let mut removals = Vec::new();
        for (i, &c) in cells.iter().enumerate() {
            removals.extend(digits(g.cand()[c] & !allowed[i]).map(|d| (c as u8, d)));
        }
        removals
    }

    /// The digit pairs settled at once for every third digit give the removals the full
    /// enumeration gives, on every pair and triplet of cells with two common excluders.
    #[test]
    fn exclusion_agrees_with_every_combination() {
        let (mut checked, mut removing) = (0, 0);
        for (_, g) in reduced_pairs(3) {
            for degree in [2, 3] {
                let live: Vec<usize> = (0..81).filter(|&c| g.card(c) >= 2).collect();
                let mut excl = [0u128; 81];
                for &c in &live {
                    for &o in &HOUSE[c] {
                        if (2..=degree as u32).contains(&g.card(o as usize)) {
                            excl[c] |= 1 << o;
                        }
                    }
                }
                let mut sets: Vec<Vec<usize>> = Vec::new();
                for (j, &b) in live.iter().enumerate() {
                    for &a in &live[..j] {
                        if degree == 2 {
                            sets.push(vec![a, b]);
                            continue;
                        }
                        let pair = excl[a] & excl[b];
                        for t in bits(pair & !(1 << a | 1 << b)) {
                            if (pair & excl[t]).count_ones() >= 2 && g.card(t) >= 2 {
                                sets.push(vec![a, b, t]);
                            }
                        }
                    }
                }
                for cells in sets {
                    let fast = exclusion(&g, &cells, &excl).map_or(Vec::new(), |h| h.removals);
                    let full = exclusion_by_combinations(&g, &cells, &excl);
                    assert_eq!(fast, full, "cells {cells:?}");
                    checked += 1;
                    removing += !full.is_empty() as usize;
                }
            }
        }
        assert!(
            removing > 0 && checked > 10 * removing,
            "{removing} of {checked}"
        );
    }

    /// A search told what changed since a grid on which it found nothing finds what a
    /// search from scratch finds, on grids losing candidates one at a time, now and then
    /// leaving a cell one (which keeps its peers out of the search) and then filling it.
    #[test]
    fn search_since_an_empty_grid_agrees_with_a_full_one() {
        let (mut found, mut skipped) = (0, 0);
        for (src, end) in reduced_pairs(4) {
            let removed: Vec<(usize, u16)> = (0..81)
                .flat_map(|c| bits(src.cand()[c] & !end.cand()[c]).map(move |i| (c, 1 << i)))
                .collect();
            for degree in [2, 3] {
                let cache = NestedCache::default();
                let (mut val, mut cand) = (*src.val(), *src.cand());
                for (i, &(c, b)) in removed.iter().take(60).enumerate() {
                    cand[c] &= !b;
                    if i % 8 == 3 && val[c] == 0 && cand[c] != 0 {
                        cand[c] &= cand[c].wrapping_neg();
                    }
                    if i % 8 == 4 {
                        for o in 0..81 {
                            if val[o] == 0 && cand[o].count_ones() == 1 {
                                val[o] = cand[o].trailing_zeros() as u8 + 1;
                                cand[o] = 0;
                            }
                        }
                    }
                    let g = SeGrid::from_parts(&val, &cand);
                    let before = cache.exclusion_empty(degree);
                    let (mut fast, mut full) = (Vec::new(), Vec::new());
                    aligned_exclusion(&g, degree, &cache, &mut fast);
                    aligned_exclusion(&g, degree, &NestedCache::default(), &mut full);
                    let removals =
                        |h: &Vec<Hint>| h.iter().map(|h| h.removals.clone()).collect::<Vec<_>>();
                    assert_eq!(removals(&fast), removals(&full), "degree {degree}");
                    found += (!full.is_empty() && before.is_some()) as usize;
                    skipped += before.is_some() as usize;
                }
            }
        }
        assert!(
            found > 10 && skipped > found,
            "{found} found, {skipped} told of changes"
        );
    }
}
