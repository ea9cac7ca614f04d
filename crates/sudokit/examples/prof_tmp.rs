use std::collections::BTreeMap;
use std::time::Instant;
use sudokit::candidates::Candidates;
use sudokit::logic::{apply, finder, TechniqueSet};
use sudokit::parse::records;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let every: usize = std::env::args().nth(2).map_or(1, |s| s.parse().unwrap());
    let f = std::fs::File::open(path).unwrap();
    let set = TechniqueSet::all();
    let mut time: BTreeMap<_, (f64, usize, usize)> = BTreeMap::new();
    for r in records(std::io::BufReader::new(f)).step_by(every) {
        let p = r.unwrap().puzzle.unwrap();
        let mut c = Candidates::new(&p);
        while !c.is_solved() {
            let mut found = None;
            for &t in set.techniques() {
                let fi = finder(t).unwrap();
                let s = Instant::now();
                let st = fi(&c);
                let e = time.entry(t).or_insert((0.0, 0, 0));
                e.0 += s.elapsed().as_secs_f64() * 1e3;
                e.1 += 1;
                if st.is_some() {
                    e.2 += 1;
                    found = st;
                    break;
                }
            }
            let st = found.expect("progress");
            apply(&mut c, &st);
        }
    }
    for (t, (ms, calls, hits)) in time {
        if ms > 20.0 {
            println!(
                "{:40} {:9.1} ms {:7} calls {:6} hits",
                t.name(),
                ms,
                calls,
                hits
            );
        }
    }
}
