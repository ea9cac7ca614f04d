//! Which parts of a multiple forcing-chain run can find anything, decided without reasons.
//!
//! A run of SE's dynamic forcing chains (`ChainRule::dynamic(0)`, the rule nested inside every
//! chain from ER 10.5 up) chains from every candidate switched on and off, then looks for
//! contradictions, for what both states of a candidate imply, and for what every
//! candidate of a cell or every place of a digit in a house implies; a run of static
//! multiple chains (`ChainRule::MULTIPLE`, nested from ER 10.0 up) looks for the last two.
//! Keeping the reasons (each potential's parents, for the complexity) is most of the
//! cost, and many nested runs find nothing at all.
//!
//! What such a chain reaches does not depend on the order it is explored in. A dynamic
//! chain reaches the least set closed under the singles rules (a candidate on removes
//! its cell's other candidates and its digit from the peers; a cell or house that had
//! two or more places and keeps one fills it), or a contradiction; a plain worklist over
//! bit sets finds the same at a fraction of the cost. A static chain reaches what the
//! grid's links reach, or part of it when it meets a contradiction and stops; the
//! reachability sets the loops rule builds for the same grid (`Reach`) hold that, and a
//! part can only share less. From these, [`Sieve`] tells which chains, cells and houses
//! can yield a hint; the run then builds the reasons for those alone, in its usual
//! order, and finds the same hints. A dynamic chain also learns which outcomes it must
//! reach ([`Targets`]) and stops there: a hint rests only on its outcomes and on what
//! led to them, which SE's order finds first. A chain that meets a contradiction stops
//! there, holding what its order reached by then, so what it shares with the other
//! chains of its cell or house is unknown: the run builds it first (its contradiction
//! needs it anyway) and skips the cell or house if it holds none of what the others
//! share (`Sieve::shares`). Knowing what each cell, house and candidate shares, a run
//! also skips those where each hint it could make already loses to one the run holds,
//! however few ancestors its chains could give it (`Chainer::all_beaten`): most, in the
//! runs nested inside chains. And a rating's next step meets most of these grids
//! again less that step's removals, where most closures still hold ([`Carry`]), and
//! where a cell or house whose chains all carry over and shared nothing still shares
//! nothing (its chains reach no more than before).
//!
//! A Nishio chain (`ChainRule::NISHIO`) follows one digit alone: a place switched on takes the
//! digit out of its peers, and a house left with one place switches that on. Only its
//! contradictions are hints, and a worklist over the digit's places tells which chains
//! meet one ([`Sieve::nishio`]).

use super::potentials::{kcell, kdig, key, kon, NONE};
use super::reach::Reach;
use super::{bit, bits, build_cr, digits, SeGrid, CELL, CR, PEERS, RM};

/// A candidate's index among the 729.
fn index(c: usize, d: u8) -> usize {
    c * 9 + d as usize - 1
}

/// What a chain from one assumption switches on and off: per digit, the cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(super) struct Reached {
    pub(super) on: [u128; 9],
    pub(super) off: [u128; 9],
}

impl Reached {
    /// The potentials `keys`, as sets.
    pub(super) fn of(keys: impl IntoIterator<Item = u16>) -> Reached {
        let mut r = Reached::default();
        for k in keys {
            let side = if kon(k) { &mut r.on } else { &mut r.off };
            side[kdig(k) as usize - 1] |= 1 << kcell(k);
        }
        r
    }

    /// What both reach.
    pub(super) fn and(&self, other: &Reached) -> Reached {
        Reached {
            on: std::array::from_fn(|i| self.on[i] & other.on[i]),
            off: std::array::from_fn(|i| self.off[i] & other.off[i]),
        }
    }

    /// Keeps the potentials `keep` holds.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(u16) -> bool) {
        for (on, sides) in [(true, &mut self.on), (false, &mut self.off)] {
            for (i, cells) in sides.iter_mut().enumerate() {
                for c in bits(*cells) {
                    if !keep(key(c, i as u8 + 1, on)) {
                        *cells &= !(1 << c);
                    }
                }
            }
        }
    }

    /// How many potentials it holds.
    pub(super) fn len(&self) -> u32 {
        self.on
            .iter()
            .chain(&self.off)
            .map(|m| m.count_ones())
            .sum()
    }

    /// Adds what `other` reaches.
    pub(super) fn add(&mut self, other: &Reached) {
        for i in 0..9 {
            self.on[i] |= other.on[i];
            self.off[i] |= other.off[i];
        }
    }

    /// The sets of a row of 36 words (`row`).
    fn from_row(row: &[u64]) -> Reached {
        let lane = |j: usize| row[2 * j] as u128 | (row[2 * j + 1] as u128) << 64;
        Reached {
            on: std::array::from_fn(lane),
            off: std::array::from_fn(|i| lane(9 + i)),
        }
    }

    /// The sets as one row of 36 words: switched on, then switched off.
    fn row(&self) -> impl Iterator<Item = u64> + '_ {
        self.on
            .iter()
            .chain(&self.off)
            .flat_map(|&m| [m as u64, (m >> 64) as u64])
    }
}

const fn build_houses() -> [u32; 81] {
    let cr = build_cr();
    let mut t = [0u32; 81];
    let mut c = 0;
    while c < 81 {
        t[c] = 1 << cr[c][0] | 1 << cr[c][1] | 1 << cr[c][2];
        c += 1;
    }
    t
}

/// The houses of each cell as a mask (bit = house).
static HOUSES: [u32; 81] = build_houses();

/// The grid facts every chain of one run shares.
struct Start<'a> {
    g: &'a SeGrid,
    /// Cells with two or more candidates: only these fill themselves when one is left.
    multi_cell: u128,
    /// Per digit, the houses (bit = house) where it has two or more places.
    multi_house: [u32; 9],
}

impl Start<'_> {
    fn new(g: &SeGrid) -> Start<'_> {
        let mut start = Start {
            g,
            multi_cell: 0,
            multi_house: [0; 9],
        };
        for c in 0..81 {
            if g.val()[c] == 0 && g.cand()[c].count_ones() >= 2 {
                start.multi_cell |= 1 << c;
            }
        }
        for (houses, count) in start.multi_house.iter_mut().zip(&g.count) {
            for (h, &n) in count.iter().enumerate() {
                if n >= 2 {
                    *houses |= 1 << h;
                }
            }
        }
        start
    }

    /// Whether taking candidate `d` out of cell `c` leaves every unit it is in with two
    /// places or more: it switches nothing on.
    fn inert(&self, c: usize, d: u8) -> bool {
        let g = self.g;
        g.cand()[c].count_ones() >= 3 && CR[c].iter().all(|&h| g.places(h as usize, d) >= 3)
    }

    /// A candidate that taking `d` out of cell `c` switches on at once (the other of a
    /// cell of two, or of a house with two places), if any. The two imply each other:
    /// taking `d` out switches it on, and switching it on takes `d` out. So both reach the
    /// least set closed under the rules that holds the two, or a contradiction both.
    fn partner(&self, c: usize, d: u8) -> Option<(usize, u8)> {
        self.g.partners(c, d).next()
    }

    /// Writes the candidates reached from candidate `d` of cell `c` switched on (or off)
    /// into `out`, the one closure set a sieve reuses (a closure returned by value was
    /// copied several times over); false on a contradiction, where `out` is left
    /// undefined. `queue` is scratch space.
    fn reach(
        &self,
        c: usize,
        d: u8,
        on: bool,
        queue: &mut Vec<(u8, u8)>,
        out: &mut Reached,
    ) -> bool {
        out.on = [0; 9];
        let mut w = Work {
            cand: *self.g.cand(),
            digit_cells: *self.g.digit_cells(),
            ons: &mut out.on,
            on_cells: 0,
        };
        if self.close(&mut w, c, d, on, queue).is_none() {
            return false;
        }
        for ((off, &m), &left) in out
            .off
            .iter_mut()
            .zip(self.g.digit_cells())
            .zip(&w.digit_cells)
        {
            *off = m & !left;
        }
        true
    }

    /// Runs the worklist in `w` from candidate `d` of cell `c` switched on (or off) to its
    /// fixpoint, or to a contradiction (`None`).
    fn close(
        &self,
        w: &mut Work,
        c: usize,
        d: u8,
        on: bool,
        queue: &mut Vec<(u8, u8)>,
    ) -> Option<()> {
        queue.clear();
        if on {
            self.switch_on(w, c, d, queue)?;
        } else {
            self.take_out(w, c, d, queue)?;
        }
        // Only what is switched on has consequences to follow. Its cell keeps it alone,
        // and its peers lose its digit all at once; a cell or house left with one place
        // or none is judged after, each house once, by the places left (the fixpoint is
        // the same whatever the order).
        while let Some((c, d)) = queue.pop() {
            let (c, i) = (c as usize, d as usize - 1);
            let others = w.cand[c] & !bit(d);
            w.cand[c] = bit(d);
            for j in bits(others) {
                w.digit_cells[j] &= !CELL[c];
                self.judge(w, HOUSES[c] & self.multi_house[j], j, queue)?;
            }
            let m = PEERS[c] & w.digit_cells[i];
            w.digit_cells[i] &= !m;
            let mut houses = 0;
            for o in bits(m) {
                w.cand[o] &= !bit(d);
                houses |= HOUSES[o];
                self.judge_cell(w, o, queue)?;
            }
            // The houses of `c` are left with `c` alone, which is on.
            self.judge(w, houses & self.multi_house[i] & !HOUSES[c], i, queue)?;
        }
        Some(())
    }

    /// Removes candidate `e` of cell `o` and judges its cell and houses.
    fn take_out(&self, w: &mut Work, o: usize, e: u8, queue: &mut Vec<(u8, u8)>) -> Option<()> {
        let i = e as usize - 1;
        w.cand[o] &= !bit(e);
        w.digit_cells[i] &= !CELL[o];
        self.judge_cell(w, o, queue)?;
        self.judge(w, HOUSES[o] & self.multi_house[i], i, queue)
    }

    /// A cell with two or more candidates at the start left with one switches it on; left
    /// with none, it is a contradiction (`None`).
    #[inline(always)]
    fn judge_cell(&self, w: &mut Work, o: usize, queue: &mut Vec<(u8, u8)>) -> Option<()> {
        if self.multi_cell & CELL[o] != 0 {
            let rest = w.cand[o];
            if rest & rest.wrapping_sub(1) == 0 {
                if rest == 0 {
                    return None;
                }
                self.switch_on(w, o, rest.trailing_zeros() as u8 + 1, queue)?;
            }
        }
        Some(())
    }

    /// Each of the `houses` (two or more places of digit index `i` at the start) left with
    /// one place switches it on; left with none, it is a contradiction (`None`).
    #[inline(always)]
    fn judge(&self, w: &mut Work, houses: u32, i: usize, queue: &mut Vec<(u8, u8)>) -> Option<()> {
        for h in bits(houses) {
            let rest = w.digit_cells[i] & RM[h];
            if rest & rest.wrapping_sub(1) == 0 {
                if rest == 0 {
                    return None;
                }
                self.switch_on(w, rest.trailing_zeros() as usize, i as u8 + 1, queue)?;
            }
        }
        Some(())
    }

    /// Switches candidate `e` of cell `o` on, unless it is: a second "on" in a cell, or
    /// for a digit in a house, is a contradiction (`None`).
    #[inline(always)]
    fn switch_on(&self, w: &mut Work, o: usize, e: u8, queue: &mut Vec<(u8, u8)>) -> Option<()> {
        let j = e as usize - 1;
        if w.ons[j] & CELL[o] != 0 {
            return Some(());
        }
        if w.on_cells & CELL[o] != 0 || PEERS[o] & w.ons[j] != 0 {
            return None;
        }
        w.ons[j] |= CELL[o];
        w.on_cells |= CELL[o];
        queue.push((o as u8, e));
        Some(())
    }
}

/// Whether the Nishio chain of one digit from the places `on` and `off` meets a
/// contradiction: a place both on and off, two on in a house, or a house (of `houses`,
/// each with two places or more of `places`) with all of them off. The least set closed
/// under the chain's two rules has one exactly when the chain meets one, whatever its
/// order.
fn nishio_absurd(places: u128, houses: &[u128], mut on: u128, mut off: u128) -> bool {
    let mut new = on;
    loop {
        for c in bits(new) {
            off |= PEERS[c] & places;
        }
        if on & off != 0 {
            return true;
        }
        new = 0;
        for &h in houses {
            let left = h & !off;
            if left == 0 {
                return true;
            }
            if left & (left - 1) == 0 {
                new |= left & !on;
            }
        }
        if new == 0 {
            return false;
        }
        on |= new;
    }
}

/// The grid as one chain of the worklist has reduced it: what is off is gone from it.
struct Work<'a> {
    cand: [u16; 81],
    digit_cells: [u128; 9],
    /// Per digit, the cells switched on: the closure's own.
    ons: &'a mut [u128; 9],
    on_cells: u128,
}

/// Which parts of a multiple forcing-chain run on one grid can yield a hint.
#[derive(Clone)]
pub(super) struct Sieve {
    /// Per cell, the digits whose contradiction and double-implication chains can.
    binary: [u16; 81],
    /// Cells whose cell forcing chains can.
    cell: u128,
    /// Per house, the digits whose region forcing chains can.
    region: [u16; 27],
    /// Per chain (candidate index, twice, then 1 for "on"), its targets' row in `needs`,
    /// or `NONE` when the chain must run to its end.
    need_slot: Vec<u32>,
    /// What chains must reach before they may stop, rows of 36 words (`Reached::row`):
    /// the outcomes they share with the other chains of a cell, house or candidate that
    /// can yield a hint. Every hint rests only on those, and on what led to them.
    needs: Vec<u64>,
    /// Per digit, the cells whose chain from the candidate switched on meets a
    /// contradiction (dynamic sieves).
    absurd: [u128; 9],
    /// Per unit (`cell_unit`, `house_unit`), where in `needs` a flagged cell or house keeps
    /// the hint outcomes its chains share, or `NONE` (dynamic sieves). Those of its chains
    /// that meet a contradiction are left out: what such a chain holds when it stops
    /// depends on its order, so the run builds it first (its own contradiction needs it)
    /// and skips the unit if it shares none of the row (`Chainer::may_share`).
    share_slot: Vec<u32>,
}

/// A cell's index among the units of a run: the cells, then each house's digits.
pub(super) fn cell_unit(c: usize) -> usize {
    c
}

/// Digit `d` in house `h`'s index among the units of a run (`cell_unit`).
pub(super) fn house_unit(h: usize, d: u8) -> usize {
    81 + h * 9 + d as usize - 1
}

/// What a chain must still reach (`Sieve::targets`): once it has, it may stop.
#[derive(Clone)]
pub(super) struct Targets {
    on: [u128; 9],
    off: [u128; 9],
    left: u32,
}

impl Targets {
    /// The potentials of `r`.
    pub(super) fn new(r: Reached) -> Targets {
        let (on, off) = (r.on, r.off);
        let left = on.iter().chain(&off).map(|m| m.count_ones()).sum();
        Targets { on, off, left }
    }

    /// Notes that the chain reached potential `k`; true when nothing is left to reach.
    pub(super) fn reached(&mut self, k: u16) -> bool {
        let side = if kon(k) { &mut self.on } else { &mut self.off };
        let m = &mut side[kdig(k) as usize - 1];
        if *m >> kcell(k) & 1 != 0 {
            *m &= !(1 << kcell(k));
            self.left -= 1;
        }
        self.left == 0
    }
}

/// What the chains from each candidate switched on reach, as rows of `width` words in
/// `words` (`slot`: each candidate's row, `NONE` when its chain meets a contradiction).
/// An outcome all the chains of a cell or house share is a hint when it is in `hint`:
/// every candidate switched off, and every one switched on in a cell with others.
struct Outcomes<'a> {
    words: &'a [u64],
    width: usize,
    slot: &'a [u32; 729],
    hint: &'a [u64],
}

impl Outcomes<'_> {
    /// Whether the chains from the candidates `starts` can yield a hint together; `all`
    /// gets the hint outcomes those without a contradiction share.
    fn share(&self, starts: impl Iterator<Item = usize>, all: &mut [u64]) -> bool {
        all.copy_from_slice(self.hint);
        let mut absurd = false;
        for i in starts {
            if self.slot[i] == NONE {
                absurd = true;
                continue;
            }
            let row = &self.words[self.slot[i] as usize..][..self.width];
            for (a, w) in all.iter_mut().zip(row) {
                *a &= w;
            }
        }
        absurd || all.iter().any(|&w| w != 0)
    }

    /// Flags the cells (two candidates or more) and houses (two places or more) whose
    /// chains can yield a hint, and gives `shared` their chains and shared outcomes;
    /// those in `known` share nothing. Returns those whose chains share nothing.
    fn flag(
        &self,
        g: &SeGrid,
        sieve: &mut Sieve,
        known: &Quiet,
        mut shared: impl FnMut(&mut Sieve, usize, &[usize], &[u64]),
    ) -> Quiet {
        let mut quiet = *known;
        let mut all = vec![0; self.width];
        let mut starts = Vec::with_capacity(9);
        for c in (0..81).filter(|&c| known.cells >> c & 1 == 0) {
            starts.clear();
            starts.extend(digits(g.cand()[c]).map(|d| index(c, d)));
            if g.val()[c] == 0 && starts.len() >= 2 && self.share(starts.iter().copied(), &mut all)
            {
                sieve.cell |= 1 << c;
                shared(sieve, cell_unit(c), &starts, &all);
            } else {
                quiet.cells |= 1 << c;
            }
        }
        for (h, &m) in RM.iter().enumerate() {
            for d in digits(!known.regions[h] & 0x1ff) {
                starts.clear();
                starts.extend(bits(g.digit_cells()[d as usize - 1] & m).map(|o| index(o, d)));
                if starts.len() >= 2 && self.share(starts.iter().copied(), &mut all) {
                    sieve.region[h] |= bit(d);
                    shared(sieve, house_unit(h, d), &starts, &all);
                } else {
                    quiet.regions[h] |= bit(d);
                }
            }
        }
        quiet
    }
}

/// The cells, and per house the digits, whose chains share nothing in a sieve.
#[derive(Clone, Copy, Default)]
pub(super) struct Quiet {
    cells: u128,
    regions: [u16; 27],
}

/// What the chain from each candidate switched on reached in a dynamic sieve, kept so that
/// the next step's sieve on the same grid less that step's removals can take it over
/// (`Carry`).
pub(super) struct Closures {
    /// Per closure, how many candidates it switched on, then each as a cell and a digit
    /// index: what it switched off follows from those (their cells' other candidates and
    /// their peers with the digit), and lists take a fifth of full rows.
    ons: Vec<u8>,
    /// Where each candidate's closure starts in `ons`, `NONE` where its chain met a
    /// contradiction.
    at: [u32; 729],
    /// The cells and houses whose chains shared nothing.
    quiet: Quiet,
}

/// A sieve's closures on a grid and the candidates removed since (`removed`, per cell):
/// which of them still hold on the grid without those candidates.
///
/// Taking out a candidate the chain also took out, or one whose cell and houses keep two
/// places or more besides it, leaves the chain's final state closed under the singles
/// rules, and nothing it derived rested on the candidate being there: provided every cell
/// and house it was in still has two places or more to start with (only those fill
/// themselves when one is left, `Start::multi_cell`), the chain reaches the same, less
/// the candidate. A contradiction stays one.
pub(super) struct Carry<'a> {
    closures: &'a Closures,
    removed: Vec<(usize, u8)>,
}

impl<'a> Carry<'a> {
    /// The carry from `closures` to `g`, their grid less `removed`, or `None` when a cell
    /// or house lost the second of its places.
    pub(super) fn new(
        closures: &'a Closures,
        g: &SeGrid,
        removed: &[u16; 81],
    ) -> Option<Carry<'a>> {
        let removed: Vec<(usize, u8)> = (0..81)
            .filter(|&c| g.val()[c] == 0)
            .flat_map(|c| digits(removed[c]).map(move |d| (c, d)))
            .collect();
        let multi = |&(c, d): &(usize, u8)| {
            g.card(c) >= 2 && (CR[c].iter()).all(|&h| g.places(h as usize, d) >= 2)
        };
        removed
            .iter()
            .all(multi)
            .then_some(Carry { closures, removed })
    }

    /// The cells and houses whose chains shared nothing on the closures' grid and still
    /// share nothing on `g`: those that kept all their candidates, whose closures all
    /// carried over (`carried`, per cell). A carried closure switches on the same and off
    /// no more, so those chains share no more than they did.
    fn still_quiet(&self, g: &SeGrid, carried: &[u16; 81]) -> Quiet {
        let was = &self.closures.quiet;
        let mut lost = Quiet::default();
        for &(c, d) in &self.removed {
            lost.cells |= 1 << c;
            for &h in &CR[c] {
                lost.regions[h as usize] |= bit(d);
            }
        }
        let mut still = Quiet::default();
        for c in (0..81).filter(|&c| g.val()[c] == 0 && carried[c] == g.cand()[c]) {
            still.cells |= 1 << c;
        }
        still.cells &= was.cells & !lost.cells;
        for (h, &m) in RM.iter().enumerate() {
            let whole =
                |d: u8| bits(g.digit_cells()[d as usize - 1] & m).all(|o| carried[o] & bit(d) != 0);
            let maybe = was.regions[h] & !lost.regions[h];
            for d in digits(maybe).filter(|&d| whole(d)) {
                still.regions[h] |= bit(d);
            }
        }
        still
    }

    /// The closure of candidate `d` of cell `c` as `Closures` lists it (its count of
    /// candidates switched on, then each), unless its chain met a contradiction: a
    /// closure carried over switches on the same.
    fn listed(&self, c: usize, d: u8) -> Option<&[u8]> {
        let s = self.closures.at[index(c, d)];
        let n = *self.closures.ons.get(s as usize)? as usize;
        self.closures.ons.get(s as usize..s as usize + 1 + 2 * n)
    }

    /// Writes what the chain from candidate `d` of cell `c` switched on reaches on the new
    /// grid into `out`, if it carries over (`Some(false)`: a contradiction, `out` left
    /// undefined, as it is when it does not carry over).
    fn reach(&self, g: &SeGrid, c: usize, d: u8, out: &mut Reached) -> Option<bool> {
        let s = self.closures.at[index(c, d)];
        if s == NONE {
            return Some(false);
        }
        let n = self.closures.ons[s as usize] as usize;
        let on = &mut out.on;
        *on = [0; 9];
        let (mut peers, mut cells) = ([0u128; 9], 0u128);
        for p in self.closures.ons[s as usize + 1..][..2 * n].chunks_exact(2) {
            let (o, i) = (p[0] as usize, p[1] as usize);
            on[i] |= CELL[o];
            peers[i] |= PEERS[o];
            cells |= CELL[o];
        }
        // What the chain switched off on either grid, where the grid has it.
        let off = |i: usize| peers[i] | (cells & !on[i]);
        for &(e, v) in &self.removed {
            let i = v as usize - 1;
            if off(i) & CELL[e] != 0 {
                continue;
            }
            let live_in_cell = digits(g.cand()[e]).filter(|&w| off(w as usize - 1) & CELL[e] == 0);
            let holds = on[i] & CELL[e] == 0
                && live_in_cell.count() >= 2
                && (CR[e].iter())
                    .all(|&h| (g.digit_cells()[i] & RM[h as usize] & !off(i)).count_ones() >= 2);
            if !holds {
                return None;
            }
        }
        for (i, m) in out.off.iter_mut().enumerate() {
            *m = off(i) & g.digit_cells()[i];
        }
        Some(true)
    }
}

impl Sieve {
    fn empty() -> Sieve {
        Sieve {
            binary: [0; 81],
            cell: 0,
            region: [0; 27],
            need_slot: Vec::new(),
            needs: Vec::new(),
            absurd: [0; 9],
            share_slot: Vec::new(),
        }
    }

    /// Adds `row` to what the chain from candidate `i` switched on (or off) must reach.
    fn need(&mut self, i: usize, on: bool, row: impl Iterator<Item = u64>) {
        let s = &mut self.need_slot[2 * i + on as usize];
        if *s == NONE {
            *s = self.needs.len() as u32;
            self.needs.extend(row);
        } else {
            for (n, w) in self.needs[*s as usize..][..36].iter_mut().zip(row) {
                *n |= w;
            }
        }
    }

    /// What the chain from candidate `d` of cell `c` switched on (or off) must reach
    /// before it may stop, or `None`: to its end.
    pub(super) fn targets(&self, c: usize, d: u8, on: bool) -> Option<Targets> {
        let s = *self.need_slot.get(2 * index(c, d) + on as usize)?;
        self.row(s).map(Targets::new)
    }

    /// The row of `needs` at `s`, if any (`NONE`: none).
    fn row(&self, s: u32) -> Option<Reached> {
        Some(Reached::from_row(self.needs.get(s as usize..)?.get(..36)?))
    }

    /// The sieve of a run of dynamic forcing chains on `g`, from the worklist or, where they
    /// carry over, the closures of the last step's sieve on `g` with more candidates;
    /// with this sieve's closures, to carry on.
    pub(super) fn dynamic(g: &SeGrid, carry: Option<&Carry>) -> (Sieve, Closures) {
        let start = Start::new(g);
        // Rows of 36 words (`Reached::row`): any candidate off, or on in a cell with others.
        let multi = start.multi_cell;
        let mut hint = [0u64; 36];
        let cands = Reached {
            on: g.digit_cells().map(|m| m & multi),
            off: *g.digit_cells(),
        };
        for (h, w) in hint.iter_mut().zip(cands.row()) {
            *h = w;
        }
        let mut sieve = Sieve::empty();
        sieve.need_slot = vec![NONE; 2 * 729];
        // Room for the rows of any run seen (up to a few hundred on the slowest puzzles,
        // where a third of the runs outgrew 64 and grew three times over).
        sieve.needs = Vec::with_capacity(36 * 512);
        // Chains whose partner (the same candidate's other state) meets a contradiction
        // run to their end, as those that meet one do.
        let mut whole = Vec::new();
        let mut queue = Vec::with_capacity(64);
        let mut words = Vec::with_capacity(36 * 256);
        let mut slot = [NONE; 729];
        let mut closures = Closures {
            ons: Vec::new(),
            at: [NONE; 729],
            quiet: Quiet::default(),
        };
        // Per cell, the candidates whose closures carried over.
        let mut carried = [0u16; 81];
        let mut closure = Reached::default();
        for c in (0..81).filter(|&c| g.val()[c] == 0) {
            for d in digits(g.cand()[c]) {
                let on = carry.and_then(|k| Some((k.reach(g, c, d, &mut closure)?, k)));
                let (held, listed) = match on {
                    Some((held, k)) => {
                        carried[c] |= bit(d);
                        (held, k.listed(c, d))
                    }
                    None => (start.reach(c, d, true, &mut queue, &mut closure), None),
                };
                if !held {
                    sieve.absurd[d as usize - 1] |= CELL[c];
                    continue;
                }
                slot[index(c, d)] = words.len() as u32;
                words.extend(closure.row());
                closures.at[index(c, d)] = closures.ons.len() as u32;
                if let Some(list) = listed {
                    closures.ons.extend_from_slice(list);
                    continue;
                }
                let n = closures.ons.len();
                closures.ons.push(0);
                for (i, &m) in closure.on.iter().enumerate() {
                    for o in bits(m) {
                        closures.ons.extend([o as u8, i as u8]);
                    }
                }
                closures.ons[n] = ((closures.ons.len() - n - 1) / 2) as u8;
            }
        }
        // Contradictions, and what both states of a candidate imply, read off the rows.
        let row = |i: usize| (slot[i] != NONE).then(|| &words[slot[i] as usize..][..36]);
        let mut off_row = [0u64; 36];
        for c in (0..81).filter(|&c| multi >> c & 1 != 0) {
            for d in digits(g.cand()[c]) {
                let i = index(c, d);
                // Met by the chain from the candidate switched on, a contradiction is
                // a hint whatever the other state reaches.
                let Some(on) = row(i) else {
                    sieve.binary[c] |= bit(d);
                    whole.extend([2 * i, 2 * i + 1]);
                    continue;
                };
                // Taken out of a cell of three or more, with three or more places in each
                // house, it switches nothing on, so both states share nothing: most
                // removals. Most others switch a candidate on, whose chain is done.
                if start.inert(c, d) {
                    continue;
                }
                let off = match start.partner(c, d) {
                    Some((o, e)) => row(index(o, e)),
                    None => start.reach(c, d, false, &mut queue, &mut closure).then(|| {
                        for (w, v) in off_row.iter_mut().zip(closure.row()) {
                            *w = v;
                        }
                        &off_row[..]
                    }),
                };
                let Some(off) = off else {
                    sieve.binary[c] |= bit(d);
                    whole.extend([2 * i, 2 * i + 1]);
                    continue;
                };
                // Outcomes of both: any candidate off, or on in a cell with others (`hint`).
                let both = (on.iter().zip(off).zip(&hint)).map(|((a, b), h)| a & b & h);
                if g.cand()[c].count_ones() >= 3 && both.clone().any(|w| w != 0) {
                    sieve.binary[c] |= bit(d);
                    sieve.need(i, true, both.clone());
                    sieve.need(i, false, both);
                }
            }
        }
        let outcomes = Outcomes {
            words: &words,
            width: 36,
            slot: &slot,
            hint: &hint,
        };
        let known = carry.map_or_else(Quiet::default, |k| k.still_quiet(g, &carried));
        // Chains that meet a contradiction have no targets: they run to their end.
        sieve.share_slot = vec![NONE; 81 + 27 * 9];
        closures.quiet = outcomes.flag(g, &mut sieve, &known, |sieve, unit, starts, all| {
            for &i in starts.iter().filter(|&&i| slot[i] != NONE) {
                sieve.need(i, true, all.iter().copied());
            }
            sieve.share_slot[unit] = sieve.needs.len() as u32;
            sieve.needs.extend_from_slice(all);
        });
        for i in whole {
            sieve.need_slot[i] = NONE;
        }
        (sieve, closures)
    }

    /// The sieve of a Nishio run on `g`: the candidates whose chain, from the candidate
    /// switched on or off, meets a contradiction.
    pub(super) fn nishio(g: &SeGrid) -> Sieve {
        let mut sieve = Sieve::empty();
        for (i, &places) in g.digit_cells().iter().enumerate() {
            // Only a house that starts with two places or more switches its last one on:
            // the chain does so when it takes out the last but one.
            let houses: Vec<u128> = (RM.iter().map(|&m| m & places))
                .filter(|m| m.count_ones() >= 2)
                .collect();
            for c in bits(places) {
                let start = 1u128 << c;
                if nishio_absurd(places, &houses, start, 0)
                    || nishio_absurd(places, &houses, 0, start)
                {
                    sieve.binary[c] |= bit(i as u8 + 1);
                }
            }
        }
        sieve
    }

    /// The sieve of a run of static multiple forcing chains on `g`, from the reachability
    /// sets of its links (built for `g`): a static chain reaches what its links reach,
    /// or part of it when it stops at a contradiction, and less shares less.
    pub(super) fn fixed(g: &SeGrid, reach: &Reach) -> Sieve {
        // Nodes come in pairs, off then on, in candidate order (`Reach::build`).
        let width = reach.words;
        let mut hint = vec![0x5555_5555_5555_5555u64; width];
        let mut slot = [NONE; 729];
        for c in (0..81).filter(|&c| g.val()[c] == 0) {
            for d in digits(g.cand()[c]) {
                let on = reach.node[key(c, d, true) as usize] as usize;
                if g.cand()[c].count_ones() >= 2 {
                    hint[on / 64] |= 1 << (on % 64);
                }
                slot[index(c, d)] = reach.row(on) as u32;
            }
        }
        let mut sieve = Sieve::empty();
        let outcomes = Outcomes {
            words: &reach.sets,
            width,
            slot: &slot,
            hint: &hint,
        };
        outcomes.flag(g, &mut sieve, &Quiet::default(), |_, _, _, _| {});
        sieve
    }

    /// The sieve of static multiple chains on a grid with the candidates `removed` (per
    /// cell) fewer than this sieve's grid, and no link that grid lacks (`links_within`):
    /// a static chain there reaches no more, so a cell or house that keeps all its
    /// starts shares no more; those that lost one are let through.
    pub(super) fn fixed_without(&self, removed: &[u16; 81]) -> Sieve {
        let mut sieve = self.clone();
        for (c, &m) in removed.iter().enumerate().filter(|&(_, &m)| m != 0) {
            sieve.cell |= 1 << c;
            for &h in &CR[c] {
                sieve.region[h as usize] |= m;
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

    /// Whether the chain from candidate `d` of cell `c` switched on meets a contradiction
    /// (known in dynamic sieves only).
    pub(super) fn absurd(&self, c: usize, d: u8) -> bool {
        self.absurd[d as usize - 1] >> c & 1 != 0
    }

    /// What the chains from candidate `d` of cell `c` switched on and off share, if
    /// neither meets a contradiction and they share a hint outcome (dynamic sieves): the
    /// chain from the candidate switched off serves double chains alone, so those are
    /// its targets.
    pub(super) fn doubles(&self, c: usize, d: u8) -> Option<Reached> {
        self.row(*self.need_slot.get(2 * index(c, d))?)
    }

    /// For a unit (`cell_unit`, `house_unit`) a dynamic sieve flagged, the hint outcomes
    /// its chains that meet no contradiction share: it yields only those, and only if
    /// the others share them too.
    pub(super) fn shares(&self, unit: usize) -> Option<Reached> {
        self.row(*self.share_slot.get(unit)?)
    }
}

#[cfg(test)]
mod tests {
    use super::super::chains::{rule_hints, rule_run, Chainer};
    use super::super::nested::EVERY_CANDIDATE;
    use super::super::potentials::{Arena, PSet, C_NONE};
    use super::super::reach::links_within;
    use super::super::tests::reduced_pairs;
    use super::super::*;
    use super::*;
    use crate::candidates::Candidates;
    use crate::grid::{Cell, Digit, Grid};
    use crate::logic::testutil::singles;

    /// Grids as the nested rules meet them: from the tests' reduced grids, and the same
    /// with candidates of the solution gone too (chains from false assumptions).
    fn grids() -> Vec<SeGrid> {
        let mut out = Vec::new();
        for (i, (src, g)) in reduced_pairs(5).into_iter().enumerate() {
            let mut cand = *g.cand();
            for (c, m) in cand.iter_mut().enumerate() {
                if (c * 7 + i) % 11 == 0 && m.count_ones() > 1 {
                    *m &= *m - 1;
                }
            }
            out.push(SeGrid::from_parts(g.val(), &cand));
            out.push(src);
            out.push(g);
        }
        out
    }

    /// SE's chaining from one candidate: what it switched on and off, and whether it met
    /// a contradiction (and stopped there).
    fn chaining(ch: &mut Chainer, g: &SeGrid, c: usize, d: u8, on: bool) -> (Reached, bool) {
        let mut ar = Arena::default();
        let (mut to_on, mut to_off) = (PSet::new(), PSet::new());
        let p = ar.add(key(c, d, on), C_NONE, &[], None);
        if on {
            to_on.add(&ar, p);
        } else {
            to_off.add(&ar, p);
        }
        let met = ch.do_chaining(g, &mut g.clone(), &mut ar, &mut to_on, &mut to_off, None);
        let keys = to_on.order.iter().chain(&to_off.order).map(|&p| ar.key(p));
        (Reached::of(keys), met.is_some())
    }

    /// The worklist's closure from candidate `d` of cell `c` switched on (or off).
    fn closure(start: &Start, c: usize, d: u8, on: bool) -> Option<Reached> {
        let mut out = Reached::default();
        start
            .reach(c, d, on, &mut Vec::new(), &mut out)
            .then_some(out)
    }

    /// The closure of candidate `d` of cell `c` carried over, if it carries over.
    fn carried_over(carry: &Carry, g: &SeGrid, c: usize, d: u8) -> Option<Option<Reached>> {
        let mut out = Reached::default();
        let held = carry.reach(g, c, d, &mut out)?;
        Some(held.then_some(out))
    }

    fn chainer(chain_rule: ChainRule, nested: &NestedCache) -> Chainer<'_> {
        let context = Context {
            src: None,
            first: false,
            explain: false,
            solution: None,
            nested,
        };
        Chainer::new(chain_rule, context)
    }

    /// The worklist reaches what SE's dynamic chaining reaches, and a contradiction
    /// exactly when it meets one.
    #[test]
    fn worklist_agrees_with_dynamic_chaining() {
        let (mut absurd, mut compared) = (0, 0);
        for g in grids() {
            let start = Start::new(&g);
            let nested = NestedCache::default();
            let mut ch = chainer(ChainRule::dynamic(0), &nested);
            for c in (0..81).filter(|&c| g.val()[c] == 0) {
                for d in digits(g.cand()[c]) {
                    for on in [true, false] {
                        let (se, met) = chaining(&mut ch, &g, c, d, on);
                        absurd += met as usize;
                        compared += 1;
                        match closure(&start, c, d, on) {
                            Some(r) => assert!(!met && r.on == se.on && r.off == se.off),
                            None => assert!(met, "from {c} {d} {on}"),
                        }
                    }
                }
            }
        }
        assert!(
            absurd > 100 && compared > 2000,
            "{absurd} contradictions of {compared}"
        );
    }

    /// What naked and hidden singles (`testutil::singles`, written from their definition
    /// apart from the chains) reach in grid `g` once candidate `d` of cell `c` is placed
    /// (`on`) or removed: the candidates placed and removed, or `None` when they break the
    /// grid.
    fn singles_reach(g: &SeGrid, c: usize, d: u8, on: bool) -> Option<Reached> {
        let cell = |x: usize| Cell::new(x).expect("a cell");
        let digit = |e: u8| Digit::new(e).expect("a digit");
        let mut start = Candidates::new(&Grid::from_values(*g.val()).expect("a valid grid"));
        for x in (0..81).filter(|&x| g.val()[x] == 0) {
            for e in (1..=9).filter(|&e| g.cand()[x] & bit(e) == 0) {
                start.eliminate(cell(x), digit(e));
            }
        }
        if on {
            start.place(cell(c), digit(d));
        } else {
            start.eliminate(cell(c), digit(d));
        }
        let end = singles(start)?;
        let mut reached = Reached::default();
        for x in (0..81).filter(|&x| g.val()[x] == 0) {
            for e in digits(g.cand()[x]) {
                if end.value(cell(x)) == Some(digit(e)) {
                    reached.on[e as usize - 1] |= 1 << x;
                } else if !end.get(cell(x)).contains(digit(e)) {
                    reached.off[e as usize - 1] |= 1 << x;
                }
            }
        }
        Some(reached)
    }

    /// Whether grid `g` holds a single: a cell of one candidate, or a digit with one place
    /// in a house that lacks it.
    fn has_single(g: &SeGrid) -> bool {
        let cells = (0..81).any(|c| g.val()[c] == 0 && g.cand()[c].count_ones() == 1);
        cells
            || RM.iter().any(|&house| {
                (1..=9).any(|d| {
                    !bits(house).any(|c| g.val()[c] == d)
                        && bits(house).filter(|&c| g.cand()[c] & bit(d) != 0).count() == 1
                })
            })
    }

    /// SE's dynamic chaining from a candidate switched on or off meets a contradiction
    /// exactly when singles from the same assumption break the grid, and otherwise
    /// switches on and off exactly what singles place and remove: the definition of a
    /// dynamic chain, on which its contradiction and verity steps rest, checked for every
    /// candidate of the test grids that hold no single (chains come after singles; SE's
    /// chains start from a cell or house of two candidates or places at least).
    #[test]
    fn dynamic_chains_meet_a_contradiction_exactly_where_singles_do() {
        let (mut absurd, mut compared) = (0, 0);
        let nested = NestedCache::default();
        let mut ch = chainer(ChainRule::dynamic(0), &nested);
        for g in grids().into_iter().filter(|g| !has_single(g)) {
            for c in (0..81).filter(|&c| g.val()[c] == 0) {
                for d in digits(g.cand()[c]) {
                    for on in [true, false] {
                        let (se, met) = chaining(&mut ch, &g, c, d, on);
                        let singles = singles_reach(&g, c, d, on);
                        assert_eq!(met, singles.is_none(), "from {c} {d} {on}");
                        if let Some(reached) = singles {
                            assert_eq!(se, reached, "from {c} {d} {on}");
                        }
                        absurd += met as usize;
                        compared += 1;
                    }
                }
            }
        }
        assert!(
            absurd > 40 && compared > 2000,
            "{absurd} contradictions of {compared}"
        );
    }

    /// The one-digit worklist meets a contradiction exactly when SE's Nishio chaining
    /// does, from every candidate switched on and off.
    #[test]
    fn nishio_worklist_agrees_with_nishio_chaining() {
        let (mut absurd, mut compared) = (0, 0);
        let nested = NestedCache::default();
        let mut ch = chainer(ChainRule::NISHIO, &nested);
        for g in grids() {
            let sieve = Sieve::nishio(&g);
            for (i, &places) in g.digit_cells().iter().enumerate() {
                let d = i as u8 + 1;
                let houses: Vec<u128> = (RM.iter().map(|&m| m & places))
                    .filter(|m| m.count_ones() >= 2)
                    .collect();
                for c in bits(places) {
                    let mut any = false;
                    for on in [true, false] {
                        let (_, met) = chaining(&mut ch, &g, c, d, on);
                        let (a, b) = if on { (1 << c, 0) } else { (0, 1 << c) };
                        assert_eq!(nishio_absurd(places, &houses, a, b), met, "{c} {d} {on}");
                        absurd += met as usize;
                        compared += 1;
                        any |= met;
                    }
                    assert_eq!(sieve.binary(c, d), any);
                }
            }
        }
        assert!(
            absurd > 100 && compared > 2000,
            "{absurd} contradictions of {compared}"
        );
    }

    /// Taking out a candidate reaches what switching on any candidate it switches on at
    /// once reaches, a contradiction included.
    #[test]
    fn taking_out_reaches_what_switching_on_a_partner_does() {
        let (mut compared, mut absurd, mut others) = (0, 0, 0);
        for g in grids() {
            let start = Start::new(&g);
            for c in (0..81).filter(|&c| g.card(c) >= 2) {
                for d in digits(g.cand()[c]) {
                    let off = closure(&start, c, d, false);
                    let partners: Vec<(usize, u8)> = digits(g.cand()[c] & !bit(d))
                        .filter(|_| g.card(c) == 2)
                        .map(|e| (c, e))
                        .chain(
                            (CR[c].iter())
                                .filter(|&&h| g.places(h as usize, d) == 2)
                                .map(|&h| {
                                    (
                                        (g.cells(h as usize, d) & !(1 << c)).trailing_zeros()
                                            as usize,
                                        d,
                                    )
                                }),
                        )
                        .collect();
                    assert_eq!(start.partner(c, d), partners.first().copied());
                    for (i, &(o, e)) in partners.iter().enumerate() {
                        assert_eq!(off, closure(&start, o, e, true), "{c} {d}");
                        compared += 1;
                        absurd += off.is_none() as usize;
                        others += (i > 0) as usize;
                    }
                }
            }
        }
        assert!(
            compared > 1000 && absurd > 50 && others > 100,
            "{compared} compared ({absurd} contradictions, {others} second partners)"
        );
    }

    /// The reachability sets hold what SE's static chaining reaches from a candidate
    /// switched on: all of it, or more when the chaining stops at a contradiction.
    #[test]
    fn reachability_agrees_with_static_chaining() {
        let (mut absurd, mut compared) = (0, 0);
        for g in grids() {
            let mut reach = Reach::default();
            reach.xy(&g);
            let nested = NestedCache::default();
            let mut ch = chainer(ChainRule::MULTIPLE, &nested);
            for c in (0..81).filter(|&c| g.val()[c] == 0) {
                for d in digits(g.cand()[c]) {
                    let (se, met) = chaining(&mut ch, &g, c, d, true);
                    let row = reach.row(reach.node[key(c, d, true) as usize] as usize);
                    let mut sets = Reached {
                        on: [0; 9],
                        off: [0; 9],
                    };
                    for node in bits_of(&reach.sets[row..][..reach.words]) {
                        let k = reach.keys[node];
                        let side = if kon(k) { &mut sets.on } else { &mut sets.off };
                        side[kdig(k) as usize - 1] |= 1 << kcell(k);
                    }
                    let within =
                        |a: &[u128; 9], b: &[u128; 9]| a.iter().zip(b).all(|(x, y)| x & !y == 0);
                    if met {
                        absurd += 1;
                        assert!(within(&se.on, &sets.on) && within(&se.off, &sets.off));
                    } else {
                        assert!(se.on == sets.on && se.off == sets.off, "from {c} {d}");
                    }
                    compared += 1;
                }
            }
        }
        assert!(
            absurd > 50 && compared > 1000,
            "{absurd} contradictions of {compared}"
        );
    }

    /// Where the loops rule searches nowhere on a grid, it searches nowhere (so finds
    /// nothing) on the grid with a candidate fewer and no new link, and the static
    /// multiple chains' sieve carried over lets through all the new grid's own does.
    /// Without the link test, it would carry over runs that do search.
    #[test]
    fn loops_rule_runs_carry_over_to_grids_with_fewer_links() {
        let nested = NestedCache::default();
        let context = Context {
            src: Some(&EVERY_CANDIDATE),
            first: false,
            explain: false,
            solution: None,
            nested: &nested,
        };
        let analysis = |g: &SeGrid| {
            let mut reach = Reach::default();
            reach.xy(g);
            let (found, searched) = rule_run(g, ChainRule::LOOPS, context, true);
            (found.is_empty() && !searched, Sieve::fixed(g, &reach))
        };
        let (mut carried, mut refused) = (0, 0);
        for g in grids() {
            let (dead, sieve) = analysis(&g);
            if !dead {
                continue;
            }
            for c in (0..81).filter(|&c| g.card(c) >= 2) {
                for d in digits(g.cand()[c]) {
                    let mut cand = *g.cand();
                    cand[c] &= !bit(d);
                    let small = SeGrid::from_parts(g.val(), &cand);
                    let (small_dead, own) = analysis(&small);
                    if !links_within(&small, &g) {
                        refused += !small_dead as usize;
                        continue;
                    }
                    assert!(small_dead, "{c} {d}");
                    let mut removed = [0; 81];
                    removed[c] = bit(d);
                    let wide = sieve.fixed_without(&removed);
                    assert_eq!(own.cell & !wide.cell, 0);
                    assert!((own.region.iter().zip(&wide.region)).all(|(o, w)| o & !w == 0));
                    carried += 1;
                }
            }
        }
        assert!(
            carried > 200 && refused > 5,
            "{carried} carried over, {refused} with new links searched"
        );
    }

    /// Each candidate of a cell of two or more in `big`: the grid without it, and it as
    /// the removals since `big` (per cell).
    fn less_one(big: &SeGrid) -> impl Iterator<Item = (usize, u8, SeGrid, [u16; 81])> + '_ {
        let cands = (0..81).filter(|&c| big.card(c) >= 2);
        cands
            .flat_map(|c| digits(big.cand()[c]).map(move |d| (c, d)))
            .map(|(c, d)| {
                let mut cand = *big.cand();
                cand[c] &= !bit(d);
                let mut removed = [0; 81];
                removed[c] = bit(d);
                (c, d, SeGrid::from_parts(big.val(), &cand), removed)
            })
    }

    /// A dynamic sieve's closures carried over to the grid with a candidate fewer are the
    /// closures the worklist finds there, where `Carry` takes them; and taking them
    /// everywhere would be wrong.
    #[test]
    fn dynamic_closures_carry_over_to_grids_with_fewer_candidates() {
        let (mut carried, mut computed, mut changed) = (0, 0, 0);
        for big in grids().into_iter().step_by(3) {
            let (_, closures) = Sieve::dynamic(&big, None);
            for (c, d, g, removed) in less_one(&big) {
                let carry = Carry::new(&closures, &g, &removed);
                let start = Start::new(&g);
                for o in (0..81).filter(|&o| g.val()[o] == 0) {
                    for e in digits(g.cand()[o]) {
                        let own = closure(&start, o, e, true);
                        match carry.as_ref().and_then(|k| carried_over(k, &g, o, e)) {
                            Some(taken) => {
                                assert_eq!(taken, own, "{c} {d}: {o} {e}");
                                carried += 1;
                            }
                            None => {
                                computed += 1;
                                // The old grid's closure, less the candidate.
                                let naive = closure(&Start::new(&big), o, e, true).map(|r| {
                                    let mut off = r.off;
                                    off[d as usize - 1] &= !(1 << c);
                                    (r.on, off)
                                });
                                changed += (naive != own.map(|r| (r.on, r.off))) as usize;
                            }
                        }
                    }
                }
            }
        }
        assert!(
            carried > 10_000 && changed > 100,
            "{carried} carried, {computed} computed, {changed} of those changed"
        );
    }

    /// A dynamic sieve on closures carried over, which takes the cells and houses whose
    /// chains shared nothing there as sharing nothing still, flags the same chains and
    /// targets as one on closures of its own.
    #[test]
    fn sieves_on_carried_closures_flag_the_same() {
        let (mut carried, mut quiet) = (0, 0);
        let flags = |s: &Sieve, g: &SeGrid| {
            let targets = (0..81).flat_map(|c| digits(g.cand()[c]).map(move |d| (c, d)));
            let targets: Vec<_> = targets
                .flat_map(|(c, d)| [true, false].map(|on| s.targets(c, d, on)))
                .map(|t| t.map(|t| (t.on, t.off)))
                .collect();
            (s.binary, s.cell, s.region, targets)
        };
        for big in grids().into_iter().step_by(3) {
            let (_, closures) = Sieve::dynamic(&big, None);
            let regions = closures.quiet.regions.iter().map(|m| m.count_ones());
            quiet += closures.quiet.cells.count_ones() + regions.sum::<u32>();
            for (c, d, g, removed) in less_one(&big) {
                let Some(carry) = Carry::new(&closures, &g, &removed) else {
                    continue;
                };
                carried += 1;
                let (with, _) = Sieve::dynamic(&g, Some(&carry));
                let (own, _) = Sieve::dynamic(&g, None);
                assert!(flags(&with, &g) == flags(&own, &g), "{c} {d}");
            }
        }
        assert!(
            carried > 1000 && quiet > 1000,
            "{carried} carried, {quiet} quiet"
        );
    }

    fn bits_of(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
        (0..words.len() * 64).filter(move |&i| words[i / 64] >> (i % 64) & 1 != 0)
    }

    /// Runs find the same hints, in the same order, with the sieve, deferred parents,
    /// chains built ahead and the loops rule's cycle searches cut short as without; a
    /// top-level run asked for its first hint alone finds the first of them (and may skip
    /// hints that would come later, `Chainer::best`).
    #[test]
    fn runs_with_shortcuts_find_the_same_hints() {
        let (mut empty, mut hints) = (0, 0);
        for g in grids() {
            for (chain_rule, src, first) in [
                (ChainRule::dynamic(0), None, true),
                (ChainRule::dynamic(0), None, false),
                (ChainRule::dynamic(0), Some(&EVERY_CANDIDATE), false),
                (ChainRule::MULTIPLE, None, true),
                (ChainRule::MULTIPLE, None, false),
                (ChainRule::MULTIPLE, Some(&EVERY_CANDIDATE), false),
                (ChainRule::NISHIO, None, true),
                (ChainRule::NISHIO, None, false),
                (ChainRule::NISHIO, Some(&EVERY_CANDIDATE), false),
                (ChainRule::LOOPS, None, true),
                (ChainRule::LOOPS, None, false),
                (ChainRule::LOOPS, Some(&EVERY_CANDIDATE), false),
                // Top-level nested runs build their chains ahead on the pool, and find
                // their complexities together.
                (ChainRule::dynamic(1), None, false),
                (ChainRule::dynamic(1), None, true),
            ] {
                let nested = NestedCache::default();
                let context = Context {
                    src,
                    first,
                    explain: src.is_none(),
                    solution: None,
                    nested: &nested,
                };
                let key = |h: &Hint| {
                    (
                        h.tech,
                        h.complexity,
                        h.sort_key,
                        h.removals.clone(),
                        h.place,
                        h.parents.clone(),
                        h.text.clone(),
                    )
                };
                let mut plain: Vec<_> = rule_hints(&g, chain_rule, context, false)
                    .iter()
                    .map(key)
                    .collect();
                let mut quick: Vec<_> = rule_hints(&g, chain_rule, context, true)
                    .iter()
                    .map(key)
                    .collect();
                if first {
                    plain.truncate(1);
                    quick.truncate(1);
                }
                assert_eq!(plain, quick, "{chain_rule:?}, first {first}");
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
