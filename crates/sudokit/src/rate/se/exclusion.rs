//! SE's aligned pair and triplet exclusion (6.2, 7.5).

use super::*;

/// SE's aligned pair/triplet exclusion (`degree` 2 or 3): combinations of candidates of
/// `degree` cells are ruled out when two of them see each other with the same digit or
/// when they would empty a common excluding cell.
pub(super) fn aligned_exclusion(g: &G, degree: usize, out: &mut Vec<Hint>) {
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
    let n = list.len();
    let mut area: Vec<usize> = Vec::new();
    // SE enumerates pairs by increasing bitmask: (0,1), (0,2), (1,2), (0,3)…
    for j in 1..n {
        for i in 0..j {
            let (c0, c1) = (list[i], list[j]);
            if degree == 2 {
                if let Some(h) = exclusion(g, &[c0, c1], &excl_mask) {
                    out.push(h);
                    return;
                }
                continue;
            }
            // SE's "twin area": the excluders of both cells that are candidates themselves,
            // in the order the excluder lists give them.
            area.clear();
            for &e in excl[c0].iter().chain(excl[c1].iter()) {
                if !area.contains(&e) && in_list >> e & 1 != 0 && e != c0 && e != c1 {
                    area.push(e);
                }
            }
            for &t in &area {
                if let Some(h) = exclusion(g, &[c0, c1, t], &excl_mask) {
                    out.push(h);
                    return;
                }
            }
        }
    }
}

/// The aligned exclusion hint on `cells` (2 or 3), if it removes anything: a candidate
/// goes when no allowed combination of the cells' digits uses it.
pub(super) fn exclusion(g: &G, cells: &[usize], excl_mask: &[u128; 81]) -> Option<Hint> {
    let common = cells.iter().fold(u128::MAX, |m, &c| m & excl_mask[c]);
    if common.count_ones() < 2 {
        return None;
    }
    let mut ex = [0u16; 20];
    let mut ne = 0;
    let mut m = common;
    while m != 0 && ne < ex.len() {
        let e = m.trailing_zeros() as usize;
        m &= m - 1;
        ex[ne] = g.cand[e];
        ne += 1;
    }
    let ex = &ex[..ne];
    let k = cells.len();
    let sees = |a: usize, b: usize| peers_mask(cells[a]) >> cells[b] & 1 != 0;
    let see = [sees(0, 1), k > 2 && sees(0, 2), k > 2 && sees(1, 2)];
    let mut allowed = [0u16; 3];
    // The third cell's digits, or one pass with none for a pair.
    let third = if k > 2 { g.cand[cells[2]] } else { 1 };
    let all: [u16; 3] = std::array::from_fn(|i| cells.get(i).map_or(0, |&c| g.cand[c]));
    for d0 in digits(g.cand[cells[0]]) {
        for d1 in digits(g.cand[cells[1]]) {
            if d0 == d1 && see[0] {
                continue;
            }
            for d2 in digits(third) {
                if k > 2 && ((d0 == d2 && see[1]) || (d1 == d2 && see[2])) {
                    continue;
                }
                let used = bit(d0) | bit(d1) | if k > 2 { bit(d2) } else { 0 };
                if ex.iter().any(|&e| e & !used == 0) {
                    continue;
                }
                allowed[0] |= bit(d0);
                allowed[1] |= bit(d1);
                if k > 2 {
                    allowed[2] |= bit(d2);
                }
                // Every candidate allowed: nothing to remove, whatever else is allowed.
                if allowed == all {
                    return None;
                }
            }
        }
    }
    let mut rem = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        for d in digits(g.cand[c] & !allowed[i]) {
            rem.push((c as u8, d));
        }
    }
    if rem.is_empty() {
        return None;
    }
    let (tech, diff) = if k == 2 {
        (SeTechnique::AlignedPairExclusion, 6.2)
    } else {
        (SeTechnique::AlignedTripletExclusion, 7.5)
    };
    let mut h = Hint::new(tech, diff);
    h.rem = rem;
    let names: Vec<String> = cells.iter().map(|&c| cell_name(c)).collect();
    h.text = format!("cells {}", names.join(","));
    Some(h)
}
