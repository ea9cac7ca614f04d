//! A step's chain as data: the links between candidates that a picture draws as arrows,
//! strong links solid and weak links dashed, as HoDoKu draws them.
//!
//! Chains are kept in the text of the field: Eureka notation for alternating inference
//! chains (`(9=5)r1c3-(5=2)r1c9-(2=9)r3c8`, groups as `(1)r5c456`, almost locked sets as
//! `(1=264)r5c789`, cell lists as `r4c7,r4c9`), and implication sequences for forcing chains
//! (`r3c4=8 -> r3c4<>4 -> r5c4=4`, branches joined by ` and `). [`links`] reads either into
//! [`Link`]s, so every picture (the page, `explain --svg`) draws the same links from the
//! same text the step prints.
//!
//! ```
//! use sudokit::links::links;
//!
//! let found = links("(9=5)r1c3-(5=2)r1c9-(2=9)r3c8 => r3c3<>9");
//! assert_eq!(found.len(), 5); // three strong links inside the cells, two weak between them
//! assert_eq!(found.iter().filter(|l| l.strong).count(), 3);
//! ```

use crate::grid::{Cell, CellSet, Digit};

/// A candidate, or a group of candidates of one digit (a grouped node, an ALS's cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// The digit.
    pub digit: Digit,
    /// The cells the chain names: one, or a group or an almost locked set, which holds the
    /// digit in one or more of them.
    pub cells: CellSet,
}

/// One link of a chain: `from` and `to` cannot both be false (strong) or both be true
/// (weak).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Where the arrow starts.
    pub from: Node,
    /// Where it points.
    pub to: Node,
    /// A strong link (drawn solid), else a weak one (dashed).
    pub strong: bool,
}

/// The links of a chain's text, in order; none for text that is not a chain (or a part
/// that cannot be read, which is skipped rather than guessed at).
pub fn links(chain: &str) -> Vec<Link> {
    // What is concluded comes after `=>`; the chain before.
    let body = chain.split(" => ").next().unwrap_or("");
    let body = body.rsplit(": ").next().unwrap_or(body);
    if body.contains(" -> ") {
        body.split(';')
            .flat_map(|part| part.split(" and "))
            .flat_map(implications)
            .collect()
    } else {
        eureka(body)
    }
}

/// Links of an implication sequence: `r3c4=8 -> r3c4<>4` is weak (8 there means 4 not),
/// `r3c4<>4 -> r5c4=4` strong (4 not there means 4 here).
fn implications(sequence: &str) -> Vec<Link> {
    let terms: Vec<(Node, bool)> = sequence
        .split(" -> ")
        // A term may carry words (`cycle r1c1=5`, `r7c5<>7 (by a simpler rule)`).
        .filter_map(|term| term.split_whitespace().find_map(implication))
        .collect();
    terms
        .windows(2)
        // On to on, or off to off, is no link but a rule's step (a nested chain's
        // `(by a simpler rule)`): no arrow.
        .filter(|pair| pair[0].0 != pair[1].0 && pair[0].1 != pair[1].1)
        .map(|pair| Link {
            from: pair[0].0,
            to: pair[1].0,
            strong: !pair[0].1,
        })
        .collect()
}

/// A term of an implication sequence: `r3c4=8` (on) or `r3c4<>4` (off).
fn implication(term: &str) -> Option<(Node, bool)> {
    let (cell, on, digit) = match term.split_once("<>") {
        Some((cell, digit)) => (cell, false, digit),
        None => {
            let (cell, digit) = term.split_once('=')?;
            (cell, true, digit)
        }
    };
    let cells = cells(cell.trim())?;
    let digit = Digit::new(digit.trim().parse().ok()?)?;
    Some((Node { digit, cells }, on))
}

/// Links of Eureka notation: nodes `(digits)cells` joined by `=` (strong) or `-` (weak); a
/// node `(a=b)cells` holds a strong link from `a` to `b` inside it.
fn eureka(body: &str) -> Vec<Link> {
    let mut found = Vec::new();
    let mut previous: Option<Node> = None;
    let mut rest = body.trim();
    let mut joint_strong = false;
    while let Some(open) = rest.find('(') {
        let close = match rest[open..].find(')') {
            Some(close) => open + close,
            None => break,
        };
        let digits = &rest[open + 1..close];
        let after = &rest[close + 1..];
        let end = after.find(['=', '-', '(']).unwrap_or(after.len());
        let Some(cells) = cells(after[..end].trim()) else {
            break;
        };
        let (first, last) = match digits.split_once('=') {
            Some((a, b)) => (a, b),
            None => (digits, digits),
        };
        let (Some(first), Some(last)) = (digit(first), digit(last)) else {
            break;
        };
        let (into, out) = (
            Node {
                digit: first,
                cells,
            },
            Node { digit: last, cells },
        );
        if let Some(before) = previous {
            found.push(Link {
                from: before,
                to: into,
                strong: joint_strong,
            });
        }
        // An ALS's own link stays unshown: its cells are shaded instead.
        if digits.contains('=') && cells.len() == 1 {
            found.push(Link {
                from: into,
                to: out,
                strong: true,
            });
        }
        previous = Some(out);
        rest = &after[end..];
        joint_strong = rest.starts_with('=');
    }
    found
}

/// The first digit of a node's digit list (`5`, `5237`).
fn digit(text: &str) -> Option<Digit> {
    Digit::new(text.chars().next()?.to_digit(10)? as u8)
}

/// The cells of `r1c3`, `r13c4`, `r2c1358` or a comma-separated list of them.
fn cells(text: &str) -> Option<CellSet> {
    let mut set = CellSet::default();
    for part in text.split(',') {
        let part = part.trim().strip_prefix('r')?;
        let (rows, cols) = part.split_once('c')?;
        for r in rows.chars() {
            for c in cols.chars() {
                let (r, c) = (r.to_digit(10)? as usize, c.to_digit(10)? as usize);
                set.insert(Cell::from_row_col(r.checked_sub(1)?, c.checked_sub(1)?)?);
            }
        }
    }
    (!set.is_empty()).then_some(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(digit: u8, names: &[(usize, usize)]) -> Node {
        Node {
            digit: Digit::new(digit).unwrap(),
            cells: names
                .iter()
                .map(|&(r, c)| Cell::from_row_col(r - 1, c - 1).unwrap())
                .collect(),
        }
    }

    #[test]
    fn eureka_chains_become_their_links() {
        let found = links("(4)r5c4=(4)r3c4-(4)r3c7=(4)r6c7 => r5c9<>4, r6c6<>4");
        assert_eq!(
            found,
            vec![
                Link {
                    from: node(4, &[(5, 4)]),
                    to: node(4, &[(3, 4)]),
                    strong: true
                },
                Link {
                    from: node(4, &[(3, 4)]),
                    to: node(4, &[(3, 7)]),
                    strong: false
                },
                Link {
                    from: node(4, &[(3, 7)]),
                    to: node(4, &[(6, 7)]),
                    strong: true
                },
            ]
        );
        // Groups and cell lists.
        let grouped =
            links("(9)r1c9=(9)r2c9-(4)r2c9=(4)r2c6-(4)r3c4=(4)r5c4-(9)r5c4=(9)r13c4 => r1c6<>9");
        assert_eq!(grouped.last().unwrap().to, node(9, &[(1, 4), (3, 4)]));
        let als = links("(7=5123)r2c1358-(5=2)r1c7-(2=73458)r4c7,r4c9,r5c9,r6c7,r6c9 => r2c9<>7");
        assert_eq!(als.len(), 3, "two joints and the bivalue cell's own link");
        assert_eq!(als[2].to.cells.len(), 5);
    }

    #[test]
    fn forcing_chains_become_their_implications() {
        let found = links(
            "Nishio Forcing Chains (SE 7.9): r9c2=2 leads to a contradiction: r9c2=2 -> r1c2<>2 -> r1c9=2 and r9c2=2 -> r9c1<>2 => r9c2<>2",
        );
        assert_eq!(found.len(), 3);
        assert_eq!(
            (found[0].strong, found[1].strong, found[2].strong),
            (false, true, false)
        );
        assert_eq!(found[1].to, node(2, &[(1, 9)]));
    }

    #[test]
    fn text_that_is_not_a_chain_has_no_links() {
        assert!(links("").is_empty());
        assert!(links("X-Wing: 2 in row 5, row 7").is_empty());
    }
}
