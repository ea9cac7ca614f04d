//! Every input format in, every error path out, and parse ∘ format = identity.

use std::io::{self, BufRead, BufReader, Read};

use sudokit::error::ParseErrorKind;
use sudokit::parse::{parse, records, Record, MAX_LINE};
use sudokit::{format, Cell, Grid, House};

const INKALA_2012: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn read(input: &str) -> Vec<Record> {
    records(input.as_bytes())
        .collect::<Result<_, _>>()
        .expect("reading from memory cannot fail")
}

/// Every record of `reader`, and how many bytes it reports having read.
fn read_all(reader: impl BufRead) -> (Vec<Record>, u64) {
    let mut recs = records(reader);
    let mut out = Vec::new();
    for rec in recs.by_ref() {
        out.push(rec.expect("these readers never fail"));
    }
    (out, recs.bytes_read())
}

/// A reader that hands out one byte per read, the worst a pipe or socket can do: every line
/// end, and both halves of every `\r\n`, arrive in reads of their own.
struct OneByte<R>(R);

impl<R: Read> Read for OneByte<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match out.first_mut() {
            Some(first) => self.0.read(std::slice::from_mut(first)),
            None => Ok(0),
        }
    }
}

/// The records of `input` read one byte at a time, checked to be exactly those of reading
/// it whole, and to account for every byte.
fn read_bytewise(input: &str) -> Vec<Record> {
    let (recs, bytes) = read_all(BufReader::with_capacity(1, OneByte(input.as_bytes())));
    assert_eq!(bytes, input.len() as u64);
    let (whole, bytes) = read_all(input.as_bytes());
    assert_eq!(bytes, input.len() as u64);
    assert_eq!(recs, whole);
    recs
}

fn lines_of(recs: &[Record]) -> Vec<usize> {
    recs.iter().map(|r| r.line).collect()
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
fn a_lone_carriage_return_ends_a_line() {
    // Old-Mac files: three puzzles, three records, none swallowed as trailing text.
    let recs = read_bytewise(&format!("{INKALA_2012}\r{INKALA_2012} x\r{INKALA_2012}\r"));
    assert_eq!(lines_of(&recs), [1, 2, 3]);
    assert!(recs.iter().all(|r| r.puzzle.is_ok()));
    assert_eq!(recs[1].trailing, " x");
    // Every line end mixed in one file, `\r\n` counting once; `\n\r` is two ends, so an
    // empty line between them.
    let input = format!(
        "{INKALA_2012}\r\n{INKALA_2012} a\r{INKALA_2012}\n\r{INKALA_2012} b\r\n\r\n# c\r{}",
        INKALA_2012
    );
    let recs = read_bytewise(&input);
    assert_eq!(lines_of(&recs), [1, 2, 3, 5, 8]);
    assert!(recs.iter().all(|r| r.puzzle.is_ok()));
    assert!(recs.iter().all(|r| !r.trailing.contains('\r')));
    assert_eq!(recs[3].trailing, " b");
    // Drawn grids too, ended by a blank line made of a lone `\r`.
    let rows: Vec<&str> = (0..9).map(|r| &INKALA_2012[r * 9..r * 9 + 9]).collect();
    let recs = read_bytewise(&format!("{}\r\r{}\r", rows.join("\r"), rows.join("\r\n")));
    assert_eq!(lines_of(&recs), [1, 11]);
    assert!(recs.iter().all(|r| r.puzzle.is_ok()));
    // Errors count lone `\r` line ends as well.
    let recs = read_bytewise(&format!("\r\r{}x\r", &INKALA_2012[..80]));
    assert_eq!(
        error_of(&recs[0]),
        (ParseErrorKind::BadCharacter { found: 'x' }, 3, 81)
    );
}

#[test]
fn a_line_longer_than_the_limit_is_one_error_record() {
    let too_long = ParseErrorKind::LineTooLong { limit: MAX_LINE };
    assert_eq!(too_long.to_string(), "line longer than 65536 bytes");
    // Ten megabytes without a line end, then a good puzzle: one error, then the puzzle.
    let endless = io::repeat(b'.').take(10_000_000);
    let rest = format!("\n{INKALA_2012} after\n");
    let (recs, bytes) = read_all(BufReader::new(endless.chain(rest.as_bytes())));
    assert_eq!(bytes, 10_000_000 + rest.len() as u64);
    assert_eq!(recs.len(), 2, "{:?}", lines_of(&recs));
    assert_eq!(error_of(&recs[0]), (too_long.clone(), 1, 1));
    assert_eq!(recs[0].trailing, "");
    assert_eq!(recs[1].line, 2);
    assert_eq!(recs[1].trailing, " after");
    assert!(recs[1].puzzle.is_ok());
    // The limit is exact, also when the line arrives a byte at a time; a `\r` ends a long
    // line too, and an overlong last line without a line end is still a record.
    let pad = |len: usize| format!("{INKALA_2012} {}", "x".repeat(len - 82));
    let input = format!(
        "{}\r{}\r\n{INKALA_2012}\n{}",
        pad(MAX_LINE),
        pad(MAX_LINE + 1),
        pad(3 * MAX_LINE)
    );
    let recs = read_bytewise(&input);
    assert_eq!(lines_of(&recs), [1, 2, 3, 4]);
    assert_eq!(recs[0].trailing.len(), MAX_LINE - 81);
    assert!(recs[0].puzzle.is_ok());
    assert_eq!(error_of(&recs[1]), (too_long.clone(), 2, 1));
    assert!(recs[2].puzzle.is_ok());
    assert_eq!(error_of(&recs[3]), (too_long.clone(), 4, 1));
    // Inside a drawn grid, the long line cuts the grid short and is a record of its own.
    let rows: Vec<&str> = (0..9).map(|r| &INKALA_2012[r * 9..r * 9 + 9]).collect();
    let input = format!(
        "{}\n{}\n{}\n",
        rows[..4].join("\n"),
        pad(MAX_LINE + 1),
        rows.join("\n")
    );
    let recs = read_bytewise(&input);
    assert_eq!(lines_of(&recs), [1, 5, 6]);
    assert_eq!(
        error_of(&recs[0]),
        (ParseErrorKind::IncompleteGrid { rows: 4 }, 5, 1)
    );
    assert_eq!(error_of(&recs[1]), (too_long, 5, 1));
    assert!(recs[2].puzzle.is_ok());
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
    let dir = crate::common::data_dir();
    let text = std::fs::read_to_string(dir.join("p096_sudoku.txt"))
        .expect("p096_sudoku.txt in the data folder");
    let recs = read(&text);
    assert_eq!(recs.len(), 50);
    assert!(recs.iter().all(|r| r.puzzle.is_ok()));
    assert_eq!(recs[49].trailing, " Grid 50");
}

#[test]
fn every_data_file_parses_without_a_single_error() {
    let dir = crate::common::data_dir();
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
        fn any_mix_of_line_ends_reads_alike(
            lines in prop::collection::vec((puzzle(), "([ ;,#\t][^\n\r]{0,10})?", 0usize..3), 1..8),
        ) {
            let mut text = String::new();
            for (grid, tail, end) in &lines {
                text.push_str(&format!("{grid}{tail}{}", ["\n", "\r", "\r\n"][*end]));
            }
            let recs = super::read_bytewise(&text);
            prop_assert_eq!(recs.len(), lines.len());
            for (i, (rec, (grid, tail, _))) in recs.iter().zip(&lines).enumerate() {
                prop_assert_eq!(rec.line, i + 1);
                prop_assert_eq!(rec.puzzle.as_ref(), Ok(grid));
                prop_assert_eq!(&rec.trailing, tail);
            }
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
