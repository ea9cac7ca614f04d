//! Which parts of a multiple forcing-chain run can find anything, decided without reasons.
//!
//! A run of SE's dynamic forcing chains (`Cfg::dynamic(0)`, the rule nested inside every
//! chain from ER 10.5 up) chains from every candidate switched on and off, then looks for
//! contradictions, for what both states of a candidate imply, and for what every
//! candidate of a cell or every place of a digit in a house implies; a run of static
//! multiple chains (`Cfg::MULTIPLE`, nested from ER 10.0 up) looks for the last two.
//! Keeping the reasons (each potential's parents, for the complexity) is most of the
//! cost, and many nested runs find nothing at all.
//!
//! What such a chain reaches does not depend on the order it is explored in. A dynamic
//! chain reaches the least set closed under the singles rules (a candidate on removes
//! its cell's other candidates and its digit from the peers; a cell or house that had
//! two or more places and keeps one fills it), or a contradiction; a static chain
//! reaches what the grid's links reach (a candidate off turns on the other one of a
//! bivalue cell, or of a house with two places), unless it meets a contradiction on the
//! way and stops. So a plain worklist over bit sets finds the same candidates on and
//! off, or a contradiction, at a fraction of the cost. From those, [`Sieve`] tells which
//! chains, cells and houses can yield a hint; the run then builds the reasons for those
//! alone, in its usual order, and finds the same hints. A contradiction found here only
//! makes the run look closer, never skip.

use super::{bit, bits, digits, CR, G, PEERS, RM};

/// A set of candidates, bit `9 * cell + digit - 1`.
type Set729 = [u64; 12];

fn index(c: usize, d: u8) -> usize {
    c * 9 + d as usize - 1
}

fn has(s: &Set729, i: usize) -> bool {
    s[i / 64] >> (i % 64) & 1 != 0
}

fn set(s: &mut Set729, i: usize) {
    s[i / 64] |= 1 << (i % 64);
}

fn meets(a: &Set729, b: &Set729) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

fn and(a: &mut Set729, b: &Set729) {
    for (x, y) in a.iter_mut().zip(b) {
        *x &= y;
    }
}

/// What a chain from one assumption switches on and off.
#[derive(Clone, Copy)]
struct Reached {
    on: Set729,
    off: Set729,
}

/// The grid facts every chain of one run shares.
struct Start<'a> {
    g: &'a G,
    /// Whether chains remove what they switch off from their grid (dynamic chains).
    dynamic: bool,
    /// Cells with two or more candidates: only these fill themselves when one is left.
    multi_cell: u128,
    /// Per digit, the houses (bit = house) where it has two or more places.
    multi_house: [u32; 9],
}

impl Start<'_> {
    fn new(g: &G, dynamic: bool) -> Start<'_> {
        let mut start = Start {
            g,
            dynamic,
            multi_cell: 0,
            multi_house: [0; 9],
        };
        for c in 0..81 {
            if g.val[c] == 0 && g.cand[c].count_ones() >= 2 {
                start.multi_cell |= 1 << c;
            }
        }
        for (d, houses) in start.multi_house.iter_mut().enumerate() {
            for (h, &m) in RM.iter().enumerate() {
                if (g.dm[d] & m).count_ones() >= 2 {
                    *houses |= 1 << h;
                }
            }
        }
        start
    }

    /// The candidates reached from candidate `d` of cell `c` switched on (or off), or
    /// `None` on a contradiction. `queue` is scratch space.
    fn reach(&self, c: usize, d: u8, on: bool, queue: &mut Vec<(u8, u8, bool)>) -> Option<Reached> {
        // The grid as the chain has reduced it (dynamic chains only).
        let mut cand = self.g.cand;
        let mut dm = self.g.dm;
        let mut r = Reached {
            on: [0; 12],
            off: [0; 12],
        };
        queue.clear();
        queue.push((c as u8, d, on));
        if on {
            set(&mut r.on, index(c, d));
        } else {
            set(&mut r.off, index(c, d));
            if self.dynamic {
                cand[c] &= !bit(d);
                dm[d as usize - 1] &= !(1u128 << c);
            }
        }
        let mut next = 0;
        while let Some(&(c, d, on)) = queue.get(next) {
            next += 1;
            let c = c as usize;
            if on {
                let mut offs = [(0u8, 0u8); 28];
                let mut n = 0;
                for e in digits(cand[c] & !bit(d)) {
                    offs[n] = (c as u8, e);
                    n += 1;
                }
                let mut m = PEERS[c] & dm[d as usize - 1];
                while m != 0 {
                    offs[n] = (m.trailing_zeros() as u8, d);
                    n += 1;
                    m &= m - 1;
                }
                for &(o, e) in &offs[..n] {
                    let (o, i) = (o as usize, index(o as usize, e));
                    if has(&r.on, i) {
                        return None;
                    }
                    if !has(&r.off, i) {
                        set(&mut r.off, i);
                        queue.push((o as u8, e, false));
                        if self.dynamic {
                            cand[o] &= !bit(e);
                            dm[e as usize - 1] &= !(1u128 << o);
                        }
                    }
                }
            } else {
                // The other places of the cell and of the digit in its houses: in a
                // dynamic chain the grid has lost what is off, in a static one it has not.
                let mut ons = [(0u8, 0u8); 4];
                let mut n = 0;
                if self.multi_cell >> c & 1 != 0 {
                    let rest = cand[c] & !bit(d);
                    if rest == 0 {
                        return None;
                    }
                    if rest & (rest - 1) == 0 {
                        ons[n] = (c as u8, rest.trailing_zeros() as u8 + 1);
                        n += 1;
                    }
                }
                for &h in &CR[c] {
                    if self.multi_house[d as usize - 1] >> h & 1 == 0 {
                        continue;
                    }
                    let rest = dm[d as usize - 1] & RM[h as usize] & !(1u128 << c);
                    if rest == 0 {
                        return None;
                    }
                    if rest & (rest - 1) == 0 {
                        ons[n] = (rest.trailing_zeros() as u8, d);
                        n += 1;
                    }
                }
                for &(o, e) in &ons[..n] {
                    let i = index(o as usize, e);
                    if has(&r.off, i) {
                        return None;
                    }
                    if !has(&r.on, i) {
                        set(&mut r.on, i);
                        queue.push((o, e, true));
                    }
                }
            }
        }
        Some(r)
    }
}

/// Which parts of a dynamic forcing-chain run on one grid can yield a hint.
pub(super) struct Sieve {
    /// Per cell, the digits whose contradiction and double-implication chains can.
    binary: [u16; 81],
    /// Cells whose cell forcing chains can.
    cell: u128,
    /// Per house, the digits whose region forcing chains can.
    region: [u16; 27],
}

impl Sieve {
    /// The sieve of a run of multiple forcing chains on `g`, dynamic or static.
    pub(super) fn new(g: &G, dynamic: bool) -> Sieve {
        let start = Start::new(g, dynamic);
        // Potentials "on" whose placement would remove something: their cell has others.
        let mut removes = [0u64; 12];
        for c in bits(start.multi_cell) {
            for d in digits(g.cand[c]) {
                set(&mut removes, index(c, d));
            }
        }
        let mut sieve = Sieve {
            binary: [0; 81],
            cell: 0,
            region: [0; 27],
        };
        // A shared outcome is a hint when it removes something.
        let hint = |on: &Set729, off: &Set729| {
            off.iter().any(|&x| x != 0) || on.iter().zip(&removes).any(|(x, y)| x & y != 0)
        };
        let mut queue = Vec::with_capacity(64);
        // The chains from each candidate switched on, for the houses: `slot` indexes them.
        let mut on_chains: Vec<Option<Reached>> = Vec::with_capacity(256);
        let mut slot = [0u16; 729];
        for c in 0..81 {
            if g.val[c] != 0 {
                continue;
            }
            let multi = start.multi_cell >> c & 1 != 0;
            let (mut all_on, mut all_off) = ([!0u64; 12], [!0u64; 12]);
            let mut absurd = false;
            for d in digits(g.cand[c]) {
                let on = start.reach(c, d, true, &mut queue);
                slot[index(c, d)] = on_chains.len() as u16;
                on_chains.push(on);
                if !multi {
                    continue;
                }
                // Contradictions and double chains: dynamic runs only.
                if dynamic {
                    let off = start.reach(c, d, false, &mut queue);
                    let binary = match (&on, &off) {
                        (Some(a), Some(b)) => {
                            g.cand[c].count_ones() >= 3
                                && (meets(&a.off, &b.off)
                                    || a.on
                                        .iter()
                                        .zip(&b.on)
                                        .zip(&removes)
                                        .any(|((x, y), z)| x & y & z != 0))
                        }
                        _ => true,
                    };
                    if binary {
                        sieve.binary[c] |= bit(d);
                    }
                }
                match &on {
                    Some(a) => {
                        and(&mut all_on, &a.on);
                        and(&mut all_off, &a.off);
                    }
                    None => absurd = true,
                }
            }
            if multi && (absurd || hint(&all_on, &all_off)) {
                sieve.cell |= 1 << c;
            }
        }
        for (h, &m) in RM.iter().enumerate() {
            for d in 1..=9u8 {
                let mut places = g.dm[d as usize - 1] & m;
                if places.count_ones() < 2 {
                    continue;
                }
                let (mut all_on, mut all_off) = ([!0u64; 12], [!0u64; 12]);
                let mut absurd = false;
                while places != 0 {
                    let o = places.trailing_zeros() as usize;
                    places &= places - 1;
                    match &on_chains[slot[index(o, d)] as usize] {
                        Some(a) => {
                            and(&mut all_on, &a.on);
                            and(&mut all_off, &a.off);
                        }
                        None => absurd = true,
                    }
                }
                if absurd || hint(&all_on, &all_off) {
                    sieve.region[h] |= bit(d);
                }
            }
        }
        sieve
    }

    /// Whether the run finds nothing at all.
    pub(super) fn is_empty(&self) -> bool {
        self.cell == 0 && self.binary == [0; 81] && self.region == [0; 27]
    }

    /// Whether the contradiction and double chains of candidate `d` of cell `c` can yield.
    pub(super) fn binary(&self, c: usize, d: u8) -> bool {
        self.binary[c] & bit(d) != 0
    }

    /// Whether the cell forcing chains of cell `c` can yield.
    pub(super) fn cell(&self, c: usize) -> bool {
        self.cell >> c & 1 != 0
    }

    /// Whether the region forcing chains of digit `d` in house `h` can yield.
    pub(super) fn region(&self, h: usize, d: u8) -> bool {
        self.region[h] & bit(d) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::reduced_pairs;
    use super::super::*;
    use super::*;

    /// Grids as the nested rules meet them: from the tests' reduced grids, and the same
    /// with candidates of the solution gone too (chains from false assumptions).
    fn grids() -> Vec<G> {
        let mut out = Vec::new();
        for (i, (src, g)) in reduced_pairs(5).into_iter().enumerate() {
            let mut cand = g.cand;
            for (c, m) in cand.iter_mut().enumerate() {
                if (c * 7 + i) % 11 == 0 && m.count_ones() > 1 {
                    *m &= *m - 1;
                }
            }
            out.push(G::from_parts(&g.val, &cand));
            out.push(src);
            out.push(g);
        }
        out
    }

    fn as_set(ar: &Arena, s: &PSet) -> Set729 {
        let mut out = [0; 12];
        for &p in &s.order {
            let k = ar.key(p);
            set(&mut out, index(kcell(k), kdig(k)));
        }
        out
    }

    /// The worklist reaches what SE's dynamic and static chainings reach, and a
    /// contradiction exactly when they meet one.
    #[test]
    fn reach_agrees_with_chaining() {
        let (mut absurd, mut compared) = (0, 0);
        for g in grids() {
            for cfg in [Cfg::dynamic(0), Cfg::MULTIPLE] {
                let start = Start::new(&g, cfg.dynamic);
                let ctx = Ctx {
                    src: None,
                    first: false,
                    explain: false,
                };
                let mut ch = Chainer::new(cfg, ctx);
                let mut queue = Vec::new();
                for c in (0..81).filter(|&c| g.val[c] == 0) {
                    for d in digits(g.cand[c]) {
                        for on in [true, false] {
                            let mut ar = Arena::default();
                            let (mut to_on, mut to_off) = (PSet::new(), PSet::new());
                            let p = ar.add(key(c, d, on), C_NONE, &[], None);
                            if on {
                                to_on.add(&ar, p);
                            } else {
                                to_off.add(&ar, p);
                            }
                            let met =
                                ch.do_chaining(&mut g.clone(), &mut ar, &mut to_on, &mut to_off);
                            let what = format!("{cfg:?} from {c} {d} {on}");
                            match (met, start.reach(c, d, on, &mut queue)) {
                                (Some(_), None) => absurd += 1,
                                (None, Some(r)) => {
                                    assert_eq!(r.on, as_set(&ar, &to_on), "on, {what}");
                                    assert_eq!(r.off, as_set(&ar, &to_off), "off, {what}");
                                    compared += 1;
                                }
                                (met, _) => panic!("contradiction {}, {what}", met.is_some()),
                            }
                        }
                    }
                }
            }
        }
        assert!(
            absurd > 100 && compared > 1000,
            "{absurd} contradictions, {compared} compared"
        );
    }

    /// Level-0 runs find the same hints, in the same order, with the sieve and deferred
    /// parents as without.
    #[test]
    fn runs_with_shortcuts_find_the_same_hints() {
        let (mut empty, mut hints) = (0, 0);
        for g in grids() {
            for (cfg, src) in [
                (Cfg::dynamic(0), None),
                (Cfg::dynamic(0), Some(&EVERY_CANDIDATE)),
                (Cfg::MULTIPLE, None),
                (Cfg::MULTIPLE, Some(&EVERY_CANDIDATE)),
                (Cfg::NISHIO, Some(&EVERY_CANDIDATE)),
            ] {
                let ctx = Ctx {
                    src,
                    first: src.is_none(),
                    explain: false,
                };
                let key = |h: &Hint| {
                    (
                        h.tech,
                        h.cplx,
                        h.sort_key,
                        h.rem.clone(),
                        h.place,
                        h.parents.clone(),
                    )
                };
                let plain: Vec<_> = rule_hints(&g, cfg, ctx, false).iter().map(key).collect();
                let quick: Vec<_> = rule_hints(&g, cfg, ctx, true).iter().map(key).collect();
                assert_eq!(plain, quick, "{cfg:?}");
                empty += plain.is_empty() as usize;
                hints += plain.len();
            }
        }
        assert!(
            empty > 5 && hints > 500,
            "{empty} empty runs, {hints} hints"
        );
    }
}
