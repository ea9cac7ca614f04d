//! Rating agreement with Sudoku Explainer and rating speed.
//!
//! `cargo bench --bench rate [-- calib|anchors|peer|speed|top1465|hardest|17|11+]`
//! - calib: rates `se_rated_calibration.tsv` (puzzle, ER, EP, ED of classic SE 1.2.1) and
//!   prints the share of exact ER/EP/ED matches, the share within 0.3, and Spearman's rank
//!   correlation of ER; `SUDOKIT_BENCH_VERBOSE=1` lists every disagreement.
//! - speed: SE-scale ratings per second on one thread, time percentiles, the slowest puzzle
//!   and the count over a second, on the hardest lists and a sample of the 17-clue list
//!   (`SUDOKIT_BENCH_SAMPLE`, default every 100th); the forum hardest list can be sampled
//!   with `SUDOKIT_BENCH_HARDEST_SAMPLE` (default every puzzle: about 8 minutes), the 11+
//!   list (published as rated 11.0 or more; the count rated lower is printed) with
//!   `SUDOKIT_BENCH_SAMPLE_11` (default every 500th), and every list capped at
//!   `SUDOKIT_BENCH_LIMIT`; `top1465`, `hardest`, `17` or `11+` run one list alone, and
//!   `SUDOKIT_BENCH_VERBOSE=1` prints each puzzle's time to stderr.
//! - anchors: the famous hardest puzzles with their published SE ratings, and the speed
//!   ratio to SE's own time where known.
//! - peer: Sudoku Explainer itself on the same puzzles in the same run, where
//!   `SUDOKIT_SE_CLASSPATH` points at it (gsf's SudokuExplainer.jar 1.2.1.3, or classes
//!   built from that source; needs `java`): agreement on ER and on ER/EP/ED, both times
//!   and their ratio, on the calibration set, every 10th of top1465
//!   (`SUDOKIT_SE_SAMPLE_TOP`) and every 125th of the forum hardest list
//!   (`SUDOKIT_SE_SAMPLE_HARDEST`; SE takes minutes on each); a sample step of 0 skips
//!   that list.
//!
//! Data folder: the repository's `data/` (`SUDOKIT_DATA` overrides; relative to the workspace root).

#[path = "../tests/suite/common.rs"]
#[allow(dead_code)] // each bench uses a subset of the helpers
mod common;

/// The CLI's allocator: ratings allocate many small chain vectors, and the benchmark
/// measures the speed `sudokit rate` gives.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::{Duration, Instant};

use sudokit::parse::parse;
use sudokit::rate::se_rating;
use sudokit::Grid;

fn tenths(s: &str) -> u16 {
    let v: f64 = s.trim().parse().expect("rating");
    (v * 10.0).round() as u16
}

/// Spearman's rank correlation with average ranks for ties.
fn spearman(a: &[f64], b: &[f64]) -> f64 {
    fn ranks(v: &[f64]) -> Vec<f64> {
        let mut idx: Vec<usize> = (0..v.len()).collect();
        idx.sort_by(|&i, &j| v[i].total_cmp(&v[j]));
        let mut r = vec![0.0; v.len()];
        let mut i = 0;
        while i < idx.len() {
            let mut j = i;
            while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
                j += 1;
            }
            let avg = (i + j) as f64 / 2.0 + 1.0;
            for &k in &idx[i..=j] {
                r[k] = avg;
            }
            i = j + 1;
        }
        r
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let ma = ra.iter().sum::<f64>() / n;
    let mb = rb.iter().sum::<f64>() / n;
    let cov: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = ra.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = rb.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

fn calibration(verbose: bool) {
    let text = common::read_data("se_rated_calibration.tsv");
    let mut rows = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 4 || f[0].len() < 81 || f[0].starts_with('#') {
            continue;
        }
        let grid = parse(f[0]).expect("calibration puzzle");
        rows.push((
            f[0].to_string(),
            grid,
            tenths(f[1]),
            tenths(f[2]),
            tenths(f[3]),
        ));
    }
    let (mut er_ok, mut ep_ok, mut ed_ok, mut er_near, mut all_ok) = (0, 0, 0, 0, 0);
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let start = Instant::now();
    let mut worst = (Duration::ZERO, String::new());
    for (text, grid, er, ep, ed) in &rows {
        let t = Instant::now();
        let r = se_rating(grid);
        let dt = t.elapsed();
        if dt > worst.0 {
            worst = (dt, text.clone());
        }
        let (e, p, d) = (r.er.0, r.ep.0, r.ed.0);
        er_ok += (e == *er) as usize;
        ep_ok += (p == *ep) as usize;
        ed_ok += (d == *ed) as usize;
        all_ok += (e == *er && p == *ep && d == *ed) as usize;
        er_near += (e.abs_diff(*er) <= 3) as usize;
        ours.push(e as f64);
        theirs.push(*er as f64);
        if verbose && (e != *er || p != *ep || d != *ed) {
            println!(
                "  differs: {text} SE {}/{}/{} ours {}/{}/{} ({:?})",
                *er as f64 / 10.0,
                *ep as f64 / 10.0,
                *ed as f64 / 10.0,
                r.er,
                r.ep,
                r.ed,
                r.hardest.map(|t| t.name())
            );
        }
    }
    let n = rows.len() as f64;
    let pct = |k: usize| 100.0 * k as f64 / n;
    println!(
        "calibration: {} puzzles rated in {:.2?} (slowest {:.2?})",
        rows.len(),
        start.elapsed(),
        worst.0
    );
    println!(
        "  exact ER {:.1}%  EP {:.1}%  ED {:.1}%  all three {:.1}%  ER within 0.3 {:.1}%  Spearman(ER) {:.4}",
        pct(er_ok),
        pct(ep_ok),
        pct(ed_ok),
        pct(all_ok),
        pct(er_near),
        spearman(&ours, &theirs)
    );
}

/// Which puzzles of a list were taken: "all", or "every 10th".
fn sample(step: usize) -> String {
    let suffix = match (step % 10, step % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    match step {
        1 => "all".into(),
        _ => format!("every {step}{suffix}"),
    }
}

/// Rates every `step`th puzzle of `name` (at most `limit`) on one thread and prints
/// the rate, mean, median, 90th percentile and slowest time, how many took over a
/// second, and the ER histogram; `floor` (tenths) also counts the ratings below it, for
/// lists published as rated at least that much. With `SUDOKIT_BENCH_VERBOSE` set, each
/// puzzle's time goes to stderr (`ms<TAB>puzzle<TAB>ER`), to find the slow ones.
fn speed(name: &str, step: usize, limit: usize, floor: Option<u16>) {
    let verbose = std::env::var_os("SUDOKIT_BENCH_VERBOSE").is_some();
    let puzzles: Vec<(String, Grid)> = common::load_every(name, step)
        .into_iter()
        .take(limit)
        .map(|g| (g.to_string(), g))
        .collect();
    let start = Instant::now();
    let mut times = Vec::new();
    let mut worst = (Duration::ZERO, String::new(), String::new());
    let mut hist = std::collections::BTreeMap::new();
    let mut below = 0;
    for (text, grid) in &puzzles {
        let t = Instant::now();
        let r = se_rating(grid);
        let dt = t.elapsed();
        times.push(dt);
        if verbose {
            eprintln!("{:.1}\t{text}\t{}", dt.as_secs_f64() * 1000.0, r.er);
        }
        *hist.entry(r.er.0 / 10).or_insert(0) += 1;
        if floor.is_some_and(|f| r.er.0 < f) {
            below += 1;
        }
        if dt > worst.0 {
            worst = (dt, text.clone(), format!("{}/{}/{}", r.er, r.ep, r.ed));
        }
    }
    let total = start.elapsed();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "{name} ({}, {} puzzles): {:.1} puzzles/s, mean {:.1} ms, median {:.1} ms, \
         90% {:.0} ms, slowest {:.0} ms ({} ER={}), over 1 s: {}",
        sample(step),
        puzzles.len(),
        puzzles.len() as f64 / total.as_secs_f64(),
        ms(total) / puzzles.len() as f64,
        ms(at(0.5)),
        ms(at(0.9)),
        ms(worst.0),
        worst.1,
        worst.2,
        times
            .iter()
            .filter(|&&t| t > Duration::from_secs(1))
            .count()
    );
    let h: Vec<String> = hist.iter().map(|(k, v)| format!("{k}.x:{v}")).collect();
    println!("  ER histogram: {}", h.join(" "));
    if let Some(f) = floor {
        println!(
            "  rated below {}.{}: {below} of {}",
            f / 10,
            f % 10,
            puzzles.len()
        );
    }
}

/// Famous puzzles with published SE ratings (not used for calibration).
/// A puzzle starting with `@` is read from that data file.
/// The last field is Sudoku Explainer's own time on this kind of machine where the
/// issue tracker gives it (seconds), for the speed ratio.
const ANCHORS: [(&str, &str, &str, Option<f64>); 5] = [
    (
        "Inkala 2012",
        "@inkala_2012.txt",
        "10.7/10.7/9.7",
        Some(81.0),
    ),
    ("Inkala 2006", "@inkala_2006.txt", "10.6/1.2/1.2", None),
    (
        "AI Escargot",
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        "10.5/1.2/1.2",
        None,
    ),
    (
        "Easter Monster",
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        "11.6/11.6/10.8",
        Some(241.0),
    ),
    (
        "gosudoku simple-01",
        "@gosudoku_simple-01.txt",
        "1.5/1.2/1.2",
        None,
    ),
];

fn anchors() {
    for (name, puzzle, se, se_secs) in ANCHORS {
        let text = match puzzle.strip_prefix('@') {
            Some(file) => common::read_data(file),
            None => puzzle.to_string(),
        };
        let grid = parse(&text).expect("anchor");
        let t = Instant::now();
        let r = se_rating(&grid);
        let secs = t.elapsed().as_secs_f64();
        let ratio = se_secs.map_or(String::new(), |s| {
            format!(", {:.0}x faster than SE", s / secs)
        });
        println!(
            "{name}: ours {}/{}/{} SE {se} in {:.0} ms{ratio} ({:?})",
            r.er,
            r.ep,
            r.ed,
            secs * 1000.0,
            r.hardest.map(|t| t.name())
        );
    }
}

/// Seconds from serate's `%e` (`12.34s`, `1m05s`, `1h02m`, `1d03h`).
fn se_seconds(e: &str) -> Option<f64> {
    let (mut secs, mut num) = (0.0, String::new());
    for ch in e.chars() {
        let unit = match ch {
            'd' => 86400.0,
            'h' => 3600.0,
            'm' => 60.0,
            's' => 1.0,
            _ => {
                num.push(ch);
                continue;
            }
        };
        secs += num.parse::<f64>().ok()? * unit;
        num.clear();
    }
    num.is_empty().then_some(secs)
}

/// Sudoku Explainer itself, on the same puzzles in the same run: the peer the ratings
/// must agree with, and the speed they are compared to. `classpath` holds SE 1.2.1 with
/// gsf's command-line entry point `diuf.sudoku.test.serate` (his SudokuExplainer.jar,
/// 1.2.1.3). Each of `lists` (file, step, limit) is rated by both, one puzzle at a time
/// (SE on one thread, sudokit as the benchmark's other sections); printed: agreement on
/// ER and on all three numbers, both total times and their ratio, and the puzzle where
/// sudokit's lead is least.
fn peer(classpath: &std::ffi::OsStr, lists: &[(&str, usize, usize)], verbose: bool) {
    for &(name, step, limit) in lists.iter().filter(|l| l.1 > 0) {
        let grids: Vec<Grid> = common::load_every(name, step)
            .into_iter()
            .take(limit)
            .collect();
        let puzzles: Vec<String> = grids.iter().map(common::digits).collect();
        let input =
            std::env::temp_dir().join(format!("sudokit-se-peer-{}.txt", std::process::id()));
        std::fs::write(&input, puzzles.join("\n") + "\n").expect("temporary puzzle file");
        let out = std::process::Command::new("java")
            .arg("-cp")
            .arg(classpath)
            .arg("diuf.sudoku.test.serate")
            .arg("--format=%r/%p/%d %e")
            .arg(format!("--input={}", input.display()))
            .output();
        let _ = std::fs::remove_file(&input);
        let out = match out {
            Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
            Ok(o) => {
                println!(
                    "peer: SE failed on {name}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                return;
            }
            Err(e) => {
                println!("peer: cannot run java: {e}");
                return;
            }
        };
        let theirs: Vec<(&str, f64)> = (out.lines())
            .filter_map(|l| l.split_once(' '))
            .filter_map(|(r, e)| Some((r, se_seconds(e.trim())?)))
            .collect();
        assert_eq!(theirs.len(), puzzles.len(), "SE's output on {name}: {out}");
        let (mut er_ok, mut all_ok, mut ours_total, mut se_total) = (0, 0, 0.0, 0.0);
        let mut least = (f64::INFINITY, String::new());
        for ((text, grid), (se, se_secs)) in puzzles.iter().zip(&grids).zip(theirs) {
            let t = Instant::now();
            let r = se_rating(grid);
            let secs = t.elapsed().as_secs_f64();
            let ours = format!("{}/{}/{}", r.er, r.ep, r.ed);
            er_ok += (ours.split('/').next() == se.split('/').next()) as usize;
            all_ok += (ours == se) as usize;
            if verbose && ours != se {
                println!("  differs: {text} SE {se} ours {ours}");
            }
            (ours_total, se_total) = (ours_total + secs, se_total + se_secs);
            // SE counts in hundredths of a second: puzzles it rates in under 0.05 s say
            // little about either.
            if se_secs >= 0.05 && se_secs / secs < least.0 {
                least = (se_secs / secs, format!("{text} ER={se}, SE {se_secs:.2} s"));
            }
        }
        let n = puzzles.len();
        println!(
            "peer {name} ({}, {n} puzzles): SE 1.2.1 agrees on ER {er_ok}/{n}, on \
             ER/EP/ED {all_ok}/{n}; SE {se_total:.1} s, sudokit {ours_total:.2} s, {:.0}x; \
             least lead {:.0}x ({})",
            sample(step),
            se_total / ours_total,
            least.0,
            least.1
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let want = |what: &str| args.is_empty() || args.iter().any(|a| a == what);
    // Puzzles are rated one at a time; from ER 9.5 up a rating builds its chains on
    // every thread of the pool (set RAYON_NUM_THREADS=1 for one core's figures).
    println!("threads per rating: {}", rayon::current_num_threads());
    let env = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let limit = env("SUDOKIT_BENCH_LIMIT", usize::MAX);
    if want("calib") {
        calibration(std::env::var_os("SUDOKIT_BENCH_VERBOSE").is_some());
    }
    if want("anchors") {
        anchors();
    }
    if want("peer") {
        match std::env::var_os("SUDOKIT_SE_CLASSPATH") {
            Some(cp) => peer(
                &cp,
                &[
                    ("se_rated_calibration.tsv", 1, limit),
                    (
                        "puzzles3_magictour_top1465",
                        env("SUDOKIT_SE_SAMPLE_TOP", 10),
                        limit,
                    ),
                    (
                        "puzzles6_forum_hardest_1106",
                        env("SUDOKIT_SE_SAMPLE_HARDEST", 125),
                        limit,
                    ),
                ],
                std::env::var_os("SUDOKIT_BENCH_VERBOSE").is_some(),
            ),
            None => println!("peer: SUDOKIT_SE_CLASSPATH not set, Sudoku Explainer not run"),
        }
    }
    // `speed` runs every set; `top1465`, `hardest`, `17` or `11+` one of them.
    let set = |short: &str| want("speed") || args.iter().any(|a| a == short);
    if set("top1465") {
        speed("puzzles3_magictour_top1465", 1, limit, None);
    }
    if set("hardest") {
        speed(
            "puzzles6_forum_hardest_1106",
            env("SUDOKIT_BENCH_HARDEST_SAMPLE", 1),
            limit,
            None,
        );
    }
    if set("17") {
        speed(
            "puzzles2_17_clue",
            env("SUDOKIT_BENCH_SAMPLE", 100),
            limit,
            None,
        );
    }
    if set("11+") {
        // Published as rated 11.0 or more: a check against SE-family raters of its own.
        speed(
            "puzzles5_forum_hardest_1905_11+",
            env("SUDOKIT_BENCH_SAMPLE_11", 500),
            limit,
            Some(110),
        );
    }
}
