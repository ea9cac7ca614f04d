//! One deduction of the logic engine: which technique, what it places or eliminates, and the
//! cells, houses and digits a player should look at.
//!
//! A [`Step`] feeds every consumer: the one-line text of `explain` ([`Display`](fmt::Display)),
//! JSON output, hints of rising detail, highlighted pictures and the difficulty rating. The
//! [`Technique`] names follow HoDoKu's spelling exactly; [`Technique::sudokuwiki_alias`] gives
//! SudokuWiki's name and [`Technique::from_name`] reads either (or a kebab-case short name).
//!
//! ```
//! use sudokit::step::Technique;
//!
//! assert_eq!(Technique::from_name("x-wing"), Some(Technique::XWing));
//! assert_eq!(Technique::from_name("Locked Candidates Type 1 (Pointing)"), Some(Technique::LockedCandidatesPointing));
//! assert_eq!(Technique::XYWing.name(), "XY-Wing");
//! assert_eq!(Technique::XYWing.sudokuwiki_alias(), "Y-Wing");
//! ```

use std::fmt;

use crate::grid::{Cell, Digit, DigitSet, House};
use crate::rate::{SeTechnique, Tenths};

macro_rules! techniques {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal, $short:literal, $wiki:literal; )*) => {
        /// A named solving technique, simplest families first.
        ///
        /// Every technique of the logic engine, with its names for output, hints and the
        /// command line; [`crate::logic::finder`] maps each to the code that finds it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Technique {
            $( $(#[$doc])* $variant, )*
        }

        impl Technique {
            /// Every technique, in declaration order (simplest families first).
            pub const ALL: &'static [Technique] = &[$(Technique::$variant),*];

            /// The name exactly as HoDoKu writes it (techniques HoDoKu lacks get a name in the
            /// same style, see each variant).
            pub const fn name(self) -> &'static str {
                match self { $(Technique::$variant => $name,)* }
            }

            /// A kebab-case short name for command lines: `hidden-single`, `x-wing`.
            pub const fn short_name(self) -> &'static str {
                match self { $(Technique::$variant => $short,)* }
            }

            /// The name SudokuWiki uses for the same idea.
            pub const fn sudokuwiki_alias(self) -> &'static str {
                match self { $(Technique::$variant => $wiki,)* }
            }
        }
    };
}

techniques! {
    /// The last empty cell of a house.
    FullHouse => "Full House", "full-house", "Last Remaining Cell";
    /// The only cell of a house that can hold a digit.
    HiddenSingle => "Hidden Single", "hidden-single", "Hidden Single";
    /// A cell with one candidate left.
    NakedSingle => "Naked Single", "naked-single", "Naked Single";
    /// A digit confined to one line within a box leaves the rest of that line.
    LockedCandidatesPointing => "Locked Candidates Type 1 (Pointing)", "pointing", "Pointing Pairs/Triples";
    /// A digit confined to one box within a line leaves the rest of that box.
    LockedCandidatesClaiming => "Locked Candidates Type 2 (Claiming)", "claiming", "Box/Line Reduction";
    /// A naked pair in the intersection of a box and a line: both houses lose its digits.
    LockedPair => "Locked Pair", "locked-pair", "Naked Pairs";
    /// A naked triple in the intersection of a box and a line: both houses lose its digits.
    LockedTriple => "Locked Triple", "locked-triple", "Naked Triples";
    /// Two cells of a house holding only the same two digits.
    NakedPair => "Naked Pair", "naked-pair", "Naked Pairs";
    /// Three cells of a house holding only the same three digits.
    NakedTriple => "Naked Triple", "naked-triple", "Naked Triples";
    /// Four cells of a house holding only the same four digits.
    NakedQuadruple => "Naked Quadruple", "naked-quadruple", "Naked Quads";
    /// Two digits confined to the same two cells of a house.
    HiddenPair => "Hidden Pair", "hidden-pair", "Hidden Pairs";
    /// Three digits confined to the same three cells of a house.
    HiddenTriple => "Hidden Triple", "hidden-triple", "Hidden Triples";
    /// Four digits confined to the same four cells of a house.
    HiddenQuadruple => "Hidden Quadruple", "hidden-quadruple", "Hidden Quads";
    /// A digit in two lines confined to two crossing lines.
    XWing => "X-Wing", "x-wing", "X-Wing";
    /// A digit in three lines confined to three crossing lines.
    Swordfish => "Swordfish", "swordfish", "Swordfish";
    /// A digit in four lines confined to four crossing lines.
    Jellyfish => "Jellyfish", "jellyfish", "Jellyfish";
    /// An X-Wing with extra candidates (fins) in one box.
    FinnedXWing => "Finned X-Wing", "finned-x-wing", "Finned X-Wing";
    /// A Swordfish with fins in one box.
    FinnedSwordfish => "Finned Swordfish", "finned-swordfish", "Finned Swordfish";
    /// A Jellyfish with fins in one box.
    FinnedJellyfish => "Finned Jellyfish", "finned-jellyfish", "Finned Jellyfish";
    /// A finned X-Wing that would be degenerate without its fins.
    SashimiXWing => "Sashimi X-Wing", "sashimi-x-wing", "Sashimi X-Wing";
    /// A finned Swordfish that would be degenerate without its fins.
    SashimiSwordfish => "Sashimi Swordfish", "sashimi-swordfish", "Sashimi Swordfish";
    /// A finned Jellyfish that would be degenerate without its fins.
    SashimiJellyfish => "Sashimi Jellyfish", "sashimi-jellyfish", "Sashimi Jellyfish";
    /// Two Finned X-Wings with the same base lines and different covers, as one step with both
    /// fish's eliminations (HoDoKu's Siamese fish).
    SiameseFinnedXWing => "Siamese Finned X-Wing", "siamese-finned-x-wing", "Finned X-Wing";
    /// Two Finned Swordfish with the same base lines, as one step.
    SiameseFinnedSwordfish => "Siamese Finned Swordfish", "siamese-finned-swordfish", "Finned Swordfish";
    /// Two Finned Jellyfish with the same base lines, as one step.
    SiameseFinnedJellyfish => "Siamese Finned Jellyfish", "siamese-finned-jellyfish", "Finned Jellyfish";
    /// Two Sashimi X-Wings with the same base lines, as one step.
    SiameseSashimiXWing => "Siamese Sashimi X-Wing", "siamese-sashimi-x-wing", "Sashimi X-Wing";
    /// Two Sashimi Swordfish with the same base lines, as one step.
    SiameseSashimiSwordfish => "Siamese Sashimi Swordfish", "siamese-sashimi-swordfish", "Sashimi Swordfish";
    /// Two Sashimi Jellyfish with the same base lines, as one step.
    SiameseSashimiJellyfish => "Siamese Sashimi Jellyfish", "siamese-sashimi-jellyfish", "Sashimi Jellyfish";
    /// A finned fish whose every fin, by a chain, removes a candidate the fish would remove.
    KrakenFishType1 => "Kraken Fish Type 1", "kraken-fish-type-1", "Kraken Fish";
    /// A finned fish with a cover house whose base candidates and the fins each, by a chain,
    /// remove one same candidate.
    KrakenFishType2 => "Kraken Fish Type 2", "kraken-fish-type-2", "Kraken Fish";
    /// A fish of two base and two cover houses mixing boxes with rows (base) and columns (cover), or the reverse.
    FrankenXWing => "Franken X-Wing", "franken-x-wing", "Franken X-Wing";
    /// A fish of three base and three cover houses mixing boxes with rows (base) and columns (cover), or the reverse.
    FrankenSwordfish => "Franken Swordfish", "franken-swordfish", "Franken Swordfish";
    /// A fish of four base and four cover houses mixing boxes with rows (base) and columns (cover), or the reverse.
    FrankenJellyfish => "Franken Jellyfish", "franken-jellyfish", "Franken Jellyfish";
    /// A Franken X-Wing with fins: only cover cells seeing every fin lose the digit.
    FinnedFrankenXWing => "Finned Franken X-Wing", "finned-franken-x-wing", "Finned Franken X-Wing";
    /// A Franken Swordfish with fins: only cover cells seeing every fin lose the digit.
    FinnedFrankenSwordfish => "Finned Franken Swordfish", "finned-franken-swordfish", "Finned Franken Swordfish";
    /// A Franken Jellyfish with fins: only cover cells seeing every fin lose the digit.
    FinnedFrankenJellyfish => "Finned Franken Jellyfish", "finned-franken-jellyfish", "Finned Franken Jellyfish";
    /// A fish of two base and two cover houses mixing rows, columns and boxes in any other way.
    MutantXWing => "Mutant X-Wing", "mutant-x-wing", "Mutant X-Wing";
    /// A fish of three base and three cover houses mixing rows, columns and boxes in any other way.
    MutantSwordfish => "Mutant Swordfish", "mutant-swordfish", "Mutant Swordfish";
    /// A fish of four base and four cover houses mixing rows, columns and boxes in any other way.
    MutantJellyfish => "Mutant Jellyfish", "mutant-jellyfish", "Mutant Jellyfish";
    /// A Mutant X-Wing with fins: only cover cells seeing every fin lose the digit.
    FinnedMutantXWing => "Finned Mutant X-Wing", "finned-mutant-x-wing", "Finned Mutant X-Wing";
    /// A Mutant Swordfish with fins: only cover cells seeing every fin lose the digit.
    FinnedMutantSwordfish => "Finned Mutant Swordfish", "finned-mutant-swordfish", "Finned Mutant Swordfish";
    /// A Mutant Jellyfish with fins: only cover cells seeing every fin lose the digit.
    FinnedMutantJellyfish => "Finned Mutant Jellyfish", "finned-mutant-jellyfish", "Finned Mutant Jellyfish";
    /// Two parallel conjugate pairs joined at one end by a crossing line.
    Skyscraper => "Skyscraper", "skyscraper", "Skyscraper";
    /// A row conjugate pair and a column conjugate pair joined in a box.
    TwoStringKite => "2-String Kite", "2-string-kite", "2-String Kite";
    /// Two 2-String Kites through the same two cells of a box, with both their eliminations.
    DualTwoStringKite => "Dual 2-String Kite", "dual-2-string-kite", "Dual 2-String Kite";
    /// Two conjugate pairs joined by a weak link (the general single-digit three-link chain).
    TurbotFish => "Turbot Fish", "turbot-fish", "Turbot Fish";
    /// A box whose candidates for a digit lie on one row and one column, plus a conjugate pair.
    EmptyRectangle => "Empty Rectangle", "empty-rectangle", "Empty Rectangles";
    /// Two Empty Rectangles in the same box with different conjugate pairs, as one step.
    DualEmptyRectangle => "Dual Empty Rectangle", "dual-empty-rectangle", "Dual Empty Rectangles";
    /// An odd loop of cells of one digit, each linked to the next by a house: the house's
    /// other cells of the digit (guardians) cannot all be false, so cells seeing every
    /// guardian lose the digit. (HoDoKu has no such step; the name is Sudopedia's, and
    /// SudokuWiki's "Guardians".)
    BrokenWing => "Broken Wing", "broken-wing", "Guardians";
    /// A bivalue pivot and two bivalue pincers sharing a third digit.
    XYWing => "XY-Wing", "xy-wing", "Y-Wing";
    /// A trivalue pivot and two bivalue pincers sharing a third digit.
    XYZWing => "XYZ-Wing", "xyz-wing", "XYZ-Wing";
    /// Two equal bivalue cells joined by a conjugate pair of one of their digits.
    WWing => "W-Wing", "w-wing", "W-Wing";
    /// Four cells of a crossing line and box holding four digits, all but one confined to a
    /// house of the pattern: the last loses its cells' common peers.
    WXYZWing => "WXYZ-Wing", "wxyz-wing", "WXYZ-Wing";
    /// Two bivalue cells chained through further cells of the same pair of digits.
    RemotePair => "Remote Pair", "remote-pair", "Remote Pairs";
    /// Unique rectangle: three corners bivalue, the fourth loses the pair.
    UniquenessTest1 => "Uniqueness Test 1", "uniqueness-test-1", "Unique Rectangles Type 1";
    /// Unique rectangle: two corners share one extra digit, removed from their common peers.
    UniquenessTest2 => "Uniqueness Test 2", "uniqueness-test-2", "Unique Rectangles Type 2";
    /// Unique rectangle: the extra digits form a naked subset with other cells.
    UniquenessTest3 => "Uniqueness Test 3", "uniqueness-test-3", "Unique Rectangles Type 3";
    /// Unique rectangle: one digit of the pair is locked in the roof, the other leaves it.
    UniquenessTest4 => "Uniqueness Test 4", "uniqueness-test-4", "Unique Rectangles Type 4";
    /// Unique rectangle: one or two diagonal bivalue corners, the others share one extra
    /// digit, removed from the cells seeing them all.
    UniquenessTest5 => "Uniqueness Test 5", "uniqueness-test-5", "Unique Rectangles Type 5";
    /// Unique rectangle: diagonal bivalue corners and an X-Wing of one digit.
    UniquenessTest6 => "Uniqueness Test 6", "uniqueness-test-6", "Unique Rectangles Type 6";
    /// Unique rectangle: a bivalue corner, and one digit confined to the rectangle in both
    /// lines of the opposite corner, which loses the other digit.
    HiddenRectangle => "Hidden Rectangle", "hidden-rectangle", "Hidden Unique Rectangles";
    /// Three solved corners of a rectangle, none a given, and the fourth would complete
    /// their deadly pattern: it loses that digit.
    AvoidableRectangle1 => "Avoidable Rectangle Type 1", "avoidable-rectangle-1", "Avoidable Rectangles";
    /// Two solved corners of a rectangle's side, none a given; the other two hold the digit
    /// completing the deadly pattern and one same extra digit, removed from cells seeing both.
    AvoidableRectangle2 => "Avoidable Rectangle Type 2", "avoidable-rectangle-2", "Avoidable Rectangles";
    /// All cells bivalue but one: its digit that would appear three times is true.
    BugPlus1 => "Bivalue Universal Grave + 1", "bug-plus-1", "BUG";
    /// Unsolved cells each with a pair of its digits, every digit of the pairs twice or not
    /// at all in each house: were the pairs all true, swapping them would solve the puzzle
    /// again, so a candidate beyond the pairs is true. (HoDoKu has no such step; the name is
    /// the forum's and Sudopedia's.)
    BugLite => "BUG-Lite", "bug-lite", "BUG";
    /// Coloring of one digit's conjugate pairs; a cell seeing both colors loses the digit.
    SimpleColorsTrap => "Simple Colors Trap", "simple-colors-trap", "Singles Chains";
    /// Coloring of one digit's conjugate pairs; a color that sees itself is false.
    SimpleColorsWrap => "Simple Colors Wrap", "simple-colors-wrap", "Singles Chains";
    /// Two color clusters whose colors see each other: a cell seeing both opposite colors
    /// loses the digit.
    MultiColors1 => "Multi Colors 1", "multi-colors-1", "Multi-Coloring";
    /// Two color clusters: a color seeing both colors of the other cluster is false.
    MultiColors2 => "Multi Colors 2", "multi-colors-2", "Multi-Coloring";
    /// Coloring whose colors grow by exception cells, a house's only cell left unseen by a
    /// color. (HoDoKu has no such step; the name is Sudopedia's, and SudokuWiki has none.)
    XColors => "X-Colors", "x-colors", "Singles Chains";
    /// Coloring of candidates of every digit through bivalue cells and a digit's two cells
    /// in a house. (HoDoKu has no such step; the name is SudokuWiki's.)
    Medusa3D => "3D Medusa", "3d-medusa", "3D Medusa";
    /// A single-digit alternating chain.
    XChain => "X-Chain", "x-chain", "X-Cycles";
    /// An alternating chain through bivalue cells.
    XYChain => "XY-Chain", "xy-chain", "XY-Chain";
    /// A nice loop whose links all alternate.
    ContinuousNiceLoop => "Continuous Nice Loop", "continuous-nice-loop", "Alternating Inference Chains";
    /// A nice loop with one discontinuity, which gives the deduction.
    DiscontinuousNiceLoop => "Discontinuous Nice Loop", "discontinuous-nice-loop", "Alternating Inference Chains";
    /// An alternating inference chain over any strong and weak links.
    Aic => "AIC", "aic", "Alternating Inference Chains";
    /// A continuous nice loop using grouped nodes.
    GroupedContinuousNiceLoop => "Grouped Continuous Nice Loop", "grouped-continuous-nice-loop", "Grouped X-Cycles";
    /// A discontinuous nice loop using grouped nodes.
    GroupedDiscontinuousNiceLoop => "Grouped Discontinuous Nice Loop", "grouped-discontinuous-nice-loop", "Grouped X-Cycles";
    /// An AIC using grouped nodes.
    GroupedAic => "Grouped AIC", "grouped-aic", "Grouped AIC";
    /// Two almost locked sets joined by a restricted common digit.
    AlsXz => "Almost Locked Set XZ-Rule", "als-xz", "Almost Locked Sets";
    /// Three almost locked sets joined by two restricted common digits.
    AlsXyWing => "Almost Locked Set XY-Wing", "als-xy-wing", "ALS-XY-Wing";
    /// A chain of almost locked sets.
    AlsXyChain => "Almost Locked Set XY-Chain", "als-xy-chain", "ALS Chains";
    /// A stem cell whose every candidate is linked to an almost locked set.
    DeathBlossom => "Death Blossom", "death-blossom", "Death Blossom";
    /// Cells where a line crosses a box, with cells of the line and of the box sharing no
    /// digit: as many digits as cells, each locked to its part.
    SueDeCoq => "Sue de Coq", "sue-de-coq", "Sue-de-Coq";
    /// Placed digits symmetric under a turn or reflection of the grid with a map of the
    /// digits: the one solution is symmetric too. (HoDoKu has no such step; the name is
    /// Sudopedia's.)
    GurthsSymmetricalPlacement => "Gurth's Symmetrical Placement", "gurths-symmetrical-placement", "Gurth's Theorem";
    /// Twelve cells of three digits in four boxes of two bands and two stacks that cannot
    /// hold those digits only: a guardian holds another. (HoDoKu has no such step; the name is
    /// Denis Berthier's, and SudokuWiki's "Tridagons".)
    Tridagon => "Tridagon", "tridagon", "Tridagons";
    /// Two base cells of a box's mini-line with three or four digits, and a target in each
    /// other box of the band whose cross lines leave each digit two places at most outside
    /// it: the targets hold the base's two digits. (HoDoKu has no such step; the name is the
    /// forum's, David P Bird's JExocet Compendium, and SudokuWiki's "Exocet".)
    JuniorExocet => "Junior Exocet", "junior-exocet", "Exocet";
    /// Sixteen cells around four boxes at a rectangle's corners, locked by sixteen digits of
    /// the eight rows, columns and boxes that join them in a ring. (HoDoKu has no such step;
    /// the name is the forum's, Steve Kurzhals' loop, and SudokuWiki's "SK Loops".)
    SkLoop => "SK Loop", "sk-loop", "SK Loops";
    /// The empty cells where some rows cross some columns, locked by as many digits of those
    /// lines as there are cells. (HoDoKu has no such step; the name is the forum's.)
    MultiSectorLockedSet => "Multi-Sector Locked Set", "multi-sector-locked-set", "Multi-Sector Locked Sets";
    /// A pair of digits for two cells is ruled out when the cells see each other and the
    /// digits are the same, or when together they would empty a cell both see; a candidate
    /// left in no allowed pair is removed. (HoDoKu has no such step; the name is Sudoku
    /// Explainer's.)
    AlignedPairExclusion => "Aligned Pair Exclusion", "aligned-pair-exclusion", "Aligned Pair Exclusion";
    /// Aligned pair exclusion over three cells. (Sudoku Explainer's step; SudokuWiki
    /// describes the pair version only.)
    AlignedTripletExclusion => "Aligned Triplet Exclusion", "aligned-triplet-exclusion", "Aligned Pair Exclusion";
    /// The placements of a digit in nine cells, one per row, column and box, that fit the
    /// marks: a cell every one of them holds gets the digit.
    TemplateSet => "Template Set", "template-set", "Templates";
    /// A candidate no fitting placement of its digit in nine cells holds is removed.
    TemplateDelete => "Template Delete", "template-delete", "Templates";
    /// One assumption leads, along chains, to a contradiction.
    ForcingChainContradiction => "Forcing Chain Contradiction", "forcing-chain-contradiction", "Cell Forcing Chains";
    /// Every candidate of a cell or house leads to the same conclusion.
    ForcingChainVerity => "Forcing Chain Verity", "forcing-chain-verity", "Unit Forcing Chains";
    /// A forcing chain contradiction that needs branching (a net).
    ForcingNetContradiction => "Forcing Net Contradiction", "forcing-net-contradiction", "Digit Forcing Chains";
    /// A forcing chain verity that needs branching (a net).
    ForcingNetVerity => "Forcing Net Verity", "forcing-net-verity", "Digit Forcing Chains";
    /// Sudoku Explainer's chaining rules on the current marks, cheapest first up to dynamic
    /// chains nested five deep: what is left when every rule before it stalls.
    /// Its steps are named by HoDoKu's closest technique (a forcing chain or net) and carry
    /// SE's own name and rating in [`Step::se`]. (HoDoKu has no nesting; the name is SE's.)
    NestedForcingChains => "Nested Forcing Chains", "nested-forcing-chains", "Digit Forcing Chains";
    /// Assume a candidate of one digit, follow that digit only, and reach a contradiction.
    /// (HoDoKu has no such step; the name follows SudokuWiki's "Nishio Forcing Chains".)
    NishioForcingChain => "Nishio Forcing Chain", "nishio", "Nishio Forcing Chains";
    /// The last resort: assume a candidate, propagate with simple techniques, and keep or
    /// delete it by the outcome. Reported as a trial, never presented as pure logic.
    /// (HoDoKu's closest step is "Brute Force", an unreasoned guess; this one is bounded.)
    Trial => "Trial", "trial", "Bowman's Bingo";
}

impl Technique {
    /// The technique named `name`: HoDoKu's name, the short name, or the SudokuWiki alias,
    /// compared case-insensitively with spaces, `-` and `_` treated alike. SudokuWiki aliases
    /// shared by several techniques resolve to the first of them.
    pub fn from_name(name: &str) -> Option<Technique> {
        let key = normalize(name);
        if key.is_empty() {
            return None;
        }
        let by = |f: fn(Technique) -> &'static str| {
            Technique::ALL
                .iter()
                .copied()
                .find(|t| normalize(f(*t)) == key)
        };
        by(Technique::name)
            .or_else(|| by(Technique::short_name))
            .or_else(|| by(Technique::sudokuwiki_alias))
            .or(match key.as_str() {
                "lc1" | "locked-candidates-pointing" => Some(Technique::LockedCandidatesPointing),
                "lc2" | "locked-candidates-claiming" => Some(Technique::LockedCandidatesClaiming),
                "naked-quad" => Some(Technique::NakedQuadruple),
                "hidden-quad" => Some(Technique::HiddenQuadruple),
                "bug" | "bug+1" => Some(Technique::BugPlus1),
                "msls" => Some(Technique::MultiSectorLockedSet),
                _ => None,
            })
    }

    /// The technique named `name` (as [`Technique::from_name`] reads it), or a message that
    /// names the nearest technique for a misspelling.
    pub fn parse(name: &str) -> Result<Technique, String> {
        Technique::from_name(name).ok_or_else(|| {
            format!(
                "unknown technique '{name}' (did you mean {}?)",
                Technique::closest(name).short_name()
            )
        })
    }

    /// The technique whose short name is nearest `name` (fewest single-character edits, on
    /// the names as [`Technique::from_name`] compares them): a suggestion for a misspelling.
    pub fn closest(name: &str) -> Technique {
        let key: Vec<char> = normalize(name).chars().collect();
        let distance = |t: Technique| {
            let other: Vec<char> = t.short_name().chars().collect();
            let mut row: Vec<usize> = (0..=other.len()).collect();
            for (i, a) in key.iter().enumerate() {
                let mut diagonal = row[0];
                row[0] = i + 1;
                for (j, b) in other.iter().enumerate() {
                    let substitute = diagonal + usize::from(a != b);
                    diagonal = row[j + 1];
                    row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
                }
            }
            row[other.len()]
        };
        Technique::ALL
            .iter()
            .copied()
            .min_by_key(|&t| distance(t))
            .expect("there are techniques")
    }

    /// Whether the technique places a digit by looking at one house or cell (the singles).
    pub const fn is_single(self) -> bool {
        matches!(
            self,
            Technique::FullHouse | Technique::HiddenSingle | Technique::NakedSingle
        )
    }

    /// Whether the technique is only valid when the puzzle is known to have one solution.
    pub const fn needs_uniqueness(self) -> bool {
        matches!(
            self,
            Technique::UniquenessTest1
                | Technique::UniquenessTest2
                | Technique::UniquenessTest3
                | Technique::UniquenessTest4
                | Technique::UniquenessTest5
                | Technique::UniquenessTest6
                | Technique::HiddenRectangle
                | Technique::AvoidableRectangle1
                | Technique::AvoidableRectangle2
                | Technique::BugPlus1
                | Technique::BugLite
                | Technique::GurthsSymmetricalPlacement
        )
    }
}

fn normalize(name: &str) -> String {
    let mut s: String = name
        .trim()
        .chars()
        .map(|c| match c {
            ' ' | '_' => '-',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    while s.contains("--") {
        s = s.replace("--", "-");
    }
    s
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One deduction: a technique, what it concludes, and what it looked at.
///
/// The `cells`, `houses`, `digits` and `fins` fields describe the pattern for hints and
/// highlighting; `placements` and `eliminations` are its conclusions and the only fields the
/// engine applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique that found the step.
    pub technique: Technique,
    /// Digits placed, as (cell, digit).
    pub placements: Vec<(Cell, Digit)>,
    /// Candidates removed, as (cell, digit).
    pub eliminations: Vec<(Cell, Digit)>,
    /// The pattern's cells (a subset, a fish's body, a wing's pivot and pincers, …).
    pub cells: Vec<Cell>,
    /// Extra cells with a special role: a fish's fins, a rectangle's roof, BUG+1's cell,
    /// X-Colors' exception cells, 3D Medusa's cells of the second color.
    pub fins: Vec<Cell>,
    /// The houses the pattern lives in (for fish: base sets, then cover sets).
    pub houses: Vec<House>,
    /// The digits the pattern is about.
    pub digits: DigitSet,
    /// A short description of the pattern, e.g. `5 in box 4` or `r1c1,r1c5 {2,7} in row 1`.
    pub detail: String,
    /// For chains, the chain in Eureka notation, e.g.
    /// `(1)r5c4=(1)r5c7-(1)r8c7=(1)r8c4 => r5c4<>1`.
    pub chain: Option<String>,
    /// Sudoku Explainer's name and rating, for a step of SE's path (`--rules se`).
    pub se: Option<SeLabel>,
}

/// What Sudoku Explainer calls a step of its path, and how it rates it. Kept beside
/// [`Step::technique`], which names HoDoKu's same idea, so SE's own names ("Direct
/// Pointing", "Dynamic Contradiction Forcing Chains (+)") and the ratings ER, EP and ED
/// come from are never lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeLabel {
    /// SE's technique.
    pub technique: SeTechnique,
    /// SE's rating of the step.
    pub rating: Tenths,
    /// For nested chains ("(+)" and deeper): each candidate a rule removed inside the
    /// chains, with that rule's own step, in the order the chains removed them.
    pub premises: Vec<SePremise>,
}

/// A candidate a rule removed inside a nested chain, and why: the chain text marks it
/// `(by a simpler rule)`, this says which rule and on what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SePremise {
    /// The candidate removed.
    pub removed: (Cell, Digit),
    /// The candidates the chain had removed that the rule's reasoning rests on.
    pub given: Vec<(Cell, Digit)>,
    /// The rule's step, found again on the step's grid less `given` (with its own
    /// premises); `None` if none of the rules the chain runs finds it there.
    pub step: Option<Step>,
}

impl Step {
    /// A step of `technique` with no conclusions and no pattern yet; finders fill it in.
    pub fn new(technique: Technique) -> Step {
        Step {
            technique,
            placements: Vec::new(),
            eliminations: Vec::new(),
            cells: Vec::new(),
            fins: Vec::new(),
            houses: Vec::new(),
            digits: DigitSet::EMPTY,
            detail: String::new(),
            chain: None,
            se: None,
        }
    }

    /// The technique's name as the step's engine writes it: SE's for a step of SE's path,
    /// else HoDoKu's.
    pub fn name(&self) -> String {
        match &self.se {
            Some(label) => label.technique.name(),
            None => self.technique.name().to_string(),
        }
    }

    /// The name followed, for a step of SE's path, by its rating: `Hidden Single`,
    /// `Dynamic Contradiction Forcing Chains (+) (9.3)`.
    pub fn label(&self) -> String {
        match &self.se {
            Some(label) => format!("{} ({})", label.technique.name(), label.rating),
            None => self.technique.name().to_string(),
        }
    }

    /// A step of `technique` concluding `placements` and `eliminations`, which are also
    /// the cells and digits it looks at: for Sudoku Explainer's rules, whose reasoning is
    /// told in the text.
    pub(crate) fn concluding(
        technique: Technique,
        placements: Vec<(Cell, Digit)>,
        eliminations: Vec<(Cell, Digit)>,
    ) -> Step {
        let mut step = Step::new(technique);
        for &(cell, d) in placements.iter().chain(&eliminations) {
            if !step.cells.contains(&cell) {
                step.cells.push(cell);
            }
            step.digits.insert(d);
        }
        step.placements = placements;
        step.eliminations = eliminations;
        step
    }

    /// Whether the step concludes nothing (never returned by a finder).
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty() && self.eliminations.is_empty()
    }

    /// The conclusions in the usual notation: `r4c7<>5, r4c9<>5` and `r1c1=3`.
    pub fn effects(&self) -> String {
        self.placements
            .iter()
            .map(|(c, d)| format!("{c}={d}"))
            .chain(self.eliminations.iter().map(|(c, d)| format!("{c}<>{d}")))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for Step {
    /// One line: `Hidden Single: r4c5=7 in box 5`, `Locked Candidates Type 1 (Pointing): 5 in
    /// box 4 => r4c7<>5, r4c9<>5`, or for chains `X-Chain: (1)r5c4=… => r5c4<>1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.label())?;
        if let Some(chain) = &self.chain {
            return f.write_str(chain);
        }
        f.write_str(&self.detail)?;
        if !self.technique.is_single() {
            write!(f, " => {}", self.effects())?;
        }
        Ok(())
    }
}

/// Compact digit list for step details: `{2,7}`.
pub(crate) fn digit_list(set: DigitSet) -> String {
    let v: Vec<String> = set.iter().map(|d| d.to_string()).collect();
    format!("{{{}}}", v.join(","))
}

/// Comma-joined cell names for step details: `r1c1,r1c5`.
pub(crate) fn cell_list<'a>(cells: impl IntoIterator<Item = &'a Cell>) -> String {
    cells
        .into_iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelt_names_find_the_nearest_technique() {
        assert_eq!(Technique::closest("x-wng"), Technique::XWing);
        assert_eq!(Technique::closest("Swordfsh"), Technique::Swordfish);
        assert_eq!(Technique::closest("hiden single"), Technique::HiddenSingle);
        for &t in Technique::ALL.iter() {
            assert_eq!(Technique::closest(t.short_name()), t);
        }
    }

    #[test]
    fn names_are_unique_and_parse_back() {
        for (i, a) in Technique::ALL.iter().enumerate() {
            assert_eq!(Technique::from_name(a.name()), Some(*a));
            assert_eq!(Technique::from_name(a.short_name()), Some(*a));
            assert_eq!(Technique::from_name(&a.name().to_uppercase()), Some(*a));
            for b in &Technique::ALL[i + 1..] {
                assert_ne!(a.name(), b.name());
                assert_ne!(a.short_name(), b.short_name());
            }
        }
        assert_eq!(
            Technique::from_name("hidden_single"),
            Some(Technique::HiddenSingle)
        );
        assert_eq!(Technique::from_name("Y-Wing"), Some(Technique::XYWing));
        assert_eq!(
            Technique::from_name("box/line reduction"),
            Some(Technique::LockedCandidatesClaiming)
        );
        assert_eq!(Technique::from_name("nonsense"), None);
        assert_eq!(Technique::from_name(""), None);
    }

    #[test]
    fn display_reads_like_a_solver_log() {
        let c = |i| Cell::new(i).unwrap();
        let five = Digit::new(5).unwrap();
        let mut s = Step::new(Technique::HiddenSingle);
        s.placements.push((c(31), Digit::new(7).unwrap()));
        s.detail = "r4c5=7 in box 5".into();
        assert_eq!(s.to_string(), "Hidden Single: r4c5=7 in box 5");
        let mut s = Step::new(Technique::LockedCandidatesPointing);
        s.eliminations = vec![(c(33), five), (c(35), five)];
        s.detail = "5 in box 4".into();
        assert_eq!(
            s.to_string(),
            "Locked Candidates Type 1 (Pointing): 5 in box 4 => r4c7<>5, r4c9<>5"
        );
        s.chain = Some("(5)r1c1=(5)r1c2 => r4c7<>5".into());
        assert!(s.to_string().ends_with("=> r4c7<>5"));
    }
}
