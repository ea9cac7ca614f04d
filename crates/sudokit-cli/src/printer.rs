//! The printers: one per output format, each laying out every command's records in its
//! form, and the error records among them.
//!
//! A command does not format. It turns what it found for one puzzle into a record and
//! gives each record the forms its formats need: [`AsLine`] (the text before the trailing
//! text), [`AsParagraph`] (a heading and the lines under it), [`AsGrid`] (notes and the grid
//! to draw), [`AsColumns`] (tab-separated fields under a header) and [`AsJson`] (the JSON
//! object). It picks a printer once, from `--format`; the printer decides the rest: where
//! the trailing text goes, that notes are `#` comments, that TSV has a header, that a JSON
//! object begins with the record's place and ends with its trailing text, and how an error
//! record looks in that format.

use std::io::{self, Write};

use serde::Serialize;
use sudokit::{format, Grid};

use crate::batch::Place;
use crate::output::json_line;
use sudokit::wire::{ErrorRecord, Placed};

/// Writes records of type `R` in one format.
pub trait Printer<R>: Sync {
    /// Writes what comes before the first record (a header), if anything.
    fn begin(&self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    /// Writes what comes after the last record (the end of a document), if anything.
    fn end(&self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    /// Writes the record of the puzzle read at `place`, or of a puzzle not read from any
    /// input (a generated one), which has no place and no trailing text.
    fn print(&self, out: &mut dyn Write, place: Option<&Place>, record: &R) -> io::Result<()>;

    /// Writes the error record standing in place of a puzzle.
    fn error(&self, out: &mut dyn Write, error: &Rejected) -> io::Result<()>;
}

/// A puzzle that could not be read, or was read but not worked on, and why.
pub struct Rejected<'a> {
    pub place: &'a Place,
    /// The puzzle, when it was read.
    pub puzzle: Option<&'a Grid>,
    /// The positioned message, `file:line:column: what`.
    pub message: &'a str,
}

/// A record written as one line: its text, then the puzzle's trailing text.
pub trait AsLine {
    /// Writes the line before the trailing text (straight to the output: at solving speed
    /// a string per record would cost a few percent).
    fn line(&self, out: &mut dyn Write) -> io::Result<()>;

    /// Whether the line ends in a grid, whose fixed width shows where the trailing text
    /// begins. After anything else (a count, a rating, words) a space keeps them apart.
    fn ends_in_grid(&self) -> bool {
        false
    }
}

/// A record written as a paragraph: a heading followed by the trailing text, the lines of
/// the body, and a blank line.
pub trait AsParagraph {
    /// The first line, before the trailing text.
    fn heading(&self) -> String;
    /// The lines after it, each ending with a newline.
    fn body(&self) -> String;
}

/// A record written as a section of an HTML document: the paragraph's heading (followed by
/// the trailing text, escaped by the printer) over a body that is already HTML.
pub trait AsHtml: AsParagraph {
    /// The section's body, as HTML.
    fn body_html(&self) -> String;
}

/// A record drawn as a 9×9 grid, its notes as `#` comment lines above it, so that the
/// output reads back in as puzzles.
pub trait AsGrid {
    /// Notes, one comment line each.
    fn notes(&self) -> Vec<String>;
    /// The grid to draw, or none (a blank line takes its place).
    fn grid(&self) -> Option<&Grid>;
}

/// A record written as tab-separated columns.
pub trait AsColumns {
    /// The columns' names, written once as a `#` comment line.
    const HEADER: &'static [&'static str];
    /// The fields, one per column.
    fn columns(&self) -> Vec<String>;
}

/// A record written as one JSON object of JSON Lines output: its place (`file`, `line`),
/// the fields of [`AsJson::json`], and `trailing`.
pub trait AsJson {
    /// The record's own fields.
    fn json(&self) -> impl Serialize + '_;
}

/// `--format line`: one line per puzzle, trailing text kept.
pub struct LinePrinter;

/// `--format text` of `explain`: one paragraph per puzzle.
pub struct ParagraphPrinter;

/// `--format html` of `explain`: one self-contained page, a section per puzzle.
pub struct HtmlPrinter;

/// `--format grid`: drawn grids with `#` notes; reads back in.
pub struct GridPrinter;

/// `--format tsv`: a header, then tab-separated columns; errors are `#` comment lines, so
/// the columns still parse.
pub struct TsvPrinter;

/// `--format json`: JSON Lines.
pub struct JsonPrinter;

impl<R: AsLine> Printer<R> for LinePrinter {
    fn print(&self, out: &mut dyn Write, place: Option<&Place>, record: &R) -> io::Result<()> {
        let trailing = trailing(place);
        let space = if record.ends_in_grid() || !needs_space(trailing) {
            ""
        } else {
            " "
        };
        record.line(out)?;
        // Plain bytes, and no empty writes: on fast commands each costs about as much as
        // the formatting of a solution.
        if !trailing.is_empty() {
            out.write_all(space.as_bytes())?;
            out.write_all(trailing.as_bytes())?;
        }
        out.write_all(b"\n")
    }

    fn error(&self, out: &mut dyn Write, error: &Rejected) -> io::Result<()> {
        writeln!(out, "error: {}", error.message)
    }
}

impl<R: AsParagraph> Printer<R> for ParagraphPrinter {
    fn print(&self, out: &mut dyn Write, place: Option<&Place>, record: &R) -> io::Result<()> {
        writeln!(out, "{}{}", record.heading(), trailing(place))?;
        writeln!(out, "{}", record.body())
    }

    fn error(&self, out: &mut dyn Write, error: &Rejected) -> io::Result<()> {
        writeln!(out, "error: {}\n", error.message)
    }
}

/// The page's style: readable in print and on a screen, pictures as wide as the text.
const HTML_STYLE: &str =
    "body{font:16px/1.5 system-ui,sans-serif;max-width:760px;margin:2rem auto;\
padding:0 1rem;color:#1b1b1b}h2{font-size:1.1rem;word-break:break-all}li{margin:1rem 0}\
svg{max-width:100%;height:auto}.error{color:#c01c28}section{break-after:page}";

impl<R: AsHtml> Printer<R> for HtmlPrinter {
    fn begin(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <title>sudokit explain</title><style>{HTML_STYLE}</style></head><body>"
        )
    }

    fn end(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "</body></html>")
    }

    fn print(&self, out: &mut dyn Write, place: Option<&Place>, record: &R) -> io::Result<()> {
        let heading = format!("{}{}", record.heading(), trailing(place));
        writeln!(
            out,
            "<section><h2>{}</h2>\n{}</section>",
            escape_html(&heading),
            record.body_html()
        )
    }

    fn error(&self, out: &mut dyn Write, error: &Rejected) -> io::Result<()> {
        writeln!(
            out,
            "<p class=\"error\">error: {}</p>",
            escape_html(error.message)
        )
    }
}

/// `text` safe inside HTML: what a puzzle's trailing text or a message holds is shown, never
/// read as markup.
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl<R: AsGrid> Printer<R> for GridPrinter {
    fn print(&self, out: &mut dyn Write, place: Option<&Place>, record: &R) -> io::Result<()> {
        let trailing = trailing(place).trim();
        if !trailing.is_empty() {
            writeln!(out, "# {trailing}")?;
        }
        for note in record.notes() {
            writeln!(out, "# {note}")?;
        }
        match record.grid() {
            Some(grid) => writeln!(out, "{}", format::grid(grid)),
            None => writeln!(out),
        }
    }

    fn error(&self, out: &mut dyn Write, error: &Rejected) -> io::Result<()> {
        writeln!(out, "# error: {}\n", error.message)
    }
}

impl<R: AsColumns> Printer<R> for TsvPrinter {
    fn begin(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "# {}", R::HEADER.join("\t"))
    }

    fn print(&self, out: &mut dyn Write, _: Option<&Place>, record: &R) -> io::Result<()> {
        writeln!(out, "{}", record.columns().join("\t"))
    }

    fn error(&self, out: &mut dyn Write, error: &Rejected) -> io::Result<()> {
        writeln!(out, "# error: {}", error.message)
    }
}

impl<R: AsJson> Printer<R> for JsonPrinter {
    fn print(&self, out: &mut dyn Write, place: Option<&Place>, record: &R) -> io::Result<()> {
        match place {
            Some(place) => json_line(out, &placed(place, record.json())),
            None => json_line(out, &record.json()),
        }
    }

    fn error(&self, out: &mut dyn Write, error: &Rejected) -> io::Result<()> {
        let record = ErrorRecord {
            puzzle: error.puzzle.map(Grid::to_string),
            error: error.message,
        };
        json_line(out, &placed(error.place, record))
    }
}

/// `record`, placed where the puzzle at `place` was read.
fn placed<R>(place: &Place, record: R) -> Placed<'_, R> {
    Placed {
        file: &place.file,
        line: place.line,
        record,
        trailing: &place.trailing,
    }
}

/// The trailing text of the puzzle at `place`; none without one.
fn trailing(place: Option<&Place>) -> &str {
    place.map_or("", |p| p.trailing.as_str())
}

/// Whether trailing text would run into a field before it: it is there and does not begin
/// with a space of its own.
fn needs_space(trailing: &str) -> bool {
    !trailing.is_empty() && !trailing.starts_with(char::is_whitespace)
}
