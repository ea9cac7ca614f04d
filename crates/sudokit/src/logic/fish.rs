//! Basic fish (X-Wing, Swordfish, Jellyfish) and their finned and sashimi variants.
//!
//! A fish of size `n` on digit `d`: `n` base lines (rows, or columns) whose candidates for `d`
//! all lie in `n` cover lines of the other kind. Each base line takes one `d` in a distinct
//! cover line, so the cover lines' other cells lose `d`.
//!
//! Finned: the base lines also hold candidates outside the cover (fins), all in one box.
//! Either a fin is true, or the fish stands; so only cover cells that also see every fin
//! lose `d`. Sashimi: a finned fish where some base line has a single cover candidate, so the
//! fish without fins would not be a fish at all (HoDoKu's distinction).
//!
//! Lines are handled as 9-bit masks of positions across the line, so the search is
//! combinations of small integers.

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::logic::first_combination;
use crate::step::{cell_list, Step, Technique};

/// Whether base lines are rows (covers are columns) or the reverse.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Orientation {
    Rows,
    Columns,
}

impl Orientation {
    fn base(self, line: usize) -> House {
        match self {
            Orientation::Rows => House::Row(line as u8),
            Orientation::Columns => House::Column(line as u8),
        }
    }

    fn cover(self, pos: usize) -> House {
        match self {
            Orientation::Rows => House::Column(pos as u8),
            Orientation::Columns => House::Row(pos as u8),
        }
    }

    /// The cells on base lines `lines` (mask) and cover lines `positions` (mask).
    fn cells(self, lines: u16, positions: u16) -> CellSet {
        let union = |mask: u16, house: fn(Orientation, usize) -> House| {
            bits(mask).fold(CellSet::EMPTY, |acc, i| {
                acc | CellSet::house(house(self, i))
            })
        };
        union(lines, Orientation::base) & union(positions, Orientation::cover)
    }
}

fn bits(mask: u16) -> impl Iterator<Item = usize> {
    (0..9).filter(move |i| mask & (1 << i) != 0)
}

/// Position masks of digit `d` per base line.
fn masks(c: &Candidates, d: Digit, o: Orientation) -> [u16; 9] {
    let mut m = [0u16; 9];
    for cell in c.cells_with(d).iter() {
        match o {
            Orientation::Rows => m[cell.row()] |= 1 << cell.col(),
            Orientation::Columns => m[cell.col()] |= 1 << cell.row(),
        }
    }
    m
}

/// Position masks of the three chutes (bands or stacks) of three lines.
const CHUTES: [u16; 3] = [0b111, 0b111 << 3, 0b111 << 6];

const BASIC: [Technique; 3] = [Technique::XWing, Technique::Swordfish, Technique::Jellyfish];
const FINNED: [Technique; 3] = [
    Technique::FinnedXWing,
    Technique::FinnedSwordfish,
    Technique::FinnedJellyfish,
];
const SASHIMI: [Technique; 3] = [
    Technique::SashimiXWing,
    Technique::SashimiSwordfish,
    Technique::SashimiJellyfish,
];

/// Calls `f(base_mask, bands)` on every set of `n` base lines (from `lines`), where
/// `bands[k]` is the union of the position masks of the chosen lines in band `k` (lines
/// `3k..3k+3`), stopping at the first `Some`. Sets whose partial `bands` fail `fits` are
/// pruned; `fits` must be monotone (once failed, adding lines never helps), which keeps
/// jellyfish searches small.
fn base_sets<R>(
    m: &[u16; 9],
    lines: &[usize],
    n: usize,
    fits: impl Fn(&[u16; 3]) -> bool,
    f: &mut impl FnMut(u16, &[u16; 3]) -> Option<R>,
) -> Option<R> {
    fn go<R>(
        m: &[u16; 9],
        lines: &[usize],
        left: usize,
        (base, bands): (u16, [u16; 3]),
        fits: &impl Fn(&[u16; 3]) -> bool,
        f: &mut impl FnMut(u16, &[u16; 3]) -> Option<R>,
    ) -> Option<R> {
        if left == 0 {
            return f(base, &bands);
        }
        for (i, &l) in lines.iter().enumerate() {
            if lines.len() - i < left {
                break;
            }
            let mut next = bands;
            next[l / 3] |= m[l];
            if fits(&next) {
                let r = go(m, &lines[i + 1..], left - 1, (base | 1 << l, next), fits, f);
                if r.is_some() {
                    return r;
                }
            }
        }
        None
    }
    go(m, lines, n, (0, [0; 3]), &fits, f)
}

/// The positions a finned fish's cover must include if its fins lie in chute `chute` and on
/// base lines of band `band`: everything outside the chute, and the chute positions used by
/// base lines of other bands.
fn forced_cover(bands: &[u16; 3], chute: u16, band: usize) -> u16 {
    let union = bands[0] | bands[1] | bands[2];
    let others = bands[(band + 1) % 3] | bands[(band + 2) % 3];
    (union & !chute) | (others & chute)
}

/// The first basic fish of size `n` (2–4) that eliminates something.
pub fn basic(c: &Candidates, n: usize) -> Option<Step> {
    let technique = *BASIC.get(n.checked_sub(2)?)?;
    for d in Digit::all() {
        for o in [Orientation::Rows, Orientation::Columns] {
            let m = masks(c, d, o);
            let lines: Vec<usize> = (0..9)
                .filter(|&l| (2..=n as u32).contains(&m[l].count_ones()))
                .collect();
            let fits = |b: &[u16; 3]| (b[0] | b[1] | b[2]).count_ones() as usize <= n;
            let found = base_sets(&m, &lines, n, fits, &mut |base_mask, bands| {
                let cover = bands[0] | bands[1] | bands[2];
                if cover.count_ones() as usize != n {
                    return None;
                }
                let targets = (o.cells(0x1ff & !base_mask, cover) & c.cells_with(d))
                    .iter()
                    .collect();
                build(
                    technique,
                    d,
                    o,
                    base_mask,
                    cover,
                    CellSet::EMPTY,
                    targets,
                    c,
                )
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// The first finned (`sashimi == false`) or sashimi (`true`) fish of size `n` (2–4) that
/// eliminates something.
///
/// The fins lie in one box, so their positions lie in one chute of three; hence the cover is
/// the base lines' positions outside some chute, topped up from inside it. That gives at most
/// a handful of covers per set of base lines instead of every `n`-subset of positions.
pub fn finned(c: &Candidates, n: usize, sashimi: bool) -> Option<Step> {
    let idx = n.checked_sub(2)?;
    let technique = *if sashimi { &SASHIMI } else { &FINNED }.get(idx)?;
    for d in Digit::all() {
        let with_d = c.cells_with(d);
        for o in [Orientation::Rows, Orientation::Columns] {
            let m = masks(c, d, o);
            let lines: Vec<usize> = (0..9).filter(|&l| m[l].count_ones() >= 2).collect();
            // Some box (chute and band) must be able to hold every fin.
            let fits = |b: &[u16; 3]| {
                let union = b[0] | b[1] | b[2];
                CHUTES.iter().any(|&ch| {
                    (union & !ch).count_ones() as usize <= n
                        && (0..3).any(|band| forced_cover(b, ch, band).count_ones() as usize <= n)
                })
            };
            let found = base_sets(&m, &lines, n, fits, &mut |base_mask, bands| {
                let union = bands[0] | bands[1] | bands[2];
                for chute in CHUTES {
                    for band in (0..3).filter(|&k| bands[k] & chute != 0) {
                        let forced = forced_cover(bands, chute, band);
                        let Some(extra) = n.checked_sub(forced.count_ones() as usize) else {
                            continue;
                        };
                        let inside: Vec<usize> = bits(bands[band] & chute & !forced).collect();
                        if extra >= inside.len() {
                            // No fin would be left in this box.
                            continue;
                        }
                        let found = first_combination_or_none(&inside, extra, &mut |add| {
                            let cover = add.iter().fold(forced, |acc, &p| acc | 1 << p);
                            finned_cover(
                                c, d, o, &m, base_mask, cover, union, sashimi, technique, with_d,
                            )
                        });
                        if found.is_some() {
                            return found;
                        }
                    }
                }
                None
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// `first_combination`, where choosing nothing (`k == 0`) is the one empty combination.
fn first_combination_or_none<R>(
    items: &[usize],
    k: usize,
    f: &mut impl FnMut(&[usize]) -> Option<R>,
) -> Option<R> {
    if k == 0 {
        f(&[])
    } else {
        first_combination(items, k, f)
    }
}

/// Checks one base/cover choice of a finned fish and builds its step.
#[allow(clippy::too_many_arguments)]
fn finned_cover(
    c: &Candidates,
    d: Digit,
    o: Orientation,
    m: &[u16; 9],
    base_mask: u16,
    cover: u16,
    union: u16,
    sashimi: bool,
    technique: Technique,
    with_d: CellSet,
) -> Option<Step> {
    // Mask tests first: fins on base lines of one band (their positions already lie in one
    // chute), every base line touching the cover, and a cover candidate in the fin box.
    let fin_pos = union & !cover;
    let mut fin_lines = 0u16;
    let mut thin_line = false;
    for l in bits(base_mask) {
        if m[l] & fin_pos != 0 {
            fin_lines |= 1 << l;
        }
        match (m[l] & cover).count_ones() {
            0 => return None,
            1 => thin_line = true,
            _ => {}
        }
    }
    if thin_line != sashimi {
        return None;
    }
    let band = CHUTES.iter().copied().find(|&b| fin_lines & !b == 0)?;
    let chute = CHUTES.iter().copied().find(|&b| fin_pos & !b == 0)?;
    if !bits(band & !base_mask).any(|t| m[t] & cover & chute != 0) {
        return None;
    }
    let fins = o.cells(base_mask, fin_pos) & with_d;
    let targets = (o.cells(0x1ff & !base_mask, cover) & with_d & fins.common_peers())
        .iter()
        .collect();
    build(technique, d, o, base_mask, cover, fins, targets, c)
}

#[allow(clippy::too_many_arguments)]
fn build(
    technique: Technique,
    d: Digit,
    o: Orientation,
    base: u16,
    cover: u16,
    fins: CellSet,
    targets: Vec<Cell>,
    c: &Candidates,
) -> Option<Step> {
    if targets.is_empty() {
        return None;
    }
    let mut s = Step::new(technique);
    s.digits = DigitSet::single(d);
    s.houses = bits(base)
        .map(|l| o.base(l))
        .chain(bits(cover).map(|p| o.cover(p)))
        .collect();
    s.cells = (o.cells(base, cover) & c.cells_with(d)).iter().collect();
    s.fins = fins.iter().collect();
    s.eliminations = targets.into_iter().map(|cl| (cl, d)).collect();
    let names = |houses: &[House]| {
        houses
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let n = base.count_ones() as usize;
    s.detail = format!(
        "{d} in {} / {}",
        names(&s.houses[..n]),
        names(&s.houses[n..])
    );
    if !s.fins.is_empty() {
        let plural = if s.fins.len() > 1 { "s" } else { "" };
        s.detail
            .push_str(&format!(", fin{plural} {}", cell_list(&s.fins)));
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{elims, only_digit_in};

    #[test]
    fn x_wing_on_rows() {
        // 5 in rows 2 and 6 only in columns 3 and 7.
        let c = only_digit_in(
            &[
                (2, 3),
                (2, 7),
                (6, 3),
                (6, 7),
                (1, 3),
                (8, 7),
                (9, 3),
                (4, 1),
                (5, 9),
            ],
            5,
        );
        let s = basic(&c, 2).unwrap();
        assert_eq!(elims(&s), vec![(1, 3, 5), (8, 7, 5), (9, 3, 5)]);
        assert_eq!(
            s.to_string(),
            "X-Wing: 5 in row 2, row 6 / column 3, column 7 => r1c3<>5, r8c7<>5, r9c3<>5"
        );
        assert_eq!(s.cells.len(), 4);
    }

    #[test]
    fn swordfish_on_columns_with_a_two_two_two_shape() {
        // Columns 1, 4, 8 hold 3 only in rows 2, 5, 9 (two cells each).
        let c = only_digit_in(
            &[
                (2, 1),
                (5, 1),
                (5, 4),
                (9, 4),
                (2, 8),
                (9, 8),
                (2, 5),
                (5, 6),
                (9, 2),
                (7, 3),
            ],
            3,
        );
        assert!(basic(&c, 2).is_none());
        let s = basic(&c, 3).unwrap();
        assert_eq!(s.technique, Technique::Swordfish);
        assert_eq!(elims(&s), vec![(2, 5, 3), (5, 6, 3), (9, 2, 3)]);
    }

    #[test]
    fn jellyfish_on_rows() {
        let body = [
            (1, 1),
            (1, 3),
            (3, 3),
            (3, 5),
            (5, 5),
            (5, 8),
            (8, 8),
            (8, 1),
        ];
        let mut cells: Vec<(usize, usize)> = body.to_vec();
        cells.extend([(2, 1), (6, 3), (9, 5), (4, 8), (7, 9)]);
        let c = only_digit_in(&cells, 9);
        assert!(basic(&c, 3).is_none());
        let s = basic(&c, 4).unwrap();
        assert_eq!(elims(&s), vec![(2, 1, 9), (4, 8, 9), (6, 3, 9), (9, 5, 9)]);
    }

    #[test]
    fn finned_x_wing_eliminates_only_in_the_fin_box() {
        // Rows 1 and 5: 4 at c2, c8; row 1 also at c9 (fin, box 3). Column 8 has 4 at r2, r3
        // (box 3) and r8: only the box-3 cells see the fin.
        let c = only_digit_in(
            &[
                (1, 2),
                (1, 8),
                (1, 9),
                (5, 2),
                (5, 8),
                (2, 8),
                (3, 8),
                (8, 8),
                (7, 2),
                (4, 5),
            ],
            4,
        );
        assert!(basic(&c, 2).is_none());
        assert!(finned(&c, 2, true).is_none());
        let s = finned(&c, 2, false).unwrap();
        assert_eq!(s.technique, Technique::FinnedXWing);
        assert_eq!(elims(&s), vec![(2, 8, 4), (3, 8, 4)]);
        assert_eq!(s.fins, vec![crate::logic::testutil::cell(1, 9)]);
        assert_eq!(
            s.to_string(),
            "Finned X-Wing: 4 in row 1, row 5 / column 2, column 8, fin r1c9 => r2c8<>4, r3c8<>4"
        );
    }

    #[test]
    fn sashimi_x_wing_lacks_a_body_cell() {
        // Row 5: 6 at c2, c8. Row 1: 6 at c2 and fins c7, c9 (box 3), not c8.
        // Column 8 holds 6 at r2 (box 3) and r9; only r2c8 sees both fins.
        let c = only_digit_in(
            &[
                (1, 2),
                (1, 7),
                (1, 9),
                (5, 2),
                (5, 8),
                (2, 8),
                (9, 8),
                (8, 2),
                (6, 5),
            ],
            6,
        );
        assert!(finned(&c, 2, false).is_none());
        let s = finned(&c, 2, true).unwrap();
        assert_eq!(s.technique, Technique::SashimiXWing);
        assert_eq!(elims(&s), vec![(2, 8, 6)]);
    }
}
