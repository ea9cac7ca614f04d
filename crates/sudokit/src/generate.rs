//! Puzzle generation: unique puzzles to order — minimal or not, symmetric, with a clue
//! count, on a pattern, within a rating range, using a technique.
//!
//! One attempt draws a random solution grid and takes clues away in random order, a
//! symmetry orbit at a time, keeping each removal that leaves the solution unique. Whether a
//! removal does is settled without counting solutions: when every removed cell is a naked
//! single of the clues left, at once; otherwise by asking the exact solver for a solution in
//! which a removed cell differs from the grid ([`solver::count_excluding`]), a search that
//! usually ends with propagation. One pass over the orbits leaves a minimal puzzle: a clue
//! that could go at the end could also have gone when it was tried, since removing it from
//! more clues kept the solution unique then.
//!
//! The targets that are not about shape (a rating range, a technique) are checked on the
//! finished puzzle, and a puzzle that misses is thrown away for the next attempt.
//!
//! Every attempt draws its randomness from the seed, the puzzle's index and the attempt's
//! number alone, so the same seed and spec give the same puzzles in any order and on any
//! number of threads.
//!
//! ```
//! use sudokit::generate::{Budget, Generator, Spec, Symmetry};
//! use sudokit::solver;
//!
//! let generator = Generator::new(Spec { symmetry: Symmetry::Rot180, ..Spec::default() })?;
//! let made = generator.generate(42, 0, &Budget::attempts(1000))?;
//! assert_eq!(solver::count(&made.puzzle, 2).count, 1);
//! assert!(made.solution.is_solution_of(&made.puzzle));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashSet;
use std::fmt;
use std::time::Instant;

use crate::candidates::Candidates;
use crate::canon;
use crate::format;
use crate::grid::{Cell, CellSet, Digit, Grid};
use crate::logic::{self, tutor, TechniqueSet};
use crate::rate::{self, SeRating, Tenths};
use crate::solver;
use crate::step::{Step, Technique};
use crate::transform::Transform;

/// The symmetries of Sudoku Explainer's generator: which cells must be given together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No symmetry.
    #[default]
    None,
    /// Half-turn rotation about the centre.
    Rot180,
    /// Quarter-turn rotation.
    Rot90,
    /// Mirror across the vertical axis (column 5).
    Vertical,
    /// Mirror across the horizontal axis (row 5).
    Horizontal,
    /// Mirror across the main diagonal (r1c1 to r9c9).
    Diagonal,
    /// Mirror across the anti-diagonal (r1c9 to r9c1).
    Antidiagonal,
    /// Mirrors across both diagonals.
    Bidiagonal,
    /// Mirrors across both axes.
    Orthogonal,
    /// All eight symmetries of the square.
    Dihedral,
}

/// A map of the grid onto itself, on (row, column).
type CellMap = fn(usize, usize) -> (usize, usize);

impl Symmetry {
    /// Every symmetry, in the order of the docs.
    pub const ALL: [Symmetry; 10] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Vertical,
        Symmetry::Horizontal,
        Symmetry::Diagonal,
        Symmetry::Antidiagonal,
        Symmetry::Bidiagonal,
        Symmetry::Orthogonal,
        Symmetry::Dihedral,
    ];

    /// The name the CLI takes: `none`, `rot180`, `rot90`, `vertical`, ...
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Vertical => "vertical",
            Symmetry::Horizontal => "horizontal",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Antidiagonal => "antidiagonal",
            Symmetry::Bidiagonal => "bidiagonal",
            Symmetry::Orthogonal => "orthogonal",
            Symmetry::Dihedral => "dihedral",
        }
    }

    /// The maps of (row, column) that generate the symmetry.
    fn generators(self) -> Vec<CellMap> {
        let rot180: CellMap = |r, c| (8 - r, 8 - c);
        let rot90: CellMap = |r, c| (c, 8 - r);
        let vertical: CellMap = |r, c| (r, 8 - c);
        let horizontal: CellMap = |r, c| (8 - r, c);
        let diagonal: CellMap = |r, c| (c, r);
        let antidiagonal: CellMap = |r, c| (8 - c, 8 - r);
        match self {
            Symmetry::None => vec![],
            Symmetry::Rot180 => vec![rot180],
            Symmetry::Rot90 => vec![rot90],
            Symmetry::Vertical => vec![vertical],
            Symmetry::Horizontal => vec![horizontal],
            Symmetry::Diagonal => vec![diagonal],
            Symmetry::Antidiagonal => vec![antidiagonal],
            Symmetry::Bidiagonal => vec![diagonal, antidiagonal],
            Symmetry::Orthogonal => vec![vertical, horizontal],
            Symmetry::Dihedral => vec![rot90, vertical],
        }
    }

    /// The orbits: sets of cells the symmetry maps onto each other, which are given or
    /// empty together. They partition the grid.
    pub fn orbits(self) -> Vec<CellSet> {
        let mut orbits = Vec::new();
        let mut seen = CellSet::default();
        for cell in Cell::all() {
            if seen.contains(cell) {
                continue;
            }
            let mut orbit = CellSet::single(cell);
            let mut todo = vec![cell];
            let maps = self.generators();
            while let Some(c) = todo.pop() {
                for map in &maps {
                    let (r, k) = map(c.row(), c.col());
                    let image = Cell::from_row_col(r, k).expect("a symmetry maps cells to cells");
                    if !orbit.contains(image) {
                        orbit.insert(image);
                        todo.push(image);
                    }
                }
            }
            seen |= orbit;
            orbits.push(orbit);
        }
        orbits
    }

    /// Whether `grid`'s givens are symmetric: each orbit all given or all empty.
    pub fn holds_for(self, grid: &Grid) -> bool {
        self.orbits().iter().all(|orbit| {
            let given = orbit.iter().filter(|&c| grid.get(c).is_some()).count();
            given == 0 || given == orbit.len()
        })
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Symmetry {
    type Err = String;

    fn from_str(text: &str) -> Result<Symmetry, String> {
        Symmetry::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| {
                let names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
                format!("unknown symmetry '{text}' (known: {})", names.join(", "))
            })
    }
}

/// Reads a pattern: the cells to give, marked in 81 cells of text. `.`, `0` and `_` are
/// empty; digits, `x`, `X`, `*`, `#` and `o` are given; anything else (spaces, line ends, the
/// rules of a drawn grid) is ignored, so an 81-character line, a drawn grid and a puzzle
/// all serve.
pub fn pattern(text: &str) -> Result<CellSet, String> {
    let mut cells = CellSet::default();
    let mut n = 0;
    for ch in text.chars() {
        let given = match ch {
            '.' | '0' | '_' => false,
            '1'..='9' | 'x' | 'X' | '*' | '#' | 'o' => true,
            _ => continue,
        };
        if n == 81 {
            return Err("a pattern has 81 cells; this one has more".to_string());
        }
        if given {
            cells.insert(Cell::new(n).expect("fewer than 81"));
        }
        n += 1;
    }
    if n < 81 {
        return Err(format!("a pattern has 81 cells; this one has {n}"));
    }
    Ok(cells)
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Cells given together.
    pub symmetry: Symmetry,
    /// The number of clues, inclusive. A minimal puzzle outside it is thrown away; without
    /// `minimal`, removal stops once the count is at most the upper end.
    pub clues: (usize, usize),
    /// Whether no clue may be removable (the default). Without it, symmetric puzzles keep
    /// the clues digging did not reach, as Sudoku Explainer's generator makes them.
    pub minimal: bool,
    /// Exactly these cells are given, when set.
    pub pattern: Option<CellSet>,
    /// The Sudoku Explainer rating (ER), inclusive, when set.
    pub er: Option<(Tenths, Tenths)>,
    /// Techniques the simplest-first solve (all the engine's techniques) must use.
    pub techniques: Vec<Technique>,
    /// The technique that must be the hardest step of that solve (the latest in the
    /// engine's order), when set: clean training puzzles.
    pub hardest: Option<Technique>,
    /// When set, what is made is a practice position: a pencil-mark state of the puzzle's
    /// simplest-first solve whose next step is this technique.
    pub practice: Option<Technique>,
    /// Seed puzzles for a vicinity search, when not empty: each attempt takes one, moves a
    /// few of its clues (one or two away, as many put in elsewhere), and keeps the result
    /// when it is unique, meets the targets and is equivalent to no seed. This is how the
    /// forum's lists of the hardest puzzles grew.
    pub from: Vec<Grid>,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec {
            symmetry: Symmetry::None,
            clues: (17, 81),
            minimal: true,
            pattern: None,
            er: None,
            techniques: Vec::new(),
            hardest: None,
            practice: None,
            from: Vec::new(),
        }
    }
}

/// Why a spec asks for what cannot exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Impossible(pub String);

impl fmt::Display for Impossible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Impossible {}

/// The highest ER Sudoku Explainer gives any puzzle known; beyond it nothing can be found.
const HIGHEST_ER: Tenths = Tenths(120);

/// The fewest clues a puzzle with a unique solution can have (McGuire, Tugemann and
/// Civario, 2012).
const FEWEST_CLUES: usize = 17;

impl Spec {
    /// Refuses at once what no puzzle can satisfy, with the reason.
    fn check(&self) -> Result<(), Impossible> {
        self.check_techniques()?;
        let (low, high) = self.clues;
        if low > high {
            return Err(Impossible(format!("the clue range {low}..{high} is empty")));
        }
        if high > 81 {
            return Err(Impossible(format!("a grid has 81 cells, not {high}")));
        }
        if high < FEWEST_CLUES {
            return Err(Impossible(format!(
                "no puzzle with fewer than {FEWEST_CLUES} clues has a unique solution"
            )));
        }
        if let Some((min, max)) = self.er {
            if min > max {
                return Err(Impossible(format!("the ER range {min}..{max} is empty")));
            }
            if min > HIGHEST_ER {
                return Err(Impossible(format!(
                    "no known puzzle is rated above ER {HIGHEST_ER}"
                )));
            }
        }
        if !self.from.is_empty() && (self.symmetry != Symmetry::None || self.pattern.is_some()) {
            return Err(Impossible(
                "a vicinity search moves single clues: it keeps no symmetry or pattern".to_string(),
            ));
        }
        for (i, seed) in self.from.iter().enumerate() {
            if solver::count(seed, 2).count != 1 {
                return Err(Impossible(format!(
                    "seed puzzle {} ({seed}) has no unique solution",
                    i + 1
                )));
            }
        }
        if let Some(pattern) = self.pattern {
            let n = pattern.len();
            if n < FEWEST_CLUES {
                return Err(Impossible(format!(
                    "the pattern has {n} cells; a unique puzzle needs at least {FEWEST_CLUES}"
                )));
            }
            if !(low..=high).contains(&n) {
                return Err(Impossible(format!(
                    "the pattern has {n} cells, outside the clue range {low}..{high}"
                )));
            }
            return Ok(());
        }
        // Clue counts the symmetry allows: sums of orbit sizes.
        let mut reachable = [false; 82];
        reachable[0] = true;
        for orbit in self.symmetry.orbits() {
            for n in (orbit.len()..=81).rev() {
                reachable[n] |= reachable[n - orbit.len()];
            }
        }
        if !(low.max(FEWEST_CLUES)..=high).any(|n| reachable[n]) {
            return Err(Impossible(format!(
                "{} symmetry allows no clue count in {low}..{high}",
                self.symmetry
            )));
        }
        Ok(())
    }

    /// The techniques of the solve that the technique targets are checked on: a prefix of
    /// the engine's order, whose solve takes the same steps as the whole order's until it
    /// stalls, so that a technique it uses the whole solve uses at the same step.
    ///
    /// With a hardest technique, the order up to it: a solve that needs a later technique
    /// fails that target anyway. When every technique asked for comes before the chains,
    /// the order up to the chains: they cost two thirds of the whole solve of a random
    /// minimal puzzle, and a puzzle that needs them before it uses the technique asked for
    /// is rare enough to pass over (see docs/benchmarks.md). Else the whole order.
    fn horizon(&self) -> TechniqueSet {
        let all = TechniqueSet::all();
        let rank = |t: Technique| {
            all.techniques()
                .iter()
                .position(|&x| x == t)
                .expect("the whole order holds every technique")
        };
        let end = match self.hardest {
            Some(hardest) => rank(hardest),
            None => {
                let latest = self
                    .techniques
                    .iter()
                    .chain(&self.practice)
                    .map(|&t| rank(t));
                let chains = rank(COSTLY_FROM);
                match latest.max() {
                    Some(latest) if latest < chains => chains - 1,
                    _ => all.techniques().len() - 1,
                }
            }
        };
        TechniqueSet::new(all.techniques()[..=end].iter().copied())
    }

    /// Refuses a technique that can never be a step of the engine's solve: those after
    /// Trial, which takes a step in every unfinished position of a puzzle with one solution.
    fn check_techniques(&self) -> Result<(), Impossible> {
        let all = TechniqueSet::all();
        let order = all.techniques();
        let trial = order.iter().position(|&t| t == Technique::Trial);
        let wanted = self
            .techniques
            .iter()
            .chain(&self.hardest)
            .chain(&self.practice);
        for &t in wanted {
            if order.iter().position(|&x| x == t) > trial {
                return Err(Impossible(format!(
                    "{} comes after Trial in the engine's order, and Trial finishes every \
                     puzzle with one solution: it is never a step",
                    t.name()
                )));
            }
        }
        Ok(())
    }
}

/// The first technique of the costly part of the engine's order: chains, ALS and forcing
/// chains. On 20,000 random minimal puzzles, the whole solves took 17.4 s and the solves
/// stopped before this technique 5.0 s.
const COSTLY_FROM: Technique = Technique::XChain;

/// A practice position: a pencil-mark state whose next step, simplest first, is the
/// technique asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Practice {
    /// The state, as [`format::marks_line`] writes it and `explain --marks` reads it back.
    pub marks: Candidates,
    /// Its next step.
    pub step: Step,
}

impl Practice {
    /// The state before the first step of `steps` (the simplest-first solve of `puzzle`)
    /// that uses `wanted`, if any; checked to give that step again once written as a marks
    /// line and read back, since a cell left with one candidate reads back as placed.
    fn find(
        engine: &logic::Engine,
        puzzle: &Grid,
        steps: &[Step],
        wanted: Technique,
    ) -> Option<Practice> {
        let mut state = Candidates::new(puzzle);
        for step in steps {
            if step.technique == wanted {
                let marks = Candidates::from_pencil_marks(&format::marks_line(&state)).ok()?;
                let step = engine.next_step(&marks)?;
                return (step.technique == wanted).then_some(Practice { marks, step });
            }
            logic::apply(&mut state, step);
        }
        None
    }
}

/// How long to keep trying for one puzzle.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Attempts at most.
    pub attempts: u64,
    /// A time after which no new attempt starts.
    pub deadline: Option<Instant>,
}

impl Budget {
    /// At most `attempts` attempts, with no deadline.
    pub fn attempts(attempts: u64) -> Budget {
        Budget {
            attempts,
            deadline: None,
        }
    }
}

/// A generated puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The puzzle: exactly one solution.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// The attempt that made it (0-based); a later try for the same index starts after it.
    pub attempt: u64,
    /// The Sudoku Explainer rating, when the spec asked for an ER range.
    pub rating: Option<SeRating>,
    /// The practice position, when the spec asked for one.
    pub practice: Option<Practice>,
}

/// Why no puzzle came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GaveUp {
    /// Attempts made.
    pub attempts: u64,
    /// Whether the deadline stopped it (else the attempt count).
    pub timed_out: bool,
}

impl fmt::Display for GaveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = if self.timed_out {
            "the time limit"
        } else {
            "the attempt limit"
        };
        write!(
            f,
            "no puzzle met the target in {} attempts ({why} was reached)",
            self.attempts
        )
    }
}

impl std::error::Error for GaveUp {}

/// A checked [`Spec`], ready to make puzzles.
#[derive(Clone, Debug)]
pub struct Generator {
    spec: Spec,
    /// The symmetry's orbits, the units clues are removed in.
    orbits: Vec<CellSet>,
    /// The canonical forms of the seed puzzles, which no result may have.
    seed_forms: HashSet<Grid>,
    /// The engine of the solve the technique targets are checked on ([`Spec::horizon`]).
    horizon: logic::Engine,
}

impl Generator {
    /// A generator for `spec`, or why no puzzle can meet it.
    pub fn new(spec: Spec) -> Result<Generator, Impossible> {
        spec.check()?;
        let orbits = spec.symmetry.orbits();
        let seed_forms = spec.from.iter().map(|p| canon::minlex(p).0).collect();
        let horizon = logic::Engine::new(spec.horizon()).unique(true);
        Ok(Generator {
            spec,
            orbits,
            seed_forms,
            horizon,
        })
    }

    /// What it makes.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// Makes puzzle number `index` of the run seeded `seed`, within `budget`.
    pub fn generate(&self, seed: u64, index: u64, budget: &Budget) -> Result<Generated, GaveUp> {
        self.generate_from(seed, index, 0, budget)
    }

    /// Makes puzzle number `index` of the run seeded `seed`, trying attempts `first`,
    /// `first + 1`, ... within `budget` (counted from `first`): another puzzle for the same
    /// index, when the one from an earlier attempt was not wanted (a duplicate).
    pub fn generate_from(
        &self,
        seed: u64,
        index: u64,
        first: u64,
        budget: &Budget,
    ) -> Result<Generated, GaveUp> {
        let spec = &self.spec;
        for attempt in first..first.saturating_add(budget.attempts) {
            if budget.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(GaveUp {
                    attempts: attempt - first,
                    timed_out: true,
                });
            }
            let mut rng = Rng::new(seed, index, attempt);
            let (puzzle, solution) = if spec.from.is_empty() {
                let solution = random_grid(&mut rng);
                match spec.pattern {
                    Some(pattern) => {
                        let puzzle = keep(&solution, pattern);
                        if solver::count(&puzzle, 2).count != 1 {
                            continue;
                        }
                        (puzzle, solution)
                    }
                    None => (
                        dig(&solution, &solution, &self.orbits, spec, &mut rng),
                        solution,
                    ),
                }
            } else {
                let start = spec.from[rng.below(spec.from.len())];
                let moved = neighbour(&start, &mut rng);
                let outcome = solver::count(&moved, 2);
                let (1, Some(solution)) = (outcome.count, outcome.solution) else {
                    continue;
                };
                let puzzle = if spec.minimal {
                    dig(&moved, &solution, &self.orbits, spec, &mut rng)
                } else {
                    moved
                };
                if self.seed_forms.contains(&canon::minlex(&puzzle).0) {
                    continue;
                }
                (puzzle, solution)
            };
            if let Some((rating, practice)) = self.accepts(&puzzle) {
                return Ok(Generated {
                    puzzle,
                    solution,
                    attempt,
                    rating,
                    practice,
                });
            }
        }
        Err(GaveUp {
            attempts: budget.attempts,
            timed_out: false,
        })
    }

    /// Whether `puzzle` meets the targets checked after digging: its clue count, the
    /// techniques of its solve, and its rating; with the rating and practice position asked
    /// for.
    fn accepts(&self, puzzle: &Grid) -> Option<(Option<SeRating>, Option<Practice>)> {
        let spec = &self.spec;
        let n = puzzle.filled();
        if !(spec.clues.0..=spec.clues.1).contains(&n) {
            return None;
        }
        let mut practice = None;
        if !spec.techniques.is_empty() || spec.hardest.is_some() || spec.practice.is_some() {
            let solve = self.horizon.explain(puzzle);
            let steps = solve.steps;
            if !spec
                .techniques
                .iter()
                .all(|&t| steps.iter().any(|s| s.technique == t))
            {
                return None;
            }
            if let Some(wanted) = spec.hardest {
                let set = TechniqueSet::all();
                if !solve.solved || tutor::summary(&steps, &set).1.as_deref() != Some(wanted.name())
                {
                    return None;
                }
            }
            if let Some(wanted) = spec.practice {
                let whole = logic::Engine::new(TechniqueSet::all()).unique(true);
                practice = Some(Practice::find(&whole, puzzle, &steps, wanted)?);
            }
        }
        let rating = match spec.er {
            None => None,
            Some((min, max)) => {
                let rating = rate::se_rating(puzzle);
                if rating.er < min || max < rating.er {
                    return None;
                }
                Some(rating)
            }
        };
        Some((rating, practice))
    }
}

/// A neighbour of `seed`: one or two of its clues taken away and as many put into other
/// empty cells, with digits their houses do not hold yet.
fn neighbour(seed: &Grid, rng: &mut Rng) -> Grid {
    let mut puzzle = *seed;
    let moves = 1 + rng.below(2);
    let given: Vec<Cell> = Cell::all().filter(|&c| seed.get(c).is_some()).collect();
    let empty: Vec<Cell> = Cell::all().filter(|&c| seed.get(c).is_none()).collect();
    for _ in 0..moves {
        puzzle.set(given[rng.below(given.len())], None);
    }
    let mut added = 0;
    while added < moves {
        let cell = empty[rng.below(empty.len())];
        if puzzle.get(cell).is_some() {
            continue;
        }
        let taken: u16 = cell
            .peers()
            .iter()
            .filter_map(|&p| puzzle.get(p))
            .fold(0, |bits, d| bits | 1 << d.index());
        let free: Vec<Digit> = Digit::all()
            .filter(|d| taken & (1 << d.index()) == 0)
            .collect();
        if free.is_empty() {
            // A cell its peers leave no digit: the puzzle has no solution either way.
            return puzzle;
        }
        puzzle.set(cell, Some(free[rng.below(free.len())]));
        added += 1;
    }
    puzzle
}

/// A seed from the clock, for a run its caller gave none: twelve digits at most, short
/// enough to note down and give back to repeat the run.
pub fn seed_from_clock() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos % 1_000_000_000_000) as u64
}

/// `solution` with only the cells of `cells` given.
fn keep(solution: &Grid, cells: CellSet) -> Grid {
    let mut puzzle = Grid::default();
    for cell in cells.iter() {
        puzzle.set(cell, solution.get(cell));
    }
    puzzle
}

/// The givens as bitsets, kept up to date as clues go: what makes a removed cell a single.
struct Givens {
    /// Per house, the digits given in it.
    digits: [u16; 27],
    /// Per digit, the cells that give it.
    cells: [CellSet; 9],
}

impl Givens {
    fn of(grid: &Grid) -> Givens {
        let mut givens = Givens {
            digits: [0; 27],
            cells: [CellSet::default(); 9],
        };
        for cell in Cell::all() {
            if let Some(d) = grid.get(cell) {
                givens.toggle(cell, d);
            }
        }
        givens
    }

    /// Gives `d` at `cell`, or takes it away.
    fn toggle(&mut self, cell: Cell, d: Digit) {
        for house in cell.houses() {
            self.digits[house.index()] ^= 1 << d.index();
        }
        let cells = &mut self.cells[d.index()];
        *cells = *cells ^ CellSet::single(cell);
    }

    /// Whether the givens (`given` their cells) alone force `d` into the empty `cell`: the
    /// other eight digits are given among its peers (a naked single), or every other cell
    /// of one of its houses is given or sees a given `d` (a hidden single).
    fn force(&self, cell: Cell, d: Digit, given: CellSet) -> bool {
        let [row, col, r#box] = cell.houses();
        let seen = self.digits[row.index()] | self.digits[col.index()] | self.digits[r#box.index()];
        if seen == 0x1ff & !(1 << d.index()) {
            return true;
        }
        let blocked = self.cells[d.index()]
            .iter()
            .fold(given, |all, c| all | CellSet::peers(c));
        cell.houses()
            .iter()
            .any(|&h| (CellSet::house(h) - blocked) == CellSet::single(cell))
    }
}

/// Takes clues away from `start` (the full `solution`, or a unique puzzle with that
/// solution), an orbit at a time in random order, keeping every removal that leaves the
/// solution unique; without `spec.minimal`, stops once the clue count is within the spec's
/// upper end.
///
/// Each removal is settled by the cheapest test that can: the removed cells are singles of
/// the clues left (unique); a two-digit unavoidable set is left without a clue (not unique);
/// else the solver looks for a solution that differs in a removed cell.
fn dig(start: &Grid, solution: &Grid, orbits: &[CellSet], spec: &Spec, rng: &mut Rng) -> Grid {
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    rng.shuffle(&mut order);
    let mut puzzle = *start;
    let mut given: CellSet = Cell::all().filter(|&c| start.get(c).is_some()).collect();
    let mut givens = Givens::of(&puzzle);
    let unavoidable = two_digit_unavoidable(solution);
    let near = solver::Near::new(solution);
    let mut excluded: Vec<(Cell, Digit)> = Vec::with_capacity(8);
    for i in order {
        if !spec.minimal && given.len() <= spec.clues.1 {
            break;
        }
        let orbit = orbits[i];
        if (orbit & given) != orbit {
            continue;
        }
        let left = given - orbit;
        excluded.clear();
        for cell in orbit.iter() {
            let d = solution.get(cell).expect("a solution is full");
            puzzle.set(cell, None);
            givens.toggle(cell, d);
            excluded.push((cell, d));
        }
        let unique = excluded.iter().all(|&(c, d)| givens.force(c, d, left))
            || (!excluded.iter().any(|&(c, _)| {
                unavoidable[c.index()]
                    .iter()
                    .any(|&set| (set & left).is_empty())
            }) && excluded
                .iter()
                .all(|&pair| !solver::exists_excluding_near(&puzzle, &[pair], &near)));
        if unique {
            given = left;
        } else {
            for &(cell, d) in &excluded {
                puzzle.set(cell, Some(d));
                givens.toggle(cell, d);
            }
        }
    }
    puzzle
}

/// The unavoidable sets of two digits: for each pair of digits, the smallest sets of their
/// cells whose two digits can be swapped to leave another valid grid. A puzzle without a
/// clue in one of them has a second solution.
///
/// The 18 cells of digits `a` and `b` split into such sets as a graph does into connected
/// parts: each house links its `a` cell to its `b` cell, since swapping one of them forces
/// swapping the other. Each set is listed under each of its cells, eight per cell (one
/// for each other digit), so that a removal checks only the sets it can empty.
fn two_digit_unavoidable(solution: &Grid) -> [[CellSet; 8]; 81] {
    let mut cells = [CellSet::default(); 9];
    for cell in Cell::all() {
        cells[solution.get(cell).expect("a solution is full").index()].insert(cell);
    }
    let mut by_cell = [[CellSet::default(); 8]; 81];
    let mut listed = [0u8; 81];
    for a in 0..9 {
        for b in a + 1..9 {
            let mut rest = cells[a] | cells[b];
            while let Some(start) = rest.first() {
                // Flood from `start` through the houses: the peers of a part's cells among
                // the two digits' cells are its house partners.
                let mut part = CellSet::single(start);
                let mut frontier = part;
                while !frontier.is_empty() {
                    let reach = frontier
                        .iter()
                        .fold(CellSet::default(), |r, c| r | CellSet::peers(c));
                    frontier = (reach & rest) - part;
                    part |= frontier;
                }
                rest -= part;
                for cell in part.iter() {
                    by_cell[cell.index()][usize::from(listed[cell.index()])] = part;
                    listed[cell.index()] += 1;
                }
            }
        }
    }
    by_cell
}

/// A random solution grid. Boxes 1, 5 and 9 share no row or column, so three random
/// permutations fill them; the exact solver completes the grid, each branch trying a
/// random digit first. A random one of the grid's equivalent forms (transposition, band,
/// stack, row and column orders) then spreads over every position whatever the solver's
/// order of cells favours.
fn random_grid(rng: &mut Rng) -> Grid {
    let grid = loop {
        let mut values = [0u8; 81];
        for b in [0, 4, 8] {
            let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
            rng.shuffle(&mut digits);
            for (k, &d) in digits.iter().enumerate() {
                values[9 * (b / 3 * 3 + k / 3) + b % 3 * 3 + k % 3] = d;
            }
        }
        let boxes = Grid::from_values(values).expect("digits 1-9");
        let near =
            Grid::from_values(std::array::from_fn(|_| 1 + rng.below(9) as u8)).expect("digits 1-9");
        let near = solver::Near::new(&near);
        // Every filling of the three boxes is known to extend; the loop only makes sure.
        if let Some(grid) = solver::solve_near(&boxes, &near) {
            break grid;
        }
    };
    let lines = |rng: &mut Rng| {
        let mut bands = [0u8, 1, 2];
        rng.shuffle(&mut bands);
        let mut order = [0u8; 9];
        for (i, band) in bands.iter().enumerate() {
            let mut within = [0u8, 1, 2];
            rng.shuffle(&mut within);
            for (j, w) in within.iter().enumerate() {
                order[3 * i + j] = 3 * band + w;
            }
        }
        order
    };
    let transpose = rng.below(2) == 1;
    let (rows, cols) = (lines(rng), lines(rng));
    Transform::new(transpose, rows, cols, [1, 2, 3, 4, 5, 6, 7, 8, 9])
        .expect("line orders within and between bands are a transform")
        .apply(&grid)
}

/// SplitMix64 (Steele, Lea and Flood, 2014): small, fast and well mixed, and fixed here so
/// that a seed gives the same puzzles in every version of every dependency.
struct Rng(u64);

impl Rng {
    /// The stream of one attempt: a function of the seed, the puzzle's index and the
    /// attempt's number alone.
    fn new(seed: u64, index: u64, attempt: u64) -> Rng {
        let mut rng = Rng(seed);
        let a = rng.next() ^ index;
        let mut rng = Rng(a);
        let b = rng.next() ^ attempt;
        Rng(b)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (n ≥ 1), without modulo bias worth speaking of for n < 100
    /// (Lemire's multiply-shift; the bias is below 2⁻⁵⁷).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }

    /// Fisher–Yates.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::reference;

    #[test]
    fn orbits_partition_the_grid_with_the_sizes_each_symmetry_has() {
        for symmetry in Symmetry::ALL {
            let orbits = symmetry.orbits();
            let all: CellSet = orbits.iter().fold(CellSet::default(), |a, &o| a | o);
            assert_eq!(all.len(), 81, "{symmetry}");
            assert_eq!(
                orbits.iter().map(|o| o.len()).sum::<usize>(),
                81,
                "{symmetry}"
            );
        }
        let count = |s: Symmetry| s.orbits().len();
        assert_eq!(count(Symmetry::None), 81);
        assert_eq!(count(Symmetry::Rot180), 41);
        assert_eq!(count(Symmetry::Rot90), 21);
        assert_eq!(count(Symmetry::Vertical), 45);
        assert_eq!(count(Symmetry::Diagonal), 45);
        assert_eq!(count(Symmetry::Orthogonal), 25);
        assert_eq!(count(Symmetry::Bidiagonal), 25);
        assert_eq!(count(Symmetry::Dihedral), 15);
    }

    #[test]
    fn puzzles_are_unique_minimal_and_symmetric() {
        for symmetry in Symmetry::ALL {
            let generator = Generator::new(Spec {
                symmetry,
                ..Spec::default()
            })
            .unwrap();
            for index in 0..3 {
                let made = generator
                    .generate(7, index, &Budget::attempts(100))
                    .unwrap();
                let p = made.puzzle;
                assert_eq!(reference::count(&p, 2), 1, "{symmetry} {p}");
                assert!(made.solution.is_solution_of(&p));
                assert!(symmetry.holds_for(&p), "{symmetry} {p}");
                // Minimal: no orbit can go.
                for orbit in symmetry.orbits() {
                    if orbit.iter().all(|c| p.get(c).is_some()) {
                        let mut less = p;
                        for c in orbit.iter() {
                            less.set(c, None);
                        }
                        assert_eq!(reference::count(&less, 2), 2, "{symmetry} {p}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_puzzle_and_another_seed_another() {
        let generator = Generator::new(Spec::default()).unwrap();
        let make = |seed, index| {
            generator
                .generate(seed, index, &Budget::attempts(10))
                .unwrap()
        };
        let (a, b, c, d) = (make(1, 5), make(1, 5), make(2, 5), make(1, 6));
        assert_eq!(a, b);
        assert_ne!(a.puzzle, c.puzzle);
        assert_ne!(a.puzzle, d.puzzle);
    }

    #[test]
    fn without_minimal_digging_stops_at_the_clue_count() {
        let generator = Generator::new(Spec {
            symmetry: Symmetry::Rot180,
            clues: (30, 32),
            minimal: false,
            ..Spec::default()
        })
        .unwrap();
        let made = generator.generate(3, 0, &Budget::attempts(100)).unwrap();
        let n = made.puzzle.filled();
        assert!((30..=32).contains(&n), "{n}");
        assert_eq!(reference::count(&made.puzzle, 2), 1);
    }

    #[test]
    fn impossible_specs_are_refused_with_the_reason() {
        let refused = |spec: Spec| Generator::new(spec).unwrap_err().to_string();
        let clues = |low, high| Spec {
            clues: (low, high),
            ..Spec::default()
        };
        assert!(refused(clues(10, 16)).contains("fewer than 17"));
        assert!(refused(clues(25, 20)).contains("empty"));
        // Quarter-turn orbits have 4 cells, bar the centre: 18 and 19 clues cannot be.
        let rot90 = Spec {
            symmetry: Symmetry::Rot90,
            clues: (18, 19),
            ..Spec::default()
        };
        assert!(refused(rot90).contains("rot90 symmetry allows no clue count"));
        let er = Spec {
            er: Some((Tenths(125), Tenths(130))),
            ..Spec::default()
        };
        assert!(refused(er).contains("above ER"));
        assert!(Generator::new(Spec::default()).is_ok());
    }

    #[test]
    fn patterns_are_read_from_lines_and_drawn_grids() {
        let line = format!("x.x{}", ".".repeat(78));
        assert_eq!(pattern(&line).unwrap().len(), 2);
        let drawn = "x . . | . . . | . . .\n".repeat(9);
        assert_eq!(pattern(&drawn).unwrap().len(), 9);
        assert!(pattern("x.x").unwrap_err().contains("this one has 3"));
        assert!(pattern(&".".repeat(82)).unwrap_err().contains("more"));
    }

    #[test]
    fn puzzles_on_a_pattern_give_exactly_its_cells() {
        // A pattern most grids make unique on: every cell but a few.
        let mut cells = CellSet::from_bits((1 << 81) - 1);
        for i in [0, 10, 20, 30, 40, 50, 60, 70, 80, 4] {
            cells.remove(Cell::new(i).unwrap());
        }
        let generator = Generator::new(Spec {
            pattern: Some(cells),
            ..Spec::default()
        })
        .unwrap();
        let made = generator.generate(9, 0, &Budget::attempts(50)).unwrap();
        assert_eq!(reference::count(&made.puzzle, 2), 1);
        assert!(Cell::all().all(|c| made.puzzle.get(c).is_some() == cells.contains(c)));
    }

    #[test]
    fn ratings_and_techniques_are_met() {
        let generator = Generator::new(Spec {
            er: Some((Tenths(26), Tenths(44))),
            techniques: vec![Technique::from_name("pointing").unwrap()],
            ..Spec::default()
        })
        .unwrap();
        let made = generator.generate(4, 0, &Budget::attempts(2000)).unwrap();
        let er = rate::se_rating(&made.puzzle).er;
        assert_eq!(made.rating.map(|r| r.er), Some(er));
        assert!(Tenths(26) <= er && er <= Tenths(44), "{er}");
        let steps = logic::Engine::new(TechniqueSet::all())
            .unique(true)
            .explain(&made.puzzle)
            .steps;
        assert!(steps
            .iter()
            .any(|s| s.technique.name() == "Locked Candidates Type 1 (Pointing)"));
    }

    #[test]
    fn practice_positions_have_the_technique_next() {
        for name in ["x-wing", "naked-pair", "xy-wing", "pointing"] {
            let wanted = Technique::from_name(name).unwrap();
            let generator = Generator::new(Spec {
                practice: Some(wanted),
                ..Spec::default()
            })
            .unwrap();
            let made = generator.generate(5, 0, &Budget::attempts(5000)).unwrap();
            let practice = made.practice.unwrap();
            assert_eq!(practice.step.technique, wanted);
            let read = Candidates::from_pencil_marks(&format::marks_line(&practice.marks)).unwrap();
            let engine = logic::Engine::new(TechniqueSet::all()).unique(true);
            assert_eq!(
                engine.next_step(&read).map(|s| s.technique),
                Some(wanted),
                "{name}"
            );
            // The position belongs to the puzzle: its solution keeps every candidate it needs.
            for cell in Cell::all() {
                let d = made.solution.get(cell).unwrap();
                assert!(read.value(cell) == Some(d) || read.get(cell).contains(d));
            }
        }
    }

    #[test]
    fn techniques_after_trial_are_refused_as_never_a_step() {
        for name in ["forcing-net-verity", "aligned-pair-exclusion"] {
            let t = Technique::from_name(name).unwrap();
            for spec in [
                Spec {
                    techniques: vec![t],
                    ..Spec::default()
                },
                Spec {
                    hardest: Some(t),
                    ..Spec::default()
                },
                Spec {
                    practice: Some(t),
                    ..Spec::default()
                },
            ] {
                let refused = Generator::new(spec).unwrap_err().to_string();
                assert!(refused.contains("never a step"), "{refused}");
            }
        }
        let trial = Spec {
            practice: Some(Technique::Trial),
            ..Spec::default()
        };
        assert!(Generator::new(trial).is_ok());
    }

    #[test]
    fn the_solve_checked_stops_at_the_chains_only_when_nothing_asked_for_is_past_them() {
        let order = TechniqueSet::all().techniques().to_vec();
        let rank = |t| order.iter().position(|&x| x == t).unwrap();
        let horizon = |spec: Spec| spec.horizon().techniques().to_vec();
        let named = |name| Technique::from_name(name).unwrap();
        let early = Spec {
            techniques: vec![named("remote-pair"), named("x-wing")],
            ..Spec::default()
        };
        assert_eq!(horizon(early), order[..rank(COSTLY_FROM)]);
        let late = Spec {
            techniques: vec![named("x-wing")],
            practice: Some(named("xy-chain")),
            ..Spec::default()
        };
        assert_eq!(horizon(late), order);
        let hardest = Spec {
            hardest: Some(named("x-wing")),
            ..Spec::default()
        };
        assert_eq!(horizon(hardest), order[..=rank(named("x-wing"))]);
        // A prefix of the order takes the whole order's steps until it stalls.
        let whole = logic::Engine::new(TechniqueSet::all()).unique(true);
        let cut =
            logic::Engine::new(TechniqueSet::new(order[..rank(COSTLY_FROM)].to_vec())).unique(true);
        let generator = Generator::new(Spec::default()).unwrap();
        let mut stalled = 0;
        for index in 0..60 {
            let puzzle = generator
                .generate(3, index, &Budget::attempts(1))
                .unwrap()
                .puzzle;
            let (all, some) = (whole.explain(&puzzle), cut.explain(&puzzle));
            assert_eq!(all.steps[..some.steps.len()], some.steps, "{puzzle}");
            assert_eq!(some.solved, all.steps.len() == some.steps.len(), "{puzzle}");
            stalled += usize::from(!some.solved);
        }
        assert!(stalled > 0, "some puzzle needs the chains");
    }

    #[test]
    fn the_hardest_step_is_the_one_asked_for() {
        let wanted = Technique::from_name("naked-pair").unwrap();
        let generator = Generator::new(Spec {
            hardest: Some(wanted),
            ..Spec::default()
        })
        .unwrap();
        let made = generator.generate(2, 0, &Budget::attempts(5000)).unwrap();
        let set = TechniqueSet::all();
        let rank = |t| set.techniques().iter().position(|&x| x == t);
        let steps = logic::Engine::new(set.clone())
            .unique(true)
            .explain(&made.puzzle)
            .steps;
        let hardest = steps.iter().map(|s| s.technique).max_by_key(|&t| rank(t));
        assert_eq!(hardest, Some(wanted));
    }

    #[test]
    fn vicinity_search_finds_new_puzzles_near_the_seeds() {
        let seeds: Vec<Grid> = [
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
        ]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
        let forms: Vec<Grid> = seeds.iter().map(|p| canon::minlex(p).0).collect();
        let generator = Generator::new(Spec {
            from: seeds.clone(),
            ..Spec::default()
        })
        .unwrap();
        for index in 0..4 {
            let made = generator
                .generate(1, index, &Budget::attempts(10_000))
                .unwrap();
            let p = made.puzzle;
            assert_eq!(reference::count(&p, 2), 1, "{p}");
            assert!(
                !forms.contains(&canon::minlex(&p).0),
                "not a seed again: {p}"
            );
            // Near a seed: most of its clues are one seed's clues.
            let shared = seeds
                .iter()
                .map(|s| {
                    Cell::all()
                        .filter(|&c| s.get(c).is_some() && s.get(c) == p.get(c))
                        .count()
                })
                .max()
                .unwrap();
            assert!(shared + 4 >= p.filled().min(21), "{p}");
        }
        let bad = Spec {
            from: vec![Grid::default()],
            ..Spec::default()
        };
        assert!(Generator::new(bad)
            .unwrap_err()
            .to_string()
            .contains("no unique solution"));
    }

    #[test]
    fn budgets_end_the_search_with_a_reason() {
        let generator = Generator::new(Spec {
            er: Some((Tenths(110), Tenths(120))),
            ..Spec::default()
        })
        .unwrap();
        let gave_up = generator.generate(1, 0, &Budget::attempts(3)).unwrap_err();
        assert_eq!(
            gave_up,
            GaveUp {
                attempts: 3,
                timed_out: false
            }
        );
        let past = Budget {
            attempts: 1000,
            deadline: Some(Instant::now()),
        };
        let gave_up = generator.generate(1, 0, &past).unwrap_err();
        assert!(gave_up.timed_out);
        assert!(gave_up.to_string().contains("time limit"));
    }

    /// Where the bottom band of `grid` ranks, 0-based, among every way to complete its top
    /// six rows (in line order), and how many ways there are.
    fn bottom_band_rank(grid: &Grid) -> (usize, usize) {
        let mut top = *grid;
        for cell in Cell::all().filter(|c| c.row() >= 6) {
            top.set(cell, None);
        }
        let mut completions: Vec<String> = solver::solutions(&top).map(|g| g.to_string()).collect();
        completions.sort();
        let rank = completions
            .iter()
            .position(|g| *g == grid.to_string())
            .unwrap();
        (rank, completions.len())
    }

    /// A z-score of the ranks' sum against ranks uniform on each grid's completions: near 0
    /// (|z| < 3 nearly always) when every completion is as likely, far from it when the
    /// draw favours some.
    fn rank_z(grids: impl Iterator<Item = Grid>) -> f64 {
        let (mut sum, mut variance) = (0.0, 0.0);
        for grid in grids {
            let (rank, ways) = bottom_band_rank(&grid);
            let k = ways as f64;
            sum += rank as f64 - (k - 1.0) / 2.0;
            variance += (k * k - 1.0) / 12.0;
        }
        sum / variance.sqrt()
    }

    #[test]
    fn the_bottom_band_is_any_of_its_completions_alike() {
        // Given a grid's top six rows, a uniform draw makes each completion of the bottom
        // band equally likely. A depth-first fill's first completion fails this at once.
        let ours = rank_z((0..3000).map(|i| random_grid(&mut Rng::new(17, i, 0))));
        assert!(ours.abs() < 4.0, "z = {ours}");
        let first = rank_z((0..3000).map(|i| {
            let grid = random_grid(&mut Rng::new(17, i, 0));
            let mut top = grid;
            for cell in Cell::all().filter(|c| c.row() >= 6) {
                top.set(cell, None);
            }
            solver::solve(&top).unwrap()
        }));
        assert!(first.abs() > 10.0, "z = {first}");
    }

    #[test]
    fn two_digit_unavoidable_sets_are_swaps_that_leave_a_grid() {
        for i in 0..20 {
            let grid = random_grid(&mut Rng::new(5, i, 0));
            let by_cell = two_digit_unavoidable(&grid);
            for cell in Cell::all() {
                let mut others = 0u16;
                for set in by_cell[cell.index()] {
                    assert!(set.contains(cell));
                    let digits: Vec<Digit> = set.iter().filter_map(|c| grid.get(c)).collect();
                    let (a, b) = (
                        digits[0],
                        *digits.iter().find(|&&d| d != digits[0]).unwrap(),
                    );
                    assert!(digits.iter().all(|&d| d == a || d == b));
                    others |= 1 << (a.index() + b.index() - grid.get(cell).unwrap().index());
                    // Swapping the two digits in the set leaves another valid grid.
                    let mut swapped = grid;
                    for c in set.iter() {
                        swapped.set(c, Some(if grid.get(c) == Some(a) { b } else { a }));
                    }
                    assert!(swapped.conflict().is_none() && swapped != grid);
                    // The sets of a pair of digits split its 18 cells: every cell of this
                    // set lists it, and no other set of the same two digits.
                    let pair =
                        |s: CellSet| s.iter().all(|c| [Some(a), Some(b)].contains(&grid.get(c)));
                    for other in set.iter() {
                        let listed = by_cell[other.index()];
                        assert_eq!(
                            listed.iter().filter(|&&s| pair(s)).collect::<Vec<_>>(),
                            [&set]
                        );
                    }
                }
                // One set for each of the eight other digits.
                assert_eq!(others.count_ones(), 8);
            }
        }
    }

    #[test]
    fn random_grids_are_valid_and_differ() {
        let a = random_grid(&mut Rng::new(0, 0, 0));
        let b = random_grid(&mut Rng::new(0, 0, 1));
        assert!(a.is_full() && a.conflict().is_none());
        assert!(b.is_full() && b.conflict().is_none());
        assert_ne!(a, b);
    }
}
