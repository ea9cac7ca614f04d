//! SE's direct rules: singles, intersections, naked and hidden subsets, fish, XY- and
//! XYZ-Wings (1.0–5.4), each producing hints in SE's order.

use super::{
    at_most_one_bit, bit, bits, cell_name, combos, crosses, digits, peers_mask, rating,
    region_name, Context, Hint, SeGrid, SeTechnique, BLOCK, COL, CR, HOUSE, RC, RM, ROW,
};

pub(super) fn hidden_single(g: &SeGrid, out: &mut Vec<Hint>) {
    for alone in [true, false] {
        for t in [BLOCK, COL, ROW] {
            for i in 0..9 {
                let r = t * 9 + i;
                for d in 1..=9 {
                    let p = g.pos(r, d);
                    if p.count_ones() == 1 {
                        let c = RC[r][p.trailing_zeros() as usize] as usize;
                        if (g.empty_count(r) == 1) == alone {
                            let (tech, diff) = if alone {
                                (SeTechnique::FullHouse, rating::FULL_HOUSE)
                            } else if t == BLOCK {
                                (SeTechnique::HiddenSingle, rating::HIDDEN_SINGLE_IN_BLOCK)
                            } else {
                                (SeTechnique::HiddenSingle, rating::HIDDEN_SINGLE_IN_LINE)
                            };
                            let mut h = Hint::new(tech, diff);
                            h.place = Some((c as u8, d));
                            h.text = format!(
                                "{}={d}: only place for {d} in {}",
                                cell_name(c),
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
}

pub(super) fn naked_single(g: &SeGrid, out: &mut Vec<Hint>) {
    for c in 0..81 {
        if g.card(c) == 1 {
            let d = g.cand()[c].trailing_zeros() as u8 + 1;
            let mut h = Hint::new(SeTechnique::NakedSingle, rating::NAKED_SINGLE);
            h.place = Some((c as u8, d));
            h.text = format!("{}={d}: only candidate left in the cell", cell_name(c));
            out.push(h);
            return;
        }
    }
}

/// Per digit, the cells that lost it since the start of the nested chain `context` is in
/// (every cell outside one): inside a chain a simple rule counts only if it rests on one.
pub(super) fn lost_since(g: &SeGrid, context: Context) -> [u128; 9] {
    std::array::from_fn(|i| {
        context
            .src
            .map_or(u128::MAX, |src| g.lost(src, i as u8 + 1))
    })
}

/// Locked candidates (SE's `Locking`): `direct` only reports those that give a hidden
/// single in a parallel house at once.
pub(super) fn locking(g: &SeGrid, direct: bool, context: Context, out: &mut Vec<Hint>) {
    let lost = lost_since(g, context);
    let changed = lost.iter().fold(0, |m, l| m | l);
    for (t1, t2) in [(BLOCK, COL), (BLOCK, ROW), (COL, BLOCK), (ROW, BLOCK)] {
        for i1 in 0..9 {
            let r1 = t1 * 9 + i1;
            // Inside a nested chain, most houses lost no place of any digit.
            if changed & RM[r1] == 0 {
                continue;
            }
            // The digits whose places in `r1` (two or more) all lie in one house `r2` of
            // the other type, in SE's order: by `r2`, then digit; with the places the
            // digit lost in `r1` outside `r2`.
            let mut locked = [(0usize, 0u8, 0u128); 9];
            let mut n = 0;
            for d in 1..=9u8 {
                let cells = g.cells(r1, d);
                // Inside a nested chain, most houses lost no place of the digit.
                if at_most_one_bit(cells) || lost[d as usize - 1] & RM[r1] == 0 {
                    continue;
                }
                let r2 = CR[cells.trailing_zeros() as usize][t2] as usize;
                // Inside a nested chain only rules resting on a removed candidate count:
                // here, one of the digit's places in `r1` outside `r2`.
                let gone = lost[d as usize - 1] & RM[r1] & !RM[r2];
                if cells & !RM[r2] != 0 || gone == 0 {
                    continue;
                }
                locked[n] = (r2, d, gone);
                n += 1;
            }
            locked[..n].sort_unstable();
            for &(r2, d, gone) in &locked[..n] {
                let victims = g.cells(r2, d) & !RM[r1];
                let pointing = t1 == BLOCK;
                if direct {
                    for i3 in 0..9 {
                        let r3 = t1 * 9 + i3;
                        if i3 == i1 || !crosses(r3, r2) {
                            continue;
                        }
                        let c3 = g.cells(r3, d);
                        let outside = c3 & !RM[r2];
                        if at_most_one_bit(c3) || outside == 0 || !at_most_one_bit(outside) {
                            continue;
                        }
                        let single = outside.trailing_zeros() as usize;
                        let (tech, diff) = if pointing {
                            (SeTechnique::DirectPointing, rating::DIRECT_POINTING)
                        } else {
                            (SeTechnique::DirectClaiming, rating::DIRECT_CLAIMING)
                        };
                        // As SE's direct hints do, this one places its single and
                        // removes nothing else: the locked candidates stay.
                        let mut h = Hint::new(tech, diff);
                        h.place = Some((single as u8, d));
                        if context.explain {
                            h.text = format!(
                                "{d} in {} is locked in {}, so {}={d} (only place left in {})",
                                region_name(r1),
                                region_name(r2),
                                cell_name(single),
                                region_name(r3)
                            );
                        }
                        out.push(h);
                        if context.first {
                            return;
                        }
                    }
                } else if victims != 0 {
                    let (tech, diff) = if pointing {
                        (SeTechnique::Pointing, rating::POINTING)
                    } else {
                        (SeTechnique::Claiming, rating::CLAIMING)
                    };
                    let mut h = Hint::new(tech, diff);
                    h.removals = bits(victims).map(|c| (c as u8, d)).collect();
                    if context.explain {
                        h.text = format!(
                            "{d} in {} is locked in {}",
                            region_name(r1),
                            region_name(r2)
                        );
                    }
                    if context.src.is_some() {
                        h.parents = bits(gone).map(|c| (c as u8, d)).collect();
                    }
                    out.push(h);
                    if context.first {
                        return;
                    }
                }
            }
        }
    }
}

/// SE's `CommonTuples.searchCommonTuple`: every set has 2+ members, the union `degree`.
pub(super) fn common_tuple(sets: &[u16], degree: u32) -> Option<u16> {
    common_tuple_of(sets.iter().copied(), degree)
}

/// Which of `sets` (as bits, in order) can belong to a common tuple of `degree`: those with
/// two to `degree` members. Combinations of others fail `common_tuple` at once.
fn tuple_members(sets: impl Iterator<Item = u16>, degree: u32) -> u32 {
    (sets.enumerate()).fold(0, |m, (i, s)| {
        m | ((2..=degree).contains(&s.count_ones()) as u32) << i
    })
}

pub(super) fn common_tuple_of(sets: impl Iterator<Item = u16>, degree: u32) -> Option<u16> {
    let mut u = 0;
    for s in sets {
        if at_most_one_bit(s) {
            return None;
        }
        u |= s;
    }
    (u.count_ones() == degree).then_some(u)
}

pub(super) fn hidden_set(
    g: &SeGrid,
    degree: u32,
    direct: bool,
    context: Context,
    out: &mut Vec<Hint>,
) {
    let lost = lost_since(g, context);
    let changed = context.src.map_or(u128::MAX, |src| g.changed_since(src));
    for t in [BLOCK, COL, ROW] {
        for i in 0..9 {
            let r = t * 9 + i;
            // Inside a nested chain only rules resting on a removed candidate count.
            if changed & RM[r] == 0 {
                continue;
            }
            let n = g.empty_count(r);
            if !(n > degree * 2 || (direct && n > degree)) {
                continue;
            }
            let mut pos = [0u16; 9];
            for (d, p) in pos.iter_mut().enumerate() {
                *p = g.pos(r, d as u8 + 1);
            }
            // The digits that lost a place in the house: a set rests on those alone.
            let lost_here = (0..9).fold(0, |m, d| m | ((lost[d] & RM[r] != 0) as u32) << d);
            // The digits with two to `degree` places here: a set's digits.
            let fit = tuple_members(pos.iter().copied(), degree);
            if fit & lost_here == 0 || fit.count_ones() < degree {
                continue;
            }
            for vm in combos(degree) {
                if vm & lost_here == 0 || vm & !fit != 0 {
                    continue;
                }
                let Some(common) = common_tuple_of(bits(vm).map(|v| pos[v]), degree) else {
                    continue;
                };
                let vset = vm as u16;
                let names = || {
                    digits(vset)
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                };
                if direct {
                    for v in 1..=9u8 {
                        if vset & bit(v) != 0 {
                            continue;
                        }
                        let pv = g.pos(r, v);
                        if pv.count_ones() > 1 && (pv & !common).count_ones() == 1 {
                            let idx = (pv & !common).trailing_zeros() as usize;
                            let c = RC[r][idx];
                            let (tech, diff) = match degree {
                                2 => (SeTechnique::DirectHiddenPair, rating::DIRECT_HIDDEN_PAIR),
                                3 => (
                                    SeTechnique::DirectHiddenTriplet,
                                    rating::DIRECT_HIDDEN_TRIPLET,
                                ),
                                _ => (SeTechnique::HiddenQuad, rating::DIRECT_HIDDEN_QUAD),
                            };
                            // As SE's direct hints do, this one places its single and
                            // removes nothing else: the set's cells keep their candidates.
                            let mut h = Hint::new(tech, diff);
                            h.place = Some((c, v));
                            if context.explain {
                                h.text = format!(
                                    "hidden set {} in {}, so {}={v}",
                                    names(),
                                    region_name(r),
                                    cell_name(c as usize)
                                );
                            }
                            out.push(h);
                            if context.first {
                                return;
                            }
                            break;
                        }
                    }
                } else {
                    let mut removals = Vec::new();
                    for idx in bits(common) {
                        let c = RC[r][idx] as usize;
                        for d in digits(g.cand()[c] & !vset) {
                            removals.push((c as u8, d));
                        }
                    }
                    if removals.is_empty() {
                        continue;
                    }
                    let (tech, diff) = match degree {
                        2 => (SeTechnique::HiddenPair, rating::HIDDEN_PAIR),
                        3 => (SeTechnique::HiddenTriplet, rating::HIDDEN_TRIPLET),
                        _ => (SeTechnique::HiddenQuad, rating::HIDDEN_QUAD),
                    };
                    let mut h = Hint::new(tech, diff);
                    h.removals = removals;
                    if context.explain {
                        h.text = format!("hidden set {} in {}", names(), region_name(r));
                    }
                    if let Some(src) = context.src {
                        for (idx, &c) in RC[r].iter().enumerate() {
                            if common >> idx & 1 == 0 {
                                for v in digits(vset) {
                                    if src.has(c as usize, v) {
                                        h.parents.push((c, v));
                                    }
                                }
                            }
                        }
                    }
                    out.push(h);
                    if context.first {
                        return;
                    }
                }
            }
        }
    }
}

pub(super) fn naked_set(g: &SeGrid, degree: u32, context: Context, out: &mut Vec<Hint>) {
    let changed = context.src.map_or(u128::MAX, |src| g.changed_since(src));
    for t in [BLOCK, COL, ROW] {
        for i in 0..9 {
            let r = t * 9 + i;
            // Inside a nested chain only rules resting on a removed candidate count.
            if changed & RM[r] == 0 || g.empty_count(r) < degree * 2 {
                continue;
            }
            let cands: [u16; 9] = std::array::from_fn(|k| g.cand()[RC[r][k] as usize]);
            // The cells that lost a candidate: a set rests on those alone.
            let lost_here = (0..9).fold(0, |m, k| m | ((changed >> RC[r][k] & 1) as u32) << k);
            // The cells with two to `degree` candidates: a set's cells.
            let fit = tuple_members(cands.iter().copied(), degree);
            if fit & lost_here == 0 || fit.count_ones() < degree {
                continue;
            }
            for im in combos(degree) {
                if im & lost_here == 0 || im & !fit != 0 {
                    continue;
                }
                let Some(common) = common_tuple_of(bits(im).map(|k| cands[k]), degree) else {
                    continue;
                };
                let mut removals = Vec::new();
                for (k, &c) in RC[r].iter().enumerate() {
                    if im >> k & 1 == 0 {
                        for d in digits(g.cand()[c as usize] & common) {
                            removals.push((c, d));
                        }
                    }
                }
                if removals.is_empty() {
                    continue;
                }
                let (tech, diff) = match degree {
                    2 => (SeTechnique::NakedPair, rating::NAKED_PAIR),
                    3 => (SeTechnique::NakedTriplet, rating::NAKED_TRIPLET),
                    _ => (SeTechnique::NakedQuad, rating::NAKED_QUAD),
                };
                let mut h = Hint::new(tech, diff);
                h.removals = removals;
                if context.explain {
                    let cells: Vec<String> =
                        bits(im).map(|k| cell_name(RC[r][k] as usize)).collect();
                    let ds: Vec<String> = digits(common).map(|d| d.to_string()).collect();
                    h.text = format!(
                        "naked set {} in {}: {}",
                        ds.join(","),
                        region_name(r),
                        cells.join(",")
                    );
                }
                if let Some(src) = context.src {
                    for k in bits(im) {
                        let c = RC[r][k];
                        for d in digits(src.cand()[c as usize] & !common) {
                            h.parents.push((c, d));
                        }
                    }
                }
                out.push(h);
                if context.first {
                    return;
                }
            }
        }
    }
}

pub(super) fn fish(g: &SeGrid, degree: u32, context: Context, out: &mut Vec<Hint>) {
    let mut occ = [0u32; 10];
    for &v in g.val() {
        occ[v as usize] += 1;
    }
    let lost = lost_since(g, context);
    for (t1, t2) in [(COL, ROW), (ROW, COL)] {
        // Per digit, the base lines where it lost a place: inside a nested chain only
        // rules resting on a removed candidate count.
        let lost_lines: [u32; 9] = std::array::from_fn(|d| {
            (0..9).fold(0, |m, i| m | ((lost[d] & RM[t1 * 9 + i] != 0) as u32) << i)
        });
        let mut linepos = [[0u16; 9]; 9];
        for (d, pos) in linepos.iter_mut().enumerate() {
            if lost_lines[d] != 0 {
                *pos = std::array::from_fn(|i| g.pos(t1 * 9 + i, d as u8 + 1));
            }
        }
        // Per digit, the lines where it has two to `degree` places: a fish's base lines.
        let fit: [u32; 9] =
            std::array::from_fn(|d| tuple_members(linepos[d].iter().copied(), degree));
        // The digits that can make a fish: placed at most 9 - 2·degree times, with
        // `degree` base lines or more, one of which lost a place.
        let able = (1..=9u8).fold(0, |m, d| {
            let i = d as usize - 1;
            let can = occ[d as usize] + degree * 2 <= 9
                && lost_lines[i] & fit[i] != 0
                && fit[i].count_ones() >= degree;
            m | (can as u16) << i
        });
        if able == 0 {
            continue;
        }
        for base in combos(degree) {
            for d in digits(able) {
                let i = d as usize - 1;
                if base & lost_lines[i] == 0 || base & !fit[i] != 0 {
                    continue;
                }
                let Some(cover) =
                    common_tuple_of(bits(base).map(|i| linepos[d as usize - 1][i]), degree)
                else {
                    continue;
                };
                let mut removals = Vec::new();
                for j in bits(cover) {
                    let line = t2 * 9 + j;
                    let p = g.pos(line, d) & !(base as u16);
                    for k in bits(p) {
                        removals.push((RC[line][k], d));
                    }
                }
                if removals.is_empty() {
                    continue;
                }
                removals.sort_unstable();
                let (tech, diff) = match degree {
                    2 => (SeTechnique::XWing, rating::X_WING),
                    3 => (SeTechnique::Swordfish, rating::SWORDFISH),
                    _ => (SeTechnique::Jellyfish, rating::JELLYFISH),
                };
                let mut h = Hint::new(tech, diff);
                h.removals = removals;
                if context.explain {
                    let names: Vec<String> = bits(base).map(|i| region_name(t1 * 9 + i)).collect();
                    h.text = format!("fish on {d} in {}", names.join(", "));
                }
                if let Some(src) = context.src {
                    for i in bits(base) {
                        for &c in &RC[t1 * 9 + i] {
                            let cu = c as usize;
                            let in_cover = cover >> (CR[cu][t2] as usize % 9) & 1 != 0;
                            if src.has(cu, d) && !g.has(cu, d) && !in_cover {
                                h.parents.push((c, d));
                            }
                        }
                    }
                }
                out.push(h);
                if context.first {
                    return;
                }
            }
        }
    }
}

pub(super) fn xy_wing(g: &SeGrid, xyz: bool, out: &mut Vec<Hint>) {
    let target = if xyz { 3 } else { 2 };
    for (c, house) in HOUSE.iter().enumerate() {
        let xy = g.cand()[c];
        if xy.count_ones() != target {
            continue;
        }
        for &xzc in house {
            let xz = g.cand()[xzc as usize];
            if xz.count_ones() != 2 || (xy & !xz).count_ones() != 1 {
                continue;
            }
            for &yzc in house {
                let yz = g.cand()[yzc as usize];
                if yz.count_ones() != 2 {
                    continue;
                }
                let union = (xy | xz | yz).count_ones();
                let inter = (xy & xz & yz).count_ones();
                let ok = if xyz {
                    union == 3 && inter == 1
                } else {
                    union == 3 && inter == 0
                };
                if !ok {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as u8 + 1;
                let mut victims = peers_mask(xzc as usize) & peers_mask(yzc as usize);
                if xyz {
                    victims &= peers_mask(c);
                }
                victims &= !(1u128 << c | 1u128 << xzc | 1u128 << yzc);
                let removals: Vec<(u8, u8)> = (0..81)
                    .filter(|&v| victims >> v & 1 != 0 && g.has(v, z))
                    .map(|v| (v as u8, z))
                    .collect();
                if removals.is_empty() {
                    continue;
                }
                let (tech, diff) = if xyz {
                    (SeTechnique::XYZWing, rating::XYZ_WING)
                } else {
                    (SeTechnique::XYWing, rating::XY_WING)
                };
                let mut h = Hint::new(tech, diff);
                h.removals = removals;
                h.text = format!(
                    "pivot {}, pincers {} and {}, on {z}",
                    cell_name(c),
                    cell_name(xzc as usize),
                    cell_name(yzc as usize)
                );
                out.push(h);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::reduced_pairs;
    use super::super::NestedCache;
    use super::*;
    use crate::grid::Grid;

    /// Test grids, each with its puzzle's solution: every candidate of the solution stays.
    fn grids() -> Vec<(SeGrid, [u8; 81])> {
        reduced_pairs(6)
            .into_iter()
            .flat_map(|(src, g)| [src, g])
            .map(|g| {
                let givens = Grid::from_values(*g.val()).expect("valid givens");
                let solution = crate::solver::solve(&givens).expect("a solution");
                (g, *solution.values())
            })
            .collect()
    }

    /// Every hint of every direct rule, from the grid as a top-level search sees it.
    fn all_hints(g: &SeGrid) -> Vec<Hint> {
        let cache = NestedCache::default();
        let context = Context {
            src: None,
            first: false,
            explain: true,
            solution: None,
            nested: &cache,
        };
        let mut out = Vec::new();
        hidden_single(g, &mut out);
        naked_single(g, &mut out);
        for direct in [true, false] {
            locking(g, direct, context, &mut out);
            for degree in 2..=4 {
                hidden_set(g, degree, direct, context, &mut out);
            }
        }
        for degree in 2..=4 {
            naked_set(g, degree, context, &mut out);
            fish(g, degree, context, &mut out);
        }
        for xyz in [false, true] {
            xy_wing(g, xyz, &mut out);
        }
        out
    }

    /// Each singles rule returns the first single of SE's order, found here from the
    /// definitions: the first cell with one candidate left; the first digit with one place
    /// left in a house, full houses first, then blocks, columns, rows.
    #[test]
    fn singles_are_the_singles_by_definition() {
        for (g, solution) in grids() {
            let mut out = Vec::new();
            naked_single(&g, &mut out);
            let naked = (0..81)
                .find(|&c| g.val()[c] == 0 && g.card(c) == 1)
                .map(|c| (c as u8, g.cand()[c].trailing_zeros() as u8 + 1));
            assert_eq!(out.first().and_then(|h| h.place), naked);
            let mut singles = Vec::new();
            for alone in [true, false] {
                for t in [BLOCK, COL, ROW] {
                    for house in &RC[t * 9..t * 9 + 9] {
                        let empty = house.iter().filter(|&&c| g.val()[c as usize] == 0).count();
                        for d in 1..=9 {
                            let places: Vec<u8> = house
                                .iter()
                                .copied()
                                .filter(|&c| g.val()[c as usize] == 0 && g.has(c as usize, d))
                                .collect();
                            if places.len() == 1 && (empty == 1) == alone {
                                singles.push((places[0], d));
                            }
                        }
                    }
                }
            }
            let mut out = Vec::new();
            hidden_single(&g, &mut out);
            assert_eq!(out.first().and_then(|h| h.place), singles.first().copied());
            for &(c, d) in &singles {
                assert_eq!(solution[c as usize], d, "a single agrees with the solution");
            }
        }
    }

    /// Every direct rule is sound (never removes or places against the solution), is rated
    /// from SE's table, and the rules find something on these grids.
    #[test]
    fn direct_rules_are_sound_and_rated_from_the_table() {
        let mut found = std::collections::BTreeMap::new();
        for (g, solution) in grids() {
            for h in all_hints(&g) {
                for &(c, d) in &h.removals {
                    assert_ne!(solution[c as usize], d, "{:?} removes the solution", h.tech);
                }
                if let Some((c, d)) = h.place {
                    assert_eq!(solution[c as usize], d, "{:?} places wrongly", h.tech);
                }
                let rated = match h.tech {
                    SeTechnique::FullHouse => rating::FULL_HOUSE,
                    SeTechnique::HiddenSingle if h.text.contains(" in box ") => {
                        rating::HIDDEN_SINGLE_IN_BLOCK
                    }
                    SeTechnique::HiddenSingle => rating::HIDDEN_SINGLE_IN_LINE,
                    SeTechnique::NakedSingle => rating::NAKED_SINGLE,
                    SeTechnique::DirectPointing => rating::DIRECT_POINTING,
                    SeTechnique::DirectClaiming => rating::DIRECT_CLAIMING,
                    SeTechnique::DirectHiddenPair => rating::DIRECT_HIDDEN_PAIR,
                    SeTechnique::DirectHiddenTriplet => rating::DIRECT_HIDDEN_TRIPLET,
                    SeTechnique::Pointing => rating::POINTING,
                    SeTechnique::Claiming => rating::CLAIMING,
                    SeTechnique::NakedPair => rating::NAKED_PAIR,
                    SeTechnique::XWing => rating::X_WING,
                    SeTechnique::HiddenPair => rating::HIDDEN_PAIR,
                    SeTechnique::NakedTriplet => rating::NAKED_TRIPLET,
                    SeTechnique::Swordfish => rating::SWORDFISH,
                    SeTechnique::HiddenTriplet => rating::HIDDEN_TRIPLET,
                    SeTechnique::XYWing => rating::XY_WING,
                    SeTechnique::XYZWing => rating::XYZ_WING,
                    SeTechnique::NakedQuad => rating::NAKED_QUAD,
                    SeTechnique::Jellyfish => rating::JELLYFISH,
                    SeTechnique::HiddenQuad if h.diff < rating::HIDDEN_QUAD => {
                        rating::DIRECT_HIDDEN_QUAD
                    }
                    SeTechnique::HiddenQuad => rating::HIDDEN_QUAD,
                    other => panic!("{other:?} is no direct rule"),
                };
                assert_eq!(h.diff, rated, "{:?}", h.tech);
                *found.entry(h.tech).or_insert(0) += 1;
            }
        }
        for tech in [
            SeTechnique::HiddenSingle,
            SeTechnique::NakedSingle,
            SeTechnique::Pointing,
            SeTechnique::Claiming,
            SeTechnique::NakedPair,
            SeTechnique::HiddenPair,
            SeTechnique::XWing,
        ] {
            assert!(found.contains_key(&tech), "no {tech:?} in {found:?}");
        }
    }
}
