//! The search engine: candidates stored per digit and per band, propagation by table lookups.
//!
//! For every digit `d` and band `b` (three rows), one 27-bit word holds the cells of the band
//! where `d` may still go: bit `9 * row + col` with `row` in 0..3 within the band. The words of
//! a band are grouped in threes ("minirows": the three cells a row shares with a box), so the
//! rows-and-boxes structure of a band is a 3 × 3 matrix of minirows. Each digit occupies
//! exactly one minirow per row and one per box of the band: a permutation matrix. A 512-entry
//! table maps the set of still-occupied minirows to the union of the permutations it still
//! contains, which gives in one lookup the box–line interactions (pointing and claiming along
//! rows), the hidden singles of rows and boxes, and the contradictions of the band; a box
//! confined to one column clears that column from the other two bands. Tables on the same
//! index give the cells kept and the minirows left alone in their row, which with the
//! columns confined to one cell per box are the band's hidden singles. The same table
//! applied to a stack (three bands × the three columns of a box column) gives the vertical
//! interactions and the hidden singles of columns; it runs only when the band logic and the
//! naked singles stall, on the digits whose words changed, and only on open grids. Naked
//! singles come from counting candidates across the nine digits with bitwise adders.
//!
//! The band logic runs on a word when it differs from the copy the logic last left
//! (`seen`), in an unrolled sweep over the 27 words; placing a naked single or a branch digit
//! only clears its peers within the band, and the band logic completes the placement.
//!
//! A placed digit keeps its bit in its own digit's word and loses it from every other digit's
//! word, so the solution is read back from the words once every cell is placed.

use crate::grid::Grid;

use super::Stats;

/// Bits of a 27-bit band word.
const BAND: u32 = (1 << 27) - 1;

/// Row `r` (0..3) of a band.
const fn row_mask(r: usize) -> u32 {
    0x1ff << (9 * r)
}

/// Column `c` (0..9) in every row of a band.
const fn col_mask(c: usize) -> u32 {
    (1 | 1 << 9 | 1 << 18) << c
}

/// For each 9-bit row, which of its three minirows are non-empty (3 bits).
static MINIROWS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        let mut k = 0;
        while k < 3 {
            if i & (7 << (3 * k)) != 0 {
                t[i] |= 1 << k;
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// For a 3 × 3 occupancy matrix (bit `3 * i + j`), the union of the permutation matrices it
/// contains; 0 when it contains none.
static PERMS: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = permutations_within(m).0 as u16;
        m += 1;
    }
    t
};

/// The union of the permutation matrices within the 3 × 3 matrix `m`, and their number.
const fn permutations_within(m: usize) -> (usize, u16) {
    let (mut union, mut count) = (0, 0);
    let mut s = 0;
    while s < 6 {
        let p = PERMUTATION_MATRICES[s];
        if m & p == p {
            union |= p;
            count += 1;
        }
        s += 1;
    }
    (union, count)
}

/// The six 3 × 3 permutation matrices (bit `3 * i + j`).
const PERMUTATION_MATRICES: [usize; 6] = {
    const SIGMAS: [[usize; 3]; 6] = crate::grid::PERMUTATIONS_OF_3;
    let mut t = [0; 6];
    let mut s = 0;
    while s < 6 {
        t[s] = (1 << SIGMAS[s][0]) | (1 << (3 + SIGMAS[s][1])) | (1 << (6 + SIGMAS[s][2]));
        s += 1;
    }
    t
};

/// A 9-bit minirow set (bit `3 * row + box`) widened to the 27 cells it covers.
static MINIROW_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 9 {
            if m & (1 << k) != 0 {
                t[m] |= 7 << (3 * k);
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// For the 9-bit set of columns where a digit may go in a band: the columns that are the
/// only one left in their box, widened to the 27 cells of a band. The digit's box in this
/// band sits in that column, so the other two bands lose it (pointing along a column).
static LOCKED_COLUMNS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 3 {
            let group = (m >> (3 * k)) & 7;
            if group == 1 || group == 2 || group == 4 {
                t[m] |= col_mask(3 * k + group.trailing_zeros() as usize);
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// For a band word's 3 × 3 occupancy matrix: the cells of the minirows its permutations
/// use ([`PERMS`] widened), 0 when there are none; one lookup where two would chain.
static KEPT_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = MINIROW_CELLS[PERMS[m] as usize];
        m += 1;
    }
    t
};

/// For a band word's 3 × 3 occupancy matrix: the cells of the minirows its permutations
/// leave alone in their row. Such a minirow's box holds the digit nowhere else, so when the
/// box is also confined to one column ([`LOCKED_COLUMNS`]) the row holds one cell: a hidden
/// single.
static LOCKED_ROWS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let allowed = PERMS[m] as usize;
        let mut r = 0;
        while r < 3 {
            let line = (allowed >> (3 * r)) & 7;
            if line == 1 || line == 2 || line == 4 {
                t[m] |= MINIROW_CELLS[line << (3 * r)];
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// For cell `pos` of a band (0..27): the other cells of its row, box and column within the
/// band, i.e. what a placement there removes from its own digit's word. Padded to 32
/// entries so that an index masked to five bits needs no bounds check.
static BAND_PEERS: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut pos = 0;
    while pos < 27 {
        let (r, c) = (pos / 9, pos % 9);
        let bx = (c / 3) * 3;
        let box_cells = (7 << bx) | (7 << (bx + 9)) | (7 << (bx + 18));
        t[pos] = (row_mask(r) | col_mask(c) | box_cells) & !(1 << pos);
        pos += 1;
    }
    t
};

/// The search state: candidate words and the cells still to fill.
#[derive(Clone, Copy)]
pub(crate) struct State {
    /// Index `3 * digit + band`: where the digit may go in the band. A placed digit keeps
    /// its bit here and loses every peer.
    cand: [u32; 27],
    /// The words as the band logic last left them: a word differing from its copy has
    /// lost candidates since, and is due for the band logic again.
    seen: [u32; 27],
    /// Per band, the cells not yet placed.
    unsolved: [u32; 3],
    /// Digits (bit `d`) whose words the band logic changed since the stack logic last ran
    /// on them: the stack logic of any other digit would find nothing new.
    stack_dirty: u32,
}

/// Runs `$body` with `$d` bound to each constant digit index 0..9, unrolled, so that the
/// digit and band of every word are known at compile time.
macro_rules! each_digit {
    ($d:ident => $body:block) => {
        each_digit!(@ $d $body; 0 1 2 3 4 5 6 7 8)
    };
    (@ $d:ident $body:block; $($n:literal)*) => {
        $({ const $d: usize = $n; $body })*
    };
}

impl State {
    /// The state holding the givens of `grid`, or `None` when two givens clash.
    ///
    /// The givens are applied in bulk: each digit loses its givens' peers, each given cell
    /// every other digit. Propagation then starts from there.
    #[inline(always)]
    pub(crate) fn new<const X86: bool>(grid: &Grid) -> Option<State> {
        let givens = givens::<X86>(grid);
        let mut filled = [0u32; 3];
        for (i, &g) in givens.iter().enumerate() {
            filled[i % 3] |= g;
        }
        let mut cand = [BAND; 27];
        for d in 0..9 {
            let g = [givens[3 * d], givens[3 * d + 1], givens[3 * d + 2]];
            let cols = g.map(|w| widen(columns(w)));
            for b in 0..3 {
                let mut peers = cols[(b + 1) % 3] | cols[(b + 2) % 3];
                let mut bits = g[b];
                while bits != 0 {
                    peers |= BAND_PEERS[bits.trailing_zeros() as usize & 31];
                    bits &= bits - 1;
                }
                if g[b] & peers != 0 {
                    return None;
                }
                cand[3 * d + b] = (BAND & !(peers | filled[b])) | g[b];
            }
        }
        Some(State {
            cand,
            seen: [BAND; 27],
            unsolved: filled.map(|f| BAND & !f),
            stack_dirty: 0x1ff,
        })
    }

    /// Removes the candidates `excluded` marks (in the layout of `cand`). A given that loses
    /// its own digit leaves its row without that digit, which propagation finds a
    /// contradiction: no solution has that given elsewhere.
    #[inline(always)]
    pub(crate) fn exclude(&mut self, excluded: &[u32; 27]) {
        for (word, removed) in self.cand.iter_mut().zip(excluded) {
            *word &= !removed;
        }
    }

    /// Whether every cell holds a digit.
    pub(crate) fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The grid of placed digits (0 for cells not yet placed).
    #[inline(always)]
    pub(crate) fn grid<const X86: bool>(&self) -> Grid {
        let mut values = [0u8; 81];
        for (b, band) in values.chunks_exact_mut(27).enumerate() {
            // Bit planes of the digit values: plane `k` holds the placed cells whose digit
            // has bit `k` set (a placed cell keeps only its digit's bit).
            let placed = !self.unsolved[b];
            let mut planes = [0u32; 4];
            for d in 0..9 {
                let w = self.cand[3 * d + b] & placed;
                for (k, plane) in planes.iter_mut().enumerate() {
                    if (d + 1) >> k & 1 != 0 {
                        *plane |= w;
                    }
                }
            }
            // Eight cells at a time, each plane's bits spread to one byte per cell.
            for (chunk, out) in band.chunks_mut(8).enumerate() {
                let mut bytes = 0u64;
                for (k, plane) in planes.iter().enumerate() {
                    bytes |= spread_bits::<X86>((plane >> (8 * chunk)) as u8) << k;
                }
                out.copy_from_slice(&bytes.to_le_bytes()[..out.len()]);
            }
        }
        // Four bit planes of digits 1–9 make values of at most 9.
        Grid(values)
    }

    /// Puts digit `d` into the cell `bit` of band `b` cheaply: only the peers within the band
    /// lose `d`. The band logic finishes the job when it next runs on the word (its row is
    /// then a single, and its box is confined to its column), so this is only for states
    /// about to be propagated. The caller checks that `d` is still possible there.
    #[inline(always)]
    fn insert(&mut self, d: usize, b: usize, bit: u32) {
        self.cand[3 * d + b] &= !BAND_PEERS[bit.trailing_zeros() as usize & 31];
    }

    /// The band logic of word `I` (digit `I / 3`, band `I % 3`): keeps only the minirows
    /// that some row/box permutation still uses, removes from the other bands the columns
    /// a box of this band is confined to, and places the hidden singles (rows left with one
    /// cell); `false` on a contradiction.
    #[inline(always)]
    fn update_band<const I: usize, const X86: bool>(&mut self, stats: &mut Stats) -> bool {
        let (d, b) = (I / 3, I % 3);
        let x = self.cand[I];
        let occupied = minirows::<X86>(x);
        // Kept minirows are occupied ones, so nothing is kept only when no permutation is.
        let y = x & KEPT_CELLS[occupied];
        if y == 0 {
            return false;
        }
        self.cand[I] = y;
        self.seen[I] = y;
        self.stack_dirty |= 1 << d;
        let locked_columns = LOCKED_COLUMNS[columns(y) as usize];
        self.cand[3 * d + (b + 1) % 3] &= !locked_columns;
        self.cand[3 * d + (b + 2) % 3] &= !locked_columns;
        let singles = x & LOCKED_ROWS[occupied] & locked_columns;
        // Rows left with one cell hold the digit there (cells placed earlier included, for
        // which this changes nothing): the other digits lose those cells.
        stats.propagations += 1;
        self.unsolved[b] &= !singles;
        for e in 0..9 {
            if e != d {
                self.cand[3 * e + b] &= !singles;
            }
        }
        true
    }

    /// Runs the band logic on every word that changed, until none does; `false` on a
    /// contradiction.
    #[inline(always)]
    fn sweep<const X86: bool>(&mut self, stats: &mut Stats) -> bool {
        loop {
            // One test per digit first, and per band only for a digit that changed: most
            // digits have not, and fewer branches are fewer mispredicted ones.
            let mut changed = false;
            each_digit!(D => {
                let w = 3 * D;
                let diff = (self.cand[w] ^ self.seen[w])
                    | (self.cand[w + 1] ^ self.seen[w + 1])
                    | (self.cand[w + 2] ^ self.seen[w + 2]);
                if diff != 0 {
                    changed = true;
                    if self.cand[w] != self.seen[w] && !self.update_band::<{ 3 * D }, X86>(stats) {
                        return false;
                    }
                    if self.cand[w + 1] != self.seen[w + 1]
                        && !self.update_band::<{ 3 * D + 1 }, X86>(stats)
                    {
                        return false;
                    }
                    if self.cand[w + 2] != self.seen[w + 2]
                        && !self.update_band::<{ 3 * D + 2 }, X86>(stats)
                    {
                        return false;
                    }
                }
            });
            if !changed {
                return true;
            }
        }
    }

    /// The stack logic (columns against boxes, across the three bands) of digit `d`: keeps
    /// only the minicolumns that some column/box permutation of each stack still uses, which
    /// gives the hidden singles of columns and the box–column interactions; `false` on a
    /// contradiction. Returns through `changed` whether any word narrowed.
    #[inline(always)]
    fn update_stacks<const X86: bool>(&mut self, d: usize, changed: &mut bool) -> bool {
        let x = [self.cand[3 * d], self.cand[3 * d + 1], self.cand[3 * d + 2]];
        let cols = x.map(columns);
        let all = cols[0] | cols[1] << 9 | cols[2] << 18;
        let mut kept = 0;
        for st in 0..3 {
            let allowed = PERMS[stack_matrix::<X86>(all, st)] as u32;
            if allowed == 0 {
                return false;
            }
            kept |= unstack_matrix::<X86>(allowed, st);
        }
        for b in 0..3 {
            let keep = (kept >> (9 * b)) & 0x1ff;
            if cols[b] & !keep != 0 {
                self.cand[3 * d + b] = x[b] & widen(keep);
                *changed = true;
            }
        }
        true
    }

    /// Places the naked singles of every band; `false` on a contradiction (a cell without
    /// candidates, or two singles clashing). Returns through `placed` whether any was placed.
    #[inline(always)]
    fn naked_singles(&mut self, placed: &mut bool) -> bool {
        // Counted for the three bands at once (lane = band), which vectorises.
        let (mut ones, mut twos) = ([0u32; 3], [0u32; 3]);
        for words in self.cand.chunks_exact(3) {
            for ((one, two), &x) in ones.iter_mut().zip(&mut twos).zip(words) {
                *two |= *one & x;
                *one |= x;
            }
        }
        let empty = (0..3).fold(0, |acc, b| acc | (self.unsolved[b] & !ones[b]));
        if empty != 0 {
            return false;
        }
        for (b, two) in twos.into_iter().enumerate() {
            let mut singles = self.unsolved[b] & !two;
            while singles != 0 {
                let pos = singles.trailing_zeros();
                singles &= singles - 1;
                let digits = self.digits_at(b, pos);
                if digits == 0 {
                    // Emptied by an earlier single of this pass.
                    return false;
                }
                *placed = true;
                self.insert(digits.trailing_zeros() as usize, b, 1 << pos);
            }
        }
        true
    }

    /// Propagates to a fixed point; `false` when the state has no solution. `X86` may only
    /// be set in the copy compiled for (and run on) x86-64 with BMI1/BMI2/POPCNT/AVX2; then
    /// PEXT/PDEP gather minirows and stack matrices.
    #[inline(always)]
    pub(crate) fn propagate<const X86: bool>(&mut self, stats: &mut Stats) -> bool {
        let min_open = if stats.guesses >= HARD_GUESSES {
            0
        } else {
            STACK_LOGIC_MIN_OPEN
        };
        loop {
            if !self.sweep::<X86>(stats) {
                return false;
            }
            if self.is_solved() {
                return true;
            }
            let mut changed = false;
            if !self.naked_singles(&mut changed) {
                return false;
            }
            if changed {
                continue;
            }
            // The stack logic pays on open grids (17-clue puzzles, the top of hard searches)
            // and costs more than the branches it saves on nearly full ones.
            let open: u32 = self.unsolved.iter().map(|u| u.count_ones()).sum();
            if open < min_open {
                return true;
            }
            let mut digits = self.stack_dirty;
            self.stack_dirty = 0;
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                if !self.update_stacks::<X86>(d, &mut changed) {
                    return false;
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Where to branch, as a split of one word into two narrower ones.
    ///
    /// A digit's place in a band (or a stack) is one of six permutations of its minirows
    /// (minicolumns), its configurations; the band or stack with the fewest configurations
    /// over its nine digits is the most constrained, and in it the digit with the fewest is
    /// split: into one configuration and the other when it has two, else on whether it
    /// takes one minirow. Tdoku's README shows that this branching needs about half the
    /// guesses of branching on cells on hard puzzles, and the benchmark here agrees. Choosing
    /// costs more than taking a cell with two candidates, though, which on easy searches
    /// (few guesses, nearly full grids) is as good, so until a search has made
    /// [`CONFIG_GUESSES`] guesses such a cell goes first when there is one (in the widest
    /// band until [`HARD_GUESSES`], see [`State::pair_branch`]). A band or stack
    /// whose minirows can no longer hold three digits each ends the branch at once (see
    /// [`weigh`]). Only called on an unsolved state.
    #[inline(always)]
    pub(crate) fn branch<const X86: bool>(
        &self,
        near: Option<&[u32; 27]>,
        stats: &Stats,
    ) -> Branch {
        if stats.guesses < CONFIG_GUESSES {
            let young = stats.guesses < HARD_GUESSES;
            if let Some(branch) = self.pair_branch(near, young) {
                return branch;
            }
        }
        // Per band and per stack: the total configurations, and the digit with the fewest
        // (above one).
        let mut best = (u32::MAX, 0usize, 0usize, false);
        let mut rows = [[0usize; 9]; 3];
        let mut stacks = [[0usize; 9]; 3];
        for d in 0..9 {
            let x = [self.cand[3 * d], self.cand[3 * d + 1], self.cand[3 * d + 2]];
            let cols = x.map(columns);
            let all = cols[0] | cols[1] << 9 | cols[2] << 18;
            for b in 0..3 {
                rows[b][d] = minirows::<X86>(x[b]);
                stacks[b][d] = stack_matrix::<X86>(all, b);
            }
        }
        for (vertical, units) in [(false, &rows), (true, &stacks)] {
            for (at, matrices) in units.iter().enumerate() {
                let Some((total, digit)) = weigh(matrices) else {
                    return Branch::DEAD;
                };
                if total > 9 && total < best.0 {
                    best = (total, at, digit, vertical);
                }
            }
        }
        let (total, at, d, vertical) = best;
        if total == u32::MAX {
            // Every digit's configuration is fixed, so propagation has placed every cell:
            // a fallback for safety only.
            return self.cell_branch(near);
        }
        let matrix = if vertical { stacks[at][d] } else { rows[at][d] };
        // The element to split on: where two configurations differ, else the first element
        // of a line that has two or more.
        let element = split_element(matrix);
        let (row, col) = (element / 3, element % 3);
        let (word, keep_in, take_out) = if vertical {
            // Element (band `row`, column `col` of stack `at`).
            let c = 3 * at + col;
            let others = (7 << (3 * at)) & !(1 << c);
            (3 * d + row, !widen(others), !col_mask(c))
        } else {
            (
                3 * d + at,
                !MINIROW_CELLS[(7 << (3 * row) | 0o111 << col) & !(1 << element)],
                !MINIROW_CELLS[1 << element],
            )
        };
        let mut branch = Branch {
            word,
            first: keep_in,
            second: take_out,
            also: (word, !0),
        };
        if let Some(near) = near {
            // Try first the side that keeps the near grid's cells of this digit.
            if near[word] & self.cand[word] & !keep_in != 0 {
                std::mem::swap(&mut branch.first, &mut branch.second);
            }
        }
        branch
    }

    /// A branch on the first cell with two candidates, if any: one side places the first
    /// (the near grid's digit, when given), the other the second.
    ///
    /// With `widest`, the cell is taken from the band with the most open cells that has one:
    /// a placement there leaves the most to propagate. That costs a sort, worth it near the
    /// root, where the tree is shaped: on the magic tour list guesses fall from 19.1 to 16.0
    /// a puzzle and instructions by 9%, the hard lists unchanged.
    #[inline(always)]
    fn pair_branch(&self, near: Option<&[u32; 27]>, widest: bool) -> Option<Branch> {
        let mut order = [0usize, 1, 2];
        if widest {
            let open = self.unsolved.map(u32::count_ones);
            order.sort_by_key(|&b| std::cmp::Reverse(open[b]));
        }
        for b in order {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[3 * d + b];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let pairs = two & !three & self.unsolved[b];
            if pairs != 0 {
                let pos = pairs.trailing_zeros();
                let digits = self.digits_at(b, pos);
                let mut d = digits.trailing_zeros() as usize;
                let mut e = (digits & (digits - 1)).trailing_zeros() as usize;
                if near.is_some_and(|n| n[3 * e + b] >> pos & 1 != 0) {
                    std::mem::swap(&mut d, &mut e);
                }
                let peers = !BAND_PEERS[pos as usize & 31];
                return Some(Branch {
                    word: 3 * d + b,
                    first: peers,
                    second: !(1 << pos),
                    also: (3 * e + b, peers),
                });
            }
        }
        None
    }

    /// A branch on the cell with the fewest candidates among the first open cell of each
    /// band: its lowest digit (the near grid's, when given) placed, or removed.
    #[cold]
    fn cell_branch(&self, near: Option<&[u32; 27]>) -> Branch {
        let mut best = (u32::MAX, 0usize, 0u32);
        for b in 0..3 {
            if self.unsolved[b] != 0 {
                let pos = self.unsolved[b].trailing_zeros();
                let n = self.digits_at(b, pos).count_ones();
                if n < best.0 {
                    best = (n, b, pos);
                }
            }
        }
        let (_, b, pos) = best;
        let digits = self.digits_at(b, pos & 31);
        let wanted = near.map_or(0, |n| {
            digits & (0..9).fold(0, |w, d| w | (n[3 * d + b] >> pos & 1) << d)
        });
        let d = (if wanted != 0 { wanted } else { digits })
            .trailing_zeros()
            .min(8) as usize;
        Branch {
            word: 3 * d + b,
            first: !BAND_PEERS[pos as usize & 31],
            second: !(1 << (pos & 31)),
            also: (3 * d + b, !0),
        }
    }

    /// The digits (bit `d`) still possible in cell `pos` of band `b`, gathered without a
    /// data-dependent loop.
    #[inline(always)]
    fn digits_at(&self, b: usize, pos: u32) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= ((self.cand[3 * d + b] >> pos) & 1) << d;
        }
        digits
    }

    /// Splits the search: `with`, a copy of `self`, takes the first side of the branch and
    /// `self` the second. Each is to be completed by its propagation.
    #[inline(always)]
    pub(crate) fn split(&mut self, at: Branch, with: &mut State) {
        with.cand[at.word] &= at.first;
        self.cand[at.word] &= at.second;
        self.cand[at.also.0] &= at.also.1;
    }
}

/// The configurations a band or stack has left over its digits' 3 × 3 `matrices`, and the
/// digit with the fewest above one; `None` when more than three digits must go in one
/// minirow (minicolumn), each being alone in a line there. Checking this, a triad rule
/// tdoku propagates, keeps branching on configurations from overfilling a minirow and then
/// searching on below it for long: on sparse grids that made searches ten times longer or
/// endless.
#[inline(always)]
fn weigh(matrices: &[usize; 9]) -> Option<(u32, usize)> {
    let (mut total, mut digit) = (0, (u32::MAX, 0));
    let (mut one, mut two, mut three, mut four) = (0, 0, 0, 0);
    for (d, &m) in matrices.iter().enumerate() {
        let weight = WEIGHTS[m] as u32;
        let n = weight >> 9;
        total += n;
        if n > 1 && n < digit.0 {
            digit = (n, d);
        }
        let must = weight & 0x1ff;
        four |= three & must;
        three |= two & must;
        two |= one & must;
        one |= must;
    }
    (four == 0).then_some((total, digit.1))
}

/// The columns (nine bits) where a band word has a cell.
#[inline(always)]
fn columns(word: u32) -> u32 {
    (word | word >> 9 | word >> 18) & 0x1ff
}

/// Columns of a 9-bit set widened to the cells of a band.
#[inline(always)]
fn widen(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// The element of a 3 × 3 matrix of configurations to branch on: one where the first two
/// configurations differ when there are exactly two, else the first element of the first
/// line that has two or more.
#[inline(always)]
fn split_element(matrix: usize) -> usize {
    let allowed = PERMS[matrix] as usize;
    for r in 0..3 {
        let line = (allowed >> (3 * r)) & 7;
        if line & (line - 1) != 0 {
            return 3 * r + line.trailing_zeros() as usize;
        }
    }
    unreachable!("a matrix with two configurations has a line with two elements")
}

/// Bit `i` of `x` moved to bit 0 of byte `i`: the byte is copied to all eight lanes, lane
/// `i` keeps only bit `i`, and adding 0x7f carries any set bit to the lane's top bit.
#[inline(always)]
fn spread_bits<const X86: bool>(x: u8) -> u64 {
    const LANES: u64 = 0x0101_0101_0101_0101;
    #[cfg(target_arch = "x86_64")]
    if X86 {
        // SAFETY: `X86` is only set in the copy of the engine compiled for BMI2 (and more),
        // which runs only where the processor has it.
        return unsafe { std::arch::x86_64::_pdep_u64(x as u64, LANES) };
    }
    let kept = (x as u64 * LANES) & 0x8040_2010_0804_0201;
    ((kept + 0x7f7f_7f7f_7f7f_7f7f) >> 7) & LANES
}

/// The digits of `grid` as band words (index `3 * (digit - 1) + band`), portably.
pub(crate) fn words(grid: &Grid) -> [u32; 27] {
    givens::<false>(grid)
}

/// The givens of `grid` as band words: index `3 * (digit - 1) + band`.
#[inline(always)]
fn givens<const X86: bool>(grid: &Grid) -> [u32; 27] {
    let mut givens = [0u32; 27];
    #[cfg(target_arch = "x86_64")]
    if X86 {
        use std::arch::x86_64::*;
        let mut bytes = [0u8; 96];
        bytes[..81].copy_from_slice(grid.values());
        // SAFETY: `X86` is only set in the copy of the engine compiled for AVX2 (and more),
        // which runs only where the processor has it; the loads stay within `bytes`.
        unsafe {
            let lanes = [0, 32, 64].map(|at| _mm256_loadu_si256(bytes[at..].as_ptr().cast()));
            for (d, words) in givens.chunks_exact_mut(3).enumerate() {
                let digit = _mm256_set1_epi8(d as i8 + 1);
                let [a, b, c] =
                    lanes.map(|l| _mm256_movemask_epi8(_mm256_cmpeq_epi8(l, digit)) as u32 as u128);
                let cells = a | b << 32 | c << 64;
                words[0] = cells as u32 & BAND;
                words[1] = (cells >> 27) as u32 & BAND;
                words[2] = (cells >> 54) as u32 & BAND;
            }
        }
        return givens;
    }
    // Branch-free: empty cells land in the scratch words 0..3, digit `v` in `3 * v + band`
    // (at most 29: a grid's values are at most 9; the mask only spares a bounds check).
    let mut all = [0u32; 32];
    for (b, band) in grid.values().chunks_exact(27).enumerate() {
        for (pos, &v) in band.iter().enumerate() {
            all[(3 * v as usize + b) & 31] |= 1 << pos;
        }
    }
    givens.copy_from_slice(&all[3..30]);
    givens
}

/// The 3 × 3 matrix of stack `st` (bit `3 * band + column`) from a digit's occupied columns
/// in the three bands, `cols` (nine bits a band).
#[inline(always)]
fn stack_matrix<const X86: bool>(cols: u32, st: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if X86 {
        // SAFETY: `X86` is only set in the copy of the engine compiled for BMI2 (and more),
        // which runs only where the processor has it.
        // The mask keeps the index provably in range of the 512-entry tables.
        return unsafe { std::arch::x86_64::_pext_u32(cols, 0o007_007_007 << (3 * st)) } as usize
            & 0x1ff;
    }
    ((cols >> (3 * st)) & 7
        | ((cols >> (9 + 3 * st)) & 7) << 3
        | ((cols >> (18 + 3 * st)) & 7) << 6) as usize
}

/// The inverse of [`stack_matrix`]: the 3 × 3 `matrix` of stack `st` laid back into the
/// three bands' column sets (nine bits a band).
#[inline(always)]
fn unstack_matrix<const X86: bool>(matrix: u32, st: usize) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if X86 {
        // SAFETY: as in `stack_matrix`.
        return unsafe { std::arch::x86_64::_pdep_u32(matrix, 0o007_007_007 << (3 * st)) };
    }
    ((matrix & 7) | ((matrix >> 3) & 7) << 9 | ((matrix >> 6) & 7) << 18) << (3 * st)
}

/// The 9-bit set of non-empty minirows of a band word (bit `3 * row + box`).
#[inline(always)]
fn minirows<const X86: bool>(x: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if X86 {
        // SAFETY: `X86` is only set in the copy of the engine compiled for BMI2 (and more),
        // which runs only where the processor has it.
        return unsafe { std::arch::x86_64::_pext_u32(x | x >> 1 | x >> 2, 0o111_111_111) }
            as usize
            & 0x1ff;
    }
    // The masks keep every index provably in range, so no bounds checks are emitted.
    (MINIROWS[(x & 0x1ff) as usize] as usize & 7)
        | (MINIROWS[((x >> 9) & 0x1ff) as usize] as usize & 7) << 3
        | (MINIROWS[((x >> 18) & 0x1ff) as usize] as usize & 7) << 6
}

/// Until a search has made this many guesses, a cell with two candidates is branched on
/// before any configuration (see [`State::branch`]). Measured in instructions on the hard
/// files (callgrind): 16 needs the fewest guesses, 128 the fewest instructions, since
/// taking a pair costs less than choosing a configuration; 512 and never did worse.
const CONFIG_GUESSES: u64 = 128;

/// Below this many unsolved cells, propagation skips the stack logic until a search has
/// shown itself hard ([`HARD_GUESSES`]): on nearly full grids it costs more than the
/// branches it saves (measured on the benchmark files: the nearly full multi-solution
/// puzzles want 50).
const STACK_LOGIC_MIN_OPEN: u32 = 45;

/// Once a search has branched this often, the puzzle has shown itself hard, and the stack
/// logic runs on every grid (it ran down to 35 open cells until searches branched on
/// configurations; now every grid saves 2–4% of the instructions on the hard files).
const HARD_GUESSES: u64 = 16;

/// A branch point chosen by [`State::branch`]: one word narrowed two ways, which together
/// keep every solution.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Branch {
    word: usize,
    /// What the word keeps on the side tried first.
    first: u32,
    /// What it keeps on the other side.
    second: u32,
    /// A second word narrowed on the other side (placing a pair's other digit), or `!0`.
    also: (usize, u32),
}

impl Branch {
    /// Both sides empty a word: the state has no solution.
    const DEAD: Branch = Branch {
        word: 0,
        first: 0,
        second: 0,
        also: (0, !0),
    };
}

/// For a 3 × 3 occupancy matrix: in bits 0..9 the elements alone in their row or in their
/// column (where the digit must go), above them how many permutation matrices it contains
/// (its configurations).
static WEIGHTS: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = permutations_within(m).1 << 9;
        let mut k = 0;
        while k < 9 {
            let row = 7 << (3 * (k / 3));
            let col = 0o111 << (k % 3);
            if m & (1 << k) != 0 && (m & row == 1 << k || m & col == 1 << k) {
                t[m] |= 1 << k;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_table() {
        assert_eq!(PERMS[0x1ff], 0x1ff);
        // The identity and the anti-diagonal keep themselves; their union keeps both.
        assert_eq!(PERMS[0b100_010_001], 0b100_010_001);
        assert_eq!(PERMS[0b001_010_100], 0b001_010_100);
        assert_eq!(PERMS[0b101_010_101], 0b101_010_101);
        // An empty row, or two rows confined to one box, leave no permutation.
        assert_eq!(PERMS[0b111_111_000], 0);
        assert_eq!(PERMS[0b111_001_001], 0);
        // Row 0 confined to box 0: boxes 1 and 2 go to rows 1 and 2 only.
        assert_eq!(PERMS[0b111_111_001], 0b110_110_001);
    }

    #[test]
    fn weights_count_configurations_and_places_a_digit_must_take() {
        assert_eq!(WEIGHTS[0x1ff], 6 << 9);
        assert_eq!(WEIGHTS[0b100_010_001], 1 << 9 | 0b100_010_001);
        // Row 0 confined to its first element: two configurations left, and that element
        // is a must.
        assert_eq!(WEIGHTS[0b111_111_001], 2 << 9 | 0b001);
        // Two configurations differ first in row 1, where the split takes element 3 + 1.
        assert_eq!(split_element(0b100_010_001 | 0b010_100_001), 4);
        // Four digits that must go in element 0 overfill it.
        let must = [0b100_010_001; 9];
        assert!(weigh(&must).is_none());
        let mut free = [0x1ff; 9];
        assert_eq!(weigh(&free), Some((54, 0)));
        free[5] = 0b111_111_001;
        assert_eq!(weigh(&free), Some((50, 5)));
    }

    #[test]
    fn stack_matrices_gather_and_scatter_alike_in_both_copies() {
        for m in 0..512u32 {
            for st in 0..3 {
                let cols = unstack_matrix::<false>(m, st);
                assert_eq!(cols & !(0o007_007_007 << (3 * st)), 0);
                assert_eq!(stack_matrix::<false>(cols, st), m as usize);
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("bmi2") {
                    assert_eq!(unstack_matrix::<true>(m, st), cols);
                    assert_eq!(stack_matrix::<true>(cols, st), m as usize);
                }
            }
        }
    }

    #[test]
    fn minirow_and_column_tables() {
        assert_eq!(MINIROWS[0b000_010_000], 0b010);
        assert_eq!(MINIROWS[0x1ff], 0b111);
        assert_eq!(MINIROW_CELLS[0b000_000_010], 0b111_000);
        assert_eq!(MINIROW_CELLS[0b100_000_000], 0b111 << 24);
        // Columns 0 and 1 in the first box: not locked; column 4 alone in the second: locked.
        assert_eq!(LOCKED_COLUMNS[0b000_010_011], col_mask(4));
        assert_eq!(BAND_PEERS[0].count_ones(), 8 + 2 + 4);
    }

    #[test]
    fn locked_rows_and_columns_meet_in_the_rows_left_with_one_cell() {
        // Words of every density, from a fixed xorshift sequence.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for density in 1..8 {
            for _ in 0..20_000 {
                let mut x = BAND;
                for _ in 0..density {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    x &= seed as u32 | (seed >> 32) as u32;
                }
                let occupied = minirows::<false>(x);
                let allowed = PERMS[occupied] as usize;
                if allowed == 0 {
                    continue;
                }
                let y = x & MINIROW_CELLS[allowed];
                assert_eq!(KEPT_CELLS[occupied], MINIROW_CELLS[allowed]);
                let one_cell = (0..3)
                    .map(|r| y & row_mask(r))
                    .filter(|row| row.count_ones() == 1)
                    .fold(0, |acc, row| acc | row);
                let singles = x & LOCKED_ROWS[occupied] & LOCKED_COLUMNS[columns(y) as usize];
                assert_eq!(singles, one_cell, "word {x:#029b}");
            }
        }
    }

    #[test]
    fn bits_spread_to_bytes_alike_in_both_copies() {
        assert_eq!(spread_bits::<false>(0), 0);
        assert_eq!(spread_bits::<false>(0xff), 0x0101_0101_0101_0101);
        assert_eq!(spread_bits::<false>(0b1000_0101), 0x0100_0000_0001_0001);
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("bmi2") {
            for x in 0..=255 {
                assert_eq!(spread_bits::<true>(x), spread_bits::<false>(x));
            }
        }
    }

    #[test]
    fn givens_are_read_and_clashes_refused() {
        let mut values = [0u8; 81];
        values[0] = 3;
        values[40] = 9;
        values[80] = 1;
        let grid = Grid::from_values(values).unwrap();
        let state = State::new::<false>(&grid).unwrap();
        assert_eq!(state.grid::<false>(), grid);
        assert!(!state.is_solved());
        values[76] = 1; // row 9 already holds a 1
        assert!(State::new::<false>(&Grid::from_values(values).unwrap()).is_none());
    }
}
