//! Coloring: Simple Colors (trap and wrap) and Multi Colors.
//!
//! For one digit, a *conjugate pair* is a house holding the digit in exactly two cells: one
//! of them is the digit. Linking pairs that share cells gives a *cluster* whose cells take
//! two colors, and in each cluster either every cell of one color is the digit or every cell
//! of the other is.
//!
//! - Trap: a cell seeing both colors of a cluster loses the digit.
//! - Wrap: two cells of one color see each other, so that color is false everywhere.
//! - Multi Colors 1: a color `a` of one cluster sees a color `b` of another, so `a` and `b`
//!   are not both true: the opposite colors `a'` or `b'` hold the digit, and a cell seeing
//!   both `a'` and `b'` loses it.
//! - Multi Colors 2: one color of a cluster sees both colors of another cluster; it would
//!   leave that cluster no true color, so it is false everywhere.
//!
//! (Types 1 and 2 are numbered as HoDoKu numbers them.)

use crate::candidates::Candidates;
use crate::grid::{CellSet, Digit, DigitSet, House};
use crate::step::{cell_list, Step, Technique};

/// The clusters of `d`: per cluster, its two colors (each non-empty).
fn clusters(c: &Candidates, d: Digit) -> Vec<[CellSet; 2]> {
    let pairs: Vec<CellSet> = House::all()
        .map(|h| c.cells_with_in(h, d))
        .filter(|s| s.len() == 2)
        .collect();
    let mut in_pairs = CellSet::EMPTY;
    for &p in &pairs {
        in_pairs |= p;
    }
    let mut out = Vec::new();
    let mut done = CellSet::EMPTY;
    for start in in_pairs.iter() {
        if done.contains(start) {
            continue;
        }
        let mut colors = [CellSet::single(start), CellSet::EMPTY];
        let mut stack = vec![(start, 0usize)];
        done.insert(start);
        while let Some((x, k)) = stack.pop() {
            for p in pairs.iter().filter(|p| p.contains(x)) {
                for y in p.iter() {
                    if !done.contains(y) {
                        done.insert(y);
                        colors[1 - k].insert(y);
                        stack.push((y, 1 - k));
                    }
                }
            }
        }
        out.push(colors);
    }
    out
}

/// Every cell that sees some cell of `cells`.
fn seen_by_any(cells: CellSet) -> CellSet {
    let mut s = CellSet::EMPTY;
    for x in cells.iter() {
        s |= CellSet::peers(x);
    }
    s
}

fn step(t: Technique, d: Digit, colorings: &[[CellSet; 2]], targets: CellSet) -> Step {
    let mut s = Step::new(t);
    s.digits = DigitSet::single(d);
    s.eliminations = targets.iter().map(|x| (x, d)).collect();
    let mut parts = Vec::new();
    for colors in colorings {
        for col in colors {
            s.cells.extend(col.iter());
        }
        let names: Vec<String> = colors
            .iter()
            .map(|col| cell_list(&col.iter().collect::<Vec<_>>()))
            .collect();
        parts.push(format!("{} / {}", names[0], names[1]));
    }
    s.detail = format!("{d} colored {}", parts.join(" and "));
    s
}

/// Simple Colors Trap: a cell sees both colors of one cluster.
pub fn simple_colors_trap(c: &Candidates) -> Option<Step> {
    for d in Digit::all() {
        for colors in clusters(c, d) {
            let all = colors[0] | colors[1];
            let targets = seen_by_any(colors[0]) & seen_by_any(colors[1]) & (c.cells_with(d) - all);
            if !targets.is_empty() {
                return Some(step(Technique::SimpleColorsTrap, d, &[colors], targets));
            }
        }
    }
    None
}

/// Simple Colors Wrap: two cells of one color see each other; that color is false.
pub fn simple_colors_wrap(c: &Candidates) -> Option<Step> {
    for d in Digit::all() {
        for colors in clusters(c, d) {
            for col in colors {
                if col.iter().any(|x| !(CellSet::peers(x) & col).is_empty()) {
                    return Some(step(Technique::SimpleColorsWrap, d, &[colors], col));
                }
            }
        }
    }
    None
}

/// Multi Colors 2: a color sees both colors of another cluster; it is false.
pub fn multi_colors_2(c: &Candidates) -> Option<Step> {
    for d in Digit::all() {
        let cl = clusters(c, d);
        for (i, a) in cl.iter().enumerate() {
            for (j, b) in cl.iter().enumerate() {
                if i == j {
                    continue;
                }
                for col in a {
                    let seen = seen_by_any(*col);
                    if !(seen & b[0]).is_empty() && !(seen & b[1]).is_empty() {
                        return Some(step(Technique::MultiColors2, d, &[*a, *b], *col));
                    }
                }
            }
        }
    }
    None
}

/// Multi Colors 1: colors `a`, `b` of two clusters see each other; a cell seeing both
/// opposite colors loses the digit.
pub fn multi_colors_1(c: &Candidates) -> Option<Step> {
    for d in Digit::all() {
        let cl = clusters(c, d);
        for (i, a) in cl.iter().enumerate() {
            for b in &cl[i + 1..] {
                let all = a[0] | a[1] | b[0] | b[1];
                for ka in 0..2 {
                    for kb in 0..2 {
                        if (seen_by_any(a[ka]) & b[kb]).is_empty() {
                            continue;
                        }
                        let targets = seen_by_any(a[1 - ka])
                            & seen_by_any(b[1 - kb])
                            & (c.cells_with(d) - all);
                        if !targets.is_empty() {
                            return Some(step(Technique::MultiColors1, d, &[*a, *b], targets));
                        }
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{elims, only_digit_in};

    #[test]
    fn trap_removes_a_cell_seeing_both_colors() {
        // Digit 3, pairs: column 4 {r1c4,r7c4}, row 7 {r7c4,r7c9}, box 9 {r7c9,r8c8}.
        // Colors r1c4,r7c9 / r7c4,r8c8; r1c8 sees r1c4 (row 1) and r8c8 (column 8).
        let c = only_digit_in(&[(1, 1), (1, 4), (1, 8), (5, 8), (7, 4), (7, 9), (8, 8)], 3);
        let s = simple_colors_trap(&c).expect("trap");
        assert_eq!(s.technique, Technique::SimpleColorsTrap);
        assert_eq!(elims(&s), vec![(1, 8, 3)]);
        assert_eq!(s.detail, "3 colored r1c4,r7c9 / r7c4,r8c8");
        assert!(simple_colors_wrap(&c).is_none());
    }

    #[test]
    fn wrap_removes_a_color_that_sees_itself() {
        // Digit 5, pairs: row 1 {r1c1,r1c5}, column 5 {r1c5,r5c5}, row 5 {r5c5,r5c2},
        // column 2 {r5c2,r2c2}: colors r1c1,r2c2,r5c5 / r1c5,r5c2. r1c1 and r2c2 share box 1
        // (which holds r3c3 too, so it is no pair), so their color is false.
        let c = only_digit_in(
            &[
                (1, 1),
                (1, 5),
                (5, 5),
                (5, 2),
                (2, 2),
                (2, 7),
                (2, 8),
                (3, 3),
                (9, 1),
                (8, 1),
            ],
            5,
        );
        let s = simple_colors_wrap(&c).expect("wrap");
        assert_eq!(elims(&s), vec![(1, 1, 5), (2, 2, 5), (5, 5, 5)]);
    }

    #[test]
    fn multi_colors_1_traps_between_two_clusters() {
        // Digit 7, cluster A: row 1 {r1c1,r1c6}. Cluster B: column 2 {r3c2,r8c2} and box 7
        // {r8c2,r8c1}. r1c1 and r3c2 share box 1, so r1c6 or r8c2 is 7: r8c6 sees both.
        let c = only_digit_in(
            &[
                (1, 1),
                (1, 6),
                (3, 2),
                (8, 2),
                (8, 6),
                (5, 6),
                (2, 3),
                (3, 7),
                (3, 8),
                (3, 9),
                (5, 1),
                (8, 1),
                (5, 4),
                (5, 5),
            ],
            7,
        );
        let s = multi_colors_1(&c).expect("multi colors 1");
        assert_eq!(s.technique, Technique::MultiColors1);
        assert_eq!(elims(&s), vec![(8, 6, 7)]);
        assert!(multi_colors_2(&c).is_none());
    }

    #[test]
    fn multi_colors_2_removes_a_color_seeing_both_colors_of_another_cluster() {
        // Digit 2, cluster A: row 1 {r1c1,r1c9}. Cluster B: row 3 {r3c2,r3c4}, column 4
        // {r3c4,r5c4}, row 5 {r5c4,r5c1}: colors r3c2,r5c4 / r3c4,r5c1. r1c1 sees r3c2 (box
        // 1) and r5c1 (column 1): if it were 2, r3c4 and r5c4 would both be 2.
        let mut cells = vec![
            (1, 1),
            (1, 9),
            (5, 1),
            (5, 4),
            (3, 4),
            (3, 2),
            (2, 3),
            (7, 1),
        ];
        cells.extend((7..=9).flat_map(|r| (7..=9).map(move |col| (r, col))));
        let c = only_digit_in(&cells, 2);
        let s = multi_colors_2(&c).expect("multi colors 2");
        assert_eq!(s.technique, Technique::MultiColors2);
        assert_eq!(elims(&s), vec![(1, 1, 2)]);
        assert_eq!(s.detail, "2 colored r1c1 / r1c9 and r3c2,r5c4 / r3c4,r5c1");
    }
}
