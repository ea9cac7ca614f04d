//! The assumptions count: the least number of cells whose solution digit must be assumed
//! before naked and hidden singles alone finish the puzzle.
//!
//! An assumption that is false never lets singles finish a puzzle with a unique solution
//! (a finished grid would be a second solution), so only true digits are assumed. Singles
//! are monotone — more placed digits never block a deduction — so what a set of
//! assumptions achieves does not depend on their order, and the search enumerates sets,
//! not sequences: iterative deepening over the cells left empty by singles, each new
//! assumption on a later cell than the one before, each level starting from the grid the
//! previous assumptions and singles reached (cells filled on the way drop out).

use crate::grid::{house_cells, peers};

/// Candidate masks (bit `d - 1`) and values of a grid while singles run.
#[derive(Clone)]
pub(crate) struct Singles {
    val: [u8; 81],
    cand: [u16; 81],
}

/// `grid`'s peer table as cell indices, the form the singles loop reads.
const fn peer_indices() -> [[u8; 20]; 81] {
    let peers = peers();
    let mut t = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut i = 0;
        while i < 20 {
            t[c][i] = peers[c][i].index() as u8;
            i += 1;
        }
        c += 1;
    }
    t
}

static PEERS: [[u8; 20]; 81] = peer_indices();

/// `grid`'s house table as cell indices.
const fn house_indices() -> [[u8; 9]; 27] {
    let houses = house_cells();
    let mut t = [[0u8; 9]; 27];
    let mut h = 0;
    while h < 27 {
        let mut i = 0;
        while i < 9 {
            t[h][i] = houses[h][i].index() as u8;
            i += 1;
        }
        h += 1;
    }
    t
}

static HOUSES: [[u8; 9]; 27] = house_indices();

impl Singles {
    /// The grid of `values` (0 = empty) with singles applied; `None` on a contradiction.
    pub fn new(values: &[u8; 81]) -> Option<Singles> {
        let mut s = Singles {
            val: [0; 81],
            cand: [0x1ff; 81],
        };
        for (c, &v) in values.iter().enumerate() {
            if v != 0 && !s.set(c, v) {
                return None;
            }
        }
        s.propagate().then_some(s)
    }

    fn set(&mut self, c: usize, v: u8) -> bool {
        let b = 1u16 << (v - 1);
        if self.cand[c] & b == 0 {
            return false;
        }
        self.val[c] = v;
        self.cand[c] = 0;
        for &o in &PEERS[c] {
            self.cand[o as usize] &= !b;
        }
        true
    }

    /// Naked and hidden singles to a fixed point; false on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            let mut progress = false;
            for c in 0..81 {
                if self.val[c] == 0 {
                    let m = self.cand[c];
                    if m == 0 {
                        return false;
                    }
                    if m.count_ones() == 1 {
                        self.set(c, m.trailing_zeros() as u8 + 1);
                        progress = true;
                    }
                }
            }
            for h in &HOUSES {
                let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
                for &c in h {
                    let c = c as usize;
                    if self.val[c] != 0 {
                        placed |= 1 << (self.val[c] - 1);
                    }
                    twice |= once & self.cand[c];
                    once |= self.cand[c];
                }
                if (once | placed) != 0x1ff {
                    return false;
                }
                let mut single = once & !twice & !placed;
                while single != 0 {
                    let b = single & single.wrapping_neg();
                    single &= single - 1;
                    let v = b.trailing_zeros() as u8 + 1;
                    if let Some(&c) = h.iter().find(|&&c| self.cand[c as usize] & b != 0) {
                        if !self.set(c as usize, v) {
                            return false;
                        }
                        progress = true;
                    }
                }
            }
            if !progress {
                return true;
            }
        }
    }

    pub fn solved(&self) -> bool {
        self.val.iter().all(|&v| v != 0)
    }
}

/// Result of the assumptions search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assumptions {
    /// Exactly this many assumptions are needed (0: singles solve the puzzle).
    Exact(u8),
    /// More than the search cap: at least this many.
    AtLeast(u8),
}

impl std::fmt::Display for Assumptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Assumptions::Exact(k) => write!(f, "{k}"),
            Assumptions::AtLeast(k) => write!(f, ">={k}"),
        }
    }
}

/// The least number of true digits to assume before singles finish `puzzle`, searched up
/// to `cap` assumptions. `solution` is the puzzle's unique solution.
pub(crate) fn assumptions(puzzle: &[u8; 81], solution: &[u8; 81], cap: u8) -> Assumptions {
    let Some(start) = Singles::new(puzzle) else {
        return Assumptions::AtLeast(0);
    };
    if start.solved() {
        return Assumptions::Exact(0);
    }
    for k in 1..=cap {
        if search(&start, solution, 0, k) {
            return Assumptions::Exact(k);
        }
    }
    Assumptions::AtLeast(cap + 1)
}

/// Whether `left` more assumptions on cells from `from` on can let singles finish.
fn search(s: &Singles, solution: &[u8; 81], from: usize, left: u8) -> bool {
    for c in from..81 {
        if s.val[c] != 0 {
            continue;
        }
        let mut t = s.clone();
        if !t.set(c, solution[c]) || !t.propagate() {
            continue;
        }
        if t.solved() || (left > 1 && search(&t, solution, c + 1, left - 1)) {
            return true;
        }
    }
    false
}
