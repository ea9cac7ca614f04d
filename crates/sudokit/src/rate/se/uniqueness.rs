//! SE's uniqueness rules: unique rectangles and loops (types 1–4) and bivalue universal
//! graves (4.5–5.7+). They assume the puzzle has one solution, as `rate` checks.

use super::basic::common_tuple;
use super::{
    bit, bits, cell_name, digits, in_region, peers_mask, rating, region_name, subsets, Hint,
    SeGrid, SeTechnique, BLOCK, COL, CR, HOUSE, POS, RC, RM, ROW,
};

/// A unique-loop hint with what SE's equality compares (class, cell set, extra key).
pub(super) struct UlHint {
    pub(super) hint: Hint,
    pub(super) class: u8,
    pub(super) ltype: u8,
    pub(super) cells: u128,
    pub(super) len: usize,
    pub(super) key: (u8, u16, u16),
}

pub(super) fn loop_diff(len: usize) -> f64 {
    let mut d = rating::UNIQUE_LOOP;
    if len >= 10 {
        d += 0.3;
    }
    if len >= 8 {
        d += 0.2;
    } else if len >= 6 {
        d += 0.1;
    }
    d
}

/// The block, row and column of a cell as bits of the 27 houses.
pub(super) fn house_bits(c: usize) -> u32 {
    CR[c].iter().fold(0, |m, &r| m | 1 << r)
}

/// SE's `checkForLoops`: every valid path of cells holding both `v1` and `v2` that returns
/// to its first cell, in SE's order. `seen` holds the houses of the path's cells at even and
/// at odd places: a path that puts two cells of one house at places of the same parity is no
/// valid loop (`valid_loop`), nor is any loop it leads to, so it is not followed, and a
/// closed path is valid when both hold the same houses. SE follows every path and rejects
/// loops at the end; which valid loops are found, and in what order, is the same, without
/// the search's exponential dead ends. `free` holds the cells with both digits not on the
/// path yet.
#[allow(clippy::too_many_arguments)]
pub(super) fn check_for_loops(
    g: &SeGrid,
    cell: usize,
    v1: u8,
    v2: u8,
    lp: &mut Vec<u8>,
    free: u128,
    seen: [u32; 2],
    allowed: i32,
    ex_in: u16,
    last: Option<usize>,
    results: &mut Vec<Vec<u8>>,
) {
    lp.push(cell as u8);
    let free = free & !(1 << cell);
    let parity = lp.len() % 2;
    let mut ex = ex_in;
    let both = bit(v1) | bit(v2);
    // From the fourth cell on, the first closes the loop.
    let first = match lp.len() >= 4 {
        true => 1u128 << lp[0],
        false => 0,
    };
    for t in [BLOCK, ROW, COL] {
        if Some(t) == last {
            continue;
        }
        let r = CR[cell][t] as usize;
        // Houses list their cells in index order, as the bits run.
        for next in bits(RM[r] & (free | first)) {
            if first >> next & 1 != 0 {
                if seen[0] == seen[1] {
                    results.push(lp.clone());
                }
            } else {
                let p = g.cand()[next];
                ex |= p;
                ex &= !both;
                let card = p.count_ones();
                let houses = house_bits(next);
                if (card == 2 || ex.count_ones() == 1 || allowed > 0) && seen[parity] & houses == 0
                {
                    let na = if card > 2 { allowed - 1 } else { allowed };
                    let mut seen = seen;
                    seen[parity] |= houses;
                    let to = Some(t);
                    check_for_loops(g, next, v1, v2, lp, free, seen, na, ex, to, results);
                }
            }
        }
    }
    lp.pop();
}

/// The valid loops of `check_for_loops` from bivalue cell `c` (digits `v1`, `v2`), as SE
/// starts its search: up to two cells with extra candidates, or any number sharing one.
pub(super) fn loops_from(g: &SeGrid, c: usize, v1: u8, v2: u8) -> Vec<Vec<u8>> {
    let mut results = Vec::new();
    let seen = [house_bits(c), 0];
    let free = g.digit_cells()[v1 as usize - 1] & g.digit_cells()[v2 as usize - 1];
    check_for_loops(
        g,
        c,
        v1,
        v2,
        &mut Vec::new(),
        free,
        seen,
        2,
        0,
        None,
        &mut results,
    );
    results
}

pub(super) fn loop_text(lp: &[u8], v1: u8, v2: u8) -> String {
    let cells: Vec<String> = lp.iter().map(|&c| cell_name(c as usize)).collect();
    format!("loop {} on {v1},{v2}", cells.join(","))
}

pub(super) fn unique_loops(g: &SeGrid, out: &mut Vec<Hint>) {
    let mut hints: Vec<UlHint> = Vec::new();
    let push = |hints: &mut Vec<UlHint>, h: UlHint| {
        let dup = hints.iter().any(|o| {
            o.class == h.class
                && o.len == h.len
                && o.cells == h.cells
                && (h.class != 4 || o.key == h.key)
        });
        if !dup && !h.hint.removals.is_empty() {
            hints.push(h);
        }
    };
    for c in 0..81 {
        if g.card(c) != 2 {
            continue;
        }
        let mut ds = digits(g.cand()[c]);
        let (v1, v2) = (ds.next().unwrap_or(1), ds.next().unwrap_or(1));
        let both = bit(v1) | bit(v2);
        for lp in loops_from(g, c, v1, v2) {
            let cells = lp.iter().fold(0u128, |m, &c| m | 1u128 << c);
            let extra: Vec<usize> = lp
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| g.card(c) > 2)
                .collect();
            let base = loop_diff(lp.len());
            let mk = |ltype: u8,
                      class: u8,
                      diff: f64,
                      removals: Vec<(u8, u8)>,
                      key: (u8, u16, u16),
                      what: String| {
                let mut h = Hint::new(SeTechnique::UniqueLoop(ltype), diff);
                h.removals = removals;
                h.text = format!("{}{what}", loop_text(&lp, v1, v2));
                UlHint {
                    hint: h,
                    class,
                    ltype,
                    cells,
                    len: lp.len(),
                    key,
                }
            };
            let type2 = |extra: &[usize]| {
                let value = (g.cand()[extra[0]] & !both).trailing_zeros() as u8 + 1;
                let mut common = u128::MAX;
                for &e in extra {
                    common &= peers_mask(e);
                }
                let removals: Vec<(u8, u8)> = (0..81)
                    .filter(|&o| common >> o & 1 != 0 && !extra.contains(&o) && g.has(o, value))
                    .map(|o| (o as u8, value))
                    .collect();
                (removals, value)
            };
            match extra.len() {
                1 => {
                    let e = extra[0] as u8;
                    let h = mk(1, 1, base, vec![(e, v1), (e, v2)], (0, 0, 0), String::new());
                    push(&mut hints, h);
                }
                n if n > 2 => {
                    let (removals, value) = type2(&extra);
                    push(
                        &mut hints,
                        mk(2, 2, base, removals, (0, 0, 0), format!(", extra {value}")),
                    );
                }
                2 => {
                    let (r1, r2) = (extra[0], extra[1]);
                    let rp = (g.cand()[r1] | g.cand()[r2]) & !both;
                    if rp.count_ones() == 1 {
                        let (removals, value) = type2(&extra);
                        push(
                            &mut hints,
                            mk(2, 2, base, removals, (0, 0, 0), format!(", extra {value}")),
                        );
                    } else if rp.count_ones() >= 2 {
                        for (class, ltype, diff, removals, key, what) in
                            type3(g, r1, r2, v1, v2, base)
                        {
                            push(&mut hints, mk(ltype, class, diff, removals, key, what));
                        }
                    }
                    if let Some((removals, what)) = type4(g, r1, r2, v1, v2) {
                        push(&mut hints, mk(4, 5, base, removals, (0, 0, 0), what));
                    }
                }
                _ => {}
            }
        }
    }
    // Stable sort by difficulty, then type, as SE does.
    hints.sort_by(|a, b| {
        a.hint
            .diff
            .total_cmp(&b.hint.diff)
            .then(a.ltype.cmp(&b.ltype))
    });
    if let Some(h) = hints.into_iter().next() {
        out.push(h.hint);
    }
}

pub(super) type Ul3 = (u8, u8, f64, Vec<(u8, u8)>, (u8, u16, u16), String);

pub(super) fn type3(g: &SeGrid, c1: usize, c2: usize, v1: u8, v2: u8, base: f64) -> Vec<Ul3> {
    let mut res = Vec::new();
    let both = bit(v1) | bit(v2);
    let extra = (g.cand()[c1] | g.cand()[c2]) & !both;
    for degree in extra.count_ones()..=7 {
        for t in [BLOCK, ROW, COL] {
            let r = CR[c1][t] as usize;
            if r != CR[c2][t] as usize {
                continue;
            }
            let n = g.empty_count(r);
            let (i1, i2) = (POS[c1][t] as usize, POS[c2][t] as usize);
            if degree * 2 <= n {
                for im in subsets(degree, 9) {
                    if im >> i1 & 1 == 0 || im >> i2 & 1 != 0 {
                        continue;
                    }
                    let mut naked = extra & g.cand()[c1] & g.cand()[c2];
                    let mut pots = Vec::new();
                    let mut others = 0u32;
                    for k in bits(im) {
                        if k == i1 {
                            pots.push(extra);
                        } else {
                            let p = g.cand()[RC[r][k] as usize];
                            pots.push(p);
                            naked |= p;
                            others |= 1 << k;
                        }
                    }
                    if naked.count_ones() != degree {
                        continue;
                    }
                    let Some(common) = common_tuple(&pots, degree) else {
                        continue;
                    };
                    let mut removals = Vec::new();
                    for (k, &o) in RC[r].iter().enumerate() {
                        let o = o as usize;
                        if others >> k & 1 == 0 && o != c1 && o != c2 {
                            for d in digits(g.cand()[o] & common) {
                                removals.push((o as u8, d));
                            }
                        }
                    }
                    if !removals.is_empty() {
                        let diff = base + (common.count_ones() as f64 - 1.0) * 0.1;
                        let ds: Vec<String> = digits(common).map(|d| d.to_string()).collect();
                        res.push((
                            3,
                            3,
                            diff,
                            removals,
                            (0, 0, 0),
                            format!(", naked set {} in {}", ds.join(","), region_name(r)),
                        ));
                    }
                }
            }
            if degree * 2 < n {
                let rem_values: Vec<u8> = (1..=9u8)
                    .filter(|&v| v != v1 && v != v2 && extra & bit(v) == 0)
                    .collect();
                if degree as usize >= 2 && degree as usize - 2 <= rem_values.len() {
                    for pm in subsets(degree - 2, rem_values.len() as u32) {
                        let mut values: Vec<u8> = bits(pm).map(|k| rem_values[k]).collect();
                        values.push(v1);
                        values.push(v2);
                        let mut u = 0u16;
                        let mut ok = true;
                        for &v in &values {
                            let p = g.pos(r, v) & !(1 << i2);
                            if p == 0 {
                                ok = false;
                            }
                            u |= p;
                        }
                        if !ok || u.count_ones() != degree {
                            continue;
                        }
                        let hidden: u16 = values.iter().fold(0, |m, &v| m | bit(v));
                        let idxs = u & !(1 << i1) & !(1 << i2);
                        let mut removals = Vec::new();
                        for k in bits(idxs) {
                            let o = RC[r][k] as usize;
                            for d in digits(g.cand()[o] & !hidden) {
                                removals.push((o as u8, d));
                            }
                        }
                        if !removals.is_empty() {
                            let diff = base + (idxs.count_ones() as f64 - 1.0) * 0.1;
                            let ds: Vec<String> = digits(hidden).map(|d| d.to_string()).collect();
                            res.push((
                                4,
                                3,
                                diff,
                                removals,
                                (r as u8, hidden, idxs),
                                format!(", hidden set {} in {}", ds.join(","), region_name(r)),
                            ));
                        }
                    }
                }
            }
        }
    }
    res
}

pub(super) fn type4(
    g: &SeGrid,
    c1: usize,
    c2: usize,
    v1: u8,
    v2: u8,
) -> Option<(Vec<(u8, u8)>, String)> {
    let (mut r1, mut r2) = (None, None);
    for t in [BLOCK, ROW, COL] {
        let r = CR[c1][t] as usize;
        if r != CR[c2][t] as usize {
            continue;
        }
        let others = RC[r]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| c != c1 && c != c2);
        let (mut h1, mut h2) = (false, false);
        for o in others {
            h1 |= g.has(o, v1);
            h2 |= g.has(o, v2);
        }
        if !h1 {
            r1 = Some(r);
        }
        if !h2 {
            r2 = Some(r);
        }
    }
    let (r, lock, remv) = match (r1, r2) {
        (Some(r), _) => (r, v1, v2),
        (None, Some(r)) => (r, v2, v1),
        _ => return None,
    };
    let removals = vec![(c1 as u8, remv), (c2 as u8, remv)];
    Some((removals, format!(", {lock} locked in {}", region_name(r))))
}

/// SE's bivalue universal grave rule, types 1–4.
pub(super) fn bug(g: &SeGrid, out: &mut Vec<Hint>) {
    let mut temp = g.clone();
    let mut bug_cells: Vec<usize> = Vec::new();
    let mut bug_values = [0u16; 81];
    let mut all: u16 = 0;
    let mut common: Option<u128> = None;
    for t in [BLOCK, ROW, COL] {
        for i in 0..9 {
            let r = t * 9 + i;
            for d in 1..=9u8 {
                let p = g.pos(r, d);
                let card = p.count_ones();
                if card == 0 || card == 2 {
                    continue;
                }
                let nb: Vec<usize> = bits(p)
                    .map(|k| RC[r][k] as usize)
                    .filter(|&c| g.card(c) >= 3)
                    .collect();
                if nb.len() == 1 {
                    let c = nb[0];
                    if !bug_cells.contains(&c) {
                        bug_cells.push(c);
                    }
                    bug_values[c] |= bit(d);
                    all |= bit(d);
                    temp.remove(c, d);
                    let cm = common.get_or_insert(peers_mask(c));
                    *cm &= peers_mask(c);
                    for &b in &bug_cells {
                        *cm &= !(1u128 << b);
                    }
                    if bug_cells.len() > 1 && all.count_ones() > 1 && *cm == 0 {
                        return;
                    }
                }
                if nb.is_empty() {
                    return;
                }
            }
        }
    }
    for c in 0..81 {
        if temp.val()[c] == 0 && temp.card(c) != 2 {
            return;
        }
    }
    for r in 0..27 {
        for d in 1..=9 {
            let card = temp.pos(r, d).count_ones();
            if card != 0 && card != 2 {
                return;
            }
        }
    }
    let common_list = |cm: u128| -> Vec<usize> {
        // SE keeps the common cells in the house order of the first BUG cell.
        HOUSE[bug_cells[0]]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| cm >> c & 1 != 0)
            .collect()
    };
    let names: Vec<String> = bug_cells.iter().map(|&c| cell_name(c)).collect();
    if bug_cells.len() == 1 {
        let c = bug_cells[0];
        let mut h = Hint::new(SeTechnique::Bug(1), rating::BUG_TYPE_1);
        h.removals = digits(g.cand()[c] & !all).map(|d| (c as u8, d)).collect();
        h.text = format!("BUG cell {}", names[0]);
        if !h.removals.is_empty() {
            out.push(h);
        }
        return;
    }
    let cm = common.unwrap_or(0);
    if all.count_ones() == 1 {
        let value = all.trailing_zeros() as u8 + 1;
        if cm != 0 {
            let removals: Vec<(u8, u8)> = common_list(cm)
                .into_iter()
                .filter(|&c| g.has(c, value))
                .map(|c| (c as u8, value))
                .collect();
            if !removals.is_empty() {
                let mut h = Hint::new(SeTechnique::Bug(2), rating::BUG);
                h.removals = removals;
                h.text = format!("BUG cells {} on {value}", names.join(","));
                out.push(h);
                return;
            }
        }
        if bug_cells.len() == 2 {
            bug4(g, &bug_cells, &bug_values, all, out);
        }
    } else if cm != 0 {
        if bug_cells.len() == 2 {
            bug4(g, &bug_cells, &bug_values, all, out);
            if !out.is_empty() {
                return;
            }
        }
        let region_cells_all = common_list(cm);
        for t in [BLOCK, ROW, COL] {
            let r = CR[bug_cells[0]][t] as usize;
            if bug_cells.iter().any(|&c| CR[c][t] as usize != r) {
                continue;
            }
            let rc: Vec<usize> = region_cells_all
                .iter()
                .copied()
                .filter(|&c| in_region(c, r))
                .collect();
            for degree in 2..=6u32 {
                if (rc.len() as u32) < degree {
                    continue;
                }
                for pm in subsets(degree - 1, rc.len() as u32) {
                    let naked: Vec<usize> = bits(pm).map(|k| rc[k]).collect();
                    let mut pots: Vec<u16> = naked.iter().map(|&c| g.cand()[c]).collect();
                    let other = pots.iter().fold(0, |m, &p| m | p);
                    pots.push(all);
                    if other.count_ones() != degree {
                        continue;
                    }
                    let Some(set) = common_tuple(&pots, degree) else {
                        continue;
                    };
                    let mut removals = Vec::new();
                    for &c in &rc {
                        if naked.contains(&c) || bug_cells.contains(&c) {
                            continue;
                        }
                        for d in digits(g.cand()[c] & set) {
                            removals.push((c as u8, d));
                        }
                    }
                    if !removals.is_empty() {
                        let mut h = Hint::new(
                            SeTechnique::Bug(3),
                            rating::BUG + (set.count_ones() as f64 - 1.0) * 0.1,
                        );
                        h.removals = removals;
                        h.text = format!(
                            "BUG cells {} with a naked set in {}",
                            names.join(","),
                            region_name(r)
                        );
                        out.push(h);
                        return;
                    }
                }
            }
        }
    }
}

pub(super) fn bug4(g: &SeGrid, cells: &[usize], extra: &[u16; 81], all: u16, out: &mut Vec<Hint>) {
    let (c1, c2) = (cells[0], cells[1]);
    let common = g.cand()[c1] & g.cand()[c2] & !all;
    if common.count_ones() != 1 {
        return;
    }
    for t in [BLOCK, ROW, COL] {
        if CR[c1][t] != CR[c2][t] {
            continue;
        }
        let value = common.trailing_zeros() as u8 + 1;
        let b1 = g.cand()[c1] & !extra[c1] & !bit(value);
        let b2 = g.cand()[c2] & !extra[c2] & !bit(value);
        let mut h = Hint::new(SeTechnique::Bug(4), rating::BUG);
        h.removals = digits(b1)
            .map(|d| (c1 as u8, d))
            .chain(digits(b2).map(|d| (c2 as u8, d)))
            .collect();
        h.text = format!(
            "BUG cells {},{} locked on {value}",
            cell_name(c1),
            cell_name(c2)
        );
        if !h.removals.is_empty() {
            out.push(h);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::se_rate;
    use super::super::tests::reduced_pairs;
    use super::super::MAX_LEVEL;
    use super::*;
    use crate::grid::Grid;

    /// SE's test of a closed path: each house it enters holds two of its cells, one at
    /// an even place and one at an odd.
    fn valid_loop(lp: &[u8]) -> bool {
        let (mut odd, mut even) = (0u32, 0u32);
        let mut is_odd = false;
        for &c in lp {
            for &r in &CR[c as usize] {
                let set = if is_odd { &mut odd } else { &mut even };
                if *set >> r & 1 != 0 {
                    return false;
                }
                *set |= 1 << r;
            }
            is_odd = !is_odd;
        }
        odd == even
    }

    /// The unique-loop search finds the valid loops SE's unpruned search finds, in its order.
    #[test]
    fn pruned_loop_search_finds_what_the_full_search_finds() {
        // SE's search as it is: every path, loops checked at the end.
        #[allow(clippy::too_many_arguments)]
        fn full(
            g: &SeGrid,
            cell: usize,
            v: (u8, u8),
            lp: &mut Vec<u8>,
            allowed: i32,
            ex_in: u16,
            last: Option<usize>,
            out: &mut Vec<Vec<u8>>,
        ) {
            lp.push(cell as u8);
            let mut ex = ex_in;
            let both = bit(v.0) | bit(v.1);
            for t in [BLOCK, ROW, COL] {
                if Some(t) == last {
                    continue;
                }
                for &next in &RC[CR[cell][t] as usize] {
                    if lp[0] == next && lp.len() >= 4 {
                        out.push(lp.clone());
                    } else if !lp.contains(&next) && g.cand()[next as usize] & both == both {
                        let p = g.cand()[next as usize];
                        ex = (ex | p) & !both;
                        if p.count_ones() == 2 || ex.count_ones() == 1 || allowed > 0 {
                            let na = if p.count_ones() > 2 {
                                allowed - 1
                            } else {
                                allowed
                            };
                            full(g, next as usize, v, lp, na, ex, Some(t), out);
                        }
                    }
                }
            }
            lp.pop();
        }
        let mut grids: Vec<SeGrid> = reduced_pairs(6).into_iter().map(|(_, g)| g).collect();
        // Every grid on the way through a 17-clue puzzle where the full search follows
        // millions of paths.
        let many: Grid =
            "........1.....2..3..4.5..........46...2.......3...1.......2.....1......77..64.8.."
                .parse()
                .expect("test puzzle");
        let mut g = SeGrid::from_values(many.values());
        for h in se_rate(&many, None, MAX_LEVEL, false).steps {
            grids.push(g.clone());
            h.apply(&mut g);
        }
        let (mut found, mut paths) = (0, 0);
        for g in &grids {
            for c in (0..81).filter(|&c| g.card(c) == 2) {
                let mut ds = digits(g.cand()[c]);
                let v = (ds.next().unwrap_or(1), ds.next().unwrap_or(1));
                let mut a = Vec::new();
                full(g, c, v, &mut Vec::new(), 2, 0, None, &mut a);
                let b = loops_from(g, c, v.0, v.1);
                paths += a.len();
                a.retain(|lp| valid_loop(lp));
                assert!(b.iter().all(|lp| valid_loop(lp)), "{}", cell_name(c));
                assert_eq!(a, b, "loops from {}", cell_name(c));
                found += a.len();
            }
        }
        assert!(found > 100, "only {found} loops to compare, {paths} paths");
    }
}
