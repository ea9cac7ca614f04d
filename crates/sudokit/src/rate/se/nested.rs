//! The rules nested inside chains, run once per reduced grid and kept: the simple rules
//! (per step and thread), and the chaining rules and the static multiple chains' sieve
//! (per grid, for the whole rating, shared by its threads: `NestedCache`).

use super::basic::{fish, hidden_set, locking, naked_set};
use super::chains::{rule_run, ChainRule};
use super::potentials::key;
use super::reach::REACH;
use super::reach::{links_within, Reach};
use super::sieve::{Carry, Closures, Sieve};
use super::{Context, Nested, RemovedRc, SeGrid};
use crate::candidates::Candidates;
use crate::grid::Grid;
use rustc_hash::FxHashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

/// The hints of a chaining rule used inside a chain, on one grid: eliminations (sorted),
/// the candidates they rest on as if the grid had started from the step's grid (or from
/// every candidate), and the complexity the hint adds.
pub(super) type NestedHints = Arc<NestedRun>;

/// A nested rule run's hints, kept in two allocations however many there are: tens of
/// thousands of runs are kept at once (`NestedCache`).
pub(super) struct NestedRun {
    /// Each hint's eliminations, then the candidates it rests on, hint after hint.
    cands: Vec<(u8, u8)>,
    /// Per hint, where its eliminations and then its parents end in `cands`, and its
    /// identity.
    hints: Vec<(u32, u32, Nested)>,
    /// For the loops rule: whether it searched nowhere (`Chainer::searched`).
    dead: bool,
}

/// One hint of a `NestedRun`: its eliminations, the candidates it rests on, its identity.
pub(super) type NestedHint<'a> = (&'a [(u8, u8)], &'a [(u8, u8)], Nested);

impl NestedRun {
    /// Each hint's eliminations, parents and identity, in the rule's order.
    pub(super) fn iter(&self) -> impl Iterator<Item = NestedHint<'_>> {
        let mut start = 0;
        self.hints.iter().map(move |&(rem_end, end, nested)| {
            let (removals, parents) = (
                &self.cands[start..rem_end as usize],
                &self.cands[rem_end as usize..end as usize],
            );
            start = end as usize;
            (removals, parents, nested)
        })
    }
}

/// A grid and a nested rule.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct NestedKey {
    pub(super) val: [u8; 81],
    pub(super) cand: [u16; 81],
    pub(super) chain_rule: (bool, bool, u8),
}

/// Nested rule runs kept before a cache is emptied, to bound its memory (a few tens of MB,
/// runs kept flat as `NestedRun`): the slowest puzzles filled a quarter of this several
/// times over. It may be emptied at any time: a hint found again keeps its identity
/// (`Nested`).
pub(super) const NESTED_CAPACITY: usize = 1 << 16;

/// Keeps `value` under `key` in `map`, emptied first when it holds `NESTED_CAPACITY`.
fn keep<K: Hash + Eq, V>(map: &mut FxHashMap<K, V>, key: K, value: V) {
    if map.len() >= NESTED_CAPACITY {
        map.clear();
    }
    map.insert(key, value);
}

/// Nested chaining rules on reduced grids, the bulk of the work at ER 9.5 and up, kept for
/// one rating and shared by the threads that build its chains. Chains of every level,
/// every step and every nesting depth reach the same reduced grids again (what a chain
/// derives before it calls the nested rules is the same fixpoint, whatever the order), on
/// whichever thread they are built, and a rule's hints on a grid do not depend on where
/// the chain started: only which removals they rest on does, and that is filtered at each
/// use (`chain_rules`).
#[derive(Default)]
pub(crate) struct NestedCache {
    runs: Mutex<FxHashMap<NestedKey, NestedHints>>,
    /// Sieves of static multiple chains on reduced grids, made where the loops rule has
    /// just built the grid's reachability sets and found nothing: the nested static rule
    /// runs where the nested loops rule gave nothing, often at an earlier level or step.
    sieves: Mutex<FxHashMap<GridKey, Sieve>>,
    /// The candidates the rating's last step removed, per cell, if it placed nothing
    /// (`step_done`).
    step_removed: Mutex<Option<[u16; 81]>>,
    /// The dynamic sieves' closures of this step and of the last, by grid
    /// (`dynamic_sieve`).
    closures: Mutex<[FxHashMap<GridKey, Arc<Closures>>; 2]>,
    /// The grid the rating's step starts from (`start_step`), if set.
    step: Mutex<Option<Arc<SeGrid>>>,
    /// Per degree (pair, triplet), the candidates of the latest grid of the rating on
    /// which aligned exclusion found nothing (`aligned_exclusion`).
    exclusion_empty: Mutex<[Option<[u16; 81]>; 2]>,
}

impl NestedCache {
    /// Notes that the rating's next step starts from `g`. Every chain of the step starts
    /// from `g` or from a grid it reduced, and so do those of later steps, so a nested
    /// rule's hint need only report the removals it rests on among `g`'s candidates
    /// (`nested_rule`): the others are dropped wherever it is used.
    pub(crate) fn start_step(&self, g: &SeGrid) {
        *held(&self.step) = Some(Arc::new(g.clone()));
    }

    /// The candidates of the latest grid on which aligned exclusion of `degree` (2 or 3)
    /// found nothing, if any.
    pub(super) fn exclusion_empty(&self, degree: usize) -> Option<[u16; 81]> {
        held(&self.exclusion_empty)[degree - 2]
    }

    /// Notes that aligned exclusion of `degree` found nothing on `g`.
    pub(super) fn set_exclusion_empty(&self, degree: usize, g: &SeGrid) {
        held(&self.exclusion_empty)[degree - 2] = Some(*g.cand());
    }

    /// Notes the step the rating took from `before` to `after`: a reduced grid of the
    /// next step is often one of this step's without its removals, and what the loops
    /// rule and static multiple chains found there may still hold (`inherit_loops`).
    pub(crate) fn step_done(&self, before: &SeGrid, after: &SeGrid) {
        let removed = std::array::from_fn(|c| before.cand()[c] & !after.cand()[c]);
        *held(&self.step_removed) = (*before.val() == *after.val()).then_some(removed);
        let mut closures = held(&self.closures);
        closures[1] = std::mem::take(&mut closures[0]);
    }
}

/// The sieve of a run of dynamic forcing chains on `g`, taking over the closures of the
/// last step's sieve on `g` with that step's removals back where they still hold
/// (`Carry`): nearly all of them, on nearly every grid.
pub(super) fn dynamic_sieve(g: &SeGrid, cache: &NestedCache) -> Sieve {
    let last = with_last_removals(g, cache).and_then(|(cand, removed)| {
        let closures = held(&cache.closures)[1].get(&(*g.val(), cand)).cloned()?;
        Some((closures, removed))
    });
    let carry = last
        .as_ref()
        .and_then(|(closures, removed)| Carry::new(closures, g, removed));
    let (sieve, closures) = Sieve::dynamic(g, carry.as_ref());
    let mut kept = held(&cache.closures);
    if kept[0].len() < CLOSURES_CAPACITY {
        kept[0].insert((*g.val(), *g.cand()), Arc::new(closures));
    }
    sieve
}

/// The candidates of `g` with the last step's removals back, and those removals
/// (`step_done`): what a reduced grid of this step often was at the last.
fn with_last_removals(g: &SeGrid, cache: &NestedCache) -> Option<([u16; 81], [u16; 81])> {
    let removed = (*held(&cache.step_removed))?;
    let mut cand = *g.cand();
    for (c, m) in cand
        .iter_mut()
        .enumerate()
        .filter(|&(c, _)| g.val()[c] == 0)
    {
        *m |= removed[c];
    }
    Some((cand, removed))
}

/// Dynamic sieves' closures kept per step, to bound their memory (about 12 KB a grid):
/// the slowest puzzles make about 650 a step.
const CLOSURES_CAPACITY: usize = 1 << 11;

/// A map of the cache, also after a thread panicked holding it: every entry in it is
/// complete.
fn held<T>(map: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    map.lock().unwrap_or_else(|e| e.into_inner())
}

/// Every candidate present: the starting grid under which a nested rule reports all the
/// removals it could rest on.
pub(super) static EVERY_CANDIDATE: SeGrid = SeGrid {
    marks: Candidates {
        grid: Grid([0; 81]),
        masks: [0x1ff; 81],
        digit_cells: [(1 << 81) - 1; 9],
        givens: 0,
    },
    count: [[9; 27]; 9],
};

/// The hints of chaining rule `chain_rule` on `g` (kept in `cache`).
pub(super) fn nested_rule(g: &SeGrid, chain_rule: ChainRule, cache: &NestedCache) -> NestedHints {
    let key = NestedKey {
        val: *g.val(),
        cand: *g.cand(),
        chain_rule: (chain_rule.mult, chain_rule.dynamic, chain_rule.level),
    };
    if let Some(found) = held(&cache.runs).get(&key).cloned() {
        return found;
    }
    if chain_rule == ChainRule::LOOPS {
        if let Some(found) = inherit_loops(g, &key, cache) {
            return found;
        }
    }
    let step = held(&cache.step).clone();
    let context = Context {
        src: Some(step.as_deref().unwrap_or(&EVERY_CANDIDATE)),
        first: false,
        explain: false,
        solution: None,
        nested: cache,
    };
    let mut run = NestedRun {
        cands: Vec::new(),
        hints: Vec::new(),
        dead: false,
    };
    let (found, searched) = rule_run(g, chain_rule, context, true);
    run.dead = chain_rule == ChainRule::LOOPS && !searched;
    // A hint is known by its chains (`Arena::identity`), as SE's `FullChain` knows it:
    // the same chains found on two grids count once in a hint that uses both.
    for mut h in found.into_iter().filter(|h| !h.parents.is_empty()) {
        h.removals.sort_unstable();
        run.cands.extend(&h.removals);
        let rem_end = run.cands.len() as u32;
        run.cands.extend(&h.parents);
        let nested = Nested {
            id: h.identity,
            complexity: h.complexity,
        };
        run.hints.push((rem_end, run.cands.len() as u32, nested));
    }
    run.cands.shrink_to_fit();
    run.hints.shrink_to_fit();
    let hints = Arc::new(run);
    keep(&mut held(&cache.runs), key, hints.clone());
    hints
}

/// The loops rule's run on `g` (`key`), known without a search when it searched nowhere on
/// the same grid with the last step's removals back and `g` has no static link that grid
/// lacked (`links_within`); the static multiple chains' sieve is carried over too
/// (`Sieve::fixed_without`).
fn inherit_loops(g: &SeGrid, key: &NestedKey, cache: &NestedCache) -> Option<NestedHints> {
    let (cand, removed) = with_last_removals(g, cache)?;
    let last = NestedKey {
        val: *g.val(),
        cand,
        chain_rule: key.chain_rule,
    };
    let found = held(&cache.runs).get(&last).cloned()?;
    let big = SeGrid::from_parts(g.val(), &cand);
    if !found.dead || !links_within(g, &big) {
        return None;
    }
    let run = Arc::new(NestedRun {
        cands: Vec::new(),
        hints: Vec::new(),
        dead: true,
    });
    keep(&mut held(&cache.runs), (*key).clone(), run.clone());
    let sieve = held(&cache.sieves)
        .get(&(*g.val(), cand))
        .map(|s| s.fixed_without(&removed));
    if let Some(sieve) = sieve {
        keep(&mut held(&cache.sieves), (*g.val(), *g.cand()), sieve);
    }
    Some(run)
}

/// Forgets this thread's simple-rule results of earlier puzzles: they would only take up
/// room.
pub(super) fn clear_thread_caches() {
    SIMPLE.with(|n| n.borrow_mut().clear());
}

/// A grid's identity as a key (fixed hash keys: the same on every thread).
pub(super) fn grid_id(g: &SeGrid) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    (*g.val(), *g.cand()).hash(&mut h);
    h.finish()
}

thread_local! {
    /// What the simple rules remove inside chains, by starting grid (`grid_id`) and
    /// reduced grid. Every level of a step chains from the same grid, and a level's
    /// chains meet the reduced grids of the level below before they go further.
    pub(super) static SIMPLE: std::cell::RefCell<FxHashMap<(u64, [u16; 81]), RemovedRc>> =
        Default::default();
}

/// The candidates removed on `g` by the first of the simple rules used inside chains
/// (locking, hidden and naked pairs, X-wings) that removes any, from chains that started
/// on `src` (`id`): only what rests on a candidate the chain removed counts.
pub(super) fn simple_rules(g: &SeGrid, src: &SeGrid, id: u64, cache: &NestedCache) -> RemovedRc {
    let grids = (id, *g.cand());
    if let Some(found) = SIMPLE.with(|s| s.borrow().get(&grids).cloned()) {
        return found;
    }
    let context = Context {
        src: Some(src),
        first: false,
        explain: false,
        solution: None,
        nested: cache,
    };
    let mut res = Vec::new();
    for rule in 0..4 {
        let mut hints = Vec::new();
        match rule {
            0 => locking(g, false, context, &mut hints),
            1 => hidden_set(g, 2, false, context, &mut hints),
            2 => naked_set(g, 2, context, &mut hints),
            _ => fish(g, 2, context, &mut hints),
        }
        for h in hints {
            if h.parents.is_empty() {
                continue;
            }
            let mut removals = h.removals;
            removals.sort_unstable();
            for (c, d) in removals {
                res.push((key(c as usize, d, false), h.parents.clone(), None));
            }
        }
        if !res.is_empty() {
            break;
        }
    }
    let res = Rc::new(res);
    SIMPLE.with(|s| keep(&mut s.borrow_mut(), grids, res.clone()));
    res
}

/// A grid's values and candidates, as a map key.
pub(super) type GridKey = ([u8; 81], [u16; 81]);

/// Keeps the sieve of static multiple chains on `g`, whose reachability sets `reach`
/// holds, in `cache`.
pub(super) fn keep_fixed_sieve(g: &SeGrid, reach: &Reach, cache: &NestedCache) {
    let key = (*g.val(), *g.cand());
    if held(&cache.sieves).contains_key(&key) {
        return;
    }
    let sieve = Sieve::fixed(g, reach);
    keep(&mut held(&cache.sieves), key, sieve);
}

/// The sieve of static multiple chains on `g`: kept from the loops rule's run on `g`, or
/// made from the reachability sets, built for `g` if need be.
pub(super) fn fixed_sieve(g: &SeGrid, cache: &NestedCache) -> Sieve {
    if let Some(sieve) = held(&cache.sieves).get(&(*g.val(), *g.cand())).cloned() {
        return sieve;
    }
    REACH.with(|reach| {
        let mut reach = reach.borrow_mut();
        reach.xy(g);
        Sieve::fixed(g, &reach)
    })
}

#[cfg(test)]
mod tests {
    use super::super::chaining_hints;
    use super::super::tests::reduced_pairs;
    use super::*;

    /// The nested-rule cache computes once with every candidate as the start, or the
    /// step's grid, and filters the removals each hint rests on per use: the same as
    /// running the rule from `src`, a grid the step's reduced.
    #[test]
    fn cached_nested_rules_agree_with_a_direct_run() {
        type Found = Vec<(Vec<(u8, u8)>, Vec<(u8, u8)>, u32)>;
        let mut compared = 0;
        let every = NestedCache::default();
        for ((src, g), from_step) in reduced_pairs(6).into_iter().zip([false, true].repeat(9)) {
            let own = NestedCache::default();
            let cache = if from_step {
                // The step starts from a grid with more candidates than `src`.
                let cand = std::array::from_fn(|c| src.cand()[c] | 1 << (c % 9));
                own.start_step(&SeGrid::from_parts(src.val(), &cand));
                &own
            } else {
                &every
            };
            for chain_rule in [ChainRule::LOOPS, ChainRule::MULTIPLE, ChainRule::dynamic(0)] {
                let context = Context {
                    src: Some(&src),
                    first: false,
                    explain: false,
                    solution: None,
                    nested: cache,
                };
                let direct: Found = chaining_hints(&g, chain_rule, context)
                    .into_iter()
                    .filter(|h| !h.parents.is_empty())
                    .map(|h| {
                        let mut removals = h.removals;
                        removals.sort_unstable();
                        (removals, h.parents, h.complexity)
                    })
                    .collect();
                let cached: Found = nested_rule(&g, chain_rule, cache)
                    .iter()
                    .map(|(removals, parents, nested)| {
                        let parents: Vec<(u8, u8)> = parents
                            .iter()
                            .copied()
                            .filter(|&(c, d)| src.has(c as usize, d))
                            .collect();
                        (removals.to_vec(), parents, nested.complexity)
                    })
                    .filter(|(_, parents, _)| !parents.is_empty())
                    .collect();
                compared += direct.len();
                assert_eq!(direct, cached, "{chain_rule:?}");
                // A hint is known alike from the step's grid and from every candidate.
                if from_step {
                    let all: Vec<_> = (nested_rule(&g, chain_rule, &every).iter())
                        .map(|(removals, _, nested)| (removals.to_vec(), nested))
                        .collect();
                    for (removals, _, nested) in nested_rule(&g, chain_rule, cache).iter() {
                        assert!(all.contains(&(removals.to_vec(), nested)), "{chain_rule:?}");
                    }
                }
            }
        }
        assert!(compared > 50, "too few nested hints compared: {compared}");
    }
}
