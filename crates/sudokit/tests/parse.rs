//! Every input format in, every error path out, and parse ∘ format = identity.

mod common;

use sudokit::error::ParseErrorKind;
use sudokit::parse::{parse, records, Record};
use sudokit::{format, Cell, Grid, House};

const INKALA_2012: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn read(input: &str) -> Vec<Record> {
    records(input.as_bytes())
        .collect::<Result<_, _>>()
        .expect("reading from memory cannot fail")
}

fn error_of(rec: &Record) -> (ParseErrorKind, usize, usize) {
    let e = rec.puzzle.as_ref().expect_err("expected an error record");
    (e.kind.clone(), e.line, e.column)
}

#[test]
fn line_puzzles_accept_every_blank_and_keep_trailing_text() {
    let zeros = INKALA_2012.replace('.', "0");
    let mixed: String = INKALA_2012
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if c == '.' {
                ['.', '0', '_', '-', '*'][i % 5]
            } else {
                c
            }
        })
        .collect();
    let input = format!("{INKALA_2012}\n{zeros} ED=10.7/10.7/9.7\n{mixed};x,y #z\n");
    let recs = read(&input);
    assert_eq!(recs.len(), 3);
    let want = parse(INKALA_2012).unwrap();
    assert!(recs.iter().all(|r| r.puzzle.as_ref() == Ok(&want)));
    assert_eq!(recs[0].trailing, "");
    assert_eq!(recs[1].trailing, " ED=10.7/10.7/9.7");
    assert_eq!(recs[2].trailing, ";x,y #z");
    assert_eq!([recs[0].line, recs[1].line, recs[2].line], [1, 2, 3]);
}

#[test]
fn comments_blank_lines_crlf_and_bom_are_skipped() {
    let input = format!("\u{feff}# header\r\n\r\n{INKALA_2012}\r\n   \n#tail\n");
    let recs = read(&input);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].line, 3);
    assert_eq!(recs[0].trailing, "");
    assert!(recs[0].puzzle.is_ok());
}

#[test]
fn drawn_grids_in_several_styles() {
    let puzzle = parse(INKALA_2012).unwrap();
    let plain: String = INKALA_2012
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
        .collect();
    let boxed = format!(
        "+-------+-------+-------+\n{}+-------+-------+-------+\n",
        INKALA_2012
            .as_bytes()
            .chunks(9)
            .enumerate()
            .map(|(i, r)| {
                let s = std::str::from_utf8(r).unwrap();
                let sep = if i == 3 || i == 6 {
                    "|-------+-------+-------|\n"
                } else {
                    ""
                };
                format!("{sep}| {} | {} | {} |\n", &s[..3], &s[3..6], &s[6..])
            })
            .collect::<String>()
    );
    let ours = format::grid(&puzzle);
    let input = format!("{plain}\n{boxed}\n{ours}");
    let recs = read(&input);
    assert_eq!(recs.len(), 3, "{recs:?}");
    assert!(recs.iter().all(|r| r.puzzle.as_ref() == Ok(&puzzle)));
    assert_eq!([recs[0].line, recs[1].line], [1, 12]);
    // Grids back to back, with no blank line between them, are two puzzles.
    assert_eq!(read(&format!("{plain}{plain}")).len(), 2);
}

#[test]
fn project_euler_blocks_carry_their_header() {
    let input = "Grid 01\n003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n002609500\n800203009\n005010300\nGrid 02\n200080300\n060070084\n030500209\n000105408\n000000000\n402706000\n301007040\n720040060\n004010003\n";
    let recs = read(input);
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0].trailing, " Grid 01");
    assert_eq!(recs[1].line, 11);
    assert_eq!(recs[0].puzzle.as_ref().unwrap().filled(), 32);
}

#[test]
fn wrong_length_and_bad_characters_are_placed_exactly() {
    let short = &INKALA_2012[..80];
    let long = format!("{INKALA_2012}5");
    let bad = format!("{}x{}", &INKALA_2012[..40], &INKALA_2012[41..]);
    let input = format!("{short}\n{long}\n{bad} trailing\n{INKALA_2012}\n");
    let recs = read(&input);
    assert_eq!(recs.len(), 4);
    assert_eq!(
        error_of(&recs[0]),
        (ParseErrorKind::WrongLength { found: 80 }, 1, 81)
    );
    assert_eq!(
        error_of(&recs[1]),
        (ParseErrorKind::WrongLength { found: 82 }, 2, 82)
    );
    assert_eq!(
        error_of(&recs[2]),
        (ParseErrorKind::BadCharacter { found: 'x' }, 3, 41)
    );
    assert!(recs[3].puzzle.is_ok(), "reading goes on after errors");
}

#[test]
fn duplicate_givens_name_digit_house_and_cells() {
    // Put a second 8 in row 1 (column 5), which already has 8 in r1c1.
    let mut dup = INKALA_2012.to_string();
    dup.replace_range(4..5, "8");
    let recs = read(&dup);
    let (kind, line, column) = error_of(&recs[0]);
    assert_eq!((line, column), (1, 5));
    assert_eq!(
        kind,
        ParseErrorKind::DuplicateGiven {
            digit: sudokit::Digit::new(8).unwrap(),
            house: House::Row(0),
            first: Cell::new(0).unwrap(),
            second: Cell::new(4).unwrap(),
        }
    );
    let msg = recs[0].puzzle.as_ref().unwrap_err().to_string();
    assert_eq!(
        msg,
        "line 1, column 5: digit 8 twice in row 1: r1c1 and r1c5"
    );
}

#[test]
fn duplicate_in_a_drawn_grid_points_at_its_row_and_column() {
    let mut rows: Vec<String> = INKALA_2012
        .as_bytes()
        .chunks(9)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    rows[2] = "87..9.2..".into(); // 8 again in box 1 (r1c1 holds 8)
    let recs = read(&rows.join("\n"));
    let (kind, line, column) = error_of(&recs[0]);
    assert_eq!((line, column), (3, 1));
    assert!(matches!(
        kind,
        ParseErrorKind::DuplicateGiven {
            house: House::Column(0),
            ..
        }
    ));
}

#[test]
fn broken_grids_become_one_error_record_each() {
    let rows: Vec<String> = INKALA_2012
        .as_bytes()
        .chunks(9)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    // A short row inside a grid: one error, and the following grid is still read.
    let mut bad = rows.clone();
    bad[4] = "....457.".into();
    let input = format!("{}\n{}\n", bad.join("\n"), rows.join("\n"));
    let recs = read(&input);
    assert_eq!(recs.len(), 2, "{recs:?}");
    assert_eq!(
        error_of(&recs[0]),
        (ParseErrorKind::BadRow { found: 8 }, 5, 1)
    );
    assert!(recs[1].puzzle.is_ok());
    // A short first row: still one record for the grid (a good row follows it).
    let mut bad = rows.clone();
    bad[0] = "8.......".into();
    let recs = read(&bad.join("\n"));
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(
        error_of(&recs[0]),
        (ParseErrorKind::BadRow { found: 8 }, 1, 1)
    );
    // A bad character in a row.
    let mut bad = rows.clone();
    bad[1] = "..36..?..".into();
    assert_eq!(
        error_of(&read(&bad.join("\n"))[0]),
        (ParseErrorKind::BadCharacter { found: '?' }, 2, 7)
    );
    // A grid cut short by a blank line, by the end of input, and a header with no rows.
    let cut = format!("{}\n\n{INKALA_2012}\n", rows[..5].join("\n"));
    let recs = read(&cut);
    assert_eq!(recs.len(), 2);
    assert_eq!(
        error_of(&recs[0]),
        (ParseErrorKind::IncompleteGrid { rows: 5 }, 6, 1)
    );
    assert_eq!(
        error_of(&read(&rows[..3].join("\n"))[0]).0,
        ParseErrorKind::IncompleteGrid { rows: 3 }
    );
    assert_eq!(
        error_of(&read("Grid 07\n")[0]).0,
        ParseErrorKind::IncompleteGrid { rows: 0 }
    );
}

#[test]
fn garbage_never_panics_and_every_line_is_accounted_for() {
    let input = "hello world\n\u{0}\u{7f}ÿ\n12345\n|||\n+++\nGrid\n";
    let recs = read(input);
    assert!(recs.iter().all(|r| r.puzzle.is_err()));
    // One record per bad line (the rules `|||` and `+++` are drawing, not puzzles): a bad
    // line outside a grid does not swallow the lines after it.
    let lines: Vec<usize> = recs.iter().map(|r| r.line).collect();
    assert_eq!(lines, [1, 2, 3, 6]);
    let recs = read(&format!("11....\nabc\n{INKALA_2012}\n12\n"));
    let lines: Vec<usize> = recs.iter().map(|r| r.line).collect();
    assert_eq!(lines, [1, 2, 3, 4]);
    assert!(recs[2].puzzle.is_ok());
    // Invalid UTF-8 is read lossily rather than aborting the stream.
    let bytes = [
        INKALA_2012.as_bytes(),
        b" \xff\xfe\n",
        INKALA_2012.as_bytes(),
    ]
    .concat();
    let recs: Vec<_> = records(&bytes[..]).collect::<Result<_, _>>().unwrap();
    assert_eq!(recs.len(), 2);
    assert!(recs.iter().all(|r| r.puzzle.is_ok()));
}

#[test]
fn parse_wants_exactly_one_puzzle() {
    assert_eq!(parse("").unwrap_err().kind, ParseErrorKind::NoPuzzle);
    assert_eq!(
        parse(&format!("{INKALA_2012}\n{INKALA_2012}"))
            .unwrap_err()
            .kind,
        ParseErrorKind::MorePuzzles
    );
    let g: Grid = INKALA_2012.parse().unwrap();
    assert_eq!(g.to_string(), INKALA_2012);
}

#[test]
fn format_round_trips() {
    let g = parse(INKALA_2012).unwrap();
    assert_eq!(parse(&format::line(&g, '0')).unwrap(), g);
    assert_eq!(parse(&format::line(&g, '.')).unwrap(), g);
    assert_eq!(parse(&format::grid(&g)).unwrap(), g);
    assert_eq!(parse(&g.to_string()).unwrap(), g);
}

#[test]
fn project_euler_96_data_file() {
    let dir = common::data_dir();
    let text = std::fs::read_to_string(dir.join("p096_sudoku.txt"))
        .expect("p096_sudoku.txt in the data folder");
    let recs = read(&text);
    assert_eq!(recs.len(), 50);
    assert!(recs.iter().all(|r| r.puzzle.is_ok()));
    assert_eq!(recs[49].trailing, " Grid 50");
}

#[test]
fn every_data_file_parses_without_a_single_error() {
    let dir = common::data_dir();
    let expected = [
        ("puzzles2_17_clue", 49_158),
        ("puzzles3_magictour_top1465", 1_465),
        ("puzzles5_forum_hardest_1905_11+", 48_766),
        ("puzzles6_forum_hardest_1106", 375),
        ("puzzles7_serg_benchmark", 10_000),
        ("inkala_2006.txt", 1),
        ("inkala_2012.txt", 1),
        ("gosudoku_simple-01.txt", 1),
        ("gosudoku_simple-02.txt", 1),
    ];
    for (name, count) in expected {
        let file = std::fs::File::open(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let recs: Vec<Record> = records(std::io::BufReader::new(file))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(recs.len(), count, "{name}");
        for r in &recs {
            assert!(r.puzzle.is_ok(), "{name}:{}: {:?}", r.line, r.puzzle);
        }
    }
}

mod properties {
    use proptest::prelude::*;
    use sudokit::parse::{parse, records};
    use sudokit::{format, Grid};

    /// Random givens with clashing ones removed, so that every generated grid is a valid puzzle.
    fn puzzle() -> impl Strategy<Value = Grid> {
        prop::collection::vec(0u8..=9, 81).prop_map(|values| {
            let mut grid = Grid::EMPTY;
            for (i, &v) in values.iter().enumerate() {
                let cell = sudokit::Cell::new(i).unwrap();
                let mut next = grid;
                next.set(cell, sudokit::Digit::new(v));
                if next.conflict().is_none() {
                    grid = next;
                }
            }
            grid
        })
    }

    proptest! {
        #[test]
        fn parse_inverts_format(grid in puzzle(), blank in prop::sample::select(vec!['.', '0', '_', '-', '*'])) {
            prop_assert_eq!(parse(&format::line(&grid, blank)).unwrap(), grid);
            prop_assert_eq!(parse(&format::grid(&grid)).unwrap(), grid);
        }

        #[test]
        fn trailing_text_survives_verbatim(grid in puzzle(), tail in "[ ;,#\t][^\n\r]{0,30}") {
            let text = format!("{grid}{tail}\n");
            let recs: Vec<_> = records(text.as_bytes()).collect::<Result<_, _>>().unwrap();
            prop_assert_eq!(recs.len(), 1);
            prop_assert_eq!(recs[0].puzzle.as_ref().unwrap(), &grid);
            prop_assert_eq!(&recs[0].trailing, &tail);
        }

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
            for rec in records(text.as_bytes()) {
                let rec = rec.unwrap();
                prop_assert!(rec.line >= 1);
            }
        }
    }
}
