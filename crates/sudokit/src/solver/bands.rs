//! The search engine: candidates stored per digit and per band, propagation by table lookups.
//!
//! For every digit `d` and band `b` (three rows), one 27-bit word holds the cells of the band
//! where `d` may still go: bit `9 * row + col` with `row` in 0..3 within the band. The words of
//! a band are grouped in threes ("minirows": the three cells a row shares with a box), so the
//! rows-and-boxes structure of a band is a 3 × 3 matrix of minirows. Each digit occupies
//! exactly one minirow per row and one per box of the band: a permutation matrix. A 512-entry
//! table maps the set of still-occupied minirows to the union of the permutations it still
//! contains, which gives in one lookup the box–line interactions (pointing and claiming along
//! rows), the hidden singles of rows and boxes, and the contradictions of the band. The same
//! table applied to a stack (three bands × the three columns of a box column) gives the
//! vertical interactions and the hidden singles of columns. Naked singles come from counting
//! candidates across the nine digits with bitwise adders.
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
    const SIGMAS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut s = 0;
        while s < 6 {
            let p = (1 << SIGMAS[s][0]) | (1 << (3 + SIGMAS[s][1])) | (1 << (6 + SIGMAS[s][2]));
            if m & p == p {
                t[m] |= p as u16;
            }
            s += 1;
        }
        m += 1;
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

/// For cell `pos` of a band (0..27): the other cells of its row, box and column within the
/// band, i.e. what a placement there removes from its own digit's word.
static BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
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
    /// Index `3 * digit + band`: where the digit may go in the band.
    cand: [u32; 27],
    /// Per band, the cells not yet placed.
    unsolved: [u32; 3],
    /// Words (bit `3 * digit + band`) changed since their band logic last ran.
    dirty: u32,
    /// Words changed since the stack logic last ran (same bits as `dirty`).
    stack_dirty: u32,
}

impl State {
    /// The state holding the givens of `grid`, or `None` when two givens clash.
    pub(crate) fn new(grid: &Grid) -> Option<State> {
        let mut s = State {
            cand: [BAND; 27],
            unsolved: [BAND; 3],
            dirty: 0,
            stack_dirty: 0,
        };
        for (i, &v) in grid.values().iter().enumerate() {
            if v != 0 && !s.place(v as usize - 1, i / 27, 1 << (i % 27)) {
                return None;
            }
        }
        Some(s)
    }

    /// Whether every cell holds a digit.
    pub(crate) fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The grid of placed digits (0 for cells not yet placed).
    pub(crate) fn grid(&self) -> Grid {
        let mut values = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut bits = self.cand[3 * d + b] & !self.unsolved[b];
                while bits != 0 {
                    values[27 * b + bits.trailing_zeros() as usize] = d as u8 + 1;
                    bits &= bits - 1;
                }
            }
        }
        Grid::from_values(values).unwrap_or(Grid::EMPTY)
    }

    /// Puts digit `d` into the cell `bit` of band `b`; `false` if `d` was no longer possible
    /// there (the caller then drops the state).
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, bit: u32) -> bool {
        let i = 3 * d + b;
        if self.cand[i] & bit == 0 {
            return false;
        }
        let pos = bit.trailing_zeros() as usize;
        self.cand[i] &= !BAND_PEERS[pos];
        let col = col_mask(pos % 9);
        let mut dirty = 1 << i;
        for ob in [(b + 1) % 3, (b + 2) % 3] {
            let j = 3 * d + ob;
            let old = self.cand[j];
            self.cand[j] = old & !col;
            dirty |= ((old & col != 0) as u32) << j;
        }
        for e in 0..9 {
            if e != d {
                let j = 3 * e + b;
                let old = self.cand[j];
                self.cand[j] = old & !bit;
                dirty |= ((old & bit != 0) as u32) << j;
            }
        }
        self.unsolved[b] &= !bit;
        self.dirty |= dirty;
        self.stack_dirty |= dirty;
        true
    }

    /// Removes digit `d` from the cell `bit` of band `b`.
    #[inline(always)]
    fn eliminate(&mut self, d: usize, b: usize, bit: u32) {
        let i = 3 * d + b;
        self.cand[i] &= !bit;
        self.dirty |= 1 << i;
        self.stack_dirty |= 1 << i;
    }

    /// Runs the row/box logic of word `i` (digit `i / 3`, band `i % 3`) and places its hidden
    /// singles; `false` on a contradiction.
    #[inline(always)]
    fn update_band(&mut self, i: usize, stats: &mut Stats) -> bool {
        let x = self.cand[i];
        let occupied = MINIROWS[(x & 0x1ff) as usize] as usize
            | (MINIROWS[((x >> 9) & 0x1ff) as usize] as usize) << 3
            | (MINIROWS[(x >> 18) as usize] as usize) << 6;
        let allowed = PERMS[occupied] as usize;
        if allowed == 0 {
            return false;
        }
        let y = x & MINIROW_CELLS[allowed];
        if y != x {
            self.cand[i] = y;
            self.stack_dirty |= 1 << i;
        }
        let (d, b) = (i / 3, i % 3);
        let mut singles = 0;
        for r in 0..3 {
            let row = y & row_mask(r);
            if row & row.wrapping_sub(1) == 0 {
                singles |= row;
            }
        }
        singles &= self.unsolved[b];
        while singles != 0 {
            let bit = singles & singles.wrapping_neg();
            singles &= singles - 1;
            stats.propagations += 1;
            if !self.place(d, b, bit) {
                return false;
            }
        }
        true
    }

    /// Runs the stack logic (columns against boxes, across the three bands) of digit `d`;
    /// `false` on a contradiction. Narrowed words are marked dirty for the band logic.
    #[inline(always)]
    fn update_stacks(&mut self, d: usize) -> bool {
        let x = [self.cand[3 * d], self.cand[3 * d + 1], self.cand[3 * d + 2]];
        let cols = x.map(|w| (w | w >> 9 | w >> 18) & 0x1ff);
        let mut keep = [0u32; 3];
        for s in 0..3 {
            let sh = 3 * s;
            let occupied =
                ((cols[0] >> sh) & 7) | ((cols[1] >> sh) & 7) << 3 | ((cols[2] >> sh) & 7) << 6;
            let allowed = PERMS[occupied as usize] as u32;
            if allowed == 0 {
                return false;
            }
            keep[0] |= (allowed & 7) << sh;
            keep[1] |= ((allowed >> 3) & 7) << sh;
            keep[2] |= ((allowed >> 6) & 7) << sh;
        }
        for b in 0..3 {
            if cols[b] & !keep[b] != 0 {
                let k = keep[b];
                self.cand[3 * d + b] = x[b] & (k | k << 9 | k << 18);
                self.dirty |= 1 << (3 * d + b);
            }
        }
        true
    }

    /// Places the naked singles of every band; `false` on a contradiction (a cell without
    /// candidates, or two singles clashing).
    #[inline(always)]
    fn naked_singles(&mut self, stats: &mut Stats) -> bool {
        for b in 0..3 {
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[3 * d + b];
                two |= one & x;
                one |= x;
            }
            let unsolved = self.unsolved[b];
            if unsolved & !one != 0 {
                return false;
            }
            let mut singles = unsolved & !two;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles &= singles - 1;
                let mut d = 0;
                while self.cand[3 * d + b] & bit == 0 {
                    d += 1;
                    if d == 9 {
                        // Emptied by an earlier single of this pass.
                        return false;
                    }
                }
                stats.propagations += 1;
                if !self.place(d, b, bit) {
                    return false;
                }
            }
        }
        true
    }

    /// Propagates to a fixed point; `false` when the state has no solution.
    #[inline(always)]
    pub(crate) fn propagate(&mut self, stats: &mut Stats) -> bool {
        loop {
            while self.dirty != 0 {
                let i = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                if !self.update_band(i, stats) {
                    return false;
                }
            }
            if !self.naked_singles(stats) {
                return false;
            }
            if self.dirty != 0 {
                continue;
            }
            let mut digits = digits_of(self.stack_dirty);
            self.stack_dirty = 0;
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                if !self.update_stacks(d) {
                    return false;
                }
            }
            if self.dirty == 0 {
                return true;
            }
        }
    }

    /// The candidate to branch on: a digit of a cell with the fewest candidates (two when
    /// any cell has two), as `(digit, band, bit)`. Only called on an unsolved state.
    #[inline(always)]
    pub(crate) fn branch(&self) -> (usize, usize, u32) {
        let mut best = (0, 0, 0);
        for b in 0..3 {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[3 * d + b];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let pairs = two & !three & self.unsolved[b];
            if pairs != 0 {
                let bit = pairs & pairs.wrapping_neg();
                return (self.first_digit(b, bit), b, bit);
            }
            if best.2 == 0 {
                let rest = self.unsolved[b];
                if rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    best = (self.first_digit(b, bit), b, bit);
                }
            }
        }
        best
    }

    /// The smallest digit still possible in cell `bit` of band `b`.
    #[inline(always)]
    fn first_digit(&self, b: usize, bit: u32) -> usize {
        (0..9)
            .find(|&d| self.cand[3 * d + b] & bit != 0)
            .unwrap_or(0)
    }

    /// Splits the search on `(d, b, bit)`: `self` keeps the branch without it, the returned
    /// state has it placed (`None` if that placement clashes at once).
    #[inline(always)]
    pub(crate) fn split(&mut self, (d, b, bit): (usize, usize, u32)) -> Option<State> {
        let mut with = *self;
        self.eliminate(d, b, bit);
        with.place(d, b, bit).then_some(with)
    }
}

/// The digits (bit `d`) owning any of the words in `words` (bit `3 * d + band`).
#[inline(always)]
fn digits_of(words: u32) -> u32 {
    let folded = words | words >> 1 | words >> 2;
    // Gather bits 0, 3, …, 24 into bits 0..9.
    let mut out = 0;
    for d in 0..9 {
        out |= ((folded >> (3 * d)) & 1) << d;
    }
    out
}
