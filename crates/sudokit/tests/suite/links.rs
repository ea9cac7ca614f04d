//! Every chain the engine writes, read back into links on a sample of the hardest lists:
//! each link joins candidates present in the position before the step (a single cell holds
//! the node's digit; a group or an almost locked set holds it in one of its cells at least),
//! and no chain is left without links.

use crate::common::load_every;

use sudokit::candidates::Candidates;
use sudokit::links::links;
use sudokit::logic::{self, Engine, TechniqueSet};

#[test]
fn every_chain_reads_into_links_between_live_candidates() {
    let engine = Engine::new(TechniqueSet::all()).unique(true);
    let mut chains = 0;
    for name in ["puzzles3_magictour_top1465", "puzzles6_forum_hardest_1106"] {
        for puzzle in load_every(name, 25) {
            let mut state = Candidates::new(&puzzle);
            for step in engine.explain(&puzzle).steps {
                if let Some(chain) = &step.chain {
                    let found = links(chain);
                    assert!(!found.is_empty(), "no links in {chain}");
                    for link in &found {
                        for node in [link.from, link.to] {
                            let holding = node
                                .cells
                                .iter()
                                .filter(|&cell| state.get(cell).contains(node.digit))
                                .count();
                            let whole = node.cells.len() == 1;
                            assert!(
                                holding > 0 && (!whole || holding == 1),
                                "{chain}: no candidate {} in {:?}",
                                node.digit,
                                node.cells.iter().map(|c| c.to_string()).collect::<Vec<_>>()
                            );
                        }
                    }
                    chains += 1;
                }
                logic::apply(&mut state, &step);
            }
        }
    }
    assert!(chains > 100, "only {chains} chains in the sample");
}
