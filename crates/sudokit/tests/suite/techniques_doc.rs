//! docs/techniques.md stays complete and true: every technique has one row in its table, no
//! row names something that is not a technique, and each row's family file and reference test
//! exist, so a renamed test or a new technique without a row fails here.

use std::collections::BTreeMap;
use std::path::Path;

use sudokit::step::Technique;

/// The library's source folder and the repository root.
fn roots() -> (&'static Path, &'static Path) {
    (
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")),
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")),
    )
}

/// The text between the first pair of backticks of a table cell, if any.
fn quoted(cell: &str) -> Option<&str> {
    let start = cell.find('`')? + 1;
    let len = cell[start..].find('`')?;
    Some(&cell[start..start + len])
}

/// The rows of the techniques table (the one whose header starts `| technique | family file`),
/// by their first cell, each with its cells; a repeated name fails.
fn rows(text: &str) -> BTreeMap<String, Vec<String>> {
    let mut rows = BTreeMap::new();
    let mut in_table = false;
    for line in text.lines() {
        if line.starts_with("| technique | family file |") {
            in_table = true;
            continue;
        }
        if !in_table || line.starts_with("|---") {
            continue;
        }
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<String> = line
            .trim_matches('|')
            .split(" | ")
            .map(|c| c.trim().to_string())
            .collect();
        let name = cells[0].clone();
        assert!(
            rows.insert(name.clone(), cells).is_none(),
            "{name} has two rows"
        );
    }
    rows
}

#[test]
fn every_technique_has_a_row_whose_file_and_reference_test_exist() {
    let (src, root) = roots();
    let text = std::fs::read_to_string(root.join("docs/techniques.md"))
        .expect("docs/techniques.md is readable");
    let mut rows = rows(&text);
    for technique in Technique::ALL {
        let name = technique.name();
        let row = rows
            .remove(name)
            .unwrap_or_else(|| panic!("docs/techniques.md has no row for {name}"));
        let family = quoted(&row[1]).unwrap_or_else(|| panic!("{name}: no family file"));
        let source = std::fs::read_to_string(src.join(family))
            .unwrap_or_else(|e| panic!("{name}: family file {family}: {e}"));
        let reference = &row[3];
        if reference == "none" {
            continue;
        }
        // `test_name`, or `test_name` (path) when the test lives outside the family file.
        let test = quoted(reference).unwrap_or_else(|| panic!("{name}: reference {reference}"));
        let in_file = match reference.split_once(" (") {
            Some((_, path)) => std::fs::read_to_string(src.join(path.trim_end_matches(')')))
                .unwrap_or_else(|e| panic!("{name}: reference file {path}: {e}")),
            None => source,
        };
        assert!(
            in_file.contains(&format!("fn {test}(")),
            "{name}: no test `{test}` where docs/techniques.md says"
        );
    }
    assert!(
        rows.is_empty(),
        "rows naming no technique: {:?}",
        rows.keys()
    );
}
