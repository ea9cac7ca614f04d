//! Helpers shared by the library's tests and benchmarks: the data files read through the
//! crate's own parser, a tiny RNG, random full grids, random puzzles and random transforms.

use sudokit::grid::Grid;
use sudokit::transform::Transform;

/// The puzzle collections: the repository's `data/`, or `SUDOKIT_DATA` when set. A relative
/// `SUDOKIT_DATA` is taken from the workspace root, where the README's commands run (cargo
/// runs tests and benchmarks in the crate's folder). A missing folder fails the test with a
/// message saying how to point at it: data-driven checks are never skipped silently.
pub fn data_dir() -> std::path::PathBuf {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    // Joining an absolute path gives that path.
    let dir = root.join(std::env::var_os("SUDOKIT_DATA").unwrap_or_else(|| "data".into()));
    assert!(
        dir.is_dir(),
        "puzzle data folder {} not found: the repository's `data/` holds the puzzle \
         collections (puzzles2_17_clue, p096_sudoku.txt, ...); SUDOKIT_DATA may point elsewhere",
        dir.display()
    );
    dir
}

/// The small collections of the data folder, every puzzle of which the logic tests check.
pub const SMALL_FILES: [&str; 6] = [
    "p096_sudoku.txt",
    "inkala_2006.txt",
    "inkala_2012.txt",
    "gosudoku_simple-01.txt",
    "gosudoku_simple-02.txt",
    "se_rated_calibration.tsv",
];

/// The text of a data file, or a panic that says how to point the tests at the data.
pub fn read_data(name: &str) -> String {
    let path = data_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; the repository's `data/` (or SUDOKIT_DATA) should hold it",
            path.display()
        )
    })
}

/// One puzzle in any format the crate reads (a line, a drawn grid).
pub fn grid(text: &str) -> Grid {
    text.parse()
        .unwrap_or_else(|e| panic!("test puzzle {text:?}: {e}"))
}

/// Every puzzle of a data file, in any format the crate reads (lines, drawn grids, Project
/// Euler blocks), through the crate's own reader. Records that are not puzzles (the column
/// names of a TSV file) are left out; `tests/suite/parse.rs` checks that the collections hold no
/// bad record.
pub fn load(name: &str) -> Vec<Grid> {
    load_every(name, 1)
}

/// Every `every`-th puzzle of a data file (the first included), as [`load`] reads them.
pub fn load_every(name: &str, every: usize) -> Vec<Grid> {
    let text = read_data(name);
    sudokit::parse::records(text.as_bytes())
        .filter_map(|r| r.expect("reading from memory cannot fail").puzzle.ok())
        .step_by(every.max(1))
        .collect()
}

/// The grid as 81 digits, `0` for a blank: the string minlex orders.
pub fn digits(g: &Grid) -> String {
    g.values().iter().map(|&v| char::from(b'0' + v)).collect()
}

/// xorshift64*: enough randomness for test data, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for k in (1..items.len()).rev() {
            items.swap(k, self.below(k + 1));
        }
    }
}

/// A random full grid: cells filled in order, digits tried in random order, backtracking.
pub fn random_full(rng: &mut Rng) -> Grid {
    fn fill(v: &mut [u8; 81], i: usize, rng: &mut Rng) -> bool {
        if i == 81 {
            return true;
        }
        let (r, c) = (i / 9, i % 9);
        let mut digits: Vec<u8> = (1..=9).collect();
        rng.shuffle(&mut digits);
        for d in digits {
            let clash = (0..9).any(|k| {
                v[r * 9 + k] == d
                    || v[k * 9 + c] == d
                    || v[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3] == d
            });
            if !clash {
                v[i] = d;
                if fill(v, i + 1, rng) {
                    return true;
                }
                v[i] = 0;
            }
        }
        false
    }
    let mut v = [0u8; 81];
    assert!(fill(&mut v, 0, rng), "an empty grid can always be filled");
    Grid::from_values(v).expect("digits are 1-9")
}

/// `full` with all but `clues` randomly chosen cells blanked.
pub fn random_puzzle(rng: &mut Rng, full: &Grid, clues: usize) -> Grid {
    let mut cells: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut cells);
    let mut v = *full.values();
    for &c in &cells[clues..] {
        v[c] = 0;
    }
    Grid::from_values(v).expect("digits are 0-9")
}

/// A uniformly random sudoku symmetry.
pub fn random_transform(rng: &mut Rng) -> Transform {
    let mut lines = || {
        let mut bands = [0u8, 1, 2];
        rng.shuffle(&mut bands);
        let mut p = [0u8; 9];
        for (b, &band) in bands.iter().enumerate() {
            let mut inner = [0u8, 1, 2];
            rng.shuffle(&mut inner);
            for k in 0..3 {
                p[3 * b + k] = 3 * band + inner[k];
            }
        }
        p
    };
    let (rows, cols) = (lines(), lines());
    let mut digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut digits);
    Transform::new(rng.next() & 1 == 1, rows, cols, digits).expect("a valid symmetry")
}
